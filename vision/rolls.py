"""Rolls: settled reads numbered, and a partial re-roll matched to the dice that moved.

:class:`RollTracker` turns settled reads into :class:`Roll` values with ids. A die whose
place did not change since the last roll (a die still there, its place looking as it did)
is the same die showing the same face: this is how a partial re-roll ("re-roll weak
successes") is matched to the dice that moved. Its two reads are one die's evidence, and
the surer one gives its face (:func:`still_die`).

Given the settled frames, a die is kept when its place looks as it did at the last roll
(:func:`unchanged`), whatever the motion mask says; the mask (no motion over the place)
is used where the frames are not given. Motion over-counts: a hand reaching for one die
passes over others, and the mask marks them too, so a re-roll of two dice looked like
three and the camera could not answer it. And it under-counts what it did not see: a
tracker's last roll may be old (the camera served another table meanwhile, or was away),
and a die that lies where one lay then is not that die unless its place looks the same.

A die **nudged** (a hand picking up its neighbours knocks it a little way, or turns it a
little) is kept too, with the frames: it lies within a die of where a die of the last roll
lay, showing that die's picture turned a little (:func:`nudge_likeness`). Counted as
thrown, it made a re-roll of two dice look like three, and a bump of the tray a new roll.
A die thrown again that lands within a die of where it lay, showing the face it showed
turned about as it was, passes for nudged: it shows the face it showed.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.boxes import centre
from vision.lightbands import to_bands_of
from vision.reading import DieRead, TrayRead


@dataclass(frozen=True)
class Roll:
    """A settled roll: its id, the read, and which dice were re-rolled or kept."""

    id: int
    read: TrayRead
    rerolled: tuple[int, ...]
    kept: tuple[int, ...]
    previous_id: int | None
    thrown: bool = True
    """False when no die was thrown: every die lies where it lay at the last roll (one was
    taken off the tray). That is no new roll: the last one as it lies now, with its id."""
    not_dice: Mapping[int, str] = field(default_factory=dict)
    """Boxes of the read that the table said were no dice (a token, a die of another roll)
    at the last roll and that still lie where they lay: box number to who said so
    (:meth:`RollTracker.confirm`). They are kept, never thrown."""

    @property
    def faces(self) -> tuple[str, ...]:
        return self.read.faces


@dataclass
class RollTracker:
    """Numbers settled reads as rolls and matches partial re-rolls to the dice that moved."""

    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1), repr=False)
    last: Roll | None = None
    _told: dict[int, str] = field(default_factory=dict, repr=False)
    """The table's faces for dice of the last roll (:meth:`confirm`), by die number."""
    _not_dice: dict[int, str] = field(default_factory=dict, repr=False)
    """The last roll's boxes the table said are no dice (:meth:`confirm`): who said so."""
    _size: tuple[int, ...] | None = field(default=None, repr=False)
    """The frame size (h, w) the last roll was read at, where known."""
    _grey: np.ndarray | None = field(default=None, repr=False)
    """The last roll's settled frame (:func:`settled_grey`), where given."""
    _prior: tuple[Roll | None, dict[int, str], dict[int, str], tuple[int, ...] | None,
                  np.ndarray | None] = field(default=(None, {}, {}, None, None), repr=False)
    """What the last roll was matched against (the tracker before it): :meth:`again`."""
    _motion: np.ndarray | None = field(default=None, repr=False)
    """The motion mask the last roll was matched with, where given: :meth:`again`."""

    def add(self, read: TrayRead, motion: np.ndarray | None = None,
            frame: np.ndarray | None = None) -> Roll:
        """Record a settled read; ``motion`` (0/1, frame-sized) marks where things moved,
        and ``frame`` is the settled frame read: with this frame and the last roll's, a die
        is kept when its place looks as it did, whatever the motion.
        A read of frames of another size than the last roll's (a camera plugged back in at
        another mode, or another camera) is a new roll: its boxes cannot be laid over the
        last ones, and a die matched to another die's place would take its face."""
        self._prior = (self.last, self._told, self._not_dice, self._size, self._grey)
        self._motion = motion
        previous = self.last
        frame = frame if frame is not None else read.frame
        frame_size = (motion.shape[:2] if motion is not None
                      else frame.shape[:2] if frame is not None else None)
        grey = settled_grey(frame) if frame is not None else None
        before = self._grey if grey is not None and self._grey is not None and (
            self._grey.shape == grey.shape) else None
        # under a flickering lamp the two frames differ in bands: compared as one light
        now = to_bands_of(grey, before) if grey is not None and before is not None else grey
        if frame_size is not None and self._size not in (None, frame_size):
            previous = None
        kept: list[int] = []
        told: dict[int, str] = {}
        not_dice: dict[int, str] = {}
        dice = list(read.dice)

        def keep(i: int, j: int) -> None:
            """New die ``i`` is die ``j`` of the last roll."""
            kept.append(i)
            die = dice[i]
            if j in self._not_dice:  # the table said it is no die, and it has not moved
                not_dice[i] = self._not_dice[j]
            elif j in self._told:  # the table said what it shows: that stands
                told[i] = self._told[j]
                dice[i] = DieRead(told[i], 1.0, False, die.box, die.crop)
            else:
                dice[i] = still_die(previous.read.dice[j], die)

        if previous is not None:
            taken: set[int] = set()
            for i, die in enumerate(dice):
                cx, cy = centre(die.box)
                size = max(die.box[2], die.box[3])
                for j, old in enumerate(previous.read.dice):
                    if j in taken:
                        continue
                    ox, oy = centre(old.box)
                    if np.hypot(cx - ox, cy - oy) > 0.35 * size:
                        continue
                    if not _stayed(old.box, before, now, motion):
                        continue
                    taken.add(j)
                    keep(i, j)
                    break
            if (before is not None and grey is not None
                    and len(taken) >= NUDGE_AMONG * len(previous.read.dice)):
                for i, j in nudged(dice, previous.read.dice, kept, taken, before, now):
                    keep(i, j)
        kept.sort()
        rerolled = tuple(i for i in range(len(dice)) if i not in kept)
        read = replace(read, dice=tuple(dice))
        if previous is not None and not rerolled:
            roll = Roll(previous.id, read, (), tuple(kept), previous.previous_id, False,
                        not_dice)
        else:
            roll = Roll(next(self._ids), read, rerolled, tuple(kept),
                        previous.id if previous is not None else None, not_dice=not_dice)
        self.last, self._told, self._not_dice = roll, told, dict(not_dice)
        self._size, self._grey = frame_size, grey
        return roll

    def again(self, read: TrayRead, frame: np.ndarray | None = None) -> Roll:
        """The last roll read again (the table asked for a re-read: nothing was thrown):
        ``read`` is matched against what the last roll was matched against, so a re-roll
        keeps its re-rolled dice, and it keeps the last roll's id. A die the table gave a
        face for (:meth:`confirm`), or said is no die, that lies where it lay keeps that
        word. With no last roll it is a new roll, as :meth:`add` makes it."""
        last, told, not_dice = self.last, self._told, self._not_dice
        if last is None:
            return self.add(read, frame=frame)
        self.last, self._told, self._not_dice, self._size, self._grey = self._prior
        roll = self.add(read, self._motion, frame)
        dice = list(roll.read.dice)
        kept: dict[int, str] = {}
        still_not: dict[int, str] = dict(roll.not_dice)
        for i, die in enumerate(dice):
            j = _at(die, last.read.dice)
            if j is not None and j in not_dice:
                still_not[i] = not_dice[j]
            elif j is not None and j in told:
                kept[i] = told[j]
                dice[i] = DieRead(told[j], 1.0, False, die.box, die.crop)
        roll = replace(roll, id=last.id, read=replace(roll.read, dice=tuple(dice)),
                       not_dice=still_not)
        self.last = roll
        self._told = {**self._told, **kept}
        self._not_dice = dict(still_not)
        return roll

    def confirm(self, roll_id: int, faces: Mapping[int, str],
                not_dice: Mapping[int, str] | None = None) -> bool:
        """The table's word on roll ``roll_id``: die ``i`` (a number in its read) shows
        ``faces[i]``, and, when ``not_dice`` is given, the boxes it names are no dice (who
        said so): all of them, a box said to be a die again left out. Said of the last
        roll, a die of it that stays where it is keeps the table's face, sure, in the next
        rolls, whatever the reader makes of it (a die the table corrected is not asked about
        again), and a box that is no die stays out of them while it lies where it lies; said
        of an older roll, or of dice it does not have, nothing changes. True when the last
        roll took the word."""
        last = self.last
        if last is None or last.id != roll_id or not all(
                0 <= i < len(last.read.dice) for i in (*faces, *(not_dice or {}))):
            return False
        if not_dice is not None:
            self._not_dice = dict(not_dice)
        faces = {i: f for i, f in faces.items() if i not in self._not_dice}
        dice = tuple(DieRead(faces[i], 1.0, False, d.box, d.crop) if i in faces else d
                     for i, d in enumerate(last.read.dice))
        self.last = replace(last, read=replace(last.read, dice=dice),
                            not_dice=dict(self._not_dice))
        self._told.update(faces)
        return True


