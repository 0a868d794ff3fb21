"""The dice reads' whole pictures (frames) on disk, kept within a budget (docs/runtime.md,
"Storage").

A frame is 100-500 kB; a Pi's memory card holds a few thousand before it matters. Beyond
the budget the oldest frames are first written again at :data:`REDUCED_SIDE` pixels
(``frame-reduced.jpg``, a tenth of the bytes: the roll can still be seen, the proof of it
kept) and the reduced ones are kept within :data:`REDUCED_SHARE` of the budget by deleting
the oldest of them. A pending read's frame is never touched (the table has not looked at
it yet), and the dice's crops never are (a profile learns from them).

Which frame is which is the file's name, so nothing needs remembering across a restart:
the bytes are summed from the files when first asked.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

import cv2

from web.runtime.images import jpeg, shrink

FULL, REDUCED = "frame.jpg", "frame-reduced.jpg"
REDUCED_SIDE = 480  # pixels, the longest side of a reduced frame
REDUCED_SHARE = 0.25  # of the budget, for the reduced frames; the full ones have the rest

# the reads that may lose a frame, oldest first: (rowid, read id) after a rowid
Candidates = Callable[[int], Iterable[tuple[int, str]]]


def size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:  # not there (reduced, let go, or never written)
        return 0


class Frames:
    """The frames under ``files/<read id>/``; every method is called with the read store's
    lock held."""

    def __init__(self, files: Path, budget: int) -> None:
        if budget < 0:
            raise ValueError("the frames' budget is a number of bytes, 0 or more")
        self.files = files
        self.budget = budget
        self._bytes: dict[str, int] | None = None
        # rowids up to which the reads were looked at, for each step (a read pending then and
        # applied since is looked at again after a restart)
        self._after = {FULL: 0, REDUCED: 0}

    def sizes(self) -> dict[str, int]:
        """The bytes of the full frames and of the reduced ones."""
        if self._bytes is None:
            self._bytes = {name: sum(size(p) for p in self.files.glob(f"*/{name}"))
                           for name in (FULL, REDUCED)}
        return self._bytes

    def total(self) -> int:
        return sum(self.sizes().values())

    def path(self, read_id: str) -> Path | None:
        """The read's frame: full, else reduced, else None (let go)."""
        for name in (FULL, REDUCED):
            if (self.files / read_id / name).is_file():
                return self.files / read_id / name
        return None

    def added(self, read_id: str) -> None:
        """A new read's full frame was written."""
        if self._bytes is not None:  # else summed when first asked, this one among them
            self._bytes[FULL] += size(self.files / read_id / FULL)

    def dropped(self, read_id: str) -> None:
        """The read's folder is about to be removed (a superseded read)."""
        if self._bytes is not None:
            for name in (FULL, REDUCED):
                self._bytes[name] -= size(self.files / read_id / name)

    def fit(self, candidates: Candidates) -> None:
        """Reduce and let go of the oldest frames until those kept fit the budget."""
        sizes = self.sizes()
        while sum(sizes.values()) > self.budget:
            steps = (self._let_go, self._reduce)
            if sizes[REDUCED] <= self.budget * REDUCED_SHARE:
                steps = steps[::-1]
            if not any(step(candidates) for step in steps):
                return  # only pending reads' frames are left

    def _oldest(self, name: str, candidates: Candidates) -> Path | None:
        for rowid, read_id in candidates(self._after[name]):
            self._after[name] = rowid
            path = self.files / read_id / name
            if path.is_file():
                return path
        return None

    def _reduce(self, candidates: Candidates) -> bool:
        full = self._oldest(FULL, candidates)
        if full is None:
            return False
        before = size(full)
        image = cv2.imread(str(full), cv2.IMREAD_COLOR)
        reduced = full.with_name(REDUCED)
        if image is not None:  # an unreadable one is only let go
            part = full.with_name(REDUCED + ".part")
            try:
                part.write_bytes(jpeg(shrink(image, REDUCED_SIDE), quality=75))
                os.replace(part, reduced)
            except OSError:  # no room for it: the full one goes all the same
                part.unlink(missing_ok=True)
        full.unlink(missing_ok=True)
        assert self._bytes is not None
        self._bytes[FULL] -= before
        self._bytes[REDUCED] += size(reduced)
        return True

    def _let_go(self, candidates: Candidates) -> bool:
        reduced = self._oldest(REDUCED, candidates)
        if reduced is None:
            return False
        assert self._bytes is not None
        self._bytes[REDUCED] -= size(reduced)
        reduced.unlink(missing_ok=True)
        return True
