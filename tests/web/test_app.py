"""The web application through Flask's test client: tables, commands, undo/redo, conflicts,
errors in one JSON shape, and the odds API."""

from __future__ import annotations

import json

import pytest

from companion.games.seafall.setup import demo_options
from companion.store.sqlite import MEMORY, SQLiteStore
from tests.support.web import browser
from web.app import create_app
from web.services import Services


@pytest.fixture
def services():
    services = Services(SQLiteStore(MEMORY))
    yield services
    services.close()


@pytest.fixture
def client(services):
    return browser(create_app(services, {"TESTING": True}))


def new_table(client) -> dict:
    response = client.post("/api/tables", json={"game": "seafall", "options": demo_options()})
    assert response.status_code == 201, response.json
    return response.json


def test_create_and_view_a_table(client):
    table = new_table(client)
    assert table["game"] == "seafall" and table["version"] == 2
    assert table["prompts"][0]["command"] == "hire_guild"
    again = client.get(f"/api/tables/{table['id']}").json
    assert again["state"] == table["state"]
    listed = client.get("/api/tables").json
    assert [t["id"] for t in listed["tables"]] == [table["id"]]
    assert "seafall" in listed["games"]


def test_commands_undo_redo_and_history(client):
    table = new_table(client)
    url = f"/api/tables/{table['id']}"
    r = client.post(f"{url}/commands", json={"type": "hire_guild", "guild": "soldiers",
                                             "actor": "blue", "expected_version": 2})
    assert r.status_code == 200, r.json
    assert r.json["state"]["turn"]["guild"] == "soldiers"
    assert r.json["events"][0]["text"] == "Blue hires the Soldiers guild."
    r = client.post(f"{url}/undo", json={"actor": "blue"})
    assert r.json["state"]["turn"]["guild"] is None and r.json["can_redo"]
    r = client.post(f"{url}/redo", json={})
    assert r.json["state"]["turn"]["guild"] == "soldiers"
    history = client.get(f"{url}/history").json["history"]
    assert [h["kind"] for h in history][-3:] == ["command", "undo", "redo"]


def test_choices_list_the_legal_commands_of_the_turn(client):
    table = new_table(client)
    choices = client.get(f"/api/tables/{table['id']}/choices").json
    assert choices["version"] == table["version"]
    kinds = {c["type"] for c in choices["commands"]}
    assert {"hire_advisor", "hire_guild", "activate_advisor", "end_turn"} <= kinds
    assert all(c["summary"] for c in choices["commands"])


def test_stale_page_gets_a_conflict_not_an_overwrite(client):
    table = new_table(client)
    url = f"/api/tables/{table['id']}"
    client.post(f"{url}/commands", json={"type": "hire_guild", "guild": "soldiers"})
    stale = client.post(f"{url}/commands", json={"type": "end_turn", "expected_version": 2})
    assert stale.status_code == 409
    assert stale.json["error"] == "conflict" and stale.json["version"] == 3
    assert client.get(url).json["state"]["turn"]["player"] == "blue"


@pytest.mark.parametrize("body, status, code", [
    pytest.param({"type": "hire_guild", "guild": "pirates"}, 400, "invalid", id="malformed"),
    pytest.param({"type": "roll", "faces": ["blank"]}, 409, "illegal", id="rules say no"),
    pytest.param({"args": {}}, 400, "invalid", id="no type"),
    pytest.param({"type": "end_turn", "expected_version": "two"}, 400, "invalid",
                 id="bad version"),
])
def test_refused_commands_answer_one_json_shape(client, body, status, code):
    table = new_table(client)
    r = client.post(f"/api/tables/{table['id']}/commands", json=body)
    assert r.status_code == status
    assert r.json["error"] == code and r.json["message"]
    assert client.get(f"/api/tables/{table['id']}").json["version"] == table["version"]


def test_a_rules_refusal_comes_said_in_the_pages_language_beside_the_english(client):
    """The engine's refusal keeps its English ``message``; a French page also gets it in
    French (``phrases``), from the cookie/Accept-Language or ``?lang=``."""
    table = new_table(client)
    url = f"/api/tables/{table['id']}"
    client.post(f"{url}/commands", json={"type": "hire_guild", "guild": "soldiers"})
    again = {"type": "hire_guild", "guild": "merchants"}
    english = client.post(f"{url}/commands", json=again)
    french = client.post(f"{url}/commands", json=again, headers={"Accept-Language": "fr"})
    assert english.status_code == french.status_code == 409
    message = english.json["message"]
    assert message == "Blue already hired the Soldiers guild this turn"  # the demo's "Blue"
    assert "phrases" not in english.json and french.json["message"] == message
    assert french.json["phrases"] == {  # the default name said in French too
        message: "Bleu a déjà engagé la guilde des soldats ce tour-ci"}
    nothing = client.post(f"{url}/redo?lang=fr")
    assert nothing.status_code == 409 and nothing.json["message"] == "there is nothing to redo"
    assert nothing.json["phrases"] == {"there is nothing to redo": "il n’y a rien à rétablir"}
    assert client.get(url).json["version"] == table["version"] + 1  # the refused: not kept


