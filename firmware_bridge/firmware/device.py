"""The box's end of BBP/1 as a sans-I/O state machine (``docs/protocol.md``).

Bytes from the host go in through ``receive(data, now)``, time through ``tick(now)``,
debounced edges through ``push(...)``; frames to send accumulate for ``take_output()``.
``now`` is in ms ticks (wrapping at 2**30, compared with ``ticks_diff``).

Button events travel reliably: numbered when they enter the send window, kept until the
host's cumulative ack covers them, resent (go-back-N) on a doubling timeout and on a
repeated ack, and never renumbered, so a reconnect or a host hiccup cannot double them.
Events are only sent inside a session: after the host's HELLO named this boot's id.
"""

from . import leds as ledmodes
from .bbp import (
    NONE,
    PROTO,
    PROTO_MAJOR,
    FrameError,
    FrameParser,
    encode,
    seq_add,
    seq_diff,
    ticks_add,
    ticks_diff,
)

HELLO_MS = 500  # HELLO cadence while there is no session
HEARTBEAT_MS = 1000
HOST_ABSENT_MS = 3500  # no valid host frame for this long: host absent
RTO_MS = 100  # first retransmission timeout
RTO_MAX_MS = 800
RETRY_CAP = 12  # timeouts in a row without progress: drop the session, re-handshake
WINDOW = 8
MAX_AGE_MS = 99999999


