"""Reading request bodies and query strings into typed values (400 on anything malformed)."""

from __future__ import annotations

from typing import Any

from flask import request

from companion import jsontext
from companion.errors import InvalidCommand


def json_body(optional: bool = False) -> dict[str, Any]:
    """The request's JSON object (400 for anything else: not JSON, not an object, nested
    too deep, a number that is not finite: the parser's reason is given).
    ``optional``: no body at all is ``{}``, but a body that is not a JSON object is still
    refused, never taken for none."""
    body = request.get_data(cache=True)
    if optional and not body.strip():
        return {}
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise InvalidCommand(_not_json(body) if data is None and request.is_json and
                             body.strip() else "the request body must be a JSON object")
    return data


def _not_json(body: bytes) -> str:
    """Why a body sent as JSON did not parse, in the parser's words."""
    try:
        jsontext.loads(body)
    except ValueError as exc:  # JSONDecodeError, TooDeep, NotFinite, UnicodeDecodeError
        return f"the request body is not JSON: {str(exc)[:160]}"
    return "the request body must be a JSON object"


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


def required_int(data: dict[str, Any], name: str, meaning: str) -> int:
    """``data[name]``, a whole number, or InvalidCommand saying ``meaning`` (what it is)."""
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidCommand(meaning)
    return value
