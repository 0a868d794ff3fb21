"""The campaign API: a campaign started over HTTP, its next game set up, the game played
out and recorded, and the campaign page's summary (titles, historical record, permanent
enmity) read from the new ledger. Rulebook, "Game Carryover" and "End of Game"."""

from __future__ import annotations

import pytest

from companion.engine import Command
from tests.companion.test_campaigns import play_out, script
from tests.support.web import browser, join


@pytest.fixture
def client(app):
    return browser(app)


def first_setup() -> dict:
    return script()[0]


def test_a_campaign_over_http(client, services):
    r = client.post("/api/campaigns", json={"name": "Ours", "setup": first_setup()})
    assert r.status_code == 201, r.json
    cid = r.json["id"]
    summary = r.json["summary"]
    assert summary["game"] == 1 and summary["record"] == []
    assert [p["colour"] for p in summary["provinces"]] == \
        [p["colour"] for p in first_setup()["provinces"]]
    assert client.get("/api/campaigns").json["campaigns"] == [
        {"id": cid, "name": "Ours", "game": "seafall", "version": 1, "current": None,
         "over": None}]

    r = client.post(f"/api/campaigns/{cid}/record")
    assert r.status_code == 409 and "no game under way" in r.json["message"]
    r = client.post(f"/api/campaigns/{cid}/next")
    assert r.status_code == 201
    session = r.json["table"]
    assert r.json["host_pin"]  # the one who set the game up hosts it
    assert r.json["campaign"]["current"] == session
    # the game under way is not over: the campaign says why it cannot be recorded yet, as
    # recording would answer, in the request's language too
    waiting = client.get(f"/api/campaigns/{cid}").json["recording"]
    assert waiting == {"ready": False, "reason": "the game is not over and recorded yet: "
                       "finish the end of the game first"}
    french = client.get(f"/api/campaigns/{cid}", headers={"Accept-Language": "fr"})
    assert french.json["recording"]["phrases"][waiting["reason"]].startswith(
        "la partie n’est pas encore finie")
    again = client.post(f"/api/campaigns/{cid}/next")
    assert again.status_code == 409 and "already has a game under way" in again.json["message"]
    assert again.json["said"] == {"key": "campaign.under_way",
                                  "values": {"name": "Ours", "session": session}}
    r = client.post(f"/api/campaigns/{cid}/record")
    assert r.status_code == 409 and "not over and recorded" in r.json["message"]
    assert "phrases" not in r.json
    r = client.post(f"/api/campaigns/{cid}/record", headers={"Accept-Language": "fr"})
    assert r.json["phrases"][r.json["message"]].startswith("la partie n’est pas encore finie")

    play_out(services.tables.get(session), script()[1])
    assert client.get(f"/api/campaigns/{cid}").json["recording"] == {"ready": True,
                                                                     "final": False}
    r = client.post(f"/api/campaigns/{cid}/record")
    assert r.status_code == 200, r.json
    summary = r.json["summary"]
    assert summary["game"] == 2 and len(summary["record"]) == 1
    recorded = summary["record"][0]
    by_colour = {p["colour"]: p for p in summary["provinces"]}
    # the record's game glory is what each province carries as campaign glory after game 1
    assert {c: by_colour[c]["campaign_glory"] for c in recorded["glory"]} == recorded["glory"]
    assert all(p["title"] is not None for p in summary["provinces"])
    assert client.get(f"/api/campaigns/{cid}").json == r.json
    assert "recording" not in r.json  # recorded: no game under way until the next is set up


def test_campaign_errors_are_clear(client):
    assert client.get("/api/campaigns/nope").status_code == 404
    assert client.post("/api/campaigns/nope/next").status_code == 404
    r = client.post("/api/campaigns", json={"name": "", "setup": {}})
    assert r.status_code == 400 and "'name'" in r.json["message"]
    r = client.post("/api/campaigns", json={"name": "X", "setup": []})
    assert r.status_code == 400 and "'setup'" in r.json["message"]
    r = client.post("/api/campaigns", json={"name": "X", "game": "chess", "setup": {}})
    assert r.status_code == 404
    r = client.post("/api/campaigns", json={"name": "X", "setup": {"provinces": []}})
    assert r.status_code == 400 and r.json["error"] == "invalid"


