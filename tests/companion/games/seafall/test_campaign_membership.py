"""Changing who plays the campaign (rulebook, "Changing the number of players in your
campaign": "Joining the campaign", "Permanently removing a player", "Missing a game")."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from seafall_driver import Game

from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.campaign import campaign_summary, next_game
from companion.games.seafall.membership import catch_up, join, leave, miss_game

TRANSCRIPTS = Path(__file__).parent / "transcripts"


def ledger() -> dict[str, Any]:
    data = json.loads((TRANSCRIPTS / "campaign-after-five-games.json").read_text())
    data.pop("_about")
    return data


def script_lines(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (TRANSCRIPTS / name).read_text().splitlines()
            if line.strip() and not line.startswith("#")]


GRAY = {"ships": ["gray-1:sail", "gray-1:explore", "gray-2:raid", "gray-2:hold",
                  "gray-1:sail"],
        "improvements": [{"choice": "field:gray/field-1", "value": 5}],
        "advisor": "Powder Monkey", "leader_reputation": 2, "leader_fortune": 2}


def test_joining_after_five_games_is_the_rulebooks_example():
    """"Joining the campaign", the example: after five games Gray improves his ships five
    times, takes one improvement (5 // 3), an advisor worth one reputation, and records
    27 - 5 = 22 campaign glory; the transcript's setup line is what join() makes of the
    ledger."""
    options = join(ledger(), "gray", "Dan", **GRAY)
    lines = script_lines("gray-joins-after-five-games.jsonl")
    assert lines[0]["setup"] == options
    gray = next(p for p in options["provinces"] if p["colour"] == "gray")
    assert gray["campaign_glory"] == 22 and gray["title"] == "baron"
    assert gray["fields"] == [5, 4] and gray["advisors"] == ["Powder Monkey"]
    assert "Powder Monkey" not in options["advisor_deck"]
    assert options["record"][-1] == {"event": "joined", "province": "gray", "player": "Dan",
                                     "before_game": 6, "campaign_glory": 22}

    g = Game({**options, "start_at": "winter"})
    state = g.state
    one, two = state.province_ships("gray")
    assert (one.sail, one.raid, one.explore, one.hold) == (5, 2, 3, 2)
    assert (two.sail, two.raid, two.explore, two.hold) == (2, 4, 2, 3)
    improvements = sum(s.sail + s.raid + s.explore + s.hold for s in (one, two)) - 18
    assert improvements == 5  # the same number as every other province: one per game
    assert state.seating == ["gray", "yellow", "red", "blue"]  # least prominent first
    assert state.provinces["gray"].campaign_glory == 22
    assert [a.name for a in state.provinces["gray"].council] == ["Powder Monkey"]


@pytest.mark.parametrize("change, match", [
    pytest.param({"ships": ["gray-1:sail"] * 4}, "5 time", id="one ship improvement a game"),
    pytest.param({"ships": ["gray-1:sail"] * 3 + ["gray-2:hold"] * 2}, "already 5",
                 id="a ship value goes no higher than 5"),
    pytest.param({"improvements": []}, "1 improvement", id="one improvement per three games"),
    pytest.param({"improvements": [{"choice": "field:gray/field-1", "value": 9}]}, "at most 8",
                 id="a field is worth at most 8"),
    pytest.param({"advisor": "Captain"}, "worth one reputation in the advisor deck",
                 id="the advisor comes from the advisor deck"),
    pytest.param({"advisor": None}, "take an advisor", id="an advisor must be taken"),
])
def test_joining_choices_are_checked_against_the_rules(change, match):
    with pytest.raises((IllegalCommand, InvalidCommand), match=match):
        join(ledger(), "gray", "Dan", **{**GRAY, **change})


def test_campaign_changes_in_the_setup_options_are_the_same_functions():
    """A script's first line (or the host's setup form) may carry the changes: setup applies
    them first, with the same checks."""
    direct = Game({**join(ledger(), "gray", "Dan", **GRAY), "start_at": "winter"}).state
    change = {"join": {"colour": "gray", "player": "Dan", **GRAY}}
    via_setup = Game({**ledger(), "start_at": "winter", "campaign_changes": [change]}).state
    assert via_setup == direct
    left = Game({**ledger(), "start_at": "winter",
                 "campaign_changes": [change, {"leave": {"colour": "red"}}]}).state
    assert list(left.provinces) == ["blue", "yellow", "gray"]


@pytest.mark.parametrize("changes, error, match", [
    pytest.param({"join": {"colour": "gray"}}, InvalidCommand, "list", id="not a list"),
    pytest.param([{"adopt": {"colour": "gray"}}], InvalidCommand, "join, catch_up, leave",
                 id="unknown change"),
    pytest.param([{"leave": {"colour": "red", "why": "moved"}}], InvalidCommand, "takes",
                 id="unknown argument"),
    pytest.param([{"join": {"colour": "gray", "ships": "gray-1:sail"}}], InvalidCommand,
                 "'ships' is a list", id="ships not a list"),
    pytest.param([{"catch_up": {"colour": "red"}}], IllegalCommand, "no missed games",
                 id="nothing to catch up"),
    # a newcomer's name is theirs to give: it was made up from the colour (the page sent the
    # colour's name in its language, "Gris")
    pytest.param([{"join": {"colour": "gray", **GRAY}}], InvalidCommand,
                 "gray province needs a name", id="joining without a name"),
    pytest.param([{"join": {"colour": "gray", "player": " ", **GRAY}}], InvalidCommand,
                 "gray province needs a name", id="joining with a blank name"),
])
def test_bad_campaign_changes_are_refused(changes, error, match):
    with pytest.raises(error, match=match):
        Game({**ledger(), "start_at": "winter", "campaign_changes": changes})


def test_a_province_already_in_the_campaign_cannot_join_again():
    with pytest.raises(IllegalCommand, match="already in the campaign"):
        join(ledger(), "red", "Dan", **GRAY)


def test_a_province_leaves_the_campaign_for_good():
    """"Permanently removing a player": the cards it kept go back where they came from, the
    record notes it, its permanent enmity stays on the board."""
    options = join(ledger(), "gray", "Dan", **GRAY)
    options = leave(options, "red")
    assert [p["colour"] for p in options["provinces"]] == ["blue", "yellow", "gray"]
    assert "Savage" in options["advisor_deck"]
    assert options["record"][-1] == {"event": "left", "province": "red", "player": "Ben",
                                     "before_game": 6,
                                     "returned": {"advisors": ["Savage"], "research": []}}
    blue = options["provinces"][0]
    assert blue["permanent_enmity"] == {"red": 1}
    assert options["islands"][0]["permanent_enmity"] == {"red": 1}
    # the others keep their order of prominence, closed up to the titles for three
    assert [p["title"] for p in options["provinces"]] == ["prince", "duke", "count"]
    state = Game({**options, "start_at": "winter"}).state
    assert state.seating == ["gray", "yellow", "blue"]


def test_leaving_cannot_drop_a_game_below_three_provinces():
    with pytest.raises(IllegalCommand, match="at least 3"):
        leave(ledger(), "red")


def test_a_leave_listed_before_a_join_says_to_list_the_join_first():
    """Three players, one leaving and one joining: listed leave first, the count falls to 2
    before the newcomer joins. The refusal said only "a game of SeaFall needs at least 3
    provinces"; it now says the join listed first keeps the count (in French too)."""
    from companion.games.seafall.refusals_fr import refusal

    changes = [{"leave": {"colour": "red"}},
               {"join": {"colour": "gray", "player": "Dan", **GRAY}}]
    with pytest.raises(IllegalCommand) as refused:
        Game({**ledger(), "start_at": "winter", "campaign_changes": changes})
    said = str(refused.value)
    assert said == ("a game of SeaFall needs at least 3 provinces: red leaves before gray "
                    "joins; list the join before the leave to keep the count")
    assert refusal(said) is not None and "placez l’arrivée avant le départ" in refusal(said)
    with pytest.raises(IllegalCommand) as alone:  # no join after it: the plain refusal
        Game({**ledger(), "start_at": "winter", "campaign_changes": changes[:1]})
    assert str(alone.value) == "a game of SeaFall needs at least 3 provinces"
    assert Game({**ledger(), "start_at": "winter", "campaign_changes": changes[::-1]})


