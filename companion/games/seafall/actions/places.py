"""What a region offers a player taking a guild action: docks, markets, repair, structure
powers, and where goods lie (rulebook, "What's on the Map?" > icons; "Province Boards";
"Tokens and Enmity" > "Reputation Tokens").

Readings (docs/seafall-actions.md):

* A province's dock, market and repair symbol serve its owner, and a player who paid the
  owner a reputation token for that region this turn (``Turn.borrowed``). An island's serve
  everyone.
* An island offers the docks and markets set at setup plus those of its explored sites
  (site kinds ``docks`` and ``market``, each of one colour).
* Structures give their power to their owner only (or to a borrower of their region).
"""

from __future__ import annotations

from companion.engine import Command
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.args import find_ship, require_player
from companion.games.seafall.components import GOODS
from companion.games.seafall.effects import Effect
from companion.games.seafall.emitter import Emitter
from companion.games.seafall.seaspaces import at_sea, sea_name
from companion.games.seafall.state import Region, SeaFallState, Ship
from companion.games.seafall.turn import check_action, current_turn, no_endeavor

GOOD_DISCOUNT = 8  # gold off with one good of the matching colour
WAREHOUSE = "warehouse"  # names the acting player's own warehouse as a place for goods


def start_action(state: SeaFallState, cmd: Command, action: str, doing: str) -> str:
    """Refuse the action unless it is the player's turn, no endeavor is open, and the
    hired guild gives it untaken; the acting province's colour."""
    turn = current_turn(state)
    require_player(state, cmd, turn.player, doing)
    no_endeavor(state)
    check_action(state, action)
    return turn.player


def action_taken(state: SeaFallState, player: str, action: str) -> Emitter:
    em = Emitter(state)
    em("ActionTaken", player=player, action=action)
    return em


def may_use(state: SeaFallState, player: str, region: Region) -> bool:
    """Whether ``player`` may use what ``region`` offers (its owner, or a borrower)."""
    if region.kind != "province" or region.owner == player:
        return True
    return state.turn is not None and region.id in state.turn.borrowed


def docks(state: SeaFallState, region: Region) -> list[str]:
    """The upgrade colours the region's docks sell."""
    found = set(region.docks)
    found.update(s.colour for s in state.region_sites(region.id)
                 if s.kind == "docks" and s.colour)
    return [g for g in GOODS if g in found]


def market(state: SeaFallState, region: Region) -> list[str]:
    """The goods colours the region's markets buy."""
    found = set(region.market)
    found.update(s.colour for s in state.region_sites(region.id)
                 if s.kind == "market" and s.colour)
    return [g for g in GOODS if g in found]


def structure_effects(state: SeaFallState, player: str, region: Region, name: str) -> list[Effect]:
    """Effects called ``name`` of the structures built in ``region`` that work for ``player``."""
    if not may_use(state, player, region):
        return []
    out: list[Effect] = []
    for site in state.region_sites(region.id):
        kind = state.catalogue.structures.get(site.structure or "")
        if kind is not None:
            out.extend(e for e in kind.effects if e.effect == name)
    return out


def afloat(state: SeaFallState, player: str, ref: str) -> Ship:
    ship = find_ship(state, player, ref)
    if ship.sunk or ship.location is None:
        raise IllegalCommand(f"{ship.name} has sunk; a repair action can rebuild it")
    return ship


def at_region(state: SeaFallState, ship: Ship) -> Region:
    """The region (land) the ship is at; refused when it is out at sea."""
    region = state.regions.get(ship.location or "")
    if region is None:  # where at sea as the history says it, not the map's label
        sea = at_sea(state, ship.location)
        if sea is None:
            raise IllegalCommand(f"{ship.name} is at sea ({ship.location}), not at a region")
        where = sea_name(sea, lambda island: state.regions[island].name)
        raise IllegalCommand(f"{ship.name} is in {where}, not at a region")
    return region


def good_colour(raw: object, where: str) -> str:
    if raw not in GOODS:
        raise InvalidCommand(f"{where}: a good is one of {', '.join(GOODS)}")
    return str(raw)


def discounted(cost: int, good: bool, expertise: int) -> int:
    """A printed cost less the good's 8 and the advisor's expertise, never below 0."""
    return max(0, cost - (GOOD_DISCOUNT if good else 0) - expertise)


def discount_good(state: SeaFallState, player: str, raw: object, colour: str,
                  region: Region, what: str) -> str | None:
    """Where the good that takes 8 gold off ``what`` comes from ("warehouse" or a ship id),
    checked to be in ``region`` and to hold a ``colour`` good; None when no good is spent."""
    if raw is None:
        return None
    if not isinstance(raw, str) or not raw:
        raise InvalidCommand("'good_from' is \"warehouse\" or one of your ships")
    prov = state.provinces[player]
    if raw == WAREHOUSE:
        if region.id != player:
            raise IllegalCommand(f"{prov.player}'s warehouse is not in {region.name}, where "
                                 f"{what} is bought")
        if colour not in prov.warehouse:
            raise IllegalCommand(f"{prov.player}'s warehouse holds no {colour} for {what}")
        return WAREHOUSE
    ship = afloat(state, player, raw)
    if ship.location != region.id:
        raise IllegalCommand(f"{ship.name} is not in {region.name}, where {what} is bought")
    if colour not in ship.goods:
        raise IllegalCommand(f"{ship.name} carries no {colour} for {what}")
    return ship.id
