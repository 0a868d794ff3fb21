from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.events import ButtonEvent, ButtonKind
from firmware_bridge.firmware import leds as ledmodes
from firmware_bridge.mapping import (
    Expectation,
    MappingError,
    builtin_games,
    builtin_mapping,
    load_mapping,
    parse_action,
    parse_mapping,
)
from tests.support.damage import damaged

BUILTIN = resources.files("firmware_bridge.mappings")
ROLL_AWAITS_CONFIRMATION = Expectation(frozenset({"confirm", "reread", "undo"}))
CHOICE_OF_TWO = Expectation(frozenset({"option", "undo"}), options=2)
FORTUNE = Expectation(frozenset({"fortune", "confirm"}))


def press(button: int, kind: ButtonKind = ButtonKind.PRESS) -> ButtonEvent:
    return ButtonEvent(button, kind, 0, 0.0, "keys")


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("confirm", {"action": "confirm"}),
        ("reread", {"action": "reread"}),
        ("next", {"action": "next"}),
        ("undo", {"action": "undo"}),
        ("option 3", {"action": "option", "n": 3}),
        ("fortune +", {"action": "fortune", "delta": 1}),
        ("fortune -", {"action": "fortune", "delta": -1}),
    ],
)
def test_mapping_actions_become_generic_answers(text: str, answer: dict) -> None:
    assert parse_action(text) == answer


@pytest.mark.parametrize("text", ["option 0", "option", "fortune", "explode", "fortune ++"])
def test_mapping_unknown_actions_are_refused(text: str) -> None:
    with pytest.raises(MappingError):
        parse_action(text)


@pytest.mark.parametrize(
    ("expects", "event", "answer"),
    [
        pytest.param(ROLL_AWAITS_CONFIRMATION, press(0), {"action": "confirm"}, id="confirm roll"),
        pytest.param(ROLL_AWAITS_CONFIRMATION, press(4), None, id="option not asked"),
        pytest.param(CHOICE_OF_TWO, press(5), {"action": "option", "n": 2}, id="option 2"),
        pytest.param(CHOICE_OF_TWO, press(4, ButtonKind.HOLD), None, id="option 3 of 2"),
        pytest.param(FORTUNE, press(7), {"action": "fortune", "delta": -1}, id="fortune -"),
        pytest.param(FORTUNE, press(0, ButtonKind.RELEASE), None, id="release answers nothing"),
    ],
)
def test_mapping_answers_only_what_the_prompt_accepts(expects, event, answer) -> None:
    assert builtin_mapping("seafall").answer(event, expects) == answer


def test_mapping_leds_show_what_the_table_expects() -> None:
    seafall = builtin_mapping("seafall")
    assert seafall.led_modes(ROLL_AWAITS_CONFIRMATION) == ["B400/400", "0", "0", "1"]
    assert seafall.led_modes(CHOICE_OF_TWO) == ["0", "1", "0", "1"]
    assert seafall.led_modes(Expectation(frozenset({"option"}), options=0)) == ["0"] * 4
    assert seafall.led_modes(Expectation(), count=6) == ["0"] * 6


def test_mapping_every_builtin_file_loads() -> None:
    games = builtin_games()
    assert {"default", "seafall", "city-of-five-sails", "after-the-empire",
            "seafarers"} <= set(games)
    for game in games:
        mapping = builtin_mapping(game)
        assert mapping.game == game and mapping.answers


def test_mapping_unknown_game_falls_back_to_default() -> None:
    assert builtin_mapping("chess").game == "default"


