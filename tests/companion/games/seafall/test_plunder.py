"""Plunder by site type and the enmity it leaves (rulebook, "Plunder"; "Soldiers Guild" >
"Raid"; "Tokens and Enmity" > "Running out of Enmity")."""

from __future__ import annotations

import pytest
from seafall_driver import Game, island, undo_restores

from companion.errors import IllegalCommand


def raider(game, site, red=None, blue=None, supply=None):
    options = {
        "provinces": [
            {"colour": "red", "ships": [{"raid": 5, "location": "isle"},
                                        {"raid": 2, "location": "isle"}], **(red or {})},
            {"colour": "blue", **(blue or {})},
        ],
        "islands": [island(sites=[{"name": "1", "defense": 1, **site}])],
    }
    if supply:
        options["supply"] = supply
    return game(options)


def win_raid(g, site="isle/1", province=None):
    g.do("hire_guild", guild="soldiers")
    if province:
        g.do("raid", flagship="red-1", province=province)
    else:
        g.do("raid", flagship="red-1", site=site)
    g.roll(*(["standard"] * g.state.endeavor.dice))


def test_mine_gives_its_gold(game):
    g = raider(game, {"kind": "mine", "value": 6})
    win_raid(g)
    assert g.state.provinces["red"].gold == 6
    assert g.state.sites["isle/1"].enmity == {"red": 1}
    assert g.state.endeavor is None


def test_good_on_the_site_is_taken_before_the_supply(game):
    g = raider(game, {"kind": "good", "colour": "iron", "good_present": True})
    win_raid(g)
    g.do("plunder", choice="red-2")
    assert g.state.ships["red-2"].goods == ["iron"]
    assert not g.state.sites["isle/1"].good_present
    assert g.state.supply.goods["iron"] == 9  # the cube came from the site, not the supply


def test_good_site_with_empty_supply_and_no_cube_cannot_be_raided(game):
    g = raider(game, {"kind": "good", "colour": "iron"}, supply={"goods": {"iron": 0}})
    g.do("hire_guild", guild="soldiers")
    with pytest.raises(IllegalCommand, match="no iron is left"):
        g.do("raid", flagship="red-1", site="isle/1")


def test_market_gives_up_to_two_goods_and_full_holds_leave_them(game):
    g = raider(game, {"kind": "market", "colour": "linen"},
               red={"ships": [{"raid": 5, "location": "isle", "goods": ["wood"]},
                              {"raid": 2, "location": "red"}]})
    win_raid(g)
    # one place left in the only ship there: the first linen goes aboard, the second stays
    assert g.state.ships["red-1"].goods == ["wood", "linen"]
    assert g.state.supply.goods["linen"] == 9
    assert g.types()[-3:] == ["GoodLoaded", "GoodLeft", "EndeavorEnded"]


def test_docks_give_a_ten_gold_upgrade_and_its_glory(game):
    g = raider(game, {"kind": "docks", "colour": "spice"})
    win_raid(g)
    values = [o.value for o in g.prompt.options]
    assert values == ["Bold@red-1", "Bold@red-2", "Cunning@red-1", "Cunning@red-2"]
    g.do("plunder", choice="Cunning@red-2")
    assert [u.name for u in g.state.ships["red-2"].upgrades] == ["Cunning"]
    assert g.state.provinces["red"].glory == 2  # endeavor + upgrade
    assert g.state.supply.upgrades["Cunning"] == 0


def test_site_with_enmity_cannot_be_raided_again_this_year(game):
    g = raider(game, {"kind": "mine", "value": 3, "enmity": {"blue": 1}})
    g.do("hire_guild", guild="soldiers")
    with pytest.raises(IllegalCommand, match="already has enmity"):
        g.do("raid", flagship="red-1", site="isle/1")


def test_raid_refused_without_an_enmity_token(game):
    """"Running out of Enmity": an action needing more tokens than you have is not allowed."""
    g = raider(game, {"kind": "mine", "value": 3}, red={"enmity": 0})
    g.do("hire_guild", guild="soldiers")
    with pytest.raises(IllegalCommand, match="no enmity token left"):
        g.do("raid", flagship="red-1", site="isle/1")


def province_raid(game, red=None, **blue):
    return game({
        "provinces": [
            {"colour": "red", "ships": [{"raid": 5, "location": "blue"}, {"raid": 4}],
             "active_advisor": "Savage", **(red or {})},
            {"colour": "blue", "ships": [{"location": "isle"}, {"location": "isle"}], **blue},
        ],
        "islands": [island()],
    })


