"""The camera loop (docs/runtime.md): frames of dice thrown and settling, on a manual clock,
give exactly one read per settled roll, each applied to the roll prompt of the table in focus;
the demo recording plays in real time and still reads as its manifest says;
a camera that goes away mid-stream (or is absent at start) is reported and re-opened, and
the loop keeps reading once it is back."""

from __future__ import annotations

import time

import cv2
import numpy as np
import pytest

from companion.errors import InvalidCommand
from firmware_bridge.backoff import Backoff
from tests.vision.helpers import (
    ManualClock,
    die_patches,
    empty_tray,
    paste,
    photo,
    screened_lamp,
    thrown_again,
    turned,
)
from tests.web.runtime.support import FocusingCamera, certain_photos, demo_profile, throw
from vision.framewarnings import BLACK
from vision.reader import DiceReader
from vision.sources import FakeSource, ImagesSource, SourceError, SourceLost
from web.runtime import Runtime, RuntimeOptions
from web.runtime.camera import EARLY_NOTE, EARLY_SECONDS, READ_FAILED, CameraLoop
from web.runtime.demo import recording_dir
from web.runtime.recording import (
    RecordedSource,
    Recording,
    enroll_demo_profile,
    make_recording,
)

RECORDING = Recording.load(recording_dir())
SHEET = "IMG_20191208_112541.jpg"  # 7 real d6 on a white sheet (tests/vision/photos)
QUICK = Backoff(0.001, 0.002)


def recorded(clock: ManualClock, loop: bool = False) -> RecordedSource:
    return RecordedSource(RECORDING, loop=loop, clock=clock, pace=clock.advance)


def dice_table(services, count: int = 2, rolls: int = 10):
    return services.tables.create("dicegame", {"die": "seafall", "count": count,
                                               "rolls": rolls})


def runtime_with(services, factory, spec: str = "test") -> Runtime:
    return Runtime(services, RuntimeOptions(box="none"), camera_factory=factory,
                   camera_spec=spec, pi_model=None)


def test_recorded_source_plays_in_real_time_and_loops():
    clock = ManualClock(100.0)
    source = recorded(clock, loop=True)
    first = source.read()
    assert first is not None and first.timestamp == 100.0
    for _ in range(RECORDING.length - 1):
        source.read()
    assert clock.now == pytest.approx(100.0 + (RECORDING.length - 1) / RECORDING.fps)
    again = source.read()  # the loop starts over
    assert again is not None and again.ref == first.ref
    assert np.array_equal(again.image, first.image)
    once = recorded(ManualClock(), loop=False)
    assert sum(1 for _ in once) == RECORDING.length


class Ticking:
    """A manual clock that moves 0.2 s each time a frame is taken from the source."""

    def __init__(self) -> None:
        self.clock = ManualClock()

    def __call__(self) -> float:
        self.clock.advance(0.2)
        return self.clock.now


def throws(count: int = 3) -> tuple[list[np.ndarray], list[list[str]]]:
    """Frames of ``count`` throws of two SeaFall dice, each read for sure, and the faces."""
    frames: list[np.ndarray] = []
    faces: list[list[str]] = []
    for data, read in certain_photos(count):
        frames += throw(data)
        faces.append(list(read))
    return frames, faces


def test_one_read_per_settled_roll_each_applied_to_the_table(seafall_services):
    table = dice_table(seafall_services)
    frames, faces = throws()
    runtime = runtime_with(seafall_services, lambda: FakeSource(frames, clock=Ticking()))
    assert runtime.camera is not None
    runtime.camera.run()  # every frame, once, in this thread
    status = runtime.camera.status()
    # the tray settles twice a throw: empty before it (no read), then with the dice
    assert status["settles"] == 2 * len(faces) and status["reads"] == len(faces)
    assert status["state"] == "absent" and "ended" in status["detail"]
    assert table.view(None)["rolled"] == faces
    store = seafall_services.dice().store
    assert store.count(table.session_id) == len(faces)
    latest = store.latest(table.session_id)
    assert latest is not None and latest.source == "camera" and latest.status == "applied"
    assert status["last_read_id"] == latest.id


def test_a_recording_made_reads_as_its_manifest_says(tmp_path):
    """Each roll's settled frame is saved as the very picture the maker read: encoded again,
    a blank die it read sure came out unsure in the file (the demo recording of the
    twenty-eighth session's synthetic trays, roll 2)."""
    made = make_recording(tmp_path / "demo", rolls=2)
    reader = DiceReader("seafall", profile=enroll_demo_profile())
    assert len(made.rolls) == 2
    for roll in made.rolls:
        read = reader.read(cv2.imread(str(tmp_path / "demo" / roll["settled"])))
        assert read.is_certain and sorted(read.faces) == sorted(roll["faces"])


def test_the_demo_recording_reads_as_its_manifest_says(seafall_services):
    """The shipped recording against today's reader: one read per roll, each applied with
    the manifest's faces. If the vision models change and this fails, remake the recording
    (python -m web.runtime.recording web/runtime/demo; docs/runtime.md)."""
    table = dice_table(seafall_services)
    runtime = runtime_with(seafall_services, lambda: recorded(ManualClock()))
    runtime.camera.run()
    status = runtime.camera.status()
    rolls = [r["faces"] for r in RECORDING.rolls]
    assert status["settles"] == 2 * len(rolls) and status["reads"] == len(rolls)
    assert table.view(None)["rolled"] == rolls


def test_the_camera_reads_for_the_table_whose_roll_opened_last(seafall_services):
    older = dice_table(seafall_services)
    frames, faces = throws()
    runtime = runtime_with(seafall_services, lambda: FakeSource(frames, clock=Ticking()))
    runtime.focus.refresh()
    newer = dice_table(seafall_services, rolls=1)
    runtime.camera.run()
    # the first roll answers the newer table; then only the older one waits for dice
    assert newer.view(None)["rolled"] == faces[:1]
    assert older.view(None)["rolled"] == faces[1:]


