"""The parts of a turn this slice needs (rulebook, "A Turn in SeaFall"): activate an advisor,
hire a guild and take up to two of its actions, exhaust the active advisor at the end.

Which guild action is which (player reference card, and the guild pages): the Explorers'
actions are sail, explore and research; the Soldiers' are sail, raid and collect taxes.
"""

from __future__ import annotations

from companion.engine import Command, Event
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.args import only, require_player, text
from companion.games.seafall.components import GOODS, GUILDS
from companion.games.seafall.emitter import Emitter
from companion.games.seafall.sitenames import site_called
from companion.games.seafall.state import SeaFallState, Turn
from companion.games.seafall.year import after_turn

GUILD_ACTIONS = {
    "merchants": ("sail", "buy", "sell"),
    "builders": ("sail", "repair_or_upgrade", "build"),
    "explorers": ("sail", "explore", "research"),
    "soldiers": ("sail", "raid", "taxes"),
}
ACTIONS_PER_TURN = 2


def current_turn(state: SeaFallState) -> Turn:
    if state.turn is None:
        raise IllegalCommand("no turn is in progress")
    return state.turn


def no_endeavor(state: SeaFallState) -> None:
    """Refuse a command while an endeavor, or a hold over its value, waits for answers."""
    end = state.endeavor
    if end is not None:
        prov = state.provinces[end.player]
        raise IllegalCommand(f"{prov.player}'s {end.kind} is not finished yet")
    hold_waits(state)


def hold_waits(state: SeaFallState) -> None:
    """Refuse a command while a ship's hold is over its value after an upgrade was returned:
    its goods go back to the supply first (``return_good``)."""
    if state.turn is not None and state.turn.hold_over is not None:
        ship = state.ships[state.turn.hold_over]
        raise IllegalCommand(f"{ship.name}'s hold is over its value: return goods to the "
                             "supply first")


def check_action(state: SeaFallState, action: str) -> None:
    """Refuse a guild action the hired guild does not give, or that was already taken."""
    turn = current_turn(state)
    player = state.provinces[turn.player].player
    guilds = [g for g, acts in GUILD_ACTIONS.items() if action in acts]
    if turn.guild is None:
        raise IllegalCommand(f"{player} must hire the {guilds[0].title()} guild to {action}")
    if action not in GUILD_ACTIONS[turn.guild]:
        raise IllegalCommand(
            f"{action} is not an action of the {turn.guild.title()} guild that {player} hired"
        )
    if action in turn.actions:
        raise IllegalCommand(f"{player} already took the {action} action this turn")
    if len(turn.actions) >= ACTIONS_PER_TURN:
        raise IllegalCommand(f"{player} already took two guild actions this turn")


def hire_guild(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "guild")
    guild = text(args, "guild", cmd.type)
    if guild not in GUILDS:
        raise InvalidCommand(f"'guild' must be one of {', '.join(GUILDS)}")
    turn = current_turn(state)
    require_player(state, cmd, turn.player, "hiring a guild")
    no_endeavor(state)
    if turn.guild is not None:
        raise IllegalCommand(f"{state.provinces[turn.player].player} already hired the "
                             f"{turn.guild.title()} guild this turn")
    em = Emitter(state)
    em("GuildHired", player=turn.player, guild=guild)
    return em.events


def activate_advisor(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "advisor")
    name = text(args, "advisor", cmd.type)
    turn = current_turn(state)
    require_player(state, cmd, turn.player, "activating an advisor")
    prov = state.provinces[turn.player]
    if turn.guild is not None:
        raise IllegalCommand("advisors are activated before a guild is hired")
    if prov.active_advisor is not None:
        raise IllegalCommand(f"{prov.player} already has {prov.active_advisor} active")
    held = next((a for a in prov.council if a.name == name), None)
    if held is None:
        raise IllegalCommand(f"{prov.player} has no advisor {name} in the council room")
    if held.exhausted:
        raise IllegalCommand(f"{name} is exhausted until winter")
    em = Emitter(state)
    em("AdvisorActivated", player=turn.player, advisor=name)
    return em.events


def end_turn(state: SeaFallState, cmd: Command) -> list[Event]:
    only(cmd)
    turn = current_turn(state)
    require_player(state, cmd, turn.player, "ending the turn")
    no_endeavor(state)
    em = Emitter(state)
    finish_turn(em, turn.player)
    return em.events


def finish_turn(em: Emitter, player: str) -> None:
    """Exhaust the active advisor, end the turn, start the next player's (clockwise from
    the astrolabe holder) or end the round."""
    prov = em.state.provinces[player]
    if prov.active_advisor is not None:
        em("AdvisorExhausted", player=player, advisor=prov.active_advisor)
    em("TurnEnded", player=player)
    after_turn(em)


# The gold a mine's sticker may show. The rulebook says only that raiding a mine gives the
# gold printed on its sticker ("What's on the Islands?" > Mine; "Soldiers Guild" > "Raid"
# > Mine) and RULES-FACTS.md gives no mine values: 0 to 20 is the phone's form
# (web/static/js/explored.js), so the API takes what the form may send (docs/seafall.md).
MINE_GOLD = (0, 20)
STICKERS = {"good": "a good site", "mine": "a mine", "docks": "docks", "market": "a market",
            "other": "something else"}  # what a recorded site is, for a refusal


def record_site(state: SeaFallState, cmd: Command) -> list[Event]:
    """Record what an explored site turned out to be (its exploration sticker: rulebook,
    "Explorers Guild" > "Explore" and "What's on the Islands?").

    Only a site waiting for its sticker: explored and not yet recorded (a sticker is placed
    once, and explored sites are permanent: "Game Carryover" > Islands). Any player at the
    table may record it, at any time: the sticker lies on the board for all to see, and the
    explorer's phone may be away. A mistake is taken back with undo.
    """
    args = only(cmd, "site", "kind", "colour", "value", "good_present")
    site_id = text(args, "site", cmd.type)
    site = state.sites.get(site_id or "")
    if site is None:
        raise InvalidCommand(f"there is no site {site_id!r}")
    if state.regions[site.region].kind != "island":
        raise IllegalCommand("only island sites are explored")
    named = site_called(state, site.id)
    if site.kind == "unexplored":
        raise IllegalCommand(f"{named} has not been explored yet")
    if site.kind != "explored":
        raise IllegalCommand(f"{named} is already recorded as "
                             f"{STICKERS.get(site.kind, site.kind)}")
    kind = text(args, "kind", cmd.type)
    if kind not in ("good", "mine", "docks", "market", "other"):
        raise InvalidCommand("'kind' is one of good, mine, docks, market, other")
    colour = args.get("colour")
    if kind in ("good", "docks", "market") and colour not in GOODS:
        raise InvalidCommand(f"a {kind} site needs a 'colour' ({', '.join(GOODS)})")
    value = args.get("value")
    low, high = MINE_GOLD
    if kind == "mine" and (not isinstance(value, int) or isinstance(value, bool)
                           or not low <= value <= high):
        raise InvalidCommand(f"a mine's gold 'value' must be a whole number from {low} to "
                             f"{high}")
    good_present = args.get("good_present", False)
    if not isinstance(good_present, bool):
        raise InvalidCommand("'good_present' must be true or false")
    em = Emitter(state)
    em("SiteRecorded", site=site.id, kind=kind, colour=colour if kind != "mine" else None,
       value=value if kind == "mine" else None, good_present=good_present and kind == "good")
    return em.events