def test_only_the_host_edits_a_campaign(app, client, services):
    cid = client.post("/api/campaigns", json={"name": "Ours", "setup": script()[0]}).json["id"]
    session = client.post(f"/api/campaigns/{cid}/next").json["table"]
    player = join(app, client, session, "Ann", None)
    stranger = browser(app)
    for other in (player, stranger):
        r = other.post(f"/api/campaigns/{cid}/record")
        assert r.status_code == 403 and r.json["error"] == "forbidden", r.json
    play_out(services.tables.get(session), script()[1])
    assert stranger.post(f"/api/campaigns/{cid}/record").status_code == 403
    assert client.post(f"/api/campaigns/{cid}/record").status_code == 200
    assert stranger.post(f"/api/campaigns/{cid}/next").status_code == 403
    assert client.post(f"/api/campaigns/{cid}/next").status_code == 201
    # a request without the session's CSRF token is refused before anything changes
    bare = app.test_client()
    bare.get("/api/session")
    r = bare.post("/api/campaigns", json={"name": "X", "setup": script()[0]})
    assert r.status_code == 403 and r.json["error"] == "csrf"


def test_the_next_game_takes_changes_of_players(client, services):
    """docs/api.md: ``POST /api/campaigns/<id>/next`` with ``{"changes": [...]}``: here the
    red player misses the first game ("Missing a game")."""
    cid = client.post("/api/campaigns", json={"name": "Ours", "setup": script()[0]}).json["id"]
    for body, message in (({"changes": 5}, "'changes' is a list"),
                          ({"changes": [{"absent": {"colour": "pink"}}]}, "no pink province"),
                          ({"changes": [{"fly": {"colour": "red"}}]}, "one of join, catch_up")):
        r = client.post(f"/api/campaigns/{cid}/next", json=body)
        assert r.status_code in (400, 409) and message in r.json["message"], r.json
    assert client.get(f"/api/campaigns/{cid}").json["current"] is None
    r = client.post(f"/api/campaigns/{cid}/next", json={"changes": [{"absent": {"colour": "red"}}]})
    assert r.status_code == 201, r.json
    state = services.tables.get(r.json["table"]).state
    assert state.provinces["red"].absent and not state.provinces["blue"].absent
    # the campaign page's summary is the game's as it was set up: red marked absent (it
    # showed the ledger before the changes: no one absent, no newcomer)
    summary = client.get(f"/api/campaigns/{cid}").json["summary"]
    assert {p["colour"]: p["absent"] for p in summary["provinces"]} == {
        p["colour"]: p["colour"] == "red" for p in summary["provinces"]}


def test_a_campaign_on_the_default_provinces_takes_changes_of_players(client, services):
    """QA: a first setup naming no provinces (blue, green and red) answered 400 "'provinces'
    must be a list of provinces" to any change of players; the campaign page shows it too."""
    cid = client.post("/api/campaigns", json={"name": "T", "setup": {}}).json["id"]
    r = client.post(f"/api/campaigns/{cid}/next", json={"changes": [{"absent": {"colour": "red"}}]})
    assert r.status_code == 201, r.json
    state = services.tables.get(r.json["table"]).state
    assert {c: p.absent for c, p in state.provinces.items()} == {
        "blue": False, "green": False, "red": True}
    summary = client.get(f"/api/campaigns/{cid}").json["summary"]
    assert {p["colour"]: p["absent"] for p in summary["provinces"]} == {
        "blue": False, "green": False, "red": True}


def test_a_game_with_moves_played_is_taken_back_only_when_the_page_says_so(client, services):
    """A take-back of a game played on is 409 ``played`` with the moves counted (the page
    asks again, not reloads), then taken with ``"played": true``."""
    cid = client.post("/api/campaigns", json={"name": "Ours", "setup": script()[0]}).json["id"]
    session = client.post(f"/api/campaigns/{cid}/next").json["table"]
    services.tables.get(session).apply(Command("deal_advisor", {"advisor": "Captain"}))
    step = {"kind": "game", "session": session}
    r = client.post(f"/api/campaigns/{cid}/take-back", json=step)
    assert r.status_code == 409 and (r.json["error"], r.json["moves"]) == ("played", 1)
    assert r.json["said"]["key"] == "campaign.played"
    assert client.get(f"/api/campaigns/{cid}").json["current"] == session
    r = client.post(f"/api/campaigns/{cid}/take-back", json={**step, "played": True})
    assert r.status_code == 200 and r.json["current"] is None