def test_no_roll_asked_for_means_no_read_kept(seafall_services):
    table = dice_table(seafall_services, rolls=0)
    frames, faces = throws()
    runtime = runtime_with(seafall_services, lambda: FakeSource(frames, clock=Ticking()))
    runtime.camera.run()
    status = runtime.camera.status()
    assert status["settles"] == 2 * len(faces) and status["reads"] == 0
    assert seafall_services.dice().store.count() == 0
    assert table.view(None)["rolled"] == []


class Stepping:
    """A manual clock that moves ``step`` seconds each time a frame is taken (0.2 s, a
    camera's pace, until a test makes time jump)."""

    def __init__(self) -> None:
        self.now, self.step = 0.0, 0.2

    def __call__(self) -> float:
        self.now += self.step
        return self.now


class EarlyTable:
    """The camera loop's side of a table: whether it waits for dice (set by the test), and
    each settled frame it was given with its ``early`` (seconds, or None)."""

    def __init__(self) -> None:
        self.waiting = False
        self.given: list[tuple[int, float | None]] = []

    def on_settled(self, frame, motion, early=None):
        self.given.append((frame.index, early))
        return f"read-{len(self.given)}"


def early_loop(frames, table: EarlyTable, clock=None) -> CameraLoop:
    source = FakeSource(frames, clock=clock or Stepping())
    return CameraLoop("t", lambda: source, table.on_settled, waiting=lambda: table.waiting)


def test_dice_settled_before_the_roll_is_asked_for_are_read_once_it_is():
    """A player throws a moment before the command that asks for the roll: the settle comes
    while no table waits, is kept, and is given as soon as one does (with how long before),
    once; the tray settling empty before it is replaced by the dice's settle."""
    frames = roll_frames()
    table = EarlyTable()
    loop = early_loop(frames + [frames[-1]] * 10, table)
    loop.run(frames=len(frames))
    status = loop.status()
    assert status["settles"] == 2 and status["reads"] == 0 and table.given == []
    assert status["detail"] == EARLY_NOTE
    table.waiting = True
    loop.run(frames=6)
    assert len(table.given) == 1
    index, early = table.given[0]
    # within EARLY_CHECK_SECONDS (0.25 s: two frames) of the roll being asked for
    assert len(frames) <= index <= len(frames) + 1
    assert 0.2 <= early <= 1.6  # it settled within the throw's last 6 frames, 0.2 s apart
    status = loop.status()
    assert status["reads"] == 1 and status["last_read_id"] == "read-1"
    assert status["detail"] != EARLY_NOTE


class RereadTable(EarlyTable):
    def on_settled(self, frame, motion, early=None, again=False):
        self.given.append((frame.index, again))
        return f"read-{len(self.given)}"


def test_a_re_read_reads_the_next_settled_frame_again_and_a_throw_meanwhile_instead():
    """CameraLoop.reread (the button box's re-read, docs/runtime.md): the still tray's next
    frame is given again, once, with ``again``; asked while dice are thrown, the throw's own
    settle is the read and no second one follows."""
    frames = roll_frames()
    table = RereadTable()
    table.waiting = True
    loop = early_loop(frames + [frames[-1]] * 4 + frames + [frames[-1]] * 4, table)
    loop.run(frames=len(frames))
    assert [again for _, again in table.given] == [False, False]  # empty, then the dice
    loop.reread()
    loop.run(frames=4)
    assert table.given[2] == (len(frames), True) and len(table.given) == 3
    loop.run(frames=2)  # the throw starts; asked again as the dice move
    loop.reread()
    loop.run(frames=len(frames) + 2)
    assert [again for _, again in table.given[3:]] == [False, False]  # its own settles
    assert loop.status()["reads"] == 5


def test_dice_settled_long_before_the_roll_is_asked_for_are_not_offered_to_it():
    frames = roll_frames()
    table = EarlyTable()
    clock = Stepping()
    loop = early_loop(frames + [frames[-1]] * 10, table, clock)
    loop.run(frames=len(frames))
    clock.step = EARLY_SECONDS  # two minutes of talk, then the next frame
    loop.run(frames=2)
    table.waiting = True
    loop.run(frames=5)
    assert table.given == [] and loop.status()["detail"] != EARLY_NOTE


def test_kept_dice_wait_for_a_hand_in_the_tray_to_leave_it_as_it_was():
    """A hand passes over the kept dice after the roll was asked for: they are given only
    once the tray is seen still again, looking as it did, not while the hand is there."""
    from web.runtime.recording import hand_over

    frames = roll_frames()
    settled = frames[-1]
    hand = [hand_over(settled, 0.5, seed=3)] * 3
    table = EarlyTable()
    loop = early_loop(frames + hand + [settled] * 8, table)
    loop.run(frames=len(frames))
    table.waiting = True
    loop.run()
    assert len(table.given) == 1 and loop.status()["settles"] == 2
    index, _ = table.given[0]
    assert index >= len(frames) + len(hand) + 2  # still for 0.4 s after the hand left


def test_a_throw_made_before_the_roll_is_asked_for_waits_for_the_table(seafall_services):
    """At the table: dice thrown, then the roll asked for (the table opened here). The read
    is kept with a warning saying why and waits for a phone instead of being applied as
    read (the dice might be left from before); confirmed, it answers the roll."""
    frames, faces = throws(1)
    runtime = runtime_with(seafall_services, lambda: FakeSource(frames + [frames[-1]] * 10,
                                                                clock=Ticking()))
    assert runtime.camera is not None
    runtime.camera.run(frames=len(frames))
    assert runtime.camera.status()["reads"] == 0
    table = dice_table(seafall_services, rolls=1)
    runtime.camera.run(frames=4)
    assert runtime.camera.status()["reads"] == 1
    dice = seafall_services.dice()
    read = dice.store.latest(table.session_id)
    assert read is not None and read.status == "pending" and read.source == "camera"
    assert [d.face for d in read.dice] == faces[0]
    assert any("before the roll was asked for" in w for w in read.warnings)
    assert table.view(None)["rolled"] == []
    dice.confirm(table, read.id, None, None, "red")
    assert table.view(None)["rolled"] == faces
    runtime.camera.run(frames=4)  # the tray as it was: nothing read again
    assert runtime.camera.status()["reads"] == 1


