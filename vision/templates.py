"""Ink templates: a die's marks as a small map, compared at every turn with enrolled ones.

Enrolled faces are arbitrary symbols, so nothing here knows what a face shows or counts
anything. A crop of one die becomes its *ink map*: the ink-distance map
(:func:`vision.crops.ink_distances`: each pixel's colour distance to the die's body, so
that marks come out bright whatever the die's colour and whether its marks are darker or
lighter than its body, half of it taken along the colour of the face's ink only) scaled
by area to :data:`MAP_PX` pixels, with the marks picked
out by their size (a white top-hat, :data:`TOPHAT_PX`, plus a share of the plain map,
:data:`PLAIN_SHARE`), divided by a high percentile of its values about the compared disc
(exposure and mark contrast matter less, :data:`NORM_PERCENTILE`), clipped and blurred a
little (marks a pixel or two off still overlap). Only the disc of radius :data:`RADIUS`
about the crop's centre counts: the top face, without most of the die's sides and its
neighbours.

The disc is compared in polar form (:func:`polar`: :data:`RINGS` rings of :data:`TURNS`
samples, weighted by area, less the mean, of unit length), where turning a map shifts its
rings round. So the cosine similarity of two maps at every turn is a circular
cross-correlation, made at once from their Fourier series round the circle
(:func:`spectra`, :func:`best_similarities`). An enrolled map is kept as those series at its
own place and shifted by a pixel or two (:data:`SHIFTS`); a die's map is taken at a few
zooms (:data:`ZOOMS`); its likeness to an enrolled map is the best over turns, shifts and
zooms. (Before, every enrolled map was kept turned and shifted as 180 images and compared
by one large matrix product: about the same likeness, at 17 times the memory per crop.)

Chosen on the d6 photos' val split with the faces enrolled as symbols from 5 train crops
each (the test split was not read): this read the most dice right by their nearest face
(88% against 73% for a generic embedding network trained on synthetic symbols, which it
replaced, and 77-87% for crops re-aligned to the top face's outline first).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from vision.crops import each_map, ink_distances

METHOD = "ink-templates-6"
"""Names how profiles' templates are made: a profile saved by another method is made again
from its crops (``vision.enrollment.Profile.load``; ``ink-templates-5``, until the
thirty-fourth session: the plain face distance, not half of it along the ink's colour;
``ink-templates-1``, until the
seventh session: the plain face-distance map, divided by its 95th percentile over the
whole map, on a disc of radius 0.33; ``ink-templates-2``, briefly in the seventh: with the
top-hat, not centred on the marks; ``ink-templates-3``, until the tenth: a top-hat of
15 px and a blur of 1.2 px; ``ink-templates-4``, until the twentieth: the top-hat, centring
and zooms on the 64 px face-distance map, scaled to MAP_PX last)."""

MAP_PX = 32
"""Side of an ink map, in pixels (a 64 px reader crop is scaled down to it). Kept from the
first session and measured in the fifteenth, with the blur (:data:`BLUR`, in map pixels)
scaled alike or kept: the d6 faces enrolled as symbols over 16 enrollments of 5 crops per
face (``calibrate_enrolled``: train outside the enrolled photos, and val; test not read),
each at its own least margin leaving at most 0.15% of train silently wrong:

  map   blur   margin   read confidently   silent          nearest face right
                        train     val      train   val     train    val
  24    0.45   0.145    80.2%    81.8%     0.14%  0.00%    96.1%   96.8%
  24    0.6    0.16     78.9%    80.8%     0.14%  0.06%    96.0%   96.5%
  28    0.5    0.145    81.6%    82.4%     0.12%  0.03%    96.0%   96.7%
  32    0.6    0.14     83.0%    83.2%     0.14%  0.12%    95.7%   96.6%   (kept)
  40    0.75   0.155    81.2%    81.9%     0.15%  0.16%    95.3%   96.4%
  48    0.6    0.155    79.8%    80.3%     0.15%  0.16%    94.9%   95.7%
  48    0.9    0.16     80.0%    80.4%     0.13%  0.16%    95.0%   96.0%

