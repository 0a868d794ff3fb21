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
            {"colour": "green", "glory": 2, "title": "count", "campaign_glory": 10},
        ],
        "islands": [island(sites=[{"name": "1", "kind": "mine", "value": 3},
                                  {"name": "2", "symbol": "sun", "defense": 4}])],
        "retired_advisors": [{"name": "Old Salt", "expertise": {"raid": 1}, "stickers": 2}],
        "milestones": [{"name": "Explorer", "glory": 5}, {"name": "Builder", "glory": 3}],
        "events": ["Storm"], "glory_target": 11,
    })
    g.do("end_turn")  # Green sits first (the least prominent title)
    g.do("hire_guild", guild="builders")
    g.do("claim_milestone", milestone="Builder")
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
    assert state.seating == ["green", "blue", "red"]  # least prominent first


def test_next_game_needs_a_recorded_game():
    g = Game({})
    with pytest.raises(IllegalCommand, match="not over and recorded"):
        next_game(g.state)


def test_the_record_keeps_milestone_glory():
    """The historical record keeps the glory from milestones ("The Crowning of an Emperor":
    the first tie-break)."""
    g = recorded_game()
    assert g.state.record[-1]["milestone_glory"] == {"blue": 3}
    assert "HistoryNoted" in g.types()


# -- the end of the campaign ----------------------------------------------------------------


def final_game(red: int, blue: int, past_milestones: dict[str, int]) -> Game:
    g = Game({
        "provinces": [{"colour": "red", "title": "prince", "campaign_glory": red, "glory": 1},
                      {"colour": "blue", "title": "duke", "campaign_glory": blue, "glory": 1},
                      {"colour": "green", "title": "count", "campaign_glory": 10}],
        "milestones": [{"name": "The last island", "glory": 1, "end_of_world": True}],
        "record": [{"game": 1, "glory": {}, "milestones": {},
                    "milestone_glory": past_milestones}],
        "glory_target": 1,
    })
    g.do("hire_guild", guild="explorers")
    g.do("claim_milestone", milestone="The last island")  # Green finds the island
    for _ in range(3):
        g.do("end_turn")
    while g.state.phase != "recorded":
        p = g.prompt
        if p.kind == "roll":
            g.do("roll", faces=["blank"] * p.count)
        else:
            g.do(p.command, **{p.arg: p.options[0].value})
    return g


@pytest.mark.parametrize("red, blue, milestones, emperor, decided_by", [
    pytest.param(30, 20, {}, "red", "campaign glory", id="the most campaign glory"),
    pytest.param(20, 20, {"blue": 4, "red": 2}, "blue", "milestone glory",
                 id="tie: the most glory from milestones in the record"),
    pytest.param(20, 20, {"blue": 2, "red": 2}, "blue", "title",
                 id="still tied: the less prominent title in the final game"),
])
def test_finding_the_end_of_the_world_crowns_an_emperor(red, blue, milestones, emperor,
                                                        decided_by):
    """"The Crowning of an Emperor": the campaign ends when the island at the end of the
    world is found (a milestone marked end_of_world); the most campaign glory wins, then the
    most milestone glory in the historical record, then the least prominent title held in
    the final game."""
    g = final_game(red, blue, milestones)
    crowned = g.last("EmperorCrowned").payload
    assert (crowned["player"], crowned["decided_by"]) == (emperor, decided_by)
    assert g.state.emperor == emperor
    assert g.state.record[-1]["milestone_glory"] == {"green": 1}
    # the final game is recorded like any other: its ledger, marked as the campaign's end
    ledger = next_game(g.state)
    assert ledger["campaign_over"] == {"emperor": emperor,
                                       "player": g.state.provinces[emperor].player, "game": 1}
    assert ledger["record"] == g.state.record
    # only then is a next game refused
    with pytest.raises(IllegalCommand, match="campaign is over: .* is crowned Emperor"):
        Game(ledger)
    with pytest.raises(IllegalCommand, match="campaign is over"):
        Game({**ledger, "campaign_changes": [{"absent": {"colour": "red"}}]})


def test_the_final_games_ledger_shows_the_emperor_on_the_campaign_page():
    """The campaign page reads the final ledger as any other, with who is crowned."""
    from companion.games.seafall.campaign import campaign_summary

    g = final_game(30, 20, {})
    summary = campaign_summary(next_game(g.state))
    assert summary["emperor"] == {"colour": "red", "player": g.state.provinces["red"].player,
                                  "game": 1}
    assert {p["colour"]: p["campaign_glory"] for p in summary["provinces"]}["red"] == 31
    assert summary["record"][-1]["game"] == 1
    assert campaign_summary(next_game(recorded_game().state))["emperor"] is None


def test_the_campaign_goes_on_until_the_end_of_the_world_is_found():
    g = recorded_game()
    assert "EmperorCrowned" not in g.types() and g.state.emperor is None
