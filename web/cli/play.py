"""``tableside play GAME --script FILE.jsonl``: the scripted mode (DESIGN.md, "Interfaces").

The script is JSON lines. The first line sets the game up (``{"setup": {...}}``); each later
line is a command (``{"type": "explore", "args": {...}, "actor": "red"}``, the arguments may
also sit beside ``type``), a dice read answering the roll the table waits for
(``{"read": {"faces": [...], "source": "camera"}}``), or ``{"type": "undo"}`` /
``{"type": "redo"}``. Blank lines and lines starting with ``#`` are skipped.

The first line that fails stops the script: the error names the line and the reason,
nothing after it is applied, and the state reached so far is still printed.

Exit status: 0 when every line applied; 1 when a line failed (not JSON, not a JSON object,
a bad setup, a command refused) or the script is empty; 2 when the file cannot be read
at all (missing, a folder, not UTF-8 text), and nothing is played.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import jsontext
from companion.engine import Command, Event
from companion.errors import IllegalCommand, InvalidCommand
from companion.games import find_game, game_names
from companion.store.records import StoredEvent
from companion.table import Table


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "play",
        help="apply a JSON-lines script of commands and dice reads to a new game",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", choices=game_names(), help="the game to play")
    p.add_argument("--script", required=True, metavar="FILE.jsonl",
                   help="the script; '-' reads standard input")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object: state, prompts, events and any error")
    p.add_argument("--next-game", metavar="FILE", default=None,
                   help="when the script ends with the game recorded, write the setup of the "
                        "campaign's next game to FILE (a first line for the next script)")
    p.set_defaults(handler=run)


@dataclass
class ScriptError:
    line: int
    kind: str  # "malformed" (not JSON / bad shape), "invalid", "illegal"
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "kind": self.kind, "message": self.message}

    def __str__(self) -> str:
        what = {"malformed": "malformed", "invalid": "invalid command",
                "illegal": "not allowed"}[self.kind]
        return f"line {self.line}: {what}: {self.message}"


def _lines(text: str) -> Iterator[tuple[int, Any]]:
    """(line number, parsed JSON) for each non-blank, non-comment line; raises ScriptError."""
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            value = jsontext.loads(stripped)
        except json.JSONDecodeError as exc:
            raise _Stop(ScriptError(number, "malformed", f"not valid JSON ({exc.msg})")) from None
        except jsontext.Refused as exc:
            raise _Stop(ScriptError(number, "malformed", f"not valid JSON ({exc})")) from None
        yield number, value


def _json_kind(value: Any) -> str:
    """What a JSON value is, for a message: "null", "a string", "a list"..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    return {str: "a string", int: "a number", float: "a number", list: "a list",
            dict: "an object"}.get(type(value), type(value).__name__)


class _Stop(Exception):
    def __init__(self, error: ScriptError) -> None:
        self.error = error


def _actor(data: dict[str, Any]) -> str | None:
    """The line's actor, as a command's (``Command.from_json``): a string or none."""
    actor = data.get("actor")
    if actor is not None and not isinstance(actor, str):
        raise InvalidCommand("'actor' must be a string")
    return actor


def _apply(table: Table, number: int, data: Any) -> list[StoredEvent]:
    if not isinstance(data, dict):
        raise _Stop(ScriptError(number, "malformed", "each line is a JSON object"))
    try:
        if "read" in data:
            extra = set(data) - {"read", "actor"}
            if extra:
                raise InvalidCommand(f"a dice read line takes only 'read' and 'actor', "
                                     f"not {', '.join(sorted(extra))}")
            read = data["read"]
            if not isinstance(read, (dict, list)):
                raise InvalidCommand("'read' is a dice read object or a list of faces")
            args = read if isinstance(read, dict) else {"faces": read}
            return table.apply(Command("roll", dict(args), _actor(data)))
        if data.get("type") in ("undo", "redo"):
            extra = set(data) - {"type", "actor"}
            if extra:
                raise InvalidCommand(f"'{data['type']}' takes no arguments")
            action = table.undo if data["type"] == "undo" else table.redo
            return action(actor=_actor(data))  # a name no one plays is refused
        return table.apply(Command.from_json(data))
    except InvalidCommand as exc:
        raise _Stop(ScriptError(number, "invalid", str(exc))) from None
    except IllegalCommand as exc:
        raise _Stop(ScriptError(number, "illegal", str(exc))) from None


