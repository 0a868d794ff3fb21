"""The room on the disk that holds the games (web/runtime/storage.py; docs/runtime.md,
"Storage"): the hardware status says when it runs low and what of Tableside's takes room,
the terminal tells each change of state once, and a full disk refuses a command with 507
while a dice read waits for the table, to be confirmed once there is room."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.store import SQLiteStore
from tests.support.web import browser
from tests.web.runtime.support import demo_profile
from tests.web.runtime.test_dice_api import new_table, post_read, settled, state, upload
from web.app import create_app
from web.runtime import Runtime, RuntimeOptions
from web.runtime.console import changes
from web.runtime.status import ALERT, OK, WARNING, Cached
from web.runtime.storage import ALERT_FREE, MB, WARNING_FREE, read_storage, storage_status
from web.services import Services

GB = 1024 * MB


@pytest.mark.parametrize("free, expected", [
    (WARNING_FREE, OK), (WARNING_FREE - 1, WARNING), (ALERT_FREE, WARNING),
    (ALERT_FREE - 1, ALERT), (0, ALERT)])
def test_the_state_follows_the_free_space(free, expected):
    status = storage_status(Path("/data"), free, 16 * GB)
    assert status.state == expected and (status.free_bytes, status.total_bytes) == (
        free, 16 * GB)
    assert status.path == "/data"


def test_the_detail_says_what_to_do_and_what_of_tableside_takes_room():
    low = storage_status(Path("/data"), 100 * MB, 16 * GB, pictures=300 * MB,
                         budget=512 * MB, backups=40 * MB)
    assert low.state == ALERT
    assert low.detail.startswith("only 100 MB free on the disk holding the games")
    assert "free some space now" in low.detail and "nothing is lost" in low.detail
    assert ("the dice pictures take 300 MB (kept within 512 MB: a lower 'tableside serve "
            "--pictures-mb' keeps fewer)") in low.detail
    assert "the backups take 40 MB ('tableside backup list')" in low.detail
    fine = storage_status(Path("/data"), 5 * GB, 16 * GB, pictures=300 * MB)
    assert fine.detail == "5,120 MB free on the disk holding the games"
    assert fine.to_json()["detail_said"] == {"key": "hw.storage_free", "values": {"mb": 5120}}
    assert storage_status(Path("/d"), 500 * MB, GB).detail == (
        "500 MB free on the disk holding the games: free some space before the next game")


def test_a_read_only_disk_is_an_alert_whatever_the_free_space():
    status = storage_status(Path("/data"), 9 * GB, 16 * GB, read_only=True)
    assert (status.state, status.cause) == (ALERT, "read_only")
    assert status.detail.startswith("the disk holding the games is read-only")
    assert "replace the card" in status.detail
    assert storage_status(Path("/d"), 500 * MB, GB).cause == "low"
    assert storage_status(Path("/d"), 5 * GB, 16 * GB).cause is None


def test_the_disk_is_read_even_before_the_folder_exists(tmp_path: Path):
    (tmp_path / "backups").mkdir()
    (tmp_path / "backups" / "one.sqlite3").write_bytes(b"x" * 3000)
    status = read_storage(tmp_path / "data" / "not-yet", lambda: (1234, 5678),
                          backups=tmp_path / "backups")
    assert status is not None and status.path == str(tmp_path / "data" / "not-yet")
    assert 0 < status.free_bytes <= status.total_bytes
    assert (status.pictures_bytes, status.pictures_budget, status.backups_bytes) == (
        1234, 5678, 3000)


def test_the_terminal_tells_the_storage_once_per_state(services):
    free = [5 * GB]
    runtime = Runtime(services, RuntimeOptions(camera="none", box="none", gpio=False),
                      pi_model=None, power=lambda: None,
                      storage=lambda: storage_status(Path("/data"), free[0], 16 * GB))
    try:
        first = runtime.status()
        assert first["storage"]["state"] == OK
        assert "Storage: 5,120 MB free on the disk holding the games" in changes(None, first)
        free[0] = 900 * MB
        runtime.storage = Cached(runtime.storage._read)
        low = runtime.status()
        assert [line for line in changes(first, low) if line.startswith("Storage:")] == [
            f"Storage: {low['storage']['detail']}"]
        free[0] = 800 * MB  # less, the same state: no new line
        runtime.storage = Cached(runtime.storage._read)
        lower = runtime.status()
        assert changes(low, lower) == []
        free[0] = 100 * MB  # an alert: told
        runtime.storage = Cached(runtime.storage._read)
        alert = runtime.status()
        assert changes(lower, alert) == [f"Storage: {alert['storage']['detail']}"]
        read_only = Runtime.status  # the card goes read-only: the same state, news
        runtime.storage = Cached(lambda: storage_status(Path("/data"), free[0], 16 * GB,
                                                        read_only=True))
        assert changes(alert, read_only(runtime)) == [
            "Storage: the disk holding the games is read-only (a memory card that fails is "
            "mounted so): no move can be saved; restart the Pi, and if it stays so, copy the "
            "latest backup to a USB stick and replace the card"]
    finally:
        runtime.stop()


def test_a_full_disk_answers_507_and_a_read_waits_until_there_is_room(tmp_path: Path):
    """The game database capped at its size (SQLite's page limit: its own "database or disk
    is full"). A new table is refused with 507 and the reason; a photo's read, certain,
    cannot be applied: it waits, saying why, and the table is unchanged; once there is
    room, confirming it applies it."""
    data = tmp_path / "data"
    services = Services(SQLiteStore(data / "tableside.sqlite3"), data_dir=data)
    services.dice().readers.profiles["seafall"] = demo_profile()
    try:
        client = browser(create_app(services, {"TESTING": True}))
        tid = new_table(client)
        filler = new_table(client, rolls=10_000)
        conn = services.store._conn
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages}")
        for _ in range(200):  # tables until one does not fit
            answer = client.post("/api/tables", json={"game": "dicegame", "options": {
                "die": "seafall", "count": 2, "rolls": 3}})
            if answer.status_code != 201:
                break
        assert answer.status_code == 507, answer.json
        # then notes, ever smaller, until none fits: the last pages full to a few bytes (a
        # setup a few bytes longer left room for the roll, and it was applied)
        for size in (2000, 500, 120, 30, 1):
            for _ in range(400):
                noted = client.post(f"/api/tables/{filler}/commands",
                                    json={"type": "note", "text": "x" * size})
                if noted.status_code != 200:
                    break
            assert noted.status_code == 507, noted.json
        assert answer.json["error"] == "storage_full"
        assert "full: nothing was written" in answer.json["message"]
        before = state(client, tid)
        photo, faces = settled(0)
        read = upload(client, tid, photo).json
        assert read["status"] == "pending" and [d["face"] for d in read["dice"]] == faces
        assert read["note"].startswith("not applied: ") and "is full" in read["note"]
        assert state(client, tid)["version"] == before["version"]
        assert client.get(f"/api/tables/{tid}/dice/latest").json["read_id"] == read["read_id"]
        refused = post_read(client, tid, read, "confirm",
                            {"expected_version": before["version"]})
        assert refused.status_code == 507 and refused.json["error"] == "storage_full"
        conn.execute(f"PRAGMA max_page_count = {pages + 1000}")  # space freed
        done = post_read(client, tid, read, "confirm", {"expected_version": before["version"]})
        assert done.status_code == 200, done.json
        assert done.json["status"] == "applied"
        assert state(client, tid)["state"]["rolled"] == [faces]
    finally:
        services.close()


def test_the_room_for_pictures_reaches_the_reads(tmp_path: Path):
    """``tableside serve --pictures-mb 3`` gives Services 3 MB, which the read store keeps
    its frames within; without it, the default."""
    from companion.store.sqlite import MEMORY
    from web.runtime.reads import FRAMES_BUDGET

    for budget, expected in ((3 * MB, 3 * MB), (None, FRAMES_BUDGET)):
        services = Services(SQLiteStore(MEMORY), data_dir=tmp_path / str(budget),
                            pictures_budget=budget)
        try:
            assert services.dice().store.frames_budget == expected
        finally:
            services.close()


def test_a_read_whose_frame_was_let_go_says_why_and_keeps_its_crops(tmp_path: Path):
    """With no room for frames, a read applied at once loses its frame when the next read
    comes; its crops stay, and its frame's URL says why it is gone."""
    from companion.store.sqlite import MEMORY

    services = Services(SQLiteStore(MEMORY), data_dir=tmp_path / "data", pictures_budget=0)
    services.dice().readers.profiles["seafall"] = demo_profile()
    try:
        client = browser(create_app(services, {"TESTING": True}))
        tid = new_table(client, rolls=3)
        first = upload(client, tid, settled(0)[0]).json
        assert first["status"] == "applied"
        assert client.get(first["frame_url"]).status_code == 200  # the latest stays
        upload(client, tid, settled(1)[0])
        gone = client.get(first["frame_url"])
        assert gone.status_code == 404 and "let go" in gone.json["message"]
        assert "--pictures-mb" in gone.json["message"]
        assert all(client.get(d["crop_url"]).status_code == 200 for d in first["dice"])
    finally:
        services.close()


def test_a_new_phone_on_a_full_disk_is_answered_507_not_as_a_bug(tmp_path: Path):
    """Who joined which table is a side file of the web's own (web/auth_store.py): each new
    phone's session is a row of it. On the full disk it answers as the game's database
    does, 507, not as a bug (500); once there is room, the next phone joins."""
    from tests.support.web import join

    data = tmp_path / "data"
    services = Services(SQLiteStore(data / "tableside.sqlite3"), data_dir=data)
    try:
        app = create_app(services, {"TESTING": True})
        host = browser(app)
        tid = new_table(host)
        conn = services.auth.store._conn
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages}")
        answers = []
        for _ in range(5000):  # new phones until one does not fit
            answer = app.test_client().get("/api/session")
            answers.append(answer.status_code)
            if answer.status_code != 200:
                break
        assert answers[-1] == 507 and set(answers[:-1]) == {200}, answers[-3:]
        assert answer.json["error"] == "storage_full"
        assert "the server's files is full: nothing was written" in answer.json["message"]
        conn.execute(f"PRAGMA max_page_count = {pages + 1000}")  # room again
        join(app, host, tid, "Rosa", "red")
    finally:
        services.close()


