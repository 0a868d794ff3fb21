"""Whether a frame's dice are smeared: the camera (or a phone held in the hand) moved while
the picture was taken.

Smeared a few pixels at the working scale, a die's pips run into ovals and then into bars,
and the face networks grow sure of some wrong faces (``docs/vision.md``, *What a worse
camera costs*: 23 dice of the d6 train photos wrong and sure beyond the label mistakes
under a smear of 7 px). A picture-wide focus measure hardly moves under a smear; what
does is the *direction* of the detail. A die's top face has no direction of its own
(round pips, a square turned any way), but a smear blurs along one direction only: the
dice's fine detail across that direction stays, along it goes.

So :func:`smear` measures the fine detail (the second derivative, 5-pixel scale) of the
dice's boxes along :data:`ANGLES` directions, summed over the frame's dice (a camera's
shake smears every die the same way), and returns how far the weakest direction falls
short of the strongest: 0 when every direction is alike, towards 1 when one has none.
Sharp dice still show a little direction (their sides in perspective, glints along an
edge, a frame of one or two dice): the d6 photos as shot reach about 0.27.

Enrolled dice may carry a symbol that does run one way (SeaFall's weak face is one bar:
a die of it alone measures about 0.5). A profile measures each face's own direction from
its crops (:func:`own_direction`, ``Profile.directions``), and a frame of enrolled dice
is taken for smeared from :data:`OWN_MARGIN` above the direction its dice show of their
own (:func:`smear_from`), never below :data:`SMEAR_FROM`.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.said import message

__all__ = ["ANGLES", "OWN_MARGIN", "OWN_PX", "SIDES", "SMEAR_FROM", "anisotropy", "box_sums",
           "measured_at", "own_direction", "own_share", "smear", "smear_and_own", "smear_from",
           "smear_warning"]

ANGLES = 12
"""Directions the detail is measured along, evenly over half a turn (every 15 degrees)."""

SMEAR_FROM = 0.5
"""A frame whose dice's :func:`smear` is at least this is read with every die uncertain.
Placed by :mod:`vision.training.calibrate_smear` (fifty-second session): the d6 train
photos (1,458 dice) smeared before they were sampled, at an angle drawn for each photo,
read without the check. Dice read wrong and sure beyond the label mistakes, by the fold
networks that did not learn the photos, and the frames a check from 0.5 marks:

  smear, working px    0     2     3     4     5     6     7     10
  wrong and sure       1     2     1     1     1     3     12    140
  left by the check    1     2     1     1     1     1     1     0
  frames marked        0     0     1%    6%    75%   94.5% 98.5% 100%

(With the dice measured within :data:`SIDES`, fifty-third session: the same dice left,
and 1% / 7% / 72% / 95% / 98% of the frames marked at 3 / 4 / 5 / 6 / 7 px.)

As shot the measure is at most 0.27 (val 0.17). 0.45 leaves none at 7 px but marks 30%
of the frames at 4 px and 90% at 5, which the reader reads as well as sharp ones; 0.55
leaves 3 at 7 px. A die of about 40 px smeared 6 px or more is where the reads go
wrong."""

SIDES = (40.0, 51.0)
"""The dice's box sides (their median, in px) the measure is taken at. The threshold was
placed on the d6 photos at the working size, dice of 33-51 px (5th to 95th percentile
over the train photos, median 40). The reader cuts a frame near the working size as it
is (a 1280x720 camera frame), where a close camera's dice are larger and a far one's
smaller: dice of 78 px marked 92% of the val frames smeared a twentieth of a die (3 px of
40), which read as sharp ones, and dice of 22 px left 6 train dice wrong and sure under a
sixth of a die (7 of 40). So dice outside these sides are measured brought to the nearer
end (the small ones to the working size, where the photos' median was): 4% and 2 dice.
On the d6 photos at the working size the calibration leaves the same dice (its marks move
by a few points: :data:`SMEAR_FROM`)."""

OWN_PX = 36
"""Side an enrolled crop is shrunk to for :func:`own_direction`: about a die's top face at
the reader's working size (a die's box of about 40 px)."""

OWN_MARGIN = 0.2
"""How far above the direction its dice show of their own (:func:`own_share`) a frame of
enrolled dice must measure to be taken for smeared (:func:`smear_from`). Placed by
:mod:`vision.training.calibrate_smear_symbols` (fifty-third session): 384 synthetic
SeaFall trays of 1 to 15 dice (1,968 dice; every third tray all weak faces, one bar
each), a profile of 5 crops a face, smeared at an angle drawn per tray. Dice read wrong
and sure without the check, those a check from each margin leaves, and the trays it
marks (all / of one die):

  smear, working px   0          5            7            10           13
  wrong and sure      10         11           10           34           274
  margin 0.15         10  1%/2%  9 21%/30%    4 61%/57%    3 81%/69%    5 93%/84%
  margin 0.2          10  0%/1%  9 18%/27%    5 57%/53%    3 76%/61%    6 89%/76%
  margin 0.25         10  0%/1%  10 15%/23%   6 53%/49%    5 67%/55%    15 82%/69%

