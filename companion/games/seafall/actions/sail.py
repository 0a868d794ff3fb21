"""The sail action (rulebook, "Ships and Sailing" > "Sailing"; every guild's action 1).

Command::

    {"type": "sail",
     "moves": [{"ship": "blue-1", "path": ["coastal_waters", "(0, 3, 3)", "(1, 3, 4)", "isle"]},
               {"ship": "blue-2", "path": ["coastal_waters", "(0, 3, 3)", "(1, 3, 4)"]}],
     "together": true,
     "before": [{"good": "iron", "from": "warehouse", "to": "blue-1"}],
     "after": []}

* Each ship moves up to its sail value, one space a step; a sail value of 0 still moves one.
  A path lists the places entered, in order: map spaces (hexes ``"(c, a, b)"``,
  ``coastal_waters``, ``"<colour>_harbor"``) or region ids (an island, a province's colour for
  its home harbor). A ship that ends in a space an island occupies is at that island.
* ``together``: the ships start in the same place and the slower one's path is the start of
  the faster one's: they move as one group, the faster continuing alone (Blue's example).
* ``before``/``after``: goods moved before or after sailing. Between two ships, both must be
  at the same region (land); to or from ``"warehouse"`` (your own), the ship must be in your
  home harbor. Holds are checked after each group of moves.
* A step is checked against the map (``map.py``) when both places have a known space; when
  one does not (an island whose hex was not recorded), the step is accepted and the event
  lists it as ``unchecked``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine import Command, Event
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.actions.places import (
    WAREHOUSE,
    action_taken,
    afloat,
    at_region,
    good_colour,
    start_action,
)
from companion.games.seafall.args import flag, only
from companion.games.seafall.emitter import Emitter
from companion.games.seafall.map import default_map, normalise
from companion.games.seafall.ships import ship_value
from companion.games.seafall.state import SeaFallState, Ship

MIN_SAIL = 1  # "A ship with a sail value of 0 still moves up to 1 space."


def place(state: SeaFallState, name: str) -> tuple[str, str | None]:
    """A place named in a path: (the location a ship there has, its map space or None)."""
    if name in state.regions:
        return name, state.regions[name].space
    space = normalise(name)
    if not default_map().knows(space):
        raise InvalidCommand(f"{name!r} is neither a region nor a space of the map")
    region = next((r for r in state.regions.values() if r.space == space), None)
    return (region.id, space) if region is not None else (space, space)


def sail_limit(state: SeaFallState, ship: Ship) -> int:
    return max(MIN_SAIL, ship_value(state, ship, "sail"))


def _moves(state: SeaFallState, player: str, raw: Any) -> list[tuple[Ship, list[str]]]:
    if not isinstance(raw, list):
        raise InvalidCommand("'moves' is a list of {\"ship\", \"path\"}")
    out: list[tuple[Ship, list[str]]] = []
    for item in raw:
        if not isinstance(item, Mapping) or set(item) != {"ship", "path"}:
            raise InvalidCommand("each move is {\"ship\": ..., \"path\": [places]}")
        path = item["path"]
        if not isinstance(item["ship"], str) or not isinstance(path, list) or not path or \
                not all(isinstance(p, str) and p for p in path):
            raise InvalidCommand("a move names its 'ship' and a non-empty 'path' of places")
        ship = afloat(state, player, item["ship"])
        if any(s.id == ship.id for s, _ in out):
            raise InvalidCommand(f"{ship.name} is moved twice in one sail command")
        out.append((ship, path))
    return out


def _check_together(moves: list[tuple[Ship, list[str]]], paths: dict[str, list[str]]) -> None:
    if len(moves) != 2:
        raise InvalidCommand("'together' moves exactly two ships")
    (a, _), (b, _) = moves
    if a.location != b.location:
        raise IllegalCommand(f"{a.name} and {b.name} are not in the same space, so they "
                             "cannot move together")
    short, long_ = sorted((paths[a.id], paths[b.id]), key=len)
    if long_[:len(short)] != short:
        raise IllegalCommand("ships moving together share their path until the slower one "
                             "stops")


def _sail(em: Emitter, player: str, ship: Ship, path: list[str], partner: str | None) -> None:
    state = em.state
    limit = sail_limit(state, ship)
    if len(path) > limit:
        raise IllegalCommand(f"{ship.name} sails at most {limit} space(s); the path has "
                             f"{len(path)}")
    assert ship.location is not None
    here, space = place(state, ship.location)
    steps: list[str] = []
    unchecked: list[str] = []
    for name in path:
        there, there_space = place(state, name)
        if there == here:
            raise IllegalCommand(f"{ship.name} is already at {there}; each step enters a "
                                 "neighbouring space")
        adjacent = default_map().adjacent(space, there_space)
        if adjacent is False:
            raise IllegalCommand(f"{there} is not next to {here} on the map")
        if adjacent is None:
            unchecked.append(f"{here} -> {there}")
        steps.append(there)
        here, space = there, there_space
    em("ShipSailed", player=player, ship=ship.id, start=ship.location, path=steps,
       to=steps[-1], sail=limit, together_with=partner, unchecked=unchecked)


def _transfers(em: Emitter, player: str, raw: Any, when: str) -> None:
    if raw is None:
        return
    if not isinstance(raw, list):
        raise InvalidCommand(f"'{when}' is a list of {{\"good\", \"from\", \"to\"}}")
    touched: list[Ship] = []
    for item in raw:
        if not isinstance(item, Mapping) or set(item) != {"good", "from", "to"}:
            raise InvalidCommand(f"each move of goods in '{when}' is "
                                 "{\"good\", \"from\", \"to\"}")
        state = em.state
        good = good_colour(item["good"], when)
        ends = [_end(state, player, item[k]) for k in ("from", "to")]
        if ends[0] == ends[1]:
            raise InvalidCommand(f"'{when}': a good moves from one place to another")
        ships = [e for e in ends if isinstance(e, Ship)]
        for ship in ships:
            at_region(state, ship)
        if len(ships) == 2 and ships[0].location != ships[1].location:
            raise IllegalCommand(f"{ships[0].name} and {ships[1].name} are not together at a "
                                 "region, so they cannot pass goods")
        if len(ships) == 1 and ships[0].location != player:
            raise IllegalCommand(f"{ships[0].name} is not in its home harbor, where "
                                 f"{state.provinces[player].player}'s warehouse is")
        source = ends[0]
        held = source.goods if isinstance(source, Ship) else state.provinces[player].warehouse
        if good not in held:
            where = source.name if isinstance(source, Ship) else "the warehouse"
            raise IllegalCommand(f"{where} holds no {good}")
        em("GoodMoved", player=player, good=good,
           source=source.id if isinstance(source, Ship) else WAREHOUSE,
           to=ends[1].id if isinstance(ends[1], Ship) else WAREHOUSE, when=when)
        touched.extend(ships)
    for ship in touched:
        ship = em.state.ships[ship.id]
        if len(ship.goods) > ship_value(em.state, ship, "hold"):
            raise IllegalCommand(f"{ship.name}'s hold takes {ship_value(em.state, ship, 'hold')} "
                                 f"goods, not {len(ship.goods)}")


def _end(state: SeaFallState, player: str, ref: Any) -> Ship | str:
    if ref == WAREHOUSE:
        return WAREHOUSE
    if not isinstance(ref, str) or not ref:
        raise InvalidCommand("goods move between \"warehouse\" and your ships")
    return afloat(state, player, ref)


def sail(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "moves", "together", "before", "after")
    player = start_action(state, cmd, "sail", "sailing")
    moves = _moves(state, player, args.get("moves", []))
    if not moves and not args.get("before") and not args.get("after"):
        raise InvalidCommand("'sail' needs 'moves' (or goods to move 'before'/'after')")
    paths = {ship.id: path for ship, path in moves}
    together = bool(flag(args, "together", cmd.type))
    if together:
        _check_together(moves, paths)
    em = action_taken(state, player, "sail")
    _transfers(em, player, args.get("before"), "before")
    for ship, path in moves:
        partner = next((s.id for s, _ in moves if s.id != ship.id), None) if together else None
        _sail(em, player, em.state.ships[ship.id], path, partner)
    _transfers(em, player, args.get("after"), "after")
    return em.events
