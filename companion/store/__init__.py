"""The event store: an append-only log of every table session, crash-safe on SQLite.

See ``docs/store.md`` for the schema, the durability guarantees and how they are proven.

>>> with SQLiteStore() as store:  # in memory
...     info = store.create_session("tally", {"players": ["red"]}, [])
...     store.version(info.id)
0
"""

from __future__ import annotations

from companion.store.errors import (
    DatabaseInUse,
    DatabaseUnreadable,
    ForeignDatabase,
    InvalidSessionId,
    MalformedExport,
    MigrationFailed,
    MissingDatabase,
    NotJSON,
    SchemaTooNew,
    SessionExists,
    StorageFailing,
    StorageFull,
    StorageReadOnly,
    StorageRefused,
    StoreError,
    UnknownSession,
    VersionConflict,
)
from companion.store.export import FORMAT, FORMAT_VERSION
from companion.store.paths import default_db_path
from companion.store.protocol import EventStore
from companion.store.records import (
    COMMAND_REDONE,
    COMMAND_UNDONE,
    CommandRecord,
    NewRecord,
    RecordKind,
    SessionInfo,
    Snapshot,
    SnapshotData,
    StoredEvent,
)
from companion.store.schema import APPLICATION_ID, MIGRATIONS, Migration
from companion.store.sqlite import DEFAULT_SNAPSHOT_EVERY, SQLiteStore

__all__ = [
    "APPLICATION_ID",
    "COMMAND_REDONE",
    "COMMAND_UNDONE",
    "DEFAULT_SNAPSHOT_EVERY",
    "FORMAT",
    "FORMAT_VERSION",
    "MIGRATIONS",
    "CommandRecord",
    "DatabaseInUse",
    "DatabaseUnreadable",
    "EventStore",
    "ForeignDatabase",
    "InvalidSessionId",
    "MalformedExport",
    "Migration",
    "MigrationFailed",
    "MissingDatabase",
    "NewRecord",
    "NotJSON",
    "RecordKind",
    "SQLiteStore",
    "SchemaTooNew",
    "SessionExists",
    "SessionInfo",
    "Snapshot",
    "SnapshotData",
    "StorageFull",
    "StorageFailing",
    "StorageReadOnly",
    "StorageRefused",
    "StoreError",
    "StoredEvent",
    "UnknownSession",
    "VersionConflict",
    "default_db_path",
]
