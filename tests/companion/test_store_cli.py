"""``tableside sessions list|show|export|import`` through ``web.cli.main``."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

import web.cli
from companion.engine import Command
from companion.store import SQLiteStore
from companion.table import Table
from tests.support import tally
from tests.support.clock import FakeClock


@pytest.fixture(autouse=True)
def _tally_game() -> None:
    tally.register()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "t.sqlite3"
    with SQLiteStore(path, clock=FakeClock(), new_id=lambda: "game1") as store:
        table = Table.create(store, "tally", {"players": ["red", "blue"]}, actor="host")
        table.apply(Command("add", {"player": "red", "amount": 2}, "red"))
        table.apply(Command("add", {"player": "blue"}, "blue"))
        table.undo(actor="red")
    return path


def cli(*argv: str) -> int:
    return web.cli.main(list(argv))


def test_sessions_list(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli("sessions", "list", "--db", str(db)) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["ID", "GAME", "CREATED", "LAST", "PLAYED", "BY", "VERSION",
                              "RECORDS", "PLAYERS"]
    assert out[1].split() == ["game1", "tally", "2026-01-01T20:00:00+00:00",
                              "2026-01-01T20:00:03+00:00", "host", "4", "4", "red,blue"]
    assert cli("sessions", "list", "--db", str(db), "--json") == 0
    [listed] = json.loads(capsys.readouterr().out)
    assert (listed["id"], listed["version"], listed["last_command"]) == ("game1", 4, 3)
    assert (listed["last_played"], listed["players"]) == ("2026-01-01T20:00:03+00:00",
                                                          ["red", "blue"])


def test_sessions_show_marks_undone_commands(db: Path, capsys: pytest.CaptureFixture[str]
                                             ) -> None:
    assert cli("sessions", "show", "game1", "--db", str(db)) == 0
    out = capsys.readouterr().out
    assert "session game1: tally" in out
    lines = out.splitlines()
    assert lines[-2].split()[:3] == ["2", "2026-01-01T20:00:02+00:00", "blue"]
    assert lines[-2].endswith("(undone)")
    assert "undo 2" in lines[-1] and "CommandUndone" in lines[-1]
    assert cli("sessions", "show", "game1", "--db", str(db), "--json") == 0
    shown = json.loads(capsys.readouterr().out)
    assert [h["undone"] for h in shown["history"]] == [False, False, True, False]


def test_sessions_show_keeps_its_lines_readable(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """The setup's options are printed once, on their own line: the setup's row names its
    players, and a long argument is cut, so the table is not as wide as the whole setup."""
    path = tmp_path / "wide.sqlite3"
    options = {"players": ["red", "blue"], "goal": 20,
               "notes": ["a long note about the board " * 3] * 10}
    with SQLiteStore(path, clock=FakeClock(), new_id=lambda: "wide") as store:
        table = Table.create(store, "tally", options, actor="host")
        table.apply(Command("note", {"player": "red", "text": "x" * 500}, "red"))
    assert cli("sessions", "show", "wide", "--db", str(path)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("options: ") and '"notes"' in lines[1]  # whole, once
    assert lines[3].split()[3:] == ["setup", "of", "red,", "blue", "(options", "above)",
                                    "GameStarted"]
    assert "x" * 60 in lines[4] and "x" * 100 not in lines[4] and "..." in lines[4]
    assert max(len(line) for line in lines[2:]) < 200
    assert cli("sessions", "show", "wide", "--db", str(path), "--json") == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["history"][1]["args"]["text"] == "x" * 500  # --json has it whole


def test_sessions_export_import_round_trip(db: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    exported = tmp_path / "game1.json"
    assert cli("sessions", "export", "game1", "-o", str(exported), "--db", str(db)) == 0
    assert cli("sessions", "export", "game1", "--db", str(db)) == 0
    assert capsys.readouterr().out == exported.read_text(encoding="utf-8")
    other = tmp_path / "other.sqlite3"
    assert cli("sessions", "import", str(exported), "--db", str(other)) == 0
    assert "imported session game1 (tally, version 4)" in capsys.readouterr().out
    again = tmp_path / "again.json"
    assert cli("sessions", "export", "game1", "-o", str(again), "--db", str(other)) == 0
    assert again.read_bytes() == exported.read_bytes()
    assert cli("sessions", "import", str(exported), "--as", "copy", "--db", str(other)) == 0
    notepad = tmp_path / "notepad.json"  # saved again by Windows Notepad: a byte-order mark
    notepad.write_bytes(b"\xef\xbb\xbf" + exported.read_bytes())
    assert cli("sessions", "import", str(notepad), "--as", "saved", "--db", str(other)) == 0
    with SQLiteStore(other) as store:
        assert sorted(s.id for s in store.sessions()) == ["copy", "game1", "saved"]


@pytest.mark.parametrize("new_id", ["../../etc", " ", "", "a/b", "ta ble", "-x", "x" * 65,
                                    "x" * 5000, "caf\u00e9", "%2e%2e"])
def test_sessions_import_refuses_an_id_no_address_can_name(
        new_id: str, db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A session id is part of its table's web address (/api/tables/ID, /host/ID): --as
    takes the ids the store could make (letters, digits, '-', '_'), and nothing else."""
    exported = tmp_path / "game1.json"
    assert cli("sessions", "export", "game1", "-o", str(exported), "--db", str(db)) == 0
    other = tmp_path / "other.sqlite3"
    assert cli("sessions", "import", str(exported), f"--as={new_id}", "--db", str(other)) == 2
    err = capsys.readouterr().err
    assert err.startswith("tableside sessions import: error: --as:") and err.count("\n") == 1
    assert "is not a session id: 1 to 64 letters" in err and len(err) < 300
    assert not other.exists()
    doc = json.loads(exported.read_text(encoding="utf-8"))
    doc["session"]["id"] = new_id  # nor from the file itself
    exported.write_text(json.dumps(doc), encoding="utf-8")
    assert cli("sessions", "import", str(exported), "--db", str(other)) == 2
    assert "malformed session export at session.id" in capsys.readouterr().err
    assert not other.exists()


