"""The running table reads its camera's pip dice at the size the camera's rolls taught
when no tray setup gives one (vision/camerasize.py); a setup's size, and a phone's photo,
are read as before."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.test_vision_camerasize import TRAY, low_camera, right_and_sure
from tests.web.runtime.test_runtime_camera import runtime_with
from vision.calibration import calibrate
from vision.sources import FakeSource
from web.runtime.dicereaders import DiceReaders


def test_the_camera_without_a_setup_reads_at_the_size_its_rolls_taught() -> None:
    frame, dice, size = low_camera(TRAY, 2.5)
    readers = DiceReaders()
    photo = readers.read("d6", frame, "photo", photo=True)  # read at several sizes itself
    assert readers.camera_size.searches == 0
    first = readers.read("d6", frame, "frame-1")
    second = readers.read("d6", frame, "frame-2")
    assert readers.camera_size.searches == 1
    assert second.die_px == readers.camera_size.size("d6") == first.die_px == photo.die_px
    assert right_and_sure(second, dice)[1] == 0
    assert right_and_sure(second, dice)[0] >= len(dice) - 1

    setup = calibrate("low", [np.full_like(frame, 235)])
    told = readers.read("d6", frame, "frame-3", setup)  # the setup's size, as told
    assert told.die_px == setup.die_px != size
    assert readers.camera_size.searches == 1


def test_a_camera_opened_again_learns_its_dice_s_size_anew(seafall_services, tmp_path) -> None:
    """Plugged back in, the camera may be another one, or hang elsewhere: what the last
    one's rolls taught is not kept."""
    frame, _, _ = low_camera(TRAY, 2.5)
    cv2.imwrite(str(tmp_path / "0001.png"), frame)
    runtime = runtime_with(seafall_services, lambda: FakeSource([frame], name="camera:9"))
    readers = seafall_services.dice().readers
    readers.read("d6", frame, "frame-1")
    assert readers.camera_size.size("d6") is not None
    with runtime._open_camera(f"images:{tmp_path}", []):
        assert readers.camera_size.size("d6") is None
