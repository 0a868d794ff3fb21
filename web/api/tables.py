"""Table sessions: list, create, view, apply commands, undo and redo, history.

Every change may carry ``expected_version`` (the version the page last saw); a stale page
gets 409 ``conflict`` with the current version instead of overwriting anything.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from flask import Blueprint, current_app, jsonify, request

from companion.engine import Command, Event
from companion.errors import InvalidCommand
from companion.games import find_game, game_names
from companion.table import Table
from web import auth, i18n
from web.api.requests import json_body, optional_int
from web.errors import NotFound
from web.live import event_text, phrases, view_json
from web.services import Services
from web.tablelist import listed

bp = Blueprint("tables", __name__, url_prefix="/api/tables")
HIDDEN = {"en": "(hidden)", "fr": "(caché)"}  # an event only its owner may read


def _services() -> Services:
    services: Services = current_app.extensions["tableside"]
    return services


def table_json(table: Table, viewer: str | None) -> dict[str, Any]:
    """The table as it is now for ``viewer``, its engine's phrases in the request's
    language (the live stream's shape: :func:`web.live.view_json`)."""
    return view_json(table, table.state, table.version, table.can_undo, table.can_redo,
                     viewer, i18n.request_language(request))


def _describe(table: Table, type_: str, payload: Any, lang: str = i18n.DEFAULT) -> str:
    """The engine's sentence for an event in the page's language (English when the engine
    writes only English)."""
    return event_text(table, Event(type_, dict(payload)), lang)


@bp.get("")
def list_tables() -> Any:
    return jsonify({"games": game_names(), "tables": listed(_services().store)})


@bp.post("")
def create_table() -> Any:
    data = json_body()
    game = data.get("game")
    if not isinstance(game, str):
        raise InvalidCommand("'game' names the game to set up")
    try:
        find_game(game)
    except KeyError as exc:
        raise NotFound(str(exc.args[0])) from None
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise InvalidCommand("'options' must be a JSON object")
    table = _services().tables.create(game, options, data.get("actor"))
    # the creator is the host; the PIN (to be host on another device) is shown only now
    pin = _services().auth.new_host_pin(table.session_id)
    auth.set_member(table.session_id, auth.Member("host"))
    out = table_json(table, None)
    out["host_pin"], out["csrf_token"] = pin, auth.session()[1]
    response = jsonify(out)
    response.status_code = 201
    return response


@bp.get("/<session_id>")
def get_table(session_id: str) -> Any:
    table = _services().tables.get(session_id)
    out = table_json(table, auth.viewer_for(table))
    out["campaign"] = _campaign_standing(session_id)
    out["seats"] = _seats_standing(session_id)
    return jsonify(out)


def _seats_standing(session_id: str) -> str:
    """Who plays which province and what players may do (the host's setting), as a short
    digest, for a page that polls instead of following the stream (whose ``seats`` event
    says the same): neither changes a version, so a poll compares this too and asks who it
    is again when it differs. A digest, so that the GET tells no names."""
    store = _services().auth.store
    standing = json.dumps([store.holders(session_id), store.players_act_for_all(session_id)],
                          sort_keys=True)
    return hashlib.sha256(standing.encode()).hexdigest()[:16]


def _campaign_standing(session_id: str) -> dict[str, Any] | None:
    """Where a game stands in its campaign, for a page that polls instead of following the
    stream (whose ``campaign`` event says the same): None for a table of its own (or a game
    whose setting up was taken back), else its campaign and whether it is recorded into it.
    Recording and taking back change no table version, so a poll compares this too."""
    store = _services().store
    campaign_of = getattr(store, "campaign_of", None)
    info = campaign_of(session_id) if campaign_of is not None else None
    if info is None:
        return None
    games = [g.session_id for g in info.games if not g.withdrawn]
    after = games[games.index(session_id) + 1:] if session_id in games else []
    return {"id": info.id, "name": info.name,
            "recorded": store.campaign_recorded(session_id) is not None,
            "next": after[0] if after else None}


@bp.get("/<session_id>/history")
def history(session_id: str) -> Any:
    table = _services().tables.get(session_id)
    viewer = auth.viewer_for(table)
    private_to = getattr(table.engine, "private_to", None)
    lang = i18n.request_language(request)  # ?lang=, else the cookie, else Accept-Language
    entries = []
    # the camera's command an undo would take back, or a redo bring back: whose roll it
    # answered, whose player may take it back too (auth.authorize_step)
    steps = {stack[-1]: which for which, stack in
             (("undo", table.applied), ("redo", table.redoable)) if stack}
    for entry in table.history():
        item = entry.to_json()
        which = steps.get(entry.record.command_no)
        if which is not None and entry.record.actor == "camera" and \
                entry.record.kind.value == "command":
            item["roller"] = auth.roller(table, entry.record, which)
        item["events"] = []
        for e in entry.record.events:
            owner = private_to(Event(e.type, dict(e.payload))) if private_to else None
            if owner is not None and owner != viewer:
                # hidden information stays in its owner's view: the others see that it
                # happened, not what it was, nor the command's arguments that carried it
                item["args"], item["hidden"] = {}, True
                item["events"].append({**e.to_json(), "payload": {},
                                       "text": HIDDEN.get(lang, HIDDEN["en"])})
            else:
                item["events"].append({**e.to_json(),
                                       "text": _describe(table, e.type, e.payload, lang)})
        entries.append(item)
    return jsonify({"id": table.session_id, "version": table.version, "lang": lang,
                    "history": entries})


@bp.get("/<session_id>/choices")
def choices(session_id: str) -> Any:
    """The commands the current player may send now, each with a summary (docs/api.md)."""
    table = _services().tables.get(session_id)
    legal = getattr(table.engine, "legal_commands", None)
    commands = legal(table.state) if legal is not None else []
    return jsonify({"version": table.version,
                    "prompts": [p.to_json() for p in table.prompts()],
                    "commands": commands,
                    # the previews' pool lines in the page's language
                    "phrases": phrases(table, commands, i18n.request_language(request))})


@bp.get("/<session_id>/next-game")
def next_game(session_id: str) -> Any:
    """The setup options of the campaign's next game, once this game is recorded."""
    table = _services().tables.get(session_id)
    carry_over = getattr(table.engine, "next_game", None)
    if carry_over is None:
        raise NotFound(f"{table.game} has no campaign to carry over")
    return jsonify(carry_over(table.state))


@bp.post("/<session_id>/commands")
def apply_command(session_id: str) -> Any:
    table = _services().tables.get(session_id)
    viewer = auth.viewer_for(table)
    data = json_body()
    expected = optional_int(data, "expected_version")
    command = Command.from_json({k: v for k, v in data.items() if k != "expected_version"})
    command = auth.authorize_command(table, command)  # 403 unless this session may send it
    events = table.apply(command, expected_version=expected)
    return _changed(table, events, viewer)


@bp.post("/<session_id>/undo")
def undo(session_id: str) -> Any:
    return _step_history(session_id, "undo")


@bp.post("/<session_id>/redo")
def redo(session_id: str) -> Any:
    return _step_history(session_id, "redo")


def _step_history(session_id: str, which: str) -> Any:
    """Undo or redo; the body (optional) carries ``actor`` and ``expected_version``."""
    table = _services().tables.get(session_id)
    viewer = auth.viewer_for(table)
    data = json_body(optional=True)  # a body cut short is refused, not taken for none
    expected = optional_int(data, "expected_version")
    actor = auth.authorize_step(table, which, data.get("actor"))  # 403: not theirs to undo
    step = table.undo if which == "undo" else table.redo
    events = step(actor, expected_version=expected)
    return _changed(table, events, viewer)


def _changed(table: Table, events: list[Any], viewer: str | None) -> Any:
    out = table_json(table, viewer)
    lang = i18n.request_language(request)
    out["events"] = [{**e.to_json(), "text": _describe(table, e.type, e.payload, lang)}
                     for e in events]
    return jsonify(out)
