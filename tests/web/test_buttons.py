"""The software button box from the dashboard, and button answers to the table's prompts:
confirm, option N, fortune +/-, undo, next (issue 5, "Software button box" and "Events and
mapping"). The SeaFall mapping (firmware_bridge/mappings/seafall.json): 0 confirm, 1
re-read, 2 next, 3 undo, 4 option 1 (hold: 3), 5 option 2 (hold: 4), 6 fortune +, 7
fortune -."""

from __future__ import annotations

import pytest

from companion.store.sqlite import MEMORY, SQLiteStore
from tests.support.web import browser
from web.app import create_app
from web.services import Services

CONFIRM, REREAD, NEXT, UNDO, OPTION_1, OPTION_2, FORTUNE_UP, FORTUNE_DOWN = range(8)

SETUP = {"start_at": "turn", "provinces": [
    {"colour": "red", "fortune": 3, "ships": [{"location": "isle"}, {"location": "isle"}]},
    {"colour": "blue"}, {"colour": "green"}],
    "islands": [{"id": "isle", "sites": [{"name": "1", "defense": 4}]}]}


@pytest.fixture
def client():
    services = Services(SQLiteStore(MEMORY))
    yield browser(create_app(services, {"TESTING": True}))
    services.close()


def table(client) -> str:
    return client.post("/api/tables", json={"game": "seafall", "options": SETUP}).json["id"]


def click(client, tid: str, button: int, long: bool = False) -> dict:
    response = client.post(f"/api/tables/{tid}/buttons", json={"button": button, "long": long})
    assert response.status_code == 200, response.json
    return response.json


def test_option_buttons_answer_a_choice_and_lights_follow_the_prompt(client):
    tid = table(client)
    status = client.get(f"/api/tables/{tid}/buttons").json
    assert status["expects"] == {"actions": ["next", "option"], "options": 4}
    assert status["leds"] == ["0", "1", "0", "0"]  # option lit; no confirm, fortune or undo
    out = click(client, tid, OPTION_2, long=True)  # option 4: soldiers
    assert out["answers"] == [{"action": "option", "n": 4}]
    assert out["table"]["state"]["turn"]["guild"] == "soldiers"
    assert out["expects"]["actions"] == ["next", "undo"]


def test_undo_and_next(client):
    tid = table(client)
    click(client, tid, OPTION_1, long=True)  # option 3: explorers
    out = click(client, tid, UNDO)
    assert out["table"]["state"]["turn"]["guild"] is None
    out = click(client, tid, NEXT)
    assert out["table"]["state"]["turn"]["player"] == "blue"


def test_an_undo_from_the_box_is_recorded_with_who_did_it(client):
    """QA: the box's undos were recorded with actor null (the history card named no one),
    where its answers to a prompt are the prompt's player's. An undo is recorded as the
    player the table is asking, as those are."""
    tid = table(client)
    click(client, tid, OPTION_1, long=True)  # red hires the explorers
    click(client, tid, UNDO)
    history = client.get(f"/api/tables/{tid}/history").json["history"]
    assert [(h["kind"], h["actor"]) for h in history[-2:]] == [("command", "red"),
                                                              ("undo", "red")]


def to_fortune_prompt(client, tid: str) -> None:
    """Red explores and rolls one success against defense 4: spend fortune? (0-2)."""
    client.post(f"/api/tables/{tid}/commands", json={"type": "hire_guild", "guild": "explorers"})
    client.post(f"/api/tables/{tid}/commands",
                json={"type": "explore", "flagship": "red-1", "site": "isle/1"})
    client.post(f"/api/tables/{tid}/commands",
                json={"type": "roll", "faces": ["standard", "blank", "blank"]})


def test_fortune_is_counted_then_confirmed(client):
    tid = table(client)
    to_fortune_prompt(client, tid)
    assert click(client, tid, FORTUNE_UP)["fortune"] == 1
    assert click(client, tid, FORTUNE_UP)["fortune"] == 2
    assert click(client, tid, FORTUNE_UP)["fortune"] == 2  # at most what the prompt allows
    assert click(client, tid, FORTUNE_DOWN)["fortune"] == 1
    out = click(client, tid, CONFIRM)
    assert out["table"]["state"]["provinces"]["red"]["fortune"] == 2
    assert out["table"]["prompts"][0]["command"] == "assign_damage"


