"""The dice reader: detection, then a classifier for the dice (face network, pips or profile)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from vision.boxes import TOP_FACE_SHIFT, clipped, toward_top_face, unscaled
from vision.boxfixes import drop_overlapping, grown
from vision.compression import (
    COMPRESSED_SURE_FROM,
    ENROLLED_SURE_FROM,
    compressed_sure_from,
    dice_jpeg_quality,
)
from vision.crops import WIDE_MARGIN, crop
from vision.detection import (
    WORK_DIE_PX,
    Detection,
    DetectionSettings,
    WorkFrame,
    detect,
    detection_like,
    die_size_problem,
    estimate_die_px,
    expected_die_px,
    to_work,
)
from vision.dicefinder import (
    CHECKED_THRESHOLD,
    DiceFinder,
    default_dice_finder,
    scaled,
    wide_dice_finder,
)
from vision.dicescale import best_read, in_pieces, told_size_is_wrong, told_size_wrong
from vision.dieornot import (
    DIE_FROM,
    body_dice_finder,
    default_die_or_not,
    wide_body_dice_finder,
)
from vision.enrollment import Profile
from vision.facenet import FaceNet, default_face_net, default_quick_net
from vision.filters import colourless, floor_grey
from vision.framewarnings import frame_warnings
from vision.hands import SkinScene
from vision.imagefile import read_file, shape_problem
from vision.lampcast import without_cast
from vision.otherdice import checked, pip_looks
from vision.pipnets import NET_NOT_A_DIE, NEVER, PipNets, dark_floor_nets
from vision.pips import count_pips
from vision.plainsquares import plain_squares as find_plain_squares
from vision.reading import Box, DieRead, TrayRead
from vision.sideview import lens_problem, read_under_lens
from vision.transparency import under_transparency

D6_UNCERTAIN_BELOW = 0.5
"""A pip read with a lower confidence is marked uncertain (tuned on train/val)."""

NOT_A_DIE_RESPONSE = 20.0
"""A candidate whose strongest pip-like mark is weaker than this is not taken for a die."""

NOT_A_DIE_SIMILARITY = 0.2
"""An enrolled read less similar than this to every face is not taken for a die."""

DARK_NETS_BELOW = 110.0
"""A frame whose tray floor (:func:`vision.filters.floor_grey`, over the tray region when
calibrated) is darker than this grey is read by the pip networks trained on darker floors
(:data:`vision.dicefinder.DARK_MODEL_PATH`, :data:`vision.facenet.DARK_MODEL_PATH` and its
quick look; ``docs/vision.md``, *Which tray floor*); a lighter one by the packaged
networks, which read light floors best. Thirtieth session: the networks trained with
floors repainted darker read the val photos repainted a grey of 72 and 40 far better
(198 and 197 of 204 sure and right, none wrong, against 191 and 161 with 1 and 4 wrong)
but light floors a little worse (out of fold 99.58% sure against 99.86%). At 125 and 100
the two sets read alike (202 against 203, 199 and 199). 110 is the floor under which
``tableside calibrate`` advises a lighter one (:data:`vision.setupadvice.LIGHT_FLOOR`);
the d6 photos' floors are 175-187."""

WIDE_NETS_FROM = 45.0
"""A reader told a lens at least this wide (degrees across the picture) finds dice with
the detectors that learned dice seen from the side
(:data:`vision.dicefinder.WIDE_MODEL_PATH` for pip dice on a light floor,
:data:`vision.dicefinder.DARK_WIDE_MODEL_PATH` on a dark one,
:data:`vision.dieornot.WIDE_BODIES_PATH` for custom-face dice); a narrower lens, or none
told, with the packaged ones. Fifty-seventh session: on dice drawn seen from the side
through the lens (``benchmarks/bench_side_view.py``, pip dice drawn as cubes and SeaFall
sets) they leave far fewer dice wrong and sure, missed, or read where none lies from 45
degrees, where the packaged detectors box the sides of the dice far out as dice; but on
the d6 photos, taken nearly straight down, they find a few dice fewer (9 of the train
split's 1,458 dice missed against 7 by the pip reader; the enrolled stand-in's recall
there 99.1% against 99.4%). 45 degrees is the widest lens ``docs/vision.md`` advises the
tray to span (*Camera height and framing*). Since the fifty-eighth session such a reader
finds pip dice on a dark floor (:data:`DARK_NETS_BELOW`) with the dark-floor detector that
learned the drawn dice too (:data:`vision.dicefinder.DARK_WIDE_MODEL_PATH`), read by the
dark-floor face networks: on drawn trays of grey 100 and 60 through a 64-degree lens it
leaves 6-9 dice of 492 wrong and sure and 1-2 read where none lies, against 22-30 and
26-39; on the d6 photos repainted a grey of 40 it finds 7 train dice fewer (of 1,458),
so a narrower lens keeps the dark-floor detector. Custom-face dice on a dark floor are
found by the body detector for a wide lens too, with the dark floor's peak threshold and
plain squares (:data:`DARK_BODY_THRESHOLD`): on drawn SeaFall sets of grey 72 through 64
degrees and of grey 30 through 72 it finds 491 and 475 of 492 dice against 486 and 442,
and reads 376 and 298 sure and right against 365 and 285, none wrong and sure and none
where no die lies either way; on the d6 photos repainted a grey of 100 / 72 / 40 it finds
4 / 9 / 8 of the train split's 1,458 dice fewer."""

