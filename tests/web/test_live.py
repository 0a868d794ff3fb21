"""Live updates over Server-Sent Events, through a real waitress server on a free port:
every change from any entry point reaches every stream, a reconnect resumes after the last
version seen (nothing missed, nothing twice), each viewer gets its own view, idle streams
get heartbeats, and streams end cleanly when the server stops."""

from __future__ import annotations

import errno
import http.client
import json
import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from companion.engine import Command
from companion.store.sqlite import MEMORY, SQLiteStore
from tests.support import tally
from tests.support.web import browser, join
from web.app import create_app
from web.live import Broker, LiveServer
from web.services import Services


@pytest.fixture(autouse=True)
def _tally() -> None:
    tally.register()


class Stream:
    """A phone's EventSource, in the standard library: messages as dicts, comments too."""

    def __init__(self, port: int, path: str, cookie: str | None = None,
                 last_event_id: int | None = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        headers = {"Accept": "text/event-stream"}
        if cookie:
            headers["Cookie"] = f"tableside_session={cookie}"
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.conn.request("GET", path, headers=headers)
        self.response = self.conn.getresponse()
        self.status = self.response.status

    def next(self, comments: bool = False) -> dict[str, Any] | None:
        """The next message (``None`` when the stream ends)."""
        fields: dict[str, Any] = {}
        while True:
            line = self.response.readline()
            if not line:
                return None
            text = line.decode().rstrip("\n")
            if text == "":
                if fields:
                    if "data" in fields:
                        fields["data"] = json.loads(fields["data"])
                    return fields
                continue
            if text.startswith(":"):
                if comments:
                    return {"comment": text[1:].strip()}
                continue
            name, _, value = text.partition(": ")
            fields[name] = value

    def table(self) -> dict[str, Any]:
        """The next table message (skipping the ``retry`` hint)."""
        while True:
            message = self.next()
            assert message is not None, "the stream ended"
            if message.get("event") == "table":
                assert int(message["id"]) == message["data"]["version"]
                return message["data"]

    def close(self) -> None:
        self.conn.close()


@dataclass
class Live:
    app: Any
    services: Services
    server: LiveServer

    def stream(self, table_id: str, client: Any = None, **kw: Any) -> Stream:
        cookie = client.get_cookie("tableside_session").value if client else None
        query = kw.pop("query", "")
        return Stream(self.server.port, f"/api/stream/{table_id}{query}", cookie, **kw)


def serve(services: Services) -> Iterator[Live]:
    app = create_app(services, {"TESTING": True})
    server = LiveServer(app, services.live, port=0, threads=24)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield Live(app, services, server)
    finally:
        server.stop()
        thread.join(10)
        assert not thread.is_alive(), "the server did not stop"
        services.close()


@pytest.fixture
def live() -> Iterator[Live]:
    services = Services(SQLiteStore(MEMORY))
    services.live = Broker(heartbeat=0.2, remembered=4)
    yield from serve(services)


def tally_table(live: Live) -> tuple[Any, str]:
    host = browser(live.app)
    created = host.post("/api/tables", json={"game": "tally",
                                             "options": {"players": ["ann", "bob"]}})
    assert created.status_code == 201
    return host, created.json["id"]


def add(client: Any, tid: str, player: str = "ann", **extra: Any) -> Any:
    return client.post(f"/api/tables/{tid}/commands",
                       json={"type": "add", "player": player, **extra})


def test_every_change_from_every_entry_point_reaches_every_stream(live):
    host, tid = tally_table(live)
    one, two = live.stream(tid), live.stream(tid)
    assert one.status == two.status == 200
    assert one.response.getheader("Content-Type").startswith("text/event-stream")
    assert one.table()["version"] == two.table()["version"] == 1
    assert add(host, tid).status_code == 200  # a phone
    live.services.tables.get(tid).apply(Command("add_all", {"amount": 2}))  # the camera, ...
    assert host.post(f"/api/tables/{tid}/undo", json={}).status_code == 200
    for stream in (one, two):
        seen = [stream.table() for _ in range(3)]
        assert [s["version"] for s in seen] == [2, 4, 5]
        assert seen[0]["table"]["state"]["counters"] == {"ann": 1, "bob": 0}
        assert seen[1]["table"]["state"]["counters"] == {"ann": 3, "bob": 2}
        assert seen[2]["table"]["state"]["counters"] == {"ann": 1, "bob": 0}
        assert seen[2]["table"]["can_redo"] is True
        assert [e["type"] for e in seen[1]["events"]] == ["CounterRaised", "CounterRaised"]
        assert all(e["text"] and "payload" not in e for e in seen[1]["events"])
        stream.close()


def test_a_dice_read_waiting_for_the_table_reaches_every_stream(live):
    """A read left pending changes no version: the streams send ``event: dice`` (no id, so
    a reconnect still resumes by version), and table messages go on as before."""
    host, tid = tally_table(live)
    one, two = live.stream(tid), live.stream(tid)
    assert one.table()["version"] == two.table()["version"] == 1
    live.services.live.dice_read(tid)
    live.services.live.dice_read("no-such-table")  # nothing listens: nothing happens
    for stream in (one, two):
        message = None
        for _ in range(50):  # heartbeats every 0.2 s: a lost event fails in 10 s, not hangs
            message = stream.next(comments=True)
            if message is None or message.get("event") == "dice":
                break
        assert message is not None and message.get("event") == "dice" and "id" not in message
        assert message["data"] == {"table": tid, "reads": 1}
    add(host, tid)
    assert one.table()["version"] == two.table()["version"] == 2
    one.close()
    two.close()


def test_a_campaign_moving_on_reaches_the_streams_of_its_game(live):
    """A game recorded into its campaign, or a step taken back, changes no version of the
    table: its streams send ``event: campaign`` (the page asks the campaign again), after
    a dice read's own event when both came, and table messages go on as before."""
    host, tid = tally_table(live)
    stream = live.stream(tid)
    assert stream.table()["version"] == 1
    live.services.live.dice_read(tid)
    live.services.live.campaign_changed(tid)
    live.services.live.campaign_changed("no-such-table")  # nothing listens: nothing happens
    seen = []
    for _ in range(50):  # heartbeats every 0.2 s: a lost event fails in 10 s, not hangs
        message = stream.next(comments=True)
        if message is None:
            break
        if message.get("event") in ("dice", "campaign"):
            seen.append(message)
        if any(m["event"] == "campaign" for m in seen):
            break
    campaign = [m for m in seen if m["event"] == "campaign"]
    assert [m["data"] for m in campaign] == [{"table": tid, "campaign": 1}]
    assert "id" not in campaign[0]  # no id: a reconnect still resumes by version
    assert [m["event"] for m in seen] == ["dice", "campaign"]
    add(host, tid)
    assert stream.table()["version"] == 2
    stream.close()


def test_who_plays_what_changing_reaches_the_streams(live):
    """A join, the host's "players act for all" and a freed seat change no version: the
    streams send ``event: seats`` (the pages ask who they are again), one for each."""
    host, tid = tally_table(live)
    stream = live.stream(tid)
    assert stream.table()["version"] == 1
    token = host.get(f"/api/tables/{tid}/invite").json["token"]
    ann = browser(live.app)
    assert ann.post(f"/api/tables/{tid}/join", json={"token": token, "name": "Ann",
                                                     "province": "ann"}).status_code == 200
    assert host.post(f"/api/tables/{tid}/settings",
                     json={"players_act_for_all": True}).status_code == 200
    assert host.delete(f"/api/tables/{tid}/seats/ann").status_code == 200
    seats = []
    for _ in range(50):  # heartbeats every 0.2 s: a lost event fails in 10 s, not hangs
        message = stream.next(comments=True)
        if message is None:
            break
        if message.get("event") == "seats":
            seats.append(message["data"]["seats"])
        if seats and seats[-1] == 3:
            break
    assert seats and seats[-1] == 3 and seats == sorted(seats)  # each counted, none lost
    stream.close()


def test_who_plays_what_changing_shows_in_the_tables_get_for_polling_pages(live):
    """A page without the stream polls ``GET /api/tables/<id>``: its ``seats`` digest
    changes with each join, setting and freed seat (no version does), and names no one."""
    host, tid = tally_table(live)
    standing = [host.get(f"/api/tables/{tid}").json["seats"]]
    token = host.get(f"/api/tables/{tid}/invite").json["token"]
    ann = browser(live.app)
    assert ann.post(f"/api/tables/{tid}/join", json={"token": token, "name": "Ann",
                                                     "province": "ann"}).status_code == 200
    standing.append(ann.get(f"/api/tables/{tid}").json["seats"])
    assert host.post(f"/api/tables/{tid}/settings",
                     json={"players_act_for_all": True}).status_code == 200
    standing.append(host.get(f"/api/tables/{tid}").json["seats"])
    assert host.delete(f"/api/tables/{tid}/seats/ann").status_code == 200
    table = host.get(f"/api/tables/{tid}").json
    standing.append(table["seats"])
    assert len(set(standing)) == 4 and table["version"] == 1
    assert "Ann" not in table["seats"]
    assert host.get(f"/api/tables/{tid}").json["seats"] == standing[-1]  # the same: no news


def test_fortune_counted_on_a_button_reaches_the_streams(live):
    """A fortune button counts tokens to spend without a new version: the streams send
    ``event: buttons`` (the pages ask ``GET .../buttons`` for the count), one a press; a
    table message follows once the count is spent. The phones did not hear of it."""
    from tests.web.test_buttons import CONFIRM, FORTUNE_UP, SETUP, to_fortune_prompt

    host = browser(live.app)
    tid = host.post("/api/tables", json={"game": "seafall", "options": SETUP}).json["id"]
    to_fortune_prompt(host, tid)
    stream = live.stream(tid)
    version = stream.table()["version"]
    for _ in range(2):
        assert host.post(f"/api/tables/{tid}/buttons", json={"button": FORTUNE_UP}).json[
            "fortune"] in (1, 2)
    counts = []
    for _ in range(50):  # heartbeats every 0.2 s: a lost event fails in 10 s, not hangs
        message = stream.next(comments=True)
        if message is None:
            break
        if message.get("event") == "buttons":
            assert "id" not in message  # a reconnect still resumes by version
            counts.append(message["data"])
        if counts and counts[-1]["buttons"] == 2:
            break
    assert counts and counts[-1] == {"table": tid, "buttons": 2}
    assert host.post(f"/api/tables/{tid}/buttons", json={"button": CONFIRM}).status_code == 200
    assert stream.table()["version"] > version
    stream.close()


def test_a_reconnect_resumes_after_the_last_version_seen(live):
    host, tid = tally_table(live)
    first = live.stream(tid)
    assert first.table()["version"] == 1
    add(host, tid)
    assert first.table()["version"] == 2
    first.close()  # the phone sleeps; the table moves on
    for player in ("bob", "ann", "bob"):
        add(host, tid, player)
    again = live.stream(tid, last_event_id=2)
    assert [again.table()["version"] for _ in range(3)] == [3, 4, 5]
    add(host, tid)  # then it goes on live, with nothing doubled
    assert again.table()["version"] == 6
    again.close()
    by_query = live.stream(tid, query="?since=4")
    assert [by_query.table()["version"] for _ in range(2)] == [5, 6]
    by_query.close()


def test_a_phone_away_longer_than_remembered_gets_the_versions_rebuilt_from_the_log(live):
    host, tid = tally_table(live)
    first = live.stream(tid)
    first.table()
    seen_live = {}
    for i in range(10):  # the channel remembers 4
        add(host, tid, ("ann", "bob")[i % 2])
        message = first.table()
        seen_live[message["version"]] = message
    first.close()
    late = live.stream(tid, last_event_id=1)
    rebuilt = [late.table() for _ in range(10)]
    assert [m["version"] for m in rebuilt] == list(range(2, 12))
    for message in rebuilt:
        assert message == seen_live[message["version"]]
    late.close()


def test_each_viewer_sees_only_their_own_hidden_information(live):
    host, tid = tally_table(live)
    ann, bob = join(live.app, host, tid, "Ann", "ann"), join(live.app, host, tid, "Bob", "bob")
    streams = {"ann": live.stream(tid, ann), "bob": live.stream(tid, bob),
               "spectator": live.stream(tid)}
    for stream in streams.values():
        stream.table()
    answer = ann.post(f"/api/tables/{tid}/commands",
                      json={"type": "note", "player": "ann", "text": "go for bob"})
    assert answer.status_code == 200
    notes = {who: s.table()["table"]["state"]["notes"] for who, s in streams.items()}
    assert notes == {"ann": {"ann": "go for bob"}, "bob": {}, "spectator": {}}
    leaked = live.stream(tid, bob, query="?viewer=ann")
    assert leaked.status == 403
    assert json.loads(leaked.response.read())["error"] == "forbidden"
    for stream in [*streams.values(), leaked]:
        stream.close()


def test_idle_streams_get_heartbeats(live):
    _, tid = tally_table(live)
    stream = live.stream(tid)
    stream.table()
    assert stream.next(comments=True) == {"comment": "keep-alive"}
    stream.close()


def test_a_stale_page_gets_a_conflict_and_the_streams_see_nothing(live):
    host, tid = tally_table(live)
    stream = live.stream(tid)
    assert stream.table()["version"] == 1
    assert add(host, tid, expected_version=1).status_code == 200
    stale = add(host, tid, "bob", expected_version=1)
    assert stale.status_code == 409 and stale.json["error"] == "conflict"
    assert stale.json["version"] == 2
    assert stream.table()["version"] == 2
    assert stream.next(comments=True) == {"comment": "keep-alive"}  # nothing for the 409
    stream.close()


def test_bad_resume_points_are_400_and_unknown_tables_404(live):
    _, tid = tally_table(live)
    for query, status in (("?since=two", 400), ("?since=-1", 400)):
        stream = live.stream(tid, query=query)
        assert stream.status == status
        assert json.loads(stream.response.read())["error"] == "invalid"
        stream.close()
    missing = live.stream("nope")
    assert missing.status == 404
    missing.close()


def test_sixteen_streams_are_held_open_at_once_and_each_gets_the_change(live):
    host, tid = tally_table(live)
    streams = [live.stream(tid) for _ in range(16)]
    for stream in streams:
        assert stream.table()["version"] == 1
    assert live.services.live.open_streams == 16
    assert live.services.live.max_streams == 20  # 24 threads, 4 kept for requests
    assert live.app.test_client().get(f"/api/tables/{tid}").status_code == 200
    assert add(host, tid).status_code == 200  # requests still have threads
    assert {stream.table()["version"] for stream in streams} == {2}
    for stream in streams:
        stream.close()


def test_past_the_stream_limit_a_clear_busy_answer():
    services = Services(SQLiteStore(MEMORY))
    services.live = Broker(heartbeat=0.2, max_streams=2)
    for live in serve(services):
        _, tid = tally_table(live)
        held = [live.stream(tid), live.stream(tid)]
        for stream in held:
            stream.table()
        extra = live.stream(tid)
        assert extra.status == 503 and extra.response.getheader("Retry-After") == "5"
        assert json.loads(extra.response.read())["error"] == "busy"
        for stream in [*held, extra]:
            stream.close()


def test_streams_end_cleanly_when_the_server_stops():
    services = Services(SQLiteStore(MEMORY))
    services.live = Broker(heartbeat=30.0)  # no heartbeat would wake them
    server_run = serve(services)
    live = next(server_run)
    _, tid = tally_table(live)
    streams = [live.stream(tid) for _ in range(3)]
    for stream in streams:
        stream.table()
    ended: list[Any] = []
    reader = threading.Thread(target=lambda: ended.extend(s.next() for s in streams))
    reader.start()
    with pytest.raises(StopIteration):
        next(server_run)  # stops the server; fails if its thread does not end
    reader.join(5)
    assert ended == [None, None, None]  # each stream ended, none cut mid-message
    assert services.live.open_streams == 0


def test_the_server_stops_even_when_its_wake_up_pipe_is_gone(caplog):
    # stop() wakes waitress's loop through a pipe; once, under a full test run, writing to
    # it failed (EBADF). The server must stop all the same, its streams ended cleanly.
    services = Services(SQLiteStore(MEMORY))
    services.live = Broker(heartbeat=30.0)
    server_run = serve(services)
    live = next(server_run)
    _, tid = tally_table(live)
    stream = live.stream(tid)
    stream.table()
    trigger = live.server.server.trigger

    def broken(thunk: Any = None) -> None:
        raise OSError(errno.EBADF, "Bad file descriptor")

    trigger.pull_trigger = broken
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="web.live"):
        with pytest.raises(StopIteration):
            next(server_run)  # fails if the server's thread does not end
    assert time.monotonic() - started < 5
    assert stream.next() is None
    assert "cannot wake the server" in caplog.text
    with pytest.raises(OSError):  # nothing listens any more
        Stream(live.server.port, f"/api/stream/{tid}")


