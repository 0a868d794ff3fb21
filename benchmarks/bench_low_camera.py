"""A camera lower or higher over the tray than the framing default, with no tray setup:
rolls read at the framing default (as before the eighty-second session) and at the size
the camera's rolls taught (``vision/camerasize.py``).

* Pip d6: the d6 photos of a split cut to 1280x720 about their dice so that the dice are
  each of ``--times`` the framing default's size (a 16:9 cut of these square photos holds
  their dice at 1.4 to 2.3 times it or more), read in turn as one camera's rolls; ``whole``
  reads the photos as they are (dice about the default, each photo framed its own way: a
  camera whose dice change size every roll). Where the photo shrunk so fits in 1280x720
  whole (dice under about the default's size: a higher camera), it is laid in the middle
  of a frame of its median colour (a plain floor round the tray); photos whose dice are
  between that and the cut's least are left out. A die is found when its box and its label's
  each hold the other's centre, as ``bench_vision_accuracy.py`` counts.

Prints, per case and way: the dice, those read right and sure, those read sure and wrong
(silent errors), those found, the rolls read at several sizes (searches), the rolls
warned, and the median and mean ms a roll. Develop on train/val. (SeaFall dice are not
learned: ``vision/camerasize.py`` says why.)
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_vision_accuracy import frames, score  # noqa: E402

from vision.camerasize import CameraSize  # noqa: E402
from vision.detection import DEFAULT_DIE_FRACTION  # noqa: E402
from vision.reader import DiceReader  # noqa: E402
from vision.reading import Box, TrayRead  # noqa: E402

FRAME = (1280, 720)


def low_camera(split: str, times: float, limit: int | None
               ) -> Iterator[tuple[np.ndarray, list[tuple[str, Box]]]]:
    """The split's photos cut to 16:9 about their dice's median centre so that their dice
    are ``times`` the framing default at 1280x720, or shrunk onto a plain frame when the
    cut would be larger than the photo (the module's docstring), with the labelled dice
    wholly in the cut; ``times`` 0: the photos as they are."""
    for path, small, truth in frames(split, limit):
        if not times:
            yield small, truth
            continue
        full = cv2.imread(str(path))
        k = full.shape[1] / small.shape[1]
        boxes = [(face, (x * k, y * k, w * k, h * k)) for face, (x, y, w, h) in truth]
        side = float(np.median([max(b[2], b[3]) for _, b in boxes]))
        ch = int(side / (times * DEFAULT_DIE_FRACTION))
        cw = int(ch * FRAME[0] / FRAME[1])
        if cw > full.shape[1] or ch > full.shape[0]:
            scale = FRAME[1] / ch
            if full.shape[0] * scale <= FRAME[1] and full.shape[1] * scale <= FRAME[0]:
                yield far_off(full, boxes, scale)  # a higher camera
            continue
        cx = np.median([b[0] + b[2] / 2 for _, b in boxes])
        cy = np.median([b[1] + b[3] / 2 for _, b in boxes])
        x0 = int(min(max(cx - cw / 2, 0), full.shape[1] - cw))
        y0 = int(min(max(cy - ch / 2, 0), full.shape[0] - ch))
        image = cv2.resize(full[y0:y0 + ch, x0:x0 + cw], FRAME, interpolation=cv2.INTER_AREA)
        s = FRAME[0] / cw
        inside = [(face, ((x - x0) * s, (y - y0) * s, w * s, h * s))
                  for face, (x, y, w, h) in boxes
                  if x >= x0 and y >= y0 and x + w <= x0 + cw and y + h <= y0 + ch]
        if inside:
            yield image, inside


def far_off(full: np.ndarray, boxes: list[tuple[str, Box]], scale: float
            ) -> tuple[np.ndarray, list[tuple[str, Box]]]:
    """A photo shrunk by ``scale`` into the middle of a 1280x720 frame of its median
    colour, with its labelled dice in the frame's pixels (a camera higher than the framing
    default over a plain floor)."""
    small = cv2.resize(full, (round(full.shape[1] * scale), round(full.shape[0] * scale)),
                       interpolation=cv2.INTER_AREA)
    frame = np.empty((FRAME[1], FRAME[0], 3), np.uint8)
    frame[:] = np.median(small.reshape(-1, 3), axis=0)
    y0, x0 = (FRAME[1] - small.shape[0]) // 2, (FRAME[0] - small.shape[1]) // 2
    frame[y0:y0 + small.shape[0], x0:x0 + small.shape[1]] = small
    return frame, [(face, (x * scale + x0, y * scale + y0, w * scale, h * scale))
                   for face, (x, y, w, h) in boxes]


def timed(read: Callable[[np.ndarray], TrayRead], image: np.ndarray, times: list[float]
          ) -> TrayRead:
    start = time.perf_counter()
    out = read(image)
    times.append((time.perf_counter() - start) * 1000)
    return out


def row(case: str, way: str, total: Counter[str], searches: int | str, ms: list[float]) -> None:
    print(f"{case:<14}{way:<9}{total['dice']:>6}{total['right']:>7}{total['silent']:>7}"
          f"{total['found']:>7}{searches!s:>9}{total['warned']:>7}"
          f"{np.median(ms) if ms else 0:>8.0f}{np.mean(ms) if ms else 0:>8.0f}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", default="val")
    parser.add_argument("--limit", type=int, default=None, help="the first N photos only")
    parser.add_argument("--times", type=float, nargs="*",
                        default=[0, 0.5, 0.7, 1.4, 1.7, 2.0, 2.5, 3.0],
                        help="pip dice at these times the framing default (0: whole photos; "
                        "under 1, the photo shrunk onto a plain frame: a higher camera)")
    args = parser.parse_args(argv)
    print(f"{'case':<14}{'way':<9}{'dice':>6}{'right':>7}{'silent':>7}{'found':>7}"
          f"{'searches':>9}{'warned':>7}{'ms med':>8}{'mean':>8}")
    for times in args.times:
        case = "d6 whole" if not times else f"d6 {times:g}x"
        plain, camera = DiceReader("d6"), CameraSize()
        totals = [Counter(dice=0), Counter(dice=0)]
        ms: list[list[float]] = [[], []]
        for image, truth in low_camera(args.split, times, args.limit):
            totals[0].update(score(timed(plain.read, image, ms[0]), truth))
            read = timed(partial(camera.read, plain), image, ms[1])
            totals[1].update(score(read, truth))
            totals[1]["warned"] += bool(read.warnings)
        row(case, "default", totals[0], "-", ms[0])
        row(case, "learned", totals[1], camera.searches, ms[1])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
