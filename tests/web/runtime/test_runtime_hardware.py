"""The button-box loop and hardware status (docs/runtime.md): a serial box (the real
firmware on a fake Pico behind a pty, through the real serial bridge) answers the focused
table's prompt, keeps working across an unplug and replug, lights the LEDs the prompt
calls for; GPIO is used only on a Pi; ``GET /api/hardware`` reports every part."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from firmware_bridge.backoff import Backoff
from firmware_bridge.bridge import SerialBridge
from firmware_bridge.gpio import GpioUnavailable
from firmware_bridge.pty_box import FakePtyBox
from tests.support.web import browser, join
from tests.web.runtime.support import FocusingCamera, PacedCamera
from vision.calibration import Calibration, quality
from vision.sources import FakeSource, FlickerControlError
from web import runtime as runtime_module
from web.app import create_app
from web.runtime import Runtime, RuntimeOptions
from web.runtime.hardware import (
    VideoDevice,
    box_attached,
    camera_label,
    camera_spec,
    no_camera_found,
    pi_model,
    screen_machine,
    video_devices,
)
from web.runtime.reads import FRAMES_BUDGET

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
    # not used by design is "off" (a grey dot), not "absent" (a red one: something to fix)
    assert gpio["state"] == "off" and not gpio["is_pi"] and "not a Raspberry Pi" in (
        gpio["detail"])
    laptop.stop()
    off = Runtime(services, RuntimeOptions(camera="none", box="none", gpio=False),
                  pi_model="Raspberry Pi 5 Model B Rev 1.0")
    gpio = off.status()["gpio"]
    assert gpio["is_pi"] and gpio["state"] == "off" and "--gpio none" in gpio["detail"]
    off.stop()


def test_a_pi_whose_gpio_pins_cannot_be_used_says_so(services, monkeypatch):
    def no_lgpio():
        raise GpioUnavailable("no GPIO here (no module named 'lgpio'); on a Pi install "
                              "python3-lgpio")

    monkeypatch.setattr(runtime_module, "pi_pin_factory", no_lgpio)
    pi = Runtime(services, RuntimeOptions(camera="none", box="none"),
                 pi_model="Raspberry Pi 5 Model B Rev 1.0")
    gpio = pi.status()["gpio"]
    assert gpio["is_pi"] and gpio["state"] == "absent" and "python3-lgpio" in gpio["detail"]
    pi.stop()


def usb(n: int, index: int = 0, name: str = "USB webcam", removable: str = "",
        laptop: bool = False) -> VideoDevice:
    return VideoDevice(f"/dev/video{n}", name, "usb", index, removable, laptop)


# a laptop's own camera (on a USB port fixed to the machine) and a webcam plugged in
LAPTOP = [usb(0, name="Integrated_Webcam_HD", removable="fixed", laptop=True),
          usb(1, 1, "Integrated_Webcam_HD", "fixed", laptop=True)]
PLUGGED = [usb(2, name="HD Pro Webcam C920", removable="removable", laptop=True),
           usb(3, 1, "HD Pro Webcam C920", "removable", laptop=True)]


def board(n: int, name: str) -> VideoDevice:
    return VideoDevice(f"/dev/video{n}", name, "platform", 0)


# a Raspberry Pi 4's own video nodes (Raspberry Pi OS): video codecs and the image processor
PI_NODES = [board(10, "bcm2835-codec-decode"), board(11, "bcm2835-codec-encode"),
            board(12, "bcm2835-codec-isp"), board(13, "bcm2835-isp"), board(14, "bcm2835-isp"),
            board(15, "bcm2835-isp"), board(16, "bcm2835-isp")]
PI_CAMERA_NODES = [board(0, "unicam-image"), board(1, "unicam-embedded")]  # raw, libcamera's


@pytest.mark.parametrize(("requested", "devices", "is_pi", "expected"), [
    pytest.param(None, [usb(0), usb(1, index=1)], False, "camera:0",
                 id="a webcam: its picture node, not its metadata node"),
    pytest.param(None, [VideoDevice("/dev/video0")], False, "camera:0",
                 id="a video node the kernel says nothing of (no sysfs): tried"),
    pytest.param(None, [], False, None, id="no video device: no camera"),
    pytest.param(None, [], True, "picamera", id="a Pi without video nodes: picamera"),
    pytest.param(None, PI_NODES, True, "picamera",
                 id="a Pi's codecs and image processor are no camera: picamera"),
    pytest.param(None, PI_CAMERA_NODES + PI_NODES, True, "picamera",
                 id="a Pi camera's raw nodes: read through picamera2"),
    pytest.param(None, PI_CAMERA_NODES + PI_NODES + [usb(17), usb(18, index=1)], True,
                 "camera:17", id="a webcam on a Pi with a Pi camera: the webcam"),
    pytest.param(None, [board(0, "mmal service 16.1")] + PI_NODES, True, "camera:0",
                 id="a Pi camera through the old firmware driver: a V4L2 camera"),
    pytest.param(None, [board(0, "rockchip-vdec")], False, None,
                 id="another board's codec: no camera"),
    pytest.param(None, LAPTOP + PLUGGED, False, "camera:2",
                 id="a laptop's built-in camera faces the player: the webcam plugged in"),
    pytest.param(None, [usb(0, name="HD WebCam", removable="fixed", laptop=True)] + PLUGGED,
                 False, "camera:2", id="built in, as a laptop's USB port says, whatever its name"),
    pytest.param(None, [usb(0, name="HD Pro Webcam C920", removable="fixed")], False,
                 "camera:0", id="a desktop's firmware calling a socket fixed: a webcam still"),
    pytest.param(None, [usb(0, name="Integrated Camera", removable="unknown")] + PLUGGED,
                 False, "camera:2", id="built in, as its name says"),
    pytest.param(None, LAPTOP, False, None,
                 id="only the built-in camera: no camera over a tray (it reads a face)"),
    pytest.param(None, [usb(0, name="USB Camera", removable="fixed")], True, "camera:0",
                 id="a Pi has no built-in camera: a webcam on a port it calls fixed counts"),
    pytest.param("camera:0", LAPTOP, False, "camera:0", id="the built-in camera, named"),
    pytest.param("none", [usb(0)], False, None, id="turned off"),
    pytest.param("images:/tmp/x", [], False, "images:/tmp/x", id="asked for"),
])
def test_camera_discovery(requested, devices, is_pi, expected):
    assert camera_spec(requested, devices, is_pi) == expected


def test_video_devices_are_described_from_sysfs(tmp_path):
    """Each node's name, bus and index come from /sys/class/video4linux (a tree built here
    as the kernel lays it out: the node's device links to a device whose subsystem is its
    bus); nodes are in number order."""
    dev, sys_root, buses = tmp_path / "dev", tmp_path / "class", tmp_path / "bus"
    for bus in ("usb", "platform"):
        (buses / bus).mkdir(parents=True)
    nodes = {"video10": ("bcm2835-codec-decode", "platform", 0),
             "video2": ("HD Pro Webcam C920", "usb", 0),
             "video3": ("HD Pro Webcam C920", "usb", 1)}
    dev.mkdir()
    for node, (name, bus, index) in nodes.items():
        (dev / node).touch()
        # a USB camera's node belongs to an interface (1-2:1.0) of its USB device (1-2),
        # which says whether its port is built in
        device = tmp_path / "devices" / node / ("1-2:1.0" if bus == "usb" else "")
        device.mkdir(parents=True, exist_ok=True)
        if bus == "usb":
            (device.parent / "removable").write_text("removable\n")
        (device / "subsystem").symlink_to(buses / bus)
        (sys_root / node).mkdir(parents=True)
        (sys_root / node / "name").write_text(name + "\n")
        (sys_root / node / "index").write_text(f"{index}\n")
        (sys_root / node / "device").symlink_to(device)
    (dev / "video7").touch()  # a node the kernel's tree does not describe
    chassis = tmp_path / "chassis_type"
    chassis.write_text("10\n")  # a notebook
    found = video_devices(str(dev / "video*"), sys_root, chassis)
    assert [d.path for d in found] == [str(dev / n) for n in ("video2", "video3", "video7",
                                                               "video10")]
    webcam, metadata, unknown, codec = found
    assert (webcam.name, webcam.bus, webcam.index, webcam.webcam, webcam.removable) == (
        "HD Pro Webcam C920", "usb", 0, True, "removable")
    assert webcam.in_screen_machine and not webcam.built_in and codec.removable == ""
    assert metadata.index == 1 and not metadata.webcam
    assert (unknown.name, unknown.bus, unknown.index) == ("", "", 0)
    assert codec.bus == "platform" and codec.number == 10
    assert camera_spec(None, found, is_pi=True) == "camera:2"
    assert camera_spec(None, [unknown, codec], is_pi=True) == "picamera"


@pytest.mark.parametrize(("chassis", "expected"), [
    ("10\n", True), ("9", True), ("13", True), ("31", True),  # notebook, laptop, AIO, convertible
    ("3", False), ("7", False), ("23", False),  # desktop, tower, rack server
    ("", False), (None, False), ("Laptop", False)])
def test_a_screen_machine_is_known_by_its_chassis(tmp_path, chassis, expected):
    path = tmp_path / "chassis_type"
    if chassis is not None:
        path.write_text(chassis)
    assert screen_machine(path) is expected


def test_no_camera_found_names_the_video_nodes_that_are_not_cameras():
    assert "no /dev/video* device" in no_camera_found([])
    message = no_camera_found(PI_NODES)
    assert "/dev/video10 (bcm2835-codec-decode)" in message and "not USB cameras" in message
    assert "and 1 more" in message and "--camera SOURCE" in message


def test_a_laptop_with_only_its_own_camera_has_no_camera_over_a_tray(services):
    assert camera_label("camera:2", LAPTOP + PLUGGED) == "camera:2 (HD Pro Webcam C920)"
    assert camera_label("camera:5", LAPTOP) == "camera:5"  # a node the kernel does not name
    assert camera_label("picamera", LAPTOP) == "picamera"
    message = no_camera_found(LAPTOP)
    assert "only this computer's own camera (/dev/video0, Integrated_Webcam_HD)" in message
    assert "plug a webcam in over the tray" in message and "camera:0 for this one" in message
    # serve on a laptop with nothing plugged in: the camera is absent, saying why
    runtime = Runtime(services, RuntimeOptions(box="none", gpio=False), pi_model=None,
                      video_devices=LAPTOP)
    runtime.start()
    try:
        assert wait_for(lambda: "own camera" in (runtime.status()["camera"]["detail"] or ""),
                        timeout=5)
        assert runtime.status()["camera"]["state"] == "absent"
    finally:
        runtime.stop()


def recording_opens(monkeypatch, refuses_flicker: bool = False) -> list[str]:
    """Every source the runtime opens, in order, each a fake camera (a webcam without an
    anti-flicker setting when ``refuses_flicker``)."""
    import vision.sources as sources

    opened: list[str] = []

    def open_source(spec, clock=None):
        opened.append(spec)
        if refuses_flicker and spec.endswith("hz"):
            raise FlickerControlError(f"{spec}: the camera has no power line frequency "
                                      "control: leave out ,50hz")
        return FakeSource([np.zeros((60, 80, 3), np.uint8)], loop=True, name=spec)

    monkeypatch.setattr(sources, "open_source", open_source)
    return opened


def test_the_camera_found_is_named_in_the_status(services, monkeypatch):
    """With no --camera the status names the camera opened, not "auto"."""
    opened = recording_opens(monkeypatch)
    runtime = Runtime(services, RuntimeOptions(box="none", gpio=False), pi_model=None,
                      video_devices=LAPTOP + PLUGGED)
    runtime.start()
    try:
        assert wait_for(lambda: runtime.status()["camera"]["state"] == "running", timeout=5)
        camera = runtime.status()["camera"]
        assert opened == ["camera:2"]
        assert camera["source"] == "camera:2 (HD Pro Webcam C920)"
        assert camera["detail"].startswith("camera:2 (HD Pro Webcam C920)")
    finally:
        runtime.stop()


def calibrated_at(name: str, mains_hz: int | None) -> None:
    """A tray setup saved as ``tableside calibrate`` saves it, its camera's anti-flicker
    at ``mains_hz``."""
    image = np.full((60, 80, 3), 120, np.uint8)
    roi = np.full((60, 80), 255, np.uint8)
    Calibration(name, image, roi, 12.0, quality(image), mains_hz).save()


@pytest.mark.parametrize("camera, expected", [
    (None, "camera:2,50hz"),  # the camera found, with the setup's anti-flicker
    ("camera:0", "camera:0,50hz"),  # the camera named, without its own
    ("camera:0,60hz", "camera:0,60hz"),  # the source's own anti-flicker wins
    ("images:/nowhere", "images:/nowhere"),  # a recording has none to set
])
def test_the_camera_opens_with_its_tray_setups_anti_flicker(services, monkeypatch, camera,
                                                            expected):
    """A tray calibrated with ``camera:N,50hz`` keeps it (docs/vision.md, *Lighting*):
    ``serve`` sets it on the camera it finds, or is given without one."""
    calibrated_at("kitchen", 50)
    opened = recording_opens(monkeypatch)
    runtime = Runtime(services, RuntimeOptions(box="none", gpio=False, camera=camera,
                                               setup="kitchen"),
                      pi_model=None, video_devices=LAPTOP + PLUGGED)
    runtime.start()
    try:
        assert wait_for(lambda: runtime.status()["camera"]["state"] == "running", timeout=5)
        assert opened == [expected]
        if camera is None:
            assert runtime.status()["camera"]["source"] == "camera:2,50hz (HD Pro Webcam C920)"
        assert runtime.camera is not None
    finally:
        runtime.stop()


def test_a_camera_without_anti_flicker_opens_without_the_setups(services, monkeypatch,
                                                                caplog):
    """Another webcam than the one the tray was calibrated with, with no such setting: it
    is read all the same (the tray check says if its light flickers), and the log says
    why it is without."""
    calibrated_at("kitchen", 50)
    opened = recording_opens(monkeypatch, refuses_flicker=True)
    runtime = Runtime(services, RuntimeOptions(box="none", gpio=False, setup="kitchen"),
                      pi_model=None, video_devices=LAPTOP + PLUGGED)
    with caplog.at_level("WARNING", logger="web.runtime"):
        runtime.start()
        try:
            assert wait_for(lambda: runtime.status()["camera"]["state"] == "running",
                            timeout=5)
            assert opened == ["camera:2,50hz", "camera:2"]
            assert runtime.status()["camera"]["source"] == "camera:2 (HD Pro Webcam C920)"
        finally:
            runtime.stop()
    assert "without the tray setup's anti-flicker" in caplog.text
    assert "no power line frequency control" in caplog.text


def test_the_runtime_says_why_it_found_no_camera(services):
    """Not a Pi, only a board's codec: the camera is absent, and its status says why."""
    runtime = Runtime(services, RuntimeOptions(box="none", gpio=False), pi_model=None,
                      video_devices=[board(0, "rockchip-vdec")])
    runtime.start()
    try:
        assert wait_for(lambda: "rockchip-vdec" in (runtime.status()["camera"]["detail"]
                                                    or ""), timeout=5)
        assert runtime.status()["camera"]["state"] == "absent"
    finally:
        runtime.stop()


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
    assert set(out) == {"mode", "table", "camera", "button_box", "gpio", "software_box",
                        "storage"}  # not a Pi: no power part
    assert out["mode"] == "hardware" and out["table"] == tid
    storage = out["storage"]  # the disk holding the test's database
    assert storage["path"] == str(services.data_dir) and 0 < storage["free_bytes"]
    assert storage["free_bytes"] <= storage["total_bytes"]
    assert storage["pictures_budget"] == FRAMES_BUDGET and storage["pictures_bytes"] == 0
    camera = out["camera"]
    assert camera["source"] == "camera:0" and camera["state"] == "running"
    assert camera["tray"] in ("moving", "still", "settled") and camera["last_frame"]
    assert out["button_box"]["state"] == "absent" and not out["button_box"]["connected"]
    assert out["gpio"]["state"] == "off"  # not a Pi
    assert out["software_box"] == {"state": "running", "buttons": 8, "detail": (
        "the table page's buttons, as a button box on the screen"),
        "detail_said": {"key": "hw.dashboard", "values": {}}}
    # each part's detail comes with what a page needs to say it in its language
    assert out["gpio"]["detail_said"] == {"key": "hw.gpio_not_a_pi", "values": {}}
    assert out["camera"]["detail_said"]["key"] in ("camera.frames", "camera.starting")
    assert runtime.stop(timeout=3.0)


