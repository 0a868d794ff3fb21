"""Dice reads: a phone photo read for the table's roll prompt, the latest read, one read,
its evidence (frame and per-die crops), confirming and correcting it (docs/api.md "Dice").

The policy (applied at once, or pending until confirmed; corrections) is in
:mod:`web.runtime.dice`. Sending a photo, confirming and correcting need a player (or the
host): the roll is sent as the session's province (as the table when the session may act
for all), and the session's name is recorded as who sent or corrected it.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from companion.errors import IllegalCommand, InvalidCommand
from vision.storage import check_name
from web import auth
from web.api.requests import json_body, optional_int, required_int
from web.errors import NotFound
from web.runtime.dice import parse_faces, table_reads_json
from web.services import Services

bp = Blueprint("dice", __name__, url_prefix="/api")


def _services() -> Services:
    services: Services = current_app.extensions["tableside"]
    return services


def _actor(session_id: str) -> tuple[str | None, str]:
    """(the province the roll is sent as, or None for the table; who to record)."""
    member = auth.current(session_id)
    actor = None if auth.acts_for_all(member, session_id) else member.province
    return actor, member.name or member.province or member.role


def _answer(record: Any, table: Any, status: int = 200) -> Any:
    out = table_reads_json(record, table)
    out["can_reread"] = _can_reread(record, table)
    response = jsonify(out)
    response.status_code = status
    return response


def _can_reread(record: Any, table: Any) -> bool:
    """Whether this is the camera's read that waits, and a running camera can read the
    tray again for it (:meth:`web.runtime.Runtime.reread_target`)."""
    runtime = _services().runtime
    waiting = runtime.reread_target(table) if runtime is not None else None
    return waiting is not None and waiting.id == record.id


@bp.post("/tables/<session_id>/dice/photo")
@auth.requires("player")
def photo(session_id: str) -> Any:
    """Multipart upload, field ``photo``."""
    services = _services()
    table = services.tables.get(session_id)
    upload = request.files.get("photo")
    if upload is None:
        raise InvalidCommand("send the picture as a multipart form field named 'photo'")
    try:
        data = upload.read()
    finally:
        upload.close()  # a large upload is spooled to a temporary file: free it now
    actor, who = _actor(session_id)
    record = services.dice().read_photo(table, data, actor, who)
    return _answer(record, table, 201)


@bp.get("/tables/<session_id>/dice/latest")
def latest(session_id: str) -> Any:
    """The latest read; 404 before the first, or with ``?if_any=1`` 204 and no body (the
    pages ask so: a browser logs each 404 as an error, one a poll on a table never read)."""
    services = _services()
    table = services.tables.get(session_id)
    try:
        record = services.dice().latest(table)
    except NotFound:
        if request.args.get("if_any") == "1":
            return Response(status=204)
        raise
    return _answer(record, table)


@bp.get("/tables/<session_id>/dice/<read_id>")
def one(session_id: str, read_id: str) -> Any:
    services = _services()
    table = services.tables.get(session_id)
    return _answer(services.dice().get(table, read_id), table)


@bp.post("/tables/<session_id>/dice/<read_id>/confirm")
@auth.requires("player")
def confirm(session_id: str, read_id: str) -> Any:
    """``{"faces": [...]?, "expected_version": n}``."""
    services = _services()
    table = services.tables.get(session_id)
    data = json_body()
    actor, who = _actor(session_id)
    record = services.dice().confirm(table, read_id, parse_faces(data),
                                     optional_int(data, "expected_version"), actor, who)
    return _answer(record, table)


@bp.post("/tables/<session_id>/dice/<read_id>/correct")
@auth.requires("player")
def correct(session_id: str, read_id: str) -> Any:
    """``{"die": i, "face": "weak", "expected_version"?}``."""
    services = _services()
    table = services.tables.get(session_id)
    data = json_body()
    die = required_int(data, "die", "'die' is the number of the die to correct (0 is the first)")
    face = data.get("face")
    if not isinstance(face, str):
        raise InvalidCommand("'face' is the face label the die really shows")
    actor, who = _actor(session_id)
    record = services.dice().correct(table, read_id, die, face,
                                     optional_int(data, "expected_version"), actor, who)
    return _answer(record, table)


@bp.post("/tables/<session_id>/dice/<read_id>/not-a-die")
@auth.requires("player")
def not_a_die(session_id: str, read_id: str) -> Any:
    """``{"die": i, "not_a_die": true|false, "expected_version"?}``: box ``i`` of a read
    waiting for a confirm is no die of the roll (or, false, a die after all)."""
    services = _services()
    table = services.tables.get(session_id)
    data = json_body()
    die = required_int(data, "die", "'die' is the number of the box (0 is the first)")
    flag = data.get("not_a_die", True)
    if not isinstance(flag, bool):
        raise InvalidCommand("'not_a_die' is true (no die of the roll) or false (a die)")
    actor, who = _actor(session_id)
    record = services.dice().mark_not_a_die(table, read_id, die, flag,
                                            optional_int(data, "expected_version"), actor, who)
    return _answer(record, table)


@bp.post("/tables/<session_id>/dice/<read_id>/add")
@auth.requires("player")
def add(session_id: str, read_id: str) -> Any:
    """``{"x": px, "y": px, "expected_version"?}``: a die the reader missed, where the
    table taps on the read's picture (its pixels, ``frame_size``)."""
    services = _services()
    table = services.tables.get(session_id)
    data = json_body()
    x, y = (required_int(data, key, "'x' and 'y' are the point tapped on the read's picture, "
                         "in its pixels (whole numbers)") for key in ("x", "y"))
    actor, who = _actor(session_id)
    record = services.dice().add_die(table, read_id, x, y,
                                     optional_int(data, "expected_version"), actor, who)
    return _answer(record, table)


