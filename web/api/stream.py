"""``GET /api/stream/<table_id>``: the table's live updates as Server-Sent Events (web.live).

Resume after a reconnect with the ``Last-Event-ID`` header (a browser's EventSource sends
it by itself) or ``?since=N``: the stream then sends exactly the versions after N. Each
phone gets its own view (``?viewer=`` may only name the session's own province), and its
event texts in its own language, chosen when it connects (``?lang=``, else the ``lang``
cookie, else ``Accept-Language``: web.i18n).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, request

from companion.errors import InvalidCommand
from web import auth, i18n
from web.errors import error_response
from web.live import StreamsFull
from web.services import Services

bp = Blueprint("stream", __name__)


def _since() -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.args.get("since")
    if raw in (None, ""):
        return None
    try:
        since = int(raw)
    except ValueError:
        raise InvalidCommand(f"'since' (or Last-Event-ID) is a version number, not {raw!r}"
                             ) from None
    if since < 0:
        raise InvalidCommand("'since' (or Last-Event-ID) is a version number >= 0")
    return since


@bp.get("/api/stream/<session_id>")
def stream(session_id: str) -> Any:
    services: Services = current_app.extensions["tableside"]
    table = services.tables.get(session_id)
    viewer = auth.viewer_for(table)
    since = _since()
    try:
        messages = services.live.stream(table, viewer, since, i18n.request_language(request))
    except StreamsFull as exc:
        response = error_response(503, "busy", str(exc))
        response.headers["Retry-After"] = "5"
        return response
    return Response(messages, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
