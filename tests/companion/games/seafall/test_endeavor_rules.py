"""Endeavor rules beyond the worked examples (rulebook sections cited per test)."""

from __future__ import annotations

import pytest
from seafall_driver import island

from companion.errors import IllegalCommand, InvalidCommand


def explorer(game, site=None, **prov):
    ships = prov.pop("ships", [{"location": "isle"}, {"location": "isle"}])
    return game({
        "provinces": [{"colour": "red", "ships": ships, **prov}, {"colour": "blue"}],
        "islands": [island(garrison=1, sites=[site or {"name": "1", "defense": 3}])],
    })


def start_explore(g, **kw):
    g.do("hire_guild", guild="explorers")
    return g.do("explore", flagship="red-1", site="isle/1", **kw)


def test_no_success_fails_and_ends_the_turn(game):
    """"Completing an Endeavor": no success at all -> failure, the turn ends at once; the
    active advisor is exhausted ("A Turn" step 5) and the next player's turn begins."""
    g = explorer(game, active_advisor="Captain", site={"name": "1", "defense": 2})
    start_explore(g)
    g.roll("blank", "blank", "blank", "blank")  # explore 2 + support 1 + Captain 1
    for _ in range(2):
        g.do("assign_damage", choice="card:red-1")
    types = g.types()
    assert "EndeavorFailed" in types and "EndeavorSucceeded" not in types
    assert g.last("EndeavorFailed").payload["reason"] == "no success rolled"
    assert g.state.provinces["red"].glory == 0
    assert g.state.turn.player == "blue"
    assert g.state.provinces["red"].council[0].exhausted
    assert g.state.provinces["red"].active_advisor is None


def test_fortune_can_save_an_all_blank_roll(game):
    """Fortune turns blanks into successes before counting (RULES-FACTS: converted successes
    count toward "at least one success")."""
    g = explorer(game, fortune=2)
    start_explore(g)
    g.roll("blank", "blank", "blank")
    g.do("spend_fortune", amount=2)
    g.do("assign_damage", choice="card:red-1")
    assert "EndeavorSucceeded" in g.types()


def test_the_view_counts_the_dice_while_fortune_is_offered(game):
    """Successes are counted once fortune is spent ("Completing an Endeavor & Fortune"),
    so at the fortune prompt the state still says 0: the view gives what the dice show so
    far for the endeavor card (it read "0 successes" over a roll showing two)."""
    g = explorer(game, fortune=2, site={"name": "1", "defense": 4})
    start_explore(g)
    g.roll("blank", "standard", "strong")
    assert g.state.endeavor.stage == "fortune" and g.state.endeavor.successes == 0
    assert g.engine.view(g.state, None)["endeavor"]["successes_so_far"] == 2
    g.do("spend_fortune", amount=1)
    assert "successes_so_far" not in (g.engine.view(g.state, None)["endeavor"] or {})


def test_successes_at_or_above_defense_take_no_damage(game):
    g = explorer(game)
    start_explore(g)
    g.roll("standard", "weak", "strong")
    assert g.last("SuccessesCounted").payload["damage"] == 0
    assert g.state.endeavor is None and g.state.provinces["red"].glory == 1
    assert g.state.sites["isle/1"].kind == "explored"


def test_third_damage_card_sinks_the_flagship_and_the_endeavor_fails(game):
    """"Damage" > "Sinking": a third damage card sinks the ship instead; upgrades go back to
    the supply exhausted, 1 glory lost for each, goods lost; the endeavor fails."""
    g = explorer(game, glory=5, ships=[
        {"location": "isle", "upgrades": ["Bold", "Hale"], "goods": ["wood", "iron"],
         "damage": ["Cracked hull", "Torn sail"]},
        {"location": "isle"}])
    start_explore(g)
    g.roll("standard", "blank", "blank", "blank")  # explore 2 + Bold 1 + support 1
    assert [o.value for o in g.prompt.options] == [
        "exhaust:red-1:Bold", "exhaust:red-1:Hale", "card:red-1"]
    assert g.prompt.options[-1].label.endswith("(it sinks)")
    g.do("assign_damage", choice="card:red-1")
    sank = g.last("ShipSank").payload
    assert sank["upgrades"] == ["Bold", "Hale"] and sank["goods"] == ["wood", "iron"]
    ship = g.state.ships["red-1"]
    assert ship.sunk and ship.location is None and ship.upgrades == [] and ship.goods == []
    assert g.state.provinces["red"].glory == 5 - 2  # no glory for the failed endeavor
    assert g.state.supply.exhausted_upgrades == {"Bold": 1, "Hale": 1}
    assert g.state.supply.goods["wood"] == 10  # back from the hold: all ten in the supply
    assert g.last("EndeavorFailed").payload["reason"] == "the flagship sank"
    assert g.state.turn.player == "blue"
    g.do("end_turn", actor="blue")
    g.do("hire_guild", guild="explorers", actor="red")
    with pytest.raises(IllegalCommand, match="sunk"):
        g.do("explore", flagship="red-1", site="isle/1")