The 10 of a sharp tray are the drawn weak faces some profiles take for blank ones, smear
or none. A die alone can measure well above its face's own direction (its outline and
shadow; a blank die alone up to 0.62): 0.2 marks 1 sharp tray of one die in 100, 0.15 2.
The d6 faces enrolled as symbols show about 0.2 of their own, so they are checked from
:data:`SMEAR_FROM`, as the pip reader's dice."""

_C = np.cos(np.arange(ANGLES) * np.pi / ANGLES)
_S = np.sin(np.arange(ANGLES) * np.pi / ANGLES)
# the second derivative along a direction (c, s) is c^2 Ixx + 2cs Ixy + s^2 Iyy; its
# energy, summed over pixels, is a quartic in (c, s) over six sums of products
_WEIGHTS = np.stack([_C**4, _S**4, 4 * _C**2 * _S**2, 2 * _C**2 * _S**2,
                     4 * _C**3 * _S, 4 * _C * _S**3], axis=1)


def _detail_sums(grey: np.ndarray) -> np.ndarray:
    """The six sums of products of a grey patch's second derivatives (xx, yy, xy):
    xx.xx, yy.yy, xy.xy, xx.yy, xx.xy, yy.xy."""
    xx = cv2.Sobel(grey, cv2.CV_32F, 2, 0, ksize=5)
    yy = cv2.Sobel(grey, cv2.CV_32F, 0, 2, ksize=5)
    xy = cv2.Sobel(grey, cv2.CV_32F, 1, 1, ksize=5)
    return np.array([np.vdot(xx, xx), np.vdot(yy, yy), np.vdot(xy, xy),
                     np.vdot(xx, yy), np.vdot(xx, xy), np.vdot(yy, xy)], np.float64)


def measured_at(boxes: Sequence[Sequence[float]]) -> float:
    """The factor :func:`box_sums` brings ``boxes`` by before measuring them: 1 when
    their median side is within :data:`SIDES`, else to the nearer end of it."""
    if not len(boxes):
        return 1.0
    side = float(np.median([max(b[2], b[3]) for b in boxes]))
    low, high = SIDES
    if side <= 0.0 or low <= side <= high:
        return 1.0
    return (high if side > high else low) / side


def box_sums(image: np.ndarray, boxes: Sequence[Sequence[float]]) -> np.ndarray:
    """``(len(boxes), 6)``: each box's sums of products of its fine detail (x, y, w, h in
    ``image``'s pixels; a uint8 BGR or grey image at the reader's working size), zero for
    a box (nearly) off the picture. Boxes of a median side outside :data:`SIDES` (the
    reader cuts a frame near the working size as it is) are measured brought into it
    (:func:`measured_at`). :func:`anisotropy` of their sum is :func:`smear`."""
    sums = np.zeros((len(boxes), 6))
    height, width = image.shape[:2]
    factor = measured_at(boxes)
    for i, (x, y, w, h) in enumerate(boxes):
        x0, y0 = max(int(x), 0), max(int(y), 0)
        x1, y1 = min(int(x + w), width), min(int(y + h), height)
        if x1 - x0 < 3 or y1 - y0 < 3:
            continue
        patch = image[y0:y1, x0:x1]
        if patch.ndim == 3:
            patch = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
        if factor != 1.0:
            patch = cv2.resize(patch, None, fx=factor, fy=factor, interpolation=(
                cv2.INTER_AREA if factor < 1.0 else cv2.INTER_LINEAR))
            if min(patch.shape) < 3:
                continue
        sums[i] = _detail_sums(patch)
    return sums


