"""Square crops of single dice, normalised for classification.

A crop is :data:`CROP_PX` pixels square, centred on the die's box with a small margin. The
*face-distance map* is each pixel's colour distance (YCrCb, colour weighted) to the die's
body colour, taken as the median of the crop's centre: whatever the die's colour and
whether its marks are darker or lighter than its body, marks come out bright on dark.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

import cv2
import numpy as np

from vision.reading import Box

CROP_PX = 64

WIDE_MARGIN = 0.25
"""Margin of the second, wider crop of a die, which shows the whole die where the
detector's box is too tight or off its centre: a confident pip count must agree with it,
the face network reads it for a die it is unsure of (:data:`vision.pipnets.NET_WIDE_MEAN`)
and a profile's ink templates look at it for a die they are unsure of
(:meth:`vision.enrollment.Profile.classify_many`)."""

CHROMA_WEIGHT = 5.0
"""Weight of the colour axes against brightness in the face-distance map."""


def crop(image: np.ndarray, box: Box, margin: float = 0.1) -> np.ndarray:
    """A CROP_PX square BGR crop around ``box`` (replicating the border past the image)."""
    x, y, w, h = box
    side = max(w, h) * (1 + 2 * margin)
    cx, cy = x + w / 2, y + h / 2
    k = CROP_PX / max(side, 1.0)
    m = np.float32([[k, 0, CROP_PX / 2 - cx * k], [0, k, CROP_PX / 2 - cy * k]])
    return cv2.warpAffine(
        image, m, (CROP_PX, CROP_PX), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def face_distance(crop_bgr: np.ndarray) -> np.ndarray:
    """Float32 map of each pixel's colour distance to the die body's colour (YCrCb, the
    colour axes weighted up so that red pips on a blue die stand out as well as black
    pips on a white one)."""
    return face_distances([crop_bgr])[0]


def face_distances(crops: Sequence[np.ndarray]) -> np.ndarray:
    """``(N, h, w)``: :func:`face_distance` of N crops of one size, made together (a
    frame's dice in a few OpenCV calls instead of a few per die; the same maps)."""
    _, dist = _differences(crops)
    return each_map(lambda m: cv2.GaussianBlur(m, (3, 3), 0), dist)


INK_SHARE = 0.5
"""Share of the plain face distance in an ink distance (:func:`ink_distances`) where the
face's marks agree on one ink colour; the rest is the distance along that colour. Placed by
``calibrate_enrolled`` in the thirty-fourth session (16 enrollments of 5 crops a face, the
d6 faces as symbols, each setting at its least margin leaving at most 0.15% of train
silently wrong; test not read): read sure, train / val, 88.1% / 87.5% for the plain
distance alone (as before); along the ink without :data:`INK_AGREED` (every die taken as
agreed), 90.3 / 90.1 at 0.3, 90.9 / 91.3 at 0.5, 90.9 / 90.9 at 0.6. (With the ink's
colour told by the plain distance rather than by the marks picked out: 88.7 / 88.0 along
the ink alone, 89.6 / 89.4 at 0.3, 90.4 / 89.9 at 0.5, 89.8 / 89.5 at 0.7; a neighbour's
coloured body in the crop then gave the ink its colour, and a profile that had learned 20
crops a face read one val die wrong and sure in 12 of 16 enrollments.)"""

INK_AGREED = 0.5
"""How far the face's marks must agree on their colour for the distance along it to count
in full (:func:`ink_distances`): the length of their differences' weighted mean over the
mean of their lengths, 1 where every mark differs from the body the same way. Below it,
the share along the ink falls in proportion, to none where the marks point every way: a
blank face (its "marks" are noise) or a large solid symbol filling the face's middle (the
body colour is then the symbol's, and the edges picked out point both ways). Measured in
the thirty-fourth session by ``benchmarks/bench_tray_floors.py`` (the synthetic SeaFall
sets, 5,760 dice on six floors): every die taken as agreed, black dice on dark grey read
85.0% sure and right against 96.2% with the plain distance (their blank faces); at 0.5,
93.8%, and over all the sets 5,452 dice sure and right against 5,441, the same one wrong
and sure (at 0.3, 5,453 and one more wrong and sure). The d6 faces as symbols read 90.8% /
90.5% of train / val sure at 0.5 (margin 0.115), 90.8 / 90.9 at 0.3, 90.0 / 89.9 with the
share in proportion to the agreement all the way up (margin 0.12)."""

INK_TOP = 90
"""Percentile of the marks picked out over the face's disc (:data:`INK_DISC`) above which a
pixel tells the ink's colour (:func:`ink_distances`): every die taken as agreed, at an
:data:`INK_SHARE` of 0.5, 70, 80, 90 and 95 read 90.6, 90.8, 90.9 and 90.8% of train sure
(val 90.3, 90.4, 91.3, 91.2)."""

INK_DISC = 0.36
"""Radius of the disc about a crop's centre (in crop sides) whose pixels tell the ink's
colour: the top face, as the ink templates compare it (:data:`vision.templates.RADIUS`)."""


def ink_distances(crops: Sequence[np.ndarray], marks: np.ndarray,
                  other_body: bool = False) -> np.ndarray:
    """``(N, h, w)``: the face distance of N crops of one size, up to half of it
    (:data:`INK_SHARE`) taken along the colour of the face's ink only. The ink's colour is
    the mean difference from the body of the face's marks: its pixels that a white top-hat
    with the element ``marks`` keeps most of (over :data:`INK_TOP` of its disc), weighted
    by it, so that what is broad (a neighbour's body, the die's side) does not colour it.
    A pixel's distance along it is its difference's part in that direction, nothing where
    it points away. A die's marks are of one ink, and what differs from the body otherwise
    (a white glint on a die with coloured marks, a marbled body's swirls of another hue, a
    neighbour of another colour) counts half. Where the marks do not agree on a colour
    (:data:`INK_AGREED`), the plain distance counts more. Nothing here knows what the
    marks are: any symbol of one ink."""
    diff, dist = _differences(crops, other_body)
    n, h, w = dist.shape
    disc = _disc(h, w)
    picked = each_map(lambda m: cv2.morphologyEx(m, cv2.MORPH_TOPHAT, marks), dist)
    inside = picked[:, disc]                                              # (N, k)
    rank = int(INK_TOP / 100 * (inside.shape[1] - 1))
    cut = np.partition(inside, rank, axis=1)[:, rank]
    # only the marks' pixels weigh (a tenth of the disc): summed over them alone, in float64
    # and each die's in its own order, so that a die's map does not hang on how many dice
    # were made with it (float32 sums come out a little otherwise by batch size)
    die, pixel = np.nonzero(((picked >= cut[:, None, None]) & disc).reshape(n, -1))
    weights = picked.reshape(n, -1)[die, pixel].astype(np.float64)
    ink = np.stack([np.bincount(die, channel[die, pixel] * weights, n)
                    for channel in diff.reshape(3, n, -1)])                    # (3, N)
    length = np.sqrt((ink * ink).sum(axis=0))
    # how far the marks agree: their differences' weighted mean over their mean length
    agreed = length / np.maximum(np.bincount(die, dist.reshape(n, -1)[die, pixel] * weights,
                                             n), 1e-6)
    ink = (ink / np.maximum(length, 1e-6)).astype(np.float32)
    along = diff[0] * ink[0, :, None, None]  # summed channel by channel, no (3, N, h, w)
    along += diff[1] * ink[1, :, None, None]
    along += diff[2] * ink[2, :, None, None]
    np.maximum(along, 0.0, out=along)
    share = ((1 - INK_SHARE) * np.minimum(agreed / INK_AGREED, 1.0))[:, None, None]
    mixed = (dist + share * (along - dist)).astype(np.float32)
    return each_map(lambda m: cv2.GaussianBlur(m, (3, 3), 0), mixed)


@cache
def _disc(h: int, w: int) -> np.ndarray:
    yy, xx = np.mgrid[:h, :w]
    return ((yy - (h - 1) / 2) ** 2 + (xx - (w - 1) / 2) ** 2) <= (INK_DISC * h) ** 2


OTHER_QUARTER = 0.25
"""Share of the crop's centre, its darkest or its lightest pixels, whose median colour is
the body's other colour (:func:`other_bodies`)."""


def other_bodies(centre: np.ndarray, body: np.ndarray) -> np.ndarray:
    """``(3, N)``: for each die, the colour its body would be if the median of its centre
    (``body``, ``(3, N)``) were its symbol's: the median colour of the centre's darkest or
    its lightest :data:`OTHER_QUARTER` of pixels (by Y), whichever lies further from
    ``body``. ``centre``: ``(3, N, k)`` YCrCb. A large symbol (a star) filling about half
    the centre makes the median its colour in some crops and the die's in others."""
    n, k = centre.shape[1:]
    order = np.argsort(centre[0], axis=1, kind="stable")
    q = max(1, int(OTHER_QUARTER * k))
    picked = np.take_along_axis(centre, np.broadcast_to(order, centre.shape), axis=2)
    dark, light = _medians(picked[:, :, :q]), _medians(picked[:, :, -q:])     # (3, N)
    weight = np.array([1.0, CHROMA_WEIGHT, CHROMA_WEIGHT], np.float32)[:, None]
    far = ((weight * (dark - body)) ** 2).sum(0) >= ((weight * (light - body)) ** 2).sum(0)
    return np.where(far[None], dark, light)


def _medians(values: np.ndarray) -> np.ndarray:
    """``np.median(values.astype(np.float32), axis=2)`` of uint8 ``values``, by a stable
    sort (a radix sort for uint8: several times sooner than the median's partition)."""
    k = values.shape[2]
    ordered = np.sort(values, axis=2, kind="stable")
    high = ordered[:, :, k // 2].astype(np.float32)
    if k % 2:
        return high
    return (ordered[:, :, k // 2 - 1].astype(np.float32) + high) / np.float32(2)


def _differences(crops: Sequence[np.ndarray], other_body: bool = False
                 ) -> tuple[np.ndarray, np.ndarray]:
    """``(3, N, h, w)`` each pixel's YCrCb difference from its die's body colour (the
    median of the crop's centre; with ``other_body``, :func:`other_bodies`), the colour
    axes times :data:`CHROMA_WEIGHT`, and ``(N, h, w)`` its length (unblurred), for N crops
    of one size."""
    stack = np.stack(crops)
    n, h, w = stack.shape[:3]
    ycc = cv2.cvtColor(stack.reshape(n * h, w, 3), cv2.COLOR_BGR2YCrCb)
    # one contiguous plane per channel: (3, n, h, w)
    planes = np.ascontiguousarray(ycc.reshape(n, h, w, 3).transpose(3, 0, 1, 2))
    centre = planes[:, :, h // 4 : 3 * h // 4, h // 4 : 3 * h // 4].reshape(3 * n, -1)
    half = centre.shape[1] // 2
    # each row's middle two values: a stable sort of uint8 rows is a radix sort, 2-3 times
    # sooner than np.partition for the same values
    low, high = np.sort(centre, axis=1, kind="stable")[:, half - 1:half + 1].astype(np.float32).T
    body = (high if centre.shape[1] % 2 else (low + high) / 2).reshape(3, n, 1, 1)  # the median
    if other_body:
        body = other_bodies(centre.reshape(3, n, -1), body.reshape(3, n)).reshape(3, n, 1, 1)
    d = np.subtract(planes, body, dtype=np.float32)
    d[1:] *= CHROMA_WEIGHT
    length = np.square(d[0])
    length += np.square(d[1])
    length += np.square(d[2])
    return d, np.sqrt(length, out=length)


MAPS_PER_CALL = 128
"""Maps handed to one OpenCV call by :func:`each_map` (as the channels of one image;
the Python binding takes at most 128)."""


def each_map(op: Callable[[np.ndarray], np.ndarray], maps: np.ndarray,
             per_call: int = MAPS_PER_CALL) -> np.ndarray:
    """``op`` (an OpenCV filter, warp or resize of one single-channel image) applied to
    each of ``maps`` (``(N, h, w)`` float32), the maps passed as the channels of a few
    images: OpenCV filters each channel alone, so the maps come out as one at a time
    would, for a call per ``per_call`` maps instead of one per map. A warp must be given
    ``per_call=4``: ``cv2.warpAffine`` mixes up images of other channel counts above 4
    (and of 2), so the maps go four at a time, the last four made up with blank ones."""
    n = len(maps)
    if per_call == 4 and n % 4:
        maps = np.concatenate([maps, np.zeros((4 - n % 4, *maps.shape[1:]), maps.dtype)])
    parts = []
    for first in range(0, len(maps), per_call):
        chunk = np.ascontiguousarray(maps[first:first + per_call].transpose(1, 2, 0))
        out = op(chunk)
        parts.append(out.reshape(*out.shape[:2], -1).transpose(2, 0, 1))
    return np.concatenate(parts)[:n] if parts else maps[:0]
