from __future__ import annotations

import pytest

from firmware_bridge.events import ButtonEvent, ButtonKind, StaleEvent
from firmware_bridge.firmware.bbp import Frame, FrameParser, encode
from firmware_bridge.firmware.device import DeviceSession
from firmware_bridge.link import LinkState
from firmware_bridge.session import DeviceReset, HostSession, LinkChanged

BOOT = "1a2b3c4d"


def device_hello(base: int = 0, echo: str = "-", sess: int = 0, proto: str = "1.0") -> bytes:
    fields = [proto, "1.0.0", "e661", BOOT, str(base), echo, str(sess), "b8l4"]
    return encode(None, None, "HELLO", fields)


def sent(host: HostSession) -> list[Frame]:
    return FrameParser().feed(host.data_to_send())


def connected_host() -> HostSession:
    host = HostSession(nonce="cafe0001")
    host.connection_made(0.0)
    host.receive(device_hello(echo="cafe0001", sess=0), 0.01)
    host.receive(device_hello(echo="cafe0001", sess=1), 0.02)
    host.data_to_send()
    host.notices()
    return host


def evt(seq: int, button: int = 1, code: str = "P", age: int = 5) -> bytes:
    return encode(seq, None, "EVT", [str(button), code, "02", str(age)])


def test_session_handshake_scripted_dialogue() -> None:
    host = HostSession(nonce="cafe0001")
    host.connection_made(0.0)
    assert sent(host) == [Frame(None, None, "HELLO", ["1.0", "cafe0001", "-"])]
    host.receive(device_hello(base=7, echo="cafe0001", sess=0), 0.01)
    assert sent(host) == [Frame(None, 7, "HELLO", ["1.0", "cafe0001", BOOT])]
    assert host.state is LinkState.CONNECTING
    host.receive(device_hello(base=7, echo="cafe0001", sess=1), 0.02)
    assert host.state is LinkState.CONNECTED
    assert sent(host) == [Frame(None, 7, "LEDS", ["0", "0", "0", "0", "0"])]


def test_session_delivers_each_event_once_in_order_and_acks_cumulatively() -> None:
    host = connected_host()
    host.receive(evt(0) + evt(0) + evt(2), 1.0)
    assert [n.seq for n in host.notices() if isinstance(n, ButtonEvent)] == [0]
    assert sent(host) == [Frame(None, 1, "ACK", [])]  # 2 is kept, 1 is still missing
    host.receive(evt(1) + evt(2), 1.0)
    events = [n for n in host.notices() if isinstance(n, ButtonEvent)]
    assert [e.seq for e in events] == [1, 2]
    assert sent(host) == [Frame(None, 3, "ACK", [])]
    assert host.counters.duplicates == 2 and host.counters.gaps == 1
    assert events[0] == ButtonEvent(1, ButtonKind.PRESS, 1, 0.995, f"serial:{BOOT}")


def test_session_an_event_kept_ahead_of_a_gap_is_judged_stale_when_delivered() -> None:
    host = connected_host()
    host.receive(evt(1, age=100), 10.0)  # arrives fresh, but 0 is missing
    host.receive(evt(0, age=3000), 12.5)  # 0 arrives 3 s old; 1 is now 2.6 s old
    notices = host.notices()
    assert [type(n) for n in notices] == [StaleEvent, StaleEvent]
    assert notices[1].event.time == pytest.approx(9.9)


def test_session_reports_events_older_than_the_stale_limit_as_stale() -> None:
    host = connected_host()
    host.receive(evt(0, age=2500) + evt(1, age=100), 10.0)
    notices = host.notices()
    assert isinstance(notices[0], StaleEvent) and notices[0].age == pytest.approx(2.5)
    assert isinstance(notices[1], ButtonEvent)
    assert host.counters.stale == 1 and host.counters.delivered == 1


def test_session_sequence_numbers_wrap_without_stalling() -> None:
    host = HostSession(nonce="cafe0001")
    host.connection_made(0.0)
    host.receive(device_hello(base=65534, echo="cafe0001", sess=1), 0.01)
    host.receive(evt(65534) + evt(65535) + evt(0) + evt(1), 0.5)
    seqs = [n.seq for n in host.notices() if isinstance(n, ButtonEvent)]
    assert seqs == [65534, 65535, 65536, 65537]


def test_session_new_boot_id_is_a_device_reset() -> None:
    host = connected_host()
    other = encode(None, None, "HELLO", ["1.0", "1.0.0", "e661", "99999999", "0", "-", "0", "b8"])
    host.receive(other, 1.0)
    assert DeviceReset(BOOT, "99999999") in host.notices()
    assert host.counters.device_resets == 1
    assert sent(host)[-1] == Frame(None, 0, "HELLO", ["1.0", "cafe0001", "99999999"])


def test_session_our_own_hello_echoed_back_is_a_wrong_device() -> None:
    host = HostSession(nonce="cafe0001")
    host.connection_made(0.0)
    t = 0.0
    while host.state is LinkState.CONNECTING and t < 10:
        host.receive(host.data_to_send(), t)  # a loopback: everything comes back
        t += 0.05
        host.tick(t)
    assert host.state is LinkState.WRONG_DEVICE
    host.tick(t + 5)
    assert host.data_to_send() == b""  # left alone


