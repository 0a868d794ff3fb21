"""The Builders' build action (rulebook, "Builders Guild" > "Build").

Command::

    {"type": "build", "structure": "Marketplace", "site": "red/build-2",
     "good_from": "warehouse", "replace": false}

A structure from the supply (face up) goes on a building site of the player's province
(``site`` defaults to the first free one). Price: cost, minus 8 when ``good_from`` names where
a good of its colour in the province is spent ("warehouse" or a ship in the home harbor),
minus the advisor's Build expertise, never below 0. +1 glory. When no building site is free,
``"replace": true`` with a ``site`` returns that site's structure to the supply exhausted
(-1 glory) to make room.
"""

from __future__ import annotations

from companion.engine import Command, Event
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.actions.places import (
    action_taken,
    discount_good,
    discounted,
    start_action,
)
from companion.games.seafall.advisors import active_expertise
from companion.games.seafall.args import flag, only, text
from companion.games.seafall.sitenames import site_called
from companion.games.seafall.state import SeaFallState, Site


def _site(state: SeaFallState, player: str, ref: str | None, replace: bool) -> Site:
    sites = [s for s in state.region_sites(player) if s.kind == "building_site"]
    # a site whose structure was plundered is not built on this year ("Plunder" > "Structure")
    free = [s for s in sites if s.structure is None and s.id not in state.plundered_sites]
    who = state.provinces[player].player
    if ref is None:
        if replace:
            raise InvalidCommand("'replace' needs the 'site' whose structure goes back")
        if not free:
            raise IllegalCommand(f"{who} has no free building site: name a 'site' and "
                                 "'replace' its structure")
        return free[0]
    site = state.sites.get(ref)
    if site is None:
        raise InvalidCommand(f"there is no site {ref!r}")
    named = site_called(state, site.id)  # as the history names it: "building site 1 of ..."
    if site not in sites:
        raise IllegalCommand(f"{named} is not a building site of {who}'s province")
    if site.id in state.plundered_sites:
        raise IllegalCommand(f"{named} had its structure plundered this year: it is not "
                             "built on until the next winter")
    if site.structure is None and replace:
        raise IllegalCommand(f"{named} is empty: there is nothing to replace")
    if site.structure is not None:
        if not replace:
            raise IllegalCommand(f"{named} holds {site.structure}: say 'replace' to return it")
        if free:
            raise IllegalCommand(f"{who} has a free building site "
                                 f"({site_called(state, free[0].id)}); structures "
                                 "are returned only to make room")
    return site


def build(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "structure", "site", "good_from", "replace")
    player = start_action(state, cmd, "build", "building")
    prov = state.provinces[player]
    name = text(args, "structure", cmd.type) or ""
    kind = state.catalogue.structures.get(name)
    if kind is None:
        raise InvalidCommand(f"there is no structure {name!r}")
    if state.supply.structures.get(name, 0) <= 0:
        raise IllegalCommand(f"no {name} is available (exhausted or all built)")
    site = _site(state, player, text(args, "site", cmd.type, required=False),
                 bool(flag(args, "replace", cmd.type)))
    region = state.regions[player]
    source = discount_good(state, player, args.get("good_from"), kind.colour, region, name)
    price = discounted(kind.cost, source is not None, active_expertise(state, player, "build"))
    if prov.gold < price:
        raise IllegalCommand(f"{prov.player} has {prov.gold} gold; {name} costs {price}")
    em = action_taken(state, player, "build")
    if source is not None:
        em("GoodSpent", player=player, good=kind.colour, source=source, on=name)
    replaced = site.structure
    if replaced is not None:
        em("StructureReturned", player=player, site=site.id, structure=replaced)
    em("StructureBuilt", player=player, site=site.id, structure=name, price=price)
    em("GloryChanged", player=player, amount=1, reason=f"structure {name}")
    if replaced is not None:
        em("GloryChanged", player=player, amount=-1, reason=f"structure {replaced} returned")
    return em.events
