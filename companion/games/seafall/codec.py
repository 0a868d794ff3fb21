"""Turn the game's dataclasses into JSON-able data and back, driven by their type hints.

Snapshots and the ``GameSetUp`` event carry whole states, so the round trip must be exact:
``load(cls, dump(x)) == x`` for every state the engine makes.
"""

from __future__ import annotations

import dataclasses
import sys
import types
import typing
from functools import cache
from typing import Any, Union


def dump(obj: Any) -> Any:
    """A dataclass tree as plain JSON data (dicts, lists, str, int, bool, None)."""
    if hasattr(obj, "to_json"):
        return obj.to_json()
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: dump(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (list, tuple)):
        return [dump(v) for v in obj]
    if isinstance(obj, dict):
        return {str(k): dump(v) for k, v in obj.items()}
    return obj


@cache
def _hints(cls: type) -> dict[str, Any]:
    module = sys.modules[cls.__module__]
    return typing.get_type_hints(cls, vars(module))


def load(tp: Any, data: Any) -> Any:
    """Build a value of type ``tp`` from JSON data made by :func:`dump`."""
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if data is None:
            return None
        return load(args[0], data)
    if origin is list:
        (item,) = typing.get_args(tp)
        return [load(item, v) for v in data]
    if origin is tuple:
        item = typing.get_args(tp)[0]
        return tuple(load(item, v) for v in data)
    if origin is dict:
        _, val = typing.get_args(tp)
        return {k: load(val, v) for k, v in data.items()}
    if isinstance(tp, type) and hasattr(tp, "from_json"):
        return tp.from_json(data)
    if dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        kwargs = {
            f.name: load(hints[f.name], data[f.name])
            for f in dataclasses.fields(tp)
            if f.name in data
        }
        return tp(**kwargs)
    return data


_ATOMS = (str, int, float, bool, type(None))


def clone(obj: Any) -> Any:
    """A deep copy of a state tree; frozen values (catalogue, effects) are shared.

    Several times faster than :func:`copy.deepcopy`, which matters because every event
    folds into a fresh copy of the state.
    """
    if isinstance(obj, _ATOMS):
        return obj
    if isinstance(obj, list):
        return [clone(v) for v in obj]
    if isinstance(obj, dict):
        return {k: clone(v) for k, v in obj.items()}
    params = getattr(obj, "__dataclass_params__", None)
    if params is not None:
        if params.frozen:
            return obj
        new = object.__new__(obj.__class__)
        new.__dict__.update({k: clone(v) for k, v in obj.__dict__.items()})
        return new
    if isinstance(obj, tuple):
        return tuple(clone(v) for v in obj)
    raise TypeError(f"cannot clone a {type(obj).__name__}")
