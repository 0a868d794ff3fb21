"""How the reader mends the boxes its detectors give before and after reading the dice in
them: a custom-face die boxed much smaller than the others (a large symbol boxed alone)
grown to their size, a piece of a die boxed whole as well dropped (:func:`grown`), and of
two reads of one die the surer kept (:func:`drop_overlapping`). Each rule was placed on
measured frames; its constant says where."""

from __future__ import annotations

import numpy as np

from vision.boxes import hold_each_other, overlap
from vision.reading import Box, DieRead

SMALL_BOX = 0.75
SMALL_BOX_FROM = 3
PIECE_SHARE = 0.2
"""Custom-face dice (found by their bodies): in a frame of at least SMALL_BOX_FROM dice, a
box whose side is under SMALL_BOX of the frame's median die is cut again at the median
side about the same centre (:func:`grown`). The body detector sometimes boxes a large
symbol on a low-contrast die (an ivory die on a light tray) instead of the die: on the
synthetic SeaFall trays, 97 of 569 dice; the crop of a dark wheel alone looks like a blank
black die, and was read so, sure. On the d6 photos, 3 of 1,618 dice have such a box
(eighth session). Only boxes the die-or-not check kept are grown (a grown box round a
small blob beside a die holds the die, and would pass the check).

A small box with more than PIECE_SHARE of its area inside a box of a die's size is a piece
of that die (the detector boxed part of its side as well as the whole die) and is dropped
instead (thirty-fifth session: on SeaFall enrolled at the table,
``benchmarks/bench_profile_check.py``, 6 profiles reading 480 dice each, 132 boxes were
grown; the 126 that were dice of their own shared at most 0.1 of their area with another
box, and the one piece of a blue standard's dark side 0.29: grown, it held mostly the side,
and 4 of the 6 profiles read it as a second die, blank, sure)."""

OVERLAP_DROP = 0.4
"""A die whose box and a more confident die's box hold each other's centres and share more
than this part of the smaller box is dropped: two candidates on one die (a split piece
beside the whole die). Chosen on train/val among 0.3-0.55: 0.4 cut val's false detections
from 60 to 40 per 100 images and lost no found die on val (train: 0.2 points of recall)."""


def same_die(a: Box, b: Box) -> bool:
    """Each box holds the other's centre (and they overlap by more than OVERLAP_DROP)."""
    return hold_each_other(a, b) and overlap(a, b) > OVERLAP_DROP


def drop_overlapping(dice: list[DieRead]) -> list[DieRead]:
    """The dice, most confident first, without those overlapping a kept one."""
    kept: list[DieRead] = []
    for d in sorted(dice, key=lambda d: (d.uncertain, -d.confidence)):
        if all(not same_die(d.box, k.box) for k in kept):
            kept.append(d)
    return kept


def grown(boxes: list[Box]) -> list[Box | None]:
    """The boxes, each whose side is under SMALL_BOX of the median's made a square of the
    median side about its centre, or ``None`` where it and another box of a die's size
    overlap by more than PIECE_SHARE (:func:`vision.boxes.overlap`: of the smaller box);
    with fewer than SMALL_BOX_FROM boxes, as they are."""
    if len(boxes) < SMALL_BOX_FROM:
        return list(boxes)
    median = float(np.median([max(w, h) for _, _, w, h in boxes]))
    small = [max(w, h) < SMALL_BOX * median for _, _, w, h in boxes]
    whole = [b for b, s in zip(boxes, small, strict=True) if not s]
    out: list[Box | None] = []
    for (x, y, w, h), is_small in zip(boxes, small, strict=True):
        if is_small:
            if any(overlap((x, y, w, h), b) > PIECE_SHARE for b in whole):
                out.append(None)  # a piece of a die boxed whole as well
                continue
            cx, cy = x + w / 2, y + h / 2
            side = round(median)
            x, y, w, h = round(cx - side / 2), round(cy - side / 2), side, side
        out.append((x, y, w, h))
    return out
