"""Prompts: what the table is asked for now, in a shape any front end can render.

An engine puts prompts in its state; the web pages and the button box render them
generically and answer with the command each prompt names. A prompt never re-implements a
rule: its options are the legal ones, computed by the engine.

Three kinds, after DESIGN.md:

* :class:`RollPrompt`: "roll 7 SeaFall dice for Red's raid"; answered by a dice read.
* :class:`ChoicePrompt`: "choose: exhaust SWIFT or draw a damage card"; an option may need
  a value typed with it (:class:`OptionInput`: an appellation's name, a damage card's).
* :class:`SpendPrompt`: "spend fortune? (0-2)".

Each prompt names the command that answers it (``command``) and the argument that carries
the answer (``arg``), so a generic front end can build ``{"type": command, "args": {arg:
value}}`` without knowing the game.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class OptionInput:
    """A value an option needs besides itself, which the player types: the name of a SeaFall
    appellation, the new gold value of a field, a damage card's name and powers. A front end
    asks for it once the option is chosen and sends it as the command's ``arg``.
    ``default`` None: it must be given, except ``effects`` (a card's powers, a list of
    effects), which is left out when none are typed: the engine's own then apply."""

    arg: str
    label: str
    kind: str = "text"  # "text", "number" or "effects"
    default: str | int | None = None
    minimum: int | None = None  # a number's bounds, or a text's length
    maximum: int | None = None

    @property
    def required(self) -> bool:
        """Whether it must be typed: it has no default to send instead."""
        return self.default is None and self.kind != "effects"


@dataclass(frozen=True)
class Option:
    """One legal answer to a :class:`ChoicePrompt`: ``value`` is sent back, ``label`` shown,
    and ``inputs`` are typed by the player and sent with it."""

    value: str
    label: str
    inputs: tuple[OptionInput, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"value": self.value, "label": self.label}
        if self.inputs:  # most options have none
            out["inputs"] = [asdict(i) for i in self.inputs]
        return out


@dataclass(frozen=True)
class RollPrompt:
    id: str
    player: str | None
    die: str
    count: int
    purpose: str
    command: str = "roll"
    arg: str = "faces"
    kind: str = "roll"
    keep: tuple[str, ...] = ()
    """On a re-roll, the faces the dice left in the tray show (the roll's others), in any
    order: a camera can see whether the right dice were picked up. Empty when every die
    of the roll is thrown."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class ChoicePrompt:
    id: str
    player: str | None
    question: str
    options: tuple[Option, ...]
    command: str
    arg: str = "choice"
    kind: str = "choice"

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["options"] = [o.to_json() for o in self.options]
        return out


@dataclass(frozen=True)
class SpendPrompt:
    id: str
    player: str | None
    token: str
    minimum: int
    maximum: int
    question: str
    command: str
    arg: str = "amount"
    kind: str = "spend"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


Prompt = RollPrompt | ChoicePrompt | SpendPrompt
