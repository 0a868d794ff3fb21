"""``tableside calibrate`` and the setups ``read-dice --setup`` and ``watch --setup`` use,
on real photos: an empty tray is the photo with its dice painted out."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.helpers import empty_tray, photo, roll_sequence
from tests.vision.test_vision_cli import run
from vision.calibration import CAMERA_WARMUP, Calibration, in_use, setups_dir, source_frames
from vision.sources import FakeSource, SourceError, SourceLost

SHEET = photo("IMG_20191208_112541.jpg")  # 7 dice on a white sheet, 1024x1024


def empty_frames(folder: Path, count: int = 3) -> Path:
    """A recording of the empty tray: the sheet photo with its dice painted out, with a
    little noise from frame to frame."""
    folder.mkdir(parents=True)
    empty = empty_tray(SHEET)
    for i in range(count):
        frame = np.clip(empty.astype(np.int16) + (i - 1) * 2, 0, 255).astype(np.uint8)
        cv2.imwrite(str(folder / f"{i:02d}.png"), frame)
    return folder


def test_calibrate_saves_a_setup_that_read_dice_uses(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    frames = empty_frames(tmp_path / "empty")
    assert run(["calibrate", f"images:{frames}", "--setup", "kitchen",
                "--dice", str(SHEET.path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["setup"] == "kitchen" and out["frames"] == 3 and out["size"] == [1024, 1024]
    # the sheet fills the picture: with no lens given, the one advice asks for it
    assert out["die_px_from"] == "dice" and len(out["quality"]["advice"]) == 1
    assert out["quality"]["advice"][0].startswith("The camera's lens is not known")
    assert 0.5 < out["tray_share"] <= 1.0
    setup = Calibration.load("kitchen")
    assert out["saved"] == str(setups_dir() / "kitchen")
    assert in_use() == "kitchen"  # `serve` reads with it from its next start
    truth = float(np.median([max(w, h) for _, _, w, h in SHEET.boxes]))
    assert setup.die_px == pytest.approx(out["die_px"], abs=0.1)
    assert setup.die_px == pytest.approx(truth, rel=0.3)

    assert run(["read-dice", str(SHEET.path), "--setup", "kitchen", "--json"]) == 0
    read = json.loads(capsys.readouterr().out)[0]
    assert sorted(d["face"] for d in read["dice"]) == sorted(SHEET.faces)

    # a photo of another size is not this setup's camera: an error for it alone
    other = tmp_path / "other.jpg"
    cv2.imwrite(str(other), cv2.resize(SHEET.image(), (800, 600)))
    assert run(["read-dice", str(other), str(SHEET.path), "--setup", "kitchen",
                "--json"]) == 1
    first, second = json.loads(capsys.readouterr().out)
    assert "calibrated at 1024x1024" in first["error"] and first["dice"] == []
    assert len(second["dice"]) == len(SHEET.faces)


def test_watch_reads_rolls_with_a_setup(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    assert run(["calibrate", f"images:{empty_frames(tmp_path / 'empty')}",
                "--setup", "den"]) == 0
    capsys.readouterr()
    frames, _ = roll_sequence(SHEET, moved=set(range(7)))
    for i, f in enumerate(frames):
        cv2.imwrite(str(tmp_path / f"{i:03d}.jpg"), f)
    assert run(["watch", f"images:{tmp_path}", "--fps", "10", "--setup", "den",
                "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 1 and len(lines[0]["dice"]) >= 5
    assert run(["watch", f"images:{tmp_path}", "--setup", "attic"]) == 2
    assert "calibrate it first" in capsys.readouterr().err


def test_calibrate_reports_what_to_fix(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    dark = tmp_path / "dark.png"
    cv2.imwrite(str(dark), (empty_tray(SHEET) * 0.15).astype(np.uint8))
    assert run(["calibrate", str(dark), "--setup", "cellar"]) == 0
    text = capsys.readouterr().out
    assert "1 frame of the empty tray" in text and "advice: Too dark" in text
    assert "saved to" in text and Calibration.load("cellar").quality.advice


def test_calibrate_refuses_a_tray_with_dice_in_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["calibrate", str(SHEET.path), "--setup", "messy"]) == 1
    text = capsys.readouterr().out
    assert "take everything out of the tray" in text and "saved to" not in text
    assert not (setups_dir() / "messy").exists()


def test_calibrate_only_reports_with_no_save(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    assert run(["calibrate", f"images:{empty_frames(tmp_path / 'e')}", "--setup", "look",
                "--no-save"]) == 0
    assert "not saved" in capsys.readouterr().out
    assert not (setups_dir() / "look").exists() and in_use() is None


def test_calibrate_with_no_dice_in_the_dice_photo_saves_nothing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A `--dice` photo in which no die is found is an error, not the framing default
    reported as measured."""
    frames = empty_frames(tmp_path / "e")
    assert run(["calibrate", f"images:{frames}", "--setup", "k",
                "--dice", str(frames / "00.png")]) == 2
    assert "no die to measure" in capsys.readouterr().err
    assert not (setups_dir() / "k").exists() and in_use() is None


