"""Plain squares (vision/plainsquares.py): custom-face dice the body detector misses on a
dark floor, a pale die's blank face above all, looked for by their contrast with the floor
and kept or dropped by the die-or-not check (docs/vision.md, *Which tray floor*)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.reader
from tests.vision.helpers import labelled_photos, repainted
from vision.boxes import hold_each_other
from vision.dicefinder import NET_DIE_PX
from vision.filters import histogram_median
from vision.plainsquares import MAX_OVERLAP, MIN_CONTRAST, floor_colour, plain_squares
from vision.reader import DiceReader
from vision.synthetic import BODY_COLOURS, BODY_NAMES, tray_photo

BLACK = (30, 30, 32)
IVORY = BODY_COLOURS[BODY_NAMES.index("ivory")]
SIDE = int(NET_DIE_PX)  # a die's side in the detector's copy of the frame


def _floor(h: int = 120, w: int = 200) -> np.ndarray:
    return np.full((h, w, 3), BLACK, np.uint8)


def test_a_pale_square_on_a_dark_floor_is_found_in_the_frames_pixels() -> None:
    small = _floor()
    small[20:20 + SIDE, 30:30 + SIDE] = IVORY  # a blank face, seen from above
    turned = cv2.boxPoints(((120.5, 60.5), (SIDE, SIDE), 45.0)).astype(np.int32)
    cv2.fillConvexPoly(small, turned, IVORY)  # one turned 45 degrees
    found = sorted(plain_squares(small, 0.5, []))
    assert len(found) == 2
    assert found[0] == (60, 40, 2 * SIDE, 2 * SIDE)  # small's pixels divided by the scale
    x, y, w, h = found[1]
    assert abs(x + w / 2 - 241) <= 2 and abs(y + h / 2 - 121) <= 2
    assert 2 * SIDE <= w <= 2 * 1.5 * SIDE


def test_what_is_not_a_die_sized_square_standing_out_is_left_alone() -> None:
    small = _floor()
    small[10:15, 10:15] = IVORY  # a crumb, a glint
    small[40:40 + SIDE, 5:5 + 4 * SIDE] = IVORY  # a pencil, a strip of the wall
    small[60:60 + 3 * SIDE, 100:100 + 2 * SIDE] = IVORY  # a card
    cv2.rectangle(small, (150, 10), (150 + SIDE, 10 + SIDE), IVORY, 2)  # an outline
    grey = [c + MIN_CONTRAST - 1 for c in BLACK]  # a grey square, just too near the floor
    small[90:90 + SIDE, 150:150 + SIDE] = grey
    assert plain_squares(small, 1.0, []) == []
    small[90:90 + SIDE, 150:150 + SIDE, 2] += 1  # its red a level further: it stands out
    assert plain_squares(small, 1.0, []) == [(150, 90, SIDE, SIDE)]


def test_a_die_the_detector_boxed_is_not_a_candidate_twice() -> None:
    small = _floor()
    small[20:20 + SIDE, 30:30 + SIDE] = IVORY
    small[60:60 + SIDE, 120:120 + SIDE] = IVORY
    boxed = [(56, 36, 40, 40)]  # frame pixels at a scale of 0.5: holds the first's centre
    assert plain_squares(small, 0.5, boxed) == [(240, 120, 2 * SIDE, 2 * SIDE)]
    # a box reaching a tenth of the way into a square: a neighbour's, the square kept
    side = 2 * SIDE
    reach = round(MAX_OVERLAP * side)
    assert sorted(plain_squares(small, 0.5, [(240 - 40 + reach, 120, 40, side)])) == [
        (60, 40, side, side), (240, 120, side, side)]
    # a little further: the die's own box, what stands out beside it its side
    assert plain_squares(small, 0.5, [(240 - 40 + reach + 2, 120, 40, side)]) == [
        (60, 40, side, side)]


def test_the_floor_is_the_tray_regions_median_colour() -> None:
    small = np.full((60, 80, 3), 200, np.uint8)  # a light table round a dark tray
    small[:, :40] = BLACK
    small[20:20 + SIDE, 10:10 + SIDE] = IVORY  # a pale die on the tray
    roi = np.zeros((60, 80), np.uint8)
    roi[:, :40] = 255
    assert floor_colour(small, roi).tolist() == list(BLACK)
    assert floor_colour(small).tolist() == [200, 200, 200]  # without it: the table's
    thin = np.zeros_like(roi)
    thin[5, :40] = 255  # a region of one odd row, which every second row misses
    assert floor_colour(small, thin).tolist() == list(BLACK)
    assert plain_squares(small, 1.0, [], roi) == [(10, 20, SIDE, SIDE)]


def test_histogram_median_is_the_median_of_the_masked_pixels() -> None:
    rng = np.random.default_rng(0)
    channel = rng.integers(0, 256, (31, 41), dtype=np.uint8)  # an odd count
    assert histogram_median(channel) == float(np.median(channel))
    mask = np.zeros_like(channel)
    mask[:, :21] = 1
    assert histogram_median(channel, mask) == float(np.median(channel[:, :21]))


def _ivory_trays(seed: int, trays: int) -> list:
    rng = np.random.default_rng(seed)
    return [tray_photo(rng, ["blank"] * 6 + ["strong", "weak", "standard"], body=IVORY,
                       tray=BLACK) for _ in range(trays)]


def _found(reader: DiceReader, photos: list) -> tuple[int, int]:
    """(dice found, boxes on no die) over synthetic trays."""
    found = false = 0
    for photo in photos:
        read = reader.read(photo.image).dice
        hits = [any(hold_each_other(die.box, d.box) for die in photo.dice) for d in read]
        found += sum(any(hold_each_other(die.box, d.box) for d in read) for die in photo.dice)
        false += hits.count(False)
    return found, false


def test_pale_blank_dice_on_a_black_floor_are_found() -> None:
    # The body detector peaks on an ivory blank face on black at 0.1-0.2. On
    # bench_tray_floors's black floor the ivory set was found 204 times of 240, and 236
    # with the plain squares (thirty-eighth session); these 6 trays of 6 blanks and 3
    # marked dice: 52 of 54 with them, 35 without, no box on no die either way
    photos = _ivory_trays(11, 6)
    with_squares = _found(DiceReader("seafall", unknown_faces=True), photos)
    without = _found(DiceReader("seafall", unknown_faces=True, plain_squares=False), photos)
    assert with_squares[0] >= 51 and without[0] <= 40  # of 54
    assert with_squares[1] <= without[1]


def test_a_coloured_token_on_a_black_floor_is_a_candidate_the_check_drops() -> None:
    photo = _ivory_trays(12, 1)[0]
    image = photo.image.copy()
    cv2.circle(image, (120, 620), 21, (60, 170, 220), -1, cv2.LINE_AA)  # a gold token
    reader = DiceReader("seafall", unknown_faces=True)
    small, scale = vision.reader.scaled(image, 46)
    token = (120 - 21, 620 - 21, 42, 42)
    assert any(hold_each_other(token, box) for box in plain_squares(small, scale, []))
    assert not any(hold_each_other(token, d.box) for d in reader.read(image).dice)


def test_plain_squares_are_looked_for_on_a_dark_floor_for_custom_faces_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []

    def spy(small: np.ndarray, scale: float, boxed: list, roi: np.ndarray | None = None
            ) -> list:
        asked.append(len(boxed))
        return plain_squares(small, scale, boxed, roi)

    monkeypatch.setattr(vision.reader, "find_plain_squares", spy)
    photo = labelled_photos()[0]
    dark = repainted(photo, 50)
    bodies = DiceReader("seafall", unknown_faces=True)
    bodies.read(photo.image())
    assert asked == []  # a light floor: the body detector alone
    bodies.read(dark)
    assert len(asked) == 1 and asked[0] >= len(photo.boxes) - 2  # given what it boxed
    DiceReader("d6").read(dark)  # pip dice: the face network's own candidates
    DiceReader("seafall", unknown_faces=True, plain_squares=False).read(dark)
    assert len(asked) == 1