def test_the_host_takes_back_a_game_set_up_wrong_and_a_recording(app, client, services):
    """docs/api.md: ``POST /api/campaigns/<id>/take-back`` with the ``last_step`` the page
    showed. Only the host of that game may; a step another phone took back first is 409."""
    cid = client.post("/api/campaigns", json={"name": "Ours", "setup": script()[0]}).json["id"]
    r = client.post(f"/api/campaigns/{cid}/take-back")
    assert r.status_code == 409 and "nothing to take back" in r.json["message"]
    wrong = client.post(f"/api/campaigns/{cid}/next",
                        json={"changes": [{"absent": {"colour": "red"}}]}).json
    assert wrong["campaign"]["last_step"] == {"kind": "game", "session": wrong["table"]}
    stranger = browser(app)
    assert stranger.post(f"/api/campaigns/{cid}/take-back").status_code == 403
    r = client.post(f"/api/campaigns/{cid}/take-back", json={"kind": 3, "session": None})
    assert r.status_code == 400 and "say what is taken back" in r.json["message"]
    # a table's GET says where it stands (a polling page compares it: no version changes)
    standing = client.get(f"/api/tables/{wrong['table']}").json["campaign"]
    assert standing == {"id": cid, "name": "Ours", "recorded": False, "next": None}
    step = {"kind": "game", "session": wrong["table"]}
    r = client.post(f"/api/campaigns/{cid}/take-back", json=step)
    assert r.status_code == 200, r.json
    assert client.get(f"/api/tables/{wrong['table']}").json["campaign"] is None  # its own
    assert r.json["current"] is None and r.json["games"][0]["withdrawn"] is True
    r = client.post(f"/api/campaigns/{cid}/take-back", json=step)  # a second tap
    assert r.status_code == 409 and "nothing to take back" in r.json["message"]
    assert r.json["error"] == "conflict"  # the campaign moved on: the page shows it anew

    session = client.post(f"/api/campaigns/{cid}/next").json["table"]
    play_out(services.tables.get(session), script()[1])
    assert client.post(f"/api/campaigns/{cid}/record").json["summary"]["game"] == 2
    assert client.get(f"/api/tables/{session}").json["campaign"]["recorded"] is True
    # recorded, the game stays as it was recorded: the next ledger came from it
    version = services.tables.get(session).version
    r = client.post(f"/api/tables/{session}/undo", json={})
    assert r.status_code == 409 and r.json["message"] == (
        "this game is recorded into the campaign 'Ours'; to change it, take its recording "
        "back on the campaign page first")
    assert services.tables.get(session).version == version
    r = client.post(f"/api/campaigns/{cid}/take-back",
                    json={"kind": "recording", "session": session})
    assert r.status_code == 200 and r.json["current"] == session
    assert r.json["summary"]["game"] == 1
    assert client.get(f"/api/tables/{session}").json["campaign"]["recorded"] is False
    assert client.post(f"/api/tables/{session}/undo", json={}).status_code == 200


def test_the_final_game_is_recorded_and_ends_the_campaign(client, services):
    """The final game (the Emperor crowned) could not be recorded: ``ready`` was false, no
    Record button, the campaign stuck under way. It records as any other; then the next
    game is refused, with the Emperor named, in French too."""
    from tests.companion.test_campaigns import FINAL_SETUP, play_final_game

    cid = client.post("/api/campaigns", json={"name": "Last", "setup": FINAL_SETUP}).json["id"]
    session = client.post(f"/api/campaigns/{cid}/next").json["table"]
    table = services.tables.get(session)
    play_final_game(table)
    red = table.state.provinces["red"].player
    assert client.get(f"/api/campaigns/{cid}").json["recording"] == {"ready": True,
                                                                     "final": True}
    r = client.post(f"/api/campaigns/{cid}/record")
    assert r.status_code == 200, r.json
    over = {"emperor": "red", "player": red, "game": 1}
    assert r.json["over"] == over and r.json["current"] is None
    assert r.json["summary"]["emperor"] == {"colour": "red", "player": red, "game": 1}
    assert r.json["summary"]["record"][-1]["game"] == 1
    assert client.get("/api/campaigns").json["campaigns"][0]["over"] == over
    assert client.get(f"/api/tables/{session}").json["campaign"]["recorded"] is True
    assert client.post(f"/api/tables/{session}/undo", json={}).status_code == 409
    r = client.post(f"/api/campaigns/{cid}/next", headers={"Accept-Language": "fr"})
    assert r.status_code == 409
    assert r.json["message"] == f"the campaign is over: {red} (red) is crowned Emperor"
    assert r.json["phrases"][r.json["message"]].startswith("la campagne est finie")
    assert client.get(f"/api/campaigns/{cid}").json["current"] is None


