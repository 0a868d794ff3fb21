"""How much of their sides the dice at the tray's edge show under the camera's lens
(``calibrate --lens``; docs/vision.md, *Camera height and framing*)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from tests.vision.helpers import empty_tray
from tests.vision.test_vision_calibrate_cli import SHEET, _plug_in, empty_frames
from tests.vision.test_vision_cli import run
from vision.calibration import SIDE_ADVICE_ABOVE, check, lens_problem, tray_side
from vision.sources import FakeSource


def test_a_die_shows_the_tangent_of_its_angle_off_the_lens_axis_as_side() -> None:
    whole = np.full((720, 1280), 255, np.uint8)
    corner = math.hypot(639.5, 359.5) / 640
    # a 90 degree lens: the picture's side edge lies 45 degrees off the axis (tan 1), its
    # corner further
    assert tray_side(whole, 90) == pytest.approx(corner, rel=1e-6)
    # the same picture through a narrower lens: the same pixels lie nearer the axis
    assert tray_side(whole, 62) == pytest.approx(corner * math.tan(math.radians(31)), rel=1e-6)
    middle = np.zeros_like(whole)
    middle[240:480, 427:853] = 255  # a tray in the middle third each way
    assert tray_side(middle, 90) == pytest.approx(
        math.hypot(852 - 639.5, 479 - 359.5) / 640, rel=1e-6)
    assert tray_side(middle, 66) < SIDE_ADVICE_ABOVE < tray_side(whole, 66)
    # no floor found: the whole picture counts
    assert tray_side(np.zeros_like(whole), 90) == pytest.approx(corner, rel=1e-6)


@pytest.mark.parametrize("degrees", [0, 0.5, 171, 180, float("nan"), float("inf"), -60])
def test_a_lens_angle_must_be_one(degrees: float) -> None:
    assert "1-170 degrees" in (lens_problem(degrees) or "")
    with pytest.raises(ValueError, match="1-170 degrees"):
        check("den", [empty_tray(SHEET)], lens_degrees=degrees)


def test_the_check_advises_a_lens_that_shows_the_dice_at_the_tray_s_edge_their_sides() -> None:
    frames = [empty_tray(SHEET)] * 2
    plain = check("den", frames)
    assert plain.tray_side is None and plain.to_json()["tray_side"] is None
    narrow = check("den", frames, lens_degrees=30)
    wide = check("den", frames, lens_degrees=102)
    assert narrow.tray_side is not None and wide.tray_side is not None
    assert narrow.tray_side < SIDE_ADVICE_ABOVE < wide.tray_side
    assert narrow.advice == plain.advice
    extra = [a for a in wide.advice if a not in plain.advice]
    assert len(extra) == 1 and "102 degrees" in extra[0] and "as a blank" in extra[0]
    assert f"{wide.tray_side:.0%} of their height" in extra[0]
    assert wide.to_json()["lens_degrees"] == 102
    assert wide.to_json()["tray_side"] == pytest.approx(wide.tray_side, abs=1e-3)
    assert extra[0] in wide.to_json()["quality"]["advice"]  # type: ignore[index]


def test_calibrate_says_how_much_side_the_lens_shows(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    frames = empty_frames(tmp_path / "empty")
    assert run(["calibrate", f"images:{frames}", "--setup", "den", "--no-save",
                "--lens", "102"]) == 0
    out = capsys.readouterr().out
    assert "with a lens 102 degrees across, dice at the tray's edge show" in out
    assert "advice: With a lens 102 degrees across" in out
    assert run(["calibrate", f"images:{frames}", "--setup", "den", "--no-save",
                "--lens", "30", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["lens_degrees"] == 30 and 0 < report["tray_side"] < SIDE_ADVICE_ABOVE
    assert not any("lens" in a for a in report["quality"]["advice"])
    assert run(["calibrate", f"images:{frames}", "--setup", "den", "--no-save"]) == 0
    assert "lens" not in capsys.readouterr().out  # not given, not guessed
    with pytest.raises(SystemExit) as stopped:
        run(["calibrate", f"images:{frames}", "--setup", "den", "--lens", "wide"])
    assert stopped.value.code == 2
    assert "'wide' is not a number of degrees" in capsys.readouterr().err


def test_calibrate_takes_the_lens_a_camera_tells(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A camera that names its lens (a Pi camera module, by its sensor) is checked with it
    without --lens; --lens, when given, is the player's word over the camera's."""
    def wide_camera() -> FakeSource:
        camera = FakeSource([empty_tray(SHEET)] * 40)
        camera.lens_degrees = 102.0
        return camera

    _plug_in(monkeypatch, wide_camera())
    assert run(["calibrate", "--setup", "den", "--no-save"]) == 0
    out = capsys.readouterr().out
    assert "with a lens 102 degrees across (the camera's own), dice at the tray's edge" in out
    assert "advice: With a lens 102 degrees across" in out
    _plug_in(monkeypatch, wide_camera())
    assert run(["calibrate", "--setup", "den", "--no-save", "--lens", "30", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["lens_degrees"] == 30 and report["tray_side"] < SIDE_ADVICE_ABOVE
