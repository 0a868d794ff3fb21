"""The campaign ledger: what a recorded game carries into the next one (rulebook, "Game
Carryover" and "End of Game").

:func:`next_game` turns the state of a recorded game into the setup options of the next:
explored sites and their stickers, permanent enmity on every region, ship values, the one
advisor each province kept (trained expertise included), unused research cards, titles,
leader levels, improved fields and garrisons, appellations, campaign glory, the historical
record, retired advisors with stickers left, milestones not yet claimed and the event deck
(events brought in by milestones stay). Gold, goods, upgrades, structures, damage and
game glory do not carry over; treasures go back to the treasure deck.
"""

from __future__ import annotations

from typing import Any

from companion.errors import IllegalCommand
from companion.games.seafall.codec import dump
from companion.games.seafall.state import SeaFallState


def next_game(state: SeaFallState) -> dict[str, Any]:
    """Setup options for the next game of the campaign, from a recorded game."""
    if state.phase != "recorded":
        raise IllegalCommand("the game is not over and recorded yet: finish the end of the "
                             "game first")
    provinces = []
    for colour in state.seating:
        prov = state.provinces[colour]
        region = state.regions[colour]
        fields = [state.sites[s].value or 0 for s in region.sites
                  if state.sites[s].kind == "field"]
        provinces.append({
            "colour": colour,
            "player": prov.player,
            "title": prov.title,
            "campaign_glory": prov.campaign_glory,
            "leader_reputation": prov.leader_reputation,
            "leader_fortune": prov.leader_fortune,
            **({"appellation": prov.appellation} if prov.appellation else {}),
            "garrison": region.garrison,
            "defense": region.defense,
            "dangerous": region.dangerous,
            "fields": fields,
            "permanent_enmity": dict(region.permanent_enmity),
            "advisors": [prov.kept_advisor] if prov.kept_advisor else [],
            "research": [dump(card) for card in prov.research],
            "ships": [{"name": s.name, "sail": s.sail, "raid": s.raid, "explore": s.explore,
                       "hold": s.hold} for s in state.province_ships(colour)],
        })
    islands = []
    for region in state.regions.values():
        if region.kind != "island":
            continue
        sites = []
        for site in state.region_sites(region.id):
            entry: dict[str, Any] = {"name": site.id.split("/", 1)[1], "kind": site.kind,
                                     "defense": site.defense, "dangerous": site.dangerous}
            for key in ("symbol", "colour", "value"):
                if getattr(site, key) is not None:
                    entry[key] = getattr(site, key)
            sites.append(entry)
        islands.append({
            "id": region.id, "name": region.name, "garrison": region.garrison,
            "effects": [e.to_json() for e in region.effects],
            "permanent_enmity": dict(region.permanent_enmity),
            "docks": list(region.docks), "market": list(region.market),
            "repair": region.repair,
            **({"space": region.space} if region.space else {}),
            **({"column": region.column} if region.column is not None else {}),
            "sites": sites,
        })
    held = {p.kept_advisor for p in state.provinces.values() if p.kept_advisor}
    catalogue = state.catalogue.to_json()
    return {
        "game": state.game_number + 1,
        "provinces": provinces,
        "islands": islands,
        "components": catalogue,
        "advisor_deck": sorted(a for a in state.catalogue.advisors if a not in held),
        "treasures": [dump(c) for c in state.treasures]
        + [dump(c) for p in state.provinces.values() for c in p.treasures],
        "milestones": [dump(m) for m in state.milestones if m.claimed_by is None],
        "events": sorted(state.event_deck + ([state.event] if state.event else [])),
        "bagged_events": list(state.bagged_events),
        "retired_advisors": [dump(r) for r in state.retired_advisors if r.stickers > 0],
        "record": [dict(r) for r in state.record],
        "research_allowed": state.research_allowed,
    }
