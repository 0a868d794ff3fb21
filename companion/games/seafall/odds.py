"""Exact odds for the endeavor on the table, before the dice are rolled.

The pool's powers become a :class:`~companion.dice.rules.PoolRules` (re-rolls, face values,
bonus successes, fortune and what a dangerous site allows), so the odds shown are those of
this very roll. Enduring's damage reduction is not in the odds (docs/odds.md).
"""

from __future__ import annotations

from companion.dice import SEAFALL
from companion.dice.odds import EndeavorOdds, endeavor_odds
from companion.dice.rules import PoolRules
from companion.games.seafall.state import Endeavor, SeaFallState


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
