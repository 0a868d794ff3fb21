"""Finding hardware: is this a Raspberry Pi, is there a camera, which source to open.

Nothing here opens a device for long: the camera loop and the serial bridge do that (and
keep retrying). The serial button box is found by ``firmware_bridge.ports`` (pyserial's
``list_ports``: a Pico by USB id, else a ``/dev/serial/by-id`` MicroPython link) and
recognised by the BBP/1 handshake the bridge makes on every connection.
"""

from __future__ import annotations

import glob
from pathlib import Path

DEVICE_TREE_MODEL = Path("/proc/device-tree/model")
DETECT = "detect"  # look for it (rather than being told)

# BCM pins of docs/hardware.md "Wiring buttons and LEDs to the Pi's GPIO"
GPIO_BUTTONS = (17, 27, 22, 23, 24, 25, 5, 6)
GPIO_LEDS = (12, 13, 19, 26)


def pi_model(path: Path = DEVICE_TREE_MODEL) -> str | None:
    """The board's model when it is a Raspberry Pi (from the device tree), else None."""
    try:
        model = path.read_bytes().rstrip(b"\0").decode("ascii", "replace").strip()
    except OSError:
        return None
    return model if model.startswith("Raspberry Pi") else None


def video_devices(pattern: str = "/dev/video*") -> list[str]:
    return sorted(glob.glob(pattern))


def camera_spec(requested: str | None, devices: list[str] | None = None,
                is_pi: bool = False) -> str | None:
    """The source to open: what was asked (``none`` turns the camera off), else
    ``camera:0`` when a video device exists, else ``picamera`` on a Pi, else None."""
    if requested is not None:
        return None if requested == "none" else requested
    devices = video_devices() if devices is None else devices
    if devices:
        return "camera:0"
    if is_pi:
        return "picamera"
    return None
