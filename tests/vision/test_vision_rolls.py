"""Rolls (vision/rolls.py, docs/vision.md "Watching a stream"): settled reads numbered, a
partial re-roll matched to the dice that moved, a kept die's two reads weighed, and the
table's word on a die kept."""

from __future__ import annotations

from collections.abc import Collection

import cv2
import numpy as np
import pytest

from tests.vision.helpers import (
    DrawnPhoto,
    ManualClock,
    TickingDetector,
    against_edge,
    as_shot,
    dice_laid,
    die_patches,
    photo,
    roll_sequence,
    thrown_again,
)
from vision.boxes import centre
from vision.reader import DiceReader
from vision.reading import DieRead, TrayRead
from vision.rolls import (
    NUDGE_LIKENESS,
    NUDGE_WHOLE,
    RollTracker,
    nudge_likeness,
    settled_grey,
    still_die,
    unchanged,
)
from vision.sources import FakeSource
from vision.synthetic import tray_photo
from vision.watcher import SourceNotice, watch

SHEET = "IMG_20191208_112541.jpg"  # 7 dice on a white sheet


def test_roll_tracker_keeps_faces_of_unmoved_dice_only_where_nothing_moved() -> None:
    p = photo(SHEET)
    read = DiceReader("d6").read(p.image())
    tracker = RollTracker()
    first = tracker.add(read)
    motion = np.zeros(p.image().shape[:2], np.uint8)
    x, y, w, h = read.dice[0].box
    motion[y : y + h, x : x + w] = 1
    second = tracker.add(read, motion)
    assert first.id == 1 and second.id == 2
    assert 0 in second.rerolled
    assert set(second.kept) == set(range(1, len(read.dice)))


BOX = (100, 100, 40, 40)


def _die(face: str, confidence: float, uncertain: bool, box=BOX) -> DieRead:
    return DieRead(face, confidence, uncertain, box)


@pytest.mark.parametrize(("before", "now", "expected"), [
    # two sure reads of the same face: sure, the higher confidence
    (("3", 0.9, False), ("3", 0.97, False), ("3", 0.97, False)),
    # the reader was unsure before and is sure now: the sure face, not the old guess
    (("3", 0.4, True), ("5", 0.96, False), ("5", 0.96, False)),
    # sure before (what the table saw), unsure now: the sure face stands
    (("3", 0.95, False), ("5", 0.45, True), ("3", 0.95, False)),
    # two sure reads that disagree on a die that did not move: one of them is wrong, so
    # the table confirms it (the face it saw before is shown)
    (("3", 0.95, False), ("5", 0.9, False), ("3", 0.9, True)),
    # unsure twice: the more confident guess, still unsure
    (("3", 0.3, True), ("5", 0.45, True), ("5", 0.45, True)),
    (("3", 0.45, True), ("5", 0.3, True), ("3", 0.45, True)),
], ids=["sure-same", "unsure-then-sure", "sure-then-unsure", "sure-disagree",
        "unsure-twice-new", "unsure-twice-old"])
def test_a_die_that_did_not_move_takes_the_face_of_the_surer_read(
        before: tuple, now: tuple, expected: tuple) -> None:
    """Both reads saw the same face of an unmoved die. Before, the old face was kept with
    the better confidence and the new read's certainty: a die read unsure as a 3 and then
    sure as a 5 came out a sure 3, a confident wrong read."""
    moved_box = (BOX[0] + 2, BOX[1] + 1, 40, 40)
    die = still_die(_die(*before), _die(*now, box=moved_box))
    assert (die.face, die.confidence, die.uncertain) == expected
    assert die.box == moved_box  # where the die is now, with the new crop as evidence


def test_roll_tracker_gives_a_kept_die_the_surer_reads_face() -> None:
    tracker = RollTracker()
    tracker.add(TrayRead("d6", (_die("3", 0.4, True), _die("2", 0.9, False, (300, 100, 40, 40))),
                         "frame-1"))
    frame = np.zeros((480, 640), np.uint8)
    frame[100:140, 300:340] = 1  # the second die was picked up and rolled again
    second = tracker.add(TrayRead("d6", (_die("5", 0.96, False),
                                         _die("6", 0.95, False, (300, 100, 40, 40))), "frame-2"),
                          frame)
    assert second.kept == (0,) and second.rerolled == (1,)
    assert [(d.face, d.uncertain) for d in second.read.dice] == [("5", False), ("6", False)]


