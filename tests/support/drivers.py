"""Drivers: what a durability worker plays. One per game; pass ``--driver module:attr``.

A driver registers its game, gives the setup options and picks the next command from the
table's state with the worker's seeded random generator. Commands the rules refuse are
fine (the worker skips them): they must write nothing. To drive SeaFall, write a driver
whose ``next_command`` answers the table's prompts (roll prompts with random faces).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar, Protocol

from companion.engine import JSON, Command
from companion.table import Table
from tests.support import tally


class Driver(Protocol):
    game: ClassVar[str]

    def register(self) -> None: ...

    def options(self) -> Mapping[str, JSON]: ...

    def next_command(self, table: Table, rng: random.Random) -> Command | None:
        """The next command, or ``None`` when there is nothing to do but undo."""


class TallyDriver:
    """Raises, lowers (sometimes below zero: refused), raises all, writes notes."""

    game: ClassVar[str] = tally.GAME
    players = ("red", "blue", "green")

    def register(self) -> None:
        tally.register()

    def options(self) -> Mapping[str, JSON]:
        return {"players": list(self.players), "goal": 10**9}

    def next_command(self, table: Table, rng: random.Random) -> Command:
        player = rng.choice(self.players)
        roll = rng.random()
        if roll < 0.45:
            return Command("add", {"player": player, "amount": rng.randint(1, 3)}, player)
        if roll < 0.7:
            return Command("subtract", {"player": player, "amount": rng.randint(1, 4)}, player)
        if roll < 0.9:
            return Command("add_all", {"amount": rng.randint(1, 2)}, player)
        return Command("note", {"player": player, "text": f"note {rng.randrange(10**6)}"}, player)


class PromptDriver:
    """Plays any game by answering its prompts at random: a choice among the options, a
    roll with random faces of the prompt's die, a spend within the bounds. When the game
    asks nothing, the worker undoes instead (see ``next_command`` returning ``None``)."""

    game: ClassVar[str] = ""
    setup_options: ClassVar[Mapping[str, JSON]] = {}

    def register(self) -> None:
        """Games in ``companion.games`` are registered already."""

    def options(self) -> Mapping[str, JSON]:
        return dict(self.setup_options)

    def next_command(self, table: Table, rng: random.Random) -> Command | None:
        from companion.dice.model import find_die
        from companion.prompts import ChoicePrompt, RollPrompt, SpendPrompt

        prompts = list(table.prompts())
        if not prompts:
            return None
        prompt = rng.choice(prompts)
        value: JSON
        if isinstance(prompt, ChoicePrompt):
            value = rng.choice(prompt.options).value
        elif isinstance(prompt, RollPrompt):
            faces = find_die(prompt.die).faces
            value = [rng.choice(faces).label for _ in range(prompt.count)]
        elif isinstance(prompt, SpendPrompt):
            value = rng.randint(prompt.minimum, prompt.maximum)
        else:  # pragma: no cover - the three prompt kinds are exhaustive
            raise TypeError(f"unknown prompt {prompt!r}")
        return Command(prompt.command, {prompt.arg: value}, prompt.player)


class SeaFallDriver(PromptDriver):
    """SeaFall played for real: hires a guild, explores and raids where its ships are (the
    demo table, with ships in other provinces' harbors so provinces get raided), answers
    every prompt at random, and ends turns. Refused tries are fine: they write nothing."""

    game: ClassVar[str] = "seafall"

    def options(self) -> Mapping[str, JSON]:
        from companion.games.seafall.setup import demo_options

        options = demo_options()
        options["provinces"][0]["ships"] = [{"location": "green"}, {"location": "isle-a"}]
        options["provinces"][2]["ships"] = [{"location": "blue"}, {"location": "isle-b"}]
        options["provinces"][1]["warehouse"] = ["wood", "iron"]
        return options

    def next_command(self, table: Table, rng: random.Random) -> Command | None:
        if table.prompts() and (table.state.turn is None or table.state.turn.guild is not None
                                or rng.random() < 0.5):
            return super().next_command(table, rng)
        state = table.state
        turn = state.turn
        if turn is None:
            return None
        player = turn.player
        if turn.guild is None:
            return Command("hire_guild", {"guild": rng.choice(["explorers", "soldiers"])},
                           player)
        afloat = [s for s in state.province_ships(player) if not s.sunk]
        if not afloat or rng.random() < 0.2:
            return Command("end_turn", {}, player)
        ship = rng.choice(afloat)
        region = state.regions[ship.location]
        if region.kind == "province" and region.owner != player:
            return Command("raid", {"flagship": ship.id, "province": region.owner}, player)
        sites = region.sites or ["nowhere"]
        kind = "explore" if turn.guild == "explorers" else "raid"
        return Command(kind, {"flagship": ship.id, "site": rng.choice(sites)}, player)


class TallyPromptDriver(PromptDriver):
    """Tally played only through its prompts: checks :class:`PromptDriver` itself."""

    game: ClassVar[str] = tally.GAME
    setup_options: ClassVar[Mapping[str, JSON]] = {"players": ["red", "blue"], "goal": 10**9}

    def register(self) -> None:
        tally.register()
