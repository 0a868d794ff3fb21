"""``tableside cameras``: what each video device here is and which camera serve, calibrate
and watch open when none is named, on the devices of a laptop with a webcam, a Raspberry
Pi with its camera, and a machine with none (the kernel's descriptions as
web.runtime.hardware reads them from sysfs); and ``serve --camera`` with a source string
that names no camera."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.web.runtime.test_runtime_hardware import (
    LAPTOP,
    PI_CAMERA_NODES,
    PI_NODES,
    PLUGGED,
    usb,
)
from web.cli import main
from web.runtime import hardware

C920_ID = "/dev/v4l/by-id/usb-046d_HD_Pro_Webcam_C920_0A1B2C3D-video-index0"


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tray setups of this test's own, not the machine's."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))


def machine(monkeypatch: pytest.MonkeyPatch, devices, model: str | None = None,
            links: dict[str, str] | None = None) -> None:
    monkeypatch.setattr(hardware, "video_devices", lambda: devices)
    monkeypatch.setattr(hardware, "pi_model", lambda: model)
    monkeypatch.setattr(hardware, "by_id_links", lambda: links or {})


def test_a_laptop_with_a_webcam_lists_both_and_opens_the_webcam(monkeypatch, capsys):
    machine(monkeypatch, LAPTOP + PLUGGED, links={"/dev/video2": C920_ID})
    assert main(["cameras"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "  camera:0   Integrated_Webcam_HD (/dev/video0): this computer's own camera: it "
        "faces you, never chosen by itself",
        "  -          Integrated_Webcam_HD (/dev/video1): a USB camera's other node (its "
        "metadata): no picture",
        "* camera:2   HD Pro Webcam C920 (/dev/video2): USB camera",
        f"             also {C920_ID}",
        "  -          HD Pro Webcam C920 (/dev/video3): a USB camera's other node (its "
        "metadata): no picture",
        "* opened by serve, calibrate and watch when no camera is named",
        "serve opens camera:2, with no tray setup yet (tableside calibrate --setup NAME)",
    ]
    assert main(["cameras", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["chosen"] == "camera:2" and out["machine"] is None
    assert [r["source"] for r in out["cameras"] if r["chosen"]] == ["camera:2"]
    assert out["cameras"][2]["by_id"] == C920_ID and out["none_chosen"] is None


def test_the_tray_setup_serve_reads_with_and_its_anti_flicker_are_said(monkeypatch, capsys):
    import numpy as np

    from vision.calibration import Calibration, quality, remember_in_use

    image = np.full((60, 80, 3), 120, np.uint8)
    Calibration("den", image, np.full((60, 80), 255, np.uint8), 12.0, quality(image),
                50).save()
    remember_in_use("den")
    machine(monkeypatch, LAPTOP + PLUGGED)
    assert main(["cameras"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "serve opens camera:2,50hz with the tray setup den"
    assert main(["cameras", "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["setup"] == "den" and body["mains_hz"] == 50


def test_a_laptop_alone_says_its_own_camera_is_not_opened_and_how_to_name_it(
        monkeypatch, capsys):
    machine(monkeypatch, LAPTOP)
    assert main(["cameras"]) == 1
    out = capsys.readouterr().out
    assert "* " not in out
    assert "only this computer's own camera (/dev/video0" in out
    assert "calibrate SOURCE" in out and "camera:0 for this one" in out


def test_a_pi_lists_its_camera_as_picamera_and_its_codecs_as_no_camera(monkeypatch, capsys):
    machine(monkeypatch, PI_CAMERA_NODES + PI_NODES, "Raspberry Pi 4 Model B Rev 1.4")
    assert main(["cameras"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Raspberry Pi 4 Model B Rev 1.4"
    assert lines[1] == ("* picamera   unicam-image (/dev/video0): the Pi camera's raw sensor: "
                        "read it as picamera")
    assert lines[2].startswith("  -          unicam-embedded (/dev/video1)")
    assert all(": the board's video codec or image processor: no camera" in line
               for line in lines[3:-2]) and len(lines[3:-2]) == len(PI_NODES)
    assert lines[-1] == ("serve opens picamera, with no tray setup yet (tableside calibrate "
                         "--setup NAME)")
    # a webcam plugged into the Pi comes first
    machine(monkeypatch, PI_CAMERA_NODES + [usb(2)] + PI_NODES, "Raspberry Pi 5")
    assert main(["cameras", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["chosen"] == "camera:2"


def test_a_pi_with_no_camera_seen_at_boot_says_to_check_the_cable(monkeypatch, capsys):
    machine(monkeypatch, PI_NODES, "Raspberry Pi 4 Model B Rev 1.4")
    assert main(["cameras"]) == 0
    out = capsys.readouterr().out
    assert "* picamera   Raspberry Pi camera: the Pi's camera connector: no camera was seen " \
           "there at boot (check its cable, then restart)" in out


def test_no_video_device_at_all(monkeypatch, capsys):
    machine(monkeypatch, [])
    assert main(["cameras"]) == 1
    assert capsys.readouterr().out.startswith("no camera found (no /dev/video* device)")


def test_by_id_links_name_each_camera_by_model_and_serial(tmp_path: Path):
    root = tmp_path / "by-id"
    root.mkdir()
    node = tmp_path / "video2"
    node.touch()
    (root / "usb-046d_HD_Pro_Webcam_C920_0A1B2C3D-video-index0").symlink_to(node)
    assert hardware.by_id_links(root) == {
        str(node): str(root / "usb-046d_HD_Pro_Webcam_C920_0A1B2C3D-video-index0")}
    assert hardware.by_id_links(tmp_path / "none") == {}  # no USB camera, or no udev
