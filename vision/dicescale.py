"""The die size a frame is read at, checked against the dice found in it.

The reader brings each frame to a working scale from the die size it is told (a setup's,
``--die-px``) or, untold, from the framing default (:data:`vision.detection.
DEFAULT_DIE_FRACTION` of the picture's short side). The detectors learned dice at about
that scale. Dice much larger than assumed (a phone held close over a few dice) or much
smaller are still boxed, but at the size assumed: a pip or a clump of dice taken for a
die, and read wrong and sure.

The dice a detector finds at the right scale are boxed at about the size assumed: the
median box side over the size is 0.82-1.20 on the d6 val photos read at the framing
default, and 0.84-1.18 read at their labels' size (they include the dice's sides). At a
wrong scale it is not: 1.24-1.77 on those photos cut to 60% about their dice (dice 1.6
times the default), 0.56-0.84 told twice the dice's size. A read whose boxes are off the
size by more than :data:`SIZE_BAND` is read again at sizes toward the boxes'
(:data:`LARGER` or :data:`SMALLER` of the size), and the read whose boxes best fit its own
size is kept (:func:`best_read`).

Measured (sixtieth-ninth... see ``docs/vision.md``, *Dice larger or smaller than the
framing*): the d6 val photos cut about their dice and brought back to 1200 px.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from vision.detection import MIN_DIE_PX, WORK_DIE_PX
from vision.reading import TrayRead
from vision.said import message

SIZES = (1.0, 1.25, 1.6, 2.0, 2.5, 3.2)
"""The die sizes a photo is read at, over the size assumed (:func:`best_read`). None
smaller: read smaller than they are, dice are boxed about their pips, which fit the size
as well as dice do (the d6 val photos cut about their dice read 72 dice right with
0.8 and 0.62 tried too, against 119)."""

SMALLER = (0.8, 0.62, 0.5, 0.4, 0.31)
"""The die sizes also tried, over the size told, when a reader was told one that the dice
may not have (:func:`best_read` with ``told``): a size told too large boxes clumps of
dice as dice, and reads them sure."""

SMALLEST = max(MIN_DIE_PX, WORK_DIE_PX / 2)
"""The least die size tried: the reader enlarges a frame at most twice
(:func:`vision.detection.to_work`), and a smaller size reads a large photo at its largest
(seconds a read)."""


def box_fit(read: TrayRead, die_px: float) -> float | None:
    """The median box side of a read's dice over the die size it was read at; None for a
    read with no dice."""
    if not read.dice:
        return None
    return float(np.median([max(d.box[2], d.box[3]) for d in read.dice])) / die_px


def best_read(read_at: Callable[[float], TrayRead], die_px: float, short_side: int,
              first: TrayRead, told: bool = False) -> tuple[TrayRead, float]:
    """The read, and the die size it was read at, whose boxes best fit that size (their
    median side over it nearest 1) of ``first`` (read at ``die_px``) and the reads at the
    other :data:`SIZES` times ``die_px`` (``read_at(size)`` reads the frame at a size),
    and :data:`SMALLER` times it too when the size was ``told``; none under
    :data:`SMALLEST` or past a third of the picture's short side. ``first`` when no read
    found a die."""
    best: tuple[float, TrayRead, float] | None = None
    for factor in (*SIZES, *SMALLER) if told else SIZES:
        size = die_px * factor
        if factor != 1.0 and not SMALLEST <= size <= short_side / 3:
            continue
        read = first if factor == 1.0 else read_at(size)
        fit = box_fit(read, size)
        if fit is not None and (best is None or abs(math.log(fit)) < best[0]):
            best = (abs(math.log(fit)), read, size)
    return (first, die_px) if best is None else (best[1], best[2])


TOLD_SIZE_WRONG = message(
    "vision.told_size_wrong",
    "the dice found are not {px} px across, the die size the reader was given (the setup's, "
    "or --die-px), so every die is marked uncertain; calibrate the tray again if the camera "
    "has moved, or leave the die size out")


def told_size_wrong(read: TrayRead, told: float) -> TrayRead:
    """A read at the die size that fits its dice best when the reader was told another
    (``told``: a setup's, or ``--die-px``): every die marked uncertain, with a warning
    (the camera was moved since the tray was calibrated, or the size given is for other
    photos)."""
    dice = tuple(replace(d, confidence=min(d.confidence, 0.2), uncertain=True)
                 for d in read.dice)
    return replace(read, dice=dice,
                   warnings=(*read.warnings, TOLD_SIZE_WRONG(px=round(told))))
