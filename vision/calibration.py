"""Tray calibration: the empty tray, where it is, how big a die looks, and image quality.

``calibrate(empty_frames, dice_frame=None)`` takes a few frames of the empty tray (their
median is the background), finds the tray floor as the largest region of the background's
centre colour (the region of interest), measures the die size on an optional frame with
dice in it, and reports image quality with advice a player can act on (the advice for the
floor, the dice's size, flicker, compression and the lens: :mod:`vision.setupadvice`). A
calibration is saved per setup (``<data dir>/setups/<name>/``).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from vision.compression import frames_jpeg_quality
from vision.detection import (
    die_size_problem,
    estimate_die_px,
    expected_die_px,
    to_work,
)
from vision.filters import colourless, floor_grey
from vision.lightbands import frames_band_spread
from vision.said import message, said_json
from vision.setupadvice import (
    COMMON_LENS,
    FLICKER_SPREAD,
    JPEG_ADVICE_BELOW,
    SIDE_ADVICE_ABOVE,
    flicker_advice,
    floor_advice,
    jpeg_advice,
    side_advice,
    size_advice,
    tray_side,
    unknown_lens_advice,
)
from vision.sideview import lens_problem
from vision.sources import FrameSource, SourceError, SourceLost
from vision.storage import check_name, data_dir

FOCUS_MIN = 0.075
"""Peak Laplacian over peak gradient below which edges are too soft to read pips."""

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


BLURRED = message(
    "advice.blurred",
    "The image is blurred: focus the camera on the tray floor and keep it still.")()
TOO_DARK = message(
    "advice.too_dark", "Too dark: add light over the tray or raise the camera's exposure.")()
TOO_BRIGHT = message(
    "advice.too_bright", "Too bright: lower the exposure or move the lamp away.")()
GLARE = message(
    "advice.glare",
    "Glare spots: light the tray from the side or diffuse the lamp; avoid glossy tray "
    "floors.")()
LOW_CONTRAST = message(
    "advice.low_contrast",
    "Low contrast: use a tray floor whose colour differs from the dice.")()
NO_COLOUR_ADVICE = message(
    "advice.no_colour",
    "The picture has no colour: turn off the camera's black-and-white or night mode (dice "
    "are read from colour pictures; on grey ones every die is left for the table to "
    "confirm).")()
THINGS_IN_TRAY = message(
    "advice.things_in_tray",
    "{count} dice (or things like dice) are in the empty-tray frames: take everything out "
    "of the tray and check it again.",
    one="{count} die (or a thing like a die) is in the empty-tray frames: take everything "
    "out of the tray and check it again.")


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
        advice.append(BLURRED)
    if brightness < 0.25 or dark > 0.05:
        advice.append(TOO_DARK)
    if brightness > 0.9 or bright > 0.05:
        advice.append(TOO_BRIGHT)
    if glare > 0.005:
        advice.append(GLARE)
    if contrast < 0.08:
        advice.append(LOW_CONTRAST)
    if colourless(frame):
        advice.append(NO_COLOUR_ADVICE)
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
        """Write the setup as its folder of ``directory`` (default: the data dir), whole:
        into a new folder first, which then takes the name, so that a crash (the Pi's power
        cut) mid-save never leaves a setup of mixed parts. A setup saved before under the
        name is kept beside it (:func:`kept_setups`), and :func:`restore_setup` puts it
        back."""
        base = directory or setups_dir()
        folder = base / check_name(self.name, "setup")
        base.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(prefix=f".{self.name}.", suffix=".new", dir=base))
        try:
            for part, image in (("background.png", self.background), ("roi.png", self.roi)):
                if not cv2.imwrite(str(fresh / part), image):
                    raise OSError(f"cannot write {fresh / part}")
            meta = {"name": self.name, "die_px": self.die_px,
                    "quality": self.quality.to_json(), "mains_hz": self.mains_hz,
                    "lens_degrees": self.lens_degrees}
            (fresh / "calibration.json").write_text(json.dumps(meta, indent=2),
                                                    encoding="utf-8")
            if folder.exists():
                folder.replace(_kept_name(base, self.name))
            fresh.replace(folder)
        except BaseException:
            shutil.rmtree(fresh, ignore_errors=True)
            raise
        for old in kept_setups(self.name, base)[:-KEEP_SETUPS]:
            shutil.rmtree(old, ignore_errors=True)
        return folder

    @classmethod
    def load(cls, name: str, directory: Path | None = None) -> Calibration:
        return cls.load_folder(name, (directory or setups_dir()) / check_name(name, "setup"))

    @classmethod
    def load_folder(cls, name: str, folder: Path) -> Calibration:
        """The setup ``name`` saved in ``folder`` (its own, or one kept: :func:`kept_setups`);
        ``ValueError`` saying what to do when it is missing or damaged."""
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
            why = (f"{exc.args[0]!r} is missing" if isinstance(exc, KeyError) and exc.args
                   else str(exc) or type(exc).__name__)  # said, not a Python repr
            raise ValueError(f"calibration {name!r} in {folder} is damaged ({why}): "
                             "calibrate it again") from None
        if problem := die_size_problem(die_px, background.shape):
            raise ValueError(f"calibration {name!r} in {folder} is damaged ({problem}): "
                             "calibrate it again")
        return cls(name, background, roi, die_px, report, mains_hz,
                   None if lens is None else float(lens))


def setups_dir() -> Path:
    return data_dir() / "setups"


KEPT = ".kept"
"""How the folder of a setup saved over ends: ``.<name>.<UTC time>.kept``, beside it (its
leading dot makes it no setup's name)."""


KEEP_SETUPS = 5
"""How many setups saved over are kept per name (each tray check and dice measure saves)."""


def _kept_name(base: Path, name: str) -> Path:
    return base / f".{name}.{datetime.now(UTC).strftime('%Y%m%dT%H%M%S%fZ')}{KEPT}"


def kept_setups(name: str, directory: Path | None = None) -> list[Path]:
    """The setups saved before under ``name`` and then saved over, oldest first."""
    base = directory or setups_dir()
    check_name(name, "setup")
    return sorted(p for p in base.glob(f".{name}.*{KEPT}") if p.is_dir())


def restore_setup(name: str, directory: Path | None = None) -> Calibration:
    """Put back the setup saved under ``name`` before the last save (a tray checked in bad
    light, say): the one it replaced is kept in turn, so restoring again is the redo.
    ``ValueError`` when none is kept, or the latest kept is damaged (nothing changes)."""
    base = directory or setups_dir()
    kept = kept_setups(name, base)
    if not kept:
        raise ValueError(f"no earlier setup {name!r} is kept in {base}")
    latest = kept[-1]
    setup = Calibration.load_folder(name, latest)
    folder = base / name
    if folder.exists():
        folder.replace(_kept_name(base, name))
    latest.replace(folder)
    return setup



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
    """The name of the setup last calibrated or checked, None when there is none;
    ``ValueError`` when its file is damaged (not text: a card's corruption, say)."""
    path = (directory or setups_dir()) / IN_USE
    try:
        name = path.read_text(encoding="utf-8").strip()
    except OSError:
        return None
    except UnicodeDecodeError:
        raise ValueError(f"{path} is damaged (not text): calibrate or check the tray again "
                         "to choose the setup the camera reads with") from None
    return name or None


def tray_region(background: np.ndarray) -> np.ndarray:
    """0/255 mask of the tray floor: the largest region close to the centre's colour, its
    lightness taken against the floor's own shading (:func:`_shading`).

    A lamp's light falling off across the tray, or a lens darker at its corners, changes
    the floor's lightness smoothly, not its hue. Against one lightness, the centre's, a
    floor a sixth darker at one side was cut off there (71% of a sheet photo was floor, 53%
    with its light falling off by 15% over its right part; the demo's recorded floor lost
    its right fifth), and the dice there were never read: a read leaves out what lies
    outside the tray. So the floor found first gives the shading, a smooth surface fitted to
    its lightness, and the floor is found again against that, as far as it reaches without
    crossing an edge (90% of the sheet, lit evenly or not). A wall or the table beside the
    tray differs in hue or steps in lightness, and stays out."""
    h, w = background.shape[:2]
    blurred = cv2.GaussianBlur(background, (5, 5), 0)
    lab = cv2.cvtColor(blurred, cv2.COLOR_BGR2Lab).astype(np.float32)
    centre = lab[h // 3 : 2 * h // 3, w // 3 : 2 * w // 3].reshape(-1, 3)
    floor = np.median(centre, axis=0)
    spread = max(12.0, 3.0 * float(np.median(np.abs(centre - floor).sum(axis=1))))
    hue = np.abs(lab[..., 1:] - floor[1:]).sum(axis=2)
    first = _largest(np.abs(lab[..., 0] - floor[0]) + hue <= spread)
    if first is None:
        return np.full((h, w), 255, np.uint8)
    near = np.abs(lab[..., 0] - _shading(lab[..., 0], first)) + hue <= spread
    region = first | _beyond_no_edge(near, first, cv2.cvtColor(blurred, cv2.COLOR_BGR2GRAY))
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = np.zeros_like(region)
    cv2.drawContours(hull, [cv2.convexHull(max(contours, key=cv2.contourArea))], -1, 255, -1)
    return hull


def _closed(near: np.ndarray) -> np.ndarray:
    """0/255 mask of ``near`` (True/False) with its small gaps closed (a sixtieth of the
    picture's short side: the dust and marks on a floor)."""
    h, w = near.shape
    k = max(3, (min(h, w) // 60) | 1)
    return cv2.morphologyEx(near.astype(np.uint8) * 255, cv2.MORPH_CLOSE,
                            np.ones((k, k), np.uint8))


def _largest(near: np.ndarray) -> np.ndarray | None:
    """0/255 mask of the largest connected region of ``near`` (True/False), small gaps
    closed first; None when there is none."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(_closed(near))
    if n <= 1:
        return None
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    return (labels == biggest).astype(np.uint8) * 255


EDGE_THRESHOLDS = (10, 30)
"""Canny's thresholds for the edges the floor found against its shading does not cross
(:func:`_beyond_no_edge`): a tray's wall, the rim of a sheet, a strip beside it."""


def _beyond_no_edge(near: np.ndarray, first: np.ndarray, grey: np.ndarray) -> np.ndarray:
    """0/255 mask of the floor ``near`` its shading that is reached from ``first`` without
    crossing an edge of ``grey``: a strip as light as the floor beside it (with its studs,
    then found as things left in the tray) is not taken in across its rim."""
    mask = _closed(near)
    edges = cv2.dilate(cv2.Canny(grey, *EDGE_THRESHOLDS), np.ones((3, 3), np.uint8))
    mask[edges > 0] = 0
    n, labels = cv2.connectedComponents(mask, connectivity=4)
    counts = np.bincount(labels[first > 0], minlength=n)
    counts[0] = 0  # not floor
    if n <= 1 or counts.max() == 0:
        return np.zeros_like(first)
    return np.where(labels == int(np.argmax(counts)), 255, 0).astype(np.uint8)


SHADING_STEP = 8
"""Every how many pixels, each way, the floor's lightness is sampled for its shading."""


def _shading(lightness: np.ndarray, floor: np.ndarray) -> np.ndarray:
    """A smooth surface (a quadratic in x and y) fitted to ``lightness`` where ``floor`` is
    set: how the light falls on the floor, at every pixel (worked out every
    :data:`SHADING_STEP` pixels and spread between them: the whole picture's terms would
    take 50 MB for a 1920x1080 frame)."""
    h, w = lightness.shape

    def terms(rows: int, cols: int) -> np.ndarray:
        ys, xs = np.mgrid[0:rows, 0:cols].astype(np.float32)
        xs, ys = xs * SHADING_STEP / w - 0.5, ys * SHADING_STEP / h - 0.5
        return np.stack([np.ones_like(xs), xs, ys, xs * xs, ys * ys, xs * ys], axis=-1)

    grid = terms(-(-h // SHADING_STEP), -(-w // SHADING_STEP))
    kept = floor[::SHADING_STEP, ::SHADING_STEP] > 0
    coef, *_ = np.linalg.lstsq(grid[kept], lightness[::SHADING_STEP, ::SHADING_STEP][kept],
                               rcond=None)
    coarse = (grid @ coef.astype(np.float32)).astype(np.float32)
    return cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)


def _quality(background: np.ndarray, roi: np.ndarray, die_px: float) -> QualityReport:
    """The quality report of a setup's empty tray, with
    :func:`vision.setupadvice.floor_advice` and :func:`vision.setupadvice.size_advice`."""
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


NO_DIE_TO_MEASURE = message(
    "advice.no_die_to_measure",
    "no die to measure: put a few dice on the tray floor, apart, and let them rest")()


def _die_size(dice_frame: np.ndarray, roi: np.ndarray, shape: tuple[int, ...]) -> float:
    """The die size measured on a frame with a few dice on the tray floor; ``ValueError``
    for a frame of another size than the tray's, one with no die to measure (the framing
    default in its place would be reported as measured), or dice of no usable size."""
    if dice_frame.shape != shape:
        h, w = shape[:2]
        raise ValueError(f"the frame with dice must have the size of the empty tray's "
                         f"frames ({w}x{h})")
    die_px = _pip_dice_size(dice_frame, roi)
    if die_px is None:
        die_px = estimate_die_px(dice_frame, roi)
    if die_px is None:
        raise ValueError(NO_DIE_TO_MEASURE)
    if problem := die_size_problem(die_px, dice_frame.shape):
        raise ValueError(f"the dice measured: {problem}")
    return die_px


def _pip_dice_size(dice_frame: np.ndarray, roi: np.ndarray) -> float | None:
    """The median box side of the pip dice the d6 reader reads sure in the frame, read at
    the size their boxes fit (:mod:`vision.dicescale`), or None when it reads none (no
    pip dice: SeaFall's, say, are measured by :func:`vision.detection.estimate_die_px`).
    The blob measure alone took pips and faces for dice once the dice are larger than the
    framing default: on the d6 val photos cut to 1280x720 about their dice, off by over
    1.3 times for 6 of 25 at 1.7 times the default and 24 of 25 at 2.5 times (dice of 77
    px measured 41, and every roll of the setup then read at 41); by this, 0 and 2."""
    from vision.reader import DiceReader  # the reader reads with setups: not at import

    read = DiceReader("d6", roi=roi, size_search=True).read(dice_frame)
    sure = [max(d.box[2], d.box[3]) for d in read.dice if not d.uncertain]
    return float(np.median(sure)) if sure else None


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
        if self.things_in_tray:  # first and alone: the dice in the frames skew the rest (a
            # sharp camera was "blurred"), which a check of the empty tray measures again
            return (THINGS_IN_TRAY(count=self.things_in_tray),)
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
        return self.setup.quality.advice + bands + jpeg + sides

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
                "quality": {**self.setup.quality.to_json(), "advice": list(self.advice),
                            # for a page to say the advice in its language (vision.said)
                            "advice_said": [said_json(a) for a in self.advice]}}


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
