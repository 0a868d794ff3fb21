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
    screened_lamp,
)
from vision.reader import DiceReader
from vision.settle import DRIFT_SECONDS, STALE_SECONDS, SettleDetector, TrayState
from vision.sources import FakeSource, SourceLost
from vision.watcher import SourceNotice, watch

SHEET = "IMG_20191208_112541.jpg"  # 7 dice on a white sheet
FPS = 10


def _feed(detector: SettleDetector, frames: list[np.ndarray]) -> list[TrayState]:
    states = []
    for i, frame in enumerate(frames):
        states.append(detector.update(frame, timestamp=i / FPS))
    return [s.state for s in states]


def test_settle_reads_once_after_the_dice_come_to_rest() -> None:
    frames, _ = roll_sequence(photo(SHEET), moved=set(range(7)))
    detector = SettleDetector(clock=ManualClock())
    decisions = [detector.update(f, timestamp=i / FPS) for i, f in enumerate(frames)]
    reads = [i for i, d in enumerate(decisions) if d.read_now]
    assert len(reads) == 1
    first_still = len(frames) - 8
    assert reads[0] >= first_still + round(detector.settle_seconds * FPS) - 1
    states = [d.state for d in decisions]
    assert TrayState.HAND in states[3:7]
    assert all(s in (TrayState.MOVING, TrayState.HAND) for s in states[7:first_still])


def test_settle_never_reads_while_a_hand_is_still_in_the_tray() -> None:
    tray = photo(SHEET).image()
    frames = [tray] * 3 + [hand(tray, 0.45)] * 30
    detector = SettleDetector(clock=ManualClock())
    decisions = [detector.update(f, timestamp=i / FPS) for i, f in enumerate(frames)]
    # the tray settled before the hand came, then the hand held still for 3 s: no read
    assert [i for i, d in enumerate(decisions) if d.read_now] == []
    assert decisions[-1].state is TrayState.HAND


def test_settle_sees_a_real_hand_holding_a_die() -> None:
    real_hand = photo("IMG_20191208_112623.jpg").image()
    detector = SettleDetector(clock=ManualClock())
    states = _feed(detector, [real_hand] * 12)
    assert set(states) == {TrayState.HAND}


def test_a_tray_stirred_but_left_as_it_was_is_not_read_again() -> None:
    """After a read, a hand reaches in and out (or the table is bumped) and the dice are
    where they were: that is no roll. Dice thrown afterwards are read."""
    p = photo(SHEET)
    frames, final = roll_sequence(p, moved=set(range(7)))
    stirred = [final] * 2 + [hand(final, r, seed=9) for r in (0.3, 0.5, 0.3)] + [final] * 8
    again, _ = roll_sequence(p, moved={2}, offset=(-60, 90), start=final)
    detector = SettleDetector(clock=ManualClock())
    sequence = frames + stirred + again
    reads = [i for i, f in enumerate(sequence) if detector.update(f, i / FPS).read_now]
    assert len(reads) == 2
    assert reads[0] < len(frames) and reads[1] >= len(frames) + len(stirred)
    states = _feed(SettleDetector(clock=ManualClock()), frames + stirred)
    assert TrayState.HAND in states[len(frames):]  # the hand was seen, and then no read


# each cover once, with and without a check (all six pairs read alike: three kept for the
# suite's time)
@pytest.mark.parametrize(("cover", "checked"), [("black", False), ("nearly black", True),
                                                ("flat dark grey", False)],
                         ids=["black", "nearly black-checked", "flat dark grey"])
def test_a_throw_after_the_lens_was_covered_is_read(cover: str, checked: bool) -> None:
    """The lens covered (or the light off) while the tray is settled: the black or flat
    tray settles and is read (the reader says the picture is black or flat). Uncovered,
    the same dice stirred by a hand are no roll; dice thrown then are read. Before
    vision.settle's DARK_LIGHT the covered frame became the tray as last read, and any tray
    brought to its brightness differs from it by less than the motion threshold, so no
    throw after it was ever read. With an empty-tray check the covered lens is read as
    soon (it is no hand unlike the check) and the check is kept."""
    p = photo(SHEET)
    frames, final = roll_sequence(p, moved=set(range(7)))
    covered = [{"black": np.zeros_like(final),
                "nearly black": (final * 0.02).astype(np.uint8),
                "flat dark grey": np.full_like(final, 20)}[cover]] * 8
    stirred = [final] * 4 + [hand(final, r, seed=9) for r in (0.3, 0.5, 0.3)] + [final] * 8
    again, _ = roll_sequence(p, moved={2}, offset=(-60, 90), start=final)
    detector = SettleDetector(clock=ManualClock(),
                              background=empty_tray(p) if checked else None)
    sequence = frames + covered + stirred + again
    reads, stale = [], False
    for i, f in enumerate(sequence):
        if detector.update(f, i / FPS).read_now:
            reads.append(i)
        stale |= detector.stale_background
    after = len(frames) + len(covered) + len(stirred)
    assert len(reads) == 3, reads
    assert reads[0] < len(frames) and len(frames) <= reads[1] <= len(frames) + 6
    assert reads[2] >= after
    assert not stale


