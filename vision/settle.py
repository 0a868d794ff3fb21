"""Settle detection: read once per roll, never while dice move or a hand is in the tray.

:class:`SettleDetector` looks at a small grey copy of each frame (wider for small dice).
Motion is the share of pixels that changed since the previous frame, brought to its
brightness (light swinging over the whole tray is not motion), or since the tray began to
look still (a die sliding slowly); a hand is a large patch of skin colour that is neither
the floor nor the tray as it last settled (:mod:`vision.hands`: a wooden tray or table, a
warm lamp), or a blob unlike the tray as it last settled, far bigger than a die, reaching
in from the frame's edge with a sharp outline (any skin tone, a sleeve; a soft edge is a
player's shadow), or, with a calibrated empty tray, also a blob unlike the empty tray far
bigger than a die, the light taken out, with a sharp outline (one that stays still for
:data:`STALE_SECONDS` is a tray changed since its check, and the check is dropped until
the tray looks like it again). Skin colour held quite still for
:data:`STILL_SKIN_SECONDS` is taken as part of the tray (a wooden table's edge in view).
The tray is *settled* once it has been still, with no hand, for ``settle_seconds`` on the
injected clock; it is *settled once* per roll: the next read waits for new motion, and a
tray that settles again looking as it did at the last read (a hand in and out, the table
bumped, the camera unplugged and back: less than a quarter of a die's area changed) is
not read again.

Rolls (ids, re-rolls matched to the dice that moved) are :mod:`vision.rolls`.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

import cv2
import numpy as np

from vision.detection import DEFAULT_DIE_FRACTION
from vision.filters import blank
from vision.hands import (
    ANALYSIS_WIDTH,
    SHADE_LEAST,
    SkinScene,
    reaching_blob,
    skin_patch,
    small_colour,
    soft_edged,
)
from vision.lightbands import brought, row_gains, row_light
from vision.said import message

MIN_DIE_ANALYSIS_PX = 5.5
"""Smaller dice (a camera high over a large tray) are looked at wider, up to
:data:`MAX_ANALYSIS_WIDTH`, so that a die spans at least this many pixels: at 160 px a die
12 px across in 1280x720 is under 2 px, and one tumbling across the tray changed no pixel
enough to count, so the tray was read while it still rolled."""

MAX_ANALYSIS_WIDTH = 640

STALE_NOTE = message(
    "camera.stale",
    "the tray no longer looks like its empty-tray check (the light changed, or the camera or "
    "tray moved): check the empty tray again; until then a hand is told from the tray as it "
    "last settled only")()
"""What the camera's status and ``watch`` say once a detector drops its check."""

DRIFT_SECONDS = 3.0
"""Slow change counts as motion (:meth:`SettleDetector._drifted`) up to this long after the
last frame-to-frame motion or hand: a die slides or rolls slowly for a moment after a
throw, while a slow change that goes on (a shadow creeping, a colour cast) must not keep
the tray from ever settling."""

STILL_SKIN_NOTE = message(
    "camera.still_skin",
    "skin colour has held still in view for 10 s and is taken as part of the tray (a wooden "
    "table or tray edge?); calibrate the empty tray so that the camera knows it from the "
    "start")()
"""What the camera's status and ``watch`` say when still skin colour is taken into the tray
(:data:`STILL_SKIN_SECONDS`)."""

STILL_SKIN_SECONDS = 10.0
"""Skin colour that holds still, with no motion in the tray, for this long is part of the
scene (:class:`vision.hands.SkinScene`), not a hand: a wooden table's edge in view, a
cork mat beside the tray. A hand held still for this long is not picking dice up; until
then (the tray looked at with no calibration) the tray does not settle."""

REACH_DELTA = 18
"""Grey levels by which a pixel differs from the tray as it last settled to be part of a
hand told by its shape (:meth:`SettleDetector._reach`): the motion threshold's. A deep
skin tone (the Monk scale's 9, grey 51) over a floor of grey 72 differs by 21; the
empty-tray check's 40 missed it."""