# -- missing a game -------------------------------------------------------------------------


def absent_game(**extra: Any) -> Game:
    return Game({"provinces": [
        {"colour": "red", "title": "prince", "campaign_glory": 20, "advisors": ["Madman"],
         "absent": True},
        {"colour": "blue", "title": "duke", "campaign_glory": 15, "advisors": ["Savage"]},
        {"colour": "green", "title": "count", "campaign_glory": 12}], **extra})


def test_an_absent_province_takes_no_turns():
    """"Missing a game": the province is in the game (cards, ships at home) but no one plays
    it; the astrolabe skips it too."""
    g = absent_game(start_at="winter", advisor_deck=[])
    state = g.state
    assert state.seating == ["green", "blue", "red"]
    assert state.astrolabe == "green"
    assert [a.name for a in state.provinces["red"].council] == ["Madman"]
    assert {s.location for s in state.province_ships("red")} == {"red"}
    assert state.provinces["red"].gold == 0  # no harvest: no gold in an absent province
    assert g.last("AbsentPassedBy").payload["player"] == "red"
    g.do("end_turn")
    g.do("end_turn")
    assert g.state.round == 2 and g.state.turn is not None
    assert g.state.turn.player == "green"


@pytest.mark.parametrize("province, match", [
    pytest.param({"gold": 3}, "no gold", id="no gold"),
    pytest.param({"warehouse": ["wood"]}, "no gold, goods", id="no goods"),
    pytest.param({"ships": [{"location": "isle"}]}, "home harbor", id="ships at home"),
    pytest.param({"advisors": ["Captain", "Madman"]}, "one advisor", id="only its kept advisor"),
])
def test_an_absent_province_is_set_up_as_the_rulebook_says(province, match):
    with pytest.raises(InvalidCommand, match=match):
        Game({"provinces": [{"colour": "red", "absent": True, **province},
                            {"colour": "blue"}, {"colour": "green"}]})