def test_a_read_only_disk_answers_503_and_the_table_is_unchanged(tmp_path: Path):
    data = tmp_path / "data"
    services = Services(SQLiteStore(data / "tableside.sqlite3"), data_dir=data)
    try:
        client = browser(create_app(services, {"TESTING": True}))
        tid = new_table(client)
        before = state(client, tid)
        services.store._conn.execute("PRAGMA query_only = 1")
        answer = client.post("/api/tables", json={"game": "dicegame", "options": {
            "die": "seafall", "count": 2, "rolls": 3}})
        assert answer.status_code == 503 and answer.json["error"] == "storage_read_only"
        assert "is read-only" in answer.json["message"]
        assert state(client, tid) == before
        services.store._conn.execute("PRAGMA query_only = 0")
        assert new_table(client) != tid
    finally:
        services.close()


class _FailingCard:
    """The store's connection on a card that fails: every commit is SQLite's "disk I/O
    error" (SQLITE_IOERR_FSYNC), at the sqlite layer, while ``failing``."""

    def __init__(self, conn) -> None:
        self._conn, self.failing = conn, True

    def execute(self, sql: str, *args):
        if self.failing and sql == "COMMIT":
            error = sqlite3.OperationalError("disk I/O error")
            error.sqlite_errorcode = sqlite3.SQLITE_IOERR_FSYNC
            raise error
        return self._conn.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self._conn, name)


