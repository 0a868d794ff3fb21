"""Setup options from outside, damaged one change at a time (hypothesis).

A setup comes from a phone (``POST /api/tables``), a script's first line, or a campaign's
ledger, which a campaign file from elsewhere brings in. Whatever is changed in it, the setup
is refused with a reason (``InvalidCommand``), or the game it sets up stores, gives its
prompts, and shows on the campaign page. Before, a ``components`` kind that was not a list
raised ``TypeError``, and a record entry with a glory of ``"x"`` or ``NaN`` was kept.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.campaigns import record_game, start_campaign, start_next_game
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.campaign import campaign_milestone_glory, campaign_summary
from companion.games.seafall.engine import SeaFall
from companion.games.seafall.setup import COLOURS, demo_options
from companion.store.sqlite import MEMORY, SQLiteStore
from companion.table import Table
from tests.companion.test_campaigns import play_out, script
from tests.support.damage import damaged


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The ledger after the whole-game transcript: a record, components, carried islands."""
    with SQLiteStore(Path(tmp_path_factory.mktemp("ledger")) / "c.sqlite3") as store:
        setup, lines = script()
        campaign = start_campaign(store, "C", "seafall", setup)
        play_out(start_next_game(store, campaign.id), lines)
        return record_game(store, campaign.id).ledger


def check(options: dict[str, Any]) -> None:
    """Refused with a reason, or a game that stores, prompts and summarises."""
    with SQLiteStore(MEMORY) as store:
        try:
            table = Table.create(store, "seafall", options)
        except (InvalidCommand, IllegalCommand):
            return
        state = table.state
        assert table.engine.prompts(state) is not None
        assert Table.open(store, table.session_id).state == state
        json.dumps(campaign_summary(options), allow_nan=False)
        assert set(campaign_milestone_glory(state.record)) <= set(COLOURS)  # the Emperor's
        assert all(isinstance(v, int) for v in  # tie-break, read in the last game
                   campaign_milestone_glory(state.record).values())


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_damaged_setup_is_refused_or_plays(data: st.DataObject) -> None:
    options, _ = data.draw(damaged(demo_options()))
    check(options)


@pytest.mark.parametrize("under", ["components", "record", "provinces", "islands",
                                   "milestones", "treasures", "retired_advisors", None])
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_damaged_ledger_is_refused_or_plays(ledger: dict[str, Any], under: str | None,
                                              data: st.DataObject) -> None:
    options, _ = data.draw(damaged(ledger, under))
    check(options)


CHANGES = [{"join": {"colour": "gray", "player": "Dan", "advisor": "Advanced Scout",
                     "ships": ["gray-1:sail"], "improvements": []}},
           {"leave": {"colour": "red"}}]
"""A player joins after one game, another leaves (rulebook, "Changing the number of players
in your campaign"): these read the ledger before the setup checks it."""


def test_the_changes_of_players_play_on_the_ledger(ledger: dict[str, Any]) -> None:
    state = SeaFall().setup({**ledger, "campaign_changes": CHANGES})[0].payload["state"]
    assert [p["colour"] for p in state["provinces"].values()] == ["green", "blue", "gray"]


@pytest.mark.parametrize("under", ["provinces", "advisor_deck", "components", "record",
                                   "campaign_changes"])
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_damaged_ledger_with_changes_of_players_is_refused_or_plays(
        ledger: dict[str, Any], under: str, data: st.DataObject) -> None:
    """A campaign glory of "x" raised ValueError in the changes, an advisor deck holding a
    list TypeError: they ran on the ledger before the setup had checked it."""
    options, _ = data.draw(damaged({**ledger, "campaign_changes": CHANGES}, under))
    check(options)


@pytest.mark.parametrize("change, message", [
    pytest.param({"components": {"advisors": 3}}, "'advisors' is a list of entries",
                 id="a components kind that is not a list (TypeError before)"),
    pytest.param({"components": {"advisor": []}}, "unknown kinds of component: advisor",
                 id="a components kind misspelt"),
    pytest.param({"record": [{"game": 1, "glory": {"red": "x"}}]},
                 "'record' entry 1: 'glory' must be an object of colours to whole numbers",
                 id="a glory that is not a number"),
    pytest.param({"record": [{"game": 1}, {"game": 2, "milestone_glory": [1]}]},
                 "'record' entry 2: 'milestone_glory' must be",
                 id="milestone glory that is not by colour (crowning raised AttributeError)"),
    pytest.param({"record": [{"event": "married", "province": "red", "before_game": 2}]},
                 "'event' must be one of joined, returned, left", id="an unknown event"),
    pytest.param({"record": [{"glory": {"red": 1}}]}, "needs 'game'", id="no game, no event"),
    pytest.param({"record": [{"game": 1, "glroy": {}}]}, "unknown keys glroy",
                 id="a record key misspelt"),
    pytest.param({"record": {"game": 1}}, "is a list of objects", id="a record not a list"),
    pytest.param({"islands": [{"id": "x", "effects": [{"effect": "stat", "stat": None}]}]},
                 "effect 'stat' needs stat",
                 id="a required field null (set up, then the state would not load)"),
    pytest.param({"islands": [{"id": "x", "effects": [{"effect": "note", "text": 5}]}]},
                 "effect 'note': text must be text", id="a text field not text"),
])
def test_components_record_and_effects_are_checked(change: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidCommand, match=message):
        SeaFall().setup({**demo_options(), **change})


@pytest.mark.parametrize("where, key", [
    pytest.param(lambda o: o["provinces"][0], "goldd", id="province"),
    pytest.param(lambda o: o["provinces"][2]["ships"][0], "sial", id="ship"),
    pytest.param(lambda o: o["islands"][0], "garisson", id="island"),
    pytest.param(lambda o: o["islands"][0]["sites"][1], "valeu", id="site"),
])
def test_a_misspelt_key_is_refused_not_passed_over(where: Any, key: str) -> None:
    """docs/commands.md, "Setup": a key that is not listed is refused at every level."""
    options = demo_options()
    where(options)[key] = 12
    with pytest.raises(InvalidCommand, match=f"unknown keys {key} "):
        SeaFall().setup(options)
