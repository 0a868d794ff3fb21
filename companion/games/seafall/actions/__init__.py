"""The guild actions other than explore and raid (rulebook, the four guild pages):
sail, buy and sell goods, repair or upgrade, build, research, collect taxes.

Each command is a small module; ``COMMANDS`` maps command types to their deciders and
importing this package registers the events' evolve handlers. Reference and readings:
docs/seafall-actions.md.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.engine import Command, Event
from companion.games.seafall.actions import handlers  # noqa: F401  (registers handlers)
from companion.games.seafall.actions.build import build
from companion.games.seafall.actions.research import research
from companion.games.seafall.actions.sail import sail
from companion.games.seafall.actions.shipyard import repair, upgrade
from companion.games.seafall.actions.taxes import collect_taxes
from companion.games.seafall.actions.trade import buy, sell
from companion.games.seafall.state import SeaFallState

Decider = Callable[[SeaFallState, Command], list[Event]]

COMMANDS: dict[str, Decider] = {
    "sail": sail,
    "buy": buy,
    "sell": sell,
    "repair": repair,
    "upgrade": upgrade,
    "build": build,
    "research": research,
    "collect_taxes": collect_taxes,
}
