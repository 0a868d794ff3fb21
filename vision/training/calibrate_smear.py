"""Place :data:`vision.smear.SMEAR_FROM`: the pip reader's photos smeared as a moving camera
smears them, and how many dice it reads wrong and sure without the check.

Each photo of a split is smeared by each of ``--lengths`` px of the reader's working size
(a die about 40 px), at an angle drawn for the photo, *before* it is sampled: at
``--up`` times the working size, then shrunk to it (as a camera's sensor or a phone's
photo shrunk by the reader gives a smear; a smear drawn on the working-size frame itself
is a coarser thing, and reads a little differently). The reader reads it without the
check (``DiceReader(smear_check=False)``), and :func:`vision.smear.smear` measures its
dice as the reader does. Printed per length: the frames, the dice, those read wrong and
sure beyond the data set's label mistakes, the measure's spread, and for each of
``--thresholds`` the wrong-and-sure dice a check there would leave (those in frames
under it) and the share of frames it would mark uncertain. The test split is never
read. About five minutes on train, one core::

    .venv/bin/python -m vision.training.calibrate_smear [--splits train val]

The packaged networks learned these photos (a measure that favours them); ``--models
/tmp/fold{}.onnx`` reads each train photo with the fold network that did not
(``train_pips --folds 3 --fold K``; ``docs/vision.md``, *Re-training the models*).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.detection import WorkFrame, to_work
from vision.enroll import read_yolo
from vision.facenet import FaceNet
from vision.faces import D6_FACES
from vision.reader import DiceReader
from vision.smear import SMEAR_FROM, smear
from vision.training.degradations import motion
from vision.training.label_errors import LABEL_ERRORS
from vision.training.photos import DATASET, in_fold, match, split_photos

LENGTHS = (0, 2, 3, 4, 5, 6, 7, 10)
THRESHOLDS = (0.4, 0.45, 0.5, 0.55, 0.6)
FOLDS = 3
"""The fold networks' folds (``train_pips --folds 3``)."""


@dataclass(frozen=True)
class Frame:
    """One photo at one smear: what a check at any threshold would do with it."""

    photo: str
    length: int
    value: float  # the dice's smear measure; 0.0 when no die was found
    dice: int
    wrong: int  # read wrong and sure, beyond the label mistakes


def smeared(image: np.ndarray, work: WorkFrame, lengths: Sequence[int], angle: float,
            up: int) -> Iterator[tuple[int, np.ndarray]]:
    """(length, the photo at its working size ``work``, smeared ``length`` working px at
    ``angle`` degrees at ``up`` times that size first) for each of ``lengths``; the photo
    is enlarged once for them all."""
    size = (work.image.shape[1], work.image.shape[0])
    big = None
    for length in lengths:
        if length == 0:
            yield length, work.image
            continue
        if big is None:
            big = cv2.resize(image, (size[0] * up, size[1] * up), interpolation=cv2.INTER_AREA)
        moved = motion(length * up, angle)(big, np.random.default_rng(0))
        yield length, cv2.resize(moved, size, interpolation=cv2.INTER_AREA)


def read_frames(split: str, lengths: Sequence[int], up: int,
                models: str | None) -> list[Frame]:
    frames = []
    readers: dict[int, DiceReader] = {}
    for index, path in enumerate(split_photos(split)):
        fold = next(k for k in range(FOLDS) if in_fold(index, FOLDS, k)) if models else -1
        if fold not in readers:
            net = FaceNet(models.format(fold)) if models else None
            readers[fold] = DiceReader("d6", face_net=net, smear_check=False)
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        work = to_work(image)
        truth = [(D6_FACES[c], tuple(round(v * work.scale) for v in b)) for c, b in read_yolo(
            DATASET / "labels" / split / (path.stem + ".txt"), image.shape[1], image.shape[0])]
        angle = float(np.random.default_rng(index).uniform(0.0, 180.0))
        for length, frame in smeared(image, work, lengths, angle, up):
            read = readers[fold].read(frame, path.name)
            wrong = 0
            for t, i in match([d.box for d in read.dice], [b for _, b in truth]):
                die, face = read.dice[i], truth[t][0]
                wrong += (not die.uncertain and die.face != face
                          and (path.name, face) not in LABEL_ERRORS)
            frames.append(Frame(path.name, length, smear(frame, [d.box for d in read.dice]),
                                len(truth), wrong))
    return frames


def report(split: str, frames: list[Frame], thresholds: Sequence[float]) -> None:
    print(f"{split}: dice wrong and sure beyond the label mistakes without the check; the "
          "smear measure (5th percentile / median / most); then, for a check from each "
          "threshold, those it would leave and the frames it would mark uncertain")
    head = " | ".join(f"{t:>5} {'(kept)' if t == SMEAR_FROM else '':<6}" for t in thresholds)
    print(f"{'smear px':>8} {'frames':>6} {'dice':>5} {'wrong':>5}   {'p5':>5} {'median':>6} "
          f"{'most':>5}   {head}")
    for length in sorted({f.length for f in frames}):
        these = [f for f in frames if f.length == length]
        values = np.array([f.value for f in these])
        cells = []
        for t in thresholds:
            left = sum(f.wrong for f in these if f.value < t)
            marked = 100.0 * float((values >= t).mean())
            cells.append(f"{left:>5} {marked:5.1f}%")
        print(f"{length:>8} {len(these):>6} {sum(f.dice for f in these):>5} "
              f"{sum(f.wrong for f in these):>5}   {np.percentile(values, 5):5.3f} "
              f"{np.median(values):6.3f} {values.max():5.3f}   {' | '.join(cells)}",
              flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--splits", nargs="+", default=["train"], choices=["train", "val"])
    parser.add_argument("--lengths", nargs="+", type=int, default=list(LENGTHS),
                        metavar="PX", help="smears, in working px (0: as shot)")
    parser.add_argument("--thresholds", nargs="+", type=float, default=list(THRESHOLDS))
    parser.add_argument("--up", type=int, default=4,
                        help="smear at this many times the working size, then shrink")
    parser.add_argument("--models", metavar="PATTERN",
                        help="fold networks, {} for the fold (train only), e.g. "
                             "/tmp/fold{}.onnx")
    args = parser.parse_args(argv)
    if any(n < 0 for n in args.lengths) or args.up < 1:
        parser.error("lengths are 0 or more px, and --up at least 1")
    if args.models and ("{}" not in args.models or args.splits != ["train"]):
        parser.error("--models takes a pattern with {} for the fold, and reads train only")
    for split in args.splits:
        report(split, read_frames(split, args.lengths, args.up, args.models),
               args.thresholds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
