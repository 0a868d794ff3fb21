"""``GET /api/hardware``: the camera, the serial button box, GPIO and the software box, as
the runtime sees them now (docs/api.md "Hardware", docs/runtime.md).

Without a runtime (the app built by a test, or a server started without hardware loops)
every part is reported absent, with the reason.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify

from companion.errors import IllegalCommand, InvalidCommand
from vision.said import message
from vision.sideview import lens_problem
from vision.storage import check_name
from web import auth
from web.api.requests import json_body
from web.errors import Forbidden
from web.runtime.status import idle_status
from web.services import Services

bp = Blueprint("hardware", __name__, url_prefix="/api")

LENS_NOT_A_NUMBER = message("lens.not_a_number", "'lens' is a number of degrees")()


@bp.get("/hardware")
def hardware() -> Any:
    services: Services = current_app.extensions["tableside"]
    runtime = services.runtime
    if runtime is None:
        return jsonify(idle_status(services.software_box.buttons))
    return jsonify(runtime.status())


@bp.post("/hardware/box/press")
def press_simulated_box() -> Any:
    """Press a button of the demo's simulated box: ``{"button": 0, "long": false}``. The
    press goes through the box firmware, the wire protocol and the serial bridge. Like the
    physical box on the table, it answers the table it serves: only that table's players
    (or its host) may press it from a phone."""
    services: Services = current_app.extensions["tableside"]
    runtime = services.runtime
    box = runtime.demo_box if runtime is not None else None
    if box is None:
        raise IllegalCommand("there is no simulated button box (it runs with --demo)")
    served = runtime.focus.table()
    if served is None:
        raise IllegalCommand("no table is open for the button box to answer")
    if auth.current(served.session_id).role == "spectator":
        raise Forbidden("only the players of the table the box serves may press its buttons")
    data = json_body()
    button, long = data.get("button"), data.get("long", False)
    if not isinstance(button, int) or isinstance(button, bool) or not 0 <= button < 8:
        raise InvalidCommand("'button' is a button number, 0 to 7")
    if not isinstance(long, bool):
        raise InvalidCommand("'long' is true or false")
    box.press(button, long)
    return jsonify({"pressed": button, "long": long})


@bp.post("/hardware/camera/check")
def check_the_tray() -> Any:
    """Check the camera's picture of the empty tray: ``{"save": true, "setup": "tray",
    "lens": 70}`` (all optional; ``lens``, the camera's lens angle across the picture in
    degrees, from its sheet, for a camera that does not tell it). The camera's next frames
    get the quality report (focus, exposure, glare, contrast, colour) with advice, and a
    tray with nothing in it is kept as the camera's setup (``tableside calibrate`` from a
    phone: docs/vision.md, *Calibration*).
    It changes how the camera reads for the table it serves, so only that table's host
    may ask for it."""
    runtime = _camera_host()
    data = json_body()
    save, name = data.get("save", True), data.get("setup")
    if not isinstance(save, bool):
        raise InvalidCommand("'save' is true or false")
    if name is not None:
        try:
            check_name(name if isinstance(name, str) else "", "setup")
        except ValueError as exc:
            raise InvalidCommand(str(exc)) from None
    lens = data.get("lens")
    if lens is not None:
        problem = (lens_problem(float(lens)) if isinstance(lens, (int, float))
                   and not isinstance(lens, bool) else LENS_NOT_A_NUMBER)
        if problem:
            raise InvalidCommand(problem)
    result = runtime.check_tray(name, save, lens)
    used = save and result.keepable
    # the demo's recorded camera reads with it for this run, and saves none
    return jsonify({**result.to_json(), "saved": used and runtime.keeps_setups, "in_use": used})


@bp.post("/hardware/camera/measure")
def measure_the_dice() -> Any:
    """Measure the die size on the camera's next frame, a few dice resting on the tray:
    the camera's setup (made by a tray check) is kept with it (docs/vision.md,
    *Calibration*). The host of the table the camera serves only."""
    setup = _camera_host().measure_dice()
    return jsonify({"setup": setup.name, "die_px": round(setup.die_px, 1),
                    "quality": setup.quality.to_json()})


@bp.post("/hardware/camera/restore")
def restore_the_setup() -> Any:
    """Put back the camera's tray setup as it was before its last tray check or dice
    measure (one checked in bad light, say); asked again, the newer one comes back. The
    host of the table the camera serves only."""
    setup = _camera_host().restore_setup()
    return jsonify({"setup": setup.name, "die_px": round(setup.die_px, 1),
                    "quality": setup.quality.to_json()})


def _camera_host() -> Any:
    """The runtime, when the asker is the host of the table its camera serves (what the
    camera reads with changes for that table's players)."""
    services: Services = current_app.extensions["tableside"]
    runtime = services.runtime
    if runtime is None:
        raise IllegalCommand("no camera runs here (the server was started without its "
                             "hardware loops)")
    served = runtime.focus.table()
    if served is None:
        raise IllegalCommand("no table is open for the camera to serve")
    if auth.current(served.session_id).role != "host":
        raise Forbidden("only the host of the table the camera serves may set up its tray")
    return runtime
