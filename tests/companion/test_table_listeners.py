"""Table listeners: called after every committed apply, undo and redo, in version order,
never for a refused command; a failing listener does not undo a committed change."""

from __future__ import annotations

import logging

import pytest

from companion.engine import Command
from companion.errors import IllegalCommand
from companion.table import Table
from tests.support import tally


@pytest.fixture(autouse=True)
def _tally() -> None:
    tally.register()


def test_listeners_see_each_committed_change_in_order():
    with Table.in_memory("tally", {"players": ["ann", "bob"], "goal": 50}) as table:
        seen: list[tuple[int, dict]] = []
        table.add_listener(lambda t: seen.append((t.version, dict(t.state.counters))))
        table.apply(Command("add", {"player": "ann", "amount": 2}))
        table.apply(Command("add_all", {"amount": 1}))  # two events: version jumps by 2
        table.undo()
        table.redo()
        assert [v for v, _ in seen] == [2, 4, 5, 6]
        assert seen[0][1] == {"ann": 2, "bob": 0}
        assert seen[2][1] == {"ann": 2, "bob": 0}  # the state after the undo
        assert seen[3][1] == {"ann": 3, "bob": 1}


def test_refused_commands_call_no_listener_and_call_now_starts_from_the_current_version():
    with Table.in_memory("tally", {"players": ["ann"]}) as table:
        seen: list[int] = []
        table.add_listener(lambda t: seen.append(t.version), call_now=True)
        with pytest.raises(IllegalCommand):
            table.apply(Command("subtract", {"player": "ann"}))
        with pytest.raises(IllegalCommand):
            table.undo()
        assert seen == [1]


def test_a_failing_listener_is_logged_and_the_change_stands(caplog):
    with Table.in_memory("tally", {"players": ["ann"]}) as table:
        def broken(_: Table) -> None:
            raise RuntimeError("listener bug")

        seen: list[int] = []
        table.add_listener(broken)
        table.add_listener(lambda t: seen.append(t.version))
        with caplog.at_level(logging.ERROR, logger="companion.table"):
            table.apply(Command("add", {"player": "ann"}))
        assert table.version == 2 and seen == [2]
        assert "listener failed" in caplog.text
        table.remove_listener(broken)
        table.apply(Command("add", {"player": "ann"}))
        assert seen == [2, 3]


def test_a_guard_refuses_apply_undo_and_redo_and_nothing_is_written():
    """``add_guard``: checked before every change, under the lock; the web server's guard
    keeps a game recorded into a campaign as it was recorded."""
    with Table.in_memory("tally", {"players": ["ann"], "goal": 50}) as table:
        table.apply(Command("add", {"player": "ann", "amount": 2}))
        table.apply(Command("add", {"player": "ann", "amount": 3}))
        table.undo()
        closed = {"on": True}

        def guard(t: Table) -> None:
            assert t is table
            if closed["on"]:
                raise IllegalCommand("closed")

        table.add_guard(guard)
        version, records = table.version, len(table.history())
        for change in (lambda: table.apply(Command("add", {"player": "ann"})), table.undo,
                       table.redo):
            with pytest.raises(IllegalCommand, match="closed"):
                change()
        assert (table.version, len(table.history())) == (version, records)
        assert table.state.counters == {"ann": 2}
        closed["on"] = False
        table.redo()
        assert table.state.counters == {"ann": 5}
