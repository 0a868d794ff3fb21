"""Which serial port is the button box: by URL, path, USB id, or automatically."""

from __future__ import annotations

import glob
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import serial
from serial.tools import list_ports

PICO_VID = 0x2E8A  # Raspberry Pi
PICO_MICROPYTHON_PID = 0x0005
BY_ID = "/dev/serial/by-id"


class PortNotFound(LookupError):
    """No port matches the request (yet): the bridge keeps looking."""


class BadPortSpec(ValueError):
    """The request names no port in any form (``usb:zz``, ``foo://bar``): said when it is
    made, since looking for it would never find anything."""


@dataclass(frozen=True, slots=True)
class PortSpec:
    """What the user asked for: ``auto``, ``usb:VID:PID[:SERIAL]``, a path or a pyserial URL.

    A ``usb:`` request not of that form, or a URL of a protocol pyserial does not know,
    raises :class:`BadPortSpec` here."""

    text: str

    def __post_init__(self) -> None:
        text = self.text.strip()
        if text.startswith("usb:"):
            _usb_id(text)
        elif "://" in text:
            try:
                port = serial.serial_for_url(text, do_not_open=True)
            except ValueError as exc:
                raise BadPortSpec(f"{exc} (pyserial's are loop, socket, rfc2217, spy, "
                                  f"hwgrep, alt): {text!r}") from None
            except serial.SerialException:  # hwgrep:// looks now: not there yet, perhaps
                return
            _check_url(port, text)

    def resolve(
        self,
        comports: Callable[[], Sequence[Any]] = list_ports.comports,
        by_id: Callable[[], list[str]] | None = None,
    ) -> str:
        """A device path or URL for ``serial.serial_for_url``; PortNotFound if none is there."""
        text = self.text.strip()
        if text in ("", "auto"):
            return _auto(comports, by_id or _by_id_links)
        if text.startswith("usb:"):
            return _by_usb_id(text, comports)
        return text  # a path (e.g. /dev/serial/by-id/...) or a URL (loop://, socket://...)


def _check_url(port: Any, text: str) -> None:
    """Read a URL's host, port and options as pyserial will when it opens it (without
    opening it): a wrong one is a :class:`BadPortSpec` now. pyserial's own message for an
    unknown option of ``loop://`` or ``socket://`` is a bare ``KeyError('debug|info|...')``
    (a bug in its format string), said in the box's status, again and again."""
    scheme = text.split("://", 1)[0].lower()
    read_url = getattr(port, "from_url", None)
    if read_url is None or scheme not in ("loop", "socket", "rfc2217"):
        return  # spy:// and alt:// are read by serial_for_url; hwgrep:// finds a port
    try:
        read_url(text)
    except serial.SerialException as exc:
        raise BadPortSpec(f"{exc}: {text!r}") from None
    except (KeyError, TypeError, ValueError):
        raise BadPortSpec(f"not a {scheme}:// port pyserial can open: an unknown option or "
                          f"a host:port missing ({scheme}:// takes only "
                          f"?logging=debug|info|warning|error as an option): {text!r}"
                          ) from None


def _by_id_links() -> list[str]:
    return sorted(glob.glob(f"{BY_ID}/*"))


def _auto(comports: Callable[[], Sequence[Any]], by_id: Callable[[], list[str]]) -> str:
    for port in comports():
        if port.vid == PICO_VID and port.pid == PICO_MICROPYTHON_PID:
            return str(port.device)
    for link in by_id():
        name = link.rsplit("/", 1)[-1].lower()
        if "micropython" in name or "tableside" in name:
            return link
    raise PortNotFound(
        f"no button box found (USB {PICO_VID:04X}:{PICO_MICROPYTHON_PID:04X} or {BY_ID}/*)"
    )


def _usb_id(text: str) -> tuple[int, int, str | None]:
    """VID, PID and serial number (or None) of ``usb:VID:PID[:SERIAL]``."""
    parts = text.split(":")
    if len(parts) not in (3, 4) or (len(parts) == 4 and not parts[3]):
        raise BadPortSpec(f"expected usb:VID:PID[:SERIAL], got {text!r}")
    try:
        vid, pid = int(parts[1], 16), int(parts[2], 16)
    except ValueError:
        raise BadPortSpec(f"VID and PID are hex numbers (as 2e8a:0005): {text!r}") from None
    if not (0 <= vid <= 0xFFFF and 0 <= pid <= 0xFFFF):
        raise BadPortSpec(f"VID and PID are 4 hex digits each: {text!r}")
    return vid, pid, parts[3] if len(parts) == 4 else None


def _by_usb_id(text: str, comports: Callable[[], Sequence[Any]]) -> str:
    vid, pid, serial_number = _usb_id(text)
    for port in comports():
        if port.vid == vid and port.pid == pid:
            if serial_number is None or port.serial_number == serial_number:
                return str(port.device)
    raise PortNotFound(f"no serial port with USB id {text[4:]}")
