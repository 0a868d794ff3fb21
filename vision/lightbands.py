"""Light that changes in bands across the frame: a flickering lamp seen by a rolling shutter.

A camera with a rolling shutter exposes its rows one after another. Under a lamp that
flickers with the mains (LED and fluorescent lamps dim and brighten 100 or 120 times a
second), rows exposed at a bright moment come out brighter than rows exposed at a dim one:
the frame is crossed by horizontal bands of light, and since the flicker is not locked to
the frame rate they roll up or down from one frame to the next. Brought to the last
frame's brightness as a whole, a still tray then changes everywhere the bands moved, and
the settle detector saw motion that never ends. Each row's light is measured instead (the
median of the row: dice and shadows are a minority of any row of a tray), and a frame is
brought to another row by row when their rows differ by more than the noise
(:data:`BAND_SPREAD`).

The bands run along the sensor's rows: a camera mounted turned a quarter is still banded
along the rows of the picture it gives, since the picture is not turned.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.filters import area_shrunk

PROFILE_WIDTH = 160
"""Width each row's light is measured at (a wider picture is averaged down first)."""

PROFILE_ROWS = 90
"""Rows the light is measured in (a taller picture's are interpolated): bands of light are
broad, a tenth of the frame and more."""

BAND_SPREAD = 0.04
"""Two frames whose row-by-row light ratio spreads over more than this (the highest ratio
less the lowest, the frames' overall ratio taken as 1) differ in bands: a frame's rows are
then each brought to the other's. Below it the rows differ by the camera's noise, a hand
or a die (a few percent of a row), and the frame is brought over as a whole."""

DARK_ROW = 25
"""Rows darker than this (their median grey, in either frame) are not measured: their
ratio is a grey level's step or more in ten (a die of 200 in such a row would be moved
by its error as much as a die's edge), so they take their lighter neighbours' ratio
(bands are broad: a band's dark middle on a dark floor), or the frames' overall ratio
when no row is light enough (a black floor)."""

MOST_GAIN = 2.0
"""Row ratios are held within 1/this..this."""


def row_light(grey: np.ndarray) -> np.ndarray:
    """``float32 (h,)``: the median grey of each row of a grey picture (measured
    :data:`PROFILE_WIDTH` wide and :data:`PROFILE_ROWS` tall, then interpolated back)."""
    h, w = grey.shape[:2]
    small = grey
    if w > PROFILE_WIDTH or h > PROFILE_ROWS:
        size = (min(w, PROFILE_WIDTH), min(h, PROFILE_ROWS))
        small = area_shrunk(grey, size)  # small dice's 640 px look: halved, 4x sooner
    rows = np.median(small, axis=1).astype(np.float32)
    if len(rows) == h:
        return rows
    at = (np.arange(h, dtype=np.float32) + 0.5) * len(rows) / h - 0.5
    return np.interp(at, np.arange(len(rows), dtype=np.float32), rows).astype(np.float32)


def _row_ratio(now: np.ndarray, before: np.ndarray) -> np.ndarray | None:
    """``float32 (h,)``: each row's light in ``before`` over ``now`` (:func:`row_light`),
    dark rows given their lighter neighbours' (:data:`DARK_ROW`), held within
    :data:`MOST_GAIN`; None when no row is light enough, or the heights differ."""
    if now.shape != before.shape or not len(now):
        return None
    ratio = before / np.maximum(now, 1.0)
    light = (now >= DARK_ROW) & (before >= DARK_ROW)
    if not light.any():
        return None
    if not light.all():
        at = np.flatnonzero(light)
        ratio = np.interp(np.arange(len(ratio)), at, ratio[at]).astype(np.float32)
    return np.clip(ratio, 1 / MOST_GAIN, MOST_GAIN)


def band_spread(now: np.ndarray, before: np.ndarray) -> float:
    """How far two pictures' light differs in bands, from their :func:`row_light`: the
    spread of the row-by-row ratio (highest less lowest) over its median; 0 when no row
    is light enough to tell, or the heights differ."""
    ratio = _row_ratio(now, before)
    if ratio is None:
        return 0.0
    return float(ratio.max() - ratio.min()) / float(np.median(ratio))


def row_gains(now: np.ndarray, before: np.ndarray, overall: float) -> np.ndarray | None:
    """``float32 (h, 1)``: what to multiply each row of a picture by to bring it to
    another, from their :func:`row_light` (``now``, ``before``), when they differ in bands
    (:data:`BAND_SPREAD` of ``overall``, the ratio of the whole pictures' brightness);
    None when they do not (``overall`` brings one to the other), when no row is light
    enough to tell, or for pictures of different heights."""
    ratio = _row_ratio(now, before)
    scale = overall if overall > 0 else 1.0
    if ratio is None or float(ratio.max() - ratio.min()) <= BAND_SPREAD * scale:
        return None
    return ratio.reshape(-1, 1)


def frames_band_spread(frames: Sequence[np.ndarray]) -> float:
    """The largest :func:`band_spread` between the first of some frames (BGR or grey, of
    one size) and each other: bands of light rolling across a camera's picture."""
    rows = [row_light(_grey(f)) for f in frames]
    return max((band_spread(r, rows[0]) for r in rows[1:]), default=0.0)


def _grey(frame: np.ndarray) -> np.ndarray:
    """A frame in grey, :data:`PROFILE_WIDTH` wide at most (its rows' light is the same)."""
    h, w = frame.shape[:2]
    if w > PROFILE_WIDTH:
        frame = cv2.resize(frame, (PROFILE_WIDTH, h), interpolation=cv2.INTER_AREA)
    if frame.ndim == 2:
        return frame
    return cv2.cvtColor(frame, cv2.COLOR_BGRA2GRAY if frame.shape[2] == 4
                        else cv2.COLOR_BGR2GRAY)


def to_bands_of(now: np.ndarray, before: np.ndarray) -> np.ndarray:
    """A grey picture brought row by row to another of its size where the two differ in
    bands (:func:`row_gains`), else as it is: two settled frames of a tray, under a
    flickering lamp, compared die by die (:func:`vision.rolls.unchanged` takes out a
    change over each die's place as a whole, not one across it)."""
    rows_now, rows_before = row_light(now), row_light(before)
    overall = float(np.median(rows_before)) / max(float(np.median(rows_now)), 1.0)
    gains = row_gains(rows_now, rows_before, overall)
    return now if gains is None else brought(now, gains)


def brought(grey: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """``uint8``: a grey picture with each row multiplied by its gain (:func:`row_gains`)."""
    return cv2.convertScaleAbs(grey.astype(np.float32) * gains)
