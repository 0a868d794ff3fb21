"""The host's end of BBP/1 as a sans-I/O state machine (``docs/protocol.md``).

Feed it what the port delivered (``receive``), the passage of time (``tick``) and the
port's fate (``connection_made`` / ``connection_lost``); take the bytes to write
(``data_to_send``) and what happened (``notices``: button events, stale reports, link state
changes, device resets). It never blocks, sleeps, reads a clock or touches a port.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from .events import ButtonEvent, ButtonKind, StaleEvent
from .firmware import leds as ledmodes
from .firmware.bbp import (
    NONE,
    PROTO,
    PROTO_MAJOR,
    Frame,
    FrameParser,
    encode,
    seq_diff,
)
from .link import LinkCounters, LinkState


@dataclass(frozen=True, slots=True)
class SessionConfig:
    heartbeat: float = 1.0
    degraded_after: float = 1.6  # a heartbeat is late
    lost_after: float = 3.5  # three heartbeats missed
    hello_retry: float = 0.25  # first handshake retry; doubles up to hello_retry_max
    hello_retry_max: float = 1.0
    handshake_timeout: float = 6.0  # no box answering by then: wrong device, or none
    stale_after: float = 2.0  # events older than this on arrival are reported, not acted on
    led_resend: float = 0.25
    error_ratio_degraded: float = 0.1  # bad frames per good frame in a heartbeat period


@dataclass(frozen=True, slots=True)
class DeviceInfo:
    proto: str
    firmware: str
    board: str
    boot_id: str
    caps: str


@dataclass(frozen=True, slots=True)
class LinkChanged:
    state: LinkState
    reason: str


@dataclass(frozen=True, slots=True)
class DeviceReset:
    """The box restarted (new boot id): its unacknowledged events did not survive."""

    old_boot_id: str
    new_boot_id: str


@dataclass(frozen=True, slots=True)
class EventsDropped:
    """The box's queue overflowed while the host was away; the oldest events are gone."""

    count: int


Notice = ButtonEvent | StaleEvent | LinkChanged | DeviceInfo | DeviceReset | EventsDropped

_TERMINAL = (LinkState.WRONG_DEVICE, LinkState.INCOMPATIBLE)
AHEAD_LIMIT = 32  # events kept that arrive ahead of a missing one


