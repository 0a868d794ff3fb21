"""``tableside campaign``: a campaign's games and what carries over between them.

    tableside campaign new NAME --setup FILE [--game seafall] [--db PATH]
    tableside campaign list [--db PATH]
    tableside campaign show ID [--db PATH]
    tableside campaign next ID [--absent COLOUR]... [--changes FILE] [--db PATH]
                                                  set up the next game; prints its table id
    tableside campaign record ID [--db PATH]      once the game is over and recorded
    tableside campaign take-back ID [--played] [--db PATH]
                                                  take back the last step: the next game
                                                  set up, else the last game's recording
    tableside campaign export ID [-o FILE] [--db PATH]
    tableside campaign import FILE [--db PATH]    import the games' sessions first

The setup FILE is the first game's setup options (JSON, or a script whose first line is
``{"setup": {...}}``). ``next --absent red`` sets up the next game with the red player
missing it; ``--changes FILE`` takes a JSON list of changes of players (join, catch_up,
leave, absent: docs/commands.md, "Campaign"), applied before the ``--absent`` ones.
``take-back`` undoes a mistake without deleting anything: a game set up with the wrong
players becomes a table of its own, and ``next`` sets it up again; a recording taken back
makes its game the one under way again (undo on its table, then ``record`` again). A game
with moves played is taken out of the campaign only with ``--played``.
Bad input prints one line on stderr and exits with status 2. Every action but ``new`` and
``import`` refuses a missing database (it is not created), as ``tableside sessions list``
does.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion import jsontext
from companion.campaigns import record_game, start_campaign, start_next_game
from companion.errors import IllegalCommand, InvalidCommand
from companion.games import game_names
from companion.store.campaigns import CampaignConflict
from web.cli.dbactions import EXIT_BAD_INPUT, actions, open_store


def register(subparsers: Any) -> None:
    add = actions(
        subparsers, "campaign", errors=(InvalidCommand, IllegalCommand, ValueError),
        help="a campaign: its games and what carries over between them",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)

    p = add("new", "start a campaign from its first game's setup", _new)
    p.add_argument("name", help="the campaign's name")
    p.add_argument("--setup", required=True, metavar="FILE",
                   help="the first game's setup options (JSON, or a script's first line)")
    p.add_argument("--game", default="seafall", choices=game_names(), help="the game")
    add("list", "list the campaigns", _list)
    p = add("show", "show a campaign: its games and the next game's setup", _show)
    p.add_argument("campaign_id", metavar="ID")
    p = add("next", "set up the campaign's next game (prints its table id)", _next)
    p.add_argument("campaign_id", metavar="ID")
    p.add_argument("--absent", action="append", default=[], metavar="COLOUR",
                   help="a province whose player misses this game (repeat for more)")
    p.add_argument("--changes", metavar="FILE",
                   help="a JSON list of changes of players: join, catch_up, leave, absent "
                        "(docs/commands.md, \"Campaign\"; '-' reads standard input)")
    p = add("record", "carry the game under way, once recorded, into the next ledger", _record)
    p.add_argument("campaign_id", metavar="ID")
    p = add("take-back", "take back the last step: the next game set up, else the last "
            "game's recording", _take_back)
    p.add_argument("campaign_id", metavar="ID")
    p.add_argument("--played", action="store_true",
                   help="take the game set up out of the campaign even though moves were "
                        "played on its table (without it, refused: undo them there first)")
    p = add("export", "export a campaign's ledgers and the ids of its games", _export)
    p.add_argument("campaign_id", metavar="ID")
    p.add_argument("-o", "--output", type=Path, default=None, metavar="FILE",
                   help="write to FILE instead of standard output")
    p = add("import", "import an exported campaign (its sessions first)", _import)
    p.add_argument("file", metavar="FILE")


def _read_json(path: str) -> Any:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path} is not a text (JSON) file: byte {exc.start} is "
                         f"{exc.object[exc.start]:#04x}, not UTF-8") from None
    text = text.removeprefix("\ufeff")  # a byte-order mark (Windows Notepad), on stdin too
    first = next((line for line in text.splitlines()
                  if line.strip() and not line.lstrip().startswith("#")), "")
    try:
        try:
            return jsontext.loads(text)
        except json.JSONDecodeError:
            return jsontext.loads(first)  # a script: its first line
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not JSON ({exc.msg})") from None
    except jsontext.Refused as exc:
        raise ValueError(f"{path} is not JSON ({exc})") from None


def _new(args: argparse.Namespace) -> int:
    data = _read_json(args.setup)
    setup = data.get("setup", data) if isinstance(data, dict) else data
    if not isinstance(setup, dict):
        raise ValueError("the setup is a JSON object")
    with open_store(args) as store:
        info = start_campaign(store, args.name, args.game, setup)
    print(info.id)
    return 0


def _list(args: argparse.Namespace) -> int:
    with open_store(args, create=False) as store:
        campaigns = store.campaigns()
    if not campaigns:
        print("no campaigns")
    for c in campaigns:
        print(f"{c.id}  {c.game}  {c.name}  " + (_finished(c.over) if c.over else
              f"next game {c.ledger.get('game', c.version)}"
              + (f", under way: {c.current}" if c.current else "")))
    return 0


def _finished(over: dict[str, Any]) -> str:
    """A campaign whose final game is recorded: who is crowned."""
    who = over.get("player") or over.get("emperor")
    return (f"over after game {over.get('game', '?')}: {who} ({over.get('emperor')}) is "
            "crowned Emperor")


def _show(args: argparse.Namespace) -> int:
    with open_store(args, create=False) as store:
        info = store.campaign(args.campaign_id)
    print(json.dumps(info.to_json(), indent=2, sort_keys=True, ensure_ascii=False))
    return 0


def _next(args: argparse.Namespace) -> int:
    changes = _read_json(args.changes) if args.changes else []
    if not isinstance(changes, list):
        raise ValueError(f"{args.changes}: the changes are a JSON list (join, catch_up, "
                         "leave, absent)")
    changes = [*changes, *({"absent": {"colour": c}} for c in args.absent)]
    with open_store(args, create=False) as store:
        table = start_next_game(store, args.campaign_id, changes=changes)
    print(table.session_id)
    return 0


def _record(args: argparse.Namespace) -> int:
    with open_store(args, create=False) as store:
        info = record_game(store, args.campaign_id)
    print(f"recorded; the campaign is {_finished(info.over)}" if info.over else
          f"recorded; the next game is game {info.ledger.get('game', info.version)}")
    return 0


def _take_back(args: argparse.Namespace) -> int:
    with open_store(args, create=False) as store:
        step = store.campaign(args.campaign_id).last_step
        try:
            info = store.take_back_campaign_step(args.campaign_id, step, played=args.played)
        except CampaignConflict as exc:
            if exc.code != "played":
                raise
            print(f"tableside campaign take-back: error: {exc} (--played)", file=sys.stderr)
            return EXIT_BAD_INPUT
    assert step is not None  # else the store refused
    kind, session = step
    print(f"took back the setting up of game {session}: it is a table of its own now"
          if kind == "game" else
          f"took back the recording of game {session}: it is the game under way again")
    print(f"under way: {info.current}" if info.current is not None else
          f"the campaign is {_finished(info.over)}" if info.over else
          f"the next game to set up is game {info.ledger.get('game', info.version)}")
    return 0


def _export(args: argparse.Namespace) -> int:
    with open_store(args, create=False) as store:
        text = json.dumps(store.export_campaign(args.campaign_id), indent=2, sort_keys=True,
                          ensure_ascii=False) + "\n"
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
    return 0


def _import(args: argparse.Namespace) -> int:
    doc = _read_json(args.file)
    with open_store(args) as store:
        print(store.import_campaign(doc))
    return 0
