"""The dice a SeaFall game threw, from its events (``SeaFall.dice_thrown``): each roll and
re-roll of an endeavor's pool, with the province whose endeavor it was and how the dice
were read (camera, photo, typed). The table's dice statistics count them
(:mod:`companion.dice.fairness`; docs/api.md, "Dice statistics")."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.engine import Event
from companion.games.seafall.endeavor import DIE


def dice_thrown(events: Iterable[Event]) -> list[dict[str, Any]]:
    """``[{"player", "die", "source", "faces"}, ...]`` in the order thrown: each
    ``DiceRolled`` and ``DiceRerolled`` (a re-roll's dice are thrown dice too), attributed
    to the province of the ``EndeavorStarted`` before it. The events are those of the
    commands in effect, in order (undone commands left out)."""
    player = None
    thrown = []
    for event in events:
        if event.type == "EndeavorStarted":
            player = event.payload.get("player")
        elif event.type in ("DiceRolled", "DiceRerolled") and event.payload.get("faces"):
            thrown.append({"player": player, "die": DIE.name,
                           "source": event.payload.get("source") or "typed",
                           "faces": list(event.payload["faces"])})
    return thrown
