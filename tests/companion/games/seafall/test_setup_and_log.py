"""Setup validation, the demo table, the readable log."""

from __future__ import annotations

import pytest

from companion.engine import Event, fold
from companion.errors import InvalidCommand, SetupRefused
from companion.games.seafall.engine import SeaFall
from companion.games.seafall.evolve import HANDLERS
from companion.games.seafall.log import _TEMPLATES, describe
from companion.games.seafall.setup import demo_options


def test_default_setup_follows_the_starting_components():
    """RULES-FACTS: two ships (Sail 3/Raid 2 and Sail 2/Raid 3, Explore 2, Hold 2), 8 enmity
    tokens, 10 goods of each colour, home province garrison 1, defense 5, dangerous."""
    engine = SeaFall()
    state = fold(engine, engine.setup({}))
    assert state.seating == ["blue", "green", "red"]
    a, b = state.province_ships("red")
    assert (a.sail, a.raid, a.explore, a.hold) == (3, 2, 2, 2)
    assert (b.sail, b.raid, b.explore, b.hold) == (2, 3, 2, 2)
    assert a.location == "red"
    assert state.provinces["red"].home_enmity == 8
    assert state.supply.goods == {"wood": 10, "linen": 10, "spice": 10, "iron": 10}
    region = state.regions["red"]
    assert (region.garrison, region.defense, region.dangerous) == (1, 5, True)
    assert state.sites["red/field-1"].value == 4


def test_demo_setup_is_valid():
    engine = SeaFall()
    state = fold(engine, engine.setup(demo_options()))
    assert set(state.provinces) == {"blue", "green", "red"}
    assert engine.prompts(state)[0].command == "hire_guild"


@pytest.mark.parametrize("options, match", [
    pytest.param({"provinces": [{"colour": "red"}]}, "3 to 5", id="too few provinces"),
    pytest.param({"provinces": [{"colour": "red"}, {"colour": "red"}]}, "twice",
                 id="same colour twice"),
    pytest.param({"provinces": [{"colour": "pink"}, {"colour": "red"}]}, "colour",
                 id="unknown colour"),
    pytest.param({"provinces": [{"colour": "red", "advisors": ["Nobody"]}, {"colour": "blue"}]},
                 "unknown advisor", id="unknown advisor"),
    pytest.param({"provinces": [{"colour": "red", "ships": [{"upgrades": ["Wings"]}]},
                                {"colour": "blue"}]}, "unknown upgrade", id="unknown upgrade"),
    pytest.param({"islands": [{"id": "x", "sites": [{"kind": "mine"}]}]}, "gold 'value'",
                 id="mine without value"),
    pytest.param({"islands": [{"id": "x", "effects": [{"effect": "fly"}]}]}, "unknown effect",
                 id="unknown effect"),
    pytest.param({"provinces": [{"colour": "red", "ships": [{"location": "atlantis"}]},
                                {"colour": "blue"}]}, "unknown location", id="ship nowhere"),
    pytest.param({"first_player": "gray"}, "first_player", id="first player not in game"),
    pytest.param({"board": 1}, "unknown setup options", id="unknown option"),
    pytest.param({"provinces": [{"colour": "red", "gold": -1}, {"colour": "blue"}]},
                 "gold", id="negative gold"),
])
def test_bad_setup_is_refused_with_the_reason(options, match):
    with pytest.raises(InvalidCommand, match=match):
        SeaFall().setup(options)


def test_a_start_in_a_turn_takes_two_provinces_and_no_more_than_five():
    two = [{"colour": "red"}, {"colour": "blue"}]
    assert SeaFall().setup({"provinces": two, "start_at": "turn"})
    six = [{"colour": c} for c in ("blue", "green", "gray", "red", "yellow", "purple")]
    with pytest.raises(SetupRefused, match="2 to 5 provinces") as refused:
        SeaFall().setup({"provinces": six, "start_at": "turn"})
    assert refused.value.code == "provinces_in_turn"


THREE = ("blue", "green", "red")


