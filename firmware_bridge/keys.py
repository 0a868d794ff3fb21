"""The software button box: the same ButtonEvents from the keyboard or the dashboard.

``click``, ``press``, ``hold`` and ``release`` are what a dashboard button calls; ``key``
maps a typed character: ``1``-``8`` click buttons 0-7, and the shifted digits
(``!@#$%^&*``) give a long press (press, hold, release).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from .clock import Clock, MonotonicClock
from .dispatcher import Dispatcher
from .events import ButtonEvent, ButtonKind

CLICK_KEYS = "12345678"
HOLD_KEYS = "!@#$%^&*"


class SoftwareButtonBox:
    def __init__(self, buttons: int = 8, *, clock: Clock | None = None, source: str = "keys"):
        if not 1 <= buttons <= len(CLICK_KEYS):
            raise ValueError(f"1 to {len(CLICK_KEYS)} buttons")
        self.buttons = buttons
        self.source = source
        self._clock = clock or MonotonicClock()
        self._lock = threading.Lock()
        self._seq = 0
        self._down: set[int] = set()
        self._dispatcher: Dispatcher[ButtonEvent] = Dispatcher("keys-listeners")

    def add_listener(self, listener: Callable[[ButtonEvent], None]) -> None:
        self._dispatcher.add_listener(listener)

    def press(self, button: int) -> ButtonEvent:
        self._check(button)
        with self._lock:
            if button in self._down:
                raise ValueError(f"button {button} is already down")
            self._down.add(button)
            return self._emit(button, ButtonKind.PRESS)

    def hold(self, button: int) -> ButtonEvent:
        self._check(button)
        with self._lock:
            if button not in self._down:
                raise ValueError(f"button {button} is not down")
            return self._emit(button, ButtonKind.HOLD)

    def release(self, button: int) -> ButtonEvent:
        self._check(button)
        with self._lock:
            if button not in self._down:
                raise ValueError(f"button {button} is not down")
            self._down.discard(button)
            return self._emit(button, ButtonKind.RELEASE)

    def click(self, button: int, long: bool = False) -> list[ButtonEvent]:
        out = [self.press(button)]
        if long:
            out.append(self.hold(button))
        out.append(self.release(button))
        return out

    def key(self, char: str) -> list[ButtonEvent]:
        """The events for one typed character; [] for keys that mean nothing."""
        if char in CLICK_KEYS[: self.buttons]:
            return self.click(CLICK_KEYS.index(char))
        if char in HOLD_KEYS[: self.buttons]:
            return self.click(HOLD_KEYS.index(char), long=True)
        return []

    def _check(self, button: int) -> None:
        if not 0 <= button < self.buttons:
            raise ValueError(f"no button {button} (0..{self.buttons - 1})")

    def _emit(self, button: int, kind: ButtonKind) -> ButtonEvent:
        event = ButtonEvent(button, kind, self._seq, self._clock.now(), self.source)
        self._seq += 1
        self._dispatcher.publish(event)
        return event

    def stop(self, timeout: float = 2.0) -> bool:
        return self._dispatcher.stop(timeout)

    def close(self) -> None:
        self.stop()

    def __enter__(self) -> SoftwareButtonBox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