@bp.post("/tables/<session_id>/dice/reread")
@auth.requires("player")
def reread(session_id: str) -> Any:
    """The camera reads the still tray again (as the button box's re-read): 202, and the
    new read comes as any read does (a new version, or the stream's dice event)."""
    services = _services()
    table = services.tables.get(session_id)
    if services.runtime is None:
        raise IllegalCommand("no camera runs here (tableside serve runs one)")
    services.runtime.reread(table)
    response = jsonify({"asked": True})
    response.status_code = 202
    return response


@bp.get("/dice/profiles")
def profiles() -> Any:
    """The dice profiles the reader reads custom faces with, and what each learned at the
    table (docs/vision.md, "Rolls and confirms")."""
    return jsonify({"profiles": _services().dice().readers.summaries()})


@bp.post("/tables/<session_id>/dice/profiles/<die>/forget")
@auth.requires("host")
def forget_lessons(session_id: str, die: str) -> Any:
    """``{"reads": [read id, ...]}``: the dice the profile learned from those reads
    forgotten; without ``reads``, everything it learned at the table. Its enrolled crops
    stay, and a copy is kept for ``restore``. A host's: the profile reads every table's
    dice."""
    data = json_body()
    reads = data.get("reads")
    if "reads" in data and (not isinstance(reads, list) or not reads
                            or not all(isinstance(r, str) for r in reads)):
        raise InvalidCommand("'reads' is a list of read ids (leave it out to forget "
                             "everything learned)")
    profile = _services().dice().readers.forget(_die(die), reads)
    return jsonify({"profile": profile.summary()})


@bp.post("/tables/<session_id>/dice/profiles/<die>/restore")
@auth.requires("host")
def restore_profile(session_id: str, die: str) -> Any:
    """The profile as it was before its last forgetting (asked again: the redo)."""
    profile = _services().dice().readers.restore(_die(die))
    return jsonify({"profile": profile.summary()})


def _die(name: str) -> str:
    try:
        return check_name(name, "die")
    except ValueError as exc:
        raise InvalidCommand(str(exc)) from None


@bp.get("/dice/<read_id>/frame.jpg")
def frame(read_id: str) -> Any:
    return _file(read_id, "frame.jpg", "image/jpeg")


@bp.get("/dice/<read_id>/crops/<int:n>.png")
def crop(read_id: str, n: int) -> Any:
    return _file(read_id, f"crop-{n}.png", "image/png")


def _file(read_id: str, name: str, mimetype: str) -> Any:
    store = _services().dice().store
    record = store.get(read_id)
    if record is None:
        raise NotFound(f"there is no dice read {read_id!r}")
    path = store.file(read_id, name)
    if path is None:
        why = ("" if name != "frame.jpg" and record.status != "superseded"
               else " (a newer read replaced it)" if record.status == "superseded"
               else " any more: the oldest pictures are reduced, then let go, to keep them "
                    "within their space (tableside serve --pictures-mb); its dice's crops "
                    "are kept")
        raise NotFound(f"read {read_id} has no {name}{why}")
    # small files, read whole: nothing is left open if the phone goes away mid-answer
    response = Response(path.read_bytes(), mimetype=mimetype)
    response.cache_control.max_age = 3600
    response.cache_control.private = True
    return response
