"""``tableside profiles`` (web/cli/profiles.py; docs/vision.md, "Rolls and confirms"): the
profiles saved, what each learned at the table, a lesson forgotten and a change taken back,
and ``tableside enroll`` over a saved profile keeping a copy of it."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import cv2
import pytest

from tests.vision.test_vision_enrollment import seafall_crops
from vision.enrollment import Profile
from vision.profilefile import (
    KEEP_COPIES,
    backups,
    keep_previous,
    profile_path,
    started_over,
)
from web.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def taught() -> Profile:
    """A SeaFall profile of 3 crops a face that learned 2 dice from read r1 and 1 from r2,
    saved as ``seafall``."""
    crops = seafall_crops(seed=21, per_face=4)
    profile = Profile.from_crops("seafall", "seafall", {f: c[:3] for f, c in crops.items()})
    profile = profile.learn([("weak", crops["weak"][3], "r1:0"),
                             ("strong", crops["strong"][3], "r1:1"),
                             ("blank", crops["blank"][3], "r2:0")])
    profile.save()
    return profile


def shown(capsys) -> dict:
    status, out, _ = run(capsys, "profiles", "show", "seafall", "--json")
    assert status == 0
    return json.loads(out)


def test_list_and_show_say_what_each_face_enrolled_and_learned(capsys, taught):
    status, out, _ = run(capsys, "profiles", "list", "--json")
    assert status == 0
    (row,) = json.loads(out)
    assert row["name"] == "seafall" and row["die"] == "seafall"
    assert {f["face"]: (f["enrolled"], f["learned"]) for f in row["faces"]} == {
        "blank": (3, 1), "standard": (3, 0), "weak": (3, 1), "strong": (3, 1)}
    assert shown(capsys)["learned_from"] == {"r1": 2, "r2": 1}
    status, out, _ = run(capsys, "profiles", "show", "seafall")
    assert "learned from 2 reads:" in out and "r1: 2 dice" in out and "copies kept: 0" in out


def test_list_and_show_name_each_face_of_numbered_dice(capsys):
    """A die with faces 1, 2, 3: the list read "1 8+0, 2 8+0, 3 8+0 crops (enrolled+learned)",
    numbers on numbers; each face is named as a face, its crops said in words."""
    crops = seafall_crops(seed=21, per_face=4)
    numbered = {str(i + 1): c[:3] for i, c in enumerate(crops.values())}
    profile = Profile.from_crops("pe1", "de1", numbered)
    profile.learn([("2", crops["standard"][3], "r1:0")]).save()
    line = ("face 1: 3 enrolled + 0 learned; face 2: 3 enrolled + 1 learned; "
            "face 3: 3 enrolled + 0 learned; face 4: 3 enrolled + 0 learned")
    assert run(capsys, "profiles", "list")[1] == f"pe1 (de1), crops: {line}\n"
    assert run(capsys, "profiles", "show", "pe1")[1].startswith(f"pe1 (de1), crops: {line}\n")


def test_forget_a_reads_lessons_then_restore_and_restore_again(capsys, taught):
    status, out, _ = run(capsys, "profiles", "forget", "seafall", "--read", "r1")
    assert status == 0 and "forgot 2 learned dice" in out
    after = Profile.load("seafall")
    assert after.learned_from() == {"r2": 1} and len(after.maps) == len(taught.maps) - 2
    assert sum(1 for s in after.sources if not s) == 12  # the enrolled crops stay
    assert len(backups(profile_path("seafall"))) == 1
    # taken back: the copy kept before is the profile again, and the change is kept
    status, out, _ = run(capsys, "profiles", "restore", "seafall")
    assert status == 0 and "restore again to put it back" in out
    assert Profile.load("seafall").learned_from() == {"r1": 2, "r2": 1}
    assert run(capsys, "profiles", "restore", "seafall")[0] == 0  # and redone
    assert Profile.load("seafall").learned_from() == {"r2": 1}
    status, out, _ = run(capsys, "profiles", "forget", "seafall", "--learned")
    assert status == 0 and "forgot 1 learned die" in out
    assert Profile.load("seafall").learned_from() == {}
    assert len(shown(capsys)["kept_copies"]) == 2


def test_remove_starts_a_die_over_and_restore_puts_it_back(capsys, taught):
    """``remove``: the profile goes, a copy is kept, and the time is noted beside it, from
    which the table names the die's dice anew (docs/vision.md, "Enrolling at the table")."""
    path = profile_path("seafall")
    assert started_over(path) is None
    before = path.read_bytes()
    status, out, err = run(capsys, "profiles", "remove", "seafall")
    assert status == 0 and err == ""
    assert "removed profile 'seafall'; it is kept as seafall.npz." in out
    assert "tableside profiles restore seafall puts it back" in out
    assert "only from dice named in reads taken after" in out
    assert not path.exists()
    (copy,) = backups(path)
    assert copy.read_bytes() == before
    since = started_over(path)
    assert since is not None and (datetime.now(UTC) - since).total_seconds() < 60
    assert "no profile 'seafall'" in run(capsys, "profiles", "show", "seafall")[2]
    assert [r["name"] for r in json.loads(run(capsys, "profiles", "list", "--json")[1])] == []
    # a file already gone (deleted by hand): the time is noted all the same
    status, out, _ = run(capsys, "profiles", "remove", "seafall")
    assert status == 0 and "nothing removed" in out and started_over(path) >= since
    assert backups(path) == [copy]
    status, out, _ = run(capsys, "profiles", "restore", "seafall")
    assert status == 0 and path.read_bytes() == before
    assert Profile.load("seafall").learned_from() == {"r1": 2, "r2": 1}


