"""Place :data:`vision.compression.COMPRESSED_SURE_FROM` and
:data:`vision.compression.ENROLLED_SURE_FROM`: dice as a camera that JPEG-compresses its
frames gives them, and how many a reader reads wrong and sure at each confidence it could
read sure from.

Each frame is brought to ``--sizes`` times the reader's working size (a die about 40 px)
and compressed there at each of ``--qualities`` (0: not at all), as a camera's MJPG
compresses its frames at its own size. The reader reads it without the check
(``DiceReader(compression_check=False)``). Each frame falls in a band of the table by the
median side of the dice the reader found (frame pixels, where the compression happened),
and a class by its quality: none, :data:`vision.compression.HARD_BELOW` or more, under
it. Printed per band, class and quality, then pooled per band and class: the dice, and
for the reader's rule alone and each of ``--thresholds`` the dice read wrong and sure
beyond the data set's label mistakes and the share read sure and right; last, what the
packaged table does with the quality the reader measures on the frame
(:func:`vision.compression.compressed_sure_from`: a frame compressed at 90 often shows no
compression, and is read by the rule alone). The test split is never read.

``--reader pips`` (the default) reads the train photos. ``--models`` reads each with the
fold network that did not learn it (``train_pips --folds 3 --fold K``), and
``--quick-models`` with that fold's quick look (``train_pips --quick --teacher``; without
it, the face network reads every die); without ``--models``, the packaged networks, which
learned these photos (a measure that favours them). About four minutes a size and fold
network on one core::

    .venv/bin/python -m vision.training.calibrate_compression \\
        --models /tmp/fold{}.onnx --quick-models /tmp/quick{}.onnx

``--reader enrolled`` reads the train and val photos with the d6 faces enrolled as
symbols from 5 train crops a face (``bench_vision_accuracy``'s enrolled reader);
``--reader symbols`` reads ``--trays`` drawn SeaFall trays of 1 to 15 dice with a profile
of 5 drawn crops a face (no photos of SeaFall dice exist; ``--seed``). About six minutes
each at three sizes. docs/vision.md, *A camera that compresses hard*.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.boxes import unscaled
from vision.compression import (
    COMPRESSED_SURE_FROM,
    ENROLLED_SURE_FROM,
    HARD_BELOW,
    compressed_sure_from,
    dice_jpeg_quality,
)
from vision.detection import to_work
from vision.enrollment import Profile
from vision.facenet import FaceNet
from vision.faces import D6_FACES
from vision.reader import DiceReader
from vision.reading import Box
from vision.synthetic import enrolment_crops, random_faces, tray_photo
from vision.training.calibrate_enrolled import enrolled_profile
from vision.training.calibrate_smear_symbols import COUNTS
from vision.training.degradations import jpeg
from vision.training.label_errors import LABEL_ERRORS
from vision.training.photos import in_fold, labelled_frames, match, split_photos

SIZES = (0.7, 1.0, 1.5, 2.0)
QUALITIES = (0, 90, 85, 80, 75, 60, 50, 30)
THRESHOLDS = (0.8, 0.9, 0.95)
ENROLLED_THRESHOLDS = (0.6, 0.7, 0.8, 0.85, 0.9)
"""A profile's confidences are its own: a sure read's median is about 0.87."""
READERS = ("pips", "enrolled", "symbols")
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


Labelled = tuple[str, np.ndarray, list[tuple[str, Box]]]
"""(name, frame at the working size, its dice as (face, box in its pixels))."""


def pip_frames(models: str | None, quick_models: str | None
               ) -> Iterator[tuple[DiceReader, Iterator[Labelled]]]:
    """The pip reader and the train photos it reads: each fold network with the photos it
    did not learn, or the packaged networks with them all."""
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
        yield reader, _d6_frames(["train"], photos)


def enrolled_frames() -> Iterator[tuple[DiceReader, Iterator[Labelled]]]:
    """The d6 faces enrolled as symbols from 5 train crops a face (as
    ``bench_vision_accuracy``'s enrolled reader), and the train and val photos."""
    reader = DiceReader("d6", profile=enrolled_profile(), compression_check=False)
    yield reader, _d6_frames(["train", "val"], None)


def symbol_frames(trays: int, seed: int) -> Iterator[tuple[DiceReader, Iterator[Labelled]]]:
    """A SeaFall profile of 5 drawn crops a face (:func:`vision.synthetic.enrolment_crops`)
    and ``trays`` drawn trays of 1 to 15 dice at the working size: no photos of SeaFall
    dice exist."""
    profile = Profile.from_crops("symbols", "seafall", enrolment_crops(
        np.random.default_rng(seed + 1), 5))
    yield DiceReader("seafall", profile=profile, compression_check=False), _trays(
        profile.labels, trays, seed)


def _d6_frames(splits: list[str], photos: list[int] | None) -> Iterator[Labelled]:
    for split in splits:
        for path, small, truth in labelled_frames(split, photos):
            yield path.name, small, [(D6_FACES[c], b) for c, b in truth]


def _trays(faces: Sequence[str], trays: int, seed: int) -> Iterator[Labelled]:
    rng = np.random.default_rng(seed)
    for k in range(trays):
        photo = tray_photo(rng, random_faces(rng, COUNTS[k % len(COUNTS)], faces),
                           top_shift=0.03 if k % 2 else 0.0)
        scale = to_work(photo.image).scale
        small = cv2.resize(photo.image, None, fx=scale, fy=scale,
                           interpolation=cv2.INTER_AREA)
        yield f"tray {k}", small, [(d.face, unscaled(d.box, 1 / scale)) for d in photo.dice]


def read_dice(readers: Iterator[tuple[DiceReader, Iterator[Labelled]]],
              sizes: Sequence[float], qualities: Sequence[int]) -> Iterator[Die]:
    """Every labelled die found, at every size and quality."""
    for n, (reader, frames) in enumerate(readers):
        for name, small, truth in frames:
            for size in sizes:
                for quality in qualities:
                    yield from _frame_dice(reader, name, small, truth, size, quality)
        print(f"reader {n + 1} done", file=sys.stderr, flush=True)


def _frame_dice(reader: DiceReader, name: str, small: np.ndarray,
                truth: list[tuple[str, Box]], size: float, quality: int) -> Iterator[Die]:
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
        d, face = read.dice[i], truth[t][0]
        yield Die(quality, measured, side, d.confidence, d.uncertain, d.face == face,
                  (name, face) in LABEL_ERRORS)


Table = Sequence[tuple[float, float, float]]


def band(side: float, table: Table = COMPRESSED_SURE_FROM) -> str:
    """The band of the table a frame's dice fall in."""
    for under, _, _ in table:
        if side < under:
            return f"<{under:g}"
    return f">={table[-1][0]:g}"


def quality_class(quality: int) -> str:
    return "none" if not quality else f">={HARD_BELOW}" if quality >= HARD_BELOW else \
        f"<{HARD_BELOW}"


def cells(dice: list[Die], thresholds: Iterable[float | None],
          table: Table = COMPRESSED_SURE_FROM) -> str:
    """Wrong and sure beyond the label mistakes / % read sure and right, for the reader's
    rule raised to each threshold (None: as the reader raises it, by the quality it
    measures: compressed_sure_from with the table)."""
    out = []
    for t in thresholds:
        sure = [d for d in dice if not d.uncertain and d.confidence >= (
            compressed_sure_from(d.measured, d.side, table) if t is None else t)]
        wrong = sum(1 for d in sure if not d.right and not d.mistake)
        out.append(f"{wrong:>4} / {100 * sum(d.right for d in sure) / len(dice):5.1f}%")
    return "  ".join(out)


def report(dice: list[Die], thresholds: list[float], table: Table = COMPRESSED_SURE_FROM
           ) -> None:
    columns = [0.0, *thresholds, None]
    head = "  ".join(f"{'rule' if t == 0 else 'table' if t is None else t:>12}"
                     for t in columns)
    order = [f"<{under:g}" for under, _, _ in table] + [band(float("inf"), table)]
    groups: dict[tuple[str, str, int | str], list[Die]] = defaultdict(list)
    for d in dice:
        groups[band(d.side, table), quality_class(d.quality), d.quality].append(d)
        groups[band(d.side, table), quality_class(d.quality), "all"].append(d)
    print(f"{'dice px':<8} {'class':<6} {'quality':>7} {'dice':>6}  {head}")
    print("(each cell: wrong and sure beyond the label mistakes / read sure and right)")
    for key in sorted(groups, key=lambda k: (order.index(k[0]), k[1], k[2] == "all",
                                             0 if k[2] == "all" else -int(k[2]))):
        print(f"{key[0]:<8} {key[1]:<6} {key[2]!s:>7} {len(groups[key]):>6}  "
              f"{cells(groups[key], columns, table)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reader", choices=READERS, default="pips",
                        help="the pip reader (default); the d6 faces enrolled as symbols "
                             "(enrolled); a SeaFall profile on drawn trays (symbols)")
    parser.add_argument("--sizes", nargs="+", type=float, default=list(SIZES),
                        help="times the working size (1: a die about 40 px)")
    parser.add_argument("--qualities", nargs="+", type=int, default=list(QUALITIES),
                        help="JPEG qualities, 1-100 (0: not compressed)")
    parser.add_argument("--thresholds", nargs="+", type=float)
    parser.add_argument("--models", metavar="PATTERN",
                        help="fold networks, {} for the fold, e.g. /tmp/fold{}.onnx")
    parser.add_argument("--quick-models", metavar="PATTERN",
                        help="the folds' quick looks, e.g. /tmp/quick{}.onnx")
    parser.add_argument("--trays", type=int, default=240, help="drawn trays (symbols)")
    parser.add_argument("--seed", type=int, default=31, help="of the drawn trays (symbols)")
    args = parser.parse_args(argv)
    if any(s <= 0 for s in args.sizes) or any(not 0 <= q <= 100 for q in args.qualities):
        parser.error("sizes are above 0, qualities 0-100")
    for pattern in (args.models, args.quick_models):
        if pattern is not None and "{}" not in pattern:
            parser.error("--models and --quick-models take a pattern with {} for the fold")
    if args.quick_models and not args.models:
        parser.error("--quick-models goes with --models")
    if args.models and args.reader != "pips":
        parser.error("--models are the pip reader's")
    if args.reader == "pips":
        readers, table = pip_frames(args.models, args.quick_models), COMPRESSED_SURE_FROM
    elif args.reader == "enrolled":
        readers, table = enrolled_frames(), ENROLLED_SURE_FROM
    else:
        readers, table = symbol_frames(args.trays, args.seed), ENROLLED_SURE_FROM
    thresholds = args.thresholds or list(
        THRESHOLDS if args.reader == "pips" else ENROLLED_THRESHOLDS)
    report(list(read_dice(readers, args.sizes, args.qualities)), thresholds, table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
