"""Image files into frames, with their size checked before a pixel is decoded.

A photo's header says how large it is. A phone photo of 108 megapixels decodes to 324 MB,
and a PNG of 875 KB can hold 300 megapixels of one colour (1.8 GB decoded), more than a
Raspberry Pi has: decoding either would take the server down. So the size is read from the
header first (:func:`image_size`), and:

* a JPEG larger than :data:`MAX_PIXELS` is decoded at a half, a quarter or an eighth of its
  size (libjpeg scales while it decodes, so the full image never exists in memory); a
  caller that only needs a smaller picture (the server keeps 1600 px) can ask for it
  (``min_side``) and have it decoded at that size directly, which is also faster;
* a PNG, WebP, BMP or TIFF larger than that is refused, with the size and what to send
  instead;
* another format (PNM, JPEG 2000, ...: no phone or camera sends them) is decoded as OpenCV
  does, within its own limit (a gigapixel, ``OPENCV_IO_MAX_IMAGE_PIXELS``, read when
  OpenCV is loaded, so not set from here); its errors become :class:`ImageError`;
* a file cut off before its end (a copy or an upload that did not finish) is refused as
  that, so a player knows to send it again rather than to change the phone's format (a
  JPEG cut even before its header gives the picture's size, too);
* a JPEG whose data is damaged part way, which libjpeg decodes all the same with the rest
  of the picture made up (:mod:`vision.decodernotes` hears it say so), is refused as
  damaged;
* a picture too small or too long and narrow to show a dice tray (:func:`shape_problem`)
  is refused too: the reader sizes its work from the picture's short side, and a strip of
  a few pixels by many thousands cost it seconds and gigabytes.

:class:`Decoded` carries the scale of the decoded pixels to the file's, so that boxes can be
given in the file's own pixels (``tableside read-dice``'s contract).
"""

from __future__ import annotations

import errno
import os
import struct
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.decodernotes import damage, heard
from vision.said import message
from vision.transparency import OPAQUE_FROM, hidden_mask

__all__ = ["MAX_ASPECT", "MAX_FILE_BYTES", "MAX_PIXELS", "MIN_CROP_SIDE", "MIN_SIDE",
           "Decoded", "ImageError", "decode", "image_size", "in_a_loop", "missing",
           "read_file",
           "shape_problem"]

MAX_PIXELS = 25_000_000
"""The most pixels decoded from one file (75 MB as BGR). Phone photos of up to 24
megapixels decode whole; larger JPEGs are decoded reduced, other formats refused."""

MAX_FILE_BYTES = 160 * 2**20
"""The largest file read as a picture (160 MiB): more than any picture of up to
:data:`MAX_PIXELS` takes, even as uncompressed 16-bit TIFF. A larger one (a video given to
``read-dice`` by mistake) is refused before it is read, rather than held whole in memory
(a 1.5 GB file took 1.6 GB)."""

MIN_SIDE = 32
"""The fewest pixels a picture of the tray has each way: a die in a smaller one is a few
pixels across, which no reader reads."""

MIN_CROP_SIDE = 8
"""The fewest pixels a crop of one die (``tableside enroll --crops``) has each way."""

MAX_ASPECT = 8.0
"""The most times longer than wide a picture of the tray, or a crop of a die, is (a
camera's frame is 16:9, a phone's up to about 2:1; a phone panorama is rarely more than
8:1)."""


# why a picture's size is refused (vision.said: a page says it in its language); the
# sizes are given as written ("4000x300"), not as numbers to write the language's way
_TOO_SMALL = {True: message("image.too_small", "{width}x{height} pixels: too small to show "
                            "dice (a picture of the tray has at least {least} pixels each way)"),
              False: message("image.too_small_crop", "{width}x{height} pixels: too small to "
                             "show dice (a crop of a die has at least {least} pixels each "
                             "way)")}
_TOO_LONG = {True: message("image.too_long", "{width}x{height} pixels: too long and narrow to "
                           "show a dice tray (a picture of the tray is at most {most} times "
                           "as long as it is wide)"),
             False: message("image.too_long_crop", "{width}x{height} pixels: too long and "
                            "narrow to show a die (a crop of a die is at most {most} times as "
                            "long as it is wide)")}
