"""Box geometry shared by the reader, the roll tracker and the benchmarks' matching."""

from __future__ import annotations

import pytest

from vision.boxes import (
    centre,
    centre_in,
    clipped,
    hold_each_other,
    overlap,
    toward_top_face,
    unscaled,
)


def test_centre_is_the_middle_of_the_box() -> None:
    assert centre((10, 20, 30, 41)) == (25.0, 40.5)


def test_a_box_holds_a_centre_on_its_edge_but_not_past_it() -> None:
    assert centre_in((0, 0, 10, 10), (5, 5, 10, 10))       # centre (10, 10): the corner
    assert not centre_in((0, 0, 10, 10), (6, 0, 10, 10))   # centre (11, 5)


def test_one_die_boxed_twice_is_when_each_box_holds_the_others_centre() -> None:
    label, tight = (0, 0, 40, 40), (8, 8, 24, 24)          # a loose label and the top face
    assert hold_each_other(label, tight) and hold_each_other(tight, label)
    big, corner = (0, 0, 40, 40), (0, 0, 10, 10)           # a small box in a big one's corner
    assert centre_in(big, corner) and not centre_in(corner, big)
    assert not hold_each_other(big, corner)


def test_overlap_is_over_the_smaller_box() -> None:
    assert overlap((0, 0, 40, 40), (0, 0, 10, 10)) == 1.0  # inside: all of the smaller
    assert overlap((0, 0, 10, 10), (5, 0, 10, 10)) == pytest.approx(0.5)
    assert overlap((0, 0, 10, 10), (10, 0, 10, 10)) == 0.0  # touching only
    assert overlap((0, 0, 10, 10), (30, 30, 5, 5)) == 0.0


def test_unscaled_carries_a_box_back_to_the_full_image() -> None:
    assert unscaled((10, 20, 30, 40), 0.25) == (40, 80, 120, 160)
    assert unscaled((3, 3, 3, 3), 0.5) == (6, 6, 6, 6)


def test_a_box_moves_out_from_the_picture_centre_to_the_top_face() -> None:
    shape = (600, 800, 3)                                   # centre (400, 300)
    # a die right of and below the centre: its top face lies further right and down
    assert toward_top_face((590, 380, 20, 40), shape, 0.02) == (594, 382, 20, 40)
    # up and to the left of it: further up and left; the size never changes
    assert toward_top_face((90, 40, 20, 20), shape, 0.02) == (84, 35, 20, 20)
    # the die under the camera shows no side; a shift of 0 leaves every box as it is
    assert toward_top_face((390, 290, 20, 20), shape, 0.02) == (390, 290, 20, 20)
    assert toward_top_face((590, 380, 20, 40), shape, 0.0) == (590, 380, 20, 40)
    # by default a box 300 px right of the centre moves 3 px (vision.boxes.TOP_FACE_SHIFT)
    assert toward_top_face((690, 290, 20, 20), shape) == (693, 290, 20, 20)


def test_a_box_is_cut_to_the_picture() -> None:
    assert clipped((-13, 552, 159, 160), 684, 684) == (0, 552, 146, 132)
    assert clipped((450, 336, 38, 38), 470, 684) == (450, 336, 20, 38)
    assert clipped((10, 10, 20, 20), 100, 100) == (10, 10, 20, 20)  # inside: as it is
    assert clipped((200, 200, 5, 5), 100, 100) == (99, 99, 1, 1)  # wholly outside
