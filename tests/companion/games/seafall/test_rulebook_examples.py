"""The rulebook's worked examples for endeavors, replayed through the engine.

Each test cites the section of ../shared/seeds/seafall-rulebook-en.txt it comes from. Where
the example leaves something open, the test says which reading it takes.
"""

from __future__ import annotations

from seafall_driver import island

from companion.games.seafall.enmity import enmity_in_region


def pool_lines(game):
    end = game.state.endeavor
    return [(line.reason, line.dice) for line in end.pool]


def test_gray_explore_pool_flagship_support_and_madman(game):
    """"Endeavors and Damage" > "Creating a Dice Pool" and "Bonuses": Gray's explore pool.

    Both ships explore 3 (flagship: 3 dice), the other ship supports (+1), the Madman's
    Explore +1 (+1), no research cards: five dice.
    """
    g = game({
        "provinces": [
            {"colour": "gray", "active_advisor": "Madman",
             "ships": [{"explore": 3, "location": "isle"}, {"explore": 3, "location": "isle"}]},
            {"colour": "red"},
        ],
        "islands": [island(sites=[{"name": "1", "defense": 3}])],
    })
    g.do("hire_guild", guild="explorers")
    g.do("explore", flagship="gray-1", site="isle/1")
    assert g.state.endeavor.dice == 5
    assert [d for _, d in pool_lines(g)] == [3, 1, 1]
    assert g.prompt.kind == "roll" and g.prompt.count == 5


def test_gray_explore_support_with_zero_explore_adds_no_die(game):
    """"Bonuses": a support ship whose value for the stat is 0 adds no die."""
    g = game({
        "provinces": [
            {"colour": "gray", "active_advisor": "Madman",
             "ships": [{"explore": 3, "location": "isle"}, {"explore": 0, "location": "isle"}]},
            {"colour": "red"},
        ],
        "islands": [island(sites=[{"name": "1", "defense": 3}])],
    })
    g.do("hire_guild", guild="explorers")
    g.do("explore", flagship="gray-1", site="isle/1")
    assert g.state.endeavor.dice == 4
    assert g.state.endeavor.support is None


def blue_raid(game, fortune=1):
    return game({
        "provinces": [
            {"colour": "blue", "active_advisor": "Wind Master", "fortune": fortune,
             "ships": [{"raid": 2, "location": "isle"}, {"raid": 2, "location": "isle"}]},
            {"colour": "red"},
        ],
        "islands": [island(garrison=1, sites=[
            {"name": "iron", "kind": "good", "colour": "iron", "defense": 4}])],
    })


def test_blue_raid_pool_loses_a_die_to_the_garrison(game):
    """"Creating a Dice Pool", Blue's raid example: raid 2 + support 1 + advisor Raid +2 = 5,
    minus garrison 1 = 4 dice."""
    g = blue_raid(game)
    g.do("hire_guild", guild="soldiers")
    g.do("raid", flagship="blue-1", site="isle/iron")
    assert [d for _, d in pool_lines(g)] == [2, 1, 2, -1]
    assert g.state.endeavor.dice == 4


def test_blue_raid_roll_with_one_fortune_token_takes_one_damage(game):
    """"Completing an Endeavor & Fortune", Blue's example: two successes, one fortune token
    turns a blank into a success, 3 against defense 4: one damage.

    Reading: the example speaks of "the blank" and one token; we give Blue a single fortune
    token, so only one can be spent although two dice show blanks.
    """
    g = blue_raid(game, fortune=1)
    g.do("hire_guild", guild="soldiers")
    g.do("raid", flagship="blue-1", site="isle/iron")
    g.roll("standard", "weak", "blank", "blank")
    assert g.prompt.kind == "spend" and g.prompt.maximum == 1
    g.do("spend_fortune", amount=1)
    counted = g.last("SuccessesCounted").payload
    assert (counted["rolled"], counted["fortune"], counted["successes"]) == (2, 1, 3)
    assert counted["damage"] == 1
    assert g.state.provinces["blue"].fortune == 0
    assert g.prompt.kind == "choice" and g.prompt.command == "assign_damage"
    g.do("assign_damage", choice="card:blue-1")
    # at least one success and the flagship afloat: the raid succeeds, +1 glory, plunder
    assert "EndeavorSucceeded" in g.types()
    assert g.state.provinces["blue"].glory == 1
    assert len(g.state.ships["blue-1"].damage) == 1