def test_vault_gives_half_the_gold_rounded_up(game):
    g = province_raid(game, gold=9)
    win_raid(g, province="blue")
    g.do("plunder", choice="blue/vault")
    assert (g.state.provinces["red"].gold, g.state.provinces["blue"].gold) == (5, 4)
    assert g.state.sites["blue/vault"].enmity == {"red": 4}


def test_warehouse_gives_half_the_goods_of_the_raiders_choice(game):
    g = province_raid(game, warehouse=["wood", "iron", "iron"])
    win_raid(g, province="blue")
    g.do("plunder", choice="blue/warehouse")
    assert g.prompt.question.startswith("Take which good? (2 more)")
    g.do("plunder", choice="iron")
    g.do("plunder", choice="wood")
    # only the flagship is in Blue's harbor, with room for two
    assert sorted(g.state.ships["red-1"].goods) == ["iron", "wood"]
    assert g.state.provinces["blue"].warehouse == ["iron"]


def test_council_room_advisor_changes_hands_with_its_glory(game):
    g = province_raid(game, advisors=["Captain"])
    win_raid(g, province="blue")
    g.do("plunder", choice="blue/council-room")
    assert [o.value for o in g.prompt.options] == ["keep:Captain", "dismiss:Captain"]
    g.do("plunder", choice="keep:Captain")
    assert [a.name for a in g.state.provinces["red"].council][-1] == "Captain"
    assert g.state.provinces["blue"].council == []


def test_an_advisor_dismissed_in_plunder_goes_to_the_bottom_of_the_advisor_deck():
    """"Plunder" > "Council Room" (page 17): the raider may dismiss the advisor instead;
    "Terminology" > "Dismiss": a dismissed card goes to the bottom of its deck. It vanished
    from the game; now it is in the deck, known to lie under the cards above it (it comes up
    only after them), and undo takes it back to Blue's council."""
    from companion.games.seafall.engine import SeaFall

    options = {"provinces": [
        {"colour": "red", "ships": [{"raid": 5, "location": "blue"}, {"raid": 4}],
         "active_advisor": "Savage"},
        {"colour": "blue", "ships": [{"location": "isle"}, {"location": "isle"}],
         "advisors": ["Captain"]}],
        "islands": [island()], "advisor_deck": ["Brute", "Madman"]}
    g = Game(options)
    win_raid(g, province="blue")
    g.do("plunder", choice="blue/council-room")
    g.do("plunder", choice="dismiss:Captain")
    state = g.state
    assert state.provinces["blue"].council == [] and "Captain" not in [
        a.name for a in state.provinces["red"].council]
    assert state.advisor_deck[-1] == "Captain" and state.advisors_below == [["Captain"]]
    seized = g.last("AdvisorSeized")
    assert SeaFall().describe(seized, state=state) == (
        "Red dismisses Captain from Blue to the bottom of the advisor deck.")
    assert SeaFall().describe(seized, "fr", state) == (
        "Rouge rejette la Capitaine à Bleu sous la pioche des conseillers.")
    assert g.replayed() == state
    after = undo_restores(options, g.commands)
    assert after.advisor_deck[-1] == "Captain"


def test_treasure_room_card_moves_with_its_glory(game):
    g = province_raid(game, treasures=[{"name": "Idol", "glory": 2}], glory=4)
    win_raid(g, province="blue")
    g.do("plunder", choice="blue/treasure-room")
    g.do("plunder", choice="treasures:Idol")
    assert g.state.provinces["blue"].glory == 2
    assert g.state.provinces["red"].glory == 1 + 2
    assert [c.name for c in g.state.provinces["red"].treasures] == ["Idol"]


def test_structure_returns_exhausted_owner_loses_glory_raider_takes_gold(game):
    g = province_raid(game, structures=["Gun Tower"], glory=3)
    # the Gun Tower adds a garrison die against the raid
    g.do("hire_guild", guild="soldiers")
    g.do("raid", flagship="red-1", province="blue")
    assert ("Gun Tower in Blue province", -1) in [(x.reason, x.dice)
                                                  for x in g.state.endeavor.pool]
    g.roll(*(["standard"] * g.state.endeavor.dice))
    g.do("plunder", choice="blue/build-1")
    g.do("plunder", choice="gold")
    assert g.state.sites["blue/build-1"].structure is None
    assert g.state.supply.exhausted_structures == {"Gun Tower": 1}
    assert g.state.provinces["blue"].glory == 2
    assert g.state.provinces["red"].gold == 5


