"""The engine protocol every game implements, and the values that cross it.

An engine is pure and deterministic (DESIGN.md, "The flow"):

* ``setup(options) -> events`` validates the options of a new game and returns the events
  that create it;
* ``decide(state, command) -> events`` checks a command against the state and returns the
  events it causes, or raises :class:`~companion.errors.InvalidCommand` /
  :class:`~companion.errors.IllegalCommand`;
* ``evolve(state, event) -> state`` folds one event into the state (``None`` is the state
  before the first event); it never raises for an event that ``setup``/``decide`` produced;
* ``prompts(state)`` says what the table is asked for now;
* ``view(state, viewer)`` is what one viewer may see (hidden information only for its owner);
* ``dump_state``/``load_state`` turn a state into JSON-able data and back (snapshots).

Optional: ``describe(event, lang="en", state=None)`` (one readable sentence, in the
language asked for when the game has it, else English; with the table's state, things named
as the table knows them), ``legal_commands(state)``, and
``private_to(event)``, the one viewer an event's content belongs to (a secret note): the
history shows the others that it happened, not what it was; ``dice_thrown(events)``, the
dice the events of the commands in effect threw (``[{"player", "die", "source",
"faces"}]``), for the table's dice statistics; ``phrase(text, lang)`` and
``refusal(text, lang)``, a phrase the engine wrote into a view and the message of an
``IllegalCommand`` it raised, said in ``lang`` when the game has it (else as written).
``check_actor(state, actor)`` raises ``InvalidCommand`` for an actor that no one plays
at this table (``decide`` refuses such a command; the table asks it for undo and redo).

Nothing in an engine reads a clock, a camera or a random generator: physical dice arrive in
commands (see :mod:`companion.dice`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

from companion.errors import InvalidCommand
from companion.prompts import Prompt

JSON = Any  # a value made of dict/list/str/int/float/bool/None


@dataclass(frozen=True)
class Command:
    """What someone at the table wants: ``type`` names the command, ``args`` its fields."""

    type: str
    args: Mapping[str, JSON] = field(default_factory=dict)
    actor: str | None = None

    @classmethod
    def from_json(cls, data: JSON) -> Command:
        """Build a command from ``{"type": ..., "args": {...}, "actor": ...}``.

        For convenience the arguments may also sit beside ``type`` at the top level.
        """
        if not isinstance(data, Mapping):
            raise InvalidCommand(f"a command is a JSON object, not {type(data).__name__}")
        ctype = data.get("type")
        if not isinstance(ctype, str) or not ctype:
            raise InvalidCommand("a command needs a non-empty string 'type'")
        actor = data.get("actor")
        if actor is not None and not isinstance(actor, str):
            raise InvalidCommand("'actor' must be a string")
        if "args" in data:
            args = data["args"]
            if not isinstance(args, Mapping):
                raise InvalidCommand("'args' must be a JSON object")
            extra = set(data) - {"type", "args", "actor"}
            if extra:
                raise InvalidCommand(f"unexpected fields beside 'args': {', '.join(sorted(extra))}")
        else:
            args = {k: v for k, v in data.items() if k not in ("type", "actor")}
        return cls(ctype, dict(args), actor)

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"type": self.type, "args": dict(self.args)}
        if self.actor is not None:
            out["actor"] = self.actor
        return out


@dataclass(frozen=True)
class Event:
    """Something that happened, in the past tense (``ShipSank``), with a JSON payload."""

    type: str
    payload: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        return {"type": self.type, "payload": dict(self.payload)}

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Event:
        return cls(str(data["type"]), dict(data.get("payload") or {}))


@runtime_checkable
class Engine(Protocol):
    """A game's rules. See the module docstring."""

    name: ClassVar[str]

    def setup(self, options: Mapping[str, JSON]) -> Sequence[Event]: ...

    def decide(self, state: Any, command: Command) -> Sequence[Event]: ...

    def evolve(self, state: Any, event: Event) -> Any: ...

    def prompts(self, state: Any) -> Sequence[Prompt]: ...

    def view(self, state: Any, viewer: str | None) -> JSON: ...

    def dump_state(self, state: Any) -> JSON: ...

    def load_state(self, data: JSON) -> Any: ...


def fold(engine: Engine, events: Iterable[Event], state: Any = None) -> Any:
    """``state = fold(events)``: apply ``engine.evolve`` to each event in order."""
    for event in events:
        state = engine.evolve(state, event)
    return state
