"""A USB webcam's anti-flicker setting, through the kernel's V4L2 interface.

OpenCV's ``VideoCapture`` has no property for it, so it is set on the device node directly
with the ``VIDIOC_S_CTRL`` ioctl (what ``v4l2-ctl -c power_line_frequency=1`` does). A
V4L2 device may be opened more than once: the control is set on a second handle beside
OpenCV's, and holds for the camera until it is unplugged (so a source sets it again each
time it opens the camera).

Numbers from the kernel's ``include/uapi/linux/videodev2.h`` and ``v4l2-controls.h``.
"""

from __future__ import annotations

import errno
import fcntl
import os
import struct
from collections.abc import Callable
from typing import Any

V4L2_CID_POWER_LINE_FREQUENCY = 0x00980900 + 24
"""``V4L2_CID_BASE + 24``: a menu of 0 (off), 1 (50 Hz), 2 (60 Hz), 3 (auto)."""

POWER_LINE = {50: 1, 60: 2}
"""The menu's value for each mains frequency."""

VIDIOC_S_CTRL = (3 << 30) | (8 << 16) | (ord("V") << 8) | 28
"""``_IOWR('V', 28, struct v4l2_control)``: the control's id and value, two 32-bit ints."""


class ControlError(OSError):
    """The camera would not take the setting; the message says why, for the player."""


def set_power_line(path: str, mains_hz: int,
                   ioctl: Callable[[int, int, bytes], Any] = fcntl.ioctl) -> None:
    """Set the webcam at ``path`` to expose against lamps flickering at ``mains_hz`` (50 or
    60). :class:`ControlError` if it has no such control or cannot be opened."""
    value = POWER_LINE[mains_hz]
    try:
        fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
    except OSError as exc:
        raise ControlError(f"{path}: cannot open it to set its anti-flicker "
                           f"({exc.strerror})") from None
    try:
        ioctl(fd, VIDIOC_S_CTRL, struct.pack("=Ii", V4L2_CID_POWER_LINE_FREQUENCY, value))
    except OSError as exc:
        if exc.errno in (errno.EINVAL, errno.ENOTTY, errno.ERANGE):
            raise ControlError(f"{path}: this camera has no {mains_hz} Hz anti-flicker "
                               "setting") from None
        raise ControlError(f"{path}: setting its anti-flicker failed ({exc.strerror})") from None
    finally:
        os.close(fd)