def test_the_tables_word_on_a_die_stands_while_it_stays_put() -> None:
    """A die the table corrected keeps the table's face in the re-rolls that leave it where
    it is, whatever the reader makes of it; a die that moves is read again."""
    other = (300, 100, 40, 40)
    tracker = RollTracker()
    first = tracker.add(TrayRead("d6", (_die("3", 0.95, False), _die("2", 0.9, False, other)),
                                 "frame-1"))
    assert not tracker.confirm(first.id + 1, {0: "4"})  # not the last roll
    assert not tracker.confirm(first.id, {2: "4"})      # no such die
    assert tracker.last is not None and tracker.last.read.dice[0].face == "3"
    assert tracker.confirm(first.id, {0: "4"})
    assert [d.face for d in tracker.last.read.dice] == ["4", "2"]
    motion = np.zeros((480, 640), np.uint8)
    motion[100:140, 300:340] = 1  # the second die is rolled again, twice
    for n in (2, 3):
        roll = tracker.add(TrayRead("d6", (_die("3", 0.97, False), _die("5", 0.9, False, other)),
                                    f"frame-{n}"), motion)
        assert roll.kept == (0,)
        assert [(d.face, d.confidence, d.uncertain) for d in roll.read.dice] == [
            ("4", 1.0, False), ("5", 0.9, False)]
    motion[100:140, 100:140] = 1  # now the first die moves too: it is read as it lands
    moved = tracker.add(TrayRead("d6", (_die("3", 0.97, False), _die("5", 0.9, False, other)),
                                 "frame-4"), motion)
    assert moved.kept == () and moved.read.dice[0].face == "3"


def test_a_box_the_table_said_is_no_die_stays_out_while_it_lies_where_it_lay() -> None:
    """A token in the tray, boxed as a die and taken out by the table (docs/ui.md, "Dice"),
    stays out of the next rolls while it does not move, read again too, so the table does
    not take it out at every throw; once it moves, or the table says it is a die after all,
    it is a die again."""
    token = (300, 100, 40, 40)
    tracker = RollTracker()
    first = tracker.add(TrayRead("d6", (_die("3", 0.95, False), _die("2", 0.9, False, token)),
                                 "frame-1"))
    assert first.not_dice == {}
    assert not tracker.confirm(first.id, {}, {5: "Ana"})  # no such box
    assert tracker.confirm(first.id, {0: "4", 1: "6"}, {1: "Ana"})
    assert tracker.last is not None and tracker.last.not_dice == {1: "Ana"}
    assert [d.face for d in tracker.last.read.dice] == ["4", "2"]  # no face for a token
    motion = np.zeros((480, 640), np.uint8)
    motion[100:140, 100:140] = 1  # the die is thrown again; the token lies still
    thrown = TrayRead("d6", (_die("5", 0.95, False), _die("2", 0.9, False, token)), "frame-2")
    second = tracker.add(thrown, motion)
    assert (second.rerolled, second.kept, second.not_dice) == ((0,), (1,), {1: "Ana"})
    assert second.read.dice[1].face == "2"  # as read: the table gave it no face
    again = tracker.again(thrown)
    assert again.id == second.id and again.not_dice == {1: "Ana"}
    assert tracker.confirm(second.id, {}, {})  # the table says it is a die after all
    assert tracker.add(thrown, motion).not_dice == {}
    tracker.confirm(tracker.last.id, {}, {1: "Ana"})
    motion[100:140, 300:340] = 1  # now the token is pushed too: read as it lands
    assert tracker.add(thrown, motion).not_dice == {}


