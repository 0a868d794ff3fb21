from __future__ import annotations

from dataclasses import dataclass

import pytest

from firmware_bridge.backoff import Backoff
from firmware_bridge.ports import BadPortSpec, PortNotFound, PortSpec


@dataclass
class FakePortInfo:
    device: str
    vid: int | None
    pid: int | None
    serial_number: str | None = None


PORTS = [
    FakePortInfo("/dev/ttyUSB0", 0x1A86, 0x7523),
    FakePortInfo("/dev/ttyACM0", 0x2E8A, 0x0005, "E6614104031B2C2F"),
    FakePortInfo("/dev/ttyACM1", 0x2E8A, 0x0005, "E66141040300AAAA"),
]


def test_port_auto_finds_the_pico_by_usb_id() -> None:
    assert PortSpec("auto").resolve(lambda: PORTS, lambda: []) == "/dev/ttyACM0"


def test_port_auto_falls_back_to_a_by_id_link() -> None:
    links = ["/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e661-if00"]
    assert PortSpec("").resolve(lambda: [], lambda: links) == links[0]


def test_port_auto_without_a_box_is_not_found() -> None:
    with pytest.raises(PortNotFound):
        PortSpec("auto").resolve(lambda: PORTS[:1], lambda: ["/dev/serial/by-id/usb-GPS-if00"])


@pytest.mark.parametrize(
    ("text", "device"),
    [
        ("usb:2e8a:0005", "/dev/ttyACM0"),
        ("usb:2E8A:0005:E66141040300AAAA", "/dev/ttyACM1"),
        ("usb:1a86:7523", "/dev/ttyUSB0"),
    ],
)
def test_port_by_usb_id_and_serial_number(text: str, device: str) -> None:
    assert PortSpec(text).resolve(lambda: PORTS) == device


def test_port_by_usb_id_missing() -> None:
    with pytest.raises(PortNotFound):
        PortSpec("usb:2e8a:000a").resolve(lambda: PORTS)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("usb:zz", "expected usb:VID:PID"),
        ("usb:2e8a:0005:", "expected usb:VID:PID"),
        ("usb:zz:0005", "hex numbers"),
        ("usb:12345:0005", "4 hex digits"),
        ("foo://bar", "protocol 'foo' not known"),
        # pyserial's own message was KeyError('debug|info|warning|error'), in the status
        ("loop://?x=1", r"not a loop:// port pyserial can open: an unknown option or a "
                        r"host:port missing \(loop:// takes only "
                        r"\?logging=debug\|info\|warning\|error as an option\): 'loop://\?x=1'"),
        ("socket://127.0.0.1:7?x=1", "not a socket:// port pyserial can open"),
        ("socket://127.0.0.1", "not a socket:// port pyserial can open"),
        ("rfc2217://127.0.0.1:7?x=1", "unknown option: 'x'"),
    ],
)
def test_a_port_request_in_no_form_a_port_has_is_refused_when_made(text: str, said: str) -> None:
    """Said at once (``tableside serve --box``), rather than looked for for ever."""
    with pytest.raises(BadPortSpec, match=said):
        PortSpec(text)


def test_a_url_whose_port_is_looked_for_when_opened_is_not_refused() -> None:
    assert PortSpec("hwgrep://no-such-box").text == "hwgrep://no-such-box"


@pytest.mark.parametrize("text", ["/dev/serial/by-id/x", "loop://", "socket://127.0.0.1:7",
                                  "loop://?logging=warning", "rfc2217://127.0.0.1:7"])
def test_port_paths_and_urls_pass_through(text: str) -> None:
    assert PortSpec(text).resolve(lambda: PORTS) == text


def test_backoff_doubles_to_the_cap_and_resets() -> None:
    b = Backoff(0.25, 1.0)
    assert [b.next_delay() for _ in range(5)] == [0.25, 0.5, 1.0, 1.0, 1.0]
    b.reset()
    assert b.next_delay() == 0.25
    with pytest.raises(ValueError):
        Backoff(0, 1)
