"""Synthetic surroundings for frames of a tray: a wooden floor, a wooden table round the
tray, a warm lamp's light, a flickering lamp's bands.

Wood, cork and a light tray under a lamp are skin-coloured to a camera, which is where a
hand told by its colour goes wrong (:mod:`vision.hands`), and a lamp flickering with the
mains bands a rolling shutter's frames (:mod:`vision.lightbands`). The d6 photos and the
recorded roll sequences show light, neutral floors under steady light only, so the tests,
``benchmarks/bench_hands.py`` and ``benchmarks/bench_flicker.py`` put them in these
instead. Each function returns a new image and draws nothing at random.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

WOODS: dict[str, tuple[int, int, int]] = {
    "pine": (120, 170, 210),
    "oak": (80, 130, 180),
    "cork": (90, 140, 190),
    "walnut": (45, 75, 110),
}
"""Wood and cork colours (BGR), as a camera balanced for daylight sees them."""

LAMPS: dict[str, tuple[float, float, float]] = {
    "warm lamp": (0.72, 0.90, 1.08),
    "strong warm lamp": (0.60, 0.85, 1.10),
    "harsh warm lamp": (0.55, 0.90, 1.35),
}
"""A warm lamp's cast (each of B, G, R scaled), left by a camera's white balance: a light
grey tray under it is skin-coloured. Under the harsh one its red clips, and the tray lies on
the skin range's edge, part in and part out (:func:`vision.hands.floor_coloured`)."""

FLOOR_NEAR = 12.0
"""A pixel is the floor when its colour (Lab a and b, summed) lies this near the picture's
median colour, and it is not much darker (a shadow on the floor is floor)."""


def _grain(h: int, w: int) -> np.ndarray:
    """``(h, w)`` float32 about 1: wood's grain, wavy bands across the picture."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    return 1 + 0.08 * np.sin(yy / 7.0 + 3 * np.sin(xx / 90.0)) + 0.04 * np.sin(yy / 2.3)


@functools.lru_cache(maxsize=4)
def _wood(h: int, w: int, colour: tuple[int, int, int]) -> np.ndarray:
    """``(h, w, 3)`` float32: wood of ``colour`` with its grain. Read-only, and made once
    for a few sizes and colours (a test or bench puts every frame of a roll in it)."""
    wood = np.array(colour, np.float32) * _grain(h, w)[..., None]
    wood.flags.writeable = False
    return wood


@functools.lru_cache(maxsize=4)
def _wood_pixels(h: int, w: int, colour: tuple[int, int, int]) -> np.ndarray:
    """:func:`_wood` as a picture's pixels (uint8), read-only."""
    pixels = np.clip(_wood(h, w, colour), 0, 255).astype(np.uint8)
    pixels.flags.writeable = False
    return pixels


def floor_mask(image: np.ndarray) -> np.ndarray:
    """``(h, w)`` float32 0..1: the tray floor of a BGR picture, a light neutral floor's
    pixels (near its median colour, :data:`FLOOR_NEAR`), its edge softened."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab).astype(np.float32)
    median = np.median(lab.reshape(-1, 3), axis=0)
    near = np.abs(lab[..., 1:] - median[1:]).sum(axis=2) < FLOOR_NEAR
    mask = (near & (lab[..., 0] > median[0] - 90)).astype(np.float32)
    return cv2.GaussianBlur(mask, (0, 0), 1.0)


def wooden_floor(image: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    """The picture with its floor (:func:`floor_mask`) made wood of ``colour``, its
    shading (the dice's shadows, the light's fall-off) kept."""
    h, w = image.shape[:2]
    mask = floor_mask(image)[..., None]
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    shade = (grey / max(float(np.median(grey)), 1.0))[..., None]
    wood = _wood(h, w, tuple(colour)) * shade
    out = image.astype(np.float32) * (1 - mask) + wood * mask
    return np.clip(out, 0, 255).astype(np.uint8)


def wooden_border(image: np.ndarray, colour: tuple[int, int, int],
                  share: float = 0.08) -> np.ndarray:
    """The picture with a wooden table of ``colour`` in view along its top, left and right
    edges, ``share`` of its height deep: a camera framing a tray loosely (the bottom
    edge, where the players sit and hands reach in from, is left as it is)."""
    h, w = image.shape[:2]
    deep = max(1, round(share * h))
    wood = _wood_pixels(h, w, tuple(colour))
    out = image.copy()
    for edge in (np.s_[:deep], np.s_[:, :deep], np.s_[:, -deep:]):
        out[edge] = wood[edge]
    return out


def lamp_light(image: np.ndarray, cast: tuple[float, float, float]) -> np.ndarray:
    """The picture under a lamp of ``cast`` (B, G, R scaled: :data:`LAMPS`)."""
    out = image.astype(np.float32) * np.array(cast, np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def flicker_bands(image: np.ndarray, depth: float, phase: float,
                  cycles: float = 4.0) -> np.ndarray:
    """The picture under a lamp flickering with the mains, seen by a rolling shutter
    (:mod:`vision.lightbands`): its rows brightened and dimmed by up to ``depth`` (0.1 is
    10%) in ``cycles`` bands down the picture, shifted by ``phase`` (in cycles; a camera's
    frames show the bands rolling, so each next frame's phase differs)."""
    h = image.shape[0]
    rows = np.arange(h, dtype=np.float32) / h
    gain = 1 + depth * np.sin(2 * np.pi * (cycles * rows + phase))
    shape = (h, 1, 1) if image.ndim == 3 else (h, 1)
    out = image.astype(np.float32) * gain.reshape(shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)
