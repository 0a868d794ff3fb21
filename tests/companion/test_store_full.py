"""A full disk (docs/store.md, "A full disk"): SQLite's own ``SQLITE_FULL``, reached here
through its page limit (``PRAGMA max_page_count``) as a full memory card reaches it. The
command is refused with :class:`StorageFull`, nothing of it is written, the table in
memory stays as it was, and the same command goes through once there is room. A disk that
takes no write at all (a failing card mounted read-only; here SQLite's ``query_only``,
which gives the same ``SQLITE_READONLY``) is refused the same way, with
:class:`StorageReadOnly`."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

import pytest

from companion.engine import Command
from companion.store import SQLiteStore, StorageFailing, StorageFull, StorageReadOnly, StoreError
from companion.store.errors import is_full, refused
from companion.table import Table
from tests.support import tally


@pytest.fixture(autouse=True)
def _tally_game() -> None:
    tally.register()


def add(table: Table, amount: int = 1) -> None:
    table.apply(Command("add", {"player": "red", "amount": amount}, "red"))


def fill_up(store: SQLiteStore, table: Table) -> int:
    """Cap the database at its size now and play until a command no longer fits; the
    page limit it was capped at."""
    pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
    store._conn.execute(f"PRAGMA max_page_count = {pages}")
    for _ in range(10_000):
        before = (table.version, table.state)
        try:
            add(table)
        except StorageFull:
            assert (table.version, table.state) == before  # nothing changed in memory
            return pages
    raise AssertionError("the capped database never filled up")


def test_a_command_that_does_not_fit_is_refused_whole_and_fits_once_there_is_room(
        tmp_path: Path):
    path = tmp_path / "tableside.sqlite3"
    store = SQLiteStore(path)
    table = Table.create(store, "tally", {"players": ["red", "blue"], "goal": 10**9})
    pages = fill_up(store, table)
    version, state = table.version, table.state
    with pytest.raises(StorageFull) as refused:
        add(table, 5)
    message = str(refused.value)
    assert str(path) in message and "full: nothing was written" in message
    assert isinstance(refused.value, StoreError) and refused.value.path == str(path)
    assert isinstance(refused.value.__cause__, sqlite3.OperationalError)
    with SQLiteStore(path) as other:  # what is on disk is what the table shows
        assert Table.open(other, table.session_id).version == version
    with pytest.raises(StorageFull):  # an undo is a record too
        table.undo("red")
    assert (table.version, table.state) == (version, state)
    store._conn.execute(f"PRAGMA max_page_count = {pages + 1000}")  # space freed
    add(table, 5)
    table.undo("red")
    table.redo("red")
    assert table.version > version
    store.close()
    with SQLiteStore(path) as again:  # and it is all on disk, in order
        reopened = Table.open(again, table.session_id)
        assert (reopened.version, reopened.state) == (table.version, table.state)


def test_a_new_table_that_does_not_fit_leaves_no_session(tmp_path: Path):
    store = SQLiteStore(tmp_path / "tableside.sqlite3")
    table = Table.create(store, "tally", {"players": ["red", "blue"], "goal": 10**9})
    fill_up(store, table)
    with pytest.raises(StorageFull):
        for _ in range(100):  # setups are small: a few may fit in the last page
            Table.create(store, "tally", {"players": ["red", "blue"]})
    assert all(Table.open(store, s.id).version >= 0 for s in store.sessions())
    store.close()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_what_counts_as_full():
    with open("/dev/full", "wb", buffering=0) as full:  # the kernel's always-full device
        with pytest.raises(OSError) as written:
            full.write(b"x")
    assert written.value.errno == errno.ENOSPC and is_full(written.value)
    assert is_full(OSError(errno.EDQUOT, "quota"))
    assert not is_full(OSError(errno.EACCES, "denied"))
    assert not is_full(sqlite3.OperationalError("database is locked"))
    assert not is_full(ValueError("full"))


def test_a_read_only_disk_refuses_a_command_whole_and_says_what_to_do(tmp_path: Path):
    path = tmp_path / "tableside.sqlite3"
    store = SQLiteStore(path)
    table = Table.create(store, "tally", {"players": ["red", "blue"], "goal": 10**9})
    add(table)
    version, state = table.version, table.state
    store._conn.execute("PRAGMA query_only = 1")  # SQLite now takes no write
    with pytest.raises(StorageReadOnly) as refused_:
        add(table)
    message = str(refused_.value)
    assert "is read-only" in message and "nothing was written" in message
    assert "copy the latest backup to a USB stick" in message
    assert isinstance(refused_.value.__cause__, sqlite3.OperationalError)
    assert (table.version, table.state) == (version, state)
    store._conn.execute("PRAGMA query_only = 0")  # the card is back (after a restart)
    add(table)
    assert table.version > version
    store.close()


def test_what_counts_as_read_only():
    said = refused(OSError(errno.EROFS, "Read-only file system"), "/data")
    assert isinstance(said, StorageReadOnly) and said.path == "/data"
    assert isinstance(refused(OSError(errno.ENOSPC, "full"), None), StorageFull)
    assert refused(OSError(errno.EACCES, "denied"), "/data") is None
    assert refused(sqlite3.OperationalError("database is locked"), "/data") is None


def _immutable(path: Path, on: bool) -> bool:
    """``chattr +i`` (or ``-i``) on ``path``: the kernel then refuses every write to it, as
    a failing card does; False where it cannot be set (not root, a file system without it)."""
    import shutil
    import subprocess

    if shutil.which("chattr") is None:
        return False
    done = subprocess.run(["chattr", "+i" if on else "-i", str(path)], capture_output=True)
    return done.returncode == 0


def test_a_disk_io_error_refuses_a_command_whole_and_says_what_to_do(tmp_path: Path):
    """QA: a failing card (here its -wal made immutable: SQLite's own "disk I/O error",
    SQLITE_IOERR_WRITE) was a bug's 500 with a traceback. It is refused as a read-only disk
    is: nothing of it written, the table as it was, and what to do (restart; if it
    recurs, the card is failing: back up and replace it)."""
    path = tmp_path / "tableside.sqlite3"
    store = SQLiteStore(path)
    table = Table.create(store, "tally", {"players": ["red", "blue"], "goal": 10**9})
    add(table)
    version, state = table.version, table.state
    wal = path.with_name(path.name + "-wal")
    if not _immutable(wal, True):
        store.close()
        pytest.skip("chattr +i cannot be set here (not root, or not on this file system)")
    try:
        with pytest.raises(StorageFailing) as refused_:
            add(table)
        with pytest.raises(StorageFailing):
            table.undo("red")
    finally:
        _immutable(wal, False)
    message = str(refused_.value)
    assert message.startswith(f"the disk holding {path} failed to read or write (a disk I/O "
                              "error: a memory card that is failing does this): nothing was "
                              "written, and everything is as it was; restart the Pi; if it "
                              "happens again, the card is failing: copy the latest backup to "
                              "a USB stick and replace the card")
    cause = refused_.value.__cause__
    assert isinstance(cause, sqlite3.OperationalError) and "disk I/O error" in str(cause)
    assert (table.version, table.state) == (version, state)
    add(table)  # the card is back (after a restart)
    store.close()
    with SQLiteStore(path) as again:
        assert Table.open(again, table.session_id).version == table.version


def test_what_counts_as_a_failing_disk():
    io_error = sqlite3.OperationalError("disk I/O error")
    io_error.sqlite_errorcode = sqlite3.SQLITE_IOERR_WRITE  # type: ignore[attr-defined]
    said = refused(io_error, "/data")
    assert isinstance(said, StorageFailing) and said.path == "/data"
    assert isinstance(refused(OSError(errno.EIO, "Input/output error"), "/data"),
                      StorageFailing)
    assert not isinstance(refused(OSError(errno.EROFS, "read-only"), "/data"), StorageFailing)
