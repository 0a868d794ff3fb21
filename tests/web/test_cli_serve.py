"""``tableside serve``'s arguments: what names nothing stops it at once, before anything
starts, where it would otherwise run looking for it for ever (or serve elsewhere)."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from companion.store import SQLiteStore
from companion.store.backup import backups, take
from web.cli import main


def test_serve_with_a_camera_that_names_nothing_says_so_at_once(tmp_path, capsys):
    """A typo in --camera stops serve before anything starts, where it would otherwise run
    looking for a camera called that for ever."""
    assert main(["serve", "--camera", "camra:0", "--db", str(tmp_path / "t.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tableside serve: --camera: unknown source 'camra:0': use camera:N")
    assert not (tmp_path / "t.sqlite3").exists()  # nothing was started


@pytest.mark.parametrize(("box", "said"), [("usb:zz", "expected usb:VID:PID"),
                                           ("foo://bar", "protocol 'foo' not known")])
def test_serve_with_a_box_that_names_no_port_says_so_at_once(tmp_path, capsys, box, said):
    """As with the camera: where the button box's thread stopped with a traceback, and the
    box then showed as not connected with no reason why."""
    assert main(["serve", "--box", box, "--db", str(tmp_path / "t.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tableside serve: --box: ") and said in err
    assert not (tmp_path / "t.sqlite3").exists()


@pytest.mark.parametrize("option, value, said", [
    *[("--port", port, "a port is a number from 1 to 65535") for port in ("99999", "-1", "http")],
    *[("--pictures-mb", mb, "a number of megabytes, 0 or more") for mb in ("-5", "lots", "1.5")],
])
def test_serve_with_a_number_that_is_none_says_so(tmp_path, capsys, option, value, said):
    """A port of 99999 was served on 34463, the socket keeping its low 16 bits; a room for
    pictures that is no size would keep none or fail later."""
    with pytest.raises(SystemExit) as exit_:
        main(["serve", option, value, "--db", str(tmp_path / "t.sqlite3")])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}: '{value}': {said}" in err
    assert not (tmp_path / "t.sqlite3").exists()


NO_HARDWARE = ["--camera", "none", "--box", "none", "--gpio", "none", "--quiet"]


@pytest.fixture
def stops_at_once(monkeypatch):
    """serve starts (its port, its database, its runtime), then stops at once: the server's
    run returns as if Ctrl-C had been pressed."""
    from web.live import LiveServer

    monkeypatch.setattr(LiveServer, "run", lambda self: self.close())


def test_serve_backs_the_database_up_when_it_starts(tmp_path, capsys, stops_at_once):
    """docs/store.md, "Backups": a database with games in it is copied as serve starts (here
    it then stops at once); a start with nothing written since the last backup adds none."""
    db = tmp_path / "t.sqlite3"
    with SQLiteStore(db) as store:
        store.create_session("seafall", {}, [])
    assert main(["serve", "--port", "0", "--db", str(db), *NO_HARDWARE]) == 0
    [started] = backups(db)
    assert started.label == "serve-start"
    assert f"database backed up to {started.path}" in capsys.readouterr().out
    assert main(["serve", "--port", "0", "--db", str(db), *NO_HARDWARE]) == 0
    assert "backed up" not in capsys.readouterr().out
    assert len(backups(db)) == 1


def test_serve_on_a_port_in_use_says_what_to_do_and_makes_nothing(tmp_path, capsys):
    """QA: serve on a port in use said only "[Errno 98] Address already in use", after it
    had made a new database and taken its backup at start. It says what to do (another
    server runs there: stop it or pass --port), and it stops before the database: none is
    made, none backed up."""
    db = tmp_path / "t.sqlite3"
    old = tmp_path / "old.sqlite3"
    with SQLiteStore(old) as store:
        store.create_session("seafall", {}, [])
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        for path in (db, old):
            assert main(["serve", "--port", port, "--db", str(path), *NO_HARDWARE]) == 2
            out, err = capsys.readouterr()
            assert err == (f"tableside serve: cannot listen on 127.0.0.1:{port}: [Errno 98] "
                           "Address already in use; another server is running there (another "
                           "tableside serve?): stop it, or pass another --port (0: any free "
                           "port)\n")
            assert out == ""  # neither "new database" nor "backed up"
    assert not db.exists() and backups(old) == []


def test_serve_on_a_damaged_database_names_its_latest_backup(tmp_path, capsys):
    """A card that lost a page: serve refuses the file, untouched, and says how to play on
    from the latest backup."""
    db = tmp_path / "t.sqlite3"
    with SQLiteStore(db) as store:
        store.create_session("seafall", {}, [])
    take(db)
    data = bytearray(db.read_bytes())
    data[4096:8192] = b"\xff" * 4096
    db.write_bytes(bytes(data))
    assert main(["serve", "--db", str(db), *NO_HARDWARE]) == 2
    err = capsys.readouterr().err
    assert "not a readable Tableside database" in err
    assert f"tableside backup restore latest --db {db}" in err
    assert db.read_bytes() == bytes(data)


@pytest.mark.parametrize("camera, said, not_said", [
    ("none", "the table names the dice of the first photos", "into the tray under the camera"),
    ("images:/nowhere", "into the tray under the camera", "send a photo"),
])
def test_serve_demo_without_a_camera_says_to_send_a_photo(tmp_path, capsys, camera, said,
                                                          not_said, stops_at_once):
    """serve --demo --camera none said to throw the dice "into the tray under the camera"
    right above "Camera: turned off": with no camera the players send a photo from a phone
    or enter the faces by hand. (serve stops at once, after the demo's first roll.)"""
    assert main(["serve", "--demo", "--camera", camera, "--box", "none", "--gpio", "none",
                 "--quiet", "--port", "0", "--db", str(tmp_path / "t.sqlite3")]) == 0
    out = capsys.readouterr().out
    [demo] = [line for line in out.splitlines() if line.startswith("Demo: Blue")]
    assert said in demo and not_said not in demo


def test_serve_does_not_open_a_database_a_backup_is_being_restored_into(tmp_path, capsys):
    """serve holds the database's lock file for as long as it runs (docs/store.md,
    "Backups"): the restore asks for it alone, so neither writes under the other."""
    from companion.store.backup import _alone

    db = tmp_path / "t.sqlite3"
    with SQLiteStore(db) as store:
        store.create_session("seafall", {}, [])
    with _alone(db):
        assert main(["serve", "--port", "1", "--db", str(db), *NO_HARDWARE]) == 2
    assert "a backup is being restored into it right now" in capsys.readouterr().err
    assert backups(db) == []  # it stopped before anything, its backup at start included


def test_serve_says_when_it_creates_a_new_database(tmp_path, capsys, monkeypatch,
                                                  stops_at_once):
    """QA: a mistyped --db served a new empty database without a word (its folders made
    too). A --db in no folder is refused, naming the folder, and nothing is made; a new
    database is said on the console, and so is an empty file (0 bytes) given as one, used
    silently before; the default's folder is still made on first use."""
    db = tmp_path / "mistyped" / "dir" / "x.sqlite3"
    assert main(["serve", "--db", str(db), *NO_HARDWARE]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tableside serve: --db: there is no folder {db.parent}; "
                          "nothing was created") and len(err.splitlines()) == 1
    assert not (tmp_path / "mistyped").exists()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "fresh"))
    default = tmp_path / "fresh" / "tableside" / "tableside.sqlite3"
    for argv, path in (([], default), (["--db", str(tmp_path / "t.sqlite3")],
                                       tmp_path / "t.sqlite3")):
        assert main(["serve", "--port", "0", *argv, *NO_HARDWARE]) == 0
        assert f"Tableside: new database created at {path}\n" in capsys.readouterr().out
        assert path.is_file()
        assert main(["serve", "--port", "0", *argv, *NO_HARDWARE]) == 0
        assert "new database" not in capsys.readouterr().out  # the second time, not new
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    assert main(["serve", "--port", "0", "--db", str(empty), *NO_HARDWARE]) == 0
    assert (f"Tableside: new database created at {empty} (the file there was empty)\n"
            in capsys.readouterr().out)
    with SQLiteStore(empty, create=False) as store:
        assert store.sessions() == []


