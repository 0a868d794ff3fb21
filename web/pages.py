"""The pages served to a browser. For now: the start page with the odds calculator and the
tables in play (the phone dashboard is its own piece of work)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, render_template

from web.services import Services

bp = Blueprint("pages", __name__)


@bp.get("/")
def index() -> Any:
    services: Services = current_app.extensions["tableside"]
    sessions = services.store.sessions()
    return render_template("index.html", tables=sessions, demo=services.demo_table)
