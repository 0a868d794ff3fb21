"""Splitting touching dice and dropping duplicate candidates (drawn frames, no photos)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.boxfixes import drop_overlapping
from vision.detection import WORK_DIE_PX, _components, find_boxes
from vision.reading import DieRead


def _die(image: np.ndarray, x: int, y: int, side: int, colour: tuple[int, int, int]) -> None:
    cv2.rectangle(image, (x, y), (x + side, y + side), colour, -1)
    for dx, dy in ((0.25, 0.25), (0.75, 0.75), (0.5, 0.5)):
        cv2.circle(image, (x + int(dx * side), y + int(dy * side)), 3, (20, 20, 20), -1)


def test_two_dice_side_by_side_are_split_left_and_right() -> None:
    image = np.full((200, 300, 3), 170, np.uint8)
    side = int(WORK_DIE_PX * 0.8)
    _die(image, 100, 80, side, (240, 240, 240))
    _die(image, 100 + side + 1, 80, side, (235, 235, 245))
    boxes = find_boxes(image)
    assert len(boxes) == 2
    left, right = sorted(boxes)
    # each box holds one die: side by side, each about one die wide and tall
    assert left[0] + left[2] / 2 < 100 + side < right[0] + right[2] / 2
    for _, _, w, h in boxes:
        assert 0.6 * side <= w <= 1.4 * side and 0.6 * side <= h <= 1.4 * side


def test_components_match_opencv_stats_with_nested_blobs() -> None:
    mask = np.zeros((60, 60), np.uint8)
    cv2.rectangle(mask, (5, 5), (50, 50), 255, -1)
    cv2.rectangle(mask, (15, 15), (40, 40), 0, -1)
    cv2.rectangle(mask, (20, 20), (30, 30), 255, -1)  # a blob in another's hole
    mask[55:58, 2:4] = 255
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    n2, labels2, stats2 = _components(mask)
    assert n2 == n and (labels2 == labels).all() and (stats2 == stats).all()


def test_a_second_box_on_the_same_die_is_dropped() -> None:
    crop = np.zeros((4, 4, 3), np.uint8)
    whole = DieRead("4", 0.95, False, (100, 100, 40, 40), crop)
    piece = DieRead("2", 0.5, True, (105, 110, 30, 28), crop)
    beside = DieRead("6", 0.9, False, (141, 100, 40, 40), crop)
    kept = drop_overlapping([piece, whole, beside])
    assert whole in kept and beside in kept and piece not in kept
