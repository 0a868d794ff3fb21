"""The table session: commands in, events logged, state out, with unlimited undo and redo.

A :class:`Table` joins a game engine (pure rules) to an event store (the shell). Applying a
command asks the engine to ``decide`` it, folds the events into the state with ``evolve``,
and returns only once the store has committed them; a refused command
(:class:`~companion.errors.InvalidCommand`, :class:`~companion.errors.IllegalCommand`)
writes nothing.

Undo and redo work like an editor's (and python-chess's move stack): the table keeps the
state before every applied command, undo goes back to it, redo re-applies the events that
the command recorded (it does not decide again), and a new command after an undo drops what
could have been redone. Both are recorded in the log as records of their own, so history is
never rewritten; :func:`replay` turns a log back into the same state and stacks.

Opening a session loads the latest snapshot and folds the records after it; the states
before older commands are rebuilt by a full replay only if an undo reaches them.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from companion.engine import JSON, Command, Engine, Event, fold
from companion.errors import IllegalCommand
from companion.games import find_game
from companion.prompts import Prompt
from companion.store.errors import MalformedExport, StoreError, VersionConflict
from companion.store.protocol import EventStore
from companion.store.records import (
    CommandRecord,
    NewRecord,
    RecordKind,
    SessionInfo,
    Snapshot,
    SnapshotData,
    StoredEvent,
    normalized,
)
from companion.store.sqlite import DEFAULT_SNAPSHOT_EVERY, MEMORY, Clock, SQLiteStore, utc_now

_log = logging.getLogger(__name__)


class _Missing:
    """Marks a state not kept in memory (``None`` is a valid state: before the setup)."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


@dataclass(frozen=True)
class Step:
    """An entry of the undo or redo stack: a command, its events and the state before it.

    ``events`` is ``None`` and ``before`` is :data:`MISSING` when the step came from a
    snapshot and has not been needed since.
    """

    command_no: int
    events: tuple[Event, ...] | None
    before: Any = MISSING


@dataclass
class Position:
    """Where a log leads: the state, its version and the undo and redo stacks."""

    state: Any
    version: int
    last_command: int
    applied: list[Step] = field(default_factory=list)
    redoable: list[Step] = field(default_factory=list)

    @property
    def applied_numbers(self) -> tuple[int, ...]:
        return tuple(s.command_no for s in self.applied)

    @property
    def redoable_numbers(self) -> tuple[int, ...]:
        return tuple(s.command_no for s in self.redoable)


class _NeedsFullReplay(Exception):
    """An undo reached a state that the snapshot does not carry."""


def replay(engine: Engine, records: Iterable[CommandRecord],
           start: Position | None = None) -> Position:
    """Fold a log (setup first, or records after ``start``) into a :class:`Position`."""
    pos = start if start is not None else Position(None, 0, -1)
    for record in records:
        if record.command_no != pos.last_command + 1:
            raise StoreError(f"record {record.command_no} follows record {pos.last_command}")
        events = record.engine_events
        if record.kind is RecordKind.SETUP:
            pos.state = fold(engine, events, None)
        elif record.kind is RecordKind.COMMAND:
            pos.applied.append(Step(record.command_no, events, pos.state))
            pos.redoable.clear()
            pos.state = fold(engine, events, pos.state)
        elif record.kind is RecordKind.UNDO:
            step = pos.applied.pop()
            _check_target(record, step)
            if step.before is MISSING:
                raise _NeedsFullReplay
            pos.redoable.append(step)
            pos.state = step.before
        else:
            step = pos.redoable.pop()
            _check_target(record, step)
            redo_events = step.events
            if redo_events is None:
                raise _NeedsFullReplay
            pos.applied.append(Step(step.command_no, redo_events, pos.state))
            pos.state = fold(engine, redo_events, pos.state)
        pos.last_command = record.command_no
        if record.events:
            pos.version = record.events[-1].seq
    return pos


def check_replays(info: SessionInfo, records: Sequence[CommandRecord]) -> None:
    """Check that an exported session (:func:`companion.store.export.parse`) opens here: its
    game is one this Tableside has, and its records replay to a state.
    :class:`MalformedExport` otherwise, so that nothing is imported that no one could open
    (an export from a Tableside with another game, or edited by hand). The state after each
    record must also survive the engine's own check of a stored state (``load_state``)."""
    try:
        engine = find_game(info.game)
    except KeyError as exc:
        raise MalformedExport("session.game", str(exc.args[0])) from None
    pos: Position | None = None
    for record in records:
        try:
            pos = replay(engine, [record], pos)
            # every state the table can reach must also load back: an event edited by hand
            # can leave a value the game's own code never writes (a turn for player false)
            engine.load_state(engine.dump_state(pos.state))
        except Exception as exc:  # noqa: BLE001 - the game's own code on events it never made
            raise MalformedExport("records", f"they do not replay as a {info.game} game "
                                  f"(record {record.command_no}: {type(exc).__name__}: {exc})"
                                  ) from None


