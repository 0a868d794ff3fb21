"""A whole button box and host in one process, on virtual time: the fault harness.

``Rig`` wires the real firmware (``firmware.box.Box`` on a ``FakeMachine``) through a
``FaultyLink`` to a ``HostSession``, with a transport stand-in that reconnects after a
lost link. Presses are physical: pins driven low and high with contact bounce. It records
every debounced edge the firmware produced (the truth) and every event the host reported,
so tests and ``benchmarks/bench_bridge_faults.py`` can count what was lost, doubled,
reordered or stale.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .events import ButtonEvent, ButtonKind, StaleEvent
from .fake_machine import FakeMachine
from .faulty_link import Faults, FaultyLink
from .firmware.box import Box
from .firmware.config import CONFIG
from .link import LinkState
from .session import HostSession, Notice, SessionConfig

BOUNCE_MS = (1, 1, 1)  # contact bounce: flips 1 ms apart before the level settles


@dataclass(frozen=True, slots=True)
class Truth:
    """A debounced edge as the firmware saw it; (boot_id, index) is the edge's identity."""

    boot_id: str
    index: int
    button: int
    kind: ButtonKind


@dataclass(slots=True)
class Tally:
    generated: int = 0
    fresh: int = 0
    stale: int = 0
    lost: int = 0
    doubled: int = 0
    out_of_order: int = 0
    mismatched: int = 0
    dropped_by_box: int = 0
    unaccounted: int = 0


@dataclass(slots=True)
class _Plan:
    actions: list[tuple[int, int, int, int | None]] = field(default_factory=list)
    order: int = 0

    def add(self, at_ms: int, pin: int, level: int | None) -> None:
        self.order += 1
        heapq.heappush(self.actions, (at_ms, self.order, pin, level))


