"""A campaign file from elsewhere (``tableside campaign import``), edited by hand: refused
with a reason and nothing written, or a campaign that reads, exports and imports again.

Before, a ledger without ``from_session`` raised ``KeyError``, a time that was an object
raised SQLite's ``ProgrammingError``, and a game set up from a ledger the file does not
have raised ``IntegrityError``: tracebacks from the command line."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.campaigns import record_game, start_campaign, start_next_game
from companion.store.campaign_export import parse_campaign
from companion.store.errors import StoreError
from companion.store.sqlite import MEMORY, SQLiteStore
from tests.companion.test_campaigns import play_out, script
from tests.support.damage import damaged


@pytest.fixture(scope="module")
def exported() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A campaign with a game taken back, a game recorded and the next set up; its export
    and its games' session exports."""
    setup, lines = script()
    with SQLiteStore(MEMORY) as store:
        info = start_campaign(store, "C", "seafall", setup)
        start_next_game(store, info.id, changes=[{"absent": {"colour": "red"}}])
        store.take_back_campaign_step(info.id)
        play_out(start_next_game(store, info.id), lines)
        record_game(store, info.id)
        start_next_game(store, info.id)
        doc = store.export_campaign(info.id)
        return doc, [store.export_session(g["session"]) for g in doc["games"]]


def imported(doc: Any, sessions: list[dict[str, Any]]) -> bool:
    """False if refused with a reason (nothing written); else it reads and exports again."""
    with SQLiteStore(MEMORY) as store:
        for session in sessions:
            store.import_session(session)
        try:
            cid = store.import_campaign(doc)
        except (ValueError, StoreError):
            assert store.campaigns() == []  # nothing half written
            return False
        info = store.campaign(cid)
        info.to_json()
        assert parse_campaign(store.export_campaign(cid))
        under_way = [g for g in info.games if g.version == info.version and not g.withdrawn]
        assert len(under_way) <= 1
        return True


def test_the_export_as_written_imports(exported) -> None:
    doc, sessions = exported
    assert imported(copy.deepcopy(doc), sessions)


def refused_whole(exported, edit, why: str) -> None:
    """The export edited by ``edit`` is refused with a reason matching ``why``, and none
    of it is imported."""
    doc, sessions = exported
    doc = copy.deepcopy(doc)
    edit(doc)
    with pytest.raises(ValueError, match=why):
        parse_campaign(doc)
    assert not imported(doc, sessions)


@pytest.mark.parametrize(("edit", "why"), [
    (lambda d: d["ledgers"][0].pop("from_session"), "ledger 1 of the campaign export is "
                                                    "malformed"),
    (lambda d: d["games"][0].update(time={"at": 1}), "each game of the campaign export is"),
    (lambda d: d["ledgers"][0].update(time=[]), "ledger 1 of the campaign export is malformed"),
    (lambda d: d["ledgers"][1].update(time="last Tuesday"), "ledger 2 of the campaign export "
                                                            "is malformed"),
    (lambda d: d["withdrawn"][0].update(time=5), "step 1 taken back in the campaign export is "
                                                 "malformed"),
    (lambda d: d["games"][1].update(version=7), "each game of the campaign export is"),
    (lambda d: d["games"][1].update(version=True), "each game of the campaign export is"),
    (lambda d: d["ledgers"][1].update(from_session=d["games"][2]["session"]),
     "ledger 2 of the campaign export comes from game"),
    (lambda d: d["games"].append(dict(d["games"][0])), "is listed twice"),
])
def test_a_file_edited_by_hand_is_refused_with_the_reason(exported, edit, why) -> None:
    refused_whole(exported, edit, why)


@pytest.mark.parametrize(("fmt", "said"), [
    ("tableside-campaign/9", "the campaign export is in format tableside-campaign/9, which "
     "this version of Tableside does not read (this version reads tableside-campaign/1 and "
     "tableside-campaign/2; a newer Tableside wrote it?)"),
    ("tableside-session/1", "not a Tableside campaign export: its format is "
     "'tableside-session/1' (this version reads tableside-campaign/1 and "
     "tableside-campaign/2)"),
    (None, "not a Tableside campaign export: it names no format (this version reads "
     "tableside-campaign/1 and tableside-campaign/2)"),
])
def test_a_wrong_format_says_what_the_file_says(exported, fmt, said) -> None:
    """A file saying /9 was refused as "not a Tableside campaign export (format
    tableside-campaign/2)": the format this version reads, named as if the file said it."""
    doc = copy.deepcopy(exported[0])
    if fmt is None:
        del doc["format"]
    else:
        doc["format"] = fmt
    with pytest.raises(ValueError) as refused:
        parse_campaign(doc)
    assert str(refused.value) == said
    with pytest.raises(ValueError, match="it is not a JSON object"):
        parse_campaign([doc])


def _province(doc: dict[str, Any], number: int) -> dict[str, Any]:
    return doc["ledgers"][number - 1]["ledger"]["provinces"][0]


@pytest.mark.parametrize(("edit", "why"), [
    pytest.param(lambda d: _province(d, 2).update(campaign_glory="lots"),
                 r"ledger 2 of the campaign export \(setting up game 2, recorded from table "
                 r"\w+\) is damaged: province \w+: 'campaign_glory' must be a whole number",
                 id="campaign glory"),
    pytest.param(lambda d: d["ledgers"][1]["ledger"]["record"][0].update(glory={"blue": "x"}),
                 r"ledger 2 .* is damaged: 'record' entry 1: 'glory' must be", id="record glory"),
    pytest.param(lambda d: _province(d, 2).update(ships=[]),
                 r"ledger 2 .* is damaged: province \w+: 'ships' lists one or two ships",
                 id="no ships"),
    pytest.param(lambda d: d["ledgers"][0]["ledger"].update(provinces="oops"),
                 r"ledger 1 of the campaign export \(setting up game 1, the campaign's first "
                 r"setup\) is damaged: 'provinces'", id="first setup"),
    pytest.param(lambda d: d["ledgers"][1]["ledger"].update(campaign_over="yes"),
                 r"ledger 2 .* is damaged: 'campaign_over' names the Emperor", id="over"),
    pytest.param(lambda d: d.update(game="chess"), r"of 'chess', a game this version does "
                 r"not play", id="game"),
])
def test_damaged_game_data_in_a_ledger_is_refused(exported, edit, why) -> None:
    """docs/store.md: each ledger's game data is read as its game's setup would read it,
    and the file refused naming the ledger, the game and the field. A campaign glory of
    "lots", a record's glory of "x" or a province without ships were imported (status 0)
    and the campaign broke at its next setup."""
    refused_whole(exported, edit, why)


@settings(max_examples=75, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_damaged_campaign_file_is_refused_or_imports_whole(exported, data) -> None:
    doc, sessions = exported
    # the ledgers' own contents are setups, fuzzed in test_setup_fuzz; the rest is damaged
    bare = {**doc, "ledgers": [{k: v for k, v in ledger.items() if k != "ledger"}
                               for ledger in doc["ledgers"]]}
    damaged_doc = copy.deepcopy(data.draw(damaged(bare))[0])  # its {} and [] are shared
    ledgers = damaged_doc.get("ledgers")
    for number, ledger in enumerate(ledgers if isinstance(ledgers, list) else []):
        if isinstance(ledger, dict) and number < len(doc["ledgers"]):
            ledger.setdefault("ledger", doc["ledgers"][number]["ledger"])
    imported(damaged_doc, sessions)