class Unpluggable(FakeSource):
    """A camera pulled out after ``lose_after`` frames that stays out for ``out_for``
    re-open attempts; each frame comes 0.2 s after the last on a manual clock."""

    def __init__(self, frames, lose_after: int, out_for: int) -> None:
        self.clock = ManualClock()
        super().__init__(frames, name="camera:9", lose_after=lose_after,
                         clock=lambda: self.clock.now)
        self.out_for = out_for
        self.attempts = 0

    def read(self):
        self.clock.advance(0.2)
        return super().read()

    def reopen(self) -> None:
        self.attempts += 1
        if self.attempts > self.out_for:
            self.plugged = True
        super().reopen()


def roll_frames() -> list[np.ndarray]:
    """Frames of one throw of two dice that the reader reads for sure."""
    return throw(certain_photos(1)[0][0])


def test_a_camera_lost_mid_stream_is_reopened_and_reads_again(seafall_services):
    table = dice_table(seafall_services)
    frames = roll_frames()
    camera = Unpluggable(frames * 2, lose_after=len(frames), out_for=3)
    runtime = runtime_with(seafall_services, lambda: camera)
    states: list[str] = []
    loop = CameraLoop("camera:9", lambda: camera, runtime._on_settled, backoff=QUICK)
    original = loop._set

    def spy(**changes):
        if "state" in changes:
            states.append(changes["state"])
        original(**changes)

    loop._set = spy  # type: ignore[method-assign]
    loop.run(frames=2 * len(frames))
    status = loop.status()
    assert states == ["running", "lost", "reopening", "reopening", "reopening", "reopening",
                      "running"]
    assert status["state"] == "running" and status["reopen_attempts"] == 4
    assert "frames again" in status["detail"]
    assert camera.opened == 2 and status["reads"] == 2
    assert len(table.view(None)["rolled"]) == 2


def test_a_camera_plugged_back_in_does_not_read_the_last_roll_again(seafall_services):
    """The cable is pulled after a roll and plugged back in; the tray is as it was. Before,
    the loop started a new settle detector, which read the same dice again once they were
    seen still and applied them as the next roll. Dice thrown while the camera was away
    are read (the second half: the next throw's settled tray, first seen after a loss)."""
    table = dice_table(seafall_services)
    (first, faces), (second, next_faces) = certain_photos(2)
    frames = throw(first)
    still = [frames[-1]] * 12
    camera = Unpluggable(frames + still + [throw(second)[-1]] * 12, lose_after=len(frames),
                         out_for=2)
    runtime = runtime_with(seafall_services, lambda: camera)
    loop = CameraLoop("camera:9", lambda: camera, runtime._on_settled, backoff=QUICK)
    loop.run(frames=len(frames) + len(still))
    assert camera.opened == 2 and loop.status()["state"] == "running"
    assert loop.status()["reads"] == 1 and table.view(None)["rolled"] == [list(faces)]
    camera.lose_after = len(frames) + len(still)  # pulled again; the next throw meanwhile
    loop.run(frames=12)
    assert camera.opened == 3 and loop.status()["reads"] == 2
    assert table.view(None)["rolled"] == [list(faces), list(next_faces)]


def test_a_camera_absent_at_start_is_looked_for_again():
    tries = {"n": 0}
    clock = ManualClock()
    frames = roll_frames()

    def factory():
        tries["n"] += 1
        if tries["n"] < 3:
            raise SourceError("no camera found (no /dev/video* device)")
        return FakeSource(frames, name="camera:0", clock=lambda: clock.now)

    seen: list[str] = []
    loop = CameraLoop("auto", factory, lambda f, motion: seen.append(f.ref) or None, backoff=QUICK)
    loop.run(frames=3)
    status = loop.status()
    assert tries["n"] == 3 and status["state"] == "running" and status["frames"] == 3


def test_the_status_says_reading_while_a_settled_frame_is_read():
    """The phones say the dice are being read while the reader works (a Pi takes a moment),
    not that the camera waits for a roll; the next frame says what the tray shows."""
    clock = ManualClock()
    seen: list[str] = []

    def reading(frame, motion):
        seen.append(loop.status()["tray"])

    frames = roll_frames()
    source = FakeSource(frames + frames[-1:] * 3,
                        clock=lambda: (clock.advance(0.2), clock.now)[1])
    loop = CameraLoop("x", lambda: source, reading, backoff=QUICK)
    loop.run(frames=len(frames) + 3)
    assert seen and set(seen) == {"reading"}
    assert loop.status()["tray"] == "settled"


def test_a_failing_read_does_not_stop_the_camera():
    clock = ManualClock()

    def broken(frame, motion):
        raise RuntimeError("reader exploded")

    frames = roll_frames()
    source = FakeSource(frames * 2, clock=lambda: (clock.advance(0.2), clock.now)[1])
    loop = CameraLoop("x", lambda: source, broken, backoff=QUICK)
    loop.run(frames=len(frames) * 2)
    status = loop.status()
    assert status["settles"] == 4 and status["reads"] == 0
    assert "reader exploded" in status["detail"] and status["state"] == "running"
    assert status["last_error"] == "reader exploded" and status["last_error_said"] is None


def test_a_recordings_unreadable_files_are_logged_and_named_when_it_ends(tmp_path, caplog):
    """``serve --camera images:DIR`` passes a corrupt file over: the log names it, and the
    status says so once the recording ends, so a gap in it does not go unsaid."""
    frames = roll_frames()
    for i, image in enumerate(frames):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), image)
    (tmp_path / "001.png").write_bytes(b"not a picture")
    clock = ManualClock()
    loop = CameraLoop(f"images:{tmp_path}",
                      lambda: ImagesSource(tmp_path, clock=lambda: clock.advance(0.2) or clock.now),
                      lambda f, motion: None, backoff=QUICK)
    with caplog.at_level("WARNING", logger="web.runtime.camera"):
        loop.run(frames=len(frames) + 1)
    why = f"{tmp_path / '001.png'}: not a readable image (corrupt or unsupported format)"
    assert [r.getMessage() for r in caplog.records] == [f"skipped {why}"]
    status = loop.status()
    assert status["frames"] == len(frames) - 1 and status["state"] == "absent"
    assert status["detail"] == (f"images:{tmp_path}: the recording ended (1 passed over, "
                                f"unreadable: {why})")


