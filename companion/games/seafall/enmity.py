"""Enmity: where a province's enmity sits, and how it is given (rulebook, "Tokens and Enmity").

* Defence: a raider removes a die for each enmity of theirs in the raided region: tokens on
  the island's sites and on its garrison and permanent stickers; for a province, tokens
  anywhere in that province (its sites and its At War With space) and permanent stickers.
* Offence: raiding a province you are at war with adds a die per token of theirs in your
  At War With space (stickers never add dice).
* Giving: enmity put on a site of a province you are at war with first returns that
  province's tokens from your At War With space (to their home enmity), then your own.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.seafall.state import SeaFallState


def enmity_in_region(state: SeaFallState, raider: str, region_id: str) -> int:
    """How many of ``raider``'s enmity (tokens and stickers) the region holds."""
    region = state.regions[region_id]
    total = region.permanent_enmity.get(raider, 0) + region.garrison_enmity.get(raider, 0)
    total += sum(state.sites[s].enmity.get(raider, 0) for s in region.sites)
    if region.kind == "province" and region.owner is not None:
        total += state.provinces[region.owner].at_war_with.get(raider, 0)
    return total


def at_war_tokens(state: SeaFallState, raider: str, defender: str) -> int:
    """Tokens of ``defender`` in ``raider``'s At War With space (dice added when raiding)."""
    return state.provinces[raider].at_war_with.get(defender, 0)


@dataclass(frozen=True)
class EnmityPayment:
    """How ``count`` enmity is given: ``returned`` of the defender's, ``placed`` of one's own."""

    returned: int
    placed: int


def pay_enmity(state: SeaFallState, giver: str, count: int, defender: str | None) -> EnmityPayment:
    """Split ``count`` enmity between returned at-war tokens and the giver's own tokens."""
    returned = 0
    if defender is not None and not state.prologue:
        returned = min(count, state.provinces[giver].at_war_with.get(defender, 0))
    return EnmityPayment(returned, count - returned)


def can_pay_enmity(state: SeaFallState, giver: str, count: int, defender: str | None) -> bool:
    payment = pay_enmity(state, giver, count, defender)
    return payment.placed <= state.provinces[giver].home_enmity