# each gain once, with and without a check (all six pairs read alike: three kept for the
# suite's time)
@pytest.mark.parametrize(("gain", "checked"), [(1.5, False), (3.0, True), (None, False)],
                         ids=["x1.5", "x3-checked", "white"])
def test_a_throw_after_an_overexposed_tray_is_read(gain: float | None, checked: bool) -> None:
    """The tray flooded with light (a torch, the camera's exposure jumping) while it lies
    settled: an overexposed frame may become the tray as last read, as a covered lens did
    before DARK_LIGHT; brought to its brightness the tray clips white, but the throw after
    the light comes back is still read (the stirred dice before it may be read once more,
    which the roll tracker takes for no roll)."""
    p = photo(SHEET)
    frames, final = roll_sequence(p, moved=set(range(7)))
    flooded = (np.full_like(final, 255) if gain is None
               else np.clip(final * gain, 0, 255).astype(np.uint8))
    stirred = [final] * 4 + [hand(final, r, seed=9) for r in (0.3, 0.5, 0.3)] + [final] * 8
    again, _ = roll_sequence(p, moved={2}, offset=(-60, 90), start=final)
    detector = SettleDetector(clock=ManualClock(),
                              background=empty_tray(p) if checked else None)
    sequence = frames + [flooded] * 8 + stirred + again
    reads = [i for i, f in enumerate(sequence) if detector.update(f, i / FPS).read_now]
    assert reads[0] < len(frames)
    assert reads[-1] >= len(sequence) - len(again), reads


def test_one_small_die_thrown_again_far_from_the_camera_is_read() -> None:
    """Dice 12 px across in a 1280x720 frame are under 2 px at the detector's analysis
    width: one of them thrown again changes fewer pixels than the share that counts as
    motion. It must still be read, not taken for the tray as it was at the last read."""
    tray = np.full((720, 1280, 3), 170, np.uint8)

    def frame(places: list[tuple[int, int]]) -> np.ndarray:
        f = tray.copy()
        for x, y in places:
            f[y:y + 12, x:x + 12] = 30
        return f

    before = frame([(300, 300), (600, 300), (900, 400)])
    after = frame([(300, 300), (600, 300), (700, 500)])
    reaching = hand(before, 0.4, seed=2)
    sequence = [before] * 8 + [reaching] * 3 + [after] * 8
    detector = SettleDetector(clock=ManualClock(), die_px=12)
    reads = [i for i, f in enumerate(sequence) if detector.update(f, i / FPS).read_now]
    assert len(reads) == 2 and reads[1] > 11
    detector = SettleDetector(clock=ManualClock(), die_px=12)  # a hand in and out: no read
    still = [before] * 8 + [reaching] * 3 + [before] * 8
    assert sum(detector.update(f, i / FPS).read_now for i, f in enumerate(still)) == 1


