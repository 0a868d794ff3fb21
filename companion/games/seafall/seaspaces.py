"""Where a ship at sea is, as players point at it on the board (rulebook, "What's on the
Map?": the coastal waters, between the home harbors and the open sea; the open sea's hexes
beyond them).

A ship stopped at sea has a map space for its location, the map's label of it
(``coastal_waters``, ``"(1, 2, 3)"``, ``data/MAP-README.txt``), which no player reads off
the board. The table's view says instead which kind of space it is and, on the open sea, the
islands nearest to it, so that the pages can say "at sea, 1 space from Example isle A".
"""

from __future__ import annotations

from typing import Any

from companion.games.seafall.map import COASTAL_WATERS, default_map
from companion.games.seafall.state import SeaFallState

HARBOR = "_harbor"  # a home harbor's space: "<colour>_harbor" (map.harbor_space)


def at_sea(state: SeaFallState, location: str | None) -> dict[str, Any] | None:
    """Where ``location`` is, when it is a space at sea rather than a region: ``{"kind":
    "coastal"}``; ``{"kind": "harbor", "colour": ...}`` (a home harbor no province holds);
    or ``{"kind": "open", "near": [island ids], "spaces": N}``, the islands fewest spaces
    away (several when as near), ``near`` empty when no island's space is known. Provinces
    are not said: every home harbor is as far from any hex, by the coastal waters. None for
    a region, no location or a place the map does not know."""
    sea = default_map()
    if location is None or location in state.regions or not sea.knows(location):
        return None
    if location == COASTAL_WATERS:
        return {"kind": "coastal"}
    if location.endswith(HARBOR):
        return {"kind": "harbor", "colour": location.removesuffix(HARBOR)}
    ways: dict[int, list[str]] = {}
    for region in state.regions.values():
        path = sea.path(location, region.space) if region.kind == "island" and region.space \
            else None
        if path:
            ways.setdefault(len(path), []).append(region.id)
    if not ways:
        return {"kind": "open", "near": [], "spaces": None}
    spaces = min(ways)
    return {"kind": "open", "near": sorted(ways[spaces]), "spaces": spaces}
