"""An in-memory serial cable that misbehaves on purpose, driven by a manual clock.

Each direction is a ``FaultyChannel``: what one end writes (a chunk, usually one frame) may
be dropped, duplicated, have bytes corrupted, be split into pieces that arrive at different
moments, or be delayed. Order is kept (as on USB or a UART) unless ``reorder`` is set.
``FaultyLink.unplug()`` loses everything in flight in both directions until ``replug()``.
All randomness comes from the injected ``random.Random``.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Faults:
    drop: float = 0.0  # probability a written chunk is lost
    duplicate: float = 0.0  # probability a written chunk arrives twice
    corrupt: float = 0.0  # probability each byte is replaced by a random byte
    split: float = 0.0  # probability a chunk arrives in 2-4 pieces spread over time
    delay: tuple[float, float] = (0.0, 0.0)  # seconds, uniform
    reorder: float = 0.0  # probability a chunk may overtake earlier ones

    def __post_init__(self) -> None:
        for name in ("drop", "duplicate", "corrupt", "split", "reorder"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be a probability, got {value}")
        low, high = self.delay
        if low < 0 or high < low:
            raise ValueError(f"bad delay range {self.delay}")


@dataclass(slots=True)
class ChannelCounters:
    chunks: int = 0
    dropped: int = 0
    duplicated: int = 0
    corrupted_bytes: int = 0
    split: int = 0
    reordered: int = 0
    lost_unplugged: int = 0


class FaultyChannel:
    """One direction of the cable."""

    def __init__(self, rng: random.Random, faults: Faults | None = None) -> None:
        self.faults = faults or Faults()
        self.counters = ChannelCounters()
        self.connected = True
        self._rng = rng
        self._queue: list[tuple[float, int, bytes]] = []
        self._order = 0
        self._last_due = 0.0

    def send(self, data: bytes, now: float) -> None:
        if not data:
            return
        self.counters.chunks += 1
        if not self.connected:
            self.counters.lost_unplugged += 1
            return
        f = self.faults
        rng = self._rng
        if f.drop and rng.random() < f.drop:
            self.counters.dropped += 1
            return
        copies = 1
        if f.duplicate and rng.random() < f.duplicate:
            copies = 2
            self.counters.duplicated += 1
        for _ in range(copies):
            self._enqueue(self._corrupt(data), now)

    def _corrupt(self, data: bytes) -> bytes:
        p = self.faults.corrupt
        if not p:
            return data
        out = bytearray(data)
        rng = self._rng
        for i in range(len(out)):
            if rng.random() < p:
                out[i] = rng.randrange(256)
                self.counters.corrupted_bytes += 1
        return bytes(out)

    def _enqueue(self, data: bytes, now: float) -> None:
        f = self.faults
        rng = self._rng
        due = now + rng.uniform(*f.delay)
        if f.reorder and rng.random() < f.reorder:
            self.counters.reordered += 1
        else:
            due = max(due, self._last_due)
            self._last_due = due
        pieces = [data]
        if f.split and len(data) > 1 and rng.random() < f.split:
            self.counters.split += 1
            cuts = sorted(rng.sample(range(1, len(data)), min(len(data) - 1, rng.randint(1, 3))))
            pieces = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
        for piece in pieces:
            self._order += 1
            heapq.heappush(self._queue, (due, self._order, piece))
            due += rng.uniform(0.0, 0.002)
            self._last_due = max(self._last_due, due)

    def receive(self, now: float) -> bytes:
        """Every byte due by ``now``, in arrival order."""
        out = bytearray()
        queue = self._queue
        while queue and queue[0][0] <= now:
            out += heapq.heappop(queue)[2]
        return bytes(out)

    def unplug(self) -> None:
        self.connected = False
        self.counters.lost_unplugged += len(self._queue)
        self._queue.clear()

    def replug(self, now: float) -> None:
        self.connected = True
        self._last_due = now


class FaultyLink:
    """Both directions between a host end and a box end."""

    def __init__(
        self,
        rng: random.Random,
        to_box: Faults | None = None,
        to_host: Faults | None = None,
    ) -> None:
        self.to_box = FaultyChannel(rng, to_box)
        self.to_host = FaultyChannel(rng, to_host)

    @property
    def connected(self) -> bool:
        return self.to_box.connected

    def unplug(self) -> None:
        self.to_box.unplug()
        self.to_host.unplug()

    def replug(self, now: float) -> None:
        self.to_box.replug(now)
        self.to_host.replug(now)
