# Exercises the firmware's protocol, debounce and board code; prints one line per result.
# Runs unchanged under MicroPython (tests/firmware_bridge/node/run.mjs) and CPython
# (test_firmware_micropython.py), which must print the same lines.
import sys

import machine
from tableside_box import bbp, debounce, device, leds
from tableside_box.box import Box
from tableside_box.config import CONFIG

print("impl:", sys.implementation.name)
print("crc check:", f"{bbp.crc16(b'123456789'):04X}", f"{bbp.crc16_bitwise(b'123456789'):04X}")
print("frame:", bbp.encode(42, 17, "EVT", ["3", "D", "08", "98765"]))
print("frame:", bbp.encode(None, 7, "ACK"))
try:
    bbp.encode(1, 1, "EVT", ["a,b"])
    print("encode forbidden: accepted")
except bbp.FrameError:
    print("encode forbidden: refused")

p = bbp.FrameParser()
wire = b"\x00\xff$12,3,EV" + bbp.encode(5, 4, "EVT", ["1", "P", "02", "0"]) + b">>> \r\n"
got = []
for i in range(0, len(wire), 3):
    got += p.feed(wire[i : i + 3])
print("parsed:", [(f.seq, f.ack, f.kind, f.fields) for f in got])
print("parser counters:", p.frames, p.crc_errors, p.format_errors, p.noise_bytes)
junk = bytes([(i * 37 + 11) % 256 for i in range(5000)])
print("garbage frames:", len(bbp.FrameParser().feed(junk)))
print("seq:", bbp.seq_diff(0, 65535), bbp.seq_diff(65535, 0), bbp.ticks_diff(5, (1 << 30) - 5))

def debounced(samples):
    """The edges a two-button debouncer gives for raw samples 2 ms apart."""
    d = debounce.Debouncer(2, samples=4, hold_ms=600)
    t = 0
    for raw in samples:
        d.sample(raw, t)
        t += 2
    edges = []
    e = d.ring.get()
    while e is not None:
        edges.append(e)
        e = d.ring.get()
    return edges


print("debounce:", debounced([0] * 4 + [1, 0, 1, 0] + [1] * 400 + [0, 1, 0] + [0] * 10))
print("debounce held at start:", debounced([2, 0, 2] + [2] * 400 + [0] * 10 + [2] * 5 + [0] * 5))
print("leds:", leds.is_lit("B100/100", 50), leds.is_lit("B100/100", 150), leds.parse_mode("x"))

dev = device.DeviceSession("0badf00d", "e661", "1.0.0")
dev.receive(bbp.encode(None, None, "HELLO", ["1.0", "cafe0001", "0badf00d"]), 10)
dev.push(3, "P", 10, 8)
dev.tick(12)
out = bbp.FrameParser().feed(dev.take_output())
print("device:", [(f.seq, f.kind, f.fields) for f in out])
dev.receive(bbp.encode(None, 1, "ACK"), 14)
print("device queue after ack:", dev.queue_depth())

m = machine.FakeMachine()
to_host = []
to_box = []


def read():
    data = b"".join(to_box)
    to_box.clear()
    return data


box = Box(m, CONFIG, read, to_host.append, m.ticks_ms, lambda n: bytes(range(n)))
print("boot id:", box.device.boot_id, "board:", box.device.board_uid)
to_box.append(bbp.encode(None, None, "HELLO", ["1.0", "cafe0001", box.device.boot_id]))
m.pins[2].drive_low()  # held at power-up: ignored
for _ in range(20):
    m.advance(1)
    box.step()
m.pins[2].drive_high()
m.pins[3].drive_low()
for _ in range(40):
    m.advance(1)
    box.step()
m.pins[3].drive_high()
for _ in range(40):
    m.advance(1)
    box.step()
frames = bbp.FrameParser().feed(b"".join(to_host))
print("box frames:", [(f.seq, f.kind, f.fields[:2]) for f in frames if f.kind != "HB"])
print("box hb:", [f.fields[2] for f in frames if f.kind == "HB"])
print("watchdog feeds > 0:", m.watchdog.feeds > 0)
print("status led lit:", m.pins["LED"].value())
print("done")