def after_game_1(client, services) -> str:
    """A campaign whose game 1 (Ann blue, Cat green, Ben red) is recorded; ``client`` hosted
    it, so it sets up the next one."""
    cid = client.post("/api/campaigns", json={"name": "Ours", "setup": first_setup()}).json["id"]
    play_out(services.tables.get(client.post(f"/api/campaigns/{cid}/next").json["table"]),
             script()[1])
    assert client.post(f"/api/campaigns/{cid}/record").status_code == 200
    return cid


DAN = {"colour": "gray", "advisor": "Advanced Scout", "ships": ["gray-1:sail"],
       "improvements": []}


@pytest.mark.parametrize("player", [None, "", "   ", 7], ids=["none", "empty", "blank",
                                                                 "number"])
def test_a_new_player_joins_only_with_a_name(client, services, player):
    """A newcomer with no name was stored with one made up from the request (the French page
    sent "Gris", so the English page said "Gris joined the campaign as Gray"). The API now
    refuses, in English and in French, and nothing is set up."""
    cid = after_game_1(client, services)
    join = {**DAN, **({} if player is None else {"player": player})}
    for lang, said in (("en", "the new player of the gray province needs a name ('player')"),
                       ("fr", "le nouveau joueur de la province Gris doit avoir un nom "
                              "(«\u00a0player\u00a0»)")):
        r = client.post(f"/api/campaigns/{cid}/next", json={"changes": [{"join": join}]},
                        headers={"Accept-Language": lang})
        assert r.status_code == 400, r.json
        assert r.json["message"] == "the new player of the gray province needs a name ('player')"
        assert r.json.get("phrases", {}).get(r.json["message"], r.json["message"]) == said
    assert client.get(f"/api/campaigns/{cid}").json["current"] is None
    r = client.post(f"/api/campaigns/{cid}/next",
                    json={"changes": [{"join": {**DAN, "player": "  Dan "}}]})
    assert r.status_code == 201, r.json
    assert services.tables.get(r.json["table"]).state.provinces["gray"].player == "Dan"


@pytest.mark.parametrize("order", ["absent first", "leave first"])
def test_a_player_cannot_both_miss_the_next_game_and_leave_for_good(client, services, order):
    """Cat (green) ticked as missing the next game and as leaving for good: the leave was
    applied and the absence dropped without a word. Now refused, in English and in French,
    whatever the order, and nothing is set up; either one alone is taken."""
    cid = after_game_1(client, services)
    changes = [{"join": {**DAN, "player": "Dan"}}, {"absent": {"colour": "green"}},
               {"leave": {"colour": "green"}}]
    if order == "leave first":
        changes[1], changes[2] = changes[2], changes[1]
    message = "green cannot both miss this game and leave the campaign for good: choose one"
    r = client.post(f"/api/campaigns/{cid}/next", json={"changes": changes})
    assert r.status_code == 409 and r.json["message"] == message, r.json
    r = client.post(f"/api/campaigns/{cid}/next", json={"changes": changes},
                    headers={"Accept-Language": "fr"})
    assert r.json["phrases"][message] == ("Vert ne peut pas à la fois manquer cette partie et "
                                          "quitter la campagne pour de bon : choisissez l’un "
                                          "des deux")
    assert client.get(f"/api/campaigns/{cid}").json["current"] is None
    r = client.post(f"/api/campaigns/{cid}/next", json={"changes": changes[:1] + [
        c for c in changes[1:] if "leave" in c]})
    assert r.status_code == 201, r.json
    assert "green" not in services.tables.get(r.json["table"]).state.provinces
