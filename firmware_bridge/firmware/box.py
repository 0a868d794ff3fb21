"""The board: pins, the sampling timer and the watchdog around the protocol and debouncer.

``Box(machine, config, read, write, ticks_ms, urandom)`` takes everything from outside, so
the same code runs on the Pico (``main.py`` passes the real ``machine`` and USB serial) and
on the host (a ``FakeMachine`` and in-memory or pty byte streams). ``step()`` is one pass of
the main loop.
"""

from . import leds as ledmodes
from .config import VERSION
from .debounce import Debouncer, EdgeRing
from .device import DeviceSession

READ_CHUNK = 256


def hexstr(data) -> str:
    return "".join([f"{b:02x}" for b in data])


class Box:
    def __init__(self, machine, config, read, write, ticks_ms, urandom) -> None:
        button_pins = config["buttons"]
        led_pins = config["leds"]
        if not 1 <= len(button_pins) <= 8:
            raise ValueError("1 to 8 buttons")
        if len(led_pins) > 4:
            raise ValueError("at most 4 LEDs")
        self._read = read
        self._write = write
        self.ticks_ms = ticks_ms
        pin = machine.Pin
        self.buttons = [pin(n, pin.IN, pin.PULL_UP) for n in button_pins]
        self.leds = [pin(n, pin.OUT, value=0) for n in led_pins]
        status = config.get("status_led")
        self.status_led = pin(status, pin.OUT, value=0) if status is not None else None
        self.wdt = None
        self._keeper = None
        now = ticks_ms()
        self.device = DeviceSession(
            hexstr(urandom(4)),
            hexstr(machine.unique_id()),
            VERSION,
            buttons=len(button_pins),
            leds=len(led_pins),
            queue_size=config["queue_size"],
            now=now,
        )
        self.debouncer = Debouncer(
            len(button_pins),
            samples=config["debounce_samples"],
            hold_ms=config["hold_ms"],
            ring=EdgeRing(config["queue_size"]),
        )
        self.timer = machine.Timer(
            mode=machine.Timer.PERIODIC, period=config["sample_ms"], callback=self._sample
        )
        watchdog_ms = config.get("watchdog_ms")
        if watchdog_ms:
            self.wdt = machine.WDT(timeout=watchdog_ms)

    def _sample(self, _timer) -> None:
        raw = 0
        bit = 1
        for pin in self.buttons:
            if not pin.value():
                raw |= bit
            bit <<= 1
        self.debouncer.sample(raw, self.ticks_ms())

    def step(self) -> None:
        now = self.ticks_ms()
        device = self.device
        data = self._read()
        if data:
            device.receive(data, now)
        ring = self.debouncer.ring
        edge = ring.get()
        while edge is not None:
            device.push(edge[0], edge[1], edge[2], edge[3])
            edge = ring.get()
        if ring.overflows > 0:
            device.dropped += ring.overflows
            ring.overflows = 0
        device.tick(now)
        out = device.take_output()
        if out:
            self._write(out)
        self.render(now)
        if self.wdt is not None:
            self.wdt.feed()

    def render(self, now: int) -> None:
        modes = self.device.shown_leds()
        for i in range(len(self.leds)):
            self.leds[i].value(1 if ledmodes.is_lit(modes[i], now) else 0)
        if self.status_led is not None:
            present = self.device.host_present
            mode = ledmodes.ON if present else ledmodes.ABSENT_PATTERN
            self.status_led.value(1 if ledmodes.is_lit(mode, now) else 0)

    def keep_alive(self, machine) -> None:
        """Feed the watchdog from a timer once the main loop has stopped (Ctrl-C from
        mpremote): the REPL then has the board for as long as it needs."""
        wdt = self.wdt
        if wdt is not None:
            self._keeper = machine.Timer(
                mode=machine.Timer.PERIODIC, period=1000, callback=lambda _t: wdt.feed()
            )

    def close(self) -> None:
        self.timer.deinit()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class StdioLink:
    """USB serial on the board: non-blocking reads through ``select.poll`` on stdin."""

    def __init__(self, sys_module, select_module) -> None:
        self._in = sys_module.stdin.buffer
        self._out = sys_module.stdout.buffer
        self._poll = select_module.poll()
        self._poll.register(sys_module.stdin, select_module.POLLIN)

    def read(self) -> bytes:
        data = bytearray()
        while len(data) < READ_CHUNK and self._poll.poll(0):
            chunk = self._in.read(1)
            if not chunk:
                break
            data.extend(chunk)
        return bytes(data)

    def write(self, data) -> None:
        self._out.write(data)


def maintenance_requested(machine, config) -> bool:
    """Button 0 held down at power-up: do not start (no watchdog), leave the REPL free."""
    pin = machine.Pin(config["buttons"][0], machine.Pin.IN, machine.Pin.PULL_UP)
    return pin.value() == 0


def run(machine, config, link, time_module, urandom, steps=-1):
    """The main loop: one ``step()`` per millisecond, forever (or ``steps`` times)."""
    box = Box(machine, config, link.read, link.write, time_module.ticks_ms, urandom)
    try:
        while steps != 0:
            box.step()
            time_module.sleep_ms(1)
            if steps > 0:
                steps -= 1
    except KeyboardInterrupt:
        box.keep_alive(machine)
        raise
    finally:
        box.close()
    return box
