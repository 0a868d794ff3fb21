from __future__ import annotations

import binascii

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.firmware import bbp
from firmware_bridge.firmware.bbp import Frame, FrameError, FrameParser, encode

# The test vectors of docs/protocol.md, byte for byte.
VECTORS = [
    (42, 17, "EVT", ["3", "D", "08", "98765"], b"$42,17,EVT,3,D,08,98765*30E5\n"),
    (None, 41, "HB", ["123456", "05", "03", "0", "0", "0"], b"$-,41,HB,123456,05,03,0,0,0*5375\n"),
    (0, None, "EVT", ["2", "P", "04", "12"], b"$0,-,EVT,2,P,04,12*E67C\n"),
    (None, 7, "ACK", [], b"$-,7,ACK*D332\n"),
    (None, None, "HELLO", ["1.0", "0a0b0c0d", "-"], b"$-,-,HELLO,1.0,0a0b0c0d,-*E9E4\n"),
]


def test_crc16_check_value_is_ccitt_false() -> None:
    assert bbp.crc16(b"123456789") == 0x29B1
    assert bbp.crc16_bitwise(b"123456789") == 0x29B1


def test_crc16_is_not_klippers_reflected_variant() -> None:
    assert bbp.crc16(b"123456789") != 0x6F91


@given(st.binary(max_size=200))
def test_crc16_bitwise_equals_crc_hqx(data: bytes) -> None:
    assert bbp.crc16_bitwise(data) == binascii.crc_hqx(data, 0xFFFF)


@pytest.mark.parametrize(("seq", "ack", "kind", "fields", "wire"), VECTORS)
def test_encode_matches_the_documented_vectors(seq, ack, kind, fields, wire) -> None:
    assert encode(seq, ack, kind, fields) == wire
    assert FrameParser().feed(wire) == [Frame(seq, ack, kind, fields)]


@pytest.mark.parametrize(
    ("kind", "fields"),
    [
        pytest.param("EVT", ["a,b"], id="comma in a field"),
        pytest.param("EVT", ["a*b"], id="star in a field"),
        pytest.param("EVT", ["$"], id="dollar in a field"),
        pytest.param("EVT", ["a\nb"], id="newline in a field"),
        pytest.param("EVT", ["\x03"], id="ctrl-c would interrupt MicroPython"),
        pytest.param("EVT", ["é"], id="non-ascii"),
        pytest.param("evt", [], id="lower-case type"),
        pytest.param("TOOLONGTYPE", [], id="type over 8 letters"),
        pytest.param("EVT", ["x" * 130], id="frame over 128 bytes"),
    ],
)
def test_encode_rejects_what_the_wire_cannot_carry(kind: str, fields: list[str]) -> None:
    with pytest.raises(FrameError):
        encode(1, 1, kind, fields)


def test_encode_rejects_sequence_numbers_out_of_range() -> None:
    with pytest.raises(FrameError):
        encode(65536, 0, "EVT")


@pytest.mark.parametrize(
    ("wire", "counter"),
    [
        pytest.param(b"$42,17,EVT,3,D,08,98765*30E6\n", "crc_errors", id="wrong crc"),
        pytest.param(b"$42,17,EVT,3,D,08,98765*30e5\n", "format_errors", id="lower-case crc"),
        pytest.param(b"$42,17,EVT,3,D,08,98765\n", "format_errors", id="no crc"),
        pytest.param(
            b"$042,17,EVT*" + b"%04X\n" % bbp.crc16(b"042,17,EVT"), "format_errors", id="leading 0"
        ),
        pytest.param(b"$42,17,EV\x00T*1234\n", "format_errors", id="nul inside"),
        pytest.param(b"$" + b"1" * 200 + b"\n", "overflows", id="over-long line"),
        pytest.param(b"hello>>> \r\n", "noise_bytes", id="noise outside frames"),
    ],
)
def test_parser_drops_bad_frames_and_counts_why(wire: bytes, counter: str) -> None:
    parser = FrameParser()
    assert parser.feed(wire) == []
    assert getattr(parser, counter) > 0


def test_parser_resynchronises_on_dollar_after_a_half_frame() -> None:
    good = encode(5, 4, "EVT", ["1", "P", "02", "0"])
    parser = FrameParser()
    assert parser.feed(b"$12,3,EV" + good) == [Frame(5, 4, "EVT", ["1", "P", "02", "0"])]


def test_parser_accepts_crlf_line_ends() -> None:
    wire = encode(None, 7, "ACK").replace(b"\n", b"\r\n")
    assert FrameParser().feed(wire) == [Frame(None, 7, "ACK", [])]


def test_parser_memory_is_bounded_by_a_long_run_without_newline() -> None:
    parser = FrameParser()
    parser.feed(b"$" + b"A" * 10_000)
    good = encode(1, 1, "ACK")
    assert parser.feed(good) == [Frame(1, 1, "ACK", [])]
    assert len(parser.noise_tail) <= FrameParser.NOISE_TAIL


@pytest.mark.parametrize(
    ("a", "b", "diff"),
    [(5, 3, 2), (3, 5, -2), (0, 65535, 1), (65535, 0, -1), (32767, 0, 32767), (32768, 0, -32768)],
)
def test_seq_diff_wraps_like_serial_numbers(a: int, b: int, diff: int) -> None:
    assert bbp.seq_diff(a, b) == diff


def test_ticks_diff_wraps_at_two_to_the_thirty() -> None:
    assert bbp.ticks_diff(5, (1 << 30) - 5) == 10
    assert bbp.ticks_add((1 << 30) - 1, 2) == 1


field_text = st.text(
    alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E, exclude_characters="$*,"),
    max_size=10,
)
frames = st.builds(
    Frame,
    st.one_of(st.none(), st.integers(0, 65535)),
    st.one_of(st.none(), st.integers(0, 65535)),
    st.sampled_from(["EVT", "HB", "ACK", "LEDS", "HELLO", "ERR"]),
    st.lists(field_text, max_size=6),
)


@given(frames)
def test_frames_round_trip_and_stay_printable(frame: Frame) -> None:
    wire = frame.encode()
    assert all(0x20 <= b <= 0x7E for b in wire[:-1]) and wire.endswith(b"\n")
    assert FrameParser().feed(wire) == [frame]


@settings(max_examples=300)
@given(st.binary(max_size=600), st.lists(st.integers(1, 64), min_size=1, max_size=20))
def test_arbitrary_bytes_never_raise_and_never_make_frames_out_of_thin_air(
    garbage: bytes, cuts: list[int]
) -> None:
    parser = FrameParser()
    position = 0
    found = []
    for size in cuts * (len(garbage) // max(sum(cuts), 1) + 1):
        found += parser.feed(garbage[position : position + size])
        position += size
        if position >= len(garbage):
            break
    for frame in found:  # whatever was accepted really was a well-formed, CRC-valid frame
        assert FrameParser().feed(frame.encode()) == [frame]


@settings(max_examples=200)
@given(st.binary(max_size=300), st.lists(frames, min_size=1, max_size=5), st.integers(1, 40))
def test_frames_after_any_garbage_are_all_recovered(garbage: bytes, sent: list[Frame], chunk: int):
    wire = garbage + b"\n" + b"".join(f.encode() for f in sent)
    parser = FrameParser()
    got = []
    for i in range(0, len(wire), chunk):
        got += parser.feed(wire[i : i + chunk])
    assert got[-len(sent) :] == sent
