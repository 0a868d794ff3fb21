"""Crops as a profile keeps them: cut again as the reader cuts dice, at the reader's size,
and made into the two things a profile compares (ink maps and embedding vectors at every
turn).

:mod:`vision.enrollment` builds profiles from these; :mod:`vision.profilefile` makes a
profile saved by an earlier reader again from the crops it kept.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision import templates
from vision.boxes import centre, centre_in
from vision.crops import CROP_PX, crop
from vision.detection import detection_like
from vision.dicefinder import default_dice_finder
from vision.dieornot import DIE_FROM, default_die_or_not
from vision.embedding import default_embedder

ENROLL_TURNS = 12
"""Each enrollment crop is embedded at this many turns (every 30 degrees)."""


def reframe(crop_bgr: np.ndarray) -> np.ndarray:
    """A crop of one die cut again as the reader cuts dice: the learned detector finds the
    die (the one nearest the middle, among boxes that hold the crop's centre) in the crop,
    padded by its own edges, and the crop becomes the reader's crop of that box. Crops
    framed loosely or tightly, by hand or by another tool, then match what the reader will
    compare them with. A crop in which the detector finds no box over its centre is kept
    as it is (the padding's smeared stripes can look like a die beside the crop: 2 of the
    204 d6 val crops, where the die itself was found by no box), and so is one that the
    new cut would make look like no die to the die-or-not check (:mod:`vision.dieornot`)
    when it looks like one as it is: on a die the colour of the tray the detector can box
    a mark alone (a SeaFall weak face's bar)."""
    h, w = crop_bgr.shape[:2]
    pad = max(h, w)
    big = cv2.copyMakeBorder(crop_bgr, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    middle = (pad + w / 2, pad + h / 2, 0, 0)
    found = [f for f in default_dice_finder().find(big, 0.9 * max(h, w))
             if centre_in(f[0], middle)]
    if not found:
        return crop_bgr
    box, _ = min(found, key=lambda f: abs(centre(f[0])[0] - middle[0])
                 + abs(centre(f[0])[1] - middle[1]))
    framed = crop(big, detection_like(box, 1.0))
    die = default_die_or_not().probabilities([framed, crop_px(crop_bgr)])
    return crop_bgr if die[0] < DIE_FROM <= die[1] else framed


def turns(crop_bgr: np.ndarray, count: int = ENROLL_TURNS) -> list[np.ndarray]:
    """The crop turned about its centre through a full circle in ``count`` steps."""
    h, w = crop_bgr.shape[:2]
    out = []
    for k in range(count):
        m = cv2.getRotationMatrix2D((w / 2, h / 2), 360.0 * k / count, 1.0)
        out.append(cv2.warpAffine(crop_bgr, m, (w, h), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE))
    return out


def crop_px(c: np.ndarray) -> np.ndarray:
    """A die's crop at the reader's :data:`CROP_PX` square (a crop of another size, scaled),
    as profiles keep their crops."""
    if c.shape[:2] == (CROP_PX, CROP_PX):
        return c
    return cv2.resize(c, (CROP_PX, CROP_PX), interpolation=cv2.INTER_AREA)


def maps_and_vectors(crops: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The ink maps and embedding vectors (at every turn) of crops of the reader's size,
    as a profile keeps them."""
    if not len(crops):
        return np.empty((0, templates.MAP_PX, templates.MAP_PX), np.float32), np.empty((0, 0))
    maps = templates.ink_maps(list(crops), (1.0,))[:, 0]
    embedder = default_embedder()
    vectors = np.concatenate([embedder.embed(turns(c)) for c in crops])
    return maps, vectors
