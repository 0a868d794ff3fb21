"""Place :data:`vision.compression.COMPRESSED_SURE_FROM`: the pip reader's photos as a
camera that JPEG-compresses its frames gives them, and how many dice it reads wrong and
sure at each confidence it could read sure from.

Each train photo is brought to ``--sizes`` times the reader's working size (a die about
40 px) and compressed there at each of ``--qualities`` (0: not at all), as a camera's
MJPG compresses its frames at its own size. The reader reads it without the check
(``DiceReader(compression_check=False)``). Each frame falls in a band of
:data:`vision.compression.COMPRESSED_SURE_FROM` by the median side of the dice the reader
found (frame pixels, where the compression happened), and a class by its quality: none,
:data:`vision.compression.HARD_BELOW` or more, under it. Printed per band, class and
quality, then pooled per band and class: the dice, and for the networks' rule alone and
each of ``--thresholds`` the dice read wrong and sure beyond the data set's label mistakes
and the share read sure and right; last, what the packaged table does with the quality the
reader measures on the frame (:func:`vision.compression.compressed_sure_from`: a frame
compressed at 90 often shows no compression, and is read by the rule alone). The test
split is never read. About four minutes a size and fold network on one core::

    .venv/bin/python -m vision.training.calibrate_compression \\
        --models /tmp/fold{}.onnx --quick-models /tmp/quick{}.onnx

``--models`` reads each train photo with the fold network that did not learn it
(``train_pips --folds 3 --fold K``), and ``--quick-models`` with that fold's quick look
(``train_pips --quick --teacher``; without it, the face network reads every die); without
``--models``, the packaged networks, which learned these photos (a measure that favours
them). docs/vision.md, *A camera that compresses hard*.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from vision.compression import (
    COMPRESSED_SURE_FROM,
    HARD_BELOW,
    compressed_sure_from,
    dice_jpeg_quality,
)
from vision.facenet import FaceNet
from vision.faces import D6_FACES
from vision.reader import DiceReader
from vision.training.degradations import jpeg
from vision.training.label_errors import LABEL_ERRORS
from vision.training.photos import in_fold, labelled_frames, match, split_photos

SIZES = (0.7, 1.0, 1.5, 2.0)
QUALITIES = (0, 90, 85, 80, 75, 60, 50, 30)
THRESHOLDS = (0.8, 0.9, 0.95)
FOLDS = 3
"""The fold networks' folds (``train_pips --folds 3``)."""


@dataclass(frozen=True)
class Die:
    """One labelled die found in one frame."""

    quality: int  # compressed at; 0: not
    measured: int | None  # as the reader measures it (vision.compression.dice_jpeg_quality)
    side: float  # the frame's found dice's median side, frame px
    confidence: float
    uncertain: bool
    right: bool
    mistake: bool  # a known label mistake of the data set


def read_dice(sizes: Iterable[float], qualities: Iterable[int], models: str | None,
              quick_models: str | None) -> Iterator[Die]:
    """Every labelled die found, at every size and quality."""
    count = len(split_photos("train"))
    for fold in range(FOLDS if models else 1):
        if models:
            face = FaceNet(models.format(fold))
            quick = FaceNet(quick_models.format(fold)) if quick_models else None
            reader = DiceReader("d6", face_net=face, quick_net=quick,
                                compression_check=False)
            photos = [i for i in range(count) if in_fold(i, FOLDS, fold)]
        else:
            reader, photos = DiceReader("d6", compression_check=False), None
        frames = list(labelled_frames("train", photos))
        for size in sizes:
            for quality in qualities:
                for path, small, truth in frames:
                    yield from _frame_dice(reader, path.name, small, truth, size, quality)
                print(f"fold {fold}: size {size:g}, quality {quality} read", file=sys.stderr,
                      flush=True)


