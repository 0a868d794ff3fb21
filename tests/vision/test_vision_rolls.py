"""Rolls (vision/rolls.py, docs/vision.md "Watching a stream"): settled reads numbered, a
partial re-roll matched to the dice that moved, a kept die's two reads weighed, and the
table's word on a die kept."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.helpers import photo
from vision.reader import DiceReader
from vision.reading import DieRead, TrayRead
from vision.rolls import RollTracker, still_die

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