def test_not_json_unknown_table_and_unknown_route(client):
    table = new_table(client)
    r = client.post(f"/api/tables/{table['id']}/commands", data="{", content_type="text/plain")
    assert r.status_code == 400 and r.json["error"] == "invalid"
    r = client.get("/api/tables/nope")
    assert r.status_code == 404 and r.json["error"] == "not_found"
    r = client.get("/api/nothing-here")
    assert r.status_code == 404 and r.json["error"] == "not_found"
    r = client.post("/api/tables", json={"game": "chess"})
    assert r.status_code == 404


@pytest.mark.parametrize(("change", "why"), [
    (lambda doc: doc["session"].update(game="catan"),
     "its game 'catan' is not one this Tableside has"),
    (lambda doc: doc["records"][0]["events"][0].update(payload={"nonsense": 1}),
     "its records do not replay with this Tableside's seafall rules"),
])
def test_a_stored_table_that_will_not_open_says_why_and_is_kept(
        client, services, caplog, change, why):
    """A database from another Tableside (a game it lacks, or rules that changed): the
    table's page once answered "something went wrong"."""
    doc = services.store.export_session(new_table(client)["id"])
    doc["session"]["id"] = "old"
    change(doc)
    services.store.import_session(doc)  # the store takes it as it is; the table will not open
    r = client.get("/api/tables/old")
    assert r.status_code == 500 and r.json == {"error": "unopenable", "message": (
        f"table 'old' cannot be opened: {why}. It is kept as it is; 'tableside sessions "
        "export old' saves it to keep or to report")}
    assert "table old cannot be opened" in caplog.text  # with the traceback
    caplog.clear()
    assert client.get("/api/tables/old").json["error"] == "unopenable"
    assert "cannot be opened" not in caplog.text  # asked again: answered, not logged again
    assert services.store.export_session("old") == doc
    assert client.get("/api/tables").status_code == 200  # the others still list and open


def test_a_body_nested_too_deep_or_cut_short_is_refused_and_changes_nothing(client):
    """``[[[[...`` 100,000 deep raised RecursionError in the JSON parser (a 500), and an
    undo whose body was not JSON was taken for one with no body: undone with no check of
    the page's version."""
    table = new_table(client)
    url = f"/api/tables/{table['id']}"
    deep = "[" * 100_000 + "]" * 100_000
    for path in ("/api/tables", f"{url}/commands", f"{url}/undo"):
        r = client.post(path, data=deep, content_type="application/json")
        assert r.status_code == 400 and r.json == {
            "error": "invalid",
            "message": "the request body is not JSON: nested more than 64 levels deep"}
    r = client.post(f"{url}/commands", json={"type": "hire_guild", "guild": "soldiers",
                                             "actor": "blue", "expected_version": 2})
    assert r.status_code == 200
    cut = '{"actor": "blue", "expected_version": 2'  # a stale page's undo, cut short
    r = client.post(f"{url}/undo", data=cut, content_type="application/json")
    assert r.status_code == 400
    assert client.get(url).json["state"]["turn"]["guild"] == "soldiers"  # not undone
    r = client.post(f"{url}/undo", data="", content_type="application/json")  # no body
    assert r.status_code == 200 and r.json["state"]["turn"]["guild"] is None


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_number_that_is_not_finite_is_refused_with_its_reason(client, number):
    """NaN is not JSON (RFC 8259, section 6), but Python's parser took it: a new table's
    options holding one passed every check, then failed to be stored (a 500)."""
    options = json.dumps(demo_options())[:-1] + f', "record": [{{"game": {number}}}]}}'
    r = client.post("/api/tables", data=f'{{"game": "seafall", "options": {options}}}',
                    content_type="application/json")
    assert r.status_code == 400 and r.json["error"] == "invalid"
    assert r.json["message"] == f"the request body is not JSON: {number} is not a finite number"
    assert client.get("/api/tables").json["tables"] == []
    for body, message in (("", "must be a JSON object"), ("[1]", "must be a JSON object"),
                          ('{"game": ', "is not JSON: Expecting value: line 1 column 10")):
        r = client.post("/api/tables", data=body, content_type="application/json")
        assert r.status_code == 400 and message in r.json["message"]


def test_start_page_lists_tables_and_serves_local_assets(client, services):
    table = new_table(client)
    services.demo_table = table["id"]
    page = client.get("/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert table["id"] in html and "demo" in html
    assert "https://" not in html  # every asset is served locally
    for asset in ("/static/odds.js", "/static/tableside.css"):
        response = client.get(asset)
        assert response.status_code == 200
        response.close()


def test_wrong_methods_and_server_bugs_answer_the_same_json_shape(services, caplog):
    app = create_app(services, {"TESTING": True})

    def broken() -> None:
        raise RuntimeError("a bug")

    app.add_url_rule("/api/broken", view_func=broken)
    client = browser(app)
    wrong = client.delete("/api/tables")
    assert wrong.status_code == 405 and wrong.json["error"] == "method_not_allowed"
    bug = client.get("/api/broken")
    assert bug.status_code == 500 and bug.json["error"] == "internal"
    assert "a bug" not in bug.json["message"]  # no internals leak to the page
    assert "a bug" in caplog.text  # but the server's log has the traceback
