"""Rolls read under a lamp flickering with the mains, seen by a rolling shutter
(vision.lightbands, vision.settle, vision.calibration).

A flickering LED or fluorescent lamp crosses a rolling shutter's frames with bands of
light that roll from frame to frame (``vision.surroundings.flicker_bands``: bands a
``depth`` deep, ``cycles`` of them down the frame, moving a third of a cycle a frame, as
100 Hz flicker does at 30 frames a second). For each kind of bands, on the tray as shot
and on it darkened to a third (a dim room), with the detector told the dice's size by the
framing (``own``) and told they are 12 px (motion looked at wider, as for a camera high
over a large tray), prints:

* **rolls read once**: the recorded roll sequences of the checked-in photos
  (``tests/vision``'s ``roll_sequence``, as 1280 px wide frames: 1280x1280), then 2 s of the still
  tray, at 30 frames a second: read once, as they should be, by the settle detector as
  it is (**rows**) and with each frame brought to the last as a whole, as before the
  fortieth session (**whole**);
* **read after s**: how long after the last die stopped the read came (the detector
  waits 0.4 s);
* **still hand seen**: then a hand held still in the tray for 1 s: seen (no read, the
  tray's state ``hand`` at the end);
* **advice**: in how many sequences 5 frames of the empty tray got the calibration
  check's flicker advice;
* **same faces**: in how many the reader read the settled frame's dice as it reads
  them under steady light (the same faces, as many left uncertain);
* **settle ms**: the detector's time a frame (median over all the frames; the steady
  rows are the same detector's cost without bands).

Takes about six minutes on one core::

    .venv/bin/python benchmarks/bench_flicker.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.vision.helpers import (  # noqa: E402
    ManualClock,
    empty_tray,
    hand,
    labelled_photos,
    roll_sequence,
)
from vision import lightbands  # noqa: E402
from vision.lightbands import frames_band_spread  # noqa: E402
from vision.reader import DiceReader  # noqa: E402
from vision.reading import TrayRead  # noqa: E402
from vision.settle import SettleDetector, TrayState  # noqa: E402
from vision.setupadvice import FLICKER_SPREAD  # noqa: E402
from vision.surroundings import flicker_bands  # noqa: E402

HAND_PHOTO = "IMG_20191208_112623.jpg"
FPS = 30
WIDTH = 1280
ROLL = 0.33
BANDS = [(0.0, 4.0), (0.03, 4.0), (0.06, 4.0), (0.1, 1.5), (0.1, 4.0), (0.1, 8.0),
         (0.2, 4.0), (0.3, 4.0)]
"""(depth, cycles) of the bands: none, then from barely seen to a cheap LED's."""


def dim(frame: np.ndarray) -> np.ndarray:
    return cv2.convertScaleAbs(frame, alpha=0.35)


def as_camera(frame: np.ndarray) -> np.ndarray:
    """A photo as a camera's frame: 1280 px wide."""
    h, w = frame.shape[:2]
    return cv2.resize(frame, (WIDTH, round(h * WIDTH / w)), interpolation=cv2.INTER_AREA)


def sequences() -> list[tuple[list[np.ndarray], int, np.ndarray, np.ndarray]]:
    """(frames, the frame the last die stopped at, the settled frame, the empty tray),
    each :func:`as_camera`."""
    out = []
    for p in labelled_photos():
        if p.path.name == HAND_PHOTO:
            continue
        frames, final = roll_sequence(p, moved=set(range(len(p.faces))))
        frames, final = [as_camera(f) for f in frames], as_camera(final)
        out.append((frames[:-8] + [final] * (2 * FPS), len(frames) - 8, final,
                    as_camera(empty_tray(p))))
    return out


def faces(read: TrayRead) -> tuple[list[str], int]:
    """A read's faces (in order) and how many dice it left uncertain."""
    return sorted(d.face for d in read.dice), sum(d.uncertain for d in read.dice)


def run(frames: list[np.ndarray], final: np.ndarray, depth: float, cycles: float,
        die_px: float | None) -> tuple[list[int], bool, list[float]]:
    """(the frames read at, whether a still hand was then seen, ms a frame)."""
    detector = SettleDetector(clock=ManualClock(), die_px=die_px)
    reads, ms = [], []
    for i, frame in enumerate(frames):
        banded = flicker_bands(frame, depth, ROLL * i, cycles)
        t = time.perf_counter()
        decision = detector.update(banded, timestamp=i / FPS)
        ms.append((time.perf_counter() - t) * 1000)
        if decision.read_now:
            reads.append(i)
    held = hand(final, 0.45)
    start = len(frames)
    after = [detector.update(flicker_bands(held, depth, ROLL * (start + i), cycles),
                             timestamp=(start + i) / FPS) for i in range(FPS)]
    seen = not any(d.read_now for d in after) and after[-1].state is TrayState.HAND
    return reads, seen, ms


def main() -> int:
    cv2.setNumThreads(1)
    reader = DiceReader("d6")
    recorded = sequences()
    print(f"{'bands: depth, cycles':<21} {'floor':<8} {'dice':<6} "
          f"{'read once: rows / whole':>24} {'read after s':>12} {'still hand':>10} "
          f"{'advice':>7} {'same faces':>10} {'settle ms':>9}")
    for depth, cycles in BANDS:
        for floor in ("as shot", "dim"):
            change = (lambda f: f) if floor == "as shot" else dim
            steady_faces = [faces(reader.read(change(final))) for _, _, final, _ in recorded]
            for die_px in (None, 12.0):
                once = whole = seen = advised = same = 0
                delays: list[float] = []
                ms: list[float] = []
                for (frames, stopped, final, empty), steady in zip(
                        recorded, steady_faces, strict=True):
                    shown = [change(f) for f in frames]
                    reads, hand_seen, took = run(shown, change(final), depth, cycles, die_px)
                    once += len(reads) == 1
                    seen += hand_seen
                    ms += took
                    if reads:
                        delays.append((reads[0] - stopped) / FPS)
                    saved = lightbands.BAND_SPREAD
                    lightbands.BAND_SPREAD = float("inf")  # brought over as a whole
                    try:
                        whole += len(run(shown, change(final), depth, cycles, die_px)[0]) == 1
                    finally:
                        lightbands.BAND_SPREAD = saved
                    tray = [flicker_bands(change(empty), depth, ROLL * i, cycles)
                            for i in range(5)]
                    advised += frames_band_spread(tray) > FLICKER_SPREAD
                    if die_px is None:
                        banded = flicker_bands(change(final), depth, ROLL * 40, cycles)
                        same += faces(reader.read(banded)) == steady
                n = len(recorded)
                delay = f"{statistics.median(delays):.2f}" if delays else "-"
                faces_col = f"{same} of {n}" if die_px is None else ""
                print(f"{f'{depth:.0%}, {cycles:g}':<21} {floor:<8} "
                      f"{'12 px' if die_px else 'own':<6} {f'{once} / {whole} of {n}':>24} "
                      f"{delay:>12} {f'{seen} of {n}':>10} {f'{advised} of {n}':>7} "
                      f"{faces_col:>10} {statistics.median(ms):>9.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
