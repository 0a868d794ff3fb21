"""Pip dice rolled where a profile of symbols reads them (vision/otherdice.py): told to the
table, never read sure as the profile's faces; the profile's own dice read as before."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.enrollment import Profile
from vision.facenet import D6_FACES, default_face_net
from vision.otherdice import PIP_DICE, checks_anything, pip_looks
from vision.reader import DiceReader
from vision.reading import TrayRead
from vision.synthetic import enrolment_crops, random_faces, tray_photo
from web.i18n import load

PHOTOS = Path(__file__).parent / "photos"
MANIFEST = json.loads((PHOTOS / "manifest.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def drawn() -> Profile:
    """A SeaFall profile of 5 drawn crops a face, as a player enrolls their dice."""
    return Profile.from_crops("sf", "seafall", enrolment_crops(np.random.default_rng(1), 5))


def told(read: TrayRead) -> bool:
    return any(getattr(w, "key", "") == PIP_DICE.key for w in read.warnings)


def reads(read: TrayRead) -> list[tuple[str, bool, tuple[int, int, int, int]]]:
    return [(d.face, d.uncertain, d.box) for d in read.dice]


def test_a_drawn_seafall_profile_looks_like_few_pip_faces(drawn: Profile) -> None:
    # its stars and blanks look like no pip face to the d6 face network, but a single
    # round star may look like a "1": the check is on, for the faces it does not look like
    looks = pip_looks(drawn.crops, default_face_net())
    assert looks <= {"1", "3"} and checks_anything(looks)
    assert not checks_anything(frozenset(D6_FACES))  # a profile of pip dice is not checked


@pytest.mark.parametrize("file", ["IMG_20191208_112541.jpg", "IMG_20191208_112404.jpg"])
def test_pip_dice_in_a_tray_of_seafall_dice_are_told_and_none_is_read_sure(
        drawn: Profile, file: str) -> None:
    photo = cv2.imread(str(PHOTOS / file))
    unchecked = DiceReader("seafall", profile=drawn, other_dice_check=False).read(photo)
    # without the check, the profile reads some of the pip dice as its faces, sure
    assert any(not d.uncertain for d in unchecked.dice) and not told(unchecked)
    read = DiceReader("seafall", profile=drawn).read(photo)
    assert read.dice and all(d.uncertain and d.confidence <= 0.2 for d in read.dice)
    warning = next(w for w in read.warnings if getattr(w, "key", "") == PIP_DICE.key)
    assert warning.values["profile"] == "sf" and 2 <= warning.values["count"] <= len(read.dice)
    assert f"{warning.values['count']} dice look like pip dice (d6)" in warning
    french = load("fr").get("said.vision.pip_dice", **warning.values)
    assert french.startswith(f"{warning.values['count']} dés ressemblent à des dés à points")
    assert "« sf »" in french


def test_seafall_dice_read_as_the_profile_reads_them(drawn: Profile) -> None:
    # drawn trays of the profile's own dice: the same reads with the check as without,
    # and no tray is said to hold pip dice
    rng = np.random.default_rng(1001)
    checked, unchecked = (DiceReader("seafall", profile=drawn, other_dice_check=c)
                          for c in (True, False))
    for _ in range(4):
        photo = tray_photo(rng, random_faces(rng, 8))
        read = checked.read(photo.image)
        assert reads(read) == reads(unchecked.read(photo.image)) and not told(read)
        assert sum(not d.uncertain for d in read.dice) >= 5


def test_one_pip_die_among_seafall_dice_is_left_to_the_table_alone(drawn: Profile) -> None:
    # a real pip die (a 5 from a checked-in photo) put in the place of one drawn die: it
    # alone is made uncertain, with no warning; the other dice read as before
    photo = next(p for p in MANIFEST["photos"] if p["file"] == "IMG_20191208_112623.jpg")
    x, y, w, h = (round(v) for v in photo["dice"][0]["box"])
    pad = max(w, h) // 8
    five = cv2.imread(str(PHOTOS / photo["file"]))[y - pad:y + h + pad, x - pad:x + w + pad]
    rng = np.random.default_rng(7)
    tray = tray_photo(rng, ["blank", "standard", "weak", "strong", "standard", "weak"])
    image = tray.image.copy()
    bx, by, bw, bh = (round(v) for v in tray.dice[0].box)
    image[by:by + bh, bx:bx + bw] = cv2.resize(five, (bw, bh), interpolation=cv2.INTER_AREA)
    unchecked = DiceReader("seafall", profile=drawn, other_dice_check=False).read(image)
    read = DiceReader("seafall", profile=drawn).read(image)
    assert not told(read) and len(read.dice) == len(unchecked.dice)

    def is_five(box: tuple[int, int, int, int]) -> bool:
        cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
        return bx <= cx <= bx + bw and by <= cy <= by + bh

    pasted = [d for d in read.dice if is_five(d.box)]
    assert len(pasted) == 1 and pasted[0].uncertain and pasted[0].confidence <= 0.3
    assert [r for r in reads(read) if not is_five(r[2])] == [
        r for r in reads(unchecked) if not is_five(r[2])]


def test_pip_dice_enrolled_as_symbols_are_not_checked() -> None:
    # the d6 faces enrolled as a profile (the stand-in for SeaFall dice): its crops look
    # like every pip face, so its reads of pip dice are its own, the check changes none
    crops: dict[str, list[np.ndarray]] = {}
    for photo in MANIFEST["photos"]:
        image = cv2.imread(str(PHOTOS / photo["file"]))
        for die in photo["dice"]:
            x, y, w, h = (round(v) for v in die["box"])
            crops.setdefault(die["face"], []).append(image[y:y + h, x:x + w])
    profile = Profile.from_crops("d6-symbols", "d6", {f: crops[f][:5] for f in D6_FACES})
    photo = cv2.imread(str(PHOTOS / "IMG_20191209_095503.jpg"))
    checked = DiceReader("d6", profile=profile)
    read = checked.read(photo)
    assert reads(read) == reads(DiceReader("d6", profile=profile,
                                           other_dice_check=False).read(photo))
    assert not told(read) and checked._pip_looks == frozenset(D6_FACES)
