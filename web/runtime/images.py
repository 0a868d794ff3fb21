"""Photos from phones into frames the dice reader can take, with a clear error otherwise.

A phone sends JPEG or PNG (``<input type=file accept=image/*>``); iPhones may send HEIC,
which OpenCV cannot decode: that gets its own message saying what to change on the phone
rather than "corrupt image". Large photos are scaled down (the reader works at a die size
of about 40 px anyway), so the frame kept as evidence and the boxes in the answer share
one size that a phone can show; a large JPEG is decoded at that size directly, and a
picture too large to decode is refused (:mod:`vision.imagefile`).
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.errors import InvalidCommand
from vision.imagefile import ImageError, decode
from vision.said import message, said_of

MAX_SIDE = 1600
"""Longest side of a kept frame; a 12 MP phone photo becomes about 1600x1200."""

_HEIF_BRANDS = (b"heic", b"heix", b"hevc", b"heim", b"heis", b"hevm", b"hevs", b"mif1",
                b"msf1", b"avif")


def is_heif(data: bytes) -> bool:
    """An ISO-BMFF HEIF/AVIF file: ``....ftyp<brand>`` at the start."""
    return len(data) >= 12 and data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS


# why an uploaded photo is refused (vision.said: in the page's language)
PHOTO_EMPTY = message("photo.empty", "{name} is empty: take the photo again")
PHOTO_HEIF = message(
    "photo.heif",
    "{name} is a HEIC/HEIF picture, which Tableside cannot read: set the phone's camera "
    "format to 'Most Compatible' (JPEG), or send a JPEG or PNG")
PHOTO_UNREADABLE = message(
    "photo.unreadable", "{name} is not a readable image (corrupt, or not a JPEG or PNG)")
PHOTO_IS = message("photo.is", "{name} is {why}")


def decode_photo(data: bytes, name: str = "the photo") -> tuple[np.ndarray, np.ndarray | None]:
    """BGR pixels of an uploaded photo (``InvalidCommand`` with a reason a player can act on),
    and where it is not opaque (a PNG edited: :mod:`vision.transparency`; None where it
    all is), both at the size kept.

    The photo's size is read from its header first (:mod:`vision.imagefile`): a large JPEG
    is decoded straight at the size kept, and a picture too large to decode on the Pi (a
    PNG of a few hundred kilobytes can hold gigabytes of pixels) is refused."""
    if not data:
        raise InvalidCommand(PHOTO_EMPTY(name=name))
    if is_heif(data):
        raise InvalidCommand(PHOTO_HEIF(name=name))
    try:
        decoded = decode(data, min_side=MAX_SIDE)
    except ImageError as exc:
        if str(exc).startswith("not a readable image"):
            raise InvalidCommand(PHOTO_UNREADABLE(name=name)) from None
        raise InvalidCommand(PHOTO_IS(name=name, why=said_of(exc))) from None
    image = shrink(decoded.image)
    hidden = decoded.hidden
    if hidden is not None and hidden.shape != image.shape[:2]:  # shrunk: a pixel touched stays
        hidden = cv2.resize(hidden.astype(np.float32), (image.shape[1], image.shape[0]),
                            interpolation=cv2.INTER_AREA) > 0
    return image, hidden


def shrink(image: np.ndarray, max_side: int = MAX_SIDE) -> np.ndarray:
    """The image scaled down so its longest side is at most ``max_side``."""
    h, w = image.shape[:2]
    scale = max_side / max(h, w)
    if scale >= 1:
        return image
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def jpeg(image: np.ndarray, quality: int = 85) -> bytes:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("cannot encode the frame as JPEG")
    return buf.tobytes()


def png(image: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".png", image)
    if not ok:
        raise ValueError("cannot encode the crop as PNG")
    return buf.tobytes()
