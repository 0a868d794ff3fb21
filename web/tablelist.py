"""The tables as the home page and ``GET /api/tables`` list them: the one last played first,
each with who plays it and the campaign it is a game of (docs/api.md, "Tables").

A table's id and version say nothing to a player looking for last week's game; who played,
when, and in which campaign do. Everything comes from the store without opening a table
(opening one keeps it in memory, and the camera reads for open tables).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine import JSON


def players_of(options: Mapping[str, JSON]) -> list[str]:
    """Who plays, from a table's setup options: each province's player (else its colour),
    or the names of a game whose players are a list of names."""
    provinces = options.get("provinces")
    if isinstance(provinces, list):
        names = [p.get("player") or p.get("colour") for p in provinces if isinstance(p, dict)]
        return [n for n in names if isinstance(n, str) and n]
    players = options.get("players")
    if isinstance(players, list):
        return [p for p in players if isinstance(p, str) and p]
    return []


def described(store: Any) -> list[dict[str, Any]]:
    """Every table's JSON (``SessionInfo.to_json``), oldest first, with ``last_played``
    (the time of its latest record) and ``players``."""
    played = store.last_played() if hasattr(store, "last_played") else {}
    return [{**info.to_json(), "last_played": played.get(info.id) or info.created_at,
             "players": players_of(info.options)} for info in store.sessions()]


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
