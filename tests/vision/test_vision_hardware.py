from __future__ import annotations

import pytest

from vision.calibration import quality
from vision.reader import DiceReader
from vision.sources import FrameSource, SourceError, open_source


def opened_or_skip(spec: str, missing: str) -> FrameSource:
    """The camera ``spec`` names, opened; the test skipped (``missing``) where there is none."""
    try:
        return open_source(spec)
    except SourceError:
        pytest.skip(missing)


@pytest.mark.hardware
def test_real_camera_delivers_frames_that_can_be_read() -> None:
    with opened_or_skip("camera:0", "no camera at camera:0") as source:
        frames = [source.read() for _ in range(5)]
    assert all(f is not None and f.image.ndim == 3 for f in frames)
    last = frames[-1]
    assert last is not None
    assert [f.index for f in frames if f is not None] == [0, 1, 2, 3, 4]
    report = quality(last.image)
    assert 0.0 <= report.brightness <= 1.0
    read = DiceReader("d6").read(last.image, last.ref)
    assert all(d.face in {"1", "2", "3", "4", "5", "6"} for d in read.dice)


@pytest.mark.hardware
def test_real_pi_camera_delivers_frames() -> None:
    with opened_or_skip("picamera", "no Raspberry Pi camera (or no picamera2)") as source:
        frame = source.read()
    assert frame is not None and frame.image.shape[2] == 3


@pytest.mark.hardware
def test_calibrate_finds_the_tables_camera_by_itself(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`tableside calibrate --setup NAME` with no source, at the table: the camera serve
    would open is found, opened and reported on (nothing saved)."""
    from tests.vision.test_vision_cli import run
    from web.runtime.hardware import found_camera, pi_model

    try:
        found_camera(is_pi=pi_model() is not None)
    except SourceError:
        pytest.skip("no camera here")
    status = run(["calibrate", "--setup", "hardware-test", "--no-save", "--json"])
    captured = capsys.readouterr()
    assert "the camera found:" in captured.err
    assert status in (0, 1), captured.err  # 1: something lies on the tray; still a report
    assert '"quality"' in captured.out


@pytest.mark.hardware
def test_a_real_webcam_takes_its_anti_flicker_or_says_it_has_none() -> None:
    opened_or_skip("camera:0", "no camera at camera:0").close()
    try:
        source = open_source("camera:0,50hz")
    except SourceError as exc:
        assert "anti-flicker" in str(exc)
        return
    with source:
        assert source.read() is not None


@pytest.mark.hardware
def test_a_real_webcam_with_autofocus_holds_its_lens_after_finding_the_tray() -> None:
    import time

    import cv2

    from vision.sources import FOCUS_SECONDS

    with opened_or_skip("camera:0", "no camera at camera:0") as source:
        had_autofocus = source._cap.get(cv2.CAP_PROP_AUTOFOCUS) == 1.0
        deadline = time.monotonic() + FOCUS_SECONDS + 1.0
        while time.monotonic() < deadline:
            assert source.read() is not None
        assert source.focus_held == had_autofocus
        if had_autofocus:
            assert source._cap.get(cv2.CAP_PROP_AUTOFOCUS) == 0.0


@pytest.mark.hardware
def test_a_real_webcam_read_after_a_pause_gives_a_frame_taken_after_the_pause() -> None:
    """No frame kept in V4L2's queue from before (``CAMERA_BUFFERS``): the driver stamps
    each frame with when it was taken (OpenCV's ``CAP_PROP_POS_MSEC``)."""
    import time

    import cv2

    with opened_or_skip("camera:0", "no camera at camera:0") as source:
        for _ in range(5):
            assert source.read() is not None
        before = source._cap.get(cv2.CAP_PROP_POS_MSEC)
        time.sleep(0.3)
        assert source.read() is not None
        assert source._cap.get(cv2.CAP_PROP_POS_MSEC) - before > 250
