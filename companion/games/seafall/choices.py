"""The legal commands of the turn, with their arguments: what a page or a button may offer.

Rules stay in the engine: candidates are enumerated from the state and each is put to
``decide``; only those it accepts are listed, each with a one-line summary drawn from the
events it would cause (an endeavor's dice and defense, a price); an endeavor also carries
its preview (the pool with every modifier explained and the exact odds). When a prompt is open the
prompt is the choice, and nothing else is listed.

Physical cards (research draws, dealt advisors, revealed events) cannot be enumerated: the
table names them when it draws them (research is listed with empty ``args`` and the number
of ``cards`` to name).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product
from typing import Any

from companion.engine import Command, Event
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.actions.research import CARDS_DRAWN
from companion.games.seafall.actions.sail import sail_limit
from companion.games.seafall.advisors import active_expertise
from companion.games.seafall.components import GUILDS
from companion.games.seafall.evolve import evolve
from companion.games.seafall.map import default_map
from companion.games.seafall.odds import current_odds, no_dice_odds, odds_json
from companion.games.seafall.seaspaces import at_sea, sea_name
from companion.games.seafall.ships import ship_value
from companion.games.seafall.state import SeaFallState

Candidate = tuple[str, dict[str, Any]] | tuple[str, dict[str, Any], dict[str, Any]]
"""A command and its arguments, and what the entry says besides (a stop at sea's
``toward``)."""


def legal_commands(state: SeaFallState, decide: Any) -> list[dict[str, Any]]:
    """``[{"type", "args", "summary"}]`` for the current player, or [] (a prompt is open,
    no turn is under way). ``decide`` is the engine's ``decide``."""
    turn = state.turn
    if turn is None or state.endeavor is not None or state.phase != "turns" \
            or turn.hold_over is not None:
        return []
    out = []
    for kind, args, *extra in _candidates(state, turn.player):
        try:
            events = decide(state, Command(kind, args, turn.player))
        except (IllegalCommand, InvalidCommand):
            continue
        more = extra[0] if extra else {}
        entry = {"type": kind, "args": args, "summary": _summary(state, kind, args, events, more),
                 **more}
        if any(e.type == "EndeavorStarted" for e in events):
            entry["endeavor"] = endeavor_preview(state, events)
        out.append(entry)
    out.extend(_research(state, turn.player, decide))
    return out


def _research(state: SeaFallState, player: str, decide: Any) -> list[dict[str, Any]]:
    """Research, when the engine would take it ("Explorers Guild" > "Research"). Its cards
    are physical: the entry's ``args`` are empty and ``cards`` is how many the table draws
    (1 + Research expertise); the page names them (``drawn``), the one kept (``keep``) and
    that card's powers (``effects``) before sending."""
    probe = {"drawn": ["card"], "keep": "card"}  # a name stands for the card drawn
    try:
        events = decide(state, Command("research", probe, player))
    except (IllegalCommand, InvalidCommand):
        return []
    cards = CARDS_DRAWN + active_expertise(state, player, "research")
    return [{"type": "research", "args": {}, "cards": cards,
             "summary": _summary(state, "research", probe, events, {})}]


def endeavor_preview(state: SeaFallState, events: list[Event]) -> dict[str, Any]:
    """What an endeavor would roll, before it is started: the pool line by line (each
    modifier with its reason), the defense, and the exact odds of this very roll (its
    re-rolls, face values and fortune), from the state the start would lead to."""
    (started,) = [e.payload for e in events if e.type == "EndeavorStarted"]
    after = state
    for event in events:
        after = evolve(after, event)
    odds = current_odds(after)
    preview = {key: started[key] for key in ("kind", "dice", "defense", "dangerous", "pool",
                                             "reroll_kinds", "fortune_allowed", "bonus")}
    if odds is not None and after.endeavor is not None:
        preview["odds"] = odds_json(after, after.endeavor, odds)
    elif started["dice"] <= 0:  # no roll to wait for: resolved at once, and said so
        end = _started_endeavor(state, events)
        preview["odds"] = odds_json(state, end, no_dice_odds(state, end))
    return preview


