"""A camera out of focus: the pip reader leaves the dice it cannot make out to the table
rather than reading them wrong (docs/vision.md, *What a worse camera costs*).

The checked-in photos are blurred so that, at the reader's working size (a die about
40 px, to which it shrinks a frame), the blur has the given sigma. The face networks
learned such dice (``train_pips --degrade 0.1``, since the forty-ninth session); the
networks before them read 2 of these 49 dice wrong and sure at a blur of 2 px and 3 at
3 px, and 34 sure and right at 2 px (these 43). On a dark floor (repainted, read by the
dark-floor networks, which learned such dice since the fiftieth session) the networks
before read one die wrong and sure at a grey of 40 and 3 px, and 28 sure and right at 2
px (these 32).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import pytest

from tests.vision.helpers import LabelledPhoto, repainted, score_photos
from vision.detection import to_work
from vision.reader import DiceReader


def out_of_focus(sigma: float, floor: float | None = None
                 ) -> Callable[[LabelledPhoto], np.ndarray]:
    """The photo blurred by ``sigma`` px of the reader's working size; with ``floor``, its
    floor first repainted that grey (as bench_tray_floors and calibrate_dark repaint)."""
    def image(photo: LabelledPhoto) -> np.ndarray:
        picture = photo.image() if floor is None else repainted(photo, floor, 60.0)
        scale = to_work(picture).scale  # working px per photo px
        return cv2.GaussianBlur(picture, (0, 0), sigma / scale)
    return image


# a blur of 2 px: below, with what it reads (each case read once, for the suite's time)
@pytest.mark.parametrize("sigma", [3.0])
def test_an_out_of_focus_camera_gives_no_die_read_wrong_and_sure(sigma: float) -> None:
    score = score_photos(DiceReader("d6"), out_of_focus(sigma))
    assert score["dice"] == 49
    assert score["silent"] == 0, score


def test_dice_a_little_out_of_focus_are_still_mostly_read() -> None:
    score = score_photos(DiceReader("d6"), out_of_focus(2.0))
    assert score["silent"] == 0, score
    assert score["right"] >= 37, score  # 43 when written; the networks before 34
    assert score["false"] == 0, score


# a grey of 40 at 2 px: below, with what it reads
@pytest.mark.parametrize(("floor", "sigma"), [(72.0, 2.0), (72.0, 3.0), (40.0, 3.0)])
def test_on_a_dark_floor_too_no_die_is_read_wrong_and_sure(sigma: float, floor: float
                                                            ) -> None:
    score = score_photos(DiceReader("d6"), out_of_focus(sigma, floor))
    assert score["silent"] == 0, score


def test_dice_a_little_out_of_focus_on_a_dark_floor_are_still_mostly_read() -> None:
    score = score_photos(DiceReader("d6"), out_of_focus(2.0, 40.0))
    assert score["silent"] == 0, score
    assert score["right"] >= 30, score  # 32 when written; the networks before 28
    assert score["false"] <= 2, score
