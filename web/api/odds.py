"""Exact dice odds: ``GET /api/odds/seafall`` and ``GET /api/odds/sum/<NdM>``.

The same figures as ``tableside odds`` (docs/odds.md), as JSON.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, jsonify

from companion.dice import D6, SEAFALL, find_die
from companion.dice.odds import MAX_DICE, endeavor_odds, sum_distribution
from companion.dice.rules import PoolRules
from companion.errors import InvalidCommand
from web.api.requests import query_flag, query_int
from web.errors import NotFound

bp = Blueprint("odds", __name__, url_prefix="/api/odds")


@bp.get("/seafall")
def seafall() -> Any:
    dice = query_int("dice", maximum=MAX_DICE)
    defense = query_int("defense", maximum=MAX_DICE)
    values: dict[str, int] = {}
    if query_flag("strong_counts_double"):
        values["strong"] = 2
    if query_flag("weak_counts_zero"):
        values["weak"] = 0
    rules = PoolRules(
        reroll=frozenset({"weak"}) if query_flag("reroll_weak") else frozenset(),
        values=tuple(values.items()),
        fortune=query_int("fortune", 0, maximum=MAX_DICE),
        dangerous=query_flag("dangerous"),
        fortune_at_dangerous=query_int("fortune_at_dangerous", 0, maximum=MAX_DICE),
        bonus=query_int("bonus", 0, maximum=MAX_DICE),
    )
    return jsonify(endeavor_odds(SEAFALL, dice, defense, rules).to_json())


_NDM = re.compile(r"^(\d+)d(\d+)$")


@bp.get("/sum/<what>")
def dice_sum(what: str) -> Any:
    match = _NDM.match(what)
    if match is None:
        raise InvalidCommand(f"{what!r} is not of the form NdM, like 2d6")
    count, sides = int(match[1]), int(match[2])
    if not 1 <= count <= MAX_DICE:
        raise InvalidCommand(f"the number of dice must be between 1 and {MAX_DICE}")
    if sides != 6:
        raise NotFound(f"no built-in die has {sides} sides (built in: d6)")
    die = find_die(D6.name)
    return jsonify(sum_distribution(die, count).to_json(what))
