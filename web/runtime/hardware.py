"""Finding hardware: is this a Raspberry Pi, is there a camera, which source to open.

Nothing here opens a device for long: the camera loop and the serial bridge do that (and
keep retrying). The serial button box is found by ``firmware_bridge.ports`` (pyserial's
``list_ports``: a Pico by USB id, else a ``/dev/serial/by-id`` MicroPython link) and
recognised by the BBP/1 handshake the bridge makes on every connection.
"""

from __future__ import annotations

import glob
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from serial.tools import list_ports

from firmware_bridge.ports import PortNotFound, PortSpec
from vision.sources import SourceError

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


SYS_VIDEO = Path("/sys/class/video4linux")
"""Where the kernel describes each ``/dev/videoN`` node (its name, its bus, its index)."""


@dataclass(frozen=True)
class VideoDevice:
    """One ``/dev/videoN`` node, as the kernel describes it under :data:`SYS_VIDEO`."""

    path: str
    name: str = ""  # the driver's name for it: "HD Pro Webcam C920", "bcm2835-codec-decode"
    bus: str = ""  # "usb" (a webcam), "platform" (a board's own: codecs, ISP, CSI), "" unknown
    index: int = 0  # its place among its device's nodes: a webcam's second only carries metadata
    removable: str = ""  # its USB port, as the kernel knows it: "fixed" (built in),
    # "removable" (a socket), "unknown" or "" (not said)
    in_screen_machine: bool = False  # on a laptop, tablet or all-in-one (screen_machine())

    @property
    def number(self) -> int:
        digits = self.path.rsplit("video", 1)[-1]
        return int(digits) if digits.isdigit() else -1

    @property
    def webcam(self) -> bool:
        """A USB camera's picture node."""
        return self.bus == "usb" and self.index == 0

    @property
    def built_in(self) -> bool:
        """A computer's own camera, which looks at the player, not at a tray: named so, or
        on a USB port fixed to a laptop, tablet or all-in-one (a desktop's firmware may
        call a socket fixed; its webcams are plugged in)."""
        return ("integrated" in self.name.lower()
                or (self.removable == "fixed" and self.in_screen_machine))

    @property
    def source(self) -> str | None:
        """``camera:N`` for a node OpenCV reads pictures from: a device's first node, not a
        board's codec, image processor or raw sensor (None for those)."""
        if self.bus == "platform" or self.index != 0 or self.number < 0:
            return None
        return f"camera:{self.number}"

    @property
    def legacy_pi_camera(self) -> bool:
        """A Pi camera through the old firmware driver (bcm2835-v4l2, before libcamera):
        a V4L2 camera OpenCV reads."""
        return self.name.startswith("mmal service")

    @property
    def pi_camera(self) -> bool:
        """A camera on a Pi's camera connector, through libcamera: the raw nodes of its CSI
        receiver (``unicam`` on a Pi 4 and before, ``rp1-cfe`` on a Pi 5), which appear once
        a camera is detected at boot."""
        return self.name.startswith(("unicam", "rp1-cfe"))


def camera_attached(devices: list[VideoDevice], is_pi: bool) -> bool:
    """A camera is plugged in: a USB webcam, or on a Pi one on its camera connector."""
    if any(d.webcam for d in devices):
        return True
    return is_pi and any(d.pi_camera or d.legacy_pi_camera for d in devices)


def box_attached(comports: Callable[[], Sequence[Any]] = list_ports.comports,
                 by_id: Callable[[], list[str]] | None = None) -> bool:
    """A button box (a Pico running MicroPython) is plugged in by USB."""
    try:
        PortSpec("auto").resolve(comports, by_id)
    except PortNotFound:
        return False
    return True


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return ""


DMI_CHASSIS = Path("/sys/class/dmi/id/chassis_type")
"""The machine's kind, as its firmware tells the kernel (SMBIOS; absent on a Pi)."""

SCREEN_CHASSIS = frozenset({8, 9, 10, 13, 14, 30, 31, 32})
"""SMBIOS chassis types with a screen that has a camera over it: portable, laptop,
notebook, all in one, sub notebook, tablet, convertible, detachable."""


def screen_machine(path: Path = DMI_CHASSIS) -> bool:
    """The machine is a laptop, tablet or all-in-one: its built-in camera faces the user."""
    kind = _read(path)
    return kind.isdigit() and int(kind) in SCREEN_CHASSIS


BY_ID = Path("/dev/v4l/by-id")
"""udev's links to USB cameras by model and serial: the same name whichever order they were
plugged in (``usb-046d_HD_Pro_Webcam_C920_0A1B2C3D-video-index0``)."""


def by_id_links(root: Path = BY_ID) -> dict[str, str]:
    """Each ``/dev/videoN`` that udev names by id, with its ``/dev/v4l/by-id`` link."""
    try:
        links = sorted(root.iterdir())
    except OSError:  # no USB camera, or no udev (a container)
        return {}
    return {str(link.resolve()): str(link) for link in links}


