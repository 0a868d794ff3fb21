"""A small learned d6 face classifier, run on the CPU (:mod:`vision.onnxmodel`).

The network (``vision/models/d6_faces.onnx``, trained by ``vision/training/train_pips.py``
on crops of the d6 photos' train and val splits, a tenth of them blurred, smeared or
compressed as a worse camera gives them) takes the reader's die crops, scaled to
:data:`INPUT_PX` pixels and standardised, and scores seven classes: the faces ``"1"`` to
``"6"`` and :data:`NOT_A_DIE` (a detection that is tray, shadow or clutter). All the crops
of a frame go through one pass of the network. Nothing is downloaded: the model ships in
the package, and running it needs no deep-learning framework.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.faces import D6_FACES
from vision.onnxmodel import ModelError, OnnxModel

__all__ = ["CLASSES", "DARK_MODEL_PATH", "DARK_QUICK_MODEL_PATH", "INPUT_PX", "MODEL_PATH",
           "NOT_A_DIE", "QUICK_MODEL_PATH", "VIEWS", "FaceNet", "ModelError",
           "dark_face_net", "dark_quick_net", "default_face_net", "default_quick_net",
           "prepare", "softmax"]

MODEL_PATH = Path(__file__).parent / "models" / "d6_faces.onnx"

QUICK_MODEL_PATH = Path(__file__).parent / "models" / "d6_faces_quick.onnx"
"""The quick first look: a network of half the face network's cost (width 1, taught by
the face network: ``train_pips --width 1.0 --teacher``, with the face network's
``--degrade 0.1 --epochs 60``), whose surest reads the reader takes without running the
face network (``vision.pipnets.QUICK_SURE``)."""

INPUT_PX = 32
"""Side of the network's input, in pixels (a 64 px reader crop is scaled down to it)."""

VIEWS = 8
"""The views :meth:`FaceNet.view_probabilities` can score: the crop turned by 0, 180, 90
and 270 degrees (:data:`TURNS`), then the same mirrored. A d6 face reads the same in all
eight (each pip layout is its own mirror image up to a turn), so a network that reads
them differently is unsure of the die, whatever its probabilities say."""

TURNS = (0, 2, 1, 3)
"""Quarter turns of views 0-3 (and 4-7, mirrored): the half turn first, the view most
unlike the crop itself, so that a check with two views is the crop and its half turn."""

NOT_A_DIE = "none"
CLASSES: tuple[str, ...] = (*D6_FACES, NOT_A_DIE)


def prepare(crops: Sequence[np.ndarray], px: int = INPUT_PX) -> np.ndarray:
    """An ``(N, 3, px, px)`` float32 blob of BGR crops, each standardised (zero mean, unit
    spread over its pixels) so that exposure and contrast matter less."""
    x = _scaled(crops, px).astype(np.float32)
    x -= x.mean(axis=(1, 2, 3), keepdims=True)
    x /= np.maximum(x.std(axis=(1, 2, 3), keepdims=True), 4.0)
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))


