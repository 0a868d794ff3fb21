"""The tables as the home page and ``GET /api/tables`` list them (web/tablelist.py): the
table last played first, each with its players and its campaign, so that a player finds
last week's game by who played it and when, not by its id."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from companion.engine import Command
from companion.games.seafall.setup import demo_options
from companion.store.sqlite import MEMORY, SQLiteStore
from companion.table import Table
from tests.support import tally
from tests.support.clock import FakeClock
from tests.support.web import browser
from web.app import create_app
from web.services import Services
from web.tablelist import absent_of, listed, players_of


@pytest.fixture(autouse=True)
def _tally_game() -> None:
    tally.register()


def test_the_players_come_from_the_setup():
    assert players_of(demo_options()) == ["Blue", "Green", "Red"]
    assert players_of({"provinces": [{"colour": "red", "player": "Ana"}, {"colour": "blue"},
                                     "junk", {"player": 7}]}) == ["Ana", "blue"]
    assert players_of({"players": ["red", "", 3, "blue"]}) == ["red", "blue"]
    assert players_of({"die": "d6"}) == [] and players_of({"provinces": "x"}) == []


def test_the_table_last_played_comes_first_with_its_players_and_campaign():
    """Three tables made one after another (a clock a minute a reading): the first is
    played on last, so it comes first, dated by its last command; one is a campaign's
    game, which says so."""
    from companion.campaigns import start_campaign, start_next_game
    from tests.companion.test_campaigns import script

    clock = FakeClock(datetime(2026, 11, 20, 19, 0, tzinfo=UTC), timedelta(minutes=1))
    store = SQLiteStore(MEMORY, clock=clock)
    first = Table.create(store, "tally", {"players": ["Ana", "Bo"], "goal": 99})
    second = Table.create(store, "tally", {"players": ["Cy"]})
    info = start_campaign(store, "Winter league", "seafall", script()[0])
    game = start_next_game(store, info.id).session_id
    first.apply(Command("add", {"player": "Ana", "amount": 1}, "Ana"))
    played = first.store.record(first.session_id, first.last_command).time
    rows = listed(store)
    assert [r["id"] for r in rows] == [first.session_id, game, second.session_id]
    assert rows[0]["last_played"] == played and rows[0]["players"] == ["Ana", "Bo"]
    assert rows[0]["campaign"] is None and rows[0]["version"] == first.version
    assert rows[1]["campaign"] == {"id": info.id, "name": "Winter league"}
    assert rows[1]["players"] == players_of(store.session(game).options) != []
    assert rows[2]["last_played"] == store.session(second.session_id).created_at
    store.close()


def test_the_api_and_the_home_page_list_them_so():
    services = Services(SQLiteStore(MEMORY))
    try:
        app = create_app(services, {"TESTING": True})
        host = browser(app)
        made = [host.post("/api/tables", json={"game": "tally", "options": {
            "players": names, "goal": 99}}).json["id"] for names in (["Ana"], ["Bo", "Cy"])]
        services.tables.get(made[0]).apply(Command("add", {"player": "Ana", "amount": 1},
                                                   "Ana"))
        tables = host.get("/api/tables").json["tables"]
        assert [t["id"] for t in tables] == made  # the first was played last
        assert [t["players"] for t in tables] == [["Ana"], ["Bo", "Cy"]]
        assert all(t["last_played"] >= t["created_at"] and t["campaign"] is None
                   for t in tables)
        html = host.get("/").get_data(as_text=True)
        assert html.index(f'data-table="{made[0]}"') < html.index(f'data-table="{made[1]}"')
        assert '<span class="table-players"><bdi>Bo</bdi>, <bdi>Cy</bdi></span>' in html
        stamp = tables[0]["last_played"]
        assert f'<time datetime="{stamp}">{stamp[:16].replace("T", " ")} UTC</time>' in html
    finally:
        services.close()


def test_the_home_page_folds_the_older_tables_away():
    """The tables last played stay in view; those played before them (a year of weekly
    games is fifty) are folded under "Older tables", each still one tap away."""
    from web.pages import RECENT_TABLES

    services = Services(SQLiteStore(MEMORY, clock=FakeClock()))
    try:
        host = browser(create_app(services, {"TESTING": True}))
        made = [host.post("/api/tables", json={"game": "tally", "options": {
            "players": [f"P{n}"]}}).json["id"] for n in range(RECENT_TABLES + 3)]
        html = host.get("/").get_data(as_text=True)
        folded = html.index('<details id="older-tables">')
        assert "Older tables (3)" in html
        newest_first = made[::-1]
        assert all(html.index(f'data-table="{t}"') < folded
                   for t in newest_first[:RECENT_TABLES])
        assert all(html.index(f'data-table="{t}"') > folded
                   for t in newest_first[RECENT_TABLES:])
        assert html.count("class=\"table-link\"") == len(made)
    finally:
        services.close()


def test_a_campaign_game_lists_who_plays_it_as_set_up():
    """QA: a campaign's second game, set up with Cat missing it and Dan joining, was listed
    as "Cat, Ann, Ben" on the home page, in GET /api/tables and on the hardware card (the
    ledger's provinces, without the game's changes of players). It lists who plays it, and
    says apart who misses it."""
    from companion.campaigns import record_game, start_campaign, start_next_game
    from tests.companion.test_campaigns import play_out, script

    services = Services(SQLiteStore(MEMORY))
    try:
        setup, lines = script()
        store = services.store
        campaign = start_campaign(store, "Winter league", "seafall", setup)
        play_out(start_next_game(store, campaign.id), lines)
        ledger = record_game(store, campaign.id).ledger
        seats = {p["colour"]: p["player"] for p in ledger["provinces"]}
        away = "green"
        game = start_next_game(store, campaign.id, changes=[
            {"absent": {"colour": away}},
            {"join": {"colour": "gray", "player": "Dan", "advisor": "Advanced Scout",
                      "ships": ["gray-1:sail"], "improvements": []}}]).session_id
        playing = [name for colour, name in seats.items() if colour != away] + ["Dan"]
        host = browser(create_app(services, {"TESTING": True}))
        row = next(t for t in host.get("/api/tables").json["tables"] if t["id"] == game)
        assert (row["players"], row["absent"]) == (playing, [seats[away]])
        html = host.get("/").get_data(as_text=True)
        card = html[html.index(f'data-table="{game}"'):]
        card = card[:card.index("</a>")]
        assert "".join(f"<bdi>{name}</bdi>" for name in playing) in card.replace(", ", "")
        assert f"{seats[away]} misses this game" in card
        assert f"<bdi>{seats[away]}</bdi>" not in card
    finally:
        services.close()


def test_the_changes_of_players_apply_as_the_game_applies_them():
    """The list applies a campaign game's changes of players with the engine's own
    function; options it cannot apply them to (never a table's: its setup was taken) are
    listed as stored, never refused."""
    options = {"provinces": [{"colour": "red", "player": "Ana"}, {"colour": "blue"},
                             {"colour": "green", "player": "Cy", "absent": True},
                             {"colour": "yellow", "player": "Eve"}],
               "campaign_changes": [{"leave": {"colour": "red"}},
                                    {"join": {"colour": "gray", "player": "Dan"}},
                                    {"absent": {"colour": "blue"}}]}
    assert players_of(options) == ["Eve", "Dan"]
    assert absent_of(options) == ["blue", "Cy"]
    junk = {**options, "campaign_changes": [{"catch_up": {}}, "junk"]}
    assert players_of(junk) == ["Ana", "blue", "Eve"] and absent_of(junk) == ["Cy"]
