"""The sail action (rulebook, "Ships and Sailing" > "Sailing", and each guild's action 1)."""

from __future__ import annotations

import pytest
from seafall_driver import island, undo_restores

from companion.engine import Command
from companion.errors import IllegalCommand, InvalidCommand

OUT = ["coastal_waters", "(0, 3, 3)", "(1, 3, 4)"]  # three steps out of the blue harbor


def blue(game, ships=None, islands=None, **prov):
    g = game({"provinces": [
        {"colour": "blue", "gold": 10,
         "ships": ships or [{"sail": 4, "hold": 2}, {"sail": 3, "hold": 2}], **prov},
        {"colour": "red"}],
        "islands": islands if islands is not None else [island("isle", space="(2, 3, 5)")]})
    g.do("hire_guild", guild="merchants")
    return g


def test_sail_blue_two_speeds_together_then_the_faster_alone(game):
    """"Sailing", Blue's example: sail 4 and sail 3 move together for three spaces; the
    slower one stops, the faster goes on one more space, to an island."""
    g = blue(game)
    events = g.do("sail", together=True, moves=[
        {"ship": "blue-1", "path": [*OUT, "isle"]}, {"ship": "blue-2", "path": OUT}])
    assert g.types(events) == ["ActionTaken", "ShipSailed", "ShipSailed"]
    assert g.state.ships["blue-1"].location == "isle"
    assert g.state.ships["blue-2"].location == "(1, 3, 4)"
    fast = events[1].payload
    assert fast["path"] == [*OUT, "isle"] and fast["sail"] == 4
    assert fast["together_with"] == "blue-2" and fast["unchecked"] == []


def test_sail_to_an_island_by_its_hex_puts_the_ship_at_the_island(game):
    """"What's on the Map?": ships in an island's space are at that island."""
    g = blue(game)
    g.do("sail", moves=[{"ship": "blue-1", "path": [*OUT, "(2,3,5)"]}])
    assert g.state.ships["blue-1"].location == "isle"


@pytest.mark.parametrize("sail, path, ok", [
    pytest.param(3, OUT, True, id="a ship moves up to its sail value"),
    pytest.param(2, OUT, False, id="not one space more"),
    pytest.param(0, OUT[:1], True, id="sail 0 still moves one space"),
    pytest.param(0, OUT[:2], False, id="sail 0 moves only one space"),
])
def test_sail_distance_is_the_sail_value(game, sail, path, ok):
    """"Sailing": a ship moves up to its sail value; a 0 still moves up to 1 space."""
    g = blue(game, ships=[{"sail": sail}, {}])
    if ok:
        g.do("sail", moves=[{"ship": "blue-1", "path": path}])
        assert g.state.ships["blue-1"].location == path[-1]
    else:
        with pytest.raises(IllegalCommand, match="sails at most"):
            g.do("sail", moves=[{"ship": "blue-1", "path": path}])


def test_sail_swift_upgrade_adds_a_space(game):
    """"Ships": upgrades change a ship's values (Swift: Sail +1, RULES-FACTS)."""
    g = blue(game, ships=[{"sail": 2, "upgrades": ["Swift"]}, {}])
    g.do("sail", moves=[{"ship": "blue-1", "path": OUT}])
    assert g.state.ships["blue-1"].location == "(1, 3, 4)"


@pytest.mark.parametrize("path, message", [
    pytest.param(["(0, 3, 3)"], "not next to", id="the harbor does not touch the open sea"),
    pytest.param(["coastal_waters", "coastal_waters"], "already at",
                 id="each step enters another space"),
    pytest.param(["coastal_waters", "(0, 3, 3)", "(5, 0, 5)"], "not next to",
                 id="hexes far apart"),
])
def test_sail_steps_follow_the_map(game, path, message):
    """"What's on the Map?": harbors open on the coastal waters, which touch column 0."""
    g = blue(game)
    with pytest.raises(IllegalCommand, match=message):
        g.do("sail", moves=[{"ship": "blue-1", "path": path}])


