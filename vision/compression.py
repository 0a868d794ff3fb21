"""How hard a camera JPEG-compresses its frames, read from a decoded frame alone.

Most USB webcams send 1280x720 as MJPG (:data:`vision.sources.CAMERA_SIZE`), a JPEG per
frame, at a quality of their own. Compressed hard, a die's pips blur into blocks, and the
face networks are then sure of some wrong faces (``docs/vision.md``, *What a worse camera
costs*): the calibration says so (:data:`vision.calibration.JPEG_ADVICE_BELOW`), as it
says when the picture is out of focus.

A JPEG stores each 8x8 block of the picture's brightness as cosine waves whose strengths
are rounded to a multiple of a step, larger the harder it compresses. Decoded, the
frame's blocks (on the frame's own 8-pixel grid) still hold those strengths, give or take
the rounding of the pixels: so the step of the two lowest waves (across and down) is the
one whose multiples the strengths cluster on (:func:`jpeg_steps`). An uncompressed frame,
or one scaled after it was decoded, shows no such lattice. The steps are turned into the
quality of the common JPEG library's scale (:func:`jpeg_quality`; a camera's own tables
may differ a little, so it is an estimate).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import cv2
import numpy as np

__all__ = ["LATTICE", "MAX_STEP", "MIN_STRENGTHS", "frames_jpeg_quality", "jpeg_quality",
           "jpeg_steps"]

MAX_STEP = 40
"""The largest step looked for (a JPEG quality of about 14 on the library's scale)."""

MIN_STRENGTHS = 50
"""The fewest block strengths (away from the zero step) that a step is judged on: a flat,
empty frame has too few to tell. (Strengths in no lattice cluster by chance at a mean
cosine of about 0.1 for 50 of them, far under :data:`LATTICE`.)"""

LATTICE = 0.6
"""How closely the strengths must cluster on a step's multiples (the mean cosine of their
phase on it, 1 when exactly on) for the frame to count as compressed with that step.
Measured (fifty-first session, ``docs/vision.md``, *A camera that compresses hard*): real
photos, their empty trays and synthetic trays at 1280x720 compressed at qualities 85-15
cluster at 0.67-1.00 on their true step, at 90 at 0.52-0.67 (seen about half the time),
and the d6 photos as shot (quality about 87) at 0.73-0.78; uncompressed or at 95, at
most 0.13 on any step."""

_BASES = (11.0, 12.0)
"""The steps of the two lowest waves (across, down) at quality 50 in the JPEG standard's
example table for brightness, which the common library scales with its quality."""


@cache
def _waves() -> np.ndarray:
    """``(64, 2)``: the 8x8 cosine waves of the lowest frequency across and down (the JPEG
    transform's, orthonormal), so that a block's strengths are one product."""
    x = np.arange(8)
    wave = np.sqrt(2 / 8) * np.cos((2 * x + 1) * np.pi / 16)
    flat = np.full(8, np.sqrt(1 / 8))
    return np.stack([np.outer(flat, wave).ravel(), np.outer(wave, flat).ravel()],
                    axis=1).astype(np.float32)


def jpeg_steps(frame: np.ndarray) -> tuple[int | None, int | None]:
    """The rounding steps of a frame's two lowest block waves (across, down) if it was
    JPEG-compressed on its own 8-pixel grid; None for a wave that shows none (the frame
    uncompressed, scaled after it was decoded, compressed so lightly that the step is 1,
    or too flat to tell: a flat frame compressed hard keeps few strengths off zero, often
    in one direction only). ``frame``: BGR or grey."""
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape[0] // 8 * 8, grey.shape[1] // 8 * 8
    if not h or not w:
        return None, None
    blocks = grey[:h, :w].astype(np.float32).reshape(h // 8, 8, w // 8, 8)
    strengths = blocks.transpose(0, 2, 1, 3).reshape(-1, 64) @ _waves()   # (blocks, 2)
    steps: list[int | None] = []
    for column in strengths.T:
        size = np.abs(column)
        best, best_score = 0, LATTICE
        for step in range(2, MAX_STEP + 1):
            # strengths rounded to zero fit every step: only those half a step or more away
            away = column[size >= step / 2]
            if len(away) < MIN_STRENGTHS:
                break  # larger steps leave fewer still
            score = float(np.cos(2 * np.pi / step * away).mean())
            if score > best_score:
                best, best_score = step, score
        steps.append(best or None)
    return steps[0], steps[1]


def jpeg_quality(frame: np.ndarray) -> int | None:
    """The frame's JPEG quality (1-100, the common JPEG library's scale) estimated from
    :func:`jpeg_steps` (the mean of its two waves', or the one that shows a step), or
    None when it shows no JPEG compression (or quality above about 90, where the steps
    are 1)."""
    qualities = []
    for step, base in zip(jpeg_steps(frame), _BASES, strict=True):
        if step is None:
            continue
        scale = 100 * step / base  # the library: scale = 5000 / q under 50, 200 - 2q above
        qualities.append(5000 / scale if scale > 100 else (200 - scale) / 2)
    if not qualities:
        return None
    return int(round(min(max(float(np.mean(qualities)), 1.0), 100.0)))


def frames_jpeg_quality(frames: Sequence[np.ndarray]) -> int | None:
    """The median :func:`jpeg_quality` of a camera's frames, or None when fewer than half
    of them show JPEG compression."""
    found = [q for q in (jpeg_quality(f) for f in frames) if q is not None]
    if not found or 2 * len(found) < len(frames):
        return None
    return int(round(float(np.median(found))))
