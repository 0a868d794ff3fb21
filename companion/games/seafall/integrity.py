"""What a SeaFall state's parts say of each other, checked where a whole state comes in.

A whole state comes in with the ``GameSetUp`` event and with a snapshot. The engine writes
both itself, but a session export edited by hand, or from another Tableside, brings them
from outside. The codec checks each value's type
(:func:`companion.games.seafall.codec.load`). This module checks that what one part names
is there: the provinces in the seating, each ship's owner and place, each region's sites.
Before, a ship or a province taken out of a state that still named it set the game up, and
the first command that looked for it raised ``KeyError``.

:func:`check_state` raises ``ValueError`` naming the first part that is missing;
:func:`load_state` loads and checks a whole state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.games.seafall.codec import load
from companion.games.seafall.map import default_map
from companion.games.seafall.state import SeaFallState


def load_state(data: Any) -> SeaFallState:
    """A whole state from JSON data: ``ValueError`` if a value or a reference is wrong."""
    if not isinstance(data, dict):
        raise ValueError("the state is a JSON object")
    state: SeaFallState = load(SeaFallState, data)
    check_state(state)
    return state


def check_state(state: SeaFallState) -> None:
    """``ValueError`` unless everything the state's parts name is in the state."""
    provinces, ships, regions, sites = state.provinces, state.ships, state.regions, state.sites
    _keys(provinces, "colour", "provinces")
    _keys(ships, "id", "ships")
    _keys(regions, "id", "regions")
    _keys(sites, "id", "sites")
    if len(set(state.seating)) != len(state.seating):
        raise ValueError(f"seating: a province is seated twice in {state.seating}")
    _known(state.seating, provinces, "seating", "province")
    if state.astrolabe is not None and state.astrolabe not in state.seating:
        raise ValueError(f"astrolabe: {state.astrolabe!r} is not seated")
    for colour, prov in provinces.items():
        where = f"provinces.{colour}"
        _known(prov.ships, ships, f"{where}.ships", "ship")
        _known(prov.at_war_with, provinces, f"{where}.at_war_with", "province")
        for ship_id in prov.ships:
            if ships[ship_id].owner != colour:
                raise ValueError(f"{where}.ships: {ship_id!r} belongs to "
                                 f"{ships[ship_id].owner!r}")
    for ship_id, ship in ships.items():
        _known([ship.owner], provinces, f"ships.{ship_id}.owner", "province")
        if ship.location is not None and not default_map().knows(ship.location):
            _known([ship.location], regions, f"ships.{ship_id}.location",
                   "region or map space")
    for region_id, region in regions.items():
        where = f"regions.{region_id}"
        if region.owner is not None:
            _known([region.owner], provinces, f"{where}.owner", "province")
        _known(region.sites, sites, f"{where}.sites", "site")
        _known(region.garrison_enmity, provinces, f"{where}.garrison_enmity", "province")
    for site_id, site in sites.items():
        _known([site.region], regions, f"sites.{site_id}.region", "region")
        _known(site.enmity, provinces, f"sites.{site_id}.enmity", "province")
    for name, listed in (("turns_taken", state.turns_taken), ("end_order", state.end_order)):
        _known(listed, provinces, name, "province")
    _check_turn(state)


def _check_turn(state: SeaFallState) -> None:
    provinces = state.provinces
    if state.turn is not None:
        _known([state.turn.player], provinces, "turn.player", "province")
    if state.enmity is not None:
        _known([state.enmity.player], provinces, "enmity.player", "province")
    e = state.endeavor
    if e is None:
        return
    _known([e.player] + [c for c in [e.target] if c is not None], provinces,
           "endeavor", "province")
    _known([e.flagship] + [s for s in [e.support] if s is not None], state.ships,
           "endeavor", "ship")
    _known([e.region], state.regions, "endeavor.region", "region")
    _known([s for s in (e.site, e.plunder_site) if s is not None], state.sites,
           "endeavor", "site")


def _keys(table: Mapping[str, Any], attr: str, where: str) -> None:
    for key, value in table.items():
        if getattr(value, attr) != key:
            raise ValueError(f"{where}.{key}: its {attr} is {getattr(value, attr)!r}")


def _known(names: Iterable[str], table: Mapping[str, Any], where: str, kind: str) -> None:
    for name in names:
        if name not in table:
            raise ValueError(f"{where}: no {kind} {name!r} in the state")
