"""The Raspberry Pi's power supply and heat (web/runtime/power.py; docs/runtime.md, "Power
and heat"): the firmware's get_throttled bits (bits 0-3 now: under-voltage, frequency
capped, throttled, soft temperature limit; bits 16-19 the same since boot), read from a
sysfs tree laid out as a Pi's kernel has it, told on the hardware status and the terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from web.runtime import Runtime, RuntimeOptions
from web.runtime.console import changes
from web.runtime.power import PowerStatus, power_status, read_power
from web.runtime.status import ALERT, CACHE_SECONDS, OK, WARNING, Cached


@pytest.mark.parametrize(("bits", "state", "now", "since", "words"), [
    (0x0, OK, [], [], "fine"),
    (0x50005, ALERT, ["under_voltage", "throttled"], ["under_voltage", "throttled"],
     "too weak now"),
    (0x50000, WARNING, [], ["under_voltage", "throttled"], "dipped too low"),
    (0x80008, WARNING, ["soft_temperature_limit"], ["soft_temperature_limit"], "too hot"),
    (0xE0006, WARNING, ["frequency_capped", "throttled"],
     ["frequency_capped", "throttled", "soft_temperature_limit"], "too hot"),
    (0x80000, OK, [], ["soft_temperature_limit"], "earlier for heat"),
])
def test_what_the_firmware_bits_mean(bits, state, now, since, words):
    status = power_status(bits, 61.2)
    assert (status.state, status.now, status.since_boot) == (state, now, since)
    assert words in status.detail and status.temperature_c == 61.2
    if "under_voltage" in now or "under_voltage" in since:
        assert "5 V" in status.detail  # what to do


def pi_sys(tmp_path: Path, throttled: str | None = None, volt_alarm: str | None = None,
           millideg: str | None = "48312") -> dict[str, Path]:
    """A sysfs tree as a Pi's kernel lays it out (the parts asked for)."""
    root = tmp_path / "sys"
    paths = {"throttled": root / "devices/platform/soc/soc:firmware/get_throttled",
             "hwmon": root / "class/hwmon", "thermal": root / "class/thermal/thermal_zone0/temp"}
    paths["hwmon"].mkdir(parents=True)
    (paths["hwmon"] / "hwmon0").mkdir()
    (paths["hwmon"] / "hwmon0" / "name").write_text("cpu_thermal\n")
    if throttled is not None:
        paths["throttled"].parent.mkdir(parents=True)
        paths["throttled"].write_text(throttled + "\n")
    if volt_alarm is not None:
        volt = paths["hwmon"] / "hwmon1"
        volt.mkdir()
        (volt / "name").write_text("rpi_volt\n")
        (volt / "in0_lcrit_alarm").write_text(volt_alarm + "\n")
    if millideg is not None:
        paths["thermal"].parent.mkdir(parents=True)
        paths["thermal"].write_text(millideg + "\n")
    return paths


def test_read_from_the_kernels_get_throttled_file(tmp_path):
    status = read_power(**pi_sys(tmp_path, throttled="50005"))
    assert status is not None and status.state == ALERT and status.source == "get_throttled"
    assert status.temperature_c == 48.3


def test_read_from_the_rpi_volt_monitor_where_there_is_no_such_file(tmp_path):
    status = read_power(**pi_sys(tmp_path, volt_alarm="1"))
    assert status is not None and status.source == "rpi_volt"
    assert status.state == WARNING and status.since_boot == ["under_voltage"]
    fine = read_power(**pi_sys(tmp_path / "b", volt_alarm="0"))
    assert fine is not None and fine.state == OK


def test_a_machine_that_is_no_pi_has_no_power_part(tmp_path):
    assert read_power(**pi_sys(tmp_path)) is None  # a thermal zone alone says nothing
    garbled = pi_sys(tmp_path / "b", throttled="not hex", millideg="warm")
    assert read_power(**garbled) is None


def test_read_at_most_every_few_seconds():
    reads = []
    now = [0.0]

    def read() -> PowerStatus:
        reads.append(now[0])
        return power_status(0)

    watch = Cached(read, clock=lambda: now[0])
    watch.status()
    now[0] = CACHE_SECONDS - 0.1
    watch.status()
    now[0] = CACHE_SECONDS
    watch.status()
    assert reads == [0.0, CACHE_SECONDS]


def test_the_hardware_status_and_the_terminal_tell_it(services):
    bits = [0x0]
    temperature = [52.0]
    runtime = Runtime(services, RuntimeOptions(camera="none", box="none", gpio=False),
                      pi_model="Raspberry Pi 4 Model B Rev 1.4",
                      power=lambda: power_status(bits[0], temperature[0]))
    try:
        first = runtime.status()
        assert first["power"]["state"] == OK
        assert "Power: power supply and temperature fine (52 °C now)" in changes(None, first)
        bits[0], temperature[0] = 0x50005, 53.0
        runtime.power = Cached(lambda: power_status(bits[0], temperature[0]))
        dipped = runtime.status()
        assert dipped["power"]["state"] == ALERT
        assert [line for line in changes(first, dipped) if line.startswith("Power:")] == [
            f"Power: {dipped['power']['detail']} (53 °C now)"]
        temperature[0] = 58.0  # warmer, the same fault: no new line
        runtime.power = Cached(lambda: power_status(bits[0], temperature[0]))
        assert changes(dipped, runtime.status()) == []
    finally:
        runtime.stop()
    laptop = Runtime(services, RuntimeOptions(camera="none", box="none"), pi_model=None,
                     power=lambda: None)
    assert "power" not in laptop.status()
    laptop.stop()
