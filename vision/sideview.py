"""How much of their sides the dice show under the camera's lens, and how sure a custom-face
die must be read there.

A camera looking straight down sees a die a little from the side, more the further the
die lies from the picture's centre: the share of its height it shows as side is the
tangent of its angle off the lens's axis, ``r * tan(A / 2) / (W / 2)`` for a die ``r``
px from the centre of a picture ``W`` px wide through a lens ``A`` degrees across
(:func:`side_shown`). A Pi camera or a usual webcam with the tray filling its picture
shows 60-70% of a side at the picture's edge, and there the body detector boxes custom
dice off their top face: some marked faces are read as blanks, sure
(``benchmarks/bench_side_view.py``; ``docs/vision.md``, *Camera height and framing*).
Only a reader told the lens (a setup's, :attr:`vision.calibration.Calibration.lens_degrees`)
reads such dice with more care (:func:`side_sure_from`): the reader cannot tell the lens
from the picture.
"""

from __future__ import annotations

import math

from vision.reading import Box

SIDE_SURE_FROM: tuple[tuple[float, float], ...] = ((0.3, 0.85), (0.45, 0.95))
"""``(side, confidence)``: a custom-face die showing at least ``side`` of its height as side
(:func:`side_shown`) is read sure only from ``confidence`` (the profile's own scale), the
last band it reaches counting. Placed by ``benchmarks/bench_side_view.py`` (fifty-fifth
session, seed 41, 48 trays a body colour and lens, 984 dice a lens): the dice read wrong
and sure at 45 / 55 / 64° were 0 / 4 / 11, all showing 0.34-0.65 of a side and read at
0.37-0.92; with these bands none is left, for 0.9% / 11.9% / 22.6% of the dice left to
the table that were read sure and right (one band of 0.95 from 0.3 cost 21% / 35% / 42%;
0.85 alone from 0.4 left 3 of 11 at 64°). Straight down and at 24° no die reaches 0.3."""


def lens_problem(lens_degrees: float) -> str | None:
    """Why a lens angle is not one (None when it is)."""
    if not math.isfinite(lens_degrees) or not 1 <= lens_degrees <= 170:
        return f"a lens angle is 1-170 degrees across the picture, not {lens_degrees:g}"
    return None


def side_at(reach_px: float, width_px: float, lens_degrees: float) -> float:
    """The share of its height as side a die shows ``reach_px`` from the centre of a
    picture ``width_px`` wide, under a lens ``lens_degrees`` across it: the tangent of its
    angle off the lens's axis (a camera looking straight down; a die as tall as it is
    wide)."""
    return reach_px * math.tan(math.radians(lens_degrees) / 2) / (width_px / 2)


def side_shown(box: Box, shape: tuple[int, ...], lens_degrees: float) -> float:
    """:func:`side_at` of a die boxed ``box`` in a picture of ``shape`` (its box's
    centre)."""
    h, w = shape[:2]
    x, y, bw, bh = box
    return side_at(math.hypot(x + bw / 2 - w / 2, y + bh / 2 - h / 2), w, lens_degrees)


def sure_there(confidence: float, box: Box, shape: tuple[int, ...],
               lens_degrees: float) -> bool:
    """Whether a custom-face die read at ``confidence``, boxed ``box`` in a picture of
    ``shape``, may be read sure under the lens (:func:`side_sure_from` of the side it
    shows): the reader's last step when it knows the lens."""
    return confidence >= side_sure_from(side_shown(box, shape, lens_degrees))


def side_sure_from(side: float) -> float:
    """The least confidence a custom-face die showing ``side`` of its height as side is
    read sure from (:data:`SIDE_SURE_FROM`; 0.0: no more than the profile asks)."""
    floor = 0.0
    for least, confidence in SIDE_SURE_FROM:
        if side >= least:
            floor = confidence
    return floor
