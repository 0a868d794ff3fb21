"""A harsh lamp's colour cast taken out before pip dice are read (``vision/lampcast.py``),
and every milder tint, a wooden tray's too, left as it is."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.helpers import labelled_photos, photo
from vision.boxes import hold_each_other
from vision.framewarnings import HAND_IN_TRAY
from vision.lampcast import CAST_FROM, median_colour, tint, without_cast
from vision.reader import DiceReader
from vision.surroundings import LAMPS, WOODS, lamp_light, wooden_floor

HAND_PHOTO = "IMG_20191208_112623.jpg"  # a real hand holding a die over the tray
HARSH = LAMPS["harsh warm lamp"]


@pytest.mark.parametrize("change", [
    pytest.param(lambda f: f, id="as shot"),
    pytest.param(lambda f: lamp_light(f, LAMPS["warm lamp"]), id="warm lamp"),
    pytest.param(lambda f: wooden_floor(f, WOODS["pine"]), id="pine floor"),
    pytest.param(lambda f: wooden_floor(f, WOODS["walnut"]), id="walnut floor"),  # dark
    # saturated: no lamp makes a grey floor so (a helper's: its blue was scaled 100 times)
    pytest.param(lambda f: wooden_floor(f, (0, 140, 255)), id="orange felt"),
    pytest.param(lambda f: wooden_floor(f, (30, 230, 240)), id="yellow felt"),
])
def test_a_tray_of_its_own_colour_or_under_a_milder_lamp_is_read_as_it_is(change) -> None:
    for p in labelled_photos():
        frame = change(p.image())
        assert without_cast(frame) is frame, p.path.name


@pytest.mark.parametrize("cast", [
    HARSH, LAMPS["strong warm lamp"], (1.35, 0.9, 0.55), (1.3, 0.95, 0.6), (0.8, 1.35, 0.8)],
    ids=["harsh warm", "strong warm", "strong cold", "a helper's cold", "a helper's green"])
def test_a_strong_lamps_cast_is_taken_out_to_the_grey_of_the_tray(cast) -> None:
    """Under a helper's cold lamp (1.3, 0.95, 0.6: tint 0.327 on its photo, Y 149) a dark
    blue 1 read a sure 3 with the cast left in, and under a green one (tint 0.26) a 2 a
    sure 4: the bounds were 0.33 and 150 then."""
    for name in ("IMG_20191208_112541.jpg", "IMG_20191209_100614.jpg"):
        frame = lamp_light(photo(name).image(), cast)
        assert tint(median_colour(frame))[0] >= CAST_FROM
        out = without_cast(frame)
        assert out.shape == frame.shape and out.dtype == np.uint8
        median = median_colour(out)
        assert np.ptp(median) <= 2 and tint(median)[0] < 0.02


def _sure(read, p) -> list[tuple[str, str]]:
    """(label, read face) of each labelled die the read found and is sure of."""
    out = []
    for face, box in zip(p.faces, p.boxes, strict=True):
        found = [d for d in read.dice if hold_each_other(box, d.box)]
        if found and not found[0].uncertain:
            out.append((face, found[0].face))
    return out


def test_under_a_harsh_lamp_the_dice_read_as_in_daylight_and_a_hand_is_seen() -> None:
    """The checked-in photos under the harsh warm lamp: every die read sure in daylight is
    read sure and the same, and the real hand holding a die is seen again, as in daylight
    (by its colour: with the cast left in, skin lies out of the skin range and the photo was
    read with no warning)."""
    reader = DiceReader("d6")
    for p in labelled_photos():
        daylight = reader.read(p.image())
        harsh = reader.read(lamp_light(p.image(), HARSH))
        assert _sure(harsh, p) == _sure(daylight, p), p.path.name
        assert all(f == r for f, r in _sure(harsh, p))
        if p.path.name == HAND_PHOTO:
            assert HAND_IN_TRAY in daylight.warnings and HAND_IN_TRAY in harsh.warnings
