"""Ink templates: a die's marks as a small map, compared at every turn with enrolled ones.

Enrolled faces are arbitrary symbols, so nothing here knows what a face shows or counts
anything. A crop of one die becomes its *ink map*: the face-distance map
(:func:`vision.crops.face_distance`: each pixel's colour distance to the die's body, so
that marks come out bright whatever the die's colour and whether its marks are darker or
lighter than its body), scaled to :data:`MAP_PX` pixels, divided by its 95th percentile
(exposure and mark contrast matter less), clipped and blurred a little (marks a pixel or
two off still overlap). Only the disc of radius :data:`RADIUS` about the crop's centre
counts: the top face, without most of the die's sides and its neighbours.

An enrolled crop's map is turned through a full circle (:data:`TURNS` steps) and shifted
by a pixel or two (:data:`SHIFTS`); each variant is a unit vector of its disc, less its
mean. A die's map, at a few zooms (:data:`ZOOMS`), is compared with every variant by
cosine similarity (one matrix product for all the dice of a frame); each face scores its
best variant.

Chosen on the d6 photos' val split with the faces enrolled as symbols from 5 train crops
each (the test split was not read): this read the most dice right by their nearest face
(88% against 73% for a generic embedding network trained on synthetic symbols, which it
replaced, and 77-87% for crops re-aligned to the top face's outline first).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import cv2
import numpy as np

from vision.crops import face_distance

METHOD = "ink-templates-1"
"""Names how profiles' templates are made: a profile saved by another method must be
enrolled again."""

MAP_PX = 32
"""Side of an ink map, in pixels (a 64 px reader crop is scaled down to it)."""

RADIUS = 0.33
"""Radius of the compared disc, as a share of the map's side (the reader's crop holds the
die's top face within about 0.4; 0.3 cut the marks near a face's corners, 0.36-0.42 let
the die's sides in: 85-76% nearest-face accuracy on val against 87-88%)."""

BLUR = 1.2
"""Gaussian sigma (map pixels) of the ink map's blur (0: 85%, 1.5: 85% on val)."""

CLIP = 1.5
"""Ink values are clipped at this many 95th percentiles (glare and the tray's edge)."""

TURNS = 36
"""Turns of each enrolled map (every 10 degrees; every 15 read 1-3 points fewer dice
by their nearest face on train and val)."""

SHIFTS: tuple[tuple[int, int], ...] = ((0, 0), (-2, 0), (2, 0), (0, -2), (0, 2))
"""Shifts (x, y in map pixels) of each enrolled map: a die's crop is centred on its
box, and its top face may sit a little off the box's centre."""

ZOOMS: tuple[float, ...] = (0.9, 1.0, 1.1)
"""Zooms of a die's own map compared with the templates (the best counts): dice differ in
size and in how much of their sides the box holds. On train and val (faces enrolled from
5 crops each, lead 0.15) this read 43.6% and 44.1% of dice confidently with 0.14% and 0%
silent errors, against 36.7% and 36.6% for one zoom at the lead (0.18) giving the same
silent errors; 0.85-1.15 read fewer, five zooms from 0.9 to 1.1 no more. It triples the
comparisons (about 6 ms a frame of 22 dice on one core)."""


@cache
def disc() -> np.ndarray:
    """Flat indices of the map pixels within :data:`RADIUS` of the centre."""
    yy, xx = np.mgrid[:MAP_PX, :MAP_PX]
    c = (MAP_PX - 1) / 2
    inside = (yy - c) ** 2 + (xx - c) ** 2 <= (RADIUS * MAP_PX) ** 2
    return np.flatnonzero(inside.ravel())


def ink_map(crop_bgr: np.ndarray) -> np.ndarray:
    """The ``(MAP_PX, MAP_PX)`` float32 ink map of a BGR crop of one die."""
    return ink_maps(crop_bgr, (1.0,))[0]


def ink_maps(crop_bgr: np.ndarray, zooms: Sequence[float] = ZOOMS) -> np.ndarray:
    """``(len(zooms), MAP_PX, MAP_PX)``: the crop's ink map at each zoom about its centre
    (the face-distance map is made once and zoomed)."""
    d = face_distance(crop_bgr)
    h, w = d.shape
    out = np.empty((len(zooms), MAP_PX, MAP_PX), np.float32)
    for i, z in enumerate(zooms):
        m = d
        if z != 1.0:
            warp = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), 0.0, z)
            m = cv2.warpAffine(d, warp, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
        m = cv2.resize(m, (MAP_PX, MAP_PX), interpolation=cv2.INTER_AREA)
        m = np.clip(m / max(percentile95(m), 1e-3), 0.0, CLIP)
        out[i] = cv2.GaussianBlur(m, (0, 0), BLUR)
    return out


def percentile95(values: np.ndarray) -> float:
    """``np.percentile(values, 95)`` (linear between order statistics), by partition: a few
    times faster on a map this small."""
    flat = values.ravel()
    k = 0.95 * (flat.size - 1)
    lo = int(k)
    hi = min(lo + 1, flat.size - 1)
    part = np.partition(flat, (lo, hi))
    return float(part[lo] + (part[hi] - part[lo]) * (k - lo))


def vectors(maps: np.ndarray) -> np.ndarray:
    """``(N, len(disc()))`` unit vectors of ``(N, MAP_PX, MAP_PX)`` maps: each map's disc
    less its mean (a flat map gives a zero vector, like nothing)."""
    v = maps.reshape(len(maps), -1)[:, disc()].astype(np.float32)
    v -= v.mean(axis=1, keepdims=True)
    return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-6)


def variants(ink: np.ndarray) -> np.ndarray:
    """``(TURNS * len(SHIFTS), MAP_PX, MAP_PX)``: an ink map at every turn and shift."""
    c = (MAP_PX - 1) / 2
    out = np.empty((TURNS * len(SHIFTS), MAP_PX, MAP_PX), np.float32)
    i = 0
    for k in range(TURNS):
        m = cv2.getRotationMatrix2D((c, c), 360.0 * k / TURNS, 1.0)
        for dx, dy in SHIFTS:
            ms = m.copy()
            ms[0, 2] += dx
            ms[1, 2] += dy
            out[i] = cv2.warpAffine(ink, ms, (MAP_PX, MAP_PX), flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_REPLICATE)
            i += 1
    return out


def best_per_face(
    crops: Sequence[np.ndarray], templates: np.ndarray, owners: np.ndarray, faces: int
) -> np.ndarray:
    """``(N, faces)``: each crop's best cosine similarity, at any of :data:`ZOOMS`, to each
    face's templates (``templates``: unit vectors from :func:`vectors`, ``owners`` their
    face indexes)."""
    if not len(crops):
        return np.zeros((0, faces), np.float32)
    query = vectors(np.concatenate([ink_maps(c) for c in crops]))
    sims = (query @ templates.T).reshape(len(crops), len(ZOOMS), -1).max(axis=1)
    return best_per_owner(sims, owners, faces)


def best_per_owner(sims: np.ndarray, owners: np.ndarray, faces: int) -> np.ndarray:
    """``(N, faces)``: the best of each row of ``sims`` over the columns of each face
    (``owners``: the face index of each column)."""
    best = np.full((len(sims), faces), -1.0, np.float32)
    for f in range(faces):
        mine = owners == f
        if mine.any():
            best[:, f] = sims[:, mine].max(axis=1)
    return best