def kind(device: VideoDevice, is_pi: bool) -> str:
    """What a video node is, for a player choosing a camera (``tableside cameras``)."""
    if device.webcam and device.built_in and not is_pi:
        return "this computer's own camera: it faces you, never chosen by itself"
    if device.webcam:
        return "USB camera"
    if device.bus == "usb":
        return "a USB camera's other node (its metadata): no picture"
    if device.pi_camera:
        return "the Pi camera's raw sensor: read it as picamera"
    if device.legacy_pi_camera:
        return "the Pi camera, through the old firmware driver"
    if device.bus == "platform":
        return "the board's video codec or image processor: no camera"
    return "video device"


def video_devices(pattern: str = "/dev/video*", sys_root: Path = SYS_VIDEO,
                  chassis: Path = DMI_CHASSIS) -> list[VideoDevice]:
    """Every ``/dev/videoN`` node, in number order, with what the kernel says of it."""
    in_screen = screen_machine(chassis)
    found = []
    for path in glob.glob(pattern):
        node = sys_root / Path(path).name
        index = _read(node / "index")
        subsystem = node / "device" / "subsystem"
        bus = subsystem.resolve().name if subsystem.exists() else ""
        # a USB camera's node belongs to one interface of the USB device, which says
        # whether it sits on a port built into the machine
        removable = _read((node / "device").resolve().parent / "removable") if bus == "usb" else ""
        found.append(VideoDevice(path, _read(node / "name"), bus,
                                 int(index) if index.isdigit() else 0, removable, in_screen))
    return sorted(found, key=lambda d: (d.number, d.path))


def camera_spec(requested: str | None, devices: list[VideoDevice] | None = None,
                is_pi: bool = False) -> str | None:
    """The source to open: what was asked (``none`` turns the camera off), else the first
    USB camera (``camera:N``), else on a Pi its own camera (``picamera``; ``camera:N`` for
    the old firmware driver's), else (not a Pi) the first video node on no board bus, else
    None.

    A Raspberry Pi always has video nodes that are no camera (its video codecs and image
    processor, /dev/video10 and up; with a Pi camera, the raw sensor nodes /dev/video0 and
    up, which only libcamera, through picamera2, turns into pictures), so on a Pi a node is
    a camera to OpenCV only when it is on USB. A computer's built-in camera
    (:attr:`VideoDevice.built_in`) faces the player, not a tray: it is never chosen by
    itself (a reader looking at a face and a room would read dice that are not there), only
    when named (no Pi has one: there every USB camera counts)."""
    if requested is not None:
        return None if requested == "none" else requested
    devices = video_devices() if devices is None else devices
    if webcams := [d for d in devices if d.webcam and (is_pi or not d.built_in)]:
        return f"camera:{webcams[0].number}"
    if is_pi:
        legacy = [d for d in devices if d.legacy_pi_camera]
        return f"camera:{legacy[0].number}" if legacy else "picamera"
    others = [d for d in devices if d.source is not None and not d.built_in]
    return others[0].source if others else None


def no_camera_found(devices: list[VideoDevice] | None = None,
                    ask: str = "start with --camera SOURCE") -> str:
    """Why no camera was chosen, naming the video nodes that are not cameras, or the
    computer's own camera; ``ask``: how to name one instead."""
    devices = video_devices() if devices is None else devices
    message = "no camera found"
    if not devices:
        return f"{message} (no /dev/video* device): plug one in, or {ask}"
    if own := [d for d in devices if d.webcam and d.built_in]:
        return (f"{message} over a tray: only this computer's own camera ({own[0].path}, "
                f"{own[0].name or 'built in'}), which faces you; plug a webcam in over the "
                f"tray, or {ask} (camera:{own[0].number} for this one)")
    named = ", ".join(f"{d.path} ({d.name or d.bus or 'unknown'})" for d in devices[:6])
    more = f" and {len(devices) - 6} more" if len(devices) > 6 else ""
    return (f"{message}: the video devices here are not USB cameras ({named}{more}); plug "
            f"one in, or {ask}")


def camera_label(spec: str, devices: list[VideoDevice]) -> str:
    """The source with what the kernel calls its camera: ``camera:2 (HD Pro Webcam C920)``,
    ``camera:2,50hz (HD Pro Webcam C920)``, ``/dev/video2 (HD Pro Webcam C920)``."""
    base = spec.split(",", 1)[0]
    node = next((d for d in devices
                 if base in (f"camera:{d.number}", d.path) and d.name), None)
    return spec if node is None else f"{spec} ({node.name})"


def found_camera(devices: list[VideoDevice] | None = None, is_pi: bool = False,
                 ask: str = "start with --camera SOURCE") -> str:
    """The camera to open when none is named (:func:`camera_spec`), for ``serve`` and for
    ``calibrate`` and ``watch`` alike; :class:`SourceError` saying why when there is none."""
    devices = video_devices() if devices is None else devices
    spec = camera_spec(None, devices, is_pi=is_pi)
    if spec is None:
        raise SourceError(no_camera_found(devices, ask))
    return spec
