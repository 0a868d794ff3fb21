"""Where a ship at sea is, as players point at it on the board (rulebook, "What's on the
Map?": the coastal waters, between the home harbors and the open sea; the open sea's hexes
beyond them).

A ship stopped at sea has a map space for its location, the map's label of it
(``coastal_waters``, ``"(1, 2, 3)"``, ``data/MAP-README.txt``), which no player reads off
the board. The table's view says instead which kind of space it is and, on the open sea, the
islands nearest to it, so that the pages can say "at sea, 1 space from Example isle A";
the history, given the table's state, says it too (:func:`sea_name`), from the same
recorded label.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.games.seafall import log_fr
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


def sea_name(sea: dict[str, Any], named: Callable[[str], str], lang: str = "en") -> str:
    """A space at sea (:func:`at_sea`) as the history says it, in ``lang`` ("fr", else
    English), ``named`` naming an island by its id: "the coastal waters", "the open sea 1
    space from Iron isle and Rock", « la zone de mer à 1 zone d’Iron isle et Rock » (the
    French rulebook's « zone de mer »). A noun phrase, for "sails from ... to ...".
    """
    french = lang == "fr"
    kind = sea.get("kind")
    if kind == "coastal":
        return "la zone côtière" if french else "the coastal waters"
    if kind == "harbor":
        colour = str(sea["colour"])
        return (f"le port d’attache {log_fr.COLOURS.get(colour, colour).lower()}" if french
                else f"the {colour} home harbor")
    if kind != "open":
        raise ValueError(f"not a space at sea: {sea!r}")
    if not sea.get("near"):
        return "la mer" if french else "the open sea"
    return f"la zone de mer {sea_near(sea, named, lang)}" if french \
        else f"the open sea {sea_near(sea, named, lang)}"


def sea_near(sea: dict[str, Any], named: Callable[[str], str], lang: str = "en") -> str:
    """How far a space of the open sea (:func:`at_sea`) is from its nearest islands: "1
    space from Iron isle and Rock", « à 1 zone d’Iron isle et Rock »; "" when no island is
    known. Two spaces as near the same islands read alike: the history says a ship sailing
    from one to the other goes "to another space" of the open sea (log.py)."""
    if sea.get("kind") != "open":
        raise ValueError(f"not a space of the open sea: {sea!r}")
    if not sea.get("near"):
        return ""
    french = lang == "fr"
    places, spaces = log_fr.listed([named(i) for i in sea["near"]], lang), sea["spaces"]
    if french:
        return f"à {spaces} zone{'s' if spaces > 1 else ''} {log_fr.de(places)}"
    return f"{spaces} space{'' if spaces == 1 else 's'} from {places}"

