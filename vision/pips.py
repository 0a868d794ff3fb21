"""Reading a pip d6 without enrollment: count the pips on the top face.

Pips are round marks of a known size relative to the die. In the face-distance map
(:mod:`vision.crops`: marks bright, body dark, whatever the colours) a centre-surround
filter at pip scale peaks on each pip; pips on the top face give the strongest peaks, pips
on a visible side are foreshortened, dimmer and further out. The count is the number of
peaks within a fixed fraction of the strongest one; the confidence grows with the gap
between the weakest counted peak and the strongest uncounted one and with how well the pips
fit the d6 layout for that count.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from vision.crops import CROP_PX, face_distance
from vision.faces import D6_FACES
from vision.filters import centre_surround

PIP_RADII = (3, 4, 5)
"""Pip radii tried, in crop pixels (a die's top face is about 45 px of the 64 px crop)."""

RELATIVE_PEAK = 0.65
"""A peak counts as a pip when at least this fraction of the strongest peak."""

MIN_PEAK = 10.0

MIN_PURITY = 0.06
"""Share of the crop's centre in the body's colour under which the read is doubtful."""
"""Weakest centre-surround response (face-distance units) that can be a pip at all."""


@dataclass(frozen=True)
class PipCount:
    """A pip reading: face label (``"?"`` when no count fits), confidence, the pips found
    (x, y, response) and the responses of the strongest peaks that were not counted."""

    face: str
    confidence: float
    pips: tuple[tuple[float, float, float], ...]
    rejected: tuple[float, ...] = ()

    @property
    def has_marks(self) -> bool:
        """Whether anything pip-like was found (a blank blob is no die)."""
        return bool(self.pips)


def response(dist: np.ndarray) -> np.ndarray:
    """Centre-surround response, the maximum over the pip radii."""
    out = centre_surround(dist, PIP_RADII[0])
    for r in PIP_RADII[1:]:
        out = np.maximum(out, centre_surround(dist, r))
    return out


@cache
def _central_disc(side: int) -> np.ndarray:
    yy, xx = np.mgrid[:side, :side]
    return np.hypot(xx - side / 2, yy - side / 2) <= side * 0.38


def peaks(resp: np.ndarray, floor: float = MIN_PEAK) -> list[tuple[float, float, float]]:
    """Local maxima (x, y, response) above ``floor``, strongest first, inside the crop's
    central disc, at least 6 px apart."""
    local = cv2.dilate(resp, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))
    ys, xs = np.nonzero((resp >= local) & (resp > floor) & _central_disc(resp.shape[0]))
    values = resp[ys, xs]
    order = np.argsort(-values)
    kept: list[tuple[float, float, float]] = []
    for i in order.tolist():
        x, y = float(xs[i]), float(ys[i])
        if all((x - q[0]) ** 2 + (y - q[1]) ** 2 >= 36 for q in kept):
            kept.append((x, y, float(values[i])))
    return kept


def layout_fit(pips: list[tuple[float, float, float]]) -> float:
    """How well pip positions fit the d6 layout for their count (1 good, 0 bad)."""
    n = len(pips)
    if n <= 1:
        return 1.0
    pts = np.array([(p[0], p[1]) for p in pips], np.float32)
    c = pts.mean(axis=0)
    r = np.hypot(*(pts - c).T)
    spread = float(r.max()) + 1e-6
    if n == 2:
        return 1.0 if 8 <= 2 * spread <= 40 else 0.3
    if n == 3:
        # three in a line, the middle one at the centre
        _, sv, _ = np.linalg.svd(pts - c)
        line = float(sv[1] / (sv[0] + 1e-6))
        return float(np.clip(1.0 - 2.5 * line, 0, 1) * (1.0 if r.min() < 0.3 * spread else 0.4))
    if n == 4:
        return float(np.clip(1.0 - 2.0 * (r.std() / r.mean()), 0, 1))
    if n == 5:
        centre = int(np.argmin(r))
        outer = np.delete(r, centre)
        ok = r[centre] < 0.3 * spread
        return float(np.clip(1.0 - 2.0 * (outer.std() / outer.mean()), 0, 1) * (1.0 if ok else 0.3))
    # six: two rows of three; the two middle pips are nearer the centre than the corners
    rs = np.sort(r)
    middles, corners = rs[:2], rs[2:]
    ok = middles.mean() < 0.85 * corners.mean()
    return float(np.clip(1.0 - 2.0 * (corners.std() / corners.mean()), 0, 1) * (1.0 if ok else 0.4))


def count_pips(crop_bgr: np.ndarray) -> PipCount:
    """Read a d6 crop (:data:`vision.crops.CROP_PX` square) by counting its pips."""
    if crop_bgr.shape[:2] != (CROP_PX, CROP_PX):
        crop_bgr = cv2.resize(crop_bgr, (CROP_PX, CROP_PX), interpolation=cv2.INTER_AREA)
    dist = face_distance(crop_bgr)
    q = CROP_PX // 4
    purity = float((dist[q : 3 * q, q : 3 * q] < 40).mean())
    resp = response(dist)
    # peaks under a fifth of the strongest can neither count nor narrow the gap below
    floor = max(MIN_PEAK, 0.2 * float(resp[_central_disc(resp.shape[0])].max()))
    found = peaks(resp, floor)
    if not found:
        return PipCount("?", 0.0, ())
    top = found[0][2]
    counted = [p for p in found if p[2] >= RELATIVE_PEAK * top]
    rejected = tuple(p[2] for p in found[len(counted) : len(counted) + 3])
    n = len(counted)
    if n > 6:
        return PipCount("?", 0.0, tuple(counted), rejected)
    weakest = counted[-1][2]
    nearest_rejected = rejected[0] if rejected else floor
    # terms measured on the train split: counted pips are even (weakest near the top), the
    # uncounted peaks are well below them, the pips are strong and sit in the d6 layout
    gap = float(np.clip((0.8 - nearest_rejected / weakest) / 0.5, 0, 1))
    even = float(np.clip((weakest / top - 0.6) / 0.3, 0, 1))
    strength = float(np.clip((top - 30.0) / 50.0, 0, 1))
    confidence = gap * even * strength * layout_fit(counted)
    if purity < MIN_PURITY:
        # the crop's centre is not on one die's body (between two dice, or off the die)
        confidence = min(confidence, 0.25)
    return PipCount(D6_FACES[n - 1], float(round(confidence, 3)), tuple(counted), rejected)