_TOO_LARGE = {False: message("image.too_large", "{width}x{height} pixels, more than Tableside "
                             "decodes ({megapixels} megapixels)"),
              True: message("image.too_large_png", "{width}x{height} pixels, more than "
                            "Tableside decodes ({megapixels} megapixels): send it as a JPEG, "
                            "or smaller")}


def shape_problem(width: int, height: int, tray: bool = True) -> str | None:
    """Why a picture of this size cannot show a dice tray (``tray``) or one die (a crop),
    to follow "<name> is "; or None."""
    short, long = min(width, height), max(width, height)
    least = MIN_SIDE if tray else MIN_CROP_SIDE
    if short < least:
        return _TOO_SMALL[tray](width=str(width), height=str(height), least=least)
    if long > MAX_ASPECT * short:
        return _TOO_LONG[tray](width=str(width), height=str(height), most=f"{MAX_ASPECT:g}")
    return None


_PNG = b"\x89PNG\r\n\x1a\n"  # a PNG file's signature

_REDUCED = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2,
            4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}

# JPEG start-of-frame markers (baseline, progressive, lossless, arithmetic...): not DHT
# (C4), JPG (C8) or DAC (CC), which share the range
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


class ImageError(ValueError):
    """An image that cannot be read (missing, not an image, corrupt, too large). From
    :func:`decode` the message is the reason, to follow "<name> is " ("not a readable
    image (...)"); from :func:`read_file` it is "<path>: <reason>", with the reason alone
    as :attr:`reason` (for a caller that names the file itself)."""

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = message if reason is None else reason


@dataclass(frozen=True)
class Decoded:
    """A decoded image and its scale: decoded pixels per pixel of the file (1, or 1/2,
    1/4, 1/8 for a JPEG decoded reduced)."""

    image: np.ndarray
    scale: float = 1.0
    full: tuple[int, int] | None = None
    """The file's picture's own ``(width, height)``, upright; None: the image's own."""
    hidden: np.ndarray | None = field(default=None, compare=False, repr=False)
    """Where a PNG's picture is not opaque (True), at ``image``'s size: laid over white,
    what shows there is not what the camera saw (:mod:`vision.transparency`); None where
    it is opaque throughout."""

    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)`` of the file's picture, upright (what boxes are given in)."""
        return self.full or (self.image.shape[1], self.image.shape[0])


def is_jpeg(data: bytes) -> bool:
    return data[:3] == b"\xff\xd8\xff"


def image_size(data: bytes) -> tuple[int, int] | None:
    """``(width, height)`` from a JPEG, PNG, WebP, BMP or TIFF header; None for another
    format or a header too short or malformed to say."""
    try:
        if is_jpeg(data):
            return _jpeg_size(data)
        if data[:8] == _PNG and data[12:16] == b"IHDR":
            return struct.unpack(">II", data[16:24])
        if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
            return _webp_size(data)
        if data[:2] == b"BM" and len(data) >= 26:
            width, height = struct.unpack("<ii", data[18:26])
            return abs(width), abs(height)  # a negative height: rows stored top-down
        if data[:4] in (b"II*\x00", b"MM\x00*"):
            return _tiff_size(data)
    except struct.error:
        return None
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker == 0x01 or 0xD0 <= marker <= 0xD7:  # markers without a length
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2 : i + 4])
        if marker in _SOF:
            height, width = struct.unpack(">HH", data[i + 5 : i + 9])
            return width, height
        if marker == 0xDA:  # start of scan before any frame header
            return None
        i += 2 + length
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 ":  # lossy: 14 bits each after the key frame's start code
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L":  # lossless: 14 bits each, less one, after a signature byte
        (bits,) = struct.unpack("<I", data[21:25])
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":  # extended: 24 bits each, less one
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return width, height
    return None


