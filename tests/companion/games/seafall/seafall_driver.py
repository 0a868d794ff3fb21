"""A small driver for SeaFall engine tests: setup, commands, prompts, events, state."""

from __future__ import annotations

from typing import Any

from companion.engine import Command, Event, fold
from companion.games.seafall.engine import SeaFall
from companion.games.seafall.state import SeaFallState


class Game:
    def __init__(self, options: dict[str, Any]) -> None:
        self.engine = SeaFall()
        options = {"start_at": "turn", **options}  # scenarios start in a turn, not in winter
        self.events: list[Event] = list(self.engine.setup(options))
        self.state: SeaFallState = fold(self.engine, self.events)

    def do(self, type_: str, actor: str | None = None, **args: Any) -> list[Event]:
        events = list(self.engine.decide(self.state, Command(type_, args, actor)))
        self.state = fold(self.engine, events, self.state)
        self.events.extend(events)
        return events

    def roll(self, *faces: str) -> list[Event]:
        return self.do("roll", faces=list(faces))

    @property
    def prompt(self) -> Any:
        prompts = self.engine.prompts(self.state)
        assert len(prompts) == 1, prompts
        return prompts[0]

    def types(self, events: list[Event] | None = None) -> list[str]:
        return [e.type for e in (self.events if events is None else events)]

    def last(self, type_: str) -> Event:
        return next(e for e in reversed(self.events) if e.type == type_)

    def replayed(self) -> SeaFallState:
        return fold(self.engine, self.events)


def island(id_: str = "isle", garrison: int = 0, effects: list | None = None,
           sites: list | None = None, **kw: Any) -> dict[str, Any]:
    return {"id": id_, "name": kw.pop("name", id_.title()), "garrison": garrison,
            "effects": effects or [], "sites": sites or [], **kw}
