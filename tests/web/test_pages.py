"""The pages through Flask's test client: every page renders in the right language (the
browser's Accept-Language, or the switch's cookie), the two catalogues have the same keys
and placeholders, every UI key the pages use exists, nothing is loaded from outside the
Pi, and server strings never become HTML. The pages' behaviour in a real browser is in
tests/e2e/browser/."""

from __future__ import annotations

import base64
import json
import re
import string
from pathlib import Path

import pytest

from companion.games.seafall.setup import demo_options
from tests.support.web import join
from web import i18n

WEB = Path(__file__).resolve().parents[2] / "web"
TEMPLATES = sorted((WEB / "templates").glob("*.html"))
SCRIPTS = sorted((WEB / "static").rglob("*.js"))
STYLES = sorted((WEB / "static").rglob("*.css"))


def page(client, path: str, **headers: str) -> tuple[int, str, dict]:
    response = client.get(path, headers=headers)
    html = response.get_data(as_text=True)
    match = re.search(r'<script type="application/json" id="config">(.*?)</script>', html, re.S)
    config = json.loads(match.group(1)) if match else {}
    return response.status_code, html, config


@pytest.fixture
def campaign_id(services) -> str:
    from companion.campaigns import start_campaign

    return start_campaign(services.store, "Ours", "seafall", demo_options()).id


@pytest.mark.parametrize("path, script", [
    pytest.param("/", "js/home.js", id="home"),
    pytest.param("/t/{id}", "js/table.js", id="phone table"),
    pytest.param("/t/{id}/photo", "js/photo.js", id="photo page"),
    pytest.param("/t/{id}/tv", "js/tv.js", id="TV view"),
    pytest.param("/join/{id}?token=abc", "js/join.js", id="join page"),
    pytest.param("/campaigns/{campaign}", "js/campaign.js", id="campaign page"),
    pytest.param("/rules", "js/rulespage.js", id="rules page"),
])
def test_pages_render_with_their_script_and_config(host, table_id, campaign_id, path, script):
    status, html, config = page(host, path.format(id=table_id, campaign=campaign_id))
    assert status == 200
    assert f'src="/static/{script}"' in html and 'type="module"' in html
    assert config["lang"] == "en" and config["strings"]["glory.title"] == "Glory"
    assert '<html lang="en"' in html
    asset = host.get(f"/static/{script}")
    assert asset.status_code == 200 and (b"import" in asset.data or b"export" in asset.data)
    asset.close()


def test_table_page_config_names_the_table_and_the_dice_faces(host, table_id):
    _, html, config = page(host, f"/t/{table_id}")
    assert config["table"] == table_id and config["game"] == "seafall"
    # the hardware card names the table the button box serves as the home page does
    assert config["game_titles"]["seafall"] == "SeaFall"
    assert [f["label"] for f in config["dice"]["seafall"]] == \
        ["blank", "standard", "weak", "strong"]
    for region in ("prompt", "builder", "dice", "glory", "provinces", "enmity",
                   "history-list", "undo", "redo", "rules-form", "hardware"):
        assert f'id="{region}"' in html


def test_an_unknown_table_is_a_404_page_in_html(host):
    response = host.get("/t/no-such-table", headers={"Accept-Language": "fr"})
    assert response.status_code == 404
    html = response.get_data(as_text=True)
    assert "Introuvable" in html and "no-such-table" in html


def test_a_link_followed_in_a_browser_gets_a_page_not_json(host, app, table_id):
    """A wrong host PIN, an unknown campaign or address: a page in the browser's language
    (docs/ui.md); the API and a script's fetch still get the JSON error."""
    browser_accept = "text/html,application/xhtml+xml,*/*;q=0.8"
    for path, status, words in ((f"/host/{table_id}?pin=000000", 403,
                                 "Ce n’est pas le code d’hôte de cette table."),
                                (f"/host/{table_id}", 403,  # cut short: not a wrong PIN
                                 "Ce lien d’hôte ne contient pas de code PIN"),
                                ("/campaigns/nope", 404, "Introuvable"),
                                ("/no/such/page", 404, "Introuvable")):
        code, html, _ = page(app.test_client(), path, Accept=browser_accept,
                             **{"Accept-Language": "fr"})
        assert code == status and words in html and '<html lang="fr"' in html, path
    fetched = app.test_client().get(f"/host/{table_id}?pin=000000",
                                    headers={"Accept": "application/json"})
    assert fetched.status_code == 403 and fetched.json["said"]["key"] == "join.wrong_pin"
    api = app.test_client().get("/api/nothing-here", headers={"Accept": browser_accept})
    assert api.status_code == 404 and api.json["error"] == "not_found"