def test_the_camera_thread_stops_promptly_while_a_camera_is_missing():
    def factory():
        raise SourceLost("unplugged")

    loop = CameraLoop("camera:0", factory, lambda f, motion: None,
                      backoff=Backoff(5.0, 5.0)).start()
    assert loop.stop(timeout=2.0)
    assert loop.status()["state"] == "absent"


def _rolled_asking_a_re_roll(services):
    """A d6 table that rolled the 7 dice of a real photo at the camera and asks to re-roll
    the one die showing a face no other shows: (photo, image, dice service, table, the
    first read, that die's number)."""
    p = photo(SHEET)
    image = p.image()
    dice = services.dice()
    first = dice.readers.read("d6", image, "x")
    faces = [d.face for d in first.dice]
    k = next(i for i, f in enumerate(faces) if faces.count(f) == 1)
    table = services.tables.create("dicegame", {"die": "d6", "count": len(faces), "rolls": 1,
                                                "reroll": faces[k]})
    read = dice.read_frame(table, image, "x")
    assert read is not None and read.used is None
    if read.status == "pending":
        dice.confirm(table, read.id, None, table.version, None)
    return p, image, dice, table, first, k


def test_a_re_roll_is_answered_by_the_dice_that_moved(services):
    """SeaFall's "re-roll weak successes" at the camera: the prompt asks for fewer dice than
    the tray holds; the dice that moved since the last read answer it, the others keep
    their faces (a real d6 photo, one die swapped for another face where motion was)."""
    p, image, dice, table, first, k = _rolled_asking_a_re_roll(services)
    faces = [d.face for d in first.dice]
    assert table.view(None)["rolled"] == [faces] and table.view(None)["pending"] == [k]
    # the player picks up die k and throws it again: it lands showing another face
    again, motion = thrown_again(p, image, first.dice[k].box, faces[k])
    reroll = dice.read_frame(table, again, "y", motion=motion)
    assert reroll is not None and reroll.used == (k,) and reroll.expected == 1
    if reroll.status == "pending":
        reroll = dice.confirm(table, reroll.id, None, table.version, None)
    new_face = reroll.dice[k].face
    assert reroll.status == "applied" and reroll.applied_faces == (new_face,)
    assert new_face != faces[k] or reroll.dice[k].uncertain
    rolled = table.view(None)["rolled"][-1]
    assert rolled == [*faces[:k], new_face, *faces[k + 1:]]
    with pytest.raises(InvalidCommand, match="was not re-rolled"):
        dice.correct(table, reroll.id, (k + 1) % len(faces), "6", None, None)


def test_a_re_roll_after_the_lens_was_covered_is_still_matched(services):
    """The lens covered between the roll and its re-roll: the black frame is read, no die
    is found and the camera says why, but the dice were not picked up: the re-roll is
    still answered by the die that moved (before, it was read as a new roll of 7 dice and
    left for the table)."""
    p, image, dice, table, first, k = _rolled_asking_a_re_roll(services)
    with pytest.raises(ValueError, match=r"^no die was read \(the picture is black"):
        dice.read_frame(table, np.zeros_like(image), "dark")
    again, motion = thrown_again(p, image, first.dice[k].box, first.dice[k].face)
    reroll = dice.read_frame(table, again, "y", motion=motion)
    assert reroll is not None and reroll.used == (k,) and reroll.expected == 1


def test_a_die_knocked_during_a_re_roll_does_not_count_as_thrown(services):
    """Picking up the die to re-roll, the player knocks another aside: it slides a little
    and turns (vision.rolls.NUDGE_LIKENESS). Before, it counted as moved, the re-roll of
    one die saw two, and the read waited for a phone; now the thrown die answers it and the
    knocked one keeps its face."""
    p, image, dice, table, first, k = _rolled_asking_a_re_roll(services)
    faces = [d.face for d in first.dice]
    again, _ = thrown_again(p, image, first.dice[k].box, faces[k])
    j = 6 if k != 6 else 0  # the 2 at the sheet's right (or the 6 at its bottom)
    x, y, w, h = p.boxes[j]
    g = int(max(w, h) * 0.3)
    empty = empty_tray(p)
    again[y - g:y + h + g, x - g:x + w + g] = empty[y - g:y + h + g, x - g:x + w + g]
    patch, (px, py) = die_patches(p)[j]
    paste(again, turned(patch, 12.0), (px + 30, py + 10))
    reroll = dice.read_frame(table, again, "y")
    assert reroll is not None and reroll.used == (k,) and reroll.expected == 1
    if reroll.status == "pending":
        reroll = dice.confirm(table, reroll.id, None, table.version, None)
    new_face = reroll.dice[k].face
    assert reroll.status == "applied" and reroll.applied_faces == (new_face,)
    assert sorted(table.view(None)["rolled"][-1]) == sorted(
        [*faces[:k], new_face, *faces[k + 1:]])


def test_a_re_roll_of_the_wrong_die_waits_for_the_table(services):
    """The re-roll asks for the die showing one face; the player picks up another die and
    throws it. The count matches, but the dice left in the tray do not show what the re-roll
    keeps (`RollPrompt.keep`): before, the throw answered the re-roll as if the right die
    had been thrown. It now waits for the table, saying why."""
    p, image, dice, table, first, k = _rolled_asking_a_re_roll(services)
    faces = [d.face for d in first.dice]
    j = next(i for i, f in enumerate(faces) if f != faces[k])  # the wrong die
    (prompt,) = table.prompts()
    assert sorted(prompt.keep) == sorted(faces[:k] + faces[k + 1:])
    again, motion = thrown_again(p, image, first.dice[j].box, faces[j])
    reroll = dice.read_frame(table, again, "y", motion=motion)
    assert reroll is not None and reroll.used == (j,) and reroll.status == "pending"
    assert any("were the right dice picked up" in w for w in reroll.warnings)
    assert table.view(None)["pending"] == [k] and table.view(None)["rolled"] == [faces]


