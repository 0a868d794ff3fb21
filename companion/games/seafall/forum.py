"""The turn's first step: hire an advisor from the forum, or buy a treasure (rulebook,
"Taking Your Turn" > "1. Hire Advisors OR Buy Treasure"); and milestones, claimed at most one
per turn, after an action, so once a guild is hired ("4. Claim a Milestone"); and reputation
given for a region's powers ("Tokens and Enmity" > "Reputation Tokens").
"""

from __future__ import annotations

from companion.engine import Command, Event
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.actions.places import discount_good, discounted
from companion.games.seafall.args import only, require_player, text
from companion.games.seafall.effects import of_kind
from companion.games.seafall.emitter import Emitter
from companion.games.seafall.log_fr import titled
from companion.games.seafall.state import SeaFallState, Turn
from companion.games.seafall.turn import current_turn, no_endeavor


def _first_step(state: SeaFallState, cmd: Command, doing: str) -> Turn:
    turn = current_turn(state)
    require_player(state, cmd, turn.player, doing)
    no_endeavor(state)
    if turn.guild is not None:
        raise IllegalCommand("advisors are hired and treasures bought before hiring a guild")
    if state.provinces[turn.player].active_advisor is not None:
        # step 1 comes before step 2 ("Taking Your Turn"): an advisor activated this turn
        # closes the forum and the treasure deck to its province until the next turn
        raise IllegalCommand("advisors are hired and treasures bought before activating one")
    return turn


def _hires_any_number(state: SeaFallState, player: str) -> bool:
    """A Library (``hire_any_number``) lets its owner hire several advisors."""
    for site in state.region_sites(player):
        kind = state.catalogue.structures.get(site.structure or "")
        if kind is not None and of_kind(kind.effects, "hire_any_number"):
            return True
    return False


def hire_advisor(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "advisor", "pay")
    name = text(args, "advisor", cmd.type) or ""
    pay = args.get("pay", "gold")
    if pay not in ("gold", "reputation"):
        raise InvalidCommand("'pay' is 'gold' or 'reputation'")
    turn = _first_step(state, cmd, "hiring an advisor")
    prov = state.provinces[turn.player]
    if turn.bought_treasure:
        # "Hire Advisors OR Buy Treasure": a Library lifts the one-advisor limit, not the OR
        raise IllegalCommand(f"{prov.player} bought a treasure this turn: no advisor can be "
                             "hired too (hire advisors or buy a treasure, not both)")
    if turn.hired and not _hires_any_number(state, turn.player):
        raise IllegalCommand(f"{prov.player} already hired an advisor or bought a treasure "
                             "this turn")
    if name not in state.forum:
        raise IllegalCommand(f"{name} is not in the forum")
    kind = state.catalogue.advisors[name]
    if pay == "reputation" and kind.reputation <= 0:
        # "Reputation Tokens": reputation pays only for an advisor with a reputation cost
        raise IllegalCommand(f"{name} has no reputation cost: hire it with gold")
    if pay == "gold" and prov.gold < kind.gold:
        raise IllegalCommand(f"{prov.player} has {prov.gold} gold; {name} costs {kind.gold}")
    if pay == "reputation" and prov.reputation < kind.reputation:
        raise IllegalCommand(f"{prov.player} has {prov.reputation} reputation; {name} costs "
                             f"{kind.reputation}")
    em = Emitter(state)
    em("AdvisorHired", player=turn.player, advisor=name,
       gold=kind.gold if pay == "gold" else 0,
       reputation=kind.reputation if pay == "reputation" else 0)
    if kind.glory:
        em("GloryChanged", player=turn.player, amount=kind.glory, reason=f"advisor {name}")
    return em.events


