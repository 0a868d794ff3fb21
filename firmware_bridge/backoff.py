"""Reconnect delays: doubling from ``initial`` up to ``maximum``, reset on success."""

from __future__ import annotations


class Backoff:
    def __init__(self, initial: float = 0.25, maximum: float = 5.0, factor: float = 2.0) -> None:
        if initial <= 0 or maximum < initial or factor < 1:
            raise ValueError("need 0 < initial <= maximum and factor >= 1")
        self.initial = initial
        self.maximum = maximum
        self.factor = factor
        self._next = initial

    def next_delay(self) -> float:
        delay = self._next
        self._next = min(self._next * self.factor, self.maximum)
        return delay

    def reset(self) -> None:
        self._next = self.initial
