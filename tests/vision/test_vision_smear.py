"""A camera that moved as the picture was taken (``vision.smear``): the smear is measured
on the dice themselves, and the pip reader leaves a smeared frame's dice to the table
rather than reading them wrong (docs/vision.md, *A camera that moves*).

The checked-in photos are smeared so that, at the reader's working size (a die about
40 px, to which it shrinks a frame), the smear has the given length. Without the check,
the reader read 23 of the d6 train photos' 1,458 dice wrong and sure beyond the label
mistakes under a sideways smear of 7 px (``benchmarks/bench_degraded.py``).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import pytest

from tests.vision.helpers import LabelledPhoto, labelled_photos, score_photos
from vision.detection import to_work
from vision.reader import DiceReader
from vision.smear import SIDES, SMEAR_FROM, measured_at, smear, smear_warning
from vision.training.calibrate_smear import Frame, report, smeared
from vision.training.degradations import motion


def shaken(length: int, angle: float | None = None) -> Callable[[LabelledPhoto], np.ndarray]:
    """The photo smeared ``length`` px of the reader's working size, sideways or turned
    ``angle`` degrees (the benchmarks' worse camera, at the photo's own size)."""
    def image(photo: LabelledPhoto) -> np.ndarray:
        picture = photo.image()
        scale = to_work(picture).scale  # working px per photo px
        return motion(round(length / scale), angle)(picture, np.random.default_rng(0))
    return image


def pips(side: int = 48) -> np.ndarray:
    """A white die face with five black pips, drawn (no direction of its own)."""
    face = np.full((side, side, 3), 235, np.uint8)
    for x, y in ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)):
        cv2.circle(face, (round(x * side), round(y * side)), side // 9, (20, 20, 20), -1,
                   cv2.LINE_AA)
    return face


def test_round_pips_show_no_direction_and_a_smear_shows_its_own() -> None:
    face = pips()
    box = [(0, 0, 48, 48)]
    assert smear(face, box) < 0.05
    for angle in (None, 30, 45, 90):
        # 3 px (a die of about 40 px reads as sharp) stays under, 7 px is over, any way
        assert smear(motion(3, angle)(face, np.random.default_rng(0)), box) < SMEAR_FROM
        assert smear(motion(7, angle)(face, np.random.default_rng(0)), box) > SMEAR_FROM
    # longer smears, more direction
    values = [smear(motion(n)(face, np.random.default_rng(0)), box) for n in (3, 5, 7, 9)]
    assert values == sorted(values)


def test_a_grey_picture_is_measured_as_its_colour_one() -> None:
    face = motion(7)(pips(), np.random.default_rng(0))
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    assert smear(grey, [(0, 0, 48, 48)]) == pytest.approx(smear(face, [(0, 0, 48, 48)]))


def test_no_dice_flat_dice_or_boxes_off_the_picture_measure_nothing() -> None:
    face = pips()
    assert smear(face, []) == 0.0
    assert smear(np.full((48, 48, 3), 128, np.uint8), [(0, 0, 48, 48)]) == 0.0
    assert smear(face, [(60, 60, 20, 20), (-30, 0, 20, 20)]) == 0.0
    # a box half off the picture is measured on the part inside it (at its die's size)
    assert smear(face, [(-24, 0, 48, 48)]) == pytest.approx(
        smear(np.ascontiguousarray(face[:, :24]), [(0, 0, 24, 48)]))
    assert smear(face, [(-24, 0, 48, 48)]) != pytest.approx(smear(face, [(0, 0, 48, 48)]))


def test_the_warning_says_what_to_do_from_the_threshold_on() -> None:
    assert smear_warning(SMEAR_FROM - 0.01) is None
    said = smear_warning(SMEAR_FROM)
    assert said is not None and "uncertain" in said and "camera" in said


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader("d6")


def test_the_photos_as_shot_are_not_taken_for_smeared(reader: DiceReader) -> None:
    for photo in labelled_photos():
        read = reader.read(photo.image(), str(photo.path))
        assert not any("smeared" in w for w in read.warnings), (photo.path.name, read.warnings)


@pytest.mark.parametrize("angle", [None, 90], ids=["sideways", "up-and-down"])
def test_a_shaken_camera_gives_no_die_read_sure(reader: DiceReader, angle) -> None:
    score = score_photos(reader, shaken(7, angle))
    assert score["dice"] == 49 and score["found"] >= 45, score
    assert score["silent"] == 0 and score["right"] == 0, score  # every die left to the table
    read = reader.read(shaken(7, angle)(labelled_photos()[0]))
    assert any("smeared" in w for w in read.warnings)
    assert all(d.uncertain and d.confidence <= 0.2 for d in read.dice)


def test_dice_too_small_to_read_say_so_rather_than_smeared() -> None:
    # small dice are marked uncertain for their size already: one warning says why
    photo = labelled_photos()[0]
    side = float(np.median([max(w, h) for _, _, w, h in photo.boxes]))
    frame = cv2.resize(shaken(7)(photo), None, fx=14 / side, fy=14 / side,
                       interpolation=cv2.INTER_AREA)
    read = DiceReader("d6", die_px=14).read(frame)
    assert read.dice
    assert len(read.warnings) == 1 and "too small to read surely" in read.warnings[0]


def test_the_calibration_smears_before_shrinking_to_the_working_size() -> None:
    photo = labelled_photos()[0]
    image = photo.image()
    work = to_work(image)
    frames = dict(smeared(image, work, [0, 3, 7], 30.0, 4))
    assert np.array_equal(frames[0], work.image)
    boxes = [tuple(round(v * work.scale) for v in b) for b in photo.boxes]
    values = [smear(frames[n], boxes) for n in (0, 3, 7)]
    assert frames[7].shape == work.image.shape
    assert values == sorted(values) and values[0] < SMEAR_FROM < values[2]


def test_the_calibration_counts_what_each_threshold_leaves(capsys) -> None:
    frames = [Frame("a.jpg", 0, 0.1, 7, 0), Frame("b.jpg", 0, 0.3, 5, 1),
              Frame("a.jpg", 7, 0.6, 7, 2), Frame("b.jpg", 7, 0.42, 5, 3)]
    report("train", frames, [0.4, 0.5])
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()[2:]}
    # length 0: 12 dice, 1 wrong; a check from 0.4 or 0.5 marks neither frame
    assert rows["0"][1:4] == ["2", "12", "1"] and rows["0"][7:] == ["1", "0.0%", "|", "1",
                                                                    "0.0%"]
    # length 7: from 0.4 both frames are marked (none left), from 0.5 only a.jpg (3 left)
    assert rows["7"][3] == "5" and rows["7"][7:] == ["0", "100.0%", "|", "3", "50.0%"]


def test_dice_outside_the_calibrated_sides_are_measured_brought_into_them() -> None:
    assert measured_at([(0, 0, 40, 38), (0, 0, 44, 44), (0, 0, 36, 36)]) == 1.0
    assert measured_at([(0, 0, 50, 38)]) == 1.0
    assert measured_at([(0, 0, 102, 90)]) == pytest.approx(SIDES[1] / 102)
    assert measured_at([(0, 0, 20, 20)]) == pytest.approx(SIDES[0] / 20)
    assert measured_at([]) == 1.0
    # a die of 96 px is measured as the same die of 48
    face = pips(48)
    big = cv2.resize(face, (96, 96), interpolation=cv2.INTER_LINEAR)
    smeared_face = motion(5)(face, np.random.default_rng(0))
    smeared_big = cv2.resize(smeared_face, (96, 96), interpolation=cv2.INTER_LINEAR)
    assert smear(smeared_big, [(0, 0, 96, 96)]) == pytest.approx(
        smear(cv2.resize(smeared_big, (51, 51), interpolation=cv2.INTER_AREA),
              [(0, 0, 51, 51)]), abs=0.02)
    assert smear(big, [(0, 0, 96, 96)]) < 0.1


def test_a_close_camera_is_not_taken_for_a_shaken_one() -> None:
    # a frame near the working size is read as it is: a camera close over the tray gives
    # dice of about 78 px there. A shake of a twentieth of a die reads as sharp; before the
    # dice were measured brought to the calibrated sides, most such frames were warned
    photo = labelled_photos()[0]
    side = float(np.median([max(w, h) for _, _, w, h in photo.boxes]))
    frame = cv2.resize(photo.image(), None, fx=78 / side, fy=78 / side,
                       interpolation=cv2.INTER_AREA)
    reader = DiceReader("d6", die_px=78)
    rng = np.random.default_rng(0)
    assert not reader.read(frame).warnings
    assert not reader.read(motion(6, 30)(frame, rng)).warnings  # 3 px of a 40 px die
    shaken_read = reader.read(motion(14, 30)(frame, rng))  # 7 px of a 40 px die
    assert any("smeared" in w for w in shaken_read.warnings)