def _tiff_tags(data: bytes) -> dict[int, int]:
    """The tags of a TIFF's first directory, each with its value where the entry holds it
    (one SHORT or LONG), else -1 (``struct.error`` for a directory cut short)."""
    order = "<" if data[:2] == b"II" else ">"
    (offset,) = struct.unpack(order + "I", data[4:8])
    (count,) = struct.unpack(order + "H", data[offset : offset + 2])
    tags: dict[int, int] = {}
    for i in range(count):
        entry = data[offset + 2 + 12 * i : offset + 14 + 12 * i]
        tag, kind, many = struct.unpack(order + "HHI", entry[:8])
        if kind in (3, 4) and many == 1:  # SHORT or LONG, held in the entry itself
            fmt = order + ("H" if kind == 3 else "I")
            tags[tag] = struct.unpack(fmt, entry[8 : 10 if kind == 3 else 12])[0]
        else:
            tags.setdefault(tag, -1)
    return tags


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    """The first image's size, from its directory's ImageWidth and ImageLength tags."""
    tags = _tiff_tags(data)
    if tags.get(256, -1) >= 0 and tags.get(257, -1) >= 0:
        return tags[256], tags[257]
    return None


def _reduction(width: int, height: int, min_side: int | None) -> int | None:
    """The JPEG decoding reduction (1, 2, 4 or 8): the least that brings the image within
    MAX_PIXELS, or the most that keeps its longest side at ``min_side`` or more, whichever
    is larger; None if even an eighth is too large."""
    fits = [k for k in _REDUCED if -(-width // k) * -(-height // k) <= MAX_PIXELS]
    if not fits:
        return None
    k = min(fits)
    if min_side is not None:
        k = max([k] + [f for f in fits if max(width, height) // f >= min_side])
    return k


def decode(data: bytes | np.ndarray, min_side: int | None = None,
           tray: bool = True) -> Decoded:
    """The BGR pixels of an image file's bytes, or :class:`ImageError` saying why not.

    ``min_side``: the caller keeps the longest side no larger than this, so a JPEG may be
    decoded reduced down to it (never below). ``tray``: the picture shows the tray (else
    it is a crop of one die), for :func:`shape_problem`."""
    raw = data.tobytes() if isinstance(data, np.ndarray) else bytes(data)
    if not raw:
        raise ImageError("an empty file, not a readable image")
    size = image_size(raw)
    k = 1
    if size is not None:
        width, height = size
        if width <= 0 or height <= 0:
            raise ImageError("not a readable image (its header gives no size)")
        problem = shape_problem(width, height, tray)
        if problem:  # refused before a pixel is decoded
            raise ImageError(problem)
        if is_jpeg(raw):
            reduction = _reduction(width, height, min_side)
            if reduction is None:
                raise ImageError(_too_large(width, height))
            k = reduction
        elif width * height > MAX_PIXELS:
            raise ImageError(_too_large(width, height, png=True))
    if size is not None and raw[:8] == _PNG and _ends_early(raw):  # before libpng complains
        raise ImageError(_CUT_OFF)
    try:
        with heard() as notes:
            image = cv2.imdecode(np.frombuffer(raw, np.uint8), _REDUCED[k])
    except cv2.error as exc:
        if "CV_IO_MAX_IMAGE" in str(exc):
            raise ImageError(f"too large to decode (more than {MAX_PIXELS / 1e6:.0f} "
                             "megapixels)") from None
        lines = str(exc).strip().splitlines()
        raise ImageError(f"not a readable image ({lines[-1] if lines else 'OpenCV error'})"
                         ) from None
    if image is None or image.size == 0:
        if is_heif(raw):
            raise ImageError(_HEIF)
        cut = _ends_early(raw) if size is not None else _jpeg_header_cut(raw)
        raise ImageError(_CUT_OFF if cut else
                         "not a readable image (corrupt or unsupported format)")
    if damage(notes) is not None:  # decoded all the same, part of it made up: refused
        raise ImageError(_CUT_OFF if size is not None and _ends_early(raw) else _DAMAGED)
    hidden = None
    if _png_alpha(raw) or _webp_alpha(raw) or _tiff_alpha(raw):
        image, hidden = _on_white(raw, image)
    problem = None if size else shape_problem(image.shape[1], image.shape[0], tray)
    if problem:  # a format whose header was not read
        raise ImageError(problem)
    if k == 1 or size is None:
        return Decoded(image, hidden=hidden)
    width, height = size  # the header's, before the JPEG's orientation turned it upright
    if (image.shape[1] > image.shape[0]) != (width > height):
        width, height = height, width
    return Decoded(image, 1.0 / k, (width, height))


def _png_alpha(raw: bytes) -> bool:
    """Whether the bytes are a PNG whose pixels may be transparent: an alpha channel (its
    header's colour type 4, grey and alpha, or 6, colour and alpha), or a ``tRNS`` chunk
    before its pixel data (a palette's transparent entries, or one grey or colour made
    transparent: OpenCV decodes either as an alpha channel when asked for it)."""
    if raw[:8] != _PNG or len(raw) <= 25 or raw[12:16] != b"IHDR":
        return False
    if raw[25] in (4, 6):
        return True
    at = 8
    while at + 8 <= len(raw):
        length, kind = struct.unpack(">I", raw[at:at + 4])[0], raw[at + 4:at + 8]
        if kind == b"tRNS":
            return True
        if kind in (b"IDAT", b"IEND"):
            return False
        at += 12 + length
    return False


def _webp_alpha(raw: bytes) -> bool:
    """Whether the bytes are a WebP whose pixels carry alpha: an extended one (``VP8X``)
    whose flags say so, or a lossless one (``VP8L``) whose header's alpha bit is set."""
    if raw[:4] != b"RIFF" or raw[8:12] != b"WEBP" or len(raw) < 25:
        return False
    if raw[12:16] == b"VP8X":
        return bool(raw[20] & 0x10)
    if raw[12:16] == b"VP8L":
        return bool(int.from_bytes(raw[21:25], "little") >> 28 & 1)
    return False


def _tiff_alpha(raw: bytes) -> bool:
    """Whether the bytes are a TIFF whose first picture carries alpha: extra samples (its
    ``ExtraSamples`` tag), or one sample more than its colours (RGB with 4, grey with 2),
    as OpenCV writes a BGRA picture; CMYK's four are colours. False for a TIFF whose
    directory cannot be read (it is decoded, or refused, as it is)."""
    if raw[:4] not in (b"II*\x00", b"MM\x00*"):
        return False
    try:
        tags = _tiff_tags(raw)
    except struct.error:
        return False
    if 338 in tags:  # ExtraSamples
        return True
    colours = {0: 1, 1: 1, 2: 3}.get(tags.get(262, -1))  # Photometric: grey, grey, RGB
    return colours is not None and tags.get(277, 1) == colours + 1  # SamplesPerPixel


def _on_white(raw: bytes, image: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """A PNG (or WebP, or TIFF) with an alpha channel as it shows on a page: its pixels over
    white, by their alpha, and where it is not opaque
    (:func:`vision.transparency.hidden_mask`). Decoded without it (``image``), what lies
    under a transparent part was read as it is stored, whatever it holds: a helper's fully
    transparent PNG read as 22 dice, sure. ``image``
    itself (and None) where the alpha cannot be decoded."""
    with heard():
        full = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_UNCHANGED)
    if full is None or full.ndim != 3 or full.shape[2] != 4:
        return image, None
    if full.dtype == np.uint16:
        full = (full >> 8).astype(np.uint8)
    if int(full[:, :, 3].min()) >= OPAQUE_FROM:  # opaque throughout: as decoded
        return image, None
    upright = _turned_as(full, image)
    if upright is None:  # where the transparent part lies is not known: all of it may be
        return image, np.ones(image.shape[:2], bool)
    alpha = upright[:, :, 3:4].astype(np.float32) / 255.0
    shown = (upright[:, :, :3] * alpha + 255.0 * (1.0 - alpha)).round().astype(np.uint8)
    return shown, hidden_mask(upright[:, :, 3])


_TURNS = (
    lambda a: a,
    lambda a: cv2.rotate(a, cv2.ROTATE_90_CLOCKWISE),
    lambda a: cv2.rotate(a, cv2.ROTATE_180),
    lambda a: cv2.rotate(a, cv2.ROTATE_90_COUNTERCLOCKWISE),
    lambda a: cv2.flip(a, 1),
    lambda a: cv2.flip(a, 0),
    lambda a: cv2.transpose(a),
    lambda a: cv2.rotate(cv2.transpose(a), cv2.ROTATE_180),
)
"""The eight ways an orientation tag (EXIF's 1-8) turns or mirrors a picture upright."""


def _turned_as(full: np.ndarray, image: np.ndarray) -> np.ndarray | None:
    """``full`` (BGRA, as stored) turned or mirrored as the decoder turned ``image`` (its
    colour, upright by the file's orientation tag: a PNG's ``eXIf`` chunk, a WebP's EXIF),
    so that its alpha lies where its colour does; None where no way matches. Decoded with
    its alpha the picture is not turned upright: a helper's PNG tagged to turn read its
    alpha on the wrong pixels (then not at all), and half of a 6 made transparent read as a
    sure 3."""
    for turn in _TURNS:
        turned = turn(full)
        if (turned.shape[:2] == image.shape[:2] and cv2.norm(
                np.ascontiguousarray(turned[:, :, :3]), image, cv2.NORM_INF) <= 1):
            return turned
    return None


HEIF_BRANDS = {b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"mif1", b"msf1",
               b"avif", b"avis"}
"""The brands an HEIF file (HEIC, an iPhone's photos by default; AVIF) names after
``ftyp`` at its start, which OpenCV's decoders do not read."""


def is_heif(data: bytes) -> bool:
    """Whether the bytes are an HEIF file's (HEIC, AVIF): its ``ftyp`` box names one of
    :data:`HEIF_BRANDS`."""
    return data[4:8] == b"ftyp" and data[8:12] in HEIF_BRANDS


_HEIF = message(
    "image.heif",
    "an HEIC or AVIF picture (an iPhone takes its photos so by default), which cannot be "
    "read here: send it as a JPEG (on an iPhone, Settings > Camera > Formats > Most "
    "Compatible)")()


_CUT_OFF = message(
    "image.cut_off",
    "cut off: the file ends before its picture does (a copy or an upload that did not "
    "finish: copy or send it again)")()


_DAMAGED = message(
    "image.damaged",
    "damaged: part of the picture's data cannot be decoded, so what it shows there is "
    "made up (a bad copy or a failing card: take or send the photo again)")()


def _ends_early(raw: bytes) -> bool:
    """Whether a JPEG, PNG, WebP or BMP file stops short of its own end: its end marker
    missing (JPEG's EOI, PNG's whole IEND chunk) or fewer bytes than its header gives
    (WebP's, BMP's). Asked only of a file whose header gave its size (so it is a picture
    of that format as far as it goes); a JPEG only once it failed to decode, as a phone's
    motion photo holds its video after the picture's end marker."""
    if is_jpeg(raw):
        return not raw.rstrip(b"\x00").endswith(b"\xff\xd9")
    if raw[:8] == _PNG:
        end = raw.rfind(b"IEND")
        return end < 0 or end + 8 > len(raw)  # the chunk's type, then its 4-byte CRC
    if raw[:4] == b"RIFF" and raw[8:12] == b"WEBP":
        return 8 + struct.unpack("<I", raw[4:8])[0] > len(raw)
    if raw[:2] == b"BM" and len(raw) >= 6:
        return struct.unpack("<I", raw[2:6])[0] > len(raw)
    return False


_JPEG_FIRST = (b"JFIF\x00", b"JFXX\x00", b"Exif\x00", b"http:")
"""How the first segment of a JPEG from a phone, a camera or an editor begins (APP0's JFIF,
APP1's Exif or XMP)."""


def _jpeg_header_cut(raw: bytes) -> bool:
    """Whether a JPEG ends inside its header, before its frame header gives its size
    (``head -c 500 photo.jpg``: "not a readable image", where one cut later was called cut
    off): it begins as a JPEG's does, with a first segment such a file has (JFIF, Exif,
    XMP, or a table), and its segments run on to the file's end without a picture. Bytes
    that only begin with a JPEG's marker are not called cut off."""
    if not is_jpeg(raw):
        return False
    i, first = 2, True
    while i + 4 <= len(raw):
        if raw[i] != 0xFF:
            return False
        marker = raw[i + 1]
        if marker == 0xFF:
            i += 1
            continue
        (length,) = struct.unpack(">H", raw[i + 2 : i + 4])
        if length < 2 or marker in (0xD9, 0xDA) or 0xD0 <= marker <= 0xD8 or marker < 0xC0:
            return False  # no frame header before the picture's data: not cut, malformed
        if first and not (marker in (0xDB, 0xC4, 0xDD) or marker in _SOF
                          or raw[i + 4 : i + 9].startswith(_JPEG_FIRST)):
            return False
        first = False
        i += 2 + length
    return not first or len(raw) < 8


def _too_large(width: int, height: int, png: bool = False) -> str:
    return _TOO_LARGE[png](width=str(width), height=str(height),
                           megapixels=f"{MAX_PIXELS / 1e6:.0f}")


def read_file(path: str | Path, min_side: int | None = None, tray: bool = True) -> Decoded:
    """:func:`decode` of a file (:class:`ImageError` "<path>: <reason>" if it is missing or
    cannot be read)."""
    if not str(path).strip():  # Path("") is the working folder
        raise _file_error(repr(str(path)), "an empty file name, not an image file")
    p = Path(path)
    if p.is_dir():
        raise _file_error(p, "a folder, not an image file")
    if not p.exists():
        raise _file_error(p, missing(p))
    if not p.is_file():
        raise _file_error(p, "not an image file (a device or a pipe)")
    try:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ImageError(f"{size / 2**20:.0f} MB: too large for a picture (at most "
                             f"{MAX_FILE_BYTES / 2**20:.0f} MB; a video is watched: "
                             "tableside watch video:FILE)")
        return decode(p.read_bytes(), min_side, tray)
    except OSError as exc:
        raise _file_error(p, f"cannot read ({exc.strerror or exc})") from None
    except ImageError as exc:
        raise _file_error(p, str(exc)) from None


LINKS_SHOWN = 10
"""The most links of a loop of links named in its message (``a -> b -> a``)."""


def missing(path: str | Path, what: str = "file") -> str:
    """Why a path that does not exist (``Path.exists()`` is False) leads to no ``what``
    ("file", "folder"): a loop of links (``ln -s b a; ln -s a b``: the link it names is
    there), a link to one that is not there, or "no such file"."""
    p = Path(path)
    if in_a_loop(p):
        chain = _loop_of_links(p)
        shown = f" ({chain})" if chain else ""
        return f"a loop of links{shown}, which leads to no {what}"
    if p.is_symlink():
        return f"a link to a {what} that is not there ({p.readlink()})"
    return f"no such {what}"


def in_a_loop(path: str | Path) -> bool:
    """Whether the path cannot be followed for a loop of links (ELOOP): ``Path.exists()``
    and ``is_file()`` are only False."""
    try:
        os.stat(path)
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


def _loop_of_links(path: Path) -> str | None:
    """``a -> b -> a``: the links from ``path`` round to one met before, as each names the
    next; None when they are more than :data:`LINKS_SHOWN` or the loop is elsewhere on the
    way (in a folder of the path)."""
    names, seen, at = [str(path)], set(), path
    while len(names) <= LINKS_SHOWN:
        where = os.path.normpath(os.path.abspath(at))
        if where in seen:
            return " -> ".join(names)
        seen.add(where)
        try:
            target = at.readlink()
        except OSError:  # not a link: the loop is in a folder on the way
            return None
        names.append(str(target))
        at = at.parent / target
    return None


def _file_error(name: str | Path, reason: str) -> ImageError:
    return ImageError(f"{name}: {reason}", reason)
