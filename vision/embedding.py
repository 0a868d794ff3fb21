"""A generic die-face embedding, run on the CPU (:mod:`vision.onnxmodel`).

The network (``vision/models/symbol_embed.onnx``, trained by
``vision/training/train_embedding.py``) maps a reader crop of one die to a unit vector
(:data:`DIM` numbers) so that crops of the same symbol lie close together whatever the
die's colour, turn, light and blur, and crops of different symbols lie apart. It was
trained only on synthetic dice carrying random symbols (:func:`vision.glyphs.random_glyph`),
never on photos or face labels of any real die: it does not count pips or know any die's
faces. Enrolled profiles (:mod:`vision.enrollment`) keep the vectors of a few crops per
face and read a die by its nearest enrolled vectors.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np

from vision.facenet import prepare
from vision.onnxmodel import ModelError, OnnxModel

__all__ = ["DIM", "INPUT_PX", "MODEL_ID", "MODEL_PATH", "ModelError", "SymbolEmbedder",
           "default_embedder"]

MODEL_PATH = Path(__file__).parent / "models" / "symbol_embed.onnx"

DIM = 64
"""Length of an embedding vector."""

INPUT_PX = 32
"""Side of the network's input (the face network's may differ: :mod:`vision.facenet`)."""

MODEL_ID = "symbol-embed-3"
"""Names the embedding a profile's vectors come from (a re-trained model gets a new id;
a profile made with another one is made again from its crops)."""


class SymbolEmbedder:
    """The ONNX embedding network (``engine``: see :mod:`vision.onnxmodel`)."""

    def __init__(self, path: str | Path = MODEL_PATH, engine: str | None = None) -> None:
        self.model = OnnxModel(path, "embedding", "vision/training/train_embedding.py", engine)
        self.path = self.model.path

    def embed(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """``(N, DIM)`` unit vectors of BGR crops, in one forward pass."""
        if not len(crops):
            return np.zeros((0, DIM), np.float32)
        v = self.model.run(prepare(crops, INPUT_PX)).reshape(len(crops), -1).astype(np.float32)
        return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-6)


@cache
def default_embedder() -> SymbolEmbedder:
    """The packaged model, loaded once per process."""
    return SymbolEmbedder()