def test_a_player_marked_absent_has_their_province_set_up_as_absent():
    """A first game's options may give a province gold, tokens and ships away (the demo's
    do): marking its player absent for the next game was refused ("province red is
    absent: no gold, goods or tokens...") and the campaign could not go on. The province
    is set up as "Missing a game" says, its cards kept."""
    from companion.games.seafall.setup import demo_options

    options = miss_game(demo_options(), "red")
    red = next(p for p in options["provinces"] if p["colour"] == "red")
    assert red["absent"] and "gold" not in red and "fortune" not in red
    state = Game({**options, "start_at": "winter", "advisor_deck": []}).state
    prov = state.provinces["red"]
    assert (prov.gold, prov.reputation, prov.fortune, prov.warehouse) == (0, 0, 0, [])
    assert all(state.ships[s].location == "red" for s in prov.ships)
    assert [a.name for a in prov.council] == [
        next(p for p in demo_options()["provinces"] if p["colour"] == "red")["advisors"][0]]


@pytest.mark.parametrize("options, match", [
    pytest.param({"first_player": "red"}, "absent and takes no turns",
                 id="an absent province does not start"),
    pytest.param({"provinces": [{"colour": "red", "absent": True},
                                {"colour": "blue", "absent": True}, {"colour": "green"}]},
                 "at least two", id="two players present at least"),
])
def test_a_game_needs_players_present(options, match):
    with pytest.raises(InvalidCommand, match=match):
        absent_game(**options) if "provinces" not in options else Game(options)


def test_an_absent_province_can_be_raided_its_ships_defending():
    """"Missing a game": it may be raided; its ships at home defend as any province's do."""
    g = Game({"provinces": [
        {"colour": "red", "absent": True},
        {"colour": "blue", "ships": [{"location": "red"}, {}]}, {"colour": "green"}],
        "first_player": "blue"})
    g.do("hire_guild", guild="soldiers")
    g.do("raid", flagship="blue-1", province="red")
    pool = {line.reason: line.dice for line in g.state.endeavor.pool}
    assert pool["defending ship Red ship 1"] == -1 and pool["defending ship Red ship 2"] == -1


