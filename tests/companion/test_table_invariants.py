"""Replay and undo invariants over random games (hypothesis).

After every step: replaying the log equals the table's state; reopening the session equals
memory; a plain reference model (recompute the counters from the commands in effect)
agrees; and every successful apply, undone at once, gives back the state before it.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import Command
from companion.errors import IllegalCommand
from companion.store import SQLiteStore
from companion.table import Table, replay
from tests.support import tally
from tests.support.clock import FakeClock

PLAYERS = ("red", "blue")

players = st.sampled_from(PLAYERS)
amounts = st.integers(min_value=1, max_value=4)
steps = st.one_of(
    st.tuples(st.just("add"), players, amounts),
    st.tuples(st.just("subtract"), players, amounts),
    st.tuples(st.just("add_all"), st.just(""), amounts),
    st.tuples(st.just("undo"), st.just(""), st.just(0)),
    st.tuples(st.just("redo"), st.just(""), st.just(0)),
)


def _command(kind: str, player: str, amount: int) -> Command:
    args: dict[str, object] = {"amount": amount}
    if player:
        args["player"] = player
    return Command(kind, args, player or None)


def _reference(commands: list[tuple[str, str, int]]) -> dict[str, int]:
    totals = dict.fromkeys(PLAYERS, 0)
    for kind, player, amount in commands:
        for p in (PLAYERS if kind == "add_all" else (player,)):
            totals[p] += -amount if kind == "subtract" else amount
    return totals


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=st.lists(steps, max_size=25), snapshot_every=st.integers(0, 4))
def test_table_invariants_hold_for_any_game(script: list[tuple[str, str, int]],
                                            snapshot_every: int) -> None:
    tally.register()
    with SQLiteStore(clock=FakeClock(), snapshot_every=snapshot_every) as store:
        table = Table.create(store, "tally", {"players": list(PLAYERS), "goal": 10**6})
        applied: list[tuple[str, str, int]] = []
        undone: list[tuple[str, str, int]] = []
        for kind, player, amount in script:
            if kind == "undo":
                if not table.can_undo:
                    continue
                table.undo()
                undone.append(applied.pop())
            elif kind == "redo":
                if not table.can_redo:
                    continue
                table.redo()
                applied.append(undone.pop())
            else:
                before, version = table.state, table.version
                try:
                    table.apply(_command(kind, player, amount))
                except IllegalCommand:
                    assert (table.state, table.version) == (before, version)
                    continue
                after = table.state
                table.undo()
                assert table.state == before
                table.redo()
                assert table.state == after
                applied.append((kind, player, amount))
                undone.clear()

            assert dict(table.state.counters) == _reference(applied)
            full = replay(table.engine, store.records(table.session_id))
            assert (full.state, full.version) == (table.state, table.version)
            opened = Table.open(store, table.session_id)
            assert (opened.state, opened.applied, opened.redoable, opened.version) == (
                table.state, table.applied, table.redoable, table.version)
