"""A table session as one JSON document, and back.

The document (``format`` ``"tableside-session"``, ``format_version`` 1)::

    {"format": "tableside-session", "format_version": 1,
     "session": {"id": ..., "game": ..., "options": {...}, "created_at": ..., "created_by": ...},
     "records": [{"command_no": 0, "kind": "setup", "type": "setup", "args": {...},
                  "actor": ..., "time": ..., "target": null,
                  "events": [{"seq": 1, "type": ..., "payload": {...}}, ...]}, ...]}

:func:`dumps` writes it canonically (sorted keys, two-space indent, UTF-8, final newline), so
``export(import(export(x))) == export(x)`` byte for byte. :func:`parse` checks everything
before anything is written and names the first bad part. Snapshots are not exported: they
are a cache derived from the log.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from companion import jsontext
from companion.engine import JSON
from companion.store.errors import InvalidSessionId, MalformedExport
from companion.store.records import (
    COMMAND_REDONE,
    COMMAND_UNDONE,
    CommandRecord,
    RecordKind,
    SessionInfo,
    StoredEvent,
    undo_stacks,
)

FORMAT = "tableside-session"
FORMAT_VERSION = 1

_SESSION_KEYS = {"id", "game", "options", "created_at", "created_by"}
_RECORD_KEYS = {"command_no", "kind", "type", "args", "actor", "time", "target", "events"}
_EVENT_KEYS = {"seq", "type", "payload"}


def document(info: SessionInfo, records: Sequence[CommandRecord]) -> dict[str, JSON]:
    """The export document of a session."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "session": {
            "id": info.id,
            "game": info.game,
            "options": dict(info.options),
            "created_at": info.created_at,
            "created_by": info.created_by,
        },
        "records": [
            {
                "command_no": r.command_no,
                "kind": r.kind.value,
                "type": r.type,
                "args": dict(r.args),
                "actor": r.actor,
                "time": r.time,
                "target": r.target,
                "events": [{"seq": e.seq, "type": e.type, "payload": dict(e.payload)}
                           for e in r.events],
            }
            for r in records
        ],
    }


