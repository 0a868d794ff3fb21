"""Plunder after a successful raid, and the enmity it leaves (rulebook, "Plunder").

Island sites: the number of successes does not matter; one enmity token goes on the site.
  good -> that good (the cube on the site, else one from the supply);
  mine -> its gold; docks -> a 10-gold upgrade of the dock's colour onto a ship there;
  market -> up to two goods of the market's colour.
Province sites: the raider picks one site whose plunder value is at most the successes,
  and places that many enmity tokens on it (returning the defender's tokens from their At
  War With space first): field -> its gold; structure -> back to the supply exhausted (owner
  loses 1 glory), and a good of its colour or half its cost in gold; vault -> half the gold,
  rounded up; council room -> any advisor (kept refreshed or dismissed); warehouse -> half
  the goods, rounded up, of the raider's choice; treasure room -> one card. A room with
  nothing in it is not offered (docs/seafall.md).

Choices are the player's; where the rules leave only one way, it happens at once.
"""

from __future__ import annotations

from companion.engine import Command, Event
from companion.errors import IllegalCommand
from companion.games.seafall.args import only, require_player, text
from companion.games.seafall.emitter import Emitter
from companion.games.seafall.enmity import can_pay_enmity, pay_enmity
from companion.games.seafall.ships import MAX_UPGRADES, free_hold, lighten_hold
from companion.games.seafall.sitenames import site_called
from companion.games.seafall.state import SeaFallState, Site
from companion.games.seafall.turn import hold_waits

DOCKS_UPGRADE_COST = 10
MARKET_GOODS = 2


def check_island_site(state: SeaFallState, site: Site) -> None:
    """Refuse a raid on an island site that cannot be raided now (the site named as the
    history names it: "site 1 of Example isle B")."""
    named = site_called(state, site.id)
    if site.kind == "unexplored":
        raise IllegalCommand(f"{named} is unexplored: explore it before raiding it")
    if site.kind == "explored":
        raise IllegalCommand(f"record what {named} is (record_site) before raiding it")
    if site.kind == "other":
        raise IllegalCommand(f"{named} has nothing to plunder")
    if any(site.enmity.values()):
        raise IllegalCommand(f"{named} already has enmity on it and cannot be raided "
                             "again this year")
    colour = site.colour or ""
    if site.kind == "good" and not site.good_present and state.supply.goods.get(colour, 0) == 0:
        raise IllegalCommand(f"no {colour} is left in the supply, so {named} cannot be raided")
    if site.kind == "market" and state.supply.goods.get(colour, 0) == 0:
        raise IllegalCommand(f"no {colour} is left in the supply, so {named} cannot be raided")
    if site.kind == "docks" and not _dock_upgrades(state, colour):
        raise IllegalCommand(f"no {colour} 10-gold upgrade is available, so {named} "
                             "cannot be raided")


def _dock_upgrades(state: SeaFallState, colour: str) -> list[str]:
    return [
        u.name for u in state.catalogue.upgrades.values()
        if u.colour == colour and u.cost == DOCKS_UPGRADE_COST
        and state.supply.upgrades.get(u.name, 0) > 0
    ]


def plunderable(state: SeaFallState, raider: str, target: str, successes: int) -> list[Site]:
    """Province sites the raider may plunder with this many successes and their tokens."""
    out = []
    for site in state.region_sites(target):
        value = site.plunder_value
        if value is None or value > successes or any(site.enmity.values()):
            continue
        if site.kind == "field" and site.id in state.plundered_sites:
            continue  # plundered this year, its enmity returned rather than placed
        if site.kind == "building_site" and site.structure is None:
            continue
        if _empty_room(state, site):
            continue
        if can_pay_enmity(state, raider, value, target):
            out.append(site)
    return out


