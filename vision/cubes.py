"""Synthetic photos of pip d6 drawn as cubes seen through a pinhole camera's lens.

:func:`vision.synthetic.tray_photo` draws symbol dice as flat tiles, their side in view a
plain sweep. A pip die's sides carry pips too, and under a wide lens a die far out in the
picture shows much of one or two of them: pips the reader could count as the top face's.
Here each die is a unit cube on the tray in one of its 24 orientations (opposite faces
summing to 7) turned about the vertical at random; the camera hangs over the picture's
centre at the height that shows a die there ``die_px`` across with a lens ``lens_degrees``
across the picture's width, and each face it sees (the top, and the one or two sides that
face it) is drawn through the lens, its pips with it. The sides, turned from the light, are
darker than the top. The light, tilt, focus and noise are
:func:`vision.synthetic.finish_photo`'s. ``benchmarks/bench_side_view.py --die d6``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import cache

import cv2
import numpy as np

from vision.synthetic import (
    BODY_COLOURS,
    Setting,
    SyntheticDie,
    SyntheticPhoto,
    edge_shade,
    finish_photo,
    rounded_mask,
)

TEXTURE_PX = 64
"""A face's drawing, before it is laid through the lens."""

PIPS: dict[str, tuple[tuple[float, float], ...]] = {
    "1": ((0.5, 0.5),),
    "2": ((0.27, 0.27), (0.73, 0.73)),
    "3": ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    "4": ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    "5": ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    "6": ((0.27, 0.27), (0.73, 0.27), (0.27, 0.5), (0.73, 0.5), (0.27, 0.73), (0.73, 0.73)),
}
"""Each face's pips, as fractions of the face across and down."""

# the die's own frame: which face looks along each axis (opposite faces sum to 7), and the
# directions across and down its drawing
_FACES = {(0, 0, 1): "1", (0, 0, -1): "6", (1, 0, 0): "2", (-1, 0, 0): "5",
          (0, 1, 0): "3", (0, -1, 0): "4"}
_ACROSS = {(0, 0, 1): (1, 0, 0), (0, 0, -1): (1, 0, 0), (1, 0, 0): (0, 1, 0),
           (-1, 0, 0): (0, 1, 0), (0, 1, 0): (1, 0, 0), (0, -1, 0): (1, 0, 0)}

SIDE_LIGHT = (0.5, 0.8)
"""How much of the top face's light a side gets, from turned away from the light to
turned towards it."""


@cache
def orientations() -> tuple[np.ndarray, ...]:
    """The 24 ways a cube can rest: the rotations among the axes' signed permutations."""
    found = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            r = np.zeros((3, 3))
            for row, (col, sign) in enumerate(zip(perm, signs, strict=True)):
                r[row, col] = sign
            if np.linalg.det(r) > 0:
                found.append(r)
    return tuple(found)


def top_face(rotation: np.ndarray) -> str:
    """The face a die resting in ``rotation`` (die frame to world) shows on top."""
    return next(face for axis, face in _FACES.items()
                if np.allclose(rotation @ np.array(axis, float), (0, 0, 1)))


@cache
def resting_with(face: str) -> tuple[np.ndarray, ...]:
    """The 4 of :func:`orientations` that show ``face`` on top."""
    return tuple(r for r in orientations() if top_face(r) == face)


def pip_face(label: str, body: tuple[int, int, int], px: int = TEXTURE_PX) -> np.ndarray:
    """A d6 face ``px`` square: its pips in the ink that stands out on ``body``."""
    img = np.zeros((px, px, 3), np.uint8)
    img[:] = body
    ink = (235, 235, 235) if sum(body) < 300 else (25, 25, 25)
    for fx, fy in PIPS[label]:
        cv2.circle(img, (round(fx * px), round(fy * px)), round(0.085 * px), ink, -1,
                   cv2.LINE_AA)
    return img