DARK_BODY_THRESHOLD = 0.25
"""The body detector's peak threshold on a frame whose floor is darker than
DARK_NETS_BELOW (custom-face dice; the die-or-not check checks every candidate); lighter
frames keep :data:`vision.dieornot.BODY_THRESHOLD` (0.3). A pale die's blank face on a
dark floor is a plain bright square, and the detector, which learned dark floors from
photos of pip dice repainted, peaks on it at 0.1-0.3: on dark grey it missed 14 of 31
ivory blanks at 0.3 (thirty-first session). Measured on synthetic SeaFall trays, each
set enrolled at the table on its floor, the four floors under 110 (grey 100, dark grey,
green felt, black), four sets, 3,840 dice; found / read sure and right / wrong and sure /
boxes on no die:

  threshold   trays of bench_tray_floors (seeds 101, 202)   other trays (seeds 303, 404)
  0.3         3,549 / 3,520 / 1 / 2                         3,623 / 3,590 / 1 / 3
  0.25        3,603 / 3,571 / 1 / 6                         3,654 / 3,616 / 1 / 3
  0.2         3,641 / 3,597 / 4 / 12                        -

The ivory set gains most (on dark grey 208 found against 222, read sure and right 86.7%
against 92.5%); 0.2 finds more still but read 3 black dice more wrong and sure and made
twice the false boxes, so 0.25. The val photos repainted a grey of 40 get 7 boxes on no
die from the body path against 4 (pictures of dice on the box's walls, which a calibrated
tray region leaves out), and one more die found at 100. Placed on the packaged body
detector; since the fifty-eighth session the one for a wide lens reads a dark floor under
a lens from :data:`WIDE_NETS_FROM` at the same threshold, measured so (see there)."""

MIN_WORK_SCALE = 0.5
"""With the learned detector, a frame is scaled to the working size for cropping only when
that shrinks it below this (a 2736 px photo); nearer the working size (a 1280x720 camera
frame) crops are cut from the frame itself, which saves a resize per frame."""

UNREAD = "?"
"""The face of a die found but not read: a die with no enrolled profile yet, read with
``DiceReader(unknown_faces=True)``; the table gives its face (and so enrolls it)."""

ASKED_CONFIDENCE = 0.5
"""The most confidence a die the table pointed at is given (:meth:`DiceReader.read_boxes`):
the reader missed it, so its read is a suggestion for the table to confirm."""

DETECTORS = ("net", "classic")
"""How dice are found: the learned detector (default, :mod:`vision.dicefinder`) or the
classic edge-and-blob detector (:mod:`vision.detection`, kept for comparison)."""

D6_METHODS = ("net", "pips")
"""How a d6 is read without a profile: the learned face network (default) or pip counting."""

class _WideCrops(Sequence[np.ndarray]):
    """The dice of a frame cut with the wider margin (:data:`vision.crops.WIDE_MARGIN`),
    each cut when first asked for: a profile looks at the wide crops of the dice it is
    unsure of only (:meth:`vision.enrollment.Profile.classify_many`)."""

    def __init__(self, image: np.ndarray, boxes: list[Box]) -> None:
        self._image, self._boxes = image, boxes

    def __len__(self) -> int:
        return len(self._boxes)

    def __getitem__(self, i):  # noqa: ANN001, ANN204 - Sequence's index or slice
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        return crop(self._image, self._boxes[i], margin=WIDE_MARGIN)


def work_frame(frame: np.ndarray, die_px: float | None = None) -> WorkFrame:
    """The frame the reader (with the learned detector) cuts its crops from and measures a
    smear on: brought to the working size (:func:`vision.detection.to_work`) when that
    shrinks it below :data:`MIN_WORK_SCALE`, else the frame itself."""
    size = expected_die_px(frame.shape, die_px)
    if WORK_DIE_PX / size < MIN_WORK_SCALE:
        return to_work(frame, size)
    # crops are cut straight from a frame near the working scale (no resize)
    return WorkFrame(frame, 1.0, size)


