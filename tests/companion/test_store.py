"""The SQLite event store: opening, refusing files that are not ours, the log, migrations."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.engine import Event
from companion.store import (
    APPLICATION_ID,
    MIGRATIONS,
    DatabaseUnreadable,
    ForeignDatabase,
    Migration,
    MigrationFailed,
    MissingDatabase,
    NewRecord,
    NotJSON,
    RecordKind,
    SchemaTooNew,
    SessionExists,
    SnapshotData,
    SQLiteStore,
    StoreError,
    UnknownSession,
    VersionConflict,
    default_db_path,
)
from companion.store.schema import latest_version, migrate
from tests.support.clock import FakeClock

RAISED = Event("CounterRaised", {"player": "red", "amount": 1})


def _command(*events: Event, actor: str | None = "red") -> NewRecord:
    return NewRecord.command("add", {"player": "red"}, actor, events)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tableside.sqlite3"


@pytest.fixture
def store(db: Path) -> Iterator[SQLiteStore]:
    with SQLiteStore(db, clock=FakeClock(), new_id=lambda: "s1") as s:
        yield s


def _pragma(path: Path, name: str) -> object:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(f"PRAGMA {name}").fetchone()[0]
    finally:
        conn.close()


# -- opening -------------------------------------------------------------------------------


def test_store_new_file_is_wal_with_our_id_and_version(db: Path) -> None:
    with SQLiteStore(db) as store:
        assert store.schema_version == latest_version() == MIGRATIONS[-1].version
        assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert store._conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert _pragma(db, "journal_mode") == "wal"
    assert _pragma(db, "application_id") == APPLICATION_ID
    assert _pragma(db, "user_version") == latest_version()


def test_store_creates_missing_parent_directories(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "t.sqlite3"
    with SQLiteStore(path):
        pass
    assert path.is_file()


def test_store_reopens_its_own_file(db: Path) -> None:
    with SQLiteStore(db, new_id=lambda: "s1") as store:
        store.create_session("tally", {"players": ["red"]}, [Event("GameStarted", {})])
    with SQLiteStore(db, create=False) as store:
        assert [s.id for s in store.sessions()] == ["s1"]
        assert store.version("s1") == 1


def test_store_create_false_refuses_a_missing_file(db: Path) -> None:
    with pytest.raises(MissingDatabase, match="no Tableside database"):
        SQLiteStore(db, create=False)
    assert not db.exists()


def test_store_default_path_follows_xdg(tmp_path: Path) -> None:
    assert default_db_path({"XDG_DATA_HOME": "/data"}) == Path(
        "/data/tableside/tableside.sqlite3")
    assert default_db_path({}, home=tmp_path) == (
        tmp_path / ".local/share/tableside/tableside.sqlite3")
    assert default_db_path({"XDG_DATA_HOME": "relative"}, home=tmp_path) == (
        tmp_path / ".local/share/tableside/tableside.sqlite3")


def _foreign_with_id(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 1234")
    conn.execute("CREATE TABLE notes (x)")
    conn.commit()
    conn.close()


def _foreign_without_id(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE moz_places (url TEXT)")
    conn.execute("INSERT INTO moz_places VALUES ('https://example.org')")
    conn.commit()
    conn.close()


def _newer_schema(path: Path) -> None:
    with SQLiteStore(path):
        pass
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {latest_version() + 1}")
    conn.close()


def _corrupt(path: Path) -> None:
    with SQLiteStore(path) as store:
        for i in range(200):
            store.create_session("tally", {"i": i, "pad": "x" * 500}, [RAISED] * 5,
                                 session_id=f"s{i}")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    data = bytearray(path.read_bytes())
    page = 4096
    data[2 * page:6 * page] = b"\xa5" * (4 * page)
    path.write_bytes(bytes(data))


def _not_sqlite(path: Path) -> None:
    path.write_text("name,score\nred,3\n")


def _truncated(path: Path) -> None:
    path.write_bytes(b"SQLite format 3\x00" + b"\x00" * 20)


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        pytest.param(_not_sqlite, DatabaseUnreadable, "not an SQLite file", id="a CSV file"),
        pytest.param(_truncated, DatabaseUnreadable, "not an SQLite file",
                     id="a truncated header"),
        pytest.param(_corrupt, DatabaseUnreadable, "not a readable",
                     id="an SQLite file with garbage pages"),
        pytest.param(_foreign_with_id, ForeignDatabase, "application id 0x4d2",
                     id="another program's application id"),
        pytest.param(_foreign_without_id, ForeignDatabase, "tables but no Tableside",
                     id="tables but no application id"),
        pytest.param(_newer_schema, SchemaTooNew, "newer than this Tableside supports",
                     id="a newer schema version"),
    ],
)
def test_store_refuses_a_file_that_is_not_ours_and_leaves_it_untouched(
        db: Path, make, error: type[StoreError], message: str) -> None:
    make(db)
    before = {p.name: p.read_bytes() for p in db.parent.iterdir()}
    with pytest.raises(error, match=message) as caught:
        SQLiteStore(db)
    assert isinstance(caught.value, StoreError)
    assert str(db) in str(caught.value)
    after = {p.name: p.read_bytes() for p in db.parent.iterdir() if p.exists()}
    assert after == before


def test_store_refuses_a_directory(tmp_path: Path) -> None:
    with pytest.raises(DatabaseUnreadable, match="not a regular file"):
        SQLiteStore(tmp_path)


def test_store_accepts_an_empty_file_as_a_new_database(db: Path) -> None:
    db.touch()
    with SQLiteStore(db) as store:
        assert store.sessions() == []
    assert _pragma(db, "application_id") == APPLICATION_ID


# -- migrations ----------------------------------------------------------------------------

NEXT = len(MIGRATIONS) + 1  # the version a future migration would have
NEXT_MIGRATION = Migration(NEXT, "player colours", (
    "CREATE TABLE colours (session_id TEXT NOT NULL REFERENCES sessions(id), colour TEXT)",
    "INSERT INTO colours SELECT id, 'red' FROM sessions",
))


def test_store_migrates_an_old_database_in_order(db: Path) -> None:
    # a database of the first schema, then every migration since, then one more
    with SQLiteStore(db, new_id=lambda: "s1", migrations=MIGRATIONS[:1]) as store:
        assert store.schema_version == 1
        store.create_session("tally", {}, [RAISED])
    with SQLiteStore(db, migrations=(*MIGRATIONS, NEXT_MIGRATION)) as store:
        assert store.schema_version == NEXT
        assert store.version("s1") == 1
        assert store._conn.execute("SELECT * FROM colours").fetchall() == [("s1", "red")]
        tables = {r[0] for r in store._conn.execute("SELECT name FROM sqlite_master")}
        assert {"campaigns", "campaign_ledgers", "campaign_games"} <= tables  # migration 2
    # The released Tableside now sees a newer database and refuses it.
    with pytest.raises(SchemaTooNew, match=f"schema version {NEXT}"):
        SQLiteStore(db)


def test_store_failed_migration_leaves_the_previous_version(db: Path) -> None:
    broken = Migration(NEXT, "broken", (
        "CREATE TABLE half (x)",
        "INSERT INTO no_such_table VALUES (1)",
    ))
    with SQLiteStore(db):
        pass
    with pytest.raises(MigrationFailed, match=f"stays at schema version {NEXT - 1}"):
        SQLiteStore(db, migrations=(*MIGRATIONS, broken))
    assert _pragma(db, "user_version") == NEXT - 1
    with SQLiteStore(db) as store:
        names = {r[0] for r in store._conn.execute("SELECT name FROM sqlite_master")}
    assert "half" not in names


# A server: its store open, a backup taken beside it (which checks the file as any store
# does), then a write each time it is told to, saying how many sessions it sees.
SERVER = """
import sys
from pathlib import Path
from companion.store import SQLiteStore
from companion.store.backup import take
db = Path(sys.argv[1])
store = SQLiteStore(db)
take(db)
for _ in sys.stdin:
    store.create_session("tally", {}, [])
    print(len(store.sessions()), flush=True)
