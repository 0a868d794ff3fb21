"""Place :data:`vision.smear.OWN_MARGIN`: enrolled symbol dice on synthetic SeaFall trays,
smeared as a moving camera smears them, and how many the profile reads wrong and sure
without the check.

No photos of SeaFall dice exist, so the trays are drawn (:func:`vision.synthetic.
tray_photo`: perspective, focus, noise, uneven light, shadows), and the profile is
enrolled from ``--per-face`` crops a face of other drawn trays
(:func:`vision.synthetic.enrolment_crops`), as a player enrolls. A symbol may run one way
(SeaFall's weak face is one bar), which the smear measure sees as a smear: the check asks
a frame of enrolled dice to measure above the direction its dice show of their own
(:func:`vision.smear.smear_from`). So the trays are the hard case for it: of 1 to 15 dice
(a third of them 1 or 2), and every third tray all of the profile's most directed face.

Each tray is smeared by each of ``--lengths`` px of the reader's working size (a die about
40 px) at an angle drawn for the tray, read without the check
(``DiceReader(smear_check=False)``) and measured as the reader does. Printed per length:
the trays, the dice, those read wrong and sure, and for each of ``--margins`` the wrong and
sure dice a check there would leave and the share of trays it would mark uncertain (and
of the trays of one die). About two and a half minutes, one core::

    .venv/bin/python -m vision.training.calibrate_smear_symbols [--trays 384]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.boxes import unscaled
from vision.detection import to_work
from vision.enrollment import Profile
from vision.reader import DiceReader, work_frame
from vision.smear import OWN_MARGIN, smear_and_own, smear_from
from vision.synthetic import enrolment_crops, random_faces, tray_photo
from vision.training.degradations import motion
from vision.training.photos import match

LENGTHS = (0, 3, 5, 7, 10, 13)
MARGINS = (0.1, 0.15, 0.2, 0.25, 0.3)
COUNTS = (1, 1, 2, 3, 4, 6, 9, 15)
"""Dice a tray, in turn."""


@dataclass(frozen=True)
class Tray:
    """One tray at one smear: what a check at any margin would do with it."""

    length: int
    value: float  # the dice's smear measure; 0.0 when no die was read
    own: float  # the direction they show of their own (vision.smear.own_share)
    dice: int
    wrong: int  # read wrong and sure

    def marked(self, margin: float) -> bool:
        return self.value >= smear_from(self.own, margin)


def read_trays(profile: Profile, trays: int, lengths: Sequence[int], seed: int) -> list[Tray]:
    reader = DiceReader(profile.die, profile=profile, smear_check=False)
    directions = profile.directions
    if directions is None:
        raise ValueError(f"profile {profile.name!r} kept no crops to measure its faces by")
    most = profile.labels[int(np.argmax(directions))]
    rng = np.random.default_rng(seed)
    out = []
    for k in range(trays):
        count = COUNTS[k % len(COUNTS)]
        faces = [most] * count if k % 3 == 0 else random_faces(rng, count, profile.labels)
        photo = tray_photo(rng, faces, top_shift=0.03 if k % 2 else 0.0)
        scale = to_work(photo.image).scale  # working px per photo px
        angle = float(rng.uniform(0.0, 180.0))
        for length in lengths:
            image = (motion(max(1, round(length / scale)), angle)(photo.image, rng) if length
                     else photo.image)
            read = reader.read(image)
            work = work_frame(image)  # the picture the reader measures
            own = profile.directions_of([d.face for d in read.dice]) or []
            value, share = smear_and_own(
                work.image, [unscaled(d.box, 1 / work.scale) for d in read.dice], own)
            truth = [d.box for d in photo.dice]
            wrong = sum(not read.dice[i].uncertain and read.dice[i].face != photo.dice[t].face
                        for t, i in match([d.box for d in read.dice], truth))
            out.append(Tray(length, value, share, count, wrong))
    return out


def report(trays: list[Tray], margins: Sequence[float]) -> None:
    print("dice read wrong and sure without the check; then, for a check at each margin "
          "above the dice's own direction, those it would leave and the trays it would mark "
          "uncertain (all / of one die)")
    head = " | ".join(f"{m:>5} {'(kept)' if m == OWN_MARGIN else '':<6}" for m in margins)
    print(f"{'smear px':>8} {'trays':>5} {'dice':>5} {'wrong':>5}   {head}")
    for length in sorted({t.length for t in trays}):
        these = [t for t in trays if t.length == length]
        alone = [t for t in these if t.dice == 1]
        cells = []
        for m in margins:
            left = sum(t.wrong for t in these if not t.marked(m))
            share = 100.0 * np.mean([t.marked(m) for t in these])
            one = 100.0 * np.mean([t.marked(m) for t in alone]) if alone else 0.0
            cells.append(f"{left:>3} {share:3.0f}%/{one:3.0f}%")
        print(f"{length:>8} {len(these):>5} {sum(t.dice for t in these):>5} "
              f"{sum(t.wrong for t in these):>5}   {' | '.join(cells)}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trays", type=int, default=384, help="trays drawn (each smeared "
                        "by every length)")
    parser.add_argument("--lengths", nargs="+", type=int, default=list(LENGTHS),
                        metavar="PX", help="smears, in working px (0: sharp)")
    parser.add_argument("--margins", nargs="+", type=float, default=list(MARGINS))
    parser.add_argument("--per-face", type=int, default=5,
                        help="enrolled crops a face (the issue's at most 5)")
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args(argv)
    if args.trays < 1 or args.per_face < 1 or any(n < 0 for n in args.lengths):
        parser.error("--trays and --per-face are at least 1, lengths 0 or more px")
    profile = Profile.from_crops("symbols", "seafall", enrolment_crops(
        np.random.default_rng(args.seed + 1), args.per_face))
    print("the faces' own direction: " + ", ".join(
        f"{label} {d:.2f}" for label, d in zip(profile.labels, profile.directions_of(
            profile.labels) or [], strict=True)))
    report(read_trays(profile, args.trays, args.lengths, args.seed), args.margins)
    return 0


if __name__ == "__main__":
    sys.exit(main())