def _scaled(crops: Sequence[np.ndarray], px: int) -> np.ndarray:
    """``(N, px, px, 3)`` uint8: the crops, BGR, each scaled to ``px`` by area averaging.
    Crops of one size a whole multiple of ``px`` (the reader's 64 px crops) are scaled in
    one call, stacked: their blocks never straddle two crops, so each comes out as it
    would alone."""
    crops = [cv2.cvtColor(c, cv2.COLOR_GRAY2BGR) if c.ndim == 2 else c for c in crops]
    side = crops[0].shape[0]
    if (side % px == 0 and all(c.shape == (side, side, 3) for c in crops)
            and all(c.dtype == np.uint8 for c in crops)):
        if side == px:
            return np.stack(crops)
        tall = cv2.resize(np.concatenate(crops), (px, px * len(crops)),
                          interpolation=cv2.INTER_AREA)
        return tall.reshape(len(crops), px, px, 3)
    small = np.empty((len(crops), px, px, 3), np.uint8)
    for i, c in enumerate(crops):
        small[i] = c if c.shape[:2] == (px, px) else cv2.resize(
            c, (px, px), interpolation=cv2.INTER_AREA)
    return small


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class FaceNet:
    """The ONNX face classifier (``engine``: see :mod:`vision.onnxmodel`)."""

    def __init__(self, path: str | Path = MODEL_PATH, engine: str | None = None,
                 input_px: int = INPUT_PX) -> None:
        self.model = OnnxModel(path, "face", "vision/training/train_pips.py", engine)
        self.path = self.model.path
        self.input_px = input_px
        shape = self.model.input_shape
        if shape is not None and tuple(shape[2:]) != (input_px, input_px):
            raise ModelError(f"{self.path}: the face model takes {shape[2]}x{shape[3]} px "
                             f"crops, not {input_px}x{input_px} (train_pips --input-px)")

    def probabilities(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """``(N, len(CLASSES))`` class probabilities of the crops, in one forward pass."""
        if not len(crops):
            return np.zeros((0, len(CLASSES)), np.float32)
        return self._forward(prepare(crops, self.input_px))

    def view_probabilities(self, crops: Sequence[np.ndarray], views: int = 4,
                           first: int = 0) -> np.ndarray:
        """``(N, views - first, len(CLASSES))`` probabilities of each crop seen in views
        ``first`` to ``views - 1`` of :data:`VIEWS` (view 0 is the crop as it is; the
        reader, which has it already, asks from view 1), all in one forward pass."""
        if not 0 <= first < views <= VIEWS:
            raise ValueError(f"views must be 1 to {VIEWS}, after first")
        n = views - first
        if not len(crops):
            return np.zeros((0, n, len(CLASSES)), np.float32)
        x = prepare(crops, self.input_px)
        turned = [np.rot90(x if v < 4 else x[:, :, :, ::-1], TURNS[v % 4], axes=(2, 3))
                  for v in range(first, views)]
        blob = np.ascontiguousarray(np.stack(turned, axis=1).reshape(-1, *x.shape[1:]))
        return self._forward(blob).reshape(len(crops), n, -1)

    def _forward(self, blob: np.ndarray) -> np.ndarray:
        out = self.model.run(blob)
        return softmax(out.reshape(len(blob), -1).astype(np.float32))


@cache
def default_face_net() -> FaceNet:
    """The packaged model, loaded once per process."""
    return FaceNet()


@cache
def default_quick_net() -> FaceNet:
    """The packaged quick first look (:data:`QUICK_MODEL_PATH`), loaded once per process."""
    return FaceNet(QUICK_MODEL_PATH)


DARK_MODEL_PATH = Path(__file__).parent / "models" / "d6_faces_dark.onnx"
"""The face network for dark tray floors: half its crops' floors repainted darker
(``train_pips --floors 0.5``), 40 epochs and no worse-camera draws (the light-floor
network's recipe before the forty-ninth session's ``--degrade 0.1 --epochs 60``). The
reader uses it on a frame whose floor is darker than
:data:`vision.reader.DARK_NETS_BELOW`."""

DARK_QUICK_MODEL_PATH = Path(__file__).parent / "models" / "d6_faces_quick_dark.onnx"
"""The quick first look for dark tray floors (taught by :data:`DARK_MODEL_PATH`, with
``--floors 0.5`` too)."""


@cache
def dark_face_net() -> FaceNet:
    """The face network for dark floors (:data:`DARK_MODEL_PATH`), loaded once per
    process, at the first dark frame."""
    return FaceNet(DARK_MODEL_PATH)


@cache
def dark_quick_net() -> FaceNet:
    """The quick first look for dark floors (:data:`DARK_QUICK_MODEL_PATH`)."""
    return FaceNet(DARK_QUICK_MODEL_PATH)
