"""A lamp flickering with the mains, seen by a rolling shutter (vision.lightbands).

Until the fortieth session a frame was brought to the last one's brightness as a whole:
bands of light 6% deep or more rolling down a still tray were motion that never ended,
and the camera never read a roll (benchmarks/bench_flicker.py measures it)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.helpers import (
    ManualClock,
    TickingDetector,
    die_patches,
    empty_tray,
    hand,
    photo,
    roll_sequence,
)
from vision import lightbands
from vision.calibration import check
from vision.lightbands import (
    BAND_SPREAD,
    band_spread,
    brought,
    frames_band_spread,
    row_gains,
    row_light,
    to_bands_of,
)
from vision.reader import DiceReader
from vision.rolls import settled_grey, unchanged
from vision.settle import SettleDetector, TrayState
from vision.setupadvice import FLICKER_ADVICE, FLICKER_SPREAD
from vision.sources import FakeSource
from vision.surroundings import flicker_bands
from vision.watcher import SourceNotice, watch

SHEET = "IMG_20191208_112541.jpg"  # 7 dice on a white sheet
FPS = 30
ROLL = 0.33
"""Cycles the bands move by from one frame to the next (100 Hz flicker, 30 frames a
second: a third of a cycle)."""


def grey(frame: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)


def test_row_light_is_each_rows_median_and_a_die_barely_moves_it() -> None:
    floor = np.full((90, 160), 180, np.uint8)
    floor[30:40] = 120
    with_die = floor.copy()
    cv2.rectangle(with_die, (50, 60), (62, 72), 20, -1)  # a dark die: 13 px of a row's 160
    assert row_light(floor)[35] == 120 and row_light(floor)[10] == 180
    assert np.abs(row_light(with_die) - row_light(floor)).max() <= 1
    tall = cv2.resize(floor, (640, 360), interpolation=cv2.INTER_NEAREST)
    rows = row_light(tall)
    assert rows.shape == (360,) and abs(rows[10] - 180) <= 1 and abs(rows[140] - 120) <= 1


def test_bands_are_brought_back_row_by_row_and_a_whole_change_is_left_to_the_ratio() -> None:
    still = grey(photo(SHEET).image())
    banded = flicker_bands(still, 0.15, 0.2)
    gains = row_gains(row_light(banded), row_light(still), 1.0)
    assert gains is not None and gains.shape == (still.shape[0], 1)
    back = brought(banded, gains)
    before = cv2.absdiff(banded, still) > 18
    after = cv2.absdiff(back, still) > 18
    assert before.mean() > 0.05 and after.mean() < 0.002
    # the same light over the whole picture, or no change: no bands to take out
    assert row_gains(row_light(still), row_light(still), 1.0) is None
    dimmer = cv2.convertScaleAbs(still, alpha=0.8)
    assert row_gains(row_light(dimmer), row_light(still), 1.25) is None
    assert row_gains(row_light(still), row_light(still[:-10]), 1.0) is None


def test_a_dark_band_takes_its_lighter_neighbours_ratio_and_a_black_floor_none() -> None:
    floor = np.full((90, 160), 60, np.uint8)
    banded = flicker_bands(floor, 0.7, 0.0, cycles=1)  # its darkest rows under 25
    rows = row_light(banded)
    assert rows.min() < lightbands.DARK_ROW
    gains = row_gains(rows, row_light(floor), 1.0)
    assert gains is not None and np.isfinite(gains).all()
    assert gains.max() <= lightbands.MOST_GAIN
    black = np.full((90, 160), 8, np.uint8)
    assert row_gains(row_light(flicker_bands(black, 0.5, 0.0)), row_light(black), 1.0) is None


def test_a_die_moving_under_bands_is_still_motion() -> None:
    """The rows are brought back by their floor, not by what moves in them."""
    p = photo(SHEET)
    final = p.image()
    x, y, w, h = p.boxes[1]
    moved_frame = final.copy()
    moved_frame[y:y + h, x:x + w] = empty_tray(p)[y:y + h, x:x + w]
    moved_frame[y:y + h, x + w // 2:x + w // 2 + w] = final[y:y + h, x:x + w]  # half a die on
    for depth in (0.0, 0.15):
        detector = SettleDetector(clock=ManualClock())
        detector.update(flicker_bands(final, depth, 0.0), timestamp=0.0)
        decision = detector.update(flicker_bands(moved_frame, depth, ROLL), timestamp=1 / FPS)
        assert decision.state is TrayState.MOVING
        assert detector.update(flicker_bands(moved_frame, depth, 2 * ROLL),
                               timestamp=2 / FPS).state is TrayState.STILL


@pytest.mark.parametrize(("depth", "cycles", "die_px"), [
    (0.06, 4, None), (0.1, 1.5, None), (0.2, 8, None), (0.15, 4, 12.0)])
def test_a_roll_under_rolling_bands_is_read_once_after_the_dice_stop(
        depth: float, cycles: float, die_px: float | None) -> None:
    frames, final = roll_sequence(photo(SHEET), moved=set(range(7)))
    sequence = frames[:-8] + [final] * 60
    stopped = len(frames) - 8
    steady = SettleDetector(clock=ManualClock(), die_px=die_px)
    detector = SettleDetector(clock=ManualClock(), die_px=die_px)
    reads, steady_reads = [], []
    for i, frame in enumerate(sequence):
        if steady.update(frame, timestamp=i / FPS).read_now:
            steady_reads.append(i)
        decision = detector.update(flicker_bands(frame, depth, ROLL * i, cycles),
                                   timestamp=i / FPS)
        if decision.read_now:
            reads.append(i)
    # read once, when it is under steady light: 0.4 s after the last die stopped
    assert len(reads) == 1 and reads == steady_reads
    assert reads[0] >= stopped + 0.4 * FPS - 1
    assert decision.state is TrayState.SETTLED
    held = hand(final, 0.45)
    start = len(sequence)
    after = [detector.update(flicker_bands(held, depth, ROLL * (start + i), cycles),
                             timestamp=(start + i) / FPS) for i in range(30)]
    assert not any(d.read_now for d in after) and after[-1].state is TrayState.HAND


def test_bands_brought_as_a_whole_were_motion_without_end(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What the detector did before: the same frames never settle."""
    monkeypatch.setattr(lightbands, "BAND_SPREAD", float("inf"))
    frames, final = roll_sequence(photo(SHEET), moved=set(range(7)))
    detector = SettleDetector(clock=ManualClock())
    decisions = [detector.update(flicker_bands(f, 0.1, ROLL * i), timestamp=i / FPS)
                 for i, f in enumerate(frames[:-8] + [final] * 60)]
    assert not any(d.read_now for d in decisions)
    assert decisions[-1].state is TrayState.MOVING