def test_a_roll_read_again_keeps_its_id_its_re_rolled_dice_and_the_tables_word() -> None:
    """The table asks for a re-read (the button box's re-read: docs/runtime.md): nothing
    was thrown, so it is the last roll, matched as that roll was against the one before
    (a re-roll stays the dice that moved then), with the new read's faces; a die the table
    gave a face for keeps it. Before, a second look at a still tray was no roll at all."""
    other = (300, 100, 40, 40)
    tracker = RollTracker()
    first = tracker.again(TrayRead("d6", (_die("3", 0.95, False),
                                          _die("2", 0.9, False, other)), "frame-1"))
    assert first.id == 1 and first.rerolled == (0, 1)  # no last roll: a new roll
    motion = np.zeros((480, 640), np.uint8)
    motion[100:140, 300:340] = 1  # the second die is rolled again
    second = tracker.add(TrayRead("d6", (_die("3", 0.95, False),
                                         _die("5", 0.4, True, other)), "frame-2"), motion)
    assert second.id == 2 and second.rerolled == (1,)
    for n in (3, 4):  # read again, twice: the same roll, the re-rolled die read anew
        again = tracker.again(TrayRead("d6", (_die("3", 0.96, False),
                                              _die("6", 0.97, False, other)), f"frame-{n}"))
        assert (again.id, again.previous_id, again.rerolled, again.kept) == (2, 1, (1,), (0,))
        assert [(d.face, d.uncertain) for d in again.read.dice] == [("3", False), ("6", False)]
        assert tracker.last is again
    assert tracker.confirm(2, {1: "1"})  # the table says the re-rolled die shows a 1
    told = tracker.again(TrayRead("d6", (_die("3", 0.96, False),
                                         _die("6", 0.97, False, other)), "frame-5"))
    assert [(d.face, d.confidence) for d in told.read.dice] == [("3", 0.96), ("1", 1.0)]
    later = tracker.add(TrayRead("d6", (_die("3", 0.96, False),
                                        _die("6", 0.97, False, other)), "frame-6"),
                        np.zeros((480, 640), np.uint8))
    assert not later.thrown and later.read.dice[1].face == "1"  # the word stands after


def test_a_die_taken_off_the_tray_is_no_new_roll() -> None:
    """Every die left lies where it lay: nothing was thrown, so no roll (the server would
    otherwise answer the next roll with the dice left); the next throw is the next roll."""
    other = (300, 100, 40, 40)
    tracker = RollTracker()
    first = tracker.add(TrayRead("d6", (_die("3", 0.9, False), _die("2", 0.9, False, other)),
                                 "frame-1"), np.zeros((480, 640), np.uint8))
    motion = np.zeros((480, 640), np.uint8)
    motion[100:140, 300:340] = 1  # the second die is taken away
    left = tracker.add(TrayRead("d6", (_die("3", 0.92, False),), "frame-2"), motion)
    assert not left.thrown and left.id == first.id and left.previous_id is None
    assert left.kept == (0,) and left.rerolled == ()
    motion[:] = 1
    thrown = tracker.add(TrayRead("d6", (_die("6", 0.9, False, other),), "frame-3"), motion)
    assert thrown.thrown and thrown.id == first.id + 1 and thrown.previous_id == first.id


def test_a_read_at_another_frame_size_is_a_new_roll() -> None:
    """The camera came back at another mode: the same places in pixels are other places on
    the tray, so no die is matched to the last roll's (one would take another's face)."""
    tracker = RollTracker()
    tracker.add(TrayRead("d6", (_die("3", 0.95, False),), "frame-1"),
                np.zeros((480, 640), np.uint8))
    again = tracker.add(TrayRead("d6", (_die("5", 0.45, True),), "frame-2"),
                        np.zeros((720, 1280), np.uint8))
    assert again.previous_id is None and again.kept == ()
    assert (again.read.dice[0].face, again.read.dice[0].uncertain) == ("5", True)
    same = tracker.add(TrayRead("d6", (_die("5", 0.45, True),), "frame-3"),
                       np.zeros((720, 1280), np.uint8))
    assert same.id == again.id and same.kept == (0,) and not same.thrown  # as it lay


@pytest.mark.parametrize("thrown", [{0, 3}, {1}, {2, 5}, {6}, {4}])
def test_a_re_roll_is_the_dice_thrown_not_those_the_hand_passed_over(thrown: set[int]) -> None:
    """The player reaches in and picks up the dice to re-roll; the hand passes over others
    on the way, and the motion mask marks them too. Before, those counted as re-rolled (2
    dice thrown came out as 3), so the camera could not answer a re-roll of 2. A die whose
    place looks as it did at the last roll was not touched (real photo, recorded frames)."""
    p = photo(SHEET)
    reader = DiceReader("d6")
    first, final = roll_sequence(p, moved=set(range(7)))
    again, _ = roll_sequence(p, moved=thrown, offset=(-60, 90), start=final)
    clock = ManualClock()
    with FakeSource(first + again, clock=clock) as source:
        rolls = [r for r in watch(source, reader, TickingDetector(clock))
                 if not isinstance(r, SourceNotice)]
    one, two = rolls
    assert two.previous_id == one.id
    landed = [(x - 60 + w / 2, y + 90 + h / 2) for i, (x, y, w, h) in enumerate(p.boxes)
              if i in thrown]

    def is_thrown(i: int) -> bool:
        x, y, w, h = two.read.dice[i].box
        return any(abs(x + w / 2 - cx) < w / 2 and abs(y + h / 2 - cy) < h / 2
                   for cx, cy in landed)

    assert sorted(i for i in range(len(two.read.dice)) if is_thrown(i)) == list(two.rerolled)
    assert len(two.rerolled) == len(thrown)