def test_a_die_the_table_corrected_keeps_its_face_when_the_others_are_thrown_again(services):
    """The table corrects a die of a camera read; then another die is thrown again and that
    one stays where it was. The next read shows it with the table's face, sure, not the
    reader's first guess again (which the table would have to correct a second time)."""
    p = photo(SHEET)
    image = p.image()
    dice = services.dice()
    faces = [d.face for d in dice.readers.read("d6", image, "x").dice]
    table = services.tables.create("dicegame", {"die": "d6", "count": len(faces), "rolls": 2})
    read = dice.read_frame(table, image, "x")
    assert read is not None
    if read.status == "pending":
        read = dice.confirm(table, read.id, None, table.version, None)
    told = next(f for f in "123456" if f != faces[0])
    dice.correct(table, read.id, 0, told, table.version, None, "Ana")
    assert table.view(None)["rolled"] == [[told, *faces[1:]]]
    # the last die is picked up and thrown again: it lands where it was, another face up
    k = len(faces) - 1
    again, motion = thrown_again(p, image, read.dice[k].box, faces[k])
    second = dice.read_frame(table, again, "y", motion=motion)
    assert second is not None and second.used is None
    assert (second.dice[0].face, second.dice[0].uncertain) == (told, False)
    assert [d.face for d in second.dice[1:k]] == faces[1:k]
    if second.status == "pending":
        second = dice.confirm(table, second.id, None, table.version, None)
    assert table.view(None)["rolled"][-1][:k] == [told, *faces[1:k]]


def test_the_camera_keeps_the_tables_faces_when_a_die_it_missed_was_added(services):
    """A camera read short of a die: the table adds the die it missed (a tap on the
    picture), names it, corrects another and confirms. The camera's roll tracker still
    takes the table's faces of the dice it read (the added die is no die of its own
    read): the corrected die keeps its face, sure, when another is thrown again."""
    p = photo(SHEET)
    image = p.image()
    dice = services.dice()
    faces = [d.face for d in dice.readers.read("d6", image, "x").dice]
    table = services.tables.create("dicegame", {"die": "d6", "count": len(faces) + 1,
                                                 "rolls": 2})
    read = dice.read_frame(table, image, "x")
    assert read is not None and read.status == "pending"  # a die short
    added = dice.add_die(table, read.id, 6, 6, table.version, None, "Ana")
    n = len(faces)
    assert added.dice[n].added_by == "Ana"
    dice.correct(table, read.id, n, "1", table.version, None, "Ana")
    told = next(f for f in "123456" if f != faces[0])
    dice.correct(table, read.id, 0, told, table.version, None, "Ana")
    done = dice.confirm(table, read.id, None, table.version, None)
    assert done.status == "applied"
    assert table.view(None)["rolled"] == [[told, *faces[1:], "1"]]
    k = n - 1
    again, motion = thrown_again(p, image, read.dice[k].box, faces[k])
    second = dice.read_frame(table, again, "y", motion=motion)
    assert second is not None
    assert (second.dice[0].face, second.dice[0].uncertain) == (told, False)


def test_a_box_the_table_took_out_stays_out_of_the_next_throw_while_it_lies_still(services):
    """A camera read with one box too many (a token in the tray): the table takes it out
    ("not a die") and confirms. At the next throw the token lies where it lay: it is out
    of that read too, said by the same player, and the read answers the roll without the
    table taking it out again (docs/ui.md, "Dice")."""
    p = photo(SHEET)
    image = p.image()
    dice = services.dice()
    faces = [d.face for d in dice.readers.read("d6", image, "x").dice]
    table = services.tables.create("dicegame", {"die": "d6", "count": len(faces) - 1,
                                                 "rolls": 2})
    read = dice.read_frame(table, image, "x")
    assert read is not None and read.status == "pending" and read.notes  # a box too many
    out = dice.mark_not_a_die(table, read.id, 0, True, table.version, None, "Ana")
    assert out.positions == tuple(range(1, len(faces)))
    done = dice.confirm(table, read.id, None, table.version, None)
    assert done.status == "applied" and table.view(None)["rolled"] == [faces[1:]]
    k = len(faces) - 1
    again, motion = thrown_again(p, image, read.dice[k].box, faces[k])
    second = dice.read_frame(table, again, "y", motion=motion)
    assert second is not None and second.id != read.id
    assert second.dice[0].not_a_die_by == "Ana" and 0 not in second.positions
    assert not second.notes  # no "the roll asks for ..."
    if second.status == "pending":  # a die read unsure: the table looks, as ever
        second = dice.confirm(table, second.id, None, table.version, None)
    assert second.status == "applied" and len(table.view(None)["rolled"][-1]) == k


def test_a_die_taken_off_the_tray_is_not_read_as_a_roll(services):
    """After a roll, a player takes one die off the tray: the tray settles again with the
    others where they lay. Before, that read answered the next roll with their faces."""
    p = photo(SHEET)
    image = p.image()
    dice = services.dice()
    count = len(dice.readers.read("d6", image, "x").dice)
    table = services.tables.create("dicegame", {"die": "d6", "count": count, "rolls": 2})
    read = dice.read_frame(table, image, "x")
    assert read is not None
    if read.status == "pending":
        read = dice.confirm(table, read.id, None, table.version, None)
    taken = empty_tray(p)
    x, y, w, h = read.dice[0].box
    paste_back = image.copy()
    paste_back[y:y + h, x:x + w] = taken[y:y + h, x:x + w]
    motion = np.zeros(image.shape[:2], np.uint8)
    motion[y:y + h, x:x + w] = 1
    records = dice.store.count(table.session_id)
    assert dice.read_frame(table, paste_back, "y", motion=motion) is None
    assert dice.store.count(table.session_id) == records
    assert len(table.view(None)["rolled"]) == 1


def test_the_camera_thread_restarts_after_an_unexpected_failure():
    opened: list[int] = []
    frames = roll_frames()

    class Exploding(FakeSource):
        def read(self):
            if len(opened) == 1 and self._index == 2:
                raise ValueError("driver bug")  # not a SourceLost: an unexpected failure
            return super().read()

    def factory():
        opened.append(1)
        return Exploding(frames, loop=True, name="camera:0")

    loop = CameraLoop("camera:0", factory, lambda f, motion: None, backoff=QUICK).start()
    try:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not (
                len(opened) >= 2 and loop.status()["state"] == "running"):
            time.sleep(0.01)
        assert len(opened) == 2 and loop.status()["state"] == "running"
    finally:
        assert loop.stop(timeout=2.0)


