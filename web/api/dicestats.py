"""``GET /api/tables/<id>/dice/stats``: the dice this table threw, face by face, against
the die's odds (:mod:`companion.dice.fairness`; docs/api.md, "Dice statistics").

The game says which dice were thrown (``engine.dice_thrown``: SeaFall's rolls and re-rolls,
with the province and how they were read); only commands in effect count, so an undone
roll is not counted and a redone one is. Each die is counted as a whole, by how it was
read (a camera reading one face too often shows here before anywhere else), and by
province. Rolls are public at the table, so anyone may read this.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from flask import Blueprint, current_app, jsonify

from companion.dice import Die, find_die
from companion.dice.fairness import MIN_EXPECTED, fairness
from companion.store.records import RecordKind
from companion.table import Table
from web.services import Services

bp = Blueprint("dicestats", __name__, url_prefix="/api")


@bp.get("/tables/<session_id>/dice/stats")
def dice_stats(session_id: str) -> Any:
    services: Services = current_app.extensions["tableside"]
    table = services.tables.get(session_id)
    return jsonify(stats_json(table))


def stats_json(table: Table) -> dict[str, Any]:
    thrown_by = getattr(table.engine, "dice_thrown", None)
    thrown = thrown_by(_events_in_effect(table)) if thrown_by is not None else []
    dice = []
    for name in dict.fromkeys(throw["die"] for throw in thrown):
        die = find_die(name)
        throws = [throw for throw in thrown if throw["die"] == name]
        every = [face for throw in throws for face in throw["faces"]]
        dice.append({**fairness(die, every).to_json(),
                     "by_source": _grouped(die, throws, "source"),
                     "by_player": _grouped(die, throws, "player")})
    return {"table": table.session_id, "version": table.version,
            "min_expected": MIN_EXPECTED, "dice": dice}


def _grouped(die: Die, throws: list[dict[str, Any]], key: str) -> dict[str, Any]:
    """The throws' faces counted per value of ``key`` (a province; ``table`` for dice no
    province threw)."""
    groups: dict[str, list[str]] = defaultdict(list)
    for throw in throws:
        groups[throw[key] or "table"].extend(throw["faces"])
    return {k: fairness(die, faces).to_json() for k, faces in sorted(groups.items())}


def _events_in_effect(table: Table) -> list[Any]:
    """The events of the setup and of every command in effect, in order."""
    return [e.event for entry in table.history() if not entry.undone
            and entry.record.kind in (RecordKind.SETUP, RecordKind.COMMAND)
            for e in entry.record.events]
