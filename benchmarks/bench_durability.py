"""Durability, the long version: SIGKILL a worker applying commands hundreds of times.

    python benchmarks/bench_durability.py [--kills 200] [--seed 1] [--db PATH]

Each round starts a worker on the same database file (it resumes the session), lets it
acknowledge a random number of commands, undos and redos, kills it with SIGKILL at a random
moment, then reopens the file and checks every promise of the event store (see
``tests/support/durability.py``). Prints a table; exits 1 if any command was lost or
half-applied, or any check failed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.durability import Check, run  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=200, help="how many SIGKILLs (200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of every random choice")
    parser.add_argument(
        "--driver",
        default="tests.support.drivers:SeaFallDriver",
        help="what the worker plays (module:attr; default SeaFall endeavors, "
        "or tests.support.drivers:TallyDriver)",
    )
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        help="database file to use (default: a fresh temporary file)",
    )
    args = parser.parse_args(argv)

    def progress(done: int, found: Check) -> None:
        if done % 20 == 0 or not found.ok:
            print(
                f"  {done}/{args.kills} kills, {found.records} records, "
                f"{'ok' if found.ok else 'PROBLEM'}",
                file=sys.stderr,
                flush=True,
            )

    with tempfile.TemporaryDirectory() as tmp:
        db = args.db if args.db is not None else Path(tmp) / "durability.sqlite3"
        summary = run(db, kills=args.kills, seed=args.seed, driver=args.driver, progress=progress)

    rows = [
        ("kills survived", f"{summary.kills}"),
        ("commands acknowledged", f"{summary.acknowledged}"),
        ("records in the log", f"{summary.records}"),
        ("commands lost", f"{summary.lost}"),
        ("half-applied commands", f"{summary.half_applied}"),
        ("integrity failures", f"{summary.integrity_failures}"),
        ("other problems", f"{len(summary.other_problems)}"),
        ("elapsed", f"{summary.elapsed:.1f} s"),
    ]
    print(f"durability: {args.kills} SIGKILLs of a worker applying commands (seed {args.seed}, "
          f"driver {args.driver})")
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"  {name.ljust(width)}  {value}")
    for problem in summary.other_problems[:20]:
        print(f"  problem: {problem}")
    return 0 if summary.ok else 1


if __name__ == "__main__":
    sys.exit(main())
