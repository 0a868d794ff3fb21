"""BBP/1 frame codec: CRC-16, framing, the receive-side parser and sequence arithmetic.

Shared by the firmware and the host (``docs/protocol.md`` is the specification). Pure: no
I/O, no clock.

Frame: ``$<seq>,<ack>,<TYPE>[,<field>...]*<CRC>\\n`` with CRC-16/CCITT-FALSE (poly 0x1021,
init 0xFFFF, no reflection, xorout 0) over the bytes between ``$`` and ``*``, written as 4
upper-case hex digits.
"""

try:
    from binascii import crc_hqx as _crc_hqx
except ImportError:  # MicroPython's binascii has no crc_hqx
    _crc_hqx = None

PROTO = "1.0"
PROTO_MAJOR = 1
MAX_FRAME = 128  # bytes, from "$" to "\n" inclusive
MAX_TYPE = 8
SEQ_MOD = 65536
SEQ_HALF = 32768
TICKS_PERIOD = 1 << 30  # MicroPython's ticks_ms() wraps at 2**30
NONE = "-"  # "no sequence number" / "nothing to acknowledge"

_START = 0x24  # $
_STAR = 0x2A  # *
_COMMA = 0x2C  # ,
_CR = 0x0D
_LF = 0x0A
_HEX = b"0123456789ABCDEF"


def crc16_bitwise(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE computed bit by bit (the MicroPython path)."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc


def crc16(data) -> int:
    """CRC-16/CCITT-FALSE of ``data``; check value of b"123456789" is 0x29B1."""
    if _crc_hqx is not None:
        return _crc_hqx(data, 0xFFFF)
    return crc16_bitwise(data)


def seq_add(seq: int, n: int) -> int:
    return (seq + n) % SEQ_MOD


def seq_diff(a: int, b: int) -> int:
    """Signed distance a - b in 16-bit serial-number arithmetic, in [-32768, 32767]."""
    return ((a - b + SEQ_HALF) % SEQ_MOD) - SEQ_HALF


def ticks_diff(a: int, b: int) -> int:
    """Signed a - b for MicroPython-style millisecond ticks that wrap at 2**30."""
    half = TICKS_PERIOD >> 1
    return ((a - b + half) % TICKS_PERIOD) - half


def ticks_add(a: int, n: int) -> int:
    return (a + n) % TICKS_PERIOD


def is_field_char(byte: int) -> bool:
    return 0x20 <= byte <= 0x7E and byte != _START and byte != _STAR and byte != _COMMA


class FrameError(ValueError):
    """A frame that cannot be encoded (a field with a forbidden character, too long...)."""


def _num(value) -> str:
    if value is None:
        return NONE
    if value < 0 or value >= SEQ_MOD:
        raise FrameError(f"sequence number out of range: {value}")
    return str(value)


def encode(seq, ack, kind: str, fields=()) -> bytes:
    """One frame as bytes. ``seq``/``ack`` are ints in [0, 65535] or None (written "-")."""
    if not kind or len(kind) > MAX_TYPE or not kind.isalpha() or not kind.isupper():
        raise FrameError(f"bad frame type: {kind!r}")
    parts = [_num(seq), _num(ack), kind]
    for field in fields:
        text = str(field)
        for byte in text.encode():
            if not is_field_char(byte):
                raise FrameError(f"forbidden character in field {text!r}")
        parts.append(text)
    body = ",".join(parts).encode()
    crc = crc16(body)
    tail = bytes(
        (_STAR, _HEX[crc >> 12], _HEX[(crc >> 8) & 15], _HEX[(crc >> 4) & 15], _HEX[crc & 15], _LF)
    )
    frame = b"$" + body + tail
    if len(frame) > MAX_FRAME:
        raise FrameError(f"frame longer than {MAX_FRAME} bytes")
    return frame


class Frame:
    """A received, CRC-checked frame."""

    def __init__(self, seq, ack, kind: str, fields: list) -> None:
        self.seq = seq  # int or None
        self.ack = ack  # int or None
        self.kind = kind
        self.fields = fields

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, Frame)
            and self.seq == other.seq
            and self.ack == other.ack
            and self.kind == other.kind
            and self.fields == other.fields
        )

    def __repr__(self) -> str:
        return f"Frame({self.seq!r}, {self.ack!r}, {self.kind!r}, {self.fields!r})"

    def encode(self) -> bytes:
        return encode(self.seq, self.ack, self.kind, self.fields)


