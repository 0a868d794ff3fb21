"""The enrolled lead's calibration rule (vision/training/calibrate_enrolled.py), on made-up
likenesses: the script itself reads the d6 photos, which tests do not need."""

from __future__ import annotations

import numpy as np
import pytest

from vision import enrollment
from vision.training.calibrate_enrolled import Scored, face_scores, least_margin, read_counts


def _run() -> Scored:
    # six faces of one crop each; four dice of face 0 and one of face 1
    owners = np.arange(6)
    ink = np.full((5, 6), 0.3, np.float32)
    ink[0, 0] = 0.95                   # clearly face 0
    ink[1, 0], ink[1, 1] = 0.85, 0.70  # face 0 by 0.15
    ink[2, 0], ink[2, 3] = 0.80, 0.70  # face 0 by 0.10
    ink[3, 0] = 0.45                   # too unlike anything
    ink[4, 0], ink[4, 1] = 0.86, 0.74  # a face 1 that looks like face 0, by 0.12
    return Scored(np.array([0, 0, 0, 0, 1]), ink, ink.copy(), owners)


def test_face_scores_are_each_faces_best_likeness_mixed() -> None:
    run = _run()
    embedded = np.zeros_like(run.embedded)
    mixed = Scored(run.labels, run.ink, embedded, run.owners)
    scores = face_scores(mixed, 0.7, 6)
    assert scores.shape == (5, 6)
    assert np.allclose(scores, 0.7 * run.ink)


def test_read_counts_follow_the_falling_lead() -> None:
    run = _run()
    # lead needed = margin - (top - 0.8), never under the floor (0.06)
    dice, right, silent, nearest = read_counts([run], 1.0, 0.2)
    assert (dice, nearest) == (5, 4)
    # die 0 (top 0.95, needs 0.05 -> the floor), die 1 (0.85: needs 0.15, has 0.15), and the
    # face 1 read as 0 (0.86: needs 0.14, has 0.12: uncertain); die 2 (needs 0.2) and 3 not
    assert (right, silent) == (2, 0)
    dice, right, silent, _ = read_counts([run], 1.0, 0.17)
    assert (right, silent) == (2, 1)  # the look-alike is now read, wrongly


def test_least_margin_is_the_smallest_within_the_silent_share() -> None:
    run = _run()
    margins = [k / 100 for k in range(10, 31)]
    assert least_margin([run], 1.0, margins, silent_pct=0.0) == 0.19
    assert least_margin([run], 1.0, margins, silent_pct=20.0) == 0.1
    assert least_margin([run], 1.0, [0.1, 0.12], silent_pct=0.0) is None


def test_a_face_with_several_crops_scores_its_best() -> None:
    run = _run()
    # a profile that has learned: face 0 has a second crop, a little less like each die
    owners = np.array([0, 0, 1, 2, 3, 4, 5])
    ink = np.hstack([run.ink[:, :1] - 0.1, run.ink[:, :1], run.ink[:, 1:]])
    learned = Scored(run.labels, ink, ink.copy(), owners)
    scores = face_scores(learned, 1.0, 6)
    assert np.allclose(scores, run.ink)  # the best of face 0's two crops; the others' one


def test_learned_per_face_counts_the_table_s_crops_only() -> None:
    from tests.vision.test_vision_enrollment import seafall_crops
    from vision.enrollment import Profile
    from vision.training.calibrate_enrolled import learned_per_face

    profile = Profile.from_crops("sf", "seafall", seafall_crops(seed=3, per_face=1))
    assert learned_per_face(profile) == [0, 0, 0, 0]
    weak = seafall_crops(seed=21, per_face=2)["weak"]
    learned = profile.learn([("weak", c, f"read:{i}") for i, c in enumerate(weak)])
    assert learned_per_face(learned) == [0, 0, 2, 0]


