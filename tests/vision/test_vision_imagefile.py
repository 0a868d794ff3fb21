"""Image files: sizes read from headers before decoding, large JPEGs decoded reduced,
pictures too large to decode refused with a reason (``vision/imagefile.py``)."""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.helpers import PHOTOS, png_claiming, png_of, with_orientation
from vision import imagefile
from vision.imagefile import MAX_FILE_BYTES, ImageError, decode, image_size, read_file
from vision.reader import DiceReader

PHOTO = PHOTOS / "IMG_20191209_100614.jpg"  # 1024x1024, 3 dice


def tiff_claiming(width: int, height: int) -> bytes:
    """An uncompressed RGB TIFF header claiming ``width`` x ``height``."""
    tags = [(256, 4, width), (257, 4, height), (258, 3, 8), (259, 3, 1), (262, 3, 2),
            (273, 4, 8), (277, 3, 3), (278, 4, height),
            (279, 4, min(width * height * 3, 0xFFFFFFFF))]
    ifd = struct.pack("<H", len(tags)) + b"".join(
        struct.pack("<HHII", tag, kind, 1, value) for tag, kind, value in tags)
    return b"II*\x00" + struct.pack("<I", 8) + ifd + b"\x00\x00\x00\x00"


@pytest.mark.parametrize(("ext", "params"), [
    (".jpg", []),
    (".jpg", [cv2.IMWRITE_JPEG_PROGRESSIVE, 1]),
    (".png", []),
    (".webp", [cv2.IMWRITE_WEBP_QUALITY, 80]),
    (".webp", [cv2.IMWRITE_WEBP_QUALITY, 101]),  # lossless
    (".bmp", []),
    (".tiff", []),
])
def test_the_size_is_read_from_the_header(ext: str, params: list[int]) -> None:
    image = np.random.default_rng(1).integers(0, 255, (23, 37, 3), dtype=np.uint8)
    ok, data = cv2.imencode(ext, image, params)
    assert ok
    assert image_size(data.tobytes()) == (37, 23)


def test_headers_that_say_nothing_give_no_size() -> None:
    jpeg = PHOTO.read_bytes()
    assert image_size(jpeg) == (1024, 1024)
    assert image_size(jpeg[:100]) is None  # cut before the frame header
    assert image_size(b"this is not a picture") is None
    assert image_size(b"") is None
    assert image_size(b"P6\n37 23\n255\n") is None  # not a format read here


