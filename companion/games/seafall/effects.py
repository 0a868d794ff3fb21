"""The small declarative vocabulary in which SeaFall powers are written.

SeaFall is a legacy game: players add cards as they open boxes, so powers are data, not
code per card (DESIGN.md, "Component data is data"). An effect is a JSON object such as
``{"effect": "dice", "endeavor": "explore", "amount": 1, "site_symbol": "anchor"}``.

Effects that change an endeavor:

=====================  ==================================================================
``stat``               a ship value changes by ``amount`` (``stat``: sail/raid/explore/hold)
``dice``               ``amount`` more dice in the pool (optionally only for one
                       ``endeavor``, or at sites with a given unexplored ``site_symbol``)
``support_dice``       a support ship carrying it gives ``amount`` more dice
``fortune_at_dangerous``  up to ``amount`` fortune tokens may be spent at a dangerous site
``reroll``             each die showing ``kind`` is re-rolled once
``face_value``         faces of ``kind`` count ``value`` successes
``bonus_successes``    ``amount`` more successes, only if at least one success was rolled
``strong_reduces_damage``  each strong success reduces the damage taken by 1
``support_takes_damage``   a support ship carrying it may take ``amount`` damage
``garrison``           a structure adds ``amount`` to its region's garrison
``expertise``          ``amount`` more of an expertise ``kind`` (raid, explore, taxes, buy,
                       sell, upgrade, build, research), as an advisor's, from a treasure or
                       structure held or the event revealed this round
``buy_price``          each good bought costs ``amount`` more (negative: less)
``sell_price``         each good sold brings ``amount`` more (negative: less)
=====================  ==================================================================

Other names are accepted for powers outside the endeavor (``sell_bonus``, ``peek_deck``,
``hire_any_number``, ``free_repair``) and ``note`` carries a reminder text the table reads.
``role`` says where an upgrade's effect works: on the ``flagship``, on the ``support``
ship, or ``any`` (the default).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

STATS = ("sail", "raid", "explore", "hold")
ENDEAVORS = ("explore", "raid")
ROLES = ("any", "flagship", "support")

# effect name -> fields it needs beyond "effect"
_REQUIRED: dict[str, tuple[str, ...]] = {
    "stat": ("stat", "amount"),
    "dice": ("amount",),
    "support_dice": ("amount",),
    "fortune_at_dangerous": ("amount",),
    "reroll": ("kind",),
    "face_value": ("kind", "value"),
    "bonus_successes": ("amount",),
    "strong_reduces_damage": (),
    "support_takes_damage": ("amount",),
    "garrison": ("amount",),
    "expertise": ("kind", "amount"),
    "buy_price": ("amount",),
    "sell_price": ("amount",),
    "sell_bonus": ("amount",),
    "peek_deck": (),
    "hire_any_number": (),
    "free_repair": (),
    "note": ("text",),
}
EFFECT_NAMES = tuple(_REQUIRED)
EXPERTISE = ("raid", "explore", "taxes", "buy", "sell", "upgrade", "build", "research")


@dataclass(frozen=True)
class Effect:
    """One power. Fields that an effect does not use keep their defaults."""

    effect: str
    amount: int = 0
    role: str = "any"
    stat: str | None = None
    endeavor: str | None = None
    site_symbol: str | None = None
    kind: str | None = None
    value: int | None = None
    text: str | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Effect:
        return self  # frozen

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Effect:
        if not isinstance(data, Mapping):
            raise ValueError(f"an effect is a JSON object, not {data!r}")
        name = data.get("effect")
        if name not in _REQUIRED:
            raise ValueError(f"unknown effect {name!r}; known effects: {', '.join(EFFECT_NAMES)}")
        # a required field given as null was taken, then dropped when the state was written
        # (to_json leaves out defaults): the game set up, and would not load again
        missing = [f for f in _REQUIRED[name] if data.get(f) is None]
        if missing:
            raise ValueError(f"effect {name!r} needs {', '.join(missing)}")
        unknown = set(data) - {f for f in cls.__dataclass_fields__}
        if unknown:
            raise ValueError(f"effect {name!r} has unknown fields: {', '.join(sorted(unknown))}")
        eff = cls(**dict(data))
        for field in ("amount", "value"):
            val = getattr(eff, field)
            if val is not None and (not isinstance(val, int) or isinstance(val, bool)):
                raise ValueError(f"effect {name!r}: {field} must be a whole number")
        for field in ("role", "stat", "endeavor", "site_symbol", "kind", "text"):
            if getattr(eff, field) is not None and not isinstance(getattr(eff, field), str):
                raise ValueError(f"effect {name!r}: {field} must be text")
        if eff.stat is not None and eff.stat not in STATS:
            raise ValueError(f"effect {name!r}: stat must be one of {', '.join(STATS)}")
        if eff.endeavor is not None and eff.endeavor not in ENDEAVORS:
            raise ValueError(f"effect {name!r}: endeavor must be explore or raid")
        if eff.role not in ROLES:
            raise ValueError(f"effect {name!r}: role must be one of {', '.join(ROLES)}")
        if name == "expertise" and eff.kind not in EXPERTISE:
            raise ValueError(f"effect 'expertise': kind must be one of {', '.join(EXPERTISE)}")
        if name == "face_value" and eff.value is not None and eff.value < 0:
            raise ValueError("effect 'face_value': value cannot be negative")
        return eff

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"effect": self.effect}
        for name, default in (
            ("amount", 0), ("role", "any"), ("stat", None), ("endeavor", None),
            ("site_symbol", None), ("kind", None), ("value", None), ("text", None),
        ):
            val = getattr(self, name)
            if val != default:
                out[name] = val
        return out

    def applies_to(self, endeavor: str, site_symbol: str | None) -> bool:
        """Whether this effect works for this endeavor at a site with this symbol."""
        if self.endeavor is not None and self.endeavor != endeavor:
            return False
        return self.site_symbol is None or self.site_symbol == site_symbol


def parse_effects(raw: Any, where: str) -> tuple[Effect, ...]:
    """Parse a list of effects, naming ``where`` they come from in any error."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ValueError(f"{where}: 'effects' must be a list")
    out = []
    for item in raw:
        try:
            out.append(Effect.from_json(item))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{where}: {exc}") from None
    return tuple(out)


def of_kind(effects: Iterable[Effect], name: str) -> list[Effect]:
    """The effects called ``name``."""
    return [e for e in effects if e.effect == name]
