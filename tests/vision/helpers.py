"""Helpers for the vision tests: the checked-in labelled photos, a manual clock, a
decompression bomb's header, synthetic dice named at the table."""

from __future__ import annotations

import functools
import json
import struct
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.boxes import hold_each_other
from vision.enrollment import Profile
from vision.faces import SEAFALL_FACES
from vision.profilecheck import first_profile
from vision.reader import DiceReader
from vision.settle import SettleDecision, SettleDetector
from vision.synthetic import FLOOR_GRAIN, SyntheticPhoto, darker_floor, tray_photo

PHOTOS = Path(__file__).parent / "photos"


@dataclass(frozen=True)
class LabelledPhoto:
    path: Path
    faces: tuple[str, ...]
    boxes: tuple[tuple[int, int, int, int], ...]

    def image(self) -> np.ndarray:
        image = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        assert image is not None
        return image


@dataclass(frozen=True)
class DrawnPhoto:
    """A synthetic tray photo (:func:`vision.synthetic.tray_photo`) as a
    :class:`LabelledPhoto` is used: its picture, and its dice's faces and boxes, so that
    :func:`dice_laid` can knock its dice about too."""

    picture: np.ndarray
    faces: tuple[str, ...]
    boxes: tuple[tuple[int, int, int, int], ...]

    @classmethod
    def of(cls, photo: SyntheticPhoto) -> DrawnPhoto:
        return cls(photo.image, tuple(d.face for d in photo.dice),
                   tuple(tuple(int(v) for v in d.box) for d in photo.dice))

    def image(self) -> np.ndarray:
        return self.picture.copy()


Photo = LabelledPhoto | DrawnPhoto


def repainted(photo: LabelledPhoto, level: float, grain: float = FLOOR_GRAIN) -> np.ndarray:
    """A checked-in photo with its floor repainted a flat grey (as bench_tray_floors and
    calibrate_dark repaint the d6 photos, with ``grain=60`` so that the white sheet's
    bright grain goes too)."""
    image = photo.image().copy()
    darker_floor(image, np.array(photo.boxes, float), np.random.default_rng(0), level=level,
                 grain=grain)
    return image


def labelled_photos() -> list[LabelledPhoto]:
    manifest = json.loads((PHOTOS / "manifest.json").read_text(encoding="utf-8"))
    return [
        LabelledPhoto(
            PHOTOS / p["file"],
            tuple(d["face"] for d in p["dice"]),
            tuple(tuple(d["box"]) for d in p["dice"]),
        )
        for p in manifest["photos"]
    ]


