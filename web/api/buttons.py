"""The software button box on the dashboard: ``GET`` what the buttons mean now and which
lights are lit; ``POST`` a click (or a long press) of one button.

``POST /api/tables/<id>/buttons`` with ``{"button": 0, "long": false}``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify

from companion.errors import InvalidCommand
from web import auth
from web.api.requests import json_body
from web.api.tables import table_json
from web.services import Services

bp = Blueprint("buttons", __name__, url_prefix="/api/tables")


def _services() -> Services:
    services: Services = current_app.extensions["tableside"]
    return services


def _status(session_id: str) -> dict[str, Any]:
    services = _services()
    table = services.tables.get(session_id)
    buttons = services.buttons_for(table)
    expects = buttons.expectation(table)
    return {"expects": {"actions": sorted(expects.actions), "options": expects.options},
            "leds": buttons.leds(table), "fortune": buttons.pending_fortune(table),
            "fortune_counted": buttons.has_counted(table)}


@bp.get("/<session_id>/buttons")
def status(session_id: str) -> Any:
    return jsonify(_status(session_id))


@bp.post("/<session_id>/buttons")
@auth.requires("player")
def click(session_id: str) -> Any:
    services = _services()
    table = services.tables.get(session_id)
    data = json_body()
    button, long = data.get("button"), data.get("long", False)
    box = services.software_box
    if not isinstance(button, int) or isinstance(button, bool) or \
            not 0 <= button < box.buttons:
        raise InvalidCommand(f"'button' is a button number, 0 to {box.buttons - 1}")
    if not isinstance(long, bool):
        raise InvalidCommand("'long' is true or false")
    buttons = services.buttons_for(table)
    results = [r for e in box.click(button, long) if (r := buttons.press(table, e))]
    out = _status(session_id)
    out["answers"] = [r["answer"] for r in results]
    out["table"] = table_json(table, None)
    return jsonify(out)
