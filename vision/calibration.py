"""Tray calibration: the empty tray, where it is, how big a die looks, and image quality.

``calibrate(empty_frames, dice_frame=None)`` takes a few frames of the empty tray (their
median is the background), finds the tray floor as the largest region of the background's
centre colour (the region of interest), measures the die size on an optional frame with
dice in it, and reports image quality with advice a player can act on. A calibration is
saved per setup (``<data dir>/setups/<name>/``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from vision.compression import HARD_BELOW, frames_jpeg_quality
from vision.detection import (
    SURE_DIE_PX,
    die_size_problem,
    estimate_die_px,
    expected_die_px,
    to_work,
)
from vision.filters import colourless, floor_grey
from vision.lightbands import frames_band_spread
from vision.sideview import lens_problem, side_at
from vision.sources import FrameSource, SourceError, SourceLost
from vision.storage import check_name, data_dir

FOCUS_MIN = 0.075
"""Peak Laplacian over peak gradient below which edges are too soft to read pips."""

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


@dataclass(frozen=True)
class QualityReport:
    """Image quality of a frame, each in [0, 1] or a plain measure, with advice."""

    focus: float
    """Edge sharpness (about 0.13-0.2 when sharp); -1 when the frame has no edge to judge."""
    brightness: float
    dark_clipped: float
    bright_clipped: float
    glare: float
    contrast: float
    advice: tuple[str, ...]

    @property
    def is_good(self) -> bool:
        return not self.advice

    def to_json(self) -> dict[str, object]:
        return {
            "focus": self.focus, "brightness": self.brightness,
            "dark_clipped": self.dark_clipped, "bright_clipped": self.bright_clipped,
            "glare": self.glare, "contrast": self.contrast, "advice": list(self.advice),
        }


def quality(frame: np.ndarray, die_px: float | None = None) -> QualityReport:
    """Measure focus, exposure, glare and contrast of a frame at the working scale, and
    whether it has colour at all (advice only: :func:`vision.filters.colourless`)."""
    work = to_work(frame, die_px).image
    grey = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    # sharpness of the strongest edges (tray rim, dice), not of the smooth floor: on an edge
    # blurred by sigma s the peak Laplacian over the peak gradient falls as 1/s, whatever
    # the edge's contrast
    g = grey.astype(np.float32)
    grad = np.abs(cv2.Sobel(g, cv2.CV_32F, 1, 0)) + np.abs(cv2.Sobel(g, cv2.CV_32F, 0, 1))
    lap = np.abs(cv2.Laplacian(g, cv2.CV_32F))
    strongest = float(np.percentile(grad, 99.9))
    focus = float(np.percentile(lap, 99.9)) / strongest if strongest >= 40 else -1.0
    brightness = float(grey.mean()) / 255.0
    dark = float((grey <= 8).mean())
    bright = float((grey >= 250).mean())
    glare_mask = (grey >= 250).astype(np.uint8)
    glare_mask = cv2.morphologyEx(glare_mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    glare = float(glare_mask.mean())
    p5, p95 = np.percentile(grey, (5, 95))
    contrast = float(p95 - p5) / 255.0
    focus, brightness, dark, bright, glare, contrast = (
        round(v, 4) for v in (focus, brightness, dark, bright, glare, contrast)
    )
    advice: list[str] = []
    if 0 <= focus < FOCUS_MIN:
        advice.append("The image is blurred: focus the camera on the tray floor and keep it still.")
    if brightness < 0.25 or dark > 0.05:
        advice.append("Too dark: add light over the tray or raise the camera's exposure.")
    if brightness > 0.9 or bright > 0.05:
        advice.append("Too bright: lower the exposure or move the lamp away.")
    if glare > 0.005:
        advice.append("Glare spots: light the tray from the side or diffuse the lamp; "
                      "avoid glossy tray floors.")
    if contrast < 0.08:
        advice.append("Low contrast: use a tray floor whose colour differs from the dice.")
    if colourless(frame):
        advice.append("The picture has no colour: turn off the camera's black-and-white or "
                      "night mode (dice are read from colour pictures; on grey ones every "
                      "die is left for the table to confirm).")
    return QualityReport(focus, brightness, dark, bright, glare, contrast, tuple(advice))


@dataclass(frozen=True)
class Calibration:
    """A calibrated setup: empty-tray background, tray mask, die size, quality."""

    name: str
    background: np.ndarray
    roi: np.ndarray
    die_px: float
    quality: QualityReport
    mains_hz: int | None = None  # the anti-flicker its camera was calibrated with (50, 60)
    lens_degrees: float | None = None
    """Its camera's lens angle across the picture, when known (``calibrate --lens``, or a
    Pi camera module's own): the reader then reads custom-face dice far out with more care
    (:mod:`vision.sideview`)."""

    def save(self, directory: Path | None = None) -> Path:
        folder = (directory or setups_dir()) / check_name(self.name, "setup")
        folder.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(folder / "background.png"), self.background)
        cv2.imwrite(str(folder / "roi.png"), self.roi)
        meta = {"name": self.name, "die_px": self.die_px, "quality": self.quality.to_json(),
                "mains_hz": self.mains_hz, "lens_degrees": self.lens_degrees}
        (folder / "calibration.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")
        return folder

    @classmethod
    def load(cls, name: str, directory: Path | None = None) -> Calibration:
        folder = (directory or setups_dir()) / check_name(name, "setup")
        if not (folder / "calibration.json").is_file():
            raise ValueError(f"no calibration {name!r} in {folder.parent}: calibrate it first "
                             f"(tableside calibrate SOURCE --setup {name})")
        try:
            meta = json.loads((folder / "calibration.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:  # not JSON, or not text at all
            raise ValueError(f"calibration {name!r} in {folder} is damaged ({exc}): "
                             "calibrate it again") from None
        background = cv2.imread(str(folder / "background.png"), cv2.IMREAD_COLOR)
        roi = cv2.imread(str(folder / "roi.png"), cv2.IMREAD_GRAYSCALE)
        if background is None or roi is None:
            raise ValueError(f"calibration {name!r} in {folder} has its images missing or "
                             "damaged: calibrate it again")
        if roi.shape != background.shape[:2]:
            raise ValueError(f"calibration {name!r} in {folder} is damaged (its images differ "
                             "in size): calibrate it again")
        try:
            q = meta["quality"]
            report = QualityReport(
                float(q["focus"]), float(q["brightness"]), float(q["dark_clipped"]),
                float(q["bright_clipped"]), float(q["glare"]), float(q["contrast"]),
                tuple(str(a) for a in q["advice"]))
            die_px = float(meta["die_px"])
            mains_hz = meta.get("mains_hz")  # absent before the setups kept it
            if mains_hz not in (None, 50, 60):
                raise ValueError(f"mains_hz {mains_hz!r} is not 50 or 60")
            lens = meta.get("lens_degrees")  # absent before the setups kept it
            if lens is not None and (problem := lens_problem(float(lens))):
                raise ValueError(problem)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"calibration {name!r} in {folder} is damaged ({exc!r}): "
                             "calibrate it again") from None
        if problem := die_size_problem(die_px, background.shape):
            raise ValueError(f"calibration {name!r} in {folder} is damaged ({problem}): "
                             "calibrate it again")
        return cls(name, background, roi, die_px, report, mains_hz,
                   None if lens is None else float(lens))


def setups_dir() -> Path:
    return data_dir() / "setups"


IN_USE = "in-use.txt"
"""The file in the setups folder naming the setup last calibrated or checked: the one the
table's camera reads with (``tableside serve`` without ``--setup``)."""


