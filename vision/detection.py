"""Finding dice in a frame, classically: edges, closing, opening, watershed for touching dice.

The frame is first scaled so that a die is about :data:`WORK_DIE_PX` pixels across (a
Raspberry Pi camera frame at 1280x720 over a tray is already close to that). Dice have
strong edges (outline and pips) on a smooth tray; closing the edge map fills each die,
opening with a disc about half a die wide removes thin clutter (tray walls, cables, print),
and blobs bigger than one die are split at the peaks of their distance transform.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.filters import centre_surround
from vision.reading import Box

WORK_DIE_PX = 40
"""Die size, in pixels, at which detection and classification work."""

DEFAULT_DIE_FRACTION = 0.0636
"""Die size as a fraction of the frame's shorter side when nothing better is known
(a camera framing the tray tightly; measured on the d6 photos: median 174 px of 2736)."""


PIP_RADIUS_FRACTION = 0.08
"""A pip's radius over the die size."""

BOX_TO_DIE = 0.8
"""A detected box side over the die size (label boxes include the dice's visible sides)."""


@dataclass(frozen=True)
class DetectionSettings:
    """Thresholds of the detector, in units of the working die size."""

    edge_threshold: int = 30
    noise_factor: float = 2.5
    close_fraction: float = 0.2
    open_fraction: float = 0.34
    peak_fraction: float = 0.25
    pip_threshold: float = 70.0
    pip_grow: float = 0.55
    min_side: float = 0.55
    max_side: float = 2.2


@dataclass(frozen=True)
class Detection:
    """A die candidate: its box in the working image and in the caller's frame."""

    work_box: Box
    box: Box


@dataclass(frozen=True)
class WorkFrame:
    """A frame scaled to the working resolution, with the factor back to the original."""

    image: np.ndarray
    scale: float
    die_px: float

    def to_frame(self, box: Box) -> Box:
        x, y, w, h = box
        s = 1.0 / self.scale
        return (round(x * s), round(y * s), max(1, round(w * s)), max(1, round(h * s)))


def expected_die_px(shape: tuple[int, ...], die_px: float | None = None) -> float:
    """The die size in a frame of this shape: calibrated if given, else a framing default."""
    if die_px is not None and die_px > 0:
        return float(die_px)
    return DEFAULT_DIE_FRACTION * float(min(shape[0], shape[1]))


def to_work(frame: np.ndarray, die_px: float | None = None) -> WorkFrame:
    """Scale a BGR frame so that a die is about :data:`WORK_DIE_PX` pixels across."""
    size = expected_die_px(frame.shape, die_px)
    scale = min(2.0, WORK_DIE_PX / size)
    if abs(scale - 1.0) < 0.02:
        return WorkFrame(frame, 1.0, size)
    # INTER_AREA only pays for itself when shrinking a lot (and is slow at odd ratios)
    interp = cv2.INTER_AREA if scale < 0.5 else cv2.INTER_LINEAR
    image = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=interp)
    return WorkFrame(image, scale, size)


def _disc(diameter: float) -> np.ndarray:
    d = max(3, int(diameter) | 1)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d))


def _square(side: float) -> np.ndarray:
    """A square structuring element: separable, so much faster than a disc when large."""
    d = max(3, int(side) | 1)
    return np.ones((d, d), np.uint8)


