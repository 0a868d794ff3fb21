"""Advisor expertise: what the active advisor adds to an action (rulebook, "Advisors";
"End of Game" > "Train Advisors": expertise of the same kind combines)."""

from __future__ import annotations

from companion.games.seafall.state import SeaFallState


def active_expertise(state: SeaFallState, player: str, kind: str) -> int:
    """The active advisor's expertise of ``kind`` (raid, explore, taxes, buy, sell, upgrade,
    build, research), 0 without an active advisor."""
    name = state.provinces[player].active_advisor
    if name is None:
        return 0
    advisor = state.catalogue.advisors.get(name)
    return advisor.expertise.get(kind, 0) if advisor is not None else 0