class DeviceSession:
    def __init__(
        self,
        boot_id: str,
        board_uid: str,
        fw_version: str,
        buttons: int = 8,
        leds: int = 4,
        queue_size: int = 32,
        now: int = 0,
    ) -> None:
        self.boot_id = boot_id
        self.board_uid = board_uid
        self.fw_version = fw_version
        self.buttons = buttons
        self.led_count = leds
        self.queue_size = queue_size
        self.parser = FrameParser()
        self.host_nonce = None
        self.session = False
        self.host_present = False
        self.led_modes = [ledmodes.OFF] * leds
        self.led_version = -1  # none received from this host yet
        self.bitmap = 0
        self.dropped = 0
        self.retransmits = 0
        self._booted = now
        self._last_rx = now
        self._out = []
        self._pending = []  # (button, kind, t_ms, bitmap) not yet numbered
        self._inflight = []  # [seq, button, kind, t_ms, bitmap], oldest first
        self._next_seq = 0
        self._rto = RTO_MS
        self._retx_at = now
        self._retries = 0
        self._fast_done = False
        self._next_hello = now
        self._next_hb = now

    # -- inputs ----------------------------------------------------------------------------
    def push(self, button: int, kind: str, t_ms: int, bitmap: int) -> None:
        """A debounced edge; the oldest unsent one is dropped when the queue is full."""
        self.bitmap = bitmap
        if len(self._pending) >= self.queue_size:
            self._pending.pop(0)
            self.dropped += 1
        self._pending.append((button, kind, t_ms, bitmap))

    def receive(self, data, now: int) -> None:
        for frame in self.parser.feed(data):
            self._on_frame(frame, now)

    def tick(self, now: int) -> None:
        if self.host_present and ticks_diff(now, self._last_rx) > HOST_ABSENT_MS:
            self.host_present = False
            self.session = False
        if not self.session:
            if ticks_diff(now, self._next_hello) >= 0:
                self._send_hello(now)
            return
        self._fill_window(now)
        if self._inflight and ticks_diff(now, self._retx_at) >= 0:
            self._retries += 1
            if self._retries > RETRY_CAP:
                self.session = False
                self._next_hello = now
                self._send_hello(now)
                return
            self._rto = min(self._rto * 2, RTO_MAX_MS)
            self._resend(now)
        if ticks_diff(now, self._next_hb) >= 0:
            self._send_hb(now)

    # -- outputs ---------------------------------------------------------------------------
    def take_output(self) -> bytes:
        if not self._out:
            return b""
        data = b"".join(self._out)
        self._out = []
        return data

    def shown_leds(self) -> list:
        """The LED modes to display now: the host's, or the "host absent" pattern."""
        if self.host_present:
            return self.led_modes
        return ledmodes.absent_modes(self.led_count)

    def queue_depth(self) -> int:
        return len(self._pending) + len(self._inflight)

    # -- internals -------------------------------------------------------------------------
    def _emit(self, seq, kind: str, fields) -> None:
        try:
            self._out.append(encode(seq, None, kind, fields))
        except FrameError:
            self.parser.format_errors += 1

    def _base(self) -> int:
        return self._inflight[0][0] if self._inflight else self._next_seq

    def _send_hello(self, now: int) -> None:
        self._next_hello = ticks_add(now, HELLO_MS)
        self._emit(
            None,
            "HELLO",
            (
                PROTO,
                self.fw_version,
                self.board_uid,
                self.boot_id,
                self._base(),
                self.host_nonce or NONE,
                1 if self.session else 0,
                f"b{self.buttons}l{self.led_count}",
            ),
        )

    def _send_hb(self, now: int) -> None:
        self._next_hb = ticks_add(now, HEARTBEAT_MS)
        fields = [
            self.boot_id,
            ticks_diff(now, self._booted) % 100000000,
            f"{self.bitmap:02X}",
            self.queue_depth(),
            self.dropped,
            self.retransmits,
            self.parser.crc_errors,
            self.led_version if self.led_version >= 0 else NONE,
        ]
        self._emit(None, "HB", fields + self.led_modes)

    def _send_event(self, entry, now: int) -> None:
        seq, button, kind, t_ms, bitmap = entry
        age = ticks_diff(now, t_ms)
        if age < 0:
            age = 0
        if age > MAX_AGE_MS:
            age = MAX_AGE_MS
        self._emit(seq, "EVT", (button, kind, f"{bitmap:02X}", age))

    def _fill_window(self, now: int) -> None:
        while self._pending and len(self._inflight) < WINDOW:
            button, kind, t_ms, bitmap = self._pending.pop(0)
            entry = [self._next_seq, button, kind, t_ms, bitmap]
            self._next_seq = seq_add(self._next_seq, 1)
            if not self._inflight:
                self._retx_at = ticks_add(now, self._rto)
            self._inflight.append(entry)
            self._send_event(entry, now)

    def _resend(self, now: int) -> None:
        for entry in self._inflight:
            self.retransmits += 1
            self._send_event(entry, now)
        self._retx_at = ticks_add(now, self._rto)

    def _on_frame(self, frame, now: int) -> None:
        kind = frame.kind
        if kind == "HELLO":
            self._on_hello(frame, now)
            return
        if kind not in ("HB", "ACK", "LEDS", "BYE"):
            self._emit(None, "ERR", ("type", kind))
            return
        self._last_rx = now
        self.host_present = kind != "BYE"
        if kind == "BYE":
            self.session = False
            return
        if self.session and frame.ack is not None:
            self._on_ack(frame.ack, now, kind == "ACK")
        if kind == "LEDS" or kind == "HB":
            self._on_leds(frame.fields)

    def _on_hello(self, frame, now: int) -> None:
        fields = frame.fields
        if len(fields) < 3:
            self._emit(None, "ERR", ("hello", "fields"))
            return
        major = fields[0].split(".")[0]
        if not major.isdigit() or int(major) != PROTO_MAJOR:
            self._emit(None, "ERR", ("proto", PROTO))
            return
        nonce = fields[1]
        if nonce != self.host_nonce:
            self.host_nonce = nonce
            self.led_version = -1
        self._last_rx = now
        self.host_present = True
        self.session = fields[2] == self.boot_id
        if self.session:  # a (re)connected host: resend what is unacked now
            self._rto = RTO_MS
            self._retries = 0
            self._fast_done = False
            self._retx_at = now
            self._next_hb = now
        self._send_hello(now)
        if self.session and frame.ack is not None:
            self._on_ack(frame.ack, now, False)

    def _on_ack(self, ack: int, now: int, explicit: bool) -> None:
        base = self._base()
        if seq_diff(ack, base) < 0 or seq_diff(ack, self._next_seq) > 0:
            return  # outside [base, next]: not about anything in flight
        progress = False
        while self._inflight and seq_diff(ack, self._inflight[0][0]) > 0:
            self._inflight.pop(0)
            progress = True
        if progress:
            self._rto = RTO_MS
            self._retries = 0
            self._fast_done = False
            self._retx_at = ticks_add(now, self._rto)
            self._fill_window(now)
        elif explicit and self._inflight and not self._fast_done:
            # An ACK answers an EVT; one that does not move means the host saw a gap or a
            # duplicate: resend the window once now rather than wait for the timeout.
            self._fast_done = True
            self._resend(now)

    def _on_leds(self, fields) -> None:
        if not fields:
            return
        version = fields[0]
        if version == NONE or not version.isdigit() or int(version) > 65535:
            return
        value = int(version)
        modes = fields[1 : 1 + self.led_count]
        if len(modes) != self.led_count:
            return
        for mode in modes:
            if ledmodes.parse_mode(mode) is None:
                return
        if self.led_version >= 0 and seq_diff(value, self.led_version) < 0:
            return  # an older snapshot than the one shown
        self.led_version = value
        self.led_modes = list(modes)
