"""The event store on SQLite (standard library ``sqlite3``): one file, WAL, ``synchronous=FULL``.

Opening is checked read-only first: a file that is not SQLite, is corrupt, belongs to
another program or was written by a newer Tableside raises a :class:`StoreError` and is
never opened for writing. Every append is one ``BEGIN IMMEDIATE`` transaction holding the
record, all its events and, when due, a snapshot; it returns only after ``COMMIT``, so an
acknowledged command is on disk and a command is never half-written.

The connection is shared by the threads of one process (a lock serialises its use);
several processes may open the same file: writes are serialised by SQLite and checked
against the version the writer expects.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from os import PathLike
from pathlib import Path
from types import TracebackType
from typing import Any

from companion.engine import JSON, Event
from companion.store import export
from companion.store.campaign_export import CampaignExport
from companion.store.campaigns import CampaignTables
from companion.store.errors import (
    DatabaseUnreadable,
    ForeignDatabase,
    MissingDatabase,
    SchemaTooNew,
    SessionExists,
    StoreError,
    UnknownSession,
    VersionConflict,
    refused,
)
from companion.store.records import (
    CommandRecord,
    NewRecord,
    RecordKind,
    SessionInfo,
    Snapshot,
    SnapshotData,
    StoredEvent,
    to_json_text,
)
from companion.store.schema import APPLICATION_ID, MIGRATIONS, Migration, latest_version, migrate

SQLITE_MAGIC = b"SQLite format 3\x00"
DEFAULT_SNAPSHOT_EVERY = 50
MEMORY = ":memory:"

#: The database files a store of this process has open, by (device, inode), each with how
#: many stores: their header is not read through a file of :func:`inspect`'s own, as
#: closing any file of a database lets go of every SQLite lock this process holds on it
#: (POSIX locks are the process's). A server that lost them so had its -wal and -shm
#: deleted under it by the next program to close the database (it took itself for the
#: last), and wrote on into a deleted journal, lost with a crash; a restore went through.
_OPEN_FILES: dict[tuple[int, int], int] = {}
_OPEN_FILES_LOCK = threading.Lock()


def _file_key(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _held_open(path: Path) -> bool:
    key = _file_key(path)
    with _OPEN_FILES_LOCK:
        return key is not None and key in _OPEN_FILES

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def new_session_id() -> str:
    return uuid.uuid4().hex[:12]


def inspect(path: Path, migrations: Sequence[Migration] = MIGRATIONS) -> int | None:
    """Check a database file without writing to it; return its schema version.

    ``None`` if there is no file. Raises :class:`DatabaseUnreadable`,
    :class:`ForeignDatabase` or :class:`SchemaTooNew` for a file we must not touch.
    """
    if not path.exists():
        return None
    if not path.is_file():
        raise DatabaseUnreadable(path, "not a regular file")
    if _held_open(path):  # a store here has it open, so it is ours: SQLite reads it alone
        header = b""
    else:
        with path.open("rb") as f:
            header = f.read(100)
    if header and (len(header) < 100 or not header.startswith(SQLITE_MAGIC)):
        raise DatabaseUnreadable(path, "not an SQLite file")
    if header:
        # The header's own word first, before SQLite opens the file (and, for a WAL file,
        # makes its -shm companion): ids are at offset 68, the user version at 60.
        _check_identity(path, int.from_bytes(header[68:72], "big", signed=True),
                        int.from_bytes(header[60:64], "big", signed=True), 0, migrations)
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise DatabaseUnreadable(path, str(exc)) from None
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
    except sqlite3.DatabaseError as exc:
        raise DatabaseUnreadable(path, str(exc)) from None
    finally:
        conn.close()
    if problems != ["ok"]:
        raise DatabaseUnreadable(path, "integrity check failed: " + "; ".join(problems[:3]))
    return _check_identity(path, app_id, version, tables, migrations)


def _check_identity(path: Path, app_id: int, version: int, tables: int,
                    migrations: Sequence[Migration]) -> int:
    if app_id == APPLICATION_ID:
        supported = latest_version(migrations)
        if version > supported:
            raise SchemaTooNew(path, version, supported)
        return int(version)
    if app_id != 0:
        raise ForeignDatabase(path, f"application id {app_id:#x}")
    if tables or version:
        raise ForeignDatabase(path, "it has tables but no Tableside application id")
    return 0


class SQLiteStore(CampaignTables, CampaignExport):
    """The event log of every table session in one SQLite file (or in memory).

    ``clock`` times the records (the store is the shell: engines never read clocks);
    ``snapshot_every`` is K in "a snapshot every K records" (0: never); ``create=False``
    refuses to create a missing file; ``migrations`` is for tests of the migration
    mechanism.
    """

    def __init__(
        self,
        path: str | PathLike[str] = MEMORY,
        *,
        clock: Clock = utc_now,
        new_id: Callable[[], str] = new_session_id,
        snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
        create: bool = True,
        migrations: Sequence[Migration] = MIGRATIONS,
    ) -> None:
        if snapshot_every < 0:
            raise ValueError("snapshot_every must be 0 (never) or positive")
        self._clock = clock
        self._new_id = new_id
        self.snapshot_every = snapshot_every
        self._lock = threading.RLock()
        if str(path) == MEMORY:
            self.path: Path | None = None
            target = MEMORY
        else:
            self.path = Path(path)
            if inspect(self.path, migrations) is None:
                if not create:
                    raise MissingDatabase(self.path)
                self.path.parent.mkdir(parents=True, exist_ok=True)
            target = str(self.path)
        conn = sqlite3.connect(target, isolation_level=None, check_same_thread=False,
                               timeout=10.0)
        try:
            if self.path is not None:
                mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                if mode != "wal":
                    raise StoreError(f"{self.path}: cannot switch to WAL mode ({mode})")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
            if conn.execute("PRAGMA user_version").fetchone()[0] < latest_version(migrations):
                migrate(conn, migrations)
            self.schema_version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        except BaseException:
            conn.close()
            raise
        self._conn = conn
        self._file = _file_key(self.path) if self.path is not None else None
        if self._file is not None:
            with _OPEN_FILES_LOCK:
                _OPEN_FILES[self._file] = _OPEN_FILES.get(self._file, 0) + 1

    # -- lifecycle -------------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            self._conn.close()
            if self._file is not None:
                with _OPEN_FILES_LOCK:
                    if _OPEN_FILES[self._file] > 1:
                        _OPEN_FILES[self._file] -= 1
                    else:
                        del _OPEN_FILES[self._file]
                self._file = None

    def __enter__(self) -> SQLiteStore:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"SQLiteStore({str(self.path) if self.path else MEMORY!r})"

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[sqlite3.Connection]:
        with self._lock:
            conn = self._conn
            try:
                conn.execute(begin)  # a read-only disk refuses a write's BEGIN already
                yield conn
                conn.execute("COMMIT")
            except BaseException as exc:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                if (said := refused(exc, self.path)) is not None:  # taken back whole
                    raise said from exc
                raise

    def _write(self) -> Any:
        return self._transaction("BEGIN IMMEDIATE")

    def _read(self) -> Any:
        return self._transaction("BEGIN")

    def _now(self) -> str:
        return self._clock().isoformat()

    # -- sessions --------------------------------------------------------------------------

    def create_session(self, game: str, options: Mapping[str, JSON], events: Sequence[Event],
                       *, actor: str | None = None, session_id: str | None = None
                       ) -> SessionInfo:
        """Create a session and its setup (record 0, with ``events``) in one transaction."""
        sid = session_id if session_id is not None else self._new_id()
        options_text = to_json_text(dict(options), "the setup options")
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM sessions WHERE id = ?", (sid,)).fetchone():
                raise SessionExists(sid)
            time = self._now()
            conn.execute("INSERT INTO sessions VALUES (?, ?, ?, ?, ?)",
                         (sid, game, options_text, time, actor))
            self._insert_record(conn, sid, 0, 0, time,
                                NewRecord(RecordKind.SETUP, "setup", json.loads(options_text),
                                          actor, None, tuple(events)))
        return self.session(sid)

    def session(self, session_id: str) -> SessionInfo:
        with self._read() as conn:
            return self._session(conn, session_id)

    def sessions(self) -> list[SessionInfo]:
        """Every session, oldest first."""
        with self._read() as conn:
            ids = [r[0] for r in conn.execute("SELECT id FROM sessions ORDER BY created_at, id")]
            return [self._session(conn, sid) for sid in ids]

    def last_played(self) -> dict[str, str]:
        """Each session's id, with the time of its latest record (its setup, a command, an
        undo or a redo): when it was last played."""
        with self._read() as conn:
            return dict(conn.execute(
                "SELECT s.id, (SELECT c.time FROM commands AS c WHERE c.session_id = s.id "
                "ORDER BY c.command_no DESC LIMIT 1) FROM sessions AS s").fetchall())

    def version(self, session_id: str) -> int:
        """The sequence number of the session's last event."""
        with self._read() as conn:
            return self._position(conn, session_id)[0]

    # -- the log ---------------------------------------------------------------------------

    def append(self, session_id: str, record: NewRecord, *, expected_version: int | None,
               expected_last_command: int | None = None,
               snapshot: Callable[[], SnapshotData] | None = None) -> CommandRecord:
        """Append a command, undo or redo record with its events, atomically.

        ``expected_version`` (when not ``None``) must be the session's current version and
        ``expected_last_command`` (when not ``None``) its last record number, else
        :class:`VersionConflict` and nothing is written (the second catches a record without
        events, which leaves the version as it was). ``snapshot`` is called, inside the
        transaction, when this record's number is a multiple of ``snapshot_every``; it
        returns the state after the record. Returns once the transaction has committed.
        """
        if record.kind is RecordKind.SETUP:
            raise ValueError("the setup is written by create_session")
        with self._write() as conn:
            version, last_no = self._position(conn, session_id)
            if expected_version is not None and expected_version != version:
                raise VersionConflict(session_id, expected_version, version)
            if expected_last_command is not None and expected_last_command != last_no:
                raise VersionConflict(session_id, version, version,
                                      f"has record {last_no}, not {expected_last_command}")
            command_no = last_no + 1
            time = self._now()
            stored = self._insert_record(conn, session_id, command_no, version, time, record)
            if snapshot is not None and self.is_snapshot_due(command_no):
                self._insert_snapshot(conn, session_id, version + len(record.events),
                                      command_no, snapshot())
        return stored

    def is_snapshot_due(self, command_no: int) -> bool:
        return self.snapshot_every > 0 and command_no > 0 and command_no % self.snapshot_every == 0

    def records(self, session_id: str, after: int = -1) -> list[CommandRecord]:
        """The session's records numbered above ``after`` (all of them by default)."""
        with self._read() as conn:
            return self._records(conn, session_id, after)

    def record(self, session_id: str, command_no: int) -> CommandRecord:
        with self._read() as conn:
            found = self._records(conn, session_id, command_no - 1, upto=command_no)
        if not found or found[0].command_no != command_no:
            raise KeyError(f"session {session_id!r} has no record {command_no}")
        return found[0]

    def events(self, session_id: str, after: int = 0) -> list[StoredEvent]:
        """The session's events with a sequence number above ``after``, in order."""
        with self._read() as conn:
            self._position(conn, session_id)
            return self._events(conn, session_id, "seq > ?", after)

    def latest_snapshot(self, session_id: str) -> Snapshot | None:
        with self._read() as conn:
            row = conn.execute(
                "SELECT version, command_no, state, applied, redoable FROM snapshots "
                "WHERE session_id = ? ORDER BY command_no DESC LIMIT 1", (session_id,)).fetchone()
        return None if row is None else _snapshot(session_id, row)

    def snapshots(self, session_id: str) -> list[Snapshot]:
        with self._read() as conn:
            rows = conn.execute(
                "SELECT version, command_no, state, applied, redoable FROM snapshots "
                "WHERE session_id = ? ORDER BY command_no", (session_id,)).fetchall()
        return [_snapshot(session_id, row) for row in rows]

    # -- export and import -----------------------------------------------------------------

    def export_session(self, session_id: str) -> dict[str, JSON]:
        """The session as an export document (see :mod:`companion.store.export`)."""
        with self._read() as conn:  # one consistent view of the session and its records
            return export.document(self._session(conn, session_id),
                                   self._records(conn, session_id, -1))

    def import_session(self, doc: JSON, *, session_id: str | None = None) -> SessionInfo:
        """Write a session from an export document; everything is checked first.

        Raises :class:`MalformedExport` (nothing written) or :class:`SessionExists`.
        """
        info, records = export.parse(doc, session_id)
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM sessions WHERE id = ?", (info.id,)).fetchone():
                raise SessionExists(info.id)
            conn.execute("INSERT INTO sessions VALUES (?, ?, ?, ?, ?)",
                         (info.id, info.game, to_json_text(dict(info.options)),
                          info.created_at, info.created_by))
            for r in records:
                self._insert_stored(conn, r)
        return self.session(info.id)

    # -- checks ----------------------------------------------------------------------------

    def integrity_check(self) -> list[str]:
        """SQLite's full integrity check: ``[]`` when the file is sound."""
        with self._lock:
            found = [row[0] for row in self._conn.execute("PRAGMA integrity_check")]
        return [] if found == ["ok"] else found

    # -- helpers ---------------------------------------------------------------------------

    def _session(self, conn: sqlite3.Connection, session_id: str) -> SessionInfo:
        row = conn.execute("SELECT game, options, created_at, created_by FROM sessions "
                           "WHERE id = ?", (session_id,)).fetchone()
        if row is None:
            raise UnknownSession(session_id)
        version, last_no = self._position(conn, session_id)
        return SessionInfo(session_id, row[0], json.loads(row[1]), row[2], row[3], version,
                           last_no)

    def _records(self, conn: sqlite3.Connection, session_id: str,
                 after: int, upto: int | None = None) -> list[CommandRecord]:
        """The records numbered above ``after`` (up to ``upto``, if given)."""
        self._position(conn, session_id)
        last = -1 if upto is None else upto  # -1: no upper bound
        rows = conn.execute(
            "SELECT command_no, kind, type, args, actor, time, target, event_count "
            "FROM commands WHERE session_id = ? AND command_no > ? "
            "AND (? < 0 OR command_no <= ?) ORDER BY command_no",
            (session_id, after, last, last)).fetchall()
        events = self._events(conn, session_id,
                              "command_no > ? AND (? < 0 OR command_no <= ?)", after, last, last)
        out: list[CommandRecord] = []
        index = 0
        for no, kind, ctype, args, actor, time, target, count in rows:
            own = tuple(events[index:index + count])
            index += count
            if len(own) != count or any(e.command_no != no for e in own):
                raise StoreError(f"session {session_id!r}: record {no} should have {count} "
                                 "events; the log is damaged")
            out.append(CommandRecord(session_id, no, RecordKind(kind), ctype, json.loads(args),
                                     actor, time, target, own))
        if index != len(events):
            raise StoreError(f"session {session_id!r}: events without a record; "
                             "the log is damaged")
        return out

    def _position(self, conn: sqlite3.Connection, session_id: str) -> tuple[int, int]:
        version, last_no = conn.execute(
            "SELECT (SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = ?1), "
            "(SELECT MAX(command_no) FROM commands WHERE session_id = ?1)",
            (session_id,)).fetchone()
        if last_no is None:
            raise UnknownSession(session_id)
        return int(version), int(last_no)

    def _events(self, conn: sqlite3.Connection, session_id: str, where: str,
                *bounds: int) -> list[StoredEvent]:
        rows = conn.execute(
            "SELECT seq, command_no, actor, time, type, payload FROM events "
            f"WHERE session_id = ? AND {where} ORDER BY seq", (session_id, *bounds))
        return [StoredEvent(session_id, seq, no, actor, time, etype, json.loads(payload))
                for seq, no, actor, time, etype, payload in rows]

    def _insert_record(self, conn: sqlite3.Connection, session_id: str, command_no: int,
                       version: int, time: str, record: NewRecord) -> CommandRecord:
        events = tuple(
            StoredEvent(session_id, version + i, command_no, record.actor, time, e.type,
                        json.loads(to_json_text(dict(e.payload), f"event {e.type!r}")))
            for i, e in enumerate(record.events, start=1)
        )
        stored = CommandRecord(session_id, command_no, record.kind, record.type,
                               json.loads(to_json_text(dict(record.args), "the command's args")),
                               record.actor, time, record.target, events)
        self._insert_stored(conn, stored)
        return stored

    def _insert_stored(self, conn: sqlite3.Connection, r: CommandRecord) -> None:
        conn.execute("INSERT INTO commands VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (r.session_id, r.command_no, r.kind.value, r.type, to_json_text(r.args),
                      r.actor, r.time, r.target, len(r.events)))
        conn.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)",
                         [(e.session_id, e.seq, e.command_no, e.actor, e.time, e.type,
                           to_json_text(e.payload)) for e in r.events])

    def _insert_snapshot(self, conn: sqlite3.Connection, session_id: str, version: int,
                         command_no: int, data: SnapshotData) -> None:
        conn.execute("INSERT INTO snapshots VALUES (?, ?, ?, ?, ?, ?)",
                     (session_id, version, command_no, to_json_text(data.state, "the state"),
                      to_json_text(list(data.applied)), to_json_text(list(data.redoable))))


def _snapshot(session_id: str, row: tuple[Any, ...]) -> Snapshot:
    version, command_no, state, applied, redoable = row
    return Snapshot(session_id, version, command_no,
                    SnapshotData(json.loads(state), tuple(json.loads(applied)),
                                 tuple(json.loads(redoable))))
