"""Matching found dice to the d6 photos' labels (vision/training/photos.py), as the
benchmark and the calibration scripts do: the labels are loose boxes with the dice's sides."""

from __future__ import annotations

from vision.training.photos import match


def test_a_label_matches_the_found_box_that_holds_its_centre_and_is_held_by_it() -> None:
    truth = [(100, 100, 40, 40), (200, 100, 40, 40), (400, 400, 30, 30)]
    found = [(205, 104, 30, 30),   # the second label's die, box inside the loose label
             (98, 96, 36, 36),     # the first's
             (300, 300, 30, 30)]   # tray: matches nothing
    assert sorted(match(found, truth)) == [(0, 1), (1, 0)]  # the third die not found


def test_each_found_die_is_matched_once_nearest_centre_first() -> None:
    # two labels over one found die (a label mistake drawn twice): the nearer label gets it
    truth = [(100, 100, 40, 40), (102, 100, 40, 40)]
    assert match([(105, 105, 30, 30)], truth) == [(0, 0)]
    # two found boxes on one label: the nearer centre is the die
    far, near = (101, 101, 30, 30), (104, 106, 30, 30)
    assert match([far, near], [(100, 100, 40, 40)]) == [(0, 1)]
    # a found box that holds the label's centre but whose own centre lies outside the label
    assert match([(60, 60, 70, 70)], [(100, 100, 40, 40)]) == []


def test_a_label_whose_die_was_missed_does_not_take_its_neighbour_s_box() -> None:
    # the real case (train IMG_20191208_111628): a blue 1 missed by the detector, labelled
    # first, and a pink 6 beside it whose box also holds the 1's label centre. Taken label
    # by label, the 1 took the 6's box, and the 6 counted as a 6 read as a 1
    missed, neighbour = (100, 100, 40, 40), (115, 110, 40, 40)
    found = [(118, 112, 34, 34)]  # the neighbour's die
    assert match(found, [missed, neighbour]) == [(1, 0)]
    assert match(found, [neighbour, missed]) == [(0, 0)]  # whatever the label order
