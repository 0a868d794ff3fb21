"""JSON text from outside (a script line, an export file, a request body) into values, with
its nesting bounded and a byte-order mark allowed.

Python's parser recurses once per level, so a line of ``[[[[...`` 100,000 deep raised
``RecursionError`` from inside it; and values nested a few hundred deep parsed, only to
overflow whatever walks them next. No command, export or request of Tableside nests
anywhere near :data:`MAX_DEPTH`, so deeper text is refused as :class:`TooDeep`, a
``ValueError`` like any other text that is not JSON.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["MAX_DEPTH", "TooDeep", "loads", "nesting"]

MAX_DEPTH = 64
"""The most levels of arrays and objects taken (a SeaFall export, the deepest document
Tableside writes, nests about a dozen)."""


class TooDeep(ValueError):
    """JSON nested more than :data:`MAX_DEPTH` levels."""

    def __init__(self) -> None:
        super().__init__(f"nested more than {MAX_DEPTH} levels deep")


def loads(text: str | bytes, **options: Any) -> Any:
    """``json.loads`` (its ``options`` too), refusing text nested more than
    :data:`MAX_DEPTH` levels (:class:`TooDeep`). A byte-order mark before the text (Windows
    Notepad writes one) is passed over, as ``json.loads`` does for bytes but not for text."""
    if isinstance(text, str) and text.startswith("\ufeff"):
        text = text[1:]
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