def test_without_a_profile_for_the_die_the_camera_shows_the_dice_unread(services):
    table = dice_table(services)  # SeaFall dice, and no SeaFall profile enrolled
    frames, faces = throws(2)
    runtime = runtime_with(services, lambda: FakeSource(frames, clock=Ticking()))
    runtime.camera.run()
    status = runtime.camera.status()
    assert status["reads"] == len(faces) and status["last_error"] is None
    read = services.dice().latest(table)
    assert read.status == "pending" and read.faces == ("?", "?")
    assert "give their faces" in read.note
    # the dice named as the roll prompt names them ("this table does not know seafall dice")
    assert "this table does not know SeaFall dice yet" in read.note
    assert table.view(None)["rolled"] == []  # waits for the players to name them


def test_with_an_unusable_profile_for_the_die_the_camera_says_so_and_goes_on(services):
    from vision.profilefile import profiles_dir

    profiles_dir().mkdir(parents=True, exist_ok=True)
    (profiles_dir() / "seafall.npz").write_bytes(b"corrupt")
    table = dice_table(services)
    frames, faces = throws(2)
    runtime = runtime_with(services, lambda: FakeSource(frames, clock=Ticking()))
    runtime.camera.run()
    status = runtime.camera.status()
    assert status["settles"] == 2 * len(faces) and status["reads"] == 0
    assert "tableside enroll" in status["last_error"] and status["state"] == "absent"
    assert table.view(None)["rolled"] == []