def dumps(doc: JSON) -> str:
    """Canonical JSON text of an export document."""
    return json.dumps(doc, sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def loads(text: str | bytes) -> JSON:
    """Parse export text; duplicate keys, NaN/Infinity, bad UTF-8 and nesting deeper than
    :data:`companion.jsontext.MAX_DEPTH` are refused."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return jsontext.loads(text, object_pairs_hook=_unique_keys,
                              parse_constant=_no_constant)
    except jsontext.Refused as exc:
        raise MalformedExport("the file", str(exc)) from None
    except UnicodeDecodeError as exc:
        raise MalformedExport("the file", f"not UTF-8 text ({exc.reason})") from None
    except json.JSONDecodeError as exc:
        raise MalformedExport(f"line {exc.lineno} column {exc.colno}",
                              f"not JSON ({exc.msg})") from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise MalformedExport(f"key {key!r}", "appears twice in one object")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise MalformedExport(name, "NaN and Infinity are not JSON")


#: A session id names its table in web addresses (``/api/tables/ID``, ``/host/ID``): one
#: path segment, as the ids the store makes (12 hex digits) are.
SESSION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
SESSION_ID_RULE = ("1 to 64 letters (a-z, A-Z), digits, '-' and '_', starting with a letter "
                   "or a digit")


def check_session_id(session_id: str, where: str = "session id") -> str:
    """``session_id`` if it is one (:data:`SESSION_ID`), else :class:`InvalidSessionId`."""
    if not isinstance(session_id, str) or not SESSION_ID.fullmatch(session_id):
        raise InvalidSessionId(where, str(session_id), SESSION_ID_RULE)
    return session_id


def parse(doc: JSON, session_id: str | None = None) -> tuple[SessionInfo, list[CommandRecord]]:
    """Check an export document and return the session and its records.

    ``session_id`` renames the session (to import a copy beside the original).
    Raises :class:`MalformedExport` naming the first bad part; nothing is written here.
    """
    top = _object(doc, "the document", {"format", "format_version", "session", "records"})
    if top["format"] != FORMAT:
        raise MalformedExport("format", f"expected {FORMAT!r}, found {top['format']!r}")
    if top["format_version"] != FORMAT_VERSION or isinstance(top["format_version"], bool):
        raise MalformedExport("format_version", f"this Tableside reads version {FORMAT_VERSION}"
                              f", found {top['format_version']!r}")
    session = _object(top["session"], "session", _SESSION_KEYS)
    if session_id is not None:
        sid = check_session_id(session_id, "the new session id")
    else:
        sid = _string(session["id"], "session.id")
        if not SESSION_ID.fullmatch(sid):
            raise MalformedExport("session.id", f"{sid[:40]!r} is not a session id: "
                                  + SESSION_ID_RULE)
    game = _string(session["game"], "session.game")
    options = _json_object(session["options"], "session.options")
    created_at = _time(session["created_at"], "session.created_at")
    created_by = _optional_string(session["created_by"], "session.created_by")

    raw_records = top["records"]
    if not isinstance(raw_records, list) or not raw_records:
        raise MalformedExport("records", "must be a non-empty list (record 0 is the setup)")
    records: list[CommandRecord] = []
    seq = 0
    for index, raw in enumerate(raw_records):
        where = f"records[{index}]"
        record = _object(raw, where, _RECORD_KEYS)
        if _integer(record["command_no"], f"{where}.command_no") != index:
            raise MalformedExport(f"{where}.command_no",
                                  f"expected {index}, found {record['command_no']!r}")
        try:
            kind = RecordKind(record["kind"])
        except (ValueError, TypeError):
            raise MalformedExport(f"{where}.kind", f"unknown kind {record['kind']!r}") from None
        target = record["target"]
        if kind in (RecordKind.UNDO, RecordKind.REDO):
            target = _integer(target, f"{where}.target")
        elif target is not None:
            raise MalformedExport(f"{where}.target", f"a {kind.value} record has no target")
        actor = _optional_string(record["actor"], f"{where}.actor")
        time = _time(record["time"], f"{where}.time")
        raw_events = record["events"]
        if not isinstance(raw_events, list):
            raise MalformedExport(f"{where}.events", "must be a list")
        events: list[StoredEvent] = []
        for e_index, raw_event in enumerate(raw_events):
            e_where = f"{where}.events[{e_index}]"
            event = _object(raw_event, e_where, _EVENT_KEYS)
            seq += 1
            if _integer(event["seq"], f"{e_where}.seq") != seq:
                raise MalformedExport(f"{e_where}.seq", f"expected {seq} (the sequence is "
                                      f"gapless), found {event['seq']!r}")
            events.append(StoredEvent(sid, seq, index, actor, time,
                                      _string(event["type"], f"{e_where}.type"),
                                      _json_object(event["payload"], f"{e_where}.payload")))
        if kind in (RecordKind.UNDO, RecordKind.REDO):
            marker = COMMAND_UNDONE if kind is RecordKind.UNDO else COMMAND_REDONE
            if [(e.type, dict(e.payload)) for e in events] != [(marker, {"command_no": target})]:
                raise MalformedExport(f"{where}.events", f"an {kind.value} record has exactly "
                                      f"one {marker} event naming command {target}")
        records.append(CommandRecord(sid, index, kind, _string(record["type"], f"{where}.type"),
                                     _json_object(record["args"], f"{where}.args"),
                                     actor, time, target, tuple(events)))
    if records[0].kind is not RecordKind.SETUP:
        raise MalformedExport("records[0].kind", "record 0 must be the setup")
    if dict(records[0].args) != options:
        raise MalformedExport("records[0].args", "the setup's args must equal session.options")
    try:
        undo_stacks(records)
    except ValueError as exc:
        raise MalformedExport("records", str(exc)) from None
    info = SessionInfo(sid, game, options, created_at, created_by, seq, len(records) - 1)
    return info, records


def _object(value: Any, where: str, keys: set[str]) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise MalformedExport(where, f"expected an object, found {_kind(value)}")
    missing = keys - value.keys()
    if missing:
        raise MalformedExport(where, f"missing {', '.join(sorted(missing))}")
    extra = value.keys() - keys
    if extra:
        raise MalformedExport(where, f"unexpected {', '.join(sorted(extra))}")
    return value


def _string(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise MalformedExport(where, f"expected a string, found {_kind(value)}")
    return value


def _optional_string(value: Any, where: str) -> str | None:
    return None if value is None else _string(value, where)


def _integer(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedExport(where, f"expected an integer, found {_kind(value)}")
    return value


def _time(value: Any, where: str) -> str:
    text = _string(value, where)
    try:
        datetime.fromisoformat(text)
    except ValueError:
        raise MalformedExport(where, f"not an ISO 8601 time: {text!r}") from None
    return text


def _json_object(value: Any, where: str) -> dict[str, JSON]:
    if not isinstance(value, dict):
        raise MalformedExport(where, f"expected an object, found {_kind(value)}")
    _check_json(value, where)
    return value


def _check_json(value: Any, where: str) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise MalformedExport(where, f"object key {key!r} is not a string")
            _check_json(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_json(item, f"{where}[{i}]")
    elif isinstance(value, float) and not math.isfinite(value):
        raise MalformedExport(where, "NaN and Infinity are not JSON")
    elif value is not None and not isinstance(value, str | int | float | bool):
        raise MalformedExport(where, f"not a JSON value: {_kind(value)}")


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
             int: "an integer", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)
