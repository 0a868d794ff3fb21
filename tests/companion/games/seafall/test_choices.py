"""The legal commands of a turn, found by the engine (issue 3 item 4: the web and the button
box render the choices; they never re-implement the rules)."""

from __future__ import annotations

import pytest
from seafall_driver import Game, island

from companion.errors import IllegalCommand
from companion.games.seafall import log_fr
from companion.games.seafall.map import default_map


def demo_turn() -> Game:
    return Game({
        "provinces": [
            {"colour": "red", "gold": 2, "reputation": 1, "warehouse": ["iron"],
             "advisors": ["Savage"], "ships": [{"location": "isle"}, {"location": "red"}]},
            {"colour": "blue"}, {"colour": "green"}],
        "islands": [island(space="(0, 2, 2)", sites=[
            {"name": "1", "symbol": "sun", "defense": 3},
            {"name": "2", "kind": "mine", "value": 4, "defense": 2}])],
        "forum": ["Captain", "Smuggler"],
    })


def kinds(g: Game) -> set[str]:
    return {c["type"] for c in g.engine.legal_commands(g.state)}


def test_every_listed_command_is_accepted_and_the_rules_decide_what_is_listed():
    g = demo_turn()
    listed = g.engine.legal_commands(g.state)
    for choice in listed:
        g.engine.decide(g.state, _command(choice))  # raises if it were not legal
    hires = [(c["args"]["advisor"], c["args"]["pay"]) for c in listed
             if c["type"] == "hire_advisor"]
    # 2 gold: the Smuggler (2) for gold, either for the one reputation; not the Captain (3)
    assert hires == [("Captain", "reputation"), ("Smuggler", "gold"),
                     ("Smuggler", "reputation")]
    assert {"activate_advisor", "hire_guild", "end_turn"} <= kinds(g)
    assert "explore" not in kinds(g)  # no guild hired yet


def test_an_advisor_activated_closes_the_forum_and_the_treasures_for_the_turn():
    """"Taking Your Turn": hiring an advisor or buying a treasure is step 1, activating an
    advisor step 2; once one is active, neither is offered nor accepted this turn."""
    g = demo_turn()
    g.do("activate_advisor", advisor="Savage")
    assert not {"hire_advisor", "buy_treasure", "activate_advisor"} & kinds(g)
    assert "hire_guild" in kinds(g)
    with pytest.raises(IllegalCommand, match="before activating one"):
        g.do("hire_advisor", advisor="Smuggler")
    g = demo_turn()
    g.do("hire_advisor", advisor="Smuggler")  # step 1 first, then step 2
    g.do("activate_advisor", advisor="Smuggler")
    assert g.state.provinces["red"].active_advisor == "Smuggler"


def test_endeavors_list_their_pool_and_sailing_its_reach():
    g = demo_turn()
    g.do("hire_guild", guild="explorers")
    listed = g.engine.legal_commands(g.state)
    explores = {c["args"]["site"]: c["summary"] for c in listed if c["type"] == "explore"}
    assert explores == {"isle/1": "2 dice against defense 3"}  # red-2 is at home
    sails = [c["args"]["moves"][0] for c in listed if c["type"] == "sail"]
    assert {"ship": "red-2", "path": ["coastal_waters", "isle"]} in sails


def test_an_endeavor_choice_previews_its_pool_and_the_exact_odds_of_that_roll():
    g = demo_turn()
    g.do("hire_guild", guild="explorers")
    (choice,) = [c for c in g.engine.legal_commands(g.state) if c["type"] == "explore"]
    preview = choice["endeavor"]
    assert (preview["kind"], preview["dice"], preview["defense"]) == ("explore", 2, 3)
    assert sum(line["dice"] for line in preview["pool"]) == 2
    assert all(line["reason"] for line in preview["pool"])  # every modifier explained
    g.do("explore", **choice["args"])
    shown = g.engine.view(g.state, None)["endeavor"]["odds"]
    assert preview["odds"] == shown  # the same odds the endeavor shows once started
    assert 0 < preview["odds"]["p_at_least_one_success"] < 1


def test_nothing_is_listed_while_a_prompt_is_open():
    g = demo_turn()
    g.do("hire_guild", guild="explorers")
    g.do("explore", flagship="red-1", site="isle/1")
    assert g.engine.legal_commands(g.state) == []


def _command(choice):
    from companion.engine import Command

    return Command(choice["type"], choice["args"], None)


