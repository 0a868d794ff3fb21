"""FakeMachine: a working stand-in for MicroPython's ``machine`` module on an RP2040.

It enforces the rules the firmware relies on (valid pin ids, no driving an output pin from
outside, no reading a floating input, the RP2040's watchdog limit) and has test verbs:
``pin.drive_low()``, ``pin.drive_high()``, ``pin.release()``, ``pin.history`` and
``machine.advance(ms)``, which moves virtual time, fires due timers in order and trips an
unfed watchdog. Written in the CPython/MicroPython common subset (no ``__future__``, which
MicroPython lacks) so that the MicroPython-in-Node tests load it as ``machine`` itself.
"""

PERIODIC = 1
ONE_SHOT = 0
RP2040_PINS = 30
WDT_MAX_MS = 8388


class FakePinError(Exception):
    """Something a real pin would not allow."""


class FakeWatchdogReset(Exception):
    """The watchdog was not fed in time: a real board would reboot now."""


class FakeReset(Exception):
    """machine.reset() was called."""


class FakePin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, machine, pin_id, mode=-1, pull=-1, value=None) -> None:
        if pin_id != "LED" and not (isinstance(pin_id, int) and 0 <= pin_id < RP2040_PINS):
            raise ValueError("invalid pin: " + repr(pin_id))
        self._machine = machine
        self.id = pin_id
        self.mode = FakePin.IN
        self.pull = None
        self._latch = 0
        self._driven = machine._external.get(pin_id)
        self.history = []
        self.init(mode, pull, value)
        machine.pins[pin_id] = self

    def init(self, mode=-1, pull=-1, value=None) -> None:
        if mode != -1:
            if mode not in (FakePin.IN, FakePin.OUT, FakePin.OPEN_DRAIN):
                raise ValueError("invalid mode")
            self.mode = mode
        if pull != -1:
            if pull not in (None, FakePin.PULL_UP, FakePin.PULL_DOWN):
                raise ValueError("invalid pull")
            self.pull = pull
        if value is not None:
            self._set(value)
        if self.mode == FakePin.OUT and self._driven is not None:
            raise FakePinError(f"pin {self.id} is an output but is driven from outside")

    def _set(self, value) -> None:
        level = 1 if value else 0
        if level != self._latch or not self.history:
            self.history.append((self._machine.ticks_ms(), level))
        self._latch = level

    def value(self, *args):
        if args:
            self._set(args[0])
            return None
        if self.mode == FakePin.OUT:
            return self._latch
        if self._driven is not None:
            return self._driven
        if self.pull == FakePin.PULL_UP:
            return 1
        if self.pull == FakePin.PULL_DOWN:
            return 0
        raise FakePinError(f"reading floating input pin {self.id} (no pull, not driven)")

    def __call__(self, *args):
        return self.value(*args)

    def on(self) -> None:
        self._set(1)

    def off(self) -> None:
        self._set(0)

    def toggle(self) -> None:
        self._set(1 - self._latch)

    # -- test verbs -----------------------------------------------------------------------
    def drive_low(self) -> None:
        self._drive(0)

    def drive_high(self) -> None:
        self._drive(1)

    def release(self) -> None:
        self._drive(None)

    def _drive(self, level) -> None:
        if self.mode == FakePin.OUT and level is not None:
            raise FakePinError(f"driving output pin {self.id} from outside")
        self._driven = level
        self._machine._external[self.id] = level

    def is_lit(self) -> bool:
        return self.mode == FakePin.OUT and self._latch == 1


