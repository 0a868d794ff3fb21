"""What the tray check advises a player to fix, and the lines it advises from.

:func:`vision.calibration.check` measures the empty tray and the camera's frames; this
module holds the advice for what it finds that the reader copes with worse than with a
good setup: a dark tray floor (:func:`floor_advice`), dice small in the picture
(:func:`size_advice`), light flickering in bands (:func:`flicker_advice`), frames
compressed hard (:func:`jpeg_advice`), and a lens that shows the dice at the tray's edge
much of their sides (:func:`side_advice`, :func:`unknown_lens_advice`). Each line is a
measured one; its docstring says where it was measured.
"""

from __future__ import annotations

import numpy as np

from vision.compression import HARD_BELOW
from vision.detection import SURE_DIE_PX
from vision.filters import floor_grey
from vision.said import message
from vision.sideview import side_at

LIGHT_FLOOR = 110
"""Grey level (of 255) of the tray floor, its median, below which pip dice are advised a
lighter floor. The dice finders learned their floors from the d6 photos (a median grey of
175-187) and from those photos repainted darker (custom-face dice since the twenty-ninth
session; pip d6 since the thirtieth, by a second set of networks for floors under
:data:`vision.reader.DARK_NETS_BELOW`, this same grey). Measured (``docs/vision.md``,
*Which tray floor*): the pip d6 reader's dark-floor networks, out of fold on the train
photos repainted, read 2 of 1,433 dice wrong and sure on a grey of 100 and 3 on 72 (the
light-floor networks none as shot), and with their middling reads left to the table
(:data:`vision.pipnets.DARK_SURE_FROM`, since the thirty-first session) none and 1, with
about 1 and 1.5 points more of the dice left uncertain (the networks of the fiftieth
session; those before: 3 and 3, then none and 1). Pale symbol dice were advised a
lighter floor too until the thirty-eighth session: ivory SeaFall dice were found 234
times in 240 on mid grey (125) but 230 on a grey of 100 and 224 on dark grey (72);
looked for as plain squares too (:mod:`vision.plainsquares`), 238 and 235, read sure and
right 99.2% and 97.9%, as on mid grey (97.9%)."""

DARK_FLOOR = 50
"""Grey level below which symbol dice are advised a lighter floor too: on a black floor
(30) black SeaFall dice are found 200 times in 240 (240 on dark grey); ivory 239 since the
thirty-eighth session's plain squares and check (``train_dieornot.TRAY_JUNK``; 204
before), red and blue 238 (181-198 before the thirty-seventh session's die-or-not check,
``train_dieornot.DARKEST_TRAY``); and the pip d6 reader's dark-floor networks, out of
fold, read 6 of 1,433 train dice wrong and sure on a floor of 40 (and boxed 19 sure dice
where there were none, mostly dice printed on the box's wall); leaving their middling
reads to the table, 1 (and 8), with 1.6 points more of the dice left uncertain."""


def floor_advice(background: np.ndarray, roi: np.ndarray) -> tuple[str, ...]:
    """Advice for a tray floor darker than the dice finders know (:data:`LIGHT_FLOOR`,
    :data:`DARK_FLOOR`), from the empty tray's median grey over its floor."""
    level = floor_grey(background, roi)
    if level < DARK_FLOOR:
        return (VERY_DARK_FLOOR(grey=round(level)),)
    if level < LIGHT_FLOOR:
        return (DARK_FLOOR_ADVICE(grey=round(level)),)
    return ()


VERY_DARK_FLOOR = message(
    "advice.very_dark_floor",
    "Very dark tray floor (grey {grey} of 255): black symbol dice (SeaFall's) are missed on "
    "it, about a sixth of them, others now and then, and pip dice are left for you to "
    "confirm more often; a light grey matt floor reads best.")
DARK_FLOOR_ADVICE = message(
    "advice.dark_floor",
    "Dark tray floor (grey {grey} of 255): symbol dice of every colour are found on it, but "
    "pip dice are left for you to confirm more often than on a light grey floor.")


def size_advice(die_px: float) -> tuple[str, ...]:
    """Advice for dice too small in the picture for pips to be read surely
    (:data:`vision.detection.SURE_DIE_PX`)."""
    if die_px >= SURE_DIE_PX:
        return ()
    return (SMALL_DICE_ADVICE(side=round(die_px), sure=round(SURE_DIE_PX)),)


