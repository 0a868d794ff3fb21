"""A session export edited by hand: refused on import, or a game that plays on.

``tableside sessions import`` checks that an export's records replay
(:func:`companion.table.check_replays`). The ``GameSetUp`` event carries the whole state,
and the other events carry the values their handlers write into it. Before, neither was
checked beyond replaying: a ship taken out of the state that a province still listed, a
gold of ``"x"`` or a turn for player ``false`` imported, and the table then raised
``KeyError`` or ``TypeError`` on a later command or page. Now the codec checks every value's
type (``codec.load``), the state's parts must name only what is there
(``integrity.check_state``), and every state the replay reaches must load back.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_random_play import demo_with_war, step

from companion.engine import Command
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.codec import dump, load
from companion.games.seafall.integrity import check_state, load_state
from companion.games.seafall.state import Province, SeaFallState
from companion.store.errors import MalformedExport
from companion.store.export import parse
from companion.store.sqlite import MEMORY, SQLiteStore
from companion.table import Table, check_replays, replay
from tests.support.damage import damaged


class _Playing:
    """A table driven by ``test_random_play.step`` (which drives an engine test's Game)."""

    def __init__(self, table: Table) -> None:
        self.table, self.engine = table, table.engine

    @property
    def state(self) -> SeaFallState:
        return self.table.state

    def do(self, type_: str, **args: Any) -> None:
        self.table.apply(Command(type_, args))


@pytest.fixture(scope="module")
def export() -> dict[str, Any]:
    """A game in a turn, played on for 40 random steps (endeavors, rolls, turns ended)."""
    with SQLiteStore(MEMORY) as store:
        table = Table.create(store, "seafall", {"start_at": "turn", **demo_with_war()})
        playing, rnd = _Playing(table), random.Random(7)
        for _ in range(40):
            step(playing, rnd)
        return store.export_session(table.session_id)


def imported_then_played(doc: dict[str, Any], seed: int) -> bool:
    """False if the import refuses the export; else it plays 40 random steps, each command
    refused with a reason or applied, and every view of the state drawn."""
    try:
        info, records = parse(doc)
        check_replays(info, records)
    except MalformedExport:
        return False
    with SQLiteStore(MEMORY) as store:
        store.import_session(doc)
        table = Table.open(store, info.id)
        playing, rnd = _Playing(table), random.Random(seed)
        for _ in range(40):
            table.engine.view(table.state, None)
            if table.state.game_over:
                break
            try:
                step(playing, rnd)
            except (IllegalCommand, InvalidCommand):
                break
    return True


def _setup_state(doc: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = doc["records"][0]["events"][0]["payload"]["state"]
    return state


def _first(doc: dict[str, Any], event_type: str) -> dict[str, Any]:
    payload: dict[str, Any] = next(e["payload"] for r in doc["records"][1:]
                                   for e in r["events"] if e["type"] == event_type)
    return payload


EDITS: dict[str, Callable[[dict[str, Any]], None]] = {
    "a ship gone that its province lists": lambda d: _setup_state(d)["ships"].pop("blue-2"),
    "a harbor gone that ships are in": lambda d: _setup_state(d)["regions"].pop("green"),
    "the astrolabe with no one": lambda d: _setup_state(d).update(astrolabe="!"),
    "the glory target null": lambda d: _setup_state(d).update(glory_target=None),
    "a gold of 'x'": lambda d: _setup_state(d)["provinces"]["red"].update(gold="x"),
    "a turn for player false": lambda d: _first(d, "TurnStarted").update(player=False),
    "a guild that is a list": lambda d: _first(d, "GuildHired").update(guild=["x"]),
}


@pytest.mark.parametrize("edit", list(EDITS), ids=list(EDITS))
def test_an_edit_found_by_the_fuzz_is_refused_on_import(export: dict[str, Any],
                                                        edit: str) -> None:
    """Each of these imported before, and a command or the page then raised (``KeyError``,
    ``TypeError``, ``ValueError: '!' is not in list``)."""
    doc = copy.deepcopy(export)
    EDITS[edit](doc)
    with pytest.raises(MalformedExport, match="they do not replay as a seafall game"):
        check_replays(*parse(doc))


def test_the_export_as_written_imports_and_plays(export: dict[str, Any]) -> None:
    assert imported_then_played(copy.deepcopy(export), seed=1)


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), seed=st.integers(0, 2**31))
def test_a_damaged_setup_state_is_refused_or_plays(export: dict[str, Any],
                                                   data: st.DataObject, seed: int) -> None:
    doc = copy.deepcopy(export)
    state, _ = data.draw(damaged(_setup_state(doc)))
    doc["records"][0]["events"][0]["payload"]["state"] = state
    imported_then_played(doc, seed)


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), seed=st.integers(0, 2**31))
def test_a_damaged_event_is_refused_or_plays(export: dict[str, Any], data: st.DataObject,
                                             seed: int) -> None:
    doc = copy.deepcopy(export)
    event = data.draw(st.sampled_from(
        [e for r in doc["records"][1:] for e in r["events"] if e["payload"]]))
    event["payload"], _ = data.draw(damaged(event["payload"]))
    imported_then_played(doc, seed)


