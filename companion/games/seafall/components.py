"""Component data: the upgrades, structures and advisors a game starts with.

The defaults live in ``data/components.json`` (figures from RULES-FACTS.md; the rulebook
prints none of them). A game's setup may add or replace components, since legacy boxes bring
new ones and editions differ; everything is validated at load so a bad file is refused with
the reason, not discovered mid-game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from companion.games.seafall.effects import EXPERTISE as EFFECT_EXPERTISE
from companion.games.seafall.effects import Effect, parse_effects

GOODS = ("wood", "linen", "spice", "iron")
COLOURS = ("blue", "green", "gray", "red", "yellow", "purple")  # the provinces' colours
GUILDS = ("merchants", "builders", "explorers", "soldiers")
EXPERTISE = EFFECT_EXPERTISE  # the kinds of advisor expertise


def _whole(data: Mapping[str, Any], key: str, where: str, default: int | None = None) -> int:
    val = data.get(key, default)
    if not isinstance(val, int) or isinstance(val, bool) or val < 0:
        raise ValueError(f"{where}: '{key}' must be a whole number >= 0")
    return val


def _name(data: Any, where: str) -> str:
    if not isinstance(data, Mapping):
        raise ValueError(f"{where}: each entry is a JSON object")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{where}: each entry needs a 'name'")
    return name


def _colour(data: Mapping[str, Any], where: str) -> str:
    colour = data.get("colour")
    if colour not in GOODS:
        raise ValueError(f"{where}: 'colour' must be one of {', '.join(GOODS)}")
    return str(colour)


@dataclass(frozen=True)
class UpgradeKind:
    name: str
    colour: str
    cost: int
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True)
class StructureKind:
    name: str
    colour: str
    cost: int
    count: int
    plunder_value: int
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True)
class AdvisorKind:
    name: str
    guild: str
    gold: int
    reputation: int = 1
    glory: int = 0
    expertise: Mapping[str, int] = field(default_factory=dict)
    effects: tuple[Effect, ...] = ()
    slots: int = 1  # empty expertise slots that retired advisors can train


@dataclass(frozen=True)
class Catalogue:
    """Every component kind in a game, by name."""

    upgrades: Mapping[str, UpgradeKind]
    structures: Mapping[str, StructureKind]
    advisors: Mapping[str, AdvisorKind]

    def __deepcopy__(self, memo: dict[int, Any]) -> Catalogue:
        return self  # immutable: states share one catalogue until a command replaces it

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Catalogue:
        if not isinstance(data, Mapping):
            raise ValueError("the component catalogue is a JSON object")
        upgrades: dict[str, UpgradeKind] = {}
        for raw in data.get("upgrades", []):
            where = f"upgrade {_name(raw, 'upgrades')!r}"
            upgrades[raw["name"]] = UpgradeKind(
                raw["name"], _colour(raw, where), _whole(raw, "cost", where),
                parse_effects(raw.get("effects"), where),
            )
        structures: dict[str, StructureKind] = {}
        for raw in data.get("structures", []):
            where = f"structure {_name(raw, 'structures')!r}"
            structures[raw["name"]] = StructureKind(
                raw["name"], _colour(raw, where), _whole(raw, "cost", where),
                _whole(raw, "count", where, 1), _whole(raw, "plunder_value", where, 3),
                parse_effects(raw.get("effects"), where),
            )
        advisors: dict[str, AdvisorKind] = {}
        for raw in data.get("advisors", []):
            where = f"advisor {_name(raw, 'advisors')!r}"
            guild = raw.get("guild")
            if guild not in GUILDS:
                raise ValueError(f"{where}: 'guild' must be one of {', '.join(GUILDS)}")
            expertise = raw.get("expertise", {})
            if not isinstance(expertise, Mapping) or any(
                k not in EXPERTISE or not isinstance(v, int) or isinstance(v, bool) or v < 0
                for k, v in expertise.items()
            ):
                raise ValueError(
                    f"{where}: 'expertise' maps {', '.join(EXPERTISE)} to whole numbers"
                )
            advisors[raw["name"]] = AdvisorKind(
                raw["name"], guild, _whole(raw, "gold", where),
                _whole(raw, "reputation", where, 1), _whole(raw, "glory", where, 0),
                dict(expertise), parse_effects(raw.get("effects"), where),
                _whole(raw, "slots", where, 1),
            )
        return cls(upgrades, structures, advisors)

    def to_json(self) -> dict[str, Any]:
        return {
            "upgrades": [
                {"name": u.name, "colour": u.colour, "cost": u.cost,
                 "effects": [e.to_json() for e in u.effects]}
                for u in self.upgrades.values()
            ],
            "structures": [
                {"name": s.name, "colour": s.colour, "cost": s.cost, "count": s.count,
                 "plunder_value": s.plunder_value, "effects": [e.to_json() for e in s.effects]}
                for s in self.structures.values()
            ],
            "advisors": [
                {"name": a.name, "guild": a.guild, "gold": a.gold, "reputation": a.reputation,
                 "glory": a.glory, "expertise": dict(a.expertise),
                 "effects": [e.to_json() for e in a.effects], "slots": a.slots}
                for a in self.advisors.values()
            ],
        }

    def trained(self, advisor: str, expertise: Mapping[str, int]) -> Catalogue:
        """The catalogue with ``advisor`` trained: expertise added (the same kind combines)
        and one empty slot used (rulebook, "End of Game" > "Train Advisors")."""
        kind = self.advisors[advisor]
        combined = dict(kind.expertise)
        for key, value in expertise.items():
            combined[key] = combined.get(key, 0) + value
        advisors = dict(self.advisors)
        advisors[advisor] = AdvisorKind(kind.name, kind.guild, kind.gold, kind.reputation,
                                        kind.glory, combined, kind.effects, kind.slots - 1)
        return Catalogue(self.upgrades, self.structures, advisors)

    def merged(self, extra: Mapping[str, Any]) -> Catalogue:
        """A catalogue with ``extra``'s entries added (same name: replaced). ``extra`` holds
        lists under ``upgrades``, ``structures`` and ``advisors`` (ValueError otherwise)."""
        if not isinstance(extra, Mapping):
            raise ValueError("the components are a JSON object of upgrades, structures and "
                             "advisors")
        mine = self.to_json()
        unknown = sorted(str(k) for k in extra if k not in mine)
        if unknown:
            raise ValueError(f"unknown kinds of component: {', '.join(unknown)} (the kinds "
                             f"are {', '.join(mine)})")
        for key in mine:
            entries = extra.get(key, [])
            if entries is not None and not isinstance(entries, list):
                raise ValueError(f"'{key}' is a list of entries")
            by_name = {e["name"]: e for e in mine[key]}
            for raw in entries or []:
                by_name[_name(raw, key)] = raw
            mine[key] = list(by_name.values())
        return Catalogue.from_json(mine)


def default_catalogue() -> Catalogue:
    """The starting components (``data/components.json``)."""
    data_dir = resources.files(__package__).joinpath("data")
    text = data_dir.joinpath("components.json").read_text("utf-8")
    return Catalogue.from_json(json.loads(text))