def remember_in_use(name: str, directory: Path | None = None) -> None:
    """Make ``name`` the setup the table's camera reads with from its next start."""
    folder = directory or setups_dir()
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / (IN_USE + ".tmp")
    tmp.write_text(check_name(name, "setup") + "\n", encoding="utf-8")
    tmp.replace(folder / IN_USE)


def in_use(directory: Path | None = None) -> str | None:
    """The name of the setup last calibrated or checked, None when there is none."""
    try:
        name = ((directory or setups_dir()) / IN_USE).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return name or None


def tray_region(background: np.ndarray) -> np.ndarray:
    """0/255 mask of the tray floor: the largest region close to the centre's colour."""
    h, w = background.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(background, (5, 5), 0), cv2.COLOR_BGR2Lab)
    centre = lab[h // 3 : 2 * h // 3, w // 3 : 2 * w // 3].reshape(-1, 3).astype(np.float32)
    floor = np.median(centre, axis=0)
    spread = max(12.0, 3.0 * float(np.median(np.abs(centre - floor).sum(axis=1))))
    dist = np.abs(lab.astype(np.float32) - floor).sum(axis=2)
    mask = (dist <= spread).astype(np.uint8) * 255
    k = max(3, (min(h, w) // 60) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if n <= 1:
        return np.full((h, w), 255, np.uint8)
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    region = (labels == biggest).astype(np.uint8) * 255
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = np.zeros_like(region)
    cv2.drawContours(hull, [cv2.convexHull(max(contours, key=cv2.contourArea))], -1, 255, -1)
    return hull


def floor_advice(background: np.ndarray, roi: np.ndarray) -> tuple[str, ...]:
    """Advice for a tray floor darker than the dice finders know (:data:`LIGHT_FLOOR`,
    :data:`DARK_FLOOR`), from the empty tray's median grey over its floor."""
    level = floor_grey(background, roi)
    if level < DARK_FLOOR:
        return (f"Very dark tray floor (grey {level:.0f} of 255): black symbol dice "
                "(SeaFall's) are missed on it, about a sixth of them, others now and then, "
                "and pip dice are left for you to confirm more often; a light grey matt "
                "floor reads best.",)
    if level < LIGHT_FLOOR:
        return (f"Dark tray floor (grey {level:.0f} of 255): symbol dice of every colour "
                "are found on it, but pip dice are left for you to confirm more often "
                "than on a light grey floor.",)
    return ()


def size_advice(die_px: float) -> tuple[str, ...]:
    """Advice for dice too small in the picture for pips to be read surely
    (:data:`SURE_DIE_PX`)."""
    if die_px >= SURE_DIE_PX:
        return ()
    return (f"The dice are {die_px:.0f} px across: under {SURE_DIE_PX:.0f} px pips run "
            "together, so every pip die is left for you to confirm (symbol dice more often "
            "too). Bring the camera closer to the tray, or give it a higher resolution "
            "(1280x720).",)


def _quality(background: np.ndarray, roi: np.ndarray, die_px: float) -> QualityReport:
    """The quality report of a setup's empty tray, with :func:`floor_advice` and
    :func:`size_advice`."""
    report = quality(background, die_px)
    return replace(report, advice=report.advice + floor_advice(background, roi)
                   + size_advice(die_px))


def calibrate(
    name: str, empty_frames: Sequence[np.ndarray], dice_frame: np.ndarray | None = None,
    mains_hz: int | None = None, lens_degrees: float | None = None,
) -> Calibration:
    """Calibrate a setup from frames of the empty tray (and optionally one with dice);
    ``mains_hz``: the anti-flicker the camera gave them with, kept for its next opening;
    ``lens_degrees``: its lens's angle across the picture, when known, kept for the reader
    (``ValueError`` for no angle)."""
    if lens_degrees is not None and (problem := lens_problem(lens_degrees)):
        raise ValueError(problem)
    check_name(name, "setup")
    if not empty_frames:
        raise ValueError("calibration needs at least one frame of the empty tray")
    shape = empty_frames[0].shape
    if any(f.shape != shape for f in empty_frames):
        raise ValueError("calibration frames must all have the same size")
    background = np.median(np.stack(empty_frames), axis=0).astype(np.uint8)
    roi = tray_region(background)
    die_px = (_die_size(dice_frame, roi, shape) if dice_frame is not None
              else expected_die_px(shape, None))  # the framing default
    return Calibration(name, background, roi, die_px, _quality(background, roi, die_px),
                       mains_hz, lens_degrees)


def measured(setup: Calibration, dice_frame: np.ndarray) -> Calibration:
    """The setup with its die size measured on a frame of its tray with a few dice in it
    (``ValueError`` for a frame of another size, or one with no die to measure)."""
    die_px = _die_size(dice_frame, setup.roi, setup.background.shape)
    return replace(setup, die_px=die_px,
                   quality=_quality(setup.background, setup.roi, die_px))


def _die_size(dice_frame: np.ndarray, roi: np.ndarray, shape: tuple[int, ...]) -> float:
    """The die size measured on a frame with a few dice on the tray floor; ``ValueError``
    for a frame of another size than the tray's, one with no die to measure (the framing
    default in its place would be reported as measured), or dice of no usable size."""
    if dice_frame.shape != shape:
        h, w = shape[:2]
        raise ValueError(f"the frame with dice must have the size of the empty tray's "
                         f"frames ({w}x{h})")
    die_px = estimate_die_px(dice_frame, roi)
    if die_px is None:
        raise ValueError("no die to measure: put a few dice on the tray floor, apart, and "
                         "let them rest")
    if problem := die_size_problem(die_px, dice_frame.shape):
        raise ValueError(f"the dice measured: {problem}")
    return die_px


CAMERA_WARMUP = 15
"""Frames a camera delivers before calibration takes any: its exposure and white balance
settle over the first half second at least."""

CAMERA_WARMUP_MAX = 90
"""At most this many are passed over (3 s at 30 frames a second) waiting for the light to
hold steady: a webcam's automatic exposure may take 1-2 s to settle after it opens, and a
lamp flickering from frame to frame must not keep calibration waiting for ever."""

STEADY_FRAMES = 5
STEADY_SPREAD = 0.02
"""The light has settled when the last :data:`STEADY_FRAMES` frames' mean levels lie
within this share of each other (or within one grey level)."""


def source_frames(source: FrameSource, count: int) -> list[np.ndarray]:
    """Up to ``count`` frames from a source; a camera's first frames are passed over while
    its exposure settles and its lens finds the tray (at least :data:`CAMERA_WARMUP`, then
    until the light holds steady and the lens is still, up to :data:`CAMERA_WARMUP_MAX`).
    :class:`SourceError` when it gives none. A camera that goes away midway
    (``SourceLost``) ends the frames taken so far, or is the error when there are none."""
    frames: list[np.ndarray] = []
    warming = source.live
    levels: list[float] = []
    while len(frames) < count:
        try:
            frame = source.read()
        except SourceLost:
            if frames:
                break
            raise
        if frame is None:
            break
        if warming:  # every frame looked at while warming up is passed over
            levels.append(float(frame.image[::8, ::8].mean()))
            warming = len(levels) < CAMERA_WARMUP_MAX and (source.focusing or not (
                len(levels) >= CAMERA_WARMUP and _steady(levels[-STEADY_FRAMES:])))
            continue
        frames.append(frame.image)
    if not frames:
        raise SourceError(f"{source.name}: no frames to calibrate from")
    return frames


def _steady(levels: list[float]) -> bool:
    spread = max(levels) - min(levels)
    return spread <= max(1.0, STEADY_SPREAD * max(levels))


def tray_share(calibration: Calibration) -> float:
    """The share of the frame the tray floor covers."""
    return float((calibration.roi > 0).mean())


FLICKER_SPREAD = 0.12
"""Bands of light changing this much between the empty tray's frames
(:func:`vision.lightbands.frames_band_spread`; bands about 4% deep, rolling) get
:data:`FLICKER_ADVICE`. The settle detector allows for bands (:mod:`vision.lightbands`);
brought over as a whole, bands 6% deep already kept the tray from ever settling."""

FLICKER_ADVICE = ("The light flickers in bands across the picture (an LED or fluorescent "
                  "lamp on mains power, seen by the camera's rolling shutter). Rolls are "
                  "still read, but set the camera's anti-flicker to your mains frequency "
                  "with its source (a USB webcam: camera:0,50hz or camera:0,60hz; a Pi "
                  "camera: picamera:50hz or picamera:60hz) or light the tray with a "
                  "flicker-free lamp.")


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
    return (f"The camera compresses its pictures hard (JPEG quality about {quality}): pips "
            "blur into blocks, so only the surest reads are trusted and many dice are left "
            "for the table to confirm. Raise its JPEG quality if "
            "it has that setting (v4l2-ctl -d /dev/video0 --list-ctrls shows a "
            "compression_quality control where it does), or use a camera that compresses "
            "less (a Pi camera's frames are not compressed).")


def flicker_advice(mains_hz: int | None) -> str:
    """What to do about bands of flickering light, given the anti-flicker already set."""
    if mains_hz is None:
        return FLICKER_ADVICE
    other = 60 if mains_hz == 50 else 50
    return (f"The light still flickers in bands across the picture with the camera's "
            f"anti-flicker set to {mains_hz} Hz. If your mains is {other} Hz, use "
            f"{other}hz in the camera's source instead; if not, the lamp flickers at a "
            "rate of its own (a dimmer, a cheap LED driver): light the tray with a "
            "flicker-free lamp.")


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
    the picture's centre (``roi``, :func:`tray_region`), under a lens ``lens_degrees``
    across the picture's width: the tangent of its angle off the lens's axis (a camera
    looking straight down; a die as tall as it is wide)."""
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
    dark = ("" if floor is None or floor >= SIDE_FLOOR_BELOW else
            f" On this dark floor (grey {floor:.0f} of 255) black symbol dice are the ones "
            "read wrong most, a blank as a ship's wheel: for black dice, a lighter floor "
            "(mid grey or lighter) or the tray in the picture's middle.")
    return (f"With a lens {lens_degrees:g} degrees across, dice at the tray's edge show "
            f"{side:.0%} of their height as side: symbol dice (SeaFall's) there are boxed "
            "off their top face and sometimes read wrong, a success as a blank, and a die's "
            "side can be taken for a die of its own (such dice are left to the table to "
            "confirm). Raise the "
            "camera until the tray spans the middle of the picture (about 45 degrees of the "
            "lens: two thirds of a 62-66 degree Pi camera's width, three fifths of a 70 "
            "degree webcam's; 30 px dice still read), or use a narrower lens." + dark)


COMMON_LENS = 60.0
"""A lens angle across the picture that most cameras at a table reach or pass (every Pi
camera module from 62, a usual webcam 60-78): with no lens known, a tray whose dice would
show more than :data:`SIDE_ADVICE_ABOVE` of their height as side at its edge through this
lens gets :func:`unknown_lens_advice`."""


def unknown_lens_advice(side: float) -> str:
    """What to do when the camera's lens is not known and the tray spans so much of the
    picture that a usual lens (:data:`COMMON_LENS`) shows the dice at its edge ``side`` of
    their height as side."""
    return (f"The camera's lens is not known. The tray spans so much of the picture that "
            f"through a lens {COMMON_LENS:g} degrees across or wider (every Pi camera "
            f"module, most webcams) dice at its edge show {side:.0%} or more of their height "
            "as side, and symbol dice there are read with no allowance for it (through "
            "64-72 degrees, 1-2.5% of them wrong and sure). "
            "Give the lens's angle across the picture's width, from the camera's sheet: "
            "tableside calibrate --lens DEG. Or raise the camera until the tray spans the "
            "middle of the picture.")


@dataclass(frozen=True)
class CalibrationCheck:
    """A calibration and what to fix before keeping it: the quality report's advice, and
    whether the "empty" tray had dice (or things like dice) in it, in which case it must
    not be kept (its background would hide them from the settle detector)."""

    setup: Calibration
    frames: int
    things_in_tray: int
    die_px_from: str  # "dice" (measured on a frame with dice) or "framing" (the default)
    light_bands: float = 0.0
    """How far the light changed in bands between the empty-tray frames
    (:func:`vision.lightbands.frames_band_spread`): a lamp flickering with the mains, seen
    by a rolling shutter; advice over :data:`FLICKER_SPREAD`."""
    jpeg_quality: int | None = None
    """The JPEG quality the camera's frames show
    (:func:`vision.compression.frames_jpeg_quality`; None: not compressed, or at a
    quality above about 90); advice under :data:`JPEG_ADVICE_BELOW`."""

    @property
    def lens_degrees(self) -> float | None:
        """The setup's lens angle (:attr:`Calibration.lens_degrees`), None if not known."""
        return self.setup.lens_degrees

    @cached_property
    def tray_side(self) -> float | None:
        """:func:`tray_side` of the setup's tray floor under its lens (None: not known);
        advice over :data:`SIDE_ADVICE_ABOVE`. Worked out once (a pass over the floor's
        pixels), for the report, its advice and its JSON."""
        if self.lens_degrees is None:
            return None
        return tray_side(self.setup.roi, self.lens_degrees)

    @cached_property
    def advice(self) -> tuple[str, ...]:
        """What to fix, worked out once (the floor's grey and reach are passes over its
        pixels) for the report and its JSON."""
        tray = () if not self.things_in_tray else (
            f"{self.things_in_tray} dice (or things like dice) are in the empty-tray frames: "
            "take everything out of the tray and calibrate again.",)
        bands = (() if self.light_bands <= FLICKER_SPREAD
                 else (flicker_advice(self.setup.mains_hz),))
        jpeg = (() if self.jpeg_quality is None or self.jpeg_quality >= JPEG_ADVICE_BELOW
                else (jpeg_advice(self.jpeg_quality),))
        lens, side = self.lens_degrees, self.tray_side  # both known, or neither
        sides: tuple[str, ...] = ()
        if lens is not None and side is not None and side > SIDE_ADVICE_ABOVE:
            sides = (side_advice(side, lens, floor_grey(self.setup.background, self.setup.roi)),)
        elif lens is None and (usual := tray_side(self.setup.roi, COMMON_LENS)) > SIDE_ADVICE_ABOVE:
            sides = (unknown_lens_advice(usual),)
        return self.setup.quality.advice + bands + jpeg + sides + tray

    @property
    def keepable(self) -> bool:
        return not self.things_in_tray

    def to_json(self) -> dict[str, object]:
        h, w = self.setup.background.shape[:2]
        return {"setup": self.setup.name, "frames": self.frames, "size": [w, h],
                "die_px": round(self.setup.die_px, 1), "die_px_from": self.die_px_from,
                "tray_share": round(tray_share(self.setup), 3),
                "things_in_tray": self.things_in_tray,
                "light_bands": round(self.light_bands, 3),
                "jpeg_quality": self.jpeg_quality,
                "mains_hz": self.setup.mains_hz,
                "lens_degrees": self.lens_degrees,
                "tray_side": None if (side := self.tray_side) is None else round(side, 3),
                "quality": {**self.setup.quality.to_json(), "advice": list(self.advice)}}


def check(name: str, empty_frames: Sequence[np.ndarray],
          dice_frame: np.ndarray | None = None,
          mains_hz: int | None = None,
          lens_degrees: float | None = None) -> CalibrationCheck:
    """:func:`calibrate`, and the empty tray's floor looked over for dice (by their
    bodies, as custom dice are found: :mod:`vision.dieornot`; what lies beside the tray
    does not count). ``lens_degrees``: the camera's lens angle across the picture, when
    known (:attr:`CalibrationCheck.tray_side`; ``ValueError`` for no angle)."""
    from vision.reader import DiceReader  # the reader does not know calibrations

    setup = calibrate(name, empty_frames, dice_frame, mains_hz, lens_degrees)
    found = DiceReader("any", unknown_faces=True, die_px=setup.die_px,
                       roi=setup.roi).read(setup.background)
    return CalibrationCheck(setup, len(empty_frames), len(found.dice),
                            "dice" if dice_frame is not None else "framing",
                            frames_band_spread(empty_frames),
                            frames_jpeg_quality(empty_frames))