def test_blue_explores_dangerous_anchor_site_with_intrepid_and_woodsman(game):
    """"Explorers Guild" > "Explore", Blue's example: explore 2 + Intrepid 2 = 4, Woodsman
    +1 and +1 more at an anchor site = 6 dice; four successes against defense 5 at a dangerous
    site (no fortune), one damage taken by exhausting Intrepid; success and one glory.
    The other ship is elsewhere (the example counts no support die)."""
    g = game({
        "provinces": [
            {"colour": "blue", "active_advisor": "Woodsman", "fortune": 3,
             "ships": [{"explore": 2, "location": "isle", "upgrades": ["Intrepid"]},
                       {"explore": 2}]},
            {"colour": "red"},
        ],
        "islands": [island(sites=[
            {"name": "anchor", "symbol": "anchor", "defense": 5, "dangerous": True}])],
    })
    g.do("hire_guild", guild="explorers")
    g.do("explore", flagship="blue-1", site="isle/anchor")
    assert [d for _, d in pool_lines(g)] == [2, 2, 1, 1]
    assert g.state.endeavor.dice == 6
    g.roll("standard", "weak", "strong", "standard", "blank", "blank")
    # dangerous site: no fortune prompt even though Blue holds three tokens
    assert g.prompt.kind == "choice"
    assert g.last("SuccessesCounted").payload["damage"] == 1
    values = [o.value for o in g.prompt.options]
    assert values == ["exhaust:blue-1:Intrepid", "card:blue-1"]
    g.do("assign_damage", choice="exhaust:blue-1:Intrepid")
    assert g.state.ships["blue-1"].upgrades[0].exhausted
    assert g.state.provinces["blue"].glory == 1 + 1  # Intrepid's glory, then the endeavor's
    assert g.state.provinces["blue"].fortune == 3
    assert g.state.sites["isle/anchor"].kind == "explored"
    assert g.state.endeavor is None


def yellow_raid(game):
    return game({
        "provinces": [
            {"colour": "yellow", "active_advisor": "Advanced Scout", "fortune": 3,
             "ships": [{"raid": 4, "location": "spice-isle"},
                       {"raid": 2, "location": "spice-isle", "upgrades": ["Nimble"]}]},
            {"colour": "red"},
        ],
        "islands": [island("spice-isle", garrison=1,
                           effects=[{"effect": "reroll", "kind": "weak"}],
                           sites=[{"name": "spice", "kind": "good", "colour": "spice",
                                   "defense": 5, "dangerous": True, "good_present": False}])],
    })


