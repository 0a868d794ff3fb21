"""Place the dark-floor pip networks' own thresholds on out-of-fold reads of dark frames.

They are :data:`vision.pipnets.DARK_SURE_FROM` and, with ``--quick-models``,
:data:`vision.pipnets.DARK_QUICK_NONE`.

A frame whose floor is darker than :data:`vision.reader.DARK_NETS_BELOW` is read by the
dark-floor networks (``docs/vision.md``, *Which tray floor*). Their rule is the light set's,
plus one threshold: a die read sure with a lower confidence is left to the table. This
script places it as :mod:`vision.training.calibrate_faces` places the light set's rule:
the dark set's fold networks (``train_pips --floors 0.5 --folds 3 --fold k``) each read
the train photos they did not learn, here with their floor repainted a flat grey
(:func:`vision.synthetic.darker_floor`, as ``bench_tray_floors`` repaints val), found by
the dark-floor detector, exactly as the reader reads a dark frame. It prints, per floor
level and threshold, the share of dice read sure and right (the known label mistakes
left out), the dice read wrong and sure, and the sure boxes on no die; and the least
threshold that leaves at most ``--silent`` percent of dice wrong and sure at every
level. The test split is never read. About two minutes on one core.

``--quick-models`` (the dark set's quick looks of the folds, each taught by its fold's
face network: ``train_pips --floors 0.5 --degrade 0.1 --epochs 60 --width 1.0 --teacher
/tmp/dark0.onnx --folds 3 --fold 0``) reads them again with each fold's quick look first,
as the reader does, once for each of :data:`QUICK_NONES`, and prints, at the packaged
threshold, what each leaves: the table that places :data:`vision.pipnets.DARK_QUICK_NONE`
(candidates the quick look takes for no die dropped without the face network). About six
minutes more.

``--degrade NAME`` sees each repainted frame through a worse camera
(:mod:`vision.training.degradations`: blurred, smeared, compressed...), the measure of
whether a recipe holds up under one on a dark floor. ``--models`` without ``{}`` reads
every fold with the same network (the packaged one, which learned those photos: a
measure that favours it)::

    .venv/bin/python -m vision.training.train_pips --threads 1 --val-too --zoom 0.7 1.35 \\
        --floors 0.5 --degrade 0.1 --epochs 60 --max-minutes 60 \\
        --folds 3 --fold 0 --out /tmp/dark0.onnx                 # and --fold 1, --fold 2
    .venv/bin/python -m vision.training.calibrate_dark --models /tmp/dark{}.onnx \\
        [--quick-models /tmp/darkquick{}.onnx] [--degrade blur2]

(The fold networks are trained, as ``d6_faces_dark.onnx`` is, with the dark detector in
the place of ``dice_centres.onnx``: ``docs/vision.md``, *Re-training the models*.)
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

import cv2
import numpy as np

from vision.dicefinder import dark_dice_finder
from vision.facenet import FaceNet
from vision.faces import D6_FACES
from vision.pipnets import DARK_QUICK_NONE, DARK_SURE_FROM, NEVER
from vision.reader import DiceReader
from vision.synthetic import darker_floor
from vision.training.degradations import DEGRADATIONS, Degrade
from vision.training.label_errors import LABEL_ERRORS
from vision.training.photos import in_fold, labelled_frames, match, split_photos

LEVELS = (100, 85, 72, 55, 40)
"""Floor greys read: all under DARK_NETS_BELOW (110), down to a near-black floor."""

THRESHOLDS = (0.0, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)

QUICK_NONES = (NEVER, 0.9, 0.7, 0.5)
"""Quick-look probabilities of no die from which a candidate is dropped (NEVER: none)."""


@dataclass(frozen=True)
class Read:
    """One die the reader found: its photo and level, the label it matched (None: no die),
    what it read, and whether the label is a known mistake."""

    photo: str
    level: int
    label: str | None
    face: str
    confidence: float
    uncertain: bool
    label_mistake: bool

    def sure(self, threshold: float) -> bool:
        return not self.uncertain and self.confidence >= threshold


def oof_reads(models: str, folds: int, levels: tuple[int, ...],
              quick_models: str | None = None, quick_none: float = NEVER,
              degrade: Degrade | None = None) -> tuple[list[Read], dict[int, int]]:
    """Every die found in the out-of-fold train photos at each level, and the labelled
    dice per level whose labels are right; with ``quick_models``, each fold's quick look
    first, dropping the candidates it takes for no die from ``quick_none``; with
    ``degrade``, each repainted frame seen through that worse camera."""
    reads: list[Read] = []
    dice = dict.fromkeys(levels, 0)
    n_photos = len(split_photos("train"))
    for k in range(folds):
        quick = None if quick_models is None else FaceNet(quick_models.format(k))
        # without the reader's smear check: under --degrade motion* it would leave every
        # die to the table, and this measures what the networks themselves read
        reader = DiceReader("d6", face_net=FaceNet(models.format(k)), quick_net=quick,
                            quick_none=quick_none, finder=dark_dice_finder(),
                            smear_check=False)
        photos = [i for i in range(n_photos) if in_fold(i, folds, k)]
        for path, small, truth in labelled_frames("train", photos):
            boxes = [b for _, b in truth]
            labels = [D6_FACES[f] for f, _ in truth]
            right = sum((path.name, lab) not in LABEL_ERRORS for lab in labels)
            for level in levels:
                image = small.copy()
                darker_floor(image, np.array(boxes, float), np.random.default_rng(0),
                             level=level, grain=60.0)
                if degrade is not None:
                    image = degrade(image, np.random.default_rng(level))
                found = reader.read(image).dice
                matched = {i: t for t, i in match([d.box for d in found], boxes)}
                dice[level] += right
                for i, d in enumerate(found):
                    label = labels[matched[i]] if i in matched else None
                    reads.append(Read(path.name, level, label, d.face, d.confidence, d.uncertain,
                                      (path.name, label) in LABEL_ERRORS))
        print(f"fold {k}: {len(photos)} photos read", flush=True)
    return reads, dice


def counts(reads: list[Read], level: int, threshold: float) -> tuple[int, int, int]:
    """(sure and right, wrong and sure with the label right, sure boxes on no die)."""
    at = [r for r in reads if r.level == level and r.sure(threshold)]
    right = sum(r.label == r.face for r in at)
    return right, len(wrong_and_sure(at, threshold)), sum(r.label is None for r in at)


def wrong_and_sure(reads: list[Read], threshold: float) -> list[Read]:
    """The dice read wrong and sure at ``threshold`` whose labels are right."""
    return [r for r in reads if r.sure(threshold) and r.label is not None
            and r.label != r.face and not r.label_mistake]


def least_threshold(reads: list[Read], dice: dict[int, int], silent_pct: float
                    ) -> float | None:
    """The least of THRESHOLDS leaving at most ``silent_pct`` percent wrong and sure at
    every level."""
    for t in THRESHOLDS:
        if all(100.0 * counts(reads, lv, t)[1] / n <= silent_pct for lv, n in dice.items()):
            return t
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=3)
    parser.add_argument("--models", default="/tmp/dark{}.onnx",
                        help="path of fold k's dark-set face network, {} standing for k")
    parser.add_argument("--levels", type=int, nargs="+", default=list(LEVELS))
    parser.add_argument("--quick-models", default=None,
                        help="path of fold k's dark-set quick look ({} standing for k): "
                             "prints the table that places DARK_QUICK_NONE")
    parser.add_argument("--silent", type=float, default=0.1,
                        help="most dice wrong and sure allowed at any level, percent")
    parser.add_argument("--degrade", choices=sorted(DEGRADATIONS), metavar="NAME",
                        help="each repainted frame seen through a worse camera, one of: "
                             f"{', '.join(DEGRADATIONS)} (vision.training.degradations)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    degrade = DEGRADATIONS[args.degrade] if args.degrade else None
    reads, dice = oof_reads(args.models, args.folds, tuple(args.levels), degrade=degrade)
    print(f"read sure and right / wrong and sure / sure boxes on no die "
          f"({min(dice.values())}-{max(dice.values())} dice a level)")
    print("threshold " + "".join(f"{'floor ' + str(lv):>22}" for lv in dice))
    for t in THRESHOLDS:
        cells = []
        for lv, n in dice.items():
            right, silent, false = counts(reads, lv, t)
            cells.append(f"{100.0 * right / n:>11.2f}% {silent:>3} {false:>4}")
        mark = " (packaged)" if t == DARK_SURE_FROM else ""
        print(f"{t:<9.2f} " + "".join(f"{c:>22}" for c in cells) + mark)
    least = least_threshold(reads, dice, args.silent)
    print(f"least threshold with at most {args.silent}% wrong and sure at every level: "
          f"{least if least is not None else 'none of those tried'}")
    print(f"read wrong and sure at {DARK_SURE_FROM} (photo, floor, label, read, confidence):")
    for r in sorted(wrong_and_sure(reads, DARK_SURE_FROM), key=lambda r: (r.photo, r.level)):
        print(f"  {r.photo} {r.level} {r.label} -> {r.face} {r.confidence:.2f}")
    if args.quick_models:
        print(f"with the quick look first, at {DARK_SURE_FROM}: found / read sure and right"
              " / wrong and sure / sure boxes on no die")
        for none in QUICK_NONES:
            reads, _ = oof_reads(args.models, args.folds, tuple(args.levels),
                                 args.quick_models, none, degrade)
            cells = [f"{sum(r.level == lv and r.label is not None for r in reads)} / "
                     + " / ".join(str(c) for c in counts(reads, lv, DARK_SURE_FROM))
                     for lv in dice]
            name = "none dropped" if none == NEVER else f"no die from {none}"
            mark = " (packaged)" if none == DARK_QUICK_NONE else ""
            print(f"{name:<18} " + "".join(f"{c:>26}" for c in cells) + mark, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
