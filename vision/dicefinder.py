"""Finding dice with a small learned detector.

The network (``vision/models/dice_centres.onnx``, trained by
``vision/training/train_detector.py`` on the d6 photos' train split) is CenterNet-like:
it sees the frame scaled so that a die is about :data:`NET_DIE_PX` pixels across and
outputs, at a quarter of that resolution (:data:`STRIDE`), five maps: how likely each cell
holds a die's centre, the centre's offset within the cell, and the log of the die's box
width and height. A die is a local peak of the first map above :data:`THRESHOLD`; dice
that touch are separate peaks, so nothing needs splitting, and a hand, a coin, a pencil
or the tray's edge (drawn as junk during training) makes no peak. Boxes are the whole die
as seen from above, sides included, as in the photos' labels.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.onnxmodel import ModelError, OnnxModel
from vision.reading import Box

__all__ = [
    "CHECKED_THRESHOLD", "DARK_MODEL_PATH", "DARK_WIDE_MODEL_PATH", "MODEL_PATH",
    "WIDE_MODEL_PATH", "DiceFinder", "ModelError", "dark_dice_finder", "dark_wide_dice_finder",
    "decode", "MAX_UPSCALE", "default_dice_finder", "loaded_finder", "prepare", "scaled",
    "wide_dice_finder",
]

MODEL_PATH = Path(__file__).parent / "models" / "dice_centres.onnx"

DARK_MODEL_PATH = Path(__file__).parent / "models" / "dice_centres_dark.onnx"
"""The pip-dice detector for dark tray floors: the packaged recipe with half its windows'
floors repainted darker (``train_detector --floors 0.5 --seed 5``), used with the dark-floor
face networks (:data:`vision.reader.DARK_NETS_BELOW`)."""

WIDE_MODEL_PATH = Path(__file__).parent / "models" / "dice_centres_wide.onnx"
"""The pip-dice detector for a camera known to have a wide lens: the packaged recipe with
three tenths of its windows cut from trays of pip dice drawn as cubes through lenses of
10-80 degrees, their sides in view, for 2,400 steps (``train_detector --cubes 0.3 --steps
2400``), used on light floors from :data:`vision.reader.WIDE_NETS_FROM`. It boxes a die far
out whole, where the packaged detector often boxes its side as a die of its own."""

DARK_WIDE_MODEL_PATH = Path(__file__).parent / "models" / "dice_centres_dark_wide.onnx"
"""The pip-dice detector for dark floors under a wide lens: the dark-floor recipe with
three tenths of its windows cut from the drawn cubes of :data:`WIDE_MODEL_PATH`'s, their
floors repainted darker as often as the photos' (``train_detector --floors 0.5 --seed 5
--cubes 0.3 --steps 2400``), used with the dark-floor face networks from
:data:`vision.reader.WIDE_NETS_FROM`. Besides a die's side, it boxes a black die on a
dark floor whole where :data:`DARK_MODEL_PATH`'s often boxes its pips as dice."""

NET_DIE_PX = 16.0
"""Die size, in pixels, in the frame the network sees."""

STRIDE = 4
"""Input pixels per cell of the network's output maps."""

MULTIPLE = 8
"""The network's input sides must be multiples of this (two poolings and a stride)."""

THRESHOLD = 0.3
"""A centre-map peak at least this high is a die (chosen on the val split: 0.3 and 0.35
tied there, 99.0% of dice found and no false detection, and the lower one keeps more
recall in hand)."""

CHECKED_THRESHOLD = 0.2
"""The peak a candidate needs when every candidate is checked after: the d6 reader's face
network reads each one and its *none* class drops what is not a die (the detector alone
makes 7 false detections on the tests' 7 photos at 0.2, against 1 at :data:`THRESHOLD`).
Fourteenth session, with the pip reader as it is, on train and val (test not read):

  threshold   val found   val read sure   train found   train read sure   false / 100 photos
  0.3         99.02%      99.02%          99.45%        98.56%            3.0  0
  0.2         99.51%      99.51%          99.52%        98.63%            3.0  0
  0.15        the same as 0.2
  0.1         99.51%      99.51%          99.52%        98.63%            3.5  0

(false detections: train, val). At 0.2 the reader finds a small white 1 on the white tray
on val and a 6 between two dice on train, both read right, with no false detection more;
at 0.1 one more false detection on train. (Val's other miss, a marbled blue 1 between
three dice, is not found at 0.1 either.) The body detector keeps :data:`THRESHOLD`
(:data:`vision.dieornot.BODY_THRESHOLD`)."""


SAME_DIE = 0.45
"""A peak whose centre is within this share of a die's size (on both axes) of a stronger
peak's is the same die seen twice (touching dice are about 0.8 of a box apart)."""


