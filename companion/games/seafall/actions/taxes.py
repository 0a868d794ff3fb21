"""The Soldiers' collect taxes action (rulebook, "Soldiers Guild" > "Collect Taxes").

Command: ``{"type": "collect_taxes"}``. The vault gains 3 gold plus the active advisor's
Taxes expertise.
"""

from __future__ import annotations

from companion.engine import Command, Event
from companion.games.seafall.actions.places import action_taken, start_action
from companion.games.seafall.advisors import active_expertise
from companion.games.seafall.args import only
from companion.games.seafall.state import SeaFallState

TAXES = 3


def collect_taxes(state: SeaFallState, cmd: Command) -> list[Event]:
    only(cmd)
    player = start_action(state, cmd, "taxes", "collecting taxes")
    expertise = active_expertise(state, player, "taxes")
    em = action_taken(state, player, "taxes")
    em("TaxesCollected", player=player, amount=TAXES + expertise, expertise=expertise)
    return em.events
