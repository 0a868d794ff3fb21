"""The role matrix (issue 6, "Joining and roles"): who may do what at a SeaFall table, one
case per line, with the status each gets. Red (Ann) and blue (Bob) have joined with the
host's link; Cat watches; a stranger has no session at all. It is red's turn."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from companion.store.sqlite import MEMORY, SQLiteStore
from tests.support.web import browser, join
from web.app import create_app
from web.services import Services

SETUP = {"start_at": "turn", "provinces": [
    {"colour": "red", "player": "Ann", "ships": [{"location": "isle"}]},
    {"colour": "blue", "player": "Bob"}, {"colour": "green", "player": "Gus"}],
    "islands": [{"id": "isle", "sites": [{"name": "1", "defense": 4}]}]}

HIRE = {"type": "hire_guild", "guild": "soldiers"}
ADVISOR = {"type": "add_component", "kind": "advisor",
           "card": {"name": "Harbor Witch", "guild": "explorers", "gold": 2,
                    "expertise": {"explore": 1},
                    "effects": [{"effect": "fortune_at_dangerous", "amount": 1}]}}
ISLAND = {"type": "add_island", "island": {"id": "far", "name": "Far isle", "garrison": 2,
                                           "space": "(9, 0, 9)",
                                           "sites": [{"name": "1", "symbol": "sun",
                                                      "defense": 4}]}}

LEADER = {"type": "set_leader", "province": "red", "reputation": 2, "fortune": 2}


@dataclass
class Table:
    app: Any
    id: str
    clients: dict[str, Any]

    def url(self, path: str) -> str:
        return f"/api/tables/{self.id}{path}"

    def send(self, who: str, method: str, path: str, body: Any = None) -> Any:
        client = self.clients[who]
        call = getattr(client, method.lower())
        return call(path.replace("{id}", self.id), json=body) if body is not None else \
            call(path.replace("{id}", self.id))


@pytest.fixture
def table():
    services = Services(SQLiteStore(MEMORY))
    app = create_app(services, {"TESTING": True})
    host = browser(app)
    created = host.post("/api/tables", json={"game": "seafall", "options": SETUP})
    assert created.status_code == 201 and created.json["host_pin"]
    tid = created.json["id"]
    red = join(app, host, tid, "Ann", "red")
    no_csrf = app.test_client()
    no_csrf.set_cookie("tableside_session", red.get_cookie("tableside_session").value)
    wrong_csrf = app.test_client()
    wrong_csrf.set_cookie("tableside_session", red.get_cookie("tableside_session").value)
    wrong_csrf.environ_base["HTTP_X_CSRF_TOKEN"] = "not-the-token"
    yield Table(app, tid, {
        "host": host, "red": red, "blue": join(app, host, tid, "Bob", "blue"),
        "spectator": join(app, host, tid, "Cat", None), "stranger": app.test_client(),
        "red without csrf": no_csrf, "red with a wrong csrf": wrong_csrf})
    services.close()


def red_hires(t: Table) -> None:
    assert t.send("red", "POST", "/api/tables/{id}/commands", HIRE).status_code == 200


def host_hires_as_the_table(t: Table) -> None:
    r = t.send("host", "POST", "/api/tables/{id}/commands", {**HIRE, "guild": "explorers"})
    assert r.status_code == 200


def red_hires_and_undoes(t: Table) -> None:
    red_hires(t)
    assert t.send("red", "POST", "/api/tables/{id}/undo", {}).status_code == 200


def players_act_for_all(t: Table) -> None:
    r = t.send("host", "POST", "/api/tables/{id}/settings", {"players_act_for_all": True})
    assert r.status_code == 200 and r.json["players_act_for_all"] is True


def nothing(t: Table) -> None:
    """No preparation: the case runs on the table as created."""


CMD = "/api/tables/{id}/commands"
CASES: list[Any] = [
    # -- commands: a player acts for their own province only -----------------------------
    pytest.param(nothing, "red", "POST", CMD, HIRE, 200, None, id="player acts on own turn"),
    pytest.param(nothing, "blue", "POST", CMD, HIRE, 403, "forbidden",
                 id="player acts for another province"),
    pytest.param(nothing, "blue", "POST", CMD, {**HIRE, "actor": "red"}, 403, "forbidden",
                 id="player names another province as actor"),
    pytest.param(nothing, "blue", "POST", CMD, {**HIRE, "actor": "Ann"}, 403, "forbidden",
                 id="player names another player as actor"),
    pytest.param(nothing, "blue", "POST", CMD, {**HIRE, "actor": "the table"}, 403,
                 "forbidden", id="player names an unknown actor to act as the table"),
    pytest.param(players_act_for_all, "blue", "POST", CMD, HIRE, 200, None,
                 id="host allows players to act for all"),
    pytest.param(nothing, "host", "POST", CMD, HIRE, 200, None, id="host acts for anyone"),
    pytest.param(nothing, "red", "POST", CMD, {"type": "roll", "faces": ["blank"]}, 409,
                 "illegal", id="rules refusals stay 409 for the right player"),
    # -- spectators and strangers only read ----------------------------------------------
    pytest.param(nothing, "spectator", "POST", CMD, HIRE, 403, "forbidden",
                 id="spectator writes"),
    pytest.param(nothing, "stranger", "POST", CMD, HIRE, 403, "forbidden",
                 id="no session writes"),
    pytest.param(nothing, "spectator", "GET", "/api/tables/{id}", None, 200, None,
                 id="spectator reads the table"),
    pytest.param(nothing, "stranger", "GET", "/api/tables/{id}/history", None, 200, None,
                 id="no session reads the history"),
    pytest.param(nothing, "spectator", "POST", "/api/tables/{id}/buttons", {"button": 4},
                 403, "forbidden", id="spectator presses a dashboard button"),
    pytest.param(nothing, "red", "POST", "/api/tables/{id}/buttons", {"button": 4}, 200,
                 None, id="player presses a dashboard button"),
    pytest.param(nothing, "spectator", "POST", "/api/tables/{id}/undo", {}, 403,
                 "forbidden", id="spectator undoes"),
    # -- CSRF ------------------------------------------------------------------------------
    pytest.param(nothing, "red without csrf", "POST", CMD, HIRE, 403, "csrf",
                 id="missing CSRF token"),
    pytest.param(nothing, "red with a wrong csrf", "POST", CMD, HIRE, 403, "csrf",
                 id="wrong CSRF token"),
    pytest.param(nothing, "red without csrf", "GET", "/api/tables/{id}", None, 200, None,
                 id="reads need no CSRF token"),
    # -- undo and redo: one's own, or the host's -------------------------------------------
    pytest.param(red_hires, "red", "POST", "/api/tables/{id}/undo", {}, 200, None,
                 id="player undoes own command"),
    pytest.param(red_hires, "blue", "POST", "/api/tables/{id}/undo", {}, 403, "forbidden",
                 id="player undoes another's command"),
    pytest.param(red_hires, "host", "POST", "/api/tables/{id}/undo", {}, 200, None,
                 id="host undoes another's command"),
    pytest.param(host_hires_as_the_table, "red", "POST", "/api/tables/{id}/undo", {}, 403,
                 "forbidden", id="player undoes the table's command"),
    pytest.param(red_hires_and_undoes, "red", "POST", "/api/tables/{id}/redo", {}, 200, None,
                 id="player redoes own command"),
    pytest.param(red_hires_and_undoes, "blue", "POST", "/api/tables/{id}/redo", {}, 403,
                 "forbidden", id="player redoes another's command"),
    pytest.param(red_hires, "blue", "POST", "/api/tables/{id}/undo", {"actor": "red"}, 403,
                 "forbidden", id="player undoes in another's name"),
    pytest.param(red_hires, "host", "POST", "/api/tables/{id}/undo", {"actor": "mallory"},
                 400, "invalid", id="host undoes in the name of no one who plays"),
    pytest.param(red_hires_and_undoes, "host", "POST", "/api/tables/{id}/redo",
                 {"actor": "mallory"}, 400, "invalid",
                 id="host redoes in the name of no one who plays"),
    pytest.param(red_hires, "host", "POST", "/api/tables/{id}/undo", {"actor": "Ann"}, 200,
                 None, id="host undoes in a player's name"),
    # -- host-only actions -------------------------------------------------------------------
    pytest.param(nothing, "red", "POST", CMD, ADVISOR, 403, "forbidden",
                 id="player adds a component"),
    pytest.param(nothing, "host", "POST", CMD, ADVISOR, 200, None, id="host adds a component"),
    pytest.param(nothing, "red", "POST", CMD, ISLAND, 403, "forbidden",
                 id="player adds an island"),
    pytest.param(nothing, "host", "POST", CMD, ISLAND, 200, None, id="host adds an island"),
    pytest.param(nothing, "red", "POST", CMD, LEADER, 403, "forbidden",
                 id="player sets their leader's tokens"),
    pytest.param(nothing, "host", "POST", CMD, LEADER, 409, "illegal",
                 id="host sets a leader once round 1 began"),
    pytest.param(nothing, "red", "GET", "/api/tables/{id}/invite", None, 403, "forbidden",
                 id="player asks for the invite"),
    pytest.param(nothing, "host", "GET", "/api/tables/{id}/invite", None, 200, None,
                 id="host gets the invite"),
    pytest.param(nothing, "red", "POST", "/api/tables/{id}/invite", None, 403, "forbidden",
                 id="player makes a new invite"),
    pytest.param(nothing, "red", "POST", "/api/tables/{id}/settings",
                 {"players_act_for_all": True}, 403, "forbidden",
                 id="player changes the table's settings"),
    pytest.param(nothing, "red", "DELETE", "/api/tables/{id}/seats/blue", None, 403,
                 "forbidden", id="player frees another's province"),
    pytest.param(nothing, "host", "DELETE", "/api/tables/{id}/seats/blue", None, 200, None,
                 id="host frees a province"),
    # -- joining -------------------------------------------------------------------------------
    pytest.param(nothing, "stranger", "POST", "/api/tables/{id}/join",
                 {"token": "made-up", "name": "Eve", "province": "green"}, 403, "forbidden",
                 id="bad join token"),
    pytest.param(nothing, "stranger", "POST", "/api/tables/{id}/host", {"pin": "000000x"},
                 403, "forbidden", id="wrong host PIN"),
    # -- hidden information: one's own view only -----------------------------------------------
    pytest.param(nothing, "red", "GET", "/api/tables/{id}?viewer=blue", None, 403,
                 "forbidden", id="player asks for another's view"),
    pytest.param(nothing, "red", "GET", "/api/tables/{id}?viewer=red", None, 200, None,
                 id="player asks for own view"),
    pytest.param(nothing, "stranger", "GET", "/api/stream/{id}?viewer=red", None, 403,
                 "forbidden", id="no session streams a player's view"),
]


@pytest.mark.parametrize("before, who, method, path, body, status, code", CASES)
def test_role_matrix(table: Table, before: Callable[[Table], None], who: str, method: str,
                     path: str, body: Any, status: int, code: str | None) -> None:
    before(table)
    version = table.send("host", "GET", "/api/tables/{id}").json["version"]
    answer = table.send(who, method, path, body)
    assert answer.status_code == status, answer.json
    if code is not None:
        assert answer.json["error"] == code and answer.json["message"]
    if status >= 400 and method != "GET":
        # a refused change loses nothing and changes nothing
        assert table.send("host", "GET", "/api/tables/{id}").json["version"] == version


@pytest.mark.parametrize(("before", "who", "method", "path", "body", "said"), [
    (nothing, "spectator", "POST", "/api/tables/{id}/undo", {},
     {"key": "auth.spectators_watch", "values": {}}),
    (red_hires, "blue", "POST", "/api/tables/{id}/undo", {},  # whose: Red's player
     {"key": "auth.undo_others", "values": {"whose": "Ann", "command": "hire guild"}}),
    (red_hires_and_undoes, "blue", "POST", "/api/tables/{id}/redo", {},
     {"key": "auth.redo_others", "values": {"whose": "Ann", "command": "hire guild"}}),
    (host_hires_as_the_table, "red", "POST", "/api/tables/{id}/undo", {},
     {"key": "auth.undo_others", "values": {"whose": {
         "text": "the table", "key": "auth.by_table", "values": {}}, "command": "hire guild"}}),
    (nothing, "stranger", "POST", "/api/tables/{id}/join",
     {"token": "made-up", "name": "Eve", "province": "green"},
     {"key": "join.link_unknown", "values": {}}),  # never made: not "expired"
    (nothing, "stranger", "POST", "/api/tables/{id}/host", {"pin": "000000x"},
     {"key": "join.wrong_pin", "values": {}}),
], ids=["spectator undoes", "another's undo", "another's redo", "the table's undo",
        "bad join link", "wrong PIN"])
def test_a_refusal_a_player_meets_comes_with_its_message_key(
        table: Table, before: Callable[[Table], None], who: str, method: str, path: str,
        body: Any, said: dict[str, Any]) -> None:
    """The page says it in its language (docs/ui.md, "Languages")."""
    before(table)
    answer = table.send(who, method, path, body)
    assert answer.status_code == 403 and answer.json["said"] == said


def test_a_player_acts_with_their_province_as_actor(table: Table) -> None:
    red_hires(table)
    history = table.send("host", "GET", "/api/tables/{id}/history").json["history"]
    assert history[-1]["actor"] == "red" and history[-1]["type"] == "hire_guild"


def test_a_province_is_played_by_one_session_until_the_host_frees_it(table: Table) -> None:
    token = table.send("host", "GET", "/api/tables/{id}/invite").json["token"]
    eve = browser(table.app)
    body = {"token": token, "name": "Eve", "province": "red"}
    taken = eve.post(table.url("/join"), json=body)
    assert taken.status_code == 409 and "Ann" in taken.json["message"]
    assert table.send("host", "DELETE", "/api/tables/{id}/seats/red").status_code == 200
    assert eve.post(table.url("/join"), json=body).json["role"] == "player"
    assert table.send("red", "GET", "/api/tables/{id}/me").json["role"] == "spectator"


def test_the_roller_may_undo_and_redo_the_cameras_read_of_her_roll() -> None:
    """The demo camera applied "Dice read (camera)" to Blue's explore: on her phone Undo was
    off and the server refused it (the command's actor is the camera), only the host could
    take it back. The roller (the roll prompt's player) may undo and redo it, as a roll she
    answered herself; another player may not, and the history says whose roll it was."""
    from companion.engine import Command
    from companion.games.seafall.setup import demo_options

    services = Services(SQLiteStore(MEMORY))
    try:
        app = create_app(services, {"TESTING": True})
        host = browser(app)
        tid = host.post("/api/tables", json={"game": "seafall",
                                             "options": demo_options()}).json["id"]
        blue, green = join(app, host, tid, "Bo", "blue"), join(app, host, tid, "Gus", "green")
        table = services.tables.get(tid)
        table.apply(Command("hire_guild", {"guild": "explorers"}, "blue"))
        table.apply(Command("sail", {"moves": [{"ship": "blue-1",
                                                "path": ["coastal_waters", "isle-a"]}]}, "blue"))
        table.apply(Command("explore", {"flagship": "blue-1", "site": "isle-a/3"}, "blue"))
        table.apply(Command("roll", {"faces": ["strong", "strong"], "source": "camera"},
                            "camera"))

        def last(who: Any) -> dict[str, Any]:
            return who.get(f"/api/tables/{tid}/history").json["history"][-1]

        assert last(blue)["actor"] == "camera" and last(blue)["roller"] == "blue"
        refused = green.post(f"/api/tables/{tid}/undo", json={})
        assert refused.status_code == 403
        assert refused.json["said"]["key"] == "auth.undo_others"
        assert blue.post(f"/api/tables/{tid}/undo", json={}).status_code == 200
        camera = [e for e in blue.get(f"/api/tables/{tid}/history").json["history"]
                  if e["actor"] == "camera"]
        assert camera[-1]["undone"] and camera[-1]["roller"] == "blue"  # the redo's
        assert green.post(f"/api/tables/{tid}/redo", json={}).status_code == 403
        assert blue.post(f"/api/tables/{tid}/redo", json={}).status_code == 200
        history = blue.get(f"/api/tables/{tid}/history").json["history"]
        assert [e["actor"] for e in history if "roller" in e] == ["camera"]  # hers: no roller
    finally:
        services.close()
