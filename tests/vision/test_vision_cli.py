from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.helpers import PHOTOS, hand, photo, png_claiming, roll_sequence
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
    corrupt.write_bytes(good.read_bytes()[:200])  # cut off after its header
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
    # the error is the reason alone: "image" gives the path ("zero.jpg: an empty file..."
    # repeated it)
    assert out[1]["dice"] == [] and out[1]["error"] == (
        "cut off: the file ends before its picture does (a copy or an upload that did not "
        "finish: copy or send it again)")
    assert out[2]["error"] == "no such file"
    run(["read-dice", str(corrupt), str(missing)])  # the readable lines name the file
    assert capsys.readouterr().out.splitlines() == [
        f"{corrupt}: error: {out[1]['error']}", f"{missing}: error: no such file"]


def test_read_dice_told_a_die_size_the_dice_do_not_have_says_so(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--die-px`` three times the dice's (about 60 px in this photo): every die is left
    to the player with a warning naming the size; a die size that fits reads as untold."""
    good = PHOTOS / "IMG_20191208_112404.jpg"
    assert run(["read-dice", str(good), "--die-px", "180", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)[0]
    assert out["dice"] and all(d["uncertain"] for d in out["dice"])
    assert any("not 180 px across" in w for w in out["warnings"])
    assert run(["read-dice", str(good), "--die-px", "60"]) == 0
    line = capsys.readouterr().out
    assert "?" not in line.splitlines()[0] and "px across" not in line


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
    # with --json, stdout is still the contract's list (it was empty: json.loads failed)
    assert run(["read-dice", "a.jpg", "b.jpg", "--die", "seafall", "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert [(e["image"], e["dice"]) for e in out] == [("a.jpg", []), ("b.jpg", [])]
    assert all("enroll" in e["error"] for e in out)
    assert run(["read-dice", "x.jpg", "--die", "seafall", "--profile", "nobody"]) == 2
    err = capsys.readouterr().err
    assert "no profile 'nobody'" in err
    assert "none is saved there yet: enroll one with tableside enroll" in err


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
    out = capsys.readouterr()
    assert "profile 'table1'" in out.out
    # saved, and said that 4 a face is fewer than the docs ask (it was saved without a word)
    assert ("tableside enroll: note: faces 'blank', 'standard', 'strong', 'weak' have only "
            "4 crops each: show each face at least 5 times") in out.err
    import numpy as np

    shot = tray_photo(np.random.default_rng(4), ["strong", "blank", "weak", "standard"])
    cv2.imwrite(str(tmp_path / "shot.png"), shot.image)
    assert run(["read-dice", str(tmp_path / "shot.png"), "--die", "seafall",
                "--profile", "table1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {d["face"] for d in out[0]["dice"]} <= {"blank", "standard", "weak", "strong"}
    assert len(out[0]["dice"]) >= 3
    # the profile names its die, a built-in die's name is taken in any case, and a custom
    # die reads with the profile named after it, as serve does (each was refused)
    for args in (["--profile", "table1"], ["--die", "SeaFall", "--profile", "table1"]):
        assert run(["read-dice", str(tmp_path / "shot.png"), *args, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)[0]["dice"] == out[0]["dice"]
    assert run(["enroll", "--die", "seafall", "--profile", "seafall",
                "--crops", str(tmp_path / "crops")]) == 0
    capsys.readouterr()
    assert run(["read-dice", str(tmp_path / "shot.png"), "--die", "seafall", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["dice"] == out[0]["dice"]


def test_enroll_names_a_crop_in_the_wrong_folder_and_saves_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from tests.vision.test_vision_enrollment import seafall_crops
    from vision.profilefile import profiles_dir

    crops = seafall_crops(seed=7, per_face=10)
    for face, items in crops.items():
        (tmp_path / face).mkdir()
        for i, c in enumerate(items):
            cv2.imwrite(str(tmp_path / face / f"{i}.png"), c)
    # a wheel dropped among the blanks
    (tmp_path / "standard" / "0.png").rename(tmp_path / "blank" / "wheel.png")
    args = ["enroll", "--die", "seafall", "--profile", "mine", "--crops", str(tmp_path)]
    assert run(args) == 2
    err = capsys.readouterr().err
    assert "may be filed under the wrong face, so no profile was made" in err
    assert f"{tmp_path / 'blank' / 'wheel.png'}: filed as 'blank'" in err
    assert "'standard', sure" in err and "--keep-suspects" in err
    assert not (profiles_dir() / "mine.npz").exists()
    # the player looked, and keeps it on purpose: saved, and said so
    assert run([*args, "--keep-suspects"]) == 0
    out = capsys.readouterr()
    assert "kept, as asked:" in out.err and "wheel.png" in out.err
    assert "(blank: 11 crops, standard: 9 crops, strong: 10 crops, weak: 10 crops;" in out.out
    assert (profiles_dir() / "mine.npz").is_file()


def _numbered_crops(folder: Path, counts: dict[str, int]) -> None:
    """A die of the player's own with numbered faces: SeaFall's four faces' crops filed as
    faces "1", "2", ... (``counts`` crops each; 0: the folder made and left empty)."""
    from tests.vision.test_vision_enrollment import seafall_crops

    drawn = seafall_crops(seed=5, per_face=max(counts.values()))
    for face, items in zip(counts, drawn.values(), strict=False):
        (folder / face).mkdir(parents=True)
        for i, c in enumerate(items[:counts[face]]):
            cv2.imwrite(str(folder / face / f"{i}.png"), c)


def test_enroll_refuses_an_empty_face_folder(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    """``e1/3/`` made and left empty: enroll saved faces 1, 2, 4 without a word, and the
    profile then read every 3 as another face, sure. It refuses, naming the folder, as it
    refuses a built-in die's face with no crops."""
    from vision.profilefile import profiles_dir

    _numbered_crops(tmp_path / "e1", {"1": 5, "2": 5, "3": 0, "4": 5})
    args = ["enroll", "--die", "de1", "--profile", "pe1", "--crops", str(tmp_path / "e1")]
    assert run(args) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'e1' / '3'} is empty (no images): face '3' would be left out" in err
    assert "remove the folder if the die has no such face" in err
    assert not (profiles_dir() / "pe1.npz").exists()
    (tmp_path / "e1" / "3").rmdir()  # the die has no 3 after all
    assert run(args) == 0
    assert "faces 1, 2, 4 as profile 'pe1'" in capsys.readouterr().out


