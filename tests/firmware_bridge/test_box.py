from __future__ import annotations

import io

import pytest

from firmware_bridge.fake_machine import FakeMachine, FakeWatchdogReset
from firmware_bridge.firmware import box as boxmod
from firmware_bridge.firmware.bbp import FrameParser, encode
from firmware_bridge.firmware.box import Box, StdioLink
from firmware_bridge.firmware.config import CONFIG


class Wire:
    def __init__(self) -> None:
        self.to_box = bytearray()
        self.to_host = bytearray()

    def read(self) -> bytes:
        data = bytes(self.to_box)
        self.to_box.clear()
        return data

    def write(self, data: bytes) -> None:
        self.to_host += data


def make_box(machine: FakeMachine, wire: Wire, **overrides) -> Box:
    config = {**CONFIG, **overrides}
    return Box(machine, config, wire.read, wire.write, machine.ticks_ms, lambda n: b"\x01" * n)


def run(machine: FakeMachine, box: Box, ms: int) -> None:
    for _ in range(ms):
        machine.advance(1)
        box.step()


def test_box_without_host_blinks_the_absent_pattern_and_says_hello() -> None:
    m, wire = FakeMachine(), Wire()
    box = make_box(m, wire)
    lit = []
    for _ in range(2000):
        m.advance(1)
        box.step()
        lit.append(box.leds[0].value())
    assert 0.08 < sum(lit) / len(lit) < 0.16  # B120/880
    assert all(led.value() == 0 for led in box.leds[1:])
    kinds = [f.kind for f in FrameParser().feed(bytes(wire.to_host))]
    assert kinds.count("HELLO") >= 3 and "EVT" not in kinds


def test_box_shows_the_hosts_leds_once_in_session() -> None:
    m, wire = FakeMachine(), Wire()
    box = make_box(m, wire)
    wire.to_box += encode(None, None, "HELLO", ["1.0", "n1", box.device.boot_id])
    wire.to_box += encode(None, None, "LEDS", ["1", "0", "1", "0", "0"])
    run(m, box, 10)
    assert [led.value() for led in box.leds] == [0, 1, 0, 0]
    assert m.pins["LED"].value() == 1


def test_box_feeds_the_watchdog_each_pass_and_a_stalled_loop_resets() -> None:
    m, wire = FakeMachine(), Wire()
    box = make_box(m, wire)
    run(m, box, 10_000)
    assert m.watchdog is not None and m.watchdog.feeds >= 10_000
    with pytest.raises(FakeWatchdogReset):
        m.advance(9000)


class InterruptingTime:
    def __init__(self, machine: FakeMachine, after: int) -> None:
        self.machine = machine
        self.left = after

    def ticks_ms(self) -> int:
        return self.machine.ticks_ms()

    def sleep_ms(self, ms: int) -> None:
        self.left -= 1
        if self.left == 0:
            raise KeyboardInterrupt
        self.machine.advance(ms)


def test_box_run_after_ctrl_c_keeps_feeding_the_watchdog_for_the_repl() -> None:
    m, wire = FakeMachine(), Wire()
    with pytest.raises(KeyboardInterrupt):
        boxmod.run(m, CONFIG, wire, InterruptingTime(m, 50), lambda n: b"\x02" * n)
    m.advance(60_000)  # mpremote copying files for a minute: no reset
    assert m.resets == 0


def test_box_run_steps_then_returns_the_box() -> None:
    m, wire = FakeMachine(), Wire()
    box = boxmod.run(m, CONFIG, wire, InterruptingTime(m, -1), lambda n: b"\x02" * n, steps=20)
    assert box.device.boot_id == "02020202" and m.now_ms == 20


def test_box_maintenance_when_button_0_is_held_at_power_up() -> None:
    m = FakeMachine()
    assert not boxmod.maintenance_requested(m, CONFIG)
    m.pins[CONFIG["buttons"][0]].drive_low()
    assert boxmod.maintenance_requested(m, CONFIG)


def _events(wire: Wire) -> list[tuple[str, str]]:
    frames = FrameParser().feed(bytes(wire.to_host))
    return [(f.fields[0], f.fields[1]) for f in frames if f.kind == "EVT"]


def test_box_a_button_held_through_a_replug_fires_nothing_until_pressed_again() -> None:
    # Undo held while the cable is out and back in: the rebooted box must not send a second
    # undo (nor, for a held confirm, answer the next prompt) for the press before the replug.
    m = FakeMachine()
    m.Pin(CONFIG["buttons"][1], m.Pin.IN, m.Pin.PULL_UP).drive_low()
    m.reboot()  # USB power back: the board boots with the button down
    wire = Wire()
    box = make_box(m, wire)
    undo = m.pins[CONFIG["buttons"][1]]
    wire.to_box += encode(None, None, "HELLO", ["1.0", "n1", box.device.boot_id])
    run(m, box, 1500)  # long enough for a hold too
    assert _events(wire) == []
    undo.drive_high()
    run(m, box, 50)
    assert _events(wire) == []  # its release means nothing either
    undo.drive_low()
    run(m, box, 50)
    undo.drive_high()
    run(m, box, 50)
    assert _events(wire) == [("1", "P"), ("1", "R")]


@pytest.mark.parametrize(
    "overrides", [{"buttons": ()}, {"buttons": tuple(range(9))}, {"leds": (10, 11, 12, 13, 14)}]
)
def test_box_rejects_impossible_wiring(overrides) -> None:
    with pytest.raises(ValueError):
        make_box(FakeMachine(), Wire(), **overrides)


class FakeStdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


class FakeSys:
    def __init__(self, data: bytes) -> None:
        self.stdin = FakeStdin(data)
        self.stdout = type("Out", (), {"buffer": io.BytesIO()})()


class FakePoll:
    def __init__(self, stdin: FakeStdin) -> None:
        self.stdin = stdin

    def register(self, stream: object, mask: int) -> None:
        assert stream is self.stdin

    def poll(self, timeout: int) -> list[int]:
        buffer = self.stdin.buffer
        return [1] if buffer.tell() < len(buffer.getvalue()) else []


def test_box_stdio_link_reads_what_is_available_without_blocking() -> None:
    sys_module = FakeSys(b"$-,-,ACK*ABCD\n")
    select_module = type(
        "Select", (), {"POLLIN": 1, "poll": staticmethod(lambda: FakePoll(sys_module.stdin))}
    )
    link = StdioLink(sys_module, select_module)
    assert link.read() == b"$-,-,ACK*ABCD\n"
    assert link.read() == b""
    link.write(b"$x\n")
    assert sys_module.stdout.buffer.getvalue() == b"$x\n"
