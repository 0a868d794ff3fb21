"""The engine's own text in the page's language: event sentences in the history, in a
command's answer and on the live stream follow the request's language (``?lang=``, else the
``lang`` cookie, else Accept-Language); the catalogues carry a question for every prompt the
SeaFall engine asks and labels for its fixed option values (the pages render them,
tests/e2e/browser/test_phone_pages.py)."""

from __future__ import annotations

import inspect
import json
import re
import string
from pathlib import Path
from typing import Any

import pytest

from companion.engine import Event
from companion.games.seafall import endgame
from companion.games.seafall.components import GOODS, GUILDS
from companion.games.seafall.engine import SeaFall
from companion.games.seafall.state import TITLES

I18N = Path(__file__).resolve().parents[2] / "web" / "i18n"
FR = {"Accept-Language": "fr-FR,fr;q=0.9"}
ENGINE = SeaFall()


def _texts(history: dict[str, Any]) -> list[tuple[str, dict[str, Any], str]]:
    return [(e["type"], e["payload"], e["text"])
            for entry in history["history"] for e in entry["events"]]


def _hire(host, table_id: str, guild: str = "explorers", **headers: str) -> Any:
    response = host.post(f"/api/tables/{table_id}/commands", headers=headers,
                         json={"type": "hire_guild", "actor": "blue", "args": {"guild": guild}})
    assert response.status_code == 200, response.json
    return response.json


def test_history_is_in_the_browsers_language(host, table_id):
    _hire(host, table_id)
    english = host.get(f"/api/tables/{table_id}/history").json
    french = host.get(f"/api/tables/{table_id}/history", headers=FR).json
    assert (english["lang"], french["lang"]) == ("en", "fr")
    en, fr = _texts(english), _texts(french)
    assert len(en) == len(fr) >= 3
    for (type_, payload, en_text), (_, _, fr_text) in zip(en, fr, strict=True):
        event = Event(type_, payload)
        assert en_text == ENGINE.describe(event)  # English exactly as before
        assert fr_text == ENGINE.describe(event, "fr") != en_text
    assert "Bleu engage la guilde des explorateurs." in [t for *_, t in fr]


@pytest.mark.parametrize(("query", "headers", "cookie", "lang"), [
    ("", {}, None, "en"),
    ("", FR, None, "fr"),
    ("", {}, "fr", "fr"),
    ("", FR, "en", "en"),            # the switch's cookie wins over the browser
    ("?lang=en", FR, "fr", "en"),    # a page asking for the language it shows wins
    ("?lang=fr", {}, None, "fr"),
    ("?lang=de", FR, None, "fr"),    # a language we do not have is ignored
    ("?lang=de", {}, None, "en"),
])
def test_the_language_of_a_request(app, table_id, query, headers, cookie, lang):
    client = app.test_client()
    if cookie:
        client.set_cookie("lang", cookie)
    body = client.get(f"/api/tables/{table_id}/history{query}", headers=headers).json
    assert body["lang"] == lang
    texts = [t for *_, t in _texts(body)]
    expected = "Début du tour de Bleu." if lang == "fr" else "Blue's turn begins."
    assert expected in texts


def test_a_commands_answer_describes_its_events_in_the_request_language(host, table_id):
    answer = _hire(host, table_id, "merchants", **FR)
    assert [e["text"] for e in answer["events"]] == ["Bleu engage la guilde des marchands."]
    answer = host.post(f"/api/tables/{table_id}/undo", headers=FR, json={"actor": "blue"}).json
    assert [e["text"] for e in answer["events"]] == ["Annulé : Engager une guilde (Bleu)."]


def _named_table(host) -> str:
    """A demo table whose blue province is played by Zoé (a name typed at setup)."""
    from companion.games.seafall.setup import demo_options
    options = demo_options()
    options["provinces"][0]["player"] = "Zoé"
    response = host.post("/api/tables", json={"game": "seafall", "options": options})
    assert response.status_code == 201, response.json
    return str(response.json["id"])


