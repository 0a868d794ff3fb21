"""Explore and raid endeavors from the dice pool to the damage (rulebook, "Endeavors and
Damage", "Explorers Guild" > "Explore", "Soldiers Guild" > "Raid", "Tokens and Enmity").

The flow of an endeavor, each step an event:

1. ``explore``/``raid``: site and flagship chosen, pool built -> ``EndeavorStarted``.
2. ``roll``: the dice read (from the camera, a photo or typed) -> ``DiceRolled``. A pool
   larger than the dice in the box may be read in several parts.
3. Powers that re-roll faces ask for the re-rolled dice -> ``RerollRequired``,
   ``DiceRerolled`` (each such die is re-rolled once and keeps its new face).
4. Fortune, if any may be spent here -> ``FortuneOffered``, ``FortuneSpent``.
5. ``SuccessesCounted``: damage = defense - successes (never below 0).
6. Each point of damage, the player's choice -> ``UpgradeExhausted`` or
   ``DamageCardDrawn``; a third damage card sinks the ship -> ``ShipSank``.
7. No success or a sunk flagship: ``EndeavorFailed`` and the turn ends. Otherwise
   ``EndeavorSucceeded``, +1 glory, then the site is explored or plundered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.dice import SEAFALL, DiceRead
from companion.engine import Command, Event
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall import plunder
from companion.games.seafall.args import find_ship, flag, names, only, require_player, text, whole
from companion.games.seafall.effects import parse_effects
from companion.games.seafall.emitter import Emitter
from companion.games.seafall.enmity import can_pay_enmity
from companion.games.seafall.pool import PoolPlan, build_pool
from companion.games.seafall.ships import MAX_DAMAGE_CARDS, lighten_hold, ship_value
from companion.games.seafall.sitenames import site_called
from companion.games.seafall.state import Endeavor, SeaFallState, Ship
from companion.games.seafall.turn import check_action, current_turn, finish_turn, no_endeavor
from companion.prompts import Option, OptionInput

DIE = SEAFALL


def _start(em: Emitter, kind: str, player: str, flagship: Ship, region: str,
           site: str | None, target: str | None, defense: int, dangerous: bool,
           plan: PoolPlan, research: list[str]) -> None:
    em("EndeavorStarted", number=em.state.endeavors + 1, kind=kind, player=player,
       region=region, site=site, target=target, flagship=flagship.id, support=plan.support,
       defense=defense, dangerous=dangerous,
       pool=[{"reason": line.reason, "dice": line.dice} for line in plan.lines],
       dice=plan.dice, research=research, fortune_allowed=plan.fortune_allowed,
       reroll_kinds=plan.reroll_kinds, face_values=plan.face_values, bonus=plan.bonus,
       strong_reduces_damage=plan.strong_reduces_damage,
       support_takes_damage=plan.support_takes_damage)
    if plan.dice == 0:  # nothing to roll: the endeavor resolves at once
        em("DiceRolled", faces=[], source="empty pool")
        advance(em)


def _flagship(state: SeaFallState, player: str, args: dict, cmd: Command) -> Ship:
    ship = find_ship(state, player, text(args, "flagship", cmd.type) or "")
    if ship.sunk or ship.location is None:
        raise IllegalCommand(f"{ship.name} has sunk and must be rebuilt before it can sail")
    return ship


def explore(state: SeaFallState, cmd: Command) -> list[Event]:
    args = dict(only(cmd, "flagship", "site", "support", "research"))
    turn = current_turn(state)
    player = turn.player
    require_player(state, cmd, player, "exploring")
    no_endeavor(state)
    check_action(state, "explore")
    flagship = _flagship(state, player, args, cmd)
    site_id = text(args, "site", cmd.type) or ""
    site = state.sites.get(site_id)
    if site is None:
        raise InvalidCommand(f"there is no site {site_id!r}")
    region = state.regions[site.region]
    if region.kind != "island":
        raise IllegalCommand("only sites on islands are explored")
    if flagship.location != site.region:
        raise IllegalCommand(f"{flagship.name} is not at {region.name}")
    if site.kind != "unexplored":
        raise IllegalCommand(f"{site_called(state, site.id)} is already explored")
    prov = state.provinces[player]
    research = names(args, "research", cmd.type)
    cards = []
    for name in research:
        card = next((c for c in prov.research if c.name == name), None)
        if card is None:
            raise IllegalCommand(f"{prov.player} has no research card {name!r}")
        cards.append(card)
    plan = build_pool(state, player, "explore", flagship, site.region, site, None,
                      site.dangerous, flag(args, "support", cmd.type), cards)
    em = Emitter(state)
    _start(em, "explore", player, flagship, site.region, site.id, None, site.defense or 0,
           site.dangerous, plan, research)
    return em.events


def raid(state: SeaFallState, cmd: Command) -> list[Event]:
    args = dict(only(cmd, "flagship", "site", "province", "support"))
    turn = current_turn(state)
    player = turn.player
    require_player(state, cmd, player, "raiding")
    no_endeavor(state)
    check_action(state, "raid")
    flagship = _flagship(state, player, args, cmd)
    prov = state.provinces[player]
    site_id = text(args, "site", cmd.type, required=False)
    target = text(args, "province", cmd.type, required=False)
    if (site_id is None) == (target is None):
        raise InvalidCommand("'raid' needs either 'site' (an island site) or 'province'")
    em = Emitter(state)
    if target is not None:
        if target not in state.provinces:
            raise InvalidCommand(f"there is no province {target!r} in this game")
        if target == player:
            raise IllegalCommand(f"{prov.player} cannot raid their own province")
        if state.prologue:
            raise IllegalCommand("provinces cannot be raided in the prologue")
        if flagship.location != target:
            raise IllegalCommand(f"{flagship.name} is not in "
                                 f"{state.provinces[target].player}'s home harbor")
        plunder.check_province_raid(state, player, target)
        region = state.regions[target]
        plan = build_pool(state, player, "raid", flagship, target, None, target,
                          region.dangerous, flag(args, "support", cmd.type))
        _start(em, "raid", player, flagship, target, None, target, region.defense or 0,
               region.dangerous, plan, [])
        return em.events
    site = state.sites.get(site_id or "")
    if site is None:
        raise InvalidCommand(f"there is no site {site_id!r}")
    region = state.regions[site.region]
    if region.kind == "province":
        raise InvalidCommand("to raid a province, name it with 'province' (you choose the "
                             "site to plunder after the roll)")
    if flagship.location != site.region:
        raise IllegalCommand(f"{flagship.name} is not at {region.name}")
    plunder.check_island_site(state, site)
    if not can_pay_enmity(state, player, 1, None):
        raise IllegalCommand(f"{prov.player} has no enmity token left to place on "
                             f"{site_called(state, site.id)}; a raid needs one")
    plan = build_pool(state, player, "raid", flagship, site.region, site, None, site.dangerous,
                      flag(args, "support", cmd.type))
    _start(em, "raid", player, flagship, site.region, site.id, None, site.defense or 0,
           site.dangerous, plan, [])
    return em.events


def _current(state: SeaFallState, cmd: Command, *stages: str) -> Endeavor:
    end = state.endeavor
    if end is None:
        raise IllegalCommand("no endeavor is waiting for that")
    # whose endeavor, named by their player as the history names them ("Ann's explore")
    require_player(state, cmd, end.player,
                   f"answering {state.provinces[end.player].player}'s {end.kind}")
    if end.stage not in stages:
        raise IllegalCommand(f"the {end.kind} is waiting for {_waiting_for(end)}, not {cmd.type}")
    return end


def _waiting_for(end: Endeavor) -> str:
    return {
        "roll": f"{end.dice - len(end.faces)} dice to be rolled",
        "reroll": f"{len(end.reroll)} dice to be re-rolled",
        "fortune": "a decision on fortune",
        "damage": "damage to be assigned",
        "hold": "goods to be returned",
        "plunder": "plunder to be chosen",
    }.get(end.stage, end.stage)


def roll(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "faces", "die", "source", "confidence", "read_id", "image")
    end = _current(state, cmd, "roll", "reroll")
    read = DiceRead.from_json(dict(args), default_die=DIE.name).validate(DIE)
    meta = {k: v for k, v in read.to_json().items() if k not in ("die", "faces")}
    em = Emitter(state)
    if end.stage == "reroll":
        if len(read.faces) != len(end.reroll):
            need = len(end.reroll)
            raise InvalidCommand(f"the re-roll needs exactly {need} "
                                 f"{'die' if need == 1 else 'dice'}, got {len(read.faces)}")
        em("DiceRerolled", indices=list(end.reroll), faces=list(read.faces), **meta)
    else:
        left = end.dice - len(end.faces)
        if not read.faces:
            raise InvalidCommand("a roll needs at least one face")
        if len(read.faces) > left:
            raise InvalidCommand(f"the pool has {left} {'die' if left == 1 else 'dice'} left "
                                 f"to roll, got {len(read.faces)}")
        em("DiceRolled", faces=list(read.faces), **meta)
    advance(em)
    return em.events


def spend_fortune(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "amount")
    amount = whole(args, "amount", cmd.type)
    end = _current(state, cmd, "fortune")
    if amount > end.fortune_offered:
        raise IllegalCommand(f"at most {end.fortune_offered} fortune can be spent on this roll")
    em = Emitter(state)
    em("FortuneSpent", player=end.player, amount=amount)
    advance(em)
    return em.events


DAMAGE_CARD_MAX = 60  # characters: a card's title
UNNAMED_CARD = "damage"  # a damage card the table did not name
DAMAGE_CARD_INPUTS = (
    OptionInput("card", "the damage card's name", "text", UNNAMED_CARD, 1, DAMAGE_CARD_MAX),
    OptionInput("effects", "its powers", "effects"))


def damage_options(state: SeaFallState) -> list[Option]:
    """Each legal way to take the next point of damage. Drawing a card asks for its name and
    powers (``inputs``), unless the ship sinks instead."""
    end = state.endeavor
    assert end is not None
    ships = [state.ships[end.flagship]]
    if end.support and end.support_damage_left > 0 and not state.ships[end.support].sunk:
        ships.append(state.ships[end.support])
    out = []
    for ship in ships:
        seen = set()
        for up in ship.upgrades:
            if not up.exhausted and up.name not in seen:
                seen.add(up.name)
                out.append(Option(f"exhaust:{ship.id}:{up.name}",
                                  f"exhaust {up.name} on {ship.name}"))
        card = f"card:{ship.id}"
        if len(ship.damage) >= MAX_DAMAGE_CARDS:
            out.append(Option(card, f"draw a damage card for {ship.name} (it sinks)"))
        else:
            out.append(Option(card, f"draw a damage card for {ship.name}", DAMAGE_CARD_INPUTS))
    return out


def damage_card(args: Mapping[str, Any], state: SeaFallState) -> tuple[str, list[Any]]:
    """The damage card drawn, as ``args`` name it: its name (``UNNAMED_CARD`` when not named)
    and its powers (when not given, those of the card the setup knows by that name)."""
    card = UNNAMED_CARD if args.get("card") is None else args["card"]
    card = card.strip() if isinstance(card, str) else ""
    if not card:
        raise InvalidCommand("'card' is the name of the damage card drawn")
    if len(card) > DAMAGE_CARD_MAX:
        raise InvalidCommand(f"a damage card's name has at most {DAMAGE_CARD_MAX} characters")
    effects = args.get("effects")
    if effects is None:
        return card, [e.to_json() for e in state.damage_cards.get(card, [])]
    if not isinstance(effects, list):
        raise InvalidCommand("'effects' is a list of effects")
    try:
        parse_effects(effects, f"damage card {card}")
    except ValueError as exc:
        raise InvalidCommand(str(exc)) from None
    return card, effects


def assign_damage(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "choice", "card", "effects")
    choice = text(args, "choice", cmd.type) or ""
    _current(state, cmd, "damage")
    legal = [o.value for o in damage_options(state)]
    if choice not in legal:
        raise IllegalCommand(f"{choice!r} is not a way to take this damage; "
                             f"choose one of: {', '.join(legal)}")
    how, ship_id, *rest = choice.split(":")
    ship = state.ships[ship_id]
    em = Emitter(state)
    if how == "exhaust":
        if args.get("card") is not None or args.get("effects") is not None:
            raise InvalidCommand("'card' and 'effects' go with drawing a damage card")
        em("UpgradeExhausted", ship=ship.id, upgrade=rest[0], reason="endeavor")
    elif len(ship.damage) >= MAX_DAMAGE_CARDS:
        sink(em, ship, reason="endeavor")
    else:
        card, effects = damage_card(args, state)
        em("DamageCardDrawn", ship=ship.id, card=card, effects=effects, reason="endeavor")
    advance(em)
    return em.events


def sink(em: Emitter, ship: Ship, reason: str) -> None:
    """A ship sinks: upgrades back exhausted, 1 glory lost for each, goods lost."""
    ups = [u.name for u in ship.upgrades]
    em("ShipSank", ship=ship.id, upgrades=ups, goods=list(ship.goods), reason=reason)
    lost = min(len(ups), em.state.provinces[ship.owner].glory)  # glory never goes below 0
    if lost:
        em("GloryChanged", player=ship.owner, amount=-lost,
           reason=f"{len(ups)} upgrade(s) returned when {ship.name} sank")


def return_good(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "choice")
    choice = text(args, "choice", cmd.type) or ""
    if state.turn is not None and state.turn.hold_over is not None:
        return _return_after_upgrade(state, cmd, choice)
    _current(state, cmd, "hold")
    ship = _overloaded(state)
    assert ship is not None
    if choice not in ship.goods:
        raise IllegalCommand(f"{ship.name} carries no {choice}")
    em = Emitter(state)
    em("GoodsReturned", ship=ship.id, goods=[choice], reason="hold damaged")
    advance(em)
    return em.events


def _return_after_upgrade(state: SeaFallState, cmd: Command, choice: str) -> list[Event]:
    """A good returned from a ship whose hold an upgrade returned left over its value (the
    upgrade action, or a docks plunder): as for a damaged hold, the player's choice; the
    rest goes at once when the goods left over are all alike; a plunder then goes on."""
    assert state.turn is not None and state.turn.hold_over is not None
    ship = state.ships[state.turn.hold_over]
    require_player(state, cmd, ship.owner,
                   f"returning {state.provinces[ship.owner].player}'s goods")
    if choice not in ship.goods:
        raise IllegalCommand(f"{ship.name} carries no {choice}")
    reason = "hold over its value"
    em = Emitter(state)
    em("GoodsReturned", ship=ship.id, goods=[choice], reason=reason)
    lighten_hold(em, ship.id, reason)
    plunder.advance(em)
    return em.events


def _overloaded(state: SeaFallState) -> Ship | None:
    end = state.endeavor
    assert end is not None
    for ship_id in (end.flagship, end.support):
        if ship_id is None:
            continue
        ship = state.ships[ship_id]
        if not ship.sunk and len(ship.goods) > ship_value(state, ship, "hold"):
            return ship
    return None


def count_successes(end: Endeavor) -> tuple[int, int]:
    """(rolled successes, strong faces) of the dice as they lie, with face-value powers."""
    rolled = 0
    strong = 0
    for label in end.faces:
        face = DIE.face(label)
        rolled += end.face_values.get(face.kind, face.value)
        strong += face.kind == "strong"
    return rolled, strong


def advance(em: Emitter) -> None:
    """Take the endeavor as far as it goes without a player's decision."""
    end = em.state.endeavor
    if end is None:
        return
    if end.stage == "roll" and len(end.faces) < end.dice:
        return  # more dice to read
    if end.stage in ("roll", "reroll"):
        if end.reroll:
            return
        if end.reroll_kinds and not end.rerolled:
            indices = [i for i, f in enumerate(end.faces) if DIE.face(f).kind in end.reroll_kinds]
            if indices:
                em("RerollRequired", indices=indices, kinds=end.reroll_kinds)
                return
        blanks = sum(1 for f in end.faces if DIE.face(f).kind == "blank")
        tokens = em.state.provinces[end.player].fortune
        allowed = tokens if end.fortune_allowed is None else min(tokens, end.fortune_allowed)
        usable = min(blanks, allowed, _worth_spending(em.state, end))
        if usable > 0:
            em("FortuneOffered", maximum=usable)
            return
        _count(em)
    elif end.stage == "fortune":
        if end.fortune_offered:
            return
        _count(em)
    _after_damage(em)