DARK_LIGHT = 8.0
"""A frame whose median is under this many grey levels (the light over the tray off, a
lens cap), or under three times as many and of one flat shade (:func:`vision.filters.blank`:
a finger over the lens), shows nothing to compare others with: brought to its brightness,
a tray's dice and floor differ by less than the motion threshold, and so any tray looked
the same as it. Such a frame shows no hand, nor a tray unlike its empty-tray check (so the
check is kept), and settles at once; it is read (the reader tells the table the picture is
black or flat), but becomes neither the tray as last read nor the tray a hand is told from
(:func:`_shows_nothing`): before, the first throw after the lens was uncovered settled as
"the tray as it was at the last read" and was never read, and a checked tray held a
covered lens as a gloved hand for :data:`STALE_SECONDS`, then dropped its check.
A flat frame of a brighter shade is no such trouble (the tray brought to it keeps its
contrast), and a bright tray may look flat to :func:`vision.filters.blank` (a plain floor
with a few dice 12 px across) while it must be the tray a hand is told from."""

CHECK_DELTA = 40
"""Grey levels by which a pixel differs from the empty tray's check, the light's change
taken out, to be part of a blob unlike it (:meth:`SettleDetector._unlike_check`)."""

STALE_SECONDS = 5.0
"""A tray that looks unlike its empty-tray check over more than six dice' area, with no
motion and no skin in view, for this long is taken to have changed since the check (a
lamp lit on one side, the tray moved), not to hold a gloved hand: the check is dropped."""


class TrayState(enum.Enum):
    MOVING = "moving"
    HAND = "hand"
    STILL = "still"
    SETTLED = "settled"


@dataclass(frozen=True)
class SettleDecision:
    """What the detector concluded about one frame; ``read_now`` is true once per roll."""

    state: TrayState
    motion: float
    hand: float
    read_now: bool


def brightness(grey: np.ndarray) -> float:
    """A grey picture's median, over every few pixels (about 3,600 of them: a brightness
    to scale by, not a measure)."""
    step = max(1, int(np.sqrt(grey.size / 3600)))
    return float(np.median(grey[::step, ::step]))


class _Look(NamedTuple):
    """A small grey copy of a frame the detector keeps, with its :func:`brightness` and
    each row's (:func:`vision.lightbands.row_light`), measured once, however often the
    frame is compared with."""

    grey: np.ndarray
    light: float
    rows: np.ndarray

    @classmethod
    def of(cls, grey: np.ndarray) -> _Look:
        return cls(grey, brightness(grey), row_light(grey))


def _shows_nothing(look: _Look) -> bool:
    """Whether a frame is too dark or too flat to show a hand or a tray, or to be a tray
    others are compared with (:data:`DARK_LIGHT`)."""
    return look.light < DARK_LIGHT or (look.light < 3 * DARK_LIGHT and blank(look.grey))


def _changed(now: _Look, before: _Look | None, delta: int) -> np.ndarray | None:
    """Which pixels of ``now`` differ from ``before`` by more than ``delta`` grey levels,
    ``now`` brought to ``before``'s brightness first (:func:`_brought`): the light over
    the whole tray changing (a lamp, a camera's exposure, a flickering light, whole or in
    bands rolling across the frame) is not motion, nor a hand against the empty tray.
    None without a ``before`` of the same size."""
    grey = _brought(now, before)
    return None if grey is None else cv2.absdiff(grey, before.grey) > delta


def _brought(now: _Look, before: _Look | None, rows: bool = True) -> np.ndarray | None:
    """``now``'s grey brought to ``before``'s brightness (the ratio of their medians; with
    ``rows``, row by row where the two differ in bands, :mod:`vision.lightbands`); None
    without a ``before`` of the same size."""
    if before is None or before.grey.shape != now.grey.shape:
        return None
    grey = now.grey
    overall = before.light / now.light if now.light > 0 else 1.0
    gains = row_gains(now.rows, before.rows, overall) if rows else None
    if gains is not None:
        return brought(grey, gains)
    if now.light > 0 and now.light != before.light:
        return cv2.convertScaleAbs(grey, alpha=overall)
    return grey