def test_calibrate_restore_puts_the_setup_before_back(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    """A tray calibrated again (with --dice now, or in other light) keeps the setup it
    replaced; ``--restore`` puts it back, and run again the newer one."""
    frames = empty_frames(tmp_path / "e")
    assert run(["calibrate", f"images:{frames}", "--setup", "k"]) == 0
    first = Calibration.load("k").die_px
    assert run(["calibrate", f"images:{frames}", "--setup", "k",
                "--dice", str(SHEET.path)]) == 0
    measured = Calibration.load("k").die_px
    assert measured != first
    capsys.readouterr()
    assert run(["calibrate", "--setup", "k", "--restore"]) == 0
    assert "as it was before its last calibration" in capsys.readouterr().out
    assert Calibration.load("k").die_px == first and in_use() == "k"
    assert run(["calibrate", "--setup", "k", "--restore", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["die_px"] == pytest.approx(measured, abs=0.1)
    assert run(["calibrate", "--setup", "none", "--restore"]) == 2
    assert "no earlier setup 'none' is kept" in capsys.readouterr().err
    assert run(["calibrate", str(SHEET.path), "--setup", "k", "--restore"]) == 2
    assert "takes no picture" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "words"), [
    (["calibrate", "telescope:1", "--setup", "x"], "unknown source"),
    (["calibrate", "/nowhere/tray.jpg", "--setup", "x"], "no such file"),
    (["calibrate", str(SHEET.path), "--setup", "../x"], "setup"),
    (["calibrate", str(SHEET.path), "--setup", "x", "--frames", "0"], "at least 1"),
])
def test_calibrate_bad_input_is_a_clear_error(capsys: pytest.CaptureFixture[str],
                                              argv: list[str], words: str) -> None:
    assert run(argv) == 2
    assert words in capsys.readouterr().err


def test_a_frame_of_another_size_is_a_clear_error(tmp_path: Path) -> None:
    assert run(["calibrate", f"images:{empty_frames(tmp_path / 'e')}", "--setup", "k"]) == 0
    setup = Calibration.load("k")
    from vision.reader import DiceReader

    reader = DiceReader("d6", die_px=setup.die_px, roi=setup.roi)
    with pytest.raises(ValueError, match="the frame is 640x480 but the tray was calibrated"):
        reader.read(np.zeros((480, 640, 3), np.uint8))


def _camera(levels: list[float]) -> FakeSource:
    """A live camera whose frames have these light levels, each marked with its number
    (in a pixel the light is not measured on)."""
    frames = []
    for i, level in enumerate(levels):
        frame = np.full((16, 16, 3), round(level), np.uint8)
        frame[1, 1] = i
        frames.append(frame)
    camera = FakeSource(frames)
    camera.live = True
    return camera


def test_source_frames_pass_over_a_cameras_first_frames() -> None:
    camera = _camera([100.0] * 40)
    taken = source_frames(camera, 5)
    assert [int(f[1, 1, 0]) for f in taken] == list(range(CAMERA_WARMUP, CAMERA_WARMUP + 5))
    recording = _camera([100.0] * 40)  # a recording's frames all count
    recording.live = False
    assert [int(f[1, 1, 0]) for f in source_frames(recording, 3)] == [0, 1, 2]
    short = _camera([100.0] * 2)
    short.live = False
    assert len(source_frames(short, 10)) == 2  # as many as there are


def test_source_frames_wait_for_a_cameras_exposure_to_settle() -> None:
    """A webcam's automatic exposure may take a second or two to settle after it opens:
    the frames taken are those after the light holds steady, not the first 15 while it
    still climbs (their median would be a darker tray than the one played on)."""
    from vision.calibration import CAMERA_WARMUP_MAX

    climbing = [160 - 120 * 0.85 ** i for i in range(40)]  # 149.5 at frame 15, 157 at 23
    steady = [160.0 + (i % 2) * 0.5 for i in range(20)]
    taken = source_frames(_camera(climbing + steady), 5)
    first = int(taken[0][1, 1, 0])
    assert CAMERA_WARMUP + 5 <= first <= 30
    assert all(f[0, 0, 0] >= 156 for f in taken)  # within 2.5% of the light it settles at
    # light that never holds steady (a lamp flickering frame to frame) waits no longer
    # than CAMERA_WARMUP_MAX frames
    flicker = [100.0 + 30 * (i % 2) for i in range(CAMERA_WARMUP_MAX + 10)]
    taken = source_frames(_camera(flicker), 3)
    assert [int(f[1, 1, 0]) for f in taken] == [CAMERA_WARMUP_MAX, CAMERA_WARMUP_MAX + 1,
                                                CAMERA_WARMUP_MAX + 2]


def test_source_frames_wait_for_a_webcams_lens_to_find_the_tray() -> None:
    """Steady light from the first frame, but a webcam's autofocus still moving for its
    first FOCUS_SECONDS: the empty tray is taken once the lens is held."""
    from tests.vision.helpers import ManualClock
    from tests.vision.test_vision_sources import FocusingCapture
    from vision.sources import FOCUS_SECONDS, CaptureSource

    clock = ManualClock()
    cap = FocusingCapture()
    read = cap.read

    def at_32_fps():
        clock.advance(1 / 32)
        return read()

    cap.read = at_32_fps  # type: ignore[method-assign]
    with CaptureSource(0, live=True, name="camera:0", clock=clock,
                       capture_factory=lambda _: cap) as source:
        assert len(source_frames(source, 3)) == 3
        assert source.focus_held
    # the first frame starts the autofocus's 2 s: 64 more frames passed over, 3 taken
    assert 100 - cap.frames == 1 + FOCUS_SECONDS * 32 + 3


def test_source_frames_when_the_camera_goes_away() -> None:
    frames = [np.full((4, 4, 3), i, np.uint8) for i in range(10)]
    assert len(source_frames(FakeSource(frames, lose_after=4), 10)) == 4
    with pytest.raises(SourceLost):
        source_frames(FakeSource(frames, lose_after=0), 10)
    with pytest.raises(SourceError, match="no frames"):
        source_frames(FakeSource([]), 10)


class _TrayCamera(FakeSource):
    """A live camera over the tray: the empty tray until a player puts dice in it."""

    live = True

    def __init__(self, empty: np.ndarray, with_dice: np.ndarray) -> None:
        super().__init__([empty], name="camera:0", loop=True)
        self.with_dice = with_dice

    def put_dice(self) -> None:
        self.frames = [self.with_dice]


class _Enter:
    """A player at the keyboard: presses Enter once the dice are in."""

    def __init__(self, camera: _TrayCamera) -> None:
        self.camera = camera
        self.pressed = 0

    def readline(self) -> str:
        self.pressed += 1
        self.camera.put_dice()
        return "\n"


def _plug_in(monkeypatch: pytest.MonkeyPatch, camera: FakeSource | None) -> list[str]:
    """A USB webcam at /dev/video0 (or no video device at all when ``camera`` is None);
    returns the sources opened."""
    from web.cli import vision as cli
    from web.runtime import hardware

    webcam = [hardware.VideoDevice("/dev/video0", "HD Pro Webcam C920", "usb", 0)]
    monkeypatch.setattr(cli, "video_devices", lambda: webcam if camera else [])
    monkeypatch.setattr(cli, "pi_model", lambda: None)
    opened: list[str] = []

    def open_source(spec: str, **_: object) -> FakeSource:
        opened.append(spec)
        assert camera is not None and spec == "camera:0"
        return camera

    monkeypatch.setattr(cli, "open_source", open_source)
    return opened


def test_calibrate_finds_the_camera_and_measures_the_dice_once_they_are_in(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`calibrate --setup NAME --dice` at the table: the camera serve would use, the empty
    tray's frames, then (after Enter) a frame with the dice, from the camera still open."""
    camera = _TrayCamera(empty_tray(SHEET), SHEET.image())
    opened = _plug_in(monkeypatch, camera)
    enter = _Enter(camera)
    monkeypatch.setattr("sys.stdin", enter)
    assert run(["calibrate", "--setup", "table", "--dice", "--json"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert opened == ["camera:0"] and enter.pressed == 1
    assert "the camera found: camera:0 (HD Pro Webcam C920)" in captured.err
    assert "press Enter" in captured.err
    assert out["source"] == "camera:0" and out["die_px_from"] == "dice"
    truth = float(np.median([max(w, h) for _, _, w, h in SHEET.boxes]))
    assert Calibration.load("table").die_px == pytest.approx(truth, rel=0.3)


def test_watch_and_calibrate_a_folder_of_unreadable_images(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "0001.jpg").write_bytes(b"not a picture")
    for argv in (["watch", str(tmp_path)], ["calibrate", str(tmp_path), "--setup", "k"]):
        assert run(argv) == 2
        assert "none of its images can be read (0001.jpg" in capsys.readouterr().err


def test_calibrate_dice_from_a_camera_with_no_one_to_press_enter(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Run with its input closed (a script, ssh < /dev/null), `--dice` alone would take
    the empty tray for the dice: a clear error instead, nothing saved."""
    import io

    camera = _TrayCamera(empty_tray(SHEET), SHEET.image())
    _plug_in(monkeypatch, camera)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert run(["calibrate", "--setup", "table", "--dice"]) == 2
    assert "the input is closed" in capsys.readouterr().err
    assert not (setups_dir() / "table").exists()


def test_calibrate_with_no_camera_here_says_so(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _plug_in(monkeypatch, None)
    assert run(["calibrate", "--setup", "table"]) == 2
    err = capsys.readouterr().err
    assert "no camera found" in err and "name the source" in err
    assert run(["watch"]) == 2
    assert "no camera found" in capsys.readouterr().err


def test_calibrate_dice_from_the_same_recording_or_photo(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`--dice` alone with a recording: the frame after the empty tray's; with one photo,
    or a recording with no frame left, a clear error and nothing saved."""
    frames = empty_frames(tmp_path / "rec", count=3)
    cv2.imwrite(str(frames / "03.png"), SHEET.image())
    assert run(["calibrate", f"images:{frames}", "--frames", "3", "--setup", "rec",
                "--dice", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["die_px_from"] == "dice"

    assert run(["calibrate", f"images:{frames}", "--frames", "4", "--setup", "late",
                "--dice"]) == 2
    assert "no frame left for the dice after the 4" in capsys.readouterr().err
    assert run(["calibrate", str(frames / "00.png"), "--setup", "one", "--dice"]) == 2
    assert "give the photo with dice as --dice PHOTO" in capsys.readouterr().err
    assert not (setups_dir() / "late").exists() and not (setups_dir() / "one").exists()


def test_a_setup_keeps_the_cameras_anti_flicker_for_watch_and_serve(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`calibrate camera:0,50hz` keeps 50 Hz with the setup (serve sets it too:
    tests/web/runtime); `watch --setup` opens the camera with it unless told another."""
    import vision.sources as sources
    from web.cli import vision as cli

    camera = _TrayCamera(empty_tray(SHEET), SHEET.image())
    camera.mains_hz = 50  # as CaptureSource sets it from camera:0,50hz
    monkeypatch.setattr(cli, "open_source", lambda spec, **_: camera)
    assert run(["calibrate", "camera:0,50hz", "--setup", "lamp"]) == 0
    assert "anti-flicker at 50 Hz, kept with the setup" in capsys.readouterr().out
    assert Calibration.load("lamp").mains_hz == 50

    opened: list[str] = []

    def open_source(spec: str, **_: object) -> FakeSource:
        opened.append(spec)
        return FakeSource([empty_tray(SHEET)], name=spec)  # a camera that gives one frame

    monkeypatch.setattr(sources, "open_source", open_source)
    for named, expected in (("camera:0", "camera:0,50hz"), ("camera:0,60hz", "camera:0,60hz"),
                            ("/dev/video0", "/dev/video0,50hz")):
        assert run(["watch", named, "--setup", "lamp"]) == 0
        assert opened[-1] == expected
    capsys.readouterr()
    # without the setup it is not set
    assert run(["watch", "camera:0"]) == 0 and opened[-1] == "camera:0"


def test_watch_on_a_camera_without_the_setups_anti_flicker_says_so_and_goes_on(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.sources as sources
    from vision.calibration import quality

    empty = empty_tray(SHEET)
    Calibration("lamp", empty, np.full(empty.shape[:2], 255, np.uint8), 60.0,
                quality(empty), 60).save()
    opened: list[str] = []

    def open_source(spec: str, **_: object) -> FakeSource:
        opened.append(spec)
        if spec.endswith("hz"):
            raise sources.FlickerControlError(f"{spec}: no power line frequency control")
        return FakeSource([empty], name=spec)

    monkeypatch.setattr(sources, "open_source", open_source)
    assert run(["watch", "camera:3", "--setup", "lamp"]) == 0
    assert opened == ["camera:3,60hz", "camera:3"]
    err = capsys.readouterr().err
    assert "without the setup's anti-flicker: camera:3,60hz: no power line" in err
