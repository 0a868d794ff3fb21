"""The pages served to a browser: the start page, the phone table, the photo page, the TV
view, the join page, the campaign page and the rules page (docs/ui.md).

Pages are thin HTML shells in the player's language; the JavaScript modules in
``web/static/js/`` fetch the JSON API and follow the live stream, so what a phone shows is
always what the API says. Text from the engine is inserted as text, never as HTML.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from functools import partial
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, current_app, make_response, redirect, render_template, request, url_for

from companion.dice import builtin_dice
from companion.games.seafall.endgame import APPELLATION_MAX, FIELD_MAX
from companion.games.seafall.map import default_map
from companion.games.seafall.setup import COLOURS, DEFAULT_FIELDS, demo_options
from companion.names import MAX_NAME
from companion.store.campaigns import UnknownCampaign
from companion.table import Table
from web import auth, i18n
from web.errors import NotFound, Unopenable
from web.rules.notes import GAMES as RULE_GAMES
from web.rules.notes import LANGUAGES as NOTE_LANGUAGES
from web.services import Services
from web.tablelist import listed

bp = Blueprint("pages", __name__)
bp.record_once(lambda state: i18n.init_app(state.app))

ONE_YEAR = 365 * 24 * 3600
GAME_TITLES = {"seafall": "SeaFall"}  # as the box spells it


def game_title(game: str) -> str:
    return GAME_TITLES.get(game, game.replace("_", " ").title())


def _services() -> Services:
    services: Services = current_app.extensions["tableside"]
    return services


def _render(template: str, status: int = 200, **context: Any) -> Any:
    """Render a page in the request's language, with what its script needs as JSON."""
    lang = i18n.choose_language(request)
    cat = i18n.catalogue(current_app, lang)
    config = {"lang": lang, "strings": dict(cat.strings), **context.pop("config", {})}
    html = render_template(template, lang=lang, t=cat.get, config=config, game_title=game_title,
                           player_name=partial(_player_name, cat.get), max_name=MAX_NAME,
                           other_lang=[code for code in i18n.LANGUAGES if code != lang],
                           **context)
    response = make_response(html, status)
    response.headers["Content-Language"] = lang
    return response


def _player_name(get: Any, name: str) -> str:
    """A player's name as a page says it: one the setup gave by default, a colour ("Blue"),
    in the page's language ("Bleu"), as the scripts' playerName does; any other as typed."""
    default = name.lower() if name == name.title() else None
    return get(f"colour.{default}") if default in COLOURS else name


def _dice() -> dict[str, list[dict[str, Any]]]:
    """Each built-in die's faces, so a roll prompt can offer them as buttons."""
    return {name: [{"label": label, "kind": die.face(label).kind} for label in die.labels]
            for name, die in builtin_dice().items()}


def _table_or_page(session_id: str) -> Any:
    """The table, or the page to show instead: the missing-table page, or the page for a
    stored table this Tableside cannot open."""
    try:
        return _services().tables.get(session_id)
    except NotFound:
        return _missing(session_id)
    except Unopenable as exc:
        return _render("unopenable.html", status=500, failed=exc)


def _missing(what: str) -> Any:
    return _render("missing.html", status=404, what=what)


def error_page(status: int, message: str, said: Mapping[str, Any] | None) -> Any:
    """A refusal met by following a link in a browser (a wrong host PIN, an address that
    leads nowhere), as a page in the browser's language rather than the API's JSON: the
    missing page for a 404, else the reason (``said``: its message key and values)."""
    if status == 404:
        return _missing(request.path)
    cat = i18n.catalogue(current_app, i18n.choose_language(request))
    why = message
    if said is not None and f"said.{said['key']}" in cat.strings:
        plain = {k: v for k, v in said["values"].items() if isinstance(v, (str, int, float))}
        if len(plain) == len(said["values"]):
            why = cat.get(f"said.{said['key']}", **plain)
    return _render("refused.html", status=status, why=why[:1].upper() + why[1:])


SVG_NS = "http://www.w3.org/2000/svg"  # a namespace name, not a download
RECENT_TABLES = 8  # the home page lists these tables; the older ones are folded under them


def _svg_data_uri(svg: str) -> str:
    """An SVG (our own QR code) as an image URL: shown by <img>, never parsed into the page.
    An image needs the SVG namespace, which inline SVG leaves out."""
    if "xmlns=" not in svg.split(">", 1)[0]:
        svg = svg.replace("<svg", f'<svg xmlns="{SVG_NS}"', 1)
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


@bp.get("/")
def index() -> Any:
    services = _services()
    campaigns = services.store.campaigns() if hasattr(services.store, "campaigns") else []
    demo_links = None
    if services.demo_table is not None:  # the demo shows its host link on purpose
        demo_links = auth.demo_links(services.auth, services.demo_table, request.host_url)
        demo_links["qr_src"] = _svg_data_uri(demo_links["qr_svg"])
    others = [name for game, name in RULE_GAMES.items() if game not in GAME_TITLES]
    return _render("index.html", tables=listed(services.store), recent=RECENT_TABLES,
                   notes_only=", ".join(others),
                   demo=services.demo_table,
                   demo_links=demo_links, campaigns=campaigns, colours=COLOURS,
                   config={"page": "home", "demo_options": demo_options()})


