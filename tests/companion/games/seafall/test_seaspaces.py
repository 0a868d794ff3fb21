"""A ship at sea named by the board, not the map's labels (rulebook, "What's on the Map?":
the coastal waters, the open sea): the table's view says where it is for the pages."""

from __future__ import annotations

import pytest
from seafall_driver import island


def at_sea(game, location, islands):
    g = game({"provinces": [{"colour": "blue", "ships": [{"location": location}, {}]},
                            {"colour": "red"}], "islands": islands})
    ships = g.engine.view(g.state, None)["ships"]
    assert "at_sea" not in ships["blue-2"]  # in its home harbor: Blue province
    return ships["blue-1"].get("at_sea")


@pytest.mark.parametrize(("location", "islands", "where"), [
    pytest.param("coastal_waters", [], {"kind": "coastal"}, id="the coastal waters"),
    pytest.param("(1, 3, 4)", [island("isle", space="(2, 3, 5)")],
                 {"kind": "open", "near": ["isle"], "spaces": 1}, id="next to an island"),
    pytest.param("(0, 3, 3)", [island("isle", space="(2, 3, 5)")],
                 {"kind": "open", "near": ["isle"], "spaces": 2}, id="two spaces away"),
    pytest.param("(1, 3, 4)", [island("isle", space="(2, 3, 5)"),
                               island("rock", space="(1, 2, 3)")],
                 {"kind": "open", "near": ["isle", "rock"], "spaces": 1},
                 id="as near two islands"),
    pytest.param("(1, 3, 4)", [], {"kind": "open", "near": [], "spaces": None},
                 id="no island on the map: nothing near"),
    pytest.param("green_harbor", [], {"kind": "harbor", "colour": "green"},
                 id="the home harbor of a province not played"),
    pytest.param("isle", [island("isle", space="(2, 3, 5)")], None, id="at an island"),
])
def test_the_view_says_where_a_ship_at_sea_is(game, location, islands, where):
    """The province card named a ship stopped at sea by the map's label ("coastal_waters",
    "(1, 3, 4)"), which is nowhere on the board."""
    assert at_sea(game, location, islands) == where