Smaller maps pick the right face as often or a little more often but by a smaller lead;
larger ones less often (the polar form samples the disc at :data:`RINGS` by
:data:`TURNS` whatever the map's side, so detail past that is lost to it anyway)."""

RADIUS = 0.36
"""Radius of the compared disc, as a share of the map's side (the reader's crop holds the
die's top face within about 0.4). With the plain face-distance map 0.33 read best (0.3 cut
the marks near a face's corners, 0.36-0.42 let the die's sides in: 85-76% nearest-face
accuracy on val against 87-88%); once marks are picked out by their size
(:data:`TOPHAT_PX`), the sides count for less and 0.36 reads more (seventh session, over 8
enrollments, the top-hat alone: 48.0% of train and 51.2% of val read confidently against
46.2% and 48.9% at 0.33; 0.40 read 49.8% and 51.9%, but fewer dice right by their nearest
face, 92.1% and 92.5% against 92.4% and 93.2%)."""

TOPHAT_PX = 11
"""Side, in pixels of a 64 px reader crop (scaled with the crop), of the round element of
the white top-hat that picks out marks: the face-distance map less its opening, so what is
left is what is narrower than the element (pips, strokes, letters) and not the broad
shading of a marbled body, the die's sides or the tray about it. Seventh session, the d6
faces enrolled as symbols over 8 enrollments (train outside the enrolled photos and val;
test not read; each at the least lead leaving at most 0.15% of train silently wrong, with
the map's 95th percentile and the radius 0.33 as before): without it 36.0% of train and
36.9% of val read confidently (nearest face right 88.6% and 88.4%); 9 px 46.8% and 49.3%
(89.9% and 89.7%), 11 px 40.7% and 42.4%, 13 px 43.8% and 45.3%, 15 px 45.4% and 47.7%
(91.9% and 92.4%), 17 px 44.8% and 47.3%; 21 px (at a radius of 0.36) 40.7% and 43.1%.
15 px was kept over 9, which read a little more at its lead, for its nearest face (91.9%
against 89.9% of train): two points more dice whose right face is the best one. Tenth
session, with the wider crop and the eighth session's embedding, 11 px with a sharper map
(:data:`BLUR` 0.6) reads the most; see :data:`BLUR` for the table.

Since the twentieth session the top-hat, the centring and the zooms run on the
face-distance map already halved to the map's 32 px, with an element of 5 px there (11 of
the 64 px crop, rounded down to odd): a third of the time, and over 16 enrollments a new
profile read 84.0% of train and 84.0% of val sure at a margin of 0.125 against 83.0% and
83.2% at 0.14, and with :data:`BLUR` 0.45 84.6% and 84.3% at 0.115
(docs/vision-history.md, nineteenth and twentieth sessions: the other ways of making maps
at 32 px that were tried, and the learning stages' margins)."""

PLAIN_SHARE = 0.3
"""Share of the plain face-distance map added back to its top-hat: a large solid mark
(SeaFall's wheel at reader size is a blob) would otherwise be hollowed out. The top-hat
alone read the synthetic SeaFall trays worse (207 of 288 dice confidently right and one
silent error, against 248 and none before, at the lead then packaged); with 0.3 of the
plain map 244 and one, with 0.5 245 and none; at the lead now placed (0.25 over 8
enrollments) 241 and none with 0.3, 0.4 or 0.5, the same as the plain map. On the d6
faces 0.3 read 48.3% of train and 51.9% of val confidently, 0.4 44.4% and 47.1%, 0.5 43.3%
and 46.3%, 0.2 45.7% and 49.4%, so 0.3 is kept."""

RECENTRE_PX = 3
MARKS_PERCENTILE = 70.0
MARKS_RADIUS = 0.4
"""A crop's mark map is moved, by at most RECENTRE_PX pixels of a 64 px crop each way
(scaled with the crop), so that its marks' centre (:func:`centred_on_marks`: the values
above their MARKS_PERCENTILE percentile within MARKS_RADIUS of the crop's side of its
middle) lies at its middle. Seventh session, on the d6 faces enrolled as symbols over 16
enrollments (train outside the enrolled photos and val; test not read), at the least
lead leaving at most 0.15% of train silently wrong: 58.9% of train and 61.9% of val read
confidently (0.00% of val silently wrong), against 51.0% and 55.3% without it, at the same
lead (0.245); the nearest face right for 93.9% and 94.3% (92.4% and 93.3%). Moved without
a bound it read more of the d6 dice (59.9% and 63.3% over 16 enrollments; radius 0.45:
65.3% and 68.0%, with 0.09% of val silently wrong) but broke SeaFall's synthetic trays: a
blank face's map has no marks, its centroid wanders, and 7-8 of 384 wheels were read
sure as blanks. With the bound, 295 of those 384 dice read confidently right at a lead of
0.25 and none wrong, against 301 without centring. (Over 8 enrollments: the 85th
percentile read fewer at the lead, 49.2%, for more dice right by their nearest face; a
radius of 0.35, or half the move, fewer. Over 16, a bound of 2 px read 56.6% and 59.6%
(SeaFall: 463 of 576 right, none wrong, against 461 at 3 px); 4 px 58.6% and 62.9% at a
lead of 0.25, but 2 SeaFall dice read sure and wrong.)"""

NORM_PERCENTILE = 99.0
"""An ink map is divided by this percentile of its values about the compared disc (radius
1.1 RADIUS), so that a face's strongest marks come out near 1 whatever its contrast.
(Before the top-hat, the 95th percentile of the whole map: for a face with a single mark
that is the body, not the mark. With the top-hat, 99th about the disc against 95th over the
map: 46.2% and 48.9% of train and val read against 45.4% and 47.7%; 95th about the disc
45.1% and 47.6%. With the plain map's share added back, 97th about the disc 46.4% and
49.8% against 48.3% and 51.9% for the 99th.)"""

BLUR = 0.45
"""Gaussian sigma (map pixels) of the ink map's blur: marks a pixel off still overlap.
Twentieth session, with the top-hat, centring and zooms at 32 px (:data:`TOPHAT_PX`),
over the same 16 enrollments, each blur at its own least margins (a new profile; one
that has learned 20 crops per face):

  blur   new profile: margin  train   val     20 learned: margin  train   val
  0.45               0.115    84.6%   84.3%               0.05    92.0%   88.6%   (kept)
  0.6                0.125    84.0%   84.0%               0.12    89.7%   87.7%
  0.8                0.145    82.4%   82.6%               0.13    89.0%   86.3%

(the nineteenth session's maps made wholly at 32 px also read best at 0.45). Before:
(First session, plain maps, nearest face right on val: 0: 85%, 1.5: 85%; 1.2 was kept.)
Tenth session: the blur and the top-hat's element (:data:`TOPHAT_PX`) had been chosen
before the wider crop, the zooms' search and the eighth session's embedding, and sharper
maps now read more. The d6 faces enrolled as symbols over 16 enrollments of 5 crops per
face (``calibrate_enrolled``: train outside the enrolled photos, and val; test not
read), each setting at its own least margin leaving at most 0.15% of train silently
wrong:

  blur  top-hat  margin   read confidently   silent   nearest face right
                          train     val      val      train    val
  1.2   15 px    0.19     74.2%    75.7%     0.06%    95.3%   96.0%   (before)
  1.5   15       0.20     71.2%    72.9%     0.06%    94.6%   95.6%
  1.05  15       0.18     76.2%    77.0%     0.06%    95.5%   96.1%
  0.9   15       0.175    77.0%    77.8%     0.06%    95.6%   96.1%
  0.75  15       0.17     77.6%    78.4%     0.00%    95.6%   96.2%
  0.6   15       0.165    77.9%    78.5%     0.00%    95.6%   96.4%
  0.3   15       0.15     78.6%    79.1%     0.03%    95.6%   96.6%
  1.2   11       0.17     78.5%    79.2%     0.16%    95.7%   96.1%
  1.2   19       0.19     72.3%    73.5%     0.06%    95.0%   95.9%
  0.6   13       0.16     79.1%    79.8%     0.03%    95.8%   96.5%
  0.6   11       0.14     81.2%    81.4%     0.12%    95.7%   96.6%   (kept)
  0.6   9        0.115    80.4%    80.2%     0.09%    95.4%   96.2%
  0.3   11       0.13     80.9%    81.3%     0.19%    95.6%   96.8%
  0.3   9        0.10     80.4%    80.8%     0.09%    95.2%   96.5%

The right face is the nearest about as often; what changes is the lead: on a sharper
map a mark that one face has and another lacks costs the other more, so the lead needed
for the same silent errors falls further than the reads it loses. (A compared disc of
0.33 or 0.39 instead of :data:`RADIUS` read 76.2% and 74.6% of train with the old blur,
and 0.33 with a blur of 0.6, 78.5%; with 0.6 and 11 px, :data:`PLAIN_SHARE` 0.2 79.7%, and
:data:`CLIP` 2.0 the same as 1.5; a blur of 0.45 81.0%, a disc of 0.33 or 0.39 81.6% and
80.9% (val 81.2% and 81.4%), :data:`RINGS` 14 80.5%, :data:`NORM_PERCENTILE` 97 80.3%,
:data:`RECENTRE_PX` 2 77.7%; five :data:`ZOOMS` 81.5%, nine :data:`SHIFTS` (1 px steps
too) 82.5%, val 81.7% and 82.0%, for 5/3 and 9/5 the comparisons: not kept.) On the
synthetic SeaFall trays (three profiles, 576
dice) 0.6 and 11 px read 549 sure and right at its margin, against 531, none wrong (0.6 was
kept from the tenth to the twentieth session)."""

CLIP = 1.5
"""Ink values are clipped at this many 95th percentiles (glare and the tray's edge)."""

TURNS = 36
"""Turns of each enrolled map (every 10 degrees; every 15 read 1-3 points fewer dice
by their nearest face on train and val)."""

SHIFTS: tuple[tuple[int, int], ...] = ((0, 0), (-2, 0), (2, 0), (0, -2), (0, 2))
"""Shifts (x, y in map pixels) of each enrolled map: a die's crop is centred on its
box, and its top face may sit a little off the box's centre."""

ZOOMS: tuple[float, ...] = (0.9, 1.0, 1.1)
"""Zooms of a die's own map compared with the templates (the best counts): dice differ in
size and in how much of their sides the box holds. On train and val (faces enrolled from
5 crops each, lead 0.15) this read 43.6% and 44.1% of dice confidently with 0.14% and 0%
silent errors, against 36.7% and 36.6% for one zoom at the lead (0.18) giving the same
silent errors; 0.85-1.15 read fewer, five zooms from 0.9 to 1.1 no more. It triples the
comparisons (about 6 ms a frame of 22 dice on one core)."""


def ink_map(crop_bgr: np.ndarray) -> np.ndarray:
    """The ``(MAP_PX, MAP_PX)`` float32 ink map of a BGR crop of one die."""
    return ink_maps([crop_bgr], (1.0,))[0, 0]


CROPS_PER_PASS = 256
"""Crops whose maps :func:`ink_maps` makes at once (a frame's dice are far fewer; a
calibration's thousands go in passes of this many, a few tens of MB each)."""


def ink_maps(crops: Sequence[np.ndarray], zooms: Sequence[float] = ZOOMS,
             other_body: bool = False) -> np.ndarray:
    """``(N, len(zooms), MAP_PX, MAP_PX)``: each crop's ink map at each zoom about its
    centre (the face-distance map is made and its marks picked out once, then zoomed),
    for N crops together (each step one call for all the crops of a size,
    :func:`vision.crops.each_map`)."""
    if not len(crops):
        return np.empty((0, len(zooms), MAP_PX, MAP_PX), np.float32)
    if len({c.shape for c in crops}) > 1:
        return np.concatenate([ink_maps([c], zooms, other_body) for c in crops])
    if len(crops) > CROPS_PER_PASS:  # bounds the memory a long list takes (calibration)
        return np.concatenate([ink_maps(crops[i:i + CROPS_PER_PASS], zooms, other_body)
                               for i in range(0, len(crops), CROPS_PER_PASS)])
    # the colour distances at the crop's 64 px, all the rest at the map's 32 (twentieth
    # session: a third of the time, and a profile reads more; see TOPHAT_PX)
    d = _halved(ink_distances(crops, _tophat_element(crops[0].shape[0]), other_body))
    n, h, w = d.shape
    element = _tophat_element(h)
    d = each_map(lambda m: cv2.morphologyEx(m, cv2.MORPH_TOPHAT, element), d) + PLAIN_SHARE * d
    d = centred_on_marks(d)
    near_disc = _near_disc()
    out = np.empty((n, len(zooms), MAP_PX, MAP_PX), np.float32)
    for i, z in enumerate(zooms):
        m = d
        if z != 1.0:
            warp = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), 0.0, z)
            m = each_map(lambda c, warp=warp: cv2.warpAffine(
                c, warp, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE),
                m, per_call=4)
        if h != MAP_PX:
            m = each_map(lambda c: cv2.resize(c, (MAP_PX, MAP_PX),
                                              interpolation=cv2.INTER_AREA), m, per_call=4)
        scale = percentiles(m[:, near_disc], NORM_PERCENTILE)
        m = np.clip(m / np.maximum(scale, 1e-3)[:, None, None], 0.0, CLIP)
        out[:, i] = each_map(lambda c: cv2.GaussianBlur(c, (0, 0), BLUR), m)
    return out