def _table_page(page: str, session_id: str, **config: Any) -> Any:
    """One of a table's pages (``<page>.html``), or the missing-table page."""
    found = _table_or_page(session_id)
    if not isinstance(found, Table):
        return found
    return _render(f"{page}.html", table=found, config={
        "page": page, "table": session_id, "game": found.game, "game_titles": GAME_TITLES,
        # the server's upload limit: a photo over it is sent smaller (dice.js, photoToSend)
        "upload_limit": current_app.config.get("MAX_CONTENT_LENGTH"), **config})


def _sea_hexes() -> list[str]:
    """The map's open-sea hexes, column by column (docs/seafall-actions.md, "The map"): where
    the host's "Set up the board" places an island."""
    hexes = [s for s in default_map().neighbours if s.startswith("(")]
    return sorted(hexes, key=lambda s: tuple(int(n) for n in s.strip("()").split(",")))


@bp.get("/t/<session_id>")
def table(session_id: str) -> Any:
    campaign = _services().store.campaign_of(session_id)
    # "Set up the board" (the host's, docs/ui.md): the hexes an island may stand on, and the
    # demonstration's first example island, to fill the island form with as a sample
    return _table_page("table", session_id, dice=_dice(), campaign=None if campaign is None
                       else {"id": campaign.id, "name": campaign.name},
                       sea_hexes=_sea_hexes(), sample_island=demo_options()["islands"][0])


@bp.get("/t/<session_id>/photo")
def photo(session_id: str) -> Any:
    return _table_page("photo", session_id, dice=_dice())


@bp.get("/t/<session_id>/tv")
def tv(session_id: str) -> Any:
    return _table_page("tv", session_id)


@bp.get("/join/<session_id>")
def join(session_id: str) -> Any:
    found = _table_or_page(session_id)
    if not isinstance(found, Table):
        return found
    services = _services()
    holders = services.auth.store.holders(session_id)
    provinces = [{"colour": seat["id"], "player": seat["name"],
                  "taken_by": holders.get(seat["id"], [])} for seat in auth.seats(found)]
    token = request.args.get("token", "")
    # a link that expired or was replaced says so at once, not after the form is filled in
    link_valid = bool(token) and services.auth.store.invite_valid(session_id, token,
                                                                   services.auth.clock())
    # why it no longer works: a server restarted since it was made (`serve --demo` makes a
    # new link at each start) is said so, rather than "it expired"
    # a token never made (typed, made up, mangled) is no join link at all: it never expired
    gone = ("join.link_cut" if not token else "join.link_unknown"
            if not link_valid and services.auth.store.invite_expiry(session_id, token) is None
            else "join.link_restarted"
            if not link_valid and services.auth.gone_by_restart(session_id, token)
            else "join.link_gone")
    return _render("join.html", table=found, provinces=provinces, link_valid=link_valid,
                   link_gone=gone, config={"page": "join", "table": session_id, "token": token})


@bp.get("/campaigns/<campaign_id>")
def campaign(campaign_id: str) -> Any:
    try:
        _services().store.campaign(campaign_id)
    except UnknownCampaign:
        return _missing(campaign_id)
    return _render("campaign.html", campaign_id=campaign_id, config={
        "page": "campaign", "campaign": campaign_id, "game_titles": GAME_TITLES,
        "colours": list(COLOURS), "new_fields": list(DEFAULT_FIELDS), "field_max": FIELD_MAX,
        "appellation_max": APPELLATION_MAX})


@bp.get("/rules")
def rules() -> Any:
    """Every game's rule notes, searched (the table page searches its own game's); what
    Tableside does for each game: SeaFall is played at a table, the others have notes only."""
    counts: dict[str, dict[str, int]] = {g: {lang: 0 for lang in NOTE_LANGUAGES}
                                         for g in RULE_GAMES}
    for note in _services().rules.notes():
        counts[note["game"]][note["lang"]] += 1
    chosen = request.args.get("game", "seafall")
    games = [{"game": g, "name": name, "playable": g in GAME_TITLES, "notes": counts[g]}
             for g, name in RULE_GAMES.items()]
    return _render("rules.html", games=games,
                   chosen=chosen if chosen in RULE_GAMES else "seafall",
                   config={"page": "rules"})


@bp.get("/lang/<code>")
def switch_language(code: str) -> Any:
    """The language switch: remember the choice in a cookie and go back where we were."""
    if code not in i18n.LANGUAGES:
        return _missing(code)
    target = request.args.get("next", "/")
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        target = url_for("pages.index")
    response = redirect(target)
    response.set_cookie(i18n.COOKIE, code, max_age=ONE_YEAR, samesite="Lax", httponly=True)
    return response