def _worth_spending(state: SeaFallState, end: Endeavor) -> int:
    """How many fortune tokens could still change the outcome: enough to reach the defense
    (at least one success), or, raiding a province, the richest plunder value there."""
    rolled, _ = count_successes(end)
    current = rolled + (end.bonus if rolled > 0 else 0)
    target = max(end.defense, 1)
    if end.target is not None:
        values = [s.plunder_value or 0 for s in state.region_sites(end.target)]
        target = max([target, *values])
    return max(0, target - current)


def _count(em: Emitter) -> None:
    end = em.state.endeavor
    assert end is not None
    rolled, strong = count_successes(end)
    bonus = end.bonus if rolled > 0 else 0
    successes = rolled + end.fortune_spent + bonus
    reduced = strong if end.strong_reduces_damage else 0
    damage = max(0, end.defense - successes - reduced)
    em("SuccessesCounted", rolled=rolled, fortune=end.fortune_spent, bonus=bonus,
       successes=successes, defense=end.defense, strong_reduction=reduced, damage=damage)


def _after_damage(em: Emitter) -> None:
    end = em.state.endeavor
    if end is None or end.stage not in ("damage", "hold"):
        return
    if end.damage_due > 0 and not end.sank:
        return  # the player assigns each point
    if _overloaded(em.state) is not None:
        ship = _overloaded(em.state)
        assert ship is not None
        if len(set(ship.goods)) == 1:  # no choice to make: all goods alike
            excess = len(ship.goods) - ship_value(em.state, ship, "hold")
            em("GoodsReturned", ship=ship.id, goods=ship.goods[:excess], reason="hold damaged")
        else:
            if end.stage != "hold":
                em("HoldOverloaded", ship=ship.id)
            return
    player = end.player
    if end.sank or end.successes == 0:
        em("EndeavorFailed", reason="the flagship sank" if end.sank else "no success rolled")
        finish_turn(em, player)
        return
    em("EndeavorSucceeded", successes=end.successes)
    em("GloryChanged", player=player, amount=1, reason=f"successful {end.kind}")
    if end.kind == "explore":
        em("SiteExplored", site=end.site)
        em("EndeavorEnded")
    else:
        plunder.begin(em)

