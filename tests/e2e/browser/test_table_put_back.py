"""A page left open while the table is put back (a backup restored, the server restarted):
it takes the table as the server has it and says so (docs/ui.md). Before, it dropped every
version not newer than its own and kept the game that was gone, its badge saying "live"."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import expect

from companion.engine import Command
from companion.store import backup
from companion.store.sqlite import SQLiteStore
from companion.table import Table
from tests.e2e.browser.test_button_box import EXPLORING
from web.app import create_app
from web.live import LiveServer
from web.services import Services

PUT_BACK = "The table was put back to an earlier point"


@contextmanager
def serving(folder: Path, port: int = 0) -> Iterator[tuple[Services, int]]:
    """The server of ``tableside serve`` on the database in ``folder`` (its tables as they
    are there), on ``port``: a restart is a new one on the same port."""
    services = Services(SQLiteStore(folder / "tableside.sqlite3"), data_dir=folder)
    server = LiveServer(create_app(services), services.live, port=port, threads=8)
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    try:
        yield services, server.port
    finally:
        services.live.close(timeout=1.0)
        dispatcher = server.server.task_dispatcher
        deadline = time.monotonic() + 5
        while (dispatcher.active_count or dispatcher.queue) and time.monotonic() < deadline:
            time.sleep(0.02)
        server.stop()
        thread.join(timeout=5)
        services.close()


def test_a_page_left_open_takes_the_table_put_back_by_a_restore(browser, tmp_path) -> None:
    db = tmp_path / "tableside.sqlite3"
    store = SQLiteStore(db)
    table_id = Table.create(store, "seafall", EXPLORING, "host").session_id
    store.close()
    saved = tmp_path / "saved.sqlite3"
    context = browser.new_context(viewport={"width": 360, "height": 640})
    errors: list = []
    try:
        with serving(tmp_path) as (services, port):
            table = services.tables.get(table_id)
            backup.take(db, saved)  # the backup, as the table was set up
            saved_at = str(table.version)
            page = context.new_page()
            page.on("pageerror", lambda error: errors.append(error))
            page.goto(f"http://127.0.0.1:{port}/t/{table_id}")
            status = page.locator("#status")
            expect(status).to_have_attribute("data-version", saved_at)
            table.apply(Command("hire_guild", {"guild": "explorers"}, "red"))
            table.apply(Command("explore", {"flagship": "red-1", "site": "isle/1"}, "red"))
            expect(status).to_have_attribute("data-version", str(table.version))
            expect(page.locator("#conn")).to_have_text("live")
        backup.restore(saved, db)  # the server stopped: back to the backup
        with serving(tmp_path, port) as (services, _):
            expect(status).to_have_attribute("data-version", saved_at)  # not the gone game's
            expect(page.locator("#notice")).to_contain_text(PUT_BACK)
            expect(page.locator("#conn")).to_have_text("live")
            table = services.tables.get(table_id)
            table.apply(Command("hire_guild", {"guild": "explorers"}, "red"))
            later = str(table.version)
            expect(status).to_have_attribute("data-version", later)
            expect(page.locator("#notice")).not_to_contain_text(PUT_BACK)  # said a while
            page.close()
    finally:
        context.close()
    assert errors == []