def buy_treasure(state: SeaFallState, cmd: Command) -> list[Event]:
    """Buy a treasure; ``good_from`` spends one good of its colour from the province
    (``warehouse``, or a ship in the home harbor) for 8 gold off, never below 0."""
    args = only(cmd, "treasure", "good_from")
    name = text(args, "treasure", cmd.type) or ""
    turn = _first_step(state, cmd, "buying a treasure")
    player = turn.player
    prov = state.provinces[player]
    if turn.hired:
        raise IllegalCommand(f"{prov.player} already hired an advisor or bought a treasure "
                             "this turn")
    card = next((c for c in state.treasures if c.name == name), None)
    if card is None:
        raise IllegalCommand(f"{name} is not among the treasures for sale")
    source = None
    if args.get("good_from") is not None:
        if card.colour is None:
            raise IllegalCommand(f"{name} has no colour: no good discounts it")
        source = discount_good(state, player, args["good_from"], card.colour,
                               state.regions[player], name)
    price = discounted(card.cost, source is not None, 0)
    if prov.gold < price:
        raise IllegalCommand(f"{prov.player} has {prov.gold} gold; {name} costs {price}")
    em = Emitter(state)
    if source is not None:
        em("GoodSpent", player=player, good=card.colour, source=source, on=name)
    em("TreasureBought", player=player, treasure=name, gold=price)
    if card.glory:
        em("GloryChanged", player=player, amount=card.glory, reason=f"treasure {name}")
    return em.events


def claim_milestone(state: SeaFallState, cmd: Command) -> list[Event]:
    """Claim a milestone whose requirement the table agrees was met (the requirement is card
    text, checked by the players)."""
    args = only(cmd, "milestone")
    name = text(args, "milestone", cmd.type) or ""
    turn = current_turn(state)
    require_player(state, cmd, turn.player, "claiming a milestone")
    no_endeavor(state)
    milestone = next((m for m in state.milestones if m.name == name), None)
    if milestone is None:
        raise IllegalCommand(f"there is no milestone {name!r}")
    if milestone.claimed_by is not None:
        claimer = state.provinces.get(milestone.claimed_by)  # named by its player
        by = claimer.player if claimer is not None and claimer.player \
            else titled(milestone.claimed_by)
        raise IllegalCommand(f"{name} was claimed by {by}")
    if turn.milestone_claimed:
        raise IllegalCommand("only one milestone can be claimed in a turn")
    if turn.guild is None:
        # "Taking Your Turn" step 4 and "Milestones": claimed after an action, so once the
        # guild's step has begun (which closes steps 1 and 2 for the turn)
        raise IllegalCommand("a milestone is claimed after an action: hire a guild first")
    em = Emitter(state)
    em("MilestoneClaimed", player=turn.player, milestone=name, events=milestone.events)
    if milestone.glory:
        em("GloryChanged", player=turn.player, amount=milestone.glory,
           reason=f"milestone {name}")
    return em.events


def give_reputation(state: SeaFallState, cmd: Command) -> list[Event]:
    """Give a reputation token to use one region's powers this turn (the other player has
    accepted at the table; no other token, good, gold or card may change hands)."""
    args = only(cmd, "to", "region")
    to = text(args, "to", cmd.type) or ""
    region_id = text(args, "region", cmd.type) or ""
    turn = current_turn(state)
    require_player(state, cmd, turn.player, "giving reputation")
    prov = state.provinces[turn.player]
    if to not in state.provinces or to == turn.player:
        raise InvalidCommand("'to' is another province in this game")
    region = state.regions.get(region_id)
    if region is None or region.owner != to:
        raise IllegalCommand(f"{state.provinces[to].player} does not control a region "
                             f"{region_id!r}")
    if prov.reputation < 1:
        raise IllegalCommand(f"{prov.player} has no reputation token to give")
    if region_id in turn.borrowed:
        # one token buys the region's powers for the whole turn: a second buys nothing
        raise IllegalCommand(f"{prov.player} already gave reputation for {region.name} this "
                             "turn: its powers are theirs until the turn ends")
    em = Emitter(state)
    em("ReputationGiven", player=turn.player, to=to, region=region_id)
    return em.events