def test_sessions_import_takes_the_ids_the_store_makes(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exported = tmp_path / "game1.json"
    assert cli("sessions", "export", "game1", "-o", str(exported), "--db", str(db)) == 0
    for new_id in ("0f3a9c1d2e4b", "game-of-A", "Game_2", "x" * 64):
        assert cli("sessions", "import", str(exported), "--as", new_id, "--db",
                   str(tmp_path / "o.sqlite3")) == 0


def _bad_export(tmp_path: Path) -> Path:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "tableside-session", "format_version": 1}')
    return path


def _garbage(tmp_path: Path) -> Path:
    path = tmp_path / "garbage.json"
    path.write_bytes(b"\x00\x01 not json")
    return path


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(lambda d, t: ["import", str(_bad_export(t)), "--db", str(t / "new.db")],
                     "malformed session export at the document: missing records, session",
                     id="an export missing its parts"),
        pytest.param(lambda d, t: ["import", str(_garbage(t)), "--db", str(t / "new.db")],
                     "not JSON", id="a file that is not JSON"),
        pytest.param(lambda d, t: ["import", str(t / "none.json"), "--db", str(t / "new.db")],
                     "No such file", id="a missing export file"),
        pytest.param(lambda d, t: ["import", str(_garbage(t)), "--db", str(_garbage(t))],
                     "not JSON", id="bad export into a bad database"),
        pytest.param(lambda d, t: ["list", "--db", str(_garbage(t))], "not an SQLite file",
                     id="a database that is not SQLite"),
        pytest.param(lambda d, t: ["list", "--db", str(t / "missing.db")],
                     "no Tableside database here", id="a database that does not exist"),
        pytest.param(lambda d, t: ["show", "nope", "--db", str(d)], "no table session 'nope'",
                     id="an unknown session"),
        pytest.param(lambda d, t: ["export", "game1", "--db", str(d), "-o", str(t)],
                     "Is a directory", id="an output that is a directory"),
        pytest.param(lambda d, t: ["import", "-", "--db", str(d)], "not JSON",
                     id="empty standard input"),
    ],
)
def test_sessions_bad_input_is_one_line_and_status_2(
        db: Path, tmp_path: Path, argv, message: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    before = db.read_bytes()
    assert cli("sessions", *argv(db, tmp_path)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.splitlines()) == 1
    assert message in captured.err
    assert captured.err.startswith("tableside sessions ")
    assert not (tmp_path / "new.db").exists()
    assert db.read_bytes() == before


def test_sessions_import_refuses_a_foreign_database_untouched(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exported = tmp_path / "game1.json"
    assert cli("sessions", "export", "game1", "-o", str(exported), "--db", str(db)) == 0
    foreign = tmp_path / "places.sqlite"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE places (url TEXT)")
    conn.commit()
    conn.close()
    before = foreign.read_bytes()
    assert cli("sessions", "import", str(exported), "--db", str(foreign)) == 2
    assert "not Tableside's" in capsys.readouterr().err
    assert foreign.read_bytes() == before


@pytest.mark.parametrize(("change", "message"), [
    pytest.param(lambda d: d["session"].update(game="catan"),
                 "at session.game: unknown game 'catan'; known games:", id="a game not here"),
    pytest.param(lambda d: d["records"][1]["events"][0]["payload"].update(player="green"),
                 "at records: they do not replay as a tally game (", id="events that fail"),
])
def test_sessions_import_refuses_a_session_that_would_not_open(
        db: Path, tmp_path: Path, change, message: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Such a session once imported, and the server then answered 500 for its table."""
    exported = tmp_path / "game1.json"
    assert cli("sessions", "export", "game1", "-o", str(exported), "--db", str(db)) == 0
    doc = json.loads(exported.read_text(encoding="utf-8"))
    change(doc)
    exported.write_text(json.dumps(doc), encoding="utf-8")
    capsys.readouterr()
    assert cli("sessions", "import", str(exported), "--as", "copy", "--db", str(db)) == 2
    assert message in capsys.readouterr().err
    with SQLiteStore(db) as store:
        assert [s.id for s in store.sessions()] == ["game1"]


@pytest.mark.parametrize("action", ["list", "show", "export", "import"])
def test_sessions_help(action: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli("sessions", action, "--help")
    assert exited.value.code == 0
    assert "--db PATH" in capsys.readouterr().out


def test_sessions_host_pin_gives_the_host_a_new_pin(db: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A host whose phone is lost and whose PIN was not written down: the Pi's owner gives
    the table a new PIN, which a running server takes at once (it checks PINs in the file)."""
    from web.auth_store import AuthStore

    running = AuthStore.beside(db)  # as tableside serve holds it
    running.set_pin("game1", "111111")
    try:
        assert cli("sessions", "host-pin", "game1", "--db", str(db),
                   "--base-url", "http://pi.local:8000/") == 0
        out = capsys.readouterr().out
        pin = re.search(r"the new host PIN is (\d{6})", out).group(1)  # type: ignore[union-attr]
        assert f"host link: http://pi.local:8000/host/game1?pin={pin}" in out
        assert running.check_pin("game1", pin) and not running.check_pin("game1", "111111")
    finally:
        running.close()
    assert "assumes" not in out  # the address was given
    # without --base-url, the link assumes serve's default port, and says so: it printed
    # port 8000 as if known while the server ran on another
    assert cli("sessions", "host-pin", "game1", "--db", str(db)) == 0
    out = capsys.readouterr().out
    assert re.search(r"host link: http://[^/]+:8000/host/game1\?pin=\d{6}", out)
    assert "assumes the server's default port, 8000: if it runs on another port or " \
        "address, pass --base-url http://HOST:PORT" in out
    assert cli("sessions", "host-pin", "nope", "--db", str(db)) == 2
    assert "no table session 'nope'" in capsys.readouterr().err
    empty = tmp_path / "none.sqlite3"
    assert cli("sessions", "host-pin", "game1", "--db", str(empty)) == 2
    assert not empty.exists() and not (tmp_path / "none.web-auth.sqlite3").exists()
