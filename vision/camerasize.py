"""The die size a camera's frames are read at when no tray setup gives one, learned from
its rolls.

A setup measures the dice (``tableside calibrate --dice``, the hardware card's "Measure
the dice"); without one the reader assumes the framing default
(:data:`vision.detection.DEFAULT_DIE_FRACTION` of the picture's short side), and a camera
mounted lower than that framing shows dice the detectors box in pieces, read sure and
wrong. A photo is read at the size its dice fit (:mod:`vision.dicescale`), at the cost of
up to six reads; a camera reads every roll, so :class:`CameraSize` searches once and
reads the next rolls at the size its dice fitted, searching again only when they stop
fitting it.

* Pip d6 (read by the face network): the first roll with a die read sure is read as a
  photo is (:func:`vision.dicescale.best_read`) and the size kept. The next rolls are read
  at that size, once; a roll whose boxes' median side over it leaves :data:`FIT_BAND` (the
  camera was moved, or the first roll misled) is read as a photo again and the size
  learned anew. An empty tray keeps the size.
* Dice of a profile, or not known yet, are read at the framing default, unchecked. The
  body detector boxes such dice much larger than it looks for in pieces that fit that
  size as well as dice do, so their boxes cannot teach a size; a photo's check for pieces
  (:func:`vision.dicescale.in_pieces`) each roll would catch them (drawn SeaFall dice 1.6
  times the default: 58 of 79 dice read sure and wrong became 3, and 60 of 61 at 2 times
  none), but it costs 2.3 times a read, and it takes dice and their sides under a 72
  degree lens not told to the reader for pieces (2-4 of 4 drawn trays warned). Such a
  camera is measured with a few pip dice on the tray (``tableside calibrate --dice``).
* A new frame size (another camera, or the same one set otherwise) starts over.

Measured by ``benchmarks/bench_low_camera.py``: the d6 val photos cut to 1280x720 about
their dice, as a camera lower than the framing default would show them.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace

import numpy as np

from vision.dicescale import box_fit
from vision.hands import SkinScene
from vision.reader import DiceReader
from vision.reading import TrayRead

FIT_BAND = (0.8, 1.25)
"""A learned size is kept while the median box side of a roll's dice over it lies in this
band (:func:`vision.dicescale.box_fit`; read at their own size the d6 val photos' dice
fit 0.82-1.20)."""


@dataclass
class CameraSize:
    """What one camera's rolls taught of its pip dice's size, per die (a profile of pip
    dice is read otherwise). Thread-safe; one per camera (:meth:`read` starts over for
    frames of another size)."""

    searches: int = 0
    """The rolls read as a photo is (at several sizes) so far: what the learning cost."""
    _sizes: dict[str, float] = field(default_factory=dict)
    _shape: tuple[int, int] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def size(self, die: str) -> float | None:
        """The size learned for ``die``'s pip dice (their frames' pixels), None if none."""
        with self._lock:
            return self._sizes.get(die)

    def forget(self) -> None:
        """Start over (the camera was moved, or another one plugged in)."""
        with self._lock:
            self._sizes.clear()

    def read(self, reader: DiceReader, frame: np.ndarray, frame_ref: str = "frame",
             skin_scene: SkinScene | None = None) -> TrayRead:
        """``reader``'s read of a camera frame at the size learned from the camera's rolls
        (the module's rules). A reader told its size (a setup's) reads as told."""
        if (reader.die_px is not None or reader.size_search or reader.detector != "net"
                or reader.custom_faces or reader.d6_method != "net"):  # the module's docstring
            return reader.read(frame, frame_ref, skin_scene)
        with self._lock:
            if self._shape != frame.shape[:2]:
                self._shape = frame.shape[:2]
                self._sizes.clear()
            learned = self._sizes.get(reader.die)
        if learned is not None:
            read = replace(reader, die_px=learned).read(frame, frame_ref, skin_scene)
            fit = box_fit(read, learned)
            if fit is None or FIT_BAND[0] <= fit <= FIT_BAND[1]:
                return read
        with self._lock:
            self.searches += 1
        read = replace(reader, size_search=True).read(frame, frame_ref, skin_scene)
        with self._lock:
            if read.die_px is not None and any(not d.uncertain for d in read.dice):
                self._sizes[reader.die] = read.die_px
            else:
                self._sizes.pop(reader.die, None)
        return read
