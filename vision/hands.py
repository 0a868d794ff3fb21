"""Hands in the tray, told by their skin colour from a tray or table that has it too.

A hand is a patch of skin colour (a broad YCrCb range) over :data:`HAND_SHARE` of a small
copy of the frame. Wood, cork, tan leather and kraft paper lie in that range, and so does a
light grey tray under a warm lamp: read by colour alone, such a tray is a hand that never
leaves, and the tray never settles. Two rules keep the floor and the table from being a
hand; nothing here knows what a hand looks like beyond its colour.

* **Skin colour over** :data:`FLOOR_SHARE` **of the picture is the floor** (a wooden
  tray, a wooden table round it, a warm lamp), not a hand: a hand seen from above over a
  tray is a fifth of the picture or less. Needs no memory, so a single photo is read so
  too; in it, a hand on such a floor is not told from it.
* **Skin colour all along an edge of the picture is a table** round the tray, as far in
  as it runs along the whole edge (:data:`EDGE_SHARE`): a camera framing a tray loosely
  sees a wooden table's edge. A hand reaches in across an edge, not along it; the part of
  it over the tray is still a hand.
* **A scene** (:class:`SkinScene`): a picture of the tray with no hand in it, and where it
  shows skin colour (a wooden floor, a table's edge in view, a pine-coloured die). Skin
  that the scene shows, looking as it did there (the light's overall change taken out), is
  the scene's; what differs from it is a hand. The settle detector takes the empty tray's
  check as its first scene, and the tray as it is each time it settles.

Skin colour misses the lightest and the deepest skin tones (of the ten of the Monk Skin
Tone scale, 1-3 and 9-10 lie outside the range), and gloves and sleeves. So a hand is also
told by its shape (:func:`reaching_share`): a large blob unlike the tray as it last looked
clear, in grey or in colour (:meth:`SkinScene.tinted`), reaching in from the picture's edge.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.filters import area_shrunk
from vision.lampcast import median_colour

ANALYSIS_WIDTH = 160
"""Width of the small colour copy hands are looked for in: a hand is a large patch."""

SKIN_LOW = (40, 138, 80)
SKIN_HIGH = (250, 175, 125)
"""The skin-colour range (Y, Cr, Cb), broad: light and dark skin, in warm and cool light."""

HAND_SHARE = 0.01
"""A patch of skin colour over this share of the picture is a hand (the settle detector's
default ``hand_threshold``, and the reader's)."""

FLOOR_SHARE = 0.5
"""Skin colour over this share of the picture, in all, is the floor, the table or the
light (a wooden or cork tray, a wooden table round a tray, a warm lamp), not a hand: a
hand and forearm seen from above over a tray cover a fifth of the picture or less. On such
a floor a hand is told by its motion, and by the scene once the tray has settled. (In all,
not the largest patch: a dark-walled tray parts a wooden floor from the wooden table round
it, each under half.)"""

EDGE_SHARE = 0.6
"""Rows (or columns) at an edge of the picture, and each next one in, whose pixels are
skin-coloured over this share of their length are a table's edge in view, not a hand: a
forearm crossing the edge covers a third of it or less."""

SCENE_DISTANCE = 8.0
"""A pixel looks as it did in the scene when its YCrCb differs from the scene's by at most
this (Y counted half: shading varies more than colour), once the picture's overall change
since (its median change in each channel: a camera's exposure, a lamp) is taken out. The
small copy averages some 40 pixels of a 720p frame into one, so a camera's noise moves a
pixel by a level or two; a hand over pine differs from it by 11 or more."""

Y_WEIGHT = 0.5
"""Weight of brightness (Y) against the colour axes in :data:`SCENE_DISTANCE`."""

FLOOR_TINT = 0.05
"""How near a pixel's colour for its brightness (Cr and Cb less 128, over Y) lies to the
picture's median's to be the floor's colour, lit or shaded (:func:`floor_coloured`): 8
levels of Cr or Cb on a floor of Y 160, :data:`SCENE_DISTANCE`'s colour part."""

TINT_DELTA = 12.0
"""Levels of Cr or Cb by which a pixel's colour differs from the scene's to be part of a
hand told by its shape (:meth:`SkinScene.tinted`), beside the grey levels the settle
detector compares."""


def small_colour(frame: np.ndarray) -> np.ndarray:
    """A BGR frame (or a grey or BGRA one) at :data:`ANALYSIS_WIDTH`, in BGR."""
    h, w = frame.shape[:2]
    size = (ANALYSIS_WIDTH, max(1, round(h * ANALYSIS_WIDTH / w)))
    small = area_shrunk(frame, size)
    if small.ndim == 2:
        return cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    if small.shape[2] == 4:
        return cv2.cvtColor(small, cv2.COLOR_BGRA2BGR)
    return small


def skin_mask(ycrcb: np.ndarray) -> np.ndarray:
    """``uint8`` 0/255: the pixels of a YCrCb picture in the skin range, specks removed."""
    mask = cv2.inRange(ycrcb, SKIN_LOW, SKIN_HIGH)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def largest_share(mask: np.ndarray) -> float:
    """The share of the picture the largest patch of ``mask`` (non-zero) covers."""
    return largest_patch(mask)[1]


def largest_patch(mask: np.ndarray) -> tuple[np.ndarray | None, float]:
    """The largest patch of ``mask`` (non-zero; ``uint8``) as a ``bool`` mask, and the
    share of the picture it covers: (None, 0.0) when there is none."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if n <= 1:
        return None, 0.0
    best = int(np.argmax(stats[1:, cv2.CC_STAT_AREA])) + 1
    return labels == best, float(stats[best, cv2.CC_STAT_AREA]) / mask.size


def hand_share(small: np.ndarray, scene: SkinScene | None = None) -> float:
    """The share of ``small`` (BGR, :func:`small_colour`) that the largest patch of skin
    colour covers which is not ``scene``'s (:meth:`SkinScene.explains`); 0 when such skin
    colour covers over :data:`FLOOR_SHARE` of it (the floor)."""
    return hand_patch(small, scene)[1]


def hand_patch(small: np.ndarray,
               scene: SkinScene | None = None) -> tuple[np.ndarray | None, float]:
    """:func:`hand_share`'s patch as a ``bool`` mask, and its share (None, 0.0 when there
    is none)."""
    return skin_patch(cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb), scene)


def skin_patch(ycrcb: np.ndarray,
               scene: SkinScene | None = None) -> tuple[np.ndarray | None, float]:
    """:func:`hand_patch` of the small copy in YCrCb (converted once a frame by a caller
    that needs it for more)."""
    mask = skin_mask(ycrcb)
    if scene is not None and scene.fits(ycrcb):
        mask[scene.explains(ycrcb)] = 0
    if cv2.countNonZero(mask) > FLOOR_SHARE * mask.size:
        return None, 0.0  # the floor (with the table round it, if it is wood too)
    if scene is None:
        mask[floor_coloured(ycrcb)] = 0
    table_edges(mask)  # after the scene: what it explains is no table's, nor a hand's
    return largest_patch(mask)


def floor_coloured(ycrcb: np.ndarray) -> np.ndarray:
    """``bool``: the pixels of a picture (YCrCb) that are its floor's colour, lit or shaded,
    where that colour lies near enough to skin to be taken for it in part: within
    :data:`SCENE_DISTANCE` of the skin range (Cr and Cb of the picture's median). A light
    grey tray under a strong warm lamp (a camera's white balance leaving red up and blue
    down) lies on the range's edge, and the camera's noise and the light's fall-off put
    some of it in and some out: under half the picture, so no floor by
    :data:`FLOOR_SHARE`, its pieces were a hand. A pixel is of the floor's colour when its
    colour for its brightness (Cr and Cb less grey's, over Y: the same for the floor in
    full light and in shade) lies within :data:`FLOOR_TINT` of the median's. A hand is of
    another colour than the floor under the same lamp, so it stays."""
    median = median_colour(ycrcb)
    low, high = np.array(SKIN_LOW, np.float32), np.array(SKIN_HIGH, np.float32)
    if (np.maximum(np.maximum(low - median, median - high), 0.0)[1:] > SCENE_DISTANCE).any():
        return np.zeros(ycrcb.shape[:2], bool)  # the floor's colour is far from skin
    y, cr, cb = cv2.split(ycrcb.astype(np.float32))
    y = np.maximum(y, 1.0)
    tint = max(float(median[0]), 1.0)
    dcr = (cr - 128.0) / y - (median[1] - 128.0) / tint
    dcb = (cb - 128.0) / y - (median[2] - 128.0) / tint
    return dcr * dcr + dcb * dcb <= FLOOR_TINT ** 2


def table_edges(mask: np.ndarray) -> None:
    """Clear, in place, the skin-coloured rows and columns of ``mask`` that run along an
    edge of the picture (:data:`EDGE_SHARE`): a table's edge in view. From each edge
    inward, as long as each next row (or column) is skin-coloured over that share."""
    # OpenCV's row and column means (of 0 or 255): NumPy's took 0.07 ms a frame, a
    # twentieth of the settle detector's
    line = 255 * EDGE_SHARE
    rows = cv2.reduce(mask, 1, cv2.REDUCE_AVG, dtype=cv2.CV_32F).ravel() >= line
    columns = cv2.reduce(mask, 0, cv2.REDUCE_AVG, dtype=cv2.CV_32F).ravel() >= line
    for along, lines in ((rows, mask), (columns, mask.T)):
        n = len(along)
        top = int(np.argmin(along)) if not along.all() else n
        bottom = int(np.argmin(along[::-1])) if not along.all() else n
        lines[:top] = 0
        lines[n - bottom:] = 0


def hand_fraction(frame: np.ndarray, scene: SkinScene | None = None) -> float:
    """:func:`hand_share` of a frame (any size; looked at :data:`ANALYSIS_WIDTH` wide)."""
    return hand_share(small_colour(frame), scene)


@dataclass(frozen=True, eq=False)
class SkinScene:
    """The tray with no hand in it, as :func:`small_colour` shows it: its YCrCb and where
    it is skin-coloured (a wooden floor or table, a die of that colour)."""

    ycrcb: np.ndarray
    skin: np.ndarray
    """``bool``: where the scene is skin-coloured."""

    @classmethod
    def of(cls, small: np.ndarray) -> SkinScene:
        """The scene a small BGR copy (:func:`small_colour`) shows."""
        ycrcb = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)
        return cls(ycrcb, skin_mask(ycrcb) > 0)

    @property
    def skin_share(self) -> float:
        """The share of the scene that is skin-coloured."""
        return float(self.skin.mean())

    def fits(self, ycrcb: np.ndarray) -> bool:
        """Whether a picture is of the scene's size (another camera mode is not)."""
        return ycrcb.shape == self.ycrcb.shape

    def explains(self, ycrcb: np.ndarray) -> np.ndarray:
        """``bool``: the pixels of a YCrCb picture of the scene's size that are skin in the
        scene and look as they did there (:data:`SCENE_DISTANCE`, the picture's overall
        change taken out)."""
        if not self.skin.any():
            return self.skin
        moved = self._moved(ycrcb)
        weights = np.array([[Y_WEIGHT ** 2, 1.0, 1.0]], np.float32)
        distance = cv2.transform(cv2.multiply(moved, moved), weights)  # squared
        return self.skin & (distance <= SCENE_DISTANCE ** 2)

    def tinted(self, ycrcb: np.ndarray) -> np.ndarray:
        """``bool``: the pixels of a YCrCb picture of the scene's size whose colour (Cr or
        Cb, brightness left out) differs from the scene's by over :data:`TINT_DELTA`, the
        picture's overall change taken out: a hand whose brightness the floor under it
        happens to share (an arm over a tray's white wall under a warm lamp)."""
        moved = self._moved(ycrcb)
        return np.maximum(np.abs(moved[..., 1]), np.abs(moved[..., 2])) > TINT_DELTA

    def _moved(self, ycrcb: np.ndarray) -> np.ndarray:
        """``float32``: a picture's YCrCb less the scene's, less the median of that in each
        channel (the picture's overall change: a camera's exposure, a lamp)."""
        # OpenCV's per-channel arithmetic: NumPy's broadcasting over 3 channels took 0.3 ms
        diff = cv2.subtract(ycrcb, self.ycrcb, dtype=cv2.CV_32F)
        step = max(1, int(np.sqrt(diff.shape[0] * diff.shape[1] / 3600)))
        shift = np.median(diff[::step, ::step].reshape(-1, 3), axis=0)
        return cv2.subtract(diff, (*(float(v) for v in shift), 0.0))


REACH_MOST = 0.5
"""A change over more than this share of the picture is no hand reaching in (a hand and
forearm from above are a fifth of it or less) but the camera or the tray moved, or the
light: :func:`reaching_share` gives 0 for it."""


def reaching_share(unlike: np.ndarray, die: float) -> float:
    """The share of the picture that :func:`reaching_blob`'s blob covers (its own pixels),
    0 when there is none."""
    found = reaching_blob(unlike, die)
    return 0.0 if found is None else found[1]


def reaching_blob(unlike: np.ndarray, die: float) -> tuple[np.ndarray, float] | None:
    """A hand of any skin tone, or a sleeve or glove, by its shape: the largest blob of
    ``unlike`` (``bool`` or 0/1: where the picture differs from the tray as it last looked
    clear) larger than six dice (``die``: a die's size in its pixels) that reaches the
    picture's edge (a hand from above comes in on an arm that crosses the edge; dice lie
    inside the tray), as (``bool`` mask of the blob, its pieces joined; the share of the
    picture its own pixels cover). A hand that differs little from the floor is seen in
    pieces (the floor's grain, the hand's shading), so pieces less than half a die apart
    are one blob, and within a die of the edge reaches it. None when no blob does, or
    when the change covers over :data:`REACH_MOST` of the picture."""
    mask = unlike.astype(np.uint8)
    if cv2.countNonZero(mask) > REACH_MOST * mask.size:
        return None
    k = max(3, int(die / 2) | 1)
    joined = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(joined)
    if n <= 1:
        return None
    area = np.bincount(labels[mask > 0], minlength=n)[1:]  # the blob's own pixels
    h, w = mask.shape
    x, y = stats[1:, cv2.CC_STAT_LEFT], stats[1:, cv2.CC_STAT_TOP]
    right = x + stats[1:, cv2.CC_STAT_WIDTH]
    bottom = y + stats[1:, cv2.CC_STAT_HEIGHT]
    edge = (x <= die) | (y <= die) | (right >= w - die) | (bottom >= h - die)
    reaching = np.where(edge & (area > 6 * die * die), area, 0)
    if not reaching.any():
        return None
    best = int(np.argmax(reaching))
    return labels == best + 1, float(reaching[best]) / mask.size


SOFT_EDGE = 0.25
"""A change whose outline rises by less than this share of its depth a pixel is a
shadow's or the light's (:func:`soft_edged`). At :data:`ANALYSIS_WIDTH` a hand's outline
rises by 0.34-0.38 of its depth a pixel (the tests' hand in tones 1, 3, 6, 9 and 10 of
the Monk scale on the photos' sheet, grey, dark grey and oak floors); a shadow whose
penumbra is a hundredth of the frame wide by 0.22-0.23, a wider one by under 0.17 (a
player leaning over a lamp-lit table casts one some dice wide). A crisp shadow (a bare
bulb's, the sun's) rises as a hand does: it holds the read back as a hand would."""

SOFT_QUANTILE = 75
"""The percentile of the outline's slope :func:`soft_edged` judges: its steepest quarter.
Judged at its middle (50), the parts of a hand's outline that match the floor's grey
brought the least of the tests' hands down to 0.19 of its depth, among the shadows."""

SHADE_LEAST = 12.0
"""Grey levels: a blob that differs from the tray by less than this (its median) differs
in colour more than in light: no shadow (:func:`soft_edged`)."""


def soft_edged(diff: np.ndarray, blob: np.ndarray) -> bool:
    """Whether a change over ``blob`` (``bool``, :func:`reaching_blob`'s) is a shadow's or
    the light's rather than a hand's: ``diff`` (``float32`` grey: the picture less the
    tray as it last looked clear, the light's overall change taken out) is deep over it
    (:data:`SHADE_LEAST`) and rises to it softly at its outline (:data:`SOFT_EDGE`; the
    steepest quarter of the outline, :data:`SOFT_QUANTILE`, its holes and the picture's
    own border left out). A player leaning over the table shades the tray from its edge
    as a hand reaches in from it, but the shadow's edge is soft (a lamp is no point) and
    the hand's is its outline."""
    b = blob.astype(np.uint8)
    # its outline only: the dice lying in a shadow (thrown there, or moved since the tray
    # settled) leave holes in it whose edges are theirs
    outer, _ = cv2.findContours(b, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    whole = cv2.drawContours(np.zeros_like(b), outer, -1, 1, cv2.FILLED)
    ring = cv2.morphologyEx(whole, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)) > 0
    ring[0, :] = ring[-1, :] = False
    ring[:, 0] = ring[:, -1] = False
    inside = cv2.erode(b, np.ones((5, 5), np.uint8)) > 0
    if not inside.any() or not ring.any():
        return False
    depth = float(np.median(np.abs(diff[inside])))
    if depth < SHADE_LEAST:
        return False
    slope = cv2.magnitude(cv2.Sobel(diff, cv2.CV_32F, 1, 0, ksize=3),
                          cv2.Sobel(diff, cv2.CV_32F, 0, 1, ksize=3)) / 8  # levels a pixel
    return float(np.percentile(slope[ring], SOFT_QUANTILE)) < SOFT_EDGE * depth