class Rig:
    def __init__(
        self,
        *,
        seed: int = 1,
        to_box: Faults | None = None,
        to_host: Faults | None = None,
        config: dict | None = None,
        session: SessionConfig | None = None,
        step_ms: int = 1,
        reconnect_after: float = 0.5,
    ) -> None:
        self.rng = random.Random(seed)
        self.config = dict(config or CONFIG)
        self.machine = FakeMachine()
        self.link = FaultyLink(self.rng, to_box, to_host)
        self.host = HostSession(config=session, leds=len(self.config["leds"]), nonce="0a0b0c0d")
        self.step_ms = step_ms
        self.reconnect_after = reconnect_after
        self.truth: list[Truth] = []
        self.notices: list[Notice] = []
        self.reports: list[ButtonEvent | StaleEvent] = []
        self.boots: list[str] = []
        self._plan = _Plan()
        self._reconnect_at: float | None = None
        self._dropped_before = 0  # by boxes that have since rebooted
        self.box = self._boot()
        self.host.connection_made(self.now)

    # -- time ----------------------------------------------------------------------------
    @property
    def now(self) -> float:
        return self.machine.now_ms / 1000

    @property
    def now_ms(self) -> int:
        return self.machine.now_ms

    def run(self, seconds: float) -> None:
        end = self.machine.now_ms + int(round(seconds * 1000))
        while self.machine.now_ms < end:
            self.step()

    def run_until(self, predicate: Callable[[], bool], limit: float) -> bool:
        end = self.machine.now_ms + int(round(limit * 1000))
        while self.machine.now_ms < end:
            if predicate():
                return True
            self.step()
        return predicate()

    def step(self) -> None:
        m = self.machine
        target = m.now_ms + self.step_ms
        plan = self._plan.actions
        while plan and plan[0][0] <= target:
            at_ms, _, pin, level = heapq.heappop(plan)
            if at_ms > m.now_ms:
                m.advance_to(at_ms)
            self._drive(pin, level)
        m.advance_to(target)
        now = self.now
        self.box.step()
        host = self.host
        if self.link.connected and host.state not in (LinkState.LOST, LinkState.DISCONNECTED):
            host.receive(self.link.to_host.receive(now), now)
        host.tick(now)
        out = host.data_to_send()
        if out and self.link.connected:
            self.link.to_box.send(out, now)
        self._collect()
        self._maybe_reconnect(now)

    def _collect(self) -> None:
        for notice in self.host.notices():
            self.notices.append(notice)
            if isinstance(notice, ButtonEvent | StaleEvent):
                self.reports.append(notice)

    def _maybe_reconnect(self, now: float) -> None:
        host = self.host
        if not self.link.connected:
            return
        if host.state is LinkState.LOST:
            if self._reconnect_at is None:
                self._reconnect_at = now + self.reconnect_after
            elif now >= self._reconnect_at:
                self._reconnect_at = None
                self.link.to_host.receive(float("inf"))  # what sat in the old port's buffer
                host.connection_made(now)

    # -- the physical world --------------------------------------------------------------
    def _drive(self, button: int, level: int | None) -> None:
        pin = self.machine.pins[self.config["buttons"][button]]
        if level == 0:
            pin.drive_low()
        elif level == 1:
            pin.drive_high()
        else:
            pin.release()

    def press(self, button: int, down_ms: int, at_ms: int | None = None, bounce: bool = True):
        """Schedule a physical press of ``down_ms``; returns when the release settles (ms)."""
        start = self.machine.now_ms + 1 if at_ms is None else at_ms
        t = start
        if bounce:
            for flip, gap in enumerate(BOUNCE_MS):
                self._plan.add(t, button, flip % 2)
                t += gap
        self._plan.add(t, button, 0)
        t = start + down_ms
        if bounce:
            for flip, gap in enumerate(BOUNCE_MS):
                self._plan.add(t, button, 1 - flip % 2)
                t += gap
        self._plan.add(t, button, 1)
        return t

    def presses_pending(self) -> bool:
        return bool(self._plan.actions)

    # -- faults ----------------------------------------------------------------------------
    def unplug(self) -> None:
        self.link.unplug()
        self.host.connection_lost(self.now, "unplugged")

    def replug(self) -> None:
        self.link.replug(self.now)
        self._reconnect_at = None
        self.host.connection_made(self.now)

    def reboot(self) -> None:
        """A power glitch: the firmware starts over with a new boot id; RAM is gone."""
        self._dropped_before += self.box.device.dropped
        self.box.close()
        self.machine.reboot()
        self.box = self._boot()

    def _boot(self) -> Box:
        box = Box(
            self.machine,
            self.config,
            lambda: self.link.to_box.receive(self.now),
            lambda data: self.link.to_host.send(data, self.now),
            self.machine.ticks_ms,
            self.rng.randbytes,
        )
        boot = box.device.boot_id
        self.boots.append(boot)
        push = box.device.push
        counter = iter(range(1 << 62))

        def recording_push(button: int, kind: str, t_ms: int, bitmap: int) -> None:
            self.truth.append(Truth(boot, next(counter), button, ButtonKind.from_wire(kind)))
            push(button, kind, t_ms, bitmap)

        box.device.push = recording_push  # type: ignore[method-assign]
        return box

    def set_faults(self, to_box: Faults, to_host: Faults) -> None:
        self.link.to_box.faults = to_box
        self.link.to_host.faults = to_host

    # -- accounting ----------------------------------------------------------------------
    def tally(self) -> Tally:
        return tally(self.truth, self.reports, self.box_dropped())

    def box_dropped(self) -> int:
        return self._dropped_before + self.box.device.dropped


def tally(
    truth: Iterable[Truth], reports: Iterable[ButtonEvent | StaleEvent], dropped: int = 0
) -> Tally:
    """Compare the edges the firmware produced with what the host reported."""
    truth = list(truth)
    order = {(t.boot_id, t.index): i for i, t in enumerate(truth)}
    result = Tally(generated=len(truth), dropped_by_box=dropped)
    seen: dict[tuple[str, int], int] = {}
    last = -1
    for report in reports:
        event = report.event if isinstance(report, StaleEvent) else report
        if isinstance(report, StaleEvent):
            result.stale += 1
        else:
            result.fresh += 1
        key = (event.source.removeprefix("serial:"), event.seq)
        position = order.get(key)
        if position is None:
            result.unaccounted += 1
            continue
        t = truth[position]
        if (t.button, t.kind) != (event.button, event.kind):
            result.mismatched += 1
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            result.doubled += 1
            continue
        if position < last:
            result.out_of_order += 1
        last = max(last, position)
    result.lost = sum(1 for t in truth if (t.boot_id, t.index) not in seen)
    return result