def test_fortune_not_offered_at_a_dangerous_site(game):
    g = explorer(game, fortune=3, site={"name": "1", "defense": 3, "dangerous": True})
    start_explore(g)
    g.roll("standard", "blank", "blank")
    assert g.prompt.command == "assign_damage"
    assert g.state.provinces["red"].fortune == 3


@pytest.mark.parametrize("source", [
    pytest.param({"active_advisor": "Advanced Scout"}, id="Advanced Scout allows up to 2"),
    pytest.param({"ships": [{"location": "isle", "upgrades": ["Cunning"]},
                            {"location": "isle"}]}, id="Cunning flagship allows up to 2"),
])
def test_power_allows_fortune_at_a_dangerous_site(game, source):
    """RULES-FACTS: Advanced Scout and the Cunning upgrade allow up to two fortune tokens."""
    g = explorer(game, fortune=5, site={"name": "1", "defense": 5, "dangerous": True},
                 **source)
    start_explore(g)
    g.roll(*(["blank"] * g.state.endeavor.dice))
    assert g.prompt.kind == "spend" and g.prompt.maximum == 2
    with pytest.raises(IllegalCommand, match="at most 2"):
        g.do("spend_fortune", amount=3)


def test_cunning_on_the_support_ship_does_not_allow_fortune(game):
    """Cunning works "as flagship" (RULES-FACTS): on the support ship it does nothing."""
    g = explorer(game, fortune=5, site={"name": "1", "defense": 5, "dangerous": True},
                 ships=[{"location": "isle"}, {"location": "isle", "upgrades": ["Cunning"]}])
    start_explore(g)
    g.roll("blank", "blank", "blank")
    assert g.prompt.command == "assign_damage"


def test_enduring_flagship_strong_successes_reduce_damage(game):
    """RULES-FACTS upgrade Enduring: each strong success reduces the damage by 1."""
    g = explorer(game, site={"name": "1", "defense": 5},
                 ships=[{"location": "isle", "upgrades": ["Enduring"]}, {"location": "isle"}])
    start_explore(g)
    g.roll("strong", "strong", "blank")
    counted = g.last("SuccessesCounted").payload
    assert (counted["successes"], counted["strong_reduction"], counted["damage"]) == (2, 2, 1)


def test_fearless_support_ship_may_take_one_point(game):
    """RULES-FACTS upgrade Fearless: the support ship may take 1 damage for the flagship."""
    g = explorer(game, site={"name": "1", "defense": 4},
                 ships=[{"location": "isle"}, {"location": "isle", "upgrades": ["Fearless"]}])
    start_explore(g)
    g.roll("standard", "blank", "blank")
    values = [o.value for o in g.prompt.options]
    assert values == ["card:red-1", "exhaust:red-2:Fearless", "card:red-2"]
    g.do("assign_damage", choice="card:red-2")
    assert len(g.state.ships["red-2"].damage) == 1
    assert [o.value for o in g.prompt.options] == ["card:red-1"]  # only once
    g.do("assign_damage", choice="card:red-1")
    g.do("assign_damage", choice="card:red-1")
    assert len(g.state.ships["red-1"].damage) == 2
    assert "EndeavorSucceeded" in g.types()