@pytest.mark.parametrize(("headers", "undone", "redone"), [
    ({}, "Taken back: Hire a guild (Zoé).", "Done again: Hire a guild (Zoé)."),
    (FR, "Annulé : Engager une guilde (Zoé).", "Rétabli : Engager une guilde (Zoé)."),
])
def test_an_undo_names_what_it_took_back_never_a_command_number(app, host, headers, undone,
                                                                  redone):
    """An undo's and a redo's line (its answer, the history, the live stream) names the
    command and whose it was, as the history card does; it said "Command 1 undone." /
    « Action n° 1 annulée. »."""
    table_id = _named_table(host)
    _hire(host, table_id)
    answer = host.post(f"/api/tables/{table_id}/undo", headers=headers,
                       json={"actor": "blue"}).json
    assert [e["text"] for e in answer["events"]] == [undone]
    streamed = _first_table_message(app.test_client(), f"/api/stream/{table_id}", **headers)
    assert [e["text"] for e in streamed["events"]] == [undone]
    answer = host.post(f"/api/tables/{table_id}/redo", headers=headers,
                       json={"actor": "blue"}).json
    assert [e["text"] for e in answer["events"]] == [redone]
    texts = [t for *_, t in _texts(host.get(f"/api/tables/{table_id}/history",
                                            headers=headers).json)]
    assert texts[-2:] == [undone, redone]
    assert not any(re.search(r"\d+ (undone|redone)|n° \d", t) for t in texts)


def _first_table_message(client, path: str, **headers: str) -> dict[str, Any]:
    """The first ``table`` message of a stream (the current version), then hang up."""
    response = client.get(path, headers=headers, buffered=False)
    assert response.status_code == 200
    try:
        buffer = b""
        for chunk in response.response:
            buffer += chunk
            match = re.search(rb"event: table\ndata: (.*)\n\n", buffer)
            if match:
                return json.loads(match.group(1))
        raise AssertionError("the stream ended before a table message")
    finally:
        response.close()


def test_each_stream_speaks_the_language_it_connected_with(app, services, host, table_id):
    _hire(host, table_id)
    path = f"/api/stream/{table_id}"
    french = _first_table_message(app.test_client(), path, **FR)
    english = _first_table_message(app.test_client(), path)
    by_query = _first_table_message(app.test_client(), path + "?lang=fr")
    assert french["version"] == english["version"] == by_query["version"]
    assert [e["text"] for e in french["events"]] == ["Bleu engage la guilde des explorateurs."]
    assert [e["text"] for e in english["events"]] == ["Blue hires the Explorers guild."]
    assert by_query["events"] == french["events"]
    assert french["table"] == english["table"]  # only the sentences change
    assert services.live.open_streams == 0  # every stream let go of its slot


def _command(host, table_id: str, type_: str, args: dict[str, Any]) -> None:
    response = host.post(f"/api/tables/{table_id}/commands",
                         json={"type": type_, "actor": "blue", "args": args})
    assert response.status_code == 200, response.json


def test_the_dice_pools_reasons_are_said_in_the_request_language(app, host, table_id):
    """The view keeps the engine's English; ``phrases`` gives each engine-written reason in
    the request's language (the pages show it: docs/ui.md, "Languages"), in the answer of
    GET table, of /choices (the endeavor previews) and on the live stream."""
    flagship = "flagship: Blue ship 1's printed explore"
    _hire(host, table_id)
    _command(host, table_id, "sail", {"moves": [{"ship": "blue-1",
                                                 "path": ["coastal_waters", "isle-a"]}]})
    choices = host.get(f"/api/tables/{table_id}/choices", headers=FR).json
    assert choices["phrases"][flagship] == (
        "vaisseau amiral : valeur imprimée (exploration) de Bateau bleu 1")
    # each command's summary shown (not its bare name) is French too: a cost, a move, odds
    shown = {c["summary"] for c in choices["commands"]
             if c["summary"] != c["type"].replace("_", " ")}
    assert shown and shown <= set(choices["phrases"])
    assert choices["phrases"]["2 dice against defense 3"] == "2 dés contre défense 3"
    assert host.get(f"/api/tables/{table_id}/choices").json["phrases"] == {}
    _command(host, table_id, "explore", {"flagship": "blue-1", "site": "isle-a/3"})
    french = host.get(f"/api/tables/{table_id}", headers=FR).json
    english = host.get(f"/api/tables/{table_id}").json
    pool = [line["reason"] for line in french["state"]["endeavor"]["pool"]]
    assert flagship in pool and french["state"] == english["state"]  # the view stays English
    assert french["phrases"] == {r: ENGINE.phrase(r, "fr") for r in pool
                                 if ENGINE.phrase(r, "fr") != r}
    assert flagship in french["phrases"] and english["phrases"] == {}
    streamed = _first_table_message(app.test_client(), f"/api/stream/{table_id}", **FR)
    assert streamed["table"]["phrases"] == french["phrases"]