def prepare(image: np.ndarray) -> tuple[np.ndarray, tuple[int, int]]:
    """A ``(1, 3, H, W)`` float32 blob of a BGR image (scaled to [-2, 2]), padded right and
    down by replicating the border to multiples of :data:`MULTIPLE`; and the padding."""
    h, w = image.shape[:2]
    ph, pw = -h % MULTIPLE, -w % MULTIPLE
    if ph or pw:
        image = cv2.copyMakeBorder(image, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    blob = cv2.dnn.blobFromImage(image, 1 / 64.0, mean=(128, 128, 128))
    return blob, (ph, pw)


MAX_UPSCALE = 2.0
"""The most the frame is enlarged for the network (dice of 8 px and less are seen smaller
than :data:`NET_DIE_PX`; none that small is readable). Without a bound, a picture a few
pixels high, whose die size is guessed from its short side, was enlarged 15 times: a
30000x16 PNG took 14 s and 5.8 GB."""


def scaled(frame: np.ndarray, die_px: float) -> tuple[np.ndarray, float]:
    """The frame scaled so that a die of ``die_px`` pixels is :data:`NET_DIE_PX` across
    (enlarged at most :data:`MAX_UPSCALE` times), and the scale."""
    scale = min(NET_DIE_PX / max(die_px, 1.0), MAX_UPSCALE)
    # bilinear, as the training windows were warped: on val it read as well as INTER_AREA
    # (98.5% against 98.0% of dice) at a fraction of the time (~0.3 against ~6 ms for a
    # 1280x720 frame); a Gaussian pyramid step shifts boxes by half a pixel and read worse
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    return small, scale


def decode(maps: np.ndarray, threshold: float, scale: float) -> list[tuple[Box, float]]:
    """Boxes (x, y, w, h in the caller's pixels: network pixels divided by ``scale``) and
    peak scores of the dice in a ``(5, H/4, W/4)`` map stack."""
    heat = 1.0 / (1.0 + np.exp(-maps[0]))
    peaks = heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero(peaks & (heat >= threshold))
    order = np.argsort(-heat[ys, xs], kind="stable")
    ys, xs = ys[order], xs[order]
    k = STRIDE / scale
    cx = (xs + maps[1, ys, xs]) * k
    cy = (ys + maps[2, ys, xs]) * k
    w = np.exp(maps[3, ys, xs]) * k
    h = np.exp(maps[4, ys, xs]) * k
    # a second peak on one die: closer to a stronger peak than half a die (on both axes)
    near = ((np.abs(cx[:, None] - cx[None]) < SAME_DIE * np.minimum(w[:, None], w[None]))
            & (np.abs(cy[:, None] - cy[None]) < SAME_DIE * np.minimum(h[:, None], h[None])))
    kept: list[int] = []
    for i in range(len(ys)):  # strongest first: a peak near a kept one is dropped
        if not near[i, kept].any():
            kept.append(i)
    scores = heat[ys, xs]
    return [((round(float(cx[i] - w[i] / 2)), round(float(cy[i] - h[i] / 2)),
              max(1, round(float(w[i]))), max(1, round(float(h[i])))), float(scores[i]))
            for i in kept]


class DiceFinder:
    """The ONNX die detector (``engine``: see :mod:`vision.onnxmodel`)."""

    def __init__(self, path: str | Path = MODEL_PATH, threshold: float = THRESHOLD,
                 engine: str | None = None) -> None:
        self.model = OnnxModel(path, "detector", "vision/training/train_detector.py", engine)
        self.path = self.model.path
        self.threshold = threshold

    def maps(self, blob: np.ndarray) -> np.ndarray:
        """The network's raw ``(1, 5, H/4, W/4)`` output for a prepared blob."""
        return self.model.run(blob)

    def find(self, frame: np.ndarray, die_px: float) -> list[tuple[Box, float]]:
        """Boxes (frame pixels) and scores of the dice in a BGR frame where a die is about
        ``die_px`` pixels across."""
        small, scale = scaled(frame, die_px)
        return self.find_scaled(small, scale, frame.shape)

    def find_scaled(
        self, small: np.ndarray, scale: float, shape: tuple[int, ...],
        threshold: float | None = None,
    ) -> list[tuple[Box, float]]:
        """:meth:`find` on a frame already :func:`scaled` (``shape`` is the frame's), with
        peaks from ``threshold`` (default: the finder's own, :data:`THRESHOLD`)."""
        blob, _ = prepare(small)
        maps = self.maps(blob)[0]
        fh, fw = shape[:2]
        found = []
        for (x, y, w, h), s in decode(maps, self.threshold if threshold is None else threshold,
                                      scale):
            cx, cy = x + w / 2, y + h / 2
            if 0 <= cx < fw and 0 <= cy < fh:  # no die centred in the padding
                found.append(((x, y, w, h), s))
        return found


def loaded_finder(path: Path, threshold: float = THRESHOLD) -> DiceFinder:
    """The detector in ``path`` with peaks from ``threshold``, loaded once per process (at
    its first use: a detector that a setup never needs is never loaded). The named
    finders below are the readers' (and the tests' points to swap one for another)."""
    return _loaded(Path(path), float(threshold))  # one cache key however it is asked


@cache
def _loaded(path: Path, threshold: float) -> DiceFinder:
    return DiceFinder(path, threshold)


def default_dice_finder() -> DiceFinder:
    """The packaged model (:data:`MODEL_PATH`)."""
    return loaded_finder(MODEL_PATH)


def wide_dice_finder() -> DiceFinder:
    """The pip-dice detector for a wide lens (:data:`WIDE_MODEL_PATH`), loaded by the first
    reader told a wide lens."""
    return loaded_finder(WIDE_MODEL_PATH)


def dark_wide_dice_finder() -> DiceFinder:
    """The pip-dice detector for dark floors under a wide lens
    (:data:`DARK_WIDE_MODEL_PATH`), loaded at a wide-lens reader's first dark frame."""
    return loaded_finder(DARK_WIDE_MODEL_PATH)


def dark_dice_finder() -> DiceFinder:
    """The pip-dice detector for dark floors (:data:`DARK_MODEL_PATH`), loaded at the first
    dark frame."""
    return loaded_finder(DARK_MODEL_PATH)
