"""``tableside sessions``: the event store from the command line.

    tableside sessions list [--db PATH] [--json]
    tableside sessions show ID [--db PATH] [--json]
    tableside sessions export ID [-o FILE] [--db PATH]
    tableside sessions import FILE [--as ID] [--db PATH]
    tableside sessions host-pin ID [--base-url URL] [--db PATH]

``--db`` defaults to ``$XDG_DATA_HOME/tableside/tableside.sqlite3``. A file that cannot be
used (not ours, corrupt, newer, a malformed export) gives one line on stderr and exit
status 2; nothing is written.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.store.export import SESSION_ID_RULE, check_session_id, dumps, loads, parse
from companion.store.records import CommandRecord, RecordKind, undo_stacks
from companion.table import check_replays
from web.cli.dbactions import actions, db_path, open_store, print_table
from web.tablelist import described, players_of

WHAT_WIDTH = 100  # a record's arguments beyond this are cut ("..."): --json has them whole


def register(subparsers: Any) -> None:
    add = actions(
        subparsers, "sessions",
        help="list, show, export and import table sessions (the event store)",
        description="The table sessions in the event store: list them, show one's history, "
                    "export one as JSON, import an export.")

    p = add("list", "list every table session, oldest first, with when it was last played "
                    "and its players", _list)
    p.add_argument("--json", action="store_true", help="print JSON")

    p = add("show", "show one session and its history: who did what, when, what is undone "
                    "(the setup's options once, on their own line; arguments longer than "
                    f"{WHAT_WIDTH} characters cut short: --json has everything)", _show)
    p.add_argument("session_id", metavar="ID")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = add("export", "export one session as JSON (round-trips exactly through import)",
            _export)
    p.add_argument("session_id", metavar="ID")
    p.add_argument("-o", "--output", type=Path, default=None, metavar="FILE",
                   help="write to FILE instead of standard output")

    p = add("host-pin", "give a table's host a new PIN (the host's phone lost, the PIN "
                        "forgotten); the old PIN stops working", _host_pin)
    p.add_argument("session_id", metavar="ID")
    p.add_argument("--base-url", default=None, metavar="URL",
                   help="the address phones open, for the host link printed (default: this "
                        "machine's address on the local network, port 8000, serve's default: "
                        "pass it when the server runs on another port)")

    p = add("import", "import a session from an export file ('-' reads standard input)",
            _import)
    p.add_argument("file", metavar="FILE")
    p.add_argument("--as", dest="new_id", default=None, metavar="ID",
                   help="import under another session id (to keep a copy beside the original)"
                        f": {SESSION_ID_RULE}, as it is part of the table's web address")


def _list(args: argparse.Namespace) -> int:
    with open_store(args, create=False) as store:
        listed = described(store)
    if args.json:
        print(json.dumps(listed, indent=2, ensure_ascii=False))
        return 0
    if not listed:
        print("no table sessions")
        return 0
    rows = [("ID", "GAME", "CREATED", "LAST PLAYED", "BY", "VERSION", "RECORDS", "PLAYERS")]
    rows += [(s["id"], s["game"], s["created_at"], s["last_played"], s["created_by"] or "-",
              str(s["version"]), str(s["last_command"] + 1), ",".join(s["players"]) or "-")
             for s in listed]
    print_table(rows)
    return 0


def _show(args: argparse.Namespace) -> int:
    with open_store(args, create=False) as store:
        info = store.session(args.session_id)
        records = store.records(args.session_id)
    applied, _ = undo_stacks(records)
    active = set(applied)

    def is_undone(r: CommandRecord) -> bool:
        return r.kind is RecordKind.COMMAND and r.command_no not in active

    if args.json:
        out = info.to_json()
        out["history"] = [{**r.to_json(), "undone": is_undone(r)} for r in records]
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    print(f"session {info.id}: {info.game}, created {info.created_at}"
          f" by {info.created_by or '-'}, version {info.version}")
    print(f"options: {json.dumps(dict(info.options), sort_keys=True, ensure_ascii=False)}")
    rows = [("NO", "TIME", "ACTOR", "WHAT", "EVENTS", "")]
    for r in records:
        if r.kind is RecordKind.SETUP:  # its options are the line above, whole
            players = ", ".join(players_of(r.args))
            what = f"setup{f' of {players}' if players else ''} (options above)"
        elif r.target is not None:
            what = f"{r.kind.value} {r.target}"
        else:
            what = f"{r.type} {json.dumps(dict(r.args), sort_keys=True, ensure_ascii=False)}"
        if len(what) > WHAT_WIDTH:
            what = what[:WHAT_WIDTH - 3] + "..."
        rows.append((str(r.command_no), r.time, r.actor or "-", what,
                     ", ".join(e.type for e in r.events) or "-",
                     "(undone)" if is_undone(r) else ""))
    print_table(rows)
    return 0


def _export(args: argparse.Namespace) -> int:
    with open_store(args, create=False) as store:
        text = dumps(store.export_session(args.session_id))
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
    return 0


def _host_pin(args: argparse.Namespace) -> int:
    """A new host PIN, written to the web's credentials beside the database (a running
    server checks PINs there, so it works at once)."""
    from web.auth import Auth, host_url, lan_base_url
    from web.auth_store import AuthStore

    path = db_path(args)
    with open_store(args, create=False) as store:
        store.session(args.session_id)  # UnknownSession: said, and nothing written
    auth_store = AuthStore.beside(path)
    try:
        pin = Auth(auth_store).new_host_pin(args.session_id)
    finally:
        auth_store.close()
    base = args.base_url or lan_base_url("0.0.0.0", 8000)
    print(f"table {args.session_id}: the new host PIN is {pin} (the old one no longer works)")
    print(f"host link: {host_url(base, args.session_id, pin)}")
    if args.base_url is None:
        # the server's port is known only to the server (it writes it nowhere): the link
        # above assumed serve's default, which printed a wrong link for another --port
        print("(this link assumes the server's default port, 8000: if it runs on another "
              "port or address, pass --base-url http://HOST:PORT for the right link)")
    return 0


def _import(args: argparse.Namespace) -> int:
    if args.new_id is not None:
        check_session_id(args.new_id, "--as")
    raw = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
    doc = loads(raw)
    # the whole export is checked before the database is opened, down to its replaying
    check_replays(*parse(doc, args.new_id))
    with open_store(args) as store:
        info = store.import_session(doc, session_id=args.new_id)
    print(f"imported session {info.id} ({info.game}, version {info.version})")
    return 0
