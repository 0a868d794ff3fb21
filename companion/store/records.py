"""The values the event store reads and writes.

A table session's log is a list of *records*, numbered from 0 without gaps: the setup
(record 0), then every command, undo and redo, each with the events it caused. Events carry
their own sequence numbers, also gapless; the sequence number of the last event is the
session's *version*. Undo and redo are records too, each with one marker event
(:data:`COMMAND_UNDONE`, :data:`COMMAND_REDONE`) naming the command it undoes or redoes, so
history is never rewritten.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from companion.engine import JSON, Event
from companion.store.errors import NotJSON

COMMAND_UNDONE = "CommandUndone"
COMMAND_REDONE = "CommandRedone"
SETUP_TYPE = "setup"


def to_json_text(value: JSON, what: str = "value") -> str:
    """Canonical compact JSON text (sorted keys), as the log stores it."""
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                          allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise NotJSON(f"{what} cannot be stored as JSON: {exc}") from None


def normalized(value: JSON, what: str = "value") -> JSON:
    """``value`` as it reads back from the log (tuples become lists, keys strings, ...)."""
    return json.loads(to_json_text(value, what))


class RecordKind(StrEnum):
    SETUP = "setup"
    COMMAND = "command"
    UNDO = "undo"
    REDO = "redo"


@dataclass(frozen=True)
class SessionInfo:
    """One table session: which game, its setup options, who created it and when."""

    id: str
    game: str
    options: Mapping[str, JSON]
    created_at: str
    created_by: str | None
    version: int
    last_command: int

    def to_json(self) -> dict[str, JSON]:
        return {
            "id": self.id,
            "game": self.game,
            "options": dict(self.options),
            "created_at": self.created_at,
            "created_by": self.created_by,
            "version": self.version,
            "last_command": self.last_command,
        }


@dataclass(frozen=True)
class StoredEvent:
    """An event as the log holds it: numbered, attributed and timed."""

    session_id: str
    seq: int
    command_no: int
    actor: str | None
    time: str
    type: str
    payload: Mapping[str, JSON]

    @property
    def event(self) -> Event:
        return Event(self.type, dict(self.payload))

    def to_json(self) -> dict[str, JSON]:
        return {
            "seq": self.seq,
            "command_no": self.command_no,
            "actor": self.actor,
            "time": self.time,
            "type": self.type,
            "payload": dict(self.payload),
        }


@dataclass(frozen=True)
class CommandRecord:
    """A recorded action (setup, command, undo or redo) with the events it caused."""

    session_id: str
    command_no: int
    kind: RecordKind
    type: str
    args: Mapping[str, JSON]
    actor: str | None
    time: str
    target: int | None
    events: tuple[StoredEvent, ...]

    @property
    def engine_events(self) -> tuple[Event, ...]:
        return tuple(e.event for e in self.events)

    def to_json(self) -> dict[str, JSON]:
        return {
            "command_no": self.command_no,
            "kind": self.kind.value,
            "type": self.type,
            "args": dict(self.args),
            "actor": self.actor,
            "time": self.time,
            "target": self.target,
            "events": [e.to_json() for e in self.events],
        }


@dataclass(frozen=True)
class NewRecord:
    """A record about to be appended; the store numbers, attributes and times it."""

    kind: RecordKind
    type: str
    args: Mapping[str, JSON] = field(default_factory=dict)
    actor: str | None = None
    target: int | None = None
    events: tuple[Event, ...] = ()

    @classmethod
    def command(cls, ctype: str, args: Mapping[str, JSON], actor: str | None,
                events: Iterable[Event]) -> NewRecord:
        return cls(RecordKind.COMMAND, ctype, dict(args), actor, None, tuple(events))

    @classmethod
    def undo(cls, target: int, actor: str | None) -> NewRecord:
        marker = Event(COMMAND_UNDONE, {"command_no": target})
        return cls(RecordKind.UNDO, "undo", {"command_no": target}, actor, target, (marker,))

    @classmethod
    def redo(cls, target: int, actor: str | None) -> NewRecord:
        marker = Event(COMMAND_REDONE, {"command_no": target})
        return cls(RecordKind.REDO, "redo", {"command_no": target}, actor, target, (marker,))


@dataclass(frozen=True)
class SnapshotData:
    """What a snapshot holds besides its position: the engine state (``dump_state``) and
    the undo and redo stacks as command numbers, oldest first."""

    state: JSON
    applied: tuple[int, ...]
    redoable: tuple[int, ...]


@dataclass(frozen=True)
class Snapshot:
    """The state after event ``version`` (record ``command_no``), for fast loading."""

    session_id: str
    version: int
    command_no: int
    data: SnapshotData


def undo_stacks(records: Sequence[Any]) -> tuple[list[int], list[int]]:
    """Walk records (anything with ``command_no``, ``kind``, ``target``) as an editor's
    undo stack; return (applied, redoable) command numbers, oldest first.

    ``ValueError`` if an undo does not undo the latest applied command, a redo does not
    redo the latest undone one, or the setup is not exactly record 0.
    """
    applied: list[int] = []
    redoable: list[int] = []
    for position, record in enumerate(records):
        kind = RecordKind(record.kind)
        if (kind is RecordKind.SETUP) != (position == 0):
            raise ValueError(f"record {record.command_no}: the setup is record 0 and only it")
        if kind is RecordKind.COMMAND:
            applied.append(record.command_no)
            redoable.clear()
        elif kind is RecordKind.UNDO:
            if not applied or applied[-1] != record.target:
                raise ValueError(f"record {record.command_no}: undoes command {record.target}, "
                                 f"but the latest applied command is "
                                 f"{applied[-1] if applied else 'none'}")
            redoable.append(applied.pop())
        elif kind is RecordKind.REDO:
            if not redoable or redoable[-1] != record.target:
                raise ValueError(f"record {record.command_no}: redoes command {record.target}, "
                                 f"but the latest undone command is "
                                 f"{redoable[-1] if redoable else 'none'}")
            applied.append(redoable.pop())
    return applied, redoable
