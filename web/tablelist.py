"""The tables as the home page and ``GET /api/tables`` list them: the one last played first,
each with who plays it and the campaign it is a game of (docs/api.md, "Tables").

A table's id and version say nothing to a player looking for last week's game; who played,
when, and in which campaign do. Everything comes from the store without opening a table
(opening one keeps it in memory, and the camera reads for open tables).
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress
from typing import Any

from companion.engine import JSON
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.membership import apply_changes


def players_of(options: Mapping[str, JSON]) -> list[str]:
    """Who plays, from a table's setup options: each province's player (else its colour),
    or the names of a game whose players are a list of names. A campaign's game lists it
    as set up: its changes of players applied (SeaFall's ``campaign_changes``: a newcomer
    plays, a player who left does not), and a province whose player misses this game is
    not listed (:func:`absent_of` names them)."""
    return [name for name, absent in _seats(options) if not absent]


def absent_of(options: Mapping[str, JSON]) -> list[str]:
    """The players of a campaign's game who miss it (their provinces are in the game,
    absent: docs/seafall.md), as :func:`players_of` names them."""
    return [name for name, absent in _seats(options) if absent]


def _seats(options: Mapping[str, JSON]) -> list[tuple[str, bool]]:
    """``(name, absent)`` for each province of the setup, its ``campaign_changes`` applied
    as the engine applies them (:func:`companion.games.seafall.membership.apply_changes`;
    the options as stored where they cannot be: no table is refused a line)."""
    if "campaign_changes" in options:
        with suppress(IllegalCommand, InvalidCommand, KeyError, TypeError, ValueError):
            options = apply_changes(options)
    provinces = options.get("provinces")
    if isinstance(provinces, list):
        seats = [(p.get("player") or p.get("colour"), bool(p.get("absent")))
                 for p in provinces if isinstance(p, dict)]
        return [(name, absent) for name, absent in seats if isinstance(name, str) and name]
    players = options.get("players")
    if isinstance(players, list):
        return [(p, False) for p in players if isinstance(p, str) and p]
    return []


def described(store: Any) -> list[dict[str, Any]]:
    """Every table's JSON (``SessionInfo.to_json``), oldest first, with ``last_played``
    (the time of its latest record), ``players`` and ``absent`` (who misses it)."""
    played = store.last_played() if hasattr(store, "last_played") else {}
    return [{**info.to_json(), "last_played": played.get(info.id) or info.created_at,
             "players": players_of(info.options), "absent": absent_of(info.options)}
            for info in store.sessions()]


def listed(store: Any) -> list[dict[str, Any]]:
    """:func:`described`, each with its ``campaign`` (``{"id", "name"}`` or None), the
    table last played first."""
    campaign_of = getattr(store, "campaign_of", lambda _id: None)
    rows = []
    for row in described(store):
        campaign = campaign_of(row["id"])
        rows.append({**row, "campaign": None if campaign is None else {"id": campaign.id,
                                                                       "name": campaign.name}})
    return sorted(rows, key=lambda row: row["last_played"], reverse=True)
