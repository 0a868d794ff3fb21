"""``GET /api/tables/<id>/dice/stats`` (docs/api.md, "Dice statistics"): the dice a SeaFall
table threw, each roll and re-roll of an endeavor's pool (rulebook, "Endeavors and
Damage": a re-rolled die is thrown again), by how they were read and by province; undone
rolls left out, redone ones counted."""

from __future__ import annotations

from companion.engine import Command
from companion.games.seafall.setup import demo_options
from tests.support import tally
from tests.support.web import browser


def _explore(table, faces, source):
    table.apply(Command("hire_guild", {"guild": "explorers"}, "blue"))
    table.apply(Command("sail", {"moves": [{"ship": "blue-1",
                                            "path": ["coastal_waters", "isle-a"]}]}, "blue"))
    table.apply(Command("explore", {"flagship": "blue-1", "site": "isle-a/3"}, "blue"))
    table.apply(Command("roll", {"faces": faces, "source": source}, "blue"))


def test_the_dice_thrown_by_source_and_province(app, services):
    client = browser(app)
    tid = client.post("/api/tables", json={"game": "seafall",
                                           "options": demo_options()}).json["id"]
    empty = client.get(f"/api/tables/{tid}/dice/stats").json
    assert empty["dice"] == [] and empty["min_expected"] == 5.0
    table = services.tables.get(tid)
    _explore(table, ["strong", "weak"], "camera")  # the explorers re-roll weak successes
    assert table.prompts()[0].kind == "roll"
    table.apply(Command("roll", {"faces": ["blank"], "source": "photo"}, "blue"))

    stats = client.get(f"/api/tables/{tid}/dice/stats").json
    assert stats["version"] == table.version
    [seafall] = stats["dice"]
    assert seafall["die"] == "seafall" and seafall["dice"] == 3 and seafall["p_value"] is None
    assert {f["label"]: (f["observed"], f["expected"]) for f in seafall["faces"]} == {
        "blank": (1, 1.0), "standard": (0, 1.0), "weak": (1, 0.5), "strong": (1, 0.5)}
    assert {k: v["dice"] for k, v in seafall["by_source"].items()} == {"camera": 2, "photo": 1}
    assert {k: v["dice"] for k, v in seafall["by_player"].items()} == {"blue": 3}

    table.undo("blue")  # the re-roll taken back: its die was not thrown
    assert client.get(f"/api/tables/{tid}/dice/stats").json["dice"][0]["dice"] == 2
    table.redo("blue")
    assert client.get(f"/api/tables/{tid}/dice/stats").json["dice"][0]["dice"] == 3


def test_a_game_that_says_no_dice_and_an_unknown_table(app):
    """A game without ``dice_thrown`` (the test tally) has no dice to count."""
    tally.register()
    client = browser(app)
    tid = client.post("/api/tables", json={"game": "tally",
                                           "options": {"players": ["red"]}}).json["id"]
    assert client.get(f"/api/tables/{tid}/dice/stats").json["dice"] == []
    missing = client.get("/api/tables/nope/dice/stats")
    assert missing.status_code == 404 and missing.json["error"] == "not_found"
