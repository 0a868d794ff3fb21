"""One JSON shape for every error: ``{"error": code, "message": readable}``.

400 malformed (:class:`InvalidCommand`, bad JSON), 404 unknown resource, 409 the rules say no
(:class:`IllegalCommand`) or the page is stale (:class:`VersionConflict`, with the current
version so the page can refresh).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from companion.errors import IllegalCommand, InvalidCommand
from companion.store.errors import VersionConflict


class NotFound(LookupError):
    """A table, game or other resource that does not exist."""


def error_response(status: int, code: str, message: str, **extra: Any) -> Any:
    response = jsonify({"error": code, "message": message, **extra})
    response.status_code = status
    return response


def init_app(app: Flask) -> None:
    @app.errorhandler(InvalidCommand)
    def _invalid(exc: InvalidCommand) -> Any:
        return error_response(400, "invalid", str(exc))

    @app.errorhandler(IllegalCommand)
    def _illegal(exc: IllegalCommand) -> Any:
        return error_response(409, "illegal", str(exc))

    @app.errorhandler(VersionConflict)
    def _conflict(exc: VersionConflict) -> Any:
        return error_response(409, "conflict", str(exc), version=exc.actual)

    @app.errorhandler(NotFound)
    def _not_found(exc: NotFound) -> Any:
        return error_response(404, "not_found", str(exc.args[0]) if exc.args else "not found")

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Any:
        code = (exc.name or "error").lower().replace(" ", "_")
        return error_response(exc.code or 500, code, exc.description or exc.name)
