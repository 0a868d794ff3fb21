"""The die size a frame is read at, checked against the dice found in it.

The reader brings each frame to a working scale from the die size it is told (a setup's,
``--die-px``) or, untold, from the framing default (:data:`vision.detection.
DEFAULT_DIE_FRACTION` of the picture's short side). The detectors learned dice at about
that scale. Dice much larger than assumed (a phone held close over a few dice) or much
smaller are still boxed, but at the size assumed: a pip or a clump of dice taken for a
die, and read wrong and sure.

The dice a detector finds at the right scale are boxed at about the size assumed: the
median box side over the size is 0.82-1.20 on the d6 val photos read at the framing
default. Read at too small a size, dice are boxed larger than it (1.24-1.77 on those
photos cut to 60% about their dice, whose dice are 1.6 times the default), so a photo
whose boxes are larger than its size is read again at larger sizes and the read whose
boxes best fit their size is kept (:func:`best_read`). Boxes a little smaller than the
size are no sign of smaller dice: read at a size well under theirs, dice are boxed about
their pips, which fit the size as well as dice do. Boxes well under it are
(:data:`UNDER_FIT`): a camera higher than the framing assumes, or a photo from far off.

Eightieth session, the d6 photos cut about their dice to a share of their side and
brought to 1200 px (phones held closer; ``docs/vision.md``, *Photos taken close*), dice
read right and sure / silently wrong, without the search and with it: val whole 202/0
and 202/0; cut to 60% (184 dice) 173/4 and 180/0; to 40% (128 dice) 30/8 and 117/1;
train whole (1,458 dice) 1,439/9 and 1,439/9. Eighty-first session: a photo where no die
is found is read at the larger sizes too, and a read with a sure die kept
(:func:`_found_larger`): cut to 30% (81 dice) 11/0 became 32/0, to 25% (58) 2/1 22/1.
Eighty-second session: a larger size that boxes a clump of dice read sure as one die is
not taken (:func:`holds_dice`), and a die the two sizes read apart is left to the table
(:func:`disagreeing`): the test photos read by ``read-dice`` went from 2 dice sure and
wrong and 7 missed to none of either (val and train as before, but for 3 dice of the val
photos cut close left to the table).
Eighty-fourth session: boxes well under an untold size are looked under
(:data:`UNDER_FIT`); before, a camera higher than the framing default with no setup
missed dice with no word (the d6 val photos shrunk to 0.6 on a plain floor, their dice
about half the default: 172 right and 1 silent of 204, now 190 and 0).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from vision.boxes import hold_each_other
from vision.detection import MIN_DIE_PX, WORK_DIE_PX
from vision.reading import Box, TrayRead, left_to_the_table
from vision.said import message

SIZES = (1.0, 1.25, 1.6, 2.0, 2.5, 3.2)
"""The die sizes a photo is read at, over the size assumed (:func:`best_read`). None
smaller: read smaller than they are, dice are boxed about their pips, which fit the size
as well as dice do (the d6 val photos cut about their dice read 72 dice right with
0.8 and 0.62 tried too, against 119)."""

UNDER_FIT = 0.72
"""An untold size whose boxes' median side over it (:func:`box_fit`) is under this is
looked under, at the first :data:`UNDER` sizes of :data:`SMALLER` (:func:`best_read`):
the dice are smaller than the framing default (a camera mounted higher, a photo from far
off), and the detectors, looking for dice of the default size, miss some with no word.
Whole d6 photos fit their default 0.77-1.26 (train) and 0.82-1.20 (val); shrunk to 0.8
and 0.6 on a plain floor, 0.72-0.79 and 0.61-0.72 (the first 12 val photos), and shrunk
to 0.7 the default read misses 19 of the val photos' 204 dice. Looking under every photo
instead picks up the pips of dice read at a size well under theirs (:data:`SIZES`)."""

UNDER = 4
"""How many of :data:`SMALLER` an untold size is looked under at (0.8 to 0.4 times it):
dice under 0.4 of the default are under 18 px at 1280x720, too small to read surely
(every die is left to the table with a warning once they are found)."""

SMALLER = (0.8, 0.62, 0.5, 0.4, 0.31, 0.25, 0.2, 0.16)
"""The die sizes also tried, over the size told, when a reader was told one that the dice
may not have (:func:`best_read` with ``told``): a size told too large boxes clumps of
dice as dice, and reads them sure. Down to 0.16 since the eighty-first session (0.31
before): told five times their size, 50 val photos read 3 dice sure and wrong with 0.31
the least, 1 with 0.16; told 0.5, 1 or 3 times, as before."""

TOLD_BAND = (0.8, 1.25)
"""A size told whose boxes' median side over it is under this band is looked under. Told
their labels' size, the d6 val photos' boxes are 0.84-1.18 of it; looked under from 1, a
few of them fitted a smaller size better (pips boxed as dice) and every die of 26 was left
to the table with a warning."""

TOLD_LARGE = 0.25
"""A size told over this share of the picture's short side is always looked under
(:func:`best_read`), even when its boxes fit it or it finds no die: so large a size boxes
a clump of dice as one die that fits it, and reads it sure (a helper: a val photo's dice
of 165 px told 1,000 px, a third of the picture, read as one sure "3" and a die left to
the table, the other 9 dice gone, with no warning; told 1,500 px, "no dice"). Fewer than
16 dice that large fit in the picture."""

SMALLEST = max(MIN_DIE_PX, WORK_DIE_PX / 2)
"""The least die size tried: the reader enlarges a frame at most twice
(:func:`vision.detection.to_work`), and a smaller size reads a large photo at its largest
(seconds a read)."""


def box_fit(read: TrayRead, die_px: float) -> float | None:
    """The median box side of a read's dice over the die size it was read at; None for a
    read with no dice."""
    if not read.dice:
        return None
    return float(np.median(_sides(read))) / die_px


def _sides(read: TrayRead, sure: bool = False) -> list[int]:
    """The longer side of each die's box (of the sure dice only, with ``sure``)."""
    return [max(d.box[2], d.box[3]) for d in read.dice if not (sure and d.uncertain)]