MOST_GOODS = 4
"""The most goods one Buy or Sell offers together: two, and two more with expertise."""

MOST_GROUPS = 40
"""The most sets of goods offered for one Buy or Sell, smallest first (four goods of eight
would be 70): the larger ones still go through a typed command."""


def _groups(items: list[dict[str, Any]], key: str | None = None) -> list[tuple[Any, ...]]:
    """The sets of 1 to :data:`MOST_GOODS` of ``items``, each once (items alike are one
    cube each: two iron in the warehouse give one set of both), none holding two items of
    the same ``key`` (a site has one cube), at most :data:`MOST_GROUPS`."""
    seen: set[tuple[tuple[tuple[str, Any], ...], ...]] = set()
    out: list[tuple[Any, ...]] = []
    for size in range(1, min(MOST_GOODS, len(items)) + 1):
        for group in combinations(items, size):
            if key is not None and len({g[key] for g in group}) < size:
                continue
            sig = tuple(sorted(tuple(sorted(g.items())) for g in group))
            if sig in seen:
                continue
            seen.add(sig)
            out.append(group)
            if len(out) >= MOST_GROUPS:
                return out
    return out


def _started_endeavor(state: SeaFallState, events: list[Event]) -> Any:
    """The endeavor as it stood when started (before a pool of no dice resolved it)."""
    after = state
    for event in events:
        after = evolve(after, event)
        if event.type == "EndeavorStarted":
            return after.endeavor
    raise ValueError("no endeavor was started")


def _candidates(state: SeaFallState, player: str) -> Iterator[Candidate]:
    prov = state.provinces[player]
    turn = state.turn
    assert turn is not None
    if turn.guild is None and prov.active_advisor is None:  # step 1, before step 2
        for name in state.forum:
            yield "hire_advisor", {"advisor": name, "pay": "gold"}
            yield "hire_advisor", {"advisor": name, "pay": "reputation"}
        for card in state.treasures:
            yield "buy_treasure", {"treasure": card.name}
            for source in _good_sources(state, player, card.colour, player):
                yield "buy_treasure", {"treasure": card.name, "good_from": source}
    if turn.guild is None:
        for adv in prov.council:
            yield "activate_advisor", {"advisor": adv.name}
        for guild in GUILDS:
            yield "hire_guild", {"guild": guild}
    ships = [s for s in state.province_ships(player) if not s.sunk and s.location]
    for ship in ships:
        yield from _sailing(state, ship.id)  # from a region, or from a stop at sea
        region = state.regions.get(ship.location or "")
        if region is None:
            continue
        for site in state.region_sites(region.id):
            yield "explore", {"flagship": ship.id, "site": site.id}
            yield "raid", {"flagship": ship.id, "site": site.id}
        if region.kind == "province" and region.owner != player:
            yield "raid", {"flagship": ship.id, "province": region.owner}
        for name in state.supply.upgrades:
            kind = state.catalogue.upgrades.get(name)
            if kind is None:
                continue
            # a ship with its two upgrades returns one for the new (rulebook, "Upgrade")
            swaps = [{"replace": u.name} for u in ship.upgrades] if len(ship.upgrades) >= 2 \
                else [{}]
            for swap in swaps:
                yield "upgrade", {"ship": ship.id, "upgrade": name, **swap}
                for source in _good_sources(state, player, kind.colour, region.id):
                    yield "upgrade", {"ship": ship.id, "upgrade": name, "good_from": source,
                                      **swap}
    # a Buy or a Sell takes up to two goods, more with expertise (rulebook, "Merchants
    # Guild"): each set of them, one cube a site, the engine keeping those it allows
    buys = [{"site": site.id, "ship": ship.id} for ship in ships
            if ship.location in state.regions  # not at sea between places
            for site in state.region_sites(ship.location) if site.good_present]
    for group in _groups(buys, key="site"):
        for returns in _room(state, group):
            yield "buy", {"goods": list(group), **({"return": returns} if returns else {})}
    sells = [{"good": good, "from": ship.id} for ship in ships for good in sorted(ship.goods)]
    sells += [{"good": good, "from": "warehouse"} for good in sorted(prov.warehouse)]
    yield from (("sell", {"goods": list(group)}) for group in _groups(sells))
    # with every building site taken, a structure is returned to make room ("Build")
    building = [s for s in state.region_sites(player) if s.kind == "building_site"]
    free = any(s.structure is None and s.id not in state.plundered_sites for s in building)
    swaps = [{}] if free else [{"site": s.id, "replace": True} for s in building
                               if s.structure is not None]
    for name in state.supply.structures:
        kind = state.catalogue.structures.get(name)
        if kind is None:
            continue
        for swap in swaps:
            yield "build", {"structure": name, **swap}
            for source in _good_sources(state, player, kind.colour, player):
                yield "build", {"structure": name, "good_from": source, **swap}
    yield "repair", {}
    yield "repair", {"free": True}  # a Port's, without the action (rulebook, structures)
    yield "collect_taxes", {}
    for milestone in state.milestones:
        yield "claim_milestone", {"milestone": milestone.name}
    # a reputation token to another province, for one of its regions' powers this turn
    # ("Tokens" > "Reputation Tokens"), once for a region
    for region in state.regions.values():
        if region.owner not in (None, player) and region.id not in turn.borrowed:
            yield "give_reputation", {"to": region.owner, "region": region.id}
    yield "end_turn", {}


