"""Export and import of a table session: exact round trips, refusals that write nothing."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.engine import Command
from companion.store import MalformedExport, SessionExists, SQLiteStore
from companion.store.export import dumps, loads
from companion.table import Table
from tests.support import tally
from tests.support.clock import FakeClock


@pytest.fixture(autouse=True)
def _tally() -> None:
    tally.register()


@pytest.fixture
def source(tmp_path: Path) -> Iterator[SQLiteStore]:
    with SQLiteStore(tmp_path / "a.sqlite3", clock=FakeClock(), new_id=lambda: "game1",
                     snapshot_every=3) as store:
        table = Table.create(store, "tally", {"players": ["red", "blue"], "goal": 50}, "host")
        table.apply(Command("add", {"player": "red", "amount": 2}, "red"))
        table.apply(Command("add_all", {"amount": 1}, "blue"))
        table.apply(Command("note", {"player": "blue", "text": "ünïcode ✓ 0.1"}, "blue"))
        table.undo("red")
        table.undo("red")
        table.redo("blue")
        table.apply(Command("subtract", {"player": "red", "amount": 1}, "red"))
        yield store


def test_export_round_trips_byte_for_byte(source: SQLiteStore, tmp_path: Path) -> None:
    text = dumps(source.export_session("game1"))
    with SQLiteStore(tmp_path / "b.sqlite3") as target:
        info = target.import_session(loads(text))
        assert info == source.session("game1")
        again = dumps(target.export_session("game1"))
        assert again == text
        assert target.records("game1") == source.records("game1")
        assert Table.open(target, "game1").state == Table.open(source, "game1").state


def test_export_is_canonical_json(source: SQLiteStore) -> None:
    text = dumps(source.export_session("game1"))
    doc = json.loads(text)
    assert text == json.dumps(doc, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    assert doc["format"] == "tableside-session" and doc["format_version"] == 1
    assert [r["kind"] for r in doc["records"]] == [
        "setup", "command", "command", "command", "undo", "undo", "redo", "command"]
    assert "✓" in text


def test_import_under_a_new_id_beside_the_original(source: SQLiteStore) -> None:
    doc = source.export_session("game1")
    with pytest.raises(SessionExists, match="game1"):
        source.import_session(doc)
    copy_info = source.import_session(doc, session_id="game2")
    assert copy_info.version == source.session("game1").version
    assert Table.open(source, "game2").state == Table.open(source, "game1").state


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        node: Any = doc
        for key in parents:
            node = node[int(key) if key.isdigit() else key]
        node[int(last) if last.isdigit() else last] = value
    return change


def _delete(path: str) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        node: Any = doc
        for key in parents:
            node = node[int(key) if key.isdigit() else key]
        del node[int(last) if last.isdigit() else last]
    return change


def _retarget(record: int, target: int) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        _set(f"records/{record}/target", target)(doc)
        _set(f"records/{record}/events/0/payload", {"command_no": target})(doc)
    return change


@pytest.mark.parametrize(
    ("change", "where"),
    [
        pytest.param(_set("format", "catan-save"), "format", id="another format"),
        pytest.param(_set("format_version", 2), "format_version", id="a newer format"),
        pytest.param(_delete("session/game"), "session", id="missing field"),
        pytest.param(_set("session/extra", 1), "session", id="unexpected field"),
        pytest.param(_set("session/options", []), "session.options", id="options not object"),
        pytest.param(_set("records", []), "records", id="no records"),
        pytest.param(_set("records/2/command_no", 7), "records[2].command_no",
                     id="a gap in command numbers"),
        pytest.param(_set("records/2/events/0/seq", 9), "records[2].events[0].seq",
                     id="a gap in event sequence"),
        pytest.param(_set("records/3/kind", "cheat"), "records[3].kind", id="unknown kind"),
        pytest.param(_retarget(4, 1), "records", id="undo of the wrong command"),
        pytest.param(_retarget(6, 3), "records", id="redo of the wrong command"),
        pytest.param(_set("records/4/target", 1), "records[4].events",
                     id="undo marker names another command"),
        pytest.param(_set("records/4/target", None), "records[4].target",
                     id="undo without a target"),
        pytest.param(_set("records/4/events", []), "records[4].events",
                     id="undo without its marker"),
        pytest.param(_set("records/1/target", 0), "records[1].target",
                     id="a command with a target"),
        pytest.param(_set("records/1/kind", "setup"), "records",
                     id="a second setup"),
        pytest.param(_set("records/1/time", "yesterday"), "records[1].time", id="bad time"),
        pytest.param(_set("records/1/actor", 3), "records[1].actor", id="actor not a string"),
        pytest.param(_set("records/1/events/0/payload", "x"), "records[1].events[0].payload",
                     id="payload not object"),
        pytest.param(_set("records/0/args", {"players": ["red"]}), "records[0].args",
                     id="setup args differ from the options"),
        pytest.param(_set("records/1/command_no", True), "records[1].command_no",
                     id="a boolean for a number"),
    ],
)
def test_import_refuses_a_malformed_export_and_writes_nothing(
        source: SQLiteStore, tmp_path: Path, change: Callable[[dict[str, Any]], None],
        where: str) -> None:
    doc = copy.deepcopy(source.export_session("game1"))
    change(doc)
    with SQLiteStore(tmp_path / "b.sqlite3") as target:
        with pytest.raises(MalformedExport) as caught:
            target.import_session(doc)
        assert caught.value.where == where
        assert target.sessions() == []


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        pytest.param("{", "not JSON", id="truncated"),
        pytest.param('{"a": 1, "a": 2}', "appears twice", id="duplicate keys"),
        pytest.param('{"a": NaN}', "NaN", id="NaN"),
        pytest.param(b"\xff\xfe{}", "not UTF-8", id="not UTF-8"),
        pytest.param("[1, 2]", "expected an object", id="not an object"),
        pytest.param("[" * 100_000 + "]" * 100_000, "the file: nested more than 64 levels",
                     id="nested past the parser's recursion"),
    ],
)
def test_import_refuses_text_that_is_not_an_export(
        text: str | bytes, reason: str, tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "b.sqlite3") as target:
        with pytest.raises(MalformedExport, match=reason):
            target.import_session(loads(text))
        assert target.sessions() == []