def test_hardware_status_without_a_runtime(services):
    out = create_app(services, {"TESTING": True}).test_client().get("/api/hardware").json
    assert out["mode"] == "off" and out["camera"]["state"] == "absent"
    assert "no runtime" in out["camera"]["detail"]
    for part in ("camera", "button_box", "gpio"):
        assert out[part]["detail_said"] == {"key": "hw.no_runtime", "values": {}}


PI_5 = "Raspberry Pi 5 Model B Rev 1.0"
PI_CAMERA = [VideoDevice(f"/dev/video{n}", name, "platform") for n, name in
             ((0, "rp1-cfe-csi2_ch0"), (1, "rp1-cfe-embedded"))] + PI_NODES


@pytest.mark.parametrize(("pi", "devices", "box", "recorded", "simulated"), [
    pytest.param(None, [usb(0)], True, True, True,
                 id="a laptop: the recording and the simulated box, whatever is plugged in"),
    pytest.param(PI_5, PI_NODES, False, True, True,
                 id="a Pi with nothing plugged in: the recording and the simulated box"),
    pytest.param(PI_5, PI_CAMERA, False, False, True,
                 id="a Pi with its camera: the camera, the simulated box"),
    pytest.param(PI_5, PI_NODES + [usb(17)], True, False, False,
                 id="a Pi with a webcam and a box: both real"),
])
def test_the_demo_stands_in_for_the_hardware_a_pi_does_not_have(
        services, pi, devices, box, recorded, simulated):
    """`make run` starts the demo (README): on a laptop it plays the recording and the
    simulated box; on the table's Pi the camera and box plugged in are used, and the demo
    stands in only for what is missing (docs/runtime.md, Demo mode)."""
    runtime = Runtime(services, RuntimeOptions(demo=True, gpio=False), pi_model=pi,
                      video_devices=devices, box_found=lambda: box)
    try:
        assert runtime.recorded_camera is recorded and runtime.simulated_box is simulated
        camera = runtime.status()["camera"]
        assert camera["source"].startswith("demo recording") is recorded
        if recorded:  # the source's name, which the details name, said in a page's language
            from vision.said import said_json
            from web.runtime.camera import FRAMES

            said = said_json(FRAMES(source=runtime.camera.spec))
            assert said["values"]["source"]["key"] == "camera.demo_recording"
        assert runtime.status()["button_box"]["simulated"] is simulated
    finally:
        runtime.stop()
    # told what to use, the demo uses it on any machine
    told = Runtime(services, RuntimeOptions(demo=True, camera="none", box="none", gpio=False),
                   pi_model=pi, video_devices=devices, box_found=lambda: box)
    assert not told.recorded_camera and not told.simulated_box and told.camera is None
    told.stop()