def anisotropy(sums: np.ndarray) -> float:
    """How far the weakest of :data:`ANGLES` directions of the detail ``sums`` (six, from
    :func:`box_sums`) falls short of the strongest: 0 alike, towards 1 none along one; 0.0
    for no detail."""
    energy = _WEIGHTS @ sums
    most, least = float(energy.max()), float(energy.min())
    if most <= 0.0:
        return 0.0
    return (most - least) / (most + least)


def smear(image: np.ndarray, boxes: Sequence[Sequence[float]]) -> float:
    """How one-directional the fine detail inside ``boxes`` (x, y, w, h in ``image``'s
    pixels; a uint8 BGR or grey image at the reader's working size) is, over all of them:
    0 the same along every direction, towards 1 none along one. 0.0 when there is no
    detail (no boxes, or flat ones)."""
    return anisotropy(box_sums(image, boxes).sum(axis=0))


def own_direction(crops: Sequence[np.ndarray]) -> float:
    """How one-directional a face's own marks are: the mean :func:`anisotropy` of its
    enrolled crops (of the top face alone, any size; shrunk to :data:`OWN_PX`), each
    measured alone. A SeaFall weak face, one bar, measures about 0.5; pips, a ring or a
    star about 0.1-0.2. 0.0 for no crops."""
    values = []
    for c in crops:
        small = cv2.resize(c, (OWN_PX, OWN_PX), interpolation=cv2.INTER_AREA)
        values.append(anisotropy(box_sums(small, [(0, 0, OWN_PX, OWN_PX)])[0]))
    return float(np.mean(values)) if values else 0.0


def own_share(sums: np.ndarray, directions: Sequence[float]) -> float:
    """The direction a frame's dice show of their own, unsmeared: each die's face's
    :func:`own_direction` weighed by the die's detail (``sums``, :func:`box_sums` of
    their boxes); 0.0 for no detail."""
    detail = (sums @ _WEIGHTS.T).mean(axis=1)
    total = float(detail.sum())
    if total <= 0.0:
        return 0.0
    return float(np.dot(detail, np.asarray(directions, np.float64))) / total


def smear_and_own(image: np.ndarray, boxes: Sequence[Sequence[float]],
                  directions: Sequence[float]) -> tuple[float, float]:
    """(:func:`smear`, :func:`own_share`) of dice in ``boxes`` whose faces' own directions
    are ``directions``, from one pass over their boxes: what a frame of enrolled dice
    measures, and what it shows unsmeared (its threshold is :func:`smear_from` of it)."""
    sums = box_sums(image, boxes)
    return anisotropy(sums.sum(axis=0)), own_share(sums, directions)


def smear_from(own: float, margin: float = OWN_MARGIN) -> float:
    """The :func:`smear` a frame of enrolled dice must reach to be taken for smeared: the
    direction its dice show of their own (``own``, :func:`own_share`) plus ``margin``
    (:data:`OWN_MARGIN`), never below :data:`SMEAR_FROM`. A die whose marks run one way
    (one bar) measures so without a smear, most of all alone in the tray; dice of no
    direction keep the pip reader's threshold."""
    return max(SMEAR_FROM, own + margin)


SMEARED = message(
    "vision.smeared",
    "the dice look smeared: the camera moved as the picture was taken (or the dice were "
    "still moving), so every die is marked uncertain; mount the camera firmly, or hold the "
    "phone still")()


def smear_warning(value: float, threshold: float = SMEAR_FROM) -> str | None:
    """What a read whose dice's :func:`smear` is ``value`` says, from ``threshold``
    (:data:`SMEAR_FROM`, or for enrolled dice :func:`smear_from`)."""
    if value < threshold:
        return None
    return SMEARED