def test_a_stored_table_that_will_not_open_is_a_page_saying_why(host, services, table_id):
    """A database from another Tableside: the table's pages said, in JSON, that something
    went wrong on the server."""
    doc = services.store.export_session(table_id)
    doc["session"].update(id="old", game="catan")
    services.store.import_session(doc)
    for path in ("/t/old", "/t/old/tv", "/join/old"):
        response = host.get(path, headers={"Accept-Language": "fr"})
        html = response.get_data(as_text=True)
        assert response.status_code == 500 and response.content_type.startswith("text/html")
        assert "Cette table ne peut pas être ouverte" in html and "«\u00a0catan\u00a0»" in html
        assert "tableside sessions export old" in html
    doc["session"].update(id="changed", game="seafall")
    doc["records"][0]["events"][0]["payload"] = {"nonsense": 1}
    services.store.import_session(doc)
    html = host.get("/t/changed").get_data(as_text=True)
    assert "This table cannot be opened" in html
    assert "do not replay with this Tableside’s SeaFall rules" in html


def test_home_lists_tables_and_shows_the_demo_host_link_and_join_qr(host, services, table_id):
    services.demo_table = table_id
    _, html, config = page(host, "/")
    assert f"/t/{table_id}" in html
    assert f"/host/{table_id}?pin=" in html and f"/join/{table_id}?token=" in html
    qr = re.search(r'src="data:image/svg\+xml;base64,([^"]+)"', html)
    assert qr is not None
    svg = base64.b64decode(qr.group(1)).decode()
    assert svg.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in svg
    assert config["demo_options"]["provinces"]  # the create form's demo setup
    assert ('<span class="table-players"><bdi>Blue</bdi>, <bdi>Green</bdi>, <bdi>Red</bdi>'
            '</span>') in html


def test_the_home_pages_list_says_default_players_in_the_pages_language(host, table_id):
    """The demo's players are named by their colours: a French page lists them in French
    (it said "Blue, Green, Red"); a name a player typed is kept as typed."""
    options = demo_options()
    options["provinces"][0]["player"] = "Ana"
    assert host.post("/api/tables", json={"game": "seafall", "options": options}).status_code \
        == 201
    html = host.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert ('<span class="table-players"><bdi>Bleu</bdi>, <bdi>Vert</bdi>, <bdi>Rouge</bdi>'
            '</span>') in html
    assert ('<span class="table-players"><bdi>Ana</bdi>, <bdi>Vert</bdi>, <bdi>Rouge</bdi>'
            '</span>') in html


def test_the_host_is_told_what_each_game_supports_and_finds_every_games_notes(host):
    """QA: the other three games could not be reached from any page, and nothing told a
    host that they only have rule notes. The create form says so, with the way to the
    rules page, which says what Tableside does for each game and searches its notes."""
    html = host.get("/").get_data(as_text=True)
    line = html[html.index('id="notes-only"'):]
    line = line[:line.index("</p>")]
    assert ("Rule notes only (no table to play at yet) for 7th Sea: City of Five Sails, "
            "After the Empire, Catan: Seafarers.") in line
    assert '<a href="/rules">Search their rules</a>' in line
    status, html, _ = page(host, "/rules?game=seafarers", **{"Accept-Language": "fr"})
    assert status == 200
    said = dict(re.findall(r'<dt data-game="([a-z-]+)">.*?</dt>\s*<dd[^>]*>(.*?)</dd>', html, re.S))
    assert said["seafall"].startswith("Se joue à une table")
    assert said["seafarers"] == ("Seulement des notes de règles (13, en anglais), pas encore "
                                 "de table pour y jouer.")
    assert '<option value="seafarers" selected>Catan: Seafarers</option>' in html
    assert 'id="rules-q"' in html and 'id="rules-results"' in html
    _, html, _ = page(host, "/rules?game=nonsense")
    assert '<option value="seafall" selected>SeaFall</option>' in html