def test_a_disk_io_error_answers_503_with_the_storage_alert_and_the_table_unchanged(
        tmp_path: Path):
    """QA: a failing SD card ("disk I/O error") was answered as a bug, 500 with a
    traceback. It is answered as a read-only card is: 503, nothing written, what to do; and
    the storage part of the hardware status (the alert at the top of every page) says the
    card failed from then on, until serve restarts."""
    data = tmp_path / "data"
    services = Services(SQLiteStore(data / "tableside.sqlite3"), data_dir=data)
    services.runtime = Runtime(services, RuntimeOptions(camera="none", box="none", gpio=False),
                               pi_model=None, power=lambda: None)
    try:
        client = browser(create_app(services, {"TESTING": True}))
        tid = new_table(client)
        before = state(client, tid)
        assert client.get("/api/hardware").json["storage"]["state"] == OK
        card = _FailingCard(services.store._conn)
        services.store._conn = card
        answer = client.post(f"/api/tables/{tid}/commands", json={
            "type": "note", "text": "lost?", "expected_version": before["version"]})
        assert answer.status_code == 503, answer.json
        assert answer.json["error"] == "storage_failing"
        assert "failed to read or write (a disk I/O error" in answer.json["message"]
        assert "nothing was written" in answer.json["message"]
        assert ("restart the Pi; if it happens again, the card is failing: copy the latest "
                "backup to a USB stick and replace the card") in answer.json["message"]
        storage = client.get("/api/hardware").json["storage"]
        assert (storage["state"], storage["cause"]) == (ALERT, "failing")
        assert "restart the Pi" in storage["detail"]
        card.failing = False  # after the restart, on a card that works again
        services.store._conn = card._conn
        assert state(client, tid) == before
        with SQLiteStore(data / "tableside.sqlite3") as other:
            assert other.version(tid) == before["version"]
    finally:
        services.close()


def test_a_disk_with_no_room_left_is_full_not_almost_full():
    """QA: with 0 bytes free the banner said "almost full". Under 1 MB it is full (cause
    ``full``: the pages say "full"), and the detail says so."""
    status = storage_status(Path("/data"), 0, 16 * GB, backups=40 * MB)
    assert (status.state, status.cause) == (ALERT, "full")
    assert status.detail.startswith("the disk holding the games is full (0 MB free): no move "
                                    "can be saved")
    assert "the backups take 40 MB" in status.detail and "almost" not in status.detail
    assert storage_status(Path("/data"), MB, 16 * GB).cause == "low"
    import json

    for lang in ("en", "fr"):
        said = json.loads((Path(__file__).resolve().parents[3] / "web" / "i18n"
                           / f"{lang}.json").read_text(encoding="utf-8"))
        assert said["hw.storage.state.alert_full"] and said["hw.storage.alert_full"]
        assert "almost" not in said["hw.storage.alert_full"]