def best_read(read_at: Callable[[float], TrayRead], die_px: float, short_side: int,
              first: TrayRead, told: bool = False) -> tuple[TrayRead, float]:
    """The read, and the die size it was read at, whose boxes best fit that size (their
    median side over it nearest 1): ``first`` (read at ``die_px``), or, when its boxes are
    larger than ``die_px``, a read at the other :data:`SIZES` times it (``read_at(size)``
    reads the frame at a size). A size ``told`` is looked under, at :data:`SMALLER` times
    it, when its boxes are smaller than :data:`TOLD_BAND`, or larger than it with no
    larger size to try (a die past a third of the picture), or whenever it is past
    :data:`TOLD_LARGE` of the picture (a read of no dice too, then taking only a read
    with a sure die); a size told that read few dice sure is looked over
    (:func:`_sure_larger`). An untold size is looked under only when its boxes are well
    under it (:data:`UNDER_FIT`). None under :data:`SMALLEST`
    or past a third of the picture's short side is tried. Boxes a little smaller than an
    untold size are no sign of dice smaller than it: a photo that boxed its dice at 0.83
    of the framing default boxed clumps of dice at 3.2 times it, fitting better (0.95),
    and read them wrong. A read of no dice at an untold size is looked over at the larger
    sizes too (:func:`_found_larger`)."""
    fit = box_fit(first, die_px)
    large = told and die_px > TOLD_LARGE * short_side
    if fit is None and not large:
        return (first, die_px) if told else _found_larger(read_at, die_px, short_side, first)
    if told and fit is not None and sum(not d.uncertain for d in first.dice) < FEW_SURE:
        sure = _sure_larger(read_at, die_px, short_side, first)
        if sure is not None:
            return sure
    if not told and (mixed := _mixed(read_at, die_px, short_side, first)) is not None:
        return mixed
    factors: tuple[float, ...] = SIZES[1:] if fit is not None and fit > 1 else ()
    if not told and fit is not None and fit < UNDER_FIT:
        factors = SMALLER[:UNDER]
    if told and (fit is None or fit < TOLD_BAND[0] or large
                 or (fit > 1 and die_px * SIZES[1] > short_side / 3)):
        factors = SMALLER
    best = (math.inf if fit is None else abs(math.log(fit)), first, die_px)
    for size in (die_px * f for f in factors):
        if not SMALLEST <= size <= short_side / 3:
            continue
        read = read_at(size)
        other = box_fit(read, size)
        if other is not None and abs(math.log(other)) < best[0] and not (
                size > die_px and holds_dice(read, first)) and not (
                fit is None and all(d.uncertain for d in read.dice)):
            best = (abs(math.log(other)), read, size)
    if best[1] is first:
        return first, die_px
    return disagreeing(best[1], first), best[2]


