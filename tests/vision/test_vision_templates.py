"""Ink templates behind enrolled faces: maps that ignore the die's colours, comparisons that
ignore its turn, and profiles that keep them."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import templates
from vision.crops import (
    INK_SHARE,
    each_map,
    face_distance,
    face_distances,
    ink_distances,
    other_bodies,
)
from vision.enrollcrops import ENROLL_TURNS
from vision.enrollment import EnrollmentError, Profile
from vision.glyphs import random_glyph, symbol_die_crop


def face(marks: tuple[int, int, int], body: tuple[int, int, int], turn: float = 0.0,
         shape: str = "bar") -> np.ndarray:
    """A 64 px crop of a plain die face on a grey tray carrying one mark (a bar off the
    centre and a dot, or a ring), turned by ``turn`` degrees."""
    c = np.full((64, 64, 3), 120, np.uint8)
    cv2.rectangle(c, (8, 8), (55, 55), body, -1)
    if shape == "bar":
        cv2.line(c, (22, 24), (42, 24), marks, 4)
        cv2.circle(c, (38, 40), 4, marks, -1)
    else:
        cv2.circle(c, (32, 32), 11, marks, 3)
    m = cv2.getRotationMatrix2D((31.5, 31.5), turn, 1.0)
    return cv2.warpAffine(c, m, (64, 64), borderMode=cv2.BORDER_REPLICATE)


def test_what_differs_from_the_body_other_than_the_ink_counts_half() -> None:
    """A grey die with red pips and a white glint across its face (vision.crops.
    ink_distances): the pips' colour is the ink's, so they keep their whole face distance;
    the glint differs from the body another way (lighter, not redder) and keeps only the
    plain share (INK_SHARE). (On a coloured body a white glint and dark pips both differ
    from it by being less coloured, and the glint keeps most of its distance.)"""
    c = np.full((64, 64, 3), 120, np.uint8)
    cv2.rectangle(c, (6, 6), (57, 57), (110, 110, 110), -1)
    for x, y in ((20, 20), (44, 20), (32, 32), (20, 44), (44, 44)):
        cv2.circle(c, (x, y), 4, (30, 30, 210), -1)
    cv2.line(c, (12, 30), (52, 36), (250, 250, 250), 2)
    plain = face_distances([c])[0]
    ink = ink_distances([c], templates._tophat_element(64))[0]
    pip, glint = (20, 44), (30, 14)  # (y, x): a pip's middle; the glint clear of pips
    assert ink[pip] == pytest.approx(plain[pip], rel=0.05)
    assert ink[glint] == pytest.approx(INK_SHARE * plain[glint], rel=0.1)


def test_a_face_whose_marks_agree_on_no_colour_keeps_its_plain_distance() -> None:
    """A blank face: what the top-hat picks out is sensor noise pointing every way, so the
    distance along any "ink" would be noise of another kind (vision.crops.INK_AGREED)."""
    rng = np.random.default_rng(3)
    c = np.full((64, 64, 3), 120, np.uint8)
    cv2.rectangle(c, (6, 6), (57, 57), (30, 30, 30), -1)
    c = np.clip(c + rng.normal(0, 4, c.shape), 0, 255).astype(np.uint8)
    plain = face_distances([c])[0]
    ink = ink_distances([c], templates._tophat_element(64))[0]
    middle = (slice(16, 48), slice(16, 48))
    assert np.abs(ink[middle] - plain[middle]).mean() < 0.25 * plain[middle].mean()


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    va, vb = templates.polar(np.stack([a, b]))
    return float((va * vb).sum())  # as they lie, not turned


def test_ink_maps_ignore_the_die_colours_and_which_is_darker() -> None:
    dark_on_white = templates.ink_map(face((20, 20, 20), (235, 235, 235)))
    white_on_red = templates.ink_map(face((240, 240, 240), (30, 30, 200)))
    yellow_on_green = templates.ink_map(face((40, 220, 230), (60, 140, 40)))
    ring = templates.ink_map(face((20, 20, 20), (235, 235, 235), shape="ring"))
    assert dark_on_white.shape == (templates.MAP_PX, templates.MAP_PX)
    assert dark_on_white.dtype == np.float32
    assert cosine(dark_on_white, white_on_red) > 0.9
    assert cosine(dark_on_white, yellow_on_green) > 0.9
    assert cosine(dark_on_white, ring) < 0.7


def star_face(side: int) -> np.ndarray:
    """A 64 px crop of an ivory die on a light grey tray carrying a black five-pointed star
    ``side`` px across (SeaFall's strong face)."""
    c = np.full((64, 64, 3), 190, np.uint8)
    cv2.rectangle(c, (8, 8), (55, 55), (205, 210, 212), -1)
    points = []
    for k in range(10):
        a = np.pi / 2 + k * np.pi / 5
        r = side / 2 if k % 2 == 0 else side / 4
        points.append((31.5 + r * np.cos(a), 31.5 - r * np.sin(a)))
    cv2.fillPoly(c, [np.int32(np.round(points))], (25, 25, 25))
    return c


def test_a_symbol_filling_half_the_centre_is_matched_about_the_bodys_other_colour() -> None:
    # a star covering 39% of the crop's centre leaves the die's colour its median, one
    # covering 50% the star's own: the two maps are each other's negative
    small, large = star_face(30), star_face(36)
    for c, share, median in ((small, 0.39, 210), (large, 0.50, 25)):
        y = cv2.cvtColor(c, cv2.COLOR_BGR2YCrCb)[16:48, 16:48]
        assert (y[..., 0] < 100).mean() == pytest.approx(share, abs=0.01)
        centre = y.reshape(1, -1, 3).transpose(2, 0, 1)                    # (3, 1, k)
        body = np.median(centre, axis=2)
        assert body[0, 0] == median
        # the other colour: the star's where the median is the die's, and the other way
        other = other_bodies(centre, body)
        assert abs(float(other[0, 0]) - (235 - median)) < 15
    plain = templates.ink_maps([small, large], (1.0,))[:, 0]
    other = templates.ink_maps([small, large], (1.0,), other_body=True)[:, 0]
    assert cosine(plain[0], plain[1]) < 0.4
    assert cosine(plain[0], other[1]) > 0.8 and cosine(other[0], plain[1]) > 0.9


def test_marks_stand_out_from_a_marbled_body_and_a_solid_symbol_keeps_its_middle() -> None:
    # a red die with a broad swirl of another red across its face, and one small white pip
    c = np.full((64, 64, 3), 120, np.uint8)
    cv2.rectangle(c, (8, 8), (55, 55), (40, 40, 160), -1)
    swirl = np.zeros((64, 64), np.float32)
    cv2.ellipse(swirl, (26, 34), (14, 9), 30, 0, 360, 1.0, -1)
    swirl = cv2.GaussianBlur(swirl, (0, 0), 3)[..., None]
    c = (c * (1 - swirl) + np.array([90, 70, 120]) * swirl).astype(np.uint8)
    cv2.circle(c, (40, 26), 3, (240, 240, 240), -1)
    m = templates.ink_map(c)
    def at(x: int, y: int) -> float:  # the map is half the crop: the pixel's neighbourhood
        return float(m[round(y / 2) - 1:round(y / 2) + 2, round(x / 2) - 1:round(x / 2) + 2].max())

    # the pip is the strongest mark, and the swirl's broad middle counts for much less (the
    # plain map, before the top-hat: the die's edge strongest, the swirl 0.83 of the pip)
    assert at(40, 26) >= 0.95 * m.max()
    assert at(26, 34) < 0.65 * at(40, 26)
    # a large solid symbol (a blob wider than the top-hat's element) is not hollowed out
    blob = np.full((64, 64, 3), 120, np.uint8)
    cv2.rectangle(blob, (8, 8), (55, 55), (200, 200, 200), -1)
    cv2.circle(blob, (32, 32), 11, (20, 20, 20), -1)
    b = templates.ink_map(blob)
    assert b[16, 16] > 0.25 * b.max()
    assert b[16, 16] > 3 * b[4, 16]  # its middle is still ink; the face around it is not


def test_a_turned_and_shifted_mark_matches_its_enrolled_map() -> None:
    enrolled_map = templates.ink_map(face((20, 20, 20), (235, 235, 235)))
    enrolled = templates.spectra(enrolled_map[None])
    assert enrolled.shape == (2, templates.TURNS // 2 + 1, 2 * templates.RINGS,
                              len(templates.SHIFTS))
    assert enrolled.dtype == np.float32
    turned = face((20, 20, 20), (235, 235, 235), turn=125.0)
    shifted = np.roll(turned, 2, axis=1)
    for crop in (turned, shifted):
        best = templates.best_per_crop([crop], enrolled)
        assert best.shape == (1, 1)
        assert best[0, 0] > 0.85
        # the crop as it is, not turned back, is much less like the enrolled one
        assert cosine(templates.ink_map(crop), enrolled_map) < best[0, 0] - 0.2


def test_the_similarity_at_every_turn_is_the_polar_rings_shifted_round() -> None:
    # best_per_crop finds, from two spectra, the best of the polar rings' dot products at
    # every shift round the circle; here that is checked against the shifts made by hand
    rng = np.random.default_rng(3)
    maps = rng.random((3, templates.MAP_PX, templates.MAP_PX)).astype(np.float32)
    rings = templates.polar(maps)
    assert rings.shape == (3, templates.RINGS, templates.TURNS)
    assert np.allclose(np.linalg.norm(rings.reshape(3, -1), axis=1), 1.0, atol=1e-5)
    spectra = np.fft.rfft(rings, axis=2)
    products = (spectra[0] * np.conj(spectra[1])).sum(axis=0)  # summed over the rings
    by_hand = [float((rings[0] * np.roll(rings[1], k, axis=1)).sum())
               for k in range(templates.TURNS)]
    turns = templates._turning() @ np.concatenate([products.real, products.imag])
    assert np.allclose(turns, by_hand, atol=1e-4)


def test_a_map_compared_with_itself_turned_is_found_at_its_turn() -> None:
    glyph = face((20, 20, 20), (235, 235, 235))
    enrolled = templates.spectra(templates.ink_map(glyph)[None])
    for turn in (0.0, 40.0, 200.0):
        crop = face((20, 20, 20), (235, 235, 235), turn=turn)
        assert templates.best_per_crop([crop], enrolled)[0, 0] > 0.95
    # many dice are compared in passes of bounded size, with the same result
    crops = [face((20, 20, 20), (235, 235, 235), turn=t) for t in range(0, 360, 15)]
    whole = templates.best_per_crop(crops, enrolled)
    saved = templates.PAIRS_PER_PASS
    try:
        templates.PAIRS_PER_PASS = 1
        assert np.allclose(templates.best_per_crop(crops, enrolled), whole, atol=1e-6)
    finally:
        templates.PAIRS_PER_PASS = saved
    assert templates.best_per_crop([], enrolled).shape == (0, 1)


def test_a_flat_crop_gives_a_zero_vector_not_nans() -> None:
    flat = np.full((64, 64, 3), 128, np.uint8)
    v = templates.polar(templates.ink_map(flat)[None])
    assert np.isfinite(v).all()
    assert float(np.abs(v).max()) == 0.0


def symbol_profile() -> tuple[Profile, dict[str, list[np.ndarray]]]:
    rng = np.random.default_rng(12)
    glyphs = {f: random_glyph(rng, 3) for f in ("a", "b", "c")}
    crops = {f: [symbol_die_crop(rng, g) for _ in range(3)] for f, g in glyphs.items()}
    return Profile.from_crops("syms", "mine", crops), crops


def test_profile_keeps_one_map_and_its_turns_per_crop_and_reads_them_back(
        tmp_path: Path) -> None:
    profile, crops = symbol_profile()
    assert profile.maps.shape == (9, templates.MAP_PX, templates.MAP_PX)
    assert profile.vectors.shape[0] == 9 * ENROLL_TURNS
    assert profile.owners.tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    scores = profile.scores([c for items in crops.values() for c in items])
    assert scores.shape == (9, 3)
    # an enrolled crop is its own face's best (its own map is among the templates)
    assert scores.argmax(axis=1).tolist() == profile.owners.tolist()
    back = Profile.load(str(profile.save(tmp_path)))
    assert back.labels == profile.labels and back.owners.tolist() == profile.owners.tolist()
    again = back.scores([c for items in crops.values() for c in items])
    assert np.allclose(again, scores, atol=0.01)  # saved as float16


def test_a_profile_whose_parts_do_not_fit_is_a_clear_error(tmp_path: Path) -> None:
    profile, _ = symbol_profile()
    path = profile.save(tmp_path)
    with np.load(path) as data:
        parts = {k: data[k] for k in data.files}
    parts["owners"] = parts["owners"][:-1]  # one crop's face lost
    np.savez_compressed(path, **parts)
    with pytest.raises(EnrollmentError, match="do not fit together"):
        Profile.load(str(path))
    parts["owners"] = np.append(parts["owners"], 7)  # a face the profile does not have
    np.savez_compressed(path, **parts)
    with pytest.raises(EnrollmentError, match="do not fit together"):
        Profile.load(str(path))
    meta = json.loads(str(parts["meta"]))
    assert meta["method"].startswith(templates.METHOD)
    path.write_bytes(b"not a profile")
    with pytest.raises(EnrollmentError, match="cannot read profile"):
        Profile.load(str(path))


def test_the_percentiles_by_partition_are_numpys() -> None:
    rng = np.random.default_rng(4)
    for n in (1, 2, 7, 1024):
        values = rng.normal(size=n).astype(np.float32)
        for q in (95, 99, 50):
            assert float(templates.percentiles(values[None], q)[0]) == pytest.approx(
                float(np.percentile(values, q)), rel=1e-6, abs=1e-6)


def test_a_map_is_centred_on_its_marks_by_a_few_pixels_at_most() -> None:
    def mark_at(x: int, y: int) -> np.ndarray:
        d = np.zeros((64, 64), np.float32)
        cv2.circle(d, (x, y), 4, 1.0, -1)
        return cv2.GaussianBlur(d, (0, 0), 1.0)

    def centre(d: np.ndarray) -> tuple[float, float]:
        yy, xx = np.mgrid[0:64, 0:64]
        return float((d * xx).sum() / d.sum()), float((d * yy).sum() / d.sum())

    # two pixels off the middle: moved onto it
    cx, cy = centre(templates.centred_on_marks(mark_at(34, 30)[None])[0])
    assert abs(cx - 31.5) < 0.5 and abs(cy - 31.5) < 0.5
    # far off (a neighbour's pip, say): moved by RECENTRE_PX at most
    cx, _ = centre(templates.centred_on_marks(mark_at(44, 32)[None])[0])
    assert cx == pytest.approx(44 - templates.RECENTRE_PX, abs=0.3)
    # a map with no marks is left as it is
    flat = np.full((64, 64), 0.2, np.float32)
    assert np.array_equal(templates.centred_on_marks(flat[None])[0], flat)


@pytest.mark.parametrize("count", [1, 2, 3, 5, 9, 130])
def test_each_map_gives_what_opencv_gives_one_map_at_a_time(count: int) -> None:
    """Maps handed to OpenCV as the channels of one image come out as one at a time would:
    filters, the top-hat and resizes many at a call, warps four at a call (OpenCV's warp
    mixes up 2-channel and wider images)."""
    maps = np.random.default_rng(count).random((count, 64, 64)).astype(np.float32)
    warp = cv2.getRotationMatrix2D((31.5, 31.5), 0.0, 0.9)
    x, y = (v.astype(np.float32) for v in np.random.default_rng(1).uniform(-3, 67, (2, 10, 36)))
    ops = {
        "blur": (lambda m: cv2.GaussianBlur(m, (0, 0), 1.2), 128),
        "tophat": (lambda m: cv2.morphologyEx(m, cv2.MORPH_TOPHAT, np.ones((15, 15), np.uint8)),
                   128),
        "warp": (lambda m: cv2.warpAffine(m, warp, (64, 64), flags=cv2.INTER_LINEAR,
                                          borderMode=cv2.BORDER_REPLICATE), 4),
        "resize": (lambda m: cv2.resize(m, (32, 32), interpolation=cv2.INTER_AREA), 4),
        "remap": (lambda m: cv2.remap(m, x, y, cv2.INTER_LINEAR,
                                      borderMode=cv2.BORDER_REPLICATE), 4),
    }
    for name, (op, per_call) in ops.items():
        one_at_a_time = np.stack([op(m) for m in maps])
        together = each_map(op, maps, per_call)
        assert together.shape == one_at_a_time.shape, name
        assert np.array_equal(together, one_at_a_time), name


def test_a_frames_maps_made_together_are_each_crops_own() -> None:
    """The reader makes all the ink maps of a frame at once (face distances, top-hat,
    centring, zooms): each is the map of its crop made alone, crops of another size
    included."""
    rng = np.random.default_rng(7)
    crops = [symbol_die_crop(rng, random_glyph(rng)) for _ in range(6)]
    crops += [face((20, 20, 20), (235, 235, 235), turn=t) for t in (0, 33)]
    crops.append(np.full((64, 64, 3), 128, np.uint8))  # flat: nothing to centre on
    together = templates.ink_maps(crops)
    assert together.shape == (len(crops), len(templates.ZOOMS), templates.MAP_PX,
                              templates.MAP_PX)
    for c, maps in zip(crops, together, strict=True):
        assert np.allclose(templates.ink_maps([c])[0], maps, atol=1e-5)
        assert np.allclose(face_distances([c])[0], face_distance(c))
    mixed = [crops[0], cv2.resize(crops[1], (48, 48))]
    assert np.allclose(templates.ink_maps(mixed)[1], templates.ink_maps([mixed[1]])[0])
    assert templates.ink_maps([]).shape == (0, len(templates.ZOOMS), templates.MAP_PX,
                                                 templates.MAP_PX)


def test_a_frames_face_distances_are_halved_as_each_alone() -> None:
    """The ink maps' face distances are halved to the map's side in one call over the
    stacked maps: each comes out as its own area resize would (no pixel averages two
    maps); maps already at the map's side, or odd, are left as they are."""
    maps = np.random.default_rng(5).random((9, 64, 64)).astype(np.float32) * 100
    halved = templates._halved(maps)
    assert halved.shape == (9, templates.MAP_PX, templates.MAP_PX)
    for m, h in zip(maps, halved, strict=True):
        assert np.array_equal(h, cv2.resize(m, (32, 32), interpolation=cv2.INTER_AREA))
    small = maps[:, :32, :32]
    assert templates._halved(small) is small
    odd = np.ascontiguousarray(maps[:, :63, :63])
    assert templates._halved(odd) is odd
