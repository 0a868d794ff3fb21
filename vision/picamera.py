"""A Raspberry Pi camera through picamera2 (``picamera``, ``picamera:N``, ``picamera:50hz``;
:func:`vision.sources.open_source`), which is imported only when one is asked for: it
ships with Raspberry Pi OS, not from PyPI."""

from __future__ import annotations

import importlib
import logging
import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from vision.sources import (
    CAMERA_SIZE,
    IN_USE_HINT,
    FlickerControlError,
    Frame,
    FrameSource,
    SourceError,
    SourceLost,
)

log = logging.getLogger(__name__)


AF_MODE_AUTO = 1
"""libcamera's ``AfModeEnum.Auto``: the lens moves only when a focus cycle is asked for."""

FLICKER_MANUAL = 1
"""libcamera's ``AeFlickerModeEnum.FlickerManual``: exposures kept to multiples of the
``AeFlickerPeriod`` given, so a lamp flickering at that period lights every row alike."""


LENS_DEGREES = {
    "ov5647": 53.5,  # Camera Module 1
    "imx219": 62.2,  # Camera Module 2 (and its NoIR)
    "imx708": 66.0,  # Camera Module 3
    "imx708_noir": 66.0,
    "imx708_wide": 102.0,  # Camera Module 3 Wide
    "imx708_wide_noir": 102.0,
}
"""The horizontal angle of view of the Raspberry Pi camera modules with a lens of their
own, by the sensor model picamera2 names (``camera_properties["Model"]``), from the
modules' published specifications: across the sensor's whole active width. A picture
read from part of that width (the sensor mode's crop, ``ScalerCrop`` in a frame's
metadata, in the active area's pixels) spans a narrower angle (:func:`lens_of`). The HQ
and Global Shutter cameras take any lens: not known, as a webcam's is not (``calibrate
--lens`` gives it)."""


def lens_of(model: object, crop_width: float | None = None,
            active_width: float | None = None) -> float | None:
    """The angle across a picture of a sensor model picamera2 names (None: not known):
    :data:`LENS_DEGREES`, or where the picture is read from ``crop_width`` of the sensor's
    ``active_width`` pixels, the narrower angle that part spans."""
    degrees = LENS_DEGREES.get(str(model).strip().lower()) if model else None
    if degrees is None or not crop_width or not active_width or crop_width >= active_width:
        return degrees
    half = math.tan(math.radians(degrees) / 2) * crop_width / active_width
    return round(math.degrees(2 * math.atan(half)), 1)


def _active_width(properties: dict[str, Any]) -> float | None:
    """The sensor's active width in pixels, from picamera2's ``camera_properties``."""
    areas = properties.get("PixelArrayActiveAreas")
    try:
        if areas:
            return float(areas[0][2])
        size = properties.get("PixelArraySize")
        return float(size[0]) if size else None
    except (TypeError, ValueError, IndexError):
        return None


def flicker_period_us(mains_hz: int) -> int:
    """A mains lamp flickers at twice the mains frequency: 10,000 us at 50 Hz, 8,333 at 60."""
    return round(1_000_000 / (2 * mains_hz))