class HostSession:
    def __init__(
        self,
        *,
        leds: int = 4,
        config: SessionConfig | None = None,
        nonce: str | None = None,
    ) -> None:
        self.config = config or SessionConfig()
        self.nonce = nonce or secrets.token_hex(4)
        self.state = LinkState.DISCONNECTED
        self.counters = LinkCounters()
        self.device: DeviceInfo | None = None
        self.device_buttons = 0
        self.device_leds: list[str] = []
        self.reason = "not connected"
        self._parser = FrameParser()
        self._out: list[bytes] = []
        self._notices: list[Notice] = []
        self._led_modes = [ledmodes.OFF] * leds
        self._led_version = 0
        self._device_led_version: str | None = None
        self._boot: str | None = None
        self._expected = 0  # next device seq, unwrapped (grows past 65535)
        self._ahead: dict[int, tuple[list[str], float]] = {}  # seq -> (fields, arrival)
        self._established = False
        self._ack_due = False
        self._last_rx = 0.0
        self._next_hello = 0.0
        self._hello_interval = self.config.hello_retry
        self._handshake_started = 0.0
        self._foreign_frames = 0
        self._next_hb = 0.0
        self._last_led_sent = float("-inf")
        self._dropped_seen = 0
        self._period_start_errors = 0
        self._period_start_frames = 0

    # -- what the application sees ----------------------------------------------------------
    @property
    def is_established(self) -> bool:
        return self._established

    @property
    def led_modes(self) -> list[str]:
        return list(self._led_modes)

    def data_to_send(self) -> bytes:
        data = b"".join(self._out)
        self._out = []
        return data

    def notices(self) -> list[Notice]:
        out = self._notices
        self._notices = []
        return out

    def set_leds(self, modes: Sequence[str], now: float) -> None:
        """The LEDs' absolute desired state; sent now and re-asserted until the box shows it."""
        if len(modes) != len(self._led_modes):
            raise ValueError(f"expected {len(self._led_modes)} LED modes, got {len(modes)}")
        for mode in modes:
            if ledmodes.parse_mode(mode) is None:
                raise ValueError(f"bad LED mode {mode!r}")
        if list(modes) == self._led_modes:
            return
        self._led_modes = list(modes)
        self._led_version = (self._led_version + 1) % 65536
        if self._established:
            self._send_leds(now)

    # -- transport events ---------------------------------------------------------------
    def connection_made(self, now: float) -> None:
        self._parser.reset()
        self._established = False
        self._handshake_started = now
        self._foreign_frames = 0
        self._hello_interval = self.config.hello_retry
        self._last_rx = now
        self.counters.connects += 1
        self._set_state(LinkState.CONNECTING, "port open, handshaking")
        self._send_hello(now)

    def connection_lost(self, now: float, reason: str) -> None:
        self._parser.reset()
        self._ahead.clear()
        self._established = False
        self._out = []
        if self.state not in _TERMINAL:
            self.counters.link_losses += 1
            self._set_state(LinkState.LOST, reason)

    def port_unavailable(self, reason: str) -> None:
        """No port could be opened (absent, busy, no permission): waiting to retry."""
        self._established = False
        self._set_state(LinkState.DISCONNECTED, reason)

    def goodbye(self) -> bytes:
        """A BYE frame for an orderly shutdown (the box shows "host absent" at once)."""
        return encode(None, self._ack(), "BYE")

    def receive(self, data: bytes, now: float) -> None:
        if self.state in _TERMINAL or self.state is LinkState.DISCONNECTED:
            return
        frames = self._parser.feed(data)
        self._sync_parser_counters()
        for frame in frames:
            self._on_frame(frame, now)
        if self._ack_due:
            self._ack_due = False
            self._out.append(encode(None, self._ack(), "ACK"))

    def tick(self, now: float) -> None:
        if self.state in _TERMINAL or self.state in (LinkState.DISCONNECTED, LinkState.LOST):
            return
        cfg = self.config
        if not self._established:
            if now >= self._next_hello:
                if now - self._handshake_started >= cfg.handshake_timeout:
                    self._give_up_handshake()
                    return
                self._send_hello(now)
            return
        silence = now - self._last_rx
        if silence > cfg.lost_after:
            self._established = False
            self.counters.link_losses += 1
            self._set_state(LinkState.LOST, f"no frame from the box for {silence:.1f} s")
            return
        if now >= self._next_hb:
            self._next_hb = now + cfg.heartbeat
            self._out.append(self._frame_with_leds("HB"))
            self._review_quality(silence)
        elif silence > cfg.degraded_after and self.state is LinkState.CONNECTED:
            self._set_state(LinkState.DEGRADED, f"heartbeat late ({silence:.1f} s)")
        if (
            self._device_led_version != str(self._led_version)
            and now - self._last_led_sent >= cfg.led_resend
        ):
            self._send_leds(now)

    # -- internals ------------------------------------------------------------------------
    def _set_state(self, state: LinkState, reason: str) -> None:
        self.reason = reason
        if state is not self.state:
            self.state = state
            self._notices.append(LinkChanged(state, reason))

    def _sync_parser_counters(self) -> None:
        p = self._parser
        c = self.counters
        c.frames = p.frames
        c.crc_errors = p.crc_errors
        c.format_errors = p.format_errors
        c.overflows = p.overflows
        c.noise_bytes = p.noise_bytes

    def _ack(self) -> int | None:
        return self._expected % 65536 if self._boot is not None else None

    def _frame_with_leds(self, kind: str) -> bytes:
        return encode(None, self._ack(), kind, [self._led_version, *self._led_modes])

    def _send_leds(self, now: float) -> None:
        self._last_led_sent = now
        self._out.append(self._frame_with_leds("LEDS"))

    def _send_hello(self, now: float) -> None:
        self._next_hello = now + self._hello_interval
        self._hello_interval = min(self._hello_interval * 2, self.config.hello_retry_max)
        fields = [PROTO, self.nonce, self._boot or NONE]
        self._out.append(encode(None, self._ack(), "HELLO", fields))

    def _give_up_handshake(self) -> None:
        p = self._parser
        if p.frames or p.noise_bytes or p.crc_errors or p.format_errors or self._foreign_frames:
            hint = ""
            if b">>>" in p.noise_tail or b"MicroPython" in p.noise_tail:
                hint = " (a bare MicroPython prompt: run `tableside firmware install`)"
            self._set_state(
                LinkState.WRONG_DEVICE,
                f"the device answers but does not speak BBP/1 (another device, or a baud rate "
                f"mismatch on a UART box){hint}; leaving it alone",
            )
        else:
            self.counters.link_losses += 1
            self._set_state(LinkState.LOST, "no answer to HELLO")

    def _establish(self, now: float) -> None:
        if self._established:
            return
        self._established = True
        self._last_rx = now
        self._next_hb = now
        self._period_start_errors = self._bad_frames()
        self._period_start_frames = self._parser.frames
        assert self.device is not None
        self._set_state(LinkState.CONNECTED, f"box {self.device.board} boot {self.device.boot_id}")
        self._send_leds(now)

    def _bad_frames(self) -> int:
        return self._parser.crc_errors + self._parser.format_errors + self._parser.overflows

    def _review_quality(self, silence: float) -> None:
        bad = self._bad_frames() - self._period_start_errors
        good = self._parser.frames - self._period_start_frames
        self._period_start_errors = self._bad_frames()
        self._period_start_frames = self._parser.frames
        late = silence > self.config.degraded_after
        noisy = bad > self.config.error_ratio_degraded * max(good, 1)
        if late or noisy:
            why = f"heartbeat late ({silence:.1f} s)" if late else f"{bad} bad frames vs {good}"
            self._set_state(LinkState.DEGRADED, why)
        else:
            self._set_state(LinkState.CONNECTED, "heartbeats on time")

    def _on_frame(self, frame: Frame, now: float) -> None:
        handler = self._HANDLERS.get(frame.kind)
        if handler is None:
            self._foreign_frames += 1
            return
        handler(self, frame, now)

    def _on_hello(self, frame: Frame, now: float) -> None:
        f = frame.fields
        if len(f) < 8:  # e.g. our own HELLO echoed back by a REPL or a loopback
            self._foreign_frames += 1
            return
        proto, firmware, board, boot, base, echo, sess, caps = f[:8]
        major = proto.split(".")[0]
        if not major.isdigit() or not base.isdigit() or int(base) > 65535:
            self._foreign_frames += 1
            return
        self._last_rx = now
        if int(major) != PROTO_MAJOR:
            self._set_state(
                LinkState.INCOMPATIBLE,
                f"box speaks protocol {proto}, this host {PROTO}: update the firmware",
            )
            return
        if boot != self._boot:
            if self._boot is not None:
                self.counters.device_resets += 1
                self._notices.append(DeviceReset(self._boot, boot))
            self._boot = boot
            self._expected = int(base)
            self._ahead.clear()
            self._dropped_seen = 0
            self._device_led_version = None
            self._established = False
        self.device = DeviceInfo(proto, firmware, board, boot, caps)
        if echo == self.nonce and sess == "1":
            if not self._established:
                self._notices.append(self.device)
            self._establish(now)
        else:
            self._send_hello(now)

    def _on_hb(self, frame: Frame, now: float) -> None:
        f = frame.fields
        if len(f) < 8:
            self._foreign_frames += 1
            return
        boot = f[0]
        if boot != self._boot:
            self._send_hello(now)  # a box we have not shaken hands with (rebooted?)
            return
        self._last_rx = now
        try:
            self.device_buttons = int(f[2], 16)
            dropped = int(f[4])
            retransmits = int(f[5])
        except ValueError:
            self.counters.format_errors += 1
            return
        if dropped > self._dropped_seen:
            self.counters.dropped += dropped - self._dropped_seen
            self._notices.append(EventsDropped(dropped - self._dropped_seen))
            self._dropped_seen = dropped
        self.counters.retransmits = retransmits
        self._device_led_version = f[7]
        self.device_leds = list(f[8:])
        if not self._established and self.device is not None:
            self._notices.append(self.device)
            self._establish(now)

    def _on_evt(self, frame: Frame, now: float) -> None:
        if self._boot is None or frame.seq is None:
            self._foreign_frames += 1
            return
        self._last_rx = now
        self._ack_due = True
        distance = seq_diff(frame.seq, self._expected % 65536)
        ahead = self._expected + distance
        if distance < 0 or ahead in self._ahead:
            self.counters.duplicates += 1
            return
        if distance > 0:  # one before it is missing: keep it until the gap is filled
            self.counters.gaps += 1
            if distance <= AHEAD_LIMIT:
                self._ahead[ahead] = (frame.fields, now)
            return
        if not self._established and self.device is not None:
            self._notices.append(self.device)
            self._establish(now)
        self._deliver(frame.fields, now, now)
        while self._expected in self._ahead:
            fields, arrived = self._ahead.pop(self._expected)
            self._deliver(fields, arrived, now)

    def _deliver(self, fields: list[str], arrived: float, now: float) -> None:
        """Hand out the next event: dated from its arrival, judged stale as of now."""
        seq = self._expected
        self._expected += 1
        event = self._event(fields, seq, arrived)
        if event is None:
            self.counters.format_errors += 1
            return
        age = now - event.time
        if age > self.config.stale_after:
            self.counters.stale += 1
            self._notices.append(StaleEvent(event, age))
        else:
            self.counters.delivered += 1
            self._notices.append(event)

    def _event(self, fields: list[str], seq: int, now: float) -> ButtonEvent | None:
        if len(fields) < 4:
            return None
        button, code, _bitmap, age = fields[:4]
        if not button.isdigit() or not age.isdigit() or int(button) > 31:
            return None
        try:
            kind = ButtonKind.from_wire(code)
        except ValueError:
            return None
        return ButtonEvent(int(button), kind, seq, now - int(age) / 1000, f"serial:{self._boot}")

    def _on_log(self, frame: Frame, now: float) -> None:
        self._last_rx = now

    _HANDLERS = {
        "HELLO": _on_hello,
        "HB": _on_hb,
        "EVT": _on_evt,
        "ERR": _on_log,
        "LOG": _on_log,
    }