def test_a_plundered_structures_site_is_not_built_on_this_year(game):
    """"Plunder" > "Structure": the site cannot be built on this year. It could: Blue built
    a Gun Tower there again on its next turn. The other building sites can be; winter
    frees the site again."""
    from companion.engine import Event
    from companion.games.seafall.evolve import evolve

    g = province_raid(game, structures=["Gun Tower"], gold=30)
    g.do("hire_guild", guild="soldiers")
    g.do("raid", flagship="red-1", province="blue")
    g.roll(*(["standard"] * g.state.endeavor.dice))
    g.do("plunder", choice="blue/build-1")
    g.do("plunder", choice="gold")
    g.do("end_turn")
    g.do("hire_guild", guild="builders")
    with pytest.raises(IllegalCommand, match="building site 1 of Blue province had its "
                                             "structure plundered this year: it is not built "
                                             "on until the next winter"):
        g.do("build", structure="Port", site="blue/build-1")
    g.do("build", structure="Port")  # on another building site
    assert g.state.sites["blue/build-1"].structure is None
    assert g.state.sites["blue/build-2"].structure == "Port"
    assert evolve(g.state, Event("WinterBegan", {"year": 2})).plundered_sites == []


def test_province_raid_refused_when_the_cheapest_site_needs_more_tokens(game):
    g = province_raid(game, red={"enmity": 1})
    g.do("hire_guild", guild="soldiers")
    with pytest.raises(IllegalCommand, match="has 1 enmity token.*needs 2"):
        g.do("raid", flagship="red-1", province="blue")


def test_sites_beyond_the_successes_or_tokens_are_not_offered(game):
    g = province_raid(game, red={"enmity": 3}, warehouse=["iron"])
    win_raid(g, province="blue")
    values = [o.value for o in g.prompt.options]
    assert "blue/vault" not in values and "blue/treasure-room" not in values  # need 4 and 5
    assert "blue/warehouse" in values and values[-1] == "none"


def test_no_province_raids_in_the_prologue(game):
    g = game({"prologue": True, "provinces": [
        {"colour": "red", "ships": [{"location": "blue"}, {}]}, {"colour": "blue"}]})
    g.do("hire_guild", guild="soldiers")
    with pytest.raises(IllegalCommand, match="prologue"):
        g.do("raid", flagship="red-1", province="blue")


def field_plundered_with_returned_enmity() -> Game:
    """Blue, at war with Red (2 of Red's tokens), plunders Red's field: the 2 tokens owed go
    back to Red's home, none is left on the field."""
    g = Game({"provinces": [
        {"colour": "blue", "at_war_with": {"red": 2},
         "ships": [{"location": "red", "raid": 5}, {"location": "red"}]},
        {"colour": "red", "ships": [{"location": "blue"}, {"location": "blue"}]},
        {"colour": "green"}]})
    g.do("hire_guild", guild="soldiers")
    g.do("raid", flagship="blue-1", province="red")
    g.roll(*(["standard"] * g.state.endeavor.dice))
    g.do("plunder", choice="red/field-1")
    assert g.types()[-3:-1] == ["EnmityReturned", "GoldTaken"]
    assert not g.state.sites["red/field-1"].enmity
    return g


def test_a_plundered_field_gives_nothing_at_the_next_harvest_even_without_enmity():
    """"Plunder" > "Field" (page 17): the field does not produce gold at the next winter's
    harvest. Before, with its enmity returned rather than placed, it paid its 4 gold: Red
    harvested 8. Undoing the plunder gives the field back its harvest."""
    from companion.games.seafall.engine import SeaFall

    g = field_plundered_with_returned_enmity()
    assert g.state.fallow_fields == ["red/field-1"]
    before = undo_restores(g.options, g.commands)
    assert before.fallow_fields == ["red/field-1"]
    while g.state.year == 1:
        g.do("end_turn")
    harvest = next(e for e in g.events if e.type == "FieldsHarvested"
                   and e.payload["player"] == "red")
    assert harvest.payload["gold"] == 4 and harvest.payload["fallow"] == ["red/field-1"]
    assert SeaFall().describe(harvest, state=g.state) == (
        "Red harvests 4 gold (1 field(s) plundered since the last harvest give nothing).")
    assert SeaFall().describe(harvest, "fr", g.state) == (
        "Rouge récolte 4 or (1 champ pillé depuis la dernière récolte, sans revenu).")
    assert g.state.fallow_fields == [] and g.state.plundered_sites == []  # next year: as ever
    assert g.replayed() == g.state


