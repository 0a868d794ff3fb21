"""Finding custom-face dice: the body detector and the die-or-not check.

The packaged detector (``dice_centres.onnx``) learned dice from pip dice, and partly by
their pips: it misses about a quarter of SeaFall's blank faces. Dice read by a profile
(SeaFall's, or any enrolled die) are found instead by the **body detector**
(``dice_bodies.onnx``: the same network trained with the marks wiped off some dice,
``train_detector --blank``), which finds a die by its body, and then the **die-or-not
check** (``die_or_not.onnx``, ``vision/training/train_dieornot.py``) drops what that
detector takes for a die and is not one: round grey blobs on a tray, coins, print. The d6
face network needs neither: its own *none* class does the check for pip dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np

from vision.dicefinder import THRESHOLD, DiceFinder, loaded_finder
from vision.facenet import prepare, softmax
from vision.onnxmodel import OnnxModel

__all__ = ["BODIES_PATH", "BODY_THRESHOLD", "DIE_FROM", "INPUT_PX", "MODEL_PATH",
           "WIDE_BODIES_PATH", "DieOrNot", "body_dice_finder", "default_die_or_not",
           "wide_body_dice_finder"]

MODEL_PATH = Path(__file__).parent / "models" / "die_or_not.onnx"
BODIES_PATH = Path(__file__).parent / "models" / "dice_bodies.onnx"

WIDE_BODIES_PATH = Path(__file__).parent / "models" / "dice_bodies_wide.onnx"
"""The body detector for a camera known to have a wide lens: its recipe with three tenths of
the windows cut from pip dice drawn as cubes through lenses of 10-80 degrees, their marks
wiped on some as on the photos' (``train_detector --blank 0.3 --floors 0.5 --cubes 0.3
--steps 2400``), used from :data:`vision.reader.WIDE_NETS_FROM` (on light floors only
until the fifty-eighth session)."""

INPUT_PX = 32
"""Side of the network's input (the reader's 64 px crop scaled down)."""

DIE_FROM = 0.4
"""A candidate is kept as a die when the check gives it at least this probability. Chosen
on the d6 val photos and 24 synthetic SeaFall trays no model learned from (seeds
5000-5023; 286 dice, 72 of them blank): from 0.2 to 0.4 it keeps every die found there and
drops all 11 round blobs the body detector takes for dice on val; 0.4 drops one more of
the 6 extra boxes on synthetic trays than 0.3, 0.5 loses a blank."""


BODY_THRESHOLD = THRESHOLD
"""The body detector's peak threshold, the pip-dice detector's own: the die-or-not check's
:data:`DIE_FROM` was placed with it. Fourteenth session, read by the enrolled d6 profile
(train and val) and the tests' SeaFall profile (64 synthetic trays, 768 dice; seeds 11,
12, 13 and 5000): at 0.2 (the d6 reader's :data:`vision.dicefinder.CHECKED_THRESHOLD`) it
found 2 more val dice and 2 more train dice, and 4 more on the trays (2 read sure and
right), but made 1 more false detection on train and 2 on the trays; with DIE_FROM at 0.5
or 0.6, still the one on train and one on the trays. At 0.25, 1 more val die (left
uncertain) and 1 more false detection on the trays. Not kept."""


class DieOrNot:
    """The ONNX die-or-not network (``engine``: see :mod:`vision.onnxmodel`)."""

    def __init__(self, path: str | Path = MODEL_PATH, engine: str | None = None) -> None:
        self.model = OnnxModel(path, "die-or-not", "vision/training/train_dieornot.py",
                               engine)
        self.path = self.model.path

    def probabilities(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """``(N,)`` probability that each crop (the reader's, of a candidate) is a die."""
        if not len(crops):
            return np.zeros(0, np.float32)
        out = self.model.run(prepare(crops, INPUT_PX))
        return softmax(out.reshape(len(crops), -1).astype(np.float32))[:, 1]


@cache
def default_die_or_not() -> DieOrNot:
    """The packaged check, loaded once per process."""
    return DieOrNot()


def body_dice_finder() -> DiceFinder:
    """The packaged body detector (:data:`BODIES_PATH`), loaded once per process."""
    return loaded_finder(BODIES_PATH, BODY_THRESHOLD)


def wide_body_dice_finder() -> DiceFinder:
    """The body detector for a wide lens (:data:`WIDE_BODIES_PATH`), loaded once per
    process, by the first reader of custom-face dice told a wide lens."""
    return loaded_finder(WIDE_BODIES_PATH, BODY_THRESHOLD)
