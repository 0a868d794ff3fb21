"""Recorded dice frames: a frame source that plays a recording in real time, and the maker
of the demo recording.

A recording is a folder with a ``manifest.json``::

    {"fps": 5, "die": "seafall",
     "frames": [{"file": "empty.jpg", "repeat": 6}, {"file": "roll-1-hand.jpg"}, ...],
     "rolls": [{"faces": ["standard", "strong"], "settled": "roll-1-settled.jpg"}]}

Each frame entry is shown ``repeat`` times (a still tray is the same picture again and
again, so the folder stays small), at ``fps`` frames per second on the injected clock;
with ``loop`` the recording starts over at the end. ``rolls`` says what each settled roll
shows, for tests and for the docs.

``python -m web.runtime.recording DIR`` makes the demo recording: synthetic SeaFall symbol
dice (:mod:`vision.synthetic`) rolled by a hand, tumbling (motion blur) and settling. Only
rolls that a profile enrolled the demo's way (:func:`enroll_demo_profile`, which the demo
runs at start) reads with certainty and right are kept, so the demo applies them at once.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.enrollment import Profile
from vision.reader import DiceReader
from vision.sources import Frame, FrameSource, SourceError
from vision.synthetic import Setting, enrolment_crops, random_faces, tray_photo

MANIFEST = "manifest.json"


@dataclass(frozen=True)
class Recording:
    folder: Path
    fps: float
    die: str
    frames: tuple[tuple[str, int], ...]  # (file, repeat)
    rolls: tuple[dict[str, Any], ...]

    @classmethod
    def load(cls, folder: Path) -> Recording:
        path = Path(folder) / MANIFEST
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            frames = tuple((str(f["file"]), int(f.get("repeat", 1))) for f in data["frames"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise SourceError(f"{path}: not a recording manifest ({exc})") from None
        if not frames:
            raise SourceError(f"{path}: the recording has no frames")
        for name, _ in frames:
            if not (Path(folder) / name).is_file():
                raise SourceError(f"{path}: frame {name} is missing")
        return cls(Path(folder), float(data.get("fps", 5)), str(data.get("die", "d6")),
                   frames, tuple(data.get("rolls", ())))

    @property
    def length(self) -> int:
        """Frames in one pass."""
        return sum(r for _, r in self.frames)

    @property
    def seconds(self) -> float:
        return self.length / self.fps


class RecordedSource(FrameSource):
    """Plays a :class:`Recording`, paced at its frame rate on ``clock`` (``pace`` waits;
    tests pass a manual clock and a ``pace`` that moves it)."""

    def __init__(self, recording: Recording, *, loop: bool = True,
                 clock: Callable[[], float] = time.monotonic,
                 pace: Callable[[float], Any] = time.sleep) -> None:
        super().__init__(clock)
        self.recording = recording
        self.name = f"recording:{recording.folder.name}"
        self.loop = loop
        self._pace = pace
        self._plan = [name for name, repeat in recording.frames for _ in range(repeat)]
        self._next = 0
        self._due: float | None = None
        self._cached: tuple[str, np.ndarray] | None = None

    def read(self) -> Frame | None:
        self._check_open()
        if self._next >= len(self._plan):
            if not self.loop:
                return None
            self._next = 0
        now = self._clock()
        if self._due is None:
            self._due = now
        elif now < self._due:
            self._pace(self._due - now)
        self._due = max(self._due, now) + 1.0 / self.recording.fps
        name = self._plan[self._next]
        self._next += 1
        return self._frame(self._image(name), f"{self.name}/{name}")

    def _image(self, name: str) -> np.ndarray:
        if self._cached is None or self._cached[0] != name:
            image = cv2.imread(str(self.recording.folder / name), cv2.IMREAD_COLOR)
            if image is None:
                raise SourceError(f"{self.recording.folder / name}: not a readable image")
            self._cached = (name, image)
        return self._cached[1]

    def reopen(self) -> None:
        super().reopen()
        self._next = 0
        self._due = None


# -- making the demo recording -------------------------------------------------------------

SIZE = (800, 600)
DIE_PX = 38  # the reader's default framing: a die about 6.4% of the shorter side


def hand_over(frame: np.ndarray, reach: float, seed: int) -> np.ndarray:
    """A skin-coloured arm and hand reaching ``reach`` (0..1) up from the bottom edge."""
    out = frame.copy()
    h, w = out.shape[:2]
    tip = int(h * (1 - reach))
    arm = np.array([[w * 0.42, h], [w * 0.40, tip + 50], [w * 0.47, tip], [w * 0.58, tip + 15],
                    [w * 0.60, h]], np.int32)
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [arm], 255)
    cv2.circle(mask, (int(w * 0.5), tip + 35), 55, 255, -1)
    skin = np.empty_like(out)
    skin[:] = (120, 150, 205)
    noise = np.random.default_rng(seed).normal(0, 6, out.shape)
    skin = np.clip(skin + noise, 0, 255).astype(np.uint8)
    out[mask > 0] = skin[mask > 0]
    return out


def motion_blurred(image: np.ndarray, length: int) -> np.ndarray:
    """The image smeared sideways over ``length`` pixels, as a die tumbling."""
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    return cv2.filter2D(image, -1, kernel)


def enroll_demo_profile(seed: int = 7, per_face: int = 10) -> Profile:
    """A SeaFall profile enrolled from synthetic crops, as a player would from their dice."""
    crops = enrolment_crops(np.random.default_rng(seed), per_face, size=SIZE, die_px=DIE_PX)
    return Profile.from_crops("seafall-demo", "seafall", crops)


def _encode(image: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])[1].tobytes()


SPARE = 0.03
"""Room a kept roll's dice must have above the profile's thresholds."""


def make_recording(folder: Path, rolls: int = 3, dice: int = 2, seed: int = 2026,
                   fps: float = 5.0) -> Recording:
    """Write the demo recording (frames, profile, manifest) into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    profile = enroll_demo_profile()
    # kept rolls must read certain with room to spare: a die just past the profile's
    # thresholds could fall below them on another machine's arithmetic
    reader = DiceReader("seafall", profile=replace(
        profile, min_similarity=profile.min_similarity + SPARE,
        min_margin=profile.min_margin + SPARE))
    rng = np.random.default_rng(seed)
    # one camera over one tray: every frame in the same light (a tray whose light changed
    # between throws is no tray a hand could be told from by its shape)
    setting = Setting.draw(rng, SIZE)
    empty = tray_photo(rng, [], size=SIZE, die_px=DIE_PX, setting=setting).image
    (folder / "empty.jpg").write_bytes(_encode(empty))
    frames: list[dict[str, Any]] = []
    made: list[dict[str, Any]] = []
    while len(made) < rolls:
        faces = random_faces(rng, dice)
        settled = tray_photo(rng, faces, size=SIZE, die_px=DIE_PX, setting=setting)
        # the file holds these very bytes: encoded again, the picture read would not be
        # the one checked here (a blank die read sure here was unsure in the file)
        settled_jpeg = _encode(settled.image)
        image = cv2.imdecode(np.frombuffer(settled_jpeg, np.uint8), cv2.IMREAD_COLOR)
        read = reader.read(image)
        if not read.is_certain or sorted(read.faces) != sorted(faces) or read.warnings:
            continue  # the demo shows rolls its profile reads with certainty
        n = len(made) + 1
        names = {
            "hand": f"roll-{n}-hand.jpg", "tumble-1": f"roll-{n}-tumble-1.jpg",
            "tumble-2": f"roll-{n}-tumble-2.jpg", "settled": f"roll-{n}-settled.jpg",
            "pickup": f"roll-{n}-pickup.jpg",
        }
        tumbling = [tray_photo(rng, random_faces(rng, dice), size=SIZE, die_px=DIE_PX,
                               setting=setting).image for _ in range(2)]
        files = {
            "hand": _encode(hand_over(empty, 0.45, seed=n)),
            "tumble-1": _encode(motion_blurred(tumbling[0], 15)),
            "tumble-2": _encode(motion_blurred(tumbling[1], 7)), "settled": settled_jpeg,
            "pickup": _encode(hand_over(image, 0.6, seed=100 + n)),
        }
        for key, name in names.items():
            (folder / name).write_bytes(files[key])
        frames += [{"file": "empty.jpg", "repeat": int(fps * 2)},
                   {"file": names["hand"], "repeat": 2},
                   {"file": names["tumble-1"]}, {"file": names["tumble-2"]},
                   {"file": names["settled"], "repeat": int(fps * 4)},
                   {"file": names["pickup"], "repeat": 2}]
        made.append({"faces": list(read.faces), "settled": names["settled"]})
    manifest = {
        "about": "Demo recording for `tableside serve --demo`: synthetic SeaFall symbol dice "
                 "(vision/synthetic.py) rolled by a hand, tumbling and settling, looping. "
                 "Made by `python -m web.runtime.recording web/runtime/demo`; the demo enrolls "
                 "its SeaFall profile from synthetic crops at start (enroll_demo_profile).",
        "fps": fps, "die": "seafall", "size": list(SIZE),
        "frames": frames, "rolls": made,
    }
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return Recording.load(folder)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Make the demo dice recording.")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--rolls", type=int, default=3)
    parser.add_argument("--dice", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    rec = make_recording(args.folder, args.rolls, args.dice, args.seed)
    print(f"{rec.folder}: {rec.length} frames ({rec.seconds:.0f} s a loop), rolls "
          + "; ".join(" ".join(r["faces"]) for r in rec.rolls))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
