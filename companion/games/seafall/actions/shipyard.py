"""The Builders' repair OR upgrade action (rulebook, "Builders Guild" > "Repair",
"Upgrade"; "Tokens and Enmity" > "Reputation Tokens" for the Port).

Commands (both take the one action ``repair_or_upgrade``)::

    {"type": "repair"}
    {"type": "repair", "rebuild": []}
    {"type": "repair", "free": true}
    {"type": "upgrade", "ship": "yellow-1", "upgrade": "Swift", "good_from": "warehouse",
     "replace": "Bold"}

* Repair: every ship of the player at a region with the repair symbol (one it may use)
  refreshes its exhausted upgrades and dismisses its damage cards. Sunk ships are rebuilt
  into the home harbor; ``rebuild`` lists which (default: all of them).
* ``"free": true``: a structure with ``free_repair`` (the Port) repairs the owner's ships in
  its region without taking the action (no guild needed, any time in the owner's turn); a
  Port in one's own home harbor may rebuild sunk ships too, since they come back there.
* Upgrade: one upgrade from the supply (face up) for a ship at a dock of its colour. Price:
  cost, minus 8 when ``good_from`` names where a good of its colour in that region is spent
  ("warehouse" or a ship), minus the advisor's Upgrade expertise, never below 0; then plus
  1 per enmity of the player at an island's docks. +1 glory. A ship has at most two
  upgrades: when full, ``replace`` returns one to the supply exhausted, -1 glory.
"""

from __future__ import annotations

from companion.engine import Command, Event
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.actions.places import (
    action_taken,
    afloat,
    at_region,
    discount_good,
    discounted,
    docks,
    may_use,
    start_action,
    structure_effects,
)
from companion.games.seafall.advisors import active_expertise
from companion.games.seafall.args import find_ship, flag, names, only, require_player, text
from companion.games.seafall.emitter import Emitter
from companion.games.seafall.enmity import enmity_in_region
from companion.games.seafall.ships import MAX_UPGRADES, lighten_hold
from companion.games.seafall.state import Region, SeaFallState, Ship
from companion.games.seafall.turn import current_turn, no_endeavor

ACTION = "repair_or_upgrade"


def _repairs(em: Emitter, player: str, ships: list[Ship], free: bool) -> None:
    for ship in ships:
        refreshed = [u.name for u in ship.upgrades if u.exhausted]
        dismissed = [c.name for c in ship.damage]
        if refreshed or dismissed:
            em("ShipRepaired", player=player, ship=ship.id, refreshed=refreshed,
               dismissed=dismissed, free=free)


def _port_regions(state: SeaFallState, player: str) -> list[Region]:
    return [r for r in state.regions.values()
            if structure_effects(state, player, r, "free_repair")]


def repair(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "rebuild", "free")
    free = bool(flag(args, "free", cmd.type))
    if free:
        turn = current_turn(state)
        require_player(state, cmd, turn.player, "repairing")
        no_endeavor(state)
        player = turn.player
        ports = _port_regions(state, player)
        if not ports:
            raise IllegalCommand(f"{state.provinces[player].player} has no structure that "
                                 "repairs without the action")
        places = {r.id for r in ports}
    else:
        player = start_action(state, cmd, ACTION, "repairing")
        places = {r.id for r in state.regions.values() if r.repair and may_use(state, player, r)}
    prov = state.provinces[player]
    ships = [s for s in state.province_ships(player) if not s.sunk and s.location in places]
    sunk = [s for s in state.province_ships(player) if s.sunk]
    # a free repair rebuilds only through a Port in one's own home harbor, where ships return
    rebuild = sunk if not free or player in places else []
    if "rebuild" in args:
        rebuild = [find_ship(state, player, ref) for ref in names(args, "rebuild", cmd.type)]
        for ship in rebuild:
            if not ship.sunk:
                raise IllegalCommand(f"{ship.name} has not sunk")
            if free and player not in places:
                raise IllegalCommand(f"{ship.name} is rebuilt in its home harbor, which has no "
                                     f"Port of {prov.player}'s")
    if not rebuild and not any(s.damage or any(u.exhausted for u in s.upgrades) for s in ships):
        where = "where it may repair" if not free else "in the region of its Port"
        raise IllegalCommand(f"{prov.player} has nothing to repair: no damaged ship {where} "
                             "and no sunk ship")
    em = Emitter(state) if free else action_taken(state, player, ACTION)
    _repairs(em, player, ships, free)
    for ship in rebuild:
        em("ShipRebuilt", player=player, ship=ship.id, location=player)
    return em.events


def upgrade(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "ship", "upgrade", "good_from", "replace")
    player = start_action(state, cmd, ACTION, "upgrading a ship")
    prov = state.provinces[player]
    ship = afloat(state, player, text(args, "ship", cmd.type) or "")
    name = text(args, "upgrade", cmd.type) or ""
    kind = state.catalogue.upgrades.get(name)
    if kind is None:
        raise InvalidCommand(f"there is no upgrade {name!r}")
    if state.supply.upgrades.get(name, 0) <= 0:
        raise IllegalCommand(f"{name} is not available (exhausted or on a ship)")
    region = at_region(state, ship)
    if kind.colour not in docks(state, region) or not may_use(state, player, region):
        raise IllegalCommand(f"{region.name} has no dock {prov.player} may use for "
                             f"{kind.colour} upgrades")
    replace = text(args, "replace", cmd.type, required=False)
    if len(ship.upgrades) >= MAX_UPGRADES and replace is None:
        raise IllegalCommand(f"{ship.name} already has {MAX_UPGRADES} upgrades: name one to "
                             "'replace'")
    if replace is not None:
        if len(ship.upgrades) < MAX_UPGRADES:
            raise IllegalCommand(f"{ship.name} has room for {name}; upgrades are returned only "
                                 "to make room")
        if replace not in [u.name for u in ship.upgrades]:
            raise IllegalCommand(f"{ship.name} has no upgrade {replace}")
    source = discount_good(state, player, args.get("good_from"), kind.colour, region, name)
    price = discounted(kind.cost, source is not None,
                       active_expertise(state, player, "upgrade"))
    if region.kind == "island":
        price += enmity_in_region(state, player, region.id)
    if prov.gold < price:
        raise IllegalCommand(f"{prov.player} has {prov.gold} gold; {name} costs {price} here")
    em = action_taken(state, player, ACTION)
    if source is not None:
        em("GoodSpent", player=player, good=kind.colour, source=source, on=name)
    if replace is not None:
        em("UpgradeReturned", player=player, ship=ship.id, upgrade=replace)
    em("UpgradeBought", player=player, ship=ship.id, upgrade=name, price=price)
    em("GloryChanged", player=player, amount=1, reason=f"upgrade {name}")
    if replace is not None:
        em("GloryChanged", player=player, amount=-1, reason=f"upgrade {replace} returned")
        lighten_hold(em, ship.id, f"upgrade {replace} returned")  # Hale's hold gone
    return em.events
