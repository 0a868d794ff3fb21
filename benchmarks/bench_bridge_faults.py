"""10,000 button events through a faulty serial link: nothing lost, doubled or reordered.

The real firmware (on a FakeMachine) talks BBP/1 to the host session through an in-memory
cable with 1% byte corruption, 5% frame loss, 2% duplication, split frames and 1-10 ms
delay in both directions, is unplugged 5 times (3 s each, presses continue on the box) and
power-cycled twice. Time is virtual (a manual clock), so the run is exact and repeatable.

Usage: .venv/bin/python benchmarks/bench_bridge_faults.py [--events N] [--seed S]
"""

from __future__ import annotations

import argparse
import sys
import time

from firmware_bridge.events import StaleEvent
from firmware_bridge.faulty_link import Faults
from firmware_bridge.rig import Rig

FAULTS = Faults(drop=0.05, duplicate=0.02, corrupt=0.01, split=0.10, delay=(0.001, 0.010))
UNPLUGS = 5
UNPLUG_SECONDS = 3.0
REBOOTS = 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=20261122)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    rig = Rig(seed=args.seed, to_box=FAULTS, to_host=FAULTS, step_ms=2)
    rng = rig.rng
    target = args.events
    unplug_at = [target * (i + 1) // (UNPLUGS + 1) for i in range(UNPLUGS)]
    reboot_at = [target * (2 * i + 1) // (2 * REBOOTS + 1) for i in range(REBOOTS)]
    unplugs = reboots = 0
    unplugged: list[tuple[float, float]] = []
    rig.run(2.0)
    while len(rig.truth) < target:
        count = len(rig.truth)
        if unplug_at and count >= unplug_at[0]:
            unplug_at.pop(0)
            rig.unplug()
            unplugs += 1
            end = rig.now + UNPLUG_SECONDS
            unplugged.append((rig.now, end))
            while rig.now < end:  # players keep pressing while the cable is out
                _click(rig, rng)
            rig.replug()
            continue
        if reboot_at and count >= reboot_at[0]:
            # A power glitch between presses: wait until the box holds nothing unacked
            # (events in its RAM cannot survive a reset; see docs/protocol.md).
            if rig.run_until(lambda: rig.box.device.queue_depth() == 0, 10.0):
                reboot_at.pop(0)
                rig.reboot()
                reboots += 1
                continue
        _click(rig, rng)
    rig.run_until(lambda: len(rig.reports) >= len(rig.truth), 60.0)
    rig.run(2.0)
    t = rig.tally()
    stale_unplugged = sum(
        1
        for r in rig.reports
        if isinstance(r, StaleEvent) and any(a <= r.event.time <= b for a, b in unplugged)
    )
    elapsed = time.perf_counter() - started
    c = rig.host.counters
    lt, lh = rig.link.to_box.counters, rig.link.to_host.counters
    print("bench_bridge_faults: BBP/1 through a faulty link (virtual time)")
    print(
        f"faults each way: byte corruption {FAULTS.corrupt:.0%}, frame loss {FAULTS.drop:.0%}, "
        f"duplication {FAULTS.duplicate:.0%}, split {FAULTS.split:.0%}, "
        f"delay {FAULTS.delay[0] * 1000:.0f}-{FAULTS.delay[1] * 1000:.0f} ms; "
        f"{unplugs} unplug/replug cycles of {UNPLUG_SECONDS:.0f} s, {reboots} firmware reboots"
    )
    print()
    rows = [
        ("events generated (debounced edges)", t.generated),
        ("delivered fresh", t.fresh),
        ("reported stale (older than 2 s when delivered)", t.stale),
        ("  of which pressed while unplugged", stale_unplugged),
        ("lost", t.lost),
        ("doubled", t.doubled),
        ("out of order", t.out_of_order),
        ("content mismatch", t.mismatched),
        ("dropped by the box (queue full)", t.dropped_by_box),
        ("frames dropped / duplicated by the link", lt.dropped + lh.dropped),
        ("", lt.duplicated + lh.duplicated),
        ("bytes corrupted by the link", lt.corrupted_bytes + lh.corrupted_bytes),
        ("host: CRC errors / format errors", c.crc_errors),
        ("", c.format_errors),
        ("host: duplicates suppressed / frames kept ahead of a gap", c.duplicates),
        ("", c.gaps),
        ("box retransmissions (last boot)", c.retransmits),
        ("link losses / connects / device resets", c.link_losses),
        ("", c.connects),
        ("", c.device_resets),
        ("virtual time (s)", round(rig.now)),
        ("wall time (s)", round(elapsed, 1)),
    ]
    _print_table(rows)
    ok = t.lost == 0 and t.doubled == 0 and t.out_of_order == 0 and t.mismatched == 0
    print()
    print(f"lost/doubled/out-of-order: {t.lost}/{t.doubled}/{t.out_of_order}; stale {t.stale}")
    print("PASS" if ok and t.unaccounted == 0 else "FAIL")
    return 0 if ok else 1


def _click(rig: Rig, rng) -> None:
    button = rng.randrange(len(rig.config["buttons"]))
    down = 700 if rng.random() < 0.03 else rng.randint(40, 120)
    release_settled = rig.press(button, down)
    gap = rng.randint(40, 120)
    rig.run((release_settled - rig.now_ms + gap) / 1000)


def _print_table(rows: list[tuple[str, object]]) -> None:
    merged: list[tuple[str, str]] = []
    for label, value in rows:
        if label:
            merged.append((label, str(value)))
        else:
            name, text = merged[-1]
            merged[-1] = (name, f"{text} / {value}")
    width = max(len(label) for label, _ in merged)
    print(f"| {'measure'.ljust(width)} | value |")
    print(f"|{'-' * (width + 2)}|-------|")
    for label, text in merged:
        print(f"| {label.ljust(width)} | {text} |")


if __name__ == "__main__":
    sys.exit(main())
