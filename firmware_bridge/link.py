"""Link health as the dashboard sees it: a state and counters."""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum


class LinkState(StrEnum):
    DISCONNECTED = "disconnected"  # no port open (absent, unplugged, waiting to retry)
    CONNECTING = "connecting"  # port open, handshake under way
    CONNECTED = "connected"  # session up, heartbeats on time
    DEGRADED = "degraded"  # session up, but a heartbeat is late or frames are failing
    LOST = "lost"  # silence past the limit, or the port failed: reconnecting
    WRONG_DEVICE = "wrong_device"  # something answers, but not BBP/1: left alone
    INCOMPATIBLE = "incompatible"  # a button box with another protocol major version

    @property
    def is_up(self) -> bool:
        return self in (LinkState.CONNECTED, LinkState.DEGRADED)


@dataclass(slots=True)
class LinkCounters:
    frames: int = 0
    crc_errors: int = 0
    format_errors: int = 0
    overflows: int = 0
    noise_bytes: int = 0
    delivered: int = 0
    duplicates: int = 0
    gaps: int = 0
    stale: int = 0
    dropped: int = 0  # events the box dropped from a full queue
    retransmits: int = 0  # as reported by the box
    device_resets: int = 0
    connects: int = 0
    link_losses: int = 0

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}