@pytest.mark.parametrize("accept, cookie, expected", [
    pytest.param("fr-FR,fr;q=0.9,en;q=0.5", None, "fr", id="French browser"),
    pytest.param("en-GB,en;q=0.8", None, "en", id="English browser"),
    pytest.param("de-DE,de;q=0.9", None, "en", id="another language falls back to English"),
    pytest.param("de-DE,fr;q=0.5", None, "fr", id="French as second choice"),
    pytest.param("fr-FR", "en", "en", id="the switch's cookie wins over the browser"),
    pytest.param("en-US", "fr", "fr", id="cookie French on an English browser"),
    pytest.param("fr-FR", "xx", "fr", id="a bad cookie is ignored"),
])
def test_language_from_accept_language_and_the_cookie(app, table_id, accept, cookie, expected):
    client = app.test_client()
    if cookie is not None:
        client.set_cookie(i18n.COOKIE, cookie)
    status, html, config = page(client, f"/t/{table_id}", **{"Accept-Language": accept})
    assert status == 200
    assert config["lang"] == expected and f'<html lang="{expected}"' in html
    glory = {"en": "Glory", "fr": "Gloire"}[expected]
    assert f">{glory}<" in html and config["strings"]["glory.title"] == glory


def test_the_language_switch_sets_a_cookie_and_goes_back(app, table_id):
    client = app.test_client()
    response = client.get(f"/lang/fr?next=/t/{table_id}")
    assert response.status_code == 302 and response.headers["Location"] == f"/t/{table_id}"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("lang=fr") and "SameSite=Lax" in cookie
    _, html, _ = page(client, f"/t/{table_id}", **{"Accept-Language": "en"})
    assert '<html lang="fr"' in html and "Historique" in html
    _, html, _ = page(client, f"/t/{table_id}")
    assert f'href="/lang/en?next=/t/{table_id}"' in html  # the switch offers the other one


@pytest.mark.parametrize("target", ["//evil.example/x", "https://evil.example/", "javascript:x",
                                    "evil"])
def test_the_language_switch_never_redirects_off_site(app, target):
    response = app.test_client().get("/lang/en", query_string={"next": target})
    assert response.status_code == 302 and response.headers["Location"] == "/"


def test_an_unknown_language_is_404(app):
    assert app.test_client().get("/lang/xx").status_code == 404


def catalogues() -> dict[str, dict[str, str]]:
    """The catalogues as the pages get them (English with the code's messages)."""
    return {lang: dict(i18n.load(lang).strings) for lang in i18n.LANGUAGES}


def test_both_catalogues_have_the_same_keys_and_placeholders():
    cats = catalogues()
    assert set(cats["en"]) == set(cats["fr"])
    fields = string.Formatter()
    for key, text in cats["en"].items():
        if key.startswith("said."):
            continue  # the code's messages: a language may leave a value out (test_i18n_said)
        en = {f for _, f, _, _ in fields.parse(text) if f}
        fr = {f for _, f, _, _ in fields.parse(cats["fr"][key]) if f}
        assert en == fr, f"{key}: {en} in English, {fr} in French"
    for lang, cat in cats.items():
        assert all(v.strip() for v in cat.values()), f"an empty text in {lang}"


@pytest.mark.parametrize(("term", "said"), [
    pytest.param(r"\bjets?\b", "the rulebook's « lancer » (« le jet demande 2 dés » beside "
                 "« le lancer en demande 2 »)", id="a roll"),
    pytest.param(r"\bcartes? (dégât|recherche)", "the rulebook's « carte Dégât », "
                 "« carte Recherche »", id="a card's kind"),
    pytest.param(r"défauss", "the rulebook's « rejeter », as the history says it",
                 id="dismissing a card"),
    pytest.param(r"confirmez", "« validez », as the button « Valider » says it",
                 id="confirming a read"),
    pytest.param(r"(?<!\{)\bsites?\b", "the rulebook's « lieu » (the enmity card said « sur "
                 "un site »)", id="a site"),
    pytest.param(r"\b[Cc]hefs?\b", "the rulebook's « leadeur » (the campaign page said « Chef » "
                 "where the board setup says « Leadeurs : réputation et chance »)",
                 id="a leader"),
])
def test_the_french_catalogue_says_a_term_one_way(term, said):
    """A French player read one thing said two ways: « carte Dégât » in the prompt and
    « carte dégât » on the ship card, research cards « défaussées » in the form and
    « rejetées » in the history, « puis confirmez » beside a button « Valider »."""
    found = {k: v for k, v in catalogues()["fr"].items() if re.search(term, v)}
    assert not found, f"say {said}: {found}"


def used_keys() -> set[str]:
    """The catalogue keys the templates and scripts name literally."""
    keys: set[str] = set()
    for path in TEMPLATES + SCRIPTS:
        text = path.read_text("utf-8")
        keys |= set(re.findall(r"""\bt\(\s*['"]([a-z_]+(?:\.[a-z_0-9]+)+)['"]""", text))
    return keys


