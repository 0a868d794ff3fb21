"""The lead rule: when an enrolled read is sure enough to trust.

A profile (:class:`vision.enrollment.Profile`) scores a die against each face; the die is
read as the best-scoring face, and the read is left to the table (``uncertain``) when that
score is under :data:`MIN_SIMILARITY` or its lead over the next face is under the lead
needed (:func:`lead_needed`). The lead needed falls as the best score rises, and the
profile's margin that it starts from follows what the profile has learned from the table
(:func:`margin_for`, from :func:`learned_range`). The numbers are placed by
``python -m vision.training.calibrate_enrolled``; their table is the note under
the thresholds ("MIN_MARGIN's docstring" elsewhere).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

MIN_SIMILARITY = 0.5
MIN_MARGIN = 0.115
MIN_MARGIN_LEARNING = 0.165
MIN_MARGIN_HALFWAY = 0.06
MIN_MARGIN_LEARNED = 0.02
LEARNED_HALFWAY = 10
LEARNED_PER_FACE = 20
LEAD_PIVOT = 0.8
LEAD_FLOOR = 0.06
"""A read is uncertain when the best face's score is under MIN_SIMILARITY, or its lead over
the best other face's score is under the lead needed (:func:`lead_needed`): the
profile's margin for a best score of LEAD_PIVOT, one point less for each point the best
score is above it (one more for each below), and never under LEAD_FLOOR. A die that
matches a crop closely needs a smaller lead than one that matches loosely.

The margin depends on what the profile has learned (:func:`margin_for`): MIN_MARGIN
while it has learned nothing (5 enrolled crops per face), MIN_MARGIN_LEARNING while it
learns its first LEARNED_HALFWAY crops per face (from the first learned crop of any face),
MIN_MARGIN_HALFWAY from there, MIN_MARGIN_LEARNED once every face has its
LEARNED_PER_FACE learned crops besides its enrolled ones (the most it keeps:
:meth:`vision.enrollment.Profile.learn`).

Each margin is placed by ``python -m vision.training.calibrate_enrolled`` (``--learned N``
for the learned ones): the least that leaves at most 0.15% of train's dice silently
wrong over 16 enrollments of 5 crops per face from 16 places in the train photos, each
made to learn N crops per face from train photos as a table would
(:func:`vision.training.calibrate_enrolled.learned_profile`); train is read outside every
photo the profile saw, val whole, the known label mistakes left out, test not read.
Twenty-ninth session, the custom-face dice found by the body detector and die-or-not
check that learned darker floors (``docs/vision.md``, *Which tray floor*), the dice read
and the crops learned cut about the die's top face (:data:`vision.boxes.TOP_FACE_SHIFT`,
0.01; enrolled crops are framed again about the die found in them,
:func:`vision.enrollcrops.reframe`),
with margins tried from -0.25 (thirty-third session); placed again in the thirty-fourth,
for the ink maps made from the distance along the marks' ink
(:func:`vision.crops.ink_distances`), and in the thirty-seventh, with the dice looked at
again read about the body's other colour too (:data:`vision.enrollment.OTHER_BODY_LOOK`):

  learned per face   margin    read confidently   silent errors   nearest face right
                     needed    train    val       train    val    train    val
  none (5 enrolled)  0.115     91.3%    92.0%     0.14%   0.03%   97.4%   98.5%
  1                  0.105     92.5%    93.5%     0.14%   0.00%   97.6%   98.7%
  3                  0.095     94.3%    95.4%     0.10%   0.00%   98.1%   99.2%
  5                  0.165     91.4%    91.3%     0.14%   0.00%   98.0%   99.2%
  10                 0.06      95.6%    98.7%     0.15%   0.00%   98.3%   99.9%
  15                 0.04      95.9%    98.7%     0.15%   0.00%   98.2%   99.9%
  20                 0.02      96.6%    99.0%     0.09%   0.00%   98.4%   99.7%