@pytest.mark.parametrize("ext", [".jpg", ".png", ".webp", ".bmp"])
def test_a_file_cut_off_is_refused_as_cut_off(ext: str, capfd: pytest.CaptureFixture[str]
                                              ) -> None:
    data = cv2.imencode(ext, cv2.imread(str(PHOTO)))[1].tobytes()
    assert decode(data).image.shape == (1024, 1024, 3)
    for cut in (data[: len(data) // 2], data[:-1], data[:200]):
        with pytest.raises(ImageError, match=r"^cut off: the file ends before its picture "
                                             r"does \(a copy or an upload that did not"):
            decode(cut)
    if ext == ".png":  # refused before libpng is asked, which would print to the terminal
        assert "libpng" not in capfd.readouterr().err


def test_a_jpeg_cut_before_its_frame_header_is_refused_as_cut_off() -> None:
    """head -c 500 photo.jpg: cut in its header, before the picture's size, it was "not a
    readable image" where one cut later is "cut off": a phone's photo (its Exif first, a
    few kB) cut so is cut off too, to be sent again."""
    jpeg = PHOTO.read_bytes()
    exif = b"Exif\x00\x00MM\x00\x2a" + bytes(6000)
    phone = jpeg[:2] + b"\xff\xe1" + (len(exif) + 2).to_bytes(2, "big") + exif + jpeg[2:]
    assert decode(phone).image.shape == (1024, 1024, 3)
    for cut in (jpeg[:100], jpeg[:20], phone[:500], phone[:3000]):
        assert image_size(cut) is None
        with pytest.raises(ImageError, match=r"^cut off: the file ends before its picture"):
            decode(cut)


def test_a_jpeg_with_more_after_its_end_is_read_and_a_corrupt_one_is_not_called_cut_off(
) -> None:
    jpeg = PHOTO.read_bytes()
    # a phone's motion photo keeps its video after the picture's end marker
    assert decode(jpeg + b"ftypmp42" + bytes(5000)).image.shape == (1024, 1024, 3)
    scan = jpeg.index(b"\xff\xda")  # the picture's data garbled, its end marker kept
    garbled = jpeg[:scan] + b"\xff\xc0" + b"\x00" * 64 + jpeg[-2:]
    with pytest.raises(ImageError, match=r"^not a readable image"):
        decode(garbled)
    # bytes that begin as a JPEG does but never give a picture's size: not called cut off
    for text in (b"this is not a picture", bytes(300), b"\xff\xd8\xff\xe0 not a jpeg"):
        with pytest.raises(ImageError, match=r"^not a readable image"):
            decode(text)


def test_a_jpeg_damaged_part_way_is_refused_not_read_made_up(
        capfd: pytest.CaptureFixture[str]) -> None:
    """A JPEG whose data is overwritten part way (full length, its end marker kept):
    libjpeg decodes it all the same, the rest of the picture made up, and printed its note
    to the terminal while the reader read dice that were not there. Refused as damaged, in
    our words only."""
    jpeg = bytearray(PHOTO.read_bytes())
    scan = jpeg.index(b"\xff\xda")
    middle = (scan + len(jpeg)) // 2
    jpeg[middle:middle + 50] = bytes(range(7, 257, 5))  # no 0xff: no marker made up
    with pytest.raises(ImageError, match=r"^damaged: part of the picture's data cannot be "
                                         r"decoded"):
        decode(bytes(jpeg))
    assert "JPEG" not in capfd.readouterr().err
    assert decode(PHOTO.read_bytes()).image.shape == (1024, 1024, 3)  # the whole one reads


_SMALL = cv2.resize(cv2.imread(str(PHOTO)), (96, 96), interpolation=cv2.INTER_AREA)
_FILES = {ext: cv2.imencode(ext, _SMALL)[1].tobytes()
          for ext in (".jpg", ".png", ".webp", ".bmp", ".tiff")}


@settings(max_examples=200, deadline=None)
@given(ext=st.sampled_from(sorted(_FILES)), data=st.data())
def test_a_damaged_file_decodes_or_is_an_image_error(ext: str, data: st.DataObject) -> None:
    """A real picture's bytes cut, overwritten or added to anywhere (headers, sizes, end
    markers): it decodes to a picture or is refused with a reason, never another error."""
    raw = bytearray(_FILES[ext])
    for _ in range(data.draw(st.integers(1, 4), label="changes")):
        at = data.draw(st.integers(0, len(raw)), label="at")
        change = data.draw(st.sampled_from(["cut", "overwrite", "insert"]), label="change")
        junk = data.draw(st.binary(min_size=1, max_size=8), label="bytes")
        if change == "cut":
            raw = raw[:at]
        elif change == "overwrite":
            raw[at:at + len(junk)] = junk
        else:
            raw[at:at] = junk
    try:
        image = decode(bytes(raw), tray=False).image
    except ImageError as exc:
        assert str(exc)
    else:
        assert image.ndim == 3 and image.shape[2] == 3 and image.size > 0


def test_a_decompression_bomb_is_refused_before_decoding() -> None:
    data = png_claiming(30000, 20000)
    assert len(data) < 200
    with pytest.raises(ImageError, match="30000x20000 pixels, more than Tableside decodes"):
        decode(data)
    with pytest.raises(ImageError, match="6000x5000 pixels.*send it as a JPEG"):
        decode(tiff_claiming(6000, 5000))


def test_opencv_refusing_a_size_is_an_image_error_not_a_crash() -> None:
    # a format whose header is not read here, claiming 10 gigapixels: OpenCV's own limit
    # (a gigapixel) refuses it with an exception, which must not escape as one
    with pytest.raises(ImageError, match="too large to decode"):
        decode(b"P6\n100000 100000\n255\n" + bytes(64))


def test_a_large_jpeg_is_decoded_reduced(monkeypatch: pytest.MonkeyPatch) -> None:
    full = decode(PHOTO.read_bytes())
    assert full.image.shape == (1024, 1024, 3) and full.scale == 1.0
    monkeypatch.setattr(imagefile, "MAX_PIXELS", 300_000)  # 1024x1024 is over it
    half = decode(PHOTO.read_bytes())
    assert half.image.shape == (512, 512, 3) and half.scale == 0.5
    # decoded reduced, not decoded and thrown away: the same picture, smaller
    smaller = cv2.resize(full.image, (512, 512), interpolation=cv2.INTER_AREA)
    assert np.abs(half.image.astype(int) - smaller).mean() < 4
    monkeypatch.setattr(imagefile, "MAX_PIXELS", 10_000)  # even an eighth is over it
    with pytest.raises(ImageError, match="1024x1024 pixels"):
        decode(PHOTO.read_bytes())


def test_a_caller_needing_less_gets_a_jpeg_decoded_smaller() -> None:
    data = PHOTO.read_bytes()
    assert decode(data, min_side=400).image.shape == (512, 512, 3)  # 256 would be under
    assert decode(data, min_side=1024).image.shape == (1024, 1024, 3)
    assert decode(data, min_side=2000).image.shape == (1024, 1024, 3)  # never enlarged
    png = cv2.imencode(".png", decode(data).image)[1].tobytes()
    assert decode(png, min_side=400).image.shape == (1024, 1024, 3)  # only JPEGs scale


def test_a_picture_too_small_or_too_narrow_for_a_tray_is_refused_before_decoding() -> None:
    # a strip of 16 px by 30000 is only 480,000 pixels, but the reader, sizing its dice
    # from the short side, once spent 14 s and 5.8 GB on one (a 4x100000 one, 9.5 GB)
    with pytest.raises(ImageError, match="30000x16 pixels: too small to show dice"):
        decode(png_claiming(30000, 16))
    with pytest.raises(ImageError, match="4x100000 pixels: too small"):
        decode(png_claiming(4, 100000))
    with pytest.raises(ImageError, match="400x40 pixels: too long and narrow"):
        decode(png_claiming(400, 40))
    with pytest.raises(ImageError, match="1x1 pixels: too small"):
        decode(cv2.imencode(".png", np.zeros((1, 1, 3), np.uint8))[1].tobytes())
    # a format whose size is only known once decoded is checked then
    with pytest.raises(ImageError, match="20x300 pixels: too small"):
        decode(b"P6\n20 300\n255\n" + bytes(20 * 300 * 3))
    # the limits themselves pass: 32 px each way, 8 times as long as wide
    for width, height in ((32, 32), (256, 32), (32, 256)):
        image = np.full((height, width, 3), 128, np.uint8)
        assert decode(cv2.imencode(".png", image)[1].tobytes()).image.shape == image.shape


def test_read_file_names_the_file(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(png_claiming(40000, 40000))
    with pytest.raises(ImageError, match=r"bomb\.png: 40000x40000 pixels"):
        read_file(bomb)
    with pytest.raises(ImageError, match=r"missing\.jpg: no such file") as missing:
        read_file(tmp_path / "missing.jpg")
    assert missing.value.reason == "no such file"  # for a caller naming the file itself
    with pytest.raises(ImageError, match=r"a folder, not an image file"):
        read_file(tmp_path)
    for empty in ("", " "):  # a script's unset variable: not taken for the working folder
        with pytest.raises(ImageError, match=r"an empty file name"):
            read_file(empty)


def test_an_iphone_s_heic_photo_and_a_broken_link_say_what_they_are(tmp_path: Path) -> None:
    """An iPhone saves its photos as HEIC by default, which OpenCV does not read: the
    reason says so and what to send instead (found by a helper: it said "corrupt or
    unsupported"). A link to a file that is gone says so, though the folder lists it."""
    # an HEIF file's start: an ftyp box naming the heic brand, then a meta box
    heic = struct.pack(">I", 24) + b"ftypheic" + b"\0\0\0\0" + b"mif1heic"
    heic += struct.pack(">I", 200) + b"meta" + bytes(192)
    with pytest.raises(ImageError, match="an HEIC or AVIF picture.*send it as a JPEG") as e:
        decode(heic)
    assert e.value.reason.key == "image.heif"  # a page says it in its language
    photo = tmp_path / "IMG_0001.HEIC"
    photo.write_bytes(heic)
    with pytest.raises(ImageError, match=r"IMG_0001\.HEIC: an HEIC or AVIF picture"):
        read_file(photo)
    gone = tmp_path / "gone.jpg"
    (tmp_path / "link.jpg").symlink_to(gone)
    with pytest.raises(ImageError, match=r"link\.jpg: a link to a file that is not there "
                       r"\(.*gone\.jpg\)"):
        read_file(tmp_path / "link.jpg")


def test_a_loop_of_links_says_it_is_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                       ) -> None:
    """``ln -s loopb loopa; ln -s loopa loopb``: ``read-dice loopa`` said "a link to a file
    that is not there (loopb)", though loopb is there."""
    monkeypatch.chdir(tmp_path)
    Path("loopa").symlink_to("loopb")
    Path("loopb").symlink_to("loopa")
    Path("self.jpg").symlink_to("self.jpg")
    with pytest.raises(ImageError) as loop:
        read_file("loopa")
    assert str(loop.value) == "loopa: a loop of links (loopa -> loopb -> loopa), which leads " \
        "to no file"
    assert loop.value.reason == "a loop of links (loopa -> loopb -> loopa), which leads to " \
        "no file"
    with pytest.raises(ImageError, match=r"a loop of links \(self\.jpg -> self\.jpg\)"):
        read_file("self.jpg")
    # a loop in a folder on the way: no chain of links to name, a loop all the same
    with pytest.raises(ImageError, match=r"loopa/x\.jpg: a loop of links, which leads to no"):
        read_file("loopa/x.jpg")
    assert imagefile.missing("loopb", "folder") == (
        "a loop of links (loopb -> loopa -> loopb), which leads to no folder")
    assert imagefile.missing("nowhere.jpg") == "no such file"  # neither a link nor a loop


def test_a_png_s_transparent_parts_are_white_as_a_page_shows_them() -> None:
    """Decoded without its alpha, a PNG showed what its transparent parts hold: a helper's
    fully transparent PNG was read as 22 dice, sure. Its pixels are now laid over white:
    a transparent picture is blank, an opaque one is as stored, a half one between."""
    rng = np.random.default_rng(3)
    bgr = rng.integers(0, 256, (200, 300, 3), dtype=np.uint8)
    for alpha, want in ((0, np.full_like(bgr, 255)), (255, bgr)):
        bgra = np.dstack([bgr, np.full(bgr.shape[:2], alpha, np.uint8)])
        png = cv2.imencode(".png", bgra)[1].tobytes()
        assert np.array_equal(decode(png).image, want)
    half = np.dstack([bgr, np.full(bgr.shape[:2], 128, np.uint8)])
    got = decode(cv2.imencode(".png", half)[1].tobytes()).image.astype(int)
    assert np.abs(got - (bgr.astype(float) * 128 / 255 + 255 * 127 / 255)).max() <= 1
    deep = (np.dstack([bgr, np.zeros(bgr.shape[:2], np.uint8)]).astype(np.uint16) * 257)
    assert np.array_equal(decode(cv2.imencode(".png", deep)[1].tobytes()).image,
                          np.full_like(bgr, 255))  # 16 bits a channel alike


def test_a_tiffs_transparent_parts_are_white_and_known_hidden() -> None:
    """A TIFF with alpha (a fourth sample, as OpenCV writes one): read as stored, a helper's
    wholly transparent TIFF of a photo read 7 dice, sure."""
    bgra = np.zeros((40, 60, 4), np.uint8)
    bgra[..., 2] = 255  # red
    bgra[:, 30:, 3] = 255  # the right half opaque, the left transparent
    got = decode(cv2.imencode(".tiff", bgra)[1].tobytes())
    assert (got.image[:, :30] == 255).all() and (got.image[:, 30:] == (0, 0, 255)).all()
    assert got.hidden is not None and got.hidden[:, :30].all() and not got.hidden[:, 30:].any()
    assert decode(cv2.imencode(".tiff", bgra[..., :3])[1].tobytes()).hidden is None


@pytest.mark.parametrize("quality", [80, 101], ids=["lossy", "lossless"])
def test_a_webps_transparent_parts_are_white_and_known_hidden(quality: int) -> None:
    """A WebP with alpha (lossy ones carry it in an extended header, lossless in their
    own): read as stored, what lay under its transparent part showed."""
    bgra = np.zeros((40, 60, 4), np.uint8)
    bgra[..., 2] = 255  # red
    bgra[:, 30:, 3] = 255  # the right half opaque, the left transparent
    got = decode(cv2.imencode(".webp", bgra, [cv2.IMWRITE_WEBP_QUALITY, quality])[1].tobytes())
    assert (got.image[:, :25] >= 250).all() and (got.image[:, 35:, 0] <= 10).all()
    assert got.hidden is not None and got.hidden[:, :28].all() and not got.hidden[:, 32:].any()
    opaque = cv2.imencode(".webp", bgra[..., :3], [cv2.IMWRITE_WEBP_QUALITY, quality])[1]
    assert decode(opaque.tobytes()).hidden is None


def test_a_png_made_transparent_by_its_trns_chunk_is_white_there_and_known_hidden() -> None:
    """A palette PNG whose first entry is transparent, and an RGB one whose red is (a
    ``tRNS`` chunk, no alpha channel): read as stored, the red showed through; it is laid
    over white like an alpha channel, and the reader knows where (vision/transparency.py).
    A PNG with no ``tRNS`` hides nothing."""
    w, h = 64, 48
    left = [x < 32 for x in range(w)]
    palette = png_of(w, h, 3, bytes(0 if x else 1 for x in left) * h,
                     (b"PLTE", bytes([255, 0, 0, 0, 0, 255])), (b"tRNS", bytes([0])))
    rgb_rows = b"".join(bytes([255, 0, 0]) if x else bytes([0, 0, 255]) for x in left) * h
    rgb = png_of(w, h, 2, rgb_rows, (b"tRNS", struct.pack(">HHH", 255, 0, 0)))
    for data in (palette, rgb):
        got = decode(data)
        assert (got.image[:, :32] == 255).all()  # the red part, transparent: white
        assert (got.image[:, 32:] == (255, 0, 0)).all()  # blue (BGR), opaque: as stored
        assert got.hidden is not None and got.hidden[:, :32].all() and not got.hidden[:, 32:].any()
    opaque = decode(png_of(w, h, 2, rgb_rows))
    assert opaque.hidden is None and (opaque.image[:, :32] == (0, 0, 255)).all()


def test_boxes_of_a_reduced_jpeg_are_in_the_files_own_pixels(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reader = DiceReader("d6")
    small = reader.read_path(PHOTO)
    large = tmp_path / "large.jpg"
    image = cv2.resize(decode(PHOTO.read_bytes()).image, (2048, 2048),
                       interpolation=cv2.INTER_CUBIC)
    cv2.imwrite(str(large), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    monkeypatch.setattr(imagefile, "MAX_PIXELS", 1_100_000)  # 2048x2048 decodes at 1024
    read = reader.read_path(large)
    assert read.frame is None or read.frame.shape[:2] == (1024, 1024)
    assert sorted(d.face for d in read.dice) == sorted(d.face for d in small.dice)
    for die in read.dice:
        x, y, w, h = die.box
        near = min(small.dice, key=lambda d: abs(2 * d.box[0] - x) + abs(2 * d.box[1] - y))
        assert all(abs(2 * a - b) <= 6 for a, b in zip(near.box, die.box, strict=True))


def test_a_file_too_large_for_a_picture_is_refused_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A video given to read-dice by mistake used to be read whole into memory (1.5 GB
    took 1.6 GB). The file is sparse: refused from its size alone, in no time."""
    video = tmp_path / "roll.mp4"
    with video.open("wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail("the file was read"))
    with pytest.raises(ImageError, match=r"roll.mp4: 160 MB: too large for a picture.*watch"):
        read_file(video)


def test_a_device_is_not_an_image_file() -> None:
    """/dev/zero was reported as "no such file"."""
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    with pytest.raises(ImageError, match="not an image file"):
        read_file("/dev/zero")


def _noise_jpeg(width: int = 400, height: int = 240) -> bytes:
    """A JPEG of blocky noise, no two ways of turning it alike."""
    rng = np.random.default_rng(0)
    small = (rng.random((height // 4, width // 4, 3)) * 255).astype(np.uint8)
    image = cv2.resize(small, (width, height), interpolation=cv2.INTER_NEAREST)
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 100])[1].tobytes()


@pytest.mark.parametrize("order", ["<", ">"])
@pytest.mark.parametrize("orientation", range(1, 9))
def test_a_jpeg_is_turned_upright_whole_or_reduced(orientation: int, order: str) -> None:
    # a phone stores a photo as its sensor saw it and says in EXIF how to turn it upright;
    # OpenCV (5.0) turns it, decoded whole and decoded reduced alike, so the boxes of a
    # large phone photo decoded reduced are in the same upright pixels as a small one's
    plain = _noise_jpeg()
    stored = decode(plain).image
    data = with_orientation(plain, orientation, order)
    whole = decode(data).image
    upright = {1: stored, 2: cv2.flip(stored, 1), 3: cv2.rotate(stored, cv2.ROTATE_180),
               4: cv2.flip(stored, 0), 5: cv2.transpose(stored),
               6: cv2.rotate(stored, cv2.ROTATE_90_CLOCKWISE),
               7: cv2.flip(cv2.transpose(stored), -1),
               8: cv2.rotate(stored, cv2.ROTATE_90_COUNTERCLOCKWISE)}[orientation]
    assert np.array_equal(whole, upright)
    reduced = decode(data, min_side=100)  # a quarter: 100x60 stored
    assert reduced.scale == 0.25
    assert reduced.image.shape[:2] == (whole.shape[0] // 4, whole.shape[1] // 4)

    # the same picture, the same way up: nearer the whole one shrunk than any of its
    # mirror images (libjpeg's reduced decode differs from a shrink by a few levels)
    def off(image: np.ndarray) -> float:
        shrunk = cv2.resize(image, reduced.image.shape[1::-1], interpolation=cv2.INTER_AREA)
        return float(np.abs(shrunk.astype(int) - reduced.image).mean())
    mirrors = [cv2.flip(whole, 1), cv2.flip(whole, 0), cv2.rotate(whole, cv2.ROTATE_180)]
    assert off(whole) < 20
    assert all(off(whole) < off(m) - 30 for m in mirrors)


def test_a_jpeg_with_no_such_orientation_is_read_as_stored() -> None:
    plain = _noise_jpeg()
    assert np.array_equal(decode(with_orientation(plain, 9)).image, decode(plain).image)


def test_a_portrait_phone_photo_is_read_upright(tmp_path: Path) -> None:
    # a phone held upright stores its photo on its side with orientation 6; the dice are
    # found, and their boxes are in the upright picture's pixels, whole or reduced
    stored = cv2.rotate(decode(PHOTO.read_bytes()).image, cv2.ROTATE_90_COUNTERCLOCKWISE)
    data = with_orientation(cv2.imencode(".jpg", stored, [cv2.IMWRITE_JPEG_QUALITY, 95]
                                         )[1].tobytes(), 6)
    (tmp_path / "portrait.jpg").write_bytes(data)
    reader = DiceReader("d6")
    upright = reader.read_path(PHOTO)
    turned = reader.read_path(tmp_path / "portrait.jpg")
    assert sorted(d.face for d in turned.dice) == sorted(d.face for d in upright.dice)
    for die in turned.dice:
        near = min(upright.dice, key=lambda d: abs(d.box[0] - die.box[0])
                   + abs(d.box[1] - die.box[1]))
        assert all(abs(a - b) <= 4 for a, b in zip(near.box, die.box, strict=True))