def test_box_attached_finds_a_pico_running_micropython():
    class Port:
        def __init__(self, vid, pid):
            self.vid, self.pid, self.device = vid, pid, "/dev/ttyACM0"

    assert box_attached(lambda: [Port(0x2E8A, 0x0005)], lambda: [])
    assert not box_attached(lambda: [Port(0x1A86, 0x7523)], lambda: [])  # a USB-serial adapter
    assert box_attached(lambda: [], lambda: ["/dev/serial/by-id/usb-MicroPython_Board-if00"])


def test_pressing_the_simulated_box_needs_the_demo(services):
    client = create_app(services, {"TESTING": True}).test_client()
    response = client.post("/api/hardware/box/press", json={"button": 0})
    assert response.status_code == 409 and "--demo" in response.json["message"]


def _tray_runtime(services, frames, camera=None):
    """The runtime of a table whose camera gives ``frames`` (or is ``camera``)."""
    camera = camera or PacedCamera(frames)
    runtime = Runtime(services, RuntimeOptions(box="none"), camera_factory=lambda: camera,
                      camera_spec=camera.name, pi_model=None)
    services.runtime = runtime
    return runtime


def test_the_host_checks_the_tray_from_a_phone_and_keeps_it(services):
    """``POST /api/hardware/camera/check``: the running camera's next frames of the empty
    tray get the quality report; a clean tray becomes the camera's setup, saved, and the
    settle detector takes its background from the next frame on."""
    from tests.vision.helpers import empty_tray, photo
    from vision.calibration import Calibration, in_use

    sheet = photo("IMG_20191208_112541.jpg")
    camera = PacedCamera([empty_tray(sheet)])
    runtime = Runtime(services, RuntimeOptions(box="none"), camera_factory=lambda: camera,
                      camera_spec="camera:0", pi_model=None)
    services.runtime = runtime
    app = create_app(services, {"TESTING": True})
    host = browser(app)
    tid = host.post("/api/tables", json={"game": "seafall", "options": SETUP}).json["id"]
    runtime.start()
    try:
        assert wait_for(lambda: runtime.status()["camera"]["frames"] > 2)
        out = host.post("/api/hardware/camera/check", json={"setup": "kitchen"})
        assert out.status_code == 200, out.json
        body = out.json
        assert body["saved"] and body["in_use"] and body["setup"] == "kitchen"
        assert body["frames"] == 10
        # the sheet fills the picture and the camera tells no lens: the one advice asks
        # for it (docs/vision.md, *Calibration*)
        (advice,) = body["quality"]["advice"]
        assert advice.startswith("The camera's lens is not known") and "--lens" in advice
        assert body["things_in_tray"] == 0 and body["lens_degrees"] is None
        assert body["size"] == [1024, 1024] and body["die_px_from"] == "framing"
        assert body["mains_hz"] is None  # the camera's anti-flicker was not set
        assert Calibration.load("kitchen").die_px == pytest.approx(body["die_px"], abs=0.1)
        assert runtime.setup is not None and runtime.setup.name == "kitchen"
        assert client_get(host, "/api/hardware")["camera"]["setup"] == "kitchen"
        assert in_use() == "kitchen"  # read with from the server's next start too
        # only the host: a player is refused
        ana = join(app, host, tid, "Ana", "red")
        refused = ana.post("/api/hardware/camera/check", json={})
        assert refused.status_code == 403
        bad = host.post("/api/hardware/camera/check", json={"setup": "../up"})
        assert bad.status_code == 400 and "bad setup name" in bad.json["message"]
        assert host.post("/api/hardware/camera/check",
                         json={"save": "yes"}).status_code == 400
        # the lens from the camera's sheet, given with the check: kept, and nothing to fix
        for lens in (0, 200, "wide", True):
            bad = host.post("/api/hardware/camera/check", json={"lens": lens})
            assert bad.status_code == 400 and "lens" in bad.json["message"], lens
            # with its key, for a French page to say it in French (it stayed English)
            assert bad.json["said"]["key"] in ("lens.not_an_angle", "lens.not_a_number")
        narrow = host.post("/api/hardware/camera/check", json={"setup": "kitchen", "lens": 30})
        assert narrow.status_code == 200, narrow.json
        assert narrow.json["lens_degrees"] == 30 and narrow.json["quality"]["advice"] == []
        assert Calibration.load("kitchen").lens_degrees == 30
        again = host.post("/api/hardware/camera/check", json={"setup": "kitchen"}).json
        assert again["lens_degrees"] == 30  # checked again: the setup's lens is kept
        # then a few dice on the tray: their size is measured and kept with the setup
        assert host.post("/api/hardware/camera/measure", json={}).status_code == 409  # none
        camera.frames[:] = [sheet.image()]
        measured = host.post("/api/hardware/camera/measure", json={})
        assert measured.status_code == 200, measured.json
        truth = float(np.median([max(w, h) for _, _, w, h in sheet.boxes]))
        assert measured.json["setup"] == "kitchen"
        assert measured.json["die_px"] == pytest.approx(truth, rel=0.3)
        assert Calibration.load("kitchen").die_px == pytest.approx(measured.json["die_px"],
                                                                   abs=0.1)
        assert runtime.setup.die_px == pytest.approx(measured.json["die_px"], abs=0.1)
        assert ana.post("/api/hardware/camera/measure", json={}).status_code == 403
        # the measure taken back: the setup as the tray check left it, and again
        assert client_get(host, "/api/hardware")["camera"]["setup_kept"] is True
        assert ana.post("/api/hardware/camera/restore", json={}).status_code == 403
        back = host.post("/api/hardware/camera/restore", json={})
        assert back.status_code == 200, back.json
        assert back.json["die_px"] == pytest.approx(body["die_px"], abs=0.1)
        assert runtime.setup.die_px == pytest.approx(body["die_px"], abs=0.1)
        assert Calibration.load("kitchen").die_px == pytest.approx(body["die_px"], abs=0.1)
        again = host.post("/api/hardware/camera/restore", json={})
        assert again.json["die_px"] == pytest.approx(measured.json["die_px"], abs=0.1)
    finally:
        assert runtime.stop(timeout=3.0)