def test_an_unsure_die_is_looked_at_again_with_the_sure_dice_of_its_photo() -> None:
    from vision.training.calibrate_enrolled import Frames

    # two faces of one crop each; photo A holds dice 0-2, photo B die 3
    owners = np.arange(2)
    ink = np.array([[0.95, 0.30],    # A: sure face 0 (not counted: say, an enrolled photo)
                    [0.75, 0.70],    # A: a face 0 the profile is unsure of
                    [0.72, 0.70],    # A: a face 1 the profile is unsure of, near face 0
                    [0.75, 0.70]],   # B: as die 1, but alone in its photo
                   np.float32)
    groups = np.array([[0, 1, 2], [3, -1, -1]])
    beside = np.zeros((2, 3, 3), np.float32)
    beside[0, 1, 0] = 0.96           # die 1 is much like die 0
    beside[0, 2, 0] = 0.90           # and so, less, is die 2
    beside[0, 1, 2] = beside[0, 2, 1] = 0.5
    frames = Frames(groups, beside, beside.copy())
    labels = np.array([0, 0, 1, 0])
    keep = np.array([False, True, True, True])
    alone = Scored(labels, ink, ink.copy(), owners, keep)
    together = Scored(labels, ink, ink.copy(), owners, keep, frames)
    assert read_counts([alone], 1.0, 0.14) == (3, 0, 0, 2)
    # die 1 reads 0.96 for face 0 now: a lead of 0.26, sure and right; die 2 reads 0.90
    # for face 0 against 0.70: sure and wrong (the rule is the profile's, as at a table);
    # die 3 has no sure die beside it
    assert read_counts([together], 1.0, 0.14) == (3, 1, 1, 2)
    # at a margin where die 0 itself is unsure, nothing is looked at again
    assert read_counts([together], 1.0, 0.9)[1:3] == (0, 0)


def test_frames_group_a_split_s_dice_by_photo_with_their_likenesses() -> None:
    from tests.vision.test_vision_enrollment import seafall_crops
    from vision import templates
    from vision.embedding import default_embedder
    from vision.neighbours import likeness_parts
    from vision.training.calibrate_enrolled import frames_of

    crops = [c for items in seafall_crops(seed=5, per_face=1).values() for c in items]
    wides = [c.copy() for c in crops]
    names = np.array(["a.jpg", "b.jpg", "a.jpg", "a.jpg"])  # dice 0, 2, 3 in a; 1 in b
    frames = frames_of(crops, wides, names)
    assert frames.groups.tolist() == [[0, 2, 3], [1, -1, -1]]
    assert frames.ink.shape == frames.embedded.shape == (2, 3, 3)
    # photo a's likenesses are vision.neighbours' for its three dice
    mine = [crops[i] for i in (0, 2, 3)]
    both = templates.queries(mine + mine)
    every = np.arange(3)
    ink, embedded = likeness_parts(both.take(range(3)), default_embedder().embed(mine),
                                   every, every, both.take(range(3, 6)))
    assert np.allclose(frames.ink[0], ink, atol=1e-5)
    assert np.allclose(frames.embedded[0], embedded, atol=1e-5)
    # photo b has one die: nothing past it (a die's likeness to itself is never used: a
    # die is either sure, and a template, or unsure, and compared)
    for part in (frames.ink[1], frames.embedded[1]):
        assert (part[1:] == 0).all() and (part[:, 1:] == 0).all()


def test_an_unsure_die_is_looked_at_again_by_its_wider_crop_as_the_reader_does() -> None:
    # Profile.classify_many: a die sure by its crop keeps its read, a die unsure by it is
    # read again with the ink similarity of its crop or wider crop, the better
    owners = np.arange(2)
    ink = np.array([[0.95, 0.30],    # sure face 0 by its crop
                    [0.75, 0.70],    # a face 1 unsure by its crop
                    [0.75, 0.70]],   # a face 0 unsure by its crop
                   np.float32)
    wide = ink.copy()
    wide[0, 1] = 0.99                # the wide crop would make die 0 a face 1: not asked
    wide[1, 1] = 0.95                # die 1's wide crop shows its face 1 clearly
    labels = np.array([0, 1, 0])
    alone = Scored(labels, ink, ink.copy(), owners)
    looked = Scored(labels, ink, ink.copy(), owners, ink_wide=np.maximum(ink, wide))
    assert read_counts([alone], 1.0, 0.14) == (3, 1, 0, 2)
    # die 1 now sure and right; die 0 still sure and right; die 2 still unsure
    assert read_counts([looked], 1.0, 0.14) == (3, 2, 0, 3)


def test_a_sure_die_the_embedding_alone_puts_on_another_face_is_vetoed_as_the_reader_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the look-alike (die 4, face 1 read as 0 by its ink at a margin of 0.17) is left to the
    # table once its embedding puts it on face 1 by the veto's lead (vision.enrollment.EMBED_VETO)
    run = _run()
    embedded = run.ink.copy()
    embedded[4, 0], embedded[4, 1] = 0.60, 0.61 + enrollment.EMBED_VETO
    embedded[1, 1] = embedded[1, 0] + enrollment.EMBED_VETO - 0.01  # under the veto's lead
    vetoed = Scored(run.labels, run.ink, embedded, run.owners)
    assert read_counts([vetoed], 1.0, 0.17)[1:3] == (2, 0)
    monkeypatch.setattr(enrollment, "EMBED_VETO", None)
    assert read_counts([vetoed], 1.0, 0.17)[1:3] == (2, 1)
