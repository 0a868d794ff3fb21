"""How much of their sides the dice at the tray's edge show under the camera's lens
(``calibrate --lens``; docs/vision.md, *Camera height and framing*)."""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import vision.pipnets
import vision.reader
from tests.vision.helpers import empty_tray, table_crops
from tests.vision.test_vision_calibrate_cli import SHEET, _plug_in, empty_frames
from tests.vision.test_vision_cli import run
from vision.boxes import centre_in, hold_each_other
from vision.calibration import Calibration, calibrate, check
from vision.cubes import cube_photo
from vision.dicefinder import (
    DiceFinder,
    dark_dice_finder,
    dark_wide_dice_finder,
    default_dice_finder,
    wide_dice_finder,
)
from vision.dieornot import body_dice_finder, wide_body_dice_finder
from vision.enrollment import Profile
from vision.reader import WIDE_NETS_FROM, DiceReader
from vision.reading import Box
from vision.setupadvice import (
    COMMON_LENS,
    SIDE_ADVICE_ABOVE,
    SIDE_FLOOR_BELOW,
    tray_side,
    unknown_lens_advice,
)
from vision.sideview import (
    SIDE_PAIR_DEGREES,
    SIDE_PAIR_WITHIN,
    lens_problem,
    side_pairs,
    side_shown,
    side_sure_from,
    sure_there,
)
from vision.sources import FakeSource
from vision.synthetic import (
    BODY_COLOURS,
    SyntheticPhoto,
    lens_for,
    random_faces,
    tray_photo,
)


def test_a_die_shows_the_tangent_of_its_angle_off_the_lens_axis_as_side() -> None:
    whole = np.full((720, 1280), 255, np.uint8)
    corner = math.hypot(639.5, 359.5) / 640
    # a 90 degree lens: the picture's side edge lies 45 degrees off the axis (tan 1), its
    # corner further
    assert tray_side(whole, 90) == pytest.approx(corner, rel=1e-6)
    # the same picture through a narrower lens: the same pixels lie nearer the axis
    assert tray_side(whole, 62) == pytest.approx(corner * math.tan(math.radians(31)), rel=1e-6)
    middle = np.zeros_like(whole)
    middle[240:480, 427:853] = 255  # a tray in the middle third each way
    assert tray_side(middle, 90) == pytest.approx(
        math.hypot(852 - 639.5, 479 - 359.5) / 640, rel=1e-6)
    assert tray_side(middle, 66) < SIDE_ADVICE_ABOVE < tray_side(whole, 66)
    # no floor found: the whole picture counts
    assert tray_side(np.zeros_like(whole), 90) == pytest.approx(corner, rel=1e-6)


@pytest.mark.parametrize("degrees", [0, 0.5, 171, 180, float("nan"), float("inf"), -60])
def test_a_lens_angle_must_be_one(degrees: float) -> None:
    assert "1-170 degrees" in (lens_problem(degrees) or "")
    with pytest.raises(ValueError, match="1-170 degrees"):
        check("den", [empty_tray(SHEET)], lens_degrees=degrees)


def test_the_check_advises_a_lens_that_shows_the_dice_at_the_tray_s_edge_their_sides() -> None:
    frames = [empty_tray(SHEET)] * 2
    plain = check("den", frames)
    assert plain.tray_side is None and plain.to_json()["tray_side"] is None
    narrow = check("den", frames, lens_degrees=30)
    wide = check("den", frames, lens_degrees=102)
    assert narrow.tray_side is not None and wide.tray_side is not None
    assert narrow.tray_side < SIDE_ADVICE_ABOVE < wide.tray_side
    # told no lens, the check asks for it instead (the sheet fills the picture)
    unknown = [a for a in plain.advice if a.startswith("The camera's lens is not known")]
    assert narrow.advice == tuple(a for a in plain.advice if a not in unknown)
    assert len(unknown) == 1 and not any("not known" in a for a in wide.advice)
    extra = [a for a in wide.advice if a not in narrow.advice]
    assert len(extra) == 1 and "102 degrees" in extra[0] and "as a blank" in extra[0]
    assert f"{wide.tray_side:.0%} of their height" in extra[0]
    assert wide.to_json()["lens_degrees"] == 102
    assert wide.to_json()["tray_side"] == pytest.approx(wide.tray_side, abs=1e-3)
    assert extra[0] in wide.to_json()["quality"]["advice"]  # type: ignore[index]


