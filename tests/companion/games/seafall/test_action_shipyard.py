"""Repair OR upgrade (rulebook, "Builders Guild" > "Repair" and "Upgrade"; "Tokens and
Enmity" > "Reputation Tokens" for the Port)."""

from __future__ import annotations

import pytest
from seafall_driver import Game, island, undo_restores

from companion.errors import IllegalCommand, InvalidCommand


def yellow(game, **prov):
    """Yellow's example: both ships in her home harbor (a four-colour dock), a linen in her
    warehouse, an advisor with Upgrade -2 (the Carpenter)."""
    base = {"colour": "yellow", "gold": 5, "warehouse": ["linen"], "active_advisor": "Carpenter"}
    g = game({"provinces": [{**base, **prov}, {"colour": "red"}]})
    g.do("hire_guild", guild="builders")
    return g


def test_upgrade_yellow_swift_with_linen_and_upgrade_minus_two_is_free(game):
    """"Upgrade", Yellow's example: SWIFT costs 10, the linen takes 8 off, Upgrade -2 makes
    it free; the upgrade goes on a ship and gives a glory."""
    g = yellow(game)
    events = g.do("upgrade", ship="yellow-1", upgrade="Swift", good_from="warehouse")
    assert g.types(events) == ["ActionTaken", "GoodSpent", "UpgradeBought", "GloryChanged"]
    assert events[2].payload["price"] == 0
    state = g.state
    assert [u.name for u in state.ships["yellow-1"].upgrades] == ["Swift"]
    assert state.provinces["yellow"].gold == 5 and state.provinces["yellow"].glory == 1
    assert state.provinces["yellow"].warehouse == []
    assert state.supply.upgrades["Swift"] == 0


def test_upgrade_yellow_only_one_per_action(game):
    """"Upgrade", Yellow's example: gold for another upgrade, but one per action."""
    g = yellow(game, gold=30)
    g.do("upgrade", ship="yellow-1", upgrade="Swift", good_from="warehouse")
    with pytest.raises(IllegalCommand, match="already took the repair_or_upgrade"):
        g.do("upgrade", ship="yellow-2", upgrade="Bold")


@pytest.mark.parametrize("good, advisor, price", [
    pytest.param(False, None, 10, id="printed cost"),
    pytest.param(True, None, 2, id="a good of its colour takes 8 off"),
    pytest.param(False, "Foreman", 6, id="Upgrade -4"),
    pytest.param(True, "Foreman", 0, id="never below 0"),
])
def test_upgrade_price(game, good, advisor, price):
    """"Upgrade": printed cost less the good's 8 and the advisor's expertise, never below 0."""
    g = game({"provinces": [{"colour": "red", "gold": 10, "warehouse": ["linen"],
                             **({"active_advisor": advisor} if advisor else {})},
                            {"colour": "blue"}]})
    g.do("hire_guild", guild="builders")
    g.do("upgrade", ship="red-1", upgrade="Swift", **({"good_from": "warehouse"} if good else {}))
    assert g.state.provinces["red"].gold == 10 - price


def island_docks(game, gold=20, enmity=0, **ship):
    g = game({"provinces": [
        {"colour": "red", "gold": gold,
         "ships": [{"location": "dock", "goods": ["iron"], **ship}, {"location": "dock"}]},
        {"colour": "blue"}],
        "islands": [island("dock", permanent_enmity={"red": enmity} if enmity else {},
                           sites=[{"name": "d", "kind": "docks", "colour": "iron"}])]})
    g.do("hire_guild", guild="builders")
    return g


@pytest.mark.parametrize("enmity, good, price", [
    pytest.param(0, False, 10, id="no enmity"),
    pytest.param(2, False, 12, id="plus one gold per enmity at the island"),
    pytest.param(2, True, 4, id="the good from a ship in the same region"),
])
def test_upgrade_at_an_island_dock(game, enmity, good, price):
    """"Upgrade": an island's dock adds 1 gold per enmity you have at the island; the good
    may be on a ship in the same region."""
    g = island_docks(game, enmity=enmity)
    g.do("upgrade", ship="red-2", upgrade="Terrible", **({"good_from": "red-1"} if good else {}))
    assert g.state.provinces["red"].gold == 20 - price
    assert g.state.ships["red-1"].goods == ([] if good else ["iron"])