def edge_map(image: np.ndarray) -> np.ndarray:
    """Colour gradient magnitude (|dx| + |dy| of Y, plus twice that of Cr and Cb, over 4,
    in 8 bits).

    YCrCb rather than CIELAB: it separates brightness from colour nearly as well for this
    purpose and converts some forty times faster."""
    ycc = cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb)
    # |Sobel| <= 1020, so the weighted sum (<= 10200) fits in int16
    total = np.zeros(image.shape[:2], np.int16)
    for i, weight in ((0, 1), (1, 2), (2, 2)):
        ch = ycc[..., i]
        part = np.abs(cv2.Sobel(ch, cv2.CV_16S, 1, 0, ksize=3))
        part += np.abs(cv2.Sobel(ch, cv2.CV_16S, 0, 1, ksize=3))
        if weight != 1:
            part *= weight
        total += part
    return np.minimum(total // 4, 255).astype(np.uint8)


def pip_map(image: np.ndarray) -> np.ndarray:
    """Centre-surround contrast at pip scale on the grey image, either polarity."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    radius = max(2, round(WORK_DIE_PX * PIP_RADIUS_FRACTION))
    return np.abs(centre_surround(grey, radius))


def foreground(
    image: np.ndarray,
    settings: DetectionSettings = DetectionSettings(),  # noqa: B008 - frozen value
    roi: np.ndarray | None = None,
) -> np.ndarray:
    """A 0/255 mask of die-like blobs in a working-resolution image."""
    die = WORK_DIE_PX
    grad = edge_map(image)
    # on a noisy sensor the tray itself has gradients: stay well above its typical level
    threshold = max(float(settings.edge_threshold), settings.noise_factor * float(np.median(grad)))
    edges = (grad > threshold).astype(np.uint8) * 255
    if roi is not None:
        edges[roi == 0] = 0
    mask = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, _disc(die * settings.close_fraction))
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is not None:
        holes = [
            c
            for c, h in zip(contours, hierarchy[0], strict=True)
            if h[3] >= 0 and cv2.contourArea(c) < die * die * 1.2
        ]
        cv2.drawContours(mask, holes, -1, 255, -1)
        # a die-sized, square outline with gaps (a blank face, a pale die) is filled whole
        outlines = []
        for c in contours:
            x, y, w, h = cv2.boundingRect(c)
            if 0.5 * die <= min(w, h) and max(w, h) <= 1.3 * die and max(w, h) < 1.4 * min(w, h):
                outlines.append(cv2.convexHull(c))
        cv2.drawContours(mask, outlines, -1, 255, -1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _square(die * settings.open_fraction))
    if settings.pip_threshold > 0:
        # pale dice on a pale tray have faint outlines but crisp pips: grow each pip-like
        # spot into a die-sized disc, where the edges found nothing
        spots = (pip_map(image) > settings.pip_threshold).astype(np.uint8) * 255
        if roi is not None:
            spots[roi == 0] = 0
        grown = cv2.dilate(spots, _square(die * settings.pip_grow * 0.85))
        n, labels = cv2.connectedComponents(grown)
        if n > 1:
            touched = np.unique(labels[(mask > 0) & (labels > 0)])
            fresh = np.isin(labels, touched, invert=True) & (labels > 0)
            mask[fresh] = 255
    return mask


def _split(component: np.ndarray, settings: DetectionSettings) -> list[np.ndarray]:
    die = WORK_DIE_PX
    dt = cv2.distanceTransform(component, cv2.DIST_L2, 5)
    local_max = cv2.dilate(dt, _square(die * 0.5))
    peaks = ((dt >= local_max - 1e-3) & (dt > die * settings.peak_fraction)).astype(np.uint8)
    n, labels = cv2.connectedComponents(peaks)
    if n <= 2:
        return []
    markers = labels.astype(np.int32) + 1
    markers[(component > 0) & (labels == 0)] = 0
    markers[cv2.dilate(component, np.ones((3, 3), np.uint8)) == 0] = 1
    relief = cv2.cvtColor((255 - np.clip(dt * 4, 0, 255)).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    ws = cv2.watershed(relief, markers)
    regions = []
    for i in range(2, n + 1):
        region = ((ws == i) & (component > 0)).astype(np.uint8)
        if region.any():
            regions.append(region)
    return regions


def _single_die_area(stats: np.ndarray, die: float) -> float:
    """Typical blob area of one die in this image: the median of compact, square blobs
    near the expected size, else the expected size itself."""
    expected = (BOX_TO_DIE * die) ** 2
    singles = []
    for _x, _y, w, h, area in stats[1:].tolist():
        if max(w, h) > 1.3 * min(w, h) or area < 0.7 * w * h:
            continue
        if 0.4 * expected <= area <= 2.0 * expected:
            singles.append(area)
    if len(singles) >= 2:
        return float(np.median(singles))
    return expected


def _kmeans_split(component: np.ndarray, k: int) -> list[np.ndarray]:
    ys, xs = np.nonzero(component)
    points = np.column_stack([xs, ys]).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(1)
    _, labels, _ = cv2.kmeans(points, k, None, criteria, 1, cv2.KMEANS_PP_CENTERS)
    regions = []
    for j in range(k):
        region = np.zeros_like(component)
        sel = labels.ravel() == j
        region[ys[sel], xs[sel]] = 1
        regions.append(region)
    return regions


def find_boxes(
    image: np.ndarray,
    settings: DetectionSettings = DetectionSettings(),  # noqa: B008 - frozen value
    roi: np.ndarray | None = None,
) -> list[Box]:
    """Boxes (x, y, w, h) of die candidates in a working-resolution BGR image."""
    die = WORK_DIE_PX
    mask = foreground(image, settings, roi)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    lo, hi = settings.min_side * die, settings.max_side * die
    single = _single_die_area(stats, die)
    boxes: list[Box] = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < lo * lo:
            continue
        k = round(area / single)
        elongated = max(w, h) > 1.6 * min(w, h) and max(w, h) > 1.3 * np.sqrt(single)
        compact = max(w, h) < 1.3 * min(w, h) and area > 0.72 * w * h
        if compact and not max(w, h) > hi:
            k = 1  # one big die (nearer the camera), not several small ones
        if k >= 2 or elongated:
            x0, y0 = max(x - 2, 0), max(y - 2, 0)
            comp = (labels[y0 : y + h + 2, x0 : x + w + 2] == i).astype(np.uint8)
            k = max(k, 2)
            regions = _split(comp, settings)
            if len(regions) != k and k <= 8:
                regions = _kmeans_split(comp, k)
            if regions:
                side = np.sqrt(single)
                for region in regions:
                    rx, ry, rw, rh = cv2.boundingRect(region)
                    if int(region.sum()) < 0.35 * single or max(rw, rh) > hi:
                        continue
                    if min(rw, rh) < 0.45 * side or max(rw, rh) > 2.2 * min(rw, rh):
                        continue  # a strip of tray wall or cable, not a die
                    boxes.append((x0 + rx, y0 + ry, rw, rh))
                continue
        if max(w, h) > hi:
            continue
        boxes.append((x, y, w, h))
    return boxes


def estimate_die_px(frame: np.ndarray, roi: np.ndarray | None = None) -> float | None:
    """The die size in an uncalibrated frame: the median side of compact, square blobs
    found at the default framing with relaxed size limits (``None`` when there are none)."""
    work = to_work(frame)
    work_roi = None
    if roi is not None:
        work_roi = cv2.resize(
            roi, (work.image.shape[1], work.image.shape[0]), interpolation=cv2.INTER_NEAREST
        )
    relaxed = DetectionSettings(min_side=0.4, max_side=3.0)
    boxes = find_boxes(work.image, relaxed, work_roi)
    square = [max(w, h) for _, _, w, h in boxes if max(w, h) < 1.35 * min(w, h)]
    if not square:
        return None
    return float(np.median(square)) / BOX_TO_DIE / work.scale


def detect(
    frame: np.ndarray,
    die_px: float | None = None,
    settings: DetectionSettings = DetectionSettings(),  # noqa: B008 - frozen value
    roi: np.ndarray | None = None,
) -> tuple[WorkFrame, list[Detection]]:
    """Find die candidates in a BGR frame; ``roi`` is a 0/255 mask in frame pixels."""
    work = to_work(frame, die_px)
    work_roi = None
    if roi is not None:
        work_roi = cv2.resize(
            roi, (work.image.shape[1], work.image.shape[0]), interpolation=cv2.INTER_NEAREST
        )
    boxes = find_boxes(work.image, settings, work_roi)
    return work, [Detection(b, work.to_frame(b)) for b in boxes]