def _serve_in_another_process(db: Path) -> subprocess.Popen[str]:
    """``tableside serve`` on ``db`` in a process of its own, once it serves."""
    proc = subprocess.Popen([sys.executable, "-m", "web", "serve", "--port", "0", "--db",
                             str(db), *NO_HARDWARE], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            cwd=Path(__file__).resolve().parents[2])
    assert proc.stdout is not None
    for line in proc.stdout:
        if "Tableside is serving on" in line:
            return proc
    proc.kill()
    pytest.fail(f"serve did not start: {proc.communicate()}")


def test_a_second_serve_on_a_database_served_is_refused(tmp_path, capsys):
    """QA: a second serve on the same --db started, and the first one's tables then
    conflicted on every command for good (each server keeps its tables in memory). It is
    refused as it starts, saying which database, that another serve holds it and how to stop
    it; restore stays refused while serving; the commands that read or copy the database
    (sessions, campaign, backup take and list) work as ever while it serves."""
    db = tmp_path / "t.sqlite3"
    with SQLiteStore(db) as store:
        session = store.create_session("seafall", {}, []).id
    server = _serve_in_another_process(db)
    try:
        capsys.readouterr()
        assert main(["serve", "--port", "0", "--db", str(db), *NO_HARDWARE]) == 2
        out, err = capsys.readouterr()
        assert err == (f"tableside serve: {db}: another tableside serve (process "
                       f"{server.pid}) is serving this database; only one may serve it at a "
                       "time, and nothing was started or changed. Use that server (its "
                       "address is on its terminal), or stop it first (Ctrl-C in its "
                       f"terminal, or kill {server.pid}), or serve another database with "
                       "--db\n")
        assert "serving on" not in out and "backed up" not in out
        assert main(["backup", "take", "--db", str(db)]) == 0
        assert main(["backup", "list", "--db", str(db)]) == 0
        assert main(["sessions", "list", "--db", str(db)]) == 0
        assert main(["campaign", "list", "--db", str(db)]) == 0
        out, err = capsys.readouterr()
        assert session in out and err == ""
        assert main(["backup", "restore", "latest", "--db", str(db)]) == 2
        assert "open in another program (is tableside serve running?)" in (
            capsys.readouterr().err)
        assert [b.label for b in backups(db)] == ["", "serve-start"]  # no before-restore
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=30)
    assert server.returncode == 0
    assert main(["backup", "restore", "latest", "--db", str(db)]) == 0  # once it stopped
