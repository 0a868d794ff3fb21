"""Hidden information stays in its owner's view in the history too (DESIGN.md, "Views"):
another player or a spectator sees that a secret note was written, not its text, nor the
command's arguments that carried it."""

from __future__ import annotations

import pytest

from companion.store.sqlite import MEMORY, SQLiteStore
from tests.support import tally
from tests.support.web import browser, join
from web.app import create_app
from web.services import Services


@pytest.fixture
def app():
    tally.register()
    services = Services(SQLiteStore(MEMORY))
    yield create_app(services, {"TESTING": True})
    services.close()


def test_a_secret_note_is_only_in_its_writers_history(app):
    host = browser(app)
    tid = host.post("/api/tables", json={"game": "tally", "options": {
        "players": ["ann", "bob"], "goal": 3}}).json["id"]
    ann, bob = join(app, host, tid, "Ann", "ann"), join(app, host, tid, "Bob", "bob")
    r = ann.post(f"/api/tables/{tid}/commands",
                 json={"type": "note", "player": "ann", "text": "go for bob"})
    assert r.status_code == 200, r.json
    r = ann.post(f"/api/tables/{tid}/commands", json={"type": "add", "player": "bob"})
    assert r.status_code == 200, r.json

    def last_two(client):
        return client.get(f"/api/tables/{tid}/history").json["history"][-2:]

    mine = last_two(ann)
    assert mine[0]["args"]["text"] == "go for bob" and not mine[0].get("hidden")
    assert mine[0]["events"][0]["payload"]["text"] == "go for bob"
    for other in (bob, browser(app)):
        note, add = last_two(other)
        assert note["hidden"] is True and note["args"] == {}
        assert note["events"][0]["type"] == "NoteWritten"
        assert note["events"][0]["payload"] == {} and note["events"][0]["text"] == "(hidden)"
        assert "go for bob" not in str(other.get(f"/api/tables/{tid}/history").json)
        assert add["args"] == {"player": "bob"}  # public moves stay readable
