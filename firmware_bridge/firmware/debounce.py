"""Debouncing by periodic sampling, with press / hold / release edges.

``Debouncer.sample(raw_bitmap, now_ms)`` is called from a periodic timer (every
``sample_ms``); a button's level is accepted once it has read the same for ``samples``
consecutive samples. A button stably down for ``hold_ms`` yields one HOLD. A button already
down when the debouncer starts (the box booting, a replug) yields nothing, not even its
release: it was pressed for something else, before this start. Edges go into a
preallocated single-producer/single-consumer ring so that the timer callback never touches
the protocol state that the main loop owns.
"""

from .bbp import ticks_diff

PRESS = "P"
HOLD = "H"
RELEASE = "R"
KINDS = (PRESS, HOLD, RELEASE)


class EdgeRing:
    """Fixed-size ring of (button, kind, t_ms, bitmap) edges; the producer never allocates.

    One slot stays free to tell full from empty, so the ring holds ``capacity`` edges.
    """

    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        size = capacity + 1
        self.capacity = capacity
        self._size = size
        self._button = [0] * size
        self._kind = [PRESS] * size
        self._time = [0] * size
        self._bitmap = [0] * size
        self._head = 0  # next slot to write (producer only)
        self._tail = 0  # next slot to read (consumer only)
        self.overflows = 0

    def __len__(self) -> int:
        return (self._head - self._tail) % self._size

    def put(self, button: int, kind: str, t_ms: int, bitmap: int) -> bool:
        head = self._head
        nxt = (head + 1) % self._size
        if nxt == self._tail:
            self.overflows += 1
            return False
        self._button[head] = button
        self._kind[head] = kind
        self._time[head] = t_ms
        self._bitmap[head] = bitmap
        self._head = nxt
        return True

    def get(self):
        """The oldest edge as (button, kind, t_ms, bitmap), or None when empty."""
        tail = self._tail
        if tail == self._head:
            return None
        edge = (self._button[tail], self._kind[tail], self._time[tail], self._bitmap[tail])
        self._tail = (tail + 1) % self._size
        return edge


class Debouncer:
    """Integrating debouncer for up to 32 buttons; ``raw`` bit i set means button i is down."""

    def __init__(self, count: int, samples: int = 4, hold_ms: int = 600, ring=None) -> None:
        if count < 1 or count > 32:
            raise ValueError("between 1 and 32 buttons")
        if samples < 1:
            raise ValueError("samples must be at least 1")
        self.count = count
        self.samples = samples
        self.hold_ms = hold_ms
        self.stable = 0  # debounced bitmap
        self.held = 0  # buttons that already reported HOLD in this press
        self.stale = 0  # down since before the start: no edges until released
        self._unsettled = (1 << count) - 1  # first level not yet read `samples` times
        self._first = 0  # the level an unsettled button read last
        self._runs = [0] * count
        self._down_at = [0] * count
        self.ring = ring if ring is not None else EdgeRing(32)

    def sample(self, raw: int, now: int) -> None:
        stable = self.stable
        for i in range(self.count):
            bit = 1 << i
            is_down = raw & bit
            if self._unsettled & bit:
                if self._settle(i, bit, is_down, now):
                    stable |= bit
                continue
            was_down = stable & bit
            if bool(is_down) != bool(was_down):
                run = self._runs[i] + 1
                if run < self.samples:
                    self._runs[i] = run
                    continue
                self._runs[i] = 0
                stable ^= bit
                if is_down:
                    self._down_at[i] = now
                    self.ring.put(i, PRESS, now, stable)
                elif self.stale & bit:
                    self.stale &= ~bit  # released at last: its next press counts
                else:
                    self.held &= ~bit
                    self.ring.put(i, RELEASE, now, stable)
            else:
                self._runs[i] = 0
                if (
                    was_down
                    and not (self.held | self.stale) & bit
                    and self.hold_ms > 0
                    and ticks_diff(now, self._down_at[i]) >= self.hold_ms
                ):
                    self.held |= bit
                    self.ring.put(i, HOLD, now, stable)
        self.stable = stable

    def _settle(self, i: int, bit: int, is_down: int, now: int) -> bool:
        """A button's first level, once read ``samples`` times in a row: down (True) means
        held since before the start (stale), up means ready for its first press."""
        if bool(is_down) == bool(self._first & bit):
            run = self._runs[i] + 1
        else:
            self._first ^= bit
            run = 1
        if run < self.samples:
            self._runs[i] = run
            return False
        self._runs[i] = 0
        self._unsettled &= ~bit
        if not is_down:
            return False
        self.stale |= bit
        self._down_at[i] = now
        return True