def test_yellow_spice_raid_nimble_scout_garrison_reroll_and_fortune(game):
    """"Soldiers Guild" > "Raid", Yellow's example, step by step.

    Raid 4 flagship + support 1 + Nimble 1 + Advanced Scout Raid +2 = 8, garrison 1 -> 7.
    Roll: 3 blanks, 2 weak, 1 standard, 1 strong. The island re-rolls weak successes (each
    once; the new faces stand): blank and standard -> 3 successes. The Advanced Scout allows
    fortune at a dangerous site: two tokens -> 5 = defense, no damage, +1 glory, a spice from
    the supply (no cube on the site) and an enmity token on the site.
    """
    g = yellow_raid(game)
    g.do("hire_guild", guild="soldiers")
    g.do("raid", flagship="yellow-1", site="spice-isle/spice")
    assert [d for _, d in pool_lines(g)] == [4, 1, 1, 2, -1]
    assert g.state.endeavor.dice == 7
    g.roll("blank", "blank", "blank", "weak", "weak", "standard", "strong")
    assert g.prompt.kind == "roll" and g.prompt.count == 2
    assert g.state.endeavor.reroll == [3, 4]
    # the dice left in the tray show the rest of the roll (a camera checks the right two
    # were picked up: docs/runtime.md, "Re-rolls")
    assert sorted(g.prompt.keep) == ["blank", "blank", "blank", "standard", "strong"]
    g.roll("blank", "standard")
    assert g.prompt.kind == "spend" and g.prompt.maximum == 2
    g.do("spend_fortune", amount=2)
    counted = g.last("SuccessesCounted").payload
    assert (counted["rolled"], counted["successes"], counted["damage"]) == (3, 5, 0)
    assert g.state.provinces["yellow"].glory == 1 + 1  # Nimble's glory, then the raid's
    # both ships have room for the spice: the player chooses
    assert g.prompt.command == "plunder"
    assert [o.value for o in g.prompt.options] == ["yellow-1", "yellow-2", "leave"]
    g.do("plunder", choice="yellow-1")
    assert g.state.ships["yellow-1"].goods == ["spice"]
    assert g.state.supply.goods["spice"] == 9
    assert g.state.sites["spice-isle/spice"].enmity == {"yellow": 1}
    assert g.state.provinces["yellow"].home_enmity == 7
    assert g.state.provinces["yellow"].fortune == 1
    assert g.state.endeavor is None
    assert g.replayed() == g.state


def yellow_province_for_gray(game, **gray):
    return game({
        "provinces": [
            {"colour": "gray", "ships": [{"raid": 3, "location": "yellow"}, {"raid": 2}],
             **gray},
            {"colour": "yellow", "gold": 9, "warehouse": ["wood", "iron"],
             "advisors": ["Captain"], "treasures": [{"name": "Idol", "glory": 2}],
             "ships": [{"location": "isle"}, {"location": "isle"}]},
        ],
        "islands": [island()],
    })


def test_gray_raids_yellow_province_three_successes_plunders_a_field(game):
    """"Plunder" > "Province Sites", Gray's example: 3 successes against defense 5 -> 2
    damage; then a field, the warehouse or the council room (plunder value 3 or less), not the
    vault or the treasure room; Gray plunders a field of plunder value 2 and places 2 enmity.

    The example gives no pool; Gray's Savage (Raid +3) makes it 5 dice so 3 can succeed.
    """
    g = yellow_province_for_gray(game, active_advisor="Savage")
    g.do("hire_guild", guild="soldiers")
    g.do("raid", flagship="gray-1", province="yellow")
    assert g.state.endeavor.dice == 5  # raid 3 + Savage 3 - garrison 1
    g.roll("strong", "standard", "weak", "blank", "blank")
    counted = g.last("SuccessesCounted").payload
    assert (counted["successes"], counted["damage"]) == (3, 2)
    g.do("assign_damage", choice="card:gray-1")
    g.do("assign_damage", choice="card:gray-1")
    assert g.state.provinces["gray"].glory == 1
    options = [o.value for o in g.prompt.options]
    assert options == ["yellow/field-1", "yellow/field-2", "yellow/warehouse",
                       "yellow/council-room", "none"]
    g.do("plunder", choice="yellow/field-1")
    assert g.state.sites["yellow/field-1"].enmity == {"gray": 2}
    assert g.state.provinces["gray"].home_enmity == 6
    assert g.state.provinces["gray"].gold == 4  # the field's gold value
    assert g.state.endeavor is None


def blue_green(first: str = "blue") -> dict:
    """"Tokens and Enmity" > "Using Enmity On Defense": Blue has a permanent sticker on
    Green's province, a token in Green's At War With space (Green holds one of Blue's tokens)
    and a token on one of Green's fields. Blue's ships wait in Green's harbor, Green's in
    Blue's, Red's in Green's."""
    return {
        "first_player": first,
        "provinces": [
            {"colour": "blue", "enmity": 6,
             "ships": [{"raid": 3, "location": "green"}, {"raid": 2, "location": "green"}]},
            {"colour": "green", "at_war_with": {"blue": 1}, "permanent_enmity": {"blue": 1},
             "site_enmity": {"field-1": {"blue": 1}},
             "ships": [{"raid": 2, "location": "blue"}, {"raid": 3, "location": "blue"}]},
            {"colour": "red", "ships": [{"location": "green"}, {"location": "green"}]},
        ],
    }