def test_the_odds_of_success_count_the_flagship_sinking():
    """Rulebook, "Endeavors and damage": an endeavor fails with no success, or when the
    flagship sinks, and a ship sinks at a third damage card (or takes damage on a fresh
    upgrade instead). Two dice against defense 6 always leave 4 damage or more for a ship
    that takes 2 and floats: the preview said "succeeds" at the chance of one success."""
    for defense, needed in ((6, 4), (4, 2), (3, 1)):
        g = Game({**_options(), "islands": [island(space="(0, 2, 2)", sites=[
            {"name": "1", "symbol": "sun", "defense": defense}])]})
        g.do("hire_guild", guild="explorers")
        (choice,) = [c for c in g.engine.legal_commands(g.state) if c["type"] == "explore"]
        odds = choice["endeavor"]["odds"]
        assert odds["damage_capacity"] == 2  # no upgrade, no damage card yet
        tail = sum(odds["successes"][needed:])
        assert odds["p_success"] == pytest.approx(tail)
        assert odds["p_success"] <= odds["p_at_least_one_success"]
        if defense == 6:
            assert odds["p_success"] == 0 < odds["p_at_least_one_success"]
        g.do("explore", **choice["args"])
        assert g.engine.view(g.state, None)["endeavor"]["odds"] == odds  # the card's too


def _options():
    return {"provinces": [{"colour": "red", "ships": [{"location": "isle"}]},
                          {"colour": "blue"}, {"colour": "green"}]}


def test_a_pool_of_no_dice_is_previewed_as_certain_to_fail():
    """A garrison that takes away every die leaves a pool of none: no roll is asked and the
    endeavor fails at once (rulebook, "Endeavors and damage": no success), so the preview
    says 0% where it gave no odds at all."""
    g = Game({"provinces": [{"colour": "red", "ships": [{"location": "isle"}]},
                            {"colour": "blue"}, {"colour": "green"}],
              "islands": [island(garrison=2, space="(0, 2, 2)", sites=[
                  {"name": "1", "kind": "mine", "value": 4, "defense": 3}])]})
    g.do("hire_guild", guild="soldiers")
    (choice,) = [c for c in g.engine.legal_commands(g.state) if c["type"] == "raid"]
    preview = choice["endeavor"]
    assert preview["dice"] == 0
    assert preview["odds"]["p_success"] == preview["odds"]["p_no_damage"] == 0
    assert preview["odds"]["successes"] == [1.0]  # no success, for sure


def test_repair_says_which_ships_it_repairs():
    """Rulebook, "Builders Guild" > "Repair OR Upgrade": the choice names the ships it would repair
    (the button said only "Repair", not what it would do)."""
    g = Game({"provinces": [{"colour": "red", "ships": [
        {"damage": ["Leak"]}, {"location": "isle", "damage": ["Leak"]}]},
        {"colour": "blue"}, {"colour": "green"}],
        "islands": [island(space="(0, 2, 2)")]})
    g.do("hire_guild", guild="builders")
    (repair,) = [c for c in g.engine.legal_commands(g.state) if c["type"] == "repair"]
    assert repair["summary"] == "repairs Red ship 1"  # the one at home, not the one at sea


def far_isle_turn() -> Game:
    """Red's ship at home, sail 3, and an island five spaces away (out of reach)."""
    return Game({
        "provinces": [{"colour": "red", "ships": [{"location": "red"}, {"location": "red"}]},
                      {"colour": "blue"}],
        "islands": [island("far", space="(4, 2, 6)")],
    })


def test_a_ship_may_stop_at_sea_on_its_way_to_a_place_out_of_reach():
    """"Ships and Sailing" > "Sailing": a ship moves *up to* its sail value, so it may stop
    at sea short of a place. The choices offered only places within reach: a ship could
    not head for an island farther than its sail value from the phones."""
    g = far_isle_turn()
    g.do("hire_guild", guild="explorers")
    stops = [c for c in g.engine.legal_commands(g.state)
             if c["type"] == "sail" and c["args"]["moves"][0]["ship"] == "red-1"]
    toward_far = {c["args"]["moves"][0]["path"][-1]: c for c in stops
                  if c.get("toward") == "far"}
    # its sail is 3: two spaces toward it past the coastal waters (toward the nearer Blue)
    assert set(toward_far) == {"(0, 2, 2)", "(1, 2, 3)"}
    last = toward_far["(1, 2, 3)"]
    assert last["summary"] == "Red ship 1 stops at sea 3 spaces toward Far"
    assert log_fr.phrase(last["summary"]) == \
        "Bateau rouge 1 s’arrête en mer après 3 zones, en direction de Far"
    g.do("sail", **last["args"])
    assert g.state.ships["red-1"].location == "(1, 2, 3)"
    ends = [c["args"]["moves"][0]["path"][-1] for c in stops]
    assert len(ends) == len(set(ends))  # each space at sea offered once


