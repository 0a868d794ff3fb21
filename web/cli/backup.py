"""``tableside backup``: copies of the whole database, and putting one back.

    tableside backup take [-o FILE [--force]] [--db PATH]
    tableside backup list [--db PATH] [--json]
    tableside backup restore FILE|latest [--other-database] [--db PATH]

``take`` may run while ``tableside serve`` plays (the copy is of one moment); ``restore``
refuses while serve has the database open. Backups are named after their database
(``backups/<name>-<time>.sqlite3``): databases in one folder share ``backups/``, and each
lists, keeps and restores only its own. Bad input gives one line on stderr and exit
status 2, and nothing is changed (docs/store.md, "Backups").
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from companion.store import StoreError
from companion.store.backup import (
    Backup,
    backups,
    folder_for,
    latest,
    older_backups,
    restore,
    take,
)
from web.cli.dbactions import actions, db_path, print_table


def register(subparsers: Any) -> None:
    add = actions(
        subparsers, "backup", errors=(ValueError,),
        help="copies of the whole database (every table and campaign); restore one",
        description="Copies of the whole database: every table session and campaign. "
                    "tableside serve takes one when it starts and when it stops, if "
                    "anything was written since the last; the last 10 of each database "
                    "are kept in backups/ beside it, named after it.")

    p = add("take", "copy the database now (safe while tableside serve runs)", _take)
    p.add_argument("-o", "--output", type=Path, default=None, metavar="FILE",
                   help="write the copy to FILE (a USB stick, say) instead of backups/; "
                        "its folder must exist, and FILE must not (see --force)")
    p.add_argument("--force", action="store_true",
                   help="with -o: replace FILE if it exists (never the database itself)")

    p = add("list", "list the backups kept, newest first, with what each holds", _list)
    p.add_argument("--json", action="store_true", help="print JSON")

    p = add("restore", "put a backup in place of the database (stop tableside serve first); "
                       "the database it replaces is kept as a backup, so this is undone by "
                       "restoring that one", _restore)
    p.add_argument("file", metavar="FILE|latest",
                   help="a backup file, or 'latest' for this database's newest in backups/")
    p.add_argument("--other-database", action="store_true",
                   help="put FILE in place even if it holds none of this database's table "
                        "sessions and campaigns (a backup of another database, another "
                        "machine's); refused without it")


def _take(args: argparse.Namespace) -> int:
    if args.force and args.output is None:
        raise ValueError("--force only goes with -o FILE (backups/ names each copy anew)")
    written = take(db_path(args), output=args.output, replace=args.force)
    print(f"backed up {db_path(args)} to {written}")
    return 0


def _list(args: argparse.Namespace) -> int:
    db = db_path(args)
    kept, older = backups(db), older_backups(db)
    if args.json:
        print(json.dumps([b.to_json() for b in kept], indent=2))
        return 0
    if not kept:
        print(f"no backups of {db.name} in {folder_for(db)}")
    else:
        _print_backups(kept)
    if older:
        print(f"\n{len(older)} older backups in {folder_for(db)}, taken before backups were "
              f"named after their database: of {db.name} or of another database that was "
              "in this folder (restore one by its file name)")
        _print_backups(older)
    return 0


def _print_backups(kept: list[Backup]) -> None:
    rows = [("TAKEN (UTC)", "WHY", "SESSIONS", "CAMPAIGNS", "COMMANDS", "FILE")]
    for b in kept:
        info = b.to_json()
        rows.append((b.taken.strftime("%Y-%m-%d %H:%M:%S"), b.label or "by hand",
                     str(info["sessions"]), str(info["campaigns"]), str(info["commands"]),
                     b.path.name))
    print_table(rows)


def _restore(args: argparse.Namespace) -> int:
    db = db_path(args)
    if args.file == "latest":
        newest = latest(db)
        if newest is None:
            raise StoreError(f"no backups of {db.name} in {folder_for(db)}")
        source = newest.path
    else:
        source = Path(args.file)
    # 'latest' is this database's own by its name (and may undo a restore of another's)
    kept = restore(source, db, other_database=args.other_database or args.file == "latest")
    print(f"restored {db} from {source}")
    if kept is not None:
        print(f"the database it replaced is kept as {kept}")
    return 0