@dataclass
class SettleDetector:
    """Decides, frame by frame, when the tray has settled.

    ``clock`` gives the frame time when frames come without a timestamp. ``background`` is
    an empty-tray frame (from calibration), used to see a still hand that is not skin-coloured
    (before the tray first settles too).
    """

    clock: Callable[[], float]
    settle_seconds: float = 0.4
    motion_threshold: float = 0.002
    hand_threshold: float = 0.01
    pixel_delta: int = 18
    background: np.ndarray | None = None
    die_px: float | None = None
    _previous: _Look | None = field(default=None, init=False, repr=False)
    _still_since: float | None = field(default=None, init=False, repr=False)
    _armed: bool = field(default=True, init=False, repr=False)
    _motion_mask: np.ndarray | None = field(default=None, init=False, repr=False)
    _small_bg: _Look | None = field(default=None, init=False, repr=False)
    _small_bg_for: tuple[int, ...] | None = field(default=None, init=False, repr=False)
    _last_read: _Look | None = field(default=None, init=False, repr=False)
    _still_frame: _Look | None = field(default=None, init=False, repr=False)
    _stirred_at: float | None = field(default=None, init=False, repr=False)
    _unlike_since: float | None = field(default=None, init=False, repr=False)
    _skin_scene: SkinScene | None = field(default=None, init=False, repr=False)
    _skin_still_since: float | None = field(default=None, init=False, repr=False)
    _clear: _Look | None = field(default=None, init=False, repr=False)
    """The tray as it last settled, with no hand, at :data:`vision.hands.ANALYSIS_WIDTH`
    (:meth:`_hand_look`): what a hand of any colour is told from without an empty-tray
    check (:meth:`_reach`); in colour, :attr:`_clear_scene`."""
    _clear_scene: SkinScene | None = field(default=None, init=False, repr=False)
    still_skin_taken: int = field(default=0, init=False)
    """How often skin colour that held still was taken into the tray's scene
    (:data:`STILL_SKIN_SECONDS`): a caller compares it before and after a frame to tell the
    table (:data:`STILL_SKIN_NOTE`)."""
    stale_background: bool = field(default=False, init=False)
    """True once the tray has looked unlike its empty-tray check, still and with no skin
    in view, for :data:`STALE_SECONDS`: the check is not used (check the tray again) until
    the tray looks like it again (the lamp turned off)."""

    def _die(self, shape: tuple[int, ...]) -> float:
        """The die size in a frame of ``shape``: the setup's, or the framing default."""
        return self.die_px or DEFAULT_DIE_FRACTION * min(shape[:2])

    def _die_at(self, shape: tuple[int, ...], width: int) -> float:
        """The die size in a copy ``width`` wide of a frame of ``shape``."""
        return self._die(shape) * width / shape[1]

    def _shrink(self, shape: tuple[int, ...]) -> int | None:
        """For small dice, the whole factor frames of ``shape`` are shrunk by for motion
        (a whole factor: OpenCV's area shrink is several times faster so); None when the
        :data:`ANALYSIS_WIDTH` copy shows dice of :data:`MIN_DIE_ANALYSIS_PX` or more."""
        w = shape[1]
        k = max(1, int(self._die(shape) / MIN_DIE_ANALYSIS_PX), math.ceil(w / MAX_ANALYSIS_WIDTH))
        return k if w // k > ANALYSIS_WIDTH else None

    def analysis_width(self, shape: tuple[int, ...]) -> int:
        """The width frames of ``shape`` are looked at for motion: :data:`ANALYSIS_WIDTH`,
        or wider for small dice (:data:`MIN_DIE_ANALYSIS_PX`, at most
        :data:`MAX_ANALYSIS_WIDTH`)."""
        k = self._shrink(shape)
        return ANALYSIS_WIDTH if k is None else shape[1] // k

    def _small(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The frame in colour (BGR) at :data:`ANALYSIS_WIDTH`, for the hand (a large
        patch: the small copy sees it), and in blurred grey at :meth:`analysis_width`, for
        motion. A grey or BGRA frame is taken as the reader takes it."""
        h, w = image.shape[:2]
        colour = small_colour(image)
        k = self._shrink(image.shape)
        if k is None:
            grey = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
        else:  # small dice: motion looked at wider (grey first: a third of the pixels)
            full = image[: h - h % k, : w - w % k]  # a whole factor (the last k-1 px off)
            if full.ndim == 3:
                full = cv2.cvtColor(full, cv2.COLOR_BGRA2GRAY if full.shape[2] == 4
                                    else cv2.COLOR_BGR2GRAY)
            grey = full if k == 1 else cv2.resize(full, (w // k, h // k),
                                                  interpolation=cv2.INTER_AREA)
        return colour, cv2.GaussianBlur(grey, (3, 3), 0)

    def _hand(self, ycrcb: np.ndarray, look: _Look, near: _Look) -> tuple[float, float]:
        """(the share of the frame's largest patch of skin colour that is not the tray's
        (:func:`vision.hands.hand_patch`) and is no shadow over it (:meth:`_shade`), the
        share of the largest blob unlike the empty tray where it is larger than six dice:
        0 without a background). ``ycrcb`` is the colour copy in YCrCb, ``near`` ``look``
        at its size."""
        scene = self._scene()
        patch, hand = skin_patch(ycrcb, scene)
        if (patch is not None and hand > self.hand_threshold and scene is not None
                and patch.shape == scene.skin.shape and self._shade(near, patch & scene.skin)):
            hand = 0.0
        if self.background is not None:
            if self._small_bg_for != look.grey.shape:
                self._small_bg = _Look.of(self._small(self.background)[1])
                self._small_bg_for = look.grey.shape
            unlike = self._unlike_check(look)
            if unlike is None:
                # the empty tray was taken at another aspect (another camera, or this one
                # at another mode): it says nothing of this frame, so skin alone counts (the
                # reader refuses the frame with the setup's size and what to do)
                return hand, 0.0
            return hand, unlike
        return hand, 0.0

    def _unlike_check(self, look: _Look) -> float | None:
        """The share of the frame of the largest blob unlike the empty tray's check
        (:data:`CHECK_DELTA`) where it is larger than six dice and no shadow, 0 where there
        is none; None when the check was taken at another aspect. The light may have
        changed since the check (evening lamps after a daytime check), so the frame is
        brought to the check's brightness first (as a whole, or row by row where the light
        differs in bands: :func:`_brought`). A blob whose edge rises softly
        (:func:`vision.hands.soft_edged`) is a shadow or a change of light over part of the
        tray, not a hand: a lamp lit on one side, or a player leaning over the table. Row
        by row, such a shadow over the near rows passes for a band of light, and the
        unshaded rest of those rows, brightened with them, becomes the blob; their gains
        follow the shadow's soft edge, so that blob rises softly too."""
        bg = self._small_bg
        grey = _brought(look, bg)
        if grey is None:
            return None
        fg = (cv2.absdiff(grey, bg.grey) > CHECK_DELTA).astype(np.uint8)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(fg)
        if n <= 1:
            return 0.0
        die = self._die_at(self.background.shape, look.grey.shape[1])
        best = int(np.argmax(stats[1:, cv2.CC_STAT_AREA])) + 1
        biggest = float(stats[best, cv2.CC_STAT_AREA])
        if biggest <= 6 * die * die:
            return 0.0
        if soft_edged(cv2.subtract(grey, bg.grey, dtype=cv2.CV_32F), labels == best):
            return 0.0  # a player's shadow over part of the tray, a lamp lit on one side
        return biggest / fg.size

    def update(self, image: np.ndarray, timestamp: float | None = None) -> SettleDecision:
        """Feed one BGR frame; says whether to read it now."""
        now = self.clock() if timestamp is None else timestamp
        colour, grey = self._small(image)
        look = _Look.of(grey)
        moved = _changed(look, self._previous, self.pixel_delta)
        if moved is None:
            moved = np.zeros(grey.shape, bool)
        self._previous = look
        motion = float(moved.mean())
        if self._motion_mask is None or self._motion_mask.shape != grey.shape:
            self._motion_mask = np.zeros(grey.shape, np.uint8)
        self._motion_mask |= moved.astype(np.uint8)
        near = self._hand_look(look, colour)
        ycrcb = cv2.cvtColor(colour, cv2.COLOR_BGR2YCrCb)  # for skin and for the shape
        # a frame that shows nothing (the lens covered, the light off: DARK_LIGHT) shows no
        # hand, nor a tray unlike its check: it settles at once, to be read and the table
        # told, and leaves the check as it was
        blind = _shows_nothing(look)
        skin, unlike = (0.0, 0.0) if blind else self._hand(ycrcb, look, near)
        moving = motion > self._moving_share(grey.shape, image.shape)
        reach = 0.0 if blind else self._reach(near, ycrcb, image.shape)
        if self._skin_held_still(max(skin, reach), moving, now):
            self._skin_scene = SkinScene.of(colour)
            self._clear, self._clear_scene = near, self._skin_scene
            self.still_skin_taken += 1
            skin, reach = skin_patch(ycrcb, self._skin_scene)[1], 0.0
        skin = max(skin, reach)
        if moving or skin > self.hand_threshold:
            self._stirred_at = now
        elif (self._stirred_at is not None and now - self._stirred_at <= DRIFT_SECONDS
              and self._drifted(look, self._unchanged_share(grey.shape, image.shape))):
            moving = True
        hand = skin if blind else max(skin, self._unlike_hand(unlike, skin, moving, now))
        if hand > self.hand_threshold:
            self._still_since = None
            self._armed = True
            return SettleDecision(TrayState.HAND, motion, hand, False)
        if moving:
            self._still_since = None
            self._armed = True
            return SettleDecision(TrayState.MOVING, motion, hand, False)
        if self._still_since is None:
            self._still_since, self._still_frame = now, look
        if now - self._still_since < self.settle_seconds:
            return SettleDecision(TrayState.STILL, motion, hand, False)
        # settled, no hand: the tray as it is now is what a hand is told from (unless it
        # shows nothing to tell anything from)
        if not blind:
            self._skin_scene = self._clear_scene = SkinScene.of(colour)
            self._clear = near
        if self._armed:
            self._armed = False
            if self._as_last_read(look, image.shape):  # stirred, nothing changed: no roll
                return SettleDecision(TrayState.SETTLED, motion, hand, False)
            if not blind:
                self._last_read = look
            return SettleDecision(TrayState.SETTLED, motion, hand, True)
        return SettleDecision(TrayState.SETTLED, motion, hand, False)

    @property
    def skin_scene(self) -> SkinScene | None:
        """The tray with no hand in it that skin colour is told from (the empty tray's
        check at first, then the tray as it last settled): the reader is given it to judge
        a settled frame as this detector did (:meth:`vision.reader.DiceReader.read`)."""
        return self._scene()

    def _scene(self) -> SkinScene | None:
        """The skin scene: the last one taken, or the empty tray's check (None without)."""
        if self._skin_scene is None and self.background is not None:
            self._skin_scene = SkinScene.of(small_colour(self.background))
        return self._skin_scene

    def _reach(self, look: _Look, ycrcb: np.ndarray, shape: tuple[int, ...]) -> float:
        """A hand of any skin tone, or a sleeve: the share of the frame of a blob unlike
        the tray as it last settled, larger than six dice and reaching in from the frame's
        edge (:func:`vision.hands.reaching_blob`): :data:`REACH_DELTA` grey levels off, the
        light's change taken out, or of another colour
        (:meth:`vision.hands.SkinScene.tinted`), unless its edge is soft (a shadow,
        :func:`vision.hands.soft_edged`); ``look`` is the frame at the hand's width
        (:meth:`_hand_look`), ``ycrcb`` its colour copy in YCrCb. 0 before the tray first
        settles. Asked with an empty-tray check too (:meth:`_hand`): the check is 40 grey
        levels off a tray that may since have been lit otherwise, and until the
        forty-second session a checked tray, which asked the check alone, missed a still
        hand the tray as it settled shows (a light tone on the photos' white sheet, a deep
        one on a dark grey floor, within a player's shadow)."""
        if self._clear is None:
            return 0.0
        grey = _brought(look, self._clear)
        if grey is None:
            return 0.0
        unlike = cv2.absdiff(grey, self._clear.grey) > REACH_DELTA
        if self._clear_scene is not None and self._clear_scene.fits(ycrcb):
            unlike |= self._clear_scene.tinted(ycrcb)
        found = reaching_blob(unlike, self._die_at(shape, look.grey.shape[1]))
        if found is None:
            return 0.0
        blob, share = found
        if soft_edged(cv2.subtract(grey, self._clear.grey, dtype=cv2.CV_32F), blob):
            return 0.0  # a player's shadow, or the light changed over part of the tray
        return share

    def _shade(self, near: _Look, patch: np.ndarray) -> bool:
        """Whether a patch of skin colour unlike the tray's scene, over the scene's own
        skin colour (``patch``, in the frame at the colour copy's size, ``near``:
        :meth:`_hand_look`) is a shadow over a skin-coloured floor: it lies mostly in a
        part of the tray that has darkened since it last settled, softly
        (:func:`vision.hands.soft_edged`). A player leaning over a wooden tray darkens the
        wood out of its scene's colour; the patch itself may take in the places the dice
        left (wood the scene did not show), so the darkening is judged, not the patch."""
        if self._clear is None:
            return False
        # the whole frame's gain only: a shadow over the near rows would pass for bands
        grey = _brought(near, self._clear, rows=False)
        if grey is None:
            return False
        diff = cv2.subtract(grey, self._clear.grey, dtype=cv2.CV_32F)
        n, labels = cv2.connectedComponents((diff < -SHADE_LEAST).astype(np.uint8))
        hits = np.bincount(labels[patch], minlength=n)
        hits[0] = 0
        darkened = int(np.argmax(hits))
        if darkened == 0 or hits[darkened] < 0.5 * np.count_nonzero(patch):
            return False
        return soft_edged(diff, labels == darkened)

    @staticmethod
    def _hand_look(look: _Look, colour: np.ndarray) -> _Look:
        """The frame's look at the hand's width (:data:`vision.hands.ANALYSIS_WIDTH`, the
        colour copy's): ``look`` itself, unless small dice have motion looked at wider; a
        hand is large, and at 640 px wide its shape took 2 ms more a frame."""
        if look.grey.shape == colour.shape[:2]:
            return look
        return _Look.of(cv2.GaussianBlur(cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY), (3, 3), 0))

    def _skin_held_still(self, skin: float, moving: bool, now: float) -> bool:
        """Whether a hand by its skin colour or its shape (``skin``, its share) has held
        still, with no motion in the tray, for :data:`STILL_SKIN_SECONDS`: it is then part
        of the tray."""
        if skin <= self.hand_threshold or moving:
            self._skin_still_since = None
            return False
        if self._skin_still_since is None:
            self._skin_still_since = now
        if now - self._skin_still_since < STILL_SKIN_SECONDS:
            return False
        self._skin_still_since = None
        return True

    def _unlike_hand(self, unlike: float, skin: float, moving: bool, now: float) -> float:
        """The share of a blob unlike the empty tray that counts as a hand. A large still
        blob, not skin: a gloved hand holds still for a moment, while a tray that no longer
        looks like its check (the light changed, the camera or tray was moved) stays so.
        After :data:`STALE_SECONDS` it is the latter: the check is dropped (skin alone shows
        a hand; :attr:`stale_background`) until the tray looks like it again."""
        if self.stale_background:
            self.stale_background = unlike > self.hand_threshold
            return 0.0
        if unlike > self.hand_threshold >= skin and not moving:
            if self._unlike_since is None:
                self._unlike_since = now
            elif now - self._unlike_since >= STALE_SECONDS:
                self.stale_background, self._unlike_since = True, None
                return 0.0
        else:
            self._unlike_since = None
        return unlike

    def _drifted(self, look: _Look, share: float) -> bool:
        """Whether the tray, looking still from frame to frame, has changed since it began
        to (more than ``share`` of its pixels: a quarter of a die's area): a die sliding or
        rolling slowly changes few pixels between two frames, yet is not at rest. Its
        changes count as motion (within :data:`DRIFT_SECONDS` of the last motion)."""
        drift = None if self._still_since is None else _changed(
            look, self._still_frame, self.pixel_delta)
        if drift is None or float(drift.mean()) <= share:
            return False
        if self._motion_mask is not None and self._motion_mask.shape == drift.shape:
            self._motion_mask |= drift.astype(np.uint8)
        return True

    def _moving_share(self, small: tuple[int, ...], shape: tuple[int, ...]) -> float:
        """The share of pixels whose change means motion: :attr:`motion_threshold`, or a
        die's area where that is less (small dice: one tumbling alone still counts)."""
        die = self._die_at(shape, small[1])
        return min(self.motion_threshold, die * die / (small[0] * small[1]))

    def _as_last_read(self, look: _Look, shape: tuple[int, ...]) -> bool:
        """Whether the tray looks as it did when it was last read: a hand went in and out,
        the table was bumped, the camera was unplugged and back, and no die was thrown.
        Less than a quarter of a die's area may differ (and at most the share that counts
        as motion): one small die thrown again, far from the camera, still changes more.
        The roll tracker judges each die again (:mod:`vision.rolls`), so a read made when
        in doubt records no roll if no die was thrown."""
        changed = _changed(look, self._last_read, self.pixel_delta)
        return changed is not None and float(changed.mean()) <= self._unchanged_share(
            look.grey.shape, shape)

    def _unchanged_share(self, small: tuple[int, ...], shape: tuple[int, ...]) -> float:
        """The share of pixels that may change between two still moments of the tray for
        it to be the same: a quarter of a die's area, at most :attr:`motion_threshold`."""
        die = self._die_at(shape, small[1])
        return min(0.25 * die * die / (small[0] * small[1]), self.motion_threshold)

    def take_over(self, old: SettleDetector) -> SettleDetector:
        """This detector (another tray setup's, for the same camera) goes on from where
        ``old`` was: the last frame it saw, how long the tray has been still, whether the
        roll was read, where things moved, the tray at the last read. A new setup is not a
        new roll: the dice on the tray are not read again for it. Returns itself."""
        self._previous, self._still_since = old._previous, old._still_since
        self._still_frame, self._stirred_at = old._still_frame, old._stirred_at
        self._armed, self._last_read = old._armed, old._last_read
        self._motion_mask, self._clear = old._motion_mask, old._clear
        self._clear_scene = old._clear_scene
        return self

    def resume(self) -> None:
        """The source was lost and is back: the tray must be seen still again before a
        read, and what changed while it was away counts as motion (the first frame back is
        compared with the last one before), so dice thrown meanwhile are read once they
        settle and a tray left as it was is not read again as a new roll."""
        self._still_since = None

    def take_motion(self, shape: tuple[int, ...]) -> np.ndarray:
        """Where anything moved since the last call, as a 0/1 mask of ``shape`` (h, w)."""
        if self._motion_mask is None:
            return np.zeros(shape[:2], np.uint8)
        mask = cv2.resize(self._motion_mask, (shape[1], shape[0]), interpolation=cv2.INTER_NEAREST)
        self._motion_mask = np.zeros_like(self._motion_mask)
        return mask