SERVER = """
import sys
from companion.store.sqlite import MEMORY, SQLiteStore
from companion.table import Table
from web.app import create_app
from web.live import LiveServer
from web.services import Services
from companion.games.seafall.setup import demo_options

services = Services(SQLiteStore(MEMORY))
table = services.tables.create("seafall", demo_options())
server = LiveServer(create_app(services), services.live, port=0, threads=8)
print(server.port, table.session_id, flush=True)
server.run()
services.close()
print("stopped", flush=True)
"""


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_ctrl_c_and_sigterm_end_the_streams_then_the_server(sig):
    import signal
    import subprocess
    import sys
    import time

    with subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as proc:
        try:
            port, tid = proc.stdout.readline().split()
            streams = [Stream(int(port), f"/api/stream/{tid}") for _ in range(3)]
            for stream in streams:
                stream.table()
            started = time.monotonic()
            proc.send_signal(getattr(signal, sig))
            assert [stream.next() for stream in streams] == [None, None, None]
            assert proc.wait(10) == 0
            assert time.monotonic() - started < 4  # not waitress's 5 s wait for stuck threads
            assert proc.stdout.read().strip() == "stopped"
            assert "still running" not in proc.stderr.read()
            for stream in streams:
                stream.close()
        finally:
            if proc.poll() is None:
                proc.kill()
