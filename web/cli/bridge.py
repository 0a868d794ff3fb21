"""``tableside bridge keys|monitor`` and ``tableside firmware install``: the button box.

* ``bridge keys``: the software button box on this terminal; prints each event and the
  answer the game's mapping gives it (``--game``, ``--mapping``, ``--expect``).
* ``bridge monitor [PORT]``: live events and link health of a serial button box; exit
  status 1 if the box never connected (``--duration``), 2 for a port named in no form.
* ``firmware install [PORT]``: copy the firmware to a Pico with mpremote.

PORT is ``auto`` (default: a Pico by USB id, else /dev/serial/by-id), a path, a pyserial
URL (``socket://host:port``) or ``usb:VID:PID[:SERIAL]``.

Errors are one line on stderr, ``tableside bridge keys: error: ...``, as the other commands
say theirs. Exit status, as theirs: 2 for bad input (a mapping file that cannot be read or
used, an unknown game or expectation, a PORT named in no form); 1 when the input was good
but the box failed the command (``monitor``: it never connected; ``firmware install``: no
box found, or mpremote could not install).
"""

from __future__ import annotations

import argparse
import contextlib
import math
import sys
import termios
import threading
import tty
from collections.abc import Iterator
from typing import TextIO

from firmware_bridge.bridge import BUSY, SerialBridge
from firmware_bridge.events import ButtonEvent
from firmware_bridge.installer import InstallError, install
from firmware_bridge.keys import SoftwareButtonBox
from firmware_bridge.mapping import (
    ROLES,
    ButtonMapping,
    Expectation,
    MappingError,
    TapOrHold,
    builtin_games,
    builtin_mapping,
    load_mapping,
)
from firmware_bridge.monitor import Monitor, health
from firmware_bridge.ports import BadPortSpec, PortNotFound, PortSpec
from firmware_bridge.session import LinkChanged


def register(subparsers: argparse._SubParsersAction) -> None:
    bridge = subparsers.add_parser("bridge", help="button box: software keys, live monitor")
    bridge_sub = bridge.add_subparsers(dest="bridge_command", metavar="SUBCOMMAND")
    bridge_sub.required = True

    keys = bridge_sub.add_parser(
        "keys", help="play with the keyboard: 1-8 click buttons 0-7, shift+digit holds",
        description="Play with the keyboard: keys 1-8 click buttons 0-7, shift+digit "
                    "holds, q quits.", epilog=_EXIT_BAD_INPUT)
    keys.add_argument("--game", default="default", type=str.lower,
                      help=f"built-in mapping ({_games()}; any case)")
    keys.add_argument("--mapping", help="a mapping file (JSON) instead of the built-in one")
    keys.add_argument(
        "--expect",
        default="confirm,reread,next,undo,option:4,fortune",
        help="what the prompt accepts, e.g. 'confirm,undo' or 'option:3' (default: all)",
    )
    keys.set_defaults(handler=run_keys)

    monitor = bridge_sub.add_parser("monitor", help="show live events and link health",
                                    description="Show the box's live events and link "
                                                "health.", epilog=_EXIT_MONITOR)
    monitor.add_argument("port", nargs="?", default="auto", help="port (default: auto)")
    monitor.add_argument("--duration", type=_seconds, metavar="SECONDS",
                         help="stop after this many seconds (more than 0); exit status 1 "
                              "if the box never connected meanwhile")
    monitor.add_argument("--interval", type=_seconds, default=5.0, metavar="SECONDS",
                         help="seconds between health lines (more than 0; default 5)")
    monitor.set_defaults(handler=run_monitor)

    firmware = subparsers.add_parser("firmware", help="the button box firmware")
    firmware_sub = firmware.add_subparsers(dest="firmware_command", metavar="SUBCOMMAND")
    firmware_sub.required = True
    inst = firmware_sub.add_parser("install", help="copy the firmware to a Pico (mpremote)",
                                   description="Copy the firmware to a Pico with mpremote, "
                                               "then reset it.", epilog=_EXIT_INSTALL)
    inst.add_argument("port", nargs="?", default="auto", help="port (default: auto)")
    inst.set_defaults(handler=run_install)


EXIT_FAILED = 1  # good input, but the box failed the command
EXIT_BAD_INPUT = 2  # as every tableside command: bad input, nothing done

_EXIT_BAD_INPUT = "Exit status: 0 when done; 2 for bad input (said on stderr)."
_EXIT_MONITOR = ("Exit status: 0 when done; 1 if the box never connected during --duration; "
                 "2 for a PORT named in no form (said on stderr).")
_EXIT_INSTALL = ("Exit status: 0 when installed; 1 when no box is found at PORT or mpremote "
                 "could not install; 2 for a PORT named in no form (said on stderr).")