SMALL_DICE_ADVICE = message(
    "advice.small_dice",
    "The dice are {side} px across: under {sure} px pips run together, so every pip die is "
    "left for you to confirm (symbol dice more often too). Bring the camera closer to the "
    "tray, or give it a higher resolution (1280x720).")


FLICKER_SPREAD = 0.12
"""Bands of light changing this much between the empty tray's frames
(:func:`vision.lightbands.frames_band_spread`; bands about 4% deep, rolling) get
:data:`FLICKER_ADVICE`. The settle detector allows for bands (:mod:`vision.lightbands`);
brought over as a whole, bands 6% deep already kept the tray from ever settling."""

FLICKER_ADVICE = message(
    "advice.flicker",
    "The light flickers in bands across the picture (an LED or fluorescent lamp on mains "
    "power, seen by the camera's rolling shutter). Rolls are still read, but set the "
    "camera's anti-flicker to your mains frequency with its source (a USB webcam: "
    "camera:0,50hz or camera:0,60hz; a Pi camera: picamera:50hz or picamera:60hz) or light "
    "the tray with a flicker-free lamp.")()
STILL_FLICKERS = message(
    "advice.still_flickers",
    "The light still flickers in bands across the picture with the camera's anti-flicker "
    "set to {hz} Hz. If your mains is {other} Hz, use {other}hz in the camera's source "
    "instead; if not, the lamp flickers at a rate of its own (a dimmer, a cheap LED "
    "driver): light the tray with a flicker-free lamp.")


JPEG_ADVICE_BELOW = HARD_BELOW
"""A camera whose frames are JPEG of a lower quality than this
(:func:`vision.compression.frames_jpeg_quality`, the common JPEG library's scale) is
advised to compress less (:func:`jpeg_advice`). Measured (fifty-first session) with
``vision.training.degradations.jpeg`` on the d6 photos at the working size, read by the
pip reader, dice read wrong and sure beyond the data set's label mistakes, train (1,458
dice) / val (204): quality 90, 0 / 0; 85, 1 / 0; 80, 2 / 0; 75, 4 / 1; 50, 14 / 2
(``docs/vision.md``, *A camera that compresses hard*). From 75 down that is well over the
0.1% the reader allows; 80 (0.14% of train) is left without advice, so that a camera's
usual MJPG quality is not flagged for what the reader's margins mostly absorb. Since the
fifty-fourth session the reader itself reads such frames' dice sure only from a far higher
confidence (:func:`vision.compression.compressed_sure_from`: for dice of the working size
0.95 read by the face networks, 0.85 by a profile), so the advice is now about the dice left
to confirm: about a third of them."""


def jpeg_advice(quality: int) -> str:
    """What to do about a camera that compresses its frames hard."""
    return JPEG_ADVICE(quality=quality)


JPEG_ADVICE = message(
    "advice.jpeg",
    "The camera compresses its pictures hard (JPEG quality about {quality}): pips blur into "
    "blocks, so only the surest reads are trusted and many dice are left for the table to "
    "confirm. Raise its JPEG quality if it has that setting (v4l2-ctl -d /dev/video0 "
    "--list-ctrls shows a compression_quality control where it does), or use a camera that "
    "compresses less (a Pi camera's frames are not compressed).")


def flicker_advice(mains_hz: int | None) -> str:
    """What to do about bands of flickering light, given the anti-flicker already set."""
    if mains_hz is None:
        return FLICKER_ADVICE
    other = 60 if mains_hz == 50 else 50
    return STILL_FLICKERS(hz=mains_hz, other=other)


SIDE_ADVICE_ABOVE = 0.47
"""Dice that show more than this share of their height as side at the tray's furthest point
(:func:`tray_side`) get :func:`side_advice`. Measured by ``benchmarks/bench_side_view.py``
(fifty-fifth session; SeaFall sets drawn seen from the side, each enrolled at the table
under the same camera, 1,968 dice a row): dice read wrong and sure 0.05% straight down,
0.10% where the drawn trays' furthest dice show 0.47 (a lens of 45° across the picture
filled by the tray), 0.36% at 0.58 (55°), 1.27% at 0.70 (64°, a Pi camera's), 2.54% at
0.82 (72°, a usual webcam's), nearly all in the picture's outer half and a marked face read
as a blank. The tray floor's furthest point lies a little beyond where a die's centre can
be, so the advice comes a little early."""


