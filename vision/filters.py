"""Small image filters shared by detection and pip reading."""

from __future__ import annotations

import cv2
import numpy as np


def centre_surround(image: np.ndarray, radius: int) -> np.ndarray:
    """Mean of a (2r+1) square minus the mean of the ring around it out to (4r+1), as
    float32: positive on bright spots about ``radius`` across.

    With A, a the outer and inner squares' areas and M, m their means, the ring's mean is
    (A*M - a*m) / (A - a), so the difference is A / (A - a) * (m - M): two box filters,
    O(1) per pixel whatever the radius."""
    src = image.astype(np.float32, copy=False)
    inner_side = 2 * radius + 1
    outer_side = 4 * radius + 1
    inner = cv2.boxFilter(src, cv2.CV_32F, (inner_side, inner_side))
    outer = cv2.boxFilter(src, cv2.CV_32F, (outer_side, outer_side))
    big, small = outer_side**2, inner_side**2
    return (inner - outer) * (big / (big - small))
