"""A hand of any skin tone told by its shape (vision.hands.reaching_share, vision.settle).

Until the fortieth session a hand held still in an unchecked tray was seen by its skin
colour only, and the skin range misses the lightest and deepest tones: of the Monk Skin
Tone scale's ten, a still hand of tones 1-3 and 9-10 was read with the dice, on each of
the checked-in photos' trays (the tones are the scale's swatches, drawn as the tests' hand)."""

from __future__ import annotations

import functools

import cv2
import numpy as np
import pytest

from tests.vision.helpers import (
    SKIN_TONES,
    ManualClock,
    empty_tray,
    hand,
    leaning_shadow,
    photo,
    roll_sequence,
)
from vision.hands import REACH_MOST, reaching_share, soft_edged
from vision.settle import STALE_SECONDS, STILL_SKIN_SECONDS, SettleDetector, TrayState
from vision.surroundings import LAMPS, WOODS, lamp_light, wooden_border, wooden_floor
from vision.synthetic import Setting, tray_photo

SHEET = "IMG_20191208_112541.jpg"
FOUR_DICE = "IMG_20191209_100019.jpg"
FPS = 10


@functools.cache
def _sheet_roll() -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """The sheet's roll (frames, final), drawn once for the module's tests (they only read
    it)."""
    frames, final = roll_sequence(photo(SHEET), moved=set(range(7)))
    return tuple(frames), final


_PAINTED: dict[str, tuple[list[np.ndarray], np.ndarray]] = {}


def settled_then_hand(tone: tuple[int, int, int], floor=lambda f: f, seconds: float = 3.0,
                      light=lambda f: f, die_px: float | None = None,
                      painted: str | None = None):
    """The sheet's roll on ``floor``, then a hand reaching in and held still for
    ``seconds``, all under ``light`` (the hand too), seen by a detector told the dice are
    ``die_px`` (by default, it works it out). ``painted`` names ``floor`` and ``light``
    for the roll's frames to be painted once for every test that names them alike (the
    skin tones' tests: the painting took half of each)."""
    if painted is None or painted not in _PAINTED:
        frames, final = _sheet_roll()
        scene = ([light(floor(f)) for f in frames] + [light(floor(final))] * 10, floor(final))
        if painted is not None:
            _PAINTED[painted] = scene
    sequence, base = _PAINTED[painted] if painted is not None else scene
    detector = SettleDetector(clock=ManualClock(), die_px=die_px)
    reads = [i for i, f in enumerate(sequence)
             if detector.update(f, timestamp=i / FPS).read_now]
    reaching = [light(hand(base, r, seed=j, tone=tone))
                for j, r in enumerate((0.2, 0.35, 0.45))]
    held = [light(hand(base, 0.45, tone=tone))] * int(seconds * FPS)
    start = len(sequence)
    after = [detector.update(f, timestamp=(start + i) / FPS)
             for i, f in enumerate(reaching + held)]
    return reads, after, detector


# every tone on the floor as shot; on a dark floor the lightest, a middle and the darkest
# (all ten were seen there too: seven left out for the suite's time, eighty-third session)
@pytest.mark.parametrize(("tone", "floor"),
                         [(tone, "as shot") for tone in SKIN_TONES]
                         + [(tone, "grey 72") for tone in ("MST1", "MST5", "MST10")])
def test_a_still_hand_of_every_skin_tone_is_seen_after_the_tray_settled(
        tone: str, floor: str) -> None:
    paint = (lambda f: f) if floor == "as shot" else (lambda f: wooden_floor(f, (72,) * 3))
    reads, after, _ = settled_then_hand(SKIN_TONES[tone], paint, painted=floor)
    assert len(reads) == 1
    assert not any(d.read_now for d in after) and after[-1].state is TrayState.HAND


def test_a_still_hand_the_grey_of_the_trays_wall_under_a_warm_lamp_is_seen_by_its_colour(
        ) -> None:
    """Under a strong warm lamp skin leaves the skin range, and the arm crossing the
    sheet's white lip at the bottom edge is the lip's grey: the blob unlike the tray by
    its grey ends short of the edge. Until the forty-first session such a hand was read
    with the dice (bench_hands: 0 of 6 still hands seen); its colour differs."""
    def warm(frame: np.ndarray) -> np.ndarray:
        return lamp_light(frame, LAMPS["strong warm lamp"])

    reads, after, _ = settled_then_hand((120, 150, 205), light=warm)
    assert len(reads) == 1
    assert not any(d.read_now for d in after) and after[-1].state is TrayState.HAND


