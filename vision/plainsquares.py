"""Plain squares: custom-face dice the body detector misses on a dark tray floor.

The body detector (:mod:`vision.dieornot`) learned dice from photos of pip dice, and a
pale die's blank face on a dark floor is a plain bright square with nothing on it: it
peaks on such a die at 0.1-0.2, under even a dark floor's lower threshold
(:data:`vision.reader.DARK_BODY_THRESHOLD`). On a dark floor a die's body stands far from
the floor's colour, so each region of about a die's size and shape that does is a
candidate too, where the detector has boxed little or nothing; the die-or-not check then
keeps it or drops it, as it does the detector's own candidates (a coin, a token, a card's
corner).
Nothing here knows what the faces are.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.dicefinder import NET_DIE_PX
from vision.filters import histogram_median
from vision.reading import Box

MIN_CONTRAST = 60
"""A pixel stands out from the floor when one of its colour channels (blue, green, red)
lies at least this many levels (of 255) from the floor's. Thirty-eighth session, synthetic
SeaFall trays on the four floors darker than 110, four sets, on trays no setting had been
chosen on (seeds 303 and 404; ``bench_tray_floors.py``'s own are 101 and 202): 40, 60
and 80 found the same dice to 3 in 3,840 (``docs/vision-history.md``, *Plain squares*)."""

SIDE_RANGE = (0.6, 1.6)
"""A candidate's box is from 0.6 to 1.6 of a die's size each way (the frame scaled so that
a die is :data:`vision.dicefinder.NET_DIE_PX` across): smaller is a crumb or a glint,
larger two dice touching, a card or a hand."""

MAX_ASPECT = 1.5
"""A die seen from above, sides and all, is about as wide as it is high (a pencil or a
strip of the tray's wall is not)."""

MIN_FILL = 0.55
"""Share of its box a candidate's region must fill: a die's outline fills nearly all of
it (0.8 for a die turned 45 degrees and rounded), a ring or an L-shaped patch of glare
far less."""

MAX_OVERLAP = 0.1
"""A candidate is dropped when one of the detector's boxes covers more than this share of
its box: the detector has found that die, and what stands out beside it is its shaded
side (a black die on dark grey: its side, darker than the floor, beside its white star),
or it has found a neighbour, whose box a touching die's may just reach into. On seeds
303 and 404's trays (*Plain squares*) dropping candidates whose centre lay in a box
left 2 such boxes on no die; more than none or a tenth covered, none (and one die more
found at a tenth)."""


def _overlap(box: Box, held: np.ndarray) -> float:
    """The largest share of ``box`` that one of ``held`` (``(K, 4)`` boxes) covers."""
    x, y, w, h = box
    across = np.minimum(x + w, held[:, 0] + held[:, 2]) - np.maximum(x, held[:, 0])
    down = np.minimum(y + h, held[:, 1] + held[:, 3]) - np.maximum(y, held[:, 1])
    covered = np.maximum(across, 0) * np.maximum(down, 0)
    return float(covered.max(initial=0.0)) / (w * h)


def floor_colour(image: np.ndarray, roi: np.ndarray | None = None) -> np.ndarray:
    """``(3,)``: the floor's colour, the median of each channel of a BGR ``image`` (every
    second pixel each way), over the tray region (``roi``, non-zero inside, of the same
    size) when it has one. Dice are a small part of a tray, so the median is the floor's."""
    sample = np.ascontiguousarray(image[::2, ::2])
    mask = None
    if roi is not None and (roi > 0).any():
        mask = np.ascontiguousarray(roi[::2, ::2] > 0).astype(np.uint8)
        if not mask.any():  # a region too thin to sample: all of it
            mask = (roi > 0).astype(np.uint8)
            sample = image
    return np.array([histogram_median(sample, mask, c) for c in range(3)])


def plain_squares(small: np.ndarray, scale: float, boxed: list[Box],
                  roi: np.ndarray | None = None) -> list[Box]:
    """Boxes (frame pixels: ``small``'s divided by ``scale``) of the regions of ``small``
    (the detector's copy of the frame, a die :data:`vision.dicefinder.NET_DIE_PX`
    across) that stand out from the floor (:data:`MIN_CONTRAST`) with about a die's size
    and shape, and that none of ``boxed`` (frame pixels: the detector's) covers more than
    :data:`MAX_OVERLAP` of. ``roi``: the tray region at ``small``'s size, whose median
    colour is the floor's."""
    floor = floor_colour(small, roi)
    # near: every channel within MIN_CONTRAST of the floor's (one call for the frame)
    near = cv2.inRange(small, np.maximum(floor - MIN_CONTRAST + 1, 0),
                       np.minimum(floor + MIN_CONTRAST - 1, 255))
    mask = cv2.morphologyEx(cv2.bitwise_not(near), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    # the outer outlines of the regions (a tenth of labelling them with their stats)
    outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    low, high = (s * NET_DIE_PX for s in SIDE_RANGE)
    held = np.array(boxed, np.float64).reshape(-1, 4)
    found: list[Box] = []
    for outline in outlines:
        x, y, w, h = cv2.boundingRect(outline)
        if not (low <= w <= high and low <= h <= high) or max(w, h) > MAX_ASPECT * min(w, h):
            continue
        if cv2.countNonZero(mask[y:y + h, x:x + w]) < MIN_FILL * w * h:
            continue
        box = (round(x / scale), round(y / scale), max(1, round(w / scale)),
               max(1, round(h / scale)))
        if _overlap(box, held) > MAX_OVERLAP:
            continue  # the detector has this die, or a neighbour whose side this is
        found.append(box)
    return found
