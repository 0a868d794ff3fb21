"""Campaigns in the store: the ledger of what carries over, the games played from it
(DESIGN.md, "Persistence": a campaign table for what carries over between SeaFall games)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.campaigns import record_game, start_campaign, start_next_game
from companion.engine import Command
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.membership import miss_game
from companion.store import backup
from companion.store.campaign_export import parse_campaign
from companion.store.campaigns import CampaignConflict, UnknownCampaign
from companion.store.sqlite import MEMORY, SQLiteStore
from companion.table import Table

WHOLE_GAME = (Path(__file__).parent / "games" / "seafall" / "transcripts" /
              "whole-game.jsonl")


def script() -> tuple[dict, list[dict]]:
    lines = [json.loads(x) for x in WHOLE_GAME.read_text().splitlines()
             if x.strip() and not x.startswith("#")]
    return lines[0]["setup"], lines[1:]


def play_out(table: Table, lines: list[dict]) -> None:
    for line in lines:
        if "read" in line:
            read = line["read"]
            table.apply(Command("roll", read if isinstance(read, dict) else {"faces": read}))
        else:
            table.apply(Command.from_json(line))


@pytest.fixture
def store(tmp_path: Path):
    with SQLiteStore(tmp_path / "c.sqlite3") as store:
        yield store


def test_a_campaign_carries_a_recorded_game_into_the_next(store):
    setup, lines = script()
    campaign = start_campaign(store, "Our SeaFall", "seafall", setup)
    assert (campaign.version, campaign.current, campaign.games) == (1, None, ())
    first = start_next_game(store, campaign.id)
    with pytest.raises(CampaignConflict, match="already has a game under way"):
        start_next_game(store, campaign.id)
    with pytest.raises(IllegalCommand, match="not over and recorded"):
        record_game(store, campaign.id)
    play_out(first, lines)
    campaign = record_game(store, campaign.id)
    assert campaign.version == 2 and campaign.current is None
    assert campaign.ledger["game"] == 2
    assert campaign.ledger["record"] == [{"game": 1, "glory": {"blue": 3, "green": 0, "red": 2},
                                          "milestones": {}}]
    second = start_next_game(store, campaign.id)
    assert second.state.game_number == 2 and second.state.glory_target == 12
    info = store.campaign(campaign.id)
    assert [(g.version, g.session_id, g.recorded) for g in info.games] == [
        (1, first.session_id, True), (2, second.session_id, False)]
    # each game knows its campaign (the table page links there); a table of its own, none
    assert store.campaign_of(first.session_id) == store.campaign_of(second.session_id) == info
    assert store.campaign_of(Table.create(store, "seafall", setup).session_id) is None
    assert store.campaign_of("no-such-table") is None


def test_a_recorded_game_is_backed_up(store, caplog):
    """docs/store.md, "Backups": recording a game into the campaign copies the database,
    the new ledger in it. A backup that cannot be written is logged and the recording
    stands."""
    setup, lines = script()
    campaign = start_campaign(store, "Our SeaFall", "seafall", setup)
    play_out(start_next_game(store, campaign.id), lines)
    record_game(store, campaign.id)
    [kept] = backup.backups(store.path)
    assert kept.label == "game-recorded"
    with SQLiteStore(kept.path) as copy:
        assert copy.campaign(campaign.id).version == 2

    campaign = store.take_back_campaign_step(campaign.id)  # the recording, to record again
    backup.folder_for(store.path).rename(store.path.parent / "moved")
    backup.folder_for(store.path).write_text("a file where the folder was")
    assert record_game(store, campaign.id).current is None  # recorded again
    assert "was not backed up" in caplog.text


FINAL_SETUP = {  # the island at the end of the world is in reach: this game is the last
    "provinces": [{"colour": "red", "title": "prince", "campaign_glory": 30, "glory": 1},
                  {"colour": "blue", "title": "duke", "campaign_glory": 20, "glory": 1},
                  {"colour": "green", "title": "count", "campaign_glory": 10}],
    "milestones": [{"name": "The last island", "glory": 1, "end_of_world": True}],
    "glory_target": 1, "start_at": "turn",
}


def play_final_game(table: Table) -> None:
    """Green finds the island at the end of the world; the game ends and is recorded, the
    Emperor crowned at step 6 (rulebook, "The Crowning of an Emperor")."""
    table.apply(Command("hire_guild", {"guild": "explorers"}))
    table.apply(Command("claim_milestone", {"milestone": "The last island"}))
    for _ in range(3):
        table.apply(Command("end_turn", {}))
    while table.state.phase != "recorded":
        [p] = table.prompts()
        if p.kind == "roll":
            table.apply(Command("roll", {"faces": ["blank"] * p.count}))
        else:
            table.apply(Command(p.command, {p.arg: p.options[0].value}))


def test_the_final_game_of_a_campaign_is_recorded(store):
    """The final game (an Emperor crowned) is recorded like any other: its glory, titles and
    record line carried into a last ledger, marked as the campaign's end, backed up and kept
    from undo. Only then is a next game refused. Recording it was refused ("the campaign is
    over") and the game stayed under way for good."""
    campaign = start_campaign(store, "Last", "seafall", FINAL_SETUP)
    table = start_next_game(store, campaign.id)
    play_final_game(table)
    assert table.state.emperor == "red"
    info = record_game(store, campaign.id)
    assert info.current is None and info.version == 2
    assert info.over == {"emperor": "red", "player": table.state.provinces["red"].player,
                         "game": 1}
    assert info.to_json()["over"] == info.over
    assert info.ledger["record"][-1]["game"] == 1
    assert {p["colour"]: p["campaign_glory"] for p in info.ledger["provinces"]}["red"] == 31
    assert store.campaign_recorded(table.session_id) == "Last"  # its table is kept as is
    [kept] = backup.backups(store.path)
    assert kept.label == "game-recorded"
    with pytest.raises(IllegalCommand, match=r"the campaign is over: .* \(red\) is crowned"):
        start_next_game(store, campaign.id)
    assert store.campaign(campaign.id).current is None  # nothing set up, nothing linked
    # its recording taken back, the game is under way again, the campaign not over
    again = store.take_back_campaign_step(campaign.id)
    assert again.current == table.session_id and again.over is None
    assert store.campaign(campaign.id).over is None
    assert record_game(store, campaign.id).over is not None


def test_a_bad_first_setup_is_refused(store):
    with pytest.raises(InvalidCommand, match="3 to 5 provinces"):
        start_campaign(store, "Too few", "seafall", {"provinces": [{"colour": "red"},
                                                                   {"colour": "blue"}]})
    assert store.campaigns() == []


def test_ledgers_are_append_only(store):
    setup, _ = script()
    campaign = start_campaign(store, "C", "seafall", setup)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        with store._write() as conn:
            conn.execute("UPDATE campaign_ledgers SET ledger = '{}'")
    assert store.campaign(campaign.id).ledger == setup


def test_export_and_import_round_trip(store, tmp_path):
    setup, lines = script()
    campaign = start_campaign(store, "C", "seafall", setup)
    play_out(start_next_game(store, campaign.id), lines)
    record_game(store, campaign.id)
    doc = store.export_campaign(campaign.id)
    with SQLiteStore(tmp_path / "other.sqlite3") as other:
        with pytest.raises(CampaignConflict, match="import the campaign's sessions first"):
            other.import_campaign(doc)
        for game in doc["games"]:
            other.import_session(store.export_session(game["session"]))
        assert other.import_campaign(doc) == campaign.id
        assert other.export_campaign(campaign.id) == doc
        with pytest.raises(UnknownCampaign):
            other.campaign("nope")


def test_the_next_game_is_set_up_with_changes_of_players(store):
    """Rulebook, "Changing the number of players in your campaign": a player misses a game
    ("Missing a game") and a new one joins ("Joining the campaign"). The campaign's next game
    could only be set up from its ledger as it was: no one could be absent or join."""
    setup, lines = script()
    campaign = start_campaign(store, "C", "seafall", setup)
    play_out(start_next_game(store, campaign.id), lines)
    ledger = record_game(store, campaign.id).ledger
    with pytest.raises(IllegalCommand, match="no pink province"):
        start_next_game(store, campaign.id, changes=[{"absent": {"colour": "pink"}}])
    assert store.campaign(campaign.id).current is None  # nothing set up, nothing linked
    table = start_next_game(store, campaign.id, changes=[
        {"absent": {"colour": "red"}},
        {"join": {"colour": "gray", "player": "Dan", "advisor": "Advanced Scout",
                  "ships": ["gray-1:sail"], "improvements": []}}])
    state = table.state
    assert state.provinces["red"].absent and not state.provinces["blue"].absent
    assert state.provinces["gray"].campaign_glory == \
        min(p["campaign_glory"] for p in ledger["provinces"]) - 1  # one game played
    assert state.provinces["red"].gold == 0  # absent: nothing to spend
    info = store.campaign(campaign.id)
    assert info.current == table.session_id and info.ledger == ledger  # the ledger stays
    with pytest.raises(IllegalCommand, match="red is already marked absent"):
        miss_game(miss_game(ledger, "red"), "red")


def test_a_game_played_is_taken_out_of_its_campaign_only_when_meant(store):
    """Two take-backs in a row (a helper's): the recording, then the setting up of the game
    it recorded, took a whole game played out of its campaign. The setting up of a game with
    moves played on its table is refused unless ``played`` says it is meant; undone back to
    its setup, it is taken back as a game never played."""
    setup, lines = script()
    campaign = start_campaign(store, "C", "seafall", setup)
    game = start_next_game(store, campaign.id)
    play_out(game, lines)
    record_game(store, campaign.id)
    store.take_back_campaign_step(campaign.id)  # the recording: under way again
    with pytest.raises(CampaignConflict, match=r"has moves played on its table \(\d+\)") \
            as refused:
        store.take_back_campaign_step(campaign.id, ("game", game.session_id))
    assert refused.value.code == "played" and refused.value.values["moves"] > 40
    assert store.campaign(campaign.id).current == game.session_id  # nothing taken back
    info = store.take_back_campaign_step(campaign.id, ("game", game.session_id), played=True)
    assert info.current is None and info.games[0].withdrawn

    again = start_next_game(store, campaign.id)
    again.apply(Command("deal_advisor", {"advisor": "Captain"}))
    with pytest.raises(CampaignConflict, match=r"\(1\)"):
        store.take_back_campaign_step(campaign.id)
    again.undo()
    assert store.take_back_campaign_step(campaign.id).current is None  # back to its setup


def test_a_step_is_taken_back_and_taken_again(store):
    """Undo works in a campaign too, without rewriting its history: a game set up with the
    wrong players is taken back (it stays a table of its own) and set up again from the same
    ledger; a recording is taken back (its game is under way again, to be undone on its
    table and recorded again). Before, a wrong tick on the campaign page could not be
    mended."""
    setup, lines = script()
    campaign = start_campaign(store, "C", "seafall", setup)
    with pytest.raises(CampaignConflict, match="nothing to take back"):
        store.take_back_campaign_step(campaign.id)
    wrong = start_next_game(store, campaign.id, changes=[{"absent": {"colour": "red"}}])
    assert store.campaign(campaign.id).last_step == ("game", wrong.session_id)
    with pytest.raises(CampaignConflict, match="its last step is now the game of"):
        store.take_back_campaign_step(campaign.id, ("recording", wrong.session_id))
    info = store.take_back_campaign_step(campaign.id, ("game", wrong.session_id))
    assert info.current is None and info.version == 1 and info.last_step is None
    assert [(g.session_id, g.withdrawn) for g in info.games] == [(wrong.session_id, True)]
    assert store.campaign_of(wrong.session_id) is None  # a table of its own
    assert Table.open(store, wrong.session_id).state.provinces["red"].absent  # kept as played

    first = start_next_game(store, campaign.id)  # from ledger 1 again
    play_out(first, lines)
    recorded = record_game(store, campaign.id)
    assert recorded.version == 2 and recorded.last_step == ("recording", first.session_id)
    info = store.take_back_campaign_step(campaign.id, ("recording", first.session_id))
    assert info.version == 1 and info.ledger == setup and info.current == first.session_id
    assert [(g.session_id, g.recorded, g.withdrawn) for g in info.games] == [
        (wrong.session_id, False, True), (first.session_id, False, False)]
    again = record_game(store, campaign.id)  # recorded again: ledger 3, as 2 was
    assert again.version == 3 and again.ledger == recorded.ledger
    assert again.games[-1].recorded and again.current is None
    second = start_next_game(store, campaign.id)
    assert second.state.game_number == 2

    # the export carries what was taken back, and an import gives the same campaign
    doc = store.export_campaign(campaign.id)
    assert doc["format"] == "tableside-campaign/2"
    assert [(w["session"], w["ledger_version"]) for w in doc["withdrawn"]] == [
        (wrong.session_id, None), (None, 2)]
    with SQLiteStore(MEMORY) as other:
        for game in doc["games"]:
            other.import_session(store.export_session(game["session"]))
        other.import_campaign(doc)
        assert other.campaign(campaign.id) == store.campaign(campaign.id)
        assert other.export_campaign(campaign.id) == doc


@pytest.mark.parametrize(("withdrawn", "why"), [
    ("x", "'withdrawn' of the campaign export is a list"),
    ([{"seq": 2, "session": "s"}], "step 1 taken back in the campaign export is malformed"),
    ([{"seq": 1, "session": "s", "ledger_version": 2}], "is malformed"),
    ([{"seq": 1, "session": "elsewhere"}], "names a game or a ledger the export does not have"),
    ([{"seq": 1, "ledger_version": 1}], "names a game or a ledger the export does not have"),
])
def test_a_damaged_list_of_steps_taken_back_is_refused(store, withdrawn, why):
    setup, _ = script()
    campaign = start_campaign(store, "C", "seafall", setup)
    start_next_game(store, campaign.id)
    doc = {**store.export_campaign(campaign.id), "withdrawn": withdrawn}
    with pytest.raises(ValueError, match=why):
        parse_campaign(doc)
    v1 = {k: v for k, v in store.export_campaign(campaign.id).items() if k != "withdrawn"}
    assert parse_campaign({**v1, "format": "tableside-campaign/1"})["withdrawn"] == []


def test_a_campaign_from_schema_2_keeps_its_games_and_can_take_back(tmp_path):
    """Migration 3 rebuilds ``campaign_games`` (keyed by session, so that a ledger can set
    up a game again once one is taken back) and adds ``campaign_withdrawals``."""
    from companion.store.schema import MIGRATIONS

    setup, _ = script()
    db = tmp_path / "old.sqlite3"
    with SQLiteStore(db, migrations=MIGRATIONS[:2]) as old:
        assert old.schema_version == 2
        table = Table.create(old, "seafall", setup)
        old._conn.execute("INSERT INTO campaigns VALUES ('c1', 'Old', 'seafall', 't0')")
        old._conn.execute("INSERT INTO campaign_ledgers VALUES ('c1', 1, ?, NULL, 't0')",
                          (json.dumps(setup),))
        old._conn.execute("INSERT INTO campaign_games VALUES ('c1', 1, ?, 't1')",
                          (table.session_id,))
    with SQLiteStore(db) as store:
        assert store.schema_version == 3
        info = store.campaign("c1")
        assert info.current == table.session_id and info.ledger == setup
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            with store._write() as conn:
                conn.execute("DELETE FROM campaign_games")
        info = store.take_back_campaign_step("c1", ("game", table.session_id))
        assert info.current is None
        assert start_next_game(store, "c1").session_id == store.campaign("c1").current
        assert store.integrity_check() == []


def test_games_played_keep_the_names_of_who_played_them_after_a_player_leaves(store):
    """The campaign page's record (its summary, ``record[].players``): once Cat (green)
    leaves, game 1 still reads "Ann 3, Cat 0, Ben 2". The record names colours and the page
    named them from the provinces left in the campaign, so Cat's game read "Green 0". A
    colour taken again by a newcomer later is named by who held it in each game."""
    from companion.games.seafall.campaign import record_with_players
    from companion.games.seafall.engine import SeaFall

    setup, lines = script()
    campaign = start_campaign(store, "C", "seafall", setup)
    play_out(start_next_game(store, campaign.id), lines)
    record_game(store, campaign.id)
    table = start_next_game(store, campaign.id, changes=[
        {"join": {"colour": "gray", "player": "Dan", "advisor": "Advanced Scout",
                  "ships": ["gray-1:sail"], "improvements": []}},
        {"leave": {"colour": "green"}}])
    summary = SeaFall().campaign_summary(dict(table.options))  # the game as set up
    game, joined, left = summary["record"]
    assert game["game"] == 1 and game["players"] == {"blue": "Ann", "green": "Cat",
                                                     "red": "Ben"}
    assert "green" not in {p["colour"] for p in summary["provinces"]}
    assert joined["players"]["gray"] == "Dan" and left["player"] == "Cat"
    # green taken again later, by Eve: game 1 is still Cat's, game 2 Dan's and Eve's
    record = [*summary["record"], {"game": 2, "glory": {"blue": 1, "gray": 4, "red": 0}},
              {"event": "joined", "province": "green", "player": "Eve", "before_game": 3,
               "campaign_glory": -3},
              {"event": "left", "province": "gray", "player": "Dan", "before_game": 3,
               "returned": {"advisors": [], "research": []}}]
    now = {"blue": "Ann", "red": "Ben", "green": "Eve"}
    named = [e["players"] for e in record_with_players(record, now)]
    assert named[0] == {"blue": "Ann", "green": "Cat", "red": "Ben"}
    assert named[3] == {"blue": "Ann", "gray": "Dan", "red": "Ben"}
    assert named[4]["green"] == "Eve" and named[5]["gray"] == "Dan"


def test_a_newcomer_replacing_a_leaver_takes_the_last_place_of_those_who_stay(store):
    """Rulebook, "Joining the campaign": the newcomer's campaign glory is "the last-place
    player's current campaign glory value minus the number of games that have been played".
    After game 1 (Ann 3, Cat 0, Ben 2) Cat leaves and Dan joins before game 2: the last
    place of the campaign Dan joins is Ben's 2, so Dan starts at 2 - 1 = 1. It was taken
    from Cat's 0 (-1), Cat being still in the campaign when the page's changes had Dan join
    first, as a game of three must (docs/seafall.md, "One leaves, another joins, before the
    same game"). A leaver listed first was already out of it: the order no longer matters."""
    setup, lines = script()
    campaign = start_campaign(store, "C", "seafall", setup)
    play_out(start_next_game(store, campaign.id), lines)
    ledger = record_game(store, campaign.id).ledger
    assert {p["colour"]: p["campaign_glory"] for p in ledger["provinces"]} == {
        "blue": 3, "green": 0, "red": 2}
    changes = [{"join": {"colour": "gray", "player": "Dan", "advisor": "Advanced Scout",
                         "ships": ["gray-1:sail"], "improvements": []}},
               {"leave": {"colour": "green"}}]
    table = start_next_game(store, campaign.id, changes=changes)
    assert table.state.provinces["gray"].campaign_glory == 2 - 1
    assert table.state.record[-2] == {"event": "joined", "province": "gray", "player": "Dan",
                                      "before_game": 2, "campaign_glory": 1}
    assert {c: p.campaign_glory for c, p in table.state.provinces.items()} == {
        "blue": 3, "red": 2, "gray": 1}
    assert table.state.provinces["gray"].title == "count"  # the last of three
