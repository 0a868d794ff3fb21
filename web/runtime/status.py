"""Hardware status as ``GET /api/hardware`` answers it (docs/runtime.md, "Status").

Each part reports a ``state`` from a small fixed set, so a dashboard can colour it without
knowing the hardware:

* camera: ``absent`` (none found or it cannot be opened; retrying), ``running``, ``lost``
  (it stopped delivering), ``reopening`` (trying to get it back);
* button box: the serial link's state (``disconnected``, ``connecting``, ``connected``,
  ``degraded``, ``lost``, ``wrong_device``, ``incompatible``), or ``absent`` when none is
  looked for;
* gpio: ``absent`` (not a Pi, or turned off) or ``running``;
* software box: always ``running`` (the dashboard's buttons);
* power (on a Pi: web.runtime.power) and storage (web.runtime.storage): ``ok``,
  ``warning`` or ``alert``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from vision.said import message, said_json

ABSENT = "absent"
OFF = "off"  # a part not used here, by design (GPIO off a Pi, or turned off): not a fault
RUNNING = "running"
LOST = "lost"
REOPENING = "reopening"

# the Pi's power and heat, and the room on its disk: fine, to be seen to, or to be fixed now
OK, WARNING, ALERT = "ok", "warning", "alert"
CACHE_SECONDS = 5.0  # such a status is asked often (the console, each phone): read this often

T = TypeVar("T")


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class CameraStatus:
    source: str | None = None
    state: str = ABSENT
    detail: str = "no camera"
    tray: str | None = None  # moving, hand, still, settled (the last frame's); reading
    frames: int = 0
    settles: int = 0
    reads: int = 0
    reopen_attempts: int = 0
    last_frame: str | None = None
    last_settle: str | None = None
    last_read: str | None = None
    last_read_id: str | None = None
    last_error: str | None = None  # why the last settled frame could not be read
    setup: str | None = None  # the calibrated tray the camera is read with (serve --setup)
    setup_note: str | None = None  # what to check the empty tray again for (stale, wood)

    def to_json(self) -> dict[str, Any]:
        return said_fields(asdict(self))


@dataclass
class BoxStatus:
    port: str | None = None
    state: str = ABSENT
    connected: bool = False
    detail: str = "no serial button box looked for"
    simulated: bool = False
    firmware: str | None = None
    protocol: str | None = None
    board: str | None = None
    presses: int = 0
    counters: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return said_fields(asdict(self))


@dataclass
class GpioStatus:
    state: str = OFF
    is_pi: bool = False
    model: str | None = None
    detail: str = "not a Raspberry Pi"
    buttons: list[int] = field(default_factory=list)
    leds: list[int] = field(default_factory=list)
    presses: int = 0

    def to_json(self) -> dict[str, Any]:
        return said_fields(asdict(self))


# what the hardware card says of a part (vision.said: in the page's language)
DASHBOARD = message("hw.dashboard", "the table page's buttons, as a button box on the screen")()
NO_RUNTIME = message("hw.no_runtime", "no runtime: the server runs without hardware loops")()
GPIO_NOT_A_PI = message("hw.gpio_not_a_pi", "not a Raspberry Pi: GPIO is not used")()
GPIO_TURNED_OFF = message("hw.gpio_off", "turned off (--gpio none)")()
GPIO_PINS = message("hw.gpio_pins", "buttons and LEDs on the Pi's GPIO (BCM pins)")()

SAID = ("detail", "last_error")
"""The fields of a part's status a page says in its language, from ``<field>_said``."""


def said_fields(part: dict[str, Any]) -> dict[str, Any]:
    """A part's status JSON with, beside each of its :data:`SAID` fields, the field's
    message key and values (``detail_said``, ``last_error_said``: vision.said), or None where
    a text has none (an operating system's error)."""
    for name in SAID:
        if name in part:
            text = part[name]
            part[f"{name}_said"] = said_json(text) if isinstance(text, str) else None
    return part


def software_box_json(buttons: int) -> dict[str, Any]:
    return said_fields({"state": RUNNING, "buttons": buttons, "detail": DASHBOARD})


def idle_status(software_buttons: int) -> dict[str, Any]:
    """The status when no runtime runs the hardware (an app built without ``serve``)."""
    camera = CameraStatus(detail=NO_RUNTIME)
    box = BoxStatus(detail=NO_RUNTIME)
    gpio = GpioStatus(detail=NO_RUNTIME)
    return {"mode": "off", "table": None, "camera": camera.to_json(),
            "button_box": box.to_json(), "gpio": gpio.to_json(),
            "software_box": software_box_json(software_buttons)}


class Cached(Generic[T]):
    """A status read at most every :data:`CACHE_SECONDS` (the console and each phone ask
    often; the answer changes slowly)."""

    def __init__(self, read: Callable[[], T], clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self._read = read
        self._clock = clock
        self._at: float | None = None
        self._last: T | None = None

    def forget(self) -> None:
        """Read it again when next asked (news that cannot wait for the next read)."""
        self._at = None

    def status(self) -> T | None:
        now = self._clock()
        if self._at is None or now - self._at >= CACHE_SECONDS:
            self._last, self._at = self._read(), now
        return self._last