so MIN_MARGIN is 0.115, MIN_MARGIN_LEARNING 0.165 (the most 1, 3 and 5 ask),
MIN_MARGIN_HALFWAY 0.06 (the most 10 and 15 ask) and MIN_MARGIN_LEARNED 0.02. The
thirty-fourth session's margins (0.125, 0.04 and -0.005) had come to leave 0.16-0.18% of
train silently wrong at 5, 10 and 20 learned crops a face, without the look as with it
and with the die-or-not check before this session's as with it (the reader changed after
they were placed: pieces of dice dropped, thirty-fifth session). In the thirty-fourth
session: 0.115, 0.115, 0.095, 0.125, 0.04, 0.025 and -0.005, reading 90.8%, 91.4%, 93.6%,
92.9%, 95.2%, 95.4% and 96.1% of train (val 90.5%, 91.2%, 93.9%, 92.2%, 97.8%, 97.6% and
97.9%). A margin under 0 (as -0.005 was) is the lead needed at LEAD_PIVOT falling under
the floor: with -0.005, a die scoring 0.735 or more needed only LEAD_FLOOR's lead. With the
plain face-distance maps before (thirty-third session) the stages needed 0.105, 0.095,
0.08, 0.13, 0.005, -0.03 and -0.08, and read 88.1%, 89.0%, 91.2%, 89.1%, 94.0%, 94.5% and
95.3% of train (val 87.5%, 88.5%, 90.8%, 86.8%, 95.3%, 95.6% and 96.1%); the script had
tried no margin under 0.05 before the thirty-third session. With the earlier detector and
check (twenty-fifth session) the stages needed 0.12, 0.115, 0.075, 0.105, 0.115, 0.05 and
0.095, and read 87.3%, 87.7%, 91.9%, 91.1%, 90.9%, 92.8% and 92.3% of train.

Since the sixty-first session a die the embedding alone puts clearly on another face is
left to the table (:data:`vision.enrollment.EMBED_VETO`). Placed again with it, the margins
of none and 20 learned crops a face stay 0.115 and 0.02, reading 91.0% and 96.4% of train
and 91.1% and 98.9% of val, with the same silent errors; the other stages were not placed
again.

The margins of earlier sessions, and what each stage read at them: ``docs/vision-history.md``,
*The learning stages' margins, session by session*."""


def margin_for(fewest: int, most: int) -> float:
    """The profile's margin (the lead needed at a best score of LEAD_PIVOT) when the face
    with the fewest learned crops has ``fewest`` and the face with the most has ``most``:
    MIN_MARGIN for a profile that has learned nothing, MIN_MARGIN_LEARNING while it learns
    its first LEARNED_HALFWAY crops per face, MIN_MARGIN_HALFWAY from there, and
    MIN_MARGIN_LEARNED once every face has its LEARNED_PER_FACE."""
    if fewest >= LEARNED_PER_FACE:
        return MIN_MARGIN_LEARNED
    if fewest >= LEARNED_HALFWAY:
        return MIN_MARGIN_HALFWAY
    return MIN_MARGIN_LEARNING if most else MIN_MARGIN


def lead_needed(margin: float, top: float | np.ndarray) -> float | np.ndarray:
    """The lead over the second face a read with best score ``top`` needs, for a profile
    whose margin is ``margin`` (for an array of best scores, an array of leads)."""
    needed = np.maximum(margin - (top - LEAD_PIVOT), LEAD_FLOOR)
    return float(needed) if np.ndim(needed) == 0 else needed


def learned_counts(owners: np.ndarray, sources: Sequence[str], faces: int) -> np.ndarray:
    """``(faces,)``: how many learned crops each face has (``sources``: ``""`` for an
    enrolled crop; empty when all were enrolled)."""
    if not len(sources):
        return np.zeros(faces, np.int64)
    learned = np.array([o for o, src in zip(owners, sources, strict=True) if src], np.int64)
    return np.bincount(learned, minlength=faces)


def learned_range(owners: np.ndarray, sources: Sequence[str], faces: int) -> tuple[int, int]:
    """(fewest, most): the learned crops of the face with the fewest and of the face with
    the most (``sources`` as :func:`learned_counts` takes them)."""
    counts = learned_counts(owners, sources, faces)
    return int(counts.min()), int(counts.max())