def _empty_room(state: SeaFallState, site: Site) -> bool:
    """A room of the province board with nothing in it to take: not offered as plunder.

    Our reading ("Plunder" > "Province Sites", page 17): each room's plunder is what it
    holds (an advisor of the council room, a card of the treasure room, half the goods of
    the warehouse, half the gold of the vault); an empty one would cost the raider its
    enmity tokens for nothing. Which province raids are allowed is unchanged
    (:func:`check_province_raid`): the rulebook ties that to enmity and tokens only, and a
    raid whose plunder finds nothing ends with none (the glory of a success stands)."""
    victim = state.provinces[site.region]
    return {
        "council_room": not victim.council,
        "treasure_room": not (victim.treasures or victim.research),
        "warehouse": not victim.warehouse,
        "vault": victim.gold == 0,
    }.get(site.kind, False)


def _within(state: SeaFallState, target: str, successes: int) -> bool:
    """Whether any site of the province has a plunder value within the successes."""
    return any(s.plunder_value is not None and s.plunder_value <= successes
               for s in state.region_sites(target))


def check_province_raid(state: SeaFallState, raider: str, target: str) -> None:
    """Refuse a province raid whose plunder the raider could never pay enmity for."""
    sites = [s for s in state.region_sites(target)
             if s.plunder_value is not None and not any(s.enmity.values())
             and not (s.kind == "building_site" and s.structure is None)
             and not (s.kind == "field" and s.id in state.plundered_sites)]
    owner = state.provinces[target].player  # named by its player, as the history names it
    if not sites:
        raise IllegalCommand(f"every site in {owner}'s province already has enmity or was "
                             "plundered this year")
    cheapest = min(s.plunder_value or 0 for s in sites)
    prov = state.provinces[raider]
    if not can_pay_enmity(state, raider, cheapest, target):
        have = prov.home_enmity + prov.at_war_with.get(target, 0)
        raise IllegalCommand(
            f"{prov.player} has {have} enmity token(s) to give; the cheapest site to "
            f"plunder in {owner}'s province needs {cheapest}")


def begin(em: Emitter) -> None:
    """Start the plunder of a successful raid."""
    end = em.state.endeavor
    assert end is not None
    if end.target is not None:
        if not plunderable(em.state, end.player, end.target, end.successes):
            em("PlunderSkipped", reason="no site's plunder value is within the successes"
               if not _within(em.state, end.target, end.successes)
               else "no site within the successes has anything to take")
            em("EndeavorEnded")
        return  # the raider chooses the site
    site = em.state.sites[end.site or ""]
    em("PlunderChosen", site=site.id, step="docks" if site.kind == "docks" else None)
    em("EnmityPlaced", player=end.player, site=site.id, count=1)
    colour = site.colour or ""
    if site.kind == "good":
        em("GoodsSeized", goods=[colour], source="site" if site.good_present else "supply",
           site=site.id)
    elif site.kind == "mine":
        em("GoldTaken", player=end.player, amount=site.value or 0, source=site.id)
    elif site.kind == "market":
        count = min(MARKET_GOODS, em.state.supply.goods.get(colour, 0))
        em("GoodsSeized", goods=[colour] * count, source="supply", site=site.id)
    advance(em)


def options(state: SeaFallState) -> tuple[str, list[tuple[str, str]]]:
    """The question the plunder asks now and its (value, label) options."""
    end = state.endeavor
    assert end is not None and end.stage == "plunder"
    if end.plunder_site is None:
        sites = plunderable(state, end.player, end.target or "", end.successes)
        opts = [(s.id, f"{_site_label(state, s)} (plunder value {s.plunder_value})")
                for s in sites]
        return "Which site do you plunder?", opts + [("none", "plunder nothing")]
    if end.picks_left > 0:
        site = state.sites[end.plunder_site]
        goods = state.provinces[site.region].warehouse
        return (f"Take which good? ({end.picks_left} more)",
                [(g, g) for g in sorted(set(goods))])
    if end.goods_to_place:
        good = end.goods_to_place[0]
        ships = _ships_with_room(state)
        return (f"Which ship takes the {good}?",
                [(s, f"{state.ships[s].name}") for s in ships] + [("leave", f"leave the {good}")])
    step = end.plunder_step
    site = state.sites[end.plunder_site]
    if step == "docks":
        return "Which upgrade, on which ship?", _docks_options(state, site.colour or "")
    if step == "council_room":
        victim = state.provinces[site.region]
        opts = []
        for adv in victim.council:
            opts.append((f"keep:{adv.name}", f"take {adv.name}"))
            opts.append((f"dismiss:{adv.name}", f"dismiss {adv.name}"))
        return "Which advisor do you take?", opts
    if step == "treasure_room":
        victim = state.provinces[site.region]
        opts = [(f"treasures:{c.name}", f"treasure {c.name}") for c in victim.treasures]
        opts += [(f"research:{c.name}", f"research card {c.name}") for c in victim.research]
        return "Which card do you take?", opts
    if step == "structure":
        kind = state.catalogue.structures[site.structure or ""]
        # the good is offered only while the supply has one ("Plunder" > "Structure",
        # page 17: a good taken from the supply); else the gold alone (the question as
        # ever: the phone reads the good and the gold from it)
        good = [("good", f"a {kind.colour} from the supply")] \
            if state.supply.goods.get(kind.colour, 0) > 0 else []
        return (f"{kind.name}: take a {kind.colour} or {kind.cost // 2} gold?",
                [*good, ("gold", f"{kind.cost // 2} gold")])
    raise AssertionError(f"plunder has nothing to ask at step {step!r}")