@pytest.mark.parametrize("upgrade, args, message", [
    pytest.param("Swift", {}, "no dock", id="a one-colour dock sells only its colour"),
    pytest.param("Terrible", {"good_from": "warehouse"}, "warehouse is not in",
                 id="the warehouse is not in that region"),
    pytest.param("Terrible", {"good_from": "red-1", "ship": "red-1"}, None,
                 id="the ship upgraded may carry the good"),
])
def test_upgrade_island_dock_rules(game, upgrade, args, message):
    """"Upgrade": docks of one colour; the good must be in the same region as the ship."""
    g = island_docks(game)
    ship = args.pop("ship", "red-2")
    if message is None:
        g.do("upgrade", ship=ship, upgrade=upgrade, **args)
        assert g.state.provinces["red"].gold == 18
    else:
        with pytest.raises(IllegalCommand, match=message):
            g.do("upgrade", ship=ship, upgrade=upgrade, **args)


def test_upgrade_exhausted_is_not_for_sale(game):
    """"Upgrade": exhausted (face-down) upgrades are not available."""
    g = game({"provinces": [{"colour": "red", "gold": 20}, {"colour": "blue"}],
              "supply": {"upgrades": {"Swift": 0}}})
    g.do("hire_guild", guild="builders")
    with pytest.raises(IllegalCommand, match="not available"):
        g.do("upgrade", ship="red-1", upgrade="Swift")


def test_upgrade_a_full_ship_returns_one_exhausted_and_loses_its_glory(game):
    """"Upgrade" and "Ships": at most two upgrades; one may go back exhausted to make room,
    losing the glory it gave."""
    g = game({"provinces": [{"colour": "red", "gold": 20, "glory": 2,
                             "ships": [{"upgrades": ["Bold", "Hale"]}, {}]},
                            {"colour": "blue"}]})
    g.do("hire_guild", guild="builders")
    with pytest.raises(IllegalCommand, match="name one to 'replace'"):
        g.do("upgrade", ship="red-1", upgrade="Swift")
    g.do("upgrade", ship="red-1", upgrade="Swift", replace="Bold")
    state = g.state
    assert [u.name for u in state.ships["red-1"].upgrades] == ["Hale", "Swift"]
    assert state.supply.exhausted_upgrades == {"Bold": 1}
    assert state.supply.upgrades["Bold"] == 0
    assert state.provinces["red"].glory == 2


def test_the_choices_offer_an_upgrade_in_place_of_one_of_a_full_ships(game):
    """The phones could not upgrade a ship with its two upgrades: the choices offered no
    'replace'. Each of the ship's upgrades is offered to go back for the new one."""
    g = game({"provinces": [{"colour": "red", "gold": 20,
                             "ships": [{"upgrades": ["Bold", "Hale"]}, {}]},
                            {"colour": "blue"}]})
    g.do("hire_guild", guild="builders")
    swift = [c["args"] for c in g.engine.legal_commands(g.state)
             if c["type"] == "upgrade" and c["args"]["upgrade"] == "Swift"
             and c["args"]["ship"] == "red-1" and "good_from" not in c["args"]]
    assert swift == [{"ship": "red-1", "upgrade": "Swift", "replace": "Bold"},
                     {"ship": "red-1", "upgrade": "Swift", "replace": "Hale"}]


def test_upgrade_replace_only_to_make_room(game):
    """"Upgrade": returning an upgrade is for making room; a ship with room keeps its own."""
    g = game({"provinces": [{"colour": "red", "gold": 20, "ships": [{"upgrades": ["Bold"]}, {}]},
                            {"colour": "blue"}]})
    g.do("hire_guild", guild="builders")
    with pytest.raises(IllegalCommand, match="has room"):
        g.do("upgrade", ship="red-1", upgrade="Swift", replace="Bold")


def test_upgrade_unknown_is_invalid(game):
    """"Upgrade": only upgrades of the game's components exist (a malformed name is invalid)."""
    g = yellow(game)
    with pytest.raises(InvalidCommand, match="no upgrade"):
        g.do("upgrade", ship="yellow-1", upgrade="Golden Sails")


def damaged(game, **kw):
    provinces = [{"colour": "red", "ships": [
        {"upgrades": [{"name": "Bold", "exhausted": True}], "damage": ["Leak", "Torn sail"]},
        {"location": "isle", "damage": ["Leak"]}], **kw}, {"colour": "blue"}]
    return game({"provinces": provinces, "islands": [island("isle")]})


