"""The button-box loop and hardware status (docs/runtime.md): a serial box (the real
firmware on a fake Pico behind a pty, through the real serial bridge) answers the focused
table's prompt, keeps working across an unplug and replug, lights the LEDs the prompt
calls for; GPIO is used only on a Pi; ``GET /api/hardware`` reports every part."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from firmware_bridge.backoff import Backoff
from firmware_bridge.bridge import SerialBridge
from firmware_bridge.pty_box import FakePtyBox
from tests.support.web import browser
from vision.sources import FakeSource
from web.app import create_app
from web.runtime import Runtime, RuntimeOptions
from web.runtime.hardware import camera_spec, pi_model

OPTION_2 = 5  # SeaFall mapping: button 5 is option 2 (hold: option 4)
UNDO = 3
FAST = Backoff(0.05, 0.2)
SETUP = {"start_at": "turn", "provinces": [
    {"colour": "red", "fortune": 3, "ships": [{"location": "isle"}, {"location": "isle"}]},
    {"colour": "blue"}, {"colour": "green"}],
    "islands": [{"id": "isle", "sites": [{"name": "1", "defense": 4}]}]}


def wait_for(predicate: Callable[[], bool], timeout: float = 8.0) -> bool:
    """The box runs in real time on its own thread: wait (bounded) for what it causes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


@pytest.fixture
def box(tmp_path: Path):
    with FakePtyBox(tmp_path / "usb-MicroPython_Board-if00", seed=5) as fake:
        yield fake


def test_serial_box_presses_answer_the_table_and_survive_a_replug(services, box):
    table = services.tables.create("seafall", SETUP)
    bridge = SerialBridge(str(box.link), backoff=FAST)
    runtime = Runtime(services, RuntimeOptions(camera="none"), bridge=bridge,
                      pi_model=None).start()
    try:
        assert wait_for(lambda: runtime.status()["button_box"]["connected"])
        status = runtime.status()["button_box"]
        assert status["state"] == "connected" and status["firmware"] == "1.0.0"
        assert status["protocol"].startswith("1.") and status["port"] == str(box.link)
        # LEDs follow the prompt: a choice of guild lights the option LED
        assert wait_for(lambda: box.box is not None and box.box.device.led_modes[1] != "0")
        box.press(OPTION_2, down=0.9)  # a long press: option 4, the Soldiers
        assert wait_for(lambda: table.state.turn.guild == "soldiers")
        box.unplug()
        assert wait_for(lambda: not runtime.status()["button_box"]["connected"])
        assert runtime.status()["button_box"]["state"] in ("lost", "disconnected")
        box.plug()
        assert wait_for(lambda: runtime.status()["button_box"]["connected"])
        box.press(UNDO, down=0.05)
        assert wait_for(lambda: table.state.turn.guild is None)
        assert runtime.status()["button_box"]["presses"] >= 2
    finally:
        assert runtime.stop(timeout=3.0)


def test_gpio_is_used_only_on_a_pi(services, tmp_path: Path):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\x00")
    assert pi_model(model) == "Raspberry Pi 4 Model B Rev 1.4"
    model.write_bytes(b"Radxa ROCK Pi 4\x00")
    assert pi_model(model) is None
    assert pi_model(tmp_path / "absent") is None
    laptop = Runtime(services, RuntimeOptions(camera="none", box="none"), pi_model=None)
    gpio = laptop.status()["gpio"]
    assert gpio["state"] == "absent" and not gpio["is_pi"] and "not a Raspberry Pi" in (
        gpio["detail"])
    laptop.stop()
    off = Runtime(services, RuntimeOptions(camera="none", box="none", gpio=False),
                  pi_model="Raspberry Pi 5 Model B Rev 1.0")
    gpio = off.status()["gpio"]
    assert gpio["is_pi"] and gpio["state"] == "absent" and "--gpio none" in gpio["detail"]
    off.stop()


@pytest.mark.parametrize(("requested", "devices", "is_pi", "expected"), [
    pytest.param(None, ["/dev/video0"], False, "camera:0", id="a video device: camera:0"),
    pytest.param(None, [], False, None, id="no video device: no camera"),
    pytest.param(None, [], True, "picamera", id="a Pi without USB camera: picamera"),
    pytest.param("none", ["/dev/video0"], False, None, id="turned off"),
    pytest.param("images:/tmp/x", [], False, "images:/tmp/x", id="asked for"),
])
def test_camera_discovery(requested, devices, is_pi, expected):
    assert camera_spec(requested, devices, is_pi) == expected


def test_hardware_status_json(services):
    frames = [np.zeros((60, 80, 3), np.uint8)] * 3
    runtime = Runtime(services, RuntimeOptions(box="none"),
                      camera_factory=lambda: FakeSource(frames, loop=True, name="camera:0"),
                      camera_spec="camera:0", pi_model=None)
    services.runtime = runtime
    client = browser(create_app(services, {"TESTING": True}))
    tid = client.post("/api/tables", json={"game": "seafall", "options": SETUP}).json["id"]
    runtime.start()
    assert wait_for(lambda: runtime.status()["camera"]["frames"] > 2)
    out = client.get("/api/hardware").json
    assert set(out) == {"mode", "table", "camera", "button_box", "gpio", "software_box"}
    assert out["mode"] == "hardware" and out["table"] == tid
    camera = out["camera"]
    assert camera["source"] == "camera:0" and camera["state"] == "running"
    assert camera["tray"] in ("moving", "still", "settled") and camera["last_frame"]
    assert out["button_box"]["state"] == "absent" and not out["button_box"]["connected"]
    assert out["gpio"]["state"] == "absent"
    assert out["software_box"] == {"state": "running", "buttons": 8, "detail": (
        "the dashboard's buttons (POST /api/tables/<id>/buttons)")}
    assert runtime.stop(timeout=3.0)


def test_hardware_status_without_a_runtime(services):
    out = create_app(services, {"TESTING": True}).test_client().get("/api/hardware").json
    assert out["mode"] == "off" and out["camera"]["state"] == "absent"
    assert "no runtime" in out["camera"]["detail"]


def test_pressing_the_simulated_box_needs_the_demo(services):
    client = create_app(services, {"TESTING": True}).test_client()
    response = client.post("/api/hardware/box/press", json={"button": 0})
    assert response.status_code == 409 and "--demo" in response.json["message"]


@pytest.mark.hardware
def test_real_hardware_is_found_by_itself(services):
    """On the table's Pi: the runtime finds the camera (/dev/video*) and a serial button box
    plugged in by USB, and reports them running and connected."""
    from web.runtime.hardware import video_devices

    if not video_devices():
        pytest.skip("no /dev/video* camera here")
    runtime = Runtime(services, RuntimeOptions()).start()
    try:
        assert wait_for(lambda: runtime.status()["camera"]["frames"] > 5, timeout=15)
        assert runtime.status()["camera"]["state"] == "running"
        box = runtime.status()["button_box"]
        if box["state"] == "disconnected" and "no button box found" in box["detail"]:
            pytest.skip("no serial button box plugged in")
        assert wait_for(lambda: runtime.status()["button_box"]["connected"], timeout=15)
    finally:
        assert runtime.stop(timeout=5.0)