def _setup_with_left_half_off(name: str, image: np.ndarray, die_px: float) -> None:
    """A calibrated setup whose tray floor is the right half of the frame only."""
    from vision.calibration import Calibration, quality

    roi = np.zeros(image.shape[:2], np.uint8)
    roi[:, image.shape[1] // 2:] = 255
    Calibration(name, image, roi, die_px, quality(image)).save()


def test_a_calibrated_setup_reads_the_camera_within_its_tray(services):
    """``serve --setup``: the camera's frames are read with the setup's die size and tray
    floor (dice centred off the floor are not the table's), phone photos without it."""
    p = photo(SHEET)
    image = p.image()
    right = sum(1 for x, _, w, _ in p.boxes if x + w / 2 > image.shape[1] / 2)
    assert 0 < right < len(p.boxes)
    _setup_with_left_half_off("kitchen", image, float(np.median([max(b[2:]) for b in p.boxes])))
    frames = [image] * 8
    runtime = Runtime(services, RuntimeOptions(box="none", setup="kitchen"),
                      camera_factory=lambda: FakeSource(frames, clock=Ticking()),
                      camera_spec="test", pi_model=None)
    assert runtime.setup is not None and runtime.status()["camera"]["setup"] == "kitchen"
    table = services.tables.create("dicegame", {"die": "d6", "count": right, "rolls": 1})
    runtime.camera.run()
    read = services.dice().store.latest(table.session_id)
    assert read is not None and len(read.dice) == right
    # the same reader, for a phone's photo, looks at the whole frame
    assert len(services.dice().readers.read("d6", image, "photo").dice) == len(p.boxes)


def test_a_frame_of_another_size_than_the_setup_says_so_and_the_camera_goes_on(services):
    p = photo(SHEET)
    _setup_with_left_half_off("attic", p.image(), 60.0)
    small = cv2.resize(p.image(), (640, 640))
    runtime = Runtime(services, RuntimeOptions(box="none", setup="attic"),
                      camera_factory=lambda: FakeSource([small] * 8, clock=Ticking()),
                      camera_spec="test", pi_model=None)
    services.tables.create("dicegame", {"die": "d6", "count": 7, "rolls": 1})
    runtime.camera.run()
    status = runtime.camera.status()
    assert "calibrated at 1024x1024" in status["last_error"] and status["reads"] == 0


def test_a_setup_never_calibrated_stops_the_runtime_with_how_to(services):
    with pytest.raises(ValueError, match="calibrate it first"):
        Runtime(services, RuntimeOptions(box="none", camera="none", setup="garage"),
                pi_model=None)


def test_grab_hands_over_the_next_frames_while_the_loop_goes_on():
    frames = [np.full((30, 40, 3), i, np.uint8) for i in range(50)]
    loop = CameraLoop("t", lambda: FakeSource(frames, loop=True), lambda f, m: None,
                      min_period=0.001).start()
    try:
        taken = loop.grab(5, timeout=3.0)
        values = [int(f[0, 0, 0]) for f in taken]
        assert len(taken) == 5 and values == [(values[0] + i) % 50 for i in range(5)]
        assert loop.status()["frames"] >= 5 and loop.status()["state"] == "running"
    finally:
        assert loop.stop()


def test_a_tray_check_grab_has_the_camera_focus_first_and_waits_for_its_lens():
    camera = FocusingCamera([np.full((30, 40, 3), i, np.uint8) for i in range(200)])
    loop = CameraLoop("t", lambda: camera, lambda f, m: None, min_period=0.001).start()
    try:
        taken = loop.grab(3, timeout=3.0, refocus=True)
        [(thread, asked_at)] = camera.asked
        assert thread == "camera-loop"  # the source is only ever touched by its loop
        values = [int(f[0, 0, 0]) for f in taken]
        # the frame the focus was asked on, and the 3 the lens moved through, are not taken
        assert values == [asked_at + 4, asked_at + 5, asked_at + 6]
        # a grab without refocus (measuring the dice) leaves the lens where it is
        loop.grab(2, timeout=3.0)
        assert len(camera.asked) == 1
    finally:
        assert loop.stop()


def test_a_new_detector_is_made_from_the_next_frame_on():
    from vision.settle import SettleDetector

    made = []

    def factory() -> SettleDetector:
        made.append(1)
        return SettleDetector(clock=time.monotonic)

    frames = [np.zeros((30, 40, 3), np.uint8)] * 20
    loop = CameraLoop("t", lambda: FakeSource(frames, loop=True), lambda f, m: None,
                      detector=factory)
    loop.run(frames=3)
    assert len(made) == 1
    loop.new_detector()
    loop.run(frames=3)  # one for the flag; the loop's is kept from run to run
    assert len(made) == 2
    loop.run(frames=3)
    assert len(made) == 2


def test_a_new_tray_setup_does_not_read_the_dice_on_the_tray_again(seafall_services):
    """A setup kept while dice lie on the tray (measuring them, or the check done again)
    gives the loop a new detector. Before, it started with no history and read the same
    dice again as the next roll; it now goes on from the old one's view of the tray, as
    does the loop after a restart. The next throw is read."""
    table = dice_table(seafall_services)
    (first, faces), (second, next_faces) = certain_photos(2)
    frames = throw(first)
    still = [frames[-1]] * 12
    runtime = runtime_with(seafall_services, lambda: FakeSource([], clock=Ticking()))
    source = FakeSource(frames + still + still + throw(second), clock=Ticking())
    loop = CameraLoop("t", lambda: source, runtime._on_settled, detector=runtime._detector)
    loop.run(frames=len(frames))
    assert loop.status()["reads"] == 1
    loop.new_detector()
    loop.run(frames=len(still))
    loop.run(frames=len(still))  # a new run: the loop restarted after a failure
    assert loop.status()["reads"] == 1 and table.view(None)["rolled"] == [list(faces)]
    loop.run()
    assert loop.status()["reads"] == 2
    assert table.view(None)["rolled"] == [list(faces), list(next_faces)]


def test_the_camera_says_when_the_tray_no_longer_looks_like_its_check():
    """A lamp lit on one side after the empty tray was checked, its light cut by a screen
    (a crisp edge): the check is dropped after 5 s still (else the camera never settled:
    the whole lit side looked like a hand), and the camera's status says to check the tray
    again; a new setup clears it."""
    from vision.settle import STALE_NOTE, SettleDetector

    p = photo(SHEET)
    lit = screened_lamp(p.image())
    clock = Ticking()
    settled: list[str] = []
    loop = CameraLoop("t", lambda: FakeSource([lit], loop=True, clock=clock),
                      lambda f, m: settled.append(f.ref) or None,
                      detector=lambda: SettleDetector(clock=time.monotonic,
                                                      background=empty_tray(p)))
    loop.run(frames=20)  # 4 s at 0.2 s a frame: a hand, as far as it can tell
    assert loop.status()["tray"] == "hand" and loop.status()["setup_note"] is None
    loop.run(frames=10)
    status = loop.status()
    assert status["setup_note"] == STALE_NOTE and status["detail"] == STALE_NOTE
    assert status["tray"] == "settled" and len(settled) == 1
    loop.new_detector()
    loop.run(frames=1)
    assert loop.status()["setup_note"] is None


def test_the_camera_reads_with_the_setup_last_kept_unless_told_otherwise(services, caplog):
    from vision.calibration import remember_in_use, setups_dir

    p = photo(SHEET)
    _setup_with_left_half_off("kitchen", p.image(), 60.0)
    remember_in_use("kitchen")

    def make(**options):
        return Runtime(services, RuntimeOptions(box="none", **options),
                       camera_factory=(lambda: FakeSource([])) if "demo" not in options
                       else None, pi_model=None)

    assert make().setup.name == "kitchen"  # serve without --setup, next time
    assert make(setup="none").setup is None
    assert make(demo=True).setup is None  # the demo's recording is not the table's camera
    (setups_dir() / "kitchen" / "calibration.json").write_text("{broken")
    with caplog.at_level("WARNING"):
        assert make().setup is None  # a damaged setup is not read with; serve goes on
    assert "not reading with the last tray setup" in caplog.text
    # the file naming it damaged (a card's corruption): serve still starts, and says so
    caplog.clear()
    (setups_dir() / "in-use.txt").write_bytes(b"\xff\xfe\x00kit")
    with caplog.at_level("WARNING"):
        assert make().setup is None
    assert "in-use.txt is damaged (not text)" in caplog.text


def test_a_setup_made_on_the_demo_recording_is_kept_for_the_run_only(services):
    """The demo's recorded camera is not the table's: a tray checked on it is read with
    until the server stops, never saved or remembered for the real camera."""
    from vision.calibration import calibrate, in_use, setups_dir

    setup = calibrate("tray", [photo(SHEET).image()])
    demo = Runtime(services, RuntimeOptions(demo=True, box="none"), pi_model=None)
    demo._keep(setup)
    assert demo.setup is setup and demo.status()["camera"]["setup"] == "tray"
    assert in_use() is None and not (setups_dir() / "tray").exists()
    assert not demo.keeps_setups  # the tray check's answer says so: saved false, in use
    table = Runtime(services, RuntimeOptions(box="none"),
                    camera_factory=lambda: FakeSource([]), pi_model=None)
    table._keep(setup)
    assert in_use() == "tray" and (setups_dir() / "tray" / "calibration.json").is_file()
    assert table.keeps_setups



def test_a_settle_with_no_die_read_says_why_when_the_reader_knows(services):
    """The camera settles on a black picture (the lens covered) while the table waits for
    dice: no read is recorded, and the camera's status says why instead of nothing
    happening. An empty tray in good light stays silent (it settles so between rolls)."""
    table = services.tables.create("dicegame", {"die": "d6", "count": 2, "rolls": 1})
    dice = services.dice()
    black = np.zeros((480, 640, 3), np.uint8)
    with pytest.raises(ValueError, match=r"^no die was read \(the picture is black"):
        dice.read_frame(table, black, "x")
    assert dice.read_frame(table, empty_tray(photo(SHEET)), "y") is None
    # at the camera: the empty tray settles (silent), then the lens is covered
    empty = empty_tray(photo(SHEET))
    frames = [empty] * 4 + [np.zeros_like(empty)] * 6
    runtime = runtime_with(services, lambda: FakeSource(frames, clock=Ticking()))
    assert runtime.camera is not None
    runtime.camera.run(frames=len(frames))
    status = runtime.camera.status()
    assert status["settles"] == 2 and status["reads"] == 0
    assert status["last_error"].startswith("no die was read (the picture is black")
    assert status["last_error_said"] == {  # for a page to say it in its language
        "key": "runtime.no_die_read",
        "values": {"why": {"text": BLACK, "key": "vision.black", "values": {}}}}
    assert status["detail"].startswith(READ_FAILED + "no die was read")
    assert table.view(None)["rolled"] == []
    # the lens uncovered (no motion: the light came back) and the dice thrown: they are
    # read (a black frame is never the tray as last read: vision.settle.DARK_LIGHT) and
    # the failure is over
    frames[:] = [empty] * 4 + [np.zeros_like(empty)] * 6 + [empty] * 4 + [photo(SHEET).image()] * 6
    runtime = runtime_with(services, lambda: FakeSource(frames, clock=Ticking()))
    assert runtime.camera is not None
    runtime.camera.run(frames=len(frames))
    status = runtime.camera.status()
    assert status["settles"] == 3 and status["reads"] == 1
    assert status["last_error"] is None and not status["detail"].startswith(READ_FAILED)


def test_the_camera_keeps_the_last_roll_of_a_few_tables_only(services):
    """Each table's last camera roll keeps its settled frame; a server up for a weekend of
    games must not keep one per table it ever served."""
    from web.runtime.dice import TRACKED_TABLES

    image = photo(SHEET).image()
    dice = services.dice()
    tables = [services.tables.create("dicegame", {"die": "d6", "count": 2, "rolls": 1})
              for _ in range(TRACKED_TABLES + 2)]
    for table in tables:
        dice.read_frame(table, image, "x")
    assert list(dice._trackers) == [t.session_id for t in tables[-TRACKED_TABLES:]]
    assert set(dice._camera_rolls) <= set(dice._trackers)
    dice.read_frame(tables[-TRACKED_TABLES], image, "y")  # served again: now the latest
    assert list(dice._trackers)[-1] == tables[-TRACKED_TABLES].session_id


def test_the_wrong_dice_warning_says_what_stayed_and_whether_it_was_read_for_sure():
    from companion.prompts import RollPrompt
    from vision.reading import DieRead
    from web.runtime.dice import _wrong_dice_kept

    def prompt(*keep: str) -> RollPrompt:
        return RollPrompt("r", None, "seafall", 1, "re-roll", keep=keep)

    def die(face: str, uncertain: bool = False) -> DieRead:
        return DieRead(face, 0.4 if uncertain else 0.95, uncertain, (0, 0, 40, 40))

    kept = [die("strong"), die("blank")]
    assert _wrong_dice_kept(prompt(), kept) is None  # the game does not say
    assert _wrong_dice_kept(prompt("blank", "strong"), kept) is None  # in any order
    wrong = _wrong_dice_kept(prompt("blank", "weak"), kept)
    assert wrong is not None and wrong.startswith(
        "the dice left in place show blank, strong, but the re-roll keeps blank, weak")
    unsure = _wrong_dice_kept(prompt("blank", "weak"), [die("strong", True), die("blank")])
    assert unsure is not None and "(not all read for sure)" in unsure


def test_wood_in_view_is_taken_into_the_tray_and_its_rolls_read_sure(seafall_services):
    """A wooden dice box stands in a corner of the camera's view and no tray check was
    made: its skin colour was a hand that never left, and no roll was ever read. Held
    still for STILL_SKIN_SECONDS it is taken as part of the tray (the camera's status says
    so), and the read is judged with the same scene: its dice applied, not left unsure."""
    from vision.settle import STILL_SKIN_NOTE, STILL_SKIN_SECONDS
    from vision.surroundings import WOODS, wooden_border

    def boxed(frame: np.ndarray) -> np.ndarray:
        out = frame.copy()
        h, w = out.shape[:2]
        corner = out[h - h // 5:, :w // 5]
        corner[:] = wooden_border(np.zeros_like(corner), WOODS["oak"], 1.0)
        return out

    def clear_of_the_box(data: bytes) -> bool:  # the box would hide a die under it
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        h, w = image.shape[:2]
        read = DiceReader("seafall", profile=demo_profile()).read(image)
        return all(x > w // 5 or y + bh < h - h // 5 for x, y, _, bh in
                   (d.box for d in read.dice))

    table = dice_table(seafall_services)
    first, faces = next(p for p in certain_photos(3) if clear_of_the_box(p[0]))
    frames = [boxed(f) for f in throw(first)]
    still = [frames[-1]] * round(STILL_SKIN_SECONDS / 0.2 + 5)
    source = FakeSource(frames + still, clock=Ticking())
    runtime = runtime_with(seafall_services, lambda: source)
    assert runtime.camera is not None
    runtime.camera.run()
    status = runtime.camera.status()
    assert status["reads"] == 1 and status["setup_note"] == STILL_SKIN_NOTE
    assert table.view(None)["rolled"] == [list(faces)]


def test_a_roll_the_full_disk_would_not_take_says_to_throw_again(services, monkeypatch):
    """QA: a roll thrown while the disk was full was lost without a word of it, where
    docs/runtime.md said it was kept pending. The camera's read cannot be written, so the
    camera's status says the roll was not kept and to throw the dice again once space is
    freed (and the doc says so)."""
    from companion.store import StorageFull

    table = services.tables.create("dicegame", {"die": "d6", "count": 2, "rolls": 1})

    def full(*args, **kwargs):
        raise StorageFull("/data")

    monkeypatch.setattr(services.dice(), "read_frame", full)
    empty = empty_tray(photo(SHEET))
    frames = [empty] * 4 + [photo(SHEET).image()] * 6
    runtime = runtime_with(services, lambda: FakeSource(frames, clock=Ticking()))
    assert runtime.camera is not None
    runtime.camera.run(frames=len(frames))
    status = runtime.camera.status()
    assert status["reads"] == 0 and "is full" in status["last_error"]
    assert status["detail"].startswith(READ_FAILED + "the disk holding /data is full")
    assert status["detail"].endswith("free some space, then try again (this roll was not "
                                      "kept: throw the dice again then)")
    assert status["detail_said"]["key"] == "camera.read_lost"
    assert table.view(None)["rolled"] == []