def _at(die: DieRead, dice: tuple[DieRead, ...]) -> int | None:
    """The die of ``dice`` lying where ``die`` lies (centres within a third of a die)."""
    cx, cy = centre(die.box)
    size = max(die.box[2], die.box[3])
    for j, old in enumerate(dice):
        ox, oy = centre(old.box)
        if np.hypot(cx - ox, cy - oy) <= 0.35 * size:
            return j
    return None


def still_die(before: DieRead, now: DieRead) -> DieRead:
    """One die that did not move between two reads: both reads saw the same face, so the
    face is the one the surer read gives. A sure read wins over an unsure one (a die the
    reader was unsure of, read sure now, takes the new face); two sure reads that disagree
    contradict each other, so the die is marked uncertain (the table confirms it) rather
    than trusting either; two unsure reads give the more confident one's face, still
    uncertain. The box and crop are the new read's (the frame kept as evidence)."""
    if before.uncertain != now.uncertain:
        sure = now if before.uncertain else before
        return DieRead(sure.face, sure.confidence, False, now.box, now.crop)
    if not before.uncertain:
        if before.face == now.face:
            return DieRead(before.face, max(before.confidence, now.confidence), False,
                           now.box, now.crop)
        return DieRead(before.face, min(before.confidence, now.confidence), True, now.box,
                       now.crop)
    best = before if before.confidence >= now.confidence else now
    return DieRead(best.face, best.confidence, True, now.box, now.crop)


