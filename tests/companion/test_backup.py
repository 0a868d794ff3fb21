"""Backups of the whole database (companion/store/backup.py, ``tableside backup``;
docs/store.md, "Backups"): a copy is of one moment, checked before it takes its name, kept
to the last ten; a restore refuses while another program has the database open, keeps
what it replaces, and is undone by restoring that."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import web.cli
from companion.engine import Command
from companion.store import (
    DatabaseInUse,
    DatabaseUnreadable,
    ForeignDatabase,
    SQLiteStore,
    StoreError,
)
from companion.store.backup import (
    KEEP,
    backups,
    folder_for,
    latest,
    lock_path,
    restore,
    take,
)
from companion.store.export import dumps
from companion.table import Table
from tests.support import tally
from tests.support.clock import FakeClock


@pytest.fixture(autouse=True)
def _tally_game() -> None:
    tally.register()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "data" / "tableside.sqlite3"
    path.parent.mkdir()
    with SQLiteStore(path, clock=FakeClock(), new_id=lambda: "game1") as store:
        table = Table.create(store, "tally", {"players": ["red", "blue"]}, actor="host")
        table.apply(Command("add", {"player": "red", "amount": 2}, "red"))
    return path


def _add(path: Path, amount: int) -> None:
    with SQLiteStore(path) as store:
        Table.open(store, "game1").apply(Command("add", {"player": "blue", "amount": amount},
                                                 "blue"))


def _state(path: Path) -> str:
    with SQLiteStore(path) as store:
        return dumps(store.export_session("game1"))


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def test_a_backup_holds_the_database_as_it_was_and_is_checked(db: Path) -> None:
    before = _state(db)
    written = take(db)
    assert written is not None and written.parent == folder_for(db)
    _add(db, 3)
    assert _state(written) == before != _state(db)
    assert _files(folder_for(db)) == [written.name]  # no -wal, -shm or .part beside it
    [kept] = backups(db)
    assert kept.path == written and kept.label == ""
    assert kept.to_json()["sessions"] == 1 and kept.to_json()["commands"] == 2


def test_a_backup_leaves_no_journal_files_beside_a_closed_database(db: Path) -> None:
    """serve backs up as it stops, after closing its store: the copy must not leave the
    database with -wal and -shm files it did not have (a read-only connection, the last to
    close, would)."""
    before = _files(db.parent)
    take(db)
    take(db, only_if_changed=True)
    assert _files(db.parent) == sorted([*before, "backups"])


def test_a_backup_is_taken_while_another_connection_writes(db: Path) -> None:
    """serve keeps its store open (WAL) while a backup is taken: the copy is of one
    moment, with what the open store committed."""
    with SQLiteStore(db) as store:
        table = Table.open(store, "game1")
        table.apply(Command("add", {"player": "blue", "amount": 5}, "blue"))
        written = take(db)
        table.apply(Command("add", {"player": "red", "amount": 1}, "red"))
        assert written is not None
        with SQLiteStore(written) as copy:
            assert copy.version("game1") == store.version("game1") - 1


def test_only_if_changed_writes_nothing_when_nothing_was_written(db: Path) -> None:
    assert take(db, label="serve-start", only_if_changed=True) is not None
    assert take(db, label="serve-stop", only_if_changed=True) is None
    _add(db, 1)
    assert take(db, label="serve-stop", only_if_changed=True) is not None
    assert [b.label for b in backups(db)] == ["serve-stop", "serve-start"]


def test_the_last_ten_are_kept_and_other_files_left_alone(db: Path) -> None:
    start = datetime(2026, 11, 1, tzinfo=UTC)
    for day in range(KEEP + 3):
        take(db, now=start + timedelta(days=day))
    (folder_for(db) / "notes.txt").write_text("mine")
    take(db, now=start + timedelta(days=KEEP + 3))
    kept = backups(db)
    assert len(kept) == KEEP
    assert kept[0].taken == start + timedelta(days=KEEP + 3)
    assert kept[-1].taken == start + timedelta(days=4)
    assert (folder_for(db) / "notes.txt").read_text() == "mine"


def test_no_backup_of_a_missing_damaged_or_foreign_database(tmp_path: Path, db: Path) -> None:
    with pytest.raises(StoreError, match="no Tableside database"):
        take(tmp_path / "none.sqlite3")
    damaged = tmp_path / "damaged.sqlite3"
    damaged.write_bytes(db.read_bytes()[:5000])
    with pytest.raises(DatabaseUnreadable):
        take(damaged)
    foreign = tmp_path / "foreign.sqlite3"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE t (x)")
    with pytest.raises(ForeignDatabase):
        take(foreign)
    assert _files(tmp_path / "backups") == []
    with pytest.raises(ValueError, match="label"):
        take(db, label="Not OK")


def test_restore_puts_a_backup_back_and_keeps_what_it_replaced(db: Path) -> None:
    first = _state(db)
    backup = take(db)
    assert backup is not None
    _add(db, 4)
    later = _state(db)
    kept = restore(backup, db)
    assert _state(db) == first
    assert kept is not None and kept.name.endswith("-before-restore.sqlite3")
    assert _state(kept) == later
    with SQLiteStore(db) as store:  # plays on, in WAL as ever
        Table.open(store, "game1").apply(Command("add", {"player": "red"}, "red"))
        assert store._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    restore(latest(db).path, db)  # the latest backup is what the restore replaced: undone
    assert _state(db) == later


def test_restore_refuses_while_the_database_is_open_elsewhere(db: Path) -> None:
    backup = take(db)
    assert backup is not None
    _add(db, 2)
    now = _state(db)
    with SQLiteStore(db) as store:
        store.sessions()
        with pytest.raises(DatabaseInUse, match="tableside serve"):
            restore(backup, db)
        assert store.version("game1") == 3  # the open store goes on undisturbed
    assert _state(db) == now
    assert len(backups(db)) == 1  # no before-restore copy either


# What ``tableside serve`` does with its database until it stops (web/cli/serve.py): the
# lock, the store open, the backup at start; then idle, between two moves of the players.
SERVER_LIKE = """
import sys
from pathlib import Path
from companion.store import SQLiteStore
from companion.store.backup import serving, take
db = Path(sys.argv[1])
with serving(db):
    store = SQLiteStore(db)
    store.sessions()
    take(db, label="serve-start", only_if_changed=True)
    print("serving", flush=True)
    sys.stdin.read()