@pytest.mark.parametrize("tone", ["MST1", "MST10"])
def test_with_small_dice_a_still_hand_is_seen_at_the_hands_own_width(tone: str) -> None:
    """Dice of 12 px have motion looked at up to 640 px wide; a hand is looked for in the
    160 px copy whatever the dice' size (at 640 px its shape took 2 ms a frame more)."""
    reads, after, detector = settled_then_hand(SKIN_TONES[tone], die_px=12)
    assert detector.analysis_width((1024, 1024, 3)) > 160
    assert len(reads) == 1
    assert not any(d.read_now for d in after) and after[-1].state is TrayState.HAND


def test_a_hand_held_still_ten_seconds_is_taken_into_the_tray_once() -> None:
    reads, after, detector = settled_then_hand(SKIN_TONES["MST10"],
                                               seconds=STILL_SKIN_SECONDS + 2)
    assert detector.still_skin_taken == 1
    assert after[-1].state is not TrayState.HAND


def test_reaching_share_wants_a_large_blob_at_the_edge() -> None:
    die = 6.0
    mask = np.zeros((90, 160), bool)
    mask[40:52, 70:82] = True  # dice in the middle: four dice' area, away from the edge
    assert reaching_share(mask, die) == 0.0
    mask[50:90, 60:90] = True  # an arm from the bottom edge
    assert reaching_share(mask, die) > 6 * die * die / mask.size
    pieces = np.zeros((90, 160), bool)
    for row in range(50, 86, 4):  # the same arm seen in stripes (a floor's grain), ending
        pieces[row:row + 2, 60:90] = True  # within a die of the edge
    assert reaching_share(pieces, die) > 0
    middle = np.zeros((90, 160), bool)
    middle[20:60, 40:100] = True  # a large change away from every edge
    assert reaching_share(middle, die) == 0.0
    moved = np.ones((90, 160), bool)
    moved[: int(90 * (1 - REACH_MOST)) - 5] = False  # over half the picture: the camera
    assert reaching_share(moved, die) == 0.0


def test_dice_thrown_in_another_light_are_read_at_once() -> None:
    """The tray lit otherwise than when it last settled (unevenly, so no gain takes it
    out: a lamp switched on at one side) is a change over much of the frame, reaching its
    edges; its edge is soft, so it is no hand (:func:`vision.hands.soft_edged`), and the
    dice are read as soon as they are still. (Synthetic frames of one table share one
    :class:`vision.synthetic.Setting` all the same, as a camera's do.)"""
    rng = np.random.default_rng(3)
    setting = Setting.draw(rng, (960, 720))
    empty = tray_photo(rng, [], setting=setting).image
    same_light = tray_photo(rng, ["weak", "strong"], setting=setting).image
    other_light = tray_photo(np.random.default_rng(4), ["weak", "strong"]).image

    def reads(settled: np.ndarray) -> list[int]:
        detector = SettleDetector(clock=ManualClock())
        frames = [empty] * 10 + [settled] * 20
        return [i for i, f in enumerate(frames)
                if detector.update(f, timestamp=i / FPS).read_now and i >= 10]

    assert reads(same_light) == reads(other_light) == [16]  # as soon as it is still


def leaning_in(penumbra: float, floor=lambda f: f, detector: SettleDetector | None = None,
               name: str = SHEET, seconds: float = 15.0) -> list[float]:
    """After a first roll on ``floor`` the player throws again and leans in, shading the
    tray's near third (:func:`leaning_shadow`) from the hand's first frame on: the reads'
    seconds after the dice stopped, seen by ``detector`` (by default, one with no
    empty-tray check), on the checked-in photo ``name``, the shadow held ``seconds``
    after the dice stop (long enough for a read the shadow held back 10 s)."""
    p = photo(name)
    every = set(range(len(p.faces)))
    frames, final = roll_sequence(p, moved=every)
    detector = detector or SettleDetector(clock=ManualClock())
    for i, f in enumerate([floor(f) for f in frames] + [floor(final)] * 10):
        detector.update(f, timestamp=i / FPS)
    t = len(frames) + 10
    again, thrown = roll_sequence(p, moved=every, offset=(-40, 30), start=final)
    sequence = [floor(f) for f in again[:3]]
    sequence += [leaning_shadow(floor(f), penumbra) for f in again[3:-8]]
    sequence += [leaning_shadow(floor(thrown), penumbra)] * round(seconds * FPS)
    stopped = t + len(again) - 8
    return [(t + i - stopped) / FPS for i, f in enumerate(sequence)
            if detector.update(f, timestamp=(t + i) / FPS).read_now]


# soft (0.05; 0.02 was read alike, left out for the suite's time) and crisp
@pytest.mark.parametrize(("penumbra", "read_after"), [(0.05, 0.5), (0.003, 10.4)])
def test_a_players_shadow_over_the_tray_is_no_hand_unless_it_is_crisp(
        penumbra: float, read_after: float) -> None:
    """The shadow's edge is soft: the dice are read 0.5 s after they stop, as without it
    (from the fortieth session to the forty-first it was taken for a hand reaching in and
    the read waited 10 s). A crisp shadow (a bare bulb's, the sun's) is not told from a
    hand's outline: the read waits until it has held still 10 s."""
    # a soft shadow's read comes at once: 4 s of it show no second read and no wait
    assert leaning_in(penumbra, seconds=4.0 if read_after < 1 else 15.0) == [
        pytest.approx(read_after)]


