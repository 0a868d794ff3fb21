from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import pytest

from tests.vision.helpers import PHOTOS, photo, png_claiming, roll_sequence
from web.cli import vision as vision_cli


def run(argv: list[str]) -> int:
    """Run one vision subcommand through its own parser (as ``tableside`` does)."""
    parser = argparse.ArgumentParser(prog="tableside")
    sub = parser.add_subparsers(dest="command", required=True)
    vision_cli.register(sub)
    args = parser.parse_args(argv)
    return int(args.handler(args))


def test_cli_group_is_registered_in_the_tableside_cli() -> None:
    from web.cli import _GROUPS

    assert "web.cli.vision" in _GROUPS


def test_read_dice_json_contract(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    good = PHOTOS / "IMG_20191209_100614.jpg"
    corrupt = tmp_path / "corrupt.jpg"
    corrupt.write_bytes(good.read_bytes()[:200])
    missing = tmp_path / "missing.png"
    status = run(["read-dice", str(good), str(corrupt), str(missing), "--json"])
    assert status == 1  # some images could not be read
    out = json.loads(capsys.readouterr().out)
    assert [o["image"] for o in out] == [str(good), str(corrupt), str(missing)]
    first = out[0]
    assert isinstance(first["ms"], float)
    assert sorted(d["face"] for d in first["dice"]) == sorted(photo(good.name).faces)
    for d in first["dice"]:
        assert set(d) == {"face", "confidence", "uncertain", "box"}
        assert d["face"] in {"1", "2", "3", "4", "5", "6"}
        assert 0 <= d["confidence"] <= 1 and isinstance(d["uncertain"], bool)
        x, y, w, h = d["box"]
        assert 0 <= x < 1024 and 0 <= y < 1024 and 20 < w < 200 and 20 < h < 200
    assert out[1]["dice"] == [] and "not a readable image" in out[1]["error"]
    assert "no such file" in out[2]["error"]


def test_read_dice_refuses_a_picture_too_large_to_decode(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A PNG of 200 bytes claiming 1.2 gigapixels (OpenCV raised on it before): an error
    line naming it, the other images still read, no traceback."""
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(png_claiming(40000, 30000))
    good = PHOTOS / "IMG_20191209_100614.jpg"
    assert run(["read-dice", str(bomb), str(good), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out[0]["dice"] == [] and "40000x30000 pixels" in out[0]["error"]
    assert len(out[1]["dice"]) == 3
    assert run(["read-dice", str(bomb)]) == 1
    assert "more than Tableside decodes" in capsys.readouterr().out


def test_read_dice_readable_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["read-dice", str(PHOTOS / "IMG_20191209_100614.jpg")]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith(str(PHOTOS / "IMG_20191209_100614.jpg") + ": 3 dice: ")
    assert line.endswith(" ms)")


def test_read_dice_custom_die_needs_a_profile(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["read-dice", str(PHOTOS / "IMG_20191208_112609.jpg"), "--die", "seafall"]) == 2
    assert "enroll" in capsys.readouterr().err
    assert run(["read-dice", "x.jpg", "--die", "seafall", "--profile", "nobody"]) == 2
    assert "no profile" in capsys.readouterr().err


def test_enroll_then_read_with_the_profile(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from tests.vision.test_vision_enrollment import seafall_crops
    from vision.synthetic import tray_photo

    for face, items in seafall_crops(seed=21, per_face=4).items():
        (tmp_path / "crops" / face).mkdir(parents=True)
        for i, c in enumerate(items):
            cv2.imwrite(str(tmp_path / "crops" / face / f"{i}.png"), c)
    assert run(["enroll", "--die", "seafall", "--profile", "table1",
                "--crops", str(tmp_path / "crops")]) == 0
    assert "profile 'table1'" in capsys.readouterr().out
    import numpy as np

    shot = tray_photo(np.random.default_rng(4), ["strong", "blank", "weak", "standard"])
    cv2.imwrite(str(tmp_path / "shot.png"), shot.image)
    assert run(["read-dice", str(tmp_path / "shot.png"), "--die", "seafall",
                "--profile", "table1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {d["face"] for d in out[0]["dice"]} <= {"blank", "standard", "weak", "strong"}
    assert len(out[0]["dice"]) >= 3


def test_enroll_reports_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert run(["enroll", "--die", "seafall", "--profile", "p", "--crops", str(tmp_path)]) == 2
    assert "no face sub-folders" in capsys.readouterr().err


def test_watch_prints_settled_rolls_from_a_recording(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    frames, _ = roll_sequence(photo("IMG_20191208_112541.jpg"), moved=set(range(7)))
    for i, f in enumerate(frames):
        cv2.imwrite(str(tmp_path / f"{i:03d}.jpg"), f)
    assert run(["watch", f"images:{tmp_path}", "--fps", "10", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 1
    assert lines[0]["roll"] == 1 and len(lines[0]["dice"]) >= 5


def test_watch_bad_source_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["watch", "telescope:1"]) == 2
    assert "unknown source" in capsys.readouterr().err


def test_shipped_photos_keep_both_licence_notices() -> None:
    notice = (PHOTOS / "NOTICE.txt").read_text()
    assert "BSD 3-Clause" in notice and "Nell Byler" in notice
    assert "Nikita Menshikov" in (PHOTOS / "LICENSE-DiceWatcher.txt").read_text()
