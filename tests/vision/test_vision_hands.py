"""Hands told from skin-coloured trays, tables and light (vision.hands, vision.settle).

Until the thirty-ninth session a hand was any skin-coloured patch over 1% of the picture:
on a wooden, cork or leather tray, with a wooden table in view, or under a warm lamp, the
tray was a hand that never left, so the camera never read a roll and every photo's dice
were marked uncertain (benchmarks/bench_hands.py measures both)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.helpers import (
    SKIN_TONES,
    ManualClock,
    TickingDetector,
    empty_tray,
    hand,
    labelled_photos,
    photo,
    roll_sequence,
)
from vision.framewarnings import hand_bar
from vision.hands import (
    HAND_SHARE,
    SkinScene,
    floor_coloured,
    hand_fraction,
    hand_share,
    largest_share,
    reaching_share,
    skin_mask,
    small_colour,
    table_edges,
)
from vision.reader import DiceReader
from vision.reading import DieRead
from vision.settle import STILL_SKIN_NOTE, STILL_SKIN_SECONDS, SettleDetector, TrayState
from vision.sources import FakeSource
from vision.surroundings import (
    LAMPS,
    WOODS,
    floor_mask,
    lamp_light,
    wooden_border,
    wooden_floor,
)
from vision.watcher import SourceNotice, watch

SHEET = "IMG_20191208_112541.jpg"  # 7 dice on a white sheet
HAND_PHOTO = "IMG_20191208_112623.jpg"  # a real hand holding a die over the tray
FPS = 10

FLOORS = {
    "pine": lambda f: wooden_floor(f, WOODS["pine"]),
    "walnut": lambda f: wooden_floor(f, WOODS["walnut"]),
    "cork": lambda f: wooden_floor(f, WOODS["cork"]),
    "warm lamp": lambda f: lamp_light(f, LAMPS["warm lamp"]),
    # the tray on the skin range's edge, part in and part out: its pieces were a hand in 5
    # of the 6 photos (vision.hands.floor_coloured)
    "harsh warm lamp": lambda f: lamp_light(f, LAMPS["harsh warm lamp"]),
}


def colour_alone(frame: np.ndarray) -> float:
    """The check before: the largest skin-coloured patch's share, whatever it is."""
    return largest_share(skin_mask(cv2.cvtColor(small_colour(frame), cv2.COLOR_BGR2YCrCb)))


def _hand_free_photos() -> list[np.ndarray]:
    return [p.image() for p in labelled_photos() if p.path.name != HAND_PHOTO]