def _room(state: SeaFallState, group: tuple[Any, ...]) -> list[list[dict[str, str]]]:
    """The goods a Buy of ``group`` may return to the supply to make room ("Merchants
    Guild" > "Buy Goods"): none when every hold has room, else, for each ship short of it,
    each different set of as many of its goods as it lacks room for."""
    per_ship = []
    for ship_id in sorted({g["ship"] for g in group}):
        ship = state.ships[ship_id]
        lacking = sum(g["ship"] == ship_id for g in group) \
            - (ship_value(state, ship, "hold") - len(ship.goods))
        if lacking > 0:
            sets = sorted(set(combinations(sorted(ship.goods), lacking)))
            per_ship.append([[{"ship": ship_id, "good": g} for g in goods] for goods in sets])
    return [[r for part in parts for r in part] for parts in product(*per_ship)]


def _good_sources(state: SeaFallState, player: str, colour: str | None, region: str
                  ) -> list[str]:
    """Where a good of ``colour`` could come from in ``region``: warehouse or ships."""
    if colour is None:
        return []
    out = ["warehouse"] if region == player and colour in state.provinces[player].warehouse \
        else []
    out += [s.id for s in state.ships_at(region, player) if colour in s.goods]
    return out


def _sailing(state: SeaFallState, ship_id: str) -> Iterator[Candidate]:
    """Sailing one ship to each region within reach, by a shortest way on the map; and
    stopping at sea on the way to a region, short of it (within reach or beyond: "up to its
    sail value", rulebook "Ships and Sailing" > "Sailing"), each space at sea once, said
    ``toward`` the nearest region whose way passes it; the coastal waters and a home harbor
    no province holds, each one space, said by their ``at_sea`` (seaspaces.at_sea)."""
    ship = state.ships[ship_id]
    here = state.regions[ship.location or ""].space if ship.location in state.regions \
        else ship.location
    sea = default_map()
    if here is None or not sea.knows(here):
        return
    limit = sail_limit(state, ship)
    ways = []
    for region in state.regions.values():
        if region.id == ship.location or region.space is None:
            continue
        path = sea.path(here, region.space)
        if path:
            ways.append((path, region.id))
    ways.sort(key=lambda way: (len(way[0]), way[1]))
    for path, region_id in ways:
        if len(path) <= limit:
            yield "sail", {"moves": [{"ship": ship.id, "path": [*path[:-1], region_id]}]}
    land = frozenset(r.space for r in state.regions.values() if r.space is not None)
    stops: set[str] = set()
    for path, region_id in ways:
        # a stop is at sea: by a way as short that passes no other island, where there is
        # one (the way through an island had no stop at its reach's end, "Sailing")
        by_sea = sea.path(here, path[-1], avoid=land)
        if by_sea is not None and len(by_sea) == len(path):
            path = by_sea
        for steps in range(1, min(limit, len(path) - 1) + 1):
            end = path[steps - 1]
            if end in land or end in stops:
                continue
            stops.add(end)
            # the coastal waters, or a home harbor no province holds, are one space each:
            # said as the board says them, not toward the first place whose way is there
            where = at_sea(state, end)
            more = {"at_sea": where} if where is not None and where["kind"] != "open" \
                else {"toward": region_id}
            yield ("sail", {"moves": [{"ship": ship.id, "path": path[:steps]}]}, more)


