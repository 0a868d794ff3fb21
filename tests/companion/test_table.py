"""The table session: apply, refusals that write nothing, undo/redo, reopen, history."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.engine import Command, Event
from companion.errors import IllegalCommand, InvalidCommand
from companion.prompts import ChoicePrompt
from companion.store import COMMAND_REDONE, COMMAND_UNDONE, SQLiteStore, VersionConflict
from companion.table import Table, replay
from tests.support import tally
from tests.support.clock import FakeClock

PLAYERS = {"players": ["red", "blue"], "goal": 100}


def add(player: str, amount: int = 1) -> Command:
    return Command("add", {"player": player, "amount": amount}, player)


def subtract(player: str, amount: int = 1) -> Command:
    return Command("subtract", {"player": player, "amount": amount}, player)


@pytest.fixture(autouse=True)
def _tally() -> None:
    tally.register()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    with SQLiteStore(tmp_path / "t.sqlite3", clock=FakeClock(), snapshot_every=3) as s:
        yield s


@pytest.fixture
def table(store: SQLiteStore) -> Table:
    return Table.create(store, "tally", PLAYERS, actor="host")


def counters(table: Table) -> dict[str, int]:
    return dict(table.state.counters)


def _log_size(table: Table) -> tuple[int, int]:
    return len(table.store.records(table.session_id)), table.store.version(table.session_id)


def test_table_create_records_the_setup(table: Table) -> None:
    assert (table.game, table.version, table.last_command) == ("tally", 1, 0)
    assert counters(table) == {"red": 0, "blue": 0}
    assert not table.can_undo and not table.can_redo
    [setup] = table.history()
    assert (setup.record.kind.value, setup.record.actor, dict(setup.record.args)) == (
        "setup", "host", PLAYERS)
    assert [e.type for e in table.events()] == ["GameStarted"]


def test_table_create_refuses_bad_options_and_writes_nothing(store: SQLiteStore) -> None:
    with pytest.raises(InvalidCommand, match="distinct names"):
        Table.create(store, "tally", {"players": ["red", "red"]})
    assert store.sessions() == []


def test_table_create_names_an_unknown_game(store: SQLiteStore) -> None:
    with pytest.raises(KeyError, match="unknown game 'chess'"):
        Table.create(store, "chess", {})


def test_table_apply_returns_the_committed_events(table: Table) -> None:
    events = table.apply(add("red", 3))
    assert [(e.seq, e.command_no, e.type, dict(e.payload), e.actor) for e in events] == [
        (2, 1, "CounterRaised", {"player": "red", "amount": 3}, "red")]
    assert table.store.events(table.session_id, after=1) == events
    assert (table.version, counters(table)) == (2, {"red": 3, "blue": 0})


@pytest.mark.parametrize(
    ("command", "error", "message"),
    [
        pytest.param(Command("fly", {}), InvalidCommand, "unknown command 'fly'",
                     id="unknown command type"),
        pytest.param(add("purple"), InvalidCommand, "no player 'purple'", id="unknown player"),
        pytest.param(Command("add", {"player": "red", "amount": "3"}), InvalidCommand,
                     "positive integer", id="amount not a number"),
        pytest.param(subtract("red", 1), IllegalCommand, "red has 0; taking 1",
                     id="going below zero"),
    ],
)
def test_table_refused_command_writes_nothing(
        table: Table, command: Command, error: type[Exception], message: str) -> None:
    table.apply(add("blue"))
    state, before = table.state, _log_size(table)
    with pytest.raises(error, match=message):
        table.apply(command)
    assert table.state == state
    assert _log_size(table) == before
    assert table.version == before[1]


def test_table_engine_failure_in_evolve_writes_nothing(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    before = _log_size(table)

    def broken(state: object, event: Event) -> object:
        raise RuntimeError("engine bug")

    monkeypatch.setattr(table.engine, "evolve", broken)
    with pytest.raises(RuntimeError, match="engine bug"):
        table.apply(add("red"))
    assert _log_size(table) == before


def test_table_apply_then_undo_equals_the_state_before(table: Table) -> None:
    table.apply(add("red", 2))
    before = table.state
    table.apply(Command("add_all", {"amount": 3}))
    table.undo(actor="blue")
    assert table.state == before
    assert table.can_redo


def test_table_undo_and_redo_are_recorded_and_bump_the_version(table: Table) -> None:
    table.apply(add("red"))
    after = table.state
    [undone] = table.undo(actor="blue")
    assert (undone.type, dict(undone.payload), undone.actor, table.version) == (
        COMMAND_UNDONE, {"command_no": 1}, "blue", 3)
    [redone] = table.redo(actor="red")
    assert (redone.type, dict(redone.payload), table.version) == (
        COMMAND_REDONE, {"command_no": 1}, 4)
    assert table.state == after
    assert [e.type for e in table.events()] == [
        "GameStarted", "CounterRaised", COMMAND_UNDONE, COMMAND_REDONE]


def test_table_undo_redo_chains_walk_the_stack(table: Table) -> None:
    states = [table.state]
    for player in ("red", "blue", "red"):
        table.apply(add(player))
        states.append(table.state)
    for i in (2, 1, 0):
        table.undo()
        assert table.state == states[i]
    assert not table.can_undo
    for i in (1, 2, 3):
        table.redo()
        assert table.state == states[i]
    assert not table.can_redo
    assert table.applied == (1, 2, 3)


def test_table_new_command_after_undo_clears_redo(table: Table) -> None:
    table.apply(add("red"))
    table.apply(add("blue"))
    table.undo()
    assert table.redoable == (2,)
    table.apply(add("red", 2))
    assert not table.can_redo
    assert table.applied == (1, 4)
    with pytest.raises(IllegalCommand, match="nothing to redo"):
        table.redo()


def test_table_nothing_to_undo_writes_nothing(table: Table) -> None:
    before = _log_size(table)
    with pytest.raises(IllegalCommand, match="nothing to undo"):
        table.undo()
    assert _log_size(table) == before


def test_table_redo_replays_recorded_events_without_deciding(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    table.apply(add("red", 99))
    table.apply(add("red", 1))  # reaches the goal: GameWon
    won = table.state
    table.undo()

    def refuse(state: object, command: Command) -> list[Event]:
        raise AssertionError("redo must not decide again")

    monkeypatch.setattr(table.engine, "decide", refuse)
    table.redo()
    assert table.state == won and won.winner == "red"


def test_table_stale_expected_version_is_a_conflict(table: Table) -> None:
    seen = table.version
    table.apply(add("red"), expected_version=seen)
    before = _log_size(table)
    for change in (lambda: table.apply(add("blue"), expected_version=seen),
                   lambda: table.undo(expected_version=seen),
                   lambda: table.redo(expected_version=seen)):
        with pytest.raises(VersionConflict, match=f"at version {seen + 1}, not {seen}"):
            change()
    assert _log_size(table) == before


def test_table_two_tables_on_one_session_conflict_instead_of_overwriting(
        table: Table, store: SQLiteStore) -> None:
    other = Table.open(store, table.session_id)
    other.apply(add("blue"))
    with pytest.raises(VersionConflict):
        table.apply(add("red"))
    assert counters(Table.open(store, table.session_id)) == {"red": 0, "blue": 1}
    table.reload()
    table.apply(add("red"))
    assert counters(table) == {"red": 1, "blue": 1}


def test_table_that_lost_a_race_to_another_writer_reloads_itself(
        table: Table, store: SQLiteStore, tmp_path: Path) -> None:
    """QA: two servers on one database file. The one that lost a race kept its version and
    answered every command, undo and redo with the same conflict for good (docs/store.md:
    "a table that lost a race calls reload()", which nothing called). Now the conflict
    reloads it: the conflict names the version the store holds, and the next change,
    sent at that version, works."""
    heard: list[int] = []
    table.add_listener(lambda t: heard.append(t.version))
    table.apply(add("red"))
    with SQLiteStore(tmp_path / "t.sqlite3") as other_store:  # another process's connection
        other = Table.open(other_store, table.session_id)
        for change in (lambda: table.apply(add("red"), expected_version=table.version),
                       lambda: table.undo("red", expected_version=table.version)):
            other.apply(add("blue"))
            with pytest.raises(VersionConflict) as conflict:
                change()
            assert conflict.value.actual == other.version
            assert table.version == other.version and counters(table) == counters(other)
            assert heard[-1] == other.version  # the phones hear the table as it is
        table.apply(add("red"), expected_version=table.version)
        table.undo("red", expected_version=table.version)
        table.redo("red", expected_version=table.version)
        assert counters(table) == {"red": 2, "blue": 2}
        assert counters(Table.open(other_store, table.session_id)) == counters(table)


def test_table_history_shows_who_did_what_and_what_is_undone(table: Table) -> None:
    table.apply(add("red"))
    table.apply(add("blue"))
    table.undo(actor="red")
    table.undo(actor="red")
    table.redo(actor="blue")
    lines = [(h.record.command_no, h.record.kind.value, h.record.type, h.record.actor,
              h.record.target, h.undone) for h in table.history()]
    assert lines == [
        (0, "setup", "setup", "host", None, False),
        (1, "command", "add", "red", None, False),
        (2, "command", "add", "blue", None, True),
        (3, "undo", "undo", "red", 2, False),
        (4, "undo", "undo", "red", 1, False),
        (5, "redo", "redo", "blue", 1, False),
    ]
    times = [h.record.time for h in table.history()]
    assert times == sorted(times) and times[0] == "2026-01-01T20:00:00+00:00"
    assert table.history()[2].to_json()["undone"] is True


def test_table_prompts_and_views_come_from_the_engine(table: Table) -> None:
    table.apply(Command("note", {"player": "red", "text": "go for 10"}, "red"))
    [prompt] = table.prompts()
    assert isinstance(prompt, ChoicePrompt)
    assert (prompt.player, prompt.command, [o.value for o in prompt.options]) == (
        "red", "add", ["red", "blue"])
    assert table.view("red")["notes"] == {"red": "go for 10"}
    assert table.view("blue")["notes"] == {}
    assert table.view(None)["notes"] == {}


def test_table_reopen_after_each_step_equals_memory(table: Table, store: SQLiteStore) -> None:
    steps = [lambda: table.apply(add("red", 2)), lambda: table.apply(Command("add_all", {})),
             table.undo, table.undo, table.redo, lambda: table.apply(subtract("red")),
             lambda: table.apply(add("blue", 4)), table.undo, table.redo, table.undo]
    for step in steps:
        step()
        opened = Table.open(store, table.session_id)
        assert (opened.state, opened.version, opened.applied, opened.redoable) == (
            table.state, table.version, table.applied, table.redoable)


def test_table_open_from_a_snapshot_can_undo_past_it(table: Table, store: SQLiteStore) -> None:
    states = [table.state]
    for i in range(7):
        table.apply(add("red" if i % 2 else "blue", i + 1))
        states.append(table.state)
    assert [s.command_no for s in store.snapshots(table.session_id)] == [3, 6]
    opened = Table.open(store, table.session_id)
    assert opened.state == table.state
    for i in range(6, -1, -1):
        opened.undo()
        assert opened.state == states[i]
    for i in range(1, 8):
        opened.redo()
        assert opened.state == states[i]


def test_table_snapshots_agree_with_full_replay(table: Table, store: SQLiteStore) -> None:
    for i in range(10):
        table.apply(add("red", 1 + i % 3))
        if i % 4 == 3:
            table.undo()
    records = store.records(table.session_id)
    engine = table.engine
    assert store.snapshots(table.session_id)
    for snapshot in store.snapshots(table.session_id):
        upto = replay(engine, records[:snapshot.command_no + 1])
        assert engine.dump_state(upto.state) == snapshot.data.state
        assert (upto.applied_numbers, upto.redoable_numbers, upto.version) == (
            snapshot.data.applied, snapshot.data.redoable, snapshot.version)
    assert replay(engine, records).state == table.state


def test_table_open_tolerates_a_snapshot_older_than_an_undone_command(
        store: SQLiteStore, table: Table) -> None:
    for _ in range(3):
        table.apply(add("red"))  # snapshot after record 3
    table.undo()
    table.undo()  # needs the state before command 2, which the snapshot does not carry
    opened = Table.open(store, table.session_id)
    assert (opened.state, opened.applied, opened.redoable) == (
        table.state, table.applied, table.redoable)


def test_table_threads_share_one_table(store: SQLiteStore, table: Table) -> None:
    errors: list[BaseException] = []

    def play(player: str) -> None:
        try:
            for _ in range(20):
                table.apply(add(player))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(p,)) for p in ("red", "blue") * 3]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert errors == []
    assert counters(table) == {"red": 60, "blue": 60}
    assert table.version == 121
    assert [e.seq for e in table.events()] == list(range(1, 122))
    assert Table.open(store, table.session_id).state == table.state


def test_table_in_memory_owns_its_store() -> None:
    with Table.in_memory("tally", PLAYERS, clock=FakeClock()) as table:
        table.apply(add("red"))
        assert Table.open(table.store, table.session_id).state == table.state
        assert repr(table).endswith("tally v2>")
