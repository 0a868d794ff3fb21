"""Pip dice drawn as cubes through a lens (``vision/cubes.py``, for
``benchmarks/bench_side_view.py --die d6``): a d6's faces (opposite faces summing to 7),
the 24 ways it rests, a die in the picture's middle ``die_px`` across, and far out under a
wide lens its sides in view."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.cubes import (
    PIPS,
    camera_height,
    cube_photo,
    orientations,
    pip_face,
    random_tray,
    top_face,
)
from vision.faces import D6_FACES
from vision.reader import DiceReader
from vision.synthetic import BODY_COLOURS


def test_a_d6_rests_24_ways_each_face_up_in_4_with_opposite_faces_summing_to_7() -> None:
    rests = orientations()
    assert len(rests) == 24
    assert len({r.tobytes() for r in rests}) == 24
    for r in rests:
        assert np.allclose(r @ r.T, np.eye(3)) and np.linalg.det(r) == pytest.approx(1)
        bottom = top_face(np.diag([1.0, -1.0, -1.0]) @ r)  # turned over
        assert int(top_face(r)) + int(bottom) == 7
    assert sorted(top_face(r) for r in rests) == sorted(list(D6_FACES) * 4)


@pytest.mark.parametrize("label", D6_FACES)
def test_each_face_has_its_number_of_pips(label: str) -> None:
    face = pip_face(label, BODY_COLOURS[0])
    ink = cv2.inRange(face, (200, 200, 200), (255, 255, 255))
    count, _ = cv2.connectedComponents(ink)
    assert count - 1 == int(label) == len(PIPS[label])


def test_the_camera_hangs_where_a_die_in_the_middle_is_die_px_across() -> None:
    focal, height = camera_height(64, 46, 960)
    assert focal == pytest.approx(480 / math.tan(math.radians(32)))
    assert focal / (height - 1) == pytest.approx(46)  # the top face, a die's side up
    for bad in (0, 170, -5):
        with pytest.raises(ValueError, match="0-170"):
            camera_height(bad, 46, 960)
    with pytest.raises(ValueError, match="too many dice"):
        cube_photo(np.random.default_rng(0), ["1"] * 10, 64, size=(240, 180))


def _boxes(lens: float) -> list[tuple[int, int, int, int]]:
    rng = np.random.default_rng(5)  # the same dice, turned alike: only the lens differs
    photo = cube_photo(rng, ["5"] * 12, lens, body=BODY_COLOURS[2])
    return [d.box for d in photo.dice]


def test_far_out_under_a_wide_lens_a_die_shows_its_sides() -> None:
    """Through a lens 10 degrees across a die is about its top face; through 90, a die
    far from the picture's centre shows the side facing it: its outline grows towards the
    centre by about tan(angle off the axis) of its height."""
    narrow, wide = _boxes(10), _boxes(90)
    far = near = 0
    for (x, y, w, h), (_, _, ww, wh) in zip(narrow, wide, strict=True):
        assert 40 <= w <= 72 and 40 <= h <= 72  # 46 px, turned: up to 46 * sqrt 2 (+ blur)
        off = math.hypot(x + w / 2 - 480, y + h / 2 - 360)
        grown = math.hypot(ww - w, wh - h)
        if off > 300:
            assert grown > 0.5 * 46 * off / 480  # tan(45 degrees) at the picture's edge
            far += 1
        elif off < 150:
            assert grown < 46 * 150 / 480  # at most the whole side there
            near += 1
    assert far >= 3 and near >= 1


def test_the_pip_reader_reads_the_drawn_dice_seen_from_above() -> None:
    """The drawings are dice to the reader: through a narrow lens it finds every one and
    reads nearly all of them right (white-pipped bodies on the light tray)."""
    reader = DiceReader("d6")
    rng = np.random.default_rng(41)
    right = total = 0
    for body in (BODY_COLOURS[0], BODY_COLOURS[2], BODY_COLOURS[3]):
        photo = cube_photo(rng, [D6_FACES[i % 6] for i in range(12)], 10, body=body)
        read = reader.read(photo.image)
        assert len(read.dice) == len(photo.dice)
        for die in photo.dice:
            x, y, w, h = die.box
            got = min(read.dice, key=lambda d: math.hypot(d.box[0] + d.box[2] / 2 - x - w / 2,
                                                        d.box[1] + d.box[3] / 2 - y - h / 2))
            right += got.face == die.face
            total += 1
    assert right >= 0.9 * total


def test_random_trays_for_the_detector_vary_and_repeat_from_their_seed() -> None:
    first = [random_tray(np.random.default_rng(s), die_px=30) for s in range(6)]
    again = random_tray(np.random.default_rng(0), die_px=30)
    assert np.array_equal(first[0].image, again.image) and first[0].dice == again.dice
    counts = [len(t.dice) for t in first]
    assert all(1 <= n <= 15 for n in counts) and len(set(counts)) > 1
    floors = [float(np.median(t.image)) for t in first]
    assert max(floors) - min(floors) > 20  # grey floors from dark to light
    for tray in first:
        h, w = tray.image.shape[:2]
        for die in tray.dice:
            assert die.face in D6_FACES
            x, y, bw, bh = die.box
            assert 0 <= x + bw / 2 < w and 0 <= y + bh / 2 < h  # (the tilt may push an
            # edge die's outline a pixel past the picture)
            assert 25 <= max(bw, bh) <= 60  # its whole outline: the top face and its sides