def test_a_pool_larger_than_the_box_is_read_in_parts(game):
    """RULES-FACTS: the box has 15 dice; roll 15, note them, roll the rest."""
    g = explorer(game, site={"name": "1", "defense": 3},
                 ships=[{"location": "isle", "explore": 17}, {"location": "isle"}])
    start_explore(g)
    assert g.prompt.count == 18
    g.roll(*(["blank"] * 15))
    assert g.prompt.kind == "roll" and g.prompt.count == 3
    g.roll("standard", "standard", "standard")
    assert g.state.endeavor is None and g.state.provinces["red"].glory == 1


def test_damage_card_that_lowers_hold_returns_goods_the_player_picks(game):
    """"Damage": if the hold is damaged, goods over the new hold go back; you choose which."""
    g = explorer(game, site={"name": "1", "defense": 4},
                 ships=[{"location": "isle", "goods": ["wood", "iron"]}, {"location": "isle"}])
    start_explore(g)
    g.roll("standard", "standard", "blank")  # 2 successes against defense 4: 2 damage
    g.do("assign_damage", choice="card:red-1")
    g.do("assign_damage", choice="card:red-1", card="Holed",
         effects=[{"effect": "stat", "stat": "hold", "amount": -1}])
    assert g.prompt.command == "return_good"
    assert [o.value for o in g.prompt.options] == ["iron", "wood"]
    g.do("return_good", choice="wood")
    assert g.state.ships["red-1"].goods == ["iron"]
    assert g.state.endeavor is None


def test_drawing_a_damage_card_asks_for_its_name_and_powers(game):
    """"Damage": a damage card is drawn at the table, so the prompt's option asks for its
    name (an unnamed card is "damage", which a button sends) and its powers (left out: a
    card the setup knows by that name brings its own). The option asked for nothing, so
    the phones sent a card without name or powers. A card that sinks the ship asks
    nothing."""
    g = explorer(game, site={"name": "1", "defense": 4}, ships=[
        {"location": "isle", "upgrades": ["Bold"], "damage": ["Cracked hull", "Torn sail"]},
        {"location": "isle", "upgrades": ["Fearless"]}])
    start_explore(g)
    g.roll("standard", "blank", "blank", "blank")  # explore 2 + Bold 1 + support 1
    options = {o["value"]: o for o in g.prompt.to_json()["options"]}
    assert list(options) == ["exhaust:red-1:Bold", "card:red-1", "exhaust:red-2:Fearless",
                             "card:red-2"]
    assert options["card:red-2"]["inputs"] == [
        {"arg": "card", "label": "the damage card's name", "kind": "text",
         "default": "damage", "minimum": 1, "maximum": 60},
        {"arg": "effects", "label": "its powers", "kind": "effects", "default": None,
         "minimum": None, "maximum": None}]
    assert "inputs" not in options["exhaust:red-1:Bold"]
    assert "inputs" not in options["card:red-1"]  # it sinks
    for card, why in [("  ", "name of the damage card"), (7, "name of the damage card"),
                      ("x" * 61, "at most 60 characters")]:
        with pytest.raises(InvalidCommand, match=why):
            g.do("assign_damage", choice="card:red-2", card=card)
    g.do("assign_damage", choice="card:red-2", card=" Broken mast ",
         effects=[{"effect": "stat", "stat": "sail", "amount": -1}])
    (drawn,) = g.state.ships["red-2"].damage
    assert drawn.name == "Broken mast" and drawn.effects[0].to_json() == {
        "effect": "stat", "stat": "sail", "amount": -1}


def test_an_unnamed_damage_card_has_no_powers(game):
    g = explorer(game, site={"name": "1", "defense": 4})
    start_explore(g)
    g.roll("standard", "blank", "blank")
    g.do("assign_damage", choice="card:red-1", card=None)
    g.do("assign_damage", choice="card:red-1")
    assert [(d.name, d.effects) for d in g.state.ships["red-1"].damage] == [
        ("damage", []), ("damage", [])]


