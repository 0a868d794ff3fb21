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


def clipped(box: Box, width: int, height: int) -> Box:
    """``box`` cut to a picture of ``width`` by ``height``: a die at the edge is boxed
    where it shows, never at a negative place or past the edge (a crop taken with a
    negative place wraps round in NumPy). A box wholly outside keeps a side of 1."""
    x, y, w, h = box
    x0, y0 = min(max(x, 0), width - 1), min(max(y, 0), height - 1)
    x1, y1 = max(min(x + w, width), x0 + 1), max(min(y + h, height), y0 + 1)
    return (x0, y0, x1 - x0, y1 - y0)


TOP_FACE_SHIFT = 0.01
"""How far readers move a custom-face die's crop out from its box's centre, per pixel of
the box's distance from the picture's centre (:func:`toward_top_face`;
``DiceReader.top_face_shift`` and :func:`vision.enroll.crops_from_photos` by default).

A camera over the tray sees every die but the one under it a little from the side: the
top face, nearer the lens, comes out further from the picture's centre than the die's foot,
and the side facing the centre shows between them, with its marks. A box of the whole die
(sides included, as detectors and labels give it) is centred between foot and top; the top
face lies ``r * h / (2 * (H - h))`` further out (``r`` the box's distance from the
picture's centre, ``h`` the die's height, ``H`` the camera's above the tray). On the d6
photos the label boxes are longer along that line by about 0.013 of ``r`` (a top face
about 0.0065 of ``r`` out), but the crops read best moved further, 0.015-0.02: moving past
the top face's centre also takes the side's marks out of the crop. So the share is
measured, not derived from a camera height.

Placed on the d6 photos (twenty-fourth session): the faces enrolled as symbols over 16
enrollments of 5 crops per face, every crop (enrolled and read) cut about its box moved
by this share of its distance from the centre; train outside the enrolled photos and
val, test not read; read sure and right, and silently wrong, at the margin of the time
(0.115):

  shift    read sure and right    silent errors    nearest face right
           train     val          train   val      train    val
  0        82.8%    82.7%         0.13%  0.19%     96.0%   96.4%   (before)
  0.01     85.8%    86.4%         0.17%  0.00%     96.8%   97.9%   (kept)
  0.015    86.5%    86.8%         0.08%  0.12%     96.9%   98.1%
  0.02     86.2%    87.4%         0.05%  0.03%     96.9%   98.2%
  0.025    85.1%    86.2%         0.06%  0.00%     96.4%   97.9%
  0.03     83.2%    83.6%         0.09%  0.00%     95.6%   96.8%
  -0.03    57.4%    61.2%         0.79%  0.31%     81.7%   85.5%   (toward the centre)

and on synthetic SeaFall trays (twenty-fifth session; the enrollment tests' profiles,
5 crops a face and after learning 20; seed 99, 16 trays, 192 dice; read sure and right /
silently wrong), drawn flat and drawn in perspective (``tray_photo(top_shift=0.02)``):

  shift    flat: enrolled   learned     perspective: enrolled   learned
  0              179 / 0    181 / 0                  176 / 0    184 / 1
  0.01           179 / 0    185 / 0                  184 / 0    187 / 0   (kept)
  0.015          180 / 0    185 / 0                  182 / 0    186 / 0
  0.02           181 / 0    183 / 0                  180 / 1    182 / 3

0.02 read the photos best but made silent errors on the perspective trays: the body
detector boxes some of those dice about their top face already (their dark side taken
for shadow), and moved further out the crop takes in the die's edge and the tray. 0.01
and 0.015 read alike (within two dice of each other) and neither made a silent error;
0.01 is kept, the further from the perspective trays' silent errors, with most of the
photos' gain. The crop then
holds the top face and its marks rather than the side turned to the centre (the enrolled
reader's commonest mistakes were such dice: a tilted 2 whose side shows pips read as 1)."""


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