STILL_DELTA = 40
"""Grey levels (of :func:`settled_grey`, each picture less its median) by which a pixel of
a die's place must differ between two settled frames to count as changed."""

STILL_SHARE = 0.01
"""A die's place with at most this share of its pixels changed (:data:`STILL_DELTA`) at
the best of small shifts (:data:`STILL_SHIFT_PX`) looks as it did: the die was not touched.
Measured on the 7 labelled real photos in tests/vision/photos (49 dice), each die's box in
the photo and in the photo again with noise (sigma 4), JPEG at quality 80, 8% more light
and moved a pixel each way: 0.0% changed for every die; the same place holding a die of
another face of the photo (620 pairs): 7.4% changed at least, 36% at the median. A die
thrown again that lands where it lay, showing the same face the same way up within a
pixel or two, passes for kept: it shows the face it showed."""

STILL_SHIFT_PX = 2
"""Shifts (pixels each way) tried when laying a die's place over its last picture: a bump
of the table or the camera moves the picture a little."""


_SHIFTS = sorted(((dx, dy) for dy in range(-STILL_SHIFT_PX, STILL_SHIFT_PX + 1)
                  for dx in range(-STILL_SHIFT_PX, STILL_SHIFT_PX + 1)),
                 key=lambda s: abs(s[0]) + abs(s[1]))
