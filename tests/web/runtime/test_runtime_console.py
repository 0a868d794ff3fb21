"""What ``serve`` writes on its terminal about the hardware (web.runtime.console): the camera
and box found at start, and one line each time a part comes, goes or comes back, never one
per retry."""

from __future__ import annotations

import io
import time
from dataclasses import replace

from tests.web.runtime.test_runtime_camera import QUICK, Unpluggable, roll_frames
from web.runtime.camera import CameraLoop
from web.runtime.console import HardwareConsole, changes
from web.runtime.status import BoxStatus, CameraStatus, GpioStatus

NO_CAMERA = CameraStatus(source="auto", detail="no camera found (no /dev/video* device): "
                         "plug one in, or start with --camera SOURCE")
WEBCAM = CameraStatus(source="camera:2 (HD Pro Webcam C920)", state="running",
                      detail="camera:2 (HD Pro Webcam C920): frames", setup="kitchen")
NO_BOX = BoxStatus(port="auto", state="disconnected",
                   detail="no button box found (USB 2E8A:0005 or /dev/serial/by-id/*)")
BOX = BoxStatus(port="/dev/ttyACM0", state="connected", connected=True,
                detail="heartbeats on time", firmware="1.0.0")
NOT_A_PI = GpioStatus()
PI = GpioStatus(state="running", is_pi=True, model="Raspberry Pi 4 Model B Rev 1.4",
                detail="buttons on BCM 17, 27", buttons=[17, 27], leds=[12])


def snapshot(camera=NO_CAMERA, box=NO_BOX, gpio=NOT_A_PI) -> dict:
    return {"mode": "hardware", "camera": camera.to_json(), "button_box": box.to_json(),
            "gpio": gpio.to_json(), "software_box": {"state": "running"}}


def test_the_first_look_tells_every_part_and_how_to_add_what_is_missing():
    assert changes(None, snapshot()) == [
        "Camera: no camera found (no /dev/video* device): plug one in, or start with "
        "--camera SOURCE",
        "Button box: no button box found (USB 2E8A:0005 or /dev/serial/by-id/*)",
    ]  # not a Pi: its GPIO is not mentioned
    assert changes(None, snapshot(WEBCAM, BOX, PI)) == [
        "Camera: reading camera:2 (HD Pro Webcam C920) (tray setup kitchen)",
        "Button box: connected on /dev/ttyACM0, firmware 1.0.0",
        "GPIO buttons: Raspberry Pi 4 Model B Rev 1.4, BCM pins 17, 27",
    ]


def test_a_pi_whose_gpio_is_off_says_why():
    off = GpioStatus(is_pi=True, model="Raspberry Pi 5", detail="turned off (--gpio none)")
    assert changes(None, snapshot(gpio=off))[-1] == "GPIO buttons: turned off (--gpio none)"


def test_only_what_changed_is_told():
    before = snapshot()
    assert changes(before, before) == []
    # the camera's detail moves with every roll while it runs: no news
    busy = replace(WEBCAM, detail="dice settled", tray="settled", frames=900, reads=4)
    assert changes(snapshot(WEBCAM), snapshot(busy)) == []
    assert changes(before, snapshot(WEBCAM)) == [
        "Camera: reading camera:2 (HD Pro Webcam C920) (tray setup kitchen)"]
    assert changes(snapshot(WEBCAM), snapshot(WEBCAM, BOX)) == [
        "Button box: connected on /dev/ttyACM0, firmware 1.0.0"]
    # the host checked the tray from a phone and kept it as another setup
    assert changes(snapshot(WEBCAM), snapshot(replace(WEBCAM, setup="den"))) == [
        "Camera: reading camera:2 (HD Pro Webcam C920) (tray setup den)"]


def test_the_cameras_word_on_its_tray_setup_is_told_once_when_it_comes():
    from vision.settle import STALE_NOTE

    stale = replace(WEBCAM, setup_note=STALE_NOTE, detail=STALE_NOTE)
    assert changes(snapshot(WEBCAM), snapshot(stale)) == [f"Camera: {STALE_NOTE}"]
    assert changes(snapshot(stale), snapshot(replace(stale, detail="dice settled"))) == []
    assert changes(snapshot(stale), snapshot(WEBCAM)) == []  # checked again: nothing to say
    assert changes(None, snapshot(stale)) == [
        "Camera: reading camera:2 (HD Pro Webcam C920) (tray setup kitchen)",
        "Button box: no button box found (USB 2E8A:0005 or /dev/serial/by-id/*)",
        f"Camera: {STALE_NOTE}"]


def test_another_reason_for_a_missing_part_is_news():
    refused = replace(NO_CAMERA, detail="camera:0 cannot be opened: it is busy")
    assert changes(snapshot(), snapshot(refused)) == [
        "Camera: camera:0 cannot be opened: it is busy"]


def test_a_lost_part_says_it_is_being_brought_back():
    lost = replace(WEBCAM, state="lost", detail="camera:2 stopped delivering frames")
    assert changes(snapshot(WEBCAM), snapshot(lost)) == [
        "Camera: camera:2 (HD Pro Webcam C920) is lost (camera:2 stopped delivering "
        "frames); trying to open it again"]
    gone = replace(BOX, state="lost", connected=False, detail="the port failed")
    assert changes(snapshot(box=BOX), snapshot(box=gone)) == [
        "Button box: lost on /dev/ttyACM0 (the port failed); reconnecting"]
    wrong = replace(NO_BOX, port="/dev/ttyACM1", state="wrong_device",
                    detail="/dev/ttyACM1 does not answer as a button box")
    assert changes(snapshot(), snapshot(box=wrong)) == [
        "Button box: /dev/ttyACM1 does not answer as a button box"]


