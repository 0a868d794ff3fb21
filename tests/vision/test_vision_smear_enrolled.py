"""The smear check for enrolled dice (``vision.smear.smear_from``, ``Profile.directions``):
a symbol may run one way of its own (SeaFall's weak face is one bar), so a frame of
enrolled dice is taken for smeared only above the direction its dice show unsmeared
(docs/vision.md, *A camera that moves*).

Without the check, the d6 faces enrolled as symbols read 11 of the d6 train photos' 1,458
dice wrong and sure beyond the label mistakes under a smear of 7 px at 45 degrees
(``benchmarks/bench_degraded.py --reader enrolled``), and a SeaFall profile 274 of 1,968
dice of synthetic trays under one of 13 px (``calibrate_smear_symbols``).
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tests.vision.helpers import labelled_photos, score_photos
from tests.vision.test_vision_enrollment import seafall_crops
from tests.vision.test_vision_neighbours import d6_symbols  # noqa: F401 - a fixture
from tests.vision.test_vision_smear import pips, shaken
from vision.enrollment import Profile
from vision.reader import DiceReader
from vision.smear import (
    OWN_MARGIN,
    SMEAR_FROM,
    box_sums,
    own_direction,
    own_share,
    smear_from,
)
from vision.synthetic import draw_face, tray_photo
from vision.training.calibrate_smear_symbols import Tray, read_trays, report
from vision.training.degradations import motion


@pytest.fixture(scope="module")
def seafall() -> Profile:
    return Profile.from_crops("sf", "seafall", seafall_crops(seed=7))


def smeared(image: np.ndarray, length: int, angle: float) -> np.ndarray:
    return motion(length, angle)(image, np.random.default_rng(0))


def test_a_face_of_one_bar_has_a_direction_of_its_own_and_pips_none() -> None:
    bar = draw_face("weak", 48, (40, 40, 160))
    assert own_direction([bar]) > 0.4
    assert own_direction([pips(), pips(64)]) < 0.1
    assert own_direction([draw_face("strong", 48, (40, 40, 160))]) < 0.15
    assert own_direction([]) == 0.0
    # the mean of its crops, each alone, at any size
    assert own_direction([bar, pips()]) == pytest.approx(
        (own_direction([bar]) + own_direction([pips()])) / 2)
    assert own_direction([cv2.resize(bar, (96, 96))]) == pytest.approx(own_direction([bar]),
                                                                       abs=0.05)


def test_dice_of_no_direction_keep_the_pip_threshold_and_a_bar_raises_it() -> None:
    row = np.full((48, 48 * 5, 3), 235, np.uint8)
    row[:, :48] = draw_face("weak", 48, (235, 235, 235))
    for i in range(1, 5):
        row[:, 48 * i:48 * (i + 1)] = pips()
    boxes = [(48 * i, 0, 48, 48) for i in range(5)]
    sums = box_sums(row, boxes)
    assert sums.shape == (5, 6)
    # pips alone: their own direction is none, the threshold the pip reader's
    assert own_share(sums[1:], [0.05] * 4) == pytest.approx(0.05)
    assert smear_from(own_share(sums[1:], [0.05] * 4)) == SMEAR_FROM
    # one bar alone: its own direction and the margin above it
    assert smear_from(own_share(sums[:1], [0.5])) == pytest.approx(0.5 + OWN_MARGIN)
    # the bar among pips counts by its share of the detail
    share = own_share(sums, [0.5, 0.05, 0.05, 0.05, 0.05])
    assert 0.05 < share < 0.5
    assert own_share(sums, [0.9] * 5) == pytest.approx(0.9)
    assert smear_from(0.9, margin=0.1) == pytest.approx(1.0)
    assert own_share(np.zeros((2, 6)), [0.5, 0.5]) == 0.0
    assert own_share(np.zeros((0, 6)), []) == 0.0


def test_a_profile_knows_its_faces_directions_from_its_crops(seafall: Profile) -> None:
    d = dict(zip(seafall.labels, seafall.directions, strict=True))
    assert d["weak"] > 0.35 and max(d["blank"], d["standard"], d["strong"]) < 0.25
    assert seafall.directions_of(["weak", "strong"]) == [d["weak"], d["strong"]]
    # a die read as none of the faces may be any: counted as the most directed
    assert seafall.directions_of(["?"]) == [d["weak"]]
    # a profile saved before profiles kept crops has nothing to measure them by
    old = dataclasses.replace(seafall, crops=None)
    assert old.directions is None and old.directions_of(["weak"]) is None


def test_a_smeared_tray_of_symbol_dice_is_left_to_the_table(seafall: Profile) -> None:
    reader = DiceReader("seafall", profile=seafall)
    photo = tray_photo(np.random.default_rng(3), ["blank", "standard", "weak", "strong"] * 2)
    sharp = reader.read(photo.image)
    assert len(sharp.dice) == 8 and not sharp.warnings
    for angle in (0.0, 45.0, 100.0):
        read = reader.read(smeared(photo.image, 15, angle))  # 13 px at the working size
        assert any("smeared" in w for w in read.warnings), angle
        assert read.dice and all(d.uncertain and d.confidence <= 0.2 for d in read.dice)
    # unchecked, the same frame is read as it looks, some dice sure
    unchecked = DiceReader("seafall", profile=seafall, smear_check=False)
    assert not unchecked.read(smeared(photo.image, 15, 0.0)).warnings


def test_a_lone_bar_die_is_not_taken_for_a_smear(seafall: Profile) -> None:
    # one weak die alone measures about 0.5 by its bar: over the pip reader's threshold
    reader = DiceReader("seafall", profile=seafall)
    for seed in range(6):
        photo = tray_photo(np.random.default_rng(seed), ["weak"])
        read = reader.read(photo.image)
        assert [d.face for d in read.dice] == ["weak"], seed
        assert not read.warnings, (seed, read.warnings)


def test_a_profile_without_crops_is_not_checked(seafall: Profile) -> None:
    reader = DiceReader("seafall", profile=dataclasses.replace(seafall, crops=None))
    photo = tray_photo(np.random.default_rng(3), ["blank", "standard", "weak", "strong"] * 2)
    assert not any("smeared" in w for w in reader.read(smeared(photo.image, 15, 0.0)).warnings)


def test_d6_faces_enrolled_as_symbols_are_checked_as_pip_dice(
        d6_symbols: Profile) -> None:  # noqa: F811 - the fixture
    reader = DiceReader("d6", profile=d6_symbols)
    for photo in labelled_photos():
        read = reader.read(photo.image(), str(photo.path))
        assert not any("smeared" in w for w in read.warnings), photo.path.name
    score = score_photos(reader, shaken(7, 45))
    assert score["found"] >= 45 and score["silent"] == 0 and score["right"] == 0, score


def test_the_symbol_calibration_counts_what_each_margin_leaves(capsys) -> None:
    trays = [Tray(0, 0.55, 0.46, 1, 0), Tray(0, 0.2, 0.1, 6, 1),
             Tray(13, 0.75, 0.46, 1, 1), Tray(13, 0.7, 0.1, 6, 4)]
    assert not trays[0].marked(0.1) and trays[0].marked(0.05)
    assert not trays[1].marked(0.0)  # never under the pip reader's threshold
    report(trays, [0.2, 0.3])
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()[2:]}
    assert rows["0"][1:4] == ["2", "7", "1"] and rows["0"][4:] == [
        "1", "0%/", "0%", "|", "1", "0%/", "0%"]
    # 13 px: from 0.2 both trays are marked; from 0.3 only the six dice (the lone die's 1
    # is left)
    assert rows["13"][4:] == ["0", "100%/100%", "|", "1", "50%/", "0%"]


def test_the_symbol_calibration_reads_drawn_trays(seafall: Profile) -> None:
    trays = read_trays(seafall, 3, [0, 13], seed=31)
    assert [(t.length, t.dice) for t in trays] == [(0, 1), (13, 1), (0, 1), (13, 1),
                                                   (0, 2), (13, 2)]
    assert all(0.0 <= t.own <= t.value + 1 and t.wrong <= t.dice for t in trays)
    # the first tray is of the most directed face alone (weak): its own direction shows
    assert trays[0].own > 0.35
    with pytest.raises(ValueError, match="kept no crops"):
        read_trays(dataclasses.replace(seafall, crops=None), 1, [0], seed=31)
