"""Powers that stand while something is held or revealed, beyond the active advisor's.

A treasure in a province's treasure room and a structure on its building sites give their
powers to their owner; the event revealed this round gives its powers to everyone
(rulebook, "Cards in the Game": treasures, structures, events). The effect vocabulary is in
:mod:`companion.games.seafall.effects`.
"""

from __future__ import annotations

from companion.games.seafall.effects import Effect, of_kind
from companion.games.seafall.state import SeaFallState


def standing_sources(state: SeaFallState, player: str) -> list[tuple[str, Effect]]:
    """Each effect working for ``player`` now, with where it comes from ("treasure Idol",
    "structure Port", "event Storm"): held treasures, own structures and the event."""
    found: list[tuple[str, Effect]] = []
    for card in state.provinces[player].treasures:
        found.extend((f"treasure {card.name}", e) for e in card.effects)
    for site in state.region_sites(player):
        kind = state.catalogue.structures.get(site.structure or "")
        if kind is not None:
            found.extend((f"structure {kind.name}", e) for e in kind.effects)
    if state.event is not None:
        found.extend((f"event {state.event}", e)
                     for e in state.event_powers.get(state.event, []))
    return found


def standing_effects(state: SeaFallState, player: str) -> list[Effect]:
    """Effects working for ``player`` now from held treasures, own structures and the event."""
    return [e for _, e in standing_sources(state, player)]


def standing_amount(state: SeaFallState, player: str, effect: str, kind: str | None = None
                    ) -> int:
    """The sum of the standing ``effect`` amounts (of one ``kind`` for expertise)."""
    return sum(e.amount for e in of_kind(standing_effects(state, player), effect)
               if kind is None or e.kind == kind)