"""


def test_restore_refuses_while_a_server_has_the_database_open_idle(db: Path) -> None:
    """The QA report: with serve idle, its WAL connection did not stop SQLite's exclusive
    lock (the backup at start read the file's header outside SQLite, and closing that file
    let go of the connection's lock), so the restore was written under the server and then
    lost. serve's lock file says it, in another process; and a server killed says nothing
    more (the kernel let go of its lock), so the restore then goes through."""
    backup = take(db)
    assert backup is not None
    _add(db, 2)
    now = _state(db)
    with subprocess.Popen([sys.executable, "-c", SERVER_LIKE, str(db)],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                          cwd=Path(__file__).resolve().parents[2]) as server:
        try:
            assert server.stdout is not None and server.stdout.readline() == "serving\n"
            with pytest.raises(DatabaseInUse, match="tableside serve"):
                restore(backup, db)
            assert _state(db) == now
            assert "before-restore" not in [b.label for b in backups(db)]
        finally:
            server.send_signal(signal.SIGKILL)  # as a crash: no lock is let go by hand
            server.wait(timeout=10)
    assert lock_path(db).exists()  # left behind, and no lock on it any more
    assert restore(backup, db) is not None
    assert _state(db) != now


def test_restore_over_a_damaged_database_sets_it_aside(db: Path) -> None:
    before = _state(db)
    backup = take(db)
    assert backup is not None
    data = bytearray(db.read_bytes())
    data[4096:8192] = b"\xff" * 4096  # a page the card lost
    db.write_bytes(bytes(data))
    db.with_name(db.name + "-wal").write_bytes(b"stale journal")
    with pytest.raises(DatabaseUnreadable):
        SQLiteStore(db)
    kept = restore(backup, db)
    assert kept is not None and kept.name.startswith("tableside.sqlite3.damaged-")
    assert kept.read_bytes() == bytes(data)  # kept as it was, its journal beside it
    assert kept.with_name(kept.name + "-wal").read_bytes() == b"stale journal"
    assert not db.with_name(db.name + "-wal").exists()
    assert _state(db) == before


def test_restore_refuses_a_bad_backup_and_changes_nothing(tmp_path: Path, db: Path) -> None:
    now = db.read_bytes()
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"not a database at all" * 10)
    with pytest.raises(DatabaseUnreadable):
        restore(bad, db)
    with pytest.raises(StoreError, match="no such backup"):
        restore(tmp_path / "missing.sqlite3", db)
    with pytest.raises(StoreError, match="the database itself"):
        restore(db, db)
    assert db.read_bytes() == now and backups(db) == []


def test_restore_into_a_new_place(tmp_path: Path, db: Path) -> None:
    (tmp_path / "stick").mkdir()
    backup = take(db, output=tmp_path / "stick" / "evening.sqlite3")
    assert backup == tmp_path / "stick" / "evening.sqlite3"
    elsewhere = tmp_path / "pi2" / "tableside.sqlite3"
    assert restore(backup, elsewhere) is None
    assert _state(elsewhere) == _state(db)


def cli(*argv: str) -> int:
    return web.cli.main(list(argv))


def test_the_command_line(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli("backup", "list", "--db", str(db)) == 0
    assert "no backups of tableside.sqlite3 in" in capsys.readouterr().out
    assert cli("backup", "take", "--db", str(db)) == 0
    assert "backed up" in capsys.readouterr().out
    _add(db, 2)
    assert cli("backup", "list", "--db", str(db)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["TAKEN", "(UTC)", "WHY"]
    assert lines[1].split()[2:6] == ["by", "hand", "1", "0"]
    assert cli("backup", "restore", "latest", "--db", str(db)) == 0
    out = capsys.readouterr().out
    assert "restored" in out and "before-restore" in out
    with SQLiteStore(db) as store:
        assert store.version("game1") == 2
    assert cli("backup", "list", "--db", str(db), "--json") == 0
    listed = json.loads(capsys.readouterr().out)
    assert [b["label"] for b in listed] == ["before-restore", ""]
    assert [b["commands"] for b in listed] == [3, 2]


def test_the_command_line_on_bad_input(db: Path, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert cli("backup", "restore", "latest", "--db", str(db)) == 2
    assert "no backups of tableside.sqlite3 in" in capsys.readouterr().err
    assert cli("backup", "restore", str(tmp_path / "nope"), "--db", str(db)) == 2
    assert "no such backup file" in capsys.readouterr().err
    assert cli("backup", "take", "--db", str(tmp_path / "none.sqlite3")) == 2
    err = capsys.readouterr().err
    assert err.startswith("tableside backup take: error:") and err.count("\n") == 1
    assert cli("backup", "take", "--db", str(db), "-o", str(tmp_path)) == 2
    assert "a folder" in capsys.readouterr().err


def test_restore_refuses_an_empty_file_and_changes_nothing(
        tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An empty file (or an SQLite file with no tables) is an SQLite database with nothing
    in it, not a backup: putting it back would leave the database empty."""
    now = db.read_bytes()
    zero = tmp_path / "zero.sqlite3"
    zero.write_bytes(b"")
    with pytest.raises(StoreError, match="not a backup"):
        restore(zero, db)
    blank = tmp_path / "blank.sqlite3"
    sqlite3.connect(blank).close()
    with sqlite3.connect(blank) as conn:
        conn.execute("PRAGMA user_version = 0")
    with pytest.raises(StoreError, match="not a backup"):
        restore(blank, db)
    assert cli("backup", "restore", str(zero), "--db", str(db)) == 2
    assert "not a backup" in capsys.readouterr().err
    assert db.read_bytes() == now and backups(db) == []
    assert _state(db)


def test_take_to_a_file_never_overwrites_nor_creates_folders(
        tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """-o names a new file in a folder that exists: a file there is not replaced (unless
    --force), a missing folder (a USB stick not mounted) is not created, and the database
    itself is never the copy."""
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    now = db.read_bytes()
    with pytest.raises(StoreError, match="already exists"):
        take(db, output=notes)
    assert notes.read_text() == "mine"
    with pytest.raises(StoreError, match="no such folder"):
        take(db, output=tmp_path / "usb" / "x.sqlite3")
    assert not (tmp_path / "usb").exists()
    for replace in (False, True):
        with pytest.raises(StoreError, match="the database itself"):
            take(db, output=db, replace=replace)
        with pytest.raises(StoreError, match="the database itself"):
            take(db, output=db.parent / ".." / db.parent.name / db.name, replace=replace)
    assert db.read_bytes() == now
    assert cli("backup", "take", "--db", str(db), "-o", str(notes)) == 2
    assert "already exists" in capsys.readouterr().err
    assert cli("backup", "take", "--db", str(db), "-o", str(tmp_path / "usb" / "x")) == 2
    assert "no such folder" in capsys.readouterr().err
    assert cli("backup", "take", "--db", str(db), "-o", str(db), "--force") == 2
    assert "the database itself" in capsys.readouterr().err
    assert cli("backup", "take", "--db", str(db), "--force") == 2
    assert "--force only goes with -o" in capsys.readouterr().err
    assert notes.read_text() == "mine" and not (tmp_path / "usb").exists()
    assert cli("backup", "take", "--db", str(db), "-o", str(notes), "--force") == 0
    assert _state(notes) == _state(db)


def _other(path: Path, sid: str) -> Path:
    """A second database beside the first, with one table of its own."""
    with SQLiteStore(path, clock=FakeClock(), new_id=lambda: sid) as store:
        Table.create(store, "tally", {"players": ["red", "blue"]}, actor="host")
    return path


def test_databases_in_one_folder_keep_their_own_backups(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Databases in one folder share backups/: each lists, prunes and restores only its own
    ('restore latest' never takes another's), and a backup of the other is refused unless
    asked for."""
    other = _other(db.with_name("b.sqlite3"), "game-of-b")
    mine = take(db)
    assert mine is not None and mine.name.startswith("tableside-")  # as ever, by default
    start = datetime(2026, 11, 1, tzinfo=UTC)
    for day in range(KEEP + 2):  # the other's backups push none of this one's out
        theirs = take(other, now=start + timedelta(days=day))
        assert theirs is not None and theirs.name.startswith("b-2026")
    assert [b.path for b in backups(db)] == [mine] and latest(db).path == mine
    assert len(backups(other)) == KEEP and mine.exists()
    _add(db, 3)
    ours = _state(db)
    assert cli("backup", "restore", "latest", "--db", str(db)) == 0
    assert _state(db) != ours  # its own backup, game1 in it
    before = db.read_bytes()
    with pytest.raises(StoreError, match="holds none of the table sessions"):
        restore(latest(other).path, db)
    assert cli("backup", "restore", str(latest(other).path), "--db", str(db)) == 2
    err = capsys.readouterr().err
    assert "game-of-b" in err and "--other-database" in err
    assert db.read_bytes() == before
    assert cli("backup", "restore", str(latest(other).path), "--db", str(db),
               "--other-database") == 0
    with SQLiteStore(db, create=False) as store:
        assert [s.id for s in store.sessions()] == ["game-of-b"]
    assert cli("backup", "restore", "latest", "--db", str(db)) == 0  # undone, as ever
    with SQLiteStore(db, create=False) as store:
        assert [s.id for s in store.sessions()] == ["game1"]
    capsys.readouterr()
    assert cli("backup", "list", "--db", str(other), "--json") == 0
    listed = json.loads(capsys.readouterr().out)
    assert len(listed) == KEEP and all("/b-2026" in b["file"] for b in listed)


def test_backups_from_before_they_were_named_after_their_database_stay_findable(
        tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every database's backups were named tableside-<time>: the default database's still
    are; another database lists them apart (they may be of it), and restores one by name."""
    (tmp_path / "data2").mkdir()
    other = _other(tmp_path / "data2" / "b.sqlite3", "game-of-b")
    old = take(other)  # as it was named then: moved to the older name
    assert old is not None
    older = old.with_name("tableside-20260101T200000.000000Z-serve-stop.sqlite3")
    old.rename(older)
    assert backups(other) == [] and latest(other) is None
    assert cli("backup", "list", "--db", str(other)) == 0
    out = capsys.readouterr().out
    assert "no backups of b.sqlite3" in out and "1 older backups" in out
    assert older.name in out and "serve-stop" in out
    _add_to(other, "game-of-b")
    assert cli("backup", "restore", str(older), "--db", str(other)) == 0
    assert len(backups(other)) == 1 and older.exists()  # the before-restore; never pruned
    _other(tmp_path / "data2" / "tableside.sqlite3", "game1")  # then they are its own
    assert [b.path for b in backups(tmp_path / "data2" / "tableside.sqlite3")] == [older]
    assert backups(db) == []  # another folder, other backups


def _add_to(path: Path, sid: str) -> None:
    with SQLiteStore(path) as store:
        Table.open(store, sid).apply(Command("add", {"player": "blue", "amount": 1}, "blue"))
