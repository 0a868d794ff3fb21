"""Reading command arguments: each helper returns a typed value or raises InvalidCommand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine import Command
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.state import SeaFallState, Ship


def only(cmd: Command, *allowed: str) -> Mapping[str, Any]:
    """The command's args, refusing any field the command does not take."""
    unknown = set(cmd.args) - set(allowed)
    if unknown:
        raise InvalidCommand(
            f"'{cmd.type}' does not take {', '.join(sorted(unknown))}"
            + (f" (it takes {', '.join(allowed)})" if allowed else "")
        )
    return cmd.args


def text(args: Mapping[str, Any], key: str, cmd: str, required: bool = True) -> str | None:
    val = args.get(key)
    if val is None:
        if required:
            raise InvalidCommand(f"'{cmd}' needs '{key}'")
        return None
    if not isinstance(val, str) or not val:
        raise InvalidCommand(f"'{cmd}': '{key}' must be a non-empty string")
    return val


def whole(args: Mapping[str, Any], key: str, cmd: str) -> int:
    val = args.get(key)
    if not isinstance(val, int) or isinstance(val, bool) or val < 0:
        raise InvalidCommand(f"'{cmd}' needs '{key}' as a whole number >= 0")
    return val


def flag(args: Mapping[str, Any], key: str, cmd: str) -> bool | None:
    val = args.get(key)
    if val is not None and not isinstance(val, bool):
        raise InvalidCommand(f"'{cmd}': '{key}' must be true or false")
    return val


def names(args: Mapping[str, Any], key: str, cmd: str) -> list[str]:
    val = args.get(key, [])
    if not isinstance(val, list) or not all(isinstance(v, str) for v in val):
        raise InvalidCommand(f"'{cmd}': '{key}' must be a list of names")
    return list(val)


TABLE_ACTORS = frozenset({"camera"})
"""Actors that are the table's own devices, not a player (the camera's dice reads): they act
as the table, like a command without an actor."""


def actor_colour(state: SeaFallState, actor: str | None) -> str | None:
    """The province an actor plays (by colour or player name), or None for the table (no
    actor, or one of :data:`TABLE_ACTORS`). Any other actor is refused
    (``InvalidCommand`` naming it): it used to act as the table, for every province."""
    if actor is None:
        return None
    if not isinstance(actor, str):
        raise InvalidCommand("'actor' must be a string")
    colour = seat_of(state, actor)
    if colour is not None:
        return colour
    if actor in TABLE_ACTORS:
        return None
    known = ", ".join(f"{c} ({p.player})" if p.player.lower() != c else c
                      for c, p in state.provinces.items())
    raise InvalidCommand(f"unknown actor {actor!r}: an actor is a province's colour or its "
                         f"player's name ({known}); a command without an actor is the "
                         "table's")


def seat_of(state: SeaFallState, who: object) -> str | None:
    """The province a colour or player name names, or None (a viewer no one plays)."""
    if not isinstance(who, str):
        return None
    if who in state.provinces:
        return who
    for colour, prov in state.provinces.items():
        if prov.player == who:
            return colour
    return None


def require_player(state: SeaFallState, cmd: Command, player: str, doing: str) -> None:
    """Refuse a command by another province's player (the table itself may act for all)."""
    colour = actor_colour(state, cmd.actor)
    if colour is not None and colour != player:
        raise IllegalCommand(
            f"{doing} is {state.provinces[player].player}'s ({player}) to do, "
            f"not {state.provinces[colour].player}'s ({colour})"
        )


def find_ship(state: SeaFallState, player: str, ref: str) -> Ship:
    """A ship of ``player`` by id (``red-1``) or name."""
    for ship_id in state.provinces[player].ships:
        ship = state.ships[ship_id]
        if ref in (ship.id, ship.name):
            return ship
    if ref in state.ships:  # named as the history names them: "Green ship 1 belongs to Ann"
        other = state.ships[ref]
        raise IllegalCommand(f"{other.name} belongs to {state.provinces[other.owner].player}, "
                             f"not {state.provinces[player].player}")
    raise InvalidCommand(f"{player} has no ship called {ref!r}")
