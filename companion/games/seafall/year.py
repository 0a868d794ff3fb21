"""The year: winter, then six rounds (rulebook, "Years and Rounds").

Winter, in order: (1) the astrolabe and event deck go to the player with the least glory,
ties to the less prominent title; (2) the forum is dismissed and five advisors dealt; (3)
harvest: each field without enmity, and not plundered since the last harvest, pays its
gold; (4) enmity tokens move (not in a game's first winter): from province sites to that
province's At War With space, from island sites onto the island's garrison; (5) islands
produce a good on each good site without one, from the limited supply, westernmost island
first and highest defense first; (6) advisors in council rooms and the supply's structures
and upgrades are refreshed (not upgrades on ships).

A round: (1) an event is revealed; (2) each player takes a turn, from the astrolabe holder
clockwise; (3) the event is resolved and dismissed; (4) if anyone's glory reached the
target, the game ends; (5) the astrolabe advances, and after the sixth round a new year
begins with winter.

Dealt advisors and revealed events are physical cards: the table says which came up.
"""

from __future__ import annotations

from companion.engine import Command, Event
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.args import only, require_player, text
from companion.games.seafall.decks import on_top
from companion.games.seafall.emitter import Emitter
from companion.games.seafall.state import TITLES, SeaFallState

FORUM_SIZE = 5
ROUNDS = 6


def prominence(state: SeaFallState, colour: str) -> int:
    """Smaller is more prominent; a province without a title is the least prominent."""
    title = state.provinces[colour].title
    return TITLES.index(title) if title in TITLES else len(TITLES)


def playing(state: SeaFallState) -> list[str]:
    """The provinces whose players are at the table, in seating order (an absent province
    takes no turns: rulebook, "Missing a game")."""
    return [c for c in state.seating if not state.provinces[c].absent]


def least_glory(state: SeaFallState) -> str:
    """The player with the least glory, ties to the less prominent title (then seating)."""
    return min(playing(state),
               key=lambda c: (state.provinces[c].glory, -prominence(state, c),
                              state.seating.index(c)))


def begin_winter(em: Emitter, year: int) -> None:
    em("WinterBegan", year=year)
    em("AstrolabeGiven", player=least_glory(em.state))
    if em.state.forum:
        em("ForumDismissed", advisors=list(em.state.forum))
    continue_winter(em)


def continue_winter(em: Emitter) -> None:
    """Winter from step 2 on: wait for dealt advisors, then steps 3 to 6 and round 1."""
    state = em.state
    if len(state.forum) < FORUM_SIZE and state.advisor_deck:
        return  # the table deals: see prompts
    _harvest(em)
    if not em.state.first_winter:
        _move_enmity(em)
    _produce(em)
    em("Refreshed")
    em("WinterEnded")
    begin_round(em, 1)


def _harvest(em: Emitter) -> None:
    state = em.state
    for colour in state.seating:
        if state.provinces[colour].absent:
            em("AbsentPassedBy", player=colour, step=None,
               what="no harvest (no gold is placed in an absent province)")
            continue
        paid, skipped, fallow = [], [], []
        for site in state.region_sites(colour):
            if site.kind != "field":
                continue
            if site.id in state.fallow_fields:  # "Plunder" > "Field"
                fallow.append(site.id)
            else:
                (skipped if any(site.enmity.values()) else paid).append(site.id)
        gold = sum(state.sites[s].value or 0 for s in paid)
        extra = {"fallow": fallow} if fallow else {}  # fields plundered since the last one
        em("FieldsHarvested", player=colour, gold=gold, fields=paid, skipped=skipped, **extra)


def _move_enmity(em: Emitter) -> None:
    state = em.state
    for site in state.sites.values():
        region = state.regions[site.region]
        for owner, count in sorted(site.enmity.items()):
            if count:
                em("EnmityMoved", site=site.id, owner=owner, count=count,
                   to="at_war" if region.kind == "province" else "garrison")


def production_order(state: SeaFallState) -> list[str]:
    """Good sites waiting for a good: westernmost island first, highest defense first."""
    # map columns count westward from the coastal waters: the highest is westernmost
    islands = sorted((r for r in state.regions.values() if r.kind == "island"),
                     key=lambda r: (-(r.column if r.column is not None else -1), r.id))
    out = []
    for region in islands:
        sites = [s for s in state.region_sites(region.id) if s.kind == "good"
                 and not s.good_present]
        sites.sort(key=lambda s: (-(s.defense or 0), s.id))
        out.extend(s.id for s in sites)
    return out


