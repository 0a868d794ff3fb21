"""The camera's lens reaches the camera's reads (docs/vision.md, *Camera height and
framing*): a setup's lens where it keeps one, else the lens a camera tells (a Pi camera
module) — a server started without a setup, or with one saved before setups kept their
lens, still reads the dice far out under a wide lens with the care their sides ask."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tests.vision.helpers import table_crops
from tests.web.runtime.test_runtime_camera import Ticking, dice_table, runtime_with, throws
from vision.boxes import hold_each_other
from vision.calibration import calibrate
from vision.enrollment import Profile
from vision.faces import SEAFALL_FACES
from vision.reader import DiceReader
from vision.sources import FakeSource
from vision.synthetic import BODY_COLOURS, lens_for, random_faces, tray_photo
from web.runtime.dicereaders import DiceReaders


def _marks(read):
    return [(d.face, d.box, d.uncertain) for d in read.dice]


def test_the_readers_read_with_the_setup_s_lens_else_the_camera_s():
    body = BODY_COLOURS[2]  # a black set, seen from the side as a 64 degree lens does
    profile = Profile.from_crops("side", "seafall", table_crops(141, 5, body, top_shift=0.03),
                                 as_read=True)
    rng = np.random.default_rng(43)
    photo = tray_photo(rng, random_faces(rng, 15, profile.labels), top_shift=0.03, body=body)
    frame, wide = photo.image, lens_for(0.03)
    readers = DiceReaders()
    readers.profiles["seafall"] = profile
    plain = DiceReader("seafall", profile=profile)
    assert _marks(readers.read("seafall", frame, "x")) == _marks(plain.read(frame))
    told = readers.read("seafall", frame, "x", lens_degrees=wide)
    assert _marks(told) == _marks(replace(plain, lens_degrees=wide).read(frame))
    assert _marks(told) != _marks(plain.read(frame))  # the lens left some dice to the table

    old = calibrate("den", [tray_photo(rng, [], top_shift=0.03, body=body).image])
    assert old.lens_degrees is None  # as a setup saved before setups kept their lens
    in_setup = replace(plain, die_px=old.die_px, roi=old.roi)
    assert _marks(readers.read("seafall", frame, "x", old, lens_degrees=wide)) == _marks(
        replace(in_setup, lens_degrees=wide).read(frame))
    narrow = replace(old, lens_degrees=24.0)  # the setup's own lens is the one read with
    assert _marks(readers.read("seafall", frame, "x", narrow, lens_degrees=wide)) == _marks(
        replace(in_setup, lens_degrees=24.0).read(frame))


def test_dice_the_table_names_before_a_profile_are_found_with_the_lens_too(tmp_path):
    """A die with no profile yet is read to be named at the table (enrolled there): the
    lens reaches that reader too, so under a wide lens the dice the players are asked to
    name are found by the body detector for a wide lens. A blue SeaFall set under a 72
    degree lens, 3 trays of 15: told the lens, all 45 dice boxed and nothing else; told
    none, 2 dice missed and 5 sides or the like boxed as dice, for the table to name."""
    body = BODY_COLOURS[3]
    rng = np.random.default_rng(44)
    photos = [tray_photo(rng, random_faces(rng, 15, SEAFALL_FACES), top_shift=0.035,
                         body=body) for _ in range(3)]
    readers = DiceReaders(profile_dir=tmp_path)  # no profile saved: the dice are named
    wide = lens_for(0.035)
    counts = {}
    for lens in (None, wide):
        found = extra = 0
        for photo in photos:
            read = readers.read("seafall", photo.image, "x", lens_degrees=lens)
            assert read.dice and all(d.uncertain for d in read.dice)  # named, not read
            assert _marks(read) == _marks(DiceReader(
                "seafall", unknown_faces=True, lens_degrees=lens).read(photo.image))
            boxed = [d.box for d in read.dice]
            hit = sum(any(hold_each_other(d.box, b) for b in boxed) for d in photo.dice)
            found, extra = found + hit, extra + len(boxed) - hit
        counts[lens] = (found, extra)
    assert counts[wide] == (45, 0)
    assert counts[None][0] <= 44 and counts[None][1] >= 3
    assert not readers.profiles  # reading to name enrolls nothing by itself


def test_a_camera_that_tells_its_lens_reads_with_it_without_a_setup(seafall_services,
                                                                    monkeypatch):
    dice_table(seafall_services)
    frames, faces = throws(2)
    readers = seafall_services.dice().readers
    lenses: list[float | None] = []
    real = readers.read

    def read(die, frame, ref, setup=None, skin_scene=None, lens_degrees=None):
        lenses.append(lens_degrees)
        return real(die, frame, ref, setup, skin_scene, lens_degrees)

    monkeypatch.setattr(readers, "read", read)

    def module_3():
        source = FakeSource(frames, clock=Ticking())
        source.lens_degrees = 66.0  # as picamera2's imx708 tells it
        return source

    runtime = runtime_with(seafall_services, module_3)
    assert runtime.camera is not None and runtime.setup is None
    runtime.camera.run()
    assert runtime.camera.status()["reads"] == len(faces)
    # each settle is read (the empty tray between throws too), each with the camera's lens
    assert len(lenses) >= len(faces) and set(lenses) == {66.0}