def camera_height(lens_degrees: float, die_px: int, width_px: int) -> tuple[float, float]:
    """The focal length (px) of a lens ``lens_degrees`` across a picture ``width_px``
    wide, and the height (in die sides) from which it shows a die's top face under it
    ``die_px`` across."""
    if not 0 < lens_degrees < 170:
        raise ValueError(f"a lens of {lens_degrees} degrees: give 0-170")
    focal = width_px / 2 / math.tan(math.radians(lens_degrees) / 2)
    return focal, 1 + focal / die_px


def cube_photo(
    rng: np.random.Generator,
    faces: Sequence[str],
    lens_degrees: float,
    size: tuple[int, int] = (960, 720),
    die_px: int = 46,
    body: tuple[int, int, int] | None = None,
    tray: tuple[int, int, int] = (185, 190, 195),
    setting: Setting | None = None,
    apart: float = 1.6,
) -> SyntheticPhoto:
    """A photo of pip d6 showing ``faces`` on top, lying on a tray filling the picture of
    a lens ``lens_degrees`` across its width; each die's box is its whole outline (top
    and sides), as :func:`vision.synthetic.tray_photo`'s. The dice's feet lie more than
    ``apart`` dice apart across or down (1.6: never touching; from about 1.05, dice side
    by side, a die turned by much may cut into its neighbour)."""
    w, h = size
    focal, height = camera_height(lens_degrees, die_px, w)
    base = np.empty((h, w, 3), np.float32)
    base[:] = tray
    base += rng.normal(0, 3, base.shape).astype(np.float32)
    shadow = np.zeros((h, w), np.float32)
    covered = np.zeros((h, w), np.float32)
    light = rng.uniform(0, 2 * math.pi)  # where the light comes from, across the tray
    placed: list[SyntheticDie] = []
    feet: list[tuple[int, int]] = []
    for face in faces:
        for _ in range(200):  # the foot's centre in the picture, clear of the others
            cx = int(rng.integers(die_px, w - die_px))
            cy = int(rng.integers(die_px, h - die_px))
            if all(max(abs(cx - x), abs(cy - y)) > die_px * apart for x, y in feet):
                break
        else:
            raise ValueError("too many dice for the tray")
        feet.append((cx, cy))
        rests = resting_with(face)
        turn = rng.uniform(0, 2 * math.pi)
        c, s = math.cos(turn), math.sin(turn)
        rotation = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]]) @ rests[
            int(rng.integers(len(rests)))]
        colour = body or BODY_COLOURS[int(rng.integers(len(BODY_COLOURS)))]
        centre = np.array([(cx - w / 2) * height / focal, (cy - h / 2) * height / focal, 0.5])
        # drawn in a patch about the die (its corners seen, and room for its shadow)
        seen = np.array([_seen(centre + rotation @ np.array(corner, float) / 2, focal, height,
                               size) for corner in itertools.product((-1, 1), repeat=3)])
        pad = math.ceil(die_px * 0.12) + 4
        x0, y0 = np.maximum(np.floor(seen.min(axis=0)).astype(int) - pad, 0)
        x1, y1 = np.minimum(np.ceil(seen.max(axis=0)).astype(int) + pad, (w, h))
        patch = (int(x1 - x0), int(y1 - y0))
        region = base[y0:y1, x0:x1]
        outline = np.zeros(patch[::-1], np.float32)
        foot = None
        for axis, label in sorted(_FACES.items(), key=lambda f: _faces_up(rotation, f[0])):
            normal = rotation @ np.array(axis, float)
            middle = centre + normal / 2
            across = rotation @ np.array(_ACROSS[axis], float)
            quad = np.float32([np.subtract(_seen(p, focal, height, size), (x0, y0))
                               for p in _corners(middle, across, normal)])
            if normal[2] < -0.5:  # the bottom: its outline is the die's shadow's
                foot = quad
                continue
            if np.dot(normal, np.array([0, 0, height]) - middle) <= 0:
                continue  # turned away from the camera
            shade = 1.0 if normal[2] > 0.5 else SIDE_LIGHT[0] + (
                SIDE_LIGHT[1] - SIDE_LIGHT[0]) * max(
                0.0, math.cos(math.atan2(normal[1], normal[0]) - light))
            tile = pip_face(label, colour).astype(np.float32) * (
                shade * _EDGE_SHADE)[..., None]
            m = cv2.getPerspectiveTransform(_TEXTURE_CORNERS, quad)
            alpha = cv2.warpPerspective(_MASK, m, patch, flags=cv2.INTER_LINEAR)
            drawn = cv2.warpPerspective(tile, m, patch, flags=cv2.INTER_LINEAR)
            region[:] = region * (1 - alpha[..., None]) + drawn * alpha[..., None]
            outline = np.maximum(outline, alpha)
        assert foot is not None
        footprint = np.zeros_like(outline)
        cv2.fillConvexPoly(footprint, np.int32(np.round(foot)), 1.0, cv2.LINE_AA)
        off = np.float32([[1, 0, die_px * 0.12 * math.cos(light + math.pi)],
                          [0, 1, die_px * 0.12 * math.sin(light + math.pi)]])
        cast = cv2.warpAffine(np.maximum(footprint, outline), off, patch)
        np.maximum(shadow[y0:y1, x0:x1], cast, out=shadow[y0:y1, x0:x1])
        np.maximum(covered[y0:y1, x0:x1], outline, out=covered[y0:y1, x0:x1])
        ys, xs = np.nonzero(outline > 0.5)
        placed.append(SyntheticDie(face, (int(x0 + xs.min()), int(y0 + ys.min()),
                                          int(xs.max() - xs.min() + 1),
                                          int(ys.max() - ys.min() + 1))))
    return finish_photo(rng, base, shadow, covered, placed, die_px, setting)