def test_a_field_plundered_with_its_enmity_returned_is_not_plundered_again_this_year():
    """"Plunder": sites with enmity tokens are not raided again this year. Our reading: a
    field plundered once this year is not plundered again even when the enmity owed went
    home instead of onto it (docs/seafall.md). It is no longer offered."""
    from companion.games.seafall.plunder import plunderable

    g = field_plundered_with_returned_enmity()
    assert "red/field-1" not in [s.id for s in plunderable(g.state, "green", "red", 7)]
    assert "red/field-2" in [s.id for s in plunderable(g.state, "green", "red", 7)]


def test_a_structure_with_its_good_gone_from_the_supply_offers_only_the_gold():
    """"Plunder" > "Structure" (page 17): the raider takes a good of the structure's colour
    from the supply, or half its cost in gold. With no such good left in the supply, the
    good is not offered (it used to be, and gave nothing): the gold is, and it is paid."""
    options = {"provinces": [
        {"colour": "red", "active_advisor": "Savage",
         "ships": [{"location": "blue", "raid": 5}, {"location": "blue"}]},
        {"colour": "blue", "structures": ["Gun Tower"], "defense": 3, "dangerous": False,
         "ships": [{"location": "isle"}, {"location": "isle"}]}],
        "supply": {"goods": {"iron": 0}}, "islands": [island()]}
    g = Game(options)
    win_raid(g, province="blue")
    g.do("plunder", choice="blue/build-1")
    assert [o.value for o in g.prompt.options] == ["gold"]
    with pytest.raises(IllegalCommand, match="'good' is not an answer"):
        g.do("plunder", choice="good")
    g.do("plunder", choice="gold")
    assert g.state.provinces["red"].gold == 5
    assert g.state.endeavor is None
    assert g.replayed() == g.state
    undo_restores(options, g.commands)


def test_a_structure_with_its_good_in_the_supply_offers_both():
    g = province_raid(Game, structures=["Gun Tower"])
    win_raid(g, province="blue")
    g.do("plunder", choice="blue/build-1")
    assert [o.value for o in g.prompt.options] == ["good", "gold"]
    g.do("plunder", choice="good")
    assert g.state.ships["red-1"].goods + g.state.ships["red-2"].goods == ["iron"]


def test_an_empty_room_is_not_offered_as_plunder():
    """"Plunder" > "Province Sites" (page 17): a room's plunder is what it holds. Blue's
    council room, treasure room, warehouse and vault are empty: none is offered (the
    council and treasure rooms were, and the raider paid 3 or 5 enmity for nothing). The
    raid itself stays allowed (the sites have no enmity): its fields are offered."""
    g = province_raid(Game, gold=0)
    win_raid(g, province="blue")
    values = [o.value for o in g.prompt.options]
    assert values == ["blue/field-1", "blue/field-2", "none"]
    with pytest.raises(IllegalCommand, match="not an answer"):
        g.do("plunder", choice="blue/council-room")


def test_rooms_with_something_in_them_are_offered():
    g = province_raid(Game, gold=1, warehouse=["iron"], advisors=["Captain"],
                      treasures=[{"name": "Idol"}])
    win_raid(g, province="blue")
    values = [o.value for o in g.prompt.options]
    assert {"blue/warehouse", "blue/council-room", "blue/vault",
            "blue/treasure-room"} <= set(values)


def test_a_raid_whose_plunder_within_reach_is_all_empty_rooms_ends_without_plunder():
    """Three successes reach a field, the warehouse and the council room; the fields have
    enmity already and the rooms are empty: the raid succeeds (glory) and takes nothing."""
    options = {"provinces": [
        {"colour": "red", "ships": [{"raid": 3, "location": "blue"},
                                    {"raid": 4, "location": "blue"}]},
        {"colour": "blue", "gold": 0, "defense": 3, "dangerous": False,
         "site_enmity": {"field-1": {"green": 1}, "field-2": {"green": 1}},
         "ships": [{"location": "isle"}, {"location": "isle"}]}, {"colour": "green"}],
        "islands": [island()]}
    g = Game(options)
    g.do("hire_guild", guild="soldiers")
    g.do("raid", flagship="red-1", province="blue")
    g.roll(*(["standard"] * g.state.endeavor.dice))
    skipped = g.last("PlunderSkipped").payload
    assert skipped["reason"] == "no site within the successes has anything to take"
    assert g.state.endeavor is None and g.state.provinces["red"].glory == 1
    assert g.state.provinces["red"].home_enmity == 8


