"""Turn the game's dataclasses into JSON-able data and back, driven by their type hints.

Snapshots and the ``GameSetUp`` event carry whole states, so the round trip must be exact:
``load(cls, dump(x)) == x`` for every state the engine makes.
"""

from __future__ import annotations

import dataclasses
import json
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


def load(tp: Any, data: Any, where: str = "state") -> Any:
    """Build a value of type ``tp`` from JSON data made by :func:`dump`.

    The data is checked against the type hints on the way (a whole number where an ``int``
    is, a string where a ``str`` is, an object with every required field where a dataclass
    is): a ``ValueError`` names the first value that is not what the state holds there, as
    ``provinces.red.gold``. Keys a dataclass does not have are passed over, as states
    written before a field was dropped still hold it.
    """
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        if data is None:
            if type(None) not in typing.get_args(tp):
                raise ValueError(f"{where}: may not be null")
            return None
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        return load(args[0], data, where)
    if origin is list or origin is tuple:
        if not isinstance(data, list):
            raise ValueError(f"{where}: a list, not {_shown(data)}")
        item = typing.get_args(tp)[0]
        items = [load(item, v, f"{where}[{i}]") for i, v in enumerate(data)]
        return items if origin is list else tuple(items)
    if origin is dict:
        _, val = typing.get_args(tp)
        if not isinstance(data, dict):
            raise ValueError(f"{where}: an object, not {_shown(data)}")
        return {k: load(val, v, f"{where}.{k}") for k, v in data.items()}
    if isinstance(tp, type) and hasattr(tp, "from_json"):
        try:
            return tp.from_json(data)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise ValueError(f"{where}: {exc}") from None
    if dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise ValueError(f"{where}: an object, not {_shown(data)}")
        hints = _hints(tp)
        kwargs = {}
        for f in dataclasses.fields(tp):
            if f.name in data:
                kwargs[f.name] = load(hints[f.name], data[f.name], f"{where}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise ValueError(f"{where}: {f.name} is missing")
        return tp(**kwargs)
    if tp is Any:
        return data
    if tp is bool:
        if not isinstance(data, bool):
            raise ValueError(f"{where}: true or false, not {_shown(data)}")
    elif tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise ValueError(f"{where}: a whole number, not {_shown(data)}")
    elif tp is str:
        if not isinstance(data, str):
            raise ValueError(f"{where}: a string, not {_shown(data)}")
    else:
        raise TypeError(f"{where}: the codec does not know the type {tp!r}")
    return data


def _shown(data: Any) -> str:
    text = json.dumps(data, default=repr)
    return text if len(text) <= 40 else text[:37] + "..."


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
