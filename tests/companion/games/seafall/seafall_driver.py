"""A small driver for SeaFall engine tests: setup, commands, prompts, events, state."""

from __future__ import annotations

from typing import Any

from companion.engine import Command, Event, fold
from companion.games.seafall.components import GOODS
from companion.games.seafall.engine import SeaFall
from companion.games.seafall.setup import ENMITY_TOKENS, GOODS_PER_COLOUR
from companion.games.seafall.state import SeaFallState


class Game:
    def __init__(self, options: dict[str, Any]) -> None:
        self.engine = SeaFall()
        options = {"start_at": "turn", **options}  # scenarios start in a turn, not in winter
        self.events: list[Event] = list(self.engine.setup(options))
        self.state: SeaFallState = fold(self.engine, self.events)
        self.options = options
        self.commands: list[Command] = []  # those accepted, to replay them at a table

    def do(self, type_: str, actor: str | None = None, **args: Any) -> list[Event]:
        command = Command(type_, args, actor)
        events = list(self.engine.decide(self.state, command))
        self.state = fold(self.engine, events, self.state)
        self.commands.append(command)
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


def check_books(state: SeaFallState) -> None:
    """The books balance: 10 goods of each colour, 8 enmity tokens a province, nothing
    negative."""
    for good in GOODS:
        total = state.supply.goods[good]
        total += sum(s.goods.count(good) for s in state.ships.values())
        total += sum(p.warehouse.count(good) for p in state.provinces.values())
        total += sum(1 for s in state.sites.values() if s.good_present and s.colour == good)
        if state.endeavor is not None:
            total += state.endeavor.goods_to_place.count(good)
        assert total == GOODS_PER_COLOUR, good
    for colour, prov in state.provinces.items():
        placed = sum(s.enmity.get(colour, 0) for s in state.sites.values())
        placed += sum(r.garrison_enmity.get(colour, 0) for r in state.regions.values())
        held = sum(p.at_war_with.get(colour, 0) for p in state.provinces.values())
        assert prov.home_enmity + placed + held == ENMITY_TOKENS, colour
        assert prov.glory >= 0 and prov.gold >= 0 and prov.fortune >= 0


def check_glory(game: Game, initial: SeaFallState) -> None:
    """Glory equals the sum of its sources: what each province holds now, plus what it
    earned once (endeavors, milestones) less stickers without room, plus whatever the
    scenario started with beyond its holdings."""
    from companion.games.seafall.glory import held_glory

    for colour, prov in game.state.provinces.items():
        earned = 0
        for event in game.events:
            p = event.payload
            if event.type == "GloryChanged" and p["player"] == colour and (
                    p["reason"].startswith(("successful ", "milestone ", "no room "))):
                earned += p["amount"]
        offset = initial.provinces[colour].glory - held_glory(initial, colour)
        assert prov.glory == offset + earned + held_glory(game.state, colour), colour


def undo_restores(options: dict[str, Any], commands: list[Command]) -> SeaFallState:
    """Play ``commands`` at a table; the last is undone and the state before it must come
    back. Returns the state the last command reached."""
    from companion.table import Table

    with Table.in_memory("seafall", {"start_at": "turn", **options}) as table:
        for command in commands[:-1]:
            table.apply(command)
        before = table.state
        table.apply(commands[-1])
        after = table.state
        table.undo()
        assert table.state == before
        return after