@contextmanager
def _host_of_a_running_camera(services, camera):
    """The host's browser, a table open, once the camera's frames come in; the runtime
    stopped after."""
    runtime = _tray_runtime(services, [], camera)
    host = browser(create_app(services, {"TESTING": True}))
    host.post("/api/tables", json={"game": "seafall", "options": SETUP})
    runtime.start()
    try:
        assert wait_for(lambda: runtime.status()["camera"]["frames"] > 2)
        yield host
    finally:
        assert runtime.stop(timeout=3.0)


def test_a_tray_checked_from_a_phone_keeps_the_cameras_anti_flicker(services):
    """The camera runs with 50 Hz anti-flicker (named in its source, or its setup's): the
    setup a phone checks keeps it, and so does the one the dice are measured on."""
    from tests.vision.helpers import empty_tray, photo
    from vision.calibration import Calibration

    sheet = photo("IMG_20191208_112541.jpg")
    camera = PacedCamera([empty_tray(sheet)], name="camera:0,50hz")
    camera.mains_hz = 50
    with _host_of_a_running_camera(services, camera) as host:
        body = host.post("/api/hardware/camera/check", json={"setup": "attic"}).json
        assert body["saved"] and body["mains_hz"] == 50
        assert Calibration.load("attic").mains_hz == 50
        camera.frames[:] = [sheet.image()]
        measured = host.post("/api/hardware/camera/measure", json={})
        assert measured.status_code == 200, measured.json
        assert Calibration.load("attic").mains_hz == 50


