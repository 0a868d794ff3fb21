"""A real Tableside server for the browser tests and the screenshot script: waitress in a
thread of this process, on a free loopback port, with a fresh SQLite database and the
demonstration SeaFall table; and headless Chromium (the system's, never a download)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.games.seafall.setup import demo_options
from companion.store.sqlite import SQLiteStore
from companion.table import Table
from web.app import create_app
from web.live import LiveServer
from web.services import Services

CHROMIUM = Path(os.environ.get("TABLESIDE_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
PHONE = {"width": 360, "height": 640}
WAIT = 15_000  # ms: what a page gets to show something
TV = {"width": 1920, "height": 1080}


@dataclass
class Server:
    base: str
    services: Services
    table: str

    def url(self, path: str) -> str:
        return self.base + path

    def host_link(self) -> str:
        """The host link of the demo table (what the demo's home page shows)."""
        pin = self.services.auth.demo_host(self.table)
        return self.url(f"/host/{self.table}?pin={pin}")

    def join_link(self) -> str:
        return self.services.auth.invite(self.table, self.base + "/").join_url


@contextmanager
def demo_server(folder: Path, threads: int = 16) -> Iterator[Server]:
    """Serve a fresh demo table until the block ends, on the production server
    (:class:`web.live.LiveServer`, so its stop is the one ``tableside serve`` uses: it ends
    the live streams first, and stops even when waitress's wake-up pipe is gone)."""
    store = SQLiteStore(folder / "tableside.sqlite3")
    services = Services(store, data_dir=folder)
    table = Table.create(store, "seafall", demo_options(), "demo")
    services.demo_table = table.session_id
    server = LiveServer(create_app(services), services.live, port=0, threads=threads)
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    try:
        yield Server(f"http://127.0.0.1:{server.port}", services, table.session_id)
    finally:
        services.live.close(timeout=1.0)  # ends the live streams
        dispatcher = server.server.task_dispatcher
        deadline = time.monotonic() + 5
        while (dispatcher.active_count or dispatcher.queue) and time.monotonic() < deadline:
            time.sleep(0.02)  # let the last answers go out
        server.stop()
        thread.join(timeout=5)
        services.close()
        assert not thread.is_alive(), "the test server did not stop"


@contextmanager
def chromium() -> Iterator[Any]:
    """Headless system Chromium through Playwright (``executable_path``; nothing installed)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