def test_the_pages_see_whether_a_fortune_button_counted(client):
    """The pages show the fortune counted on the button box beside the roll it is for, and
    only once a fortune button counted: before, ``fortune`` is the prompt's least, which no
    one counted (docs/api.md, "Tables")."""
    tid = table(client)
    status = client.get(f"/api/tables/{tid}/buttons").json
    assert (status["fortune"], status["fortune_counted"]) == (None, False)  # no spend prompt
    to_fortune_prompt(client, tid)
    status = client.get(f"/api/tables/{tid}/buttons").json
    assert (status["fortune"], status["fortune_counted"]) == (0, False)
    click(client, tid, FORTUNE_UP)
    click(client, tid, FORTUNE_DOWN)  # back to none, counted all the same
    status = client.get(f"/api/tables/{tid}/buttons").json
    assert (status["fortune"], status["fortune_counted"]) == (0, True)
    assert click(client, tid, FORTUNE_UP)["fortune_counted"] is True
    out = click(client, tid, CONFIRM)
    assert (out["fortune"], out["fortune_counted"]) == (None, False)  # spent: a new prompt


def test_a_button_that_means_nothing_now_does_nothing(client):
    tid = table(client)
    out = click(client, tid, REREAD)  # no camera read waits for a re-read
    assert out["answers"] == [] and out["table"]["version"] == 2


@pytest.mark.parametrize("body", [{"button": 9}, {"button": "0"}, {"button": 0, "long": 1},
                                  {}])
def test_bad_button_requests_are_400(client, body):
    tid = table(client)
    response = client.post(f"/api/tables/{tid}/buttons", json=body)
    assert response.status_code == 400 and response.json["error"] == "invalid"


def test_an_option_that_needs_a_name_typed_is_refused_by_a_button_with_the_reason():
    """A button cannot type: an appellation (its name) is taken on a phone; a field's new
    value goes at its default, the next one up (rulebook, "End of Game", step 1)."""
    from companion.engine import Command
    from companion.errors import IllegalCommand
    from companion.table import Table
    from web.buttons import option_command

    with Table.in_memory("seafall", {"provinces": [{"colour": "red", "glory": 12},
                                                   {"colour": "blue"}],
                                     "start_at": "turn", "glory_target": 11}) as t:
        while not t.state.game_over:  # red is past the target: the round ends the game
            t.apply(Command("end_turn", {}))
        prompt = t.prompts()[0]
        values = [o.value for o in prompt.options]
        with pytest.raises(IllegalCommand, match=r"^take an appellation \(give its name\): "
                                                 r"type the appellation's name on a phone$"):
            option_command(prompt, values.index("appellation"))
        command = option_command(prompt, values.index("field:red/field-1"))
        assert command.args == {"choice": "field:red/field-1", "value": 5}
        t.apply(command)
        assert t.state.sites["red/field-1"].value == 5


def test_a_button_draws_an_unnamed_damage_card_without_typing_its_powers(client):
    """"Damage": the option to draw a card asks a phone for the card's name and powers; a
    button sends the name's default ("damage", any card) and no powers, so it is not
    refused for want of them."""
    tid = table(client)
    for body in ({"type": "hire_guild", "guild": "explorers"},
                 {"type": "explore", "flagship": "red-1", "site": "isle/1"},
                 {"type": "roll", "faces": ["standard"] * 3}):
        assert client.post(f"/api/tables/{tid}/commands", json=body).status_code == 200
    prompt = client.get(f"/api/tables/{tid}").json["prompts"][0]
    assert [o["value"] for o in prompt["options"]] == ["card:red-1"]
    assert [i["arg"] for i in prompt["options"][0]["inputs"]] == ["card", "effects"]
    out = click(client, tid, OPTION_1)
    assert out["answers"] == [{"action": "option", "n": 1}]
    assert out["table"]["state"]["ships"]["red-1"]["damage"] == [{"name": "damage",
                                                                  "effects": []}]
