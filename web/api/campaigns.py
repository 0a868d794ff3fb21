"""Campaigns: the ledgers that carry a legacy game from one session to the next.

``GET /api/campaigns`` lists them; ``GET /api/campaigns/<id>`` gives one with the summary
its game draws from the latest ledger (titles, the historical record, permanent enmity);
``POST /api/campaigns`` starts one, ``POST /api/campaigns/<id>/next`` sets up its next game
(with ``{"changes": [...]}``, who joins, catches up, leaves or is absent) and
``POST /api/campaigns/<id>/record`` carries a finished game into the next ledger;
``POST /api/campaigns/<id>/take-back`` takes back the last of those two steps. A campaign
with a game under way says whether it can be recorded now (``"recording": {"ready": ...}``,
with the engine's reason when not), so that its page offers the step only once it will
be taken. A campaign whose final game is recorded is ``"over"`` (who is crowned, and in which
game; its summary's ``emperor`` too): its next game is refused.

Editing a campaign is the host's: the host of its latest game sets up the next one (and
becomes host of the new table, with a new PIN); recording needs the host of the game under
way. Anyone may start a new campaign; its creator hosts its games.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify

from companion.campaigns import record_game, start_campaign, start_next_game
from companion.errors import IllegalCommand, InvalidCommand
from companion.games import find_game
from companion.store.campaigns import CampaignInfo, UnknownCampaign
from vision.said import said_of
from web import auth
from web.api.requests import json_body
from web.errors import NotFound, Unopenable, refusal_phrases
from web.services import Services

bp = Blueprint("campaigns", __name__, url_prefix="/api/campaigns")


def _services() -> Services:
    services: Services = current_app.extensions["tableside"]
    return services


def _store() -> Any:
    store = _services().store
    if not hasattr(store, "campaigns"):
        raise NotFound("this event store keeps no campaigns")
    return store


def _info(campaign_id: str) -> CampaignInfo:
    try:
        info: CampaignInfo = _store().campaign(campaign_id)
    except UnknownCampaign:
        raise NotFound(f"there is no campaign {campaign_id!r}") from None
    return info


def campaign_json(info: CampaignInfo) -> dict[str, Any]:
    """The campaign, with its game's summary: of the game under way as it was set up (the
    ledger with who joined, came back, left or misses it), else of the latest ledger."""
    out = info.to_json()
    summarise = getattr(find_game(info.game), "campaign_summary", None)
    out["summary"] = None
    if summarise is not None:
        try:
            out["summary"] = summarise(_set_up_from(info))
        except (InvalidCommand, IllegalCommand):  # a game set up otherwise: the ledger's
            out["summary"] = summarise(info.ledger)
    if info.current is not None:
        out["recording"] = _recording(info.current)
    return out


def _set_up_from(info: CampaignInfo) -> Any:
    """The setup options of the game under way (the latest ledger and the changes of
    players made when it was set up), or the latest ledger with none under way."""
    if info.current is not None:
        try:
            return _store().session(info.current).options
        except Exception:  # noqa: BLE001 - its table gone: the ledger, as before
            return info.ledger
    return info.ledger


def _recording(session_id: str) -> dict[str, Any]:
    """Whether the game under way can be recorded now: ``{"ready": true}``, or the reason
    it cannot (the engine's refusal, as recording would answer it, with its ``phrases`` in
    the request's language): the game is not over and recorded yet. The campaign's final
    game is recorded like any other (its ledger marked ``campaign_over``)."""
    try:
        table = _services().tables.get(session_id)
        ledger = table.engine.next_game(table.state)
    except IllegalCommand as exc:
        reason = said_of(exc)
        return {"ready": False, "reason": reason, **refusal_phrases(reason)}
    except (NotFound, Unopenable) as exc:
        return {"ready": False, "reason": said_of(exc)}
    # the final game (the Emperor crowned): recorded, it ends the campaign
    return {"ready": True, "final": isinstance(ledger, dict) and "campaign_over" in ledger}


@bp.get("")
def list_campaigns() -> Any:
    return jsonify({"campaigns": [
        {"id": c.id, "name": c.name, "game": c.game, "version": c.version,
         "current": c.current, "over": c.over} for c in _store().campaigns()]})


@bp.get("/<campaign_id>")
def get_campaign(campaign_id: str) -> Any:
    return jsonify(campaign_json(_info(campaign_id)))


@bp.post("")
def create_campaign() -> Any:
    data = json_body()
    name, game, setup = data.get("name"), data.get("game", "seafall"), data.get("setup")
    if not isinstance(name, str) or not name.strip():
        raise InvalidCommand("'name' names the campaign")
    if not isinstance(game, str):
        raise InvalidCommand("'game' names the campaign's game")
    if not isinstance(setup, dict):
        raise InvalidCommand("'setup' is the first game's setup options (a JSON object)")
    try:
        find_game(game)
    except KeyError as exc:
        raise NotFound(str(exc.args[0])) from None
    info = start_campaign(_store(), name.strip(), game, setup)
    response = jsonify(campaign_json(info))
    response.status_code = 201
    return response


@bp.post("/<campaign_id>/next")
def next_game(campaign_id: str) -> Any:
    info = _info(campaign_id)
    if info.games:
        auth.require_host(info.games[-1].session_id)
    changes = json_body(optional=True).get("changes")
    if changes is not None and not isinstance(changes, list):
        raise InvalidCommand("'changes' is a list of changes of players (join, catch_up, "
                             "leave, absent)")
    table = start_next_game(_store(), campaign_id, changes=changes)
    _previous_game_moved(info)  # its pages point at the new game's table
    pin = _services().auth.new_host_pin(table.session_id)
    auth.set_member(table.session_id, auth.Member("host"))
    response = jsonify({"table": table.session_id, "host_pin": pin,
                        "csrf_token": auth.session()[1],
                        "campaign": campaign_json(_info(campaign_id))})
    response.status_code = 201
    return response


@bp.post("/<campaign_id>/record")
def record(campaign_id: str) -> Any:
    info = _info(campaign_id)
    if info.current is not None:
        auth.require_host(info.current)
    recorded = info.current
    info = record_game(_store(), campaign_id)
    if recorded is not None:  # its table's pages: the game stays as recorded now
        _services().live.campaign_changed(recorded)
    return jsonify(campaign_json(info))


@bp.post("/<campaign_id>/take-back")
def take_back(campaign_id: str) -> Any:
    """Take back the campaign's last step, ``{"kind": "game"|"recording", "session": ID}``
    as ``last_step`` showed it (another phone may have taken it back first: 409
    ``conflict``); ``"played": true`` takes out a game with moves played on its table
    (without it, 409 ``played``, with ``moves``)."""
    info = _info(campaign_id)
    step = info.last_step
    if step is not None:
        auth.require_host(step[1])
    data = json_body(optional=True)
    expected = (data.get("kind"), data.get("session")) if data else None
    if expected is not None and not all(isinstance(x, str) for x in expected):
        raise InvalidCommand("say what is taken back: {\"kind\": \"game\" or \"recording\", "
                             "\"session\": ID}, as the campaign's last_step")
    played = bool(data.get("played")) if data else False  # asked again, for a game played
    after = _store().take_back_campaign_step(campaign_id, expected, played=played)
    if step is not None:  # its table's pages: a table of its own, or under way again
        _services().live.campaign_changed(step[1])
        if step[0] == "game":  # the game before no longer has a next one
            _previous_game_moved(info)
    return jsonify(campaign_json(after))


def _previous_game_moved(info: CampaignInfo) -> None:
    """Tell the pages of the campaign's last recorded game (as ``info`` had it) that the
    game after it was set up or taken back: they link to the next game's table."""
    recorded = [g for g in info.games if g.recorded and not g.withdrawn]
    if recorded:
        _services().live.campaign_changed(recorded[-1].session_id)