def disagreeing(kept: TrayRead, first: TrayRead) -> TrayRead:
    """``kept`` (a read at another size than ``first``'s) with each die read sure as
    another face than the same die was read in ``first`` marked uncertain: the two sizes
    disagree, so the table says. The same die: boxes holding each other's centres, of
    sides within :data:`SAME_DIE` of each other (a piece of a die boxed at too small a
    size is no die of its own to agree with)."""
    def same(a: Box, b: Box) -> bool:
        ratio = max(a[2], a[3]) / max(1, b[2], b[3])
        return hold_each_other(a, b) and 1 / SAME_DIE <= ratio <= SAME_DIE

    dice = tuple(
        replace(d, uncertain=True) if not d.uncertain and any(
            same(d.box, o.box) and o.face != d.face for o in first.dice)
        else d for d in kept.dice)
    return replace(kept, dice=dice)


SAME_DIE = 1.4
"""Boxes of one die read at two sizes are this near in side (:func:`disagreeing`)."""


def holds_dice(larger: TrayRead, first: TrayRead) -> bool:
    """Whether a read at a larger size boxes as one die, read sure, three or more dice
    ``first`` read sure as faces other than "1": real dice lying together, a clump the
    larger size fits as well as one die (a test photo's 7 dice, read right at the
    default, boxed at 3.2 times as one "2": found by a helper). A die read at too small
    a size is boxed about its pips, read "1", or in two or three pieces ("6" and "6",
    "4" and "2" on the val photos cut to 40%), and those are taken: with two such dice
    enough, 24 of their dice were lost."""
    sure = [((d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2), d.face)
            for d in first.dice if not d.uncertain]
    for die in larger.dice:
        x, y, w, h = die.box
        inside = [face for (cx, cy), face in sure if x <= cx <= x + w and y <= cy <= y + h]
        if not die.uncertain and sum(face != "1" for face in inside) >= 3:
            return True
    return False


TOLD_SLACK = 1.3
"""A size told is taken for wrong when the size its dice fit best is further from it than
this factor either way. Told their labels' size (loose boxes), two of the d6 val photos
fitted 1.25 times it better, and read as well there."""


def told_size_is_wrong(told: float, fits: float) -> bool:
    """Whether the size the dice fit best (``fits``) is too far from the size told for the
    read to be trusted (:data:`TOLD_SLACK`)."""
    return not 1 / TOLD_SLACK < fits / told < TOLD_SLACK


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
    return left_to_the_table(read, TOLD_SIZE_WRONG(px=round(told)))


MIXED_LARGE = 1.4
"""A die boxed at least this many times the size it was read at is a whole die larger
than the size (:func:`_mixed`)."""

MIXED_SMALL = 0.6
"""A die boxed under this share of the larger dice's median side is a piece of one
(:func:`_mixed`)."""


def _mixed_size(read: TrayRead, die_px: float) -> float | None:
    """The median side of a read's whole dice larger than its size, when its boxes mix
    them with pieces (:func:`_mixed`), else None."""
    sure = _sides(read, sure=True)
    large = [side for side in sure if side >= MIXED_LARGE * die_px]
    if not large or 3 * len(large) < len(sure):
        return None
    size = float(np.median(large))
    if min(_sides(read)) >= MIXED_SMALL * size:
        return None
    return size


MIXED_TRIES = 3
"""How many larger sizes :func:`_mixed` reads at, each a read that still mixed whole dice
and pieces telling the next."""


