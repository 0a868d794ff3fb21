"""What the commands on the game database share (``sessions``, ``campaign``, ``backup``):
ACTION sub-commands that each take ``--db``, bad input said in one line on stderr with exit
status 2, and the plain tables they print."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.store import SQLiteStore, StoreError, default_db_path

EXIT_BAD_INPUT = 2

Run = Callable[[argparse.Namespace], int]
Add = Callable[[str, str, Run], argparse.ArgumentParser]


def actions(subparsers: Any, command: str, errors: tuple[type[BaseException], ...] = (),
            **parser_options: Any) -> Add:
    """Add ``tableside COMMAND`` and give the function that adds its actions: ``add(name,
    help, run)`` makes ``tableside COMMAND name [--db PATH]``, whose ``run`` has a
    :class:`StoreError`, an :class:`OSError` or one of ``errors`` said as bad input."""
    parser = subparsers.add_parser(command, **parser_options)
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    sub.required = True
    caught = (StoreError, OSError, *errors)

    def add(name: str, help_text: str, run: Run) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.add_argument("--db", type=Path, default=None, metavar="PATH",
                       help=f"the database file (default: {default_db_path()})")

        def handler(args: argparse.Namespace) -> int:
            try:
                return int(run(args))
            except caught as exc:
                print(f"tableside {command} {args.action}: error: {exc}", file=sys.stderr)
                return EXIT_BAD_INPUT

        p.set_defaults(handler=handler)
        return p

    return add


def db_path(args: argparse.Namespace) -> Path:
    """The database the command was given (``--db``), else the default one."""
    return Path(args.db) if args.db is not None else default_db_path()


def open_store(args: argparse.Namespace, create: bool = True) -> SQLiteStore:
    return SQLiteStore(db_path(args), create=create)


def print_table(rows: Sequence[Sequence[str]]) -> None:
    """Rows of text in columns, the first row the heading."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
