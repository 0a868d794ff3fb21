from __future__ import annotations

from firmware_bridge.events import ButtonKind, StaleEvent
from firmware_bridge.faulty_link import Faults
from firmware_bridge.firmware.config import CONFIG
from firmware_bridge.link import LinkState
from firmware_bridge.rig import Rig, Truth, tally
from firmware_bridge.session import DeviceReset

NOISY = Faults(drop=0.05, duplicate=0.02, corrupt=0.01, split=0.1, delay=(0.001, 0.01))


def clicks(rig: Rig, n: int, down: int = 60, gap: int = 60) -> None:
    for i in range(n):
        settled = rig.press(i % 8, down)
        rig.run((settled - rig.now_ms + gap) / 1000)


def test_rig_clean_link_delivers_press_and_release_with_bounce_filtered() -> None:
    rig = Rig()
    rig.run(0.5)
    assert rig.host.state is LinkState.CONNECTED
    clicks(rig, 3)
    rig.run(0.5)
    assert [(e.button, e.kind) for e in rig.reports] == [
        (0, ButtonKind.PRESS),
        (0, ButtonKind.RELEASE),
        (1, ButtonKind.PRESS),
        (1, ButtonKind.RELEASE),
        (2, ButtonKind.PRESS),
        (2, ButtonKind.RELEASE),
    ]


def test_rig_noisy_link_loses_doubles_and_reorders_nothing() -> None:
    rig = Rig(seed=3, to_box=NOISY, to_host=NOISY, step_ms=2)
    rig.run(1.0)
    clicks(rig, 150)
    rig.run_until(lambda: len(rig.reports) >= len(rig.truth), 20)
    t = rig.tally()
    assert t.generated == 300
    assert (t.lost, t.doubled, t.out_of_order, t.mismatched) == (0, 0, 0, 0)
    assert rig.host.counters.crc_errors > 0 and rig.host.counters.duplicates > 0


def test_rig_unplug_keeps_presses_and_reports_the_old_ones_as_stale() -> None:
    rig = Rig(seed=4, step_ms=2)
    rig.run(0.5)
    rig.unplug()
    clicks(rig, 20)  # about 2.4 s of presses while the cable is out
    rig.run(1.0)
    rig.replug()
    rig.run(2.0)
    t = rig.tally()
    assert (t.generated, t.lost, t.doubled, t.out_of_order) == (40, 0, 0, 0)
    assert t.stale > 0 and t.fresh > 0
    stale_times = [r.event.time for r in rig.reports if isinstance(r, StaleEvent)]
    fresh_times = [r.time for r in rig.reports if not isinstance(r, StaleEvent)]
    assert max(stale_times) < min(fresh_times)


def test_rig_reboot_is_detected_and_the_new_boot_numbers_from_zero() -> None:
    rig = Rig(seed=5, step_ms=2)
    rig.run(0.5)
    clicks(rig, 2)
    rig.run(0.5)
    rig.reboot()
    rig.run(1.0)
    clicks(rig, 2)
    rig.run(1.0)
    assert any(isinstance(n, DeviceReset) for n in rig.notices)
    assert [e.seq for e in rig.reports] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert rig.tally().lost == 0


def test_rig_box_silent_for_good_is_lost_then_reconnected() -> None:
    rig = Rig(seed=6, step_ms=2, reconnect_after=0.5)
    rig.run(0.5)
    rig.link.to_host.faults = Faults(drop=1.0)
    rig.run(5.0)
    assert rig.host.counters.link_losses >= 1
    rig.link.to_host.faults = Faults()
    assert rig.run_until(lambda: rig.host.state is LinkState.CONNECTED, 10)


def test_rig_queue_overflow_while_away_is_counted_and_reported() -> None:
    rig = Rig(seed=7, step_ms=2, config={**CONFIG, "queue_size": 4})
    rig.run(0.5)
    rig.unplug()
    clicks(rig, 10)
    rig.replug()
    rig.run(3.0)
    assert rig.box_dropped() > 0
    assert rig.host.counters.dropped == rig.box_dropped()


def test_tally_counts_lost_doubled_and_reordered() -> None:
    from firmware_bridge.events import ButtonEvent

    truth = [Truth("b", i, 0, ButtonKind.PRESS) for i in range(4)]
    reports = [ButtonEvent(0, ButtonKind.PRESS, s, 0.0, "serial:b") for s in (0, 2, 1, 2)]
    t = tally(truth, reports)
    assert (t.lost, t.doubled, t.out_of_order) == (1, 1, 1)
