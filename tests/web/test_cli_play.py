"""``tableside play``: scripted games, golden transcripts, errors that name their line.

Transcripts live in tests/companion/games/seafall/transcripts/: ``NAME.jsonl`` (commands and
dice in, each citing its rulebook section) and ``NAME.events.json`` (events out). Set
UPDATE_GOLDEN=1 to rewrite the expected events after a deliberate change.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from web.cli import main

TRANSCRIPTS = Path(__file__).parents[1] / "companion" / "games" / "seafall" / "transcripts"


def run_json(capsys, script: Path) -> tuple[int, dict]:
    status = main(["play", "seafall", "--script", str(script), "--json"])
    out = capsys.readouterr().out
    return status, json.loads(out)


@pytest.mark.parametrize("name", sorted(p.stem for p in TRANSCRIPTS.glob("*.jsonl")))
def test_transcript_replays_to_its_golden_events(capsys, name):
    status, out = run_json(capsys, TRANSCRIPTS / f"{name}.jsonl")
    assert status == 0, out["error"]
    # the setup event carries the whole initial state: checked by the setup tests instead
    events = [{"type": e["type"], "payload": {} if e["type"] == "GameSetUp" else e["payload"]}
              for e in out["events"]]
    golden = TRANSCRIPTS / f"{name}.events.json"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(json.dumps(events, indent=1, sort_keys=True) + "\n")
    assert events == json.loads(golden.read_text())


@pytest.mark.parametrize("name", ["blue-sails-two-speeds", "gray-raids-yellow"])
def test_play_says_each_event_as_the_servers_history_does(capsys, name):
    """docs/api.md: the English texts are exactly `tableside play`'s. QA: play wrote ships
    and places by their ids ("isle-a, isle-a") where the server names them ("Isle A")."""
    from companion.engine import Event
    from companion.store.records import COMMAND_REDONE, COMMAND_UNDONE
    from web.cli.play import play
    from web.live import event_text

    _, out = run_json(capsys, TRANSCRIPTS / f"{name}.jsonl")
    table, events, error = play("seafall", (TRANSCRIPTS / f"{name}.jsonl").read_text())
    assert error is None and len(events) == len(out["events"])
    served = [event_text(table, Event(e.type, dict(e.payload))) for e in events
              if e.type not in (COMMAND_UNDONE, COMMAND_REDONE)]
    said = [e["text"] for e in out["events"] if e["type"] not in (COMMAND_UNDONE, COMMAND_REDONE)]
    assert said == served
    assert any("An island" in t or "Yellow" in t for t in said)


def test_gray_raid_transcript_ends_where_the_rulebook_says(capsys):
    _, out = run_json(capsys, TRANSCRIPTS / "gray-raids-yellow.jsonl")
    state = out["state"]
    assert state["provinces"]["gray"]["gold"] == 4
    assert state["provinces"]["gray"]["glory"] == 1
    assert state["sites"]["yellow/field-1"]["enmity"] == {"gray": 2}
    assert [c["name"] for c in state["ships"]["gray-1"]["damage"]] == ["Cracked hull", "damage"]
    assert state["turn"]["player"] == "yellow"


def test_undo_and_redo_lines(capsys):
    _, out = run_json(capsys, TRANSCRIPTS / "undo-redo.jsonl")
    state = out["state"]
    assert state["provinces"]["red"]["glory"] == 1
    assert state["endeavor"] is None
    types = [e["type"] for e in out["events"]]
    assert types.count("CommandUndone") == 2 and types.count("CommandRedone") == 1


def script(tmp_path: Path, *lines: object) -> Path:
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines))
    return path


SETUP = {"setup": {"start_at": "turn",
                   "provinces": [{"colour": "red", "ships": [{"location": "isle"}, {}]},
                                 {"colour": "blue"}],
                   "islands": [{"id": "isle", "sites": [{"name": "1", "defense": 2}]}]}}


@pytest.mark.parametrize("bad, kind, message", [
    pytest.param({"type": "raid", "flagship": "red-1", "site": "isle/1"}, "illegal",
                 "hire the Soldiers guild", id="rules say no"),
    pytest.param({"type": "hire_guild", "guild": "pirates"}, "invalid", "guild",
                 id="malformed command"),
    pytest.param("{not json", "malformed", "not valid JSON", id="not JSON"),
    pytest.param([1, 2], "malformed", "JSON object", id="not an object"),
    pytest.param("[" * 100_000 + "]" * 100_000, "malformed", "not valid JSON (nested more than 64 "
                 "levels deep", id="nested past the parser's recursion"),
    pytest.param('{"type": "hire_guild", "guild": NaN}', "malformed",
                 "NaN is not a finite number", id="NaN, which is not JSON"),
    pytest.param('{"type": "hire_guild", "guild": 1' + "0" * 5000 + "}", "malformed",
                 "5001 digits is too long", id="a number of 5,001 digits (ValueError before)"),
])
def test_error_names_the_line_and_nothing_after_is_applied(tmp_path, capsys, bad, kind,
                                                           message):
    path = script(tmp_path, SETUP, "# a comment", "", bad,
                  {"type": "hire_guild", "guild": "explorers"})
    status, out = run_json(capsys, path)
    assert status == 1
    assert out["error"]["line"] == 4 and out["error"]["kind"] == kind
    assert message in out["error"]["message"]
    assert out["state"]["turn"]["guild"] is None  # the last line was not applied


def test_a_script_saved_with_a_byte_order_mark_plays(tmp_path, capsys):
    """Windows Notepad begins the file with one: line 1 was "not valid JSON"."""
    path = script(tmp_path, SETUP, {"type": "hire_guild", "guild": "explorers"})
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    status, out = run_json(capsys, path)
    assert status == 0 and out["state"]["turn"]["guild"] == "explorers"


@pytest.mark.parametrize("stdin", [False, True])
def test_a_script_with_a_byte_order_mark_before_a_comment_plays(tmp_path, capsys,
                                                                  monkeypatch, stdin):
    """The transcripts begin with a comment: after a BOM it was not one, and line 1 was
    "not valid JSON (Expecting value)"."""
    path = script(tmp_path, "# a comment", SETUP, {"type": "hire_guild", "guild": "explorers"})
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    if stdin:
        monkeypatch.setattr(sys, "stdin", io.StringIO(path.read_text(encoding="utf-8")))
    status = main(["play", "seafall", "--script", "-" if stdin else str(path), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert status == 0, out["error"]
    assert out["state"]["turn"]["guild"] == "explorers"


def test_error_goes_to_stderr_in_text_mode(tmp_path, capsys):
    path = script(tmp_path, SETUP, {"type": "roll", "faces": ["blank"]})
    assert main(["play", "seafall", "--script", str(path)]) == 1
    captured = capsys.readouterr()
    assert "line 2: not allowed: no endeavor is waiting" in captured.err
    assert "Waiting for: Red: hire which guild?" in captured.out


@pytest.mark.parametrize("lines, message", [
    pytest.param([], "empty", id="empty script"),
    pytest.param([{"type": "hire_guild"}], "sets the game up", id="no setup line"),
    pytest.param([{"setup": {"provinces": []}}], "3 to 5 provinces", id="bad setup"),
])
def test_bad_setup_lines(tmp_path, capsys, lines, message):
    status, out = run_json(capsys, script(tmp_path, *lines))
    assert status == 1 and message in out["error"]["message"]
    assert out["error"]["line"] == 1


@pytest.mark.parametrize("value, kind", [(None, "null"), ("x", "a string"), (5, "a number"),
                                         ([], "a list"), (True, "true or false")])
def test_a_setup_that_is_not_an_object_is_refused(tmp_path, capsys, value, kind):
    """null, "x" and 5 raised a traceback; [] was taken as the default setup."""
    status, out = run_json(capsys, script(tmp_path, {"setup": value}))
    assert status == 1 and out["state"] is None
    assert out["error"] == {"line": 1, "kind": "malformed",
                            "message": f'the setup is a JSON object: {{"setup": {{...}}}}, '
                                       f"not {kind}"}


EXPLORING = [SETUP, {"type": "hire_guild", "guild": "explorers"},
             {"type": "explore", "flagship": "red-1", "site": "isle/1"}]


@pytest.mark.parametrize("line", [
    pytest.param({"type": "undo"}, id="undo"),
    pytest.param({"type": "redo"}, id="redo"),
    pytest.param({"read": ["blank", "blank", "blank"]}, id="dice read"),
    pytest.param({"type": "roll", "faces": ["blank", "blank", "blank"]}, id="command"),
])
@pytest.mark.parametrize("actor", [{"a": 1}, 7, ["red"], True])
def test_an_actor_that_is_not_a_string_is_refused_on_every_line(tmp_path, capsys, line, actor):
    """A dict raised a traceback (sqlite on an undo, unhashable on a dice read); a number
    was taken and stored as the actor."""
    before = [{"type": "undo"}] if line.get("type") == "redo" else []
    path = script(tmp_path, *EXPLORING, *before, {**line, "actor": actor})
    status, out = run_json(capsys, path)
    assert status == 1, out["events"][-1]
    assert out["error"]["kind"] == "invalid"
    assert out["error"]["message"] == "'actor' must be a string"


@pytest.mark.parametrize("line", [
    pytest.param({"type": "hire_guild", "guild": "soldiers"}, id="command"),
    pytest.param({"type": "undo"}, id="undo"),
    pytest.param({"read": ["blank", "blank", "blank"]}, id="dice read"),
])
def test_an_actor_no_one_plays_is_refused_naming_it(tmp_path, capsys, line):
    """'mallory' acted as the table: it hired Red's guild and ended Red's turn."""
    first = [SETUP] if "guild" in line else EXPLORING
    status, out = run_json(capsys, script(tmp_path, *first, {**line, "actor": "mallory"}))
    assert status == 1 and out["error"]["kind"] == "invalid"
    assert out["error"]["message"].startswith("unknown actor 'mallory': an actor is a "
                                              "province's colour or its player's name")
    assert "CommandUndone" not in [e["type"] for e in out["events"]]


def test_a_setup_line_whose_actor_is_not_a_string_is_refused(tmp_path, capsys):
    status, out = run_json(capsys, script(tmp_path, {**SETUP, "actor": 7}))
    assert status == 1 and out["state"] is None
    assert out["error"] == {"line": 1, "kind": "invalid", "message": "'actor' must be a string"}


@pytest.mark.parametrize("name, content, why", [
    pytest.param("missing.jsonl", None, "No such file or directory", id="missing"),
    pytest.param("folder", "dir", "it is a folder, not a script", id="a folder"),
    pytest.param("game.bin", b"\x00\xfb\xff", "it is not a text file (not UTF-8: byte 1 is "
                 "0xfb)", id="binary"),
])
def test_unreadable_script_is_exit_status_2(tmp_path, capsys, name, content, why):
    path = tmp_path / name
    if content == "dir":
        path.mkdir()
    elif content is not None:
        path.write_bytes(content)
    assert main(["play", "seafall", "--script", str(path)]) == 2
    assert capsys.readouterr().err == f"tableside play: cannot read {path}: {why}\n"


@pytest.mark.parametrize("lines, message", [
    pytest.param([], "line 1: malformed: the script is empty", id="empty"),
    pytest.param(["{not json"], "line 1: malformed: not valid JSON", id="not JSON"),
    pytest.param([SETUP, "{not json"], "line 2: malformed: not valid JSON", id="a bad line"),
])
def test_a_script_read_but_malformed_is_exit_status_1_as_help_says(tmp_path, capsys, lines,
                                                                   message):
    """--help said 2 "when the script cannot be read" while these printed "cannot read it"
    and exited 1: 2 is for a file that cannot be read at all, 1 for a line that fails."""
    assert main(["play", "seafall", "--script", str(script(tmp_path, *lines))]) == 1
    err = capsys.readouterr().err
    assert message in err and "cannot read" not in err
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    usage = " ".join(capsys.readouterr().out.split())
    assert ("1 when a line failed (not JSON, not a JSON object, a bad setup, a command "
            "refused) or the script is empty; 2 when the file cannot be read at all") in usage


def test_script_from_stdin_through_the_console_entry_point():
    text = (TRANSCRIPTS / "undo-redo.jsonl").read_text()
    done = subprocess.run([sys.executable, "-m", "web", "play", "seafall", "--script", "-"],
                          input=text, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "Red gains 1 glory (successful explore)." in done.stdout


def test_whole_game_then_the_next_game_of_the_campaign(tmp_path, capsys):
    """A whole game (transcripts/whole-game.jsonl) from setup to recorded glory; its
    --next-game file is the first line of game 2, which starts with its first winter."""
    next_file = tmp_path / "game2.jsonl"
    status = main(["play", "seafall", "--script", str(TRANSCRIPTS / "whole-game.jsonl"),
                   "--json", "--next-game", str(next_file)])
    out = json.loads(capsys.readouterr().out)
    assert status == 0 and out["error"] is None
    state = out["state"]
    assert state["phase"] == "recorded" and state["winner"] == "blue"
    assert state["record"] == [{"game": 1, "glory": {"blue": 3, "green": 0, "red": 2},
                                "milestones": {}}]
    assert main(["play", "seafall", "--script", str(next_file), "--json"]) == 0
    game2 = json.loads(capsys.readouterr().out)
    assert game2["state"]["game_number"] == 2 and game2["state"]["glory_target"] == 12
    assert game2["state"]["provinces"]["red"]["council"] == [{"name": "Savage",
                                                              "exhausted": False}]
    assert game2["state"]["regions"]["isle-a"]["permanent_enmity"] == {"red": 1}
    assert game2["state"]["sites"]["isle-a/1"]["kind"] == "good"
    assert game2["prompts"][0]["command"] == "deal_advisor"


def test_next_game_refused_before_the_game_is_recorded(tmp_path, capsys):
    path = script(tmp_path, SETUP)
    assert main(["play", "seafall", "--script", str(path), "--next-game",
                 str(tmp_path / "n.json")]) == 1
    assert "not over and recorded" in capsys.readouterr().err
