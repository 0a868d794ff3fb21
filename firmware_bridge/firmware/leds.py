"""LED modes on the wire and what they look like at a given moment.

A mode is ``0`` (off), ``1`` (on) or ``B<on_ms>/<off_ms>`` (blink, phase from time 0).
"""

OFF = "0"
ON = "1"
ABSENT_PATTERN = "B120/880"  # the "host absent" blip on LED 0; the others go dark
MAX_BLINK_MS = 60000


def parse_mode(mode: str):
    """(on_ms, off_ms) for ``mode``; (0, 1) for off, (1, 0) for on. None if malformed."""
    if mode == OFF:
        return (0, 1)
    if mode == ON:
        return (1, 0)
    if len(mode) < 4 or mode[0] != "B" or "/" not in mode:
        return None
    on, _, off = mode[1:].partition("/")
    if not on.isdigit() or not off.isdigit() or len(on) > 5 or len(off) > 5:
        return None
    on_ms = int(on)
    off_ms = int(off)
    if on_ms < 1 or off_ms < 1 or on_ms > MAX_BLINK_MS or off_ms > MAX_BLINK_MS:
        return None
    return (on_ms, off_ms)


def blink(on_ms: int, off_ms: int) -> str:
    mode = f"B{on_ms}/{off_ms}"
    if parse_mode(mode) is None:
        raise ValueError(f"blink times must be 1..{MAX_BLINK_MS} ms")
    return mode


def is_lit(mode: str, now: int) -> bool:
    """Whether an LED in ``mode`` is lit at ``now`` (ms ticks; unknown modes are dark)."""
    timing = parse_mode(mode)
    if timing is None:
        return False
    on_ms, off_ms = timing
    if off_ms == 0:
        return True
    if on_ms == 0:
        return False
    return now % (on_ms + off_ms) < on_ms


def absent_modes(count: int) -> list:
    """The LED modes shown while no host is talking to the box."""
    return [ABSENT_PATTERN] + [OFF] * (count - 1)
