"""``tableside serve --demo``: the whole loop on any laptop.

* **The table**: the demonstration SeaFall table, brought on first start to Blue's
  exploration of Example isle B's dangerous site 1 (hire the Explorers, sail, explore: 2
  dice against defense 5), so the first thing a newcomer sees is a roll being asked for
  and then answered. (Isle B, because isle A re-rolls weak successes, and the recording
  throws all the dice again each time rather than just the weak one.)
* **The camera**: the recording in ``web/runtime/demo/`` (synthetic SeaFall symbol dice
  thrown by a hand, tumbling and settling, about 7 s a roll, looping) played in real time.
* **The dice reader**: SeaFall dice need enrolled faces; the demo enrolls a profile from
  synthetic symbol-dice crops at start (:func:`web.runtime.recording.enroll_demo_profile`),
  as a player would enroll crops of their own dice.
* **The button box**: the real box firmware on a simulated Pico behind a pseudo-terminal
  (``firmware_bridge.pty_box.FakePtyBox``), spoken to by the real serial bridge, so the
  status shows a handshake and firmware version and a press travels the whole wire
  protocol. ``POST /api/hardware/box/press`` presses one of its buttons.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path

from companion.engine import Command
from companion.table import Table
from firmware_bridge.pty_box import FakePtyBox

DEMO_PLAYER = "blue"
OPENING = (
    Command("hire_guild", {"guild": "explorers"}, DEMO_PLAYER),
    Command("sail", {"moves": [{"ship": "blue-1",
                                "path": ["coastal_waters", "(0, 2, 2)", "isle-b"]}]},
            DEMO_PLAYER),
    Command("explore", {"flagship": "blue-1", "site": "isle-b/1"}, DEMO_PLAYER),
)
"""Blue explores Example isle B's site 1 with blue-1: 2 dice against defense 5."""


def recording_dir() -> Path:
    """The demo recording shipped with the package."""
    return Path(str(resources.files("web.runtime").joinpath("demo")))


def play_opening(table: Table) -> bool:
    """Bring a fresh demo table to its first roll; False if it was already played."""
    if table.last_command != 0:
        return False
    for command in OPENING:
        table.apply(command)
    return True


class DemoBox:
    """The simulated serial button box: the firmware on a fake Pico behind a pty."""

    def __init__(self) -> None:
        self._dir = tempfile.TemporaryDirectory(prefix="tableside-demo-box-")
        self.link = Path(self._dir.name) / "usb-Tableside_Demo_Box-if00"
        self.box = FakePtyBox(self.link, seed=2026)

    def plug(self) -> DemoBox:
        self.box.plug()
        return self

    def press(self, button: int, long: bool = False) -> None:
        self.box.press(button, down=0.9 if long else 0.08)

    def close(self) -> None:
        self.box.close()
        self._dir.cleanup()


def install_profile(services: object) -> None:
    """Teach the dice reader the demo's SeaFall faces, enrolled from synthetic crops.

    The enrollment draws dozens of synthetic trays; it runs in a child process so the
    server does not keep the memory those pictures took (about 20 MB on a Pi), and the
    server only loads the profile it wrote."""
    from vision.enrollment import Profile

    with tempfile.TemporaryDirectory(prefix="tableside-demo-profile-") as folder:
        done = subprocess.run(
            [sys.executable, "-c", "import sys; from web.runtime.recording import "
             "enroll_demo_profile; enroll_demo_profile().save(__import__('pathlib')"
             ".Path(sys.argv[1]))", folder],
            capture_output=True, text=True, timeout=300, check=False)
        if done.returncode != 0:
            raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip()
                               else f"enrollment exited with {done.returncode}")
        profile = Profile.load(str(Path(folder) / "seafall-demo.npz"))
    services.dice().readers.profiles["seafall"] = profile  # type: ignore[attr-defined]