def test_a_dies_place_is_unchanged_through_noise_light_and_a_bump_but_not_another_face() -> None:
    """``unchanged`` on a real photo: the same dice after sensor noise, JPEG, 8% more light
    and the picture moved a pixel look as they did; a die of another face put in a die's
    place does not."""
    p = photo(SHEET)
    image = p.image()
    rng = np.random.default_rng(3)
    noisy = np.clip(image * 1.08 + rng.normal(0, 4, image.shape), 0, 255).astype(np.uint8)
    noisy = cv2.imdecode(cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 80])[1], 1)
    bumped = np.roll(noisy, (1, -1), axis=(0, 1))
    before = settled_grey(image)
    for box in p.boxes:
        assert unchanged(before, settled_grey(bumped), box)
    patches = die_patches(p, grow=0.0)
    swapped = 0
    for i, box in enumerate(p.boxes):
        j = next((j for j, f in enumerate(p.faces) if f != p.faces[i]), None)
        assert j is not None
        other = image.copy()
        x, y, w, h = box
        other[y:y + h, x:x + w] = cv2.resize(patches[j][0], (w, h))
        assert not unchanged(before, settled_grey(other), box)
        swapped += 1
    assert swapped == len(p.boxes) == 7


def test_a_die_where_one_lay_at_an_old_roll_is_not_kept_unless_its_place_looks_the_same() -> None:
    """A tracker's last roll can be old: the camera served another table in between, and
    the motion since its last settle says nothing of what changed before. A die lying where
    one lay then, showing another face, is read as it is, not given the old face."""
    p = photo(SHEET)
    image = p.image()
    tracker = RollTracker()
    first = tracker.add(DiceReader("d6").read(image), np.zeros(image.shape[:2], np.uint8),
                        image)
    x, y, w, h = first.read.dice[0].box
    later, _ = thrown_again(p, image, first.read.dice[0].box, first.read.dice[0].face)
    read = DiceReader("d6").read(later)
    second = tracker.add(read, np.zeros(image.shape[:2], np.uint8), later)  # no motion seen
    i = next(i for i, d in enumerate(second.read.dice)
             if abs(d.box[0] - x) < w / 2 and abs(d.box[1] - y) < h / 2)
    assert i in second.rerolled and second.read.dice[i].face == read.dice[i].face
    assert len(second.kept) == len(first.read.dice) - 1


THROWN = {0: (-60, 90, 0.0, None), 3: (-60, 90, 0.0, None)}
"""Two dice of the sheet picked up and thrown again, landing clear of the others."""
NUDGED = 6
"""A 2 at the sheet's right, with room to its right to be knocked into."""


def _second_roll(moves: dict) -> tuple:
    p = photo(SHEET)
    reader = DiceReader("d6")
    tracker = RollTracker()
    first_frame = dice_laid(p, {})
    first = tracker.add(reader.read(first_frame), None, first_frame)
    frame = dice_laid(p, moves)
    return p, first, tracker.add(reader.read(frame), None, frame)


def _at(roll, box: tuple[int, int, int, int], dx: int, dy: int) -> int:
    x, y, w, h = box
    return next(i for i, d in enumerate(roll.read.dice)
                if abs(centre(d.box)[0] - (x + dx + w / 2)) < w / 2
                and abs(centre(d.box)[1] - (y + dy + h / 2)) < h / 2)


def test_a_die_knocked_while_others_are_picked_up_is_kept_not_re_rolled() -> None:
    """Picking up two dice to re-roll, the hand knocks a third half a die aside and turns it
    15 degrees. Before, it counted as thrown: a re-roll of two came out as three, and the
    table had to answer it on a phone (real photo's dice, docs/vision.md "Rolls and
    re-rolls")."""
    p, first, second = _second_roll({**THROWN, NUDGED: (30, 10, 15.0, None)})
    assert second.previous_id == first.id and second.thrown
    thrown = sorted(_at(second, p.boxes[i], dx, dy) for i, (dx, dy, _, _) in THROWN.items())
    assert list(second.rerolled) == thrown
    knocked = _at(second, p.boxes[NUDGED], 30, 10)
    assert knocked in second.kept and len(second.kept) == len(first.read.dice) - 2
    assert second.read.dice[knocked].face == "2"


