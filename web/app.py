"""The Flask application factory (STYLE.md "Web", after the Flask tutorial's flaskr).

``create_app(services=...)`` takes its services instead of reaching for module globals; each
feature is a blueprint; every error is JSON of one shape (:mod:`web.errors`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask
from flask.json.provider import DefaultJSONProvider

from companion import jsontext
from web import errors
from web.services import Services


class _RequestJSON(DefaultJSONProvider):
    """Flask's JSON, with request bodies nested past :data:`companion.jsontext.MAX_DEPTH`
    refused as not JSON (a body of ``[[[[...`` once raised ``RecursionError``: a 500)."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return jsontext.loads(s, **kwargs)


def create_app(services: Services, config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.json = _RequestJSON(app)
    app.config.update(JSON_SORT_KEYS=False, MAX_CONTENT_LENGTH=16 * 1024 * 1024)
    if config:
        app.config.update(config)
    app.extensions["tableside"] = services
    errors.init_app(app)
    from web import auth

    auth.init_app(app)  # sessions, roles and CSRF (web.auth)

    from web import pages
    from web.api import buttons, odds, tables

    app.register_blueprint(pages.bp)
    app.register_blueprint(odds.bp)
    app.register_blueprint(tables.bp)
    app.register_blueprint(buttons.bp)
    from web.api import join, stream

    app.register_blueprint(join.bp)  # joining and roles (web.auth)
    app.register_blueprint(stream.bp)  # live updates (web.live)
    from web.api import campaigns

    app.register_blueprint(campaigns.bp)
    from web.api import dice, dicestats, hardware

    app.register_blueprint(dice.bp)
    app.register_blueprint(dicestats.bp)  # the dice thrown against their odds
    app.register_blueprint(hardware.bp)
    from web.api import rules

    app.register_blueprint(rules.bp)  # rule lookup (web.rules)
    return app
