"""The map behind sail distances (rulebook, "What's on the Map?": home harbors, coastal
waters, open-sea hexes; data: data/map_adjacency.csv, a fan transcription)."""

from __future__ import annotations

import pytest
from seafall_driver import island

from companion.errors import InvalidCommand
from companion.games.seafall.map import (
    default_map,
    harbor_space,
    harbors_on_the_coast,
    normalise,
    parse_adjacency,
)


@pytest.mark.parametrize("raw, canonical", [
    pytest.param("(6, -3,  3)", "(6, -3, 3)", id="a doubled space inside a hex label"),
    pytest.param("(6, -2 , 4)", "(6, -2, 4)", id="a space before a comma"),
    pytest.param("(12, -3, 9) ", "(12, -3, 9)", id="a trailing space"),
    pytest.param("(0,0,0)", "(0, 0, 0)", id="no spaces at all"),
    pytest.param(" Coastal_Waters", "coastal_waters", id="named spaces are lower case"),
])
def test_map_normalise_spellings_of_one_space(raw, canonical):
    """The dataset's labels carry stray spaces (its README); all spellings name one space."""
    assert normalise(raw) == canonical


def test_map_default_is_symmetric_with_harbors_on_the_coastal_waters():
    """"What's on the Map?": each home harbor opens onto the coastal waters, which lie
    between the harbors and the open sea (column 0 of the hexes)."""
    sea = default_map()
    assert len(sea.neighbours) == 149  # the data's 148 spaces and the yellow harbor
    for a, near in sea.neighbours.items():
        assert a not in near
        assert all(a in sea.neighbours[b] for b in near)
    for colour in ("blue", "green", "gray", "red", "yellow", "purple"):
        assert sea.neighbours[harbor_space(colour)] == {"coastal_waters"}
    assert sea.adjacent("coastal_waters", "(0, 3, 3)") is True
    assert sea.adjacent("coastal_waters", "(1, 3, 4)") is False
    assert sea.distance("blue_harbor", "(1, 3, 4)") == 3


def test_map_unknown_places_cannot_be_checked():
    """A place the map does not know (an island's hex never recorded): a step to it is
    neither allowed nor refused by the map (None)."""
    sea = default_map()
    assert not sea.knows("fog")
    assert sea.adjacent("fog", "coastal_waters") is None
    assert sea.distance("coastal_waters", "fog") is None


def test_map_every_home_harbor_touches_the_coastal_waters_only():
    """"What's on the Map?" > "The Basics" (page 6) and "Terminology" > "Coastal Waters"
    (page 23): the coastal waters lie between the home harbors and the open sea. The
    transcription has no yellow harbor: it is known all the same, next to the coastal
    waters alone, and a harbor given other links by the data keeps only that one."""
    sea = default_map()
    for colour in ("blue", "green", "gray", "red", "yellow", "purple"):
        assert sea.neighbours[harbor_space(colour)] == {"coastal_waters"}
        assert harbor_space(colour) in sea.neighbours["coastal_waters"]
    assert sea.distance("yellow_harbor", "(0, 3, 3)") == 2
    odd = harbors_on_the_coast(parse_adjacency(
        ',coastal_waters,red_harbor,"(0, 0, 0)"\n'
        'coastal_waters,0,0,1\nred_harbor,0,0,1\n"(0, 0, 0)",1,1,0\n'), ("red", "yellow"))
    assert odd.neighbours["red_harbor"] == {"coastal_waters"}
    assert odd.neighbours["(0, 0, 0)"] == {"coastal_waters"}
    assert odd.neighbours["yellow_harbor"] == {"coastal_waters"}


@pytest.mark.parametrize("text", [
    pytest.param(",a,b\na,0,1\n", id="not square"),
    pytest.param(",a,b\na,0,2\nb,1,0\n", id="a cell that is not 0 or 1"),
    pytest.param(",a,a\na,0,1\na,1,0\n", id="a space named twice"),
])
def test_map_bad_adjacency_is_refused(text):
    """A corrected map supplied by players is validated when it is loaded."""
    with pytest.raises(ValueError):
        parse_adjacency(text)


def test_map_island_space_and_province_harbor_set_at_setup(game):
    """An island occupies one open-sea hex; a province's region is its home harbor space."""
    g = game({"provinces": [{"colour": "red"}, {"colour": "blue", "ships": [
        {"location": "(2,3,5)"}, {"location": "(0, 3, 3)"}]}],
              "islands": [island("isle", space="(2, 3,5)")]})
    assert g.state.regions["isle"].space == "(2, 3, 5)"
    assert g.state.regions["red"].space == "red_harbor"
    assert g.state.regions["red"].repair and g.state.regions["red"].docks == [
        "wood", "linen", "spice", "iron"]
    # a ship placed on the island's hex is at the island; one on open sea is at the hex
    assert g.state.ships["blue-1"].location == "isle"
    assert g.state.ships["blue-2"].location == "(0, 3, 3)"


@pytest.mark.parametrize("space", [
    pytest.param("(99, 0, 0)", id="not a hex of the map"),
    pytest.param("coastal_waters", id="islands sit on open-sea hexes only"),
])
def test_map_island_space_must_be_an_open_sea_hex(game, space):
    """"What's on the Map?": islands are found in open-sea spaces."""
    with pytest.raises(InvalidCommand):
        game({"provinces": [{"colour": "red"}, {"colour": "blue"}],
              "islands": [island("isle", space=space)]})


def test_map_two_islands_cannot_share_a_hex(game):
    """Each open-sea space holds at most one island."""
    with pytest.raises(InvalidCommand, match="already occupies"):
        game({"provinces": [{"colour": "red"}, {"colour": "blue"}],
              "islands": [island("a", space="(2, 3, 5)"), island("b", space="(2, 3, 5)")]})