class PicameraSource(FrameSource):
    """A Raspberry Pi camera through picamera2 (imported only here, when asked).

    ``number``: which camera (a Pi 5 takes two). ``mains_hz`` (50 or 60): expose in
    multiples of the mains lamps' flicker, so they cross the picture with no bands. A
    camera that focuses (Camera Module 3) focuses once on the tray each time it opens, then
    holds the lens still: a lens that kept hunting would change the picture of a tray at
    rest (``focused`` says whether the cycle found a sharp picture; None: a fixed lens)."""

    def __init__(
        self, size: tuple[int, int] = CAMERA_SIZE, clock: Callable[[], float] = time.monotonic,
        module: Any = None, number: int = 0, mains_hz: int | None = None,
    ) -> None:
        super().__init__(clock)
        options = ([str(number)] if number else []) + ([f"{mains_hz}hz"] if mains_hz else [])
        self.name = "picamera" + (":" + ",".join(options) if options else "")  # its spec
        self.live = True
        self.size = size
        self.number = number
        self.mains_hz = mains_hz
        self.focused: bool | None = None
        if module is None:
            try:
                module = importlib.import_module("picamera2")
            except ImportError:
                raise SourceError(
                    "picamera needs the picamera2 package, which ships with Raspberry Pi OS "
                    "(sudo apt install python3-picamera2; create the venv with "
                    "--system-site-packages, as make does on a Pi). On other machines use "
                    "camera:0."
                ) from None
            except Exception as exc:  # found, but a compiled part of it will not load
                raise SourceError(
                    f"picamera2 is installed but will not load ({type(exc).__name__}: {exc}). "
                    "Raspberry Pi OS builds it for its own NumPy 1.x: in a venv with NumPy "
                    "2, install simplejpeg into the venv (.venv/bin/pip install "
                    "--force-reinstall simplejpeg; make does it on a Pi)."
                ) from None
        self._module = module
        self._cam: Any = None
        self._open()

    def _open(self) -> None:
        try:
            cam = self._module.Picamera2(self.number)
        except Exception as exc:  # picamera2 raises many kinds when no camera is attached
            raise SourceError(f"{self.name}: cannot start the camera ({exc}; "
                              f"{IN_USE_HINT})") from None
        self._cam = cam
        try:
            properties = dict(getattr(cam, "camera_properties", None) or {})
            available = dict(getattr(cam, "camera_controls", None) or {})
            controls: dict[str, int] = {}
            if self.mains_hz is not None:
                if "AeFlickerPeriod" not in available:
                    raise FlickerControlError(
                        f"{self.name}: this camera (or its libcamera) has no anti-flicker "
                        f"control: leave out ,{self.mains_hz}hz, or light the tray with a "
                        "flicker-free lamp")
                controls = {"AeFlickerMode": FLICKER_MANUAL,
                            "AeFlickerPeriod": flicker_period_us(self.mains_hz)}
            config = cam.create_video_configuration(
                main={"size": self.size, "format": "RGB888"}, controls=controls)
            cam.configure(config)
            cam.start()
            model = properties.get("Model")
            # the crop asked of a frame only for a module whose lens is known
            self.lens_degrees = lens_of(model, self._crop_width(cam), _active_width(
                properties)) if lens_of(model) is not None else None
        except SourceError:
            self._stop()  # let the camera go: another program may want it
            raise
        except Exception as exc:
            self._stop()
            raise SourceError(f"{self.name}: cannot start the camera ({exc})") from None
        self.focused = self._focus(cam) if "AfMode" in available else None

    @staticmethod
    def _crop_width(cam: Any) -> float | None:
        """The width of the sensor the pictures are read from (a frame's ``ScalerCrop``), or
        None where the camera does not say."""
        try:
            crop = dict(cam.capture_metadata() or {}).get("ScalerCrop")
            return float(crop[2]) if crop else None
        except Exception as exc:  # a camera without the metadata: its whole width
            log.debug("picamera: no ScalerCrop in its metadata (%s)", exc)
            return None

    def _focus(self, cam: Any) -> bool:
        """One focus cycle on the tray, the lens then held (``AfMode`` Auto)."""
        try:
            focused = bool(cam.autofocus_cycle())
        except Exception as exc:  # the camera still delivers; its picture may be soft
            log.warning("%s: the focus cycle failed (%s)", self.name, exc)
            return False
        if not focused:
            log.warning("%s: the focus cycle found no sharp picture of the tray; check the "
                        "empty tray's picture (tableside calibrate)", self.name)
        return focused

    def refocus(self) -> bool:
        """One more focus cycle, on what the camera sees now (a camera that focuses)."""
        if self._cam is None or self.focused is None:
            return False
        self.focused = self._focus(self._cam)
        return True

    def read(self) -> Frame | None:
        self._check_open()
        if self._cam is None:
            raise SourceLost(f"{self.name}: lost; call reopen()")
        try:
            image = self._cam.capture_array()
        except Exception as exc:  # the camera went away mid-stream
            self._stop()
            raise SourceLost(f"{self.name}: the camera stopped delivering frames ({exc})") from None
        return self._frame(np.ascontiguousarray(image[..., :3]))

    def _stop(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
                self._cam.close()
            except Exception:  # closing a vanished camera may fail; it is gone either way
                log.debug("%s: closing the camera failed", self.name, exc_info=True)
            self._cam = None

    def reopen(self) -> None:
        super().reopen()
        self._stop()
        self._open()

    def close(self) -> None:
        self._stop()
        super().close()


def picamera_options(spec: str) -> tuple[int, int | None]:
    """``picamera``, ``picamera:N`` (the camera's number), ``picamera:50hz`` or ``:60hz``
    (the mains frequency, against flicker), or both: ``picamera:1,50hz`` -> (number, mains);
    :class:`SourceError` saying what is expected for anything else."""
    number, mains = 0, None
    options = spec.split(":", 1)[1].split(",") if ":" in spec else []
    for option in (o.strip().lower() for o in options):
        if option.isdigit() and option not in ("50", "60"):  # no Pi has 50 cameras
            number = int(option)
        elif option in ("50hz", "60hz"):
            mains = int(option[:2])
        else:
            hint = f"for a mains of {option} Hz write {option}hz; " if option.isdigit() else ""
            raise SourceError(f"{spec}: {hint}expected picamera, picamera:N (the camera's "
                              "number), picamera:50hz or picamera:60hz (your mains, against "
                              "a lamp's flicker), or both (picamera:1,50hz)")
    return number, mains


def picamera_source(spec: str, clock: Callable[[], float]) -> PicameraSource:
    """The Pi camera a ``picamera...`` source string names (:func:`picamera_options`)."""
    number, mains = picamera_options(spec)
    return PicameraSource(clock=clock, number=number, mains_hz=mains)
