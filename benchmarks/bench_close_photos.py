"""Photos taken close, and die sizes told wrong: the d6 reader with and without
``size_search`` (``vision/dicescale.py``).

* Close photos: each d6 photo of a split decoded whole, cut to a share of its side about its
  dice (``--shares``; 1 is the photo as it is) and brought to 1,200 px, as a phone held that
  much closer takes it; the labelled dice wholly in the cut are the truth.
* Sizes told (``--told``): each photo at the working size, read told a share of its
  labels' median dice size (as ``--die-px`` or a setup's size would tell it).

Prints, per case, the dice, those read right and sure, those silently wrong (sure and
wrong), those found, and the median ms a photo, without the search and with it. Figures
as ``bench_vision_accuracy.py`` counts them (a die is found when its box and its label's
each hold the other's centre). Develop on train/val; the figures in ``docs/vision.md`` are
val's.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_vision_accuracy import frames, score  # noqa: E402

from vision.reader import DiceReader  # noqa: E402
from vision.reading import Box  # noqa: E402

SIDE = 1200
"""The side a close photo is brought to."""


def close_photos(split: str, share: float, limit: int | None
                 ) -> Iterator[tuple[np.ndarray, list[tuple[str, Box]]]]:
    """Each photo of the split cut to ``share`` of its side about its dice's median centre,
    at SIDE px, with the labelled dice wholly in the cut (in its pixels)."""
    for path, small, truth in frames(split, limit):
        full = cv2.imread(str(path))
        k = full.shape[1] / small.shape[1]
        boxes = [(face, (x * k, y * k, w * k, h * k)) for face, (x, y, w, h) in truth]
        height, width = full.shape[:2]
        cw, ch = int(width * share), int(height * share)
        cx = np.median([b[0] + b[2] / 2 for _, b in boxes])
        cy = np.median([b[1] + b[3] / 2 for _, b in boxes])
        x0 = int(min(max(cx - cw / 2, 0), width - cw))
        y0 = int(min(max(cy - ch / 2, 0), height - ch))
        image = cv2.resize(full[y0:y0 + ch, x0:x0 + cw], (SIDE, SIDE),
                           interpolation=cv2.INTER_AREA)
        s = SIDE / cw
        inside = [(face, ((x - x0) * s, (y - y0) * s, w * s, h * s))
                  for face, (x, y, w, h) in boxes
                  if x >= x0 and y >= y0 and x + w <= x0 + cw and y + h <= y0 + ch]
        yield image, inside


def told_photos(split: str, share: float, limit: int | None
                ) -> Iterator[tuple[np.ndarray, list[tuple[str, Box]], float]]:
    """Each photo of the split at the working size, with the size told: ``share`` of its
    labels' median dice side."""
    for _path, small, truth in frames(split, limit):
        told = share * float(np.median([max(b[2], b[3]) for _, b in truth]))
        yield small, truth, told


def tally(reads: Iterator[tuple[DiceReader, np.ndarray, list[tuple[str, Box]]]]
          ) -> tuple[Counter[str], float]:
    total: Counter[str] = Counter()
    times = []
    for reader, image, truth in reads:
        start = time.perf_counter()
        read = reader.read(image)
        times.append((time.perf_counter() - start) * 1000)
        total.update(score(read, truth))
    return total, float(np.median(times)) if times else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="val")
    parser.add_argument("--limit", type=int, default=None, help="the first N photos only")
    parser.add_argument("--shares", type=float, nargs="*", default=[1.0, 0.6, 0.4],
                        help="close photos cut to these shares of their side")
    parser.add_argument("--told", type=float, nargs="*", default=[],
                        help="also read the photos told these shares of their dice's size")
    args = parser.parse_args(argv)
    print(f"{'case':<16} {'dice':>5} {'search':>6} {'right':>6} {'silent':>6} {'found':>6} "
          f"{'ms':>7}")
    cases = [(f"close {share:g}", share, False) for share in args.shares]
    cases += [(f"told {share:g}", share, True) for share in args.told]
    for name, share, told in cases:
        for search in (False, True):
            if told:
                reads = ((DiceReader("d6", die_px=size, size_search=search), image, truth)
                         for image, truth, size in told_photos(args.split, share, args.limit))
            else:
                reader = DiceReader("d6", size_search=search)
                reads = ((reader, image, truth)
                         for image, truth in close_photos(args.split, share, args.limit))
            total, ms = tally(reads)
            print(f"{name:<16} {total['dice']:>5} {'yes' if search else 'no':>6} "
                  f"{total['right']:>6} {total['silent']:>6} {total['found']:>6} {ms:>7.0f}",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
