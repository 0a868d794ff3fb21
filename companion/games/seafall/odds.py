"""Exact odds for the endeavor on the table, before the dice are rolled.

The pool's powers become a :class:`~companion.dice.rules.PoolRules` (re-rolls, face values,
bonus successes, fortune and what a dangerous site allows), so the odds shown are those of
this very roll. Enduring's damage reduction is not in the odds (docs/odds.md).

An endeavor succeeds with at least one success and the flagship afloat (rulebook,
"Endeavors and damage"): each damage exhausts one of its upgrades or draws a damage card,
and a third card sinks it, so the flagship takes as much damage as it has fresh upgrades
and free damage slots, no more. :func:`odds_json` adds that chance (``p_success``) to the
figures a page shows, beside the chance of a success alone.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from companion.dice import SEAFALL
from companion.dice.odds import EndeavorOdds, endeavor_odds, exact
from companion.dice.rules import PoolRules
from companion.games.seafall.ships import MAX_DAMAGE_CARDS
from companion.games.seafall.state import Endeavor, SeaFallState

SHOWN = ("p_at_least_one_success", "p_no_damage", "expected_damage", "successes", "exact")
"""The figures of :class:`EndeavorOdds` a page shows (the preview, the endeavor card)."""


def pool_rules(state: SeaFallState, end: Endeavor) -> PoolRules:
    return PoolRules(
        reroll=frozenset(end.reroll_kinds),
        values=tuple(sorted(end.face_values.items())),
        fortune=state.provinces[end.player].fortune,
        dangerous=end.dangerous,
        fortune_at_dangerous=end.fortune_allowed or 0,
        bonus=end.bonus,
    )


def current_odds(state: SeaFallState) -> EndeavorOdds | None:
    """The odds of the endeavor waiting for its roll, or None."""
    end = state.endeavor
    if end is None or end.stage != "roll" or end.faces:
        return None
    return endeavor_odds(SEAFALL, end.dice, end.defense, pool_rules(state, end))


def damage_capacity(state: SeaFallState, end: Endeavor) -> int:
    """How much damage the flagship takes and stays afloat: its upgrades not exhausted,
    and the damage cards it may still draw before a third sinks it."""
    ship = state.ships.get(end.flagship) if end.flagship else None
    if ship is None:
        return 0
    fresh = sum(1 for up in ship.upgrades if not up.exhausted)
    return fresh + max(MAX_DAMAGE_CARDS - len(ship.damage), 0)


def p_success(odds: EndeavorOdds, capacity: int) -> Fraction:
    """The chance the endeavor succeeds: a success or more, and at most ``capacity``
    damage (the defense less the successes)."""
    return odds.p_at_least(max(1, odds.defense - capacity))


def odds_json(state: SeaFallState, end: Endeavor, odds: EndeavorOdds) -> dict[str, Any]:
    """The figures a page shows (:data:`SHOWN`), with ``p_success`` (the flagship
    afloat too) and ``damage_capacity``."""
    full = odds.to_json()
    out = {key: full[key] for key in SHOWN}
    capacity = damage_capacity(state, end)
    chance = p_success(odds, capacity)
    out["p_success"] = float(chance)
    out["exact"] = {**out["exact"], "p_success": exact(chance)}
    out["damage_capacity"] = capacity
    return out


def no_dice_odds(state: SeaFallState, end: Endeavor) -> EndeavorOdds:
    """The odds of a pool of no dice (a garrison or powers that take away every die): no
    roll is asked, the endeavor fails at once and the whole defense is damage, but the
    preview still says so in figures (it showed none)."""
    return endeavor_odds(SEAFALL, 0, end.defense, pool_rules(state, end))
