"""``/api/rules``: search and glossary through Flask's test client, and their errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.store.sqlite import MEMORY, SQLiteStore
from web.app import create_app
from web.rules.rulebook import Passage
from web.services import Services


@pytest.fixture
def services():
    services = Services(SQLiteStore(MEMORY))
    yield services
    services.close()


@pytest.fixture
def client(services):
    return create_app(services, {"TESTING": True}).test_client()


def test_search_shape(client):
    response = client.get("/api/rules/search", query_string={"q": "hostilite", "lang": "en"})
    assert response.status_code == 200
    body = response.json
    assert body["query"] == "hostilite" and body["results"]
    first = body["results"][0]
    assert set(first) >= {"game", "lang", "title", "snippet", "text", "ref", "source"}
    assert set(first["ref"]) == {"page", "section"}
    assert first["game"] == "seafall" and first["lang"] == "en"
    assert first["source"] == "notes" and isinstance(first["ref"]["page"], int)
    assert "<mark>" in first["snippet"]


def test_search_filters_and_limit(client):
    body = client.get("/api/rules/search",
                      query_string={"q": "duel", "game": "city-of-five-sails", "limit": 3}).json
    assert len(body["results"]) == 3
    assert {r["game"] for r in body["results"]} == {"city-of-five-sails"}


def test_a_search_in_french_of_notes_in_english_only_answers_them_said_so(client):
    """QA: the other three games have notes in English only, and a French search of them
    answered nothing, silently. It answers the English notes, marked so (each result has
    its ``lang``); a search that finds in the language asked for says nothing of it."""
    body = client.get("/api/rules/search", query_string={
        "q": "pirate", "game": "seafarers", "lang": "fr"}).json
    assert body["results"] and body["other_language"] is True
    assert {(r["game"], r["lang"]) for r in body["results"]} == {("seafarers", "en")}
    assert "pirate" in body["results"][0]["title"].lower()
    body = client.get("/api/rules/search", query_string={
        "q": "pirate", "game": "seafarers", "lang": "en"}).json
    assert body["results"] and body["other_language"] is False
    body = client.get("/api/rules/search", query_string={
        "q": "kraken", "game": "seafarers", "lang": "fr"}).json
    assert body == {"query": "kraken", "results": [], "other_language": False}


def test_search_without_lang_ranks_the_readers_language_first(client):
    """QA: an English search listed the French notes first. Without ``lang``, the request's
    language (cookie, else Accept-Language, else English) ranks first; the other language's
    notes still follow."""
    query = {"q": "dangerous site fortune", "game": "seafall"}
    english = client.get("/api/rules/search", query_string=query).json
    assert [r["lang"] for r in english["results"][:2]] == ["en", "en"]
    assert english["results"][0]["title"] in {"Dangerous sites", "Fortune tokens"}
    assert "fr" in {r["lang"] for r in english["results"]}
    assert english["other_language"] is False
    french = client.get("/api/rules/search", query_string=query,
                        headers={"Accept-Language": "fr-FR,fr;q=0.9"}).json
    assert [r["lang"] for r in french["results"][:2]] == ["fr", "fr"]
    client.set_cookie("lang", "fr")
    assert client.get("/api/rules/search", query_string=query).json == french


def test_search_quotes_imported_passages(client, services):
    services.rules.import_passages([Passage(9, "Krakens", "The kraken sleeps in winter.")],
                                   "seafall", "en", "mine.pdf", 12)
    body = client.get("/api/rules/search", query_string={"q": "kraken"}).json
    [hit] = body["results"]
    assert hit["source"] == "imported" and hit["ref"] == {"page": 9, "section": "Krakens"}
    listing = client.get("/api/rules").json
    assert listing["imports"][0]["source"] == "mine.pdf"


def test_search_fts_syntax_is_not_an_error(client):
    response = client.get("/api/rules/search", query_string={"q": 'raid AND " NEAR('})
    assert response.status_code == 200
    assert response.json["results"]


@pytest.mark.parametrize("params, status, words", [
    pytest.param({}, 400, "'q' is required", id="no query"),
    pytest.param({"q": "   "}, 400, "'q' is required", id="blank query"),
    pytest.param({"q": "?!"}, 400, "no word", id="no word in the query"),
    pytest.param({"q": "x" * 501}, 400, "longer than", id="query too long"),
    pytest.param({"q": "raid", "game": "monopoly"}, 404, "monopoly", id="unknown game"),
    pytest.param({"q": "raid", "game": ""}, 400, "'game'", id="empty game"),
    pytest.param({"q": "raid", "lang": "de"}, 400, "language", id="unknown language"),
    pytest.param({"q": "raid", "limit": "0"}, 400, "'limit'", id="limit zero"),
    pytest.param({"q": "raid", "limit": "many"}, 400, "'limit'", id="limit not a number"),
    pytest.param({"q": "raid", "limit": "51"}, 400, "'limit'", id="limit too high"),
])
def test_search_errors(client, params, status, words):
    response = client.get("/api/rules/search", query_string=params)
    assert response.status_code == status
    assert set(response.json) >= {"error", "message"}
    assert words in response.json["message"]


def test_glossary_in_french(client):
    body = client.get("/api/rules/glossary", query_string={"game": "seafall",
                                                           "lang": "fr"}).json
    assert body["game"] == "seafall" and body["lang"] == "fr"
    enmity = next(t for t in body["terms"] if t["en"] == "enmity")
    assert enmity["term"] == "hostilité" and enmity["fr"] == "hostilité"
    assert "hostilité" in enmity["forms"]["fr"] and enmity["note"]


def test_glossary_all_games_in_english(client):
    body = client.get("/api/rules/glossary").json
    assert body["lang"] == "en" and body["game"] is None
    assert {t["game"] for t in body["terms"]} == {"seafall", "city-of-five-sails",
                                                  "after-the-empire", "seafarers"}
    riposte = next(t for t in body["terms"] if t["en"] == "riposte")
    assert riposte["term"] == "riposte" and riposte["fr"] is None


@pytest.mark.parametrize("params, status", [({"game": "chess"}, 404), ({"lang": "xx"}, 400)])
def test_glossary_errors(client, params, status):
    response = client.get("/api/rules/glossary", query_string=params)
    assert response.status_code == status and response.json["error"]


def test_games_listing(client):
    body = client.get("/api/rules").json
    games = {g["game"]: g for g in body["games"]}
    assert games["seafall"]["notes"]["en"] >= 40 and games["seafall"]["notes"]["fr"] >= 15
    assert games["seafarers"]["name"] == "Catan: Seafarers"
    assert body["imports"] == []


def test_services_keep_the_rule_index_beside_the_database(tmp_path: Path):
    services = Services(SQLiteStore(tmp_path / "tableside.sqlite3"))
    try:
        assert services.rules.path == tmp_path / "rules.sqlite3"
        assert services.rules.search("enmity")
        assert (tmp_path / "rules.sqlite3").is_file()
    finally:
        services.close()


def test_every_rules_route_is_in_the_api_docs(client):
    docs = (Path(__file__).resolve().parents[3] / "docs" / "api.md").read_text()
    routes = [r.rule for r in client.application.url_map.iter_rules()
              if r.rule.startswith("/api/rules")]
    assert len(routes) == 3
    assert [r for r in routes if f"`GET {r}`" not in docs] == []
