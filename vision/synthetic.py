"""Synthetic photos of symbol dice (SeaFall's blank, standard, weak, strong) on a tray.

No labelled photos of SeaFall dice exist, so tests of the custom-face path use these:
each face is drawn as a distinct symbol on a rounded die body, dice are placed at random
angles without overlapping, and the photo gets perspective, blur, noise, uneven light and
soft shadows. Everything comes from an injected ``numpy.random.Generator``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.faces import SEAFALL_FACES
from vision.reading import Box

BODY_COLOURS = ((40, 40, 160), (200, 200, 200), (30, 30, 30), (150, 90, 30))
"""BGR die bodies: red, ivory, black, blue."""


def draw_face(label: str, size: int, body: tuple[int, int, int]) -> np.ndarray:
    """One die face, ``size`` px square, with the symbol of a SeaFall face label."""
    img = np.zeros((size, size, 3), np.uint8)
    img[:] = body
    ink = (235, 235, 235) if sum(body) < 300 else (25, 25, 25)
    c = size // 2
    t = max(2, size // 12)
    if label == "blank":
        pass
    elif label == "standard":  # a ship's wheel: ring and spokes
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


def _rounded_mask(size: int) -> np.ndarray:
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
) -> SyntheticPhoto:
    """A photo of dice showing ``faces`` on a tray, with realistic degradations."""
    w, h = size
    base = np.empty((h, w, 3), np.float32)
    base[:] = tray
    base += rng.normal(0, 3, base.shape).astype(np.float32)  # tray texture
    shadow = np.zeros((h, w), np.float32)
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
        mask = _rounded_mask(die_px).astype(np.float32) / 255
        # rounded edges catch less light: a darker rim inside the outline
        rim = cv2.erode(mask, np.ones((3, 3), np.uint8), iterations=max(1, die_px // 16))
        tile *= (0.65 + 0.35 * cv2.GaussianBlur(rim, (0, 0), 1.0))[..., None]
        angle = float(rng.uniform(0, 360))
        m = cv2.getRotationMatrix2D((die_px / 2, die_px / 2), angle, 1.0)
        m[:, 2] += (cx - die_px / 2, cy - die_px / 2)
        warped = cv2.warpAffine(tile, m, (w, h), flags=cv2.INTER_LINEAR)
        alpha = cv2.warpAffine(mask, m, (w, h), flags=cv2.INTER_LINEAR)
        off = np.float32([[1, 0, die_px * 0.12], [0, 1, die_px * 0.12]])
        shadow = np.maximum(shadow, cv2.warpAffine(alpha, off, (w, h)))
        base = base * (1 - alpha[..., None]) + warped * alpha[..., None]
        ys, xs = np.nonzero(alpha > 0.5)
        placed.append(SyntheticDie(face, (int(xs.min()), int(ys.min()),
                                          int(xs.max() - xs.min() + 1),
                                          int(ys.max() - ys.min() + 1))))
    shadow = cv2.GaussianBlur(shadow, (0, 0), die_px * 0.15)
    # shadows fall on the tray only (dice are drawn over them)
    covered = np.zeros((h, w), np.float32)
    for d in placed:
        x, y, bw, bh = d.box
        covered[y : y + bh, x : x + bw] = 1
    base *= (1 - 0.45 * shadow * (1 - covered))[..., None]
    # uneven light: a broad gradient and a soft hot spot
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-0.25, 0.25, 2)
    light = 1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    hx, hy = rng.uniform(0, w), rng.uniform(0, h)
    light += 0.15 * np.exp(-(((xx - hx) ** 2 + (yy - hy) ** 2) / (2 * (0.3 * w) ** 2)))
    base *= light[..., None]
    # perspective: a small random tilt of the camera
    jitter = 0.03 * min(w, h)
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = src + rng.uniform(-jitter, jitter, (4, 2)).astype(np.float32)
    p = cv2.getPerspectiveTransform(src, dst)
    base = cv2.warpPerspective(base, p, (w, h), borderMode=cv2.BORDER_REPLICATE)
    dice = []
    for d in placed:
        x, y, bw, bh = d.box
        corners = np.float32([[[x, y]], [[x + bw, y]], [[x + bw, y + bh]], [[x, y + bh]]])
        moved = cv2.perspectiveTransform(corners, p).reshape(-1, 2)
        x0, y0 = moved.min(axis=0)
        x1, y1 = moved.max(axis=0)
        dice.append(SyntheticDie(d.face, (int(x0), int(y0), int(x1 - x0), int(y1 - y0))))
    sigma = float(rng.uniform(0.4, 1.2))
    base = cv2.GaussianBlur(base, (0, 0), sigma)
    base += rng.normal(0, rng.uniform(2, 6), base.shape).astype(np.float32)
    image = np.clip(base, 0, 255).astype(np.uint8)
    return SyntheticPhoto(image, tuple(dice))


def random_faces(rng: np.random.Generator, n: int,
                 faces: Sequence[str] = SEAFALL_FACES) -> list[str]:
    return [faces[int(i)] for i in rng.integers(0, len(faces), n)]