def test_a_bumped_die_is_no_new_roll() -> None:
    """The tray is bumped and one die slides a little: nothing was thrown, so it is the last
    roll as it lies now, with its id, not a roll of one die."""
    _, first, second = _second_roll({NUDGED: (30, 10, 15.0, None)})
    assert not second.thrown and second.id == first.id
    assert second.rerolled == () and len(second.kept) == len(first.read.dice)


@pytest.mark.parametrize(("move", "why"), [
    ((30, 10, 15.0, 2), "a 5 lies where the 2 was knocked to: another face"),
    ((95, 10, 0.0, None), "the 2 moved more than a die away: thrown, not knocked"),
])
def test_a_die_near_a_missing_one_is_thrown_unless_it_is_that_die_nudged(
        move: tuple, why: str) -> None:
    p, first, second = _second_roll({NUDGED: move})
    die = _at(second, p.boxes[NUDGED], move[0], move[1])
    assert second.thrown and second.rerolled == (die,), why


def test_nudge_likeness_tells_a_die_knocked_and_turned_from_another_face() -> None:
    """Each die of the sheet knocked 0.4 of its size and turned 20 degrees, after noise and
    JPEG, looks like itself; each replaced by a die of another face does not."""
    p = photo(SHEET)
    before = settled_grey(dice_laid(p, {}))
    rng = np.random.default_rng(5)
    for i, (x, y, w, h) in enumerate(p.boxes):
        other = next(j for j, f in enumerate(p.faces) if f != p.faces[i])
        dx, dy = int(0.4 * w), -int(0.2 * h)
        for replaced, expect_same in ((None, True), (other, False)):
            frame = as_shot(dice_laid(p, {i: (dx, dy, 20.0, replaced)}), rng)
            likeness = nudge_likeness(before, settled_grey(frame), (x, y, w, h),
                                      (x + dx, y + dy, w, h))
            assert (likeness >= NUDGE_LIKENESS) == expect_same, (i, replaced, likeness)


def test_a_die_against_the_frames_edge_is_compared_by_what_the_frame_holds() -> None:
    """The nudge test again with every die of the sheet against the frame's edge: the
    square laid over it, turned, runs past the edge, and only the pixels the frame holds
    are compared (vision.rolls.NUDGE_IN_FRAME). Each die still looks like itself; a die of
    another face there does not."""
    p = photo(SHEET)
    full = settled_grey(dice_laid(p, {}))
    rng = np.random.default_rng(5)
    for i, (x, y, w, h) in enumerate(p.boxes):
        other = next(j for j, f in enumerate(p.faces) if f != p.faces[i])
        dx, dy = (int(0.4 * w), -int(0.2 * h)) if i % 2 else (-int(0.15 * w), int(0.4 * h))
        for replaced, expect_same in ((None, True), (other, False)):
            frame = settled_grey(as_shot(dice_laid(p, {i: (dx, dy, 20.0, replaced)}), rng))
            (before, now), left, top = against_edge((full, frame), (x, y, w, h), (dx, dy))
            old = (x - left, y - top, w, h)
            likeness = nudge_likeness(before, now, old, (old[0] + dx, old[1] + dy, w, h))
            assert (likeness >= NUDGE_LIKENESS) == expect_same, (i, replaced, likeness)


def test_no_die_is_taken_for_nudged_when_most_of_the_tray_was_thrown() -> None:
    """Four of the seven dice thrown again: a die lying near a missing one is likelier one
    of them landed there than a die knocked, so nudges are not looked for
    (vision.rolls.NUDGE_AMONG); the knocked die counts as thrown, as before."""
    moves = {i: (-60, 90, 0.0, None) for i in (0, 1, 3, 4)}
    p, first, second = _second_roll({**moves, NUDGED: (30, 10, 15.0, None)})
    knocked = _at(second, p.boxes[NUDGED], 30, 10)
    assert knocked in second.rerolled and len(second.rerolled) == 5