def test_a_calibrated_tray_under_bands_reads_the_roll_and_sees_no_glove() -> None:
    p = photo(SHEET)
    frames, final = roll_sequence(p, moved=set(range(7)))
    empty = empty_tray(p)
    detector = SettleDetector(clock=ManualClock(), background=empty)
    sequence = frames[:-8] + [final] * 60
    decisions = [detector.update(flicker_bands(f, 0.15, ROLL * i), timestamp=i / FPS)
                 for i, f in enumerate(sequence)]
    assert sum(d.read_now for d in decisions) == 1
    assert not detector.stale_background


def test_the_calibration_check_sees_bands_and_advises_on_them() -> None:
    empty = empty_tray(photo(SHEET))
    banded = [flicker_bands(empty, 0.1, ROLL * i) for i in range(5)]
    steady = [empty.copy() for _ in range(5)]
    faint = [flicker_bands(empty, 0.01, ROLL * i) for i in range(5)]
    assert frames_band_spread(banded) > FLICKER_SPREAD
    assert frames_band_spread(faint) < FLICKER_SPREAD  # no advice for bands 1% deep
    assert frames_band_spread(steady) == 0.0 and frames_band_spread(steady[:1]) == 0.0
    noisy = [np.clip(empty + np.random.default_rng(i).normal(0, 3, empty.shape), 0, 255)
             .astype(np.uint8) for i in range(5)]
    assert frames_band_spread(noisy) < BAND_SPREAD / 2  # a camera's noise is no band
    result = check("t", banded)
    assert FLICKER_ADVICE in result.advice and result.keepable
    assert result.to_json()["light_bands"] > FLICKER_SPREAD
    assert FLICKER_ADVICE not in check("t", steady).advice
    assert FLICKER_ADVICE not in check("t", faint).advice
    # bands with the camera's anti-flicker already set: perhaps the other mains
    advice = check("t", banded, mains_hz=50).advice
    assert FLICKER_ADVICE not in advice
    assert any("anti-flicker set to 50 Hz" in a and "use 60hz" in a for a in advice)
    assert check("t", banded, mains_hz=60).to_json()["mains_hz"] == 60