def _frame_dice(reader: DiceReader, name: str, small: np.ndarray, truth: list,
                size: float, quality: int) -> Iterator[Die]:
    frame = small if size == 1 else cv2.resize(
        small, None, fx=size, fy=size,
        interpolation=cv2.INTER_CUBIC if size > 1 else cv2.INTER_AREA)
    if quality:
        frame = jpeg(quality)(frame, np.random.default_rng(0))
    read = reader.read(frame, name)
    if not read.dice:
        return
    side = float(np.median([max(d.box[2], d.box[3]) for d in read.dice]))
    measured = dice_jpeg_quality(frame, [d.box for d in read.dice])
    found = [tuple(round(v / size) for v in d.box) for d in read.dice]
    for t, i in match(found, [b for _, b in truth]):
        d, face = read.dice[i], D6_FACES[truth[t][0]]
        yield Die(quality, measured, side, d.confidence, d.uncertain, d.face == face,
                  (name, face) in LABEL_ERRORS)


def band(side: float) -> str:
    """The band of COMPRESSED_SURE_FROM a frame's dice fall in."""
    for under, _, _ in COMPRESSED_SURE_FROM:
        if side < under:
            return f"<{under:g}"
    return f">={COMPRESSED_SURE_FROM[-1][0]:g}"


def quality_class(quality: int) -> str:
    return "none" if not quality else f">={HARD_BELOW}" if quality >= HARD_BELOW else \
        f"<{HARD_BELOW}"


def cells(dice: list[Die], thresholds: Iterable[float | None]) -> str:
    """Wrong and sure beyond the label mistakes / % read sure and right, for the networks'
    rule raised to each threshold (None: as the reader raises it, by the quality it
    measures: compressed_sure_from)."""
    out = []
    for t in thresholds:
        sure = [d for d in dice if not d.uncertain and d.confidence >= (
            compressed_sure_from(d.measured, d.side) if t is None else t)]
        wrong = sum(1 for d in sure if not d.right and not d.mistake)
        out.append(f"{wrong:>4} / {100 * sum(d.right for d in sure) / len(dice):5.1f}%")
    return "  ".join(out)


def report(dice: list[Die], thresholds: list[float]) -> None:
    columns = [0.0, *thresholds, None]
    head = "  ".join(f"{'rule' if t == 0 else 'table' if t is None else t:>12}"
                     for t in columns)
    order = [f"<{under:g}" for under, _, _ in COMPRESSED_SURE_FROM] + [band(float("inf"))]
    groups: dict[tuple[str, str, int | str], list[Die]] = defaultdict(list)
    for d in dice:
        groups[band(d.side), quality_class(d.quality), d.quality].append(d)
        groups[band(d.side), quality_class(d.quality), "all"].append(d)
    print(f"{'dice px':<8} {'class':<6} {'quality':>7} {'dice':>6}  {head}")
    print("(each cell: wrong and sure beyond the label mistakes / read sure and right)")
    for key in sorted(groups, key=lambda k: (order.index(k[0]), k[1], k[2] == "all",
                                             0 if k[2] == "all" else -int(k[2]))):
        print(f"{key[0]:<8} {key[1]:<6} {key[2]!s:>7} {len(groups[key]):>6}  "
              f"{cells(groups[key], columns)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=list(SIZES),
                        help="times the working size (1: a die about 40 px)")
    parser.add_argument("--qualities", nargs="+", type=int, default=list(QUALITIES),
                        help="JPEG qualities, 1-100 (0: not compressed)")
    parser.add_argument("--thresholds", nargs="+", type=float, default=list(THRESHOLDS))
    parser.add_argument("--models", metavar="PATTERN",
                        help="fold networks, {} for the fold, e.g. /tmp/fold{}.onnx")
    parser.add_argument("--quick-models", metavar="PATTERN",
                        help="the folds' quick looks, e.g. /tmp/quick{}.onnx")
    args = parser.parse_args(argv)
    if any(s <= 0 for s in args.sizes) or any(not 0 <= q <= 100 for q in args.qualities):
        parser.error("sizes are above 0, qualities 0-100")
    for pattern in (args.models, args.quick_models):
        if pattern is not None and "{}" not in pattern:
            parser.error("--models and --quick-models take a pattern with {} for the fold")
    if args.quick_models and not args.models:
        parser.error("--quick-models goes with --models")
    report(list(read_dice(args.sizes, args.qualities, args.models, args.quick_models)),
           args.thresholds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