def play(game: str, text: str) -> tuple[Table | None, list[StoredEvent], ScriptError | None]:
    """Run a script; returns the table (None if setup failed), the events and any error."""
    lines = _lines(text.removeprefix("\ufeff"))  # a byte-order mark (Windows Notepad)
    table: Table | None = None
    events: list[StoredEvent] = []
    try:
        first = next(lines, None)
        if first is None:
            raise _Stop(ScriptError(1, "malformed", "the script is empty: its first line "
                                                    "sets the game up"))
        number, setup = first
        if not isinstance(setup, dict) or "setup" not in setup:
            raise _Stop(ScriptError(number, "malformed",
                                    'the first line sets the game up: {"setup": {...}}'))
        if not isinstance(setup["setup"], dict):
            raise _Stop(ScriptError(number, "malformed",
                                    'the setup is a JSON object: {"setup": {...}}, not '
                                    f"{_json_kind(setup['setup'])}"))
        try:
            table = Table.in_memory(game, setup["setup"], _actor(setup))
        except InvalidCommand as exc:
            raise _Stop(ScriptError(number, "invalid", str(exc))) from None
        events.extend(table.events())
        for number, data in lines:
            events.extend(_apply(table, number, data))
    except _Stop as stop:
        return table, events, stop.error
    return table, events, None


def run(args: argparse.Namespace) -> int:
    try:
        if args.script == "-":
            text = sys.stdin.read()
        else:
            text = Path(args.script).read_text(encoding="utf-8-sig")  # Notepad's BOM
    except UnicodeDecodeError as exc:
        print(f"tableside play: cannot read {args.script}: it is not a text file "
              f"(not UTF-8: byte {exc.start} is {exc.object[exc.start]:#04x})", file=sys.stderr)
        return 2
    except IsADirectoryError:
        print(f"tableside play: cannot read {args.script}: it is a folder, not a script",
              file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"tableside play: cannot read {args.script}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    table, events, error = play(args.game, text)
    try:
        engine = table.engine if table is not None else find_game(args.game)
        describe = getattr(engine, "describe", None)

        # with the game's state, ships and places by their names, as the server's history
        # says them (docs/api.md: the English texts are the same)
        named = ({"state": table.state} if table is not None and describe is not None
                 and "state" in inspect.signature(describe).parameters else {})

        def text_of(e: StoredEvent) -> str:
            return describe(Event(e.type, dict(e.payload)), **named) if describe else e.type

        if args.json:
            out = {
                "game": args.game,
                "version": table.version if table else 0,
                "state": table.view(None) if table else None,
                "prompts": [p.to_json() for p in table.prompts()] if table else [],
                "events": [{**e.to_json(), "text": text_of(e)} for e in events],
                "error": error.to_json() if error else None,
            }
            json.dump(out, sys.stdout, indent=2, sort_keys=True)
            sys.stdout.write("\n")
        else:
            for e in events:
                print(f"{e.seq:4d}  {text_of(e)}")
            if table is not None:
                summary = getattr(engine, "summary", None)
                if summary is not None:
                    print()
                    print(summary(table.state))
                for prompt in table.prompts():
                    print(f"\nWaiting for: {_prompt_text(prompt.to_json())}")
        if error is not None:
            print(f"tableside play: {error}", file=sys.stderr)
            return 1
        if args.next_game is not None:
            return _write_next_game(table, args.next_game)
        return 0
    finally:
        if table is not None:
            table.close()


def _write_next_game(table: Table | None, path: str) -> int:
    carry_over = getattr(table.engine, "next_game", None) if table else None
    if table is None or carry_over is None:
        print("tableside play: this game has no campaign to carry over", file=sys.stderr)
        return 1
    try:
        options = carry_over(table.state)
    except IllegalCommand as exc:
        print(f"tableside play: --next-game: {exc}", file=sys.stderr)
        return 1
    try:
        Path(path).write_text(json.dumps({"setup": options}, sort_keys=True) + "\n",
                              encoding="utf-8")
    except OSError as exc:
        print(f"tableside play: cannot write {path}: {exc}", file=sys.stderr)
        return 2
    return 0


def _prompt_text(prompt: dict[str, Any]) -> str:
    if prompt["kind"] == "roll":
        return f"roll {prompt['count']} {prompt['die']} dice for {prompt['purpose']}"
    if prompt["kind"] == "spend":
        return prompt["question"]
    options = "; ".join(f"{o['value']} = {o['label']}" for o in prompt["options"])
    return f"{prompt['question']} [{options}]"
