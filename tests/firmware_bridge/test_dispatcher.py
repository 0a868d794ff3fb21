from __future__ import annotations

import threading

from firmware_bridge.dispatcher import Dispatcher


def test_dispatcher_calls_listeners_on_its_own_thread_in_order() -> None:
    seen: list[tuple[int, str]] = []
    d: Dispatcher[int] = Dispatcher("test-listeners")
    d.add_listener(lambda item: seen.append((item, threading.current_thread().name)))
    for i in range(5):
        d.publish(i)
    assert d.stop(2.0)
    assert seen == [(i, "test-listeners") for i in range(5)]


def test_dispatcher_survives_a_failing_listener() -> None:
    seen: list[int] = []

    def bad(item: int) -> None:
        raise RuntimeError("listener bug")

    d: Dispatcher[int] = Dispatcher("test-listeners")
    d.add_listener(bad)
    d.add_listener(seen.append)
    d.publish(1)
    d.publish(2)
    assert d.stop(2.0)
    assert seen == [1, 2] and d.failures == 2


def test_dispatcher_drops_and_counts_when_the_queue_is_full() -> None:
    gate = threading.Event()
    d: Dispatcher[int] = Dispatcher("test-listeners", maxsize=2)
    d.add_listener(lambda item: gate.wait(2.0))
    for i in range(10):
        d.publish(i)
    assert d.overflows >= 7
    gate.set()
    assert d.stop(2.0)
