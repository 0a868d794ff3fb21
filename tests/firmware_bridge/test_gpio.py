from __future__ import annotations

import importlib.util
import threading
import time
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_bridge.clock import FakeClock
from firmware_bridge.events import ButtonEvent, ButtonKind
from firmware_bridge.gpio import GpioButtonBox, GpioUnavailable, pi_pin_factory

BUTTONS = (17, 27, 22)
LEDS = (5, 6)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()
    f.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(100.0)


@pytest.fixture
def gpio(factory: MockFactory, clock: FakeClock) -> Iterator[GpioButtonBox]:
    with GpioButtonBox(BUTTONS, LEDS, pin_factory=factory, clock=clock) as box:
        yield box


def run(gpio: GpioButtonBox, clock: FakeClock, ms: int) -> list[ButtonEvent]:
    found = []
    for _ in range(ms // 2):
        clock.advance(0.002)
        found += gpio.poll()
    return found


def test_gpio_bouncy_press_gives_one_press_and_one_release(gpio, factory, clock) -> None:
    run(gpio, clock, 20)  # every button read released first
    pin = factory.pin(27)
    for _ in range(3):  # bounce: three flips within 3 ms
        pin.drive_low()
        gpio.poll()
        pin.drive_high()
        clock.advance(0.001)
        gpio.poll()
    pin.drive_low()
    found = run(gpio, clock, 50)
    pin.drive_high()
    pin.drive_low()
    pin.drive_high()
    found += run(gpio, clock, 50)
    assert [(e.button, e.kind) for e in found] == [(1, ButtonKind.PRESS), (1, ButtonKind.RELEASE)]
    assert [e.seq for e in found] == [0, 1] and found[0].source == "gpio"


def test_gpio_long_press_holds_once(gpio, factory, clock) -> None:
    run(gpio, clock, 20)
    factory.pin(17).drive_low()
    found = run(gpio, clock, 1000)
    factory.pin(17).drive_high()
    found += run(gpio, clock, 20)
    assert [e.kind for e in found] == [ButtonKind.PRESS, ButtonKind.HOLD, ButtonKind.RELEASE]
    assert found[1].time - found[0].time == pytest.approx(0.6, abs=0.003)


def test_gpio_leds_follow_modes_including_blink(gpio, factory, clock) -> None:
    gpio.set_leds(["1", "B100/100"])
    states = []
    for _ in range(100):
        clock.advance(0.002)
        gpio.poll()
        states.append(factory.pin(6).state)
    assert factory.pin(5).state is True
    assert states.count(True) == pytest.approx(100 * 0.5, abs=4)
    with pytest.raises(ValueError):
        gpio.set_leds(["1"])
    with pytest.raises(ValueError):
        gpio.set_leds(["1", "flash"])


def test_gpio_sampler_thread_publishes_to_listeners(factory) -> None:
    got = threading.Event()
    seen: list[tuple[ButtonEvent, str]] = []

    def listener(event: ButtonEvent) -> None:
        seen.append((event, threading.current_thread().name))
        got.set()

    with GpioButtonBox(BUTTONS, pin_factory=factory).start() as gpio:
        gpio.add_listener(listener)
        time.sleep(0.2)  # the sampler has read every button released
        factory.pin(22).drive_low()
        assert got.wait(2.0)
        assert gpio.stop(2.0)
    assert seen[0][0].button == 2 and seen[0][1] == "gpio-listeners"


def test_gpio_a_button_down_when_the_box_starts_is_ignored_until_released(
    gpio, factory, clock
) -> None:
    factory.pin(17).drive_low()  # held as `tableside serve` starts
    found = run(gpio, clock, 1000)
    factory.pin(17).drive_high()
    found += run(gpio, clock, 20)
    assert found == [] and gpio.buttons_down() == 0
    factory.pin(17).drive_low()
    found = run(gpio, clock, 20)
    assert [(e.button, e.kind) for e in found] == [(0, ButtonKind.PRESS)]


def test_gpio_close_releases_the_pins(factory, clock) -> None:
    box = GpioButtonBox(BUTTONS, LEDS, pin_factory=factory, clock=clock)
    box.close()
    again = GpioButtonBox(BUTTONS, LEDS, pin_factory=factory, clock=clock)  # no GPIOPinInUse
    again.close()


def test_gpio_needs_at_least_one_button(factory) -> None:
    with pytest.raises(ValueError):
        GpioButtonBox((), pin_factory=factory)


def test_gpio_stop_is_bounded(factory) -> None:
    box = GpioButtonBox(BUTTONS, pin_factory=factory).start()
    time.sleep(0.02)
    started = time.monotonic()
    assert box.stop(1.0)
    assert time.monotonic() - started < 1.0
    box.close()


def test_gpio_without_a_pin_factory_fails_fast_with_a_clear_message() -> None:
    with pytest.raises(GpioUnavailable, match="pin factory"):
        GpioButtonBox(BUTTONS, pin_factory=None)


@pytest.mark.skipif(importlib.util.find_spec("lgpio") is not None, reason="lgpio is installed")
def test_gpio_pi_factory_off_a_pi_is_unavailable_not_a_crash() -> None:
    with pytest.raises(GpioUnavailable, match="python3-lgpio"):
        pi_pin_factory()


@pytest.mark.hardware
@pytest.mark.skipif(importlib.util.find_spec("lgpio") is None, reason="not a Pi (no lgpio)")
def test_gpio_on_a_real_pi_reads_an_idle_button_as_up() -> None:
    with GpioButtonBox((17,), pin_factory=pi_pin_factory()) as box:
        assert box.poll() == [] and box.buttons_down() == 0
