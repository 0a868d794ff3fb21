"""How fast are exact dice odds? Prints median and p95 microseconds per call.

Each call computes the whole answer from scratch, exact fractions included; even the tiny
per-die face table (the only thing the library caches) is cleared before every timed call.
The figure that matters: a 40-die SeaFall pool with re-rolled weak successes must take at
most 1 ms (median). Exits 1 if it does not.

    .venv/bin/python benchmarks/bench_odds.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.dice.model import D6, SEAFALL  # noqa: E402
from companion.dice.odds import endeavor_odds, face_weights, sum_distribution  # noqa: E402
from companion.dice.rules import PoolRules  # noqa: E402

LIMIT_US = 1000.0
WEAK = frozenset({"weak"})
HEADLINE = "40 dice vs 20, re-roll weak"

CASES: list[tuple[str, Callable[[], object]]] = [
    ("5 dice vs 4, no powers", lambda: endeavor_odds(SEAFALL, 5, 4)),
    (
        "15 dice vs 8, re-roll weak, 3 fortune",
        lambda: endeavor_odds(SEAFALL, 15, 8, PoolRules(reroll=WEAK, fortune=3)),
    ),
    ("40 dice vs 20, no powers", lambda: endeavor_odds(SEAFALL, 40, 20)),
    (HEADLINE, lambda: endeavor_odds(SEAFALL, 40, 20, PoolRules(reroll=WEAK))),
    (
        "40 dice vs 30, re-roll weak, 3 fortune",
        lambda: endeavor_odds(SEAFALL, 40, 30, PoolRules(reroll=WEAK, fortune=3)),
    ),
    (
        "40 dice vs 30, re-roll weak, dangerous (2 of 5 fortune), strong 2, weak 0, bonus 1",
        lambda: endeavor_odds(
            SEAFALL,
            40,
            30,
            PoolRules(
                reroll=WEAK,
                values=(("strong", 2), ("weak", 0)),
                fortune=5,
                dangerous=True,
                fortune_at_dangerous=2,
                bonus=1,
            ),
        ),
    ),
    (
        "100 dice vs 60, re-roll weak, 5 fortune",
        lambda: endeavor_odds(SEAFALL, 100, 60, PoolRules(reroll=WEAK, fortune=5)),
    ),
    ("2d6 sum", lambda: sum_distribution(D6, 2)),
    ("40d6 sum", lambda: sum_distribution(D6, 40)),
]


def measure(call: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median and 95th percentile of one call, in microseconds."""
    for _ in range(min(50, runs)):
        call()
    samples = []
    for _ in range(runs):
        face_weights.cache_clear()
        start = time.perf_counter_ns()
        call()
        samples.append((time.perf_counter_ns() - start) / 1000)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(0.95 * len(samples)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000, help="timed calls per case")
    args = parser.parse_args()
    width = max(len(name) for name, _ in CASES)
    print(f"{'pool and rules':<{width}}  {'median us':>9}  {'p95 us':>8}")
    headline = 0.0
    for name, call in CASES:
        median, p95 = measure(call, args.runs)
        if name == HEADLINE:
            headline = median
        print(f"{name:<{width}}  {median:>9.1f}  {p95:>8.1f}")
    verdict = "OK" if headline <= LIMIT_US else "TOO SLOW"
    print(f"\n{HEADLINE}: median {headline:.1f} us (limit {LIMIT_US:.0f} us) {verdict}")
    return 0 if headline <= LIMIT_US else 1


if __name__ == "__main__":
    sys.exit(main())
