"""The worse cameras the pip reader is measured under (vision/training/degradations.py:
``benchmarks/bench_degraded.py``, ``calibrate_dark --degrade``): each does what its name
says to a frame, and the same frame and seed give the same result."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.helpers import labelled_photos
from vision.training.degradations import DEGRADATIONS, motion


@pytest.fixture(scope="module")
def frame() -> np.ndarray:
    return cv2.resize(labelled_photos()[0].image(), (320, 240), interpolation=cv2.INTER_AREA)


def _sharpness(image: np.ndarray) -> float:
    return float(cv2.Laplacian(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var())


@pytest.mark.parametrize("name", sorted(DEGRADATIONS))
def test_each_gives_a_frame_of_the_same_size_the_same_way_twice(
        name: str, frame: np.ndarray) -> None:
    degrade = DEGRADATIONS[name]
    once = degrade(frame, np.random.default_rng(3))
    assert once.shape == frame.shape and once.dtype == np.uint8
    assert np.array_equal(once, degrade(frame, np.random.default_rng(3)))
    assert np.array_equal(once, frame) == (name == "none")


def test_blur_and_smear_soften_more_the_larger_they_are(frame: np.ndarray) -> None:
    rng = np.random.default_rng(0)
    sharp = [_sharpness(DEGRADATIONS[n](frame, rng)) for n in ("none", "blur1", "blur2", "blur3")]
    assert sharp == sorted(sharp, reverse=True)
    smear = [_sharpness(DEGRADATIONS[n](frame, rng)) for n in ("motion5", "motion13")]
    assert smear[0] > smear[1]


def test_a_smear_is_sideways(frame: np.ndarray) -> None:
    smeared = DEGRADATIONS["motion13"](frame, np.random.default_rng(0)).astype(float)
    grey = smeared.mean(axis=2)
    assert np.abs(np.diff(grey, axis=1)).mean() < 0.5 * np.abs(np.diff(grey, axis=0)).mean()


def test_a_smear_can_be_turned(frame: np.ndarray) -> None:
    # as train_pips.worse_camera draws it, at any angle; at 90 degrees it runs up and down
    def steps(image: np.ndarray) -> np.ndarray:  # mean grey step down and across
        grey = image.astype(float).mean(axis=2)
        return np.array([np.abs(np.diff(grey, axis=a)).mean() for a in (0, 1)])

    rng = np.random.default_rng(0)
    left = steps(motion(13, 90.0)(frame, rng)) / steps(frame)
    assert left[0] < 0.7 * left[1]  # the steps down smoothed away far more than across
    left = steps(motion(13, 0.0)(frame, rng)) / steps(frame)
    assert left[1] < 0.7 * left[0]
    assert np.array_equal(motion(13, 0.0)(frame, rng), motion(13)(frame, rng))
    # the kernel keeps the frame's level
    assert abs(motion(13, 37.0)(frame, rng).mean() - frame.mean()) < 2.0


def test_light_and_tint_change_the_level_and_the_colour(frame: np.ndarray) -> None:
    rng = np.random.default_rng(0)
    mean = frame.mean()
    assert DEGRADATIONS["dark0.2"](frame, rng).mean() < 0.25 * mean
    assert DEGRADATIONS["bright1.6"](frame, rng).mean() > 1.2 * mean
    warm = DEGRADATIONS["warm"](frame, rng).reshape(-1, 3).mean(axis=0)
    assert warm[2] > warm[0]  # red over blue
    noisy = DEGRADATIONS["noise16"](frame, rng).astype(float) - frame
    assert 8 < noisy.std() < 20


def test_jpeg_loses_more_the_lower_its_quality(frame: np.ndarray) -> None:
    rng = np.random.default_rng(0)
    err = [np.abs(DEGRADATIONS[n](frame, rng).astype(float) - frame).mean()
           for n in ("jpeg90", "jpeg50", "jpeg15")]
    assert err == sorted(err) and err[0] > 0
