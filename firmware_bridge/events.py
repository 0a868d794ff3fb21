"""What every button source yields: ``ButtonEvent(button, kind, seq, time)``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ButtonKind(StrEnum):
    PRESS = "press"
    HOLD = "hold"
    RELEASE = "release"

    @classmethod
    def from_wire(cls, code: str) -> ButtonKind:
        """The kind for a BBP/1 code ("P", "H", "R"); ValueError for anything else."""
        try:
            return _WIRE[code]
        except KeyError:
            raise ValueError(f"unknown button edge code {code!r}") from None


_WIRE = {"P": ButtonKind.PRESS, "H": ButtonKind.HOLD, "R": ButtonKind.RELEASE}


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    """A debounced button edge.

    ``seq`` increases by one per event of a source (``source`` names it, e.g.
    ``"serial:1a2b3c4d"`` with the box's boot id, ``"gpio"``, ``"keys"``); ``time`` is when
    the edge happened, in the clock of the process that received it (seconds).
    """

    button: int
    kind: ButtonKind
    seq: int
    time: float
    source: str = ""


@dataclass(frozen=True, slots=True)
class StaleEvent:
    """An event that reached the host later than the stale limit: reported, never acted on."""

    event: ButtonEvent
    age: float
