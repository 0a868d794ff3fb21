"""The Raspberry Pi's power supply and heat, as its firmware reports them (``GET
/api/hardware``'s ``power``; docs/runtime.md, "Power and heat").

A supply too weak for the Pi (under-voltage) is the commonest fault of a Pi at a table: the
firmware slows the processor, so the camera reads late, and a memory card written during a
dip can be damaged (the campaign lives on it). A Pi too hot slows down too. Players see
neither until something fails; here it is said, with what to do.

The firmware's report is a bitmask (Raspberry Pi documentation, ``vcgencmd
get_throttled``): bits 0-3 say what holds now (under-voltage, frequency capped, throttled,
soft temperature limit), bits 16-19 what has happened since boot. It is read from the
kernel's ``get_throttled`` file, else from the ``rpi_volt`` hardware monitor (on kernels
without that file: an under-voltage seen lately, told as one that has happened). The
temperature is the first thermal zone's, kept out of ``detail`` (which changes only when
the state does). A machine with neither source is not a Pi: it reports no ``power`` part.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from vision.said import message
from web.runtime.status import ALERT, OK, WARNING, said_fields

THROTTLED = Path("/sys/devices/platform/soc/soc:firmware/get_throttled")
HWMON = Path("/sys/class/hwmon")
THERMAL = Path("/sys/class/thermal/thermal_zone0/temp")

NOW = {0: "under_voltage", 1: "frequency_capped", 2: "throttled", 3: "soft_temperature_limit"}
SINCE_BOOT = 16  # the same four bits, 16 places up: it has happened since the Pi started

ADVICE_POWER = ("use a supply made for this Pi (5 V, 3 A for a Pi 4; 5 A for a Pi 5) and "
                "a short cable; unplug what draws power from its USB ports")

# what the hardware card says of the power (vision.said: in the page's language)
WEAK_NOW = message(
    "hw.power_weak",
    "the power supply is too weak now: the Pi slows down, the camera reads late, and the "
    "memory card can be damaged; " + ADVICE_POWER)()
TOO_HOT = message(
    "hw.power_hot",
    "the Pi is too hot and slows down: the camera reads late; give it air, or a heatsink or "
    "fan")()
DIPPED = message(
    "hw.power_dipped",
    "the power supply dipped too low since the Pi started (the card may have been written "
    "during a dip: a backup is worth taking); " + ADVICE_POWER)()
HOT_BEFORE = message(
    "hw.power_hot_before", "the Pi slowed down earlier for heat, and is fine now")()
FINE = message("hw.power_fine", "power supply and temperature fine")()


@dataclass
class PowerStatus:
    """The ``power`` part of the hardware status."""

    state: str
    detail: str
    now: list[str] = field(default_factory=list)
    since_boot: list[str] = field(default_factory=list)
    temperature_c: float | None = None
    source: str = "get_throttled"

    def to_json(self) -> dict[str, Any]:
        return said_fields(asdict(self))


def flags(bits: int, shift: int = 0) -> list[str]:
    return [name for bit, name in NOW.items() if bits & (1 << (bit + shift))]


def power_status(bits: int, temperature_c: float | None = None,
                 source: str = "get_throttled") -> PowerStatus:
    """What the firmware's bits mean for the table (pure)."""
    now, before = flags(bits), flags(bits, SINCE_BOOT)
    if "under_voltage" in now:
        state, detail = ALERT, WEAK_NOW
    elif set(now) & {"throttled", "frequency_capped", "soft_temperature_limit"}:
        state, detail = WARNING, TOO_HOT
    elif "under_voltage" in before:
        state, detail = WARNING, DIPPED
    elif before:
        state, detail = OK, HOT_BEFORE
    else:
        state, detail = OK, FINE
    return PowerStatus(state, detail, now, before, temperature_c, source)


def _read_int(path: Path, base: int = 10) -> int | None:
    try:
        return int(path.read_text().strip(), base)
    except (OSError, ValueError):
        return None


def _volt_alarm(hwmon: Path) -> Path | None:
    """The ``rpi_volt`` monitor's under-voltage alarm file, if this kernel has one."""
    try:
        monitors = sorted(hwmon.iterdir())
    except OSError:
        return None
    for monitor in monitors:
        try:
            if (monitor / "name").read_text().strip() == "rpi_volt":
                alarm = monitor / "in0_lcrit_alarm"
                return alarm if alarm.exists() else None
        except OSError:
            continue
    return None


def read_power(throttled: Path = THROTTLED, hwmon: Path = HWMON,
               thermal: Path = THERMAL) -> PowerStatus | None:
    """The Pi's power and heat now, or None where no firmware reports them (not a Pi)."""
    millideg = _read_int(thermal)
    temperature = None if millideg is None else round(millideg / 1000, 1)
    bits = _read_int(throttled, 16)
    if bits is not None:
        return power_status(bits, temperature)
    alarm = _volt_alarm(hwmon)
    if alarm is not None:  # the driver raises it for an under-voltage seen since its last
        low = _read_int(alarm)  # look at the firmware: told as one that has happened
        return power_status(1 << SINCE_BOOT if low else 0, temperature, source="rpi_volt")
    return None
