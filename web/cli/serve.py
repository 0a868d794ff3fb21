"""Start Tableside's web server (waitress, a production WSGI server) for the phones at the
table. With --demo, a demonstration SeaFall table (three provinces, example islands) is made
on first use, so the pages and the API have something to show on any laptop."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.store.errors import StoreError
from companion.store.paths import default_db_path
from companion.store.sqlite import SQLiteStore
from companion.table import Table

DEMO_ACTOR = "demo"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="start the web server for the table's phones",
                       description=__doc__)
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (0.0.0.0: every network interface; default "
                        "%(default)s)")
    p.add_argument("--port", type=int, default=8000, help="port (default %(default)s)")
    p.add_argument("--db", type=Path, default=None,
                   help=f"the database file (default {default_db_path()})")
    p.add_argument("--demo", action="store_true",
                   help="run with a demonstration SeaFall table")
    p.add_argument("--threads", type=int, default=24,
                   help="worker threads: each open live stream holds one (default %(default)s)")
    p.set_defaults(handler=run)


def demo_table(store: SQLiteStore) -> str:
    """The id of the demonstration table, created on first use."""
    from companion.games.seafall.setup import demo_options

    for info in reversed(store.sessions()):
        if info.created_by == DEMO_ACTOR and info.game == "seafall":
            return info.id
    table = Table.create(store, "seafall", demo_options(), DEMO_ACTOR)
    return table.session_id


def run(args: argparse.Namespace) -> int:
    import waitress

    from web.app import create_app
    from web.services import Services

    path = args.db or default_db_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        store = SQLiteStore(path)
    except (OSError, StoreError) as exc:
        print(f"tableside serve: {exc}", file=sys.stderr)
        return 2
    services = Services(store)
    try:
        if args.demo:
            services.demo_table = demo_table(store)
        app = create_app(services)
        shown = "localhost" if args.host in ("0.0.0.0", "::") else args.host
        print(f"Tableside is serving on http://{shown}:{args.port}/ (database {path})",
              flush=True)
        waitress.serve(app, host=args.host, port=args.port, threads=args.threads,
                       ident="tableside")
    finally:
        services.close()
    return 0