def test_a_ship_may_stop_at_its_reach_toward_a_place_beyond_an_island():
    """"Sailing": a ship moves up to its sail value, through any spaces. The shortest way
    to Iron isle crossed Rock at its third space, and no stop 3 spaces toward Iron isle was
    offered, though a way as short by the open sea has one."""
    g = Game({"provinces": [{"colour": "red", "ships": [{"location": "red"}, {}]},
                            {"colour": "blue"}],
              "islands": [island("far", name="Iron isle", space="(4, 2, 6)"),
                          island("rock", name="Rock", space="(1, 2, 3)")]})
    g.do("hire_guild", guild="explorers")
    stops = {len(c["args"]["moves"][0]["path"]): c for c in g.engine.legal_commands(g.state)
             if c["type"] == "sail" and c.get("toward") == "far"}
    assert stops[3]["summary"] == "Red ship 1 stops at sea 3 spaces toward Iron isle"
    (end,) = stops[3]["args"]["moves"][0]["path"][-1:]
    assert default_map().distance(end, "(4, 2, 6)") == 3  # on a shortest way there
    g.do("sail", **stops[3]["args"])
    assert g.state.ships["red-1"].location == end


def test_the_coastal_waters_stop_is_said_as_the_board_says_it():
    """The coastal waters are one space on every way out of a home harbor: the stop there
    was said toward the first place whose way passed it ("toward Blue province"), whatever
    the player headed for."""
    g = far_isle_turn()
    g.do("hire_guild", guild="explorers")
    (coastal,) = [c for c in g.engine.legal_commands(g.state) if c["type"] == "sail"
                  and c["args"]["moves"][0] == {"ship": "red-1", "path": ["coastal_waters"]}]
    assert (coastal["at_sea"], "toward" in coastal) == ({"kind": "coastal"}, False)
    assert coastal["summary"] == "Red ship 1 stops in the coastal waters (1 space)"
    assert log_fr.phrase(coastal["summary"]) == \
        "Bateau rouge 1 s’arrête dans la zone côtière après 1 zone"


def test_a_ship_at_sea_is_offered_the_rest_of_its_way():
    """A ship stopped at sea sails on at its next turn (the choices offered sailing only to
    ships at a region: one left at sea was stuck there on the phones)."""
    g = far_isle_turn()
    g.do("hire_guild", guild="explorers")
    g.do("sail", moves=[{"ship": "red-1", "path": ["coastal_waters", "(0, 2, 2)", "(1, 2, 3)"]}])
    g.do("end_turn")
    while g.state.turn.player != "red":
        g.do("end_turn")
    g.do("hire_guild", guild="explorers")
    sails = {c["summary"] for c in g.engine.legal_commands(g.state) if c["type"] == "sail"}
    assert "Red ship 1 to Far (3 spaces)" in sails


def test_a_reputation_token_is_offered_for_each_region_of_another_province():
    """"Tokens" > "Reputation Tokens": in your turn, a reputation token given to another
    player (who accepts) lends the powers of one region they control until the turn ends.
    The phones did not offer it."""
    g = demo_turn()  # Red has 1 reputation
    gives = [c for c in g.engine.legal_commands(g.state) if c["type"] == "give_reputation"]
    assert [c["args"] for c in gives] == [{"to": "blue", "region": "blue"},
                                          {"to": "green", "region": "green"}]
    assert gives[0]["summary"] == "1 reputation token, if Blue accepts"
    assert log_fr.phrase(gives[0]["summary"]) == "1 jeton Réputation, si Bleu accepte"
    g.do("give_reputation", **gives[0]["args"])
    assert kinds(g).isdisjoint({"give_reputation"})  # no token left
    rich = Game({"provinces": [{"colour": "red", "reputation": 2}, {"colour": "blue"}]})
    rich.do("give_reputation", to="blue", region="blue")
    assert "give_reputation" not in kinds(rich)  # that region's powers are lent already
