"""The d6 photos as the training and calibration scripts read them: the splits in name
order, the folds of the train photos, and the labelled dice a reader finds in them.

Torch-free, so that the calibration scripts and the benchmarks can use it without the
``train`` extra. The photos are ``../shared/datasets/d6-photos/data`` beside the
repository."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.boxes import centre, hold_each_other, toward_top_face
from vision.crops import WIDE_MARGIN, crop
from vision.detection import detection_like, to_work
from vision.enroll import read_yolo
from vision.reader import DiceReader
from vision.reading import Box

ROOT = Path(__file__).resolve().parents[2]
DATASET = ROOT.parent / "shared" / "datasets" / "d6-photos" / "data"


def split_photos(split: str) -> list[Path]:
    """The photos of a split, in name order (a photo's index decides its fold)."""
    paths = sorted((DATASET / "images" / split).glob("*.jpg"))
    if not paths:
        raise SystemExit(f"no photos in {DATASET / 'images' / split}")
    return paths


def in_fold(index: int, folds: int, fold: int) -> bool:
    """Photo ``index`` of the train split belongs to ``fold`` of ``folds``."""
    return folds > 1 and index % folds == fold


def labelled_frames(split: str, photos: list[int] | None = None,
                    ) -> Iterator[tuple[Path, np.ndarray, list[tuple[int, Box]]]]:
    """(photo, the photo at the reader's working size, its labelled dice as (face index,
    box in the working photo's pixels)) of each photo of a split, or of those indices."""
    for index, path in enumerate(split_photos(split)):
        if photos is not None and index not in photos:
            continue
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        work = to_work(image)
        small = cv2.resize(image, (work.image.shape[1], work.image.shape[0]),
                           interpolation=cv2.INTER_AREA)
        truth = [(c, tuple(round(v * work.scale) for v in b)) for c, b in
                 read_yolo(DATASET / "labels" / split / (path.stem + ".txt"),
                           image.shape[1], image.shape[0])]
        yield path, small, truth


def match(found: Sequence[Box], truth: Sequence[Box]) -> list[tuple[int, int]]:
    """(labelled die, found die) index pairs, in label order: a labelled die is found when
    a found box and its label box each hold the other's centre (the labels are loose boxes
    that include the dice's sides, so IoU is a poor test). The pairs are taken nearest
    centres first over the whole photo, each label and each found die once: a label whose
    die was missed does not take its neighbour's box from the neighbour's own label.
    (Until the ninth session each label in turn took its nearest box: a missed blue 1
    took the pink 6 beside it, which then counted as a 6 read as a 1.)"""
    candidates = []
    for t, box in enumerate(truth):
        gx, gy = centre(box)
        for i, b in enumerate(found):
            if hold_each_other(box, b):
                bx, by = centre(b)
                distance = abs(bx - gx) + abs(by - gy)
                candidates.append((distance, t, i))
    labels: set[int] = set()
    dice: set[int] = set()
    pairs = []
    for _, t, i in sorted(candidates):
        if t not in labels and i not in dice:
            labels.add(t)
            dice.add(i)
            pairs.append((t, i))
    return sorted(pairs)


def found_dice(reader: DiceReader, split: str, photos: list[int] | None = None,
               ) -> tuple[list[int], list[np.ndarray], list[np.ndarray], list[str]]:
    """(label, the reader's crop, its wider crop, photo name) of every labelled die the
    reader finds in the split's photos (all of them, or those indices), matched as the
    benchmark does (:func:`match`). The wider crop is the one the reader reads again for a
    die it is unsure of (:data:`vision.pipnets.NET_WIDE_MEAN`)."""
    labels: list[int] = []
    crops: list[np.ndarray] = []
    wides: list[np.ndarray] = []
    names: list[str] = []
    for path, small, truth in labelled_frames(split, photos):
        read = reader.read(small, str(path))
        for t, i in match([d.box for d in read.dice], [b for _, b in truth]):
            # the photo is read at the working scale, so the reader cut its crops from it
            work_box = detection_like(read.dice[i].box, 1.0)
            if reader.custom_faces:  # cut about the top face with the reader's shift
                work_box = toward_top_face(work_box, small.shape, reader.top_face_shift)
            if not np.array_equal(crop(small, work_box), read.dice[i].crop):
                raise RuntimeError("the reader's crops are no longer cut as found_dice cuts them")
            labels.append(truth[t][0])
            crops.append(read.dice[i].crop)
            wides.append(crop(small, work_box, margin=WIDE_MARGIN))
            names.append(path.name)
    return labels, crops, wides, names
