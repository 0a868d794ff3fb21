"""Ship values and the effects a ship carries (rulebook, "Ships and Sailing" > "Ships").

A ship's value for a stat is its printed value, adjusted by its face-up upgrades and its
damage cards ("Creating a Dice Pool": "if upgrades or damage cards increase or decrease the
appropriate value, adjust accordingly"), never below zero. Exhausted upgrades lose their
power until repaired ("Damage").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.seafall.effects import Effect
from companion.games.seafall.state import SeaFallState, Ship

if TYPE_CHECKING:
    from companion.games.seafall.emitter import Emitter

MAX_UPGRADES = 2  # "Each ship may have a maximum of two upgrades at any time."
MAX_DAMAGE_CARDS = 2  # "Ships may have no more than two damage cards."


def upgrade_effects(state: SeaFallState, ship: Ship, role: str) -> list[Effect]:
    """Effects of the ship's face-up upgrades that work when the ship plays ``role``.

    ``role`` is "flagship", "support", or "any" (effects that hold whatever the ship does,
    such as stat bonuses).
    """
    out: list[Effect] = []
    for up in ship.upgrades:
        if up.exhausted:
            continue
        kind = state.catalogue.upgrades.get(up.name)
        if kind is None:
            continue
        out.extend(e for e in kind.effects if e.role in ("any", role))
    return out


def ship_value(state: SeaFallState, ship: Ship, stat: str) -> int:
    """The ship's current value for ``stat`` (sail, raid, explore, hold)."""
    value = int(getattr(ship, stat))
    for eff in upgrade_effects(state, ship, "any"):
        if eff.effect == "stat" and eff.stat == stat:
            value += eff.amount
    for card in ship.damage:
        for eff in card.effects:
            if eff.effect == "stat" and eff.stat == stat:
                value += eff.amount
    return max(0, value)


def value_breakdown(state: SeaFallState, ship: Ship, stat: str) -> list[tuple[str, int]]:
    """Why the ship has its value: the printed value, then each modifier."""
    lines = [(f"{ship.name}'s printed {stat}", int(getattr(ship, stat)))]
    for up in ship.upgrades:
        kind = state.catalogue.upgrades.get(up.name)
        if up.exhausted or kind is None:
            continue
        for eff in kind.effects:
            if eff.effect == "stat" and eff.stat == stat and eff.role in ("any",):
                lines.append((f"upgrade {up.name}", eff.amount))
    for card in ship.damage:
        for eff in card.effects:
            if eff.effect == "stat" and eff.stat == stat:
                lines.append((f"damage card {card.name}", eff.amount))
    return lines


def free_hold(state: SeaFallState, ship: Ship) -> int:
    """How many more goods the ship's hold takes."""
    return max(0, ship_value(state, ship, "hold") - len(ship.goods))


def excess_goods(state: SeaFallState, ship: Ship) -> int:
    """How many goods the ship carries beyond its hold value."""
    return max(0, len(ship.goods) - ship_value(state, ship, "hold"))


def lighten_hold(em: Emitter, ship_id: str, reason: str) -> None:
    """A ship whose hold value just fell (an upgrade such as Hale returned for another, in
    the upgrade action or a docks plunder) returns its goods beyond the hold to the supply,
    as a damaged hold does ("Endeavors and Damage" > "Damage", page 11): the player chooses
    which (``HoldOverloaded``, then ``return_good``), unless the goods are all alike."""
    ship = em.state.ships[ship_id]
    excess = excess_goods(em.state, ship)
    if not excess:
        return
    if len(set(ship.goods)) == 1:
        em("GoodsReturned", ship=ship.id, goods=ship.goods[:excess], reason=reason)
    elif em.state.turn is None or em.state.turn.hold_over != ship.id:
        em("HoldOverloaded", ship=ship.id)
