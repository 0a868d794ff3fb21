"""Geometry of dice boxes (``(x, y, w, h)`` in pixels): where a box's centre lies, how
much two boxes share, and a box carried from a reduced image back to the full one.

Two boxes are taken for the same die when each holds the other's centre: labels and
detections frame a die differently (a label often includes the die's sides), so an
intersection over union is a poor test of it.
"""

from __future__ import annotations

from vision.reading import Box


def centre(box: Box) -> tuple[float, float]:
    """The box's centre (x, y)."""
    return box[0] + box[2] / 2, box[1] + box[3] / 2


def centre_in(a: Box, b: Box) -> bool:
    """Whether box ``a`` holds box ``b``'s centre (its edges included)."""
    cx, cy = centre(b)
    return bool(a[0] <= cx <= a[0] + a[2] and a[1] <= cy <= a[1] + a[3])


def hold_each_other(a: Box, b: Box) -> bool:
    """Whether each box holds the other's centre (the test of one die boxed twice)."""
    return centre_in(a, b) and centre_in(b, a)


def overlap(a: Box, b: Box) -> float:
    """The boxes' intersection over the smaller one's area (0 when apart)."""
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    return w * h / max(1, min(a[2] * a[3], b[2] * b[3]))


def unscaled(box: Box, scale: float) -> Box:
    """A box in the pixels of an image reduced by ``scale``, in the full image's."""
    x, y, w, h = box
    return (round(x / scale), round(y / scale), round(w / scale), round(h / scale))