def _halved(maps: np.ndarray) -> np.ndarray:
    """``(N, h, w)`` maps scaled by area to half their side where that is at least
    :data:`MAP_PX` (a 64 px crop's map to 32), all in one call: stacked one above the
    other, each pixel of the result averages a 2x2 block of one map, as each map scaled
    alone would."""
    n, h, w = maps.shape
    if h != w or h % 2 or h // 2 < MAP_PX:
        return maps
    side = h // 2
    out = cv2.resize(np.ascontiguousarray(maps).reshape(n * h, w), (side, n * side),
                     interpolation=cv2.INTER_AREA)
    return out.reshape(n, side, side)


def centred_on_marks(maps: np.ndarray) -> np.ndarray:
    """Each of ``(N, h, w)`` maps moved so that its marks' centre lies at its middle, by at
    most :data:`RECENTRE_PX` each way: the centre is the centroid of the values above their
    :data:`MARKS_PERCENTILE` percentile within :data:`MARKS_RADIUS` of the middle, each
    weighted by how far above it is. A die's box is often a little off its top face (sides
    in view, a neighbour close by); the face's marks are where its symbol is. A map without
    marks that stand out (a flat or blank face) stays where it is."""
    n, h, w = maps.shape
    xx, yy, near = _marks_grid(h, w)
    weight = np.maximum(maps - percentiles(maps[:, near], MARKS_PERCENTILE)[:, None, None],
                        0.0) * near
    total = weight.sum(axis=(1, 2))
    limit = RECENTRE_PX * h / 64
    moved = total > 0
    safe = np.where(moved, total, 1.0)
    dx = np.clip((w - 1) / 2 - (weight * xx).sum(axis=(1, 2)) / safe, -limit, limit)
    dy = np.clip((h - 1) / 2 - (weight * yy).sum(axis=(1, 2)) / safe, -limit, limit)
    out = maps.copy()
    for i in np.flatnonzero(moved):
        out[i] = cv2.warpAffine(maps[i], np.float32([[1, 0, dx[i]], [0, 1, dy[i]]]), (w, h),
                                flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out


@cache
def _marks_grid(h: int, w: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x, y, near): pixel coordinates of an h x w map, and which pixels lie within
    MARKS_RADIUS of its middle."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    c = (h - 1) / 2
    near = ((xx - c) ** 2 + (yy - c) ** 2) <= (MARKS_RADIUS * h) ** 2
    return xx, yy, near


@cache
def _tophat_element(map_px: int) -> np.ndarray:
    """The top-hat's round element for a map ``map_px`` pixels high (odd side: 11 at
    64 px, 5 at 32)."""
    side = max(3, int(TOPHAT_PX * map_px / 64) | 1)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side))


