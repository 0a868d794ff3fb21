"""``tableside campaign``: new, next, record, show, export and import, and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

from companion.engine import Command
from companion.store.sqlite import SQLiteStore
from companion.table import Table
from tests.companion.test_campaigns import WHOLE_GAME, play_out, script
from web.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_a_campaign_from_the_command_line(tmp_path: Path, capsys):
    db = str(tmp_path / "t.sqlite3")
    status, out, _ = run(capsys, "campaign", "new", "Ours", "--setup", str(WHOLE_GAME),
                         "--db", db)
    assert status == 0
    cid = out.strip()
    status, out, _ = run(capsys, "campaign", "next", cid, "--db", db)
    session = out.strip()
    with SQLiteStore(db) as store:
        play_out(Table.open(store, session), script()[1])
    assert run(capsys, "campaign", "record", cid, "--db", db)[1] == \
        "recorded; the next game is game 2\n"
    shown = json.loads(run(capsys, "campaign", "show", cid, "--db", db)[1])
    assert shown["version"] == 2 and shown["games"] == [
        {"version": 1, "session": session, "recorded": True, "withdrawn": False}]
    assert shown["last_step"] == {"kind": "recording", "session": session}
    export = tmp_path / "c.json"
    assert run(capsys, "campaign", "export", cid, "-o", str(export), "--db", db)[0] == 0
    other = str(tmp_path / "other.sqlite3")
    status, _, err = run(capsys, "campaign", "import", str(export), "--db", other)
    assert status == 2 and "import the campaign's sessions first" in err
    assert run(capsys, "sessions", "export", session, "-o", str(tmp_path / "s.json"),
               "--db", db)[0] == 0
    assert run(capsys, "sessions", "import", str(tmp_path / "s.json"), "--db", other)[0] == 0
    assert run(capsys, "campaign", "import", str(export), "--db", other)[1].strip() == cid


def test_the_final_game_is_recorded_and_the_campaign_listed_as_over(tmp_path: Path, capsys):
    """Recording the final game said "error: the campaign is over" and the list said the
    game was under way for good."""
    from tests.companion.test_campaigns import FINAL_SETUP, play_final_game

    db = str(tmp_path / "t.sqlite3")
    setup = tmp_path / "final.json"
    setup.write_text(json.dumps(FINAL_SETUP))
    cid = run(capsys, "campaign", "new", "Last", "--setup", str(setup), "--db", db)[1].strip()
    session = run(capsys, "campaign", "next", cid, "--db", db)[1].strip()
    with SQLiteStore(db) as store:
        table = Table.open(store, session)
        play_final_game(table)
        red = table.state.provinces["red"].player
    status, out, err = run(capsys, "campaign", "record", cid, "--db", db)
    assert (status, err) == (0, "")
    assert out == f"recorded; the campaign is over after game 1: {red} (red) is crowned " \
        "Emperor\n"
    out = run(capsys, "campaign", "list", "--db", db)[1]
    assert "over after game 1" in out and "under way" not in out and "next game" not in out
    status, _, err = run(capsys, "campaign", "next", cid, "--db", db)
    assert status == 2 and f"the campaign is over: {red} (red) is crowned Emperor" in err


def test_a_setup_script_with_a_byte_order_mark_before_a_comment(tmp_path: Path, capsys):
    """Windows Notepad's BOM hid the script's first comment line: "not JSON"."""
    setup = tmp_path / "bom.jsonl"
    setup.write_bytes(b"\xef\xbb\xbf" + WHOLE_GAME.read_bytes())
    assert WHOLE_GAME.read_text().startswith("#")
    status, out, err = run(capsys, "campaign", "new", "Ours", "--setup", str(setup),
                           "--db", str(tmp_path / "t.sqlite3"))
    assert status == 0, err
    assert out.strip()


def test_a_binary_file_is_said_not_to_be_text(tmp_path: Path, capsys):
    """It said "'utf-8' codec can't decode byte 0xfb in position 1: invalid start byte"."""
    binary = tmp_path / "c.json"
    binary.write_bytes(b"{\xfb\x00")
    for argv in (["new", "X", "--setup", str(binary)], ["import", str(binary)]):
        status, _, err = run(capsys, "campaign", *argv, "--db", str(tmp_path / "t.sqlite3"))
        assert status == 2
        assert f"{binary} is not a text (JSON) file: byte 1 is 0xfb, not UTF-8" in err
        assert "codec" not in err and len(err.splitlines()) == 1


def test_campaign_errors_are_one_line_and_status_2(tmp_path: Path, capsys):
    db = str(tmp_path / "t.sqlite3")
    bad = tmp_path / "bad.json"
    bad.write_text('{"provinces": [{"colour": "red"}]}')
    status, _, err = run(capsys, "campaign", "new", "X", "--setup", str(bad), "--db", db)
    assert status == 2 and "provinces" in err and len(err.splitlines()) == 1
    status, _, err = run(capsys, "campaign", "show", "nope", "--db", db)
    assert status == 2 and "no campaign 'nope'" in err
    for text, why in (("[" * 100_000 + "]" * 100_000,  # raised RecursionError
                       "nested more than 64 levels deep"),
                      ('{"provinces": [{"colour": "red", "gold": 1e999}]}',
                       "1e999 is not a finite number")):
        bad.write_text(text)
        for argv in (["new", "X", "--setup", str(bad)], ["import", str(bad)]):
            status, _, err = run(capsys, "campaign", *argv, "--db", db)
            assert status == 2 and err.strip().endswith(f"{bad} is not JSON ({why})")


def test_next_sets_the_game_up_with_players_absent(tmp_path: Path, capsys):
    db = str(tmp_path / "t.sqlite3")
    cid = run(capsys, "campaign", "new", "Ours", "--setup", str(WHOLE_GAME), "--db", db)[1]
    cid = cid.strip()
    status, _, err = run(capsys, "campaign", "next", cid, "--absent", "pink", "--db", db)
    assert status == 2 and "no pink province" in err and len(err.splitlines()) == 1
    changes = tmp_path / "changes.json"
    changes.write_text('{"absent": {"colour": "red"}}')
    status, _, err = run(capsys, "campaign", "next", cid, "--changes", str(changes), "--db", db)
    assert status == 2 and "the changes are a JSON list" in err
    changes.write_text('[{"absent": {"colour": "green"}}]')
    for flags, message in ((["--absent", "red"], "at least two provinces' players must be "
                            "present"),  # three provinces: one may miss the game, not two
                           (["--absent", "green"], "green is already marked absent")):
        status, _, err = run(capsys, "campaign", "next", cid, "--changes", str(changes),
                             *flags, "--db", db)
        assert status == 2 and message in err  # the file's changes come first
    status, out, _ = run(capsys, "campaign", "next", cid, "--changes", str(changes),
                         "--db", db)
    assert status == 0
    with SQLiteStore(db) as store:
        state = Table.open(store, out.strip()).state
    assert [c for c, p in state.provinces.items() if p.absent] == ["green"]


def test_a_campaign_on_the_default_provinces_takes_changes_of_players(tmp_path: Path, capsys):
    """QA: a first setup naming no provinces (blue, green and red by default) refused every
    change ("'provinces' must be a list of provinces"): the defaults are the ones changed."""
    db = str(tmp_path / "t.sqlite3")
    setup = tmp_path / "s.jsonl"
    setup.write_text('{"setup": {}}\n')
    cid = run(capsys, "campaign", "new", "T", "--setup", str(setup), "--db", db)[1].strip()
    status, out, err = run(capsys, "campaign", "next", cid, "--absent", "red", "--db", db)
    assert (status, err) == (0, "")
    with SQLiteStore(db) as store:
        state = Table.open(store, out.strip()).state
    assert state.seating == ["blue", "green", "red"]
    assert [c for c, p in state.provinces.items() if p.absent] == ["red"]
    assert run(capsys, "campaign", "take-back", cid, "--db", db)[0] == 0
    changes = tmp_path / "changes.json"
    changes.write_text('[{"join": {"colour": "yellow", "player": "Zoe"}}]')
    status, out, err = run(capsys, "campaign", "next", cid, "--changes", str(changes),
                           "--db", db)
    assert (status, err) == (0, "")
    with SQLiteStore(db) as store:
        state = Table.open(store, out.strip()).state
    assert state.seating == ["blue", "green", "red", "yellow"]
    assert state.provinces["yellow"].player == "Zoe"


def test_take_back_the_next_game_then_nothing(tmp_path: Path, capsys):
    """``campaign take-back``: a game set up with a player absent by mistake becomes a
    table of its own, and the next game is set up again; then there is nothing to take back."""
    db = str(tmp_path / "t.sqlite3")
    cid = run(capsys, "campaign", "new", "Ours", "--setup", str(WHOLE_GAME), "--db", db)[1]
    cid = cid.strip()
    wrong = run(capsys, "campaign", "next", cid, "--absent", "red", "--db", db)[1].strip()
    status, out, _ = run(capsys, "campaign", "take-back", cid, "--db", db)
    assert status == 0 and out == (
        f"took back the setting up of game {wrong}: it is a table of its own now\n"
        "the next game to set up is game 1\n")
    status, _, err = run(capsys, "campaign", "take-back", cid, "--db", db)
    assert status == 2 and err == ("tableside campaign take-back: error: campaign 'Ours' has "
                                   "nothing to take back: no game was set up from it yet\n")
    session = run(capsys, "campaign", "next", cid, "--db", db)[1].strip()
    with SQLiteStore(db) as store:
        assert store.campaign(cid).current == session != wrong
        assert not Table.open(store, session).state.provinces["red"].absent


def test_take_back_of_a_game_with_moves_played_asks_for_played(tmp_path: Path, capsys):
    """A game set up and played on is not taken out of its campaign by a take-back alone:
    ``--played`` says it is meant."""
    db = str(tmp_path / "t.sqlite3")
    cid = run(capsys, "campaign", "new", "Ours", "--setup", str(WHOLE_GAME), "--db", db)[1]
    cid = cid.strip()
    game = run(capsys, "campaign", "next", cid, "--db", db)[1].strip()
    with SQLiteStore(db) as store:
        Table.open(store, game).apply(Command("deal_advisor", {"advisor": "Captain"}))
    status, _, err = run(capsys, "campaign", "take-back", cid, "--db", db)
    assert status == 2 and err.startswith(
        f"tableside campaign take-back: error: game {game} of campaign 'Ours' has moves "
        "played on its table (1)") and err.endswith("(--played)\n")
    status, out, _ = run(capsys, "campaign", "take-back", cid, "--played", "--db", db)
    assert status == 0 and out.startswith(f"took back the setting up of game {game}")


def test_a_missing_database_is_refused_not_created(tmp_path: Path, capsys):
    """As `sessions list` does: only `campaign new` and `import` create the database."""
    db = tmp_path / "no" / "such" / "t.sqlite3"
    for argv in (["list"], ["show", "c1"], ["next", "c1"], ["record", "c1"],
                 ["take-back", "c1"], ["export", "c1"]):
        status, out, err = run(capsys, "campaign", *argv, "--db", str(db))
        assert (status, out) == (2, "")
        assert err == f"tableside campaign {argv[0]}: error: {db}: {NOTHING_PLAYED}\n"
    assert run(capsys, "sessions", "list", "--db", str(db))[2].endswith(NOTHING_PLAYED + "\n")
    assert not (tmp_path / "no").exists()


NOTHING_PLAYED = ("no Tableside database here: nothing has been played here yet (tableside "
                  "serve makes it, and so does a table or a campaign created; or give --db "
                  "another database)")


def test_a_fresh_install_says_what_makes_the_database(tmp_path: Path, capsys, monkeypatch):
    """QA: on a fresh install, ``sessions list`` and ``campaign list`` said only "no
    Tableside database here": they still create nothing, and say in one line what does."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    db = tmp_path / "tableside" / "tableside.sqlite3"
    for command in ("sessions", "campaign"):
        status, out, err = run(capsys, command, "list")
        assert (status, out) == (2, "")
        assert err == f"tableside {command} list: error: {db}: {NOTHING_PLAYED}\n"
    assert list(tmp_path.iterdir()) == []
