"""Folding events into the state: one small handler per event type.

Handlers work on a copy (``evolve`` clones first) and only record what the event says
happened; every rule was checked when ``decide`` produced the event.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.engine import Event
from companion.games.seafall.decks import drawn
from companion.games.seafall.effects import parse_effects
from companion.games.seafall.integrity import load_state
from companion.games.seafall.ships import excess_goods
from companion.games.seafall.state import (
    Advisor,
    Card,
    DamageCard,
    Endeavor,
    PoolLine,
    SeaFallState,
    ShipUpgrade,
    Turn,
)

Handler = Callable[[SeaFallState, Mapping[str, Any]], None]
HANDLERS: dict[str, Handler] = {}


def handles(name: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        HANDLERS[name] = fn
        return fn

    return register


def evolve(state: SeaFallState | None, event: Event) -> SeaFallState:
    if event.type == "GameSetUp":
        return load_state(event.payload["state"])
    if state is None:
        raise ValueError(f"event {event.type} before GameSetUp")
    handler = HANDLERS.get(event.type)
    if handler is None:
        raise ValueError(f"unknown SeaFall event {event.type!r}")
    new = state.clone()
    handler(new, event.payload)
    return new


def _endeavor(state: SeaFallState) -> Endeavor:
    if state.endeavor is None:
        raise ValueError("no endeavor in progress")
    return state.endeavor


# -- turn ---------------------------------------------------------------------------------


@handles("TurnStarted")
def _turn_started(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.turn = Turn(player=p["player"])


@handles("TurnEnded")
def _turn_ended(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.turn = None
    state.turns_taken.append(p["player"])


@handles("AdvisorHired")
def _advisor_hired(state: SeaFallState, p: Mapping[str, Any]) -> None:
    prov = state.provinces[p["player"]]
    prov.gold -= p["gold"]
    prov.reputation -= p["reputation"]
    state.forum.remove(p["advisor"])
    prov.council.append(Advisor(p["advisor"]))
    if state.turn is not None:
        state.turn.hired = True


@handles("TreasureBought")
def _treasure_bought(state: SeaFallState, p: Mapping[str, Any]) -> None:
    prov = state.provinces[p["player"]]
    prov.gold -= p["gold"]
    card = next(c for c in state.treasures if c.name == p["treasure"])
    state.treasures.remove(card)
    prov.treasures.append(card)
    if state.turn is not None:
        state.turn.hired = True
        state.turn.bought_treasure = True


@handles("MilestoneClaimed")
def _milestone_claimed(state: SeaFallState, p: Mapping[str, Any]) -> None:
    milestone = next(m for m in state.milestones if m.name == p["milestone"])
    milestone.claimed_by = p["player"]
    for event in p["events"]:
        if event in state.bagged_events:
            state.bagged_events.remove(event)
        state.event_deck.append(event)
    if state.turn is not None:
        state.turn.milestone_claimed = True


@handles("ReputationGiven")
def _reputation_given(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.provinces[p["player"]].reputation -= 1
    state.provinces[p["to"]].reputation += 1
    if state.turn is not None:
        state.turn.borrowed.append(p["region"])


# -- the year -----------------------------------------------------------------------------


@handles("WinterBegan")
def _winter_began(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.year = p["year"]
    state.round = 0
    state.phase = "forum"
    state.turn = None
    state.turns_taken = []
    state.events_below = []  # step 1: the event deck is shuffled
    state.plundered_sites = []  # a new year: built on again


@handles("AstrolabeGiven")
def _astrolabe_given(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.astrolabe = p["player"]


@handles("ForumDismissed")
def _forum_dismissed(state: SeaFallState, p: Mapping[str, Any]) -> None:
    for name in p["advisors"]:
        state.forum.remove(name)
        state.advisor_deck.append(name)  # to the bottom of the deck
    state.advisors_below.append(list(p["advisors"]))


@handles("AdvisorDealt")
def _advisor_dealt(state: SeaFallState, p: Mapping[str, Any]) -> None:
    drawn(state.advisor_deck, state.advisors_below, p["advisor"])
    state.advisor_deck.remove(p["advisor"])
    state.forum.append(p["advisor"])


@handles("FieldsHarvested")
def _fields_harvested(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.provinces[p["player"]].gold += p["gold"]
    fallow = p.get("fallow", [])
    state.fallow_fields = [f for f in state.fallow_fields if f not in fallow]


@handles("EnmityMoved")
def _enmity_moved(state: SeaFallState, p: Mapping[str, Any]) -> None:
    site = state.sites[p["site"]]
    owner, count = p["owner"], p["count"]
    site.enmity[owner] -= count
    if not site.enmity[owner]:
        del site.enmity[owner]
    region = state.regions[site.region]
    if p["to"] == "at_war":
        holder = state.provinces[region.owner or ""]
        holder.at_war_with[owner] = holder.at_war_with.get(owner, 0) + count
    else:
        region.garrison_enmity[owner] = region.garrison_enmity.get(owner, 0) + count


@handles("GoodsProduced")
def _goods_produced(state: SeaFallState, p: Mapping[str, Any]) -> None:
    for site_id in p["sites"]:
        site = state.sites[site_id]
        state.supply.goods[site.colour or ""] -= 1
        site.good_present = True


@handles("Refreshed")
def _refreshed(state: SeaFallState, p: Mapping[str, Any]) -> None:
    for prov in state.provinces.values():
        for adv in prov.council:
            adv.exhausted = False
    supply = state.supply
    for name, count in supply.exhausted_upgrades.items():
        supply.upgrades[name] = supply.upgrades.get(name, 0) + count
    for name, count in supply.exhausted_structures.items():
        supply.structures[name] = supply.structures.get(name, 0) + count
    supply.exhausted_upgrades = {}
    supply.exhausted_structures = {}


@handles("WinterEnded")
def _winter_ended(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.first_winter = False


@handles("RoundBegan")
def _round_began(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.round = p["round"]
    state.phase = p["phase"]
    state.turns_taken = []


@handles("EventRevealed")
def _event_revealed(state: SeaFallState, p: Mapping[str, Any]) -> None:
    drawn(state.event_deck, state.events_below, p["event"])
    state.event_deck.remove(p["event"])
    state.event = p["event"]
    state.phase = "turns"


@handles("EventDismissed")
def _event_dismissed(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.event_deck.append(p["event"])
    state.events_below.append([p["event"]])
    state.event = None


@handles("GameEnded")
def _game_ended(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.game_over = True
    state.winner = p["winner"]
    state.phase = "over"
    state.turn = None


@handles("AdvisorActivated")
def _advisor_activated(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.provinces[p["player"]].active_advisor = p["advisor"]


@handles("AdvisorExhausted")
def _advisor_exhausted(state: SeaFallState, p: Mapping[str, Any]) -> None:
    prov = state.provinces[p["player"]]
    for adv in prov.council:
        if adv.name == p["advisor"]:
            adv.exhausted = True
    if prov.active_advisor == p["advisor"]:
        prov.active_advisor = None


@handles("ActionTaken")
def _action_taken(state: SeaFallState, p: Mapping[str, Any]) -> None:
    assert state.turn is not None
    state.turn.actions.append(p["action"])


@handles("GuildHired")
def _guild_hired(state: SeaFallState, p: Mapping[str, Any]) -> None:
    assert state.turn is not None
    state.turn.guild = p["guild"]


# -- the endeavor -------------------------------------------------------------------------


@handles("EndeavorStarted")
def _endeavor_started(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.endeavors = p["number"]
    if state.turn is not None:
        state.turn.actions.append(p["kind"])
    state.endeavor = Endeavor(
        number=p["number"], kind=p["kind"], player=p["player"], region=p["region"],
        site=p["site"], target=p["target"], flagship=p["flagship"], support=p["support"],
        defense=p["defense"], dangerous=p["dangerous"],
        pool=[PoolLine(line["reason"], line["dice"]) for line in p["pool"]],
        dice=p["dice"], research=list(p["research"]), fortune_allowed=p["fortune_allowed"],
        reroll_kinds=list(p["reroll_kinds"]), face_values=dict(p["face_values"]),
        bonus=p["bonus"], strong_reduces_damage=p["strong_reduces_damage"],
        support_damage_left=p["support_takes_damage"],
    )


@handles("DiceRolled")
def _dice_rolled(state: SeaFallState, p: Mapping[str, Any]) -> None:
    _endeavor(state).faces.extend(p["faces"])


@handles("RerollRequired")
def _reroll_required(state: SeaFallState, p: Mapping[str, Any]) -> None:
    end = _endeavor(state)
    end.reroll = list(p["indices"])
    end.stage = "reroll"


@handles("DiceRerolled")
def _dice_rerolled(state: SeaFallState, p: Mapping[str, Any]) -> None:
    end = _endeavor(state)
    for index, face in zip(p["indices"], p["faces"], strict=True):
        end.faces[index] = face
    end.reroll = []
    end.rerolled = True


@handles("FortuneOffered")
def _fortune_offered(state: SeaFallState, p: Mapping[str, Any]) -> None:
    end = _endeavor(state)
    end.fortune_offered = p["maximum"]
    end.stage = "fortune"


@handles("FortuneSpent")
def _fortune_spent(state: SeaFallState, p: Mapping[str, Any]) -> None:
    end = _endeavor(state)
    state.provinces[p["player"]].fortune -= p["amount"]
    end.fortune_spent = p["amount"]
    end.fortune_offered = 0


@handles("SuccessesCounted")
def _successes_counted(state: SeaFallState, p: Mapping[str, Any]) -> None:
    end = _endeavor(state)
    end.rolled_successes = p["rolled"]
    end.successes = p["successes"]
    end.damage_due = p["damage"]
    end.stage = "damage"


@handles("UpgradeExhausted")
def _upgrade_exhausted(state: SeaFallState, p: Mapping[str, Any]) -> None:
    ship = state.ships[p["ship"]]
    for up in ship.upgrades:
        if up.name == p["upgrade"] and not up.exhausted:
            up.exhausted = True
            break
    _damage_point(state, p)


@handles("DamageCardDrawn")
def _damage_card_drawn(state: SeaFallState, p: Mapping[str, Any]) -> None:
    effects = list(parse_effects(p.get("effects"), f"damage card {p['card']}"))
    state.ships[p["ship"]].damage.append(DamageCard(p["card"], effects))
    _damage_point(state, p)


def _damage_point(state: SeaFallState, p: Mapping[str, Any]) -> None:
    end = state.endeavor
    if end is None or p.get("reason") != "endeavor":
        return
    end.damage_due -= 1
    if p["ship"] != end.flagship:
        end.support_damage_left -= 1


@handles("GoodsReturned")
def _goods_returned(state: SeaFallState, p: Mapping[str, Any]) -> None:
    ship = state.ships[p["ship"]]
    for good in p["goods"]:
        ship.goods.remove(good)
        state.supply.goods[good] = state.supply.goods.get(good, 0) + 1
    turn = state.turn
    if turn is not None and turn.hold_over == ship.id and not excess_goods(state, ship):
        turn.hold_over = None


@handles("ShipSank")
def _ship_sank(state: SeaFallState, p: Mapping[str, Any]) -> None:
    ship = state.ships[p["ship"]]
    exhausted = state.supply.exhausted_upgrades
    for up in ship.upgrades:
        exhausted[up.name] = exhausted.get(up.name, 0) + 1
    for good in ship.goods:
        state.supply.goods[good] = state.supply.goods.get(good, 0) + 1
    ship.upgrades = []
    ship.goods = []
    ship.damage = []
    ship.sunk = True
    ship.location = None
    end = state.endeavor
    if end is None or p.get("reason") != "endeavor":
        return
    if end.flagship == ship.id:
        end.sank = True
        end.damage_due = 0
    else:  # a support ship that took a point of damage for the flagship
        end.damage_due -= 1
        end.support_damage_left -= 1


@handles("HoldOverloaded")
def _hold_overloaded(state: SeaFallState, p: Mapping[str, Any]) -> None:
    end = state.endeavor
    if end is not None and end.stage in ("damage", "hold"):  # a hold damaged in an endeavor
        end.stage = "hold"
    elif state.turn is not None:  # an upgrade returned (the action, or a docks plunder)
        state.turn.hold_over = p["ship"]


@handles("GloryChanged")
def _glory_changed(state: SeaFallState, p: Mapping[str, Any]) -> None:
    prov = state.provinces[p["player"]]
    prov.glory = max(0, prov.glory + p["amount"])


@handles("EndeavorFailed")
def _endeavor_failed(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.endeavor = None


@handles("EndeavorSucceeded")
def _endeavor_succeeded(state: SeaFallState, p: Mapping[str, Any]) -> None:
    _endeavor(state).stage = "plunder"


@handles("EndeavorEnded")
def _endeavor_ended(state: SeaFallState, p: Mapping[str, Any]) -> None:
    end = _endeavor(state)
    prov = state.provinces[end.player]
    prov.research = [c for c in prov.research if c.name not in end.research]
    state.endeavor = None


@handles("SiteExplored")
def _site_explored(state: SeaFallState, p: Mapping[str, Any]) -> None:
    site = state.sites[p["site"]]
    site.kind = "explored"
    site.symbol = None


@handles("SiteRecorded")
def _site_recorded(state: SeaFallState, p: Mapping[str, Any]) -> None:
    site = state.sites[p["site"]]
    site.kind = p["kind"]
    site.colour = p.get("colour")
    site.value = p.get("value")
    site.good_present = bool(p.get("good_present", False))


# -- plunder ------------------------------------------------------------------------------


@handles("PlunderChosen")
def _plunder_chosen(state: SeaFallState, p: Mapping[str, Any]) -> None:
    end = _endeavor(state)
    end.plunder_site = p["site"]
    end.picks_left = p.get("picks", 0)
    end.plunder_step = p.get("step")
    if state.sites[p["site"]].kind == "field":
        # "Plunder" > "Field": no gold at the next winter's harvest, and (our reading) not
        # plundered again this year even when the enmity owed went back home instead
        state.plundered_sites.append(p["site"])
        state.fallow_fields.append(p["site"])


@handles("PlunderSkipped")
def _plunder_skipped(state: SeaFallState, p: Mapping[str, Any]) -> None:
    _endeavor(state).plunder_step = None


@handles("PlunderStepDone")
def _plunder_step_done(state: SeaFallState, p: Mapping[str, Any]) -> None:
    _endeavor(state).plunder_step = None


@handles("GoldTaken")
def _gold_taken(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.provinces[p["player"]].gold += p["amount"]
    if p.get("from_player"):
        state.provinces[p["from_player"]].gold -= p["amount"]


@handles("GoodsSeized")
def _goods_seized(state: SeaFallState, p: Mapping[str, Any]) -> None:
    end = _endeavor(state)
    source = p["source"]
    for good in p["goods"]:
        if source == "supply":
            state.supply.goods[good] -= 1
        elif source == "site":
            state.sites[p["site"]].good_present = False
        else:  # a province's warehouse
            state.provinces[source].warehouse.remove(good)
            end.picks_left -= 1
        end.goods_to_place.append(good)
    end.goods_from = source


@handles("GoodLoaded")
def _good_loaded(state: SeaFallState, p: Mapping[str, Any]) -> None:
    end = _endeavor(state)
    end.goods_to_place.remove(p["good"])
    state.ships[p["ship"]].goods.append(p["good"])


@handles("GoodLeft")
def _good_left(state: SeaFallState, p: Mapping[str, Any]) -> None:
    end = _endeavor(state)
    good = p["good"]
    end.goods_to_place.remove(good)
    # it stays where it was taken from (docs/seafall.md, "Plundered goods"); an event
    # written before it said so ("source" absent) sent it to the supply
    source = p.get("source", "supply")
    if source == "site":
        state.sites[p["site"]].good_present = True
    elif source in state.provinces:
        state.provinces[source].warehouse.append(good)
    else:
        state.supply.goods[good] = state.supply.goods.get(good, 0) + 1


@handles("UpgradeSeized")
def _upgrade_seized(state: SeaFallState, p: Mapping[str, Any]) -> None:
    ship = state.ships[p["ship"]]
    if p.get("replaced"):
        ship.upgrades = [u for u in ship.upgrades if u.name != p["replaced"]]
        name = p["replaced"]
        state.supply.exhausted_upgrades[name] = state.supply.exhausted_upgrades.get(name, 0) + 1
    state.supply.upgrades[p["upgrade"]] -= 1
    ship.upgrades.append(ShipUpgrade(p["upgrade"]))


@handles("StructureRaided")
def _structure_raided(state: SeaFallState, p: Mapping[str, Any]) -> None:
    site = state.sites[p["site"]]
    name = p["structure"]
    site.structure = None
    site.plunder_value = None
    state.supply.exhausted_structures[name] = state.supply.exhausted_structures.get(name, 0) + 1
    state.plundered_sites.append(site.id)  # "Plunder" > "Structure": not built on this year


@handles("AdvisorSeized")
def _advisor_seized(state: SeaFallState, p: Mapping[str, Any]) -> None:
    victim = state.provinces[p["from_player"]]
    victim.council = [a for a in victim.council if a.name != p["advisor"]]
    if victim.active_advisor == p["advisor"]:
        victim.active_advisor = None
    if p["keep"]:
        state.provinces[p["player"]].council.append(Advisor(p["advisor"]))
    else:  # dismissed: to the bottom of the advisor deck ("Terminology" > "Dismiss")
        state.advisor_deck.append(p["advisor"])
        state.advisors_below.append([p["advisor"]])


@handles("CardSeized")
def _card_seized(state: SeaFallState, p: Mapping[str, Any]) -> None:
    victim = state.provinces[p["from_player"]]
    pile = p["pile"]
    cards: list[Card] = getattr(victim, pile)
    card = next(c for c in cards if c.name == p["card"])
    cards.remove(card)
    getattr(state.provinces[p["player"]], pile).append(card)


@handles("EnmityReturned")
def _enmity_returned(state: SeaFallState, p: Mapping[str, Any]) -> None:
    holder = state.provinces[p["holder"]]
    holder.at_war_with[p["owner"]] -= p["count"]
    if not holder.at_war_with[p["owner"]]:
        del holder.at_war_with[p["owner"]]
    state.provinces[p["owner"]].home_enmity += p["count"]


@handles("EnmityPlaced")
def _enmity_placed(state: SeaFallState, p: Mapping[str, Any]) -> None:
    site = state.sites[p["site"]]
    site.enmity[p["player"]] = site.enmity.get(p["player"], 0) + p["count"]
    state.provinces[p["player"]].home_enmity -= p["count"]
