"""The serial button box on the host: a pyserial port, the BBP/1 session and reconnection.

One worker thread owns the port: it opens it (``serial_for_url``, exclusive), feeds what it
reads to the ``HostSession``, writes what the session wants sent, and on any failure
(``SerialException``, ``OSError``, ``termios.error``: all mean "link lost") closes the port
and reopens it with backoff. Listeners run on a separate dispatcher thread, never on the
reader. ``status()`` gives the link state and counters for the dashboard.
"""

from __future__ import annotations

import errno
import logging
import termios
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import serial

from .backoff import Backoff
from .clock import Clock, MonotonicClock
from .dispatcher import Dispatcher
from .link import LinkState
from .ports import PortNotFound, PortSpec
from .session import DeviceInfo, HostSession, Notice, SessionConfig

log = logging.getLogger(__name__)

LINK_ERRORS: tuple[type[BaseException], ...] = (serial.SerialException, OSError, termios.error)
BAUDRATE = 115200  # USB CDC ignores it; a UART-bridged box must match


@dataclass(frozen=True, slots=True)
class BridgeStatus:
    state: LinkState
    reason: str
    port: str | None
    counters: dict[str, int]
    device: DeviceInfo | None
    buttons_down: int


BUSY = "another program has the box open"


class PortBusy(serial.SerialException):
    """The port is locked by another program (pyserial's "Could not exclusively lock port
    ...: Resource temporarily unavailable"): a box talks to one program at a time."""

    def __init__(self, url: str) -> None:
        super().__init__(errno.EBUSY, f"{BUSY} on {url}")
        self.url = url

    def __str__(self) -> str:
        return (
            f"{BUSY} on {self.url} (`tableside serve`, `tableside bridge monitor` or "
            "mpremote): it talks to one program at a time; tried again until it is free"
        )


def open_serial(url: str, baudrate: int = BAUDRATE, read_timeout: float = 0.01) -> Any:
    """The port at ``url`` opened exclusively (a path, /dev/serial/by-id/..., loop://, ...);
    ``PortBusy`` when another program holds it."""
    try:
        return serial.serial_for_url(
            url, baudrate=baudrate, timeout=read_timeout, write_timeout=1.0, exclusive=True
        )
    except serial.SerialException as exc:
        if exc.errno in (errno.EAGAIN, errno.EWOULDBLOCK) and "lock" in str(exc):
            raise PortBusy(url) from exc
        raise


