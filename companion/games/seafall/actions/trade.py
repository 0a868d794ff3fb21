"""The Merchants' buy and sell goods actions (rulebook, "Merchants Guild" > "Buy Goods",
"Sell Goods"; "Tokens and Enmity" > "Enmity and Costs on an Island").

Commands::

    {"type": "buy", "goods": [{"site": "isle-a/1", "ship": "blue-1"}],
     "return": [{"ship": "blue-1", "good": "wood"}]}
    {"type": "sell", "goods": [{"good": "iron", "from": "warehouse"},
                               {"good": "wood", "from": "red-1"}]}

* Buy: each purchase takes the good cube on an island site into the hold of one of the
  buyer's ships at that island (``ship`` may be left out when only one is there). Price 3
  gold plus 1 per enmity of the buyer at the island. Up to 2 + the active advisor's Buy
  expertise. ``return`` sends goods from the buyer's ships to the supply first, for room.
* Sell: 6 gold a good, from the warehouse (your province's all-colour market) or from a
  ship at a region whose market takes that colour. Up to 2 + Sell expertise. A structure
  with ``sell_bonus`` (Marketplace) adds its amount per good sold in its region.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine import Command, Event
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.actions.places import (
    WAREHOUSE,
    action_taken,
    afloat,
    at_region,
    good_colour,
    market,
    may_use,
    start_action,
    structure_effects,
)
from companion.games.seafall.advisors import active_expertise
from companion.games.seafall.args import only
from companion.games.seafall.enmity import enmity_in_region
from companion.games.seafall.powers import standing_amount
from companion.games.seafall.ships import ship_value
from companion.games.seafall.sitenames import site_called
from companion.games.seafall.state import SeaFallState, Ship

BUY_PRICE = 3  # gold a good, plus 1 per enmity at the island
SELL_PRICE = 6
GOODS_PER_ACTION = 2  # before the advisor's Buy/Sell expertise


def _entries(raw: Any, key: str, fields: set[str], required: set[str]) -> list[Mapping]:
    if not isinstance(raw, list) or not all(
        isinstance(e, Mapping) and required <= set(e) <= fields for e in raw
    ):
        raise InvalidCommand(f"'{key}' is a list of {{{', '.join(sorted(fields))}}}")
    return list(raw)


def island_price(state: SeaFallState, player: str, region_id: str) -> int:
    """3 gold, 1 more per enmity of the buyer there, and any ``buy_price`` power (an event
    making goods cheaper this round), never below 0."""
    return max(0, BUY_PRICE + enmity_in_region(state, player, region_id)
               + standing_amount(state, player, "buy_price"))


def _buyer_ship(state: SeaFallState, player: str, ref: Any, region_id: str) -> Ship:
    if ref is not None:
        if not isinstance(ref, str) or not ref:
            raise InvalidCommand("'ship' names one of your ships")
        ship = afloat(state, player, ref)
        if ship.location != region_id:
            raise IllegalCommand(f"{ship.name} is not at {state.regions[region_id].name}")
        return ship
    there = state.ships_at(region_id, player)
    if not there:
        raise IllegalCommand(f"{state.provinces[player].player} has no ship at "
                             f"{state.regions[region_id].name} to buy there")
    if len(there) > 1:
        raise InvalidCommand("two of your ships are there: name the 'ship' that takes it")
    return there[0]


def buy(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "goods", "return")
    player = start_action(state, cmd, "buy", "buying goods")
    prov = state.provinces[player]
    wanted = _entries(args.get("goods"), "goods", {"site", "ship"}, {"site"})
    if not wanted:
        raise InvalidCommand("'buy' needs at least one good in 'goods'")
    limit = GOODS_PER_ACTION + active_expertise(state, player, "buy")
    if len(wanted) > limit:
        raise IllegalCommand(f"{prov.player} may buy {limit} goods with this action, not "
                             f"{len(wanted)}")
    returns = _entries(args.get("return", []), "return", {"ship", "good"}, {"ship", "good"})
    em = action_taken(state, player, "buy")
    by_ship: dict[str, list[str]] = {}
    for item in returns:
        ship = afloat(state, player, str(item["ship"]))
        by_ship.setdefault(ship.id, []).append(good_colour(item["good"], "return"))
    for ship_id, goods in by_ship.items():
        held = list(state.ships[ship_id].goods)
        for good in goods:
            if good not in held:
                raise IllegalCommand(f"{state.ships[ship_id].name} carries no {good} to return")
            held.remove(good)
        em("GoodsReturned", ship=ship_id, goods=goods)
    seen: set[str] = set()
    for item in wanted:
        site = em.state.sites.get(str(item["site"]))
        if site is None:
            raise InvalidCommand(f"there is no site {item['site']!r}")
        region = em.state.regions[site.region]
        if region.kind != "island":
            raise IllegalCommand("goods are bought from island sites")
        if site.id in seen or not site.good_present or site.colour is None:
            raise IllegalCommand("there is no good cube for sale at "
                                 f"{site_called(em.state, site.id)}")
        seen.add(site.id)
        ship = _buyer_ship(em.state, player, item.get("ship"), region.id)
        if len(ship.goods) >= ship_value(em.state, ship, "hold"):
            raise IllegalCommand(f"{ship.name}'s hold is full (return a good to make room)")
        price = island_price(em.state, player, region.id)
        if em.state.provinces[player].gold < price:
            raise IllegalCommand(f"{prov.player} has {em.state.provinces[player].gold} gold; "
                                 f"the {site.colour} at {region.name} costs {price}")
        em("GoodBought", player=player, ship=ship.id, site=site.id, good=site.colour,
           price=price)
    return em.events


def sell(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "goods")
    player = start_action(state, cmd, "sell", "selling goods")
    prov = state.provinces[player]
    wanted = _entries(args.get("goods"), "goods", {"good", "from"}, {"good", "from"})
    if not wanted:
        raise InvalidCommand("'sell' needs at least one good in 'goods'")
    limit = GOODS_PER_ACTION + active_expertise(state, player, "sell")
    if len(wanted) > limit:
        raise IllegalCommand(f"{prov.player} may sell {limit} goods with this action, not "
                             f"{len(wanted)}")
    em = action_taken(state, player, "sell")
    for item in wanted:
        good = good_colour(item["good"], "sell")
        source = item["from"]
        if source == WAREHOUSE:
            region = em.state.regions[player]
            held = em.state.provinces[player].warehouse
            where = f"{prov.player}'s warehouse"
        else:
            if not isinstance(source, str) or not source:
                raise InvalidCommand("'from' is \"warehouse\" or one of your ships")
            ship = afloat(em.state, player, source)
            region = at_region(em.state, ship)
            held, where, source = ship.goods, ship.name, ship.id
        if good not in held:
            raise IllegalCommand(f"{where} holds no {good} to sell")
        if good not in market(em.state, region) or not may_use(em.state, player, region):
            raise IllegalCommand(f"no market {prov.player} may use at {region.name} buys {good}")
        bonus = sum(e.amount for e in structure_effects(em.state, player, region, "sell_bonus"))
        bonus += standing_amount(em.state, player, "sell_price")
        em("GoodSold", player=player, good=good, source=source, region=region.id,
           gold=max(0, SELL_PRICE + bonus), bonus=bonus)
    return em.events
