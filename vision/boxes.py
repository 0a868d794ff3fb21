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


TOP_FACE_SHIFT = 0.02
"""How far a die's top face lies out from its box's centre, per pixel of the box's
distance from the picture's centre (:func:`toward_top_face`).

A camera over the tray sees every die but the one under it a little from the side: the
top face, nearer the lens, comes out further from the picture's centre than the die's foot,
and the side facing the centre shows between them. A box of the whole die (sides
included, as detectors and labels give it) is then centred between foot and top, and the
top face lies ``r * h / (2 * (H - h))`` further out, ``r`` being the box's distance from
the picture's centre, ``h`` the die's height and ``H`` the camera's above the tray. So
this is ``h / (2 * (H - h))``: 0.02 is a camera about 26 dice heights up (42 cm over 16 mm
dice; 45-60 cm, as *Setting up a table* advises, makes 0.018-0.014, the same within the
measure below). Readers use it only when told (``DiceReader.top_face_shift``, 0 by
default: ``docs/vision.md``, *Custom faces*, says why).

Placed on the d6 photos (twenty-fourth session): the faces enrolled as symbols over 16
enrollments of 5 crops per face, every crop (enrolled and read) cut about its box moved
by this share of its distance from the centre; train outside the enrolled photos and
val, test not read; read sure and right, and silently wrong, at the packaged margin:

  shift    read sure and right    silent errors    nearest face right
           train     val          train   val      train    val
  0        82.8%    82.7%         0.13%  0.19%     96.0%   96.4%   (before)
  0.01     85.8%    86.4%         0.17%  0.00%     96.8%   97.9%
  0.015    86.5%    86.8%         0.08%  0.12%     96.9%   98.1%
  0.02     86.2%    87.4%         0.05%  0.03%     96.9%   98.2%   (kept)
  0.025    85.1%    86.2%         0.06%  0.00%     96.4%   97.9%
  0.03     83.2%    83.6%         0.09%  0.00%     95.6%   96.8%
  -0.03    57.4%    61.2%         0.79%  0.31%     81.7%   85.5%   (toward the centre)

The crop then holds the top face and its marks, not the side face turned to the centre
and whatever marks that side carries (the enrolled reader's commonest mistakes were such
dice: a tilted 2 whose side shows pips read as 1)."""


def toward_top_face(box: Box, shape: tuple[int, ...], shift: float = TOP_FACE_SHIFT) -> Box:
    """``box`` moved out from the centre of a picture of ``shape`` (rows, columns, ...) by
    ``shift`` of its centre's distance from it: about the die's top face rather than its
    whole outline (:data:`TOP_FACE_SHIFT`). The size is kept."""
    if not shift:
        return box
    x, y, w, h = box
    cx, cy = centre(box)
    return (round(x + shift * (cx - shape[1] / 2)), round(y + shift * (cy - shape[0] / 2)),
            w, h)