@pytest.mark.parametrize("die", [12, 20, 30, 45])
def test_small_dice_tumbling_are_not_read_until_they_rest(die: int) -> None:
    """One die thrown again tumbles across a 1280x720 tray (real die pictures, another face
    and a quarter turn each frame, half a die further each frame) for 1.2 s. Dice 12-30 px
    across were under 4 px at the 160 px analysis width, and the tumble passed for still:
    the tray was read mid-roll (at 0.5 s of the 1.2). Small dice are now looked at wider."""
    p = photo(SHEET)
    tray = cv2.resize(empty_tray(p), (1280, 720))
    faces = [cv2.resize(patch, (die, die), interpolation=cv2.INTER_AREA)
             for patch, _ in die_patches(p)]

    def frame(places: list[tuple[int, int, int, bool]]) -> np.ndarray:
        f = tray.copy()
        for x, y, k, turned in places:
            f[y:y + die, x:x + die] = cv2.rotate(faces[k], cv2.ROTATE_90_CLOCKWISE) \
                if turned else faces[k]
        return f

    resting = [(300, 300, 0, False), (600, 300, 1, False)]
    sequence = [frame([*resting, (900, 400, 2, False)])] * 8
    sequence += [hand(sequence[0], 0.4, seed=1)] * 3
    x = 700
    for t in range(12):  # frames 11-22: tumbling
        x += die // 2
        sequence.append(frame([*resting, (x, 420, t % 7, t % 2 == 1)]))
    sequence += [frame([*resting, (x, 420, 4, False)])] * 8
    detector = SettleDetector(clock=ManualClock(), die_px=die)
    reads = [i for i, f in enumerate(sequence) if detector.update(f, i / FPS).read_now]
    assert len(reads) == 2
    assert reads[1] >= 22 + round(detector.settle_seconds * FPS)  # still 0.4 s after it


@pytest.mark.parametrize("speed", [20, 40, 100, 200])
def test_a_die_sliding_slowly_is_not_read_until_it_stops(speed: int) -> None:
    """A die slides across a 1280x720 tray for 2 s at ``speed`` px a second, seen at 20
    frames a second: 1-10 px a frame, a fraction of a pixel at the analysis width, so no
    two frames differed enough to count. Before, the tray was read 0.5 s into the slide
    (and at 20-40 px/s read again and again once the change since the last still moment
    counted alone). The change since the tray began to look still now counts too."""
    fps = 20
    p = photo(SHEET)
    tray = cv2.resize(empty_tray(p), (1280, 720))
    die = cv2.resize(die_patches(p)[0][0], (45, 45))

    def frame(x: float) -> np.ndarray:
        f = tray.copy()
        f[300:345, round(x):round(x) + 45] = die
        return f

    sequence = [frame(200)] * 10 + [hand(frame(200), 0.4, seed=1)] * 4
    sequence += [frame(200 + speed * (t + 1) / fps) for t in range(2 * fps)]
    stopped = len(sequence) - 1
    sequence += [sequence[-1]] * 20
    detector = SettleDetector(clock=ManualClock())
    reads = [i for i, f in enumerate(sequence) if detector.update(f, i / fps).read_now]
    assert len(reads) == 2 and reads[0] < 10
    assert reads[1] > stopped  # not before the die stopped


def test_a_slow_change_that_goes_on_does_not_keep_the_tray_from_settling() -> None:
    """A shadow's edge creeps across the tray (3 px a frame, 10 s) after the dice came to
    rest: slow change, like a sliding die's, but it goes on. It counts as motion only
    within DRIFT_SECONDS of the last frame-to-frame motion, so the tray still settles."""
    p = photo(SHEET)
    frames, final = roll_sequence(p, moved=set(range(7)))
    thrown = frames[:-8]
    creep = []
    for i in range(100):
        shaded = final.astype(np.int16)
        shaded[:, :100 + 3 * i] -= 45
        creep.append(np.clip(shaded, 0, 255).astype(np.uint8))
    detector = SettleDetector(clock=ManualClock())
    reads = [i for i, f in enumerate(thrown + creep)
             if detector.update(f, i / FPS).read_now]
    assert len(reads) == 1
    assert reads[0] <= len(thrown) + round((DRIFT_SECONDS + 1) * FPS)


