"""How hard a camera JPEG-compresses its frames, read from a decoded frame alone.

Most USB webcams send 1280x720 as MJPG (:data:`vision.sources.CAMERA_SIZE`), a JPEG per
frame, at a quality of their own. Compressed hard, a die's pips blur into blocks, and the
face networks are then sure of some wrong faces (``docs/vision.md``, *What a worse camera
costs*): the calibration says so (:data:`vision.setupadvice.JPEG_ADVICE_BELOW`), as it
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

from vision.reading import Box

__all__ = ["AROUND_DICE", "COMPRESSED_SURE_FROM", "ENROLLED_SURE_FROM", "FEW_BLOCKS",
           "HARD_BELOW", "LATTICE", "MAX_STEP", "MIN_STRENGTHS", "MOST_BLOCKS",
           "compressed_sure_from", "dice_jpeg_quality", "frames_jpeg_quality", "jpeg_quality",
           "jpeg_steps"]

MAX_STEP = 40
"""The largest step looked for (a JPEG quality of about 14 on the library's scale). A
picture compressed harder shows no step and is taken for one not compressed: no camera
sends such frames (a helper's photo saved at 5 read every die right all the same)."""

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
and the checked-in d6 photos (1,024 px copies saved at about 87) at 0.73-0.78;
uncompressed or at 95, at most 0.13 on any step."""

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


def _block_strengths(grey: np.ndarray, boxes: Sequence[Box] | None) -> np.ndarray:
    """``(blocks, 2)``: the two lowest waves' strengths of the frame's whole 8x8 blocks on
    its own grid: every block, or each block inside any of ``boxes`` (frame pixels) once."""
    h, w = grey.shape[0] // 8 * 8, grey.shape[1] // 8 * 8
    if not h or not w:
        return np.zeros((0, 2), np.float32)
    blocks = grey[:h, :w].reshape(h // 8, 8, w // 8, 8).transpose(0, 2, 1, 3)
    if boxes is None:
        chosen = blocks.reshape(-1, 64)
    else:
        inside = np.zeros((h // 8, w // 8), bool)
        for x, y, bw, bh in boxes:
            # the whole blocks inside the box
            inside[-(-max(y, 0) // 8) : max(y + bh, 0) // 8,
                   -(-max(x, 0) // 8) : max(x + bw, 0) // 8] = True
        chosen = blocks[inside].reshape(-1, 64)
    return chosen.astype(np.float32) @ _waves()


_STEPS = np.arange(2, MAX_STEP + 1, dtype=np.float32)


def _step(strengths: np.ndarray) -> int | None:
    """The step one wave's strengths cluster on (:data:`LATTICE`), or None."""
    size = np.abs(strengths)
    # strengths rounded to zero fit every step: each step is judged on those half a step
    # or more away, and only while at least MIN_STRENGTHS are (larger steps leave fewer)
    away = size[None, :] >= _STEPS[:, None] / 2
    counts = away.sum(axis=1)
    judged = counts >= MIN_STRENGTHS
    if not judged.any():
        return None
    phase = np.cos((2 * np.pi / _STEPS[:, None]) * strengths[None, :])
    scores = np.where(away, phase, 0.0).sum(axis=1) / np.maximum(counts, 1)
    scores[~np.logical_and.accumulate(judged)] = -1.0
    best = int(np.argmax(scores))
    return int(_STEPS[best]) if scores[best] > LATTICE else None


def jpeg_steps(frame: np.ndarray, boxes: Sequence[Box] | None = None
               ) -> tuple[int | None, int | None]:
    """The rounding steps of a frame's two lowest block waves (across, down) if it was
    JPEG-compressed on its own 8-pixel grid; None for a wave that shows none (the frame
    uncompressed, scaled after it was decoded, compressed so lightly that the step is 1,
    or too flat to tell: a flat frame compressed hard keeps few strengths off zero, often
    in one direction only). ``frame``: BGR or grey. ``boxes`` (frame pixels): judge only
    the blocks inside them."""
    return _steps(_block_strengths(_grey(frame), boxes))


def jpeg_quality(frame: np.ndarray, boxes: Sequence[Box] | None = None) -> int | None:
    """The frame's JPEG quality (1-100, the common JPEG library's scale) estimated from
    :func:`jpeg_steps` (the mean of its two waves', or the one that shows a step), or
    None when it shows no JPEG compression (or quality above about 90, where the steps
    are 1)."""
    return _quality(jpeg_steps(frame, boxes))


AROUND_DICE = 2.0
""":func:`dice_jpeg_quality` judges each die's box grown to this many times its side about
its centre: a die and the floor about it. A die's own blocks alone are too few to judge
under about six dice (the d6 val photos at their working size compressed at 50-85: 25 of
the 30 frames of five dice or fewer showed no step on the dice alone; grown to twice, all
but one, a photo of one die)."""

FEW_BLOCKS = 400
"""About dice whose grown boxes hold fewer blocks than this (a few dice) and show no
step, :func:`dice_jpeg_quality` judges the whole frame instead: a die or two and the
floor about them may keep too few strengths off zero to tell, where the whole frame (the
tray's walls, the table) does. Four dice of the working size hold about 400. An
uncompressed frame of a few dice so pays the whole frame's measure (about 10 ms at
1280x720), where its few dice are read the sooner."""


MOST_BLOCKS = 600
""":func:`dice_jpeg_quality` judges at most this many of the blocks about the dice (every
n-th): a frame of 15-25 dice holds about 1,500, and the step is as plain in a few hundred.
On the d6 val photos at the working size and the speed benchmark's 1280x720 frames (45),
uncompressed or compressed at 15-85 or 95: the same quality on every frame as from all of
them; at 90, 4 frames differ (92 for 91, and one seen at 91 where all of them show none).
It halves the measure's cost on the speed frames (about 1.4 ms against 1.8)."""


def dice_jpeg_quality(frame: np.ndarray, boxes: Sequence[Box]) -> int | None:
    """:func:`jpeg_quality` judged about the dice (``boxes`` in frame pixels, each grown by
    :data:`AROUND_DICE`): what compression did to the dice, for a fraction of the cost of
    the whole frame (about 1.4 ms for a 1280x720 frame of 15-25 dice), or the whole
    frame's when a few dice show none (:data:`FEW_BLOCKS`)."""
    grown = []
    for x, y, w, h in boxes:
        gw, gh = w * (AROUND_DICE - 1) / 2, h * (AROUND_DICE - 1) / 2
        grown.append((int(x - gw), int(y - gh), int(w + 2 * gw), int(h + 2 * gh)))
    grey = _grey(frame)
    strengths = _block_strengths(grey, grown)
    blocks = len(strengths)
    if blocks > MOST_BLOCKS:  # every n-th: as many as the lattice needs
        strengths = strengths[:: -(-blocks // MOST_BLOCKS)]
    quality = _quality(_steps(strengths))
    if quality is None and blocks < FEW_BLOCKS:
        return _quality(_steps(_block_strengths(grey, None)))
    return quality


def _grey(frame: np.ndarray) -> np.ndarray:
    return frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)


def _steps(strengths: np.ndarray) -> tuple[int | None, int | None]:
    if not len(strengths):
        return None, None
    return _step(strengths[:, 0]), _step(strengths[:, 1])


def _quality(steps: tuple[int | None, int | None]) -> int | None:
    """The quality of the library's scale whose two lowest waves' steps these are."""
    qualities = []
    for step, base in zip(steps, _BASES, strict=True):
        if step is None:
            continue
        scale = 100 * step / base  # the library: scale = 5000 / q under 50, 200 - 2q above
        qualities.append(5000 / scale if scale > 100 else (200 - scale) / 2)
    if not qualities:
        return None
    return int(round(min(max(float(np.mean(qualities)), 1.0), 100.0)))


HARD_BELOW = 78
"""A JPEG quality under which a camera compresses hard: the face networks' reads of dice
of the working size (about 40 px) need a far higher confidence to be trusted
(:func:`compressed_sure_from`), and the tray check advises compressing less
(:data:`vision.setupadvice.JPEG_ADVICE_BELOW`)."""

COMPRESSED_SURE_FROM: tuple[tuple[float, float, float], ...] = (
    (32.0, 0.9, 0.95),
    (47.0, 0.8, 0.95),
    (65.0, 0.8, 0.9),
)
"""(dice under this many px across, the least confidence read sure at a quality of
:data:`HARD_BELOW` or more, and under it), smallest dice first; dice of 65 px or more
need nothing more. A frame's compression costs its dice more the fewer pixels they have
(the blocks are 8 px whatever the die). The sides are those of the dice the reader finds
(their boxes are tighter than the data set's labels: a die of the working size, about
40 px labelled, is found about 37 px across).

Placed (fifty-fourth session, :mod:`vision.training.calibrate_compression`) on the
out-of-fold reads of two seeds' fold networks with their quick looks: the train photos
each fold was trained without (test not read), brought to 0.7, 1, 1.5 and 2 times the
working size and compressed there at 90, 85, 80, 75, 60, 50 and 30. For each band and
class of quality, the least of 0.8 / 0.9 / 0.95 that leaves at most about 0.1% of its
dice wrong and sure beyond the data set's label mistakes, the two seeds pooled (wrong and
sure / dice at the networks' rule alone and at the value kept):

  found dice      quality 78 or more              under 78
  under 32 px     56 / 7,867 (0.71%); 0.9: 3      147 / 10,194 (1.44%); 0.95: 1
  32-47 px        24 / 9,138 (0.26%); 0.8: 5      118 / 12,156 (0.97%); 0.95: 5
  47-65 px        11 / 7,816 (0.14%); 0.8: 6       43 / 10,435 (0.41%); 0.9: 5
  65 px or more    8 / 9,928 (0.08%)               12 / 13,209 (0.09%)

(as shot, uncompressed: 3 / 2,645, 3 / 3,020, 1 / 2,638 and 2 / 3,302.) The next lower
value leaves 8 (0.10%), 26 (0.21%), 17 (0.14%) and 13 (0.12%) where one is kept, and
the dice read sure and right fall from 91.8 to 78.6%, 97.4 to 90.0% (0.8: 94.9%), 91.4
to 62.4% and 97.5 to 90.3%: what the table pays in dice to confirm (docs/vision.md, *A
camera that compresses hard*)."""


ENROLLED_SURE_FROM: tuple[tuple[float, float, float], ...] = (
    (32.0, 0.8, 0.85),
    (47.0, 0.7, 0.85),
    (65.0, 0.0, 0.7),
)
""":data:`COMPRESSED_SURE_FROM` for dice read by an enrolled profile, whose confidences are
its own (:meth:`vision.enrollment.Profile.classify_many`: a sure read's median is about
0.87, where the face networks' is over 0.99). Placed (fifty-fourth session,
:mod:`vision.training.calibrate_compression` ``--reader enrolled`` and ``--reader
symbols``) on two readers, each brought to 0.7, 1 and 1.5 times the working size and
compressed at 90-30: the d6 faces enrolled as symbols from 5 train crops a face, reading
the train and val photos; and 480 drawn SeaFall trays (two seeds), each read by a profile
of 5 drawn crops a face. The drawn trays' profiles are wrong and sure of some dice even
on sharp trays (drawn weak faces taken for blank ones; at 32-47 px seed 31's profile 0.4%,
seed 57's 2.4%), so there each value is the least that brings a band's compressed dice
back to what the profile does with sharp ones; on the d6 photos, to 0.1% or less. Wrong
and sure / read sure and right, by the rule alone and by the table (d6 stand-in; drawn
SeaFall, two seeds pooled):

  found dice, quality   d6 stand-in                    drawn SeaFall (sharp)
  under 32, under 78    1.43% / 55.7 -> 0.02% / 27.5   too few dice
  under 32, 78 or more  0.44% / 65.7 -> 0.07% / 47.6   too few dice
  32-47, under 78       0.26% / 69.4 -> 0.01% / 39.5   3.59% / 88.3 -> 0.76% / 69.4 (1.38%)
  32-47, 78 or more     0.12% / 82.3 -> 0.02% / 69.1   1.76% / 94.4 -> 1.34% / 90.0 (1.38%)
  47-65, under 78       0.07% / 83.2 -> 0.02% / 69.4   1.22% / 94.9 -> 0.83% / 90.5 (0.94%)
  47-65, 78 or more     0.11% / 89.8, nothing asked    0.98% / 96.9, nothing asked (0.94%)
  65 or more            0.10% and 0% / 90-92           0.79% and 0.71% / 97 (0.66%)

At 32-47 px under 78, 0.8 left the drawn trays 1.48% (over their sharp 1.38%), so 0.85;
under 32 px is asked at least as much. The cost is dice to confirm; it falls on the d6
stand-in hardest, whose confidences run lower."""


def compressed_sure_from(quality: int | None, die_px: float,
                         table: Sequence[tuple[float, float, float]] = COMPRESSED_SURE_FROM
                         ) -> float:
    """The least confidence at which a die is read sure in a frame that shows JPEG
    compression at ``quality`` (None: none shown, or so light that it cannot be seen), its
    dice ``die_px`` across (their median) in the frame's own pixels, where the compression
    happened. 0 where the reader's own rule needs nothing more. ``table``: the pip
    reader's (:data:`COMPRESSED_SURE_FROM`) or a profile's (:data:`ENROLLED_SURE_FROM`)."""
    if quality is None:
        return 0.0
    for under, light, hard in table:
        if die_px < under:
            return hard if quality < HARD_BELOW else light
    return 0.0


def frames_jpeg_quality(frames: Sequence[np.ndarray]) -> int | None:
    """The median :func:`jpeg_quality` of a camera's frames, or None when fewer than half
    of them show JPEG compression."""
    found = [q for q in (jpeg_quality(f) for f in frames) if q is not None]
    if not found or 2 * len(found) < len(frames):
        return None
    return int(round(float(np.median(found))))
