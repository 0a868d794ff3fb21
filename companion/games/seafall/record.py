"""The campaign's historical record, as a setup brings it in (the "record" option).

The record is written by the engine: one entry per game at its end (rulebook, "End of
Game", steps 6 and 7: glory recorded, the milestones claimed, milestone glory and who was
absent), and one per change of players between games (a province that joins, returns or
leaves: "Missing a game", "New players"). A setup hand-written for a campaign already under
way, or a campaign file from outside, may carry anything, so each entry is checked here
against what the engine writes. Before, an entry was taken as it came: a glory of ``"x"``
or of ``NaN`` was kept, to fail when the Emperor was crowned or the game was stored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.errors import InvalidCommand

__all__ = ["EVENTS", "parse_record"]

EVENTS = ("joined", "returned", "left")
"""The changes of players an entry with an ``event`` notes (companion.games.seafall.membership)."""


def _whole(minimum: int | None) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and \
        (minimum is None or v >= minimum)


def _text(v: Any) -> bool:
    return isinstance(v, str) and bool(v.strip())


def _texts(v: Any) -> bool:
    return isinstance(v, list) and all(_text(x) for x in v)


def _glory_by_colour(v: Any) -> bool:
    return isinstance(v, Mapping) and all(_text(k) and _whole(None)(n) for k, n in v.items())


def _claims(v: Any) -> bool:  # milestone name -> the colour that claimed it
    return isinstance(v, Mapping) and all(_text(k) and _text(c) for k, c in v.items())


def _returned(v: Any) -> bool:
    return isinstance(v, Mapping) and set(v) <= {"advisors", "research"} and \
        all(_texts(x) for x in v.values())


# key -> (check, what it must be); the first key of each is required
_GAME: dict[str, tuple[Callable[[Any], bool], str]] = {
    "game": (_whole(0), "the game's number (a whole number)"),
    "glory": (_glory_by_colour, "an object of colours to whole numbers"),
    "milestones": (_claims, "an object of milestone names to the colour that claimed each"),
    "milestone_glory": (_glory_by_colour, "an object of colours to whole numbers"),
    "absent": (_texts, "a list of colours"),
}
_CHANGE: dict[str, tuple[Callable[[Any], bool], str]] = {
    "event": (lambda v: v in EVENTS, "one of " + ", ".join(EVENTS)),
    "province": (_text, "a colour"),
    "before_game": (_whole(1), "the number of the game it came before (1 or more)"),
    "player": (_text, "a name"),
    "campaign_glory": (_whole(None), "a whole number"),
    "games_missed": (_whole(0), "a whole number"),
    "returned": (_returned, "an object of 'advisors' and 'research' lists of names"),
}


def parse_record(raw: Any) -> list[dict[str, Any]]:
    """The record checked: a list of entries, each a game's (``game``, ``glory``, ...) or a
    change of players (``event``, ``province``, ``before_game``, ...). InvalidCommand names
    the first entry and key that is wrong."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise InvalidCommand("'record' (the historical record) is a list of objects")
    out = []
    for index, entry in enumerate(raw):
        where = f"'record' entry {index + 1}"
        if not isinstance(entry, Mapping):
            raise InvalidCommand(f"{where} must be a JSON object")
        keys = _CHANGE if "event" in entry else _GAME
        first = next(iter(keys))
        if first not in entry:
            raise InvalidCommand(f"{where} needs 'game' (a game's result) or 'event' (a "
                                 "province that joined, returned or left)")
        unknown = sorted(str(k) for k in entry if k not in keys)
        if unknown:
            raise InvalidCommand(f"{where}: unknown keys {', '.join(unknown)} (known: "
                                 f"{', '.join(keys)})")
        for key, value in entry.items():
            check, what = keys[key]
            if not check(value):
                raise InvalidCommand(f"{where}: '{key}' must be {what}")
        out.append(dict(entry))
    return out