def test_a_good_no_ship_has_room_for_stays_on_its_island_site():
    """"Plunder" (page 17): plunder goes onto the raider's ships in the region (the island
    good "to a ship in this region"); what no ship has room for is not taken, so the cube
    stays on its site (it used to go to the supply, emptying the site)."""
    options = {"provinces": [
        {"colour": "red", "ships": [{"raid": 5, "location": "isle", "goods": ["wood", "wood"]},
                                    {"raid": 2, "location": "red"}]},
        {"colour": "blue"}],
        "islands": [island(sites=[{"name": "1", "defense": 1, "kind": "good",
                                   "colour": "iron", "good_present": True}])]}
    g = Game(options)
    win_raid(g)
    assert g.last("GoodLeft").payload == {"good": "iron", "source": "site", "site": "isle/1"}
    assert g.state.sites["isle/1"].good_present
    assert g.state.supply.goods["iron"] == 9  # as set up: the site's cube is not in it
    assert g.state.sites["isle/1"].enmity == {"red": 1}  # raided all the same
    assert g.replayed() == g.state
    undo_restores(options, g.commands)


def test_warehouse_goods_no_ship_has_room_for_stay_in_the_defenders_warehouse():
    """"Plunder" > "Warehouse" (page 17): half the goods, of the raider's choice; a good
    no ship of the raider's can carry stays in the defender's warehouse, not in the supply."""
    options = {"provinces": [
        {"colour": "red", "active_advisor": "Savage",
         "ships": [{"raid": 5, "location": "blue", "goods": ["wood"]},
                   {"raid": 4, "location": "blue", "goods": ["wood", "wood"]}]},
        {"colour": "blue", "warehouse": ["iron", "iron", "spice"],
         "ships": [{"location": "isle"}, {"location": "isle"}]}],
        "islands": [island()]}
    g = Game(options)
    win_raid(g, province="blue")
    g.do("plunder", choice="blue/warehouse")
    # the spice picked, the second pick can only be an iron; the spice goes onto red-1,
    # the only ship with room, and the iron, with no room left anywhere, stays
    g.do("plunder", choice="spice")
    assert g.state.ships["red-1"].goods == ["wood", "spice"]
    assert g.last("GoodLeft").payload["source"] == "blue"
    assert sorted(g.state.provinces["blue"].warehouse) == ["iron", "iron"]
    assert g.state.supply.goods["iron"] == 8 and g.state.supply.goods["spice"] == 9
    assert g.state.endeavor is None
    assert g.replayed() == g.state
    after = undo_restores(options, g.commands)
    assert sorted(after.provinces["blue"].warehouse) == ["iron", "iron"]


def test_a_docks_upgrade_in_place_of_hale_returns_the_goods_beyond_the_hold():
    """"Plunder" > "Docks" (page 17) with a full ship: Hale returned for the docks' upgrade
    takes the hold from 3 to 2. As for a damaged hold ("Endeavors and Damage" > "Damage",
    page 11) the raider chooses the good that goes back to the supply (3 goods used to stay
    aboard); the raid ends once it is returned, and undo restores each step."""
    options = {"provinces": [
        {"colour": "red", "ships": [{"raid": 5, "location": "isle", "upgrades": ["Hale", "Bold"],
                                     "goods": ["iron", "wood", "spice"]},
                                    {"raid": 2, "location": "isle"}]},
        {"colour": "blue"}],
        "islands": [island(sites=[{"name": "1", "defense": 1, "kind": "docks",
                                   "colour": "iron"}])]}
    g = Game(options)
    win_raid(g)
    g.do("plunder", choice="Terrible@red-1:replace:Hale")
    assert g.state.endeavor is not None and g.state.turn.hold_over == "red-1"
    assert g.prompt.command == "return_good"
    with pytest.raises(IllegalCommand, match="hold is over its value"):
        g.do("plunder", choice="none")
    g.do("return_good", choice="spice")
    assert sorted(g.state.ships["red-1"].goods) == ["iron", "wood"]
    assert g.state.endeavor is None and g.types()[-1] == "EndeavorEnded"
    assert g.replayed() == g.state
    assert undo_restores(options, g.commands).endeavor is None
    assert undo_restores(options, g.commands[:-1]).turn.hold_over == "red-1"
