"""Buttons and LEDs on the Pi's own GPIO through gpiozero, debounced by our own code.

gpiozero's ``bounce_time`` means different things on different pin backends and the mock
ignores it, so inputs are plain ``DigitalInputDevice``s sampled every ``sample_period`` by the
firmware's own ``Debouncer`` (same press / hold / release rules as the box). The pin
factory is injected (tests use ``gpiozero.pins.mock.MockFactory``). Listeners run on a
dispatcher thread, never on the sampler.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from gpiozero import LED, DigitalInputDevice
from gpiozero.exc import BadPinFactory

from . import events
from .clock import Clock, MonotonicClock
from .dispatcher import Dispatcher
from .firmware import leds as ledmodes
from .firmware.debounce import Debouncer, EdgeRing

TICKS_PERIOD = 1 << 30


class GpioUnavailable(RuntimeError):
    """No usable GPIO pin factory here (not a Pi, or no permission)."""


def pi_pin_factory() -> Any:
    """The Pi's own pin factory (lgpio, which every Pi model supports), or GpioUnavailable."""
    try:
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    except Exception as exc:  # lgpio missing, not a Pi, or no access to /dev/gpiochip*
        raise GpioUnavailable(
            f"no GPIO here ({exc}); on a Pi install python3-lgpio, elsewhere use the serial "
            "or software button box"
        ) from exc


class GpioButtonBox:
    def __init__(
        self,
        buttons: Sequence[int | str],
        leds: Sequence[int | str] = (),
        *,
        pin_factory: Any,
        clock: Clock | None = None,
        sample_period: float = 0.002,
        samples: int = 4,
        hold: float = 0.6,
        source: str = "gpio",
    ) -> None:
        if not buttons:
            raise ValueError("at least one button")
        if pin_factory is None:
            raise GpioUnavailable("no pin factory given (pi_pin_factory() on a Pi)")
        self._clock = clock or MonotonicClock()
        self.sample_period = sample_period
        self.source = source
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._seq = 0
        self._inputs: list[DigitalInputDevice] = []
        self._leds: list[LED] = []
        try:
            for pin in buttons:
                self._inputs.append(DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory))
            for pin in leds:
                self._leds.append(LED(pin, pin_factory=pin_factory))
        except BadPinFactory as exc:
            self._close_devices()
            raise GpioUnavailable(f"no GPIO here ({exc}); use the serial or software box") from exc
        except Exception:
            self._close_devices()
            raise
        self._modes = [ledmodes.OFF] * len(self._leds)
        self._debouncer = Debouncer(
            len(buttons), samples=samples, hold_ms=int(hold * 1000), ring=EdgeRing(64)
        )
        self._dispatcher: Dispatcher[events.ButtonEvent] = Dispatcher("gpio-listeners")

    # -- public ----------------------------------------------------------------------------
    def add_listener(self, listener: Callable[[events.ButtonEvent], None]) -> None:
        self._dispatcher.add_listener(listener)

    def set_leds(self, modes: Sequence[str]) -> None:
        if len(modes) != len(self._leds):
            raise ValueError(f"expected {len(self._leds)} LED modes, got {len(modes)}")
        for mode in modes:
            if ledmodes.parse_mode(mode) is None:
                raise ValueError(f"bad LED mode {mode!r}")
        with self._lock:
            self._modes = list(modes)

    def buttons_down(self) -> int:
        return self._debouncer.stable

    def poll(self) -> list[events.ButtonEvent]:
        """Sample every button once, publish the edges found, refresh the LEDs."""
        with self._lock:
            now = self._clock.now()
            now_ms = int(now * 1000) % TICKS_PERIOD
            raw = 0
            for i, device in enumerate(self._inputs):
                if device.value:  # pull-up: value 1 means the pin is held low (pressed)
                    raw |= 1 << i
            self._debouncer.sample(raw, now_ms)
            found = []
            ring = self._debouncer.ring
            while (edge := ring.get()) is not None:
                button, code, _, _ = edge
                kind = events.ButtonKind.from_wire(code)
                found.append(events.ButtonEvent(button, kind, self._seq, now, self.source))
                self._seq += 1
            for led, mode in zip(self._leds, self._modes, strict=True):
                lit = ledmodes.is_lit(mode, now_ms)
                if bool(led.value) != lit:
                    led.value = lit
        for event in found:
            self._dispatcher.publish(event)
        return found

    def start(self) -> GpioButtonBox:
        self._thread = threading.Thread(target=self._run, name="gpio-sampler", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> bool:
        self._stop.set()
        done = True
        if self._thread is not None:
            self._thread.join(timeout)
            done = not self._thread.is_alive()
        return self._dispatcher.stop(timeout) and done

    def close(self) -> None:
        self.stop()
        self._close_devices()

    def __enter__(self) -> GpioButtonBox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals ---------------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.wait(self.sample_period):
            self.poll()

    def _close_devices(self) -> None:
        for device in [*self._inputs, *self._leds]:
            device.close()
        self._inputs = []
        self._leds = []
