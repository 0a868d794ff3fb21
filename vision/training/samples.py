"""Training samples of the crop networks (the d6 face network, the die-or-not check): a
patch of a photo about one die or one piece of tray, and the darker-floor repaint of a
patch. Torch-free, so that the repaint is tested where no training framework is
installed."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.detection import BOX_TO_DIE
from vision.synthetic import darker_floor


@dataclass
class Sample:
    patch: np.ndarray  # BGR, the die's centre at the patch's centre
    side: float  # the box side, in patch pixels
    label: int
    photo: int = 0  # index of the photo in its split (folds are whole photos)


def label_box(s: Sample) -> np.ndarray:
    """``(1, 4)``: the die's label box (its sides included) in the sample's patch, about
    the patch's centre."""
    c = s.patch.shape[0] / 2
    side = s.side / BOX_TO_DIE
    return np.array([[c - side / 2, c - side / 2, side, side]])


def on_darker_floor(s: Sample, rng: np.random.Generator, die: bool) -> Sample:
    """The sample with its tray floor repainted a random darker colour
    (:func:`vision.synthetic.darker_floor`); a ``die`` sample's label box is kept out."""
    patch = s.patch.copy()
    darker_floor(patch, label_box(s) if die else np.zeros((0, 4)), rng)
    return Sample(patch, s.side, s.label, s.photo)
