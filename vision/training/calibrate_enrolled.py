"""Place the enrolled reader's lead on the d6 faces enrolled as symbols, over many enrollments.

Which crops are enrolled moves the enrolled reader's silent errors a lot (``docs/vision.md``,
*Custom faces*), so its lead is placed over :func:`enrollment_draws` enrollments of
:data:`ENROLL_PER_FACE` crops per face from different places in the train photos, not one.
The train photos' dice are cut once, as the enrolled reader cuts them (custom-face dice are
found by their bodies); then, for each enrollment, every die outside the photos it was
enrolled from, and every val die, is scored against the profile (the known label mistakes
left out). The table gives, for each candidate margin (the lead needed at a best score of
:data:`vision.leadrule.LEAD_PIVOT`, falling a point for each point of score above it,
:func:`vision.leadrule.lead_needed`), the share of dice read confidently right and the
share read silently wrong, pooled over the enrollments (margins from -0.25, where every die
scoring :data:`vision.leadrule.MIN_SIMILARITY` or more needs only the floor's lead,
:data:`vision.leadrule.LEAD_FLOOR`, to 0.35); the kept margin is the least that
leaves at most ``--silent`` percent of train's dice silently wrong. The test split is never
read. By default it places the margin of a profile of 5 crops per face
(:data:`vision.leadrule.MIN_MARGIN`); with ``--learned N``, that of the same profile once
the table has confirmed N dice per face (:func:`learned_profile`), the photos the table
read left out of train as the enrolled ones are: :data:`vision.leadrule.MIN_MARGIN_LEARNING`
is the most that 1, 3 and 5 ask, :data:`vision.leadrule.MIN_MARGIN_HALFWAY` the most
that 10 and 15 ask, and 20 places :data:`vision.leadrule.MIN_MARGIN_LEARNED`.

    .venv/bin/python -m vision.training.calibrate_enrolled [--draws 16] [--weight 0.7] \\
        [--embedding MODEL.onnx] [--learned N] [--alone] [--veto V]

``--weight`` mixes the likenesses as :data:`vision.enrollment.TEMPLATE_WEIGHT` does,
``--embedding`` scores with another embedding network (one being tried), and ``--veto``
leaves a sure die to the table at another embedding lead than
:data:`vision.enrollment.EMBED_VETO` (a negative value: no veto), so that a change to any
of them is measured the way the packaged figures were. Needs no deep-learning framework.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision import enrollment, templates
from vision.boxes import TOP_FACE_SHIFT
from vision.embedding import SymbolEmbedder
from vision.enroll import crops_from_photos
from vision.enrollment import TEMPLATE_WEIGHT, WIDE_LOOK_LEAD, Profile
from vision.faces import D6_FACES
from vision.leadrule import (
    LEAD_PIVOT,
    LEARNED_PER_FACE,
    MIN_SIMILARITY,
    lead_needed,
    learned_counts,
)
from vision.neighbours import likeness_parts as neighbour_likeness
from vision.reader import DiceReader
from vision.training.label_errors import LABEL_ERRORS
from vision.training.photos import found_dice, labelled_frames, match, split_photos

ENROLL_PER_FACE = 5
"""Crops per face of an enrollment (the issue's "at most 5 enrollment images per face")."""


def enrollment_draws(count: int) -> list[tuple[int, int | None]]:
    """``count`` enrollments (start photo, per photo) from 16: 8 places in the train
    photos, each taking every labelled die of a photo or one of a face per photo."""
    return [(start, per_photo) for start in range(0, 200, 25)
            for per_photo in (None, 1)][:count]


def enrolled_profile(start: int = 0, per_photo: int | None = None,
                     taken_from: list[str] | None = None,
                     top_face_shift: float = TOP_FACE_SHIFT) -> Profile:
    """The d6 faces enrolled as symbols from ENROLL_PER_FACE crops per face: the first
    labelled dice of the train photos from photo ``start`` on, at most ``per_photo`` of a
    face from one photo (known label mistakes left out: a player names the face shown).
    ``taken_from`` gets the names of the photos the crops came from. ``top_face_shift``:
    the crops cut about the dice's top faces, as a reader with it cuts them."""
    crops = crops_from_photos(split_photos("train")[start:], D6_FACES,
                              per_face=ENROLL_PER_FACE, per_photo=per_photo,
                              wrong_labels=LABEL_ERRORS, taken_from=taken_from,
                              top_face_shift=top_face_shift)
    return Profile.from_crops("bench-d6-symbols", "d6", crops)


def learned_profile(profile: Profile, per_face: int = LEARNED_PER_FACE,
                    taken_from: list[str] | None = None, neighbours: bool = True,
                    top_face_shift: float = TOP_FACE_SHIFT) -> Profile:
    """The enrolled profile after the table confirmed dice, as at a real table: the train
    photos are read in turn with the profile as it is. A read with a die the reader was
    unsure of waits for the players, who confirm it with its true faces: every found die
    of it is learned (``Profile.learn``). A read sure of every die is applied as it is, and
    a die of it read wrong is corrected and learned. This goes on until each face has
    learned ``per_face``. Known label mistakes are left out: the table would give the
    true face. ``taken_from`` gets the names of the photos read. ``neighbours``: whether
    the reader looks again at unsure dice with the sure ones beside them (as it does)."""
    for path, small, truth in labelled_frames("train"):
        have = learned_per_face(profile)
        if min(have) >= per_face:
            break
        if taken_from is not None:
            taken_from.append(path.name)
        read = DiceReader("d6", profile=profile, neighbours=neighbours,
                          top_face_shift=top_face_shift).read(small, str(path))
        pairs = match([d.box for d in read.dice], [b for _, b in truth])
        confirmed = any(read.dice[i].uncertain for _, i in pairs)
        dice = []
        for t, i in pairs:
            face, d = D6_FACES[truth[t][0]], read.dice[i]
            if (path.name, face) in LABEL_ERRORS or not (confirmed or d.face != face):
                continue
            if have[truth[t][0]] < per_face:  # a face's crops stop at per_face
                have[truth[t][0]] += 1
                dice.append((face, d.crop, f"{path.name}:{i}"))
        if dice:
            profile = profile.learn(dice)
    return profile


def learned_per_face(profile: Profile) -> list[int]:
    """How many crops of each face the profile has learned from the table."""
    return learned_counts(profile.owners, profile.sources, len(profile.labels)).tolist()


@dataclass(frozen=True)
class Frames:
    """A split's dice grouped by photo, with each die's likeness parts to the other dice
    of its photo (:func:`vision.neighbours.likeness_parts`), for the reader's second look
    at the dice a profile is unsure of (the sure dice of the frame as templates)."""

    groups: np.ndarray
    """``(P, K)``: the dice of each photo (indices; -1 past a photo's last die)."""
    ink: np.ndarray
    """``(P, K, K)``: ink similarity of each die of a photo to each die of it (0 past the
    photo's last die; a die is never its own neighbour, being sure or not)."""
    embedded: np.ndarray
    """``(P, K, K)``: their embedding similarity."""


def frames_of(crops: list[np.ndarray], wides: list[np.ndarray], names: np.ndarray,
              ) -> Frames:
    """:class:`Frames` of a split's dice (their crops and wider crops, photo names)."""
    photos = list(dict.fromkeys(names.tolist()))
    most = max((int((names == p).sum()) for p in photos), default=0)
    groups = np.full((len(photos), most), -1, np.int64)
    ink = np.zeros((len(photos), most, most), np.float32)
    embedded = ink.copy()
    for k, photo in enumerate(photos):
        dice = np.flatnonzero(names == photo)
        n = len(dice)
        groups[k, :n] = dice
        both = templates.queries([crops[i] for i in dice] + [wides[i] for i in dice])
        vectors = enrollment.default_embedder().embed([crops[i] for i in dice])
        every = np.arange(n)
        pair_ink, pair_embedded = neighbour_likeness(
            both.take(range(n)), vectors, every, every, both.take(range(n, 2 * n)))
        ink[k, :n, :n], embedded[k, :n, :n] = pair_ink, pair_embedded
    return Frames(groups, ink, embedded)


@dataclass(frozen=True)
class Scored:
    """One enrollment's likenesses for one split's dice."""

    labels: np.ndarray
    """``(N,)`` face index of each die."""
    ink: np.ndarray
    """``(N, M)`` ink-template similarity to each of the profile's M crops."""
    embedded: np.ndarray
    """``(N, M)`` embedding similarity to each crop."""
    owners: np.ndarray
    """``(M,)`` face index of each profile crop."""
    keep: np.ndarray | None = None
    """``(N,)`` the dice counted (the others are read, and may help their neighbours, but
    not counted: the enrolled photos' dice, known label mistakes); None: all."""
    frames: Frames | None = None
    """The dice's photos, for the second look with the sure dice beside them; None: each
    die read alone."""
    ink_wide: np.ndarray | None = None
    """``(N, M)`` the better of each die's crop's and its wider crop's ink similarity, for
    the reader's look again at a die it is unsure of; None: no wider look."""
    ink_other: np.ndarray | None = None
    """``(N, M)`` the best of those and the crop's about the body's other colour, for the
    reader's look at a die still unsure (:data:`vision.enrollment.OTHER_BODY_LOOK`)."""


def face_scores(run: Scored, weight: float, faces: int, wide: bool = False,
                other: bool = False) -> np.ndarray:
    """``(N, faces)``: each die's score per face, its best likeness among the face's crops
    (the likenesses mixed by ``weight``), as the profile scores; ``wide``: with the ink
    similarity of the die's crop or its wider crop, the better; ``other``: the best of
    those and its crop's about the body's other colour (:attr:`Scored.ink_other`)."""
    ink = run.ink
    if wide and run.ink_wide is not None:
        ink = run.ink_wide
    if other and run.ink_other is not None:
        ink = run.ink_other
    likeness = weight * ink + (1 - weight) * run.embedded
    return enrollment.face_scores(likeness, run.owners, faces)


@dataclass(frozen=True)
class Ranked:
    """One run's dice as the lead rule sees them: labels, scores per face, and the
    likenesses to their neighbours (mixed)."""

    labels: np.ndarray
    scores: np.ndarray
    keep: np.ndarray
    groups: np.ndarray | None
    beside: np.ndarray | None
    wide_scores: np.ndarray | None = None
    other_scores: np.ndarray | None = None
    embedded_scores: np.ndarray | None = None
    """``(N, faces)``: each die's score per face by its embedding part alone, for
    :data:`vision.enrollment.EMBED_VETO`."""


def ranked(runs: Sequence[Scored], weight: float) -> list[Ranked]:
    """Each run's dice scored once (the scores do not hang on the margin)."""
    out = []
    for run in runs:
        keep = np.ones(len(run.labels), bool) if run.keep is None else run.keep
        frames = run.frames
        beside = None if frames is None else weight * frames.ink + (1 - weight) * frames.embedded
        wide = None if run.ink_wide is None else face_scores(run, weight, len(D6_FACES), True)
        other = (None if run.ink_other is None
                 else face_scores(run, weight, len(D6_FACES), other=True))
        embedded = enrollment.face_scores(run.embedded, run.owners, len(D6_FACES))
        out.append(Ranked(run.labels, face_scores(run, weight, len(D6_FACES)), keep,
                          None if frames is None else frames.groups, beside, wide, other,
                          embedded))
    return out


def _rule(scores: np.ndarray, margin: float, min_similarity: float,
          ) -> tuple[np.ndarray, np.ndarray]:
    """(best face, sure) of each die by the reader's lead rule."""
    order = np.sort(scores, axis=1)
    top, lead = order[:, -1], order[:, -1] - order[:, -2]
    return scores.argmax(axis=1), (top >= min_similarity) & (lead >= lead_needed(margin, top))


def _looked_wide(r: Ranked, margin: float, min_similarity: float,
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(face, sure, scores) of each die by the lead rule, a die not clearly sure by its
    crop (:data:`vision.enrollment.WIDE_LOOK_LEAD`) read again by its crop or wider crop,
    the better, and a die still unsure by the best of those and its crop about the body's
    other colour (:meth:`vision.enrollment.Profile.classify_many`)."""
    face, sure = _rule(r.scores, margin, min_similarity)
    if r.wide_scores is None:
        return face, sure, r.scores
    order = np.sort(r.scores, axis=1)
    top = order[:, -1]
    kept = sure & (top - order[:, -2] >= WIDE_LOOK_LEAD * lead_needed(margin, top))
    face_wide, sure_wide = _rule(r.wide_scores, margin, min_similarity)
    face, sure = np.where(kept, face, face_wide), kept | sure_wide
    scores = np.where(kept[:, None], r.scores, r.wide_scores)
    if r.other_scores is not None:  # a die still unsure: about the body's other colour too
        face_other, sure_other = _rule(r.other_scores, margin, min_similarity)
        face = np.where(sure, face, face_other)
        scores = np.where(sure[:, None], scores, r.other_scores)
        sure = sure | sure_other
    return face, sure, scores


def _vetoed(r: Ranked, face: np.ndarray, sure: np.ndarray) -> np.ndarray:
    """``sure`` less the dice whose embedding part alone puts another face ahead of their
    read one by :data:`vision.enrollment.EMBED_VETO` or more (as the reader leaves them to
    the table, :meth:`vision.enrollment.Profile.classify_many`)."""
    if enrollment.EMBED_VETO is None or r.embedded_scores is None:
        return sure
    every = np.arange(len(face))
    lead = r.embedded_scores.max(axis=1) - r.embedded_scores[every, face]
    return sure & (lead < enrollment.EMBED_VETO)


def _with_neighbours(r: Ranked, face: np.ndarray, sure: np.ndarray, scores: np.ndarray,
                     margin: float, min_similarity: float) -> tuple[np.ndarray, np.ndarray]:
    """(face, sure) after the reader's second look at the unsure dice (their ``scores``),
    each face's score raised to the die's best likeness to a sure die of its photo read
    as that face (:meth:`vision.enrollment.Profile.classify_many`)."""
    assert r.groups is not None and r.beside is not None
    valid = r.groups >= 0
    dice = np.where(valid, r.groups, 0)
    sure_here, face_here = sure[dice] & valid, face[dice]
    scores = scores.copy()
    for f in range(scores.shape[1]):
        source = sure_here & (face_here == f)                              # (P, K)
        best = np.where(source[:, None, :], r.beside, -np.inf).max(axis=2)  # (P, K)
        scores[r.groups[valid], f] = np.maximum(scores[r.groups[valid], f], best[valid])
    again, sure_again = _rule(scores, margin, min_similarity)
    made_sure = ~sure & _vetoed(r, again, sure_again)
    return np.where(made_sure, again, face), sure | made_sure


def counts(reads: Sequence[Ranked], margin: float, min_similarity: float = MIN_SIMILARITY,
           ) -> tuple[int, int, int, int]:
    """(dice, read right, read silently wrong, nearest face right) over the reads, for the
    reader's rule at this margin: a die is uncertain when its best score is under
    ``min_similarity`` or its lead over the second face under :func:`lead_needed`; with
    frames, an unsure die is looked at again with its photo's sure dice as templates; with
    wide scores, before that, by its wider crop too."""
    dice = right = silent = nearest = 0
    for r in reads:
        face, sure, scores = _looked_wide(r, margin, min_similarity)
        sure = _vetoed(r, face, sure)
        nearest += int((r.keep & (face == r.labels)).sum())
        if r.groups is not None:
            face, sure = _with_neighbours(r, face, sure, scores, margin, min_similarity)
        dice += int(r.keep.sum())
        right += int((r.keep & sure & (face == r.labels)).sum())
        silent += int((r.keep & sure & (face != r.labels)).sum())
    return dice, right, silent, nearest


def read_counts(runs: Sequence[Scored], weight: float, margin: float,
                min_similarity: float = MIN_SIMILARITY) -> tuple[int, int, int, int]:
    """:func:`counts` of the runs scored with the likenesses mixed by ``weight``."""
    return counts(ranked(runs, weight), margin, min_similarity)


def least_margin(runs: Sequence[Scored], weight: float, margins: Sequence[float],
                 silent_pct: float) -> float | None:
    """The least of ``margins`` leaving at most ``silent_pct`` percent of the dice silently
    wrong (None when none does)."""
    reads = ranked(runs, weight)
    for m in sorted(margins):
        dice, _, silent, _ = counts(reads, m)
        if 100 * silent <= silent_pct * max(dice, 1):
            return m
    return None


def score_split(profile: Profile, crops: list[np.ndarray], wides: list[np.ndarray],
                labels: np.ndarray, names: np.ndarray, leave_out: set[str],
                frames: Frames | None = None) -> Scored:
    """The likenesses of a split's dice (their crops and wider crops, as the reader reads
    them) to a profile; the dice of ``leave_out`` photos and the known label mistakes are
    not counted. With ``frames``, unsure dice get the reader's second look."""
    keep = np.array([n not in leave_out and (n, D6_FACES[lab]) not in LABEL_ERRORS
                     for n, lab in zip(names, labels, strict=True)], bool)
    ink, embedded = profile.likeness_parts(crops)
    ink_wide = np.maximum(ink, profile.likeness_parts(wides)[0])
    ink_other = None
    if enrollment.OTHER_BODY_LOOK:  # a die still unsure: about the body's other colour too
        ink_other = np.maximum(ink_wide, profile.other_body_likeness(crops))
    return Scored(labels, ink, embedded, profile.owners, keep, frames, ink_wide, ink_other)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=16, help="enrollments (at most 16)")
    parser.add_argument("--weight", type=float, default=TEMPLATE_WEIGHT,
                        help="share of the ink templates in a likeness")
    parser.add_argument("--embedding", type=Path, default=None,
                        help="score with this embedding network instead of the packaged one")
    parser.add_argument("--learned", type=int, default=0, metavar="N",
                        help="place the margin of a profile that has learned N crops per face "
                             "from the table (1-5: MIN_MARGIN_LEARNING, 10-15: MIN_MARGIN_HALFWAY, "
                             "20: MIN_MARGIN_LEARNED)")
    parser.add_argument("--alone", action="store_true",
                        help="read each die by the profile alone, without the second look at "
                             "an unsure die with the sure dice of its photo (vision.neighbours)")
    parser.add_argument("--veto", type=float, default=enrollment.EMBED_VETO,
                        help="leave to the table a sure die whose embedding alone puts another "
                             "face ahead by this lead (vision.enrollment.EMBED_VETO); "
                             "a negative value: none")
    parser.add_argument("--silent", type=float, default=0.15,
                        help="the most train dice (%%) the kept margin may leave silently wrong")
    args = parser.parse_args(argv)
    start_time = time.monotonic()
    enrollment.EMBED_VETO = None if args.veto is None or args.veto < 0 else args.veto
    if args.embedding is not None:
        embedder = SymbolEmbedder(args.embedding)
        enrollment.default_embedder = lambda: embedder  # profiles and reads alike
    draws = enrollment_draws(min(args.draws, 16))
    reader = DiceReader("d6", profile=enrolled_profile())
    split_dice = {}
    for split in ("train", "val"):
        labels, crops, wides, names = found_dice(reader, split)
        frames = None if args.alone else frames_of(crops, wides, np.array(names))
        split_dice[split] = (crops, wides, np.array(labels), np.array(names), frames)
        print(f"{split}: {len(labels)} labelled dice found", flush=True)
    runs: dict[str, list[Scored]] = {"train": [], "val": []}
    packaged = 0.0
    for start, per_photo in draws:
        taken: list[str] = []
        profile = enrolled_profile(start, per_photo, taken)
        if args.learned:  # the table's photos are left out too
            profile = learned_profile(profile, args.learned, taken, neighbours=not args.alone)
        packaged = profile.min_margin
        for split, (crops, wides, labels, names, frames) in split_dice.items():
            leave_out = set(taken) if split == "train" else set()
            runs[split].append(score_split(profile, crops, wides, labels, names, leave_out,
                                           frames))
    margins = [k / 1000 for k in range(-250, 351, 5)]  # from the floor's lead for any die
    kept = least_margin(runs["train"], args.weight, margins, args.silent)
    reads = {split: ranked(split_runs, args.weight) for split, split_runs in runs.items()}
    learned = f", then {args.learned} learned per face" if args.learned else ""
    print(f"{len(draws)} enrollments of {ENROLL_PER_FACE} crops per face{learned}; likeness "
          f"{args.weight:g} templates + {1 - args.weight:g} embedding; lead needed: the margin "
          f"at a best score of {LEAD_PIVOT}, a point less per point above")
    print(f"{'margin':>7} {'train read%':>12} {'silent%':>8} {'val read%':>10} {'silent%':>8}")
    first = min(0.05, packaged, kept if kept is not None else 0.05)
    for m in margins:
        if m < first or round(m * 1000) % 10 and m not in (kept, packaged):
            continue  # the table every hundredth from 0.05 or the least that matters
        row = []
        for split in ("train", "val"):
            dice, right, silent, _ = counts(reads[split], m)
            row.append(f"{100 * right / dice:>10.1f} {100 * silent / dice:>8.2f}")
        note = f"  <- least with train silent <= {args.silent:g}%" if m == kept else ""
        note += "  (the packaged margin)" if m == packaged else ""
        print(f"{m:>7.3f} {row[0]:>20} {row[1]:>19}{note}")
    for split in ("train", "val"):
        dice, _, _, nearest = counts(reads[split], 1.0)
        print(f"{split}: nearest face right for {100 * nearest / dice:.1f}% of "
              f"{dice} die reads")
    print(f"({time.monotonic() - start_time:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