def test_a_tray_checked_from_a_phone_says_what_a_pi_camera_s_wide_lens_shows(services):
    """A Camera Module 3 Wide tells its lens (102 degrees): the tray filling its picture,
    the dice at the tray's edge show most of a side, and the check says so, with advice."""
    from tests.vision.helpers import empty_tray, photo

    camera = PacedCamera([empty_tray(photo("IMG_20191208_112541.jpg"))])
    camera.lens_degrees = 102.0
    with _host_of_a_running_camera(services, camera) as host:
        body = host.post("/api/hardware/camera/check", json={"setup": "attic"}).json
        assert body["lens_degrees"] == 102.0 and body["tray_side"] > 0.47
        assert any("102 degrees" in a for a in body["quality"]["advice"])
        assert body["saved"]  # advice, not a refusal


def test_a_tray_check_focuses_the_camera_on_the_empty_tray_first(services):
    """The empty tray in view is the moment a camera that focuses should focus (its lens
    was held where it found the tray when it opened, perhaps with a hand in view); the
    dice are measured with the lens left where the check put it."""
    from tests.vision.helpers import empty_tray, photo

    sheet = photo("IMG_20191208_112541.jpg")
    camera = FocusingCamera([empty_tray(sheet)], soft=5)
    runtime = _tray_runtime(services, [], camera)
    runtime.start()
    try:
        assert wait_for(lambda: runtime.status()["camera"]["frames"] > 2)
        result = runtime.check_tray("den")
        assert len(camera.asked) == 1 and result.frames == 10 and result.keepable
        camera.frames[:] = [sheet.image()]
        runtime.measure_dice()
        assert len(camera.asked) == 1
    finally:
        assert runtime.stop(timeout=3.0)


