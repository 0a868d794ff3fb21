"""A hypothesis strategy for documents from outside damaged one change at a time: a value
deep inside deleted, replaced by a value of another kind, or given a key it does not know.
Used by the fuzz tests of setups, ledgers and button mappings."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 10**9), st.text(max_size=4),
    st.floats(allow_nan=False, allow_infinity=False), st.just([]), st.just({}),
    st.lists(st.integers(-1, 3), max_size=2),
    st.dictionaries(st.sampled_from(["red", "blue", "x"]), st.integers(-1, 3), max_size=2))


@st.composite
def damaged(draw: st.DrawFn, options: dict[str, Any],
            under: str | None = None) -> tuple[dict[str, Any], list[Any]]:
    """``options`` with one value deep inside it (inside ``options[under]``, if given)
    deleted, replaced or given an extra key."""
    options = copy.deepcopy(options)
    node: Any = options
    path: list[Any] = []
    if under is not None and options[under] and draw(st.booleans()):
        node, path = options[under], [under]
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = draw(st.sampled_from(keys))
        path.append(key)
        child = node[key]
        if isinstance(child, (dict, list)) and child and draw(st.booleans()):
            node = child
            continue
        change = draw(st.sampled_from(["delete", "replace", "add"]))
        if change == "delete":
            del node[key]
        elif change == "add" and isinstance(child, dict):
            child[draw(st.sampled_from(["goldd", "x", "name2"]))] = draw(VALUES)
        else:
            node[key] = draw(VALUES)
        return options, [*path, change]
