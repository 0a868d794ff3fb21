"""Readable lines for live events and link health (``tableside bridge monitor``)."""

from __future__ import annotations

import threading
from typing import TextIO

from .bridge import BridgeStatus
from .clock import Clock, MonotonicClock
from .events import ButtonEvent, StaleEvent
from .link import LinkState
from .session import DeviceInfo, DeviceReset, EventsDropped, LinkChanged, Notice


def describe(notice: Notice | object) -> str:
    """One line for a notice from a button source."""
    if isinstance(notice, ButtonEvent):
        return f"button {notice.button} {notice.kind} (seq {notice.seq}, {notice.source})"
    if isinstance(notice, StaleEvent):
        e = notice.event
        return (
            f"STALE button {e.button} {e.kind} from {notice.age:.1f} s ago "
            f"(seq {e.seq}, {e.source}): reported, not acted on"
        )
    if isinstance(notice, LinkChanged):
        return f"link {notice.state}: {notice.reason}"
    if isinstance(notice, DeviceInfo):
        return (
            f"box {notice.board}: firmware {notice.firmware}, protocol {notice.proto}, "
            f"boot {notice.boot_id}, {notice.caps}"
        )
    if isinstance(notice, DeviceReset):
        return f"box restarted (boot {notice.old_boot_id} -> {notice.new_boot_id})"
    if isinstance(notice, EventsDropped):
        return f"box queue overflowed while away: {notice.count} oldest events dropped"
    return repr(notice)


def health(status: BridgeStatus) -> str:
    """One line of the link's health; unless it is connected, with why (the port that
    cannot be opened, no box found, a heartbeat late...)."""
    c = status.counters
    down = [str(i) for i in range(8) if status.buttons_down >> i & 1]
    why = f" ({status.reason})" if status.state is not LinkState.CONNECTED and status.reason \
        else ""
    return (
        f"health: {status.state}{why} on {status.port or '-'} | frames {c['frames']} "
        f"crc {c['crc_errors']} format {c['format_errors']} noise {c['noise_bytes']} | "
        f"events {c['delivered']} dup {c['duplicates']} gaps {c['gaps']} "
        f"stale {c['stale']} dropped {c['dropped']} retx {c['retransmits']} | "
        f"resets {c['device_resets']} losses {c['link_losses']} | "
        f"down [{' '.join(down)}]"
    )


class Monitor:
    """Prints every notice as it arrives, stamped with seconds since start (a listener)."""

    def __init__(self, out: TextIO, clock: Clock | None = None) -> None:
        self._out = out
        self._clock = clock or MonotonicClock()
        self._start = self._clock.now()
        self._lock = threading.Lock()

    def __call__(self, notice: Notice | object) -> None:
        self.line(describe(notice))

    def line(self, text: str) -> None:
        with self._lock:
            self._out.write(f"{self._clock.now() - self._start:9.3f}s  {text}\n")
            self._out.flush()