def test_with_no_lens_known_a_tray_filling_the_picture_asks_for_it() -> None:
    """A camera that tells no lens (a webcam) and no --lens: the reader cannot allow for
    the dice's sides, so a tray that a usual lens (COMMON_LENS, 60 degrees across) would
    show its edge dice more than SIDE_ADVICE_ABOVE of their sides gets advice to give the
    lens (or frame the tray in the middle); a tray in the picture's middle half, none."""
    plain = check("den", [empty_tray(SHEET)] * 2)
    usual = tray_side(plain.setup.roi, COMMON_LENS)
    assert usual > SIDE_ADVICE_ABOVE
    (asked,) = [a for a in plain.advice if "lens" in a]
    assert asked == unknown_lens_advice(usual) and f"show {usual:.0%} or more" in asked
    assert "--lens DEG" in asked and asked in plain.to_json()["quality"]["advice"]
    h, w = plain.setup.roi.shape
    middle = np.zeros_like(plain.setup.roi)
    middle[h // 4: 3 * h // 4, w // 4: 3 * w // 4] = 255
    framed = replace(plain, setup=replace(plain.setup, roi=middle))
    assert tray_side(middle, COMMON_LENS) < SIDE_ADVICE_ABOVE
    assert not any("lens" in a for a in framed.advice)
    assert framed.advice == tuple(a for a in plain.advice if a != asked)


@pytest.mark.parametrize(("grey", "black_dice"), [(86, True), (72, True), (100, False),
                                                   (125, False)])
def test_the_side_advice_warns_of_black_dice_on_a_dark_floor(grey: int,
                                                             black_dice: bool) -> None:
    """Under a lens that shows the dice at the tray's edge their sides, a floor darker than
    SIDE_FLOOR_BELOW adds that black symbol dice are read wrong most there (fifty-ninth
    session: a black SeaFall set through 64 degrees read wrong and sure on greys of 86 and
    72, not on 100); straight down, or through a lens that shows little side, no such
    advice on any floor."""
    empty = tray_photo(np.random.default_rng(4), [], tray=(grey,) * 3).image
    wide, narrow = check("den", [empty], lens_degrees=72), check("den", [empty], lens_degrees=30)
    assert wide.tray_side is not None and wide.tray_side > SIDE_ADVICE_ABOVE
    (side,) = [a for a in wide.advice if "degrees across" in a]
    assert ("black symbol dice" in side) == black_dice == (grey < SIDE_FLOOR_BELOW)
    if black_dice:
        level = int(side.split("dark floor (grey ")[1].split(" ")[0])
        assert abs(level - grey) <= 12 and "lighter floor" in side  # the floor as lit
    assert not any("black symbol dice are the ones" in a for a in narrow.advice)


def test_calibrate_says_how_much_side_the_lens_shows(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    frames = empty_frames(tmp_path / "empty")
    assert run(["calibrate", f"images:{frames}", "--setup", "den", "--no-save",
                "--lens", "102"]) == 0
    out = capsys.readouterr().out
    assert "with a lens 102 degrees across, dice at the tray's edge show" in out
    assert "advice: With a lens 102 degrees across" in out
    assert run(["calibrate", f"images:{frames}", "--setup", "den", "--no-save",
                "--lens", "30", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["lens_degrees"] == 30 and 0 < report["tray_side"] < SIDE_ADVICE_ABOVE
    assert not any("lens" in a for a in report["quality"]["advice"])
    assert run(["calibrate", f"images:{frames}", "--setup", "den", "--no-save"]) == 0
    out = capsys.readouterr().out
    assert "with a lens" not in out  # not given, not guessed: asked for
    assert "advice: The camera's lens is not known" in out
    with pytest.raises(SystemExit) as stopped:
        run(["calibrate", f"images:{frames}", "--setup", "den", "--lens", "wide"])
    assert stopped.value.code == 2
    assert "'wide' is not a number of degrees" in capsys.readouterr().err


def test_calibrate_takes_the_lens_a_camera_tells(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A camera that names its lens (a Pi camera module, by its sensor) is checked with it
    without --lens; --lens, when given, is the player's word over the camera's."""
    def wide_camera() -> FakeSource:
        camera = FakeSource([empty_tray(SHEET)] * 40)
        camera.lens_degrees = 102.0
        return camera

    _plug_in(monkeypatch, wide_camera())
    assert run(["calibrate", "--setup", "den", "--no-save"]) == 0
    out = capsys.readouterr().out
    assert "with a lens 102 degrees across (the camera's own), dice at the tray's edge" in out
    assert "advice: With a lens 102 degrees across" in out
    _plug_in(monkeypatch, wide_camera())
    assert run(["calibrate", "--setup", "den", "--no-save", "--lens", "30", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["lens_degrees"] == 30 and report["tray_side"] < SIDE_ADVICE_ABOVE


def test_a_setup_keeps_its_lens(tmp_path: Path) -> None:
    empty = empty_tray(SHEET)
    folder = calibrate("den", [empty], lens_degrees=66).save(tmp_path)
    assert Calibration.load("den", tmp_path).lens_degrees == 66
    assert check("den", [empty], lens_degrees=66).setup.lens_degrees == 66
    meta = json.loads((folder / "calibration.json").read_text())
    del meta["lens_degrees"]  # a setup saved before setups kept it: not known
    (folder / "calibration.json").write_text(json.dumps(meta))
    assert Calibration.load("den", tmp_path).lens_degrees is None
    meta["lens_degrees"] = 400
    (folder / "calibration.json").write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="damaged.*1-170 degrees"):
        Calibration.load("den", tmp_path)


def test_the_side_a_die_shows_and_the_confidence_asked_there() -> None:
    shape = (720, 1280, 3)
    assert side_shown((620, 340, 40, 40), shape, 66) == 0  # at the centre
    at_edge = side_shown((1260, 340, 40, 40), shape, 66)  # its centre on the right edge
    assert at_edge == pytest.approx(math.tan(math.radians(33)), rel=1e-6)
    assert side_shown((-20, 340, 40, 40), shape, 66) == pytest.approx(at_edge, rel=1e-6)
    assert [side_sure_from(v) for v in (0.0, 0.29, 0.3, 0.44, 0.45, 0.9)] == [
        0.0, 0.0, 0.85, 0.85, 0.95, 0.95]
    with pytest.raises(ValueError, match="1-170 degrees"):
        DiceReader("d6", lens_degrees=0)


def test_a_reader_told_a_wide_lens_reads_symbol_dice_far_out_with_more_care(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A SeaFall set enrolled at the table under a camera that shows the dice's sides (a
    64 degree lens with the tray filling the picture): told the lens, the reader leaves to
    the table the dice far out that it reads less sure than the side they show asks, and
    changes nothing else (the reader told no lens finds the dice with the same body
    detector, the one for a wide lens); pip dice get no such floor."""
    body = BODY_COLOURS[2]  # black: the set the side view costs most
    profile = Profile.from_crops("side", "seafall", table_crops(141, 5, body, top_shift=0.03),
                                 as_read=True)
    rng = np.random.default_rng(43)
    lens = lens_for(0.03)
    plain = DiceReader("seafall", profile=profile)
    told = DiceReader("seafall", profile=profile, lens_degrees=lens)
    monkeypatch.setattr(vision.reader, "body_dice_finder", wide_body_dice_finder)
    flipped = 0
    for _ in range(3):
        photo = tray_photo(rng, random_faces(rng, 15, profile.labels), top_shift=0.03,
                           body=body)
        before, after = plain.read(photo.image), told.read(photo.image)
        assert [(d.face, d.box, d.confidence) for d in before.dice] == [
            (d.face, d.box, d.confidence) for d in after.dice]
        for b, a in zip(before.dice, after.dice, strict=True):
            floor = side_sure_from(side_shown(b.box, photo.image.shape, lens))
            assert a.uncertain == (b.uncertain or b.confidence < floor)
            assert sure_there(b.confidence, b.box, photo.image.shape, lens) == (
                b.confidence >= floor)
            flipped += a.uncertain and not b.uncertain
    assert flipped >= 3
    monkeypatch.undo()
    sheet = SHEET.image()  # 7 real pip dice, none on the way to the centre from another
    plain_pips = DiceReader("d6").read(sheet).dice
    assert DiceReader("d6", lens_degrees=102, finder=default_dice_finder()).read(
        sheet).dice == plain_pips
    # (the detector for a wide lens boxes them a pixel or two otherwise, and reads them alike)
    wide = DiceReader("d6", lens_degrees=102).read(sheet).dice
    assert [(d.face, d.uncertain) for d in wide] == [(d.face, False) for d in plain_pips]


def test_two_boxes_that_may_be_a_die_and_its_side_are_told_by_the_way_they_lie() -> None:
    """A 1280x720 picture under a 66 degree lens; a die 50 px across far out on the right,
    where it shows over half its height as side."""
    shape, lens = (720, 1280, 3), 66.0
    outer = (1150, 335, 50, 50)  # centre (1175, 360): 0.54 of a side
    assert side_shown(outer, shape, lens) > 0.5
    near = SIDE_PAIR_WITHIN * 50 - 2  # centre to centre, just within
    inward = (int(1150 - near), 335, 50, 50)  # towards the picture's centre
    assert side_pairs([outer, inward], shape, lens) == {0, 1}
    assert side_pairs([inward, outer], shape, lens) == {0, 1}  # in either order
    farther = (int(1150 - SIDE_PAIR_WITHIN * 50 - 4), 335, 50, 50)  # a die's width apart
    assert side_pairs([outer, farther], shape, lens) == set()
    turn = math.radians(SIDE_PAIR_DEGREES + 5)  # as near, off the way to the centre
    beside = (int(1150 - near * math.cos(turn)), int(335 - near * math.sin(turn)), 50, 50)
    assert side_pairs([outer, beside], shape, lens) == set()
    assert side_pairs([outer, inward], shape, 20.0) == set()  # a narrow lens: little side
    middle = [(615, 335, 50, 50), (575, 335, 50, 50)]  # in the middle no die shows a side
    assert side_pairs(middle, shape, lens) == set()


def _drawn_through_72_degrees() -> SyntheticPhoto:
    """Six red pip dice drawn as cubes through a 72 degree lens; the packaged detector
    boxes one die far out twice: its top and its side."""
    rng = np.random.default_rng(5)
    faces = [str(1 + int(i)) for i in rng.integers(0, 6, 6)]
    return cube_photo(rng, faces, 72, body=BODY_COLOURS[0])


def test_a_reader_told_a_wide_lens_leaves_a_die_read_twice_to_the_table() -> None:
    """Pip dice drawn as cubes through a 72 degree lens: far out a die's side, pips and
    all, is boxed as a die beside it and both are read sure; told the lens (and kept to
    the packaged detector), the reader marks both uncertain and changes nothing else."""
    photo = _drawn_through_72_degrees()
    plain = DiceReader("d6").read(photo.image)
    told = DiceReader("d6", lens_degrees=72, finder=default_dice_finder()).read(photo.image)
    owners = [next(t for t, d in enumerate(photo.dice) if centre_in(d.box, r.box))
              for r in plain.dice]
    twice = {t for t in owners if owners.count(t) > 1}
    assert len(plain.dice) == len(photo.dice) + 1 and len(twice) == 1
    assert [(d.face, d.box, d.confidence) for d in plain.dice] == [
        (d.face, d.box, d.confidence) for d in told.dice]
    for owner, before, after in zip(owners, plain.dice, told.dice, strict=True):
        if owner in twice:
            assert not before.uncertain and after.uncertain
        else:
            assert after.uncertain == before.uncertain


def test_read_dice_with_a_setup_reads_with_its_lens(
        capsys: pytest.CaptureFixture[str]) -> None:
    from web.cli import vision as cli

    calibrate("den", [empty_tray(SHEET)], lens_degrees=70).save()
    args = argparse.Namespace(die="d6", profile=None, die_px=None, setup="den", lens=None)
    assert cli._reader(args, cli._setup(args)).lens_degrees == 70
    assert cli._reader(args, None).lens_degrees is None
    told = argparse.Namespace(die="d6", profile=None, die_px=None, setup="den", lens=45.0)
    assert cli._reader(told, cli._setup(told)).lens_degrees == 45  # --lens over the setup's
    with pytest.raises(SystemExit) as stopped:
        run(["read-dice", str(SHEET.path), "--lens", "0"])
    assert stopped.value.code == 2
    assert "a lens angle is 1-170 degrees" in capsys.readouterr().err


def test_watch_reads_with_the_setup_s_lens_else_the_one_a_camera_tells(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from web.cli import vision as cli

    used: list[float | None] = []

    def watch(source, reader, detector, **_):
        used.append(reader.lens_degrees)
        return iter(())

    def camera(lens: float | None):
        def open_for_setup(*_, **__) -> FakeSource:
            source = FakeSource([empty_tray(SHEET)])
            source.lens_degrees = lens
            return source
        monkeypatch.setattr(cli, "open_for_setup", open_for_setup)

    monkeypatch.setattr(cli, "watch", watch)
    camera(66.0)  # a Camera Module 3, by its sensor
    assert run(["watch", "picamera"]) == 0
    calibrate("den", [empty_tray(SHEET)], lens_degrees=30).save()
    assert run(["watch", "picamera", "--setup", "den"]) == 0  # the player's word over it
    assert run(["watch", "picamera", "--setup", "den", "--lens", "40"]) == 0  # over both
    camera(None)
    assert run(["watch", "camera:0"]) == 0
    assert used == [66.0, 30.0, 40.0, None]


def test_a_reader_told_a_wide_lens_finds_pip_dice_by_the_detector_that_saw_their_sides(
) -> None:
    """From WIDE_NETS_FROM degrees, pip dice on a light floor are found by the detector
    trained on dice drawn as cubes through wide lenses, on a dark floor by the dark-floor
    detector trained on them too; narrower, or with no lens told, as before."""
    light = np.full((64, 64, 3), 180, np.uint8)
    dark = np.full((64, 64, 3), 60, np.uint8)

    def finder(floor: np.ndarray, lens: float | None) -> DiceFinder:
        return DiceReader("d6", lens_degrees=lens)._pip_nets(floor).finder

    assert finder(light, None) is default_dice_finder()
    assert finder(light, WIDE_NETS_FROM - 1) is default_dice_finder()
    assert finder(light, WIDE_NETS_FROM) is wide_dice_finder()
    assert finder(light, 72) is wide_dice_finder()
    assert finder(dark, None) is dark_dice_finder()
    assert finder(dark, WIDE_NETS_FROM - 1) is dark_dice_finder()
    assert finder(dark, WIDE_NETS_FROM) is dark_wide_dice_finder()
    assert finder(dark, 72) is dark_wide_dice_finder()
    own = DiceFinder()
    assert DiceReader("d6", lens_degrees=72, finder=own)._pip_nets(light).finder is own
    # 8 trays of 12 dice (each body colour twice) through a 72 degree lens: the packaged
    # detector boxes 21 sides (and the like) as dice and 6 dice are read wrong and sure;
    # the detector that saw dice from the side, none (90 of the 96 read sure and right)
    rng = np.random.default_rng(7)
    photos = [cube_photo(rng, [str(1 + int(i)) for i in rng.integers(0, 6, 12)], 72,
                         body=BODY_COLOURS[k % 4]) for k in range(8)]
    plain = _tally(DiceReader("d6"), photos)
    wide = _tally(DiceReader("d6", lens_degrees=72), photos)
    assert plain["extra"] >= 12 and plain["wrong"] >= 3
    assert wide["extra"] <= 2 and wide["wrong"] <= 1
    assert wide["right"] >= plain["right"] + 6


def test_a_reader_told_a_wide_lens_finds_pip_dice_on_a_dark_floor_whole(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On a dark floor under a wide lens, the dark-floor detector that learned the drawn
    cubes too boxes each die whole, where the packaged dark-floor detector boxes a die's
    side, or a black die's pips, as dice of their own. 8 trays of 12 dice (each body colour
    twice) on a floor of grey 60 through a 64 degree lens, both read by the dark-floor face
    networks: with the packaged dark-floor detector 51 of the 96 are read sure and right, 2
    wrong and sure, and 20 boxes lie on no die; with the one for a wide lens 69, 1 and 3."""
    rng = np.random.default_rng(8)
    photos = [cube_photo(rng, [str(1 + int(i)) for i in rng.integers(0, 6, 12)], 64,
                         body=BODY_COLOURS[k % 4], tray=(60, 60, 60)) for k in range(8)]
    told = DiceReader("d6", lens_degrees=64)
    wide = _tally(told, photos)
    with monkeypatch.context() as m:
        m.setattr(vision.pipnets, "dark_wide_dice_finder", dark_dice_finder)
        packaged = _tally(told, photos)
    assert packaged["extra"] >= 12
    assert wide["extra"] <= 5 and wide["wrong"] <= 1
    assert wide["right"] >= packaged["right"] + 10


def _tally(reader: DiceReader, photos: list[SyntheticPhoto],
           holds: Callable[[Box, Box], bool] = centre_in) -> dict[str, int]:
    """Dice found, read sure and right, wrong and sure, and boxes on no drawn die: each
    drawn die takes the first read box it ``holds`` (by default, whose centre its outline
    holds), each box once."""
    got = dict.fromkeys(("found", "right", "wrong", "extra"), 0)
    for photo in photos:
        reads = reader.read(photo.image).dice
        used: set[int] = set()
        for die in photo.dice:
            i = next((i for i, r in enumerate(reads)
                      if i not in used and holds(die.box, r.box)), None)
            if i is None:
                continue
            used.add(i)
            if not reads[i].uncertain:
                got["right" if reads[i].face == die.face else "wrong"] += 1
        got["found"] += len(used)
        got["extra"] += len(reads) - len(used)
    return got


def test_a_reader_told_a_wide_lens_finds_symbol_dice_on_a_dark_floor_by_their_bodies(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On a dark floor too, the body detector for a wide lens finds the custom-face dice far
    out that the packaged one misses: an ivory SeaFall set on black felt under a 72 degree
    lens, 3 trays of 15, enrolled there; the reader told the lens finds all 45 (24 read
    sure and right) where with the packaged body detector it finds 40 (21) and boxes one
    more thing, none read wrong and sure either way."""
    body = BODY_COLOURS[1]  # ivory, on black felt
    profile = Profile.from_crops("side", "seafall", table_crops(
        143, 5, body, tray=(30, 30, 30), top_shift=0.035), as_read=True)
    rng = np.random.default_rng(45)
    photos = [tray_photo(rng, random_faces(rng, 15, profile.labels), top_shift=0.035,
                         body=body, tray=(30, 30, 30)) for _ in range(3)]
    told = DiceReader("seafall", profile=profile, lens_degrees=lens_for(0.035))
    wide = _tally(told, photos, hold_each_other)
    with monkeypatch.context() as m:
        m.setattr(vision.reader, "wide_body_dice_finder", body_dice_finder)
        packaged = _tally(told, photos, hold_each_other)
    assert (wide["found"], wide["wrong"], wide["extra"]) == (45, 0, 0)
    assert packaged["found"] <= 42
    assert wide["right"] > packaged["right"]


def test_a_reader_told_a_wide_lens_finds_symbol_dice_by_the_bodies_it_saw_from_the_side(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """From WIDE_NETS_FROM degrees, custom-face dice are found by the body detector trained
    on dice drawn as cubes through wide lenses too, on a light floor or a dark one; with no
    lens told, by the packaged one. A blue SeaFall set under a 72 degree lens, 3 trays of
    15: with the packaged body detector the reader told the lens misses 2 dice and boxes 5
    sides (and the like) as dice; with the one for a wide lens, none."""
    body = BODY_COLOURS[3]
    profile = Profile.from_crops("side", "seafall", table_crops(141, 5, body, top_shift=0.035),
                                 as_read=True)
    rng = np.random.default_rng(44)
    photos = [tray_photo(rng, random_faces(rng, 15, profile.labels), top_shift=0.035,
                         body=body) for _ in range(3)]
    told = DiceReader("seafall", profile=profile, lens_degrees=lens_for(0.035))
    wide = _tally(told, photos, hold_each_other)
    with monkeypatch.context() as m:
        m.setattr(vision.reader, "wide_body_dice_finder", body_dice_finder)
        packaged = _tally(told, photos, hold_each_other)
    assert (wide["found"], wide["extra"]) == (45, 0)
    assert packaged["found"] <= 44 and packaged["extra"] >= 3
    # which detector: the body detector for a wide lens on any floor, told the lens
    plain = DiceReader("seafall", profile=profile)  # (made before: it loads its models)
    taken: list[str] = []
    monkeypatch.setattr(vision.reader, "wide_body_dice_finder",
                        lambda: taken.append("wide") or wide_body_dice_finder())
    monkeypatch.setattr(vision.reader, "body_dice_finder",
                        lambda: taken.append("packaged") or body_dice_finder())
    dark = tray_photo(rng, random_faces(rng, 6, profile.labels), body=BODY_COLOURS[1],
                      tray=(60, 60, 60))
    told.read(photos[0].image)
    told.read(dark.image)
    plain.read(photos[0].image)
    assert taken == ["wide", "wide", "packaged"]

