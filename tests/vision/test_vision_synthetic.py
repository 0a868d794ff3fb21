"""The synthetic symbol dice used to train the enrollment embedding."""

from __future__ import annotations

import numpy as np

from vision.synthetic import random_dots, random_glyph, symbol_die_crop


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
