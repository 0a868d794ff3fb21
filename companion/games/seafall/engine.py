"""The SeaFall engine: setup, the command table, prompts and views.

Implements :class:`companion.engine.Engine`. Commands are listed in ``COMMANDS`` (a table of
handlers, each ``(state, command) -> events``) and documented in docs/commands.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from companion.engine import Command, Event
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall import (
    actions,
    campaign,
    choices,
    endeavor,
    endgame,
    evolve_campaign,  # noqa: F401  (registers the campaign's event handlers)
    evolve_endgame,  # noqa: F401  (registers the end-of-game event handlers)
    forum,
    legacy,
    log_fr,
    plunder,
    refusals_fr,
    turn,
    year,
)
from companion.games.seafall.args import actor_colour, seat_of
from companion.games.seafall.codec import dump
from companion.games.seafall.components import GUILDS
from companion.games.seafall.decks import on_top
from companion.games.seafall.emitter import Emitter
from companion.games.seafall.evolve import evolve as evolve_state
from companion.games.seafall.integrity import load_state
from companion.games.seafall.log import describe, dice_showing
from companion.games.seafall.odds import current_odds, odds_json
from companion.games.seafall.seaspaces import at_sea
from companion.games.seafall.setup import check_players, initial_state
from companion.games.seafall.ships import ship_value
from companion.games.seafall.state import SeaFallState
from companion.games.seafall.throws import dice_thrown
from companion.prompts import ChoicePrompt, Option, Prompt, RollPrompt, SpendPrompt

Decider = Callable[[SeaFallState, Command], list[Event]]

COMMANDS: dict[str, Decider] = {
    "activate_advisor": turn.activate_advisor,
    "hire_guild": turn.hire_guild,
    "explore": endeavor.explore,
    "raid": endeavor.raid,
    "roll": lambda state, cmd: (endgame.roll if state.end_step == 5 else endeavor.roll)(
        state, cmd),
    "spend_fortune": endeavor.spend_fortune,
    "assign_damage": endeavor.assign_damage,
    "return_good": endeavor.return_good,
    "plunder": plunder.plunder,
    "record_site": turn.record_site,
    "add_component": legacy.add_component,
    "add_island": legacy.add_island,
    "set_leader": legacy.set_leader,
    "deal_advisor": year.deal_advisor,
    "hire_advisor": forum.hire_advisor,
    "buy_treasure": forum.buy_treasure,
    "claim_milestone": forum.claim_milestone,
    "improve_province": endgame.improve_province,
    "train_advisor": endgame.train_advisor,
    "keep_advisor": endgame.keep_advisor,
    "improve_ship": endgame.improve_ship,
    "settle_enmity": endgame.settle_enmity,
    "cover_sticker": endgame.cover_sticker,
    "choose_title": endgame.choose_title,
    "give_reputation": forum.give_reputation,
    "reveal_event": year.reveal_event,
    "end_turn": turn.end_turn,
}
COMMANDS.update(actions.COMMANDS)


class SeaFall:
    """SeaFall (Plaid Hat Games): explore and raid endeavors on top of a table state."""

    name: ClassVar[str] = "seafall"
    commands: ClassVar[tuple[str, ...]] = tuple(COMMANDS)

    def setup(self, options: Mapping[str, Any]) -> Sequence[Event]:
        state = initial_state(options)
        check_players(state)  # a new game's names (a campaign's ledger is read as it is)
        em = Emitter(None)  # type: ignore[arg-type]
        em("GameSetUp", state=dump(state))
        if state.phase == "turns":
            year.start_turns(em)
        else:
            year.begin_winter(em, state.year)
        return em.events

    def decide(self, state: SeaFallState, command: Command) -> Sequence[Event]:
        if state is None:
            raise IllegalCommand("the game has not been set up")
        handler = COMMANDS.get(command.type)
        if handler is None:
            raise InvalidCommand(
                f"unknown SeaFall command {command.type!r}; commands: {', '.join(COMMANDS)}")
        actor_colour(state, command.actor)  # an actor no one plays is refused, whatever the command
        return handler(state, command)

    def check_actor(self, state: SeaFallState, actor: str | None) -> None:
        """Refuse (``InvalidCommand``) an actor that is neither a province, its player nor
        the table's: for what does not go through ``decide`` (undo and redo, asked by the table)."""
        actor_colour(state, actor)

    def evolve(self, state: SeaFallState | None, event: Event) -> SeaFallState:
        return evolve_state(state, event)

    def prompts(self, state: SeaFallState) -> Sequence[Prompt]:
        end = state.endeavor
        if state.phase == "over":
            return self._end_prompts(state)
        if year.waiting_for_forum(state):
            dealt = len(state.forum) + 1
            return [ChoicePrompt(
                id=f"forum:{state.year}:{state.round}:{len(state.advisor_deck)}", player=None,
                question=f"Deal the forum: which advisor came up? ({dealt} of "
                         f"{year.FORUM_SIZE})",
                options=tuple(Option(a, a) for a in on_top(state.advisor_deck,
                                                           state.advisors_below)),
                command="deal_advisor", arg="advisor")]
        if state.phase == "event":
            return [ChoicePrompt(
                id=f"event:{state.year}:{state.round}", player=state.astrolabe,
                question=f"Year {state.year}, round {state.round}: which event is revealed?",
                options=tuple(Option(e, e) for e in on_top(state.event_deck,
                                                           state.events_below)),
                command="reveal_event", arg="event")]
        if state.turn is not None and state.turn.hold_over is not None:
            # a hold over its value after an upgrade was returned: before anything else
            ship = state.ships[state.turn.hold_over]
            return [ChoicePrompt(id=f"turn:{ship.owner}:hold:{ship.id}:{len(ship.goods)}",
                                 player=ship.owner,
                                 question=f"{ship.name}'s hold is over: return which good?",
                                 options=tuple(Option(g, g) for g in sorted(set(ship.goods))),
                                 command="return_good")]
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
            count = len(end.reroll)
            return [RollPrompt(id=f"{pid}:reroll", player=end.player, die="seafall",
                               count=count,
                               purpose=f"re-roll the {dice_showing(count, end.reroll_kinds)}",
                               keep=tuple(f for i, f in enumerate(end.faces)
                                          if i not in end.reroll))]
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
                                 options=tuple(opts), command="assign_damage")]
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

    def _end_prompts(self, state: SeaFallState) -> Sequence[Prompt]:
        step = state.end_step
        if not state.end_order and not state.title_blocks:
            return []
        player = (state.title_blocks[0]["players"][0] if step == 7 and state.title_blocks
                  else state.end_order[0])
        who = state.provinces[player].player
        pid = f"end:{step}:{player}"

        def choice(question: str, opts: Sequence[tuple[str, str] | Option],
                   command: str) -> list[Prompt]:
            return [ChoicePrompt(id=f"{pid}:{len(opts)}", player=player,
                                 question=f"{who}: {question}",
                                 options=tuple(o if isinstance(o, Option) else Option(*o)
                                               for o in opts),
                                 command=command)]

        if step == 1:
            return choice("improve your province how?",
                          endgame.improvement_options(state, player), "improve_province")
        if step == 2:
            return choice("train which advisor, with which retired advisor?",
                          endgame.training_options(state, player), "train_advisor")
        if step == 3:
            return choice("keep which advisor?",
                          [(a, a) for a in endgame.keepable(state, player)], "keep_advisor")
        if step == 4:
            return choice("improve which ship value?",
                          [(f"{s}:{v}", f"{s} {v}")
                           for s, v in endgame.improvable(state, player)], "improve_ship")
        if step == 5 and state.enmity is not None:
            if not state.enmity.rolled:
                prov = state.provinces[player]
                return [RollPrompt(id=f"{pid}:roll", player=player, die="seafall",
                                   count=prov.fortune + prov.reputation,
                                   purpose=f"{who}'s enmity at the end of the game (one die "
                                           "per fortune and reputation token left)")]
            if state.sticker_to_place:
                region = state.regions[state.sticker_to_place[0]]
                others = sorted(c for c, n in region.permanent_enmity.items()
                                if n and c != player)
                return choice(f"{region.name} is full: cover whose sticker?",
                              [(c, c) for c in others], "cover_sticker")
            return choice(f"{state.enmity.successes} success(es) to spend",
                          endgame.enmity_options(state), "settle_enmity")
        if step == 7:
            return choice("choose your title", [(t, t) for t in endgame.title_options(state)],
                          "choose_title")
        return []

    def view(self, state: SeaFallState, viewer: str | None) -> Any:
        data = dump(state)
        data["viewer"] = seat_of(state, viewer)
        data["prompts"] = [p.to_json() for p in self.prompts(state)]
        data.pop("catalogue", None)
        for ship_id, ship in state.ships.items():  # as they count now: upgrades and damage
            shown = data["ships"].get(ship_id)
            if isinstance(shown, dict):
                shown["values"] = {stat: ship_value(state, ship, stat)
                                   for stat in ("explore", "raid", "sail", "hold")}
                sea = at_sea(state, ship.location)  # where, by the board, not the map's label
                if sea is not None:
                    shown["at_sea"] = sea
        odds = current_odds(state)
        if odds is not None and state.endeavor is not None:
            data["endeavor"]["odds"] = odds_json(state, state.endeavor, odds)
        if state.endeavor is not None and state.endeavor.stage == "fortune":
            # counted once fortune is spent: what the dice show before it, for the card
            rolled, _ = endeavor.count_successes(state.endeavor)
            data["endeavor"]["successes_so_far"] = rolled + (
                state.endeavor.bonus if rolled > 0 else 0)
        return data

    def legal_commands(self, state: SeaFallState) -> list[dict[str, Any]]:
        """The commands the current player may send now (docs/seafall.md, "Choices")."""
        return choices.legal_commands(state, self.decide)

    def next_game(self, state: SeaFallState) -> dict[str, Any]:
        """Setup options of the campaign's next game, from a recorded game."""
        return campaign.next_game(state)

    def check_ledger(self, ledger: Any) -> None:
        """Refuse a ledger the campaign could not set its next game up from (a campaign
        file edited by hand): ``InvalidCommand`` naming the field."""
        campaign.check_ledger(ledger)

    def campaign_summary(self, ledger: dict[str, Any]) -> dict[str, Any]:
        """What a campaign page shows, from one of the campaign's ledgers."""
        return campaign.campaign_summary(ledger)

    def dice_thrown(self, events: Sequence[Event]) -> list[dict[str, Any]]:
        """The dice thrown, from the events of the commands in effect (the table's dice
        statistics): each roll and re-roll with its province and how it was read."""
        return dice_thrown(events)

    def describe(self, event: Event, lang: str = "en",
                 state: SeaFallState | None = None) -> str:
        """One readable sentence for an event (the history view, ``tableside play``), in
        English or French (``lang``; another language falls back to English); with the
        table's ``state``, its ships and places by their names rather than their ids."""
        return describe(event, lang, state)

    def phrase(self, text: str, lang: str = "en") -> str:
        """A phrase the engine wrote into a view or a payload (a dice-pool line's reason, a
        glory reason) in ``lang``: French when it is a known one, else as it is."""
        return log_fr.phrase(text) if lang == "fr" else text

    def refusal(self, text: str, lang: str = "en") -> str:
        """Why a command was refused (an ``IllegalCommand``'s message) in ``lang``: French
        when it is one the engine writes, else as it is."""
        return refusals_fr.refusal(text) if lang == "fr" else text

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
        return load_state(data)
