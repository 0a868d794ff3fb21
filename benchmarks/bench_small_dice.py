"""How small dice may be in the picture before the reader reads them wrong (the d6 photos).

Each photo of a split is shrunk (``INTER_AREA``) so that its dice's label boxes are N px
across (their median side), and read with that die size, as a camera far over the tray
or at a low resolution, calibrated, would give them. Prints, for each size, over all
labelled dice: read accuracy, dice read wrong and sure (silent), and of those how many
are not among the data set's known label mistakes (``vision.training.label_errors``),
dice left uncertain, and how many dice lie in photos whose dice were found under
``SURE_DIE_PX`` (every pip die of which is marked uncertain, with a warning).

``--no-rule`` reads without that rule (``SURE_DIE_PX`` set to 0), to see what it stands
on; ``--reader enrolled`` reads with the d6 faces enrolled as symbols (as
``bench_vision_accuracy.py``'s enrolled reader; the rule leaves a profile's reads alone).
Develop on train and val; the test split is read at the working size by
``bench_vision_accuracy.py`` and is not needed here. About 20 s a size on val (25 photos),
2 minutes on train (200), one core::

    .venv/bin/python benchmarks/bench_small_dice.py --splits val train
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_vision_accuracy import score  # noqa: E402 - beside this script

import vision.detection  # noqa: E402
from vision.faces import D6_FACES  # noqa: E402
from vision.reader import DiceReader  # noqa: E402
from vision.training.calibrate_enrolled import enrolled_profile  # noqa: E402
from vision.training.photos import DATASET, read_yolo, split_photos  # noqa: E402

SIZES = (12, 14, 16, 18, 20, 25, 40)


def shrunk_photos(split: str) -> list[tuple[str, np.ndarray, list[tuple[str, tuple]], float]]:
    """(name, photo, labelled dice as (face, box), their median label side) of a split."""
    out = []
    for path in split_photos(split):
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        truth = [(D6_FACES[c], b) for c, b in read_yolo(
            DATASET / "labels" / split / (path.stem + ".txt"), image.shape[1], image.shape[0])]
        side = float(np.median([max(b[2], b[3]) for _, b in truth]))
        out.append((path.name, image, truth, side))
    return out


def measure(photos: list, px: float, profile: object | None) -> Counter[str]:
    total: Counter[str] = Counter()
    reader = DiceReader("d6", die_px=px, profile=profile)
    for name, image, truth, side in photos:
        f = px / side
        frame = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        read = reader.read(frame, name)
        if any("too small to read surely" in w for w in read.warnings):
            total["small"] += len(truth)
        shrunk = [(face, tuple(round(v * f) for v in b)) for face, b in truth]
        total.update(score(read, shrunk, name))
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--splits", nargs="+", default=["val"], choices=["train", "val"])
    parser.add_argument("--sizes", nargs="+", type=float, default=SIZES, metavar="PX")
    parser.add_argument("--reader", choices=["pips", "enrolled"], default="pips")
    parser.add_argument("--no-rule", action="store_true",
                        help="read without SURE_DIE_PX (every size read as usual)")
    args = parser.parse_args(argv)
    if args.no_rule:
        vision.detection.SURE_DIE_PX = 0.0
    profile = enrolled_profile() if args.reader == "enrolled" else None
    rule = "no rule" if args.no_rule else f"SURE_DIE_PX {vision.detection.SURE_DIE_PX:g}"
    print(f"reader {args.reader}, {rule}")
    print(f"{'split':<6} {'die px':>6} {'dice':>5} {'accuracy%':>9} {'silent':>6} "
          f"{'not label mistakes':>18} {'uncertain':>9} {'dice in small-dice photos':>25}")
    for split in args.splits:
        photos = shrunk_photos(split)
        for px in args.sizes:
            t = measure(photos, px, profile)
            print(f"{split:<6} {px:>6g} {t['dice']:>5} {100 * t['right'] / t['dice']:>9.2f} "
                  f"{t['silent']:>6} {t['beyond']:>18} {t['uncertain']:>9} "
                  f"{t['small']:>25}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