SEAFALL_TRAY = ("weak", "blank", "standard", "weak", "blank", "strong", "standard")
"""A synthetic SeaFall throw (seed 0, 640x480): the weak dice 0 and 3 are re-rolled."""
KNOCKED_BLANK = 1
WEAK_THROWN = {0: (100, 120, 0.0, 2), 3: (140, -150, 0.0, 5)}
"""The weak dice thrown again, landing clear of the others as a standard and a strong."""


def _seafall_frame(p: DrawnPhoto, moves: dict, seed: int) -> np.ndarray:
    return as_shot(dice_laid(p, moves), np.random.default_rng(seed))


def _told(p: DrawnPhoto, moves: dict, uncertain: Collection[int] = ()) -> TrayRead:
    """The read of ``p`` laid with ``moves``, each die read sure as what it shows (unsure
    where ``uncertain`` says): the tracker is under test here, not the reader."""
    dice = []
    for i, (face, (x, y, w, h)) in enumerate(zip(p.faces, p.boxes, strict=True)):
        dx, dy, _, other = moves.get(i, (0, 0, 0.0, None))
        shown = face if other is None else p.faces[other]
        dice.append(DieRead(shown, 0.5 if i in uncertain else 0.95, i in uncertain,
                            (x + dx, y + dy, w, h)))
    return TrayRead("seafall", tuple(dice), "frame")


@pytest.mark.parametrize(("uncertain", "kept"), [
    (set(), True),
    ({KNOCKED_BLANK}, False),
])
def test_a_knocked_blank_is_kept_by_its_outline_where_both_reads_say_blank(
        uncertain: set[int], kept: bool) -> None:
    """SeaFall's "re-roll weak successes": picking up the two weak dice knocks a blank die
    0.4 of its size aside and turns it 15 degrees. A blank face's middle is plain, so by
    its middle alone it does not look like itself after noise and JPEG; by its whole box,
    outline and all, it does, and that is tried where both reads say blank
    (vision.rolls.NUDGE_WHOLE). Read unsure the second time, it counts as thrown, as
    before."""
    p = DrawnPhoto.of(tray_photo(np.random.default_rng(0), SEAFALL_TRAY, size=(640, 480)))
    x, y, w, h = p.boxes[KNOCKED_BLANK]
    knock = (int(0.4 * w), int(0.2 * h), 15.0, None)
    moves = {**WEAK_THROWN, KNOCKED_BLANK: knock}
    first_frame, frame = _seafall_frame(p, {}, 100), _seafall_frame(p, moves, 200)
    before, now = settled_grey(first_frame), settled_grey(frame)
    moved = (x + knock[0], y + knock[1], w, h)
    assert nudge_likeness(before, now, (x, y, w, h), moved) < NUDGE_LIKENESS
    assert nudge_likeness(before, now, (x, y, w, h), moved, NUDGE_WHOLE) >= NUDGE_LIKENESS

    tracker = RollTracker()
    first = tracker.add(_told(p, {}), None, first_frame)
    second = tracker.add(_told(p, moves, uncertain), None, frame)
    assert second.previous_id == first.id and second.thrown
    thrown = {0, 3} | (set() if kept else {KNOCKED_BLANK})
    assert set(second.rerolled) == thrown
    assert second.read.dice[KNOCKED_BLANK].face == "blank"


def test_a_knocked_blank_against_the_frames_edge_is_kept_by_what_the_frame_holds() -> None:
    """The knocked blank above, with the frames cut so that it lay against their left
    edge: its whole box, turned, runs past the edge, and is compared by the part the frame
    holds (vision.rolls.NUDGE_IN_FRAME) rather than not at all."""
    p = DrawnPhoto.of(tray_photo(np.random.default_rng(0), SEAFALL_TRAY, size=(640, 480)))
    x, y, w, h = p.boxes[KNOCKED_BLANK]
    knock = (int(0.4 * w), int(0.2 * h), 15.0, None)
    frames = (_seafall_frame(p, {}, 100), _seafall_frame(p, {KNOCKED_BLANK: knock}, 200))
    (before, now), left, top = against_edge(tuple(map(settled_grey, frames)), (x, y, w, h),
                                             knock[:2])
    assert left == x and top == 0
    old = (0, y, w, h)
    assert nudge_likeness(before, now, old, (knock[0], y + knock[1], w, h),
                          NUDGE_WHOLE) >= NUDGE_LIKENESS
