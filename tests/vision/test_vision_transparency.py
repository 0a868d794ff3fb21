"""Dice under a transparent part of an edited PNG are left to the table, and the read says
why (``vision/transparency.py``; issue 4, *Bad input*: never a confident wrong read)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from tests.vision.helpers import EDITED_PHOTO, EDITED_SIX, PHOTOS, with_transparent
from vision.boxes import hold_each_other
from vision.imagefile import decode
from vision.reader import DiceReader
from vision.reading import DieRead, TrayRead
from vision.transparency import (
    ALL_HIDDEN,
    CUT_CONFIDENCE,
    HIDDEN,
    OPAQUE_FROM,
    hidden_mask,
    under_transparency,
)


def read_of(tmp_path: Path, data: bytes) -> TrayRead:
    path = tmp_path / "edited.png"
    path.write_bytes(data)
    return DiceReader("d6").read_path(path)


def test_a_die_half_transparent_is_left_to_the_table_and_the_others_read_as_before(
        tmp_path: Path) -> None:
    """The left half of a 6 made transparent (laid over white, as a page shows it) read as
    a 3 at 0.77, sure, before: it is now uncertain, the read says how many dice lie under
    the transparent part, and every other die reads as in the photo itself."""
    whole = DiceReader("d6").read_path(PHOTOS / EDITED_PHOTO)
    read = read_of(tmp_path, with_transparent(PHOTOS / EDITED_PHOTO, EDITED_SIX))
    under = [d for d in read.dice if hold_each_other(EDITED_SIX, d.box)]
    assert len(under) == 1 and under[0].uncertain
    assert under[0].confidence <= CUT_CONFIDENCE
    assert [(w.key, dict(w.values)) for w in read.warnings] == [
        ("vision.transparent_dice", {"count": 1})]
    assert "1 die lies partly under a transparent part" in read.warnings[0]
    others = sorted((d.face, d.uncertain) for d in read.dice if d is not under[0])
    kept = sorted((d.face, d.uncertain) for d in whole.dice
                  if not hold_each_other(EDITED_SIX, d.box))
    assert others == kept and len(kept) == 6


def test_a_png_turned_upright_by_its_orientation_tag_has_its_alpha_turned_too(
        tmp_path: Path) -> None:
    """Stored a quarter turn round with an ``eXIf`` orientation: its colour was decoded
    upright and its alpha not, which was then dropped (its sizes differed), and the half
    transparent 6 read as a sure 3 with no word (a helper's). The alpha is turned as the
    colour was: the read is the unturned PNG's, to the box."""
    plain = read_of(tmp_path, with_transparent(PHOTOS / EDITED_PHOTO, EDITED_SIX))
    turned = read_of(tmp_path, with_transparent(PHOTOS / EDITED_PHOTO, EDITED_SIX,
                                                turned=True))
    assert [(d.face, d.uncertain, d.box) for d in turned.dice] == [
        (d.face, d.uncertain, d.box) for d in plain.dice]
    assert turned.warnings == plain.warnings and len(turned.warnings) == 1


def test_a_die_wholly_transparent_is_not_seen_and_the_read_says_part_is_hidden(
        tmp_path: Path) -> None:
    """A die wholly under the transparent part does not show (white on the page): nothing
    is read there, and the read says that part of the picture cannot be seen."""
    read = read_of(tmp_path, with_transparent(PHOTOS / EDITED_PHOTO, EDITED_SIX, share=1.0))
    assert not any(hold_each_other(EDITED_SIX, d.box) for d in read.dice)
    assert read.warnings == (HIDDEN,)


def test_a_picture_transparent_throughout_says_so_and_not_that_the_camera_is_at_fault(
        tmp_path: Path) -> None:
    """Laid over white, a wholly transparent PNG was said to be white, "the camera's
    exposure is far too high" (a helper's): it is said to be transparent throughout."""
    read = read_of(tmp_path, with_transparent(PHOTOS / EDITED_PHOTO, (0, 0, 1024, 1024),
                                              share=1.0))
    assert read.dice == () and read.warnings == (ALL_HIDDEN,)


def test_an_opaque_png_with_an_alpha_channel_reads_as_the_photo(tmp_path: Path) -> None:
    image = cv2.imread(str(PHOTOS / EDITED_PHOTO))
    opaque = np.dstack([image, np.full(image.shape[:2], 255, np.uint8)])
    data = cv2.imencode(".png", opaque)[1].tobytes()
    assert decode(data).hidden is None
    read = read_of(tmp_path, data)
    plain = DiceReader("d6").read(image)
    assert read.warnings == () and [(d.face, d.uncertain, d.box) for d in read.dice] == [
        (d.face, d.uncertain, d.box) for d in plain.dice]


def test_the_hidden_mask_is_where_the_alpha_is_below_opaque() -> None:
    alpha = np.full((4, 5), 255, np.uint8)
    assert hidden_mask(alpha) is None
    alpha[1, 2], alpha[3, 4] = OPAQUE_FROM - 1, OPAQUE_FROM
    assert np.argwhere(hidden_mask(alpha)).tolist() == [[1, 2]]


def _tray(*boxes: tuple[int, int, int, int]) -> TrayRead:
    return TrayRead("d6", tuple(DieRead("5", 0.95, False, box) for box in boxes), "frame")


def test_a_box_is_looked_under_grown_by_a_fifth_and_a_stray_pixel_is_no_news() -> None:
    """A die boxed where the picture turns transparent (its box ends at the edge of the
    transparent part) is reached through its box grown by a fifth; one transparent pixel
    far from every die changes nothing, where a larger transparent part is told."""
    hidden = np.zeros((400, 600), bool)
    hidden[100:200, 155:200] = True  # 5 px right of the die (x 100-150): within a fifth
    read = under_transparency(_tray((100, 100, 50, 50), (400, 300, 50, 50)), hidden)
    assert [(d.uncertain, d.confidence) for d in read.dice] == [
        (True, CUT_CONFIDENCE), (False, 0.95)]
    assert read.warnings[0].key == "vision.transparent_dice"
    far = np.zeros((400, 600), bool)
    far[0, 599] = True
    untouched = _tray((100, 100, 50, 50))
    assert under_transparency(untouched, far) is untouched
    assert under_transparency(untouched, None) is untouched
    far[:, 550:] = True  # a twelfth of the picture: told, the die still sure
    told = under_transparency(untouched, far)
    assert told.warnings == (HIDDEN,) and not told.dice[0].uncertain


def test_a_large_photo_shrunk_for_the_table_keeps_every_pixel_it_hid() -> None:
    """An uploaded photo larger than the table keeps is shrunk (web/runtime/images.py), and
    the transparent part with it: a single transparent pixel still hides its place."""
    from web.runtime.images import MAX_SIDE, decode_photo

    bgra = np.full((2400, 3200, 4), 255, np.uint8)
    bgra[:, :, :3] = 200
    bgra[1001, 2001, 3] = 0
    image, hidden = decode_photo(cv2.imencode(".png", bgra)[1].tobytes())
    assert image.shape[:2] == (1200, MAX_SIDE) and hidden is not None
    assert hidden.shape == image.shape[:2] and np.argwhere(hidden).tolist() == [[500, 1000]]
    image, hidden = decode_photo(cv2.imencode(".png", bgra[:, :, :3])[1].tobytes())
    assert hidden is None