def _site_label(state: SeaFallState, site: Site) -> str:
    if site.kind == "building_site":
        return f"{site.structure} ({site.id})"
    if site.kind == "field":
        return f"field worth {site.value} gold ({site.id})"
    return site.kind.replace("_", " ")


def _ships_with_room(state: SeaFallState) -> list[str]:
    end = state.endeavor
    assert end is not None
    return [s.id for s in state.ships_at(end.region, end.player) if free_hold(state, s) > 0]


def _docks_options(state: SeaFallState, colour: str) -> list[tuple[str, str]]:
    end = state.endeavor
    assert end is not None
    out = []
    for name in _dock_upgrades(state, colour):
        for ship in state.ships_at(end.region, end.player):
            if any(u.name == name for u in ship.upgrades):
                continue
            if len(ship.upgrades) < MAX_UPGRADES:
                out.append((f"{name}@{ship.id}", f"{name} on {ship.name}"))
            else:
                for old in ship.upgrades:
                    out.append((f"{name}@{ship.id}:replace:{old.name}",
                                f"{name} on {ship.name}, returning {old.name}"))
    return out or [("none", "no ship can take an upgrade")]


def plunder(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "choice")
    choice = text(args, "choice", cmd.type) or ""
    end = state.endeavor
    if end is None or end.stage != "plunder":
        raise IllegalCommand("no raid is waiting for plunder to be chosen")
    require_player(state, cmd, end.player,
                   f"choosing {state.provinces[end.player].player}'s plunder")
    hold_waits(state)  # a docks plunder's returned Hale: goods back to the supply first
    question, opts = options(state)
    if choice not in dict(opts):
        raise IllegalCommand(f"{choice!r} is not an answer to {question!r}; choose one of: "
                             f"{', '.join(v for v, _ in opts)}")
    em = Emitter(state)
    if end.plunder_site is None:
        _choose_province_site(em, choice)
    elif end.picks_left > 0:
        em("GoodsSeized", goods=[choice], source=state.sites[end.plunder_site].region,
           site=end.plunder_site)
    elif end.goods_to_place:
        good = end.goods_to_place[0]
        if choice == "leave":
            _leave(em, good)
        else:
            em("GoodLoaded", ship=choice, good=good)
    else:
        _site_step(em, choice)
    advance(em)
    return em.events


def _choose_province_site(em: Emitter, choice: str) -> None:
    end = em.state.endeavor
    assert end is not None and end.target is not None
    if choice == "none":
        em("PlunderSkipped", reason="the raider chose to plunder nothing")
        em("EndeavorEnded")
        return
    site = em.state.sites[choice]
    victim = em.state.provinces[end.target]
    step = {"building_site": "structure", "council_room": "council_room",
            "treasure_room": "treasure_room"}.get(site.kind)
    picks = (len(victim.warehouse) + 1) // 2 if site.kind == "warehouse" else 0
    em("PlunderChosen", site=site.id, step=step, picks=picks)
    payment = pay_enmity(em.state, end.player, site.plunder_value or 0, end.target)
    if payment.returned:
        em("EnmityReturned", holder=end.player, owner=end.target, count=payment.returned)
    if payment.placed:
        em("EnmityPlaced", player=end.player, site=site.id, count=payment.placed)
    if site.kind == "field":
        em("GoldTaken", player=end.player, amount=site.value or 0, source=site.id)
    elif site.kind == "vault":
        em("GoldTaken", player=end.player, amount=(victim.gold + 1) // 2,
           from_player=end.target, source=site.id)


