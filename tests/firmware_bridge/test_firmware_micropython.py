"""The firmware's protocol, debounce and board code under real MicroPython (WebAssembly, Node).

Node's package is installed with ``npm ci --prefix tests/firmware_bridge/node`` (CI does it
in ``make test``; this test does it itself when node_modules is missing). The script must
print exactly the same lines under MicroPython as under CPython.
"""

from __future__ import annotations

import contextlib
import io
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import firmware_bridge.fake_machine as fake_machine
import firmware_bridge.firmware as firmware
from firmware_bridge.firmware import bbp, box, config, debounce, device, leds

HERE = Path(__file__).parent
NODE_DIR = HERE / "node"
SCRIPT = HERE / "micropython" / "check_firmware.py"
FIRMWARE_DIR = Path(firmware.__file__).parent
PACKAGE = NODE_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"


def _node() -> str:
    node = shutil.which("node")
    npm = shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("node and npm are not installed: cannot run MicroPython (WebAssembly)")
    if not PACKAGE.exists():
        subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--prefix", str(NODE_DIR)],
            check=True,
            capture_output=True,
            timeout=300,
        )
    return node


def _under_micropython() -> list[str]:
    result = subprocess.run(
        [
            _node(),
            str(NODE_DIR / "run.mjs"),
            str(FIRMWARE_DIR),
            fake_machine.__file__,
            str(SCRIPT),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=NODE_DIR,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def _under_cpython(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    aliases = {
        "machine": fake_machine,
        "tableside_box": firmware,
        "tableside_box.bbp": bbp,
        "tableside_box.box": box,
        "tableside_box.config": config,
        "tableside_box.debounce": debounce,
        "tableside_box.device": device,
        "tableside_box.leds": leds,
    }
    for name, module in aliases.items():
        monkeypatch.setitem(sys.modules, name, module)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(str(SCRIPT), run_name="__main__")
    return out.getvalue().splitlines()


def test_firmware_runs_under_real_micropython_and_matches_cpython(monkeypatch) -> None:
    mp_lines = _under_micropython()
    assert mp_lines[0] == "impl: micropython"
    assert mp_lines[-1] == "done"
    assert "crc check: 29B1 29B1" in mp_lines
    assert "frame: b'$42,17,EVT,3,D,08,98765*30E5\\n'" in mp_lines
    assert "garbage frames: 0" in mp_lines
    assert "debounce: [(0, 'P', 22, 1), (0, 'H', 622, 1), (0, 'R', 826, 0)]" in mp_lines
    assert "debounce held at start: [(1, 'P', 832, 2), (1, 'R', 842, 0)]" in mp_lines
    assert "box frames: [(None, 'HELLO', ['1.0', '1.0.0']), (0, 'EVT', ['1', 'P'])," in (
        " ".join(mp_lines)
    )
    cpython_lines = _under_cpython(monkeypatch)
    assert cpython_lines[0] == "impl: cpython"
    assert mp_lines[1:] == cpython_lines[1:]