def test_passing_states_are_not_told_and_the_state_after_them_is():
    out = io.StringIO()
    states = iter([snapshot(WEBCAM, BOX),
                   snapshot(WEBCAM, replace(BOX, state="degraded", detail="heartbeat late")),
                   snapshot(WEBCAM, BOX),  # back on time: nothing happened worth a line
                   snapshot(replace(WEBCAM, state="reopening"), BOX),
                   snapshot(WEBCAM, BOX)])
    console = HardwareConsole(lambda: next(states), out)
    told = [console.look() for _ in range(5)]
    assert [len(lines) for lines in told] == [2, 0, 0, 0, 0]
    # a box that was still connecting at the first look is told once it connects
    states = iter([snapshot(box=replace(NO_BOX, state="connecting")), snapshot(box=BOX)])
    console = HardwareConsole(lambda: next(states), io.StringIO())
    assert console.look() == [NO_CAMERA_LINE]
    assert console.look() == ["Button box: connected on /dev/ttyACM0, firmware 1.0.0"]


NO_CAMERA_LINE = changes(None, snapshot())[0]


def test_a_camera_unplugged_and_plugged_back_gives_two_lines_not_one_per_retry():
    """The camera loop itself, its camera out for four re-open attempts: the console looks
    at the status after every change the loop makes."""
    frames = roll_frames()
    camera = Unpluggable(frames * 2, lose_after=len(frames), out_for=3)
    loop = CameraLoop("camera:9", lambda: camera, lambda *a, **k: None, backoff=QUICK)
    out = io.StringIO()
    console = HardwareConsole(lambda: {"camera": loop.status()}, out)
    console.look()  # at start, before the camera is opened
    original = loop._set

    def set_and_look(**changes):
        original(**changes)
        console.look()

    loop._set = set_and_look  # type: ignore[method-assign]
    loop.run(frames=2 * len(frames))
    assert camera.attempts == 4
    assert out.getvalue().splitlines() == [
        "Camera: starting",
        "Camera: reading camera:9",
        "Camera: camera:9 is lost (camera:9: no frames (unplugged?); reopen when it is "
        "back); trying to open it again",
        "Camera: reading camera:9",
    ]


def test_the_console_thread_writes_after_its_grace_and_stops_promptly():
    out = io.StringIO()
    console = HardwareConsole(lambda: snapshot(WEBCAM, BOX), out, grace=0.05,
                              poll=0.01).start()
    deadline = time.monotonic() + 5
    while "Button box" not in out.getvalue() and time.monotonic() < deadline:
        time.sleep(0.01)
    started = time.monotonic()
    console.stop()
    assert time.monotonic() - started < 1
    assert out.getvalue().splitlines() == [
        "Camera: reading camera:2 (HD Pro Webcam C920) (tray setup kitchen)",
        "Button box: connected on /dev/ttyACM0, firmware 1.0.0"]


def test_a_status_that_fails_once_does_not_stop_the_console():
    out = io.StringIO()
    calls = []

    def status():
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("the bridge was being replaced")
        return snapshot(WEBCAM, BOX)

    console = HardwareConsole(status, out, grace=0, poll=0.01).start()
    deadline = time.monotonic() + 5
    while "Button box" not in out.getvalue() and time.monotonic() < deadline:
        time.sleep(0.01)
    console.stop()
    assert len(calls) >= 2 and "Camera: reading" in out.getvalue()


def test_a_real_button_box_unplugged_and_back_is_told_in_a_few_lines(services, tmp_path):
    """The runtime's serial bridge to a simulated Pico behind a pseudo-terminal
    (firmware_bridge.pty_box), pulled out and plugged back while the console polls: the
    box is told connected, gone, and connected again, not once per reconnect attempt."""
    from firmware_bridge.backoff import Backoff
    from firmware_bridge.bridge import SerialBridge
    from firmware_bridge.pty_box import FakePtyBox
    from tests.web.runtime.test_runtime_hardware import wait_for
    from web.runtime import Runtime, RuntimeOptions

    with FakePtyBox(tmp_path / "usb-MicroPython_Board-if00", seed=5) as box:
        bridge = SerialBridge(str(box.link), backoff=Backoff(0.05, 0.2))
        runtime = Runtime(services, RuntimeOptions(camera="none"), bridge=bridge,
                          pi_model=None).start()
        out = io.StringIO()
        console = HardwareConsole(runtime.status, out, grace=0, poll=0.02).start()
        try:
            def box_lines() -> list[str]:
                return [x for x in out.getvalue().splitlines() if x.startswith("Button box")]

            assert wait_for(lambda: any("connected on" in x for x in box_lines()))
            box.unplug()
            assert wait_for(lambda: not runtime.status()["button_box"]["connected"])
            time.sleep(0.5)  # reconnect attempts at 0.05 to 0.2 s: several while it is out
            box.plug()
            assert wait_for(lambda: sum("connected on" in x for x in box_lines()) == 2)
        finally:
            console.stop()
            runtime.stop()
    lines = box_lines()
    up = [i for i, x in enumerate(lines) if "connected on" in x]
    assert len(up) == 2 and up[-1] == len(lines) - 1, lines
    assert lines[up[0]] == lines[up[1]] == f"Button box: connected on {box.link}, firmware 1.0.0"
    gone = lines[up[0] + 1:up[1]]
    # lost, then perhaps why it cannot reconnect: not one line per attempt
    assert 1 <= len(gone) <= 3, lines
    lost = gone[0].startswith(f"Button box: lost on {box.link} (") and gone[0].endswith(
        "); reconnecting")
    assert lost or "cannot open the port" in gone[0], lines
    assert out.getvalue().splitlines()[0] == "Camera: turned off (--camera none)"
    assert runtime.status()["camera"]["state"] == "off"  # by design: no fault (it was absent)