def test_mapping_loads_a_user_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"game": "mine", "buttons": {"2": {"hold": "undo"}}}))
    mapping = load_mapping(path)
    assert mapping.answer(press(2, ButtonKind.HOLD), Expectation(frozenset({"undo"}))) == {
        "action": "undo"
    }


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param([], "JSON object", id="not an object"),
        pytest.param({"buttons": {}}, "'game'", id="no game"),
        pytest.param({"game": "g", "buttons": {"9": {"press": "undo"}}}, "button '9'", id="btn 9"),
        pytest.param({"game": "g", "buttons": {"1": {"tap": "undo"}}}, "press or hold", id="tap"),
        pytest.param({"game": "g", "buttons": {"1": {"press": "fly"}}}, "button 1 press", id="fly"),
        pytest.param({"game": "g", "leds": {"0": "party"}}, "unknown role", id="led role"),
        pytest.param(
            {"game": "g", "leds": {"0": {"role": "undo", "mode": "B0/1"}}}, "bad mode", id="mode"
        ),
        pytest.param(  # raised TypeError (len() of a number) in the firmware's mode parser
            {"game": "g", "leds": {"0": {"role": "undo", "mode": 1}}}, "bad mode",
            id="mode a number, not text",
        ),
    ],
)
def test_mapping_errors_name_the_file_and_entry(data, message: str) -> None:
    with pytest.raises(MappingError, match=message) as info:
        parse_mapping(data, "games/x.json")
    assert "games/x.json" in str(info.value)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(builtin_games()).flatmap(
    lambda game: damaged(json.loads(BUILTIN.joinpath(f"{game}.json").read_text()))))
def test_a_damaged_mapping_loads_or_is_a_mapping_error(case) -> None:
    """A mapping file from a player, one value changed: it loads, or says what is wrong."""
    data, _ = case
    try:
        mapping = parse_mapping(data, "games/x.json")
    except MappingError as exc:
        assert "games/x.json" in str(exc)
    else:
        assert all(led is None or ledmodes.parse_mode(led.mode) for led in mapping.leds)


def test_mapping_unreadable_file_is_a_mapping_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(MappingError):
        load_mapping(bad)
    good = tmp_path / "notepad.json"  # saved by Windows Notepad, with a byte-order mark
    good.write_bytes(b"\xef\xbb\xbf" + json.dumps({"game": "x", "buttons": {}}).encode())
    assert load_mapping(good).game == "x"
    bad.write_bytes(b"\xff\xfe{}")  # not UTF-8: escaped as UnicodeDecodeError
    with pytest.raises(MappingError, match="bad.json: not a text \\(JSON\\) file: byte 0 is 0xff"):
        load_mapping(bad)
    bad.write_text("[" * 100_000 + "]" * 100_000)  # escaped as RecursionError
    with pytest.raises(MappingError, match="nested too deep to be a mapping"):
        load_mapping(bad)


def test_tap_or_hold_never_fires_the_short_meaning_of_a_long_press():
    """A button with a hold meaning answers its tap on release, its hold on hold; a button
    without one answers at once on press."""
    from firmware_bridge.events import ButtonEvent, ButtonKind
    from firmware_bridge.mapping import Expectation, TapOrHold, builtin_mapping

    reader = TapOrHold(builtin_mapping("seafall"))  # 4: option 1, hold: option 3; 0: confirm
    expects = Expectation(frozenset({"option", "confirm"}), 4)

    def edge(button: int, kind: ButtonKind, seq: int) -> ButtonEvent:
        return ButtonEvent(button, kind, seq, float(seq), "test")

    assert reader.answer(edge(4, ButtonKind.PRESS, 0), expects) is None
    assert reader.answer(edge(4, ButtonKind.HOLD, 1), expects) == {"action": "option", "n": 3}
    assert reader.answer(edge(4, ButtonKind.RELEASE, 2), expects) is None
    assert reader.answer(edge(4, ButtonKind.PRESS, 3), expects) is None
    assert reader.answer(edge(4, ButtonKind.RELEASE, 4), expects) == {"action": "option", "n": 1}
    assert reader.answer(edge(0, ButtonKind.PRESS, 5), expects) == {"action": "confirm"}
    assert reader.answer(edge(0, ButtonKind.RELEASE, 6), expects) is None
