"""Recording an explored site's sticker (record_site): only a site waiting for it, by any
player at the table, and a mine's gold as the game uses it.

Rulebook, "Explorers Guild" > "Explore": a successful explore reads the Captain's Booke, which
says which exploration sticker goes on the site, over the symbol of the site just explored
(one sticker, placed once). "What's on the Islands?" (p. 17, as the rulebook's cross-references
say): goods, mines, docks, markets; raiding a mine gives the gold printed on its sticker
("Soldiers Guild" > "Raid" > Mine, p. 18). "Game Carryover" > Islands: explored sites are
permanent. The rulebook and RULES-FACTS.md give no mine values, so a mine's gold is what the
phone's form takes, 0 to 20 (web/static/js/explored.js; docs/seafall.md).

QA found record_site open to anyone at any time: Red rewrote a market as an iron good site,
a site on another island, and a mine of 1000000000000 gold.
"""

from __future__ import annotations

import pytest
from seafall_driver import island

from companion.engine import Command
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.codec import dump, load
from companion.games.seafall.engine import SeaFall
from companion.games.seafall.state import SeaFallState
from companion.table import Table

ISLE_B = island("isle-b", name="Example isle B", sites=[
    {"name": "1", "symbol": "sun", "defense": 1},
    {"name": "2", "kind": "market", "colour": "iron", "defense": 2},
    {"name": "3", "kind": "explored", "defense": 2},  # explored in an earlier game
])
ISLE_A = island("isle-a", name="Example isle A", sites=[{"name": "1", "symbol": "anchor",
                                                         "defense": 2}])


def options() -> dict:
    return {"provinces": [{"colour": "red", "player": "Ann", "ships": [{"location": "isle-b"}]},
                          {"colour": "blue", "player": "Bob"}],
            "islands": [ISLE_B, ISLE_A]}


def explored(game):
    """Ann (Red) explores site 1 of Example isle B: every die a success, defense 1."""
    g = game(options())
    g.do("hire_guild", "red", guild="explorers")
    g.do("explore", "red", flagship="red-1", site="isle-b/1")
    g.roll(*(["standard"] * g.state.endeavor.dice))
    assert g.types()[-2:] == ["SiteExplored", "EndeavorEnded"]
    return g


def refused(g, actor: str | None, **args: object) -> str:
    with pytest.raises(IllegalCommand) as caught:
        g.do("record_site", actor, **args)
    return str(caught.value)


def invalid(g, actor: str | None, **args: object) -> str:
    with pytest.raises(InvalidCommand) as caught:
        g.do("record_site", actor, **args)
    return str(caught.value)


def test_any_player_records_what_the_explore_found(game):
    """"Explorers Guild" > "Explore": the site explored waits for its sticker. The sticker
    lies on the board for all to see, so any player at the table may tell it (the
    explorer's phone may be away), on any turn; then it is no longer waiting."""
    g = explored(game)
    assert g.state.sites["isle-b/1"].kind == "explored"
    g.do("end_turn", "red")
    assert g.state.turn.player == "blue"
    g.do("record_site", "blue", site="isle-b/1", kind="mine", value=20)
    site = g.state.sites["isle-b/1"]
    assert (site.kind, site.value) == ("mine", 20)
    assert g.replayed() == g.state  # the events alone rebuild it (undo replays them)


def test_the_table_may_record_it_too(game):
    g = explored(game)
    g.do("record_site", None, site="isle-b/1", kind="good", colour="wood", good_present=True)
    site = g.state.sites["isle-b/1"]
    assert (site.kind, site.colour, site.good_present) == ("good", "wood", True)


@pytest.mark.parametrize(("site", "english"), [
    pytest.param("isle-b/2", "site 2 of Example isle B is already recorded as a market",
                 id="a market rewritten as a good site"),
    pytest.param("isle-a/1", "site 1 of Example isle A has not been explored yet",
                 id="another island, never explored"),
])
def test_only_a_site_waiting_for_its_sticker_is_recorded(game, site, english):
    """QA's cases: during Ann's turn, after her explore, record_site on a market of the
    same island and on an unexplored site of another island ("Game Carryover" > Islands:
    explored sites are permanent; a sticker goes only on a site just explored)."""
    g = explored(game)
    for actor in ("red", "blue", None):  # neither a player nor the table
        assert refused(g, actor, site=site, kind="good", colour="iron") == english
    assert g.state.sites["isle-b/2"].colour == "iron"


def test_a_recorded_site_is_not_recorded_again(game):
    g = explored(game)
    g.do("record_site", "red", site="isle-b/1", kind="mine", value=4)
    assert refused(g, "red", site="isle-b/1", kind="mine", value=20) == \
        "site 1 of Example isle B is already recorded as a mine"
    assert refused(g, None, site="isle-b/1", kind="other") == \
        "site 1 of Example isle B is already recorded as a mine"
    assert g.state.sites["isle-b/1"].value == 4


def test_a_site_explored_before_this_game_is_recorded_once(game):
    """A site the setup gives as explored (an earlier game's, its sticker not entered) waits
    for its sticker as well: recorded once."""
    g = explored(game)
    g.do("record_site", "blue", site="isle-b/3", kind="good", colour="linen")
    assert g.state.sites["isle-b/3"].kind == "good"
    assert refused(g, "red", site="isle-b/3", kind="other") == \
        "site 3 of Example isle B is already recorded as a good site"


@pytest.mark.parametrize("value", [
    pytest.param(1_000_000_000_000, id="QA's trillion"),
    pytest.param(21, id="just above"),
    pytest.param(-5, id="negative"),
    pytest.param(2.5, id="fraction"),
    pytest.param(True, id="boolean"),
    pytest.param("5", id="text"),
    pytest.param(None, id="missing"),
])
def test_a_mines_gold_is_a_whole_number_from_0_to_20(game, value):
    """"What's on the Islands?" > Mine: the gold printed on the sticker. No value is given
    by the rulebook or RULES-FACTS.md: 0-20, as the phone's form (docs/seafall.md)."""
    g = explored(game)
    args = {"site": "isle-b/1", "kind": "mine"}
    if value is not None:
        args["value"] = value
    assert invalid(g, "red", **args) == \
        "a mine's gold 'value' must be a whole number from 0 to 20"
    assert g.state.sites["isle-b/1"].kind == "explored"


@pytest.mark.parametrize("value", [0, 20])
def test_a_mines_gold_may_be_0_or_20(game, value):
    g = explored(game)
    g.do("record_site", "red", site="isle-b/1", kind="mine", value=value)
    assert g.state.sites["isle-b/1"].value == value


def test_a_record_is_undone_and_the_site_waits_again():
    """record_site is undone like any command: the site waits for its sticker again, and a
    snapshot of the waiting state loads as it was (codec round trip)."""
    with Table.in_memory("seafall", {"start_at": "turn", **options()}) as table:
        for cmd in (Command("hire_guild", {"guild": "explorers"}, "red"),
                    Command("explore", {"flagship": "red-1", "site": "isle-b/1"}, "red")):
            table.apply(cmd)
        dice = table.state.endeavor.dice
        table.apply(Command("roll", {"faces": ["standard"] * dice}, "red"))
        waiting = table.state
        assert load(SeaFallState, dump(waiting)) == waiting
        table.apply(Command("record_site", {"site": "isle-b/1", "kind": "other"}, "red"))
        assert table.state.sites["isle-b/1"].kind == "other"
        table.undo("red")
        assert table.state.sites["isle-b/1"].kind == "explored"
        SeaFall().decide(table.state, Command("record_site", {"site": "isle-b/1",
                                                              "kind": "other"}, "blue"))
