"""The campaign ledger: a recorded game becomes the next game's setup (rulebook, "Game
Carryover")."""

from __future__ import annotations

import pytest
from seafall_driver import Game, island

from companion.errors import IllegalCommand
from companion.games.seafall.campaign import next_game


def recorded_game() -> Game:
    g = Game({
        "provinces": [
            {"colour": "red", "glory": 12, "title": "prince", "campaign_glory": 11,
             "advisors": ["Captain", "Savage"], "leader_fortune": 2, "leader_reputation": 1,
             "research": [{"name": "Chart", "effects": [
                 {"effect": "dice", "endeavor": "explore", "amount": 2}]}]},
            {"colour": "blue", "glory": 4, "title": "duke", "campaign_glory": 12,
             "advisors": ["Madman"], "site_enmity": {"field-1": {"red": 1}}},
        ],
        "islands": [island(sites=[{"name": "1", "kind": "mine", "value": 3},
                                  {"name": "2", "symbol": "sun", "defense": 4}])],
        "retired_advisors": [{"name": "Old Salt", "expertise": {"raid": 1}, "stickers": 2}],
        "milestones": [{"name": "Explorer", "glory": 5}, {"name": "Builder", "glory": 3}],
        "events": ["Storm"], "glory_target": 11,
    })
    g.do("claim_milestone", milestone="Builder")  # Blue sits first (less prominent title)
    while not g.state.game_over:
        g.do("end_turn")
    answers = {"improve_province": "fortune", "train_advisor": None, "keep_advisor": None,
               "improve_ship": None}
    while g.state.phase != "recorded":
        p = g.prompt
        if p.kind == "roll":
            g.do("roll", faces=["blank"] * p.count)
        else:
            g.do(p.command, **{p.arg: answers.get(p.command) or p.options[0].value})
    return g


def test_next_game_carries_the_campaign_over():
    g = recorded_game()
    options = next_game(g.state)
    assert options["game"] == 2
    red = options["provinces"][options["provinces"].index(
        next(p for p in options["provinces"] if p["colour"] == "red"))]
    assert red["leader_fortune"] == 3  # the winner's improvement
    assert red["campaign_glory"] == 11 + 12
    blue = next(p for p in options["provinces"] if p["colour"] == "blue")
    assert blue["campaign_glory"] == 12 + 4 + 3  # with the milestone's glory
    assert blue["advisors"] == ["Madman"]
    # Blue kept the Madman (2 gold); Red, the winner, has nothing cheaper and keeps none
    assert red["advisors"] == []
    assert [c["name"] for c in red["research"]] == ["Chart"]
    assert [m["name"] for m in options["milestones"]] == ["Explorer"]
    assert options["record"] == g.state.record
    # red's token on blue's field became a permanent sticker on blue's province
    assert blue["permanent_enmity"] == {"red": 1}

    second = Game({**options, "start_at": "winter"})
    state = second.state
    assert state.game_number == 2 and state.glory_target == 12
    assert state.provinces["red"].fortune == 3  # tokens = leader levels at the start
    assert state.provinces["red"].glory == 0 and state.provinces["red"].gold == 0
    assert state.provinces["red"].home_enmity == 8
    assert state.regions["blue"].permanent_enmity == {"red": 1}
    assert state.sites["isle/1"].kind == "mine" and state.sites["isle/2"].kind == "unexplored"
    assert state.catalogue.advisors == g.state.catalogue.advisors  # trained expertise kept
    assert [r.stickers for r in state.retired_advisors] == [
        r.stickers for r in g.state.retired_advisors]
    assert (state.provinces["red"].title, state.provinces["blue"].title) == ("prince", "duke")
    assert state.seating == ["blue", "red"]  # least prominent first


def test_next_game_needs_a_recorded_game():
    g = Game({})
    with pytest.raises(IllegalCommand, match="not over and recorded"):
        next_game(g.state)