def test_a_tray_with_dice_in_it_is_reported_and_not_kept(services):
    from tests.vision.helpers import photo

    runtime = _tray_runtime(services, [photo("IMG_20191208_112541.jpg").image()] * 3)
    host = browser(create_app(services, {"TESTING": True}))
    host.post("/api/tables", json={"game": "seafall", "options": SETUP})
    runtime.start()
    try:
        assert wait_for(lambda: runtime.status()["camera"]["frames"] > 2)
        body = host.post("/api/hardware/camera/check", json={}).json
        assert not body["saved"] and body["things_in_tray"] >= 5
        assert any("take everything out" in a for a in body["quality"]["advice"])
        assert runtime.setup is None
    finally:
        assert runtime.stop(timeout=3.0)


def test_the_dice_are_measured_on_a_checked_tray_only(services):
    from tests.vision.helpers import photo

    runtime = _tray_runtime(services, [photo("IMG_20191208_112541.jpg").image()])
    host = browser(create_app(services, {"TESTING": True}))
    host.post("/api/tables", json={"game": "seafall", "options": SETUP})
    runtime.start()
    try:
        out = host.post("/api/hardware/camera/measure", json={})
        assert out.status_code == 409 and "check the empty tray first" in out.json["message"]
        assert out.json["said"] == {"key": "camera.check_first", "values": {}}  # in French too
    finally:
        assert runtime.stop(timeout=3.0)