def test_session_a_micropython_prompt_is_a_wrong_device_with_a_hint() -> None:
    host = HostSession(nonce="cafe0001")
    host.connection_made(0.0)
    host.receive(b"MicroPython v1.27.0 on 2026-01-01; Raspberry Pi Pico\r\n>>> ", 0.1)
    host.tick(7.0)
    assert host.state is LinkState.WRONG_DEVICE
    assert "firmware install" in host.reason


def test_session_silence_is_no_answer_not_a_wrong_device() -> None:
    host = HostSession(nonce="cafe0001")
    host.connection_made(0.0)
    for i in range(80):
        host.tick(i * 0.1)
    assert host.state is LinkState.LOST


def test_session_protocol_major_mismatch_is_incompatible() -> None:
    host = HostSession(nonce="cafe0001")
    host.connection_made(0.0)
    host.receive(device_hello(proto="2.0", echo="cafe0001", sess=1), 0.1)
    assert host.state is LinkState.INCOMPATIBLE


def test_session_degrades_then_loses_the_link_on_silence() -> None:
    host = connected_host()
    states = []
    for i in range(1, 50):
        host.tick(0.02 + i * 0.1)
        states += [n.state for n in host.notices() if isinstance(n, LinkChanged)]
    assert states == [LinkState.DEGRADED, LinkState.LOST]


def test_session_set_leds_validates_and_bumps_the_version() -> None:
    host = connected_host()
    host.set_leds(["1", "0", "B200/200", "0"], 1.0)
    assert sent(host) == [Frame(None, 0, "LEDS", ["1", "1", "0", "B200/200", "0"])]
    with pytest.raises(ValueError):
        host.set_leds(["1", "0"], 1.0)
    with pytest.raises(ValueError):
        host.set_leds(["1", "0", "toggle", "0"], 1.0)


def drive(device: DeviceSession, host: HostSession, start: int, ms: int) -> None:
    for t in range(start, start + ms):
        device.tick(t)
        host.receive(device.take_output(), t / 1000)
        host.tick(t / 1000)
        device.receive(host.data_to_send(), t)


def test_device_and_host_sessions_reconnect_without_doubling() -> None:
    device = DeviceSession(BOOT, "e661", "1.0.0")
    host = HostSession(nonce="cafe0001")
    host.connection_made(0.0)
    drive(device, host, 0, 50)
    device.push(0, "P", 50, 1)
    device.tick(50)
    host.receive(device.take_output(), 0.05)  # the event arrives...
    host.data_to_send()  # ...and its ack is lost with the cable
    host.connection_lost(0.052, "unplugged")
    host.connection_made(0.3)
    drive(device, host, 300, 200)
    events = [n for n in host.notices() if isinstance(n, ButtonEvent)]
    assert [(e.button, e.kind, e.seq) for e in events] == [(0, ButtonKind.PRESS, 0)]
    assert device.queue_depth() == 0 and host.counters.duplicates >= 1


def test_device_shows_the_host_absent_pattern_without_a_host() -> None:
    device = DeviceSession(BOOT, "e661", "1.0.0", leds=2)
    host = HostSession(nonce="cafe0001", leds=2)
    host.connection_made(0.0)
    drive(device, host, 0, 50)
    host.set_leds(["1", "1"], 0.05)
    drive(device, host, 50, 50)
    assert device.shown_leds() == ["1", "1"]
    for t in range(100, 4000, 10):
        device.tick(t)
    assert device.shown_leds() == ["B120/880", "0"]


def test_device_rejects_an_older_led_snapshot() -> None:
    device = DeviceSession(BOOT, "e661", "1.0.0", leds=1)
    device.receive(encode(None, None, "HELLO", ["1.0", "n1", BOOT]), 0)
    device.receive(encode(None, None, "LEDS", ["5", "1"]), 1)
    device.receive(encode(None, None, "LEDS", ["4", "0"]), 2)
    assert device.led_modes == ["1"] and device.led_version == 5


def test_device_queue_drops_the_oldest_when_full() -> None:
    device = DeviceSession(BOOT, "e661", "1.0.0", queue_size=2)
    for i in range(5):
        device.push(i, "P", i, 1)
    assert device.dropped == 3 and device.queue_depth() == 2


def test_device_answers_an_unknown_type_with_err_and_a_wrong_major_is_refused() -> None:
    device = DeviceSession(BOOT, "e661", "1.0.0")
    device.take_output()
    device.receive(encode(None, None, "PING"), 0)
    device.receive(encode(None, None, "HELLO", ["2.0", "n1", BOOT]), 0)
    frames = FrameParser().feed(device.take_output())
    assert [(f.kind, f.fields[0]) for f in frames] == [("ERR", "type"), ("ERR", "proto")]
    assert not device.session


def test_device_and_host_sessions_cross_the_sequence_wrap() -> None:
    device = DeviceSession(BOOT, "e661", "1.0.0")
    device._next_seq = 65533  # as after 65,533 events
    host = HostSession(nonce="cafe0001")
    host.connection_made(0.0)
    drive(device, host, 0, 50)
    for i in range(6):
        device.push(i, "P", 50, 1)
    drive(device, host, 50, 100)
    events = [n for n in host.notices() if isinstance(n, ButtonEvent)]
    assert [(e.button, e.seq) for e in events] == [(i, 65533 + i) for i in range(6)]
    assert device.queue_depth() == 0