def test_surroundings_make_the_floor_skin_coloured_and_leave_the_dice() -> None:
    image = photo(SHEET).image()
    floor = floor_mask(image)
    assert floor.mean() > 0.8
    for name, change in FLOORS.items():
        if name != "harsh warm lamp":  # under it, the floor lies on the range's edge
            assert colour_alone(change(image)) > 0.5  # the whole floor is one skin patch
    wood = FLOORS["pine"](image)
    for x, y, w, h in photo(SHEET).boxes:  # the dice's middles are as they were
        middle = (slice(y + h // 3, y + 2 * h // 3), slice(x + w // 3, x + 2 * w // 3))
        assert np.abs(wood[middle].astype(int) - image[middle].astype(int)).mean() < 12
    bordered = wooden_border(image, WOODS["oak"])
    assert (bordered[-5:, 100:-100] == image[-5:, 100:-100]).all()  # the players' edge
    assert not (bordered[:5] == image[:5]).all()


@pytest.mark.parametrize("floor", sorted(FLOORS))
def test_a_skin_coloured_floor_is_no_hand_in_a_photo(floor: str) -> None:
    for image in _hand_free_photos():
        changed = FLOORS[floor](image)
        assert colour_alone(changed) > HAND_SHARE  # what was taken for a hand before
        assert hand_fraction(changed) <= HAND_SHARE
        read = DiceReader("d6").read(changed)
        assert not any("hand" in w for w in read.warnings)


def test_a_wooden_table_in_view_is_no_hand_and_a_hand_still_is() -> None:
    oak = WOODS["oak"]
    for image in _hand_free_photos():
        bordered = wooden_border(image, oak)
        assert colour_alone(bordered) > HAND_SHARE
        assert hand_fraction(bordered) <= HAND_SHARE
    real_hand = photo(HAND_PHOTO).image()
    assert hand_fraction(wooden_border(real_hand, oak)) > HAND_SHARE
    sheet = photo(SHEET).image()
    assert hand_fraction(wooden_border(hand(sheet, 0.45), oak)) > HAND_SHARE
    assert hand_fraction(hand(sheet, 0.45)) > HAND_SHARE


def test_a_floor_near_skin_is_its_colour_lit_or_shaded_and_a_hand_on_it_is_not() -> None:
    """A grey floor under the harsh warm lamp, half in its full light and half in shade,
    lies on the skin range's edge: both halves are the floor's colour, the shade too (its
    colour for its brightness is the same), and a hand on it is not. A floor far from skin
    (grey under a daylight balance) marks nothing: the skin range alone says."""
    grey = np.full((360, 640, 3), 190, np.uint8)
    grey[220:] = 150  # the shade of a wall
    harsh = lamp_light(grey, LAMPS["harsh warm lamp"])
    skin = skin_mask(cv2.cvtColor(harsh, cv2.COLOR_BGR2YCrCb)) > 0
    assert not skin[:220].any() and skin[220:].all()  # the light out of the range, the shade in
    for tone in ("MST1", "MST5", "MST10"):
        with_hand = hand(grey, 0.4, tone=SKIN_TONES[tone])  # skin with a camera's noise
        lit = cv2.cvtColor(lamp_light(with_hand, LAMPS["harsh warm lamp"]), cv2.COLOR_BGR2YCrCb)
        floor = floor_coloured(lit)
        arm = (with_hand != grey).any(axis=2)
        assert floor[~arm].all() and floor[arm].mean() < 0.1, tone
        assert not floor_coloured(cv2.cvtColor(with_hand, cv2.COLOR_BGR2YCrCb)).any()


def test_table_edges_clears_rows_along_an_edge_only() -> None:
    mask = np.zeros((10, 12), np.uint8)
    mask[:2] = 255                 # a table along the top, two rows deep
    mask[:, -1] = 255              # and down the right edge
    mask[0:9, 8] = 255             # a column of skin inside: not at an edge
    mask[6:, 3:6] = 255            # a forearm reaching in from the bottom edge
    table_edges(mask)
    assert not mask[:2].any() and not mask[:, -1].any()
    assert mask[2:9, 8].all()
    assert mask[6:, 3:6].all()
    full = np.full((6, 6), 255, np.uint8)
    table_edges(full)
    assert not full.any()


def test_a_scene_explains_its_own_skin_under_a_changed_light_but_not_a_hand() -> None:
    wood = FLOORS["pine"](photo(SHEET).image())
    scene = SkinScene.of(small_colour(wood))
    assert scene.skin_share > 0.8
    dimmer = lamp_light(wood, (0.93, 0.93, 0.93))  # the camera's exposure moved
    ycrcb = cv2.cvtColor(small_colour(dimmer), cv2.COLOR_BGR2YCrCb)
    assert scene.explains(ycrcb).mean() > 0.95 * scene.skin_share
    with_hand = hand(wood, 0.45)
    assert hand_share(small_colour(with_hand)) <= HAND_SHARE  # all one skin-coloured floor
    assert hand_share(small_colour(with_hand), scene) > 0.05  # the hand is not the scene's
    assert hand_share(small_colour(dimmer), scene) <= HAND_SHARE
    other_size = SkinScene.of(cv2.resize(small_colour(wood), (80, 45)))
    assert not other_size.fits(ycrcb)
    assert hand_share(small_colour(with_hand), other_size) <= HAND_SHARE  # judged alone
    grey = SkinScene.of(small_colour(photo(SHEET).image()))
    assert not grey.explains(ycrcb).any()  # a grey tray explains no skin


def test_a_scene_sees_a_change_of_colour_but_not_of_light_nor_of_cast() -> None:
    """SkinScene.tinted: the pixels whose colour (brightness left out) is not the scene's,
    the picture's overall change taken out. Under a strong warm lamp the arm over the
    sheet's white lip is its grey, and of another colour."""
    sheet = photo(SHEET).image()
    scene = SkinScene.of(small_colour(sheet))

    def tinted(image: np.ndarray) -> np.ndarray:
        return scene.tinted(cv2.cvtColor(small_colour(image), cv2.COLOR_BGR2YCrCb))

    assert tinted(sheet).mean() == 0.0
    assert tinted(lamp_light(sheet, (0.8, 0.8, 0.8))).mean() < 0.002  # exposure
    cast = tinted(lamp_light(sheet, LAMPS["warm lamp"]))  # a lamp's cast: the dice
    assert cast.mean() < 0.02 and reaching_share(cast, 10.0) == 0.0  # (coloured) only
    warm = SkinScene.of(small_colour(lamp_light(sheet, LAMPS["strong warm lamp"])))
    arm = warm.tinted(cv2.cvtColor(small_colour(lamp_light(hand(sheet, 0.45),
                                                           LAMPS["strong warm lamp"])),
                                   cv2.COLOR_BGR2YCrCb))
    h, w = arm.shape
    assert arm[h - 3:, : w // 2].any()  # the arm where it crosses the bottom edge
    assert arm[: h // 2].mean() == 0.0  # and nothing above the hand


@pytest.mark.parametrize("floor", ["pine", "walnut", "warm lamp"])
def test_a_roll_on_a_skin_coloured_floor_is_read_once_and_a_still_hand_is_seen(
        floor: str) -> None:
    change = FLOORS[floor]
    frames, final = roll_sequence(photo(SHEET), moved=set(range(7)))
    sequence = [change(f) for f in frames]
    detector = SettleDetector(clock=ManualClock())
    decisions = [detector.update(f, timestamp=i / FPS) for i, f in enumerate(sequence)]
    before = colour_alone(sequence[0])
    assert before > HAND_SHARE  # the old check: a hand all along, and no read
    reads = [i for i, d in enumerate(decisions) if d.read_now]
    assert len(reads) == 1 and reads[0] >= len(frames) - 8
    assert all(d.state is not TrayState.SETTLED for d in decisions[3:len(frames) - 8])
    held = change(hand(final, 0.45))
    start = len(sequence)
    after = [detector.update(held, timestamp=(start + i) / FPS) for i in range(30)]
    assert not any(d.read_now for d in after)
    assert after[-1].state is TrayState.HAND  # told from the tray as it settled


def with_box(frame: np.ndarray) -> np.ndarray:
    """A wooden dice box standing in a corner of the picture: skin colour, not along a
    whole edge, so that only a scene tells it from a hand."""
    out = frame.copy()
    out[:260, :330] = wooden_border(np.zeros((260, 330, 3), np.uint8), WOODS["oak"], 1.0)
    return out


def test_wood_in_view_is_learned_from_the_tray_check_or_after_holding_still() -> None:
    p = photo(SHEET)
    frames, final = roll_sequence(p, moved=set(range(7)))
    boxed = [with_box(f) for f in frames]
    still = boxed[-1]
    assert hand_fraction(still) > HAND_SHARE
    checked = SettleDetector(clock=ManualClock(), background=with_box(empty_tray(p)))
    reads = [i for i, f in enumerate(boxed) if checked.update(f, i / FPS).read_now]
    assert len(reads) == 1 and checked.still_skin_taken == 0
    fresh = SettleDetector(clock=ManualClock())
    sequence = boxed + [still] * round((STILL_SKIN_SECONDS + 1) * FPS)
    decisions = [fresh.update(f, i / FPS) for i, f in enumerate(sequence)]
    reads = [i for i, d in enumerate(decisions) if d.read_now]
    first_still = len(frames) - 8
    assert len(reads) == 1
    assert reads[0] >= first_still + STILL_SKIN_SECONDS * FPS
    assert {d.state for d in decisions[first_still:reads[0] - 5]} == {TrayState.HAND}
    assert fresh.still_skin_taken == 1
    for detector in (checked, fresh):  # a hand is still seen over the tray
        held = with_box(hand(final, 0.45))
        states = [detector.update(held, 100 + i / FPS).state for i in range(30)]
        assert states[-1] is TrayState.HAND


def test_watch_says_when_still_skin_is_taken_into_the_tray_and_reads_without_a_hand() -> None:
    frames, final = roll_sequence(photo(SHEET), moved=set(range(7)))
    clock = ManualClock()
    sequence = [with_box(f) for f in frames] + [with_box(final)] * round(
        (STILL_SKIN_SECONDS + 2) * FPS)
    with FakeSource(sequence, clock=clock) as source:
        items = list(watch(source, DiceReader("d6"), TickingDetector(clock, FPS)))
    notices = [i for i in items if isinstance(i, SourceNotice)]
    assert [(n.kind, n.message) for n in notices] == [("warning", STILL_SKIN_NOTE)]
    (roll,) = [i for i in items if not isinstance(i, SourceNotice)]
    assert roll.read.warnings == ()  # the reader judged the frame with the same scene
    assert len(roll.read.dice) >= 6 and not all(d.uncertain for d in roll.read.dice)
    alone = DiceReader("d6").read(with_box(final))
    assert any("hand" in w for w in alone.warnings)  # a single photo cannot tell the box


def test_the_reader_takes_the_settle_detectors_scene() -> None:
    wood = FLOORS["pine"](photo(SHEET).image())
    scene = SkinScene.of(small_colour(wood))
    with_hand = hand(wood, 0.45)
    assert not DiceReader("d6").read(with_hand).warnings  # one skin-coloured floor
    read = DiceReader("d6").read(with_hand, "frame", scene)
    assert any("hand" in w for w in read.warnings)
    assert all(d.uncertain for d in read.dice)
    assert not DiceReader("d6").read(wood, "frame", scene).warnings


def test_the_bar_for_a_hand_rises_with_the_dice_read_at_their_size() -> None:
    shape = (1000, 1500, 3)  # the framing default: dice of 63.6 px

    def dice(*sides: int) -> list[DieRead]:
        return [DieRead("1", 0.9, False, (0, 0, s, s), None) for s in sides]

    assert hand_bar([], shape, 63.6) == HAND_SHARE
    assert hand_bar(dice(60, 64), shape, 63.6) == HAND_SHARE  # at the default size
    assert hand_bar(dice(30), shape, 63.6) == HAND_SHARE  # never lowered
    # read at 3 times the default, the dice boxed so: a hand 3 times larger, 9 times the area
    assert hand_bar(dice(191, 200), shape, 190.8) == pytest.approx(9 * HAND_SHARE, 0.01)
    # read at the default with larger boxes (a read not at the dice's size): the bar stays
    assert hand_bar(dice(191, 200), shape, 63.6) == HAND_SHARE
    # the smallest die counts: a hand's knuckles boxed as a large die do not raise it
    assert hand_bar(dice(63, 200), shape, 190.8) == HAND_SHARE
