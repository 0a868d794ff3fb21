"""Tally: a tiny deterministic game for testing the table session and the event store.

Players raise and lower counters. Lowering below zero is refused (``IllegalCommand``);
reaching the goal wins; each player may keep a secret note that only they can see. The
player whose turn it is gets a prompt: whose counter to raise.

Commands (a table of handlers, as STYLE.md asks):

* ``add {player, amount=1}`` -> ``CounterRaised`` (and ``GameWon`` at the goal), next turn;
* ``subtract {player, amount=1}`` -> ``CounterLowered``;
* ``add_all {amount=1}`` -> one ``CounterRaised`` per player (a multi-event command);
* ``note {player, text}`` -> ``NoteWritten`` (hidden from the other players).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from companion.engine import JSON, Command, Event
from companion.errors import IllegalCommand, InvalidCommand
from companion.games import register_game
from companion.prompts import ChoicePrompt, Option, Prompt

GAME = "tally"


def register() -> None:
    """Make ``find_game("tally")`` find this engine."""
    register_game(GAME, "tests.support.tally:Tally")


@dataclass(frozen=True)
class TallyState:
    players: tuple[str, ...]
    goal: int
    counters: Mapping[str, int]
    notes: Mapping[str, str] = field(default_factory=dict)
    turn: int = 0
    winner: str | None = None

    @property
    def current(self) -> str:
        return self.players[self.turn]


def _player(state: TallyState, args: Mapping[str, JSON]) -> str:
    player = args.get("player")
    if not isinstance(player, str):
        raise InvalidCommand("'player' must be a player's name")
    if player not in state.players:
        raise InvalidCommand(f"no player {player!r}; players: {', '.join(state.players)}")
    return player


def _amount(args: Mapping[str, JSON]) -> int:
    amount = args.get("amount", 1)
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
        raise InvalidCommand("'amount' must be a positive integer")
    return amount


def _decide_add(state: TallyState, args: Mapping[str, JSON]) -> list[Event]:
    player, amount = _player(state, args), _amount(args)
    events = [Event("CounterRaised", {"player": player, "amount": amount})]
    if state.counters[player] + amount >= state.goal:
        events.append(Event("GameWon", {"player": player}))
    return events


def _decide_subtract(state: TallyState, args: Mapping[str, JSON]) -> list[Event]:
    player, amount = _player(state, args), _amount(args)
    have = state.counters[player]
    if amount > have:
        raise IllegalCommand(f"{player} has {have}; taking {amount} would go below zero")
    return [Event("CounterLowered", {"player": player, "amount": amount})]


def _decide_add_all(state: TallyState, args: Mapping[str, JSON]) -> list[Event]:
    amount = _amount(args)
    return [Event("CounterRaised", {"player": p, "amount": amount}) for p in state.players]


def _decide_note(state: TallyState, args: Mapping[str, JSON]) -> list[Event]:
    player, text = _player(state, args), args.get("text")
    if not isinstance(text, str):
        raise InvalidCommand("'text' must be a string")
    return [Event("NoteWritten", {"player": player, "text": text})]


def _raised(state: TallyState, p: Mapping[str, Any]) -> TallyState:
    counters = {**state.counters, p["player"]: state.counters[p["player"]] + p["amount"]}
    return replace(state, counters=counters, turn=(state.turn + 1) % len(state.players))


def _lowered(state: TallyState, p: Mapping[str, Any]) -> TallyState:
    counters = {**state.counters, p["player"]: state.counters[p["player"]] - p["amount"]}
    return replace(state, counters=counters)


def _noted(state: TallyState, p: Mapping[str, Any]) -> TallyState:
    return replace(state, notes={**state.notes, p["player"]: p["text"]})


def _won(state: TallyState, p: Mapping[str, Any]) -> TallyState:
    return replace(state, winner=p["player"])


_DECIDERS: dict[str, Callable[[TallyState, Mapping[str, JSON]], list[Event]]] = {
    "add": _decide_add,
    "subtract": _decide_subtract,
    "add_all": _decide_add_all,
    "note": _decide_note,
}

_EVOLVERS: dict[str, Callable[[TallyState, Mapping[str, Any]], TallyState]] = {
    "CounterRaised": _raised,
    "CounterLowered": _lowered,
    "NoteWritten": _noted,
    "GameWon": _won,
}


class Tally:
    name: ClassVar[str] = GAME

    def setup(self, options: Mapping[str, JSON]) -> Sequence[Event]:
        players = options.get("players")
        if (not isinstance(players, list) or not players
                or not all(isinstance(p, str) and p for p in players)
                or len(set(players)) != len(players)):
            raise InvalidCommand("'players' must be a list of distinct names")
        goal = options.get("goal", 20)
        if not isinstance(goal, int) or isinstance(goal, bool) or goal < 1:
            raise InvalidCommand("'goal' must be a positive integer")
        return [Event("GameStarted", {"players": list(players), "goal": goal})]

    def decide(self, state: TallyState, command: Command) -> Sequence[Event]:
        handler = _DECIDERS.get(command.type)
        if handler is None:
            raise InvalidCommand(f"unknown command {command.type!r}; "
                                 f"known: {', '.join(sorted(_DECIDERS))}")
        if state.winner is not None:
            raise IllegalCommand(f"the game is over: {state.winner} won")
        return handler(state, command.args)

    def evolve(self, state: TallyState | None, event: Event) -> TallyState:
        if event.type == "GameStarted":
            players = tuple(event.payload["players"])
            return TallyState(players, event.payload["goal"], dict.fromkeys(players, 0))
        assert state is not None, "the game starts with GameStarted"
        return _EVOLVERS[event.type](state, event.payload)

    def prompts(self, state: TallyState) -> Sequence[Prompt]:
        if state.winner is not None:
            return []
        return [ChoicePrompt(
            id=f"raise-{state.current}",
            player=state.current,
            question=f"Whose counter does {state.current} raise?",
            options=tuple(Option(p, p) for p in state.players),
            command="add",
            arg="player",
        )]

    def view(self, state: TallyState, viewer: str | None) -> JSON:
        return {
            "players": list(state.players),
            "counters": dict(state.counters),
            "turn": state.current,
            "goal": state.goal,
            "winner": state.winner,
            "notes": {p: t for p, t in state.notes.items() if p == viewer},
        }

    def private_to(self, event: Event) -> str | None:
        """The player an event's content is hidden for all but (their secret note)."""
        return str(event.payload["player"]) if event.type == "NoteWritten" else None

    def dump_state(self, state: TallyState) -> JSON:
        return {
            "players": list(state.players),
            "goal": state.goal,
            "counters": dict(state.counters),
            "notes": dict(state.notes),
            "turn": state.turn,
            "winner": state.winner,
        }

    def load_state(self, data: JSON) -> TallyState:
        return TallyState(tuple(data["players"]), data["goal"], dict(data["counters"]),
                          dict(data["notes"]), data["turn"], data["winner"])