def finish(g: Game, answers: dict[str, str] | None = None) -> None:
    answers = answers or {}
    while g.state.phase != "recorded":
        p = g.prompt
        assert not g.state.provinces[p.player].absent  # no one is asked to choose for them
        if p.kind == "roll":
            g.do("roll", faces=["blank"] * p.count)
        else:
            g.do(p.command, **{p.arg: answers.get(p.command) or p.options[0].value})


def test_an_absent_province_is_passed_by_and_records_one_less_than_the_lowest():
    """"Missing a game": it makes no end-of-game choice; it records one glory less than the
    lowest-scoring player; it keeps the advisor it brought; the next game's ledger counts the
    game it missed."""
    g = absent_game(glory_target=3, first_player="green")
    g.state.provinces["blue"].glory = 4
    g.state.provinces["green"].glory = 2
    g.do("end_turn")
    g.do("end_turn")
    finish(g)
    passed = [(e.payload["player"], e.payload["step"]) for e in g.events
              if e.type == "AbsentPassedBy"]
    assert passed == [("red", 2), ("red", 4)]
    assert g.last("GloryRecorded").payload["glory"] == {"green": 2, "blue": 4, "red": 1}
    assert g.state.record[-1]["absent"] == ["red"]
    assert g.state.provinces["red"].campaign_glory == 21
    assert g.state.provinces["red"].kept_advisor == "Madman"
    # Blue won: the absent province's advisor (2 gold) does not limit what Blue keeps
    assert g.state.winner == "blue" and g.state.provinces["blue"].kept_advisor == "Savage"
    options = next_game(g.state)
    red = next(p for p in options["provinces"] if p["colour"] == "red")
    assert red["games_missed"] == 1 and red["advisors"] == ["Madman"]
    assert "games_missed" not in options["provinces"][0]


def after_a_game_red_missed() -> dict[str, Any]:
    """The next game's options after a game the red province missed: the setup refuses them
    until red catches up."""
    g = absent_game(glory_target=0, first_player="green")
    g.do("end_turn")
    g.do("end_turn")
    finish(g)
    options = next_game(g.state)
    with pytest.raises(InvalidCommand, match="catch-up"):
        Game({**options, "start_at": "winter"})
    return options


def test_a_returning_player_catches_up_before_the_next_game():
    """"Missing a game": back after missing games, the player improves the ships once per
    game missed and takes one improvement per three games missed (rounded down); the setup
    refuses a returning player not yet caught up."""
    options = after_a_game_red_missed()
    red = next(p for p in options["provinces"] if p["colour"] == "red")
    red["games_missed"] = 3
    back = catch_up(options, "red", ships=["red-1:sail", "red-1:raid", "red-2:hold"],
                    improvements=[{"choice": "fortune"}])
    state = Game({**back, "start_at": "winter", "advisor_deck": []}).state
    ship = state.ships["red-1"]
    assert (ship.sail, ship.raid, state.ships["red-2"].hold) == (4, 3, 3)
    assert state.provinces["red"].leader_fortune == 1
    assert back["record"][-1]["event"] == "returned"
    with pytest.raises(IllegalCommand, match="3 time"):
        catch_up(options, "red", ships=["red-1:sail"], improvements=[{"choice": "fortune"}])


def test_players_present_choose_first_when_tied_with_an_absent_one():
    """"Assign Titles" with an absent province tied in campaign glory: it makes no choice, so
    the players present choose first and it takes the title left."""
    g = Game({"provinces": [
        {"colour": "red", "title": "prince", "campaign_glory": 10, "absent": True},
        {"colour": "blue", "title": "duke", "campaign_glory": 7, "glory": 4},
        {"colour": "green", "title": "count", "campaign_glory": 9, "glory": 2}],
        "glory_target": 4, "first_player": "green"})
    g.do("end_turn")
    g.do("end_turn")
    finish(g)  # Green, then Blue, takes the first title offered
    assert {c: p.campaign_glory for c, p in g.state.provinces.items()} == {
        "red": 11, "blue": 11, "green": 11}
    assert {c: p.title for c, p in g.state.provinces.items()} == {
        "green": "prince", "blue": "duke", "red": "count"}
    chosen = [e.payload["player"] for e in g.events if e.type == "TitleChosen"]
    assert chosen == ["green", "blue", "red"]