def test_a_camera_whose_frames_cannot_be_checked_says_why(services):
    """Frames too small for a tray (or for dice to be read) used to raise out of the check
    as a server error."""
    runtime = _tray_runtime(services, [np.full((24, 40, 3), 90, np.uint8)])
    host = browser(create_app(services, {"TESTING": True}))
    host.post("/api/tables", json={"game": "seafall", "options": SETUP})
    runtime.start()
    try:
        assert wait_for(lambda: runtime.status()["camera"]["frames"] > 2)
        out = host.post("/api/hardware/camera/check", json={})
        assert out.status_code == 409, out.json
        assert out.json["message"].startswith("cannot check the tray: ")
        assert "too small" in out.json["message"] and runtime.setup is None
        assert out.json["said"]["key"] == "camera.cannot_check"  # the why as it is, English
    finally:
        assert runtime.stop(timeout=3.0)


def test_putting_back_a_setup_with_none_kept_says_why(services):
    from tests.vision.helpers import empty_tray, photo

    camera = PacedCamera([empty_tray(photo("IMG_20191208_112541.jpg"))])
    with _host_of_a_running_camera(services, camera) as host:
        out = host.post("/api/hardware/camera/restore", json={})
        assert out.status_code == 409 and "no earlier tray setup" in out.json["message"]