def _fail(command: str, message: object, status: int) -> int:
    """One line on stderr as the other commands say theirs: ``tableside CMD: error: ...``."""
    print(f"tableside {command}: error: {message}", file=sys.stderr)
    return status


def _seconds(text: str) -> float:
    """A number of seconds more than 0 (-1 stopped at once, 0 printed health in a loop)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    return value


def _games() -> str:
    return ", ".join(builtin_games())


def parse_expectation(text: str) -> Expectation:
    actions: set[str] = set()
    options = 0
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, count = item.partition(":")
        if name not in ROLES:
            raise ValueError(f"unknown action {name!r} (one of {', '.join(ROLES)})")
        actions.add(name)
        if name == "option":
            if not count.isdigit():
                raise ValueError("write option:N with N the number of options")
            options = int(count)
    return Expectation(frozenset(actions), options)


def run_keys(args: argparse.Namespace, stdin: TextIO | None = None, out: TextIO | None = None):
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    try:
        if not args.mapping and args.game not in builtin_games():
            raise MappingError(f"no built-in mapping for the game {args.game!r} "
                               f"(built-in: {_games()}; or --mapping FILE)")
        mapping = load_mapping(args.mapping) if args.mapping else builtin_mapping(args.game)
        expects = parse_expectation(args.expect)
    except (MappingError, ValueError) as exc:
        return _fail("bridge keys", exc, EXIT_BAD_INPUT)
    printer = _KeyPrinter(mapping, expects, out)
    with SoftwareButtonBox() as box:
        box.add_listener(printer)
        out.write(
            f"mapping {mapping.game}; LEDs {' '.join(mapping.led_modes(expects, 4))}; "
            "keys 1-8 click, shift+digit hold, q quits\n"
        )
        out.flush()
        for char in _characters(stdin):
            if char in ("q", "\x03", "\x04"):
                break
            box.key(char)
    return 0


class _KeyPrinter:
    def __init__(self, mapping: ButtonMapping, expects: Expectation, out: TextIO) -> None:
        self.reader = TapOrHold(mapping)
        self.expects = expects
        self.out = out

    def __call__(self, event: ButtonEvent) -> None:
        answer = self.reader.answer(event, self.expects)
        shown = answer if answer is not None else "-"
        self.out.write(f"button {event.button} {event.kind} (seq {event.seq}) -> {shown}\n")
        self.out.flush()


def _characters(stream: TextIO) -> Iterator[str]:
    if stream.isatty():
        with _raw(stream):
            while char := stream.read(1):
                yield char
    else:
        for line in stream:
            yield from line.strip()


@contextlib.contextmanager
def _raw(stream: TextIO) -> Iterator[None]:
    fd = stream.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def run_monitor(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    monitor = Monitor(out)
    stop = threading.Event()
    try:
        spec = PortSpec(args.port)
    except BadPortSpec as exc:
        return _fail("bridge monitor", exc, EXIT_BAD_INPUT)
    bridge = SerialBridge(spec)
    bridge.add_listener(monitor)
    connected = threading.Event()  # the box was connected at some time

    def watch(notice: object) -> None:
        if isinstance(notice, LinkChanged) and notice.state.is_up:
            connected.set()

    bridge.add_listener(watch)
    monitor.line(f"watching {args.port} (Ctrl-C to stop)")
    with bridge:
        remaining = args.duration
        try:
            while remaining is None or remaining > 0:
                step = args.interval if remaining is None else min(args.interval, remaining)
                if stop.wait(step):
                    break
                if remaining is not None:
                    remaining -= step
                status = bridge.status()
                if status.state.is_up:
                    connected.set()
                monitor.line(health(status))
        except KeyboardInterrupt:
            monitor.line("stopped")
        status = bridge.status()
    if not connected.is_set() and not status.state.is_up:
        why = f": {status.reason}" if status.reason else ""
        if BUSY in status.reason:
            why = (f": {BUSY}, probably `tableside serve` (which then has the box: its "
                   "dashboard says how the box is); stop it, or the other monitor or "
                   "mpremote, then run this again")
        return _fail("bridge monitor", f"the box never connected on {args.port}{why}",
                     EXIT_FAILED)
    return 0


def run_install(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    try:
        port = PortSpec(args.port).resolve()
        output = install(port)
    except BadPortSpec as exc:  # usb:zz, foo://x: bad input, as for the other commands
        return _fail("firmware install", exc, EXIT_BAD_INPUT)
    except (PortNotFound, InstallError) as exc:
        return _fail("firmware install", exc, EXIT_FAILED)
    out.write(output)
    out.write(f"firmware installed on {port}; the box restarts and says HELLO\n")
    return 0
