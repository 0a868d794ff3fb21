"""An ``images:`` camera whose folder goes away mid-game and comes back (the camera loop)."""

from __future__ import annotations

import shutil
from pathlib import Path

from firmware_bridge.backoff import Backoff
from tests.vision.helpers import PHOTOS, ManualClock
from vision.sources import ImagesSource
from web.runtime.camera import CameraLoop


class PuttingBack(Backoff):
    """The loop's reopen backoff: the folder is put back at the third try."""

    def __init__(self, away: Path, folder: Path, states: list[dict]) -> None:
        super().__init__(0.001, 0.002)
        self.away, self.folder, self.states = away, folder, states
        self.tries = 0
        self.loop: CameraLoop | None = None

    def next_delay(self) -> float:
        self.tries += 1
        assert self.loop is not None
        self.states.append(self.loop.status())
        if self.tries == 3:
            self.away.rename(self.folder)
        return super().next_delay()


def test_an_images_folder_moved_away_is_a_camera_unplugged_and_comes_back(
        tmp_path: Path, caplog) -> None:
    """It logged "skipped ...: no such file" for every image left (3011 lines), then "the
    recording ended"; moving the folder back did nothing until a restart."""
    folder, away = tmp_path / "frames", tmp_path / "away"
    folder.mkdir()
    for i in range(6):
        shutil.copy(PHOTOS / "IMG_20191208_112609.jpg", folder / f"f{i:03}.jpg")
    clock = ManualClock()
    read = []

    def tick() -> float:
        clock.advance(0.2)
        read.append(clock.now)
        if len(read) == 2:  # the second frame read: the folder goes
            folder.rename(away)
        return clock.now

    states: list[dict] = []
    backoff = PuttingBack(away, folder, states)
    loop = CameraLoop(f"images:{folder}", lambda: ImagesSource(folder, clock=tick),
                      lambda f, motion: None, backoff=backoff)
    backoff.loop = loop
    with caplog.at_level("WARNING", logger="web.runtime.camera"):
        loop.run(frames=10)
    assert caplog.records == []  # not one "skipped" line
    assert states[0]["state"] == "lost"
    assert states[0]["detail"] == (f"images:{folder}: the folder is gone (no such folder: "
                                   "moved or deleted?); it is read again when it is back")
    assert states[1]["state"] == "reopening" and "still gone" in states[1]["detail"]
    status = loop.status()
    assert status["state"] == "absent" and "the recording ended" in status["detail"]
    assert "passed over" not in status["detail"]
    assert status["frames"] == 6 and status["reopen_attempts"] >= 2  # every image, once
