"""Press-to-event latency over a clean pty: pin driven low -> ButtonEvent in a listener.

The real firmware (FakeMachine, 2 ms sampling, 4-sample debounce) runs behind a pty on its
own thread; the host is the full SerialBridge (pyserial, reader thread, dispatcher thread).
The figure includes the debounce window, as a player would feel it.

Usage: .venv/bin/python benchmarks/bench_bridge_latency.py [--presses N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from firmware_bridge.bridge import SerialBridge
from firmware_bridge.events import ButtonEvent, ButtonKind
from firmware_bridge.link import LinkState
from firmware_bridge.pty_box import FakePtyBox

TARGET_P95_MS = 20.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=300)
    args = parser.parse_args(argv)
    arrived: dict[int, float] = {}
    lock = threading.Lock()
    got = threading.Event()

    def listener(notice: object) -> None:
        if isinstance(notice, ButtonEvent) and notice.kind is ButtonKind.PRESS:
            with lock:
                arrived[len(arrived)] = time.monotonic()
            got.set()

    latencies: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        link = Path(tmp) / "usb-MicroPython_Board_in_FS_mode_e6614104031b2c2f-if00"
        with FakePtyBox(link, seed=1) as box, SerialBridge(str(link)) as bridge:
            bridge.add_listener(listener)
            deadline = time.monotonic() + 10
            while bridge.status().state is not LinkState.CONNECTED:
                if time.monotonic() > deadline:
                    print("FAIL: the bridge did not connect")
                    return 1
                time.sleep(0.01)
            for i in range(args.presses):
                got.clear()
                box.press(i % 8, down=0.03)
                if not got.wait(1.0):
                    print(f"FAIL: press {i} never arrived")
                    return 1
                time.sleep(0.05)
            presses = [t for t, _, level in box.drive_log if level == 0]
            with lock:
                latencies = [(arrived[i] - presses[i]) * 1000 for i in range(args.presses)]
            status = bridge.status()
    latencies.sort()
    p50 = statistics.median(latencies)
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    p99 = latencies[int(0.99 * (len(latencies) - 1))]
    print("bench_bridge_latency: press-to-event over a clean pty (debounce included)")
    print()
    print("| presses | min ms | p50 ms | p95 ms | p99 ms | max ms | CRC errors | retransmits |")
    print("|---------|--------|--------|--------|--------|--------|------------|-------------|")
    print(
        f"| {len(latencies)} | {latencies[0]:.1f} | {p50:.1f} | {p95:.1f} | {p99:.1f} "
        f"| {latencies[-1]:.1f} | {status.counters['crc_errors']} "
        f"| {status.counters['retransmits']} |"
    )
    print()
    ok = p95 <= TARGET_P95_MS
    print(f"p95 {p95:.1f} ms (target <= {TARGET_P95_MS:.0f} ms): {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
