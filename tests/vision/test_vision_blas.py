"""NumPy's BLAS runs a profile's small matrix products on one thread and gives the
process its own thread count back after (vision/blas.py)."""

from __future__ import annotations

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from tests.vision.test_vision_enrollment import seafall_crops
from vision import templates
from vision.blas import one_thread
from vision.enrollment import Profile


def blas_threads() -> list[int]:
    return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]


@pytest.fixture
def two_blas_threads():  # noqa: ANN201 - a fixture that yields nothing
    if not blas_threads():
        pytest.skip("NumPy has no BLAS library threadpoolctl can see")
    with threadpool_limits(limits=2, user_api="blas"):
        yield


@pytest.mark.usefixtures("two_blas_threads")
def test_a_call_runs_on_one_blas_thread_and_gives_the_setting_back() -> None:
    seen: list[list[int]] = []

    @one_thread
    def product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        seen.append(blas_threads())
        return a @ b

    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    assert np.array_equal(product(a, a.T), a @ a.T)
    assert seen == [[1] * len(seen[0])]
    assert set(blas_threads()) == {2}

    @one_thread
    def failing() -> None:
        raise ValueError("bad crop")

    with pytest.raises(ValueError, match="bad crop"):
        failing()
    assert set(blas_threads()) == {2}
    assert product.__name__ == "product"


@pytest.mark.usefixtures("two_blas_threads")
def test_a_profile_compares_dice_on_one_blas_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    crops = seafall_crops(seed=3, per_face=2)
    profile = Profile.from_crops("sf", "seafall", crops)
    seen: list[list[int]] = []
    compare = templates.best_similarities

    def watched(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        seen.append(blas_threads())
        return compare(*args, **kwargs)

    monkeypatch.setattr(templates, "best_similarities", watched)
    dice = [c for face in crops.values() for c in face]
    guesses = profile.classify_many(dice, dice, neighbours=True)
    assert len(guesses) == len(dice)
    assert seen and all(set(threads) == {1} for threads in seen)
    assert set(blas_threads()) == {2}
