"""Advisor expertise: what the active advisor adds to an action (rulebook, "Advisors";
"End of Game" > "Train Advisors": expertise of the same kind combines)."""

from __future__ import annotations

from companion.games.seafall.powers import standing_amount
from companion.games.seafall.state import SeaFallState


def active_expertise(state: SeaFallState, player: str, kind: str) -> int:
    """The expertise of ``kind`` (raid, explore, taxes, buy, sell, upgrade, build, research)
    a player has now: the active advisor's, plus ``expertise`` powers standing for them
    (treasures, structures, the event: :mod:`companion.games.seafall.powers`)."""
    extra = standing_amount(state, player, "expertise", kind)
    name = state.provinces[player].active_advisor
    advisor = state.catalogue.advisors.get(name) if name is not None else None
    return extra + (advisor.expertise.get(kind, 0) if advisor is not None else 0)