def test_settle_resumes_after_a_lost_source_without_reading_the_same_tray_again() -> None:
    """The camera is unplugged after a read and plugged back: a tray left as it was is not
    read again (it would answer the next roll with the last one's dice); dice thrown while
    it was away are read once they are seen still."""
    p = photo(SHEET)
    frames, final = roll_sequence(p, moved=set(range(7)))
    detector = SettleDetector(clock=ManualClock())
    reads = sum(detector.update(f, i / FPS).read_now for i, f in enumerate(frames))
    assert reads == 1
    detector.take_motion(final.shape)  # as the camera loop does with each read
    detector.resume()  # back after a while, the tray as it was
    later = len(frames) + 50
    assert not any(detector.update(final, (later + i) / FPS).read_now for i in range(10))
    _, thrown = roll_sequence(p, moved={0, 3}, offset=(-60, 90), start=final)
    detector.resume()  # away again; two dice were thrown meanwhile
    later += 60
    decisions = [detector.update(thrown, (later + i) / FPS) for i in range(10)]
    assert [d.read_now for d in decisions].count(True) == 1
    assert not decisions[0].read_now  # seen still for settle_seconds first
    motion = detector.take_motion(thrown.shape)
    x, y, w, h = p.boxes[0]
    assert motion[y + h // 2, x + w // 2] == 1  # where a die was picked up counts as moved
    x, y, w, h = p.boxes[1]
    assert motion[y + h // 2, x + w // 2] == 0


def test_a_detector_for_a_new_setup_goes_on_from_the_old_ones_view() -> None:
    p = photo(SHEET)
    frames, final = roll_sequence(p, moved=set(range(7)))
    old = SettleDetector(clock=ManualClock())
    assert sum(old.update(f, i / FPS).read_now for i, f in enumerate(frames)) == 1
    fresh = SettleDetector(clock=ManualClock(), background=empty_tray(p))
    new = SettleDetector(clock=ManualClock(), background=empty_tray(p)).take_over(old)
    later = [(final, (len(frames) + i) / FPS) for i in range(10)]
    assert sum(fresh.update(f, t).read_now for f, t in later) == 1  # what it did before
    assert not any(new.update(f, t).read_now for f, t in later)


def test_a_still_tray_under_flickering_light_settles() -> None:
    """The light over the whole tray swings 12% from frame to frame (a camera's exposure
    hunting, a flickering lamp): before, that was motion over most of the tray, and the
    tray never settled. The light is taken out of the comparison; dice thrown still are not."""
    p = photo(SHEET)
    image = p.image().astype(np.float32)
    flicker = [np.clip(image * (1 + 0.12 * np.sin(i * 0.9)), 0, 255).astype(np.uint8)
               for i in range(30)]
    detector = SettleDetector(clock=ManualClock())
    decisions = [detector.update(f, i / FPS) for i, f in enumerate(flicker)]
    assert sum(d.read_now for d in decisions) == 1
    frames, _ = roll_sequence(p, moved=set(range(7)))
    lit = [np.clip(f * (1 + 0.12 * np.sin(i * 0.9)), 0, 255).astype(np.uint8)
           for i, f in enumerate(frames)]
    detector = SettleDetector(clock=ManualClock())
    reads = [i for i, f in enumerate(lit) if detector.update(f, i / FPS).read_now]
    assert len(reads) == 1 and reads[0] >= len(frames) - 8 + 3  # after the dice came to rest


def test_settle_uses_the_injected_clock_when_frames_have_no_timestamp() -> None:
    tray = photo(SHEET).image()
    clock = ManualClock()
    detector = SettleDetector(clock=clock, settle_seconds=1.0)
    assert not detector.update(tray).read_now
    clock.advance(0.5)
    assert detector.update(tray).state is TrayState.STILL
    clock.advance(0.6)
    assert detector.update(tray).read_now
    clock.advance(5)
    assert not detector.update(tray).read_now


def test_settle_with_a_calibrated_background_sees_a_gloved_hand() -> None:
    p = photo(SHEET)
    empty = empty_tray(p)
    gloved = p.image().copy()
    gloved[600:1024, 380:640] = (60, 50, 45)  # a dark sleeve, not skin-coloured
    plain = SettleDetector(clock=ManualClock())
    calibrated = SettleDetector(clock=ManualClock(), background=empty)
    assert _feed(plain, [gloved] * 10)[-1] is TrayState.SETTLED
    assert set(_feed(calibrated, [gloved] * 10)) == {TrayState.HAND}


def test_a_calibrated_tray_under_other_light_still_settles() -> None:
    """The empty tray was checked in daylight; the game goes on under lamps. Before, the
    whole tray differed from the check by more than 40 grey levels, read as a hand that
    never left: the camera never read a roll. A change of the light over the whole tray is
    taken out (the frame brought to the check's brightness); a lamp lit on one side, its
    light falling off softly, is no hand either (the forty-second session: before, it held
    the tray 5 s and then dropped the check as stale, telling the table to check the tray
    again), and a sleeve still in the tray under it is seen against the tray as it
    settled. A change with a crisp edge (the lamp's light cut by a screen), which is not
    taken out, is taken for a stale check after 5 s still with no skin in view (the check
    is dropped, and says so), while a gloved hand that moves stays a hand."""
    p = photo(SHEET)
    empty = empty_tray(p)
    image = p.image().astype(np.float32)
    for gain in (0.6, 0.7, 1.4):
        dimmed = np.clip(image * gain, 0, 255).astype(np.uint8)
        detector = SettleDetector(clock=ManualClock(), background=empty)
        assert _feed(detector, [dimmed] * 10)[-1] is TrayState.SETTLED
        assert not detector.stale_background
    side_lamp = np.linspace(0.5, 1.0, image.shape[1], dtype=np.float32)[None, :, None]
    soft = np.clip(image * side_lamp, 0, 255).astype(np.uint8)
    detector = SettleDetector(clock=ManualClock(), background=empty)
    states = _feed(detector, [soft] * 10)
    assert TrayState.HAND not in states and states[-1] is TrayState.SETTLED
    assert not detector.stale_background
    sleeved = soft.copy()
    sleeved[600:1024, 380:640] = (60, 50, 45)  # a dark sleeve, not skin-coloured
    states = [detector.update(sleeved, 1.0 + i / FPS).state for i in range(20)]
    assert set(states) == {TrayState.HAND}
    lit = screened_lamp(p.image())
    detector = SettleDetector(clock=ManualClock(), background=empty)
    states = _feed(detector, [lit] * 80)
    stale_after = round(STALE_SECONDS * FPS)
    assert set(states[:stale_after]) == {TrayState.HAND} and not all(
        s is TrayState.HAND for s in states)
    assert states[-1] is TrayState.SETTLED and detector.stale_background
    empty_again = p.image()  # the lamp turned off: the check counts again
    detector.update(empty_again, 9.0)
    assert not detector.stale_background
    states = [detector.update(lit, 9.1 + i / FPS).state for i in range(20)]
    assert states[0] is TrayState.HAND  # five more seconds before it is dropped again
    gloved = p.image().copy()
    waving = []
    for i in range(80):  # a dark sleeve that moves a little every frame
        frame = gloved.copy()
        frame[600:1024, 380 + 4 * (i % 5):640 + 4 * (i % 5)] = (60, 50, 45)
        waving.append(frame)
    detector = SettleDetector(clock=ManualClock(), background=empty)
    assert TrayState.SETTLED not in _feed(detector, waving)
    assert not detector.stale_background


def test_settle_goes_on_when_the_camera_frames_no_longer_fit_the_calibration() -> None:
    # a camera plugged in again at another mode (4:3 calibrated, 16:9 now) once crashed
    # the settle detector (sizes of input arguments do not match), stopping the camera
    p = photo(SHEET)
    empty = empty_tray(p)                                # 1024x1024
    wide = cv2.resize(p.image(), (1280, 720), interpolation=cv2.INTER_AREA)
    calibrated = SettleDetector(clock=ManualClock(), background=empty)
    assert _feed(calibrated, [wide] * 10)[-1] is TrayState.SETTLED
    # the reader then refuses the frame with what to do, as before
    reader = DiceReader("d6", roi=np.full(empty.shape[:2], 255, np.uint8))
    with pytest.raises(ValueError, match="calibrate this camera at this size"):
        reader.read(wide)
    # frames of the calibrated shape still use the empty tray (a gloved hand is seen)
    gloved = p.image().copy()
    gloved[600:1024, 380:640] = (60, 50, 45)
    assert set(_feed(calibrated, [gloved] * 10)) == {TrayState.HAND}


@pytest.mark.parametrize("convert", [cv2.COLOR_BGR2GRAY, cv2.COLOR_BGR2BGRA],
                         ids=["grey", "bgra"])
def test_settle_takes_grey_and_bgra_frames_as_the_reader_does(convert: int) -> None:
    tray = cv2.cvtColor(photo(SHEET).image(), convert)
    assert _feed(SettleDetector(clock=ManualClock()), [tray] * 10)[-1] is TrayState.SETTLED


def test_watch_numbers_rolls_and_matches_a_partial_reroll() -> None:
    p = photo(SHEET)
    reader = DiceReader("d6")
    first, final = roll_sequence(p, moved=set(range(7)))
    again, _ = roll_sequence(p, moved={0, 3}, offset=(-60, 90), start=final)
    clock = ManualClock()
    frames = first + again
    with FakeSource(frames, clock=clock) as source:
        rolls = [r for r in watch(source, reader, TickingDetector(clock, FPS))
                 if not isinstance(r, SourceNotice)]
    assert [r.id for r in rolls] == [1, 2]
    one, two = rolls
    assert one.previous_id is None and one.kept == ()
    assert len(one.read.dice) >= 5
    assert two.previous_id == 1
    assert len(two.rerolled) >= 2
    assert len(two.kept) >= 3
    for i in two.kept:
        die = two.read.dice[i]
        before = [d for d in one.read.dice if abs(d.box[0] - die.box[0]) < 15
                  and abs(d.box[1] - die.box[1]) < 15]
        assert before and before[0].face == die.face


def test_watch_matches_a_partial_reroll_across_a_covered_lens() -> None:
    """The lens covered between a roll and its re-roll: the black tray is no roll and says
    why, but the dice were not picked up, so the re-roll after it is still matched to the
    dice that moved (before, a settle with no die read always ended the last roll)."""
    p = photo(SHEET)
    reader = DiceReader("d6")
    first, final = roll_sequence(p, moved=set(range(7)))
    covered = [np.zeros_like(final)] * 8 + [final] * 4
    again, _ = roll_sequence(p, moved={0, 3}, offset=(-60, 90), start=final)
    clock = ManualClock()
    with FakeSource(first + covered + again, clock=clock) as source:
        items = list(watch(source, reader, TickingDetector(clock, FPS)))
    notices = [i for i in items if isinstance(i, SourceNotice)]
    rolls = [i for i in items if not isinstance(i, SourceNotice)]
    assert [n.kind for n in notices] == ["warning"] and "black" in notices[0].message
    assert [r.id for r in rolls] == [1, 2]
    assert rolls[1].previous_id == 1 and len(rolls[1].kept) >= 3


def test_watch_reports_a_lost_source_and_resumes_after_reopen() -> None:
    tray = photo(SHEET).image()
    clock = ManualClock()
    source = FakeSource([tray] * 6, lose_after=3, clock=clock)
    attempts: list[int] = []

    def wait() -> None:
        attempts.append(1)
        if len(attempts) == 2:
            source.plugged = True

    items = list(watch(source, DiceReader("d6"), TickingDetector(clock, FPS),
                       reopen_attempts=3, wait=wait))
    notices = [i for i in items if isinstance(i, SourceNotice)]
    assert [n.kind for n in notices] == ["lost", "back"]
    assert len(attempts) == 2


def test_watch_does_not_print_the_same_roll_again_after_the_camera_comes_back() -> None:
    p = photo(SHEET)
    frames, final = roll_sequence(p, moved=set(range(7)))
    clock = ManualClock()
    source = FakeSource(frames + [final] * 12, lose_after=len(frames), clock=clock)

    def wait() -> None:
        source.plugged = True

    items = list(watch(source, DiceReader("d6"), TickingDetector(clock, FPS), reopen_attempts=1,
                       wait=wait))
    assert [i.kind for i in items if isinstance(i, SourceNotice)] == ["lost", "back"]
    assert [r.id for r in items if not isinstance(r, SourceNotice)] == [1]


def test_watch_gives_up_after_the_reopen_attempts() -> None:
    source = FakeSource([np.zeros((8, 8, 3), np.uint8)] * 3, lose_after=1)
    items = list(watch(source, DiceReader("d6"), SettleDetector(clock=ManualClock()),
                       reopen_attempts=2))
    assert [i.kind for i in items if isinstance(i, SourceNotice)] == ["lost"]
    with pytest.raises(SourceLost):
        source.read()


def test_an_empty_tray_is_no_roll_and_ends_the_last_one() -> None:
    """The tray settles empty before a roll and after the dice are picked up: no roll is
    yielded (the server does the same), and the next roll is a new one, not a re-roll. A
    black picture (the lens covered) says so instead of passing in silence."""
    p = photo(SHEET)
    empty = empty_tray(p)
    first, final = roll_sequence(p, moved=set(range(7)))
    frames = [empty] * 8 + first + [empty] * 8 + first + [np.zeros_like(empty)] * 8
    clock = ManualClock()
    with FakeSource(frames, clock=clock) as source:
        items = list(watch(source, DiceReader("d6"), TickingDetector(clock, FPS)))
    rolls = [i for i in items if not isinstance(i, SourceNotice)]
    assert [(r.id, r.previous_id) for r in rolls] == [(1, None), (2, None)]
    assert all(len(r.read.dice) >= 5 for r in rolls)
    (notice,) = [i for i in items if isinstance(i, SourceNotice)]
    assert notice.kind == "warning" and "black" in notice.message
