"""Players' names and the refusals a player meets at the home page, the join page and the
host link: one rule for a name wherever it is typed (companion.names: trimmed, 1 to 40
characters), no two players of a table alike, and every refusal said in the page's
language (its ``said`` key and values, or the refused page in French)."""

from __future__ import annotations

import pytest

from companion.store.sqlite import SQLiteStore
from tests.support.web import browser, join
from web import i18n
from web.app import create_app
from web.auth import JOIN_ATTEMPTS
from web.services import Services

THREE = ("blue", "green", "red")


@pytest.fixture
def app(tmp_path):
    services = Services(SQLiteStore(tmp_path / "t.sqlite3"))
    yield create_app(services, {"TESTING": True})
    services.close()


def provinces(*players: str) -> dict:
    return {"game": "seafall", "options": {"provinces": [
        {"colour": c, "player": p} for c, p in zip(THREE, players, strict=True)]}}


def french(key: str, **values: object) -> str:
    return i18n.load("fr").get(f"said.{key}", **values)


@pytest.mark.parametrize("players, key, values", [
    pytest.param(("x" * 5000, "Bo", "Cy"), "setup.player_name", {"max": 40}, id="5000 chars"),
    pytest.param(("x" * 41, "Bo", "Cy"), "setup.player_name", {"max": 40}, id="41 chars"),
    pytest.param(("  ", "Bo", "Cy"), "setup.player_name", {"max": 40}, id="only spaces"),
    pytest.param(("Paul", "Bo", " PAUL "), "setup.same_player", {"name": "PAUL"},
                 id="the same name in another case"),
])
def test_a_table_is_not_created_with_names_the_join_would_refuse(app, players, key, values):
    answer = browser(app).post("/api/tables", json=provinces(*players))
    assert answer.status_code == 400 and answer.json["error"] == "invalid"
    assert answer.json["said"] == {"key": key, "values": values}
    assert "'" not in answer.json["message"].replace("player's", "")  # no JSON field names
    assert french(key, **values) != answer.json["message"]
    assert browser(app).get("/api/tables").json["tables"] == []  # nothing was made


def test_a_table_keeps_its_names_trimmed_and_forty_characters_long(app):
    answer = browser(app).post("/api/tables", json=provinces(" Ann ", "y" * 40, "Bo"))
    assert answer.status_code == 201, answer.json
    assert [answer.json["state"]["provinces"][c]["player"] for c in THREE] == \
        ["Ann", "y" * 40, "Bo"]


def test_a_campaign_is_not_started_with_two_players_alike(app):
    answer = browser(app).post("/api/campaigns", json={
        "name": "Ours", "game": "seafall", "setup": provinces("Ann", "ann", "Bo")["options"]})
    assert answer.status_code == 400
    assert answer.json["said"] == {"key": "setup.same_player", "values": {"name": "ann"}}


@pytest.mark.parametrize("options, key", [
    pytest.param({"provinces": [{"colour": "blue", "player": "Ann"}]},
                 "setup.provinces_new_game", id="one province"),
    pytest.param({"provinces": [{"colour": "blue"}, {"colour": "red"}]},
                 "setup.provinces_new_game", id="two in a new game"),
    pytest.param({"start_at": "turn", "provinces": [{"colour": "blue"}]},
                 "setup.provinces_in_turn", id="one in a turn"),
])
def test_how_many_provinces_is_said_in_player_words(app, options, key):
    """The home page without the demo's setup: the count was said in developer English
    (\"'provinces' lists 2 to 5 provinces\") on a French page."""
    answer = browser(app).post("/api/tables", json={"game": "seafall", "options": options},
                               headers={"Accept-Language": "fr"})
    assert answer.status_code == 400
    assert answer.json["said"] == {"key": key, "values": {}}
    assert '"' not in answer.json["message"] and "start_at" not in answer.json["message"]
    assert "SeaFall" in french(key) and "provinces" in french(key)


def test_a_name_of_spaces_is_refused_at_the_join_in_the_pages_words(app):
    host = browser(app)
    tid = host.post("/api/tables", json=provinces("Ann", "Bo", "Cy")).json["id"]
    token = host.get(f"/api/tables/{tid}/invite").json["token"]
    for name in ("   ", "z" * 41):
        answer = browser(app).post(f"/api/tables/{tid}/join",
                                   json={"token": token, "name": name, "province": None})
        assert answer.status_code == 400
        assert answer.json["said"] == {"key": "join.name", "values": {"max": 40}}
    phone = join(app, host, tid, "  " + "w" * 40 + "  ", None)  # trimmed, as at creation
    assert phone.get(f"/api/tables/{tid}/me").json["name"] == "w" * 40


def test_too_many_attempts_are_said_in_the_pages_language(app):
    host = browser(app)
    tid = host.post("/api/tables", json=provinces("Ann", "Bo", "Cy")).json["id"]
    guesser = browser(app)
    for _ in range(JOIN_ATTEMPTS):
        guesser.post(f"/api/tables/{tid}/host", json={"pin": "000000"})
    limited = guesser.post(f"/api/tables/{tid}/host", json={"pin": "000000"})
    assert limited.status_code == 429
    assert limited.json["said"]["key"] == "auth.too_many_pins"
    seconds = limited.json["said"]["values"]["seconds"]
    assert seconds == int(limited.headers["Retry-After"])
    joins = guesser.post(f"/api/tables/{tid}/join", json={"token": "x", "name": "E"})
    assert joins.json["said"]["key"] == "auth.too_many_joins"
    page = guesser.get(f"/host/{tid}?pin=000000",
                       headers={"Accept": "text/html", "Accept-Language": "fr"})
    html = page.get_data(as_text=True)
    assert page.status_code == 429 and "Trop d’essais du code d’hôte" in html
    assert "Too many" not in html


def test_host_only_edits_and_anothers_view_are_said_in_the_pages_language(app):
    host = browser(app)
    tid = host.post("/api/tables", json=provinces("Ann", "Bo", "Cy")).json["id"]
    phone = join(app, host, tid, "Bo", "green")
    edit = phone.post(f"/api/tables/{tid}/commands", json={
        "type": "add_component", "args": {"kind": "advisor", "name": "X"}})
    assert edit.status_code == 403
    assert edit.json["said"] == {"key": "auth.host_edits", "values": {}}
    peek = phone.get(f"/api/tables/{tid}?viewer=blue")
    assert peek.status_code == 403
    assert peek.json["said"] == {"key": "auth.own_view", "values": {}}
    watcher = join(app, host, tid, "Dee", None)
    peek = watcher.get(f"/api/tables/{tid}?viewer=blue")
    assert peek.json["said"] == {"key": "auth.public_view", "values": {}}
    assert "the public view" in peek.json["message"] and "(" not in peek.json["message"]
