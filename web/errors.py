"""One JSON shape for every error: ``{"error": code, "message": readable}``.

400 malformed (:class:`InvalidCommand`, bad JSON), 403 not allowed (:class:`Forbidden`), 404
unknown resource, 429 too many attempts (:class:`TooManyRequests`), 409 the rules say no
(:class:`IllegalCommand`) or the page is stale (``conflict``: :class:`VersionConflict`, with
the current version so the page can refresh, or a campaign moved on, ``CampaignConflict``),
507 the disk is full, so nothing was written (``storage_full``: :class:`StorageFull`),
503 the disk is read-only, so nothing was written (``storage_read_only``), or it failed a
read or a write (a disk I/O error: ``storage_failing``; the storage alert then stays on the
pages until serve restarts),
413 a request over the upload limit, a photo too large (``too_large``: says the limit in MB),
500 a stored table this Tableside cannot open
(:class:`Unopenable`) or a bug. A message made from a message key (:mod:`vision.said`: the
dice reads' refusals) also gives ``said``, its key and values, for a page to say it in its
language; a table's engine refusing a command in a language it has (SeaFall: French) gives
``phrases``, the refusal said in the request's language (:func:`refusal_phrases`).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, jsonify, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from companion.errors import SETUP_REFUSALS, IllegalCommand, InvalidCommand, SetupRefused
from companion.games import find_game
from companion.store.campaigns import CONFLICTS, CampaignConflict
from companion.store.errors import (
    StorageFailing,
    StorageFull,
    StorageRefused,
    VersionConflict,
    refused,
)
from vision.said import Message, message, said_json, said_of
from web.i18n import request_language

CAMPAIGN_MOVED: dict[str, Message] = {
    code: message(f"campaign.{code}", english) for code, english in CONFLICTS.items()}
"""A campaign conflict's sentence (its English is the store's) as a message, by its code."""
SETUP_REFUSED: dict[str, Message] = {
    code: message(f"setup.{code}", english) for code, english in SETUP_REFUSALS.items()}
"""A setup refused for what a player chose (how many provinces, their names: the home
page's form), as a message, by its code (its English is the companion's)."""
PHOTO_TOO_LARGE = message(
    "photo.over_limit", "the photo is over {mb} MB, more than Tableside takes: send a smaller "
    "one (set the phone's camera to a lower resolution)")
"""A photo over the upload limit (413): a phone at its top quality (48 to 108 megapixels)
sends 20 to 30 MB; the dice read as well at 2,000 to 3,000 pixels."""
REQUEST_TOO_LARGE = message("request.over_limit",
                            "the request is over {mb} MB, more than Tableside takes")


def upload_limit_mb() -> int:
    """The upload limit (Flask's ``MAX_CONTENT_LENGTH``) in whole MB, rounded up."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH") or 0
    return -(-int(limit) // (1024 * 1024))


class NotFound(LookupError):
    """A table, game or other resource that does not exist."""


class Unopenable(RuntimeError):
    """A table the store holds but this Tableside cannot open (500, ``unopenable``): its
    ``game`` is not one it has (``known`` false), or its records no longer replay (a
    database from another version). The message says which and what to do; the table is
    left as it is."""

    def __init__(self, session_id: str, game: str, known: bool) -> None:
        why = (f"its records do not replay with this Tableside's {game} rules" if known
               else f"its game {game!r} is not one this Tableside has")
        super().__init__(f"table {session_id!r} cannot be opened: {why}. It is kept as it "
                         f"is; 'tableside sessions export {session_id}' saves it to keep or "
                         "to report")
        self.session_id, self.game, self.known = session_id, game, known


class Forbidden(PermissionError):
    """Not allowed for this session (403): a spectator writing, a player acting for another
    province, a host-only action, a bad or expired join token, a missing CSRF token.
    ``code`` is ``forbidden``, or ``csrf`` when the page should fetch its token again."""

    def __init__(self, message: str, code: str = "forbidden") -> None:
        super().__init__(message)
        self.code = code


class TooManyRequests(Exception):
    """Too many attempts from one address (429); ``retry_after`` is in whole seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def error_response(status: int, code: str, message: str, **extra: Any) -> Any:
    """The JSON error; a ``message`` made from a message key (vision.said) comes with its
    key and values (``said``), for a page to say it in its language."""
    said = said_json(message)
    if _a_page_asked():
        from web.pages import error_page  # the pages import this module

        return error_page(status, message, said)
    response = jsonify({"error": code, "message": message, **extra,
                        **({"said": said} if said is not None else {})})
    response.status_code = status
    return response


def _a_page_asked() -> bool:
    """A browser following a link (the host link, an address typed or left over), not the
    API nor a script's fetch: it gets a page, not JSON."""
    return (request.method == "GET" and not request.path.startswith(("/api/", "/static/"))
            and request.accept_mimetypes.best_match(["application/json", "text/html"])
            == "text/html")


def refusal_phrases(message: str) -> dict[str, Any]:
    """``{"phrases": {message: said}}``: a game's refusal said in the request's language by
    its engine (the optional ``refusal(text, lang)``), for a request about a table or a
    campaign (``session_id`` or ``campaign_id`` in its address); nothing in English, or
    when the engine does not say it otherwise. ``message`` stays English, as written."""
    lang = request_language(request)
    if lang == "en" or said_json(message) is not None:
        return {}
    refusal = getattr(_engine_asked(), "refusal", None)
    said = str(refusal(message, lang=lang)) if refusal is not None else message
    return {"phrases": {message: said}} if said != message else {}


def _engine_asked() -> Any:
    """The engine of the table or campaign the request is about, or None."""
    args = request.view_args or {}
    services = current_app.extensions["tableside"]
    try:
        if isinstance(args.get("session_id"), str):
            return services.tables.get(args["session_id"]).engine
        if isinstance(args.get("campaign_id"), str):
            return find_game(services.store.campaign(args["campaign_id"]).game)
    except Exception:  # noqa: BLE001  (a refusal is answered even when its table is not)
        return None
    return None


def init_app(app: Flask) -> None:
    @app.errorhandler(InvalidCommand)
    def _invalid(exc: InvalidCommand) -> Any:
        message = (SETUP_REFUSED[exc.code](**exc.values) if isinstance(exc, SetupRefused)
                   else said_of(exc))  # a game's (a roll's faces that do not fit) said as refusals
        return error_response(400, "invalid", message, **refusal_phrases(message))

    @app.errorhandler(IllegalCommand)
    def _illegal(exc: IllegalCommand) -> Any:
        message = said_of(exc)
        return error_response(409, "illegal", message, **refusal_phrases(message))

    @app.errorhandler(VersionConflict)
    def _conflict(exc: VersionConflict) -> Any:
        return error_response(409, "conflict", str(exc), version=exc.actual)

    @app.errorhandler(CampaignConflict)
    def _campaign_moved(exc: CampaignConflict) -> Any:  # a game set up, recorded, taken back
        if exc.code == "played":  # not a stale page: the page asks again (campaign.js)
            return error_response(409, "played", CAMPAIGN_MOVED[exc.code](**exc.values),
                                  moves=exc.values["moves"])
        return error_response(409, "conflict", CAMPAIGN_MOVED[exc.code](**exc.values))

    @app.errorhandler(StorageRefused)
    def _refused(exc: StorageRefused) -> Any:  # the Pi's card: nothing was written
        services = app.extensions.get("tableside")
        if services is not None:  # a failing card: the storage alert on every page
            services.storage_refused(exc)
        if isinstance(exc, StorageFull):
            return error_response(507, "storage_full", str(exc))
        if isinstance(exc, StorageFailing):
            return error_response(503, "storage_failing", str(exc))
        return error_response(503, "storage_read_only", str(exc))

    @app.errorhandler(NotFound)
    def _not_found(exc: NotFound) -> Any:
        return error_response(404, "not_found", said_of(exc) if exc.args else "not found")

    @app.errorhandler(Unopenable)
    def _unopenable(exc: Unopenable) -> Any:
        return error_response(500, "unopenable", str(exc))

    @app.errorhandler(Forbidden)
    def _forbidden(exc: Forbidden) -> Any:
        return error_response(403, exc.code, said_of(exc))

    @app.errorhandler(TooManyRequests)
    def _too_many(exc: TooManyRequests) -> Any:
        response = error_response(429, "too_many_requests", said_of(exc),
                                  retry_after=exc.retry_after)
        response.headers["Retry-After"] = str(exc.retry_after)
        return response

    @app.errorhandler(RequestEntityTooLarge)
    def _too_large(exc: RequestEntityTooLarge) -> Any:  # over MAX_CONTENT_LENGTH: said so
        said = (PHOTO_TOO_LARGE if request.path.endswith("/dice/photo")
                else REQUEST_TOO_LARGE)(mb=upload_limit_mb())
        return error_response(413, "too_large", said, limit_mb=upload_limit_mb())

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Any:
        code = (exc.name or "error").lower().replace(" ", "_")
        return error_response(exc.code or 500, code, exc.description or exc.name)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Any:
        if (said := refused(exc, "the server's files")) is not None:  # a side file (who
            # joined, the rule index) on a disk that takes no write
            app.logger.warning("%s %s: %s", request.method, request.path, exc)
            return _refused(said)
        # a bug: logged with its traceback, answered in the same shape, nothing half-done
        # is acknowledged (a command is acknowledged only after its events are committed)
        app.logger.exception("unexpected error on %s %s", request.method, request.path)
        return error_response(500, "internal", "something went wrong on the server; the "
                              "table is unchanged unless the answer said otherwise")