def test_every_key_the_pages_use_is_in_the_catalogues():
    keys = used_keys()
    assert len(keys) > 150  # the extraction finds the pages' strings
    missing = sorted(k for k in keys if k not in catalogues()["en"])
    assert not missing


def test_french_pages_show_french_strings_everywhere(app, table_id, campaign_id):
    client = app.test_client()
    en, fr = catalogues()["en"], catalogues()["fr"]
    names = {v for k, v in en.items() if k.startswith("colour.")}  # demo players' names
    for path in ("/", f"/t/{table_id}", f"/t/{table_id}/tv", f"/t/{table_id}/photo",
                 f"/join/{table_id}?token=x", f"/campaigns/{campaign_id}", "/campaigns/c1",
                 "/rules"):
        _, html, config = page(client, path, **{"Accept-Language": "fr"})
        assert config["strings"] == fr
        shown = re.findall(r">([^<>{}]+)<", html)
        english_only = [s.strip() for s in shown if s.strip() in en.values()
                        and s.strip() not in fr.values() and s.strip() not in names]
        assert not english_only, f"{path}: {english_only}"


EXTERNAL = re.compile(r"""(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}""", re.I)
NAMESPACE = "http://www.w3.org/2000/svg"  # an XML namespace name, never fetched


def test_templates_and_static_files_load_nothing_from_outside():
    for path in TEMPLATES + SCRIPTS + STYLES:
        text = path.read_text("utf-8").replace(NAMESPACE, "")
        found = [m for m in EXTERNAL.findall(text) if not m.startswith("//")]
        found += re.findall(r"""(?:src|href)=["']//""", text)
        found += re.findall(r"""@import|url\(\s*['"]?https?:""", text)
        assert not found, f"{path.name}: {found}"


def test_scripts_never_turn_server_strings_into_html():
    for path in SCRIPTS:
        text = path.read_text("utf-8")
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                     "new Function"):
            assert sink not in text, f"{path.name} uses {sink}"


def test_names_from_players_are_escaped_in_pages(host, app, table_id):
    hostile = "<img src=x onerror=alert(1)>"
    options = {**demo_options()}
    options["provinces"] = [{**p} for p in options["provinces"]]
    options["provinces"][0]["player"] = hostile
    tid = host.post("/api/tables", json={"game": "seafall", "options": options}).json["id"]
    token = host.get(f"/api/tables/{tid}/invite").json["token"]
    _, html, _ = page(app.test_client(), f"/join/{tid}?token={token}")
    assert hostile not in html and "&lt;img src=x onerror=alert(1)&gt;" in html


def test_the_join_page_offers_free_provinces_and_marks_taken_ones(host, app, table_id):
    join(app, host, table_id, "Ana", "blue")
    token = host.get(f"/api/tables/{table_id}/invite").json["token"]
    _, html, config = page(app.test_client(), f"/join/{table_id}?token={token}")
    assert config["token"] == token
    blue = re.search(r'<input type="radio" name="province" value="blue"([^>]*)>', html)
    green = re.search(r'<input type="radio" name="province" value="green"([^>]*)>', html)
    assert blue and "disabled" in blue.group(1) and "played by Ana" in html
    assert green and "disabled" not in green.group(1)
    assert 'name="province" value="" required' in html  # spectating is always offered
    assert re.search(r'value="green"[^>]*>\s*<span[^>]*></span><bdi[^>]*>Green\b', html)


def test_the_join_page_names_default_players_in_the_pages_language(app, host):
    """A province whose player is only its colour (the demonstration's "Green") is named in
    the page's language; a player's own name is kept as typed."""
    options = {**demo_options()}
    options["provinces"] = [{**p} for p in options["provinces"]]
    options["provinces"][0]["player"] = "Zoé"
    tid = host.post("/api/tables", json={"game": "seafall", "options": options}).json["id"]
    token = host.get(f"/api/tables/{tid}/invite").json["token"]
    french = app.test_client()
    french.set_cookie(i18n.COOKIE, "fr")
    _, html, _ = page(french, f"/join/{tid}?token={token}")
    assert re.search(r'value="green"[^>]*>\s*<span[^>]*></span><bdi[^>]*>Vert\b', html)
    assert re.search(r'value="blue"[^>]*>\s*<span[^>]*></span><bdi[^>]*>Zoé', html)


def test_touch_targets_are_at_least_48_px():
    css = (WEB / "static" / "tableside.css").read_text("utf-8")
    touch = re.search(r"--touch:\s*([\d.]+)rem", css)
    assert touch and float(touch.group(1)) * 16 >= 48
    assert re.search(r"button, \.button \{[^}]*min-height: var\(--touch\)", css)
