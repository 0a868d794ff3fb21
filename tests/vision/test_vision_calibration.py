from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.helpers import empty_tray, photo
from vision.calibration import (
    KEEP_SETUPS,
    Calibration,
    calibrate,
    kept_setups,
    quality,
    restore_setup,
    tray_region,
)
from vision.reader import DiceReader
from vision.setupadvice import floor_advice
from vision.synthetic import tray_photo

TRAY = "IMG_20191208_112404.jpg"  # 25 dice on a light box: a dark corner, a strip with studs
SHEET = "IMG_20191208_112541.jpg"  # 7 dice on a white sheet


def test_calibration_learns_background_roi_and_die_size_from_real_photos() -> None:
    p = photo(SHEET)
    empty = empty_tray(p)
    frames = [np.clip(empty.astype(np.int16) + d, 0, 255).astype(np.uint8) for d in (-2, 0, 2)]
    cal = calibrate("kitchen", frames, dice_frame=p.image())
    assert np.abs(cal.background.astype(int) - empty.astype(int)).mean() < 1.0
    truth = float(np.median([min(w, h) for _, _, w, h in p.boxes]))
    assert cal.die_px == pytest.approx(truth, rel=0.3)
    assert cal.roi.shape == empty.shape[:2]
    assert cal.roi.mean() / 255 > 0.5  # most of a sheet photo is the sheet
    assert cal.quality.is_good, cal.quality.advice


