"""Collecting the events a command causes while keeping the state they lead to.

``decide`` often needs the state after its first events to choose the next ones (a roll
completes, then fortune is offered or successes are counted). :class:`Emitter` folds each
event as it is emitted, so rules read ``em.state`` and the result is ``em.events``.
"""

from __future__ import annotations

from typing import Any

from companion.engine import Event
from companion.games.seafall.evolve import evolve
from companion.games.seafall.state import SeaFallState


class Emitter:
    def __init__(self, state: SeaFallState) -> None:
        self.state = state
        self.events: list[Event] = []

    def __call__(self, type_: str, **payload: Any) -> None:
        event = Event(type_, payload)
        self.state = evolve(self.state, event)
        self.events.append(event)