@pytest.mark.parametrize("wood", ["pine"])  # walnut read alike: left out for the suite's time
def test_a_players_shadow_over_a_wooden_tray_is_no_hand(wood: str) -> None:
    """Shaded wood leaves its scene's colour and was a hand by its skin colour until the
    forty-first session (the read waited 10 s); it lies in a softly darkened part of the
    tray, which is a shadow, not a hand."""
    assert leaning_in(0.02, lambda f: wooden_floor(f, WOODS[wood]), seconds=4.0) == [
        pytest.approx(0.5)]


@pytest.mark.parametrize("floor", ["oak table round"])  # as shot read alike (suite's time)
def test_a_players_shadow_over_a_checked_tray_is_no_hand(floor: str) -> None:
    """Compared with the empty tray's check row by row, a shadow over the near rows passed
    for a band of light, and the unshaded ends of those rows, brightened with them, for a
    glove: until the forty-second session the read waited 3-5 s, and the check was dropped
    as stale, the table told to check the tray again. The gains of the shaded rows follow
    the shadow's soft edge, so the blob they make rises softly too: a shadow, not a hand
    (judged as the shape check's blob is, :func:`vision.hands.soft_edged`)."""
    paint = ((lambda f: f) if floor == "as shot"
             else (lambda f: wooden_border(f, WOODS["oak"])))
    for name in (SHEET, FOUR_DICE):
        checked = SettleDetector(clock=ManualClock(),
                                 background=paint(empty_tray(photo(name))))
        # the shadow held past the time a check taken for stale is dropped after
        read = leaning_in(0.02, paint, checked, name, seconds=STALE_SECONDS + 2)
        assert read == [pytest.approx(0.5)]
        assert not checked.stale_background


# each floor once, with and without a check (the four pairs read alike: two kept for the
# suite's time)
@pytest.mark.parametrize(("floor", "tone", "checked"),
                         [("oak", "MST6", False), ("grey 72", "MST9", True)],
                         ids=["no check-oak-MST6", "checked-grey 72-MST9"])
def test_a_still_hand_in_a_players_shadow_is_seen_with_or_without_a_check(
        floor: str, tone: str, checked: bool) -> None:
    """The player leans in and reaches into the tray, the hand held still in the shadow.
    With the empty tray's check the detector asked the check alone, 40 grey levels off,
    and read the dice with these hands in the tray until the forty-second session; the
    tray as it last settled is now asked too, as it is without a check."""
    paint = ((lambda f: wooden_floor(f, WOODS["oak"])) if floor == "oak"
             else (lambda f: wooden_floor(f, (72,) * 3)))
    p = photo(SHEET)
    if floor not in _PAINTED:  # the sheet's roll painted once for both cases of a floor
        frames, final = _sheet_roll()
        _PAINTED[floor] = ([paint(f) for f in frames] + [paint(final)] * 10, paint(final))
    sequence, base = _PAINTED[floor]
    detector = SettleDetector(clock=ManualClock(),
                              background=paint(empty_tray(p)) if checked else None)
    reads = [i for i, f in enumerate(sequence)
             if detector.update(f, timestamp=i / FPS).read_now]
    leaning = [leaning_shadow(hand(base, r, seed=j, tone=SKIN_TONES[tone]), 0.02)
               for j, r in enumerate((0.2, 0.35, 0.45))]
    leaning += [leaning_shadow(hand(base, 0.45, tone=SKIN_TONES[tone]), 0.02)] * 30
    start = len(sequence)
    after = [detector.update(f, timestamp=(start + i) / FPS) for i, f in enumerate(leaning)]
    assert len(reads) == 1
    assert not any(d.read_now for d in after) and after[-1].state is TrayState.HAND


def test_soft_edged_tells_a_shadows_penumbra_from_an_outline() -> None:
    step = np.zeros((90, 160), np.float32)
    step[45:, 40:120] = -50.0  # 50 levels darker below, from the bottom edge
    blob = step < -18
    assert not soft_edged(cv2.GaussianBlur(step, (3, 3), 0), blob)  # an outline
    assert soft_edged(cv2.GaussianBlur(step, (0, 0), 4), cv2.GaussianBlur(step, (0, 0), 4) < -18)
    faint = step / 5  # 10 levels: unlike the tray by its colour rather than its light
    assert not soft_edged(cv2.GaussianBlur(faint, (0, 0), 4), blob)