def test_absent_players_tied_together_take_the_titles_left_without_a_prompt():
    g = Game({"provinces": [
        {"colour": "red", "title": "prince", "campaign_glory": 10, "absent": True},
        {"colour": "blue", "title": "duke", "campaign_glory": 10, "absent": True},
        {"colour": "green", "title": "count", "campaign_glory": 5, "glory": 2},
        {"colour": "yellow", "title": "baron", "campaign_glory": 30, "glory": 2}],
        "glory_target": 2, "first_player": "yellow"})
    g.do("end_turn")
    g.do("end_turn")
    finish(g)  # both absent provinces record 1 glory: 11 each, tied for duke and count
    assert {c: p.title for c, p in g.state.provinces.items()} == {
        "yellow": "prince", "blue": "duke", "red": "count", "green": "baron"}


def test_campaign_glory_below_zero_carries_into_the_next_game():
    """Nothing in the rulebook stops campaign glory at zero, and two of its rules take it
    below: an absent province records one less than the lowest score ("Missing a game"), and
    a player who joins starts at the last place's campaign glory less the games played
    ("Joining the campaign"). The next game's setup refused the ledger ("'campaign_glory'
    must be a whole number >= 0"), and the campaign could not go on."""
    g = Game({"provinces": [
        {"colour": "red", "title": "count", "campaign_glory": 0, "absent": True},
        {"colour": "blue", "title": "prince", "campaign_glory": 0},
        {"colour": "green", "title": "duke", "campaign_glory": 0}],
        "glory_target": 0, "first_player": "green"})
    g.do("end_turn")
    g.do("end_turn")
    finish(g)
    assert g.last("GloryRecorded").payload["glory"]["red"] == -1
    assert g.state.provinces["red"].campaign_glory == -1
    options = next_game(g.state)
    options = catch_up(options, "red", ships=["red-1:sail"], improvements=[])
    options = join(options, "gray", "Dan", ships=["gray-1:sail"], improvements=[],
                   advisor="Brute")
    gray = next(p for p in options["provinces"] if p["colour"] == "gray")
    assert gray["campaign_glory"] == -1 - 1  # the last place's, less the one game played
    state = Game({**options, "start_at": "winter", "advisor_deck": []}).state
    assert (state.provinces["red"].campaign_glory, state.provinces["gray"].campaign_glory) \
        == (-1, -2)


def test_the_campaign_page_reads_a_ledger_with_a_player_owed_a_catch_up():
    """After a game with an absent player, the ledger counts the game missed, and the setup
    refuses it until the catch-up; the campaign page's summary read it through the setup,
    so the campaign could not be shown (nor its recording answered) at all."""
    options = after_a_game_red_missed()
    summary = campaign_summary(options)
    red = next(p for p in summary["provinces"] if p["colour"] == "red")
    assert red["games_missed"] == 1 and red["title"] is not None
    # the advisors kept at the end of the game, as the next game brings them (the page
    # said "Kept advisor —" for every province)
    kept = {p["colour"]: p["kept_advisor"] for p in summary["provinces"]}
    assert kept == {p["colour"]: ", ".join(p["advisors"]) or None
                    for p in options["provinces"]}
    assert kept["red"] == "Madman"
    assert summary["record"][-1]["absent"] == ["red"]
    bad = copy.deepcopy(options)  # a count that is not a number is still refused
    bad["provinces"] = [{**p, "games_missed": "x"} if p["colour"] == "red" else p
                        for p in bad["provinces"]]
    with pytest.raises(InvalidCommand, match="games_missed"):
        campaign_summary(bad)
