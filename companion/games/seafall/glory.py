"""Where glory comes from (rulebook: "Gain 1 glory for every successful endeavor", each
upgrade bought and structure built, an advisor's or treasure's printed glory, milestones).

Glory from what a province holds comes and goes with the holding; :func:`held_glory` sums
it. The rest (endeavors, milestones, enmity stickers without room) is earned once.
"""

from __future__ import annotations

from companion.games.seafall.state import SeaFallState


def held_glory(state: SeaFallState, colour: str) -> int:
    """Glory from holdings: upgrades on its ships, structures on its building sites, the
    printed glory of its treasures and of the advisors in its council room."""
    prov = state.provinces[colour]
    upgrades = sum(len(s.upgrades) for s in state.province_ships(colour))
    structures = sum(1 for s in state.region_sites(colour)
                     if s.kind == "building_site" and s.structure is not None)
    treasures = sum(c.glory for c in prov.treasures)
    advisors = sum(state.catalogue.advisors[a.name].glory for a in prov.council
                   if a.name in state.catalogue.advisors)
    return upgrades + structures + treasures + advisors
