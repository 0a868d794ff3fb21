"""Joining a table and its roles (docs/api.md, "Joining and roles").

``GET /api/session`` (a CSRF token for a new browser), ``GET /api/tables/<id>/me``,
``POST /api/tables/<id>/host {"pin"}``, ``GET|POST /api/tables/<id>/invite`` (host),
``POST /api/tables/<id>/join {"token", "name", "province"|null}``,
``POST /api/tables/<id>/settings {"players_act_for_all"}`` (host),
``DELETE /api/tables/<id>/seats/<province>`` (host) and the host link ``GET /host/<id>?pin=``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, redirect, request

from companion.errors import IllegalCommand, InvalidCommand
from companion.names import MAX_NAME, player_name
from vision.said import message
from web import auth
from web.api.requests import json_body
from web.auth_store import Member
from web.errors import Forbidden, NotFound
from web.services import Services

bp = Blueprint("join", __name__)

# why joining is refused (vision.said: said in the page's language)
WRONG_PIN = message("join.wrong_pin", "that is not this table's host PIN")()
NO_PIN = message("join.no_pin", "this host link has no PIN in it: open the whole link the "
                 "host was given, or type the host PIN on the table's page")()
LINK_INVALID = message(
    "join.link_invalid",
    "this join link is not valid (expired or replaced): ask the host for a new one")()
LINK_UNKNOWN = message(
    "join.link_unknown", "this is not a valid join link: ask the host for the link again")()
TAKEN = message("join.taken", "{seat} is already played by {holders}; ask the host to free it")
NAME = message("join.name", "type your name: 1 to {max} characters")(max=MAX_NAME)


def _services() -> Services:
    services: Services = current_app.extensions["tableside"]
    return services


def me_json(session_id: str) -> dict[str, Any]:
    table = _services().tables.get(session_id)
    member = auth.current(session_id)
    _, csrf = auth.session()
    holders = _services().auth.store.holders(session_id)
    return {"table": session_id, "role": member.role, "province": member.province,
            "name": member.name, "csrf_token": csrf,
            "players_act_for_all": _services().auth.store.players_act_for_all(session_id),
            "seats": [{**s, "taken_by": holders.get(s["id"], [])} for s in auth.seats(table)]}


@bp.get("/api/session")
def browser_session() -> Any:
    """A session (cookie) and its CSRF token, for a browser that has none yet."""
    _, csrf = auth.session()
    return jsonify({"csrf_token": csrf})


@bp.get("/api/tables/<session_id>/me")
def me(session_id: str) -> Any:
    return jsonify(me_json(session_id))


@bp.post("/api/tables/<session_id>/host")
def become_host(session_id: str) -> Any:
    _services().tables.get(session_id)
    auth.limiter_attempt(auth.TOO_MANY_PINS)
    pin = json_body().get("pin")
    if not isinstance(pin, str) or not pin:
        raise InvalidCommand("'pin' is the host PIN, as text")
    _claim_host(session_id, pin)
    return jsonify(me_json(session_id))


@bp.get("/host/<session_id>")
def host_link(session_id: str) -> Any:
    """The host link (``?pin=``): become host, then go to the table's page."""
    _services().tables.get(session_id)
    pin = request.args.get("pin", "")
    if not pin:  # a link cut short: no PIN tried, none counted against the limit
        raise Forbidden(NO_PIN)
    auth.limiter_attempt(auth.TOO_MANY_PINS)
    _claim_host(session_id, pin)
    return redirect(f"/t/{session_id}", code=303)


def _claim_host(session_id: str, pin: str) -> None:
    if not _services().auth.store.check_pin(session_id, pin):
        raise Forbidden(WRONG_PIN)
    mine = auth.current(session_id)
    auth.set_member(session_id, Member("host", mine.province, mine.name))


@bp.get("/api/tables/<session_id>/invite")
@auth.requires("host")
def invite(session_id: str) -> Any:
    return jsonify(_services().auth.invite(session_id, request.host_url).to_json())


@bp.post("/api/tables/<session_id>/invite")
@auth.requires("host")
def new_invite(session_id: str) -> Any:
    """A new join link; the old one stops working."""
    return jsonify(_services().auth.new_invite(session_id, request.host_url).to_json())


@bp.post("/api/tables/<session_id>/join")
def join(session_id: str) -> Any:
    services = _services()
    table = services.tables.get(session_id)
    auth.limiter_attempt(auth.TOO_MANY_JOINS)
    data = json_body()
    token, name, province = data.get("token"), data.get("name"), data.get("province")
    if not isinstance(token, str) or not token:
        raise InvalidCommand("'token' is the join link's token")
    if not services.auth.store.invite_valid(session_id, token, services.auth.clock()):
        # a token never made did not expire: said so
        unknown = services.auth.store.invite_expiry(session_id, token) is None
        raise Forbidden(LINK_UNKNOWN if unknown else LINK_INVALID)
    name = player_name(name)  # the setup's rule for its players' names
    if name is None:
        raise InvalidCommand(NAME)
    if province is not None and not isinstance(province, str):
        raise InvalidCommand("'province' is a province of the table, or null to watch")
    mine = auth.current(session_id)
    seat = None
    if province is not None:
        seat = auth.seat_of(table, province)
        if seat is None:
            ids = ", ".join(s["id"] for s in auth.seats(table))
            raise InvalidCommand(f"no province {province!r} at this table; provinces: {ids}")
        holders = services.auth.store.holders(session_id).get(seat, [])
        if holders and mine.province != seat:
            raise IllegalCommand(TAKEN(seat=seat, holders=", ".join(holders)))
    role = "host" if mine.role == "host" else ("player" if seat else "spectator")
    auth.set_member(session_id, Member(role, seat, name))
    services.live.seats_changed(session_id)  # the other phones: who plays what
    return jsonify(me_json(session_id))


@bp.post("/api/tables/<session_id>/settings")
@auth.requires("host")
def settings(session_id: str) -> Any:
    allowed = json_body().get("players_act_for_all")
    if not isinstance(allowed, bool):
        raise InvalidCommand("'players_act_for_all' is true or false")
    _services().auth.store.set_players_act_for_all(session_id, allowed)
    _services().live.seats_changed(session_id)  # the players' pages: what they may do
    return jsonify(me_json(session_id))


@bp.delete("/api/tables/<session_id>/seats/<province>")
@auth.requires("host")
def release_seat(session_id: str, province: str) -> Any:
    """Free a province (a lost phone): whoever played it becomes a spectator."""
    seat = auth.seat_of(_services().tables.get(session_id), province)
    if seat is None:
        raise NotFound(f"no province {province!r} at this table")
    _services().auth.store.release(session_id, seat)
    _services().live.seats_changed(session_id)  # the freed phone watches from now on
    return jsonify(me_json(session_id))
