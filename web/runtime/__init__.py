"""The runtime: camera, button boxes and dice reads wired to the open tables.

:class:`Runtime` is what ``tableside serve`` starts beside the web server:

* the **camera loop** (:mod:`web.runtime.camera`): a frame source, settle detection, then a
  dice read (:mod:`web.runtime.dice`) for the roll prompt of the table in focus
  (:mod:`web.runtime.focus`), applied at once or left pending for the phones, by the
  die's reader and profile (:mod:`web.runtime.dicereaders`);
* the **button boxes** (:mod:`web.runtime.boxes`): the serial box, GPIO buttons on a Pi,
  answering the focused table's prompts through :class:`web.buttons.TableButtons`;
* **supervision**: each part runs on its own thread, retries with backoff when its hardware
  is absent or goes away, and reports a state (:mod:`web.runtime.status`) for
  ``GET /api/hardware``. ``stop()`` ends every thread within a bounded time.

Hardware discovery (:mod:`web.runtime.hardware`): a camera is opened only if a
``/dev/video*`` device exists (or ``picamera`` on a Pi), looked for again while absent; the
serial box is found by USB id and recognised by its handshake; GPIO is used only on a Pi.
``--demo`` swaps in a recording and a simulated box (:mod:`web.runtime.demo`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.errors import IllegalCommand
from companion.store.backup import BACKUPS_DIR
from companion.table import Table
from firmware_bridge.bridge import SerialBridge
from firmware_bridge.gpio import GpioButtonBox, GpioUnavailable, pi_pin_factory
from firmware_bridge.ports import PortSpec
from vision.calibration import (
    Calibration,
    CalibrationCheck,
    check,
    in_use,
    kept_setups,
    measured,
    remember_in_use,
    restore_setup,
)
from vision.said import message, said_of
from vision.settle import SettleDetector
from vision.sources import FOCUS_SECONDS, Frame, FrameSource, SourceError, open_for_setup
from web.runtime import hardware
from web.runtime.boxes import ButtonBoxes
from web.runtime.camera import TURNED_OFF as CAMERA_OFF
from web.runtime.camera import CameraLoop
from web.runtime.focus import Focus
from web.runtime.power import PowerStatus, read_power
from web.runtime.status import (
    ABSENT,
    GPIO_NOT_A_PI,
    GPIO_PINS,
    GPIO_TURNED_OFF,
    OFF,
    RUNNING,
    Cached,
    CameraStatus,
    GpioStatus,
    software_box_json,
)
from web.runtime.storage import StorageStatus, read_storage

log = logging.getLogger(__name__)

# why the host's camera actions are refused (vision.said: said in the page's language)
NOTHING_TO_REREAD = message(
    "camera.nothing_to_reread",
    "nothing to read again: no camera read of this roll waits for the table, or the camera "
    "is not running")()
DEMO_RECORDING = message("camera.demo_recording", "demo recording ({seconds} s, looping)")
"""The demo's recorded camera, as its status names the source (said in a page's language)."""
CAMERA_IS_OFF = message("camera.is_off", "the camera is turned off (--camera none)")()
CANNOT_CHECK = message("camera.cannot_check", "cannot check the tray: {why}")
CHECK_FIRST = message(
    "camera.check_first", "check the empty tray first: the dice are measured on its setup")()
CANNOT_MEASURE = message("camera.cannot_measure", "cannot measure the dice: {why}")
NO_EARLIER_SETUP = message(
    "camera.no_earlier_setup", "no earlier tray setup is kept for this camera")()


TRAY_CHECK_FRAMES = 10
"""Frames of the empty tray a tray check takes from the running camera (a third of a
second at 30 fps; their median is the background)."""

TRAY_CHECK_SECONDS = 5.0
"""How long a tray check waits for those frames before saying the camera gives none."""


def tray_setup(wanted: str | None, remembered: bool = True) -> Calibration | None:
    """The tray setup the camera reads with: the one named (``ValueError``, saying how to
    calibrate it, when it cannot be loaded), none for "none", else (``remembered``) the one
    last calibrated or checked, if it still loads (docs/runtime.md)."""
    if wanted == "none":
        return None
    if wanted is not None:
        return Calibration.load(wanted)
    if not remembered:
        return None
    try:
        name = in_use()
        return None if name is None else Calibration.load(name)
    except ValueError as exc:  # damaged, or its setup gone or damaged: read without one
        log.warning("not reading with the last tray setup: %s", exc)
        return None


@dataclass(frozen=True)
class RuntimeOptions:
    demo: bool = False
    camera: str | None = None  # None: look for one; "none": off; else a source spec
    box: str | None = None  # None: look for one ("auto"); "none": off; else a port
    gpio: bool = True  # used only on a Raspberry Pi
    setup: str | None = None  # a calibrated tray (vision.calibration) for the camera


class Runtime:
    def __init__(self, services: Any, options: RuntimeOptions = RuntimeOptions(), *,
                 camera_factory: Callable[[], FrameSource] | None = None,
                 camera_spec: str | None = None, bridge: SerialBridge | None = None,
                 pi_model: str | None = hardware.DETECT,
                 video_devices: list[hardware.VideoDevice] | None = None,
                 box_found: Callable[[], bool] | None = None,
                 power: Callable[[], PowerStatus | None] = read_power,
                 storage: Callable[[], StorageStatus | None] | None = None) -> None:
        """``camera_factory``, ``bridge``, ``pi_model`` (None: not a Pi), ``video_devices``,
        ``box_found``, ``power`` (the Pi's power and heat) and ``storage`` (the room on the
        disk holding the games) replace discovery (tests); by default the hardware is
        looked for, and the disk is the one of ``services.data_dir`` (none: no part).

        With ``options.demo`` the recorded camera and the simulated box stand in for the
        ones not given; on a Pi, only for those not plugged in (``recorded_camera``,
        ``simulated_box``)."""
        self.services = services
        self.options = options
        self.focus = Focus(services.tables.opened)
        self.model = hardware.pi_model() if pi_model == hardware.DETECT else pi_model
        self._devices = video_devices
        self._found = "auto"  # the camera found last (auto): its source and name
        self._demo_box: Any = None
        self._stopped = threading.Event()
        # the demo stands in for the hardware a Pi does not have (docs/runtime.md, Demo mode)
        on_pi = self.model is not None
        self.recorded_camera = (options.demo and options.camera is None and camera_factory is None
                                and not (on_pi and hardware.camera_attached(self._video(), True)))
        self.simulated_box = (options.demo and options.box is None and bridge is None
                              and not (on_pi and (box_found or hardware.box_attached)()))
        # the demo's recorded camera is not the table's: it reads with no remembered setup,
        # and a setup made on it is kept for this run only (never saved or remembered)
        self._keeps_setups = not self.recorded_camera
        self.setup = tray_setup(options.setup, remembered=not self.recorded_camera)
        self.camera = self._make_camera(camera_factory, camera_spec)
        self.boxes = self._make_boxes(bridge)
        self.power = Cached(power)
        self.storage = Cached(storage or self._read_storage)

    def _read_storage(self) -> StorageStatus | None:
        folder = self.services.data_dir
        if folder is None:  # the games are kept in memory: no disk to fill
            return None
        reads = self.services.dice().store
        return read_storage(folder, lambda: (reads.frames_bytes(), reads.frames_budget),
                            backups=folder / BACKUPS_DIR,
                            failing=getattr(self.services, "storage_failing", False))

    # -- building the parts -------------------------------------------------------------------
    def _make_camera(self, factory: Callable[[], FrameSource] | None,
                     spec: str | None) -> CameraLoop | None:
        def loop(name: str, source: Callable[[], FrameSource], **options: Any) -> CameraLoop:
            return CameraLoop(name, source, self._on_settled, waiting=self._waiting_for_dice,
                              detector=self._detector, **options)

        if factory is not None:
            return loop(spec or "test", factory)
        if self.recorded_camera:
            from web.runtime.demo import recording_dir
            from web.runtime.recording import RecordedSource, Recording

            recording = Recording.load(recording_dir())
            return loop(DEMO_RECORDING(seconds=round(recording.seconds)),
                        lambda: RecordedSource(recording, loop=True, pace=self._stopped.wait))
        if self.options.camera == "none":
            return None
        if self.options.camera is not None:
            wanted = self.options.camera
            self._found = wanted
            return loop(wanted, lambda: self._open_camera(wanted, self._video()),
                        min_period=0.05, label=lambda: self._found)
        return loop("auto", self._auto_camera, min_period=0.05, label=lambda: self._found)

    def _detector(self) -> SettleDetector:
        """A settle detector, given the setup's empty tray and die size when there is one."""
        if self.setup is None:
            return SettleDetector(clock=time.monotonic)
        return SettleDetector(clock=time.monotonic, background=self.setup.background,
                              die_px=self.setup.die_px)

    def _video(self) -> list[hardware.VideoDevice]:
        return hardware.video_devices() if self._devices is None else self._devices

    def _auto_camera(self) -> FrameSource:
        devices = self._video()
        spec = hardware.found_camera(devices, is_pi=self.model is not None)
        self._found = hardware.camera_label(spec, devices)
        return self._open_camera(spec, devices)

    def _open_camera(self, spec: str, devices: list[hardware.VideoDevice]) -> FrameSource:
        """The camera, with the anti-flicker its tray setup was calibrated with unless its
        source names one (a camera without that setting opens without it, logged)."""
        source = open_for_setup(
            spec, self.setup.mains_hz if self.setup is not None else None,
            refused=lambda why: log.warning("the camera opens without the tray setup's "
                                            "anti-flicker: %s", why))
        self._found = hardware.camera_label(source.name, devices)
        # another camera, or the same one put back elsewhere: its dice's size is learned anew
        self.services.dice().readers.camera_size.forget()
        return source

    def _make_boxes(self, bridge: SerialBridge | None) -> ButtonBoxes:
        port = self.options.box
        simulated = False
        if bridge is None and port != "none":
            if self.simulated_box:
                from web.runtime.demo import DemoBox

                self._demo_box = DemoBox().plug()
                port = str(self._demo_box.link)
                simulated = True
            bridge = SerialBridge(PortSpec(port or "auto"))
        gpio, gpio_status = self._make_gpio()
        return ButtonBoxes(self.services, self.focus, bridge=bridge, port=port or "auto",
                           simulated=simulated, gpio=gpio, gpio_status=gpio_status)

    def _make_gpio(self) -> tuple[GpioButtonBox | None, GpioStatus]:
        status = GpioStatus(is_pi=self.model is not None, model=self.model,
                            buttons=list(hardware.GPIO_BUTTONS), leds=list(hardware.GPIO_LEDS))
        if self.model is None:
            status.detail = GPIO_NOT_A_PI
            return None, status
        if not self.options.gpio:
            status.detail = GPIO_TURNED_OFF
            return None, status
        try:
            box = GpioButtonBox(hardware.GPIO_BUTTONS, hardware.GPIO_LEDS,
                                pin_factory=pi_pin_factory())
        except GpioUnavailable as exc:  # a Pi whose pins were wanted and cannot be used
            status.state, status.detail = ABSENT, str(exc)
            return None, status
        status.detail = GPIO_PINS
        return box, status

    # -- running ------------------------------------------------------------------------------
    def start(self) -> Runtime:
        if self.camera is not None:
            self.camera.start()
        self.boxes.start()
        return self

    def stop(self, timeout: float = 3.0) -> bool:
        """Stop every thread (each within ``timeout``); False if one did not end in time."""
        if self._stopped.is_set():
            return True
        self._stopped.set()
        done = True
        if self.camera is not None:
            done = self.camera.stop(timeout) and done
        done = self.boxes.stop(timeout) and done
        if self._demo_box is not None:
            self._demo_box.close()
        return done

    def _waiting_for_dice(self) -> bool:
        return self.focus.table(waiting_for_dice=True) is not None

    def _on_settled(self, frame: Frame, motion: np.ndarray | None = None,
                    early: float | None = None, again: bool = False) -> str | None:
        table = self.focus.table(waiting_for_dice=True)
        if table is None:
            return None
        if again and self.services.dice().camera_read_waiting(table) is None:
            return None  # the read asked about was confirmed meanwhile: nothing to read again
        camera = self.camera
        record = self.services.dice().read_frame(
            table, frame.image, frame.ref, motion=motion, setup=self.setup, early=early,
            skin_scene=camera.skin_scene if camera is not None else None,
            lens_degrees=camera.lens_degrees if camera is not None else None, again=again)
        return record.id if record is not None else None

    # -- a re-read ---------------------------------------------------------------------------
    def reread_target(self, table: Table) -> Any:
        """The read a re-read would replace: the camera's read of the roll open now, while
        it waits for the table and the camera runs
        (:meth:`web.runtime.dice.DiceService.camera_read_waiting`); else None."""
        camera = self.camera
        if camera is None or camera.status()["state"] != RUNNING:
            return None
        return self.services.dice().camera_read_waiting(table)

    def can_reread(self, table: Table) -> bool:
        """Whether the camera can read ``table``'s tray again (:meth:`reread_target`)."""
        return self.reread_target(table) is not None

    def reread(self, table: Table) -> None:
        """Read the tray again (the button box's re-read): the camera's next settled frame,
        as the same roll, replaces the read that waits. ``IllegalCommand`` when it cannot."""
        if not self.can_reread(table):
            raise IllegalCommand(NOTHING_TO_REREAD)
        assert self.camera is not None
        self.camera.reread()

    # -- the tray check ----------------------------------------------------------------------
    def check_tray(self, name: str | None = None, save: bool = True,
                   lens: float | None = None) -> CalibrationCheck:
        """The camera's picture of the empty tray checked (the quality report, with advice)
        from its next :data:`TRAY_CHECK_FRAMES` frames, once a camera that focuses has
        focused again on the empty tray; kept as the camera's setup (saved
        under ``name``, by default the current setup's or "tray") when ``save`` and the tray
        held nothing like a die. The lens angle is ``lens`` (from the camera's sheet), else
        the camera's own, else the current setup's. ``IllegalCommand`` when there is no
        camera, it gives no frames, or its frames cannot be checked (too small to show a
        tray or read a die)."""
        if self.camera is None:
            raise IllegalCommand(CAMERA_IS_OFF)
        name = name or (self.setup.name if self.setup is not None else "tray")
        try:
            # the empty tray in view: the moment for a camera that focuses to focus on it
            frames = self.camera.grab(TRAY_CHECK_FRAMES, TRAY_CHECK_SECONDS + FOCUS_SECONDS,
                                      refocus=True)
        except SourceError as exc:
            raise IllegalCommand(CANNOT_CHECK(why=said_of(exc))) from None
        try:
            with self.services.dice().readers.in_use():  # the camera thread reads with them
                result = check(name, frames, mains_hz=self.camera.mains_hz,
                               lens_degrees=self._lens(lens))
        except ValueError as exc:  # frames no tray shows in, or dice too small to read
            raise IllegalCommand(CANNOT_CHECK(why=said_of(exc))) from None
        if save and result.keepable:
            self._keep(result.setup)  # its background settles from the next frame on
        return result

    def _lens(self, given: float | None) -> float | None:
        """The lens angle a tray check keeps: the one given, else the camera's own, else
        the one the current setup was checked with (so a check again keeps it)."""
        for lens in (given, self.camera.lens_degrees if self.camera is not None else None,
                     self.setup.lens_degrees if self.setup is not None else None):
            if lens is not None:
                return lens
        return None

    def measure_dice(self) -> Calibration:
        """The camera's setup with its die size measured on the camera's next frame (a
        few dice resting on the tray), saved and read with from then on. ``IllegalCommand``
        without a setup (check the tray first), without a camera, or with no die in view."""
        if self.camera is None:
            raise IllegalCommand(CAMERA_IS_OFF)
        setup = self.setup
        if setup is None:
            raise IllegalCommand(CHECK_FIRST)
        try:
            frame = self.camera.grab(1, TRAY_CHECK_SECONDS)[0]
            with self.services.dice().readers.in_use():
                setup = measured(setup, frame)
        except (SourceError, ValueError) as exc:
            raise IllegalCommand(CANNOT_MEASURE(why=said_of(exc))) from None
        self._keep(setup)
        return setup

    def restore_setup(self) -> Calibration:
        """Put back the camera's setup as it was before its last tray check or dice measure
        (:func:`vision.calibration.restore_setup`), read with from the next frame on; the
        one it replaces is kept, so asking again is the redo. ``IllegalCommand`` without a
        camera, a setup, or an earlier one kept."""
        if self.camera is None:
            raise IllegalCommand(CAMERA_IS_OFF)
        if self.setup is None or not self._keeps_setups:
            raise IllegalCommand(NO_EARLIER_SETUP)
        try:
            setup = restore_setup(self.setup.name)
        except ValueError as exc:
            raise IllegalCommand(str(exc)) from None
        self._use(setup, save=False)
        return setup

    @property
    def keeps_setups(self) -> bool:
        """Whether a tray check is saved for the next start (not for the demo's recorded
        camera: it reads with it for this run only)."""
        return self._keeps_setups

    def setup_kept(self) -> bool:
        """Whether an earlier setup of the camera's is kept (:meth:`restore_setup`)."""
        return (self._keeps_setups and self.setup is not None
                and bool(kept_setups(self.setup.name)))

    def _keep(self, setup: Calibration) -> None:
        """Read the camera with this setup from its next frame on; saved, and remembered
        for the next start (not for the demo's recorded camera)."""
        self._use(setup, save=True)

    def _use(self, setup: Calibration, save: bool) -> None:
        if self._keeps_setups:
            if save:
                setup.save()
            remember_in_use(setup.name)
        self.setup = setup
        assert self.camera is not None
        self.camera.new_detector()

    # -- demo -------------------------------------------------------------------------------
    @property
    def demo_box(self) -> Any:
        return self._demo_box

    # -- status -------------------------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        focus = self.focus.table()
        if self.camera is not None:
            camera = self.camera.status()
        else:
            camera = CameraStatus(state=OFF, detail=CAMERA_OFF).to_json()  # by design
        if self.setup is not None:
            camera["setup"] = self.setup.name
            camera["setup_kept"] = self.setup_kept()
        status = {
            "mode": "demo" if self.options.demo else "hardware",
            "table": focus.session_id if focus is not None else None,
            "camera": camera,
            "button_box": self.boxes.box_status().to_json(),
            "gpio": self.boxes.gpio_json(),
            "software_box": software_box_json(self.services.software_box.buttons),
        }
        power = self.power.status()
        if power is not None:  # a Pi's firmware reports it; another machine has no part
            status["power"] = power.to_json()
        storage = self.storage.status()
        if storage is not None:
            status["storage"] = storage.to_json()
        return status