def test_enroll_names_the_face_shown_too_few_times(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    """Face "4" with 1 crop was noted "only 1 of 4", read as one out of four: the note
    names the face as a face, with its count of crops."""
    _numbered_crops(tmp_path / "e1", {"1": 5, "2": 3, "3": 3, "4": 1})
    assert run(["enroll", "--die", "de1", "--profile", "pe1",
                "--crops", str(tmp_path / "e1")]) == 0
    out, err = capsys.readouterr()
    assert ("tableside enroll: note: face '4' has only 1 crop; faces '2', '3' have only 3 "
            "crops each: show each face at least 5 times") in err
    # and the summary names each face's count as the face's ("5 1, 3 2, 3 3, 1 4 crops")
    assert "faces 1, 2, 3, 4 as profile 'pe1' (1: 5 crops, 2: 3 crops, 3: 3 crops, 4: 1 crop;" \
        in out


def test_enroll_reports_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert run(["enroll", "--die", "seafall", "--profile", "p", "--crops", str(tmp_path)]) == 2
    assert "no face sub-folders" in capsys.readouterr().err
    # a profile name that is no file name, for a die of the player's own (a traceback
    # once, after every crop had been read and checked)
    for face in ("sun", "moon"):
        (tmp_path / face).mkdir()
        for i in range(2):
            cv2.imwrite(str(tmp_path / face / f"{i}.png"), np.full((64, 64, 3), 90 * i, np.uint8))
    assert run(["enroll", "--die", "mine", "--profile", "../p", "--crops", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith("tableside enroll: bad profile name '../p'")
    # --faces: a built-in die keeps its own faces (they were replaced: SeaFall dice read
    # "a c a b"), and a face named twice is refused (two classes merged into one face)
    photos = str(tmp_path)
    assert run(["enroll", "--die", "seafall", "--profile", "p", "--photos", photos,
                "--faces", "a,b,c,d"]) == 2
    assert "the seafall die's faces are blank, standard, weak, strong" in \
        capsys.readouterr().err
    assert run(["enroll", "--die", "pipdup", "--profile", "p", "--photos", photos,
                "--faces", "one,one,three"]) == 2
    assert "--faces names one twice" in capsys.readouterr().err
    assert run(["enroll", "--die", "pipdup", "--profile", "p", "--photos", photos,
                "--faces", "one,,three"]) == 2
    assert "one is empty" in capsys.readouterr().err


def record_a_roll(folder: Path) -> None:
    """A recorded roll of a real photo's 7 dice as numbered JPEGs (000.jpg, ...)."""
    frames, _ = roll_sequence(photo("IMG_20191208_112541.jpg"), moved=set(range(7)))
    for i, f in enumerate(frames):
        cv2.imwrite(str(folder / f"{i:03d}.jpg"), f)


def test_watch_prints_settled_rolls_from_a_recording(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record_a_roll(tmp_path)
    assert run(["watch", f"images:{tmp_path}", "--fps", "10", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 1
    assert lines[0]["roll"] == 1 and len(lines[0]["dice"]) >= 5


def test_watch_says_a_re_rolls_warning_is_about_its_picture_not_the_dice_kept(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A re-roll seen in a picture without colour: the warning marks the dice read in it,
    while the dice kept from the roll before keep their sure reads; the warning said
    "every die is marked uncertain" over dice shown sure."""
    shot = photo("IMG_20191208_112541.jpg")
    first, final = roll_sequence(shot, moved=set(range(7)))
    again, _ = roll_sequence(shot, moved={0, 3}, offset=(-60, 90), start=final)
    grey = [cv2.cvtColor(cv2.cvtColor(f, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR) for f in again]
    for i, f in enumerate(first + grey):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), f)
    assert run(["watch", f"images:{tmp_path}", "--fps", "10"]) == 0
    out = capsys.readouterr().out
    assert "[re-roll of roll 1: 5 dice kept]" in out
    assert "note: the warning is about this picture: the 5 dice kept from roll 1 keep what " \
        "was read of them there" in out


def test_watch_names_the_files_of_a_recording_it_skipped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record_a_roll(tmp_path)
    cut = tmp_path / "000.jpg"
    cut.write_bytes(cut.read_bytes()[:3000])  # a copy that did not finish
    (tmp_path / "001.jpg").write_bytes(b"not a picture")
    assert run(["watch", f"images:{tmp_path}", "--fps", "10", "--json"]) == 0
    captured = capsys.readouterr()
    assert [json.loads(x)["roll"] for x in captured.out.splitlines()] == [1]  # still read
    assert captured.err.splitlines() == [
        f"[warning] skipped {cut}: cut off: the file ends before its picture does (a copy or "
        "an upload that did not finish: copy or send it again)",
        f"[warning] skipped {tmp_path / '001.jpg'}: not a readable image (corrupt or "
        "unsupported format)"]


def test_watch_states_says_why_a_roll_waits(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--states`` prints each change of the tray's state, with the frame's time, to
    stderr: a hand reaching in, the dice tumbling, at rest, settled and read; then a hand
    held still in the tray, which is why nothing more is read."""
    sheet = photo("IMG_20191208_112541.jpg")
    frames, final = roll_sequence(sheet, moved=set(range(7)))
    frames += [hand(final, 0.45)] * 10
    for i, f in enumerate(frames):
        cv2.imwrite(str(tmp_path / f"{i:03d}.jpg"), f)
    assert run(["watch", f"images:{tmp_path}", "--fps", "10", "--states"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("roll 1") and captured.out.count("roll ") == 1
    states = [line.split()[1] for line in captured.err.splitlines()
              if line.startswith("[tray] ")]
    assert states[-1] == "hand"
    assert states.index("hand") < states.index("moving") < states.index("settled")
    assert re.search(r"^\[tray\] settled at \d+\.\d s$", captured.err, re.M)
    assert run(["watch", f"images:{tmp_path}", "--fps", "10"]) == 0  # without: no states
    assert "[tray]" not in capsys.readouterr().err


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_watch_prints_a_rolls_warnings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, as_json: bool
) -> None:
    """A roll read from a black-and-white camera has every die uncertain, and says why (the
    settle tracker used to drop the reader's warnings, so watch printed none)."""
    frames, _ = roll_sequence(photo("IMG_20191208_112541.jpg"), moved=set(range(7)))
    for i, f in enumerate(frames):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), cv2.cvtColor(f, cv2.COLOR_BGR2GRAY))
    assert run(["watch", f"images:{tmp_path}", *(["--json"] if as_json else [])]) == 0
    out = capsys.readouterr().out
    if as_json:
        (roll,) = [json.loads(x) for x in out.splitlines()]
        assert any("no colour" in w for w in roll["warnings"])
        assert all(d["uncertain"] for d in roll["dice"])
    else:
        assert out.startswith("roll 1") and "  warning: the picture has no colour" in out


def test_watch_bad_source_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["watch", "telescope:1"]) == 2
    err = capsys.readouterr().err
    assert "unknown source" in err and "tableside serve" not in err


@pytest.mark.parametrize("command", [["watch"], ["calibrate", "--setup", "t"]])
def test_a_camera_that_will_not_open_may_be_held_by_the_server(
        capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    """One camera serves one program: watch and calibrate say a running server may hold
    it, and how to check the tray without stopping it (no camera at /dev/video97 here)."""
    assert run([command[0], "/dev/video97", *command[1:]]) == 2
    err = capsys.readouterr().err
    assert "/dev/video97: cannot open the camera (not plugged in, or in use" in err
    assert "While tableside serve runs it holds the camera" in err
    assert "Check the tray's picture" in err


def test_shipped_photos_keep_both_licence_notices() -> None:
    notice = (PHOTOS / "NOTICE.txt").read_text()
    assert "BSD 3-Clause" in notice and "Nell Byler" in notice
    assert "Nikita Menshikov" in (PHOTOS / "LICENSE-DiceWatcher.txt").read_text()


@pytest.mark.parametrize(("argv", "words"), [
    (["read-dice", "x.jpg", "--die-px", "0"], "not a size"),
    (["read-dice", "x.jpg", "--die-px", "nan"], "not a size"),
    (["read-dice", "x.jpg", "--die-px", "3"], "too small to read"),
    (["read-dice", "x.jpg", "--die-px", "big"], "not a number of pixels"),
    (["watch", "images:x", "--die-px", "inf"], "not a size"),
    (["watch", "images:x", "--fps", "0"], "not a frame rate"),
    (["watch", "images:x", "--fps", "-2"], "not a frame rate"),
    (["watch", "images:x", "--fps", "nan"], "not a frame rate"),
    (["enroll", "--die", "x", "--profile", "p", "--crops", "c", "--per-face", "-1"],
     "not a number of crops"),
    (["enroll", "--die", "x", "--profile", "p", "--crops", "c", "--per-face", "0"],
     "not a number of crops"),
    (["read-dice", "x.jpg", "--die", ""], "a die has a name"),
    (["watch", "images:x", "--die", " "], "a die has a name"),
    (["enroll", "--die", "", "--profile", "p", "--crops", "c"], "a die has a name"),
])
def test_sizes_and_rates_that_are_not_are_refused_by_the_parser(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    """They used to be taken as "not given" (0, nan, a negative rate), crash OpenCV (an
    infinite die), read dice that are not there (3 px) or drop each face's last crop
    (``--per-face -1``)."""
    with pytest.raises(SystemExit) as exit_:
        run(argv)
    assert exit_.value.code == 2
    assert words in capsys.readouterr().err


def test_a_die_size_too_large_for_a_photo_is_that_photos_error(
    capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(PHOTOS / "IMG_20191209_100614.jpg")
    assert run(["read-dice", path, "--die-px", "5000", "--json"]) == 1
    (out,) = json.loads(capsys.readouterr().out)
    assert out["dice"] == [] and "does not fit in a 1024x1024 picture" in out["error"]


def test_watch_times_a_recording_by_its_frames_not_by_how_fast_it_is_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Without --fps a folder of frames is taken at 10 a second: timed by the clock, the
    dice of a short recording, read in less than the 0.4 s a roll needs to settle, were
    never read; at 2 frames a second the same frames settle sooner; the rolls found no
    longer depend on the machine's speed."""
    record_a_roll(tmp_path)
    assert vision_cli.RECORDING_FPS == 10
    assert run(["watch", f"images:{tmp_path}", "--json"]) == 0
    (roll,) = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert roll["roll"] == 1 and len(roll["dice"]) >= 5
    # two frames of the dice at rest: 0.1 s at 10 frames a second, 0.5 s at 2
    for f in sorted(tmp_path.iterdir())[-6:]:
        f.unlink()
    assert run(["watch", f"images:{tmp_path}", "--json"]) == 0
    out = capsys.readouterr()
    assert out.out == "" and "ended with no roll settled" in out.err and "0.4 s" in out.err
    assert run(["watch", f"images:{tmp_path}", "--fps", "2", "--json"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1


def test_watching_one_photo_says_to_read_it_instead(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["watch", str(PHOTOS / "IMG_20191209_100614.jpg")]) == 0
    out = capsys.readouterr()
    assert out.out == "" and "read it with tableside read-dice" in out.err
    # given as a video, it said only that the dice are read once still for 0.4 s
    assert run(["watch", f"video:{PHOTOS / 'IMG_20191209_100614.jpg'}"]) == 0
    out = capsys.readouterr()
    assert out.out == "" and out.err == (
        f"tableside watch: video:{PHOTOS / 'IMG_20191209_100614.jpg'} ended with no roll "
        "settled: one picture never settles (read it with tableside read-dice)\n")


def test_watch_refuses_a_frame_rate_for_a_camera(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A camera's frames are timed as they come; --fps would make its rolls settle by
    frame count."""
    import vision.sources as sources
    from vision.sources import CaptureSource

    camera = _StillCamera()

    def open_camera(spec: str, clock: object) -> CaptureSource:
        return CaptureSource(0, live=True, name=spec, clock=clock,  # type: ignore[arg-type]
                             capture_factory=lambda _: camera)

    monkeypatch.setattr(sources, "open_source", open_camera)  # as watch opens its source
    assert run(["watch", "camera:0", "--fps", "5"]) == 2
    assert "--fps is for a recording" in capsys.readouterr().err
    assert camera.released  # the camera is let go, not left open


class _StillCamera:
    """A camera that delivers frames of dice, and knows whether it was let go."""

    released = False

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return True

    def set(self, prop: int, value: float) -> bool:
        return True

    def read(self) -> tuple[bool, object]:
        return True, cv2.imread(str(PHOTOS / "IMG_20191209_100614.jpg"))

    def release(self) -> None:
        self.released = True


def _tableside(argv: list[str], opencv_log: str | None) -> subprocess.CompletedProcess[str]:
    """``tableside ARGV`` in a process of its own (OpenCV reads its log settings when it
    loads), with OpenCV's log level as given, or unset."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENCV_LOG_LEVEL", "OPENCV_FFMPEG_LOGLEVEL")}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    if opencv_log:
        env["OPENCV_LOG_LEVEL"] = opencv_log
    return subprocess.run([sys.executable, "-m", "web", *argv], capture_output=True,
                          text=True, env=env, timeout=120, check=False)


@pytest.mark.parametrize("level", [None, "ERROR"])
def test_a_corrupt_image_is_reported_in_our_words_only(tmp_path: Path, level: str | None) -> None:
    """OpenCV logs its own error for a picture it cannot decode; the command line keeps it
    off the terminal (the player reads Tableside's message) unless OPENCV_LOG_LEVEL asks."""
    bad = tmp_path / "cut.ppm"
    bad.write_bytes(b"P6\n10 10\n255\n" + bytes(30))  # a header, and a tenth of its pixels
    done = _tableside(["read-dice", str(bad)], level)
    assert done.returncode == 1
    assert done.stdout.startswith(f"{bad}: error: not a readable image")
    assert done.stdout.count("cut.ppm") == 1  # the file named once
    assert ("imdecode" in done.stderr) == (level is not None)


@pytest.mark.parametrize("level", [None, "ERROR"])
def test_a_broken_video_is_reported_in_our_words_only(tmp_path: Path, level: str | None) -> None:
    """FFmpeg, under OpenCV's video reader, logs its own error for a video it cannot open;
    kept off the terminal as OpenCV's own log is."""
    bad = tmp_path / "roll.mp4"
    bad.write_bytes(b"not a video at all")
    done = _tableside(["watch", str(bad)], level)
    assert done.returncode == 2
    assert "video:" in done.stderr and "cannot open the video" in done.stderr
    assert ("moov atom not found" in done.stderr) == (level is not None)


def test_watch_gives_a_webcams_autofocus_its_time_from_the_first_frame() -> None:
    """`watch` opens a camera on its recording clock and only then makes the clock tell the
    time; the autofocus's 2 s once began on the recording clock, so the lens was held at
    the first frame, before it had found the tray."""
    from tests.vision.test_vision_sources import FocusingCapture
    from vision.sources import CaptureSource

    clock = vision_cli._FrameClock(0.1)
    cap = FocusingCapture()
    with CaptureSource(0, live=True, name="camera:0", clock=clock,
                       capture_factory=lambda _: cap) as camera:
        clock.live = True  # as watch does once it knows the source is a camera
        assert camera.read() is not None
        assert camera.focusing and not camera.focus_held
        assert cap.props[cv2.CAP_PROP_AUTOFOCUS] == 1.0


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_watch_says_how_hard_a_camera_compresses_its_rolls(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, as_json: bool
) -> None:
    """A roll from a camera that compresses hard: its dice are read sure only from the
    confidence the compression asks (vision.compression), and the roll says so."""
    frames, _ = roll_sequence(photo("IMG_20191208_112541.jpg"), moved=set(range(7)))
    for i, f in enumerate(frames):
        # a camera farther off: dice of about 40 px, where compression costs most
        f = cv2.resize(f, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        cv2.imwrite(str(tmp_path / f"{i:03d}.jpg"), f, [cv2.IMWRITE_JPEG_QUALITY, 40])
    assert run(["watch", f"images:{tmp_path}", *(["--json"] if as_json else [])]) == 0
    out = capsys.readouterr().out
    if as_json:
        (roll,) = [json.loads(x) for x in out.splitlines()]
        assert roll["jpeg_quality"] == pytest.approx(40, abs=2)
        assert roll["sure_from"] >= 0.9
        assert all(d["confidence"] >= roll["sure_from"] for d in roll["dice"]
                   if not d["uncertain"])
    else:
        assert out.startswith("roll 1")
        assert "  note: the picture is JPEG-compressed hard (quality about" in out
