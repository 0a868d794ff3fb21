from __future__ import annotations

import pytest

from firmware_bridge.fake_machine import FakeMachine, FakePinError, FakeWatchdogReset


def test_fake_pin_input_with_pull_up_reads_high_until_driven_low() -> None:
    m = FakeMachine()
    pin = m.Pin(3, m.Pin.IN, m.Pin.PULL_UP)
    assert pin.value() == 1
    pin.drive_low()
    assert pin.value() == 0 and pin() == 0
    pin.release()
    assert pin.value() == 1


def test_fake_pin_floating_input_cannot_be_read() -> None:
    m = FakeMachine()
    pin = m.Pin(4, m.Pin.IN)
    with pytest.raises(FakePinError):
        pin.value()


def test_fake_pin_output_cannot_be_driven_from_outside() -> None:
    m = FakeMachine()
    led = m.Pin(16, m.Pin.OUT, value=0)
    with pytest.raises(FakePinError):
        led.drive_high()


def test_fake_pin_output_records_its_history_in_ticks() -> None:
    m = FakeMachine()
    led = m.Pin(16, m.Pin.OUT, value=0)
    m.advance(5)
    led.on()
    m.advance(5)
    led.toggle()
    led.off()
    assert led.history == [(0, 0), (5, 1), (10, 0)]
    assert not led.is_lit()


@pytest.mark.parametrize("pin_id", [30, -1, "GP2"])
def test_fake_pin_rejects_pins_the_rp2040_does_not_have(pin_id) -> None:
    m = FakeMachine()
    with pytest.raises(ValueError):
        m.Pin(pin_id, m.Pin.IN)


def test_fake_timer_fires_periodically_in_virtual_time() -> None:
    m = FakeMachine()
    seen: list[int] = []
    timer = m.Timer(mode=m.Timer.PERIODIC, period=5, callback=lambda t: seen.append(m.now_ms))
    m.advance(22)
    assert seen == [5, 10, 15, 20]
    timer.deinit()
    m.advance(20)
    assert seen == [5, 10, 15, 20]


def test_fake_timer_one_shot_fires_once() -> None:
    m = FakeMachine()
    seen: list[int] = []
    m.Timer(mode=m.Timer.ONE_SHOT, period=7, callback=lambda t: seen.append(m.now_ms))
    m.advance(30)
    assert seen == [7]


def test_fake_watchdog_resets_the_board_when_not_fed() -> None:
    m = FakeMachine()
    wdt = m.WDT(timeout=100)
    m.advance(90)
    wdt.feed()
    m.advance(90)
    with pytest.raises(FakeWatchdogReset):
        m.advance(20)
    assert m.resets == 1 and m.now_ms == 190


def test_fake_watchdog_enforces_the_rp2040_limit_and_single_instance() -> None:
    m = FakeMachine()
    with pytest.raises(ValueError):
        m.WDT(timeout=9000)
    m.WDT(timeout=1000)
    with pytest.raises(FakePinError):
        m.WDT(timeout=1000)


def test_fake_machine_reboot_keeps_what_the_outside_world_drives() -> None:
    m = FakeMachine()
    m.Pin(2, m.Pin.IN, m.Pin.PULL_UP).drive_low()
    m.Timer(mode=m.Timer.PERIODIC, period=1, callback=lambda t: None)
    m.reboot()
    assert m.timers == [] and m.watchdog is None
    assert m.Pin(2, m.Pin.IN, m.Pin.PULL_UP).value() == 0


def test_fake_machine_ticks_wrap_like_micropython() -> None:
    m = FakeMachine(start_ms=(1 << 30) - 1)
    m.advance(2)
    assert m.ticks_ms() == 1
