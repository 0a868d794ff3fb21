"""Folding the guild actions' events (registered with :func:`evolve.handles`).

Each handler records what its event says happened; the rules were checked when the
command's decider emitted it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.seafall.actions.places import WAREHOUSE
from companion.games.seafall.effects import parse_effects
from companion.games.seafall.evolve import handles
from companion.games.seafall.state import Card, SeaFallState, ShipUpgrade


def _holding(state: SeaFallState, player: str, place: str) -> list[str]:
    """The goods list of the player's warehouse or of a ship."""
    if place == WAREHOUSE:
        return state.provinces[player].warehouse
    return state.ships[place].goods


def _to_supply(counts: dict[str, int], name: str) -> None:
    counts[name] = counts.get(name, 0) + 1


@handles("ShipSailed")
def _ship_sailed(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.ships[p["ship"]].location = p["to"]


@handles("GoodMoved")
def _good_moved(state: SeaFallState, p: Mapping[str, Any]) -> None:
    _holding(state, p["player"], p["source"]).remove(p["good"])
    _holding(state, p["player"], p["to"]).append(p["good"])


@handles("GoodBought")
def _good_bought(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.sites[p["site"]].good_present = False
    state.ships[p["ship"]].goods.append(p["good"])
    state.provinces[p["player"]].gold -= p["price"]


@handles("GoodSold")
def _good_sold(state: SeaFallState, p: Mapping[str, Any]) -> None:
    _holding(state, p["player"], p["source"]).remove(p["good"])
    _to_supply(state.supply.goods, p["good"])
    state.provinces[p["player"]].gold += p["gold"]


@handles("GoodSpent")
def _good_spent(state: SeaFallState, p: Mapping[str, Any]) -> None:
    _holding(state, p["player"], p["source"]).remove(p["good"])
    _to_supply(state.supply.goods, p["good"])


@handles("ShipRepaired")
def _ship_repaired(state: SeaFallState, p: Mapping[str, Any]) -> None:
    ship = state.ships[p["ship"]]
    for up in ship.upgrades:
        up.exhausted = False
    ship.damage = []


@handles("ShipRebuilt")
def _ship_rebuilt(state: SeaFallState, p: Mapping[str, Any]) -> None:
    ship = state.ships[p["ship"]]
    ship.sunk = False
    ship.location = p["location"]


@handles("UpgradeReturned")
def _upgrade_returned(state: SeaFallState, p: Mapping[str, Any]) -> None:
    ship = state.ships[p["ship"]]
    gone = next(u for u in ship.upgrades if u.name == p["upgrade"])
    ship.upgrades.remove(gone)
    _to_supply(state.supply.exhausted_upgrades, p["upgrade"])


@handles("UpgradeBought")
def _upgrade_bought(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.supply.upgrades[p["upgrade"]] -= 1
    state.ships[p["ship"]].upgrades.append(ShipUpgrade(p["upgrade"]))
    state.provinces[p["player"]].gold -= p["price"]


@handles("StructureReturned")
def _structure_returned(state: SeaFallState, p: Mapping[str, Any]) -> None:
    site = state.sites[p["site"]]
    site.structure = None
    site.plunder_value = None
    _to_supply(state.supply.exhausted_structures, p["structure"])


@handles("StructureBuilt")
def _structure_built(state: SeaFallState, p: Mapping[str, Any]) -> None:
    site = state.sites[p["site"]]
    kind = state.catalogue.structures[p["structure"]]
    state.supply.structures[p["structure"]] -= 1
    site.structure = p["structure"]
    site.plunder_value = kind.plunder_value
    state.provinces[p["player"]].gold -= p["price"]


@handles("ResearchCardKept")
def _research_card_kept(state: SeaFallState, p: Mapping[str, Any]) -> None:
    prov = state.provinces[p["player"]]
    prov.gold -= p["cost"]
    effects = list(parse_effects(p["effects"], f"research card {p['card']}"))
    prov.research.append(Card(p["card"], effects=effects))


@handles("TaxesCollected")
def _taxes_collected(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.provinces[p["player"]].gold += p["amount"]
