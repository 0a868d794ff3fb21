"""JSON text from outside (a script line, an export file, a request body) into values, with
its nesting bounded and a byte-order mark allowed.

Python's parser recurses once per level, so a line of ``[[[[...`` 100,000 deep raised
``RecursionError`` from inside it; and values nested a few hundred deep parsed, only to
overflow whatever walks them next. No command, export or request of Tableside nests
anywhere near :data:`MAX_DEPTH`, so deeper text is refused as :class:`TooDeep`, a
``ValueError`` like any other text that is not JSON.

Python's parser also takes ``NaN``, ``Infinity`` and ``-Infinity``, and turns a number like
``1e400`` into infinity. None of them is JSON (RFC 8259, section 6), and a value that is
not a finite number cannot be stored or sent again: it used to be taken, only to fail when
the store wrote it. They are refused here as :class:`NotFinite`. A whole number of
thousands of digits raised Python's own ``ValueError`` (its limit on converting digits),
which the callers did not expect; it is :class:`TooLong` past :data:`MAX_DIGITS`. Each
refusal is a :class:`Refused`, a ``ValueError`` like any other text that is not JSON.
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["MAX_DEPTH", "MAX_DIGITS", "NotFinite", "Refused", "TooDeep", "TooLong", "loads",
           "nesting"]

MAX_DEPTH = 64
"""The most levels of arrays and objects taken (a SeaFall export, the deepest document
Tableside writes, nests about a dozen)."""


MAX_DIGITS = 100
"""The most digits a whole number may have (no count, id or version of Tableside comes near)."""


class Refused(ValueError):
    """JSON text refused although Python's parser would take it (or fail on it in a way
    of its own): see the subclasses."""


class TooDeep(Refused):
    """JSON nested more than :data:`MAX_DEPTH` levels."""

    def __init__(self) -> None:
        super().__init__(f"nested more than {MAX_DEPTH} levels deep")


class NotFinite(Refused):
    """A number that is not finite: ``NaN``, ``Infinity`` or one too large for a float."""

    def __init__(self, text: str) -> None:
        super().__init__(f"{text} is not a finite number")


class TooLong(Refused):
    """A whole number of more than :data:`MAX_DIGITS` digits."""

    def __init__(self, digits: int) -> None:
        super().__init__(f"a number of {digits} digits is too long (at most {MAX_DIGITS})")


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise TooLong(len(text.lstrip("-")))
    return int(text)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NotFinite(text if len(text) <= 40 else text[:37] + "...")
    return value


def _constant(name: str) -> Any:
    raise NotFinite(name)


def loads(text: str | bytes, **options: Any) -> Any:
    """``json.loads`` (its ``options`` too), refusing text nested more than
    :data:`MAX_DEPTH` levels (:class:`TooDeep`), numbers that are not finite
    (:class:`NotFinite`) and whole numbers too long (:class:`TooLong`); a caller's own
    ``parse_float``, ``parse_constant`` or ``parse_int`` is used instead. A byte-order mark
    before the text (Windows Notepad writes one) is passed over, as ``json.loads`` does for
    bytes but not for text."""
    if isinstance(text, str) and text.startswith("\ufeff"):
        text = text[1:]
    options.setdefault("parse_float", _finite)
    options.setdefault("parse_int", _whole)
    options.setdefault("parse_constant", _constant)
    try:
        value = json.loads(text, **options)
    except RecursionError:
        raise TooDeep() from None
    if nesting(value) > MAX_DEPTH:
        raise TooDeep()
    return value


def nesting(value: Any) -> int:
    """How many levels of lists and dicts ``value`` has (0 for a number or a string),
    walked without recursion."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        elif not isinstance(item, list):
            continue
        deepest = max(deepest, depth)
        if depth <= MAX_DEPTH:  # deeper is refused anyway: no need to walk it all
            stack.extend((child, depth + 1) for child in item
                         if isinstance(child, (dict, list)))
    return deepest