class SerialBridge:
    def __init__(
        self,
        port: str | PortSpec = "auto",
        *,
        clock: Clock | None = None,
        leds: int = 4,
        session_config: SessionConfig | None = None,
        opener: Callable[[str], Any] = open_serial,
        backoff: Backoff | None = None,
        wrong_device_backoff: Backoff | None = None,
        resolve: Callable[[], str] | None = None,
    ) -> None:
        self._spec = port if isinstance(port, PortSpec) else PortSpec(port)
        self._resolve = resolve or self._spec.resolve
        self._clock = clock or MonotonicClock()
        self._opener = opener
        self._backoff = backoff or Backoff(0.25, 5.0)
        self._slow_backoff = wrong_device_backoff or Backoff(30.0, 300.0)
        self._session = HostSession(leds=leds, config=session_config)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._dispatcher: Dispatcher[Notice] = Dispatcher("bridge-listeners")
        self._port_name: str | None = None
        self._port: Any = None
        self._thread = threading.Thread(target=self._run, name="bridge-serial", daemon=True)

    # -- public ----------------------------------------------------------------------------
    def start(self) -> SerialBridge:
        self._thread.start()
        return self

    def add_listener(self, listener: Callable[[Notice], None]) -> None:
        """``listener`` gets every ButtonEvent, StaleEvent, LinkChanged, DeviceReset..."""
        self._dispatcher.add_listener(listener)

    def set_leds(self, modes: Sequence[str]) -> None:
        with self._lock:
            self._session.set_leds(modes, self._clock.now())

    def status(self) -> BridgeStatus:
        with self._lock:
            s = self._session
            return BridgeStatus(
                s.state, s.reason, self._port_name, s.counters.as_dict(), s.device, s.device_buttons
            )

    @property
    def listener_failures(self) -> int:
        """Listener calls that raised (logged; the listener keeps getting later notices)."""
        return self._dispatcher.failures

    @property
    def listener_overflows(self) -> int:
        """Notices dropped because listeners fell more than 1024 notices behind."""
        return self._dispatcher.overflows

    def stop(self, timeout: float = 2.0) -> bool:
        """Say BYE, close the port and end both threads; False if one did not end in time."""
        self._stop.set()
        worker_done = True
        if self._thread.is_alive():
            self._thread.join(timeout)
            worker_done = not self._thread.is_alive()
        return self._dispatcher.stop(timeout) and worker_done

    def close(self) -> None:
        self.stop()

    def __enter__(self) -> SerialBridge:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- worker ----------------------------------------------------------------------------
    def _run(self) -> None:
        """The supervised thread: a failure of the bridge's own (a bug, not the link, whose
        errors the session handles) is logged and said in the status, and the bridge
        starts over after a pause, rather than the box going quiet for the rest of the
        game."""
        while not self._stop.is_set():
            try:
                self._work()
            except Exception as exc:
                log.exception("the button box's bridge failed; starting it again")
                self._unavailable(f"the bridge failed ({type(exc).__name__}: {exc}); "
                                  "starting again")
                self._stop.wait(self._backoff.next_delay())

    def _work(self) -> None:
        while not self._stop.is_set():
            port = self._open()
            if port is None:
                self._stop.wait(self._backoff.next_delay())
                continue
            try:
                outcome = self._serve(port)
            finally:
                self._close_port(port)
            if outcome in (LinkState.WRONG_DEVICE, LinkState.INCOMPATIBLE):
                self._stop.wait(self._slow_backoff.next_delay())
            elif outcome is not None:
                self._stop.wait(self._backoff.next_delay())

    def _open(self) -> Any:
        try:
            name = self._resolve()
            port = self._opener(name)
        except PortNotFound as exc:
            self._unavailable(str(exc))
            return None
        except LINK_ERRORS as exc:
            self._unavailable(f"cannot open the port: {exc}")
            return None
        except (ValueError, LookupError) as exc:  # a URL's options pyserial cannot read
            log.warning("cannot open the port %s: %r", name, exc)
            self._unavailable(f"cannot open the port: {type(exc).__name__}: {exc}")
            return None
        self._port_name = name
        return port

    def _unavailable(self, reason: str) -> None:
        with self._lock:
            self._session.port_unavailable(reason)
            notices = self._session.notices()
        self._publish(notices)

    def _serve(self, port: Any) -> LinkState | None:
        """Run the session on an open port; the state that ended it, None when stopped."""
        session = self._session
        with self._lock:
            session.connection_made(self._clock.now())
        while True:
            with self._lock:
                out = session.data_to_send()
                notices = session.notices()
                state = session.state
            self._publish(notices)
            try:
                if self._stop.is_set():
                    if session.is_established:
                        port.write(session.goodbye())
                    return None
                if out and state not in (LinkState.WRONG_DEVICE, LinkState.INCOMPATIBLE):
                    port.write(out)
                if state in (LinkState.LOST, LinkState.WRONG_DEVICE, LinkState.INCOMPATIBLE):
                    return state
                if state.is_up:
                    self._backoff.reset()
                    self._slow_backoff.reset()
                waiting = port.in_waiting
                data = port.read(waiting or 1)
            except LINK_ERRORS as exc:
                with self._lock:
                    session.connection_lost(self._clock.now(), f"link lost: {exc}")
                    notices = session.notices()
                self._publish(notices)
                return LinkState.LOST
            with self._lock:
                now = self._clock.now()
                if data:
                    session.receive(data, now)
                session.tick(now)

    def _close_port(self, port: Any) -> None:
        # pyserial 3.5's socket:// close() skips socket.close() when shutdown() fails (as it
        # does once the peer has gone), leaking the socket: close it ourselves as well.
        sock = getattr(port, "_socket", None)
        try:
            port.close()
        except LINK_ERRORS as exc:
            log.debug("closing the port failed: %s", exc)
        if sock is not None:
            sock.close()

    def _publish(self, notices: list[Notice]) -> None:
        for notice in notices:
            self._dispatcher.publish(notice)
