"""What a table session needs from an event store.

:class:`~companion.store.sqlite.SQLiteStore` is the embedded implementation; a league server
could put PostgreSQL behind the same methods (DESIGN.md, "Beyond one table").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from companion.engine import JSON, Event
from companion.store.records import (
    CommandRecord,
    NewRecord,
    SessionInfo,
    Snapshot,
    SnapshotData,
    StoredEvent,
)


class EventStore(Protocol):
    """The store decides when a snapshot is due and asks the table for it."""

    def create_session(self, game: str, options: Mapping[str, JSON], events: Sequence[Event],
                       *, actor: str | None = None, session_id: str | None = None
                       ) -> SessionInfo: ...

    def session(self, session_id: str) -> SessionInfo: ...

    def append(self, session_id: str, record: NewRecord, *, expected_version: int | None,
               expected_last_command: int | None = None,
               snapshot: Callable[[], SnapshotData] | None = None) -> CommandRecord: ...

    def records(self, session_id: str, after: int = -1) -> list[CommandRecord]: ...

    def record(self, session_id: str, command_no: int) -> CommandRecord: ...

    def events(self, session_id: str, after: int = 0) -> list[StoredEvent]: ...

    def latest_snapshot(self, session_id: str) -> Snapshot | None: ...

    def close(self) -> None: ...