def test_research_card_adds_dice_and_is_dismissed(game):
    """"Creating a Dice Pool": research cards may modify an explore pool; all played cards
    are dismissed after the endeavor."""
    g = explorer(game, research=[{"name": "Chart", "effects": [
        {"effect": "dice", "endeavor": "explore", "amount": 2}]}])
    start_explore(g, research=["Chart"])
    assert ("research card Chart", 2) in [(x.reason, x.dice) for x in g.state.endeavor.pool]
    g.roll("standard", "standard", "standard", "blank", "blank")
    assert g.state.provinces["red"].research == []


def test_bonus_successes_need_a_rolled_success(game):
    """RULES-FACTS ruling: added successes from powers need at least one rolled success."""
    card = {"name": "Relic", "effects": [{"effect": "bonus_successes", "amount": 2}]}
    g = explorer(game, research=[card], site={"name": "1", "defense": 2})
    start_explore(g, research=["Relic"])
    g.roll("blank", "blank", "blank")
    assert g.last("SuccessesCounted").payload["bonus"] == 0
    g2 = explorer(game, research=[card], site={"name": "1", "defense": 2})
    start_explore(g2, research=["Relic"])
    g2.roll("weak", "blank", "blank")
    assert g2.last("SuccessesCounted").payload["successes"] == 3


def test_weak_counting_as_blank_power(game):
    g = explorer(game, site={"name": "1", "defense": 2},
                 research=[{"name": "Curse", "effects": [
                     {"effect": "face_value", "kind": "weak", "value": 0}]}])
    start_explore(g, research=["Curse"])
    g.roll("weak", "weak", "standard")
    assert g.last("SuccessesCounted").payload["successes"] == 1


@pytest.mark.parametrize("setup_kw, command, match", [
    pytest.param({}, ("raid", {"flagship": "red-1", "site": "isle/1"}), "Explorers guild",
                 id="raid is not an Explorers guild action"),
    pytest.param({}, ("explore", {"flagship": "red-1", "site": "isle/nowhere"}),
                 "no site", id="unknown site"),
    pytest.param({"ships": [{"location": "red"}, {"location": "isle"}]},
                 ("explore", {"flagship": "red-1", "site": "isle/1"}), "not at",
                 id="flagship must be in the site's region"),
    pytest.param({}, ("explore", {"flagship": "blue-1", "site": "isle/1"}),
                 "Blue ship 1 belongs to Blue, not Red",
                 id="flagship must be one's own"),
])
def test_explore_refusals(game, setup_kw, command, match):
    g = explorer(game, **setup_kw)
    g.do("hire_guild", guild="explorers")
    with pytest.raises((IllegalCommand, InvalidCommand), match=match):
        g.do(command[0], **command[1])
    assert g.state.endeavor is None


def test_an_action_is_taken_once_and_the_guild_hired_once(game):
    g = explorer(game, site={"name": "1", "defense": 0})
    start_explore(g)
    g.roll("standard", "standard", "standard")
    with pytest.raises(IllegalCommand, match="already took the explore action"):
        g.do("explore", flagship="red-1", site="isle/1")
    with pytest.raises(IllegalCommand, match="already hired"):
        g.do("hire_guild", guild="soldiers")


def test_other_players_cannot_act_on_someone_elses_turn(game):
    g = explorer(game)
    with pytest.raises(IllegalCommand, match="Red's"):
        g.do("hire_guild", guild="explorers", actor="blue")
    start_explore(g)
    with pytest.raises(IllegalCommand, match="answering Red's explore"):
        g.do("roll", faces=["blank"] * 3, actor="blue")
    g.do("roll", faces=["standard"] * 3, actor="red")  # the player themselves may


@pytest.mark.parametrize("actor", ["mallory", "Mallory the thief", "RED", ""])
def test_an_actor_no_one_plays_is_refused_not_taken_as_the_table(game, actor):
    """docs/commands.md: only a command *without* an actor is the table's. An unknown name
    acted as the table and could hire a guild or end the turn for anyone."""
    g = explorer(game, player="Ann")
    for type_, args in [("hire_guild", {"guild": "explorers"}), ("end_turn", {}),
                        ("record_site", {"site": "isle/1", "kind": "explored"})]:
        with pytest.raises(InvalidCommand, match=f"unknown actor {actor!r}: an actor is a "
                           r"province's colour or its player's name \(red \(Ann\), blue\)"):
            g.do(type_, actor=actor, **args)
    assert g.state.turn.guild is None and g.state.turn.player == "red"
    with pytest.raises(InvalidCommand, match="unknown actor"):
        g.engine.check_actor(g.state, actor)