def _produce(em: Emitter) -> None:
    placed, short = [], []
    supply = dict(em.state.supply.goods)
    for site_id in production_order(em.state):
        colour = em.state.sites[site_id].colour or ""
        if supply.get(colour, 0) > 0:
            supply[colour] -= 1
            placed.append(site_id)
        else:
            short.append(site_id)
    em("GoodsProduced", sites=placed, short=short)


def begin_round(em: Emitter, number: int) -> None:
    em("RoundBegan", round=number,
       phase="event" if em.state.event_deck else "turns")
    if not em.state.event_deck:
        start_turns(em)


def start_turns(em: Emitter) -> None:
    first = em.state.astrolabe or playing(em.state)[0]
    em("TurnStarted", player=first)


def clockwise_from(state: SeaFallState, first: str) -> list[str]:
    i = state.seating.index(first)
    return state.seating[i:] + state.seating[:i]


def after_turn(em: Emitter) -> None:
    """Start the next player's turn, or end the round."""
    state = em.state
    order = clockwise_from(state, state.astrolabe or state.seating[0])
    waiting = [c for c in order if c not in state.turns_taken and c in playing(state)]
    if waiting:
        em("TurnStarted", player=waiting[0])
        return
    end_round(em)


def end_round(em: Emitter) -> None:
    state = em.state
    if state.event is not None:
        em("EventDismissed", event=state.event)
    top = max(state.provinces[c].glory for c in playing(state))
    if top >= state.glory_target:
        tied = [c for c in playing(state) if state.provinces[c].glory == top]
        winner = max(tied, key=lambda c: (prominence(state, c), -state.seating.index(c)))
        em("GameEnded", winner=winner,
           glory={c: state.provinces[c].glory for c in state.seating},
           target=state.glory_target)
        from companion.games.seafall import endgame  # the end of game follows at once

        endgame.begin(em)
        return
    if state.round >= ROUNDS:
        begin_winter(em, state.year + 1)
    else:
        begin_round(em, state.round + 1)


def deal_advisor(state: SeaFallState, cmd: Command) -> list[Event]:
    """The table says which advisor came up when dealing to the forum."""
    args = only(cmd, "advisor")
    name = text(args, "advisor", cmd.type) or ""
    if not waiting_for_forum(state):
        raise IllegalCommand("the forum is full: no advisor is being dealt")
    if name not in state.advisor_deck:
        if name in state.catalogue.advisors:
            raise IllegalCommand(f"{name} is not in the advisor deck")
        raise InvalidCommand(f"there is no advisor called {name!r}")
    if name not in on_top(state.advisor_deck, state.advisors_below):
        raise IllegalCommand(f"{name} was put on the bottom of the advisor deck: the cards "
                             "above it come first")
    em = Emitter(state)
    em("AdvisorDealt", advisor=name)
    if em.state.phase == "forum":
        continue_winter(em)
    return em.events


def waiting_for_forum(state: SeaFallState) -> bool:
    """Whether the forum waits for a dealt advisor (winter step 2, or a refill)."""
    if not state.advisor_deck or len(state.forum) >= FORUM_SIZE:
        return False
    return state.phase == "forum" or (state.phase == "turns" and state.endeavor is None)


def reveal_event(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "event")
    name = text(args, "event", cmd.type) or ""
    if state.phase != "event":
        raise IllegalCommand("no event is waiting to be revealed")
    if state.astrolabe is not None:
        # "Non-Winter Rounds" step 1: the astrolabe holder turns the card over (the table,
        # acting for all, may too)
        require_player(state, cmd, state.astrolabe, "revealing the event")
    if name not in state.event_deck:
        raise IllegalCommand(f"{name!r} is not in the event deck")
    if name not in on_top(state.event_deck, state.events_below):
        raise IllegalCommand(f"{name!r} was put on the bottom of the event deck this year: "
                             "the cards above it come first")
    em = Emitter(state)
    em("EventRevealed", event=name)
    start_turns(em)
    return em.events