def _site_step(em: Emitter, choice: str) -> None:
    end = em.state.endeavor
    assert end is not None and end.plunder_site is not None
    site = em.state.sites[end.plunder_site]
    step = end.plunder_step
    if step == "docks":
        if choice != "none":
            name, _, rest = choice.partition("@")
            ship_id, _, replaced = rest.partition(":replace:")
            em("UpgradeSeized", ship=ship_id, upgrade=name, replaced=replaced or None)
            em("GloryChanged", player=end.player, amount=1, reason=f"upgrade {name}")
            if replaced:
                em("GloryChanged", player=end.player, amount=-1,
                   reason=f"upgrade {replaced} returned")
                lighten_hold(em, ship_id, f"upgrade {replaced} returned")
    elif step == "council_room":
        how, _, name = choice.partition(":")
        victim = site.region
        em("AdvisorSeized", player=end.player, from_player=victim, advisor=name,
           keep=how == "keep")
        glory = em.state.catalogue.advisors[name].glory
        if glory:
            em("GloryChanged", player=victim, amount=-glory, reason=f"lost advisor {name}")
            if how == "keep":
                em("GloryChanged", player=end.player, amount=glory, reason=f"advisor {name}")
    elif step == "treasure_room":
        pile, _, name = choice.partition(":")
        victim = em.state.provinces[site.region]
        card = next(c for c in getattr(victim, pile) if c.name == name)
        em("CardSeized", player=end.player, from_player=site.region, pile=pile, card=name)
        if card.glory:
            em("GloryChanged", player=site.region, amount=-card.glory, reason=f"lost {name}")
            em("GloryChanged", player=end.player, amount=card.glory, reason=f"took {name}")
    elif step == "structure":
        kind = em.state.catalogue.structures[site.structure or ""]
        em("StructureRaided", site=site.id, structure=kind.name)
        em("GloryChanged", player=site.region, amount=-1, reason=f"lost {kind.name}")
        if choice == "good":  # offered only while the supply has one (options)
            em("GoodsSeized", goods=[kind.colour], source="supply", site=site.id)
        else:
            em("GoldTaken", player=end.player, amount=kind.cost // 2, source=site.id)
    em("PlunderStepDone")


def _leave(em: Emitter, good: str) -> None:
    """A good no ship of the raider's takes stays where it was: on the island site, in the
    supply, or in the defender's warehouse (docs/seafall.md, "Plundered goods")."""
    end = em.state.endeavor
    assert end is not None
    em("GoodLeft", good=good, source=end.goods_from or "supply", site=end.plunder_site)


def advance(em: Emitter) -> None:
    """Resolve what needs no choice; end the endeavor when nothing is left to choose."""
    while True:
        end = em.state.endeavor
        if end is None or end.stage != "plunder" or end.plunder_site is None:
            return
        if em.state.turn is not None and em.state.turn.hold_over is not None:
            return  # goods to return first (return_good), then the plunder goes on
        if end.picks_left > 0:
            goods = em.state.provinces[em.state.sites[end.plunder_site].region].warehouse
            if len(set(goods)) > 1:
                return
            em("GoodsSeized", goods=[goods[0]], source=em.state.sites[end.plunder_site].region,
               site=end.plunder_site)
            continue
        if end.goods_to_place:
            ships = _ships_with_room(em.state)
            good = end.goods_to_place[0]
            if not ships:
                _leave(em, good)
                continue
            if len(ships) == 1:
                em("GoodLoaded", ship=ships[0], good=good)
                continue
            return
        if end.plunder_step is not None:
            return
        em("EndeavorEnded")
        return
