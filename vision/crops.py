"""Square crops of single dice, normalised for classification.

A crop is :data:`CROP_PX` pixels square, centred on the die's box with a small margin. The
*face-distance map* is each pixel's colour distance (YCrCb, colour weighted) to the die's
body colour, taken as the median of the crop's centre: whatever the die's colour and
whether its marks are darker or lighter than its body, marks come out bright on dark.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

from vision.reading import Box

CROP_PX = 64

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
    planes = planes.astype(np.float32)
    d = planes - body
    dist = np.sqrt(d[0] ** 2 + (CHROMA_WEIGHT * d[1]) ** 2 + (CHROMA_WEIGHT * d[2]) ** 2)
    return each_map(lambda m: cv2.GaussianBlur(m, (3, 3), 0), dist)


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