def test_repair_at_the_home_harbor_refreshes_and_dismisses(game):
    """"Repair": ships at a place with the repair symbol (the home harbor) refresh their
    exhausted upgrades and dismiss their damage cards; ships elsewhere stay damaged."""
    g = damaged(game)
    g.do("hire_guild", guild="builders")
    events = g.do("repair")
    assert g.types(events) == ["ActionTaken", "ShipRepaired"]
    assert events[1].payload == {"player": "red", "ship": "red-1", "refreshed": ["Bold"],
                                 "dismissed": ["Leak", "Torn sail"], "free": False}
    assert not g.state.ships["red-1"].upgrades[0].exhausted
    assert g.state.ships["red-1"].damage == []
    assert len(g.state.ships["red-2"].damage) == 1


def test_repair_at_an_island_with_the_repair_symbol(game):
    """"What's on the Map?" > Repair: islands may have the repair symbol too."""
    g = game({"provinces": [{"colour": "red", "ships": [
        {"location": "isle", "damage": ["Leak"]}, {}]}, {"colour": "blue"}],
        "islands": [island("isle", repair=True)]})
    g.do("hire_guild", guild="builders")
    g.do("repair")
    assert g.state.ships["red-1"].damage == []


def test_repair_rebuilds_sunk_ships_in_the_home_harbor(game):
    """"Repair": repairing may also rebuild sunk ships, placed in the home harbor."""
    g = game({"provinces": [{"colour": "red", "ships": [{"sunk": True}, {"location": "isle"}]},
                            {"colour": "blue"}], "islands": [island("isle")]})
    g.do("hire_guild", guild="builders")
    g.do("repair")
    ship = g.state.ships["red-1"]
    assert not ship.sunk and ship.location == "red" and ship.upgrades == []


def test_repair_nothing_to_repair_is_refused(game):
    """A repair with no damage anywhere it may repair and no sunk ship does nothing."""
    g = game({"provinces": [{"colour": "red"}, {"colour": "blue"}]})
    g.do("hire_guild", guild="builders")
    with pytest.raises(IllegalCommand, match="nothing to repair"):
        g.do("repair")


def test_repair_or_upgrade_not_both(game):
    """"Repair OR Upgrade": one action, either a repair or an upgrade."""
    g = damaged(game, gold=20)
    g.do("hire_guild", guild="builders")
    g.do("repair")
    with pytest.raises(IllegalCommand, match="already took"):
        g.do("upgrade", ship="red-1", upgrade="Swift")


def test_repair_port_repairs_without_an_action(game):
    """Port (RULES-FACTS: repair without spending an action; effect free_repair): its owner
    repairs ships in its region with no guild and no action taken."""
    g = damaged(game, structures=["Port"])
    events = g.do("repair", free=True)
    assert g.types(events) == ["ShipRepaired"]
    assert g.state.turn.actions == [] and g.state.turn.guild is None
    assert g.state.ships["red-1"].damage == []
    assert len(g.state.ships["red-2"].damage) == 1  # not in the Port's region


def test_the_choices_offer_a_ports_repair_without_a_guild(game):
    """The phones never offered the Port's repair (the choices listed only the guild's,
    which takes the action): it is offered at the turn's start, with no guild."""
    g = damaged(game, structures=["Port"])
    repairs = [c for c in g.engine.legal_commands(g.state) if c["type"] == "repair"]
    assert [c["args"] for c in repairs] == [{"free": True}]
    assert repairs[0]["summary"] == "repairs Red ship 1"
    assert not [c for c in damaged(game).engine.legal_commands(damaged(game).state)
                if c["type"] == "repair"]  # no Port: no such repair


def test_repair_free_needs_a_port(game):
    """Without a free_repair structure, repairing takes the action."""
    g = damaged(game)
    with pytest.raises(IllegalCommand, match="without the action"):
        g.do("repair", free=True)


def test_repair_red_borrows_yellows_port_for_a_reputation_token(game):
    """"Reputation Tokens", the example: Red gives Yellow a reputation token and repairs his
    ships in Yellow's home harbor without spending a repair action, thanks to her Port."""
    g = game({"provinces": [
        {"colour": "red", "reputation": 1, "ships": [
            {"location": "yellow", "damage": ["Leak"]}, {"location": "yellow"}]},
        {"colour": "yellow", "structures": ["Port"]}]})
    with pytest.raises(IllegalCommand):
        g.do("repair", free=True)
    g.do("give_reputation", to="yellow", region="yellow")
    g.do("repair", free=True)
    assert g.state.ships["red-1"].damage == []
    assert g.state.turn.actions == []