def test_profiles_help_says_to_remove_a_profile_to_start_over(capsys):
    with pytest.raises(SystemExit):
        main(["profiles", "--help"])
    out = capsys.readouterr().out
    assert "tableside profiles remove NAME" in out
    assert "not a plain delete" in out and "NAME.start-over" in out


@pytest.mark.parametrize(("argv", "words"), [
    (["forget", "seafall", "--read", "r9"], "learned nothing from read r9"),
    (["forget", "nope", "--learned"], "no profile 'nope'"),
    (["restore", "seafall"], "no earlier copy of profile 'seafall' is kept"),
    (["show", "../x"], "bad profile name"),
    (["remove", "../x"], "bad profile name"),
])
def test_bad_input_is_one_clear_line_and_changes_nothing(capsys, taught, argv, words):
    before = profile_path("seafall").read_bytes()
    status, out, err = run(capsys, "profiles", *argv)
    assert status == 2 and out == "" and words in err and err.count("\n") == 1
    assert profile_path("seafall").read_bytes() == before


def test_a_damaged_copy_is_not_restored(capsys, taught):
    assert run(capsys, "profiles", "forget", "seafall", "--learned")[0] == 0
    (copy,) = backups(profile_path("seafall"))
    copy.write_bytes(copy.read_bytes()[:300])  # cut short
    before = profile_path("seafall").read_bytes()
    status, _, err = run(capsys, "profiles", "restore", "seafall")
    assert status == 2 and "not a whole profile file" in err
    assert profile_path("seafall").read_bytes() == before


def test_only_the_last_copies_are_kept(taught) -> None:
    path = profile_path("seafall")
    for _ in range(KEEP_COPIES + 3):
        keep_previous(path)
    assert len(backups(path)) == KEEP_COPIES


def test_enrolling_over_a_saved_profile_keeps_a_copy_of_it(capsys, taught, tmp_path: Path):
    for face, items in seafall_crops(seed=21, per_face=4).items():
        (tmp_path / "crops" / face).mkdir(parents=True)
        for i, c in enumerate(items):
            cv2.imwrite(str(tmp_path / "crops" / face / f"{i}.png"), c)
    status, out, _ = run(capsys, "enroll", "--die", "seafall", "--profile", "seafall",
                         "--crops", str(tmp_path / "crops"))
    assert status == 0 and "the profile it replaced is kept as" in out
    assert Profile.load("seafall").learned_from() == {}  # enrolled afresh
    assert run(capsys, "profiles", "restore", "seafall")[0] == 0
    assert Profile.load("seafall").learned_from() == {"r1": 2, "r2": 1}  # its lessons back