"""The shifts :func:`unchanged` tries, in place first (the usual case), then nearest."""


def settled_grey(frame: np.ndarray) -> np.ndarray:
    """A settled frame as :func:`unchanged` compares it: grey, a little blurred (sensor
    noise); kept by the tracker until the next roll (uint8: 0.9 MB at 1280x720)."""
    if frame.ndim == 3:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2GRAY if frame.shape[2] == 4
                             else cv2.COLOR_BGR2GRAY)
    return cv2.GaussianBlur(frame, (5, 5), 0)


def unchanged(before: np.ndarray, now: np.ndarray, box: tuple[int, int, int, int]) -> bool:
    """Whether a die's place (its box in ``before``) looks the same in ``now``: both
    :func:`settled_grey` frames of one size, each picture less its median (the light may
    have changed a little), at the best of shifts up to :data:`STILL_SHIFT_PX`."""
    h, w = before.shape
    x, y, bw, bh = box
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + bw, w), min(y + bh, h)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return False
    old = before[y0:y1, x0:x1].astype(np.int16)
    old -= int(np.median(old))
    m = STILL_SHIFT_PX
    wx, wy = max(x0 - m, 0), max(y0 - m, 0)  # the place and its shifts, less its median
    window = now[wy:min(y1 + m, h), wx:min(x1 + m, w)].astype(np.int16)
    window -= int(np.median(now[y0:y1, x0:x1]))
    for dx, dy in _SHIFTS:
        if y0 + dy < 0 or x0 + dx < 0 or y1 + dy > h or x1 + dx > w:
            continue
        top, left = y0 + dy - wy, x0 + dx - wx
        shifted = window[top:top + y1 - y0, left:left + x1 - x0]
        changed = np.abs(old - shifted) > STILL_DELTA
        if np.count_nonzero(changed) <= STILL_SHARE * changed.size:
            return True
    return False


NUDGE_REACH = 1.0
"""How far a die may be knocked and still be the same die: its centre within this many of
its sizes of where a die of the last roll lay. A die that rolls over shows another face,
and is read as thrown."""

NUDGE_AMONG = 0.5
"""Nudged dice are looked for only when at least this share of the last roll's dice lie
where they lay: a re-roll of some of them, or a bump of the tray. When the whole tray was
thrown again, every die of the last roll is missing, and a die of the new throw that lands
near one of their places showing its face the same way up (likely for SeaFall's dice, all
alike, and a third of their faces blank) would be taken for it, its read merged with the
old one's (:func:`still_die`). A pool of two or three with a die picked up and another
knocked falls back to counting the knocked die as thrown."""

NUDGE_TURNS = tuple(range(-30, 31, 5))
"""Turns (degrees) at which a die of the last roll is laid over a die near its place: a
knock turns a die a little as it slides."""

NUDGE_LIKENESS = 0.92
"""Least likeness (:func:`nudge_likeness`) of a die to one of the last roll for it to be
that die, nudged. Measured by ``benchmarks/bench_still_dice.py`` on the 7 labelled real
photos in tests/vision/photos (49 dice, each photo's dice pasted on its empty tray; seeds 0
and 1): each die knocked 0.15-0.8 of its size and turned up to 25 degrees, with noise,
JPEG at quality 85, up to 8% more or less light and its box a little off, 588 times:
median 0.996, 1st percentile 0.98, and 1 under 0.92 (0.88); a die of another face of the
photo put there instead, turned up to 45 degrees, 564 times: median 0.40, 99th
percentile 0.77, most 0.89. A die missed as nudged is counted as thrown, as before; a die
of another face taken for one nudged would answer a re-roll with the wrong dice, so the bar
stands above every other face seen (0.9 and 0.92 keep the same knocked dice; 0.85 lets
one other face through). Two sure reads of different faces are never one die nudged
(:func:`nudged`)."""