def _check_target(record: CommandRecord, step: Step) -> None:
    if record.target != step.command_no:
        raise StoreError(f"record {record.command_no} {record.kind.value}s command "
                         f"{record.target}, but the stack has command {step.command_no}")


@dataclass(frozen=True)
class HistoryEntry:
    """One line of history: who did what, when, what it caused, and whether it is undone."""

    record: CommandRecord
    undone: bool

    def to_json(self) -> dict[str, JSON]:
        out = self.record.to_json()
        out["undone"] = self.undone
        return out


class Table:
    """One table session. Build it with :meth:`create`, :meth:`open` or :meth:`in_memory`.

    ``apply``, ``undo`` and ``redo`` hold one lock, so web threads may share a table.
    ``expected_version`` (optional everywhere) is the version the caller's page shows: if
    the table has moved on, :class:`~companion.store.VersionConflict` and nothing changes.
    """

    def __init__(self, store: EventStore, info: SessionInfo, engine: Engine,
                 position: Position, *, owns_store: bool = False) -> None:
        self._store = store
        self._info = info
        self._engine = engine
        self._pos = position
        self._owns_store = owns_store
        self._lock = threading.RLock()
        self._listeners: list[Callable[[Table], None]] = []
        self._guards: list[Callable[[Table], None]] = []

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def create(cls, store: EventStore, game: str, options: Mapping[str, JSON],
               actor: str | None = None) -> Table:
        """Start a new game: the engine's setup events become record 0."""
        engine = find_game(game)
        options = normalized(dict(options), "the setup options")
        events = _normalized_events(engine.setup(options))
        state = fold(engine, events, None)
        info = store.create_session(game, options, events, actor=actor)
        return cls(store, info, engine, Position(state, info.version, 0))

    @classmethod
    def open(cls, store: EventStore, session_id: str) -> Table:
        """Load a session: the latest snapshot, then the records after it."""
        info = store.session(session_id)
        engine = find_game(info.game)
        return cls(store, info, engine, _load(engine, store, session_id))

    @classmethod
    def in_memory(cls, game: str, options: Mapping[str, JSON], actor: str | None = None, *,
                  clock: Clock = utc_now, snapshot_every: int = DEFAULT_SNAPSHOT_EVERY
                  ) -> Table:
        """A table over its own in-memory store (scripts, tests); ``close()`` frees it."""
        store = SQLiteStore(MEMORY, clock=clock, snapshot_every=snapshot_every)
        try:
            table = cls.create(store, game, options, actor)
        except BaseException:
            store.close()
            raise
        table._owns_store = True
        return table

    def close(self) -> None:
        """Close the store if this table created it (:meth:`in_memory`)."""
        if self._owns_store:
            self._store.close()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Table {self.session_id} {self.game} v{self.version}>"

    # -- what the table is -----------------------------------------------------------------

    @property
    def session_id(self) -> str:
        return self._info.id

    @property
    def game(self) -> str:
        return self._info.game

    @property
    def options(self) -> Mapping[str, JSON]:
        return self._info.options

    @property
    def engine(self) -> Engine:
        return self._engine

    @property
    def store(self) -> EventStore:
        return self._store

    @property
    def state(self) -> Any:
        return self._pos.state

    @property
    def version(self) -> int:
        """Sequence number of the last event; grows with every apply, undo and redo."""
        return self._pos.version

    @property
    def last_command(self) -> int:
        """Number of the last record (0 is the setup)."""
        return self._pos.last_command

    @property
    def can_undo(self) -> bool:
        return bool(self._pos.applied)

    @property
    def can_redo(self) -> bool:
        return bool(self._pos.redoable)

    @property
    def applied(self) -> tuple[int, ...]:
        """Command numbers on the undo stack, oldest first."""
        return self._pos.applied_numbers

    @property
    def redoable(self) -> tuple[int, ...]:
        """Command numbers on the redo stack, the next one to redo last."""
        return self._pos.redoable_numbers

    def prompts(self) -> Sequence[Prompt]:
        return self._engine.prompts(self._pos.state)

    def view(self, viewer: str | None) -> JSON:
        return self._engine.view(self._pos.state, viewer)

    def events(self, after: int = 0) -> list[StoredEvent]:
        return self._store.events(self.session_id, after)

    def history(self) -> list[HistoryEntry]:
        """Every record, oldest first; a command is ``undone`` when it is not in effect."""
        with self._lock:
            active = set(self._pos.applied_numbers)
            records = self._store.records(self.session_id)
        return [HistoryEntry(r, r.kind is RecordKind.COMMAND and r.command_no not in active)
                for r in records]

    # -- listening -------------------------------------------------------------------------

    def add_listener(self, fn: Callable[[Table], None], *, call_now: bool = False) -> None:
        """Call ``fn(table)`` after every committed apply, undo and redo, so a change from
        any entry point (a phone, a button, the camera) reaches whoever listens.

        Listeners run in the changing thread while the table is still locked, so they see
        the version and state that change made, in order; they should be quick. A listener
        that raises is logged and the change stands (it is already committed).
        ``call_now`` also calls it once at once (under the same lock), so a listener starts
        from a known version without a race with a change in between.
        """
        with self._lock:
            self._listeners.append(fn)
            if call_now:
                self._notify_one(fn)

    def add_guard(self, fn: Callable[[Table], None]) -> None:
        """Call ``fn(table)`` before every apply, undo and redo, under the table's lock: an
        ``IllegalCommand`` it raises refuses the change, and nothing is written. The web
        server's guard keeps a game recorded into a campaign as it was recorded."""
        with self._lock:
            self._guards.append(fn)

    def remove_listener(self, fn: Callable[[Table], None]) -> None:
        with self._lock:
            if fn in self._listeners:
                self._listeners.remove(fn)

    def _notify(self) -> None:
        for fn in list(self._listeners):
            self._notify_one(fn)

    def _notify_one(self, fn: Callable[[Table], None]) -> None:
        try:
            fn(self)
        except Exception:
            _log.exception("table %s: a listener failed after version %d",
                           self.session_id, self.version)

    # -- changing it -----------------------------------------------------------------------

    def apply(self, command: Command, expected_version: int | None = None
              ) -> list[StoredEvent]:
        """Decide and record a command; return its events once they are committed."""
        with self._lock:
            self._check_may_change(expected_version)
            pos = self._pos
            events = _normalized_events(self._engine.decide(pos.state, command))
            state = fold(self._engine, events, pos.state)
            step = Step(pos.last_command + 1, events, pos.state)
            applied = [*pos.applied, step]
            record = NewRecord.command(command.type, command.args, command.actor, events)
            stored = self._append(record, state, applied, [])
            self._pos = Position(state, _version_after(stored, pos.version),
                                 stored.command_no, applied, [])
            self._notify()
            return list(stored.events)

    def undo(self, actor: str | None = None, expected_version: int | None = None
             ) -> list[StoredEvent]:
        """Take back the latest command in effect (``IllegalCommand`` if there is none;
        ``InvalidCommand`` for an actor no one plays, when the engine knows its actors)."""
        with self._lock:
            self._check_may_change(expected_version)
            self._check_actor(actor)
            if not self._pos.applied:
                raise IllegalCommand("there is nothing to undo")
            if self._pos.applied[-1].before is MISSING:
                self._rebuild()
            pos = self._pos
            step = pos.applied[-1]
            applied = pos.applied[:-1]
            redoable = [*pos.redoable, step]
            stored = self._append(NewRecord.undo(step.command_no, actor), step.before,
                                  applied, redoable)
            self._pos = Position(step.before, _version_after(stored, pos.version),
                                 stored.command_no, applied, redoable)
            self._notify()
            return list(stored.events)

    def redo(self, actor: str | None = None, expected_version: int | None = None
             ) -> list[StoredEvent]:
        """Re-apply the latest undone command's recorded events (``IllegalCommand`` if none;
        ``InvalidCommand`` for an actor no one plays, as :meth:`undo`)."""
        with self._lock:
            self._check_may_change(expected_version)
            self._check_actor(actor)
            if not self._pos.redoable:
                raise IllegalCommand("there is nothing to redo")
            pos = self._pos
            step = pos.redoable[-1]
            events = step.events
            if events is None:
                events = self._store.record(self.session_id, step.command_no).engine_events
            state = fold(self._engine, events, pos.state)
            applied = [*pos.applied, Step(step.command_no, events, pos.state)]
            redoable = pos.redoable[:-1]
            stored = self._append(NewRecord.redo(step.command_no, actor), state, applied,
                                  redoable)
            self._pos = Position(state, _version_after(stored, pos.version),
                                 stored.command_no, applied, redoable)
            self._notify()
            return list(stored.events)

    def before_last(self) -> Any:
        """The game's state before its latest command in effect, as an undo would leave it
        (``IllegalCommand`` if there is none): a command meant to replace that one is
        decided on it first, so that one the engine refuses records nothing (a dice
        correction undid and redid a roll, both in the history, to be refused)."""
        with self._lock:
            if not self._pos.applied:
                raise IllegalCommand("there is nothing to undo")
            if self._pos.applied[-1].before is MISSING:
                self._rebuild()
            return self._pos.applied[-1].before

    def reload(self) -> None:
        """Catch up with records that another process appended (done by itself after a
        change loses a race to another writer: :class:`VersionConflict`)."""
        with self._lock:
            self._pos = _load(self._engine, self._store, self.session_id)
            self._notify()

    # -- helpers ---------------------------------------------------------------------------

    def _check_may_change(self, expected: int | None) -> None:
        """The version the caller saw is the table's, and no guard refuses the change."""
        if expected is not None and expected != self._pos.version:
            raise VersionConflict(self.session_id, expected, self._pos.version)
        for guard in self._guards:
            guard(self)

    def _check_actor(self, actor: str | None) -> None:
        """Refuse an actor that no one plays at this table, when the engine can tell
        (``check_actor``): undo and redo do not go through ``decide``, which refuses one for
        every command (a host's undo through the web recorded any name it was sent)."""
        check = getattr(self._engine, "check_actor", None)
        if check is not None and actor is not None and self._pos.state is not None:
            check(self._pos.state, actor)

    def _append(self, record: NewRecord, state: Any, applied: Sequence[Step],
                redoable: Sequence[Step]) -> CommandRecord:
        def snapshot() -> SnapshotData:
            return SnapshotData(self._engine.dump_state(state),
                                tuple(s.command_no for s in applied),
                                tuple(s.command_no for s in redoable))

        try:
            return self._store.append(self.session_id, record,
                                      expected_version=self._pos.version,
                                      expected_last_command=self._pos.last_command,
                                      snapshot=snapshot)
        except VersionConflict:
            self._catch_up()
            raise

    def _catch_up(self) -> None:
        """After a race lost to another writer of the same database (another process, or
        another table on the session): the table reloads what the store holds, so the
        conflict says the version to reload the page at and the next change works. Without
        it the table kept the version it had, and every change conflicted for good."""
        try:
            self.reload()
        except Exception:  # the conflict is what the caller hears; the next change retries
            _log.exception("table %s: cannot reload after a conflict", self.session_id)

    def _rebuild(self) -> None:
        """Replay the whole log to recover the states a snapshot does not carry."""
        full = replay(self._engine, self._store.records(self.session_id))
        if (full.version, full.applied_numbers, full.redoable_numbers) != (
                self._pos.version, self._pos.applied_numbers, self._pos.redoable_numbers):
            conflict = VersionConflict(self.session_id, self._pos.version, full.version)
            self._pos = full  # the log is the truth: another writer moved it on
            self._notify()
            raise conflict
        self._pos = full


def _normalized_events(events: Iterable[Event]) -> tuple[Event, ...]:
    """Events as the log will give them back, so live and replayed states are equal."""
    return tuple(Event(e.type, normalized(dict(e.payload), f"event {e.type!r}"))
                 for e in events)


def _version_after(stored: CommandRecord, version: int) -> int:
    return stored.events[-1].seq if stored.events else version


def _load(engine: Engine, store: EventStore, session_id: str) -> Position:
    snapshot = store.latest_snapshot(session_id)
    if snapshot is not None:
        try:
            return replay(engine, store.records(session_id, after=snapshot.command_no),
                          _from_snapshot(engine, snapshot))
        except _NeedsFullReplay:
            pass
    return replay(engine, store.records(session_id))


def _from_snapshot(engine: Engine, snapshot: Snapshot) -> Position:
    data = snapshot.data
    return Position(engine.load_state(data.state), snapshot.version, snapshot.command_no,
                    [Step(no, None) for no in data.applied],
                    [Step(no, None) for no in data.redoable])