class ManualClock:
    """A clock the test moves by hand."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class TickingDetector(SettleDetector):
    """A settle detector whose manual clock moves one frame period (``fps``) per frame."""

    def __init__(self, clock: ManualClock, fps: float = 10.0) -> None:
        super().__init__(clock=clock)
        self._clock_ref, self._period = clock, 1 / fps

    def update(self, image: np.ndarray, timestamp: float | None = None) -> SettleDecision:
        self._clock_ref.advance(self._period)
        return super().update(image, None)


def empty_tray(photo: Photo, grow: float = 0.25) -> np.ndarray:
    """The photo with its dice painted out (inpainting over the labelled boxes)."""
    image = photo.image()
    mask = np.zeros(image.shape[:2], np.uint8)
    for x, y, w, h in photo.boxes:
        g = int(max(w, h) * grow)
        cv2.rectangle(mask, (x - g, y - g), (x + w + g, y + h + g), 255, -1)
    return cv2.inpaint(image, mask, 5, cv2.INPAINT_TELEA)


def photo(name: str) -> LabelledPhoto:
    return next(p for p in labelled_photos() if p.path.name == name)


def die_patches(p: Photo, grow: float = 0.12) -> list[tuple[np.ndarray, tuple[int, int]]]:
    """Each labelled die of a photo cut out with a margin, and its top-left corner."""
    image = p.image()
    out = []
    for x, y, w, h in p.boxes:
        g = int(max(w, h) * grow)
        x0, y0 = max(x - g, 0), max(y - g, 0)
        out.append((image[y0 : y + h + g, x0 : x + w + g].copy(), (x0, y0)))
    return out


def paste(frame: np.ndarray, patch: np.ndarray, at: tuple[int, int], blur: int = 0) -> None:
    """Paste a die patch (soft-edged, optionally motion-blurred sideways) into a frame."""
    if blur:
        kernel = np.zeros((1, blur), np.float32)
        kernel[:] = 1.0 / blur
        patch = cv2.filter2D(patch, -1, kernel)
    h, w = patch.shape[:2]
    x, y = at
    x, y = max(0, min(x, frame.shape[1] - w)), max(0, min(y, frame.shape[0] - h))
    alpha = np.zeros((h, w), np.float32)
    cv2.rectangle(alpha, (2, 2), (w - 3, h - 3), 1.0, -1)
    alpha = cv2.GaussianBlur(alpha, (5, 5), 0)[..., None]
    region = frame[y : y + h, x : x + w].astype(np.float32)
    frame[y : y + h, x : x + w] = (region * (1 - alpha) + patch * alpha).astype(np.uint8)


def turned(patch: np.ndarray, degrees: float) -> np.ndarray:
    """A die patch turned about its centre (the tray at its corners drawn out by reflection)."""
    h, w = patch.shape[:2]
    return cv2.warpAffine(patch, cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0), (w, h),
                          borderMode=cv2.BORDER_REFLECT)


def as_shot(frame: np.ndarray, rng: np.random.Generator, light: float = 1.0) -> np.ndarray:
    """``frame`` as a camera would give it again: its light times ``light``, sensor noise
    (sigma 3) drawn from ``rng``, and JPEG at quality 85."""
    noisy = np.clip(frame * light + rng.normal(0, 3, frame.shape), 0, 255).astype(np.uint8)
    return cv2.imdecode(cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 85])[1],
                        cv2.IMREAD_COLOR)


def against_edge(frames: tuple[np.ndarray, ...], box: tuple[int, int, int, int],
                 knock: tuple[int, int], gaps: tuple[int, ...] = (0,)
                 ) -> tuple[tuple[np.ndarray, ...], int, int]:
    """``frames`` cut so that the die at ``box`` lies ``gaps[0]`` px from the frame's edge
    on the side it was knocked away from (the more of its two ways), and with a second gap,
    that far from the other way's edge too (a corner); and the cut's top-left corner."""
    x, y, w, h = box
    height, width = frames[0].shape[:2]
    dx, dy = knock
    left, top, right, bottom = 0, 0, width, height
    main = "x" if abs(dx) >= abs(dy) else "y"
    for axis, gap in zip((main, "y" if main == "x" else "x")[:len(gaps)], gaps, strict=True):
        if axis == "x" and dx >= 0:
            left = max(x - gap, 0)
        elif axis == "x":
            right = min(x + w + gap, width)
        elif dy >= 0:
            top = max(y - gap, 0)
        else:
            bottom = min(y + h + gap, height)
    return tuple(f[top:bottom, left:right] for f in frames), left, top


Move = tuple[int, int, float, int | None]
"""How a die is laid again (:func:`dice_laid`): moved (dx, dy) px, turned so many degrees,
and the picture of the photo's die of that number in its place (None: its own)."""


def dice_laid(p: Photo, moves: dict[int, Move] | None = None,
              empty: np.ndarray | None = None,
              patches: list[tuple[np.ndarray, tuple[int, int]]] | None = None) -> np.ndarray:
    """Photo ``p``'s dice pasted on its empty tray, each where it lies unless ``moves``
    says otherwise (a die knocked aside and turned, or another face in its place); the
    dice moved are pasted last, whole, over the tray about the others.
    ``empty`` and ``patches`` (:func:`empty_tray`, :func:`die_patches`) may be given made."""
    frame = (empty_tray(p) if empty is None else empty).copy()
    patches = die_patches(p) if patches is None else patches
    moves = moves or {}
    for i in sorted(range(len(patches)), key=lambda i: i in moves):
        patch, (x, y) = patches[i]
        dx, dy, degrees, other = moves.get(i, (0, 0, 0.0, None))
        if other is not None:
            patch = cv2.resize(patches[other][0], patch.shape[1::-1])
        paste(frame, turned(patch, degrees) if degrees else patch, (x + dx, y + dy))
    return frame


