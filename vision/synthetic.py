"""Synthetic photos of symbol dice (SeaFall's blank, standard, weak, strong) on a tray.

No labelled photos of SeaFall dice exist, so tests of the custom-face path use these:
each face is drawn as a distinct symbol on a rounded die body, dice are placed at random
angles without overlapping (with ``top_shift``, each die's side in view as a camera over
the tray sees it: its top face out from its foot), and the photo gets perspective, blur,
noise, uneven light and soft shadows. Everything comes from an injected ``numpy.random.Generator``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.crops import crop
from vision.detection import to_work
from vision.faces import SEAFALL_FACES
from vision.reading import Box

BODY_COLOURS = ((40, 40, 160), (200, 200, 200), (30, 30, 30), (150, 90, 30))
"""BGR die bodies: red, ivory, black, blue."""

BODY_NAMES = ("red", "ivory", "black", "blue")
"""The names of :data:`BODY_COLOURS`, in their order."""


def draw_face(label: str, size: int, body: tuple[int, int, int]) -> np.ndarray:
    """One die face, ``size`` px square, with the symbol of a SeaFall face label."""
    img = np.zeros((size, size, 3), np.uint8)
    img[:] = body
    ink = (235, 235, 235) if sum(body) < 300 else (25, 25, 25)
    c = size // 2
    t = max(2, size // 12)
    if label == "blank":
        return img  # a blank face carries no symbol
    if label == "standard":  # a ship's wheel: ring and spokes
        cv2.circle(img, (c, c), size // 4, ink, t + 1, cv2.LINE_AA)
        for a in range(0, 180, 45):
            dx, dy = np.cos(np.radians(a)) * size * 0.33, np.sin(np.radians(a)) * size * 0.33
            ends = (int(c - dx), int(c - dy)), (int(c + dx), int(c + dy))
            cv2.line(img, ends[0], ends[1], ink, t, cv2.LINE_AA)
    elif label == "weak":  # a single bar
        cv2.rectangle(img, (int(size * 0.2), c - t), (int(size * 0.8), c + t), ink, -1)
    elif label == "strong":  # a filled star
        pts = []
        for k in range(10):
            r = size * (0.36 if k % 2 == 0 else 0.15)
            a = np.radians(-90 + 36 * k)
            pts.append((c + r * np.cos(a), c + r * np.sin(a)))
        cv2.fillPoly(img, [np.array(pts, np.int32)], ink, cv2.LINE_AA)
    else:
        raise ValueError(f"no symbol for face {label!r}")
    return img


@dataclass(frozen=True)
class SyntheticDie:
    face: str
    box: Box


@dataclass(frozen=True)
class SyntheticPhoto:
    image: np.ndarray
    dice: tuple[SyntheticDie, ...]


@dataclass(frozen=True, eq=False)  # eq=False: an array field
class Setting:
    """How the camera sees the tray, the same from frame to frame at a table: the uneven
    light (a broad ``gradient`` across x and y, and a soft hot spot at ``hot_spot``), the
    camera's small tilt (where the picture's corners land, ``corners``) and its focus (the
    blur ``sigma``). :func:`tray_photo` draws one for each photo unless it is given one;
    the frames of one table share one (the demo recording, the runtime tests' throws)."""

    gradient: tuple[float, float]
    hot_spot: tuple[float, float]
    corners: np.ndarray
    sigma: float

    @staticmethod
    def draw(rng: np.random.Generator, size: tuple[int, int]) -> Setting:
        # in this order (a photo drawn without a setting draws it where its light is made)
        return Setting(*_light(rng, size), _tilt(rng, size), _focus(rng))


def _light(rng: np.random.Generator,
           size: tuple[int, int]) -> tuple[tuple[float, float], tuple[float, float]]:
    w, h = size
    gx, gy = rng.uniform(-0.25, 0.25, 2)
    hx, hy = rng.uniform(0, w), rng.uniform(0, h)
    # numpy's float64, as drawn: the light is worked out in it (each photo as before)
    return (gx, gy), (hx, hy)


def _tilt(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    w, h = size
    jitter = 0.03 * min(w, h)
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    return src + rng.uniform(-jitter, jitter, (4, 2)).astype(np.float32)


def _focus(rng: np.random.Generator) -> float:
    return float(rng.uniform(0.4, 1.2))


def rounded_mask(size: int) -> np.ndarray:
    """A die face's outline, ``size`` px square with rounded corners (255 inside)."""
    mask = np.zeros((size, size), np.uint8)
    r = size // 6
    cv2.rectangle(mask, (r, 0), (size - r, size - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (size - 1, size - r), 255, -1)
    for x, y in ((r, r), (size - r - 1, r), (r, size - r - 1), (size - r - 1, size - r - 1)):
        cv2.circle(mask, (x, y), r, 255, -1)
    return mask


def tray_photo(
    rng: np.random.Generator,
    faces: Sequence[str],
    size: tuple[int, int] = (960, 720),
    die_px: int = 46,
    body: tuple[int, int, int] | None = None,
    tray: tuple[int, int, int] = (185, 190, 195),
    top_shift: float = 0.0,
    setting: Setting | None = None,
) -> SyntheticPhoto:
    """A photo of dice showing ``faces`` on a tray, with realistic degradations. Seen
    from a camera over the tray's middle when ``top_shift`` is above 0: each die's top
    face lies out from its foot by twice ``top_shift`` of the foot's distance from the
    picture's centre, the side between them in view and shaded
    (:data:`vision.boxes.TOP_FACE_SHIFT`); 0, the default, draws flat tiles, as from far
    above. A die's box is its whole outline. The light, tilt and focus are ``setting``'s,
    or drawn for this photo alone (:class:`Setting`); the tray's grain and the camera's
    noise are each photo's own."""
    w, h = size
    base = np.empty((h, w, 3), np.float32)
    base[:] = tray
    base += rng.normal(0, 3, base.shape).astype(np.float32)  # tray texture
    shadow = np.zeros((h, w), np.float32)
    covered = np.zeros((h, w), np.float32)  # where a die lies (shadows fall around it)
    placed: list[SyntheticDie] = []
    margin = die_px
    for face in faces:
        for _ in range(200):
            cx = int(rng.integers(margin, w - margin))
            cy = int(rng.integers(margin, h - margin))
            if all(abs(cx - (d.box[0] + d.box[2] / 2)) > die_px * 1.6
                   or abs(cy - (d.box[1] + d.box[3] / 2)) > die_px * 1.6 for d in placed):
                break
        else:
            raise ValueError("too many dice for the tray")
        colour = body or BODY_COLOURS[int(rng.integers(len(BODY_COLOURS)))]
        tile = draw_face(face, die_px, colour).astype(np.float32)
        mask = rounded_mask(die_px).astype(np.float32) / 255
        tile *= edge_shade(mask)[..., None]
        angle = float(rng.uniform(0, 360))
        m = cv2.getRotationMatrix2D((die_px / 2, die_px / 2), angle, 1.0)
        m[:, 2] += (cx - die_px / 2, cy - die_px / 2)
        rise = (0.0, 0.0)
        if top_shift:
            # the top face, out from the foot (cx, cy) by perspective
            rise = (2 * top_shift * (cx - w / 2), 2 * top_shift * (cy - h / 2))
        # every pixel this die touches (foot, side, top face and shadow) lies in rows `ys`
        # and columns `xs`; outside them each step below would leave the frame as it was
        # (the same pixels as blending the whole frame, a third of the time)
        shadow_px = die_px * 0.12
        ys, xs = _reach(m, die_px, rise, shadow_px, (w, h))
        side = None
        if top_shift:
            side = _swept(mask, m, rise, (w, h), (ys, xs))
            m[:, 2] += rise
        warped = cv2.warpAffine(tile, m, (w, h), flags=cv2.INTER_LINEAR)[ys, xs]
        alpha = cv2.warpAffine(mask, m, (w, h), flags=cv2.INTER_LINEAR)[ys, xs]
        outline = alpha if side is None else np.maximum(side, alpha)
        full = np.zeros((h, w), np.float32)
        full[ys, xs] = outline
        off = np.float32([[1, 0, shadow_px], [0, 1, shadow_px]])
        np.maximum(shadow[ys, xs], cv2.warpAffine(full, off, (w, h))[ys, xs],
                   out=shadow[ys, xs])
        np.maximum(covered[ys, xs], outline, out=covered[ys, xs])
        near = base[ys, xs]
        if side is not None:
            shade = 0.55 * np.float32(colour)  # a side turned from the light
            near = near * (1 - side[..., None]) + shade * side[..., None]
        base[ys, xs] = near * (1 - alpha[..., None]) + warped * alpha[..., None]
        oy, ox = np.nonzero(outline > 0.5)
        x0, y0 = xs.start + int(ox.min()), ys.start + int(oy.min())
        placed.append(SyntheticDie(face, (x0, y0, int(ox.max() - ox.min() + 1),
                                          int(oy.max() - oy.min() + 1))))
    return finish_photo(rng, base, shadow, covered, placed, die_px, setting)


def finish_photo(rng: np.random.Generator, base: np.ndarray, shadow: np.ndarray,
                 covered: np.ndarray, placed: Sequence[SyntheticDie], die_px: int,
                 setting: Setting | None = None) -> SyntheticPhoto:
    """A drawn tray (``base``: float BGR, the dice on it; ``shadow``: where the dice's
    outlines, pushed away from the light, darken it; ``covered``: where the dice lie) made a
    photo: soft shadows, the uneven light, tilt and focus of ``setting`` (drawn for this
    photo when None), and the camera's noise; the ``placed`` dice's boxes moved with the
    tilt."""
    h, w = base.shape[:2]
    size = (w, h)
    shadow = cv2.GaussianBlur(shadow, (0, 0), die_px * 0.15)
    # shadows fall on the tray only, up to each die's outline (dice are drawn over them;
    # until the twenty-eighth session the die's whole box was kept out of the shadow, and
    # its corners stood out unshadowed on a dark tray)
    base *= (1 - 0.45 * shadow * (1 - covered))[..., None]
    # uneven light: a broad gradient and a soft hot spot
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if setting is None:
        setting = Setting.draw(rng, size)
    (gx, gy), (hx, hy) = setting.gradient, setting.hot_spot
    light = 1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    light += 0.15 * np.exp(-(((xx - hx) ** 2 + (yy - hy) ** 2) / (2 * (0.3 * w) ** 2)))
    base *= light[..., None]
    # perspective: a small random tilt of the camera
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    p = cv2.getPerspectiveTransform(src, setting.corners)
    base = cv2.warpPerspective(base, p, (w, h), borderMode=cv2.BORDER_REPLICATE)
    dice = []
    for d in placed:
        x, y, bw, bh = d.box
        corners = np.float32([[[x, y]], [[x + bw, y]], [[x + bw, y + bh]], [[x, y + bh]]])
        moved = cv2.perspectiveTransform(corners, p).reshape(-1, 2)
        x0, y0 = moved.min(axis=0)
        x1, y1 = moved.max(axis=0)
        dice.append(SyntheticDie(d.face, (int(x0), int(y0), int(x1 - x0), int(y1 - y0))))
    base = cv2.GaussianBlur(base, (0, 0), setting.sigma)
    base += rng.normal(0, rng.uniform(2, 6), base.shape).astype(np.float32)
    image = np.clip(base, 0, 255).astype(np.uint8)
    return SyntheticPhoto(image, tuple(dice))


def edge_shade(mask: np.ndarray) -> np.ndarray:
    """The light a die face's pixels get, of its outline ``mask`` (0-1): rounded edges
    catch less, a darker rim inside the outline."""
    rim = cv2.erode(mask, np.ones((3, 3), np.uint8), iterations=max(1, mask.shape[0] // 16))
    return 0.65 + 0.35 * cv2.GaussianBlur(rim, (0, 0), 1.0)


def _reach(m: np.ndarray, die_px: int, rise: tuple[float, float], shadow_px: float,
           size: tuple[int, int]) -> tuple[slice, slice]:
    """The rows and columns of a ``size`` frame that a die's tile, placed by ``m``, can
    touch: its foot, its top face ``rise`` pixels on, the side between them, and its
    shadow ``shadow_px`` down and right; a few pixels more for the bilinear spread."""
    corners = np.float64([[0, 0, 1], [die_px, 0, 1], [die_px, die_px, 1], [0, die_px, 1]])
    foot = corners @ m.T
    spots = np.vstack([foot, foot + rise, foot + rise + shadow_px, foot + shadow_px])
    (x0, y0), (x1, y1) = np.floor(spots.min(axis=0)) - 3, np.ceil(spots.max(axis=0)) + 3
    w, h = size
    return (slice(max(int(y0), 0), min(int(y1), h)), slice(max(int(x0), 0), min(int(x1), w)))


def _swept(mask: np.ndarray, m: np.ndarray, rise: tuple[float, float],
           size: tuple[int, int], near: tuple[slice, slice]) -> np.ndarray:
    """The die's outline placed by ``m`` swept ``rise`` pixels on, a pixel a step: its
    foot and the side that shows between it and the top face, within ``near`` of a
    ``size`` frame (rows and columns holding the whole sweep)."""
    steps = int(np.ceil(np.hypot(*rise))) + 1
    ys, xs = near
    side = np.zeros((ys.stop - ys.start, xs.stop - xs.start), np.float32)
    for k in range(steps):
        step = m.copy()
        step[:, 2] += (rise[0] * k / steps, rise[1] * k / steps)
        warped = cv2.warpAffine(mask, step, size, flags=cv2.INTER_LINEAR)
        np.maximum(side, warped[ys, xs], out=side)
    return side


def lens_for(top_shift: float, die_px: int = 46, width_px: int = 960) -> float:
    """The angle across (degrees) of a lens that shows as much of a die's side at its
    picture's edge as :func:`tray_photo`'s ``top_shift`` does at the edge of a photo
    ``width_px`` wide of dice ``die_px`` across (its defaults): there the top face lies
    ``2 * top_shift * width_px / 2`` px out from the foot, ``tan(A / 2)`` of the die's
    side (a pinhole camera, dice as tall as they are wide;
    ``benchmarks/bench_side_view.py``)."""
    return math.degrees(2 * math.atan(top_shift * width_px / die_px))


def random_faces(rng: np.random.Generator, n: int,
                 faces: Sequence[str] = SEAFALL_FACES) -> list[str]:
    return [faces[int(i)] for i in rng.integers(0, len(faces), n)]


def enrolment_crops(rng: np.random.Generator, per_face: int, size: tuple[int, int] = (960, 720),
                    die_px: int = 46) -> dict[str, list[np.ndarray]]:
    """``per_face`` crops of each SeaFall face, cut from :func:`tray_photo` trays of every
    face twice (of ``size`` and ``die_px``) about each die's drawn box at the reader's
    working scale, as a player enrolls their dice (for ``Profile.from_crops``)."""
    crops: dict[str, list[np.ndarray]] = {f: [] for f in SEAFALL_FACES}
    while min(len(v) for v in crops.values()) < per_face:
        photo = tray_photo(rng, list(SEAFALL_FACES) * 2, size=size, die_px=die_px)
        work = to_work(photo.image)
        for die in photo.dice:
            if len(crops[die.face]) < per_face:
                box = tuple(round(v * work.scale) for v in die.box)
                crops[die.face].append(crop(work.image, box))  # type: ignore[arg-type]
    return crops


def blank_faces(img: np.ndarray, boxes: np.ndarray, rng: np.random.Generator,
                share: float = 0.5) -> None:
    """Wipe the marks off about ``share`` of the dice in a window, in place: the top face's
    pixels far in colour from its body are painted over from around them (OpenCV's
    inpainting), leaving the die's body, shading and sides. The photos hold only pip
    dice; custom dice have faces with no mark at all (SeaFall's blanks), and a die must be
    found by its body, not by its pips. (The body detector and the die-or-not check learn
    from such dice: ``vision/training/train_detector.py --blank``, ``train_dieornot.py``.)"""
    mask = np.zeros(img.shape[:2], np.uint8)
    ycc = cv2.cvtColor(img, cv2.COLOR_BGR2YCrCb).astype(np.float32)
    h, w = mask.shape
    for x, y, bw, bh in boxes:
        if rng.random() >= share:
            continue
        # the top face: the middle of the label box (which also holds the die's sides)
        cx, cy, r = x + bw / 2, y + bh / 2, 0.32 * min(bw, bh)
        x0, x1 = max(int(cx - r), 0), min(int(cx + r) + 1, w)
        y0, y1 = max(int(cy - r), 0), min(int(cy + r) + 1, h)
        if x1 - x0 < 3 or y1 - y0 < 3:
            continue
        face = ycc[y0:y1, x0:x1]
        d = face - np.median(face.reshape(-1, 3), axis=0)
        far = np.sqrt(d[..., 0] ** 2 + 4 * d[..., 1] ** 2 + 4 * d[..., 2] ** 2) > 35
        mask[y0:y1, x0:x1] |= far.astype(np.uint8)
    if mask.any():
        mask = cv2.dilate(mask, np.ones((3, 3), np.uint8))
        img[:] = cv2.inpaint(img, mask, 2, cv2.INPAINT_TELEA)


FLOOR_GRAIN = 12.0
"""How many levels (Lab lightness) lighter than the floor's median a pixel of the floor
may be: the training windows' repaint (the detectors learned with it). A white sheet's
bright grain is lighter still and stays white, specks that a detector may box; the
benchmark's flat floors take 60, so that it goes too."""


def darker_floor(img: np.ndarray, boxes: np.ndarray, rng: np.random.Generator,
                 level: float | None = None, grain: float = FLOOR_GRAIN) -> None:
    """Repaint the tray floor of a window, in place, a random darker colour (grey 25-150,
    tinted: felt, wood, a dark tray), keeping its shading and texture (each channel scaled).
    The d6 photos' floors are all light, and on darker ones the detectors missed dice
    (``docs/vision.md``, *Which tray floor*; ``vision/training/train_detector.py
    --floors``). The floor is what is near the median colour outside the dice's boxes
    (:data:`FLOOR_NEAR`, and at most ``grain`` levels lighter) and joined to it; the middle
    half of each box is kept (a die of the floor's colour keeps its face; the mask's soft
    edge reaches up to three pixels in). ``level``: a flat grey of that level instead of a
    random colour (``benchmarks/bench_tray_floors.py``; nothing is drawn from ``rng``)."""
    h, w = img.shape[:2]
    grown = np.zeros((h, w), np.uint8)
    middle = np.zeros((h, w), np.uint8)
    for x, y, bw, bh in boxes:
        g = 0.15 * max(bw, bh)
        cv2.rectangle(grown, (int(x - g), int(y - g)), (int(x + bw + g), int(y + bh + g)), 1, -1)
        cv2.rectangle(middle, (int(x + bw / 4), int(y + bh / 4)),
                      (int(x + 3 * bw / 4), int(y + 3 * bh / 4)), 1, -1)
    open_floor = grown == 0
    if open_floor.mean() < 0.2:
        return
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2Lab).astype(np.float32)
    floor_lab = np.median(lab[open_floor], axis=0)
    # the floor's colour, lighter by a little or darker by much (its shadows)
    lighter = lab[..., 0] - floor_lab[0]
    near = ((np.abs(lab[..., 1:] - floor_lab[1:]).sum(axis=2) < FLOOR_NEAR)
            & (lighter < grain) & (lighter > -100)).astype(np.uint8)
    _, labels = cv2.connectedComponents(near, connectivity=8)
    joined = np.unique(labels[open_floor & (near > 0)])
    mask = (np.isin(labels, joined[joined > 0]) & (middle == 0)).astype(np.float32)
    mask = cv2.GaussianBlur(mask, (0, 0), 0.7)[..., None]
    floor = np.median(img[open_floor], axis=0).astype(np.float32)
    if level is None:
        target = rng.uniform(25, 150) * np.clip(1 + rng.normal(0, 0.25, 3), 0.4, 1.6)
    else:
        target = np.full(3, float(level))
    repainted = np.clip(img.astype(np.float32) * (target / np.maximum(floor, 1.0)), 0, 255)
    img[:] = (img * (1 - mask) + repainted * mask).astype(np.uint8)


FLOOR_NEAR = 14.0
"""Colour distance (Lab's a and b, summed) within which a pixel is of the floor's colour
(as far as its lightness goes, a little lighter or much darker: its shadows)."""