NUDGE_FACE = 0.35
"""Half the side of the square :func:`nudge_likeness` lays over a die by default, in its
sizes: the middle 0.7 of its box, its top face's marks without its outline."""

NUDGE_WHOLE = 0.5
"""The same for a die read sure as the face it showed (:func:`nudged`): its whole box,
outline and all. A blank face's middle is plain, so the cross-correlation of its middle
has little but noise to go on. Measured by ``benchmarks/bench_still_dice.py`` (seed 0):
synthetic SeaFall blanks knocked 0.15-0.8 of a die and turned up to 25 degrees, with
noise and JPEG, passed the bar 249 times of 306 by their middles, 294 by their middles or
else their whole boxes; no die of another face passed either way (most 0.83). But the
outline makes any two dice alike: laid whole over the real photos' dice, 4 dice of another
face of 282 passed (most 0.96), against none by the middle (most 0.89). So the whole box is
tried only where both reads are sure of the face, and then a die passing for another of
its face shows that face anyway."""


def nudge_likeness(before: np.ndarray, now: np.ndarray, old_box: tuple[int, int, int, int],
                   new_box: tuple[int, int, int, int], part: float = NUDGE_FACE) -> float:
    """How much the die at ``new_box`` in ``now`` looks like the one at ``old_box`` in
    ``before`` (:func:`settled_grey` frames of one size): the old die's top face (the
    middle ``2 * part`` of its box, :data:`NUDGE_FACE`) turned by each of
    :data:`NUDGE_TURNS` and matched, by normalised cross-correlation, anywhere about the
    new die's centre (its box may sit a little off the die). Near the frame's edge only
    the pixels the frame holds are compared (:data:`NUDGE_IN_FRAME`); 0 when too few of
    them are left, or the new die's surroundings are cut off by the edge."""
    x, y, w, h = old_box
    size = min(w, h)
    r = max(4, int(part * size))
    big = int(np.ceil(1.5 * r))  # turned about its centre, the face's corners stay inside
    region, held = _about(before, int(round(x + w / 2)), int(round(y + h / 2)), big)
    height, width = now.shape
    nx, ny = (int(round(c)) for c in centre(new_box))
    m = r + int(0.15 * size) + 1
    window = now[max(ny - m, 0):min(ny + m, height), max(nx - m, 0):min(nx + m, width)]
    if window.shape[0] < 2 * r or window.shape[1] < 2 * r:
        return 0.0
    best = 0.0
    for turn in NUDGE_TURNS:
        spin = cv2.getRotationMatrix2D((big, big), turn, 1.0)
        face = cv2.warpAffine(region, spin, (2 * big, 2 * big))[big - r:big + r,
                                                                 big - r:big + r]
        if held is None:
            match = cv2.matchTemplate(window, face, cv2.TM_CCOEFF_NORMED)
        else:
            mask = cv2.warpAffine(held, spin, (2 * big, 2 * big),
                                  flags=cv2.INTER_NEAREST)[big - r:big + r, big - r:big + r]
            if np.count_nonzero(mask) < NUDGE_IN_FRAME * mask.size:
                continue
            match = cv2.matchTemplate(window, face, cv2.TM_CCOEFF_NORMED, mask=mask)
            match = np.nan_to_num(match, nan=0.0, posinf=0.0, neginf=0.0)
        best = max(best, min(float(match.max()), 1.0))
    return best


NUDGE_IN_FRAME = 0.75
"""Least share of the compared square that must lie in the frame for a turn of a die near
the frame's edge to be compared (:func:`nudge_likeness`): the rest is left out of the
match, not filled in, since a filled corner (drawn-out edge pixels or black) is alike in
any two dice. A die lying wholly in the frame, even in a corner, keeps 0.92 of its whole box
in view at the largest turn (30 degrees)."""


