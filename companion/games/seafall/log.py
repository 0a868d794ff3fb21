"""Readable log lines for SeaFall events, for the history view and ``tableside play``.

Written from the payload alone, so a log can be rendered from an exported session without
the state it was played in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.engine import Event


def _who(colour: Any) -> str:
    return str(colour).title() if colour else "The table"


_PLURALS = {"die": "dice", "success": "successes", "glory": "glory"}


def _n(count: int, word: str) -> str:
    return f"{count} {word if count == 1 else _PLURALS.get(word, word + 's')}"


def _started(p: Mapping[str, Any]) -> str:
    what = f"{p['site']}" if p.get("site") else f"{_who(p['target'])}'s province"
    pool = "; ".join(f"{line['reason']} {line['dice']:+d}" for line in p["pool"])
    return (f"{_who(p['player'])} {'explores' if p['kind'] == 'explore' else 'raids'} {what} "
            f"with {p['flagship']} (defense {p['defense']}"
            f"{', dangerous' if p['dangerous'] else ''}): {_n(p['dice'], 'die')} [{pool}]")


def _counted(p: Mapping[str, Any]) -> str:
    parts = [f"{p['rolled']} rolled"]
    if p["fortune"]:
        parts.append(f"{p['fortune']} from fortune")
    if p["bonus"]:
        parts.append(f"{p['bonus']} from powers")
    text = f"{_n(p['successes'], 'success')} ({', '.join(parts)}) against defense {p['defense']}"
    if p.get("strong_reduction"):
        text += f"; strong successes prevent {p['strong_reduction']}"
    return text + (f": {p['damage']} damage." if p["damage"] else ": no damage.")


_TEMPLATES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "GameSetUp": lambda p: "A new game of SeaFall is set up.",
    "TurnStarted": lambda p: f"{_who(p['player'])}'s turn begins.",
    "TurnEnded": lambda p: f"{_who(p['player'])}'s turn ends.",
    "AdvisorActivated": lambda p: f"{_who(p['player'])} activates {p['advisor']}.",
    "AdvisorExhausted": lambda p: f"{_who(p['player'])}'s {p['advisor']} is exhausted.",
    "ActionTaken": lambda p: f"{_who(p['player'])} takes the {p['action'].replace('_', ' ')} "
                             "action.",
    "GuildHired": lambda p: f"{_who(p['player'])} hires the {p['guild'].title()} guild.",
    "EndeavorStarted": _started,
    "DiceRolled": lambda p: f"Dice read ({p.get('source', 'typed')}): "
                            f"{', '.join(p['faces']) or 'no dice'}.",
    "RerollRequired": lambda p: f"Re-roll {_n(len(p['indices']), 'die')} "
                                f"showing {', '.join(p['kinds'])}.",
    "DiceRerolled": lambda p: f"Re-rolled: {', '.join(p['faces'])}.",
    "FortuneOffered": lambda p: f"Up to {p['maximum']} fortune may be spent.",
    "FortuneSpent": lambda p: f"{_who(p['player'])} spends {p['amount']} fortune.",
    "SuccessesCounted": _counted,
    "UpgradeExhausted": lambda p: f"{p['ship']} exhausts {p['upgrade']} to take a damage.",
    "DamageCardDrawn": lambda p: f"{p['ship']} takes a damage card ({p['card']}).",
    "HoldOverloaded": lambda p: f"{p['ship']}'s hold is over its value.",
    "GoodsReturned": lambda p: f"{p['ship']} returns {', '.join(p['goods'])} to the supply.",
    "ShipSank": lambda p: f"{p['ship']} sinks"
                          + (f", returning {', '.join(p['upgrades'])}" if p["upgrades"] else "")
                          + (f" and losing {', '.join(p['goods'])}" if p["goods"] else "") + ".",
    "GloryChanged": lambda p: f"{_who(p['player'])} {'gains' if p['amount'] > 0 else 'loses'} "
                              f"{_n(abs(p['amount']), 'glory')} ({p['reason']}).",
    "EndeavorFailed": lambda p: f"The endeavor fails: {p['reason']}.",
    "EndeavorSucceeded": lambda p: "The endeavor succeeds.",
    "EndeavorEnded": lambda p: "The endeavor is over.",
    "SiteExplored": lambda p: f"{p['site']} is explored.",
    "SiteRecorded": lambda p: f"{p['site']} is recorded as {p['kind']}"
                              + (f" ({p['colour']})" if p.get("colour") else "")
                              + (f" worth {p['value']} gold" if p.get("value") else "") + ".",
    "PlunderChosen": lambda p: f"Plunder from {p['site']}.",
    "PlunderSkipped": lambda p: f"No plunder: {p['reason']}.",
    "PlunderStepDone": lambda p: "Plunder taken.",
    "GoldTaken": lambda p: f"{_who(p['player'])} takes {p['amount']} gold"
                           + (f" from {_who(p['from_player'])}" if p.get("from_player") else "")
                           + ".",
    "GoodsSeized": lambda p: f"Seized: {', '.join(p['goods']) or 'nothing'}.",
    "GoodLoaded": lambda p: f"The {p['good']} goes aboard {p['ship']}.",
    "GoodLeft": lambda p: f"The {p['good']} is left behind (no room).",
    "UpgradeSeized": lambda p: f"{p['ship']} takes the {p['upgrade']} upgrade"
                               + (f", returning {p['replaced']}" if p.get("replaced") else "")
                               + ".",
    "StructureRaided": lambda p: f"{p['structure']} at {p['site']} is returned, exhausted.",
    "AdvisorSeized": lambda p: f"{_who(p['player'])} "
                               f"{'takes' if p['keep'] else 'dismisses'} {p['advisor']} "
                               f"from {_who(p['from_player'])}.",
    "CardSeized": lambda p: f"{_who(p['player'])} takes {p['card']} "
                            f"from {_who(p['from_player'])}.",
    "EnmityReturned": lambda p: f"{_who(p['holder'])} returns "
                                f"{_n(p['count'], 'enmity token')} to {_who(p['owner'])}.",
    "EnmityPlaced": lambda p: f"{_who(p['player'])} places "
                              f"{_n(p['count'], 'enmity token')} on {p['site']}.",
}


def describe(event: Event) -> str:
    """One readable sentence for an event."""
    template = _TEMPLATES.get(event.type)
    if template is None:
        return f"{event.type}."
    return template(event.payload)
