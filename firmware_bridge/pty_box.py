"""FakePtyBox: the real firmware behind a pseudo-terminal that unplugs and replugs.

The firmware (``firmware.box.Box`` on a ``FakeMachine``) runs on its own thread in real
time, its serial port being the master side of a pty; the slave side is published under a
stable symlink (like ``/dev/serial/by-id/usb-MicroPython_Board_...-if00``), replaced
atomically on every replug. ``unplug()`` closes the pty, so the host's next read or write
fails exactly as with a pulled USB cable.
"""

from __future__ import annotations

import os
import queue
import random
import threading
import time
import tty
from pathlib import Path

from .fake_machine import FakeMachine
from .firmware.box import Box
from .firmware.config import CONFIG


class FakePtyBox:
    def __init__(
        self,
        link: str | Path,
        *,
        config: dict | None = None,
        reboot_on_replug: bool = True,
        seed: int | None = None,
    ) -> None:
        self.link = Path(link)
        self.config = dict(config or CONFIG)
        self.reboot_on_replug = reboot_on_replug
        self._rng = random.Random(seed)
        self._epoch = time.monotonic()
        self.machine = FakeMachine()
        self.box: Box | None = None
        self.boot_ids: list[str] = []
        self.write_failures = 0
        self._actions: queue.SimpleQueue[tuple[int, int | None, float | None]] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._master = -1
        self._slave = -1
        self.drive_log: list[tuple[float, int, int | None]] = []  # (monotonic, button, level)

    # -- plugging ------------------------------------------------------------------------
    @property
    def plugged(self) -> bool:
        return self._master >= 0

    def plug(self) -> FakePtyBox:
        if self.plugged:
            raise RuntimeError("already plugged in")
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        tmp = self.link.with_name(self.link.name + ".new")
        tmp.unlink(missing_ok=True)
        os.symlink(os.ttyname(self._slave), tmp)
        os.replace(tmp, self.link)
        if self.box is None:
            self._boot()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="fake-pty-box", daemon=True)
        self._thread.start()
        return self

    def unplug(self, timeout: float = 2.0) -> None:
        if not self.plugged:
            return
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self.link.unlink(missing_ok=True)
        os.close(self._master)
        os.close(self._slave)
        self._master = self._slave = -1
        if self.reboot_on_replug and self.box is not None:
            self.box.close()
            self.machine.reboot()
            self.box = None  # USB power is gone: the next plug boots afresh

    def replug(self) -> FakePtyBox:
        self.unplug()
        return self.plug()

    def close(self) -> None:
        self.unplug()
        if self.box is not None:
            self.box.close()
            self.box = None

    def __enter__(self) -> FakePtyBox:
        return self.plug()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the player's hands --------------------------------------------------------------
    def press(self, button: int, down: float = 0.05) -> None:
        """Press ``button`` now and release it ``down`` seconds later (no bounce)."""
        self._actions.put((button, 0, None))
        self._actions.put((button, 1, down))

    def drive(self, button: int, level: int | None) -> None:
        self._actions.put((button, level, None))

    # -- the board -------------------------------------------------------------------------
    def _now_ms(self) -> int:
        return int((time.monotonic() - self._epoch) * 1000)

    def _boot(self) -> None:
        self.machine.advance_to(max(self._now_ms(), self.machine.now_ms))
        self.box = Box(
            self.machine,
            self.config,
            self._read,
            self._write,
            self.machine.ticks_ms,
            self._rng.randbytes,
        )
        self.boot_ids.append(self.box.device.boot_id)

    def _read(self) -> bytes:
        try:
            return os.read(self._master, 4096)
        except (BlockingIOError, OSError):
            return b""

    def _write(self, data: bytes) -> None:
        try:
            os.write(self._master, data)
        except OSError:  # nobody reading and the pty buffer is full: USB CDC drops too
            self.write_failures += 1

    def _run(self) -> None:
        later: list[tuple[float, int, int | None]] = []
        pins = self.config["buttons"]
        while not self._stop.is_set():
            now = time.monotonic()
            while True:
                try:
                    button, level, after = self._actions.get_nowait()
                except queue.Empty:
                    break
                later.append((now + (after or 0.0), button, level))
            # Samples owed for the time before now see the old levels; then the hands move.
            self.machine.advance_to(max(self._now_ms(), self.machine.now_ms))
            due = [a for a in later if a[0] <= now]
            later = [a for a in later if a[0] > now]
            for _, button, level in sorted(due):
                pin = self.machine.pins[pins[button]]
                if level == 0:
                    pin.drive_low()
                elif level == 1:
                    pin.drive_high()
                else:
                    pin.release()
                self.drive_log.append((time.monotonic(), button, level))
            assert self.box is not None
            self.box.step()
            time.sleep(0.0005)
