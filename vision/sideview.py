"""How much of their sides the dice show under the camera's lens, and how sure a custom-face
die must be read there.

A camera looking straight down sees a die a little from the side, more the further the
die lies from the picture's centre: the share of its height it shows as side is the
tangent of its angle off the lens's axis, ``r * tan(A / 2) / (W / 2)`` for a die ``r``
px from the centre of a picture ``W`` px wide through a lens ``A`` degrees across
(:func:`side_shown`). A Pi camera or a usual webcam with the tray filling its picture
shows 60-70% of a side at the picture's edge, and there the body detector boxes custom
dice off their top face: some marked faces are read as blanks, sure
(``benchmarks/bench_side_view.py``; ``docs/vision.md``, *Dice seen from the side*).
A side misleads another way too: far out, the side facing the centre, pips or marks and
all, is boxed as a die of its own beside the top face, and both are read sure
(:func:`side_pairs`; pip dice drawn as cubes, :mod:`vision.cubes`, and the drawn SeaFall
trays alike). Only a reader told the lens (a
setup's, :attr:`vision.calibration.Calibration.lens_degrees`, or a Pi camera module's own)
reads such dice with more care: the reader cannot tell the lens from the picture.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from vision.boxes import centre
from vision.reading import Box, DieRead
from vision.said import message

SIDE_SURE_FROM: tuple[tuple[float, float], ...] = ((0.3, 0.85), (0.45, 0.95))
"""``(side, confidence)``: a custom-face die showing at least ``side`` of its height as side
(:func:`side_shown`) is read sure only from ``confidence`` (the profile's own scale), the
last band it reaches counting. Placed by ``benchmarks/bench_side_view.py`` (fifty-fifth
session, seed 41, 48 trays a body colour and lens, 984 dice a lens): the dice read wrong
and sure at 45 / 55 / 64° were 0 / 4 / 11, all showing 0.34-0.65 of a side and read at
0.37-0.92; with these bands none is left, for 0.9% / 11.9% / 22.6% of the dice left to
the table that were read sure and right (one band of 0.95 from 0.3 cost 21% / 35% / 42%;
0.85 alone from 0.4 left 3 of 11 at 64°). Straight down and at 24° no die reaches 0.3."""


SIDE_PAIR_FROM = 0.3
"""A die showing at least this share of its height as side (:func:`side_shown`) may have
that side boxed as a die of its own (:func:`side_pairs`): the least any such die showed on
the drawn trays below."""

SIDE_PAIR_WITHIN = 0.9
"""A die's side boxed as a die lies closer to the die's box than this share of the larger
box's side (centre to centre). With :data:`SIDE_PAIR_DEGREES`, placed (fifty-sixth
session) on pip dice drawn as cubes (:mod:`vision.cubes`; seeds 51 and 61, 8 trays a lens
and body colour, the ivory set left out: its pips split it, with no side in it): of the
dice read twice at 45 / 55 / 64 / 72 degrees, 5 of 6, 7 of 7, 20 of 22 and 39 of 40 are
marked with dice never touching, 1 of 3, 6 of 6, 14 of 14 and 31 of 32 with dice lying
side by side, and no die read once. The cost: told a 64 / 72 / 102 degree lens, the d6
photos' train and val dice (taken through a narrow lens: no side is boxed in them) would
have 32 / 40 / 79 of 1,660 marked, dice lying side by side on the way to the centre (0.8
and 30 degrees: 12 / 16 / 24, but on ``bench_side_view --die d6``, seed 41, it left 13
and 32 more dice wrong and sure at 64 and 72 degrees than straight down, against 5 and
19, and 21 and 16 more read where no die lies, against none). On the drawn SeaFall sets
(``bench_side_view``, seeds 41 and 43), with the floor it leaves 0-1 die wrong and sure a
lens from 45 to 72 degrees, where the floor alone left up to 9, and 0-4 read where no die
lies, against up to 164 read."""

SIDE_PAIR_DEGREES = 40.0
"""... and within this angle of the way from the die to the picture's centre (the side a
die shows faces the lens's axis)."""


NOT_A_LENS = message("lens.not_an_angle",
                     "a lens angle is 1-170 degrees across the picture, not {degrees}")


def lens_problem(lens_degrees: float) -> str | None:
    """Why a lens angle is not one (None when it is), in words a page says in its language."""
    if not math.isfinite(lens_degrees) or not 1 <= lens_degrees <= 170:
        return NOT_A_LENS(degrees=f"{lens_degrees:g}")
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


def side_pairs(boxes: list[Box], shape: tuple[int, ...], lens_degrees: float) -> set[int]:
    """Which of the boxes found in a picture of ``shape`` may be a die and its own side
    boxed as another die: far out under a wide lens a die shows much of the side that
    faces the picture's centre, pips or marks and all, and the body detector can box that
    side as a die beside the top face. Such a box lies close to a die's
    (:data:`SIDE_PAIR_WITHIN`), on the way from it to the centre
    (:data:`SIDE_PAIR_DEGREES`), and that die shows much of its side
    (:data:`SIDE_PAIR_FROM`). Two dice lying side by side on that line look the same, so
    both boxes of each such pair are returned, for the table to tell."""
    h, w = shape[:2]
    pairs: set[int] = set()
    for i, outer in enumerate(boxes):
        if side_shown(outer, shape, lens_degrees) < SIDE_PAIR_FROM:
            continue
        (ox, oy), reach = centre(outer), max(outer[2], outer[3])
        inward = math.atan2(h / 2 - oy, w / 2 - ox)
        for j, box in enumerate(boxes):
            cx, cy = centre(box)
            if j == i or math.hypot(cx - ox, cy - oy) >= SIDE_PAIR_WITHIN * max(
                    reach, box[2], box[3]):
                continue
            off = abs((math.atan2(cy - oy, cx - ox) - inward + math.pi) % (2 * math.pi)
                      - math.pi)
            if math.degrees(off) < SIDE_PAIR_DEGREES:
                pairs |= {i, j}
    return pairs


def read_under_lens(dice: Sequence[DieRead], shape: tuple[int, ...], lens_degrees: float,
                    custom: bool) -> list[DieRead]:
    """The dice of a read of a picture of ``shape``, as a reader told the lens leaves
    them: those that may be a die and its own side (:func:`side_pairs`) uncertain, and
    for ``custom`` faces (a profile's reads) those read less sure than the side they show
    asks (:func:`sure_there`) uncertain too."""
    paired = side_pairs([d.box for d in dice], shape, lens_degrees)
    return [d if not d.uncertain and i not in paired and (
        not custom or sure_there(d.confidence, d.box, shape, lens_degrees))
        else replace(d, uncertain=True) for i, d in enumerate(dice)]
