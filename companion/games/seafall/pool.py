"""Building an endeavor's dice pool, every die explained (rulebook, "Endeavors and Damage" >
"Creating a Dice Pool" and "Bonuses"; "Soldiers Guild" > "Raid" for the dice a raid loses;
"Tokens and Enmity" > "Enmity and Being at War" for the dice it gains).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.games.seafall.effects import Effect, of_kind
from companion.games.seafall.enmity import at_war_tokens, enmity_in_region
from companion.games.seafall.powers import standing_effects, standing_sources
from companion.games.seafall.ships import ship_value, upgrade_effects, value_breakdown
from companion.games.seafall.state import Card, PoolLine, SeaFallState, Ship, Site


@dataclass
class PoolPlan:
    """A dice pool and the rules that will count its dice."""

    lines: list[PoolLine]
    dice: int
    support: str | None
    fortune_allowed: int | None
    reroll_kinds: list[str] = field(default_factory=list)
    face_values: dict[str, int] = field(default_factory=dict)
    bonus: int = 0
    strong_reduces_damage: bool = False
    support_takes_damage: int = 0


def support_ship(
    state: SeaFallState, flagship: Ship, stat: str, wanted: bool | None
) -> Ship | None:
    """The other ship of the province in the region, if it may support (value above 0)."""
    if wanted is False:
        return None
    for ship in state.ships_at(flagship.location or "", flagship.owner):
        if ship.id != flagship.id and ship_value(state, ship, stat) > 0:
            return ship
    return None


def endeavor_effects(
    state: SeaFallState,
    player: str,
    kind: str,
    flagship: Ship,
    region_id: str,
    site_symbol: str | None,
    research: Sequence[Card] = (),
) -> list[Effect]:
    """Every power that acts on this endeavor, support ship aside.

    From the active advisor, the powers standing for the player (held treasures, own
    structures, the event revealed: :func:`~companion.games.seafall.powers.standing_effects`,
    which work as an advisor's do), the flagship's face-up upgrades, the region's own powers
    (an island's "re-roll weak successes") and the research cards played.
    """
    province = state.provinces[player]
    found: list[Effect] = []
    if province.active_advisor is not None:
        advisor = state.catalogue.advisors.get(province.active_advisor)
        if advisor is not None:
            found.extend(advisor.effects)
    found.extend(standing_effects(state, player))
    found.extend(upgrade_effects(state, flagship, "flagship"))
    found.extend(state.regions[region_id].effects)
    for card in research:
        found.extend(card.effects)
    return [e for e in found if e.applies_to(kind, site_symbol)]


def build_pool(
    state: SeaFallState,
    player: str,
    kind: str,
    flagship: Ship,
    region_id: str,
    site: Site | None,
    defender: str | None,
    dangerous: bool,
    want_support: bool | None = None,
    research: Sequence[Card] = (),
) -> PoolPlan:
    """The dice pool for an explore or raid endeavor, with a line per modifier."""
    lines: list[PoolLine] = []
    stat = kind
    for reason, dice in value_breakdown(state, flagship, stat):
        lines.append(PoolLine(f"flagship: {reason}", dice))
    value = ship_value(state, flagship, stat)
    shown = sum(line.dice for line in lines)
    if shown != value:  # a value cannot go below zero
        lines.append(PoolLine(f"flagship {stat} cannot be below 0", value - shown))

    support = support_ship(state, flagship, stat, want_support)
    support_effects: list[Effect] = []
    if support is not None:
        lines.append(PoolLine(f"support ship {support.name}", 1))
        support_effects = upgrade_effects(state, support, "support")
        for up in support.upgrades:
            up_kind = state.catalogue.upgrades.get(up.name)
            if up.exhausted or up_kind is None:
                continue
            for eff in up_kind.effects:
                if eff.effect == "support_dice" and eff.role in ("any", "support"):
                    lines.append(PoolLine(f"support ship's upgrade {up.name}", eff.amount))

    province = state.provinces[player]
    if province.active_advisor is not None:
        advisor = state.catalogue.advisors.get(province.active_advisor)
        if advisor is not None and advisor.expertise.get(stat, 0):
            lines.append(
                PoolLine(f"advisor {advisor.name}: {stat.title()} +{advisor.expertise[stat]}",
                         advisor.expertise[stat])
            )
    # expertise standing for the player, as an advisor's (effects.py, "expertise"): the same
    # amounts advisors.active_expertise counts for taxes, buying, selling...
    for source, eff in standing_sources(state, player):
        if eff.effect == "expertise" and eff.kind == stat and eff.amount:
            lines.append(PoolLine(f"{source}: {stat.title()} {eff.amount:+d}", eff.amount))

    symbol = site.symbol if site is not None and site.kind == "unexplored" else None
    effects = endeavor_effects(state, player, kind, flagship, region_id, symbol, research)
    for eff in of_kind(effects, "dice"):
        lines.append(PoolLine(_effect_source(state, eff, player, flagship, region_id, research),
                              eff.amount))

    region = state.regions[region_id]
    if kind == "raid":
        if region.garrison:
            lines.append(PoolLine(f"garrison of {region.name}", -region.garrison))
        for s in state.region_sites(region_id):
            if s.structure is None:
                continue
            skind = state.catalogue.structures.get(s.structure)
            for eff in of_kind(skind.effects if skind else (), "garrison"):
                lines.append(PoolLine(f"{s.structure} in {region.name}", -eff.amount))
        enmity = enmity_in_region(state, player, region_id)
        if enmity:
            lines.append(PoolLine(f"your enmity in {region.name}", -enmity))
        if defender is not None:
            for ship in state.ships_at(region_id, defender):
                if ship_value(state, ship, "raid") == 0:
                    continue
                removed = 1 + sum(
                    e.amount for e in of_kind(upgrade_effects(state, ship, "support"),
                                              "support_dice")
                )
                lines.append(PoolLine(f"defending ship {ship.name}", -removed))
            war = at_war_tokens(state, player, defender)
            if war and not state.prologue:
                lines.append(PoolLine(f"at war with {defender}: their enmity you hold", war))

    dice = max(0, sum(line.dice for line in lines))

    fortune_allowed: int | None = None
    if dangerous:
        fortune_allowed = max((e.amount for e in of_kind(effects, "fortune_at_dangerous")),
                              default=0)
    face_values: dict[str, int] = {}
    for eff in of_kind(effects, "face_value"):
        assert eff.kind is not None and eff.value is not None
        face_values[eff.kind] = eff.value
    return PoolPlan(
        lines=lines,
        dice=dice,
        support=support.id if support is not None else None,
        fortune_allowed=fortune_allowed,
        reroll_kinds=sorted({e.kind for e in of_kind(effects, "reroll") if e.kind}),
        face_values=face_values,
        bonus=sum(e.amount for e in of_kind(effects, "bonus_successes")),
        strong_reduces_damage=bool(of_kind(effects, "strong_reduces_damage")),
        support_takes_damage=sum(e.amount for e in of_kind(support_effects,
                                                           "support_takes_damage")),
    )


def _effect_source(
    state: SeaFallState, eff: Effect, player: str, flagship: Ship, region_id: str,
    research: Sequence[Card],
) -> str:
    """Name where a dice effect comes from, for the pool's explanation."""
    advisor_name = state.provinces[player].active_advisor
    advisor = state.catalogue.advisors.get(advisor_name) if advisor_name else None
    if advisor is not None and eff in advisor.effects:
        where = f" at a site marked {eff.site_symbol}" if eff.site_symbol else ""
        return f"advisor {advisor.name}'s power{where}"
    for card in research:
        if eff in card.effects:
            return f"research card {card.name}"
    if eff in state.regions[region_id].effects:
        return f"power of {state.regions[region_id].name}"
    for source, standing in standing_sources(state, player):
        if eff is standing:
            return f"{source}'s power"
    return f"{flagship.name}'s upgrade"