def test_the_table_its_camera_and_a_player_by_name_or_colour_may_act(game):
    g = explorer(game, player="Ann")
    g.do("hire_guild", guild="explorers", actor="Ann")
    g.do("explore", flagship="red-1", site="isle/1", actor="red")
    g.do("roll", faces=["standard"] * 3, actor="camera")  # the camera's read: the table's
    for actor in (None, "camera", "red", "Ann"):
        g.engine.check_actor(g.state, actor)
    assert g.engine.view(g.state, "mallory")["viewer"] is None  # a view is only the public one


@pytest.mark.parametrize("faces, match", [
    pytest.param(["blank", "sixes"], "not a face", id="unknown face"),
    pytest.param([], "at least one", id="empty roll"),
    pytest.param(["blank"] * 4, "3 dice left", id="too many dice"),
    pytest.param("blank", "list of face labels", id="faces not a list"),
])
def test_malformed_rolls_are_invalid_and_change_nothing(game, faces, match):
    g = explorer(game)
    start_explore(g)
    before = g.state
    with pytest.raises(InvalidCommand, match=match):
        g.do("roll", faces=faces)
    assert g.state == before


def test_commands_out_of_order_are_illegal(game):
    g = explorer(game)
    with pytest.raises(IllegalCommand):
        g.do("roll", faces=["blank"])
    with pytest.raises(IllegalCommand):
        g.do("spend_fortune", amount=0)
    start_explore(g)
    with pytest.raises(IllegalCommand, match="waiting for 3 dice"):
        g.do("assign_damage", choice="card:red-1")
    with pytest.raises(IllegalCommand, match="not finished"):
        g.do("end_turn")


def test_unknown_command_and_unknown_fields_are_invalid(game):
    g = explorer(game)
    with pytest.raises(InvalidCommand, match="unknown SeaFall command"):
        g.do("teleport")
    with pytest.raises(InvalidCommand, match="does not take"):
        g.do("hire_guild", guild="explorers", gold=3)
    with pytest.raises(InvalidCommand, match="guild"):
        g.do("hire_guild", guild="pirates")


def test_replay_of_the_events_equals_the_state(game):
    g = explorer(game, fortune=1)
    start_explore(g)
    g.roll("blank", "blank", "weak")
    g.do("spend_fortune", amount=1)
    g.do("assign_damage", choice="card:red-1")
    assert g.replayed() == g.state
    assert g.engine.load_state(g.engine.dump_state(g.state)) == g.state


def test_fortune_is_offered_only_where_it_can_change_the_outcome(game):
    """Reading (docs/seafall.md): a token turns a blank into a success; once the defense is
    reached on an explore, more successes change nothing, so no fortune is offered; the
    offer never exceeds what is still missing."""
    g = explorer(game, fortune=3, site={"name": "1", "defense": 2})
    start_explore(g)
    g.roll("standard", "strong", "blank")
    assert "FortuneOffered" not in g.types()
    g2 = explorer(game, fortune=3, site={"name": "1", "defense": 3})
    start_explore(g2)
    g2.roll("standard", "blank", "blank")
    assert g2.prompt.kind == "spend" and g2.prompt.maximum == 2


def test_fortune_offered_up_to_the_richest_plunder_in_a_province_raid(game):
    """Raiding a province, successes beyond the defense let richer sites be plundered (the
    treasure room's plunder value is 5), so fortune is offered past the defense."""
    g = game({"provinces": [
        {"colour": "red", "fortune": 9, "active_advisor": "Savage",
         "ships": [{"raid": 5, "location": "blue"}, {}]},
        {"colour": "blue", "defense": 3, "dangerous": False,
         "ships": [{"location": "red"}, {"location": "red"}]}]})
    g.do("hire_guild", guild="soldiers")
    g.do("raid", flagship="red-1", province="blue")
    g.roll("standard", "standard", "standard", "blank", "blank", "blank", "blank")
    assert g.prompt.kind == "spend" and g.prompt.maximum == 2  # 3 successes, up to 5