"""


def test_checking_an_open_database_keeps_the_processs_sqlite_locks(db: Path) -> None:
    """Closing any file of a database lets go of every SQLite lock the process holds on it.
    The check of a file's header (``inspect``, run by every backup) so dropped a running
    server's locks: the next program to close the database took itself for the last one
    and deleted the -wal and -shm under the server, whose writes then went into a deleted
    journal, seen by no one else and lost with a crash."""
    with SQLiteStore(db) as store:
        store.create_session("tally", {}, [])
    with subprocess.Popen([sys.executable, "-c", SERVER, str(db)], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True,
                          cwd=Path(__file__).resolve().parents[2]) as server:
        assert server.stdin is not None and server.stdout is not None
        try:
            server.stdin.write("\n")
            server.stdin.flush()
            assert server.stdout.readline() == "2\n"  # its backup taken, a table made
            with SQLiteStore(db) as other:  # another program: tableside sessions list
                assert len(other.sessions()) == 2
            assert db.with_name(db.name + "-wal").exists()  # not deleted under the server
            server.stdin.write("\n")
            server.stdin.flush()
            assert server.stdout.readline() == "3\n"
            with SQLiteStore(db) as other:
                assert len(other.sessions()) == 3  # its write is seen
        finally:
            server.kill()  # as a crash
            server.wait(timeout=10)
    with SQLiteStore(db) as store:
        assert len(store.sessions()) == 3  # and kept


def test_the_documented_schema_is_a_new_databases(db: Path) -> None:
    """docs/store.md, "Schema": its version and its tables are those a new database has (it
    said version 1 and four tables when a new database had version 3 and eight)."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "store.md").read_text("utf-8")
    section = doc[doc.index("\n## Schema (version "):doc.index("\n### Migrations")]
    documented = int(re.search(r"## Schema \(version (\d+)\)", section).group(1))
    tables = re.findall(r"^\| `(\w+)` \|", section, flags=re.MULTILINE)
    SQLiteStore(db).close()  # a new database, as a first start makes it
    conn = sqlite3.connect(db)
    try:
        created = [row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")]
    finally:
        conn.close()
    assert documented == _pragma(db, "user_version") == latest_version()
    assert sorted(tables) == sorted(created)


def test_migrations_must_be_numbered_without_gaps() -> None:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        with pytest.raises(ValueError, match="expected 2"):
            migrate(conn, (MIGRATIONS[0], Migration(3, "skips 2", ())))
    finally:
        conn.close()


# -- the log -------------------------------------------------------------------------------


def test_store_append_numbers_times_and_attributes_everything(store: SQLiteStore) -> None:
    info = store.create_session("tally", {"players": ["red"]}, [Event("GameStarted", {})],
                                actor="host")
    assert (info.id, info.version, info.last_command, info.created_by) == ("s1", 1, 0, "host")
    record = store.append("s1", _command(RAISED, RAISED), expected_version=1)
    assert record.command_no == 1
    assert record.kind is RecordKind.COMMAND
    assert [e.seq for e in record.events] == [2, 3]
    assert {(e.actor, e.time, e.command_no) for e in record.events} == {
        ("red", "2026-01-01T20:00:01+00:00", 1)}
    assert store.records("s1") == [store.record("s1", 0), record]
    assert [e.seq for e in store.events("s1", after=1)] == [2, 3]
    assert store.session("s1").version == 3


def test_store_stale_expected_version_is_a_conflict_and_writes_nothing(
        store: SQLiteStore) -> None:
    store.create_session("tally", {}, [RAISED])
    store.append("s1", _command(RAISED), expected_version=1)
    with pytest.raises(VersionConflict, match="at version 2, not 1") as caught:
        store.append("s1", _command(RAISED), expected_version=1)
    assert (caught.value.expected, caught.value.actual) == (1, 2)
    assert store.version("s1") == 2
    assert len(store.records("s1")) == 2


def test_store_a_failing_record_writes_none_of_its_events(store: SQLiteStore) -> None:
    store.create_session("tally", {}, [RAISED])
    with pytest.raises(NotJSON, match="Bad"):
        store.append("s1", _command(RAISED, Event("Bad", {"x": object()})), expected_version=1)
    assert store.version("s1") == 1
    assert [r.command_no for r in store.records("s1")] == [0]


def test_store_snapshot_is_written_every_k_records_with_its_events(db: Path) -> None:
    with SQLiteStore(db, snapshot_every=2, new_id=lambda: "s1") as store:
        store.create_session("tally", {}, [RAISED])
        calls: list[int] = []

        def snapshot() -> SnapshotData:
            calls.append(1)
            return SnapshotData({"n": len(calls)}, (1, 2), ())

        for version in range(1, 5):
            store.append("s1", _command(RAISED), expected_version=version, snapshot=snapshot)
        assert [(s.command_no, s.version, s.data.state) for s in store.snapshots("s1")] == [
            (2, 3, {"n": 1}), (4, 5, {"n": 2})]
        assert store.latest_snapshot("s1").command_no == 4

        def failing() -> SnapshotData:
            raise RuntimeError("dump_state broke")

        store.append("s1", _command(RAISED), expected_version=5, snapshot=failing)
        with pytest.raises(RuntimeError, match="dump_state broke"):
            store.append("s1", _command(RAISED), expected_version=6, snapshot=failing)
        assert store.version("s1") == 6  # the record that needed the snapshot is not there


def test_store_history_is_append_only(store: SQLiteStore) -> None:
    store.create_session("tally", {}, [RAISED])
    conn = store._conn
    for statement in ("UPDATE events SET type = 'X'", "DELETE FROM events",
                      "DELETE FROM commands", "UPDATE commands SET actor = 'blue'"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute(statement)


def test_store_numbering_is_gapless_even_for_a_direct_insert(store: SQLiteStore) -> None:
    store.create_session("tally", {}, [RAISED])
    with pytest.raises(sqlite3.IntegrityError, match="gapless"):
        store._conn.execute("INSERT INTO events VALUES ('s1', 5, 0, NULL, 't', 'X', '{}')")


def test_store_unknown_session_is_a_clear_error(store: SQLiteStore) -> None:
    with pytest.raises(UnknownSession, match="no table session 'nope'"):
        store.session("nope")
    with pytest.raises(UnknownSession):
        store.append("nope", _command(RAISED), expected_version=None)
    with pytest.raises(UnknownSession):
        store.records("nope")


def test_store_session_ids_are_unique(store: SQLiteStore) -> None:
    store.create_session("tally", {}, [])
    with pytest.raises(SessionExists):
        store.create_session("tally", {}, [])


def test_store_setup_is_only_written_by_create_session(store: SQLiteStore) -> None:
    store.create_session("tally", {}, [])
    with pytest.raises(ValueError, match="create_session"):
        store.append("s1", NewRecord(RecordKind.SETUP, "setup"), expected_version=0)


def test_store_sessions_lists_every_session_oldest_first(db: Path) -> None:
    ids = iter(["b", "a"])
    with SQLiteStore(db, clock=FakeClock(), new_id=lambda: next(ids)) as store:
        store.create_session("tally", {}, [RAISED])
        store.create_session("tally", {}, [])
        assert [(s.id, s.version) for s in store.sessions()] == [("b", 1), ("a", 0)]


def test_store_integrity_check_is_empty_for_a_sound_file(store: SQLiteStore) -> None:
    store.create_session("tally", {}, [RAISED])
    assert store.integrity_check() == []


def test_store_two_connections_see_each_other_and_conflict(db: Path) -> None:
    with SQLiteStore(db, new_id=lambda: "s1") as one, SQLiteStore(db) as two:
        one.create_session("tally", {}, [RAISED])
        two.append("s1", _command(RAISED), expected_version=1)
        with pytest.raises(VersionConflict):
            one.append("s1", _command(RAISED), expected_version=1)
        assert one.version("s1") == 2


def test_store_a_record_without_events_still_moves_the_session_on(store: SQLiteStore) -> None:
    store.create_session("tally", {}, [RAISED])
    store.append("s1", _command(), expected_version=1, expected_last_command=0)
    assert store.version("s1") == 1  # no events: same version, but a new record
    with pytest.raises(VersionConflict, match="has record 1, not 0"):
        store.append("s1", _command(RAISED), expected_version=1, expected_last_command=0)