def _mixed(read_at: Callable[[float], TrayRead], die_px: float, short_side: int,
           first: TrayRead) -> tuple[TrayRead, float] | None:
    """For a read at an untold size whose boxes mix whole dice larger than the size
    (:data:`MIXED_LARGE`, a third of its sure dice or more) with pieces of dice
    (:data:`MIXED_SMALL` of those): the read at the larger dice's median side, if its
    boxes fit it (:data:`TOLD_BAND`) and its sure dice are boxed alike
    (:data:`MIXED_ALIKE`; a read that still mixes tells the next size,
    :data:`MIXED_TRIES` in all), the dice it reads apart from ``first`` left to the
    table (:func:`disagreeing`); else None. Such a read's
    median box fits the size (a helper: a val photo's centre half, white dice of 150 px
    on a light floor where the default is 87 px, read 152, 87, 62, 145 and 61 px: a pip
    of a 2 read as a sure "1", and a sure "2" on bare cardboard), so the larger sizes
    were not tried."""
    read, size = first, die_px
    for _ in range(MIXED_TRIES):
        larger = _mixed_size(read, size)
        if larger is None or not SMALLEST <= larger <= short_side / 3 or larger <= size:
            break
        read, size = read_at(larger), larger
    if read is first:
        return None
    fit = box_fit(read, size)
    sure = _sides(read, sure=True)
    if (fit is None or not TOLD_BAND[0] <= fit <= TOLD_BAND[1] or not sure
            or min(sure) < MIXED_ALIKE * float(np.median(sure))):
        return None
    return disagreeing(read, first), size


MIXED_ALIKE = 0.7
"""The read :func:`_mixed` takes has its sure dice boxed alike: none under this share of
their median side (a val photo cut to 40%, read at 110 px, boxed dice of 161-166 px and
half a 2, 107 px, read a sure "1")."""


FEW_SURE = 3
"""A size told whose read has fewer dice sure than this is looked over
(:func:`_sure_larger`)."""

FARTHER = (4.0, 5.0, 6.4, 8.0)
"""Larger sizes than :data:`SIZES`, over a size told, tried for a told size that read
few dice sure (:func:`_sure_larger`): ``--die-px 40`` given for a 2,736 px photo's 170
px dice."""


def _sure_larger(read_at: Callable[[float], TrayRead], die_px: float, short_side: int,
                 first: TrayRead) -> tuple[TrayRead, float] | None:
    """For a size told whose read (``first``) has dice but fewer than :data:`FEW_SURE`
    sure: the read at a larger size (:data:`SIZES`, :data:`FARTHER`) with more dice read
    sure than ``first``, at least two and as many as ``first`` found (the best fitting of
    those with the most); else None. A size told far under the dice's boxes their pips,
    which fit it: a helper's ``--die-px 40`` on a val photo of 170 px dice read 4 dice of
    12, every one left to the table, with no warning; told 20 px, it said the dice were
    too small and to bring the camera closer; a checked-in photo's 137 px dice told 34
    read a pip of a 4 as a sure "1". The size found is then taken for the told size being
    wrong (:func:`told_size_wrong`)."""
    least = max(2, len(first.dice), sum(not d.uncertain for d in first.dice) + 1)
    best: tuple[int, float, TrayRead, float] | None = None
    for size in (die_px * f for f in SIZES[1:] + FARTHER):
        if not SMALLEST <= size <= short_side / 3:
            continue
        read = read_at(size)
        fit = box_fit(read, size)
        sure = sum(not d.uncertain for d in read.dice)
        if fit is None or sure < least:
            continue
        if best is None or (sure, -abs(math.log(fit))) > (best[0], -best[1]):
            best = (sure, abs(math.log(fit)), read, size)
    return None if best is None else (best[2], best[3])


