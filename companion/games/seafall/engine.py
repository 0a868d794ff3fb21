"""The SeaFall engine: setup, the command table, prompts and views.

Implements :class:`companion.engine.Engine`. Commands are listed in ``COMMANDS`` (a table of
handlers, each ``(state, command) -> events``) and documented in docs/commands.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from companion.engine import Command, Event
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall import endeavor, plunder, turn
from companion.games.seafall.args import actor_colour
from companion.games.seafall.codec import dump, load
from companion.games.seafall.components import GUILDS
from companion.games.seafall.evolve import evolve as evolve_state
from companion.games.seafall.log import describe
from companion.games.seafall.odds import current_odds
from companion.games.seafall.setup import initial_state
from companion.games.seafall.state import SeaFallState
from companion.prompts import ChoicePrompt, Option, Prompt, RollPrompt, SpendPrompt

Decider = Callable[[SeaFallState, Command], list[Event]]

COMMANDS: dict[str, Decider] = {
    "activate_advisor": turn.activate_advisor,
    "hire_guild": turn.hire_guild,
    "explore": endeavor.explore,
    "raid": endeavor.raid,
    "roll": endeavor.roll,
    "spend_fortune": endeavor.spend_fortune,
    "assign_damage": endeavor.assign_damage,
    "return_good": endeavor.return_good,
    "plunder": plunder.plunder,
    "record_site": turn.record_site,
    "end_turn": turn.end_turn,
}


class SeaFall:
    """SeaFall (Plaid Hat Games): explore and raid endeavors on top of a table state."""

    name: ClassVar[str] = "seafall"
    commands: ClassVar[tuple[str, ...]] = tuple(COMMANDS)

    def setup(self, options: Mapping[str, Any]) -> Sequence[Event]:
        state = initial_state(options)
        return [
            Event("GameSetUp", {"state": dump(state)}),
            Event("TurnStarted", {"player": state.turn.player if state.turn else state.seating[0]}),
        ]

    def decide(self, state: SeaFallState, command: Command) -> Sequence[Event]:
        if state is None:
            raise IllegalCommand("the game has not been set up")
        handler = COMMANDS.get(command.type)
        if handler is None:
            raise InvalidCommand(
                f"unknown SeaFall command {command.type!r}; commands: {', '.join(COMMANDS)}")
        return handler(state, command)

    def evolve(self, state: SeaFallState | None, event: Event) -> SeaFallState:
        return evolve_state(state, event)

    def prompts(self, state: SeaFallState) -> Sequence[Prompt]:
        end = state.endeavor
        if end is None:
            if state.turn is not None and state.turn.guild is None:
                return [ChoicePrompt(
                    id=f"turn:{state.turn.player}:guild", player=state.turn.player,
                    question=f"{state.provinces[state.turn.player].player}: hire which guild?",
                    options=tuple(Option(g, g.title()) for g in GUILDS),
                    command="hire_guild", arg="guild")]
            return []
        who = state.provinces[end.player].player
        pid = f"endeavor:{end.number}"
        if end.stage == "roll":
            left = end.dice - len(end.faces)
            return [RollPrompt(id=f"{pid}:roll:{len(end.faces)}", player=end.player,
                               die="seafall", count=left,
                               purpose=f"{who}'s {end.kind} ({end.dice} dice vs defense "
                                       f"{end.defense})")]
        if end.stage == "reroll":
            kinds = ", ".join(end.reroll_kinds)
            return [RollPrompt(id=f"{pid}:reroll", player=end.player, die="seafall",
                               count=len(end.reroll),
                               purpose=f"re-roll the {len(end.reroll)} dice showing {kinds}")]
        if end.stage == "fortune":
            return [SpendPrompt(id=f"{pid}:fortune", player=end.player, token="fortune",
                                minimum=0, maximum=end.fortune_offered,
                                question=f"{who}: spend fortune to turn blanks into "
                                         f"successes? (0-{end.fortune_offered})",
                                command="spend_fortune")]
        if end.stage == "damage":
            opts = endeavor.damage_options(state)
            return [ChoicePrompt(id=f"{pid}:damage:{end.damage_due}", player=end.player,
                                 question=f"{who} takes {end.damage_due} damage: take the "
                                          "next point how?",
                                 options=tuple(Option(v, label) for v, label in opts),
                                 command="assign_damage")]
        if end.stage == "hold":
            ship = endeavor._overloaded(state)
            if ship is not None:
                return [ChoicePrompt(id=f"{pid}:hold:{len(ship.goods)}", player=end.player,
                                     question=f"{ship.name}'s hold is over: return which good?",
                                     options=tuple(Option(g, g) for g in sorted(set(ship.goods))),
                                     command="return_good")]
            return []
        if end.stage == "plunder":
            question, opts = plunder.options(state)
            return [ChoicePrompt(id=f"{pid}:plunder:{len(question)}:{len(opts)}",
                                 player=end.player, question=question,
                                 options=tuple(Option(v, label) for v, label in opts),
                                 command="plunder")]
        return []

    def view(self, state: SeaFallState, viewer: str | None) -> Any:
        data = dump(state)
        data["viewer"] = actor_colour(state, viewer)
        data["prompts"] = [p.to_json() for p in self.prompts(state)]
        data.pop("catalogue", None)
        odds = current_odds(state)
        if odds is not None:
            full = odds.to_json()
            data["endeavor"]["odds"] = {
                key: full[key] for key in ("p_at_least_one_success", "p_no_damage",
                                           "expected_damage", "successes", "exact")}
        return data

    def describe(self, event: Event) -> str:
        """One readable sentence for an event (the history view, ``tableside play``)."""
        return describe(event)

    def summary(self, state: SeaFallState) -> str:
        """A few lines on where the game stands: whose turn, each province's holdings."""
        lines = []
        if state.turn is not None:
            lines.append(f"Turn: {state.provinces[state.turn.player].player} "
                         f"({state.turn.player})"
                         + (f", {state.turn.guild} guild" if state.turn.guild else ""))
        lines.append(f"{'province':<10}{'glory':>6}{'gold':>6}{'fortune':>8}{'enmity':>7}  ships")
        for colour in state.seating:
            prov = state.provinces[colour]
            ships = ", ".join(
                f"{s.id}@{s.location or 'sunk'}"
                + (f" dmg {len(s.damage)}" if s.damage else "")
                + (f" [{' '.join(u.name + ('*' if u.exhausted else '') for u in s.upgrades)}]"
                   if s.upgrades else "")
                + (f" hold {'/'.join(s.goods)}" if s.goods else "")
                for s in state.province_ships(colour))
            lines.append(f"{colour:<10}{prov.glory:>6}{prov.gold:>6}{prov.fortune:>8}"
                         f"{prov.home_enmity:>7}  {ships}")
        return "\n".join(lines)

    def dump_state(self, state: SeaFallState) -> Any:
        return dump(state)

    def load_state(self, data: Any) -> SeaFallState:
        return load(SeaFallState, data)
