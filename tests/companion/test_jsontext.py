"""JSON text from outside with its nesting bounded (``companion/jsontext.py``)."""

from __future__ import annotations

import json

import pytest

from companion.jsontext import (
    MAX_DEPTH,
    MAX_DIGITS,
    NotFinite,
    Refused,
    TooDeep,
    TooLong,
    loads,
    nesting,
)


def test_nesting_counts_levels_of_lists_and_objects() -> None:
    assert [nesting(v) for v in (1, "x", None, [], {}, [1, {"a": []}], {"a": {"b": [2]}})] \
        == [0, 0, 0, 1, 1, 3, 3]


def test_text_up_to_the_limit_parses_as_json_does() -> None:
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads(text) == json.loads(text) and nesting(loads(text)) == MAX_DEPTH
    assert loads('{"a": [1, 2.5, "x", null]}') == {"a": [1, 2.5, "x", None]}
    assert loads(b'{"a": 1}', parse_constant=str) == {"a": 1}  # options and bytes pass on


@pytest.mark.parametrize("text", [
    pytest.param("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), id="one level too many"),
    pytest.param('{"a": ' * 500 + "1" + "}" * 500, id="deep, and parsable"),
    pytest.param("[" * 100_000 + "]" * 100_000, id="deeper than the parser recurses"),
    pytest.param("[" * 100_000, id="deep and unclosed"),
])
def test_text_nested_deeper_is_too_deep_a_value_error(text: str) -> None:
    with pytest.raises(TooDeep, match=f"nested more than {MAX_DEPTH} levels deep"):
        loads(text)
    assert issubclass(TooDeep, ValueError)


def test_text_that_is_not_json_is_still_json_s_error() -> None:
    with pytest.raises(json.JSONDecodeError):
        loads("{not json")


def test_a_byte_order_mark_before_the_text_is_passed_over() -> None:
    """A script or an export saved by Windows Notepad: "Unexpected UTF-8 BOM" before."""
    assert loads('\ufeff{"setup": {}}') == {"setup": {}}
    assert loads(b'\xef\xbb\xbf{"setup": {}}') == {"setup": {}}
    with pytest.raises(json.JSONDecodeError):
        loads('{"a": 1}\ufeff')  # anywhere else it is not JSON


@pytest.mark.parametrize("text, named", [
    ('{"dice": NaN}', "NaN"),
    ('[Infinity]', "Infinity"),
    ('{"glory": -Infinity}', "-Infinity"),
    ('{"gold": 1e400}', "1e400"),
    ('[-' + "9" * 400 + '.5]', "-999"),
])
def test_numbers_that_are_not_finite_are_refused(text: str, named: str) -> None:
    """RFC 8259, section 6: NaN and Infinity are not JSON. Python's parser took them, and
    made 1e400 infinite; the value then failed only when the store wrote it."""
    with pytest.raises(NotFinite, match="is not a finite number") as caught:
        loads(text)
    assert named in str(caught.value) and len(str(caught.value)) < 100
    assert issubclass(NotFinite, ValueError)


def test_a_whole_number_too_long_is_refused_as_json_text() -> None:
    """Thousands of digits raised Python's own ValueError (its limit on converting digits),
    which the callers did not catch: a traceback from 'play' and 'campaign import'."""
    assert loads("[" + "9" * MAX_DIGITS + ", -" + "9" * MAX_DIGITS + "]")[0] == 10**MAX_DIGITS - 1
    for text in ("[" + "9" * (MAX_DIGITS + 1) + "]", '{"a": -' + "1" * 5000 + "}"):
        with pytest.raises(TooLong, match="digits is too long"):
            loads(text)
    assert issubclass(TooLong, Refused)


def test_finite_numbers_still_parse_and_a_caller_may_choose_its_own() -> None:
    assert loads('[1.5, -0.0, 1e300, 2]') == [1.5, -0.0, 1e300, 2]
    assert loads('[NaN]', parse_constant=str) == ["NaN"]
    assert loads('[1e400]', parse_float=str) == ["1e400"]
