"""The value the vision package hands out: what it saw in one frame.

A :class:`TrayRead` holds one :class:`DieRead` per die found, each with its face label, a
confidence in [0, 1], an ``uncertain`` flag (the table must confirm that die), its box in
the frame's own pixels and, as evidence, the crop it was read from. The read keeps a
reference to its frame (a path, or a source name and frame index) and, when asked, the
frame itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class DieRead:
    """One die: face label, confidence, whether the table must confirm it, box, evidence."""

    face: str
    confidence: float
    uncertain: bool
    box: Box
    crop: np.ndarray | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "face": self.face,
            "confidence": round(float(self.confidence), 3),
            "uncertain": bool(self.uncertain),
            "box": [int(v) for v in self.box],
        }


@dataclass(frozen=True)
class TrayRead:
    """Every die found in one frame, read as faces of ``die``."""

    die: str
    dice: tuple[DieRead, ...]
    frame_ref: str
    ms: float = 0.0
    frame: np.ndarray | None = field(default=None, compare=False, repr=False)
    warnings: tuple[str, ...] = ()
    jpeg_quality: int | None = None
    """The JPEG quality the frame shows about its dice (the common JPEG library's scale;
    :func:`vision.compression.dice_jpeg_quality`), None when it shows no compression or
    was not measured (no die read, or faces not known yet)."""
    sure_from: float = 0.0
    """The least confidence at which the reader read a die sure in this frame for its
    compression (:func:`vision.compression.compressed_sure_from`), 0 when that asked for
    nothing more than the reader's own rule."""
    die_px: float | None = None
    """The die size the frame was read at, in its own pixels (the setup's, the framing
    default, or the size a search kept: :mod:`vision.dicescale`); None for a read made
    otherwise than by :class:`vision.reader.DiceReader`."""

    @property
    def faces(self) -> tuple[str, ...]:
        return tuple(d.face for d in self.dice)

    @property
    def confidences(self) -> tuple[float, ...]:
        return tuple(d.confidence for d in self.dice)

    @property
    def is_certain(self) -> bool:
        """True when no die needs confirming."""
        return not any(d.uncertain for d in self.dice)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "die": self.die,
            "dice": [d.to_json() for d in self.dice],
            "frame": self.frame_ref,
            "ms": round(self.ms, 1),
        }
        if self.warnings:
            out["warnings"] = list(self.warnings)
        if self.jpeg_quality is not None:
            out["jpeg_quality"] = self.jpeg_quality
            out["sure_from"] = round(self.sure_from, 3)
        return out


WARNED_CONFIDENCE = 0.2
"""The confidence every die of a read that carries a warning is left with, at most."""


def left_to_the_table(read: TrayRead, warning: str) -> TrayRead:
    """``read`` with ``warning`` added and every die uncertain, its confidence at most
    :data:`WARNED_CONFIDENCE`: what is wrong with the whole read is said once, and the
    players confirm the dice instead of trusting them."""
    dice = tuple(replace(d, confidence=min(d.confidence, WARNED_CONFIDENCE), uncertain=True)
                 for d in read.dice)
    return replace(read, dice=dice, warnings=(*read.warnings, warning))
