"""A small learned d6 face classifier, run on the CPU through OpenCV's DNN module.

The network (``vision/models/d6_faces.onnx``, trained by ``vision/training/train_pips.py``
on crops of the d6 photos' train split) takes the reader's die crops, scaled to
:data:`INPUT_PX` pixels and standardised, and scores seven classes: the faces ``"1"`` to
``"6"`` and :data:`NOT_A_DIE` (a detection that is tray, shadow or clutter). All the crops
of a frame go through one ``forward`` call. Nothing is downloaded: the model ships in the
package, and running it needs only OpenCV and NumPy.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.faces import D6_FACES

MODEL_PATH = Path(__file__).parent / "models" / "d6_faces.onnx"

INPUT_PX = 32
"""Side of the network's input, in pixels (a 64 px reader crop is scaled down to it)."""

NOT_A_DIE = "none"
CLASSES: tuple[str, ...] = (*D6_FACES, NOT_A_DIE)


class ModelError(RuntimeError):
    """A packaged model (face network, detector, embedding) is missing or cannot be
    loaded."""


def prepare(crops: Sequence[np.ndarray]) -> np.ndarray:
    """An ``(N, 3, INPUT_PX, INPUT_PX)`` float32 blob of BGR crops, each standardised
    (zero mean, unit spread over its pixels) so that exposure and contrast matter less."""
    small = np.empty((len(crops), INPUT_PX, INPUT_PX, 3), np.uint8)
    for i, c in enumerate(crops):
        if c.ndim == 2:
            c = cv2.cvtColor(c, cv2.COLOR_GRAY2BGR)
        if c.shape[:2] != (INPUT_PX, INPUT_PX):
            c = cv2.resize(c, (INPUT_PX, INPUT_PX), interpolation=cv2.INTER_AREA)
        small[i] = c
    x = small.astype(np.float32)
    x -= x.mean(axis=(1, 2, 3), keepdims=True)
    x /= np.maximum(x.std(axis=(1, 2, 3), keepdims=True), 4.0)
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class FaceNet:
    """The ONNX face classifier loaded with ``cv2.dnn.readNetFromONNX``."""

    def __init__(self, path: str | Path = MODEL_PATH) -> None:
        p = Path(path)
        if not p.is_file():
            raise ModelError(f"{p}: face model not found (re-train: vision/training/train_pips.py)")
        engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
        try:
            if engine is None:  # OpenCV 4: one engine
                self.net = cv2.dnn.readNetFromONNX(str(p))
            else:
                # OpenCV 5's classic engine runs this small network ~35% faster than the new one
                self.net = cv2.dnn.readNetFromONNX(str(p), engine=engine)
        except cv2.error as exc:
            raise ModelError(f"{p}: cannot load the face model ({exc})") from None
        self.path = p

    def probabilities(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """``(N, len(CLASSES))`` class probabilities of the crops, in one forward pass."""
        if not len(crops):
            return np.zeros((0, len(CLASSES)), np.float32)
        self.net.setInput(prepare(crops))
        out = self.net.forward()
        return softmax(out.reshape(len(crops), -1).astype(np.float32))


@cache
def default_face_net() -> FaceNet:
    """The packaged model, loaded once per process."""
    return FaceNet()
