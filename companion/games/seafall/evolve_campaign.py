"""Folding the campaign's events: absent provinces passed by, the historical record's notes
and the Emperor's crowning (see :mod:`companion.games.seafall.campaign`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.seafall.evolve import handles
from companion.games.seafall.state import SeaFallState


@handles("AbsentPassedBy")
def _absent_passed_by(state: SeaFallState, p: Mapping[str, Any]) -> None:
    if p["step"] is not None and p["player"] in state.end_order:
        state.end_order.remove(p["player"])


@handles("HistoryNoted")
def _history_noted(state: SeaFallState, p: Mapping[str, Any]) -> None:
    entry = state.record[-1]
    for key in ("milestone_glory", "absent"):
        if p[key]:
            entry[key] = p[key].copy()


@handles("EmperorCrowned")
def _emperor_crowned(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.emperor = p["player"]
