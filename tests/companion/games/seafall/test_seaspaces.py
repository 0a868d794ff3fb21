"""A ship at sea named by the board, not the map's labels (rulebook, "What's on the Map?":
the coastal waters, the open sea): the table's view says where it is for the pages."""

from __future__ import annotations

import pytest
from seafall_driver import island

from companion.games.seafall.seaspaces import sea_name


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


ISLES = [island("isle", name="Iron isle", space="(2, 3, 5)"),
         island("rock", name="Rock", space="(1, 2, 3)")]


@pytest.mark.parametrize(("ships", "path", "lang", "line"), [
    pytest.param([{}], ["coastal_waters"], "en",
                 "Blue ship 1 sails from Blue province to the coastal waters (1 space of 3).",
                 id="into the coastal waters"),
    pytest.param([{}], ["coastal_waters"], "fr",
                 "Bateau bleu 1 navigue de la province bleue à la zone côtière (1 zone sur 3).",
                 id="into the coastal waters, in French"),
    pytest.param([{"location": "(1, 3, 4)"}], ["(0, 3, 3)"], "en",
                 "Blue ship 1 sails from the open sea 1 space from Iron isle and Rock to the "
                 "open sea 1 space from Rock (1 space of 3).", id="on the open sea"),
    pytest.param([{"location": "(1, 3, 4)"}], ["(0, 3, 3)"], "fr",
                 "Bateau bleu 1 navigue de la zone de mer à 1 zone d’Iron isle et Rock à la "
                 "zone de mer à 1 zone de Rock (1 zone sur 3).", id="on the open sea, in French"),
    pytest.param([{"location": "(1, 4, 5)"}], ["(2, 4, 6)"], "en",
                 "Blue ship 1 sails on the open sea to another space 1 space from Iron isle "
                 "(1 space of 3).", id="between two spaces as near the same island"),
    pytest.param([{"location": "(1, 4, 5)"}], ["(2, 4, 6)"], "fr",
                 "Bateau bleu 1 navigue en mer vers une autre zone de mer à 1 zone d’Iron isle "
                 "(1 zone sur 3).", id="between two spaces as near the same island, in French"),
    pytest.param([{"location": "green_harbor"}], ["coastal_waters"], "en",
                 "Blue ship 1 sails from the green home harbor to the coastal waters "
                 "(1 space of 3).", id="from a home harbor no province holds"),
    pytest.param([{"location": "green_harbor"}], ["coastal_waters"], "fr",
                 "Bateau bleu 1 navigue du port d’attache vert à la zone côtière "
                 "(1 zone sur 3).", id="from a home harbor no province holds, in French"),
])
def test_the_history_says_where_a_ship_sails_at_sea(game, ships, path, lang, line):
    """The history named a ship's place at sea by the map's label ("sails from Blue province
    to coastal_waters", "from (1, 3, 4)"); given the table's state it says it as the
    province card does. What is stored, and the line without a state (``tableside play``,
    the golden transcripts), keep the label."""
    g = game({"provinces": [{"colour": "blue", "ships": ships}, {"colour": "red"}],
              "islands": ISLES})
    g.do("hire_guild", guild="explorers")
    start = g.state.ships["blue-1"].location
    (sailed,) = [e for e in g.do("sail", moves=[{"ship": "blue-1", "path": path}])
                 if e.type == "ShipSailed"]
    assert (sailed.payload["start"], sailed.payload["to"]) == (start, path[-1])  # as stored
    assert g.engine.describe(sailed, lang, g.state) == line
    assert path[-1] in g.engine.describe(sailed, lang)


@pytest.mark.parametrize(("lang", "line"), [
    pytest.param("en", "Blue ship 1 sails on the open sea to another space (1 space of 3).",
                 id="English"),
    pytest.param("fr", "Bateau bleu 1 navigue en mer vers une autre zone de mer "
                       "(1 zone sur 3).", id="French"),
])
def test_the_history_says_a_ship_sails_on_where_no_island_is_known(game, lang, line):
    """With no island on the map both ends are "the open sea": said as another space."""
    g = game({"provinces": [{"colour": "blue", "ships": [{"location": "(1, 4, 5)"}]},
                            {"colour": "red"}]})
    g.do("hire_guild", guild="explorers")
    (sailed,) = [e for e in g.do("sail", moves=[{"ship": "blue-1", "path": ["(2, 4, 6)"]}])
                 if e.type == "ShipSailed"]
    assert g.engine.describe(sailed, lang, g.state) == line


def test_a_space_at_sea_is_said_from_its_kind_only():
    """A space that is not at sea is refused, not named by a guess."""
    with pytest.raises(ValueError, match="not a space at sea"):
        sea_name({"kind": "island"}, str)
