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
            value = {"die": prompt.die,
                     "faces": [rng.choice(faces).label for _ in range(prompt.count)]}
        elif isinstance(prompt, SpendPrompt):
            value = rng.randint(prompt.minimum, prompt.maximum)
        else:  # pragma: no cover - the three prompt kinds are exhaustive
            raise TypeError(f"unknown prompt {prompt!r}")
        return Command(prompt.command, {prompt.arg: value}, prompt.player)


class SeaFallDriver(PromptDriver):
    """SeaFall through its prompts (the lead's engine; see docs/store.md)."""

    game: ClassVar[str] = "seafall"


class TallyPromptDriver(PromptDriver):
    """Tally played only through its prompts: checks :class:`PromptDriver` itself."""

    game: ClassVar[str] = tally.GAME
    setup_options: ClassVar[Mapping[str, JSON]] = {"players": ["red", "blue"], "goal": 10**9}

    def register(self) -> None:
        tally.register()
