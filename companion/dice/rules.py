"""The rules that change what a dice pool is worth: re-rolls, face values, fortune, bonuses.

:class:`PoolRules` is a value: the odds calculator takes one to compute a distribution, and
the SeaFall engine builds one from the powers in play to show the odds before a roll.
Readings chosen where the rulebook is open to more than one (see ``docs/odds.md``):

* **Re-roll once.** Each die showing a re-rolled kind is rolled again one time and keeps its
  new face, whatever it is (SeaFall rulebook, "Raid" > Yellow's spice raid example). Some fan
  tools re-roll until the face is no longer weak; Tableside does not.
* **Fortune** turns a die showing a ``fortune_kinds`` face (``"blank"``) worth 0 successes
  into one standard success, one token per die, after the roll ("Endeavors and Damage" >
  "Completing an Endeavor & Fortune"; "Tokens and Enmity" > "Fortune Tokens"). None at a
  dangerous site unless a power allows up to ``fortune_at_dangerous``.
* **Bonus** successes from powers count only if at least one success was rolled (dice after
  re-rolls, before fortune; RULES-FACTS.md, "Rulings from designer posts").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.dice.model import Die, Face
from companion.errors import InvalidCommand


@dataclass(frozen=True)
class PoolRules:
    """How a pool's faces are read.

    ``reroll``: face kinds re-rolled once. ``values``: success values by face kind,
    overriding the die's own (``(("weak", 0), ("strong", 2))``; a mapping is accepted and
    normalised to sorted pairs so the rules stay hashable). ``fortune``: tokens the player
    holds. ``dangerous``: the site forbids fortune, except ``fortune_at_dangerous`` tokens
    allowed by a power. ``bonus``: successes added by powers when at least one success was
    rolled. ``fortune_kinds``: the face kinds a fortune token can turn into a success.
    """

    reroll: frozenset[str] = frozenset()
    values: tuple[tuple[str, int], ...] = ()
    fortune: int = 0
    dangerous: bool = False
    fortune_at_dangerous: int = 0
    bonus: int = 0
    fortune_kinds: frozenset[str] = frozenset({"blank"})

    def __post_init__(self) -> None:
        object.__setattr__(self, "reroll", _kinds(self.reroll, "reroll"))
        object.__setattr__(self, "fortune_kinds", _kinds(self.fortune_kinds, "fortune_kinds"))
        object.__setattr__(self, "values", _values(self.values))
        for name in ("fortune", "fortune_at_dangerous", "bonus"):
            amount = getattr(self, name)
            if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
                raise InvalidCommand(f"{name} must be a whole number >= 0, not {amount!r}")
        if not isinstance(self.dangerous, bool):
            raise InvalidCommand(f"dangerous must be true or false, not {self.dangerous!r}")

    @property
    def usable_fortune(self) -> int:
        """How many of the player's tokens may be spent at this site."""
        if self.dangerous:
            return min(self.fortune, self.fortune_at_dangerous)
        return self.fortune

    def value_of(self, face: Face) -> int:
        """The successes (or pips) this face counts under these rules."""
        for kind, value in self.values:
            if kind == face.kind:
                return value
        return face.value

    def check_kinds(self, die: Die) -> None:
        """Refuse re-rolls or values for kinds the die does not have (a typo, usually)."""
        named = set(self.reroll) | {kind for kind, _ in self.values}
        unknown = sorted(named - set(die.kinds))
        if unknown:
            raise InvalidCommand(
                f"the {die.name} die has no face of kind {', '.join(map(repr, unknown))} "
                f"(kinds: {', '.join(die.kinds)})"
            )


def _kinds(raw: Any, name: str) -> frozenset[str]:
    if isinstance(raw, str) or not isinstance(raw, Iterable):
        raise InvalidCommand(f"{name} is a set of face kinds, not {raw!r}")
    kinds = frozenset(raw)
    if not all(isinstance(k, str) and k for k in kinds):
        raise InvalidCommand(f"{name} holds face kinds (non-empty strings), not {raw!r}")
    return kinds


def _values(raw: Any) -> tuple[tuple[str, int], ...]:
    if isinstance(raw, Mapping):
        pairs = list(raw.items())
    elif isinstance(raw, Iterable) and not isinstance(raw, str):
        pairs = list(raw)
    else:
        raise InvalidCommand(f"values map face kinds to successes, not {raw!r}")
    out: dict[str, int] = {}
    for pair in pairs:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise InvalidCommand(f"values are (kind, value) pairs, not {pair!r}")
        kind, value = pair
        if not isinstance(kind, str) or not kind:
            raise InvalidCommand(f"a face kind is a non-empty string, not {kind!r}")
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidCommand(f"the value of {kind!r} faces must be a whole number")
        if kind in out:
            raise InvalidCommand(f"two values given for {kind!r} faces")
        out[kind] = value
    return tuple(sorted(out.items()))
