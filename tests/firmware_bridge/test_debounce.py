from __future__ import annotations

import pytest

from firmware_bridge.firmware.debounce import HOLD, PRESS, RELEASE, Debouncer, EdgeRing


def drain(ring: EdgeRing) -> list[tuple[int, str, int, int]]:
    out = []
    while (edge := ring.get()) is not None:
        out.append(edge)
    return out


def ready(debouncer: Debouncer, start: int = 0, period: int = 2) -> Debouncer:
    """Every button read released just before ``start``, as after a start with hands off."""
    for k in range(debouncer.samples, 0, -1):
        debouncer.sample(0, start - k * period)
    return debouncer


def run(debouncer: Debouncer, levels: list[int], start: int = 0, period: int = 2) -> int:
    t = start
    for raw in levels:
        debouncer.sample(raw, t)
        t += period
    return t


def test_debounce_bounce_shorter_than_the_window_yields_one_press_and_one_release() -> None:
    d = ready(Debouncer(2, samples=4, hold_ms=0))
    run(d, [1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 0, 1, 0, 0, 0, 0, 0])
    assert [(b, k) for b, k, _, _ in drain(d.ring)] == [(0, PRESS), (0, RELEASE)]


def test_debounce_accepts_a_level_after_n_equal_samples() -> None:
    d = ready(Debouncer(1, samples=4, hold_ms=0))
    run(d, [1, 1, 1])
    assert drain(d.ring) == []
    d.sample(1, 6)
    assert drain(d.ring) == [(0, PRESS, 6, 1)]


def test_debounce_hold_fires_once_after_hold_ms_then_release() -> None:
    d = ready(Debouncer(1, samples=1, hold_ms=600))
    run(d, [1] * 400)  # 800 ms down
    run(d, [0], start=800)
    kinds = [(k, t) for _, k, t, _ in drain(d.ring)]
    assert kinds == [(PRESS, 0), (HOLD, 600), (RELEASE, 800)]


def test_debounce_edges_carry_the_whole_bitmap() -> None:
    d = ready(Debouncer(3, samples=1, hold_ms=0))
    d.sample(0b001, 0)
    d.sample(0b101, 2)
    d.sample(0b100, 4)
    assert [(b, k, m) for b, k, _, m in drain(d.ring)] == [
        (0, PRESS, 0b001),
        (2, PRESS, 0b101),
        (0, RELEASE, 0b100),
    ]


def test_debounce_hold_survives_ticks_wrapping() -> None:
    start = (1 << 30) - 50
    d = ready(Debouncer(1, samples=1, hold_ms=100), start)
    t = start
    for _ in range(60):
        d.sample(1, t % (1 << 30))
        t += 2
    assert [k for _, k, _, _ in drain(d.ring)] == [PRESS, HOLD]


def test_debounce_a_button_down_at_the_start_gives_nothing_until_released() -> None:
    # Held through a replug: its press was for something before; its release, and any hold,
    # mean nothing either. Its next press is a press like any other.
    d = Debouncer(2, samples=4, hold_ms=600)
    t = run(d, [0b01] * 400)  # 800 ms down from the start
    assert drain(d.ring) == []
    assert d.stable == 0b01  # the heartbeat still says it is down
    t = run(d, [0b11] * 6 + [0b01] * 6, start=t)  # another button works meanwhile
    assert [(b, k, m) for b, k, _, m in drain(d.ring)] == [(1, PRESS, 0b11), (1, RELEASE, 0b01)]
    t = run(d, [0] * 6 + [1] * 6 + [0] * 6, start=t)
    assert [(b, k, m) for b, k, _, m in drain(d.ring)] == [(0, PRESS, 1), (0, RELEASE, 0)]


def test_debounce_a_bouncing_start_settles_before_a_button_counts_as_held() -> None:
    d = Debouncer(1, samples=4, hold_ms=0)
    run(d, [1, 0, 1, 1, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0])
    assert drain(d.ring) == []  # down at the start, however it bounced: no press, no release
    d = Debouncer(1, samples=4, hold_ms=0)
    run(d, [0, 1, 0, 0, 0, 0, 1, 1, 1, 1])
    assert [k for _, k, _, _ in drain(d.ring)] == [PRESS]  # up at the start: presses count


def test_edge_ring_keeps_capacity_edges_and_counts_overflow() -> None:
    ring = EdgeRing(3)
    assert all(ring.put(i, PRESS, i, 0) for i in range(3))
    assert not ring.put(9, PRESS, 9, 0)
    assert ring.overflows == 1 and len(ring) == 3
    assert [e[0] for e in drain(ring)] == [0, 1, 2]
    assert ring.put(4, RELEASE, 4, 0) and ring.get() == (4, RELEASE, 4, 0)


@pytest.mark.parametrize("count", [0, 33])
def test_debouncer_rejects_impossible_button_counts(count: int) -> None:
    with pytest.raises(ValueError):
        Debouncer(count)