def test_repair_own_port_rebuilds_for_free(game):
    """Port and "Repair": rebuilding is part of a repair; a free repair by one's own Port
    rebuilds sunk ships into that home harbor (reading, docs/seafall-actions.md)."""
    g = game({"provinces": [{"colour": "red", "structures": ["Port"],
                             "ships": [{"sunk": True}, {}]}, {"colour": "blue"}]})
    assert g.types(g.do("repair", free=True)) == ["ShipRebuilt"]
    assert g.state.ships["red-1"].location == "red"


def test_repair_borrowed_port_does_not_rebuild(game):
    """A borrowed Port repairs in its region; rebuilt ships would return to the borrower's
    own harbor, so it rebuilds nothing (reading, docs/seafall-actions.md)."""
    g = game({"provinces": [
        {"colour": "red", "reputation": 1, "ships": [{"sunk": True}, {"location": "yellow"}]},
        {"colour": "yellow", "structures": ["Port"]}]})
    g.do("give_reputation", to="yellow", region="yellow")
    with pytest.raises(IllegalCommand, match="nothing to repair"):
        g.do("repair", free=True)
    with pytest.raises(IllegalCommand, match="no Port"):
        g.do("repair", free=True, rebuild=["red-1"])


def hale_ship(goods):
    options = {"provinces": [
        {"colour": "red", "gold": 40,
         "ships": [{"upgrades": ["Hale", "Bold"], "goods": goods}, {}]},
        {"colour": "blue"}]}
    g = Game(options)
    g.do("hire_guild", guild="builders")
    return g


def test_returning_hale_for_another_upgrade_returns_the_goods_beyond_the_hold():
    """"Builders Guild" > "Upgrade" (a full ship returns an upgrade for the new one) and
    "Endeavors and Damage" > "Damage" (page 11: a hold that shrinks returns its goods beyond
    its value to the supply, the player choosing which). Hale returned for Swift takes the
    hold from 3 to 2 with 3 goods aboard: the turn asks which good goes back (it used to
    keep all 3), and nothing else is taken before."""
    from companion.games.seafall.engine import SeaFall
    from companion.games.seafall.ships import ship_value

    g = hale_ship(["iron", "wood", "spice"])
    g.do("upgrade", ship="red-1", upgrade="Swift", replace="Hale")
    ship = g.state.ships["red-1"]
    assert ship_value(g.state, ship, "hold") == 2 and len(ship.goods) == 3
    prompt = g.prompt
    assert prompt.command == "return_good" and prompt.player == "red"
    assert prompt.question == "Red ship 1's hold is over: return which good?"
    assert [o.value for o in prompt.options] == ["iron", "spice", "wood"]
    assert SeaFall().legal_commands(g.state) == []
    with pytest.raises(IllegalCommand, match="hold is over its value: return goods"):
        g.do("end_turn")
    with pytest.raises(IllegalCommand, match="'s goods is Red's"):
        g.do("return_good", actor="blue", choice="wood")
    with pytest.raises(IllegalCommand, match="carries no linen"):
        g.do("return_good", choice="linen")
    g.do("return_good", choice="wood")
    assert sorted(g.state.ships["red-1"].goods) == ["iron", "spice"]
    assert g.state.supply.goods["wood"] == 10 and g.state.turn.hold_over is None
    assert g.engine.prompts(g.state) == []
    g.do("end_turn")  # the turn goes on
    assert g.replayed() == g.state
    after = undo_restores(g.options, g.commands[:3])  # undo the good returned
    assert after.turn.hold_over is None
    before = undo_restores(g.options, g.commands[:2])  # undo the upgrade
    assert before.turn.hold_over == "red-1"


def test_goods_all_alike_beyond_the_hold_go_back_at_once():
    g = hale_ship(["iron", "iron", "iron"])
    g.do("upgrade", ship="red-1", upgrade="Swift", replace="Hale")
    assert g.state.ships["red-1"].goods == ["iron", "iron"]
    assert g.last("GoodsReturned").payload["goods"] == ["iron"]
    assert g.engine.prompts(g.state) == [] and g.state.turn.hold_over is None


def test_returning_an_upgrade_that_leaves_the_hold_enough_asks_nothing():
    g = hale_ship(["iron", "wood"])
    g.do("upgrade", ship="red-1", upgrade="Swift", replace="Hale")
    assert sorted(g.state.ships["red-1"].goods) == ["iron", "wood"]
    assert "HoldOverloaded" not in g.types() and g.state.turn.hold_over is None
