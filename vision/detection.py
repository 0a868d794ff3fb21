"""Finding dice in a frame, classically: edges, closing, opening, watershed for touching dice.

The frame is first scaled so that a die is about :data:`WORK_DIE_PX` pixels across (a
Raspberry Pi camera frame at 1280x720 over a tray is already close to that). Dice have
strong edges (outline and pips) on a smooth tray; closing the edge map fills each die,
opening with a disc about half a die wide removes thin clutter (tray walls, cables, print),
and blobs bigger than one die are split at the peaks of their distance transform.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.filters import centre_surround
from vision.reading import Box
from vision.said import message

WORK_DIE_PX = 40
"""Die size, in pixels, at which detection and classification work."""

DEFAULT_DIE_FRACTION = 0.0636
"""Die size as a fraction of the frame's shorter side when nothing better is known
(a camera framing the tray tightly; measured on the d6 photos: median 174 px of 2736)."""


MIN_DIE_PX = 8.0
"""The smallest die size, in a frame's pixels, that a reader is given (a calibration's, or
``--die-px``): a die under this is a few pixels of colour, with no mark to read."""

SURE_DIE_PX = 18.0
"""The smallest pip dice, in the pixels of the picture they are read in (the median side
of the dice found), whose faces the reader is sure of: smaller ones are read, every one
marked uncertain. On the d6 train photos shrunk so that their dice are N px across (1,458
dice; read with that die size), dice read wrong and sure beyond the data set's 8 label
mistakes: 12 px 47, 14 px 21, 16 px 3, 18 px 1, 20 px none; with the forty-ninth
session's networks, which learned a worse camera's blur, 12 px 31, 14 px 2, none from 16
px up (18 kept: a far camera's frames are less clean than shrunk photos); with this
rule, none at any size from 12 to 40 px (``benchmarks/bench_small_dice.py``). The pips
run together, and the network is as sure of a wrong face as of a right one, up to 0.96:
no confidence floor tells them apart."""


SMALL_DICE = message(
    "vision.small_dice",
    "the dice are {side} px across in the picture, too small to read surely (from {sure} "
    "px): every die is marked uncertain; bring the camera closer or give it a higher "
    "resolution")


def small_dice_warning(side: float) -> str | None:
    """What a read of dice ``side`` px across says, below :data:`SURE_DIE_PX`."""
    if side >= SURE_DIE_PX:
        return None
    # rounded down: 17.6 px said "18 px ... (from 18 px)" (a helper)
    return SMALL_DICE(side=math.floor(side), sure=round(SURE_DIE_PX))


def die_size_problem(die_px: float, shape: tuple[int, ...] | None = None) -> str | None:
    """What is wrong with a die size given to a reader (for a frame of ``shape``, when
    known), or ``None`` when it will do."""
    if not (math.isfinite(die_px) and die_px > 0):
        return f"a die size of {die_px} px is not a size: give a number of pixels above 0"
    if die_px < MIN_DIE_PX:
        return (f"dice {die_px:g} px across are too small to read (at least "
                f"{MIN_DIE_PX:g} px): bring the camera closer, or give it a higher resolution")
    if shape is not None and die_px > min(shape[0], shape[1]):
        return (f"a die {die_px:g} px across does not fit in a {shape[1]}x{shape[0]} picture: "
                "the die size is for another camera or resolution (calibrate this one, or "
                "leave the die size out)")
    return None


PIP_RADIUS_FRACTION = 0.08
"""A pip's radius over the die size."""

BOX_TO_DIE = 0.8
"""A detected box side over the die size (label boxes include the dice's visible sides)."""


def detection_like(box: Box, scale: float) -> Box:
    """A label box (which includes the die's visible sides) scaled to the working image
    and shrunk about its centre to the size the detector reports for that die."""
    x, y, w, h = (v * scale for v in box)
    cx, cy = x + w / 2, y + h / 2
    w, h = w * BOX_TO_DIE, h * BOX_TO_DIE
    return (round(cx - w / 2), round(cy - h / 2), max(1, round(w)), max(1, round(h)))


SPARSE_FILL = 0.15
"""A blob over three maximal die sides long that fills less of its box than this is
dropped unsplit (an outline, not a heap of dice)."""

KMEANS_POINTS = 400
"""Points k-means is fitted on when splitting a blob (the rest are assigned after)."""

RESPLIT_ASPECT = 1.6
RESPLIT_SIDE = 1.5
RESPLIT_MAX = 4.0
"""A piece of a split blob longer than RESPLIT_SIDE (and shorter than RESPLIT_MAX)
single-die sides and RESPLIT_ASPECT times its width is split again (two or three dice in a
row that the first split kept together)."""


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
    purpose and converts some forty times faster. ``cv2.spatialGradient`` gives both 3x3
    Sobel derivatives of a channel in one pass; the sums stay in int16."""
    ycc = cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb)
    # |dx| + |dy| <= 2040 per channel, so the weighted sum (<= 10200) fits in int16
    total = None
    for ch, weight in zip(cv2.split(ycc), (1, 2, 2), strict=True):
        dx, dy = cv2.spatialGradient(ch)  # the 3x3 Sobel pair in one pass
        part = cv2.add(np.abs(dx), np.abs(dy))
        if weight != 1:
            part = cv2.add(part, part)
        total = part if total is None else cv2.add(total, part)
    cv2.min(total, 1023, dst=total)
    return cv2.convertScaleAbs(total >> 2)


def _median_u8(image: np.ndarray) -> float:
    """``np.median`` of a uint8 image, from its histogram (several times faster)."""
    hist = cv2.calcHist([image], [0], None, [256], [0, 256]).ravel()
    cum = np.cumsum(hist)
    n = image.size
    lo = int(np.searchsorted(cum, (n - 1) // 2 + 1))
    hi = int(np.searchsorted(cum, n // 2 + 1))
    return (lo + hi) / 2.0


def pip_map(image: np.ndarray) -> np.ndarray:
    """Centre-surround contrast at pip scale on the grey image, either polarity."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    radius = max(2, round(WORK_DIE_PX * PIP_RADIUS_FRACTION))
    return np.abs(centre_surround(grey, radius))


def pip_spots(image: np.ndarray, threshold: float) -> np.ndarray:
    """A 0/255 mask where :func:`pip_map` exceeds ``threshold``, computed in 8 bits (two
    box means of the grey image; rounding moves the threshold by about one grey level)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    radius = max(2, round(WORK_DIE_PX * PIP_RADIUS_FRACTION))
    inner_side, outer_side = 2 * radius + 1, 4 * radius + 1
    big, small = outer_side**2, inner_side**2
    inner = cv2.blur(grey, (inner_side, inner_side))
    outer = cv2.blur(grey, (outer_side, outer_side))
    # |m - M| * big / (big - small) > threshold  <=>  |m - M| > threshold * (big - small) / big
    limit = threshold * (big - small) / big
    return cv2.threshold(cv2.absdiff(inner, outer), limit, 255, cv2.THRESH_BINARY)[1]


def foreground(
    image: np.ndarray,
    settings: DetectionSettings = DetectionSettings(),  # noqa: B008 - frozen value
    roi: np.ndarray | None = None,
) -> np.ndarray:
    """A 0/255 mask of die-like blobs in a working-resolution image."""
    die = WORK_DIE_PX
    grad = edge_map(image)
    # on a noisy sensor the tray itself has gradients: stay well above its typical level
    threshold = max(float(settings.edge_threshold), settings.noise_factor * _median_u8(grad))
    # grad is integral: grad > t  <=>  grad > floor(t)
    edges = cv2.threshold(grad, float(np.floor(threshold)), 255, cv2.THRESH_BINARY)[1]
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
        spots = pip_spots(image, settings.pip_threshold)
        if roi is not None:
            spots[roi == 0] = 0
        grown = cv2.dilate(spots, _square(die * settings.pip_grow * 0.85))
        n, labels = cv2.connectedComponents(grown)
        if n > 1:
            # components of the grown spots that the edge mask does not touch
            keep = np.full(n, 255, np.uint8)
            keep[0] = 0
            keep[labels[mask > 0]] = 0
            mask = cv2.bitwise_or(mask, keep[labels])
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
    # k-means on an even subsample (at most ~KMEANS_POINTS points), then every pixel to its
    # nearest centre: nearly the same pieces, several times faster on big blobs
    sample = points[:: max(1, len(points) // KMEANS_POINTS)]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(1)
    _, _, w, h = cv2.boundingRect(component)
    if max(w, h) > 1.3 * min(w, h):
        # a row of dice: start from k equal slices along its long axis (k-means++ from
        # random seeds could cut two side-by-side dice into a top and a bottom half)
        centred = sample - sample.mean(axis=0)
        _, _, vt = np.linalg.svd(centred, full_matrices=False)
        rank = np.argsort(np.argsort(centred @ vt[0], kind="stable"), kind="stable")
        init = (rank * k // len(sample)).astype(np.int32).reshape(-1, 1)
        _, _, centres = cv2.kmeans(sample, k, init, criteria, 1, cv2.KMEANS_USE_INITIAL_LABELS)
    else:
        _, _, centres = cv2.kmeans(sample, k, None, criteria, 1, cv2.KMEANS_PP_CENTERS)
    d2 = ((points[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
    labels = d2.argmin(axis=1)
    regions = []
    for j in range(k):
        region = np.zeros_like(component)
        sel = labels == j
        region[ys[sel], xs[sel]] = 1
        regions.append(region)
    return regions


def _components(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """``cv2.connectedComponentsWithStats`` (8-connected; stats without the centroids),
    several times faster: labels alone, areas by counting the foreground's labels, boxes
    from the outer contours (each component has exactly one)."""
    n, labels = cv2.connectedComponents(mask)
    stats = np.zeros((n, 5), np.int32)
    if n <= 1:
        stats[0] = (0, 0, mask.shape[1], mask.shape[0], mask.size)
        return n, labels, stats
    ys, xs = np.nonzero(mask)
    area = np.bincount(labels[ys, xs], minlength=n)
    # top level of the two-level hierarchy: every component's outer boundary, including
    # components lying in another's hole
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    for c, h in zip(contours, hierarchy[0], strict=True):
        if h[3] >= 0:
            continue  # a hole's boundary
        px, py = c[0, 0]
        stats[labels[py, px], :4] = cv2.boundingRect(c)
    stats[:, 4] = area
    stats[0] = (0, 0, mask.shape[1], mask.shape[0], mask.size - int(area[1:].sum()))
    return n, labels, stats


def find_boxes(
    image: np.ndarray,
    settings: DetectionSettings = DetectionSettings(),  # noqa: B008 - frozen value
    roi: np.ndarray | None = None,
) -> list[Box]:
    """Boxes (x, y, w, h) of die candidates in a working-resolution BGR image."""
    die = WORK_DIE_PX
    mask = foreground(image, settings, roi)
    n, labels, stats = _components(mask)
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
        if max(w, h) > 3 * hi and area < SPARSE_FILL * w * h:
            continue  # a long thin outline (tray edge, frame border, cable), not dice
        if k >= 2 or elongated:
            x0, y0 = max(x - 2, 0), max(y - 2, 0)
            comp = (labels[y0 : y + h + 2, x0 : x + w + 2] == i).astype(np.uint8)
            k = max(k, 2)
            regions = _split(comp, settings)
            if len(regions) != k and k <= 16:
                regions = _kmeans_split(comp, k)
            if regions:
                side = np.sqrt(single)
                queue = [(region, 0, 0, True) for region in regions]
                while queue:
                    region, ox, oy, may_split = queue.pop()
                    rx, ry, rw, rh = cv2.boundingRect(region)
                    rx, ry = rx + ox, ry + oy
                    long, short = max(rw, rh), min(rw, rh)
                    if (may_split and long > RESPLIT_ASPECT * short
                            and RESPLIT_SIDE * side < long < RESPLIT_MAX * side):
                        # a piece still holding two or more dice in a row: split it again,
                        # into as many as its length holds
                        parts = max(2, round(long / side))
                        piece = region[ry - oy : ry - oy + rh, rx - ox : rx - ox + rw]
                        queue.extend((part, rx, ry, False) for part in _kmeans_split(piece, parts))
                        continue
                    if int(region.sum()) < 0.35 * single or long > hi:
                        continue
                    if short < 0.45 * side or long > 2.2 * short:
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