def _found_larger(read_at: Callable[[float], TrayRead], die_px: float, short_side: int,
                  first: TrayRead) -> tuple[TrayRead, float]:
    """For a photo where no die was found at the size assumed (``first``): the read at a
    larger :data:`SIZES` whose boxes best fit it, of those reading a die sure, else
    ``first``. A phone held very close (dice 3-4 times the framing default) shows dice the
    detectors box as nothing at the default: 13 of the 24 d6 val photos cut to 30% about
    their dice (with dice in the cut) were read "no dice". Without a sure die a larger
    size is not taken: it finds phantom candidates in a photo of no dice (8-11 at 3.2 and
    4 times the default over the val photos with their dice painted out, all uncertain)."""
    best: tuple[float, TrayRead, float] | None = None
    for size in (die_px * f for f in SIZES[1:]):
        if not SMALLEST <= size <= short_side / 3:
            continue
        read = read_at(size)
        fit = box_fit(read, size)
        if fit is None or all(d.uncertain for d in read.dice):
            continue
        if best is None or abs(math.log(fit)) < best[0]:
            best = (abs(math.log(fit)), read, size)
    return (first, die_px) if best is None else (best[1], best[2])


PIECE_SIZES = (1.6, 2.0, 2.5)
"""The die sizes, over the framing default, at which a photo of custom-face dice is read
again to see whether its dice were read in pieces (:func:`in_pieces`). Placed on drawn
SeaFall trays (a drawn profile of 5 crops a face; 40 trays of 6-12 dice at the default,
12 trays of 2-8 dice at each larger size; sure and wrong boxes / those left with no
warning): 1.0 times 0 / 0 and no tray warned; 1.3 times 1 / 1; 1.6 times 37 / 1; 2 times
24 / 3; 2.5 times 18 / 1; 3.3 times 10 / 3. Adding 3.2 caught 2 more at 3.3 times but
warned 2 of the 40 trays at the default (touching dice boxed as one)."""

IN_PIECES = message(
    "vision.in_pieces",
    "the dice look larger than the reader expects (a photo taken close), and some were "
    "read in pieces, so every die is marked uncertain; take the photo from further away, "
    "with the tray in it")


def in_pieces(read_at: Callable[[float], TrayRead], boxes_at: Callable[[float], list[Box]],
              die_px: float, short_side: int, first: TrayRead) -> TrayRead:
    """``first`` (a read of custom-face dice at ``die_px``, the framing default), or, when
    its dice were read in pieces, the read at the first of :data:`PIECE_SIZES` that boxes
    two or more of them as one die, its boxes as large as it (:data:`PIECES_FIT`), every
    die uncertain, with a warning. The body
    detector boxes a die much larger than the size it looks for as 2-4 pieces that fit
    that size as well as dice do (so :func:`best_read` cannot tell them), each read sure
    as a face of its own: drawn SeaFall dice 1.6-2.5 times the default read 79 boxes sure
    and wrong over 36 trays. The larger sizes are looked at through ``boxes_at(size)``
    (the dice a read at that size would box, their faces not read: a third of a read's
    time); only the size that finds pieces is read."""
    if not first.dice:
        return first
    centres = [(d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2) for d in first.dice]
    for size in (die_px * f for f in PIECE_SIZES):
        if size > short_side / 3:
            break
        boxes = boxes_at(size)
        if not boxes or np.median([max(w, h) for _x, _y, w, h in boxes]) < PIECES_FIT * size:
            continue  # dice of the size first read, boxed at their own size
        for x, y, w, h in boxes:
            if sum(x <= cx <= x + w and y <= cy <= y + h for cx, cy in centres) >= 2:
                return left_to_the_table(read_at(size), IN_PIECES())
    return first


PIECES_FIT = 1.0
"""Dice read in pieces at the framing default are that large: a larger size's boxes are,
in their median side, at least that size (:func:`in_pieces`). Dice of the default size
read at a larger one are boxed at their own size, under it, and only touching dice are
boxed together: without this bar, pip d6 enrolled as symbols warned 140 of the 225
train and val photos (whole, and as many brought to 400-600 px), every die left to the
table (found by a helper); with it none (their boxes at most 0.93 of the size); drawn
SeaFall dice read in pieces fill 0.86-1.81 of the first larger
size that boxes them together, and a later size at least 1.0 where the first was under
(``benchmarks/bench_close_symbols.py``: the same trays warned)."""