def _about(frame: np.ndarray, cx: int, cy: int, half: int
           ) -> tuple[np.ndarray, np.ndarray | None]:
    """The square of side ``2 * half`` about (cx, cy) in ``frame``, and where it runs past
    the frame's edge, a mask of the pixels it holds (255) with the rest black; ``None``
    for the mask where the frame holds it all."""
    height, width = frame.shape
    x0, y0, x1, y1 = cx - half, cy - half, cx + half, cy + half
    if x0 >= 0 and y0 >= 0 and x1 <= width and y1 <= height:
        return frame[y0:y1, x0:x1], None
    top, left, bottom, right = max(y0, 0), max(x0, 0), min(y1, height), min(x1, width)
    pad = (top - y0, y1 - bottom, left - x0, x1 - right)
    held = np.full((bottom - top, right - left), 255, np.uint8)
    return (cv2.copyMakeBorder(frame[top:bottom, left:right], *pad, cv2.BORDER_CONSTANT,
                               value=0),
            cv2.copyMakeBorder(held, *pad, cv2.BORDER_CONSTANT, value=0))


def nudged(dice: list[DieRead], last: tuple[DieRead, ...], kept: list[int],
           taken: set[int], before: np.ndarray, now: np.ndarray) -> list[tuple[int, int]]:
    """Pairs (new die, die of the last roll) of dice nudged: among the dice not kept and
    the last roll's dice not yet found, a die within :data:`NUDGE_REACH` of its size of
    where one lay and as like it as :data:`NUDGE_LIKENESS`, unless both were read sure as
    different faces (where both were read sure as one face, by its whole box too,
    :data:`NUDGE_WHOLE`); the likest pairs first, each die in one pair. ``taken`` gets the
    last roll's dice paired."""
    pairs = []
    for i, die in enumerate(dice):
        if i in kept:
            continue
        cx, cy = centre(die.box)
        size = max(die.box[2], die.box[3])
        for j, old in enumerate(last):
            ox, oy = centre(old.box)
            if j in taken or np.hypot(cx - ox, cy - oy) > NUDGE_REACH * size:
                continue
            sure = not (die.uncertain or old.uncertain)
            if sure and die.face != old.face:
                continue
            likeness = nudge_likeness(before, now, old.box, die.box)
            if sure and likeness < NUDGE_LIKENESS:
                likeness = nudge_likeness(before, now, old.box, die.box, NUDGE_WHOLE)
            if likeness >= NUDGE_LIKENESS:
                pairs.append((likeness, i, j))
    found: list[tuple[int, int]] = []
    for _, i, j in sorted(pairs, reverse=True):
        if j not in taken and all(i != k for k, _ in found):
            taken.add(j)
            found.append((i, j))
    return found


def _stayed(box: tuple[int, int, int, int], before: np.ndarray | None,
            now: np.ndarray | None, motion: np.ndarray | None) -> bool:
    """Whether the die the last roll read at ``box`` lies there still: its place looks as
    it did, with both settled frames (:func:`settled_grey`); else nothing moved over it,
    with a motion mask; else (neither given) it is taken to have stayed."""
    if before is not None and now is not None:
        return unchanged(before, now, box)
    return motion is None or not _moved(motion, box)


def _moved(motion: np.ndarray, box: tuple[int, int, int, int]) -> bool:
    """Whether anything moved over the middle of a die's box (its inner half each way: a
    box includes the die's sides and a neighbour picked up beside it moves those)."""
    x, y, w, h = box
    x, y, w, h = x + w // 4, y + h // 4, max(1, w // 2), max(1, h // 2)
    patch = motion[max(y, 0) : y + h, max(x, 0) : x + w]
    return bool(patch.size) and float(patch.mean()) > 0.05
