"""Square crops of single dice, normalised for classification.

A crop is :data:`CROP_PX` pixels square, centred on the die's box with a small margin. The
*face-distance map* is each pixel's colour distance (YCrCb, colour weighted) to the die's
body colour, taken as the median of the crop's centre: whatever the die's colour and
whether its marks are darker or lighter than its body, marks come out bright on dark.
"""

from __future__ import annotations

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
    ycc = cv2.cvtColor(crop_bgr, cv2.COLOR_BGR2YCrCb).astype(np.float32)
    s = ycc.shape[0]
    centre = ycc[s // 4 : 3 * s // 4, s // 4 : 3 * s // 4].reshape(-1, 3)
    body = np.median(centre, axis=0)
    d = ycc - body
    dist = np.sqrt(d[..., 0] ** 2 + (CHROMA_WEIGHT * d[..., 1]) ** 2
                   + (CHROMA_WEIGHT * d[..., 2]) ** 2)
    return cv2.GaussianBlur(dist, (3, 3), 0)
