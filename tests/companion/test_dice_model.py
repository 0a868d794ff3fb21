"""Dice as data: faces, built-in and custom dice, dice reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.dice.model import (
    D6,
    MAX_FACES,
    SEAFALL,
    DiceRead,
    Die,
    Face,
    find_die,
    load_die,
    numeric_die,
)
from companion.errors import InvalidCommand


def test_seafall_die_has_two_blank_two_standard_one_weak_one_strong() -> None:
    """Endeavors and Damage > Dice; face counts from RULES-FACTS.md "The die"."""
    assert SEAFALL.name == "seafall"
    assert len(SEAFALL.faces) == 6
    assert SEAFALL.kinds == ("blank", "standard", "weak", "strong")
    assert [SEAFALL.count(k) for k in SEAFALL.kinds] == [2, 2, 1, 1]
    assert sum(f.value for f in SEAFALL.faces) == 4  # four faces of six are one success


def test_d6_faces_are_worth_their_pips() -> None:
    assert [(f.label, f.value) for f in D6.faces] == [(str(n), n) for n in range(1, 7)]


@pytest.mark.parametrize("sides", [1, 4, 6, 20])
def test_numeric_die_is_numbered_one_to_sides(sides: int) -> None:
    die = numeric_die(sides)
    assert die.name == f"d{sides}"
    assert [f.value for f in die.faces] == list(range(1, sides + 1))


def test_numeric_die_six_is_the_builtin_d6() -> None:
    assert numeric_die(6) == D6


@pytest.mark.parametrize("sides", [0, -3, True])
def test_numeric_die_refuses_no_sides(sides: int) -> None:
    with pytest.raises(ValueError, match="1 or more sides"):
        numeric_die(sides)


def test_face_by_label_and_unknown_label() -> None:
    assert SEAFALL.face("strong") == Face("strong", "strong", 1)
    with pytest.raises(InvalidCommand, match="'sword' is not a face of the seafall die"):
        SEAFALL.face("sword")


@pytest.mark.parametrize("die", [SEAFALL, D6], ids=lambda d: d.name)
def test_die_json_round_trips(die: Die) -> None:
    assert Die.from_json(die.to_json()) == die


def test_kind_defaults_to_label_and_count_to_one() -> None:
    die = Die.from_json(
        {"name": "coin", "faces": [{"label": "heads", "value": 1}, {"label": "tails", "value": 0}]}
    )
    assert die.faces == (Face("heads", "heads", 1), Face("tails", "tails", 0))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param({"faces": []}, "needs 'name' and 'faces'", id="no name"),
        pytest.param([1, 2], "needs 'name' and 'faces'", id="not an object"),
        pytest.param(
            {"name": "", "faces": [{"label": "a", "value": 1}]}, "non-empty", id="empty name"
        ),
        pytest.param({"name": "x", "faces": []}, "non-empty list", id="no faces"),
        pytest.param({"name": "x", "faces": ["a"]}, "must be an object", id="face not object"),
        pytest.param({"name": "x", "faces": [{"value": 1}]}, "'label'", id="no label"),
        pytest.param(
            {"name": "x", "faces": [{"label": "a", "value": "1"}]}, "integer", id="str value"
        ),
        pytest.param(
            {"name": "x", "faces": [{"label": "a", "value": True}]}, "integer", id="bool value"
        ),
        pytest.param(
            {"name": "x", "faces": [{"label": "a", "value": 1, "count": 0}]}, "count", id="count 0"
        ),
        pytest.param(
            {"name": "x", "faces": [{"label": "a", "value": 1, "kind": ""}]},
            "kind",
            id="empty kind",
        ),
        pytest.param(  # built a list of a billion faces: the memory filled
            {"name": "x", "faces": [{"label": "a", "value": 1, "count": 10**9}]},
            "more than 1000 faces", id="count past any die",
        ),
        pytest.param(
            {"name": "x", "faces": [{"label": "a", "value": 1, "count": 999},
                                    {"label": "b", "value": 0, "count": 2}]},
            "more than 1000 faces", id="faces past any die, counted together",
        ),
        pytest.param(  # a read of "a" could be worth 1 or 2
            {"name": "x", "faces": [{"label": "a", "value": 1}, {"label": "a", "value": 2}]},
            "'a' is listed twice, with different kinds or values", id="one label, two values",
        ),
    ],
)
def test_die_from_json_names_what_is_wrong(data: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Die.from_json(data)


def test_a_face_listed_twice_alike_counts_twice_and_a_d1000_loads() -> None:
    die = Die.from_json({"name": "x", "faces": [{"label": "a", "value": 1},
                                                {"label": "b", "value": 0},
                                                {"label": "a", "value": 1}]})
    assert die.count("a") == 2 and die.labels == ("a", "b")
    assert len(Die.from_json({"name": "d1000", "faces": [
        {"label": str(n), "value": n} for n in range(1, MAX_FACES + 1)]}).faces) == MAX_FACES


def test_die_needs_faces() -> None:
    with pytest.raises(ValueError, match="no faces"):
        Die("empty", ())


def test_load_die_and_find_die_by_path(tmp_path: Path) -> None:
    path = tmp_path / "fate.json"
    path.write_text(
        json.dumps(
            {
                "name": "fate",
                "faces": [
                    {"label": "+", "value": 1, "count": 2},
                    {"label": "0", "value": 0, "count": 2},
                    {"label": "-", "value": -1, "count": 2},
                ],
            }
        ),
        encoding="utf-8",
    )
    die = load_die(path)
    assert die.name == "fate" and len(die.faces) == 6
    assert find_die(str(path)) == die


def test_load_die_reports_unreadable_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="cannot read die file"):
        load_die(bad)
    with pytest.raises(ValueError, match="cannot read die file"):
        load_die(tmp_path / "missing.json")
    bad.write_text("[" * 100_000 + "]" * 100_000)  # raised RecursionError
    with pytest.raises(ValueError, match="cannot read die file .*nested more than 64"):
        load_die(bad)


def test_find_die_builtin_and_unknown() -> None:
    assert find_die("seafall") is SEAFALL
    assert find_die("d6") is D6
    with pytest.raises(KeyError, match="unknown die 'd7'"):
        find_die("d7")


def test_dice_read_validates_against_its_die() -> None:
    read = DiceRead("seafall", ("blank", "strong"))
    assert read.validate(SEAFALL) is read
    with pytest.raises(InvalidCommand, match="expected d6 dice"):
        read.validate(D6)
    with pytest.raises(InvalidCommand, match="not a face"):
        DiceRead("seafall", ("blank", "skull")).validate(SEAFALL)
    with pytest.raises(InvalidCommand, match="one confidence per die"):
        DiceRead("seafall", ("blank",), confidence=(0.9, 0.8)).validate(SEAFALL)


def test_dice_read_json_round_trips() -> None:
    read = DiceRead(
        "d6", ("3", "5"), source="camera", confidence=(0.99, 0.75), read_id="r1", image="a.jpg"
    )
    assert DiceRead.from_json(json.loads(json.dumps(read.to_json()))) == read


def test_dice_read_from_a_bare_list_uses_the_default_die() -> None:
    assert DiceRead.from_json(["weak", "blank"], default_die="seafall") == DiceRead(
        "seafall", ("weak", "blank")
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param("weak", "JSON object or a list", id="a string"),
        pytest.param({"faces": ["1"]}, "name of its die", id="no die"),
        pytest.param({"die": "d6", "faces": "12"}, "list of face labels", id="faces a string"),
        pytest.param({"die": "d6", "faces": [1]}, "string label", id="face not a string"),
        pytest.param(
            {"die": "d6", "faces": ["1"], "confidence": ["x"]}, "list of numbers", id="conf"
        ),
        pytest.param({"die": "d6", "faces": ["1"], "source": 3}, "'source'", id="source"),
    ],
)
def test_dice_read_from_json_refuses_bad_shapes(data: Any, message: str) -> None:
    with pytest.raises(InvalidCommand, match=message):
        DiceRead.from_json(data)