def test_band_spread_is_relative_to_the_whole_change() -> None:
    still = grey(photo(SHEET).image())
    assert band_spread(row_light(cv2.convertScaleAbs(still, alpha=0.7)), row_light(still)) < 0.02
    assert band_spread(row_light(flicker_bands(still, 0.1, 0.0)), row_light(still)) > 0.15


def test_the_reader_reads_a_banded_photo_as_the_steady_one() -> None:
    image = photo(SHEET).image()
    reader = DiceReader("d6")
    steady = reader.read(image)
    banded = reader.read(flicker_bands(image, 0.15, 0.3))
    assert [d.face for d in banded.dice] == [d.face for d in steady.dice]
    assert sum(d.uncertain for d in banded.dice) <= sum(d.uncertain for d in steady.dice)


def test_a_still_dies_place_looks_the_same_under_other_bands_and_another_face_does_not(
) -> None:
    """Two settled frames under a flickering lamp show the bands at two places: before,
    at bands 20% deep, 71 of the 294 dice of the checked-in photos (6 phases) looked
    changed, each counted as thrown again."""
    p = photo(SHEET)
    image = p.image()
    before = settled_grey(flicker_bands(image, 0.2, 0.5))
    patches = die_patches(p, grow=0.0)
    looked_changed = 0
    for phase in (0.0, 0.25, 0.75):
        raw = settled_grey(flicker_bands(image, 0.2, phase))
        now = to_bands_of(raw, before)
        looked_changed += sum(not unchanged(before, raw, box) for box in p.boxes)
        assert all(unchanged(before, now, box) for box in p.boxes)
        for i, (x, y, w, h) in enumerate(p.boxes):
            j = next(j for j, f in enumerate(p.faces) if f != p.faces[i])
            other = image.copy()
            other[y:y + h, x:x + w] = cv2.resize(patches[j][0], (w, h))
            swapped = to_bands_of(settled_grey(flicker_bands(other, 0.2, phase)), before)
            assert not unchanged(before, swapped, (x, y, w, h))
    assert looked_changed > 0  # as the frames were compared before
    assert to_bands_of(before, before) is before  # no bands between them: as it is


@pytest.mark.parametrize("thrown", [{0, 3}, {5}])
def test_a_re_roll_under_bands_is_the_dice_thrown(thrown: set[int]) -> None:
    """Bands that stand nearly still (a frame rate that divides the flicker's, as 25
    frames a second do 100 Hz) lie elsewhere by the re-roll: before, the dice left
    lying looked changed and counted as thrown again."""
    p = photo(SHEET)
    first, final = roll_sequence(p, moved=set(range(7)))
    again, _ = roll_sequence(p, moved=thrown, offset=(-60, 90), start=final)
    frames = ([flicker_bands(f, 0.2, 0.5) for f in first]
              + [flicker_bands(f, 0.2, 0.0) for f in again])
    clock = ManualClock()
    with FakeSource(frames, clock=clock) as source:
        rolls = [r for r in watch(source, DiceReader("d6"), TickingDetector(clock))
                 if not isinstance(r, SourceNotice)]
    one, two = rolls
    assert two.previous_id == one.id and len(two.rerolled) == len(thrown)
    assert len(two.kept) == 7 - len(thrown)