def test_sail_unknown_island_space_is_accepted_and_recorded(game):
    """Reading (docs/seafall-actions.md): an island whose hex is not recorded cannot be
    checked; the step is accepted and listed as unchecked in the event."""
    g = blue(game, islands=[island("fog")])
    events = g.do("sail", moves=[{"ship": "blue-1", "path": ["coastal_waters", "fog"]}])
    assert g.state.ships["blue-1"].location == "fog"
    assert events[-1].payload["unchecked"] == ["coastal_waters -> fog"]
    assert "not checked against the map" in g.engine.describe(events[-1])


def test_sail_from_the_harbor_missing_from_the_map_data_is_checked(game):
    """"What's on the Map?" > "The Basics" (page 6); "Terminology" > "Coastal Waters" (page
    23): a home harbor touches only the coastal waters. The map data has no yellow harbor;
    Yellow's first step is checked all the same: the coastal waters, yes; an island far
    out in the open sea in one step, no (it used to be accepted as unchecked)."""
    options = {"provinces": [{"colour": "yellow", "ships": [{"sail": 1}, {}]},
                             {"colour": "red"}],
               "islands": [island("far", space="(14, 0, 14)")]}
    g = game(options)
    g.do("hire_guild", guild="builders")
    with pytest.raises(IllegalCommand, match="far is not next to yellow on the map"):
        g.do("sail", moves=[{"ship": "yellow-1", "path": ["far"]}])
    with pytest.raises(IllegalCommand, match="is not next to"):
        g.do("sail", moves=[{"ship": "yellow-1", "path": ["(0, 3, 3)"]}])
    events = g.do("sail", moves=[{"ship": "yellow-1", "path": ["coastal_waters"]}])
    assert events[-1].payload["unchecked"] == []
    assert g.state.ships["yellow-1"].location == "coastal_waters"
    after = undo_restores(options, [Command("hire_guild", {"guild": "builders"}, None),
                                    Command("sail", {"moves": [{"ship": "yellow-1",
                                                                "path": ["coastal_waters"]}]},
                                            None)])
    assert after.ships["yellow-1"].location == "coastal_waters"


@pytest.mark.parametrize("moves, message", [
    pytest.param([{"ship": "blue-1", "path": OUT}, {"ship": "blue-2", "path": ["coastal_waters",
                                                                             "(0, 4, 4)"]}],
                 "share their path", id="paths that part before the slower ship stops"),
    pytest.param([{"ship": "blue-1", "path": OUT}], "exactly two", id="one ship alone"),
])
def test_sail_together_shares_the_path(game, moves, message):
    """"Sailing": ships moving together share a path; only the faster goes on alone."""
    g = blue(game)
    with pytest.raises((IllegalCommand, InvalidCommand), match=message):
        g.do("sail", together=True, moves=moves)


def test_sail_together_needs_the_same_space(game):
    """"Sailing": ships may move together only when they are in the same space."""
    g = blue(game, ships=[{}, {"location": "coastal_waters"}])
    with pytest.raises(IllegalCommand, match="same space"):
        g.do("sail", together=True, moves=[{"ship": "blue-1", "path": ["coastal_waters"]},
                                           {"ship": "blue-2", "path": ["(0, 3, 3)"]}])


def test_sail_ships_may_move_separately_from_one_space(game):
    """"Sailing": moving together is a choice; each ship may go its own way."""
    g = blue(game)
    g.do("sail", moves=[{"ship": "blue-1", "path": OUT},
                        {"ship": "blue-2", "path": ["coastal_waters", "(0, 4, 4)"]}])
    assert [s.location for s in g.state.province_ships("blue")] == ["(1, 3, 4)", "(0, 4, 4)"]


def test_sail_goods_loaded_before_and_unloaded_after(game):
    """"Sailing": before and/or after sailing, goods go between a ship and a warehouse you
    control in its region; rearranged between the two ships when both are at a region."""
    g = blue(game, warehouse=["iron", "wood"],
             ships=[{"goods": ["spice"]}, {"goods": []}])
    g.do("sail", before=[{"good": "iron", "from": "warehouse", "to": "blue-1"},
                         {"good": "spice", "from": "blue-1", "to": "blue-2"}],
         moves=[{"ship": "blue-1", "path": ["coastal_waters"]}])
    assert g.state.ships["blue-1"].goods == ["iron"]
    assert g.state.ships["blue-2"].goods == ["spice"]
    assert g.state.provinces["blue"].warehouse == ["wood"]
    assert g.types()[-4:] == ["ActionTaken", "GoodMoved", "GoodMoved", "ShipSailed"]