def _parse_num(text: str):
    if text == NONE:
        return None
    if not text or len(text) > 5 or not text.isdigit():
        return -1
    if len(text) > 1 and text[0] == "0":
        return -1
    value = int(text)
    if value >= SEQ_MOD:
        return -1
    return value


def _parse_hex4(raw) -> int:
    value = 0
    for byte in raw:
        digit = _HEX.find(bytes((byte,)))
        if digit < 0:
            return -1
        value = (value << 4) | digit
    return value


def decode_body(body: bytes):
    """The Frame in ``body`` (the bytes between "$" and "*"), or None if malformed."""
    try:
        text = body.decode()
    except UnicodeError:
        return None
    parts = text.split(",")
    if len(parts) < 3:
        return None
    seq = _parse_num(parts[0])
    ack = _parse_num(parts[1])
    kind = parts[2]
    if seq == -1 or ack == -1:
        return None
    if not kind or len(kind) > MAX_TYPE or not kind.isalpha() or not kind.isupper():
        return None
    return Frame(seq, ack, kind, parts[3:])


class FrameParser:
    """Incremental receive side: bytes in, CRC-checked frames out; never raises on input.

    A "$" always starts a new frame (a half frame before it is dropped); bytes outside a
    frame are noise. Counters say why bytes were dropped.
    """

    NOISE_TAIL = 64

    def __init__(self) -> None:
        self._buf = bytearray()
        self._in_frame = False
        self.frames = 0
        self.crc_errors = 0
        self.format_errors = 0
        self.overflows = 0
        self.noise_bytes = 0
        self.noise_tail = bytearray()

    def reset(self) -> None:
        self._buf = bytearray()
        self._in_frame = False

    def _noise(self, byte: int) -> None:
        self.noise_bytes += 1
        tail = self.noise_tail
        tail.append(byte)
        if len(tail) > self.NOISE_TAIL:
            self.noise_tail = tail[len(tail) - self.NOISE_TAIL :]

    def feed(self, data) -> list:
        out = []
        for byte in data:
            if byte == _START:
                if self._in_frame and self._buf:
                    self.format_errors += 1
                self._buf = bytearray()
                self._in_frame = True
            elif not self._in_frame:
                self._noise(byte)
            elif byte == _LF:
                frame = self._finish()
                if frame is not None:
                    out.append(frame)
                self._in_frame = False
                self._buf = bytearray()
            elif (byte < 0x20 or byte > 0x7E) and byte != _CR:
                self.format_errors += 1
                self._in_frame = False
                self._buf = bytearray()
                self._noise(byte)
            else:
                self._buf.append(byte)
                if len(self._buf) > MAX_FRAME - 2:
                    self.overflows += 1
                    self._in_frame = False
                    self._buf = bytearray()
        return out

    def _finish(self):
        buf = self._buf
        if buf and buf[-1] == _CR:
            buf = buf[:-1]
        if len(buf) < 6 or buf[-5] != _STAR:
            self.format_errors += 1
            return None
        body = bytes(buf[:-5])
        if _CR in body:
            self.format_errors += 1
            return None
        expected = _parse_hex4(buf[-4:])
        if expected < 0:
            self.format_errors += 1
            return None
        if crc16(body) != expected:
            self.crc_errors += 1
            return None
        frame = decode_body(body)
        if frame is None:
            self.format_errors += 1
            return None
        self.frames += 1
        return frame