def thrown_again(p: LabelledPhoto, image: np.ndarray, box: tuple[int, int, int, int],
                 not_face: str) -> tuple[np.ndarray, np.ndarray]:
    """``image`` (of photo ``p``) with the die at ``box`` picked up and thrown again: it
    lands where it lay, another face than ``not_face`` up (a die of that face in the photo,
    a little larger); and the motion mask (frame-sized, 0/1) over where it moved."""
    x, y, w, h = box
    other = next(i for i, f in enumerate(p.faces) if f != not_face)
    again = image.copy()
    paste(again, cv2.resize(die_patches(p)[other][0], (w + w // 4, h + h // 4)),
          (x - w // 8, y - h // 8))
    motion = np.zeros(image.shape[:2], np.uint8)
    motion[max(y - h // 4, 0):y + h + h // 4, max(x - w // 4, 0):x + w + w // 4] = 1
    return again, motion


SKIN_TONES: dict[str, tuple[int, int, int]] = {
    f"MST{i}": (int(h[4:], 16), int(h[2:4], 16), int(h[:2], 16)) for i, h in enumerate(
        ("f6ede4", "f3e7db", "f7ead0", "eadaba", "d7bd96", "a07e56", "825c43", "604134",
         "3a312a", "292420"), 1)}
"""The ten tones of the Monk Skin Tone scale (Google's, CC BY 4.0: light 1 to deep 10), BGR."""


def hand(frame: np.ndarray, reach: float, seed: int = 0,
         tone: tuple[int, int, int] = (120, 150, 205)) -> np.ndarray:
    """A hand and arm of skin ``tone`` (BGR; by default a light one) reaching ``reach``
    (0..1) up from the bottom edge."""
    out = frame.copy()
    h, w = out.shape[:2]
    tip = int(h * (1 - reach))
    arm = np.array([[w * 0.42, h], [w * 0.40, tip + 60], [w * 0.47, tip], [w * 0.58, tip + 20],
                    [w * 0.60, h]], np.int32)
    layer = out.copy()
    cv2.fillPoly(layer, [arm], tone)
    palm = tuple(max(0, c - 5) for c in tone)
    cv2.circle(layer, (int(w * 0.5), tip + 40), 70, palm, -1)
    noise = np.random.default_rng(seed).normal(0, 6, layer.shape)
    layer = np.clip(layer + noise, 0, 255).astype(np.uint8)
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [arm], 255)
    cv2.circle(mask, (int(w * 0.5), tip + 40), 70, 255, -1)
    out[mask > 0] = layer[mask > 0]
    return out


def screened_lamp(image: np.ndarray, gain: float = 0.6) -> np.ndarray:
    """A lamp whose light a screen cuts: the picture's left half at ``gain`` of its light,
    with a crisp edge (a change of light over part of the tray that is not taken out, nor
    taken for a shadow)."""
    left = np.arange(image.shape[1])[None, :, None] < image.shape[1] // 2
    return np.clip(image * np.where(left, gain, 1.0), 0, 255).astype(np.uint8)


def leaning_shadow(image: np.ndarray, penumbra: float, depth: float = 0.3) -> np.ndarray:
    """A player leaning over the table: a shadow ``depth`` deep over the near third of the
    picture (an ellipse from its bottom edge), its edge blurred by ``penumbra`` of the
    picture's width (a lamp's shade some dice wide: 0.02-0.05; a bare bulb: 0.003)."""
    h, w = image.shape[:2]
    shade = np.zeros((h, w), np.float32)
    cv2.ellipse(shade, (w // 2, h), (int(w * 0.45), int(h * 0.3)), 0, 0, 360, 1.0, -1)
    shade = cv2.GaussianBlur(shade, (0, 0), penumbra * w)
    return np.clip(image * (1 - depth * shade)[..., None], 0, 255).astype(np.uint8)


def roll_sequence(
    p: LabelledPhoto, moved: set[int], offset: tuple[int, int] = (0, 0),
    start: np.ndarray | None = None,
) -> tuple[list[np.ndarray], np.ndarray]:
    """Frames of a (re-)roll built from a real photo: a hand reaches in, the dice in
    ``moved`` tumble from the edge to their place (shifted by ``offset``), the rest stay
    where ``start`` shows them; then the tray is still. Returns frames and the final frame
    (copies: a first roll, from the empty tray, is drawn once per process and handed out
    again, since many tests throw the same one)."""
    if start is not None or not isinstance(p, LabelledPhoto):
        return _drawn_roll(p, moved, offset, start)
    frames, final = _first_roll(p, frozenset(moved), offset)
    return [f.copy() for f in frames], final.copy()


@functools.cache
def _first_roll(p: LabelledPhoto, moved: frozenset[int], offset: tuple[int, int]
                ) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    frames, final = _drawn_roll(p, set(moved), offset, None)
    return tuple(frames), final


def _drawn_roll(
    p: LabelledPhoto, moved: set[int], offset: tuple[int, int], start: np.ndarray | None,
) -> tuple[list[np.ndarray], np.ndarray]:
    empty = empty_tray(p)
    patches = die_patches(p)
    final = empty.copy()
    for i, (patch, (x, y)) in enumerate(patches):
        paste(final, patch, (x + offset[0], y + offset[1]) if i in moved else (x, y))
    first = start if start is not None else empty
    frames = [first.copy() for _ in range(3)]
    frames += [hand(first, r, seed=k) for k, r in enumerate((0.2, 0.4, 0.5, 0.3))]
    still = first.copy()
    if start is None:
        still = empty.copy()
    else:
        # the re-rolled dice are picked up before they tumble
        for i in moved:
            x, y, w, h = p.boxes[i]
            g = int(max(w, h) * 0.3)
            still[max(y - g, 0) : y + h + g, max(x - g, 0) : x + w + g] = empty[
                max(y - g, 0) : y + h + g, max(x - g, 0) : x + w + g]
    for step in range(6):
        frame = still.copy()
        for i, (patch, (x, y)) in enumerate(patches):
            if i in moved:
                t = (step + 1) / 6
                fx = int(x + offset[0] + (1 - t) * 200)
                fy = int(y + offset[1] + (1 - t) * 150)
                paste(frame, patch, (fx, fy), blur=9 if step < 5 else 3)
            elif start is not None:
                paste(frame, patch, (x, y))
        frames.append(frame)
    frames += [final.copy() for _ in range(8)]
    return frames, final


def score_photos(reader: DiceReader,
                 image: Callable[[LabelledPhoto], np.ndarray] = LabelledPhoto.image,
                 ) -> dict[str, int]:
    """Dice, found, read right with confidence, silent errors and false detections of
    ``reader`` over the checked-in labelled photos (each as ``image`` gives it: as shot,
    or changed, as with a floor repainted)."""
    out = {"dice": 0, "found": 0, "right": 0, "silent": 0, "false": 0}
    for photo in labelled_photos():
        read = reader.read(image(photo), str(photo.path))
        used: set[int] = set()
        for face, box in zip(photo.faces, photo.boxes, strict=True):
            out["dice"] += 1
            match = [i for i, d in enumerate(read.dice)
                     if i not in used and hold_each_other(box, d.box)]
            if not match:
                continue
            used.add(match[0])
            out["found"] += 1
            die = read.dice[match[0]]
            if not die.uncertain:
                out["right" if die.face == face else "silent"] += 1
        out["false"] += len(read.dice) - len(used)
    return out


def png_chunk(kind: bytes, body: bytes) -> bytes:
    """One chunk of a PNG file: its length, kind, body and CRC."""
    crc = zlib.crc32(kind + body) & 0xFFFFFFFF
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


def png_of(width: int, height: int, colour_type: int, rows: bytes,
           *chunks: tuple[bytes, bytes]) -> bytes:
    """A PNG of 8-bit samples (``colour_type``: 0 grey, 2 RGB, 3 palette, ...) whose
    unfiltered ``rows`` (each row's samples, without its filter byte) follow ``chunks``
    (``(kind, body)``: a ``PLTE``, a ``tRNS``)."""
    row = len(rows) // height
    data = b"".join(b"\x00" + rows[i * row:(i + 1) * row] for i in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header)
            + b"".join(png_chunk(kind, body) for kind, body in chunks)
            + png_chunk(b"IDAT", zlib.compress(data)) + png_chunk(b"IEND", b""))


def png_claiming(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` x ``height`` (a decompression bomb's header:
    the pixels never need to exist to be refused)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header)
            + png_chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + png_chunk(b"IEND", b""))


EDITED_PHOTO = "IMG_20191208_112541.jpg"  # seven dice; the 6 at EDITED_SIX read as a sure 3
EDITED_SIX = (448, 371, 53, 64)  # when its left half was made transparent, before the fix


def with_transparent(path: Path, box: tuple[int, int, int, int], share: float = 0.5,
                     turned: bool = False) -> bytes:
    """A PNG of a photo with an alpha channel, opaque but for the left ``share`` of ``box``
    (``x, y, w, h``), made fully transparent (a photo edited: :mod:`vision.transparency`).
    ``turned``: stored a quarter turn anticlockwise, with an ``eXIf`` orientation (6) that
    turns it upright again, as a phone may save it."""
    image = cv2.imread(str(path))
    alpha = np.full(image.shape[:2], 255, np.uint8)
    x, y, w, h = box
    alpha[y : y + h, x : x + round(w * share)] = 0
    bgra = np.dstack([image, alpha])
    if not turned:
        return cv2.imencode(".png", bgra)[1].tobytes()
    stored = cv2.rotate(bgra, cv2.ROTATE_90_COUNTERCLOCKWISE)
    return png_with_orientation(cv2.imencode(".png", stored)[1].tobytes(), 6)


def table_crops(seed: int, per_face: int, body: tuple[int, int, int] | None = None,
                tray: tuple[int, int, int] | None = None, top_shift: float = 0.0,
                lens_degrees: float | None = None) -> dict[str, list[np.ndarray]]:
    """Crops of synthetic SeaFall dice as the table cuts the dice its players name: the
    reader of a die with no profile yet (``DiceReader(unknown_faces=True)``: the body
    detector and the die-or-not check) finds them, and each found die's evidence crop is
    kept under its face. Dice of one ``body`` colour (a set, as SeaFall's 15 dice are), or
    of the renderer's colours at random; on a floor of colour ``tray`` (or the renderer's
    light grey); seen from the side by ``top_shift`` (:func:`vision.synthetic.tray_photo`),
    as the camera that will read them sees them. With ``lens_degrees``, the reader is told
    that lens, as the table's is when the setup keeps one (``web/runtime/dice.py``): from
    :data:`vision.reader.WIDE_NETS_FROM` it finds the dice with the body detector for a wide
    lens and cuts them about what it found."""
    crops: dict[str, list[np.ndarray]] = {f: [] for f in SEAFALL_FACES}
    for named in named_trays(seed, body, tray, top_shift, lens_degrees):
        if _kept(crops, named, per_face) >= per_face:
            return crops
    raise AssertionError("unreachable: the trays never end")


def _kept(crops: dict[str, list[np.ndarray]], named: list[tuple[str, np.ndarray]],
          per_face: int) -> int:
    """Add a tray's named dice to ``crops`` (at most ``per_face`` a face); the count of the
    face with fewest."""
    for face, c in named:
        if len(crops[face]) < per_face:
            crops[face].append(c)
    return min(len(v) for v in crops.values())


def named_trays(seed: int, body: tuple[int, int, int] | None = None,
                tray: tuple[int, int, int] | None = None, top_shift: float = 0.0,
                lens_degrees: float | None = None) -> Iterator[list[tuple[str, np.ndarray]]]:
    """Endless synthetic SeaFall trays of every face twice, as :func:`table_crops` rolls
    them, each as the dice the table's reader of unnamed dice found in it: ``(face,
    evidence crop)`` for each die drawn that a die found holds, the face its players name."""
    reader = DiceReader("seafall", unknown_faces=True, lens_degrees=lens_degrees)
    rng = np.random.default_rng(seed)
    floor = {} if tray is None else {"tray": tray}
    while True:
        photo = tray_photo(rng, list(SEAFALL_FACES) * 2, body=body, top_shift=top_shift,
                           **floor)
        found = reader.read(photo.image).dice
        named = []
        for die in photo.dice:
            read = next((d for d in found if hold_each_other(die.box, d.box)), None)
            if read is not None:
                named.append((die.face, read.crop))
        yield named


def table_profile(seed: int, body: tuple[int, int, int] | None = None,
                  tray: tuple[int, int, int] | None = None, top_shift: float = 0.0,
                  lens_degrees: float | None = None, name: str = "table") -> Profile:
    """A SeaFall set's first profile as the table makes it (``web/runtime/dice.py``): its
    players name the dice of each roll (:func:`named_trays`; up to twice
    ``ENROLL_PER_FACE`` of a face kept, as spares for the check), and after each roll,
    once every face has ``STARTER_PER_FACE``, the profile is the first ``ENROLL_PER_FACE``
    of each face the others do not doubt (:func:`vision.profilecheck.first_profile`),
    unless a face has too few left, when the table waits for more rolls."""
    from web.runtime.dicereaders import ENROLL_PER_FACE, STARTER_PER_FACE

    crops: dict[str, list[np.ndarray]] = {f: [] for f in SEAFALL_FACES}
    for named in named_trays(seed, body, tray, top_shift, lens_degrees):
        if _kept(crops, named, 2 * ENROLL_PER_FACE) >= STARTER_PER_FACE:
            profile, _ = first_profile(name, "seafall", crops, ENROLL_PER_FACE,
                                       STARTER_PER_FACE)
            if profile is not None:
                return profile
    raise AssertionError("unreachable: the trays never end")


ENROLLMENTS = ("table", "first-five")
"""How a bench enrolls a drawn SeaFall set at the table (:func:`enrolled_at_table`): as the
table makes a first profile (:func:`table_profile`), or from the first 5 dice named a face,
unchecked (:func:`table_crops`, as the benches did before the sixtieth session)."""


def enrolled_at_table(enroll: str, seed: int, body: tuple[int, int, int] | None = None,
                      tray: tuple[int, int, int] | None = None, top_shift: float = 0.0,
                      lens_degrees: float | None = None, name: str = "table") -> Profile:
    """A drawn SeaFall set's profile enrolled at the table as ``enroll`` says
    (:data:`ENROLLMENTS`); the other arguments as :func:`table_crops` takes them."""
    if enroll == "table":
        return table_profile(seed, body, tray, top_shift, lens_degrees, name)
    if enroll != "first-five":
        raise ValueError(f"enroll must be one of {', '.join(ENROLLMENTS)}, not {enroll!r}")
    return Profile.from_crops(name, "seafall", table_crops(
        seed, 5, body, tray, top_shift, lens_degrees), as_read=True)


def _exif_tiff(orientation: int, order: str) -> bytes:
    """An EXIF block's TIFF part saying ``orientation`` (1-8), with a tag before it."""
    return ((b"II" if order == "<" else b"MM") + struct.pack(order + "HIH", 42, 8, 2)
            + struct.pack(order + "HHI", 0x010F, 2, 4) + b"Pi\x00\x00"  # Make
            + struct.pack(order + "HHIH", 0x0112, 3, 1, orientation) + b"\x00\x00"
            + struct.pack(order + "I", 0))


def png_with_orientation(png: bytes, orientation: int) -> bytes:
    """A PNG's bytes with an ``eXIf`` chunk saying ``orientation`` (1-8) after its header."""
    return png[:33] + png_chunk(b"eXIf", _exif_tiff(orientation, ">")) + png[33:]


def with_orientation(jpeg: bytes, orientation: int, order: str = "<") -> bytes:
    """A JPEG's bytes with an EXIF block saying ``orientation`` (1-8), as a phone writes
    it (``order``: the block's byte order, ``<`` Intel or ``>`` Motorola), after a JFIF
    header and with a tag before it, so that the orientation is not the first thing read."""
    exif = b"Exif\x00\x00" + _exif_tiff(orientation, order)
    jfif = b"\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    return jpeg[:2] + jfif + b"\xff\xe1" + struct.pack(">H", len(exif) + 2) + exif + jpeg[2:]