@cache
def _near_disc() -> np.ndarray:
    """``(MAP_PX, MAP_PX)`` bool: the map's pixels within 1.1 RADIUS of its centre."""
    c = (MAP_PX - 1) / 2
    yy, xx = np.mgrid[0:MAP_PX, 0:MAP_PX]
    return ((xx - c) ** 2 + (yy - c) ** 2) <= (1.1 * RADIUS * MAP_PX) ** 2


def percentiles(rows: np.ndarray, q: float) -> np.ndarray:
    """``(N,)``: ``np.percentile(row, q)`` of each row of ``(N, K)`` values (linear between
    order statistics), by partition: a few times faster on rows this small."""
    k = q / 100 * (rows.shape[1] - 1)
    lo = int(k)
    hi = min(lo + 1, rows.shape[1] - 1)
    part = np.partition(rows, (lo, hi), axis=1)
    return part[:, lo] + (part[:, hi] - part[:, lo]) * (k - lo)


RINGS = 10
"""Rings of the polar view of the compared disc (:func:`polar`): each ring is sampled at
:data:`TURNS` angles, so that turning a map is shifting its rings."""


@cache
def _polar_grid() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x, y, weight): where each polar sample lies in a map, and the weight that makes
    each count for the area it stands for (the square root of its ring's radius)."""
    c = (MAP_PX - 1) / 2
    radii = (np.arange(RINGS) + 0.5) * RADIUS * MAP_PX / RINGS
    angles = 2 * np.pi * np.arange(TURNS) / TURNS
    x = (c + radii[:, None] * np.cos(angles)[None]).astype(np.float32)
    y = (c + radii[:, None] * np.sin(angles)[None]).astype(np.float32)
    return x, y, np.sqrt(radii)[:, None].astype(np.float32)


def polar(maps: np.ndarray, shifts: Sequence[tuple[int, int]] = ((0, 0),)) -> np.ndarray:
    """``(len(maps) * len(shifts), RINGS, TURNS)``: each map's disc in polar form, moved by
    each shift (x, y in map pixels), weighted by area, less its mean and of unit length, so
    that the sum of two products is their cosine similarity (a flat map gives zeros)."""
    out = np.empty((len(maps), len(shifts), RINGS, TURNS), np.float32)
    if not len(maps):
        return out.reshape(-1, RINGS, TURNS)
    x, y, weight = _polar_grid()
    area = weight * weight
    for j, (dx, dy) in enumerate(shifts):
        out[:, j] = each_map(lambda m, dx=dx, dy=dy: cv2.remap(
            m, x - dx, y - dy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE),
            maps, per_call=4)
    out = out.reshape(-1, RINGS, TURNS)
    mean = (out * area).sum(axis=(1, 2)) / (area.sum() * TURNS)
    out = (out - mean[:, None, None]) * weight
    norm = np.sqrt((out * out).sum(axis=(1, 2)))
    return out / np.maximum(norm, 1e-6)[:, None, None]


def spectra(maps: np.ndarray, shifts: Sequence[tuple[int, int]] = SHIFTS) -> np.ndarray:
    """``(2, TURNS // 2 + 1, 2 * RINGS, len(maps) * len(shifts))`` float32: the rings of
    each map's :func:`polar` form at every shift, as Fourier series round the circle,
    conjugated and laid out for :func:`best_similarities` (real matrices that give the real,
    then the imaginary, part of a product with a die's series). This is what a profile
    keeps of an enrolled map (about 15 KB), instead of every turned copy."""
    series = np.conj(np.fft.rfft(polar(maps, shifts), axis=2)).transpose(2, 1, 0)
    re, im = series.real, series.imag                              # (F, RINGS, M * shifts)
    # [Re q, Im q] @ [[Re e], [-Im e]] = Re(q e);  [Re q, Im q] @ [[Im e], [Re e]] = Im(q e)
    return np.ascontiguousarray(np.stack([np.concatenate([re, -im], axis=1),
                                          np.concatenate([im, re], axis=1)]), np.float32)


@cache
def _turning() -> np.ndarray:
    """``(TURNS, 2 * (TURNS // 2 + 1))``: from the products of two spectra (real parts,
    then imaginary), the cosine similarity of the two maps at every turn of one of them
    (the inverse real Fourier transform as a matrix, so that it is one matrix product)."""
    freqs = TURNS // 2 + 1
    k = np.arange(freqs)
    twice = np.where((k == 0) | ((TURNS % 2 == 0) & (k == TURNS // 2)), 1.0, 2.0)
    angle = 2 * np.pi * np.outer(np.arange(TURNS), k) / TURNS
    return (np.hstack([twice * np.cos(angle), -twice * np.sin(angle)]) / TURNS).astype(
        np.float32)


PAIRS_PER_PASS = 2048
"""Die-to-template comparisons made in one pass (bounds a read's memory: about 1 MB, which
a core's cache holds). Thirty-fifth session, 16 dice's maps against a profile of 150 crops
(one that has learned its fill; 750 columns with the shifts), one thread: 2.4-2.7 ms a
comparison at 2048 against 3.6-3.7 ms at 16,384 (8 MB a pass, as before), 2.5-3.0 at 1024
and 4096, and the same values to the bit; against 30 crops (a new profile) 0.45-0.48 ms
either way. Under 1024 the matrix products take other paths and round a little otherwise."""


@dataclass(frozen=True)
class Queries:
    """Dice's ink maps made ready to compare (:func:`queries`): kept, so that the same
    dice can be compared with other templates (the sure dice of their frame,
    :mod:`vision.neighbours`) without making their maps again."""

    maps: np.ndarray
    """``(N, len(ZOOMS), MAP_PX, MAP_PX)``: each die's ink map at each zoom."""
    series: np.ndarray
    """``(F, N * len(ZOOMS), 2 * RINGS)``: the maps' polar rings as Fourier series round
    the circle (real parts, then imaginary)."""

    def __len__(self) -> int:
        return len(self.maps)

    def take(self, rows: Sequence[int]) -> Queries:
        """The queries of these dice only."""
        zooms = len(ZOOMS)
        cols = [r * zooms + z for r in rows for z in range(zooms)]
        return Queries(self.maps[list(rows)], self.series[:, cols])

    def unzoomed(self) -> np.ndarray:
        """``(N, MAP_PX, MAP_PX)``: each die's map at zoom 1.0, as :func:`ink_map` makes
        it (what :func:`spectra` takes to make the dice templates)."""
        return self.maps[:, ZOOMS.index(1.0)]


def queries(crops: Sequence[np.ndarray], other_body: bool = False) -> Queries:
    """The crops' ink maps at every zoom, ready for :func:`best_similarities` (with
    ``other_body``, made about :func:`vision.crops.other_bodies`)."""
    maps = ink_maps(crops, other_body=other_body)
    series = np.fft.rfft(polar(maps.reshape(-1, MAP_PX, MAP_PX)), axis=2)
    series = series.transpose(2, 0, 1)                               # (F, N * zooms, RINGS)
    return Queries(maps, np.ascontiguousarray(
        np.concatenate([series.real, series.imag], axis=2), np.float32))


def best_per_crop(crops: Sequence[np.ndarray], enrolled: np.ndarray) -> np.ndarray:
    """``(N, M)``: each crop's best cosine similarity to each of M enrolled maps, over
    every turn (:data:`TURNS`), shift (:data:`SHIFTS`) and zoom of the crop's map
    (:data:`ZOOMS`). ``enrolled``: the maps' :func:`spectra`."""
    if not len(crops) or not enrolled.shape[3]:
        return np.zeros((len(crops), enrolled.shape[3] // len(SHIFTS)), np.float32)
    return best_similarities(queries(crops), enrolled)


def best_similarities(dice: Queries, enrolled: np.ndarray) -> np.ndarray:
    """:func:`best_per_crop` of dice whose :func:`queries` are made.

    Turning a map turns its polar rings, so the similarity at every turn is a circular
    cross-correlation, made for all turns at once from the two spectra: their products,
    summed over the rings (two batched real matrix products), then turned back into
    similarities at every turn (one more)."""
    shifts = len(SHIFTS)
    count = enrolled.shape[3] // shifts
    if not len(dice) or not count:
        return np.zeros((len(dice), count), np.float32)
    zooms = len(ZOOMS)
    query = dice.series
    turning = _turning()
    freqs, columns = enrolled.shape[1], enrolled.shape[3]
    out = np.empty((len(dice), count), np.float32)
    step = max(1, PAIRS_PER_PASS // columns)                         # dice per pass
    for first in range(0, len(dice), step):
        last = min(first + step, len(dice))
        q = query[:, first * zooms:last * zooms]
        products = np.empty((2, freqs, q.shape[1], columns), np.float32)
        np.matmul(q, enrolled[0], out=products[0])                   # real parts
        np.matmul(q, enrolled[1], out=products[1])                   # imaginary parts
        sims = (turning @ products.reshape(2 * freqs, -1)).max(axis=0)
        out[first:last] = sims.reshape(last - first, zooms, count, shifts).max(axis=(1, 3))
    return out