class FakeTimer:
    PERIODIC = PERIODIC
    ONE_SHOT = ONE_SHOT

    def __init__(self, machine, timer_id=-1, mode=PERIODIC, period=-1, callback=None) -> None:
        self._machine = machine
        self.id = timer_id
        self.callback = None
        self.due = None
        self.period = 0
        self.mode = mode
        self.fired = 0
        if callback is not None:
            self.init(mode=mode, period=period, callback=callback)

    def init(self, mode=PERIODIC, period=-1, callback=None, freq=-1) -> None:
        if freq > 0:
            period = 1000 // freq
        if period < 1:
            raise ValueError("period must be at least 1 ms")
        self.mode = mode
        self.period = period
        self.callback = callback
        self.due = self._machine.now_ms + period
        if self not in self._machine.timers:
            self._machine.timers.append(self)

    def deinit(self) -> None:
        self.due = None
        if self in self._machine.timers:
            self._machine.timers.remove(self)


class FakeWDT:
    def __init__(self, machine, wdt_id=0, timeout=5000) -> None:
        if timeout < 1 or timeout > WDT_MAX_MS:
            raise ValueError(f"timeout must be 1..{WDT_MAX_MS} ms on the RP2040")
        if machine.watchdog is not None:
            raise FakePinError("the RP2040 has one watchdog; it cannot be reconfigured")
        self._machine = machine
        self.timeout = timeout
        self.deadline = machine.now_ms + timeout
        self.feeds = 0
        machine.watchdog = self

    def feed(self) -> None:
        self.feeds += 1
        self.deadline = self._machine.now_ms + self.timeout


class FakeMachine:
    """The ``machine`` module of one board; ``advance(ms)`` is the only way time passes."""

    PWRON_RESET = 1
    WDT_RESET = 3

    def __init__(self, uid=b"\xe6\x61\x41\x04\x03\x1b\x2c\x2f", start_ms=0) -> None:
        machine = self
        self.now_ms = start_ms
        self.pins = {}
        self.timers = []
        self.watchdog = None
        self._uid = uid
        self._external = {}
        self.resets = 0

        class Pin(FakePin):
            def __init__(self, pin_id, mode=-1, pull=-1, value=None) -> None:
                FakePin.__init__(self, machine, pin_id, mode, pull, value)

        class Timer(FakeTimer):
            def __init__(self, timer_id=-1, mode=PERIODIC, period=-1, callback=None) -> None:
                FakeTimer.__init__(self, machine, timer_id, mode, period, callback)

        class WDT(FakeWDT):
            def __init__(self, wdt_id=0, timeout=5000) -> None:
                FakeWDT.__init__(self, machine, wdt_id, timeout)

        self.Pin = Pin
        self.Timer = Timer
        self.WDT = WDT

    def ticks_ms(self) -> int:
        return self.now_ms % (1 << 30)

    def unique_id(self) -> bytes:
        return self._uid

    def freq(self) -> int:
        return 125000000

    def reset(self) -> None:
        raise FakeReset()

    def advance(self, ms: int) -> None:
        """Move time forward by ``ms``, firing due timers in time order."""
        if ms < 0:
            raise ValueError("time does not go backwards")
        self.advance_to(self.now_ms + ms)

    def advance_to(self, target_ms: int) -> None:
        while True:
            due = None
            for timer in self.timers:
                if timer.due is not None and timer.due <= target_ms:
                    if due is None or timer.due < due.due:
                        due = timer
            if due is None:
                break
            self._check_watchdog(due.due)
            self.now_ms = due.due
            if due.mode == PERIODIC:
                due.due += due.period
            else:
                due.deinit()
            due.fired += 1
            if due.callback is not None:
                due.callback(due)
        self._check_watchdog(target_ms)
        if target_ms > self.now_ms:
            self.now_ms = target_ms

    def _check_watchdog(self, when: int) -> None:
        wdt = self.watchdog
        if wdt is not None and when > wdt.deadline:
            self.now_ms = wdt.deadline
            self.resets += 1
            raise FakeWatchdogReset(f"watchdog not fed for {wdt.timeout} ms")

    def reboot(self) -> None:
        """What a reset does to the chip: timers and watchdog gone, outside drive kept."""
        for timer in list(self.timers):
            timer.deinit()
        self.watchdog = None
        self.pins = {}