def test_tray_region_is_the_floor_inside_the_walls() -> None:
    p = photo(TRAY)
    empty = empty_tray(p)
    roi = tray_region(empty)
    h, w = roi.shape
    assert roi[h // 2, w // 2] == 255
    assert roi[5, w - 5] == 0 and roi[h - 5, w - 5] == 0  # the dark corner, the strip's stud
    assert 0.2 < roi.mean() / 255 < 0.97
    assert all(roi[y + bh // 2, x + bw // 2] for x, y, bw, bh in p.boxes)  # every die's place


def lamp_falloff(image: np.ndarray, darker: float, over: float) -> np.ndarray:
    """``image`` under a lamp whose light falls off softly towards the right: the right
    ``over`` of the picture darkens evenly to ``darker`` less at the edge."""
    w = image.shape[1]
    start = int(w * (1 - over))
    gain = np.ones(w, np.float32)
    gain[start:] = 1 - darker * np.linspace(0, 1, w - start)
    return np.clip(image * gain[None, :, None], 0, 255).astype(np.uint8)


def test_a_floor_whose_light_falls_off_softly_stays_floor() -> None:
    """docs/vision.md allows for a lamp's light falling off softly: calibrated under one
    (15% darker at the right edge, over 40% of the picture), the floor kept 53% of the
    picture against 71% under even light, and a read with the setup dropped 4 of 7 dice
    without a word. The floor is nearly the same, with every die's place on it."""
    p = photo(SHEET)
    even = tray_region(empty_tray(p))
    lit = tray_region(lamp_falloff(empty_tray(p), 0.15, 0.4))
    assert lit.mean() >= 0.8 * even.mean()
    assert all(lit[y + h // 2, x + w // 2] for x, y, w, h in p.boxes)
    dice = lamp_falloff(p.image(), 0.15, 0.4)
    read = DiceReader("d6", roi=lit).read(dice)
    assert len(read.dice) == len(p.boxes)


def test_calibration_saves_and_loads_per_setup(tmp_path: Path) -> None:
    empty = empty_tray(photo(SHEET))
    cal = calibrate("kitchen", [empty])
    folder = cal.save(tmp_path)
    assert (folder / "calibration.json").is_file()
    back = Calibration.load("kitchen", tmp_path)
    assert back.die_px == pytest.approx(cal.die_px)
    assert np.array_equal(back.background, cal.background)
    assert np.array_equal(back.roi, cal.roi)
    assert back.quality == cal.quality and back.mains_hz is None
    # the camera's anti-flicker is kept with it; a setup saved before it was is read as none
    calibrate("lamp", [empty], mains_hz=60).save(tmp_path)
    assert Calibration.load("lamp", tmp_path).mains_hz == 60
    meta = json.loads((folder / "calibration.json").read_text())
    del meta["mains_hz"]
    (folder / "calibration.json").write_text(json.dumps(meta))
    assert Calibration.load("kitchen", tmp_path).mains_hz is None
    with pytest.raises(ValueError, match="no calibration .garage.*calibrate it first"):
        Calibration.load("garage", tmp_path)


def test_a_setup_saved_over_is_kept_and_put_back_and_the_newer_one_after(
        tmp_path: Path) -> None:
    """A tray checked again (in bad light, say) keeps the setup it replaces; restoring
    puts that one back and keeps the newer, so restoring again is the redo. Only the last
    KEEP_SETUPS are kept; their folders' leading dot makes them no setup's name."""
    empty = empty_tray(photo(SHEET))
    first = replace(calibrate("kitchen", [empty]), die_px=40.0)
    first.save(tmp_path)
    assert kept_setups("kitchen", tmp_path) == []
    with pytest.raises(ValueError, match="no earlier setup 'kitchen' is kept"):
        restore_setup("kitchen", tmp_path)
    replace(first, die_px=50.0).save(tmp_path)
    assert len(kept_setups("kitchen", tmp_path)) == 1
    assert restore_setup("kitchen", tmp_path).die_px == 40.0
    assert Calibration.load("kitchen", tmp_path).die_px == 40.0
    assert restore_setup("kitchen", tmp_path).die_px == 50.0  # and back again
    for px in range(60, 60 + KEEP_SETUPS + 2):
        replace(first, die_px=float(px)).save(tmp_path)
    kept = kept_setups("kitchen", tmp_path)
    assert len(kept) == KEEP_SETUPS and all(p.name.startswith(".kitchen.") for p in kept)
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == [
        "kitchen"]  # no half-made folder left


def test_a_save_that_fails_half_way_leaves_the_setup_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A setup is written whole or not at all: before, its three files were written in
    turn over the old ones, and a failure (a full card, the Pi's power cut) between them
    left a setup of mixed parts."""
    empty = empty_tray(photo(SHEET))
    setup = replace(calibrate("kitchen", [empty]), die_px=40.0)
    setup.save(tmp_path)
    real_imwrite = cv2.imwrite

    def full_card(path, image, *args):
        if path.endswith("roi.png"):
            return False
        return real_imwrite(path, image, *args)

    monkeypatch.setattr(cv2, "imwrite", full_card)
    other = replace(setup, die_px=55.0, background=np.zeros_like(setup.background))
    with pytest.raises(OSError, match="cannot write"):
        other.save(tmp_path)
    back = Calibration.load("kitchen", tmp_path)
    assert back.die_px == 40.0 and np.array_equal(back.background, setup.background)
    assert [p.name for p in tmp_path.iterdir()] == ["kitchen"]


def test_a_damaged_kept_setup_is_not_put_back(tmp_path: Path) -> None:
    empty = empty_tray(photo(SHEET))
    setup = replace(calibrate("kitchen", [empty]), die_px=40.0)
    setup.save(tmp_path)
    replace(setup, die_px=50.0).save(tmp_path)
    (kept,) = kept_setups("kitchen", tmp_path)
    (kept / "roi.png").write_bytes(b"not a picture")
    with pytest.raises(ValueError, match="damaged"):
        restore_setup("kitchen", tmp_path)
    assert Calibration.load("kitchen", tmp_path).die_px == 50.0


def test_calibration_uses_the_xdg_data_dir_by_default(_private_data_dir: Path) -> None:
    cal = calibrate("den", [empty_tray(photo(SHEET))])
    folder = cal.save()
    assert folder == _private_data_dir / "tableside" / "vision" / "setups" / "den"
    assert Calibration.load("den").name == "den"


@pytest.mark.parametrize(
    ("spoil", "advice"),
    [
        pytest.param(lambda im: cv2.GaussianBlur(im, (0, 0), 6), "blurred", id="out of focus"),
        pytest.param(lambda im: (im * 0.15).astype(np.uint8), "dark", id="underexposed"),
        pytest.param(lambda im: cv2.convertScaleAbs(im, alpha=1.0, beta=120), "bright",
                     id="overexposed"),
        pytest.param(lambda im: cv2.addWeighted(im, 0.1, np.full_like(im, 170), 0.9, 0),
                     "contrast", id="washed out"),
        pytest.param(lambda im: cv2.cvtColor(cv2.cvtColor(im, cv2.COLOR_BGR2GRAY),
                                              cv2.COLOR_GRAY2BGR),
                     "no colour", id="black-and-white camera"),
    ],
)
def test_quality_report_gives_advice_for_bad_images(spoil, advice: str) -> None:
    good = photo(TRAY).image()
    assert quality(good).is_good, quality(good).advice
    report = quality(spoil(good))
    assert any(advice in a.lower() for a in report.advice), report.advice


def test_quality_report_sees_glare() -> None:
    image = photo(TRAY).image().copy()
    cv2.circle(image, (500, 500), 60, (255, 255, 255), -1)
    report = quality(image)
    assert report.glare > 0.005
    assert any("glare" in a.lower() for a in report.advice)


def test_calibration_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="at least one frame"):
        calibrate("x", [])
    a = np.zeros((10, 10, 3), np.uint8)
    b = np.zeros((12, 10, 3), np.uint8)
    with pytest.raises(ValueError, match="same size"):
        calibrate("x", [a, b])
    with pytest.raises(ValueError, match="bad setup name"):
        calibrate("../etc", [a])


def test_the_check_counts_what_lies_on_the_tray_floor_only() -> None:
    from tests.vision.helpers import die_patches, paste
    from vision.calibration import check

    p = photo(TRAY)
    empty = empty_tray(p)
    patch, _ = die_patches(p)[0]
    assert check("t", [empty]).things_in_tray == 0
    beside = empty.copy()
    w = beside.shape[1]
    paste(beside, patch, (w - 8 - patch.shape[1], 8))  # in the dark top right, off the floor
    result = check("t", [beside])
    assert result.setup.roi[20, w - 20] == 0 and result.things_in_tray == 0 and result.keepable
    inside = empty.copy()
    paste(inside, patch, (500, 500))
    result = check("t", [inside])
    assert result.things_in_tray == 1 and not result.keepable
    # said first and alone: the rest of the advice measured dice, not the empty tray
    assert result.advice == ("1 die (or a thing like a die) is in the empty-tray frames: "
                             "take everything out of the tray and check it again.",)


@pytest.mark.parametrize(("damage", "words"), [
    (lambda f: (f / "calibration.json").write_text("{not json"), "damaged.*calibrate it again"),
    (lambda f: (f / "calibration.json").write_bytes(b"\xff\xfe\x00\x81"), "damaged"),
    (lambda f: (f / "calibration.json").write_text('{"name": "k"}'),
     r"damaged \('quality' is missing\)"),  # said, not KeyError('quality')
    (lambda f: (f / "calibration.json").write_text(
        '{"name": "k", "die_px": "big", "quality": {}}'), "damaged"),
    (lambda f: (f / "calibration.json").write_text(
        (f / "calibration.json").read_text().replace('"die_px": ', '"die_px": -')), "damaged"),
    (lambda f: (f / "calibration.json").write_text(
        (f / "calibration.json").read_text().replace('"die_px": ', '"die_px": Infinity, "x": ')),
     "damaged"),
    (lambda f: (f / "calibration.json").write_text(
        (f / "calibration.json").read_text().replace('"die_px": ', '"die_px": 1e6, "x": ')),
     "damaged.*does not fit in a 1024x1024 picture"),
    (lambda f: (f / "calibration.json").write_text(
        (f / "calibration.json").read_text().replace('"die_px": ', '"die_px": 3, "x": ')),
     "damaged.*too small to read"),
    (lambda f: (f / "roi.png").unlink(), "images missing or damaged"),
    (lambda f: cv2.imwrite(str(f / "roi.png"), np.zeros((5, 5), np.uint8)), "differ in size"),
    (lambda f: (f / "background.png").write_bytes(b"not a png"), "images missing or damaged"),
    (lambda f: (f / "calibration.json").write_text(
        (f / "calibration.json").read_text().replace('"mains_hz": null', '"mains_hz": 55')),
     "damaged.*mains_hz 55 is not 50 or 60"),
], ids=["not json", "not text", "no quality", "bad numbers", "negative size", "endless size",
        "size beyond the frame", "size too small", "no roi", "roi size", "broken image",
        "odd mains"])
def test_a_damaged_calibration_is_a_clear_error(tmp_path: Path, damage, words: str) -> None:
    folder = calibrate("kitchen", [empty_tray(photo(SHEET))]).save(tmp_path)
    damage(folder)
    with pytest.raises(ValueError, match=words):
        Calibration.load("kitchen", tmp_path)


def test_the_dice_are_measured_on_a_calibrated_tray() -> None:
    from vision.calibration import measured

    p = photo(SHEET)
    setup = calibrate("kitchen", [empty_tray(p)])
    truth = float(np.median([max(w, h) for _, _, w, h in p.boxes]))
    with_dice = measured(setup, p.image())
    assert with_dice.die_px == pytest.approx(truth, rel=0.3)
    assert with_dice.name == "kitchen" and with_dice.roi is setup.roi
    assert measured(replace(setup, mains_hz=50), p.image()).mains_hz == 50  # kept
    with pytest.raises(ValueError, match="no die to measure"):
        measured(setup, empty_tray(p))
    with pytest.raises(ValueError, match="size of the empty tray's frames"):
        measured(setup, cv2.resize(p.image(), (640, 640)))


def test_a_frame_given_for_the_dice_with_none_in_it_is_an_error() -> None:
    """Until the forty-fifth session the framing default was taken in silence, and
    `calibrate --dice` printed "measured on the dice" for a die size it never measured."""
    p = photo(SHEET)
    empty = empty_tray(p)
    with pytest.raises(ValueError, match="no die to measure"):
        calibrate("kitchen", [empty], empty)
    with pytest.raises(ValueError, match="size of the empty tray's frames"):
        calibrate("kitchen", [empty], cv2.resize(p.image(), (640, 640)))


def test_the_setup_in_use_is_remembered(tmp_path: Path) -> None:
    from vision.calibration import in_use, remember_in_use

    assert in_use(tmp_path) is None
    remember_in_use("kitchen", tmp_path)
    assert in_use(tmp_path) == "kitchen"
    remember_in_use("den", tmp_path)
    assert in_use(tmp_path) == "den"
    with pytest.raises(ValueError, match="bad setup name"):
        remember_in_use("../den", tmp_path)
    assert in_use(tmp_path) == "den"
    (tmp_path / "in-use.txt").write_bytes(b"\xff\xfe\x00den")  # damaged: said, not a crash
    with pytest.raises(ValueError, match=r"in-use\.txt is damaged \(not text\): calibrate"):
        in_use(tmp_path)
    remember_in_use("den", tmp_path)  # a new calibration or check mends it
    assert in_use(tmp_path) == "den"


def test_dice_measured_too_small_to_read_are_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """A camera so high or so coarse that the dice are a few pixels: the setup is not
    kept with a size no read could use (8 px, vision.detection.MIN_DIE_PX)."""
    import vision.calibration
    from vision.calibration import measured

    p = photo(SHEET)
    setup = calibrate("kitchen", [empty_tray(p)])
    monkeypatch.setattr(vision.calibration, "_pip_dice_size", lambda frame, roi: None)
    monkeypatch.setattr(vision.calibration, "estimate_die_px", lambda frame, roi=None: 5.0)
    with pytest.raises(ValueError, match="the dice measured: dice 5 px across are too small"):
        measured(setup, p.image())
    with pytest.raises(ValueError, match="too small to read"):
        calibrate("kitchen", [empty_tray(p)], p.image())


def test_dice_measured_too_small_to_read_surely_get_advice(monkeypatch) -> None:
    """Between 8 px (refused) and 18 px (``SURE_DIE_PX``) the setup is kept, but every pip
    die will be left to the table: the player is told, with what to do, before playing."""
    import vision.calibration
    from vision.calibration import measured

    p = photo(SHEET)
    setup = calibrate("kitchen", [empty_tray(p)])
    assert not [a for a in setup.quality.advice if " px across" in a]  # the framing's 40+
    monkeypatch.setattr(vision.calibration, "_pip_dice_size", lambda frame, roi: None)
    for px, warned in ((14.0, True), (17.6, True), (18.0, False), (45.0, False)):
        monkeypatch.setattr(vision.calibration, "estimate_die_px", lambda frame, roi=None,
                            px=px: px)
        advice = [a for a in measured(setup, p.image()).quality.advice if " px across" in a]
        assert bool(advice) == warned, (px, advice)
        if warned:
            assert advice[0].startswith(f"The dice are {px:.0f} px across: under 18 px")
            assert "Bring the camera closer" in advice[0]


def test_a_tray_too_small_in_the_picture_to_read_a_die_says_so() -> None:
    """Frames so small that the framing default makes a die under 8 px: the check
    refuses them with the reason, rather than keeping a setup that cannot read."""
    from vision.calibration import check

    tiny = cv2.resize(empty_tray(photo(SHEET)), (96, 96), interpolation=cv2.INTER_AREA)
    with pytest.raises(ValueError, match="too small to read"):
        check("kitchen", [tiny])


@pytest.mark.parametrize(("floor", "words"), [
    ((185, 190, 195), None),   # the renderer's light grey, as the d6 photos' floors
    ((125, 130, 135), None),   # mid grey: every colour found since the twenty-ninth session
    ((70, 90, 60), "Dark tray floor"),   # green felt
    ((28, 30, 32), "Very dark tray floor"),
])
def test_a_floor_darker_than_the_finders_know_gets_advice(floor, words) -> None:
    # on the d6 photos repainted darker, pip dice are left to the table more often from
    # a grey of about 100 down; on synthetic SeaFall trays black dice are missed by a
    # sixth on a black floor (docs/vision.md, *Which tray floor*); pale dice are found
    # on every floor since the thirty-eighth session's plain squares
    empty = tray_photo(np.random.default_rng(4), [], tray=floor).image
    advice = [a for a in calibrate("den", [empty]).quality.advice if "tray floor (grey" in a]
    if words is None:
        assert advice == []
    else:
        assert len(advice) == 1 and advice[0].startswith(words), advice
        assert "light grey" in advice[0]
        assert "pip dice" in advice[0] and "pale" not in advice[0]
        if floor == (28, 30, 32):
            assert "black symbol dice" in advice[0]


def test_floor_advice_reads_the_floor_not_the_walls() -> None:
    light = np.full((120, 160, 3), 190, np.uint8)
    light[:, :40] = 30  # a dark wall, off the floor
    roi = np.zeros((120, 160), np.uint8)
    roi[:, 40:] = 255
    assert floor_advice(light, roi) == ()
    assert floor_advice(light, np.zeros_like(roi)) == ()  # no floor found: the whole frame
    light[:, 40:] = 90
    assert floor_advice(light, roi)[0].startswith("Dark tray floor")


@pytest.mark.parametrize("file", [SHEET, TRAY])
def test_dice_larger_than_the_framing_default_are_measured_at_their_size(file: str) -> None:
    """A camera lower over the tray than the framing expects: a 1280x720 frame whose dice
    are 2.5 times the default (115 px). The blob measure took pips and faces for dice
    (41-67 px), and the setup then read every roll at that size; the pip dice read at the
    size their boxes fit are measured right."""
    from vision.calibration import measured
    from vision.detection import estimate_die_px

    manifest = json.loads((Path(__file__).parent / "photos" / "manifest.json").read_text())
    boxes = [d["box"] for d in next(p for p in manifest["photos"] if p["file"] == file)["dice"]]
    image = cv2.imread(str(Path(__file__).parent / "photos" / file))
    side = float(np.median([max(b[2], b[3]) for b in boxes]))
    ch = int(side / (2.5 * 0.0636))
    cw = min(int(ch * 16 / 9), image.shape[1])
    cx = np.median([b[0] + b[2] / 2 for b in boxes])
    cy = np.median([b[1] + b[3] / 2 for b in boxes])
    x0 = int(min(max(cx - cw / 2, 0), image.shape[1] - cw))
    y0 = int(min(max(cy - ch / 2, 0), image.shape[0] - ch))
    frame = cv2.resize(image[y0:y0 + ch, x0:x0 + cw], (1280, 720), interpolation=cv2.INTER_AREA)
    truth = side * 720 / ch
    setup = calibrate("low", [np.full_like(frame, 235)])
    assert not 1 / 1.3 < estimate_die_px(frame, setup.roi) / truth < 1.3  # the blob measure
    assert measured(setup, frame).die_px == pytest.approx(truth, rel=0.15)
