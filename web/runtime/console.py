"""The hardware as ``serve`` tells it on its terminal: which camera and button box it found
at start, a line each time one comes, goes or comes back, and the camera's word when its
tray setup no longer fits (docs/runtime.md, "On the terminal").

The phones show the same on the hardware page (``GET /api/hardware``); this is for whoever
started Tableside from a keyboard and plugs things in beside it. Lines are worked out from
two status snapshots by :func:`changes`, which is pure; :class:`HardwareConsole` polls the
runtime's status on a thread of its own.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from web.runtime.status import ABSENT, LOST, REOPENING, RUNNING

Status = Mapping[str, Any]

# Passing states (a retry under way; a late heartbeat) are not written, so a part working
# its way back does not fill the terminal; the lasting state it comes to is.
PASSING = {"camera": {REOPENING}, "button_box": {"connecting", "degraded"}}

START_GRACE = 2.0  # seconds for the loops to find their hardware before the first report
POLL = 0.5  # seconds between looks at the status

log = logging.getLogger(__name__)


def _camera(part: Status) -> str:
    source = part.get("source") or "the camera"
    state = part.get("state")
    if state == RUNNING:
        setup = part.get("setup")
        return f"Camera: reading {source}" + (f" (tray setup {setup})" if setup else "")
    if state == LOST:
        return f"Camera: {source} is lost ({part.get('detail')}); trying to open it again"
    return f"Camera: {part.get('detail')}"


def _box(part: Status) -> str:
    state = part.get("state")
    port = part.get("port")
    if state == "connected":
        firmware = part.get("firmware")
        simulated = " (simulated)" if part.get("simulated") else ""
        return (f"Button box: connected on {port}{simulated}"
                + (f", firmware {firmware}" if firmware else ""))
    if state == LOST:
        return f"Button box: lost on {port} ({part.get('detail')}); reconnecting"
    return f"Button box: {part.get('detail')}"


def _gpio(part: Status) -> str | None:
    if part.get("state") == RUNNING:
        pins = ", ".join(str(pin) for pin in part.get("buttons") or ())
        return f"GPIO buttons: {part.get('model') or 'Raspberry Pi'}, BCM pins {pins}"
    if part.get("is_pi"):  # a Pi whose GPIO could not be used, or was turned off
        return f"GPIO buttons: {part.get('detail')}"
    return None  # not a Pi: nothing to say


def _key(part: Status) -> tuple[Any, ...]:
    """What must change for a new line: the state, the camera's tray setup (one checked from
    a phone), and for a part not working, the reason (another reason is news: "no camera
    found" becoming "cannot open camera:0")."""
    state = part.get("state")
    working = state in (RUNNING, "connected", "ok")
    return (state, part.get("source"), part.get("port"), part.get("setup"),
            None if working else part.get("detail"))


def _power(part: Status) -> str:
    heat = part.get("temperature_c")
    return f"Power: {part.get('detail')}" + (f" ({heat:.0f} °C now)" if heat is not None
                                             else "")


def _storage(part: Status) -> str:
    return f"Storage: {part.get('detail')}"


LINES: dict[str, Callable[[Status], str | None]] = {
    "camera": _camera, "button_box": _box, "gpio": _gpio, "power": _power,
    "storage": _storage}
# a part whose detail changes without news (the storage's free megabytes) is told again
# only when its state, or the cause of it, changes
KEYS: dict[str, Callable[[Status], tuple[Any, ...]]] = {
    "storage": lambda part: (part.get("state"), part.get("cause"))}


def changes(before: Status | None, now: Status) -> list[str]:
    """The lines that tell what changed from ``before`` to ``now`` (two ``/api/hardware``
    snapshots; ``before`` None: the first look, when every part is told). Parts in a
    passing state are not told; what they were before is kept by the caller's snapshot."""
    lines = []
    for name, line in LINES.items():
        part = now.get(name)
        if not isinstance(part, Mapping) or part.get("state") in PASSING.get(name, ()):
            continue
        old = before.get(name) if before is not None else None
        key = KEYS.get(name, _key)
        if isinstance(old, Mapping) and key(old) == key(part):
            continue
        text = line(part)
        if text:
            lines.append(text)
    return lines + _setup_note(before, now)


def _setup_note(before: Status | None, now: Status) -> list[str]:
    """The camera's word on its tray setup when it comes (the tray no longer looks like its
    check; wood taken into the tray), once: it stays in the status until the tray is
    checked again."""
    camera, old = now.get("camera"), before.get("camera") if before is not None else None
    note = camera.get("setup_note") if isinstance(camera, Mapping) else None
    if not note or (isinstance(old, Mapping) and old.get("setup_note") == note):
        return []
    return [f"Camera: {note}"]


def _lasting(before: Status | None, now: Status) -> dict[str, Any]:
    """``now``, with a part in a passing state kept as it was last told."""
    kept = dict(now)
    for name, passing in PASSING.items():
        part = now.get(name)
        if isinstance(part, Mapping) and part.get("state") in passing:
            kept[name] = before.get(name) if before is not None else {"state": ABSENT}
    return kept


class HardwareConsole:
    """Polls ``status()`` and writes :func:`changes` to ``out``, on a daemon thread."""

    def __init__(self, status: Callable[[], Status], out: TextIO, *,
                 grace: float = START_GRACE, poll: float = POLL) -> None:
        self._status = status
        self._out = out
        self._grace = grace
        self._poll = poll
        self._told: Status | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def look(self) -> list[str]:
        """One look: the lines written (tests call this directly)."""
        now = self._status()
        lines = changes(self._told, now)
        self._told = _lasting(self._told, now)
        for text in lines:
            print(text, file=self._out, flush=True)
        return lines

    def start(self) -> HardwareConsole:
        self._thread = threading.Thread(target=self._run, name="hardware-console",
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)

    def _run(self) -> None:
        if self._stop.wait(self._grace):
            return
        while True:
            try:
                self.look()
            except Exception:  # a status that cannot be read now may be readable next time
                log.debug("the hardware status could not be read", exc_info=True)
            if self._stop.wait(self._poll):
                return