def load_image(path: str | Path) -> np.ndarray:
    """Read a photo as BGR, or raise :class:`ImageError` saying why not. A JPEG over
    :data:`vision.imagefile.MAX_PIXELS` comes decoded at a half, a quarter or an eighth of
    its size (:meth:`DiceReader.read_path` gives boxes in the file's own pixels)."""
    return read_file(path).image


@dataclass
class DiceReader:
    """Reads every die in a frame as faces of ``die``.

    Without a profile the die must be ``d6``, read by the face network (``d6_method="net"``,
    :mod:`vision.facenet`) or by counting pips (``"pips"``). With a profile, faces are
    the profile's enrolled symbols. ``die_px`` and ``roi`` come from a tray calibration;
    a ``die_px`` that is no size or under :data:`vision.detection.MIN_DIE_PX` is a
    ``ValueError`` here, one larger than a frame at its read; without ``die_px`` the
    framing default is used, or, with ``estimate_size``, the die
    size is estimated on each frame (a second detection pass; it did not pay on the d6
    photos, whose framing matches the default). With ``unknown_faces``, a die other than
    d6 needs no profile: its dice are found but not read (face :data:`UNREAD`, uncertain,
    confidence 0), for the table to name them, as when enrolling at the table.
    """

    die: str = "d6"
    profile: Profile | None = None
    die_px: float | None = None
    roi: np.ndarray | None = None
    settings: DetectionSettings = DetectionSettings()  # noqa: RUF009 - frozen value
    keep_frame: bool = False
    estimate_size: bool = False
    d6_method: str = "net"
    detector: str = "net"
    clock: Callable[[], float] = time.perf_counter
    face_net: FaceNet | None = None
    """The d6 face network; None for the packaged one (another is for calibration)."""
    quick_net: FaceNet | None = None
    """The quick first look (:data:`vision.pipnets.QUICK_SURE`); None for the packaged one
    when the face network is the packaged one too, and for none with another face network
    (a calibration's fold network is read alone)."""
    quick_look: bool = True
    """False reads every die with the face network (for comparison)."""
    quick_none: float | None = None
    """A candidate the quick first look takes for no die with at least this probability
    (at least :data:`vision.pipnets.NET_NOT_A_DIE`) is dropped without the face network;
    None: as the packaged networks do (:data:`vision.pipnets.DARK_QUICK_NONE` on a dark
    floor, never on a light one). For calibration."""
    finder: DiceFinder | None = None
    """The pip-dice detector; None for the packaged ones (chosen by the floor and the lens
    with the packaged face network). Another is for calibration: the dark-floor detector with a
    fold's face network (:mod:`vision.training.calibrate_dark`)."""
    unknown_faces: bool = False
    floor_networks: bool = True
    """With the packaged pip networks, a frame whose floor is darker than
    :data:`DARK_NETS_BELOW` is read by those trained on darker floors; False reads every
    frame with the light-floor ones (for comparison). A reader given its own face network
    reads every frame with it."""
    body_check: bool = True
    """Custom-face dice (read by a profile, or unknown faces) are found by the body
    detector and kept only when the die-or-not check takes them for dice
    (:mod:`vision.dieornot`: a blank face has no mark to be found by); False finds them
    with the pip-dice detector alone, as before the sixth session (for comparison)."""
    plain_squares: bool = True
    """On a floor darker than :data:`DARK_NETS_BELOW`, custom-face dice are looked for as
    plain squares standing out from the floor too, where the body detector has boxed
    little or nothing (:mod:`vision.plainsquares`: a pale die's blank face on a dark
    floor), the die-or-not check keeping or dropping each; False finds them by the body
    detector alone, as before the thirty-eighth session (for comparison)."""
    neighbours: bool = True
    """A die a profile is unsure of is read again with the frame's sure dice as templates
    too (:mod:`vision.neighbours`); False reads each die by the profile alone, as before
    the fourteenth session (for comparison)."""
    smear_check: bool = True
    """Dice in a frame the camera smeared (:mod:`vision.smear`: pip dice from
    :data:`vision.smear.SMEAR_FROM`, enrolled dice from above their faces' own direction,
    :func:`vision.smear.smear_from`) are read every one uncertain, with a warning; False
    reads them as they look, as before the fifty-second session (pip dice) and the
    fifty-third (enrolled dice), for calibration (:mod:`vision.training.calibrate_smear`)."""
    compression_check: bool = True
    """Dice in a frame that shows JPEG compression are read sure only from the confidence
    :func:`vision.compression.compressed_sure_from` gives for its quality and dice size
    (pip dice by :data:`vision.compression.COMPRESSED_SURE_FROM`, enrolled ones by
    :data:`vision.compression.ENROLLED_SURE_FROM`); False reads them by the networks' or
    the profile's rule alone, as before the fifty-fourth session, for calibration."""
    top_face_shift: float = TOP_FACE_SHIFT
    """Custom-face dice (read by a profile, or unknown faces kept for the table to name)
    are cut about their top face: each box moved out from the frame's centre by this
    share of its distance from it, as a camera over the tray sees the dice
    (:func:`vision.boxes.toward_top_face`; :data:`vision.boxes.TOP_FACE_SHIFT`, the
    default, measured on the d6 photos and synthetic trays). 0 cuts them about their
    whole outline, as before the twenty-fifth session. The profile's crops are cut the
    same way (:func:`vision.enroll.crops_from_photos`; crops the table teaches are the
    reader's own). The d6 face network always reads crops about the outline, as it was
    trained. Reported boxes are the outline's either way."""
    size_search: bool = False
    """Read a photo at several die sizes about the one told or the framing default and
    keep the read whose dice are boxed nearest the size it was read at
    (:mod:`vision.dicescale`): a phone held close over a few dice is read at its dice's
    own size. When the size was told (``die_px``) and another fits
    better by far (:func:`vision.dicescale.told_size_is_wrong`), every die is marked
    uncertain with a warning (:func:`vision.dicescale.told_size_wrong`). For
    photos (the CLI's, the phones' uploads): a camera's frames are read at its setup's
    size, or at the size its first roll fitted (:mod:`vision.camerasize`), once. Pip d6
    only (measured on the d6 photos): dice of a profile, or unread, are found by the body
    detector, which boxes a die much larger than the size it looks for in pieces that fit
    it; their photos, read at the framing default, are checked for pieces instead
    (:func:`vision.dicescale.in_pieces`: every die uncertain, with a warning)."""
    lens_degrees: float | None = None
    """The camera's lens angle across the picture's width, when known (a setup's:
    :attr:`vision.calibration.Calibration.lens_degrees`). Dice read by a profile that show
    much of their sides under it, far out under a wide lens, are read sure only from the
    confidence :func:`vision.sideview.side_sure_from` gives (:data:`vision.sideview.
    SIDE_SURE_FROM`); two dice far out that may be one die and its side boxed as a die
    (:func:`vision.sideview.side_pairs`), pip or custom, are both marked uncertain; from
    :data:`WIDE_NETS_FROM`, dice are found by the detectors that learned dice seen from
    the side (pip dice's and custom dice's bodies). None (the default, a photo or a camera
    not calibrated with its lens) does none of these."""
    other_dice_check: bool = True
    """Dice a profile reads that the d6 face network reads surely as pip faces its own
    crops never look like are pip dice in a tray of symbol dice (:mod:`vision.otherdice`):
    uncertain, and every die with a warning when most are; False reads them as the
    profile does, as before the eighty-first session (for comparison)."""
    _pip_looks: frozenset[str] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.profile is None and self.die != "d6" and not self.unknown_faces:
            raise ValueError(
                f"the {self.die} die has no built-in reader: enroll its faces "
                f"(tableside enroll --die {self.die} --profile NAME ...) and pass --profile"
            )
        if self.detector not in DETECTORS:
            raise ValueError(f"detector must be one of {', '.join(DETECTORS)}")
        if self.lens_degrees is not None and (problem := lens_problem(self.lens_degrees)):
            raise ValueError(problem)
        if self.d6_method not in D6_METHODS:
            raise ValueError(f"d6_method must be one of {', '.join(D6_METHODS)}")
        if self.die_px is not None and (problem := die_size_problem(self.die_px)):
            raise ValueError(problem)
        if self.profile is not None and self.profile.die != self.die:
            raise ValueError(
                f"profile {self.profile.name!r} is for the {self.profile.die} die, not {self.die}"
            )
        # load the models now (once per process) so a missing one is a clear error here,
        # not in the middle of a read
        if self._by_body:
            body_dice_finder()
            default_die_or_not()
            if self._wide_lens:
                wide_body_dice_finder()
        elif self.detector == "net":
            default_dice_finder()
            if self._wide_lens and self.finder is None:
                wide_dice_finder()
        if self.profile is None and self.d6_method == "net" and self.face_net is None:
            self.face_net = default_face_net()
            if self.quick_look and self.quick_net is None:
                self.quick_net = default_quick_net()
        if not self.quick_look:
            self.quick_net = None
        if self.quick_none is not None and self.quick_none < NET_NOT_A_DIE:
            raise ValueError(f"quick_none must be at least NET_NOT_A_DIE ({NET_NOT_A_DIE}): "
                             "a candidate the quick look keeps from the face network is "
                             "dropped by the same rule")

    def read(self, frame: np.ndarray, frame_ref: str = "frame",
             skin_scene: SkinScene | None = None) -> TrayRead:
        """Every die found in a BGR frame, with faces, confidences and evidence crops.
        ``skin_scene``: the tray with no hand in it, from the settle detector that chose
        the frame (:attr:`vision.settle.SettleDetector.skin_scene`), so that the skin colour
        it shows (a wooden tray or table) is not taken for a hand; a single photo is
        judged by itself (:mod:`vision.hands`).
        ``ValueError`` when the reader has a tray region (a calibration's) of another size
        than the frame, the frame is too small or too long and narrow to show a tray
        (:func:`vision.imagefile.shape_problem`), or the reader's die size does not fit in
        it (:func:`vision.detection.die_size_problem`)."""
        start = self.clock()
        problem = shape_problem(frame.shape[1], frame.shape[0])
        if problem:
            raise ValueError(f"the frame is {problem}")
        grey = colourless(frame)
        if frame.ndim == 2:
            frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        elif frame.shape[2] == 4:
            frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
        if self.profile is None and not grey:  # pip dice: a harsh lamp's cast taken out
            frame = without_cast(frame)
        if self.roi is not None and self.roi.shape[:2] != frame.shape[:2]:
            raise ValueError(
                f"the frame is {frame.shape[1]}x{frame.shape[0]} but the tray was calibrated "
                f"at {self.roi.shape[1]}x{self.roi.shape[0]}: calibrate this camera at this "
                "size, or read without the setup")
        die_px = self.die_px
        if die_px is not None and (problem := die_size_problem(die_px, frame.shape)):
            raise ValueError(problem)
        if die_px is None and self.estimate_size:
            die_px = estimate_die_px(frame, self.roi)

        def read_at(size: float | None) -> TrayRead:
            return self._read_at(frame, grey, size, frame_ref, skin_scene)

        read = read_at(die_px)
        if self.size_search and self.detector == "net" and self._by_face_net:
            assumed = expected_die_px(frame.shape, die_px)
            read, size = best_read(read_at, assumed, min(frame.shape[:2]), read,
                                   told=self.die_px is not None)
            if self.die_px is not None and told_size_is_wrong(assumed, size):
                read = told_size_wrong(read, assumed)
        elif self.size_search and self.detector == "net" and self.custom_faces and die_px is None:
            read = in_pieces(read_at, lambda size: self._body_boxes(frame, size),
                             expected_die_px(frame.shape), min(frame.shape[:2]), read)
        if self.profile is not None and self.profile.crops is not None and self.other_dice_check:
            read = self._other_dice(read, frame)
        return replace(read, ms=(self.clock() - start) * 1000.0)

    def _other_dice(self, read: TrayRead, frame: np.ndarray) -> TrayRead:
        """:func:`vision.otherdice.checked`, with what the profile's crops look like worked
        out once a reader."""
        assert self.profile is not None and self.profile.crops is not None
        if self._pip_looks is None:
            self._pip_looks = pip_looks(self.profile.crops, default_face_net())
        return checked(read, frame, self._pip_looks, default_face_net(), self.profile.name)

    def _read_at(self, frame: np.ndarray, grey: bool, die_px: float | None, frame_ref: str,
                 skin_scene: SkinScene | None) -> TrayRead:
        """:meth:`read` of a frame (BGR; ``grey``: it was grey before) at a die size (None:
        the framing default), its ``ms`` left 0."""
        work, found, small, nets = self._find(frame, die_px)
        work_roi = None
        if self.roi is not None:
            work_roi = cv2.resize(self.roi, (work.image.shape[1], work.image.shape[0]),
                                  interpolation=cv2.INTER_NEAREST)
        crops = [crop(work.image, det.work_box) for det in found]
        if self._by_body and found:
            found, crops = self._checked_bodies(work, found, crops)
        crops, reads = self._faces_of(work, found, crops, nets, self.neighbours)
        dice: list[DieRead] = []
        unlike = 0  # found, but like none of the profile's faces
        for det, c, read in zip(found, crops, reads, strict=True):
            if read is None:
                unlike += self.profile is not None
                continue
            face, confidence, uncertain = read
            if self._is_cut(det.work_box, work.image.shape, work_roi):
                # half outside the frame or the tray: what shows may not be the whole face
                confidence, uncertain = min(confidence, 0.3), True
            dice.append(DieRead(face, confidence, uncertain, det.box, c))
        dice = drop_overlapping(dice)
        quality, compressed = None, 0.0
        if self._scored and dice and self.compression_check:
            # a camera's JPEG blurs pips and symbols into blocks, and the face networks and
            # profiles grow sure of some wrong faces: read sure from higher (vision.compression)
            quality, compressed = self._compressed(
                frame, dice, COMPRESSED_SURE_FROM if self.profile is None else ENROLLED_SURE_FROM)
            dice = [replace(d, uncertain=True) if d.confidence < compressed else d
                    for d in dice]
        if self.lens_degrees is not None:
            # far out under a wide lens the dice show their sides: a side, pips or marks and
            # all, may be boxed as a die beside its own (the table tells one die from two),
            # and custom dice are boxed off their top faces, read sure from higher
            # (vision.sideview)
            dice = read_under_lens(dice, frame.shape, self.lens_degrees,
                                   custom=self.profile is not None)
        warnings = frame_warnings(frame, grey, work, small, dice, die=self.die,
                                  profile=self.profile, unlike=unlike,
                                  smear_check=self.smear_check, skin_scene=skin_scene)
        if warnings:
            dice = [DieRead(d.face, min(d.confidence, 0.2), True, d.box, d.crop) for d in dice]
        # boxed where they show in the frame (a die at the edge was boxed past it)
        dice = [replace(d, box=clipped(d.box, frame.shape[1], frame.shape[0])) for d in dice]
        dice.sort(key=lambda d: (d.box[1] + d.box[3] // 2, d.box[0]))
        return TrayRead(self.die, tuple(dice), frame_ref, 0.0,
                        frame if self.keep_frame else None, tuple(warnings), quality, compressed,
                        work.die_px)

    @property
    def _scored(self) -> bool:
        """Whether a die's confidence is a profile's or the face network's score (which a
        hard-compressed frame makes surer than it should: :mod:`vision.compression`), not
        a pip count's, nor none (dice of a die not known yet)."""
        return self.profile is not None or (self.die == "d6" and self._by_face_net)

    def _faces_of(self, work: WorkFrame, found: Sequence[Detection], crops: list[np.ndarray],
                  nets: PipNets | None, neighbours: bool
                  ) -> tuple[list[np.ndarray], list[tuple[str, float, bool] | None]]:
        """Each found die's crop (a custom-face die's cut about its top face) and its read,
        ``(face, confidence, uncertain)`` or None for no die (like none of a profile's
        faces, or no pips): every crop of the frame in one forward pass; a profile looks
        again at each unsure die cut wider, in case its box cuts marks off (and, with
        ``neighbours``, at the frame's sure dice). Dice of a die not known yet are found,
        not read (:data:`UNREAD`)."""
        cut = [det.work_box for det in found]  # what each crop is cut about
        if self.custom_faces and self.top_face_shift:
            cut = [toward_top_face(b, work.image.shape, self.top_face_shift) for b in cut]
            crops = [crop(work.image, b) for b in cut]
        if self.profile is not None:
            guesses = self.profile.classify_many(crops, _WideCrops(work.image, cut),
                                                 neighbours=neighbours)
            return crops, [None if g.similarity < NOT_A_DIE_SIMILARITY
                           else (g.face, g.confidence, g.uncertain) for g in guesses]
        if self.die != "d6":
            return crops, [(UNREAD, 0.0, True)] * len(crops)
        if self._by_face_net:
            assert nets is not None
            return crops, list(nets.read(crops, work.image, [det.work_box for det in found]))
        return crops, [self._classify(c, crop(work.image, det.work_box, margin=WIDE_MARGIN))
                       for det, c in zip(found, crops, strict=True)]

    def read_boxes(self, frame: np.ndarray, boxes: Sequence[Box]) -> list[DieRead]:
        """Dice the table points at in ``frame`` (``boxes`` in its pixels: dice the reader
        missed, tapped on the read's picture), each read as a die of the reader's kind,
        and every one uncertain: the table said where a die is, not what it shows, and a
        box placed by a tap sits less well on the die than a detector's. No die-or-not
        check to drop it (the table says it is a die) and no frame check (the read of the
        whole frame made those); a box like no face of the die, with no pips, or that the
        die-or-not check takes for no die comes back :data:`UNREAD`, for the table to
        name."""
        if frame.ndim == 2:
            frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        elif frame.shape[2] == 4:
            frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
        if not boxes:
            return []
        work = work_frame(frame, self.die_px or float(np.median([max(b[2:]) for b in boxes])))
        found = [Detection(detection_like(box, work.scale), box) for box in boxes]
        nets = None
        if self._by_face_net:
            nets = self._pip_nets(scaled(frame, work.die_px)[0])
        outlines = [crop(work.image, d.work_box) for d in found]
        crops, reads = self._faces_of(work, found, outlines, nets, neighbours=False)
        if self._by_body:  # what the die-or-not check takes for no die has no face to offer
            die = default_die_or_not().probabilities(outlines) >= DIE_FROM
            reads = [r if k else None for r, k in zip(reads, die, strict=True)]
        return [DieRead(UNREAD, 0.0, True, det.box, c) if read is None
                else DieRead(read[0], min(read[1], ASKED_CONFIDENCE), True, det.box, c)
                for det, c, read in zip(found, crops, reads, strict=True)]

    def _body_boxes(self, frame: np.ndarray, die_px: float) -> list[Box]:
        """The boxes (frame pixels) of the dice a read of a BGR frame at ``die_px`` finds
        with the body detector and keeps by the die-or-not check, their faces not read
        (:func:`vision.dicescale.in_pieces`); a box the read keeps may yet be dropped for a
        face like none of the profile's, or cut by the tray's edge."""
        work, found, _small, _nets = self._find(frame, die_px)
        if not found:
            return []
        found, _crops = self._checked_bodies(
            work, found, [crop(work.image, det.work_box) for det in found])
        return [det.box for det in found]

    def _checked_bodies(self, work: WorkFrame, found: list[Detection], crops: list[np.ndarray]
                        ) -> tuple[list[Detection], list[np.ndarray]]:
        """The candidates the body detector found (and their crops) that the die-or-not
        check takes for dice, each boxed much smaller than the others grown to their size
        (:func:`vision.boxfixes.grown`) and a piece of a die boxed whole as well dropped."""
        # the body detector also takes round blobs and clutter for dice
        die = default_die_or_not().probabilities(crops) >= DIE_FROM
        found = [d for d, k in zip(found, die, strict=True) if k]
        crops = [c for c, k in zip(crops, die, strict=True) if k]
        # a die boxed much smaller than the others (a large symbol boxed alone) is cut
        # again at their size, and a piece of a die boxed whole as well is dropped;
        # after the check, so that a blob it dropped stays dropped
        kept = [(d, c, box) for d, c, box in zip(
            found, crops, grown([d.box for d in found]), strict=True) if box is not None]
        found, crops = [], []
        for det, c, box in kept:
            if box != det.box:
                det = Detection(detection_like(box, work.scale), box)
                c = crop(work.image, det.work_box)
            found.append(det)
            crops.append(c)
        return found, crops

    @staticmethod
    def _compressed(frame: np.ndarray, dice: Sequence[DieRead],
                    table: Sequence[tuple[float, float, float]]) -> tuple[int | None, float]:
        """The JPEG quality the frame shows about its dice, and the least confidence the
        table asks of a sure read for it and their median side (frame pixels)."""
        boxes = [d.box for d in dice]
        quality = dice_jpeg_quality(frame, boxes)
        side = float(np.median([max(b[2], b[3]) for b in boxes]))
        return quality, compressed_sure_from(quality, side, table)

    def read_path(self, path: str | Path) -> TrayRead:
        """Read a photo file (:class:`ImageError` if it cannot be decoded), boxes in the
        file's own pixels (a very large JPEG is read decoded reduced: see
        :func:`load_image`); dice under a PNG's transparent part are left to the table
        (:mod:`vision.transparency`)."""
        start = self.clock()
        decoded = read_file(path)
        read = under_transparency(self.read(decoded.image, str(path)), decoded.hidden)
        dice = read.dice
        if decoded.scale != 1.0:
            width, height = decoded.size
            dice = tuple(replace(d, box=clipped(unscaled(d.box, decoded.scale), width, height))
                         for d in dice)
        ms = (self.clock() - start) * 1000.0
        return replace(read, dice=dice, ms=ms)

    def _find(
        self, frame: np.ndarray, die_px: float | None
    ) -> tuple[WorkFrame, list[Detection], np.ndarray, PipNets | None]:
        """The frame at the working scale (crops are cut from it), the die candidates, a
        small copy of the frame (for the hand check), and the pip networks that read this
        frame (None unless the face network reads it)."""
        if self.detector == "classic":
            work, found = detect(frame, die_px, self.settings, self.roi)
            return work, found, frame, self._pip_nets(frame) if self._by_face_net else None
        work = work_frame(frame, die_px)
        size = work.die_px
        small, scale = scaled(frame, size)
        found = []
        nets = self._pip_nets(small) if self._by_face_net else None
        # candidates the face network checks (its none class) may come from lower peaks
        threshold = CHECKED_THRESHOLD if self._by_face_net else None
        small_roi = self._small_roi(small) if self._by_body else None
        dark_bodies = self._by_body and self._dark_floor(small, small_roi)
        finder = ((wide_body_dice_finder() if self._wide_lens else body_dice_finder())
                  if self._by_body
                  else nets.finder if nets is not None
                  else self.finder or default_dice_finder())
        if dark_bodies:
            threshold = DARK_BODY_THRESHOLD  # the die-or-not check checks them
        boxes = [box for box, _score in finder.find_scaled(small, scale, frame.shape, threshold)]
        if dark_bodies and self.plain_squares:  # the die-or-not check checks these too
            boxes += find_plain_squares(small, scale, boxes, small_roi)
        for box in boxes:
            x, y, w, h = box
            cx, cy = x + w / 2, y + h / 2
            if self.roi is not None and not self.roi[
                    min(max(int(cy), 0), frame.shape[0] - 1),
                    min(max(int(cx), 0), frame.shape[1] - 1)]:
                continue  # centred outside the tray
            # the crop is of the die's top face, as the classifiers were trained on: the
            # label-like box (sides included) shrunk about its centre
            found.append(Detection(detection_like(box, work.scale), box))
        return work, found, small, nets

    def _pip_nets(self, small: np.ndarray) -> PipNets:
        """The pip networks for a frame (``small``, the detector's copy): when the reader
        reads with the packaged networks, those trained on darker floors when its floor is
        darker than DARK_NETS_BELOW, else the packaged ones; either set with its detector
        for a wide lens when the reader was told one (WIDE_NETS_FROM). Else the reader's
        own."""
        assert self.face_net is not None
        packaged = (self.floor_networks and self.finder is None
                    and self.face_net is default_face_net())
        if packaged and self._dark_floor(small):
            return dark_floor_nets(self._wide_lens, self.quick_net is not None, self.quick_none)
        finder = (wide_dice_finder() if packaged and self._wide_lens
                  else self.finder or default_dice_finder())
        return PipNets(finder, self.face_net, self.quick_net,
                       NEVER if self.quick_none is None else self.quick_none)

    @property
    def _wide_lens(self) -> bool:
        """Told a lens from WIDE_NETS_FROM: dice are found by the detectors that learned
        dice seen from the side."""
        return self.lens_degrees is not None and self.lens_degrees >= WIDE_NETS_FROM

    def _dark_floor(self, small: np.ndarray, small_roi: np.ndarray | None = None) -> bool:
        """Whether a frame's floor (``small``, the detector's copy; over the tray region
        when calibrated, ``small_roi`` when it is already at ``small``'s size) is darker
        than DARK_NETS_BELOW."""
        if small_roi is None:
            small_roi = self._small_roi(small)
        return floor_grey(small, small_roi) < DARK_NETS_BELOW

    def _small_roi(self, small: np.ndarray) -> np.ndarray | None:
        """The tray region (None without one) at the size of ``small``, the detector's
        copy of the frame."""
        if self.roi is None:
            return None
        return cv2.resize(self.roi, (small.shape[1], small.shape[0]),
                          interpolation=cv2.INTER_NEAREST)

    @property
    def _by_body(self) -> bool:
        """Whether dice are found by the body detector and the die-or-not check."""
        return self.body_check and self.detector == "net" and self.custom_faces

    @property
    def custom_faces(self) -> bool:
        """Whether the dice are of custom faces (a profile's, or unknown ones)."""
        return self.profile is not None or self.die != "d6"

    @property
    def _by_face_net(self) -> bool:
        """Whether the d6 face network reads (and checks) every candidate."""
        return self.profile is None and self.die == "d6" and self.d6_method == "net"

    @staticmethod
    def _is_cut(box: Box, shape: tuple[int, ...], roi: np.ndarray | None) -> bool:
        x, y, w, h = box
        if x <= 1 or y <= 1 or x + w >= shape[1] - 1 or y + h >= shape[0] - 1:
            return True
        if roi is None:
            return False
        # the box grown by a fifth: a die cut by the tray's edge ends at the edge
        gx, gy = max(1, w // 5), max(1, h // 5)
        patch = roi[max(y - gy, 0) : y + h + gy, max(x - gx, 0) : x + w + gx]
        return bool(patch.size) and float((patch > 0).mean()) < 0.9

    def _classify(
        self, c: np.ndarray, wide: np.ndarray | None = None
    ) -> tuple[str, float, bool] | None:
        pips = count_pips(c)
        if not pips.has_marks or pips.pips[0][2] < NOT_A_DIE_RESPONSE:
            return None
        if pips.face == "?":
            return "6", 0.0, True
        confidence = pips.confidence
        if confidence >= D6_UNCERTAIN_BELOW and wide is not None:
            # a second look with more context: a crop cutting a die (or holding two)
            # reads differently
            if count_pips(wide).face != pips.face:
                confidence = min(confidence, D6_UNCERTAIN_BELOW * 0.9)
        return pips.face, confidence, confidence < D6_UNCERTAIN_BELOW