TRAINING_LENSES = (10.0, 80.0)
"""The lens angles (degrees across) :func:`random_tray` spreads its trays over: straight
down to a wide webcam's, the tray filling the picture."""


def random_tray(rng: np.random.Generator, die_px: int = 46,
                lenses: tuple[float, float] = TRAINING_LENSES) -> SyntheticPhoto:
    """A tray of 1-15 pip d6 showing random faces, drawn through a lens of a random angle
    of ``lenses``: body colours drawn die by die, the dice apart or side by side (1.05-1.6
    dice between their feet), on a grey floor of 90-225 with a slight tint; the detector
    learns from such trays (``train_detector --cubes``). Dice that will not fit side by
    side are drawn again, fewer or further apart."""
    while True:
        grey = rng.uniform(90, 225)
        tray = tuple(int(np.clip(grey + v, 0, 255)) for v in rng.normal(0, 12, 3))
        faces = [str(f) for f in rng.integers(1, 7, int(rng.integers(1, 16)))]
        try:
            return cube_photo(rng, faces, float(rng.uniform(*lenses)), die_px=die_px,
                              tray=tray, apart=float(rng.uniform(1.05, 1.6)))  # type: ignore[arg-type]
        except ValueError:  # no room left for the last dice: draw the tray again
            continue


_TEXTURE_CORNERS = np.float32([[0, 0], [TEXTURE_PX, 0], [TEXTURE_PX, TEXTURE_PX],
                               [0, TEXTURE_PX]])
_MASK = rounded_mask(TEXTURE_PX).astype(np.float32) / 255
_EDGE_SHADE = edge_shade(_MASK)


def _faces_up(rotation: np.ndarray, axis: tuple[int, int, int]) -> float:
    """Sides before the top: the top is drawn last, over the sides' rounded edges."""
    return float((rotation @ np.array(axis, float))[2])


def _corners(middle: np.ndarray, across: np.ndarray, normal: np.ndarray) -> list[np.ndarray]:
    """A face's corners in its drawing's order (top left, top right, bottom right, bottom
    left), from its middle, its across direction and its outward normal."""
    down = np.cross(normal, across)
    return [middle + (-across - down) / 2, middle + (across - down) / 2,
            middle + (across + down) / 2, middle + (-across + down) / 2]


def _seen(point: np.ndarray, focal: float, height: float,
          size: tuple[int, int]) -> tuple[float, float]:
    """Where a point on or over the tray (in die sides, the tray at 0) lands in the
    picture of a camera ``height`` over the picture's centre."""
    depth = height - point[2]
    return (size[0] / 2 + focal * point[0] / depth, size[1] / 2 + focal * point[1] / depth)

