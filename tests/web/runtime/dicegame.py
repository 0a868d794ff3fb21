"""A tiny game that asks for rolls of a chosen die, for the dice-read tests.

Options ``{"die": "d6", "count": 2, "rolls": 3, "reroll": null, "roller": null}``: it asks
``rolls`` times
for ``count`` dice of ``die`` (a RollPrompt answered by ``roll {faces, ...dice read
fields}``); with ``reroll`` set to a face, the dice showing it are re-rolled once (a second
RollPrompt for just those dice, like SeaFall's "re-roll weak successes"). ``note {text}``
is a command that changes nothing about the dice (something done after a roll). The engine
checks faces against the die, as a real game does; with ``roller`` set to a seat, only that
seat (or the table, no actor) answers a roll, as a SeaFall endeavor is its player's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from companion.dice import DiceRead, find_die
from companion.engine import JSON, Command, Event
from companion.errors import IllegalCommand, InvalidCommand
from companion.games import register_game
from companion.prompts import Prompt, RollPrompt

GAME = "dicegame"
PLAYERS = ("red", "yellow")  # seats a phone can join as


def register() -> None:
    register_game(GAME, "tests.web.runtime.dicegame:DiceGame")


@dataclass(frozen=True)
class State:
    die: str
    count: int
    rolls: int
    rolled: tuple[tuple[str, ...], ...] = ()
    notes: tuple[str, ...] = ()
    reroll: str | None = None
    pending: tuple[int, ...] = ()  # dice of the last roll to re-roll
    roller: str | None = None  # the only seat that answers a roll (None: anyone)


class DiceGame:
    name: ClassVar[str] = GAME

    def setup(self, options: Mapping[str, JSON]) -> Sequence[Event]:
        return [Event("Started", {"die": options.get("die", "d6"),
                                  "count": options.get("count", 2),
                                  "rolls": options.get("rolls", 3),
                                  "reroll": options.get("reroll"),
                                  "roller": options.get("roller")})]

    def decide(self, state: State, command: Command) -> Sequence[Event]:
        if command.type == "note":
            return [Event("Noted", {"text": str(command.args.get("text", ""))})]
        if command.type != "roll":
            raise InvalidCommand(f"unknown command {command.type!r}")
        if len(state.rolled) >= state.rolls and not state.pending:
            raise IllegalCommand("no roll is asked for")
        if state.roller is not None and command.actor not in (None, state.roller):
            raise IllegalCommand(f"the roll is {state.roller}'s to answer, not "
                                 f"{command.actor}'s")
        extra = set(command.args) - {"faces", "die", "source", "confidence", "read_id", "image"}
        if extra:
            raise InvalidCommand(f"unexpected fields: {', '.join(sorted(extra))}")
        read = DiceRead.from_json(dict(command.args), default_die=state.die)
        read.validate(find_die(state.die))
        if state.pending:
            if len(read.faces) != len(state.pending):
                raise InvalidCommand(f"the re-roll needs {len(state.pending)} dice")
            return [Event("Rerolled", {"indices": list(state.pending),
                                       "faces": list(read.faces)})]
        if len(read.faces) != state.count:
            raise InvalidCommand(f"the roll needs {state.count} dice, got {len(read.faces)}")
        return [Event("Rolled", {"faces": list(read.faces), "read_id": read.read_id})]

    def evolve(self, state: State | None, event: Event) -> State:
        p: Any = event.payload
        if event.type == "Started":
            return State(p["die"], p["count"], p["rolls"], reroll=p.get("reroll"),
                         roller=p.get("roller"))
        assert state is not None
        if event.type == "Noted":
            return replace(state, notes=(*state.notes, p["text"]))
        if event.type == "Rerolled":
            last = list(state.rolled[-1])
            for i, face in zip(p["indices"], p["faces"], strict=True):
                last[i] = face
            return replace(state, rolled=(*state.rolled[:-1], tuple(last)), pending=())
        faces = tuple(p["faces"])
        pending = tuple(i for i, f in enumerate(faces) if f == state.reroll)
        return replace(state, rolled=(*state.rolled, faces), pending=pending)

    def prompts(self, state: State) -> Sequence[Prompt]:
        if state.pending:
            return [RollPrompt(id=f"reroll:{len(state.rolled)}", player=None, die=state.die,
                               count=len(state.pending),
                               purpose=f"re-roll the dice showing {state.reroll}",
                               keep=tuple(f for i, f in enumerate(state.rolled[-1])
                                          if i not in state.pending))]
        if len(state.rolled) >= state.rolls:
            return []
        return [RollPrompt(id=f"roll:{len(state.rolled)}", player=None, die=state.die,
                           count=state.count, purpose=f"roll {state.count} {state.die}")]

    def view(self, state: State, viewer: str | None) -> JSON:
        return {**self.dump_state(state), "players": list(PLAYERS)}

    def dump_state(self, state: State) -> JSON:
        return {"die": state.die, "count": state.count, "rolls": state.rolls,
                "rolled": [list(r) for r in state.rolled], "notes": list(state.notes),
                "reroll": state.reroll, "pending": list(state.pending),
                "roller": state.roller}

    def load_state(self, data: JSON) -> State:
        return State(data["die"], data["count"], data["rolls"],
                     tuple(tuple(r) for r in data["rolled"]), tuple(data["notes"]),
                     data["reroll"], tuple(data["pending"]), data.get("roller"))
