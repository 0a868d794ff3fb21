"""Shared by the runtime tests: the demo's SeaFall profile, photos it reads for sure, and a
fake camera that delivers at a camera's pace."""

from __future__ import annotations

import functools
import threading
import time

import cv2
import numpy as np

from vision.enrollment import Profile
from vision.reader import DiceReader
from vision.sources import FakeSource, Frame
from vision.synthetic import Setting, random_faces, tray_photo
from web.runtime.recording import (
    DIE_PX,
    SIZE,
    enroll_demo_profile,
    hand_over,
    motion_blurred,
)


@functools.cache
def demo_profile() -> Profile:
    """The demo's SeaFall profile (enrolled from synthetic crops; made once per run)."""
    return enroll_demo_profile()


SETTING = Setting.draw(np.random.default_rng(4), SIZE)
"""The one camera over the one tray of these tests: every photo of it in the same light,
as at a table (between frames in another light a hand is told by its shape everywhere)."""


@functools.cache
def certain_photos(count: int = 3) -> tuple[tuple[bytes, tuple[str, ...]], ...]:
    """Synthetic photos of two SeaFall dice (JPEG, as a phone sends) that the demo's profile
    reads with certainty and right, with their faces in reading order: seeded trays tried
    in turn, so the policy tests do not hang on one picture the reader finds hard."""
    reader = DiceReader("seafall", profile=demo_profile())
    rng = np.random.default_rng(11)
    found: list[tuple[bytes, tuple[str, ...]]] = []
    for _ in range(80):
        faces = random_faces(rng, 2)
        photo = tray_photo(rng, faces, size=SIZE, die_px=DIE_PX, setting=SETTING)
        data = cv2.imencode(".jpg", photo.image, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()
        read = reader.read(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR))
        if read.is_certain and not read.warnings and sorted(read.faces) == sorted(faces):
            found.append((data, read.faces))
            if len(found) == count:
                return tuple(found)
    raise AssertionError("the demo profile reads no synthetic photo of two dice for sure")


@functools.cache
def empty_tray() -> np.ndarray:
    return tray_photo(np.random.default_rng(5), [], size=SIZE, die_px=DIE_PX,
                      setting=SETTING).image


def throw(photo: bytes) -> list[np.ndarray]:
    """Camera frames of one throw ending on ``photo``: the empty tray, a hand, the dice
    tumbling, then still (fed 0.2 s apart, the tray settles once empty, once with dice)."""
    settled = cv2.imdecode(np.frombuffer(photo, np.uint8), cv2.IMREAD_COLOR)
    empty = empty_tray()
    return ([empty] * 4 + [hand_over(empty, 0.45, seed=1)] * 2
            + [motion_blurred(settled, 15), motion_blurred(settled, 7)] + [settled] * 6)


class PacedCamera(FakeSource):
    """The same frames over and over at about 30 a second, as a camera gives them (a
    looping fake source read as fast as it can would take a core from the rest of a test)."""

    def __init__(self, frames: list[np.ndarray], name: str = "camera:0") -> None:
        super().__init__(frames, loop=True, name=name)
        self.live = True

    def read(self) -> Frame | None:
        time.sleep(1 / 30)
        return super().read()


class FocusingCamera(PacedCamera):
    """A camera that focuses when asked (``refocus``): the next ``soft`` frames it gives
    are taken while its lens moves, and ``focusing`` is true while one of them is the last
    read. Records the thread and the last frame's number of each ask."""

    def __init__(self, frames: list[np.ndarray], soft: int = 3) -> None:
        super().__init__(frames)
        self.soft = soft
        self.soft_until = 0  # the number of the first frame after the lens has come to rest
        self.asked: list[tuple[str, int]] = []

    @property
    def focusing(self) -> bool:
        return self._index - 1 < self.soft_until

    def refocus(self) -> bool:
        self.asked.append((threading.current_thread().name, self._index - 1))
        self.soft_until = self._index + self.soft
        return True
