"""Runs listeners on a thread of their own, so that no reader or sampler ever waits on them."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")
_POLL = 0.05  # seconds between looks at the stop event while idle


class Dispatcher(Generic[T]):
    """A bounded queue drained by one thread that calls every listener with every item.

    ``publish`` never blocks: when the queue is full the item is dropped and counted. A
    listener that raises is logged and keeps receiving later items.
    """

    def __init__(self, name: str, maxsize: int = 1024) -> None:
        self._queue: queue.Queue[object] = queue.Queue(maxsize)
        self._listeners: list[Callable[[T], None]] = []
        self._lock = threading.Lock()
        self.overflows = 0
        self.failures = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def add_listener(self, listener: Callable[[T], None]) -> None:
        with self._lock:
            self._listeners.append(listener)

    def remove_listener(self, listener: Callable[[T], None]) -> None:
        with self._lock:
            self._listeners.remove(listener)

    def publish(self, item: T) -> None:
        try:
            self._queue.put_nowait(item)
        except queue.Full:
            self.overflows += 1

    def _run(self) -> None:
        while True:
            try:
                item = self._queue.get(timeout=_POLL)
            except queue.Empty:
                if self._stop.is_set():
                    return
                continue
            with self._lock:
                listeners = list(self._listeners)
            for listener in listeners:
                try:
                    listener(item)  # type: ignore[arg-type]
                except Exception:
                    self.failures += 1
                    log.exception("button listener failed on %r", item)

    def stop(self, timeout: float = 2.0) -> bool:
        """Deliver what is queued, then stop; False if the thread did not end in time."""
        self._stop.set()
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def close(self) -> None:
        self.stop()

    def __enter__(self) -> Dispatcher[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
