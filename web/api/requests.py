"""Reading request bodies and query strings into typed values (400 on anything malformed)."""

from __future__ import annotations

from typing import Any

from flask import request

from companion.errors import InvalidCommand


def json_body(optional: bool = False) -> dict[str, Any]:
    """The request's JSON object (400 for anything else: not JSON, not an object, nested
    too deep). ``optional``: no body at all is ``{}``, but a body that is not a JSON object
    is still refused, never taken for none."""
    if optional and not request.get_data(cache=True).strip():
        return {}
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise InvalidCommand("the request body must be a JSON object")
    return data


def query_int(name: str, default: int | None = None, minimum: int = 0,
              maximum: int | None = None) -> int:
    raw = request.args.get(name)
    if raw is None:
        if default is None:
            raise InvalidCommand(f"'{name}' is required")
        return default
    try:
        value = int(raw)
    except ValueError:
        raise InvalidCommand(f"'{name}' must be a whole number, not {raw!r}") from None
    if value < minimum or (maximum is not None and value > maximum):
        bound = f" and {maximum}" if maximum is not None else ""
        raise InvalidCommand(f"'{name}' must be between {minimum}{bound}")
    return value


def query_flag(name: str) -> bool:
    raw = request.args.get(name, "").lower()
    if raw in ("", "0", "false", "no", "off"):
        return False
    if raw in ("1", "true", "yes", "on"):
        return True
    raise InvalidCommand(f"'{name}' must be true or false, not {raw!r}")


def optional_int(data: dict[str, Any], name: str) -> int | None:
    value = data.get(name)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise InvalidCommand(f"'{name}' must be a whole number")
    return value