def tray_side(roi: np.ndarray, lens_degrees: float) -> float:
    """The share of its height a die shows as side at the tray floor's furthest point from
    the picture's centre (``roi``, :func:`vision.calibration.tray_region`), under a lens
    ``lens_degrees`` across the picture's width: the tangent of its angle off the lens's
    axis (a camera looking straight down; a die as tall as it is wide)."""
    h, w = roi.shape[:2]
    ys, xs = np.nonzero(roi)
    if not len(xs):  # no floor found: the whole picture
        ys, xs = np.array([0, h - 1]), np.array([0, w - 1])
    reach = float(np.hypot(xs - (w - 1) / 2, ys - (h - 1) / 2).max())
    return side_at(reach, w, lens_degrees)


SIDE_FLOOR_BELOW = 100
"""A tray floor darker than this grey adds to :func:`side_advice` that black symbol dice are
read wrong there most. Measured (fifty-ninth session, ``docs/vision.md``, *On a dark
floor*): a black SeaFall set drawn as a 64 degree lens shows it, enrolled at the table 6
times on the floor it is read on, 24 trays of 1-15 dice an enrollment (1,104 dice) read by
a reader told the lens: on a grey of 100 none wrong and sure; on 86 and 72, 12 and 11 with
the named dice cut by a reader told no lens, 0 and 5 as the table cuts them (a reader told
the lens), each from one or two of the 6 enrollments (a blank read as a ship's wheel);
on 72 through 55 degrees, none. The calibration measures those floors, drawn lit, as greys
of 106, 91 and 76 (:func:`vision.filters.floor_grey`): the line lies between."""


def side_advice(side: float, lens_degrees: float, floor: float | None = None) -> str:
    """What to do about a lens that shows the dice at the tray's edge much of their sides;
    on a tray ``floor`` (its grey) under :data:`SIDE_FLOOR_BELOW`, for black dice too."""
    lens, share = f"{lens_degrees:g}", round(side * 100)
    if floor is None or floor >= SIDE_FLOOR_BELOW:
        return SIDE_ADVICE(lens=lens, side=share)
    return SIDE_DARK_ADVICE(lens=lens, side=share, grey=round(floor))


_SIDE = ("With a lens {lens} degrees across, dice at the tray's edge show {side}% of their "
         "height as side: symbol dice (SeaFall's) there are boxed off their top face and "
         "sometimes read wrong, a success as a blank, and a die's side can be taken for a die "
         "of its own (such dice are left to the table to confirm). Raise the camera until the "
         "tray spans the middle of the picture (about 45 degrees of the lens: two thirds of a "
         "62-66 degree Pi camera's width, three fifths of a 70 degree webcam's; 30 px dice "
         "still read), or use a narrower lens.")
SIDE_ADVICE = message("advice.side", _SIDE)
SIDE_DARK_ADVICE = message(
    "advice.side_dark_floor",
    _SIDE + " On this dark floor (grey {grey} of 255) black symbol dice are the ones read "
    "wrong most, a blank as a ship's wheel: for black dice, a lighter floor (mid grey or "
    "lighter) or the tray in the picture's middle.")


COMMON_LENS = 60.0
"""A lens angle across the picture that most cameras at a table reach or pass (every Pi
camera module from 62, a usual webcam 60-78): with no lens known, a tray whose dice would
show more than :data:`SIDE_ADVICE_ABOVE` of their height as side at its edge through this
lens gets :func:`unknown_lens_advice`."""


def unknown_lens_advice(side: float) -> str:
    """What to do when the camera's lens is not known and the tray spans so much of the
    picture that a usual lens (:data:`COMMON_LENS`) shows the dice at its edge ``side`` of
    their height as side."""
    return UNKNOWN_LENS_ADVICE(lens=f"{COMMON_LENS:g}", side=round(side * 100))


UNKNOWN_LENS_ADVICE = message(
    "advice.unknown_lens",
    "The camera's lens is not known. The tray spans so much of the picture that through a "
    "lens {lens} degrees across or wider (every Pi camera module, most webcams) dice at its "
    "edge show {side}% or more of their height as side, and symbol dice there are read with "
    "no allowance for it (through 64-72 degrees, 1-2.5% of them wrong and sure). Give the "
    "lens's angle across the picture's width, from the camera's sheet: in the host's tray "
    "check on the table's page, or tableside calibrate --lens DEG. Or raise the camera "
    "until the tray spans the middle of the picture.")