def _summary(state: SeaFallState, kind: str, args: dict[str, Any], events: list[Event],
             more: dict[str, Any]) -> str:
    by_type = {e.type: e.payload for e in events}
    # a Buy or a Sell of several goods: one event a good, each with its own price
    bought = sum(e.payload["price"] for e in events if e.type == "GoodBought")
    sold = sum(e.payload["gold"] for e in events if e.type == "GoodSold")
    if "EndeavorStarted" in by_type:
        p = by_type["EndeavorStarted"]
        return (f"{p['dice']} {'die' if p['dice'] == 1 else 'dice'} against defense "
                f"{p['defense']}"
                + (" (dangerous)" if p["dangerous"] else ""))
    if by_type.get("AdvisorHired", {}).get("reputation"):
        return f"costs {by_type['AdvisorHired']['reputation']} reputation"
    if "GoodBought" in by_type:
        return f"costs {bought} gold"
    for name, key in (("UpgradeBought", "price"),
                      ("StructureBuilt", "price"), ("AdvisorHired", "gold"),
                      ("TreasureBought", "gold"), ("ResearchCardKept", "cost")):
        if name in by_type and key in by_type[name]:
            return f"costs {by_type[name][key]} gold"
    if kind == "sail":
        (move,) = args["moves"]  # by the names the table knows them by
        steps, there = len(move["path"]), move["path"][-1]
        ship = state.ships[move["ship"]].name
        if "toward" in more:
            return (f"{ship} stops at sea {steps} space{'' if steps == 1 else 's'} toward "
                    f"{state.regions[more['toward']].name}")
        if "at_sea" in more:
            return (f"{ship} stops in {sea_name(more['at_sea'], str)} "
                    f"({steps} space{'' if steps == 1 else 's'})")
        where = state.regions[there].name if there in state.regions else there
        return f"{ship} to {where} ({steps} space{'' if steps == 1 else 's'})"
    if kind == "repair":  # which ships, by name: the button said only "Repair"
        named = {t: ", ".join(state.ships[e.payload["ship"]].name for e in events if e.type == t)
                 for t in ("ShipRepaired", "ShipRebuilt")}
        said = [f"{verb} {named[t]}" for t, verb in (("ShipRepaired", "repairs"),
                                                       ("ShipRebuilt", "rebuilds")) if named[t]]
        if said:
            return "; ".join(said)
    if "ReputationGiven" in by_type:  # the other player accepts or refuses at the table
        return f"1 reputation token, if {state.provinces[args['to']].player} accepts"
    if "GoodSold" in by_type:
        return f"brings {sold} gold"
    if "TaxesCollected" in by_type:
        return f"brings {by_type['TaxesCollected']['amount']} gold"
    return kind.replace("_", " ")
