"""`make run` and `make test` set a machine up (README.md, "Quick start"): on a Raspberry Pi
the venv also sees Raspberry Pi OS's own picamera2 and lgpio (apt packages, not on PyPI),
and gets the `pi` extra; elsewhere it is a plain venv. Checked with ``make -n`` (the commands
printed, none run), the board's model file given as it is on a Pi."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def install_commands(model: Path) -> str:
    out = subprocess.run(["make", "-n", "-B", ".venv/.installed", f"PI_MODEL={model}"],
                         cwd=ROOT, capture_output=True, text=True, check=True)
    return out.stdout


def venv_line(commands: str) -> str:
    return next(line for line in commands.splitlines() if " -m venv " in line)


def test_on_a_pi_the_venv_sees_the_systems_camera_and_gpio_packages(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")  # as the device tree ends it
    commands = install_commands(model)
    assert "--system-site-packages" in venv_line(commands)
    assert "pip install --quiet -e '.[dev,pi]'" in commands
    assert "import picamera2, lgpio" in commands  # a hint when apt's packages are missing


@pytest.mark.parametrize("model", [None, b"Pine64 RockPro64\0"])
def test_elsewhere_the_venv_is_plain(tmp_path, model):
    path = tmp_path / "model"
    if model is not None:
        path.write_bytes(model)
    commands = install_commands(path)
    assert "--system-site-packages" not in venv_line(commands)
    assert "pip install --quiet -e '.[dev]'" in commands


def test_the_pi_extra_is_what_picamera2_needs_in_a_numpy_2_venv():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert any(r.startswith("simplejpeg") for r in project["optional-dependencies"]["pi"])
    assert any(r.startswith("numpy") for r in project["dependencies"])


def test_make_run_passes_more_server_options_on():
    """`make run ARGS="--camera picamera:50hz"`: a table whose lamps flicker needs its
    camera's anti-flicker on from the two commands of the quick start."""
    def run_line(*extra: str) -> str:
        out = subprocess.run(["make", "-n", "run", *extra], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout
        return next(line for line in out.splitlines() if "tableside serve" in line)

    assert run_line().split() == [".venv/bin/tableside", "serve", "--demo", "--host",
                                  "0.0.0.0", "--port", "8000"]
    assert run_line("ARGS=--camera picamera:50hz").endswith(
        "--port 8000 --camera picamera:50hz")
