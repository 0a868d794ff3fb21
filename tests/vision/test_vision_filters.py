"""Small shared filters (vision/filters.py): the stepped area shrink the settle detector and
the hand check take their small colour copy with."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.helpers import photo
from vision.filters import area_shrunk
from vision.hands import ANALYSIS_WIDTH, small_colour


def _frame(width: int, height: int) -> np.ndarray:
    """A real tray photo at a camera's size."""
    return cv2.resize(photo("IMG_20191208_112404.jpg").image(), (width, height),
                      interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (640, 480), (1297, 731)])
def test_the_stepped_shrink_matches_one_shrink_to_a_level_or_so(size: tuple[int, int]) -> None:
    frame = _frame(*size)
    target = (ANALYSIS_WIDTH, round(size[1] * ANALYSIS_WIDTH / size[0]))
    once = cv2.resize(frame, target, interpolation=cv2.INTER_AREA).astype(int)
    stepped = area_shrunk(frame, target)
    assert stepped.shape == once.shape and stepped.dtype == np.uint8
    # each halving rounds to whole levels once: a level at most (a size that is no whole
    # factor of the target's is shrunk at once, as before)
    assert np.abs(stepped.astype(int) - once).max() <= 1


def test_the_stepped_shrink_keeps_grey_frames_and_a_frame_already_its_size() -> None:
    grey = cv2.cvtColor(_frame(1280, 720), cv2.COLOR_BGR2GRAY)
    assert area_shrunk(grey, (160, 90)).shape == (90, 160)
    small = area_shrunk(grey, (160, 90))
    assert area_shrunk(small, (160, 90)) is small
    # the hand check's copy of a grey or BGRA frame comes in BGR, as before
    assert small_colour(grey).shape == (90, 160, 3)
    assert small_colour(cv2.cvtColor(_frame(1280, 720), cv2.COLOR_BGR2BGRA)).shape == (90, 160, 3)


def test_the_stepped_shrink_of_an_empty_image_is_opencvs_error_not_a_hang() -> None:
    with pytest.raises(cv2.error):
        area_shrunk(np.zeros((0, 0, 3), np.uint8), (160, 90))
