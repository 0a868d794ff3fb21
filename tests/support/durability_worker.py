"""A process that plays a game on a database file until it is killed.

    python -m tests.support.durability_worker --db PATH [--driver MOD:ATTR] [--seed N]
        [--commands N] [--snapshot-every K]

It opens the file's session (or creates one), then applies commands in a loop, undoing and
redoing now and then, and prints ``ACK <command_no> <version>`` (flushed) only after each
apply, undo or redo has returned, that is, after its events have committed. The durability
test SIGKILLs it at random moments and checks that every acknowledged record survived.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from importlib import import_module

from companion.errors import IllegalCommand, InvalidCommand
from companion.store import SQLiteStore
from companion.table import Table
from tests.support.drivers import Driver

DEFAULT_DRIVER = "tests.support.drivers:TallyDriver"


def load_driver(spec: str) -> Driver:
    module, _, attr = spec.partition(":")
    driver: Driver = getattr(import_module(module), attr)()
    return driver


MAX_REFUSALS = 1000


def play(table: Table, driver: Driver, rng: random.Random, commands: int | None) -> None:
    done = refused = 0
    while commands is None or done < commands:
        roll = rng.random()
        try:
            if roll < 0.12 and table.can_undo:
                table.undo(actor="worker")
            elif roll < 0.2 and table.can_redo:
                table.redo(actor="worker")
            else:
                command = driver.next_command(table, rng)
                if command is not None:
                    table.apply(command)
                elif table.can_undo:
                    table.undo(actor="worker")
                else:
                    raise SystemExit("the game asks nothing and nothing can be undone")
        except (IllegalCommand, InvalidCommand) as exc:
            refused += 1
            if refused >= MAX_REFUSALS:
                raise SystemExit(f"{refused} refusals in a row; the last: {exc}") from None
            continue
        refused = 0
        print(f"ACK {table.last_command} {table.version}", flush=True)
        done += 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="durability_worker", description=__doc__)
    parser.add_argument("--db", required=True)
    parser.add_argument("--driver", default=DEFAULT_DRIVER)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--commands", type=int, default=None, help="stop after N (default: never)")
    parser.add_argument("--snapshot-every", type=int, default=7)
    args = parser.parse_args(argv)
    driver = load_driver(args.driver)
    driver.register()
    with SQLiteStore(args.db, snapshot_every=args.snapshot_every) as store:
        sessions = store.sessions()
        if sessions:
            table = Table.open(store, sessions[0].id)
        else:
            table = Table.create(store, driver.game, driver.options(), actor="worker")
        print(f"SESSION {table.session_id} {table.version}", flush=True)
        # Seeded by where the log stands, so a resumed worker plays on reproducibly.
        play(table, driver, random.Random(f"{args.seed}:{table.last_command}"), args.commands)
    return 0


if __name__ == "__main__":
    sys.exit(main())