# -- the checks themselves ------------------------------------------------------------------


def test_the_codec_names_a_value_of_the_wrong_kind(export: dict[str, Any]) -> None:
    data = copy.deepcopy(_setup_state(export))
    assert load(SeaFallState, data) == load_state(data)  # as written, it loads
    for path, value, message in [
        (("provinces", "red", "gold"), "x", 'state.provinces.red.gold: a whole number, not "x"'),
        (("provinces", "red", "gold"), True, "state.provinces.red.gold: a whole number, not true"),
        (("provinces", "red", "player"), None, "state.provinces.red.player: a string, not null"),
        (("provinces", "red", "council"), {}, "state.provinces.red.council: a list, not {}"),
        (("supply", "goods"), [], "state.supply.goods: an object, not []"),
        (("game_over",), 0, "state.game_over: true or false, not 0"),
    ]:
        bad = copy.deepcopy(data)
        node = bad
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        with pytest.raises(ValueError, match=f"^{message}$".replace("[", r"\[")):
            load_state(bad)
    del data["provinces"]["red"]["player"]
    with pytest.raises(ValueError, match=r"^state.provinces.red: player is missing$"):
        load(SeaFallState, data)


def test_a_key_the_state_does_not_have_is_passed_over(export: dict[str, Any]) -> None:
    """A state written before a field was dropped still loads."""
    data = copy.deepcopy(_setup_state(export))
    data["provinces"]["red"]["dropped_field"] = 3
    assert load(Province, data["provinces"]["red"]) == load_state(data).provinces["red"]


@pytest.mark.parametrize(("edit", "message"), [
    (lambda s: s.seating.append("red"), "seating: a province is seated twice"),
    (lambda s: s.seating.append("pink"), "seating: no province 'pink' in the state"),
    (lambda s: setattr(s, "astrolabe", "pink"), "astrolabe: 'pink' is not seated"),
    (lambda s: setattr(s.ships["red-1"], "owner", "blue"),
     "provinces.red.ships: 'red-1' belongs to 'blue'"),
    (lambda s: setattr(s.ships["red-1"], "location", "nowhere"),
     "ships.red-1.location: no region or map space 'nowhere' in the state"),
    (lambda s: s.regions["red"].sites.append("red/moon"),
     "regions.red.sites: no site 'red/moon' in the state"),
    (lambda s: s.provinces["red"].at_war_with.update(pink=1),
     "provinces.red.at_war_with: no province 'pink' in the state"),
    (lambda s: s.provinces.update(pink=s.provinces["red"]), "provinces.pink: its colour is 'red'"),
])
def test_a_state_naming_what_is_not_there_is_refused(export: dict[str, Any],
                                                     edit: Callable[[SeaFallState], None],
                                                     message: str) -> None:
    state = load_state(_setup_state(export))
    check_state(state)
    edit(state)
    with pytest.raises(ValueError, match=message):
        check_state(state)
    with pytest.raises(ValueError, match=message):
        load_state(dump(state))


def test_the_replay_check_looks_at_every_state_reached() -> None:
    """Not only the last: a command undone leaves a state that a redo reaches again."""
    with SQLiteStore(MEMORY) as store:
        table = Table.create(store, "seafall", {"start_at": "turn", **demo_with_war()})
        table.apply(Command("hire_guild", {"guild": "explorers"}))
        table.undo()
        doc = store.export_session(table.session_id)
    check_replays(*parse(copy.deepcopy(doc)))
    _first(doc, "GuildHired").update(guild=["x"])
    info, records = parse(doc)
    assert replay(table.engine, records).state.turn.guild is None  # the last state is sound
    with pytest.raises(MalformedExport, match=r"record 1: ValueError: state.turn.guild: "
                                              r"a string, not \["):
        check_replays(info, records)
