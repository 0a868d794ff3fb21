"""``tableside cameras``: the video devices on this machine, what each one is, and the
camera that ``serve``, ``calibrate`` and ``watch`` open when none is named (docs/vision.md,
*Watching a stream*), and how: with the tray setup it reads with, and that setup's
anti-flicker. For a player with two cameras, or a laptop's own beside a webcam: which
source names which, and the ``/dev/v4l/by-id`` name that stays the same whatever order
they were plugged in."""

from __future__ import annotations

import argparse
import json
from typing import Any

CHOSEN_NOTE = "* opened by serve, calibrate and watch when no camera is named"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("cameras", help="list the cameras here and the one serve would open",
                       description=__doc__)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=run)


def _rows(devices: list[Any], is_pi: bool, links: dict[str, str],
          chosen: str | None) -> list[dict[str, Any]]:
    from web.runtime.hardware import kind

    rows = []
    first_pi_camera = next((d for d in devices if d.pi_camera), None)
    for device in devices:
        if device.pi_camera:  # its raw nodes: libcamera reads them together, as picamera
            source = "picamera" if device is first_pi_camera else None
        else:
            source = device.source  # None: no picture to read from it
        rows.append({"source": source, "path": device.path, "by_id": links.get(device.path),
                     "name": device.name, "kind": kind(device, is_pi),
                     "chosen": source is not None and source == chosen})
    if chosen == "picamera" and not any(d.pi_camera for d in devices):
        rows.append({"source": "picamera", "path": None, "by_id": None,
                     "name": "Raspberry Pi camera",
                     "kind": "the Pi's camera connector: no camera was seen there at boot "
                             "(check its cable, then restart)", "chosen": True})
    return rows


def _serve_line(chosen: str, setup: Any) -> str:
    """How ``serve`` opens the camera: the source, with the tray setup it reads with."""
    if setup is None:
        return (f"serve opens {chosen}, with no tray setup yet (tableside calibrate --setup "
                "NAME)")
    from vision.sources import with_mains

    return f"serve opens {with_mains(chosen, setup.mains_hz)} with the tray setup {setup.name}"


def run(args: argparse.Namespace) -> int:
    from web.runtime import hardware, tray_setup

    devices = hardware.video_devices()
    model = hardware.pi_model()
    chosen = hardware.camera_spec(None, devices, is_pi=model is not None)
    rows = _rows(devices, model is not None, hardware.by_id_links(), chosen)
    missing = (None if chosen is not None
               else hardware.no_camera_found(
                   devices, "name one: serve --camera SOURCE, calibrate SOURCE, watch SOURCE"))
    setup = tray_setup(None)  # the one serve reads with (one that no longer loads: logged)
    if args.json:
        print(json.dumps({"machine": model, "cameras": rows, "chosen": chosen,
                          "none_chosen": missing,
                          "setup": setup.name if setup is not None else None,
                          "mains_hz": setup.mains_hz if setup is not None else None},
                         indent=1))
        return 0 if chosen is not None else 1
    if model is not None:
        print(model)
    for row in rows:
        mark = "*" if row["chosen"] else " "
        what = f"{row['name'] or 'unnamed'} ({row['path']})" if row["path"] else row["name"]
        print(f"{mark} {row['source'] or '-':<10} {what}: {row['kind']}")
        if row["by_id"]:
            print(f"  {'':<10} also {row['by_id']}")
    if missing is not None:
        print(missing)
        return 1
    print(CHOSEN_NOTE)
    print(_serve_line(chosen, setup))
    return 0
