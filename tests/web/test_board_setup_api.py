"""Setting up the board of a table made without the demonstration setup (docs/ui.md, "Set
up the board"): through the API as the host's page sends it. The table began empty (no
islands, cards or leader values); the host's commands fill it, Undo takes each back, a
player may send none of them, and the page carries what its island form offers."""

from __future__ import annotations

import json
import re

import pytest

from companion.store.sqlite import MEMORY, SQLiteStore
from tests.support.web import browser, join
from web.app import create_app
from web.services import Services

FOUR = {"provinces": [{"colour": c, "player": p} for c, p in
                      (("blue", "Ana"), ("gray", "Cy"), ("red", "Bo"), ("yellow", "Zoe"))]}
ISLAND = {"name": "Tortuga", "garrison": 1, "space": "(0, 2, 2)", "sites": [
    {"name": "1", "kind": "unexplored", "symbol": "sun", "defense": 4},
    {"name": "2", "kind": "good", "colour": "spice", "defense": 5, "dangerous": True}]}


@pytest.fixture
def app():
    services = Services(SQLiteStore(MEMORY))
    yield create_app(services, {"TESTING": True})
    services.close()


def test_the_host_sets_up_an_empty_board_and_undo_takes_each_step_back(app):
    host = browser(app)
    tid = host.post("/api/tables", json={"game": "seafall", "options": FOUR}).json["id"]
    url = f"/api/tables/{tid}"
    state = host.get(url).json["state"]
    assert [r["kind"] for r in state["regions"].values()] == ["province"] * 4
    assert state["first_winter"] and not state["event_deck"]

    def send(body, **headers):
        return host.post(f"{url}/commands", json=body, headers=headers)

    assert send({"type": "set_leader", "province": "gray", "reputation": 3,
                 "fortune": 2}).status_code == 200
    assert send({"type": "add_island", "island": ISLAND}).status_code == 200
    assert send({"type": "add_component", "kind": "event",
                 "card": {"name": "Storm"}}).status_code == 200
    state = host.get(url).json["state"]
    gray = state["provinces"]["gray"]
    assert (gray["leader_reputation"], gray["reputation"], gray["fortune"]) == (3, 3, 2)
    assert state["regions"]["isle-1"]["name"] == "Tortuga"
    assert state["event_deck"] == ["Storm"]
    history = host.get(f"{url}/history?lang=fr").json["history"]
    assert "Cy prend la réputation et la chance de sa carte Leadeur : 3 et 2." in json.dumps(
        history, ensure_ascii=False)

    # a player at the table sends none of them: the host's
    bo = join(app, host, tid, "Bo", "red")
    refused = bo.post(f"{url}/commands", json={"type": "set_leader", "province": "red",
                                                "reputation": 9, "fortune": 9})
    assert refused.status_code == 403 and refused.json["error"] == "forbidden"

    # undone as any command: the event, then the island
    assert host.post(f"{url}/undo", json={}).status_code == 200
    assert host.post(f"{url}/undo", json={}).status_code == 200
    state = host.get(url).json["state"]
    assert "isle-1" not in state["regions"] and state["event_deck"] == []
    assert state["provinces"]["gray"]["fortune"] == 2  # the leader stays


def test_a_leader_is_set_only_before_round_1_and_the_refusal_reads_in_french(app):
    host = browser(app)
    options = {**FOUR, "start_at": "turn"}
    tid = host.post("/api/tables", json={"game": "seafall", "options": options}).json["id"]
    refused = host.post(f"/api/tables/{tid}/commands", headers={"Accept-Language": "fr"},
                        json={"type": "set_leader", "province": "red", "reputation": 2,
                              "fortune": 2})
    assert refused.status_code == 409  # the English message, and the French page's phrase
    message = refused.json["message"]
    assert message.startswith("a leader's reputation and fortune are set before round 1")
    assert refused.json["phrases"][message].startswith(
        "la réputation et la chance d’un leadeur se fixent avant la manche 1")


def test_the_same_island_added_twice_is_refused_with_a_french_phrase(app):
    """"Fill with the demonstration's example island", then "Add the island" twice gave two
    "Example isle A": the second is refused (409) with its reason, which the page shows."""
    host = browser(app)
    tid = host.post("/api/tables", json={"game": "seafall", "options": FOUR}).json["id"]
    url = f"/api/tables/{tid}/commands"
    assert host.post(url, json={"type": "add_island", "island": ISLAND}).status_code == 200
    again = {k: v for k, v in ISLAND.items() if k != "space"}  # the sample has no space
    refused = host.post(url, headers={"Accept-Language": "fr"},
                        json={"type": "add_island", "island": again})
    assert refused.status_code == 409
    message = refused.json["message"]
    assert message == "there is already an island named 'Tortuga': give this one another name"
    assert refused.json["phrases"][message] == (
        "il y a déjà une île nommée «\u00a0Tortuga\u00a0» : donnez-lui un autre nom")
    state = host.get(f"/api/tables/{tid}").json["state"]
    assert [r["name"] for r in state["regions"].values() if r["kind"] == "island"] == [
        "Tortuga"]


def test_the_table_page_carries_the_map_hexes_and_the_sample_island(app):
    host = browser(app)
    tid = host.post("/api/tables", json={"game": "seafall", "options": FOUR}).json["id"]
    html = host.get(f"/t/{tid}").get_data(as_text=True)
    config = json.loads(re.search(r'id="config">(.*?)</script>', html, re.S).group(1))
    assert '<section id="board-setup"' in html
    hexes = config["sea_hexes"]
    assert len(hexes) == 142 and hexes[0] == "(0, 0, 0)" and "(6, -3, 3)" in hexes
    assert config["sample_island"]["name"] == "Example isle A"