def test_blue_loses_three_dice_for_his_enmity_in_green_province(game):
    """"Using Enmity On Defense": sticker + At War With token + field token = 3 dice off."""
    g = game(blue_green("blue"))
    assert enmity_in_region(g.state, "blue", "green") == 3
    g.do("hire_guild", guild="soldiers")
    g.do("raid", flagship="blue-1", province="green")
    assert ("your enmity in Green province", -3) in pool_lines(g)


def test_red_loses_no_dice_for_enmity_raiding_green(game):
    """Same example: "if red raided green, he would not remove any dice due to enmity"."""
    g = game(blue_green("red"))
    g.do("hire_guild", guild="soldiers")
    g.do("raid", flagship="red-1", province="green")
    assert not [r for r, _ in pool_lines(g) if "enmity" in r]


def test_green_at_war_with_blue_adds_a_die_but_not_for_field_or_sticker(game):
    """"Enmity and Being at War": Green raiding Blue adds one die for the Blue token in
    Green's At War With space, none for Blue's field token or sticker in Green's province."""
    g = game(blue_green("green"))
    g.do("hire_guild", guild="soldiers")
    g.do("raid", flagship="green-1", province="blue")
    lines = pool_lines(g)
    assert ("at war with blue: their enmity you hold", 1) in lines
    assert sum(d for r, d in lines if "at war" in r) == 1


def test_green_owing_two_enmity_returns_blue_token_then_places_one(game):
    """"Giving Enmity Tokens", Green raids one of Blue's fields and owes two enmity: the Blue
    token in Green's At War With space goes back to Blue's home enmity, then one Green token
    goes on the field."""
    g = game(blue_green("green"))
    g.do("hire_guild", guild="soldiers")
    g.do("raid", flagship="green-1", province="blue")
    assert g.state.endeavor.dice == 3  # raid 2 + support 1 + at war 1 - garrison 1
    g.roll("standard", "standard", "standard")
    g.do("assign_damage", choice="card:green-1")
    g.do("assign_damage", choice="card:green-1")
    g.do("plunder", choice="blue/field-1")
    assert g.state.provinces["blue"].home_enmity == 7  # 6 + the returned token
    assert g.state.provinces["green"].at_war_with == {}
    assert g.state.provinces["green"].home_enmity == 7
    assert g.state.sites["blue/field-1"].enmity == {"green": 1}


def test_view_shows_exact_odds_of_the_pool_before_the_roll(game):
    """Yellow's raid, before rolling: 7 dice, re-roll weak once, up to 2 fortune at this
    dangerous site (Advanced Scout), defense 5; the odds are those of docs/odds.md's model."""
    from companion.dice import SEAFALL
    from companion.dice.odds import endeavor_odds
    from companion.dice.rules import PoolRules

    g = yellow_raid(game)
    g.do("hire_guild", guild="soldiers")
    g.do("raid", flagship="yellow-1", site="spice-isle/spice")
    odds = g.engine.view(g.state, "yellow")["endeavor"]["odds"]
    expected = endeavor_odds(SEAFALL, 7, 5, PoolRules(
        reroll=frozenset({"weak"}), fortune=3, dangerous=True, fortune_at_dangerous=2))
    assert odds["exact"]["p_no_damage"] == f"{expected.p_no_damage.numerator}/" \
                                          f"{expected.p_no_damage.denominator}"
    g.roll("blank", "blank", "blank", "weak", "weak", "standard", "strong")
    assert "odds" not in (g.engine.view(g.state, None)["endeavor"] or {})
