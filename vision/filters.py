"""Small image filters shared by detection, pip reading, the reader and calibration."""

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


def area_shrunk(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``image`` shrunk to ``size`` (width, height) by averaging (``INTER_AREA``): halved
    while it is still an even whole factor larger each way, then shrunk once more to the
    size. OpenCV averages an exact half with SIMD but a larger whole factor pixel by pixel:
    a 1280x720 colour frame took 1.6 ms to 160x90 at once, and 0.8 ms in three halvings
    (one core, 2026-11-30). Each halving rounds to whole levels, so a pixel may differ by a
    level from a single shrink's. Only even whole factors are halved: after halvings that
    leave a factor that is not whole (1920 to 240, then 240 to 160), OpenCV's last shrink
    is no longer the mean of each pixel's block (up to 34 levels off at a die's edge)."""
    w, h = size
    while (image.shape[1] >= 2 * w and image.shape[0] >= 2 * h  # (an empty image: no loop)
           and image.shape[1] % (2 * w) == 0 and image.shape[0] % (2 * h) == 0):
        image = cv2.resize(image, (image.shape[1] // 2, image.shape[0] // 2),
                           interpolation=cv2.INTER_AREA)
    if image.shape[1] == w and image.shape[0] == h:
        return image
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


COLOURLESS_SHARE = 0.99
"""A frame is colourless when at least this share of its pixels has channels within 1 of
each other. A black-and-white camera or filter gives 1.0 (a grey JPEG decodes so too); the
250 colour photos of the d6 set give at most 0.5 even counting pixels within 2, their
white tray being never quite neutral (vision-history.md, thirteenth session)."""


def colourless(image: np.ndarray) -> bool:
    """Whether a frame carries no colour: one channel, or its channels (nearly) equal
    everywhere, as from a black-and-white camera, a camera's night mode or a phone's
    black-and-white filter. The readers learned from colour photos: on such frames they
    read fewer dice right and some wrong (see the reader)."""
    if image.ndim == 2 or image.shape[2] == 1:
        return True
    b, g, r = cv2.split(_sample(image[..., :3]))
    spread = cv2.max(cv2.max(cv2.absdiff(b, g), cv2.absdiff(g, r)), cv2.absdiff(b, r))
    return cv2.countNonZero(spread > 1) <= (1 - COLOURLESS_SHARE) * spread.size


BLANK_RANGE = 10
"""A frame is blank when the middle 98% of its pixels' brightness spans at most this many
levels (of 255): a covered lens, a camera in the dark, a frame burnt white. The 250 photos
of the d6 set span 56 levels and more, the synthetic empty trays 26 and more."""


def floor_grey(image: np.ndarray, roi: np.ndarray | None = None) -> float:
    """The tray floor's grey level (0-255): the median grey of the frame, or of its tray
    region (``roi``, non-zero inside) when it has one. Dice, hands and walls are a small
    part of a tray seen from above, so the median is the floor's."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image[..., :3], cv2.COLOR_BGR2GRAY)
    mask = None
    if roi is not None and (roi > 0).any():
        mask = (roi > 0).astype(np.uint8)
    return histogram_median(grey, mask)


def histogram_median(image: np.ndarray, mask: np.ndarray | None = None,
                     channel: int = 0) -> float:
    """The median of one channel of an 8-bit image (where ``mask``, uint8 of its size, is
    non-zero), from its histogram: a tenth of sorting's time on a reader's frame."""
    counts = cv2.calcHist([np.ascontiguousarray(image)], [channel], mask, [256],
                          [0, 256]).ravel()
    return float(np.searchsorted(np.cumsum(counts), counts.sum() / 2))


def blank(image: np.ndarray) -> bool:
    """Whether a frame shows nothing but one flat shade (:data:`BLANK_RANGE`)."""
    sample = _sample(image if image.ndim == 2 else image[..., :3])
    grey = sample if sample.ndim == 2 else cv2.cvtColor(sample, cv2.COLOR_BGR2GRAY)
    low, high = np.percentile(grey, (1, 99))
    return bool(high - low <= BLANK_RANGE)


def _sample(image: np.ndarray) -> np.ndarray:
    """Every step-th pixel of a frame each way, about 65,000 of them: the same shares as
    the whole frame's, for 0.2 ms at 720p."""
    h, w = image.shape[:2]
    step = max(1, round((h * w / 65536) ** 0.5))
    return cv2.resize(image, (max(1, w // step), max(1, h // step)),
                      interpolation=cv2.INTER_NEAREST)
