"""How the dice finders and readers fare on tray floors darker than the d6 photos' light ones.

Two tables (``docs/vision.md``, *Which tray floor*):

* **SeaFall sets on synthetic floors**: each body colour's set of the renderer is enrolled
  at the table on each floor from its own dice, kept as the reader cut them: as the table
  makes a first profile (``--enroll table``, the default since the sixty-first session:
  once every face has 3 named dice, the first 5 of each face the others do not doubt,
  ``tests.vision.helpers.table_profile``), or from the first 5 named a face, unchecked
  (``--enroll first-five``, ``tests.vision.helpers.table_crops``, as the figures before
  it were measured), then reads 16 trays of 15 of its dice there (8 drawn flat, seed 101;
  8 in perspective, seed 202): dice found, read sure and right (of all dice), read wrong
  and sure, and boxes on no die.
* **The val photos on repainted floors**: each of the 25 val photos of
  ``../shared/datasets/d6-photos`` with its floor repainted a flat grey
  (:func:`vision.synthetic.darker_floor` with ``level``, and ``grain=60`` so that the
  white sheet's bright grain goes too), read by the pip d6 reader (found, read sure and
  right, read wrong and sure, false boxes) and by the custom-face dice's path (the body
  detector and the die-or-not check: found, false boxes). Test is not read.

Takes about five minutes on one core::

    .venv/bin/python benchmarks/bench_tray_floors.py [--sets red ivory black blue] \\
        [--enroll table|first-five] [--skip-photos]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_vision_accuracy import score  # noqa: E402

from tests.vision.helpers import ENROLLMENTS, enrolled_at_table  # noqa: E402
from tests.vision.test_vision_enrollment import score_synthetic  # noqa: E402
from vision.faces import D6_FACES  # noqa: E402
from vision.reader import DiceReader  # noqa: E402
from vision.synthetic import BODY_COLOURS, BODY_NAMES, darker_floor  # noqa: E402
from vision.training.photos import labelled_frames  # noqa: E402

FLOORS = {
    "light grey (190)": (185, 190, 195),
    "mid grey (125)": (120, 125, 130),
    "grey (100)": (97, 100, 103),
    "dark grey (72)": (70, 72, 75),
    "green felt (80)": (70, 90, 60),
    "black (30)": (30, 30, 32),
}
"""The synthetic floors (BGR), named by their grey level."""

PHOTO_LEVELS = (None, 150, 125, 100, 72, 40)
"""The val photos' floors: as shot, then repainted these greys."""


def sets_on_floors(names: list[str], enroll: str = "table") -> None:
    """Each set of ``names`` enrolled on each floor as ``enroll`` says
    (:data:`tests.vision.helpers.ENROLLMENTS`) and read there."""
    how = ("as the table makes a first profile" if enroll == "table"
           else "from the first 5 dice named a face")
    print(f"each set enrolled on the floor {how}")
    print("each cell: dice found / read sure and right / read wrong and sure / boxes on no die")
    print(f"{'floor':<18} " + "".join(f"{n:<24}" for n in names))
    for floor, tray in FLOORS.items():
        cells = []
        for name in names:
            body = BODY_COLOURS[BODY_NAMES.index(name)]
            profile = enrolled_at_table(enroll, 7, body, tray, name="floors")
            reader = DiceReader("seafall", profile=profile)
            t = {"dice": 0, "found": 0, "right": 0, "silent": 0, "false": 0}
            for seed, shift in ((101, 0.0), (202, 0.02)):
                got = score_synthetic(reader, seed=seed, photos=8, top_shift=shift, body=body,
                                      dice=15, tray=tray)
                t = {k: t[k] + got[k] for k in t}
            cells.append(f"{t['found']:>3} / {100 * t['right'] / t['dice']:5.1f}% / "
                         f"{t['silent']} / {t['false']}")
        print(f"{floor:<18} " + "".join(f"{c:<24}" for c in cells), flush=True)
    print("(of 240 dice a cell)")


def photos_on_floors() -> None:
    pips = DiceReader("d6")
    bodies = DiceReader("seafall", unknown_faces=True)
    frames = list(labelled_frames("val"))
    print(f"\n{'val floor':<10} {'dice':>5} {'pips found':>11} {'sure+right':>11} "
          f"{'silent':>7} {'false':>6} {'bodies found':>13} {'false':>6}")
    for level in PHOTO_LEVELS:
        t = dict.fromkeys(("dice", "pf", "pr", "ps", "px", "bf", "bx"), 0)
        for _, small, truth in frames:
            image = small.copy()
            if level is not None:
                darker_floor(image, np.array([b for _, b in truth], float),
                             np.random.default_rng(0), level=level, grain=60.0)
            faces = [(D6_FACES[c], b) for c, b in truth]
            got = score(pips.read(image), faces)
            t["dice"] += got["dice"]
            t["pf"] += got["found"]
            t["pr"] += got["right"]
            t["ps"] += got["silent"]
            t["px"] += got["false"]
            got = score(bodies.read(image), faces)  # faces unread: found and false count
            t["bf"] += got["found"]
            t["bx"] += got["false"]
        print(f"{level or 'as shot':<10} {t['dice']:>5} {t['pf']:>11} {t['pr']:>11} "
              f"{t['ps']:>7} {t['px']:>6} {t['bf']:>13} {t['bx']:>6}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=list(BODY_NAMES), choices=BODY_NAMES)
    parser.add_argument("--enroll", choices=ENROLLMENTS, default="table",
                        help="enroll each set as the table makes a first profile (the first "
                             "5 trusted named dice a face, once every face has 3), or from "
                             "the first 5 named a face, unchecked (as before the sixty-first "
                             "session)")
    parser.add_argument("--skip-photos", action="store_true",
                        help="leave out the val photos on repainted floors")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    sets_on_floors(args.sets, args.enroll)
    if not args.skip_photos:
        photos_on_floors()
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
