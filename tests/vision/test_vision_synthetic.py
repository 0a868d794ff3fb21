"""The drawn dice: random symbol dice that train the enrollment embedding (vision.glyphs) and
the synthetic trays of the tests (vision.synthetic)."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.helpers import photo
from vision.glyphs import (
    Glyph,
    _marked_side,
    glyph_family,
    glyph_on_body,
    random_dots,
    random_glyph,
    symbol_die_crop,
)
from vision.synthetic import Setting, darker_floor, tray_photo


def test_random_dots_are_alike_and_apart() -> None:
    rng = np.random.default_rng(3)
    counts = set()
    for _ in range(60):
        g = random_dots(rng, most=9)
        assert 1 <= len(g.strokes) <= 9
        assert {s[0] for s in g.strokes} == {"dot"}
        assert len({s[3] for s in g.strokes}) == 1  # one size
        pts = np.array([(s[1], s[2]) for s in g.strokes])
        r = g.strokes[0][3]
        d = np.linalg.norm(pts[:, None] - pts[None], axis=2) + np.eye(len(pts)) * 9
        assert d.min() > 2.6 * r  # never touching
        counts.add(len(g.strokes))
    assert len(counts) >= 6  # many arrangements, not a fixed set


def test_a_glyph_family_is_near_twins_one_stroke_apart() -> None:
    rng = np.random.default_rng(4)
    kinds = set()
    for _ in range(40):
        family = glyph_family(rng)
        assert 2 <= len(family) <= 3 and len(set(family)) == len(family)
        base = set(family[0].strokes)
        for twin in family[1:]:
            mine = set(twin.strokes)
            assert mine  # never the blank face
            # one stroke added or one taken away, nothing else changed
            assert (mine > base and len(mine - base) == 1) or (
                mine < base and len(base - mine) == 1)
        kinds.add("added" if len(family[1].strokes) > len(base) else "removed")
    assert kinds == {"added", "removed"}


def test_translucent_dice_and_real_trays_change_the_render_only_when_asked() -> None:
    glyph = random_glyph(np.random.default_rng(1))
    plain = symbol_die_crop(np.random.default_rng(5), glyph)
    again = symbol_die_crop(np.random.default_rng(5), glyph, trays=None, translucent=0.0)
    assert np.array_equal(plain, again)  # the default render is unchanged
    see_through = symbol_die_crop(np.random.default_rng(5), glyph, translucent=1.0)
    assert see_through.shape == plain.shape and see_through.dtype == np.uint8
    assert np.abs(see_through.astype(int) - plain.astype(int)).mean() > 1.0
    # a tray texture (here a striped floor) shows around the die
    floor = np.zeros((1, 128, 128, 3), np.uint8)
    floor[0, :, ::8] = 255
    textured = [symbol_die_crop(np.random.default_rng(s), glyph, trays=floor)
                for s in range(8)]
    corners = [np.abs(np.diff(t[:6, :, 1].astype(int), axis=1)).mean() for t in textured]
    assert max(corners) > 3 * min(corners)  # some floors striped, some plain


def test_marked_sides_and_streak_glints_change_the_render_only_when_asked() -> None:
    glyph = Glyph((("dot", 0.0, 0.0, 0.12),))
    plain = symbol_die_crop(np.random.default_rng(5), glyph)
    again = symbol_die_crop(np.random.default_rng(5), glyph, marked_sides=0.0, streaks=0.0)
    assert np.array_equal(plain, again)  # the default render is unchanged
    # a side face in view is drawn beside the top face, shaded, carrying its own symbol
    body, ink = np.array([40, 40, 150], np.uint8), (255, 255, 255)
    place = np.float32([[1, 0, 34], [0, 1, 20]])  # the top face at x 34-94, y 20-80
    inked = 0
    for seed in range(6):
        tray = np.zeros((128, 128, 3), np.float32)
        out = _marked_side(np.random.default_rng(seed), tray, body, ink, 60, place, 128)
        drawn = out.sum(axis=2) > 0
        rows = np.flatnonzero(drawn.any(axis=1))
        assert 70 <= rows.min() and 85 <= rows.max() <= 110  # under the face, a slant deep
        cols = np.flatnonzero(drawn.any(axis=0))
        assert 33 <= cols.min() and cols.max() <= 95
        side = out[rows.min():rows.max() + 1, 34:94]
        assert side.max() <= 255 * 0.8 + 1  # shaded: a side is lit less than the top
        assert (side[..., 2] > side[..., 0] + 40).mean() > 0.5  # mostly the red body
        inked += side[..., 0].max() > 100  # the symbol's white ink on it
    assert inked >= 4  # (a small symbol squashed to a shallow side can blur away)
    streaked = [symbol_die_crop(np.random.default_rng(s), glyph, streaks=1.0) for s in range(12)]
    rounds = [symbol_die_crop(np.random.default_rng(s), glyph) for s in range(12)]
    changed = [not np.array_equal(a, b) for a, b in zip(streaked, rounds, strict=True)]
    assert any(changed) and not all(changed)  # only the renders with a glint differ


def test_a_symbol_drawn_on_a_real_body_marks_its_face_and_leaves_the_rest() -> None:
    # a dark red body lit from the left, as a reader crop of a die whose marks were wiped
    body = np.empty((64, 64, 3), np.float32)
    body[:] = (40, 40, 150)
    body *= np.linspace(1.2, 0.8, 64)[None, :, None]
    body = body.astype(np.uint8)
    dot = Glyph((("dot", 0.0, 0.0, 0.12),))
    out = glyph_on_body(np.random.default_rng(2), dot, body)
    assert out.shape == body.shape and out.dtype == np.uint8
    change = np.abs(out.astype(int) - body.astype(int)).sum(axis=2)
    assert change[24:40, 24:40].max() > 180  # the dot, in paint that stands out
    assert change[28:36, 28:36].mean() > 100  # near the middle of the face
    ring = np.ones((64, 64), bool)
    ring[12:52, 12:52] = False
    assert change[ring].mean() < 12  # the body, sides and floor keep the photo's pixels
    # a blank face adds only the photo's noise; the same seed gives the same render
    blank = glyph_on_body(np.random.default_rng(2), Glyph(()), body)
    assert np.abs(blank.astype(int) - body.astype(int)).mean() < 6
    assert np.array_equal(out, glyph_on_body(np.random.default_rng(2), dot, body))


def test_a_light_floor_is_repainted_darker_and_the_dice_kept() -> None:
    # the detectors' training photos all have light floors; the body detector also learns
    # from windows whose floor is repainted (train_detector --floors). A real photo: its
    # floor goes dark with its shading, the dice's middles stay as they were, and no light
    # ring of the old floor is left about a die (its shadow goes with the floor)
    p = photo("IMG_20191208_112541.jpg")  # 7 dice on a white sheet
    before = p.image()
    boxes = np.array(p.boxes, np.float32)
    after = before.copy()
    darker_floor(after, boxes, np.random.default_rng(2))
    grey_before = cv2.cvtColor(before, cv2.COLOR_BGR2GRAY).astype(int)
    grey_after = cv2.cvtColor(after, cv2.COLOR_BGR2GRAY).astype(int)
    floor = np.ones(before.shape[:2], bool)
    for x, y, w, h in p.boxes:
        floor[max(y - h // 2, 0):y + 3 * h // 2, max(x - w // 2, 0):x + 3 * w // 2] = False
        middle = (slice(y + h // 4 + 3, y + 3 * h // 4 - 3),  # (the mask's soft edge)
                  slice(x + w // 4 + 3, x + 3 * w // 4 - 3))
        assert np.array_equal(after[middle], before[middle])
        # the ring just outside the box: as dark as the open floor, not left light
        ring = np.zeros_like(floor)
        ring[max(y - 4, 0):y + h + 4, max(x - 4, 0):x + w + 4] = True
        ring[y + 2:y + h - 2, x + 2:x + w - 2] = False
        assert np.median(grey_after[ring]) < np.median(grey_after[floor]) + 25
    assert np.median(grey_before[floor]) > 170
    assert np.median(grey_after[floor]) < 150
    # shading kept: the floor's light and dark parts keep their order
    lit, shaded = np.percentile(grey_before[floor], (90, 10))
    assert np.median(grey_after[floor & (grey_before >= lit)]) > \
        np.median(grey_after[floor & (grey_before <= shaded)])
    again = before.copy()
    darker_floor(again, boxes, np.random.default_rng(2))
    assert np.array_equal(again, after)


def test_a_floor_can_be_repainted_a_flat_grey_grain_and_all() -> None:
    # bench_tray_floors repaints the val photos' floors a given grey: every level draws
    # nothing at random, and its grain of 60 takes the white sheet's bright specks too,
    # which the training's repaint leaves white (a finder may box them)
    p = photo("IMG_20191208_112541.jpg")
    before = p.image()
    boxes = np.array(p.boxes, np.float32)
    floor = np.ones(before.shape[:2], bool)
    for x, y, w, h in p.boxes:
        floor[max(y - h // 2, 0):y + 3 * h // 2, max(x - w // 2, 0):x + 3 * w // 2] = False
    flat, grainy = before.copy(), before.copy()
    rng = np.random.default_rng(5)
    darker_floor(flat, boxes, rng, level=72, grain=60.0)
    assert rng.random() == np.random.default_rng(5).random()  # nothing drawn
    darker_floor(grainy, boxes, np.random.default_rng(5), level=72)
    grey_flat = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY)[floor]
    grey_grainy = cv2.cvtColor(grainy, cv2.COLOR_BGR2GRAY)[floor]
    assert abs(float(np.median(grey_flat)) - 72) < 8
    # specks far lighter than the new floor: left by the training's grain, not by 60
    assert (grey_grainy > 150).sum() > 10 * max((grey_flat > 150).sum(), 1)


def test_photos_of_one_setting_share_their_light_and_others_do_not() -> None:
    """Frames of one table (:class:`Setting`: light, tilt, focus) differ by their dice and
    the camera's noise only; each photo drawn without one has a light of its own, drawn
    from the generator exactly as before the setting existed (every seeded picture the
    tests and benchmarks use unchanged)."""
    size = (320, 240)
    rng = np.random.default_rng(8)
    setting = Setting.draw(rng, size)
    one, two = (tray_photo(rng, [], size=size, setting=setting).image for _ in range(2))
    smooth = [cv2.GaussianBlur(i.astype(np.float32), (0, 0), 4) for i in (one, two)]
    assert np.abs(smooth[0] - smooth[1]).max() < 4
    apart = tray_photo(np.random.default_rng(9), [], size=size).image
    assert np.abs(cv2.GaussianBlur(apart.astype(np.float32), (0, 0), 4) - smooth[0]).max() > 18
