"""A worse camera than the d6 photos' own, as functions of a frame: blurred, smeared,
compressed, noisy, dark, bright, tinted; at the reader's working scale (a die about 40 px).

Named in :data:`DEGRADATIONS` for the measures that read the photos under them
(``benchmarks/bench_degraded.py`` on the light floor as shot, :mod:`calibrate_dark` on
repainted dark floors): docs/vision.md, *What a worse camera costs*. The face networks'
training draws its worse-camera dice from the same pieces (``train_pips.worse_camera``,
at random strengths and angles). Each takes the frame and a random generator (used by
the noise) and returns a new frame.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

Degrade = Callable[[np.ndarray, np.random.Generator], np.ndarray]


def _clip(x: np.ndarray) -> np.ndarray:
    return np.clip(x, 0, 255).astype(np.uint8)


def blur(sigma: float) -> Degrade:
    return lambda im, rng: cv2.GaussianBlur(im, (0, 0), sigma)


def motion(n: int, angle: float | None = None) -> Degrade:
    """Smeared over ``n`` px: sideways, or turned ``angle`` degrees (a camera shaken)."""
    kernel = np.zeros((n, n), np.float32)
    kernel[n // 2, :] = 1.0
    if angle is not None:
        turn = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), angle, 1.0)
        kernel = cv2.warpAffine(kernel, turn, (n, n))
    kernel = kernel / max(float(kernel.sum()), 1e-6)
    return lambda im, rng: cv2.filter2D(im, -1, kernel)


def jpeg(quality: int) -> Degrade:
    return lambda im, rng: cv2.imdecode(
        cv2.imencode(".jpg", im, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


def noise(sigma: float) -> Degrade:
    return lambda im, rng: _clip(im.astype(np.float32) + rng.normal(0, sigma, im.shape))


def gain(g: float) -> Degrade:
    return lambda im, rng: _clip(im.astype(np.float32) * g)


def tint(blue: float, red: float) -> Degrade:
    return lambda im, rng: _clip(im.astype(np.float32) * np.array([blue, 1.0, red]))


def both(first: Degrade, then: Degrade) -> Degrade:
    return lambda im, rng: then(first(im, rng), rng)


DEGRADATIONS: dict[str, Degrade] = {
    "none": lambda im, rng: im,
    "blur1": blur(1.0), "blur1.5": blur(1.5), "blur2": blur(2.0), "blur3": blur(3.0),
    "motion3": motion(3), "motion5": motion(5), "motion7": motion(7), "motion13": motion(13),
    "motion5@45": motion(5, 45), "motion7@45": motion(7, 45), "motion7@90": motion(7, 90),
    "jpeg90": jpeg(90), "jpeg75": jpeg(75), "jpeg50": jpeg(50), "jpeg30": jpeg(30),
    "jpeg15": jpeg(15),
    "noise8": noise(8), "noise16": noise(16), "noise25": noise(25),
    "blur2+noise12": both(blur(2.0), noise(12)), "blur1.5+jpeg50": both(blur(1.5), jpeg(50)),
    "dark0.35": gain(0.35), "dark0.2": gain(0.2), "bright1.6": gain(1.6),
    "bright2.2": gain(2.2), "warm": tint(0.6, 1.25), "cold": tint(1.3, 0.7),
}