# ---- the catalogues' prompt keys ----------------------------------------------------------

def catalogue(lang: str) -> dict[str, str]:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


def prompt_commands() -> set[str]:
    """Every command a SeaFall prompt answers with, read from the engine's source, so a new
    prompt without catalogue keys fails here."""
    asks = inspect.getsource(SeaFall.prompts)
    end = inspect.getsource(SeaFall._end_prompts)
    found = set(re.findall(r'command="(\w+)"', asks)) | set(re.findall(r',\s*"(\w+)"\)', end))
    return found


PLUNDER_STEPS = ("site", "goods", "ship", "docks", "council_room", "treasure_room",
                 "structure")


def test_every_prompt_the_engine_asks_has_a_question_in_both_languages():
    commands = prompt_commands()
    assert {"hire_guild", "assign_damage", "spend_fortune", "plunder", "settle_enmity",
            "choose_title", "deal_advisor", "reveal_event"} <= commands
    assert len(commands) >= 14
    keys = {f"prompt.{c}" for c in commands - {"plunder"}}
    keys |= {f"prompt.plunder.{s}" for s in PLUNDER_STEPS}
    keys |= {"prompt.roll.endeavor", "prompt.roll.reroll", "prompt.roll.enmity"}
    en, fr = catalogue("en"), catalogue("fr")
    for key in sorted(keys):
        assert key in en and key in fr, key
        assert en[key] != fr[key], key


def test_fixed_option_values_have_labels_in_both_languages():
    en, fr = catalogue("en"), catalogue("fr")
    values = ([f"option.guild.{g}" for g in GUILDS] + [f"option.good.{g}" for g in GOODS]
              + [f"option.stat.{s}" for s in endgame.SHIP_STATS]
              + [f"option.title.{t}" for t in TITLES])
    assert len(values) >= 17
    for key in values:
        assert key in en and key in fr, key
    assert fr["option.guild.soldiers"] == "Soldats"
    assert fr["option.stat.raid"] == "pillage"  # the glossary's word for raid


def test_prompt_texts_fill_the_same_values_in_both_languages():
    en, fr = catalogue("en"), catalogue("fr")
    fields = string.Formatter()
    for key in (k for k in en if k.startswith(("prompt.", "option."))):
        assert {f for _, f, _, _ in fields.parse(en[key]) if f} \
            == {f for _, f, _, _ in fields.parse(fr[key]) if f}, key


def test_the_pages_render_prompts_from_these_keys():
    views = (I18N.parent / "static" / "js" / "views.js").read_text(encoding="utf-8")
    for prefix in ('"prompt." + prompt.command', '"prompt.plunder." + step',
                   '"option.guild." + value', '"option.title." + value'):
        assert prefix in views, prefix
    for page in ("table.js", "tv.js"):
        script = (I18N.parent / "static" / "js" / page).read_text(encoding="utf-8")
        assert "promptQuestion(" in script, page
        assert "prompt.question ||" not in script, page  # never the engine's text first


def test_every_command_of_the_engine_has_a_name_in_both_languages():
    """The history heads each entry with its command's name: one without a catalogue key
    showed its id ("deal advisor", on a French page too)."""
    from companion.games.seafall.engine import COMMANDS

    en, fr = catalogue("en"), catalogue("fr")
    for command in COMMANDS:
        assert f"command.{command}" in en and f"command.{command}" in fr, command
