"""JSON text from outside with its nesting bounded (``companion/jsontext.py``)."""

from __future__ import annotations

import json

import pytest

from companion.jsontext import MAX_DEPTH, TooDeep, loads, nesting


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
