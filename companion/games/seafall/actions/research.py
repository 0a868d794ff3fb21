"""The Explorers' research action (rulebook, "Explorers Guild" > "Research").

Command::

    {"type": "research", "drawn": ["Chart", "Map"], "keep": "Chart",
     "effects": [{"effect": "dice", "endeavor": "explore", "amount": 1}]}

Research cards are physical: the table names the cards drawn (1 + the active advisor's
Research expertise, fewer if the deck ran short) and the one kept, with the kept card's
powers. Costs 3 gold; the kept card goes to the province's research, the rest are
dismissed. Not allowed until the campaign allows it (setup ``"research_allowed": true``).
"""

from __future__ import annotations

from companion.engine import Command, Event
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.actions.places import action_taken, start_action
from companion.games.seafall.advisors import active_expertise
from companion.games.seafall.args import names, only, text
from companion.games.seafall.effects import parse_effects
from companion.games.seafall.state import SeaFallState

RESEARCH_COST = 3
CARDS_DRAWN = 1  # before the advisor's Research expertise


def research(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "drawn", "keep", "effects")
    player = start_action(state, cmd, "research", "researching")
    prov = state.provinces[player]
    if not state.research_allowed:
        raise IllegalCommand("research is not possible yet in this campaign (no maps or "
                             "charts have been found)")
    drawn = names(args, "drawn", cmd.type)
    if not drawn or not all(drawn):
        raise InvalidCommand("'drawn' lists the names of the research cards drawn")
    most = CARDS_DRAWN + active_expertise(state, player, "research")
    if len(drawn) > most:
        raise IllegalCommand(f"{prov.player} draws {most} research card(s), not {len(drawn)}")
    keep = text(args, "keep", cmd.type) or ""
    if keep not in drawn:
        raise InvalidCommand(f"'keep' must be one of the cards drawn ({', '.join(drawn)})")
    try:
        effects = parse_effects(args.get("effects"), f"research card {keep!r}")
    except ValueError as exc:
        raise InvalidCommand(str(exc)) from None
    if prov.gold < RESEARCH_COST:
        raise IllegalCommand(f"{prov.player} has {prov.gold} gold; research costs "
                             f"{RESEARCH_COST}")
    dismissed = list(drawn)
    dismissed.remove(keep)
    em = action_taken(state, player, "research")
    em("ResearchCardKept", player=player, card=keep, dismissed=dismissed, cost=RESEARCH_COST,
       effects=[e.to_json() for e in effects])
    return em.events