@pytest.mark.parametrize("players, code", [
    pytest.param(["x" * 5000, "Bo", "Cy"], "player_name", id="a name of 5000 characters"),
    pytest.param(["x" * 41, "Bo", "Cy"], "player_name", id="41 characters"),
    pytest.param(["   ", "Bo", "Cy"], "player_name", id="only spaces"),
    pytest.param(["Paul", " paul ", "Cy"], "same_player", id="the same name, another case"),
    pytest.param(["Red", "Bo", None], "same_player", id="the name of another's colour"),
])
def test_a_new_games_players_are_named_as_the_join_names_them(players, code):
    """The join's rule (trimmed, 1 to 40 characters) and no two players alike: a player
    is named by their name as well as their colour."""
    provinces = [{"colour": c, **({"player": p} if p is not None else {})}
                 for c, p in zip(THREE, players, strict=True)]
    with pytest.raises(SetupRefused) as refused:
        SeaFall().setup({"provinces": provinces})
    assert refused.value.code == code
    if code == "same_player":  # the second one's name, as it is shown
        assert refused.value.values["name"] in ("paul", "Red")


def test_a_new_games_names_are_trimmed_and_may_be_forty_characters():
    players = ["  Ann  ", "y" * 40, "Bo\u202e"]
    engine = SeaFall()
    state = fold(engine, engine.setup({"provinces": [
        {"colour": c, "player": p} for c, p in zip(THREE, players, strict=True)]}))
    assert [state.provinces[c].player for c in THREE] == ["Ann", "y" * 40, "Bo\u202e"]


def test_a_campaigns_ledger_from_before_is_read_as_it_is():
    """The names are checked when a game is set up, not when a ledger kept from before the
    check is read (the campaign page)."""
    from companion.games.seafall.setup import initial_state

    state = initial_state({"provinces": [{"colour": c, "player": "Same"} for c in THREE]})
    assert {p.player for p in state.provinces.values()} == {"Same"}


def test_components_can_be_added_at_setup():
    """Legacy boxes bring new cards: a new advisor is usable from its data alone."""
    engine = SeaFall()
    state = fold(engine, engine.setup({
        "components": {"advisors": [{"name": "Old Salt", "guild": "explorers", "gold": 2,
                                     "expertise": {"explore": 2}}]},
        "provinces": [{"colour": "red", "active_advisor": "Old Salt"}, {"colour": "blue"},
                      {"colour": "green"}],
    }))
    assert state.catalogue.advisors["Old Salt"].expertise == {"explore": 2}


def test_every_event_has_a_readable_sentence():
    assert set(HANDLERS) | {"GameSetUp"} <= set(_TEMPLATES)
    text = describe(Event("GloryChanged", {"player": "red", "amount": -2, "reason": "sank"}))
    assert text == "Red loses 2 glory (sank)."


def test_every_command_is_documented_with_an_example():
    """docs/commands.md (and docs/seafall-actions.md for the guild actions) cover every
    command of the engine."""
    from pathlib import Path

    from companion.games.seafall.engine import COMMANDS

    docs = Path(__file__).parents[4] / "docs"
    text = (docs / "commands.md").read_text() + (docs / "seafall-actions.md").read_text()
    assert [c for c in COMMANDS if f"`{c}`" not in text] == []


def test_titles_are_named_as_the_pages_name_them():
    """The end of the game's titles (rulebook, "End of Game" step 7) read as the pages name
    them, where the history showed the ids ("Ann -> prince")."""
    ranked = Event("TitlesRanked", {"blocks": [{"players": ["blue"], "titles": ["prince"]},
                                               {"players": ["red", "green"],
                                                "titles": ["duke", "count"]}]})
    assert describe(ranked) == ("Titles by campaign glory: Blue: Prince/Princess; "
                                "Red/Green: Duke/Duchess or Count/Countess.")
    assert describe(ranked, "fr") == ("Rangs selon la gloire de campagne : Bleu : "
                                      "Prince/Princesse ; Rouge/Vert : Duc/Duchesse ou "
                                      "Comte/Comtesse.")
    assert describe(Event("TitleChosen", {"player": "red", "title": "duke"})) == \
        "Red is now Duke/Duchess."


def test_an_article_before_a_good_or_a_component_that_begins_with_a_vowel():
    """"Ann sells a iron", "A event enters the game" were not English."""
    sold = Event("GoodSold", {"player": "red", "good": "iron", "source": "warehouse",
                              "region": "red", "gold": 6, "bonus": 0})
    assert describe(sold).startswith("Red sells an iron from warehouse")
    added = Event("ComponentAdded", {"kind": "event", "card": {"name": "Pirates"}})
    assert describe(added) == "An event enters the game: Pirates."