def test_sail_goods_swap_between_full_holds(game):
    """Holds are checked after the group of moves, so two full ships can swap goods."""
    g = blue(game, ships=[{"hold": 1, "goods": ["iron"]}, {"hold": 1, "goods": ["wood"]}])
    g.do("sail", before=[{"good": "iron", "from": "blue-1", "to": "blue-2"},
                         {"good": "wood", "from": "blue-2", "to": "blue-1"}])
    assert g.state.ships["blue-1"].goods == ["wood"]
    assert g.state.ships["blue-2"].goods == ["iron"]


@pytest.mark.parametrize("ships, moves, message", [
    pytest.param([{"location": "coastal_waters", "goods": ["iron"]},
                  {"location": "coastal_waters"}],
                 [{"good": "iron", "from": "blue-1", "to": "blue-2"}],
                 "in the coastal waters, not at",
                 id="not at sea: only at a region"),
    pytest.param([{"location": "isle", "goods": ["iron"]}, {}],
                 [{"good": "iron", "from": "blue-1", "to": "blue-2"}], "not together",
                 id="the two ships in different regions"),
    pytest.param([{"location": "isle", "goods": ["iron"]}, {}],
                 [{"good": "iron", "from": "blue-1", "to": "warehouse"}], "home harbor",
                 id="warehouse only in the home harbor"),
    pytest.param([{"hold": 1, "goods": ["wood"]}, {}],
                 [{"good": "iron", "from": "warehouse", "to": "blue-1"}], "hold takes 1",
                 id="hold limit"),
    pytest.param([{}, {}], [{"good": "spice", "from": "warehouse", "to": "blue-1"}],
                 "holds no spice", id="only goods that are there"),
])
def test_sail_goods_moves_refused(game, ships, moves, message):
    """"Sailing": goods move between ships together at a region, or a ship and a warehouse
    you control in that region; holds have their limit ("Ships" > "Hold")."""
    g = blue(game, warehouse=["iron"], ships=ships)
    with pytest.raises(IllegalCommand, match=message):
        g.do("sail", before=moves)


def test_sail_is_one_action_of_any_guild(game):
    """"Guilds": every guild has the sail action; an action is taken once a turn."""
    g = blue(game)
    g.do("sail", moves=[{"ship": "blue-1", "path": ["coastal_waters"]}])
    assert g.state.turn.actions == ["sail"]
    with pytest.raises(IllegalCommand, match="already took the sail"):
        g.do("sail", moves=[{"ship": "blue-1", "path": ["(0, 3, 3)"]}])


@pytest.mark.parametrize("args, error", [
    pytest.param({}, InvalidCommand, id="nothing to do"),
    pytest.param({"moves": [{"ship": "blue-1", "path": ["atlantis"]}]}, InvalidCommand,
                 id="an unknown place"),
    pytest.param({"moves": [{"ship": "blue-1"}]}, InvalidCommand, id="a move without a path"),
    pytest.param({"moves": [{"ship": "red-1", "path": ["coastal_waters"]}]}, IllegalCommand,
                 id="another province's ship"),
    pytest.param({"moves": [{"ship": "blue-1", "path": ["coastal_waters"]},
                            {"ship": "blue-1", "path": ["coastal_waters"]}]}, InvalidCommand,
                 id="a ship moved twice"),
])
def test_sail_malformed_or_not_yours(game, args, error):
    """Refusals: malformed commands are invalid; another's ship is illegal."""
    g = blue(game)
    with pytest.raises(error):
        g.do("sail", **args)


def test_sail_sunk_ship_stays_home(game):
    """"Damage": a sunk ship waits on the province board until a repair rebuilds it."""
    g = blue(game, ships=[{"sunk": True}, {}])
    with pytest.raises(IllegalCommand, match="sunk"):
        g.do("sail", moves=[{"ship": "blue-1", "path": ["coastal_waters"]}])
