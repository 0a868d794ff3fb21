"""Copy the firmware to a connected Pico with ``mpremote`` (``tableside firmware install``).

The firmware package goes to ``/lib/tableside_box/`` and its entry point to ``/main.py``,
then the board is reset. mpremote interrupts the running firmware with Ctrl-C; the firmware
then feeds its watchdog from a timer, and ``resume`` keeps mpremote from soft-resetting
(which would stop that timer), so the copy is never cut short by the watchdog. The bridge
must not hold the port meanwhile (both open it exclusively).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

FIRMWARE_DIR = Path(__file__).parent / "firmware"
PACKAGE_FILES = (
    "__init__.py",
    "bbp.py",
    "box.py",
    "config.py",
    "debounce.py",
    "device.py",
    "leds.py",
)
DEVICE_PACKAGE = "/lib/tableside_box"

_MKDIRS = (
    "import os\n"
    "for d in ('/lib', '" + DEVICE_PACKAGE + "'):\n"
    "    try:\n"
    "        os.stat(d)\n"
    "    except OSError:\n"
    "        os.mkdir(d)\n"
)


class InstallError(RuntimeError):
    """mpremote could not install the firmware; the message says what it reported."""


def install_command(
    port: str, firmware_dir: Path = FIRMWARE_DIR, python: str = sys.executable
) -> list[str]:
    """The mpremote command line that installs the firmware on the board at ``port``."""
    missing = [name for name in (*PACKAGE_FILES, "main.py") if not (firmware_dir / name).is_file()]
    if missing:
        raise InstallError(f"firmware files missing in {firmware_dir}: {', '.join(missing)}")
    sources = [str(firmware_dir / name) for name in PACKAGE_FILES]
    return [
        python, "-m", "mpremote", "connect", port, "resume",
        "exec", _MKDIRS,
        "+", "fs", "cp", *sources, f":{DEVICE_PACKAGE}/",
        "+", "fs", "cp", str(firmware_dir / "main.py"), ":/main.py",
        "+", "reset",
    ]  # fmt: skip


Runner = Callable[[Sequence[str]], "subprocess.CompletedProcess[str]"]


INSTALL_TIMEOUT_S = 120.0
"""How long mpremote may take; a copy to a Pico takes a few seconds."""


def _run(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(command), capture_output=True, text=True,
                          timeout=INSTALL_TIMEOUT_S, check=False)


def install(port: str, runner: Runner = _run) -> str:
    """Install the firmware on ``port``; returns mpremote's output, InstallError on failure.

    A device path that is not there is refused before mpremote runs: mpremote says of it
    "failed to access (it may be in use by another program)", which sends one looking for
    a program that holds a port that does not exist."""
    if port.startswith("/") and not Path(port).exists():
        raise InstallError(f"{port} does not exist: is the box plugged in? ('auto', the "
                           "default, finds a Pico by its USB id)")
    try:
        result = runner(install_command(port))
    except subprocess.TimeoutExpired as stuck:
        raise InstallError(f"mpremote did not finish on {port} within {stuck.timeout:g} s: the "
                           "board did not answer. Unplug the box, plug it in again and retry; "
                           "if it hangs again, hold BOOTSEL while plugging it in and copy "
                           "MicroPython onto it first (docs/hardware.md)") from None
    output = (result.stdout or "") + (result.stderr or "")
    if result.returncode != 0:
        lines = [line for line in output.strip().splitlines() if line.strip()]
        raise InstallError(f"mpremote failed on {port}: {lines[-1] if lines else 'no output'}")
    return output
