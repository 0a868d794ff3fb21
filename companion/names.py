"""A player's name: the one rule for every place a name is typed, a table's setup (each
province's player, :mod:`companion.games.seafall.setup`) and the web's join (the name a
phone joins under, ``web.api.join``): trimmed, 1 to :data:`MAX_NAME` characters. Two
players of one table are told apart by their names whatever their case (:func:`name_key`).
"""

from __future__ import annotations

MAX_NAME = 40


def player_name(text: object) -> str | None:
    """``text`` as a player's name, trimmed, or None where it is not one (not text, blank,
    or longer than :data:`MAX_NAME` characters once trimmed)."""
    if not isinstance(text, str):
        return None
    name = text.strip()
    return name if 1 <= len(name) <= MAX_NAME else None


def name_key(name: str) -> str:
    """What two names of one table must not share: ``Paul`` and `` paul `` are one player."""
    return name.strip().casefold()