def test_checking_the_tray_without_a_camera_says_why(services):
    host = browser(create_app(services, {"TESTING": True}))
    host.post("/api/tables", json={"game": "seafall", "options": SETUP})
    out = host.post("/api/hardware/camera/check", json={})
    assert out.status_code == 409 and "without its hardware loops" in out.json["message"]
    services.runtime = Runtime(services, RuntimeOptions(box="none", camera="none"),
                               pi_model=None)
    out = host.post("/api/hardware/camera/check", json={})
    assert out.status_code == 409 and "turned off" in out.json["message"]


def test_a_camera_that_gives_no_frames_fails_the_check_clearly(services, monkeypatch):
    import web.runtime
    from vision.sources import SourceError

    def absent():
        raise SourceError("no camera found (no /dev/video* device)")

    monkeypatch.setattr(web.runtime, "TRAY_CHECK_SECONDS", 0.3)
    runtime = Runtime(services, RuntimeOptions(box="none"), camera_factory=absent,
                      camera_spec="camera:0", pi_model=None)
    services.runtime = runtime
    host = browser(create_app(services, {"TESTING": True}))
    host.post("/api/tables", json={"game": "seafall", "options": SETUP})
    runtime.start()
    try:
        assert wait_for(lambda: "no camera found" in runtime.status()["camera"]["detail"])
        out = host.post("/api/hardware/camera/check", json={})
        assert out.status_code == 409
        assert "cannot check the tray: the camera gave 0 of 10 frames" in out.json["message"]
        assert "no camera found" in out.json["message"]  # the camera's own detail
    finally:
        assert runtime.stop(timeout=3.0)


def client_get(client, url):
    return client.get(url).json


@pytest.mark.hardware
def test_real_hardware_is_found_by_itself(services):
    """On the table's Pi: the runtime finds the camera (a USB one, or the Pi's own) and a
    serial button box plugged in by USB, and reports them running and connected."""
    if camera_spec(None, is_pi=pi_model() is not None) is None:
        pytest.skip("no camera here")
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
