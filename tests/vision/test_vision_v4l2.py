"""A webcam's anti-flicker (``vision/v4l2.py``): the ioctl Tableside sends, checked against
the kernel's numbers, and what a camera without the setting answers."""

from __future__ import annotations

import errno
import struct
from pathlib import Path
from typing import Any

import pytest

from tests.vision.test_vision_sources import FakeCapture
from vision import v4l2
from vision.sources import SourceError, open_source


def test_the_request_is_the_kernels() -> None:
    # include/uapi/linux/videodev2.h: VIDIOC_S_CTRL _IOWR('V', 28, struct v4l2_control),
    # v4l2-controls.h: V4L2_CID_POWER_LINE_FREQUENCY (V4L2_CID_BASE+24), 1 = 50 Hz, 2 = 60 Hz
    assert v4l2.VIDIOC_S_CTRL == 0xC008561C
    assert v4l2.V4L2_CID_POWER_LINE_FREQUENCY == 0x00980918
    assert v4l2.POWER_LINE == {50: 1, 60: 2}


@pytest.mark.parametrize(("mains", "value"), [(50, 1), (60, 2)])
def test_the_control_is_set_on_the_device_node(tmp_path: Path, mains: int, value: int) -> None:
    node = tmp_path / "video0"
    node.touch()
    sent: list[tuple[int, tuple[int, int]]] = []

    def ioctl(fd: int, request: int, arg: bytes) -> bytes:
        assert fd >= 0
        sent.append((request, struct.unpack("=Ii", arg)))
        return arg

    v4l2.set_power_line(str(node), mains, ioctl=ioctl)
    assert sent == [(0xC008561C, (0x00980918, value))]


def test_a_camera_without_the_setting_or_a_node_that_is_none_says_so(tmp_path: Path) -> None:
    node = tmp_path / "video0"
    node.touch()

    def no_such_control(fd: int, request: int, arg: bytes) -> bytes:
        raise OSError(errno.EINVAL, "Invalid argument")

    with pytest.raises(v4l2.ControlError, match="has no 50 Hz anti-flicker setting"):
        v4l2.set_power_line(str(node), 50, ioctl=no_such_control)
    # the real ioctl on a file that is no video device: the kernel refuses it (ENOTTY)
    with pytest.raises(v4l2.ControlError, match="has no 60 Hz anti-flicker setting"):
        v4l2.set_power_line(str(node), 60)
    with pytest.raises(v4l2.ControlError, match="cannot open it"):
        v4l2.set_power_line(str(tmp_path / "video9"), 50)


def test_a_webcam_source_sets_its_anti_flicker_each_time_it_opens(monkeypatch) -> None:
    """`camera:N,50hz`: set on /dev/videoN when the camera opens, and again when it is back
    (a camera plugged in again has forgotten it)."""
    set_on: list[tuple[str, int]] = []
    monkeypatch.setattr(v4l2, "set_power_line", lambda node, hz: set_on.append((node, hz)))
    captures: list[FakeCapture] = []

    def factory(target: Any) -> FakeCapture:
        captures.append(FakeCapture())
        return captures[-1]

    with open_source("camera:2,60hz", capture_factory=factory) as source:
        assert source.read() is not None and source.name == "camera:2,60hz"
        captures[-1].plugged = False
        with pytest.raises(SourceError):
            for _ in range(10):
                source.read()
        source.reopen()
    assert set_on == [("/dev/video2", 60), ("/dev/video2", 60)]
    open_source("/dev/video4,50HZ", capture_factory=factory).close()
    assert set_on[-1] == ("/dev/video4", 50)
    open_source("camera:0", capture_factory=factory).close()  # left as the camera has it
    assert len(set_on) == 3


def test_a_webcam_that_will_not_take_it_is_a_clear_error_and_let_go(monkeypatch) -> None:
    def refuse(node: str, hz: int) -> None:
        raise v4l2.ControlError(f"{node}: this camera has no {hz} Hz anti-flicker setting")

    monkeypatch.setattr(v4l2, "set_power_line", refuse)
    made: list[FakeCapture] = []

    def factory(target: Any) -> FakeCapture:
        made.append(FakeCapture())
        return made[-1]

    with pytest.raises(SourceError, match=r"no 50 Hz anti-flicker setting: leave out ,50hz"):
        open_source("camera:0,50hz", capture_factory=factory)
    assert made[-1].released  # another program may want the camera


@pytest.mark.parametrize("spec", ["camera:0,55hz", "camera:0,", "/dev/video0,fast",
                                  "camera:x,50hz"])
def test_a_bad_anti_flicker_option_says_what_is_expected(spec: str) -> None:
    with pytest.raises(SourceError, match="50hz or"):
        open_source(spec, capture_factory=lambda t: FakeCapture())
