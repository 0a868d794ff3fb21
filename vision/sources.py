"""Frame sources chosen by a string, each a context manager with ``close()``.

``open_source(spec)`` understands:

* ``camera:N`` or a device path (``/dev/video0``): OpenCV ``VideoCapture`` (V4L2);
  ``camera:N,50hz`` / ``,60hz`` sets the webcam's anti-flicker to the mains (V4L2's
  power line frequency, :mod:`vision.v4l2`);
* ``picamera``: a Raspberry Pi camera through picamera2, imported only when asked;
  ``picamera:N`` the N-th camera, ``picamera:50hz`` / ``:60hz`` exposed against the mains
  lamps' flicker, ``picamera:1,50hz`` both;
* ``images:DIR``: the images of a folder in name order (a recorded sequence);
* ``video:FILE``: the frames of a video file, each timed by its place in the video (not
  by the clock: a recording read faster or slower than it was made settles as it was
  filmed);
* a path to one image (a photo uploaded from a phone), or to a video file
  (:data:`VIDEO_SUFFIXES`), or to a folder of images (as ``images:DIR``).

``read()`` returns the next :class:`Frame` or ``None`` at the end of a finite source. A
live source that stops delivering (camera unplugged) raises :class:`SourceLost`; after
``reopen()`` it delivers again if the device is back.
"""

from __future__ import annotations

import abc
import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import cv2
import numpy as np

from vision import v4l2
from vision.imagefile import ImageError, in_a_loop, missing, read_file

CAMERA_SIZE = (1280, 720)
"""The frame size asked of a camera (``camera:N``, ``/dev/videoN``, ``picamera``): the
size the framing advice and the speed targets are for (docs/vision.md, *Camera height and
framing*). USB webcams often start at 640x480, where a die is half as many pixels across;
a camera that cannot give it gives its nearest size."""

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")

VIDEO_SUFFIXES = (".mp4", ".m4v", ".mov", ".avi", ".mkv", ".webm", ".mjpeg", ".mjpg", ".h264")
"""A file path with one of these is a video (as ``video:FILE``), not a picture."""


FOCUS_SECONDS = 2.0
"""How long a webcam's autofocus is given to find the tray once the camera opens; then its
lens is held where it is, as a Pi camera's is after its focus cycle: a lens hunting over a
plain tray floor, or after a hand has passed, changes the picture while the dice lie still
and softens the frame they are read on."""

CAMERA_BUFFERS = 1
"""Frame buffers asked of a V4L2 camera (OpenCV's default is 4). The driver fills its
buffers in turn and a read takes the oldest filled one, so with 4 a loop reading slower
than the camera (the camera loop reads 20 a second, a webcam gives 30) is handed frames
three of its reads old, about 150 ms: the hand already gone is still seen, a settled tray
is read late, and a tray check's first frames predate its asking. With one, each read
waits for the camera's next frame (at most one frame period) and gets it fresh."""

IN_USE_HINT = "not plugged in, or in use by another program"
"""Why a camera may not open: one camera serves one program at a time."""


VIDEO_SHORT_BY = 0.05
"""The share of a video's counted frames it may end short by before :attr:`FrameSource.skipped`
notes the rest as unreadable (a container's count may be an estimate from its duration)."""


class SourceError(RuntimeError):
    """A source that cannot be opened (the message says what to do)."""


class FlickerControlError(SourceError):
    """The camera has no anti-flicker setting for the ``,50hz`` / ``,60hz`` asked of it."""


class SourceLost(SourceError):
    """A live source stopped delivering frames (unplugged); ``reopen()`` may bring it back."""


@dataclass(frozen=True)
class Frame:
    """One frame: BGR pixels, its index in the source, a timestamp and a reference."""

    image: np.ndarray
    index: int
    timestamp: float
    ref: str


class FrameSource(abc.ABC):
    """What every source shares: frame numbering on an injected clock, ``close()``,
    ``reopen()``, use as a context manager and iteration until the source ends."""

    name = "source"
    live = False
    """A camera (frames as they come, the first ones while its exposure settles) rather
    than a recording or a file."""
    mains_hz: int | None = None
    """The mains frequency (50, 60) a camera's anti-flicker was set to, None if not."""
    lens_degrees: float | None = None
    """The lens's angle across the picture's width, when the camera tells it (a Raspberry
    Pi camera module, by its sensor: :data:`vision.picamera.LENS_DEGREES`); None if not.
    The tray check says from it how much of their sides the dice at the tray's edge show
    (:attr:`vision.calibration.CalibrationCheck.tray_side`)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._index = 0
        self._closed = False
        self.skipped: list[str] = []
        """What the source passed over, each once with why: an images folder's unreadable
        files ("<path>: <reason>"), a video's frames past a cut. Its readers tell them as
        they come (:meth:`new_skips`)."""
        self._skips_told = 0

    def new_skips(self) -> list[str]:
        """The :attr:`skipped` notes added since this was last asked (to tell each once)."""
        new = self.skipped[self._skips_told:]
        self._skips_told = len(self.skipped)
        return new

    def _frame(self, image: np.ndarray, ref: str | None = None,
               timestamp: float | None = None) -> Frame:
        """The next frame, timed by the clock unless the source knows its own time."""
        when = self._clock() if timestamp is None else timestamp
        frame = Frame(image, self._index, when, ref or f"{self.name}#{self._index}")
        self._index += 1
        return frame

    @abc.abstractmethod
    def read(self) -> Frame | None:
        """The next frame, ``None`` at the end; :class:`SourceLost` if a camera went away."""

    def _check_open(self) -> None:
        if self._closed:
            raise SourceError(f"{self.name} is closed")

    def reopen(self) -> None:
        self._closed = False

    def close(self) -> None:
        self._closed = True

    @property
    def focusing(self) -> bool:
        """A camera's lens still looking for the tray: its frames may be soft or change."""
        return False

    def refocus(self) -> bool:
        """Focus again on what the camera sees now (the empty tray, at a tray check), the
        lens then held; False where the camera does not focus by itself."""
        return False

    def __enter__(self) -> Any:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __iter__(self) -> Iterator[Frame]:
        while (frame := self.read()) is not None:
            yield frame


def _read_image(path: Path) -> np.ndarray:
    try:
        return read_file(path).image
    except ImageError as exc:
        raise SourceError(str(exc)) from None


class ImageSource(FrameSource):
    """One image, delivered once (a phone photo)."""

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(clock)
        self.path = Path(path)
        self.name = str(self.path)
        self._image = _read_image(self.path)

    def read(self) -> Frame | None:
        self._check_open()
        if self._index > 0:
            return None
        return self._frame(self._image, str(self.path))

    def reopen(self) -> None:
        super().reopen()
        self._index = 0


class ImagesSource(FrameSource):
    """The images of a folder in name order; unreadable files are skipped, each noted in
    :attr:`skipped` (a folder of nothing else is an error). The folder itself gone part way
    (moved, deleted, a drive unmounted) is a camera unplugged: :class:`SourceLost`, told
    once, and ``reopen()`` goes on from the image after the last one read when it is back."""

    def __init__(self, directory: str | Path, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(clock)
        if not str(directory).strip():  # Path("") is the working folder
            raise SourceError("images: names no folder: give images:DIR, DIR a folder of "
                              "frames")
        self.directory = Path(directory)
        self.name = f"images:{self.directory}"
        if not self.directory.is_dir():
            raise _not_a_folder(self.directory)
        self.paths = self._scan()
        if not self.paths:
            raise SourceError(f"images:{self.directory}: no images in the folder")
        self._next = 0
        self._gone = False  # the folder went away; reopen() goes on where it was
        self._last: str | None = None  # the name of the image last delivered

    def _scan(self) -> list[Path]:
        return sorted(
            p for p in self.directory.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES
        )

    def read(self) -> Frame | None:
        """The next readable image; ``None`` at the end. A folder of which no file is a
        readable image is as empty: :class:`SourceError`, naming them. The folder gone:
        :class:`SourceLost` (its files are not each told as unreadable)."""
        self._check_open()
        if self._gone:
            raise self._lost()
        while self._next < len(self.paths):
            path = self.paths[self._next]
            try:
                image = _read_image(path)
            except SourceError as exc:
                if not self.directory.is_dir():  # not this file: the whole folder is gone
                    self._gone = True
                    raise self._lost() from None
                self._next += 1
                if str(exc) not in self.skipped:  # told once, not again on each pass
                    self.skipped.append(str(exc))
                continue
            self._next += 1
            self._last = path.name
            return self._frame(image, str(path))
        if self._index == 0:
            names = ", ".join(p.name for p in self.paths[:3])
            more = f" and {len(self.paths) - 3} more" if len(self.paths) > 3 else ""
            raise SourceError(f"{self.name}: none of its images can be read ({names}{more}: "
                              "corrupt or not images)")
        return None

    def _lost(self) -> SourceLost:
        why = missing(self.directory, "folder")
        return SourceLost(f"{self.name}: the folder is gone ({why}: moved or deleted?); "
                          "it is read again when it is back")

    def reopen(self) -> None:
        """Start over; after the folder went away, go on from the image after the last one
        read once it is back (:class:`SourceLost` while it is not)."""
        if self._gone:
            if not self.directory.is_dir():
                raise SourceLost(f"{self.name}: the folder is still gone")
            super().reopen()
            self.paths = self._scan()
            last = self._last
            self._next = sum(1 for p in self.paths if last is not None and p.name <= last)
            self._gone = False
            return
        super().reopen()
        self._next = 0
        self._index = 0


def _not_a_folder(path: Path) -> SourceError:
    """``images:PATH`` where PATH is no folder: what it is, and which source it makes."""
    spec = f"images:{path}"
    if path.is_file():
        if path.suffix.lower() in IMAGE_SUFFIXES:
            return SourceError(f"{spec}: {path} is a file, not a folder: give {path} alone "
                               "for one photo (or read it with tableside read-dice)")
        return SourceError(f"{spec}: {path} is a file, not a folder: use video:{path} for "
                           "a video file, images:DIR for a folder of frames")
    if path.exists():
        return SourceError(f"{spec}: {path} is not a folder (a device or a pipe)")
    return SourceError(f"{spec}: {missing(path, 'folder')}")


def _not_a_file(spec: str, name: str) -> SourceError:
    """``video:PATH`` where PATH is no file: what it is, and which source it makes."""
    path = Path(name)
    if not name.strip():  # Path("") is the working folder
        return SourceError(f"{spec} names no file: give video:FILE, FILE a video file")
    if path.is_dir():
        return SourceError(f"{spec}: {path} is a folder, not a video file: use "
                           f"images:{path} for a folder of frames")
    if path.exists():
        return SourceError(f"{spec}: {path} is not a video file (a device or a pipe; a "
                           "camera is named without video:, as /dev/video0 or camera:0)")
    return SourceError(f"{spec}: {missing(path)}")


class FakeSource(FrameSource):
    """Frames from a list, for tests: can disappear after a number of frames, like a camera
    pulled out, and come back on ``reopen()`` when ``plugged`` is set again."""

    def __init__(
        self, frames: Sequence[np.ndarray], *, name: str = "fake", lose_after: int | None = None,
        clock: Callable[[], float] = time.monotonic, loop: bool = False,
    ) -> None:
        super().__init__(clock)
        self.name = name
        self.frames = list(frames)
        self.lose_after = lose_after
        self.loop = loop
        self.plugged = True
        self.opened = 1
        self._next = 0

    def read(self) -> Frame | None:
        self._check_open()
        if self.lose_after is not None and self._index >= self.lose_after:
            self.plugged = False
        if not self.plugged:
            raise SourceLost(f"{self.name}: no frames (unplugged?); reopen when it is back")
        if self._next >= len(self.frames):
            if not self.loop or not self.frames:
                return None
            self._next = 0
        image = self.frames[self._next]
        self._next += 1
        return self._frame(image)

    def reopen(self) -> None:
        super().reopen()
        if not self.plugged:
            raise SourceLost(f"{self.name}: still unplugged")
        self.opened += 1
        self.lose_after = None


class CaptureSource(FrameSource):
    """OpenCV ``VideoCapture``: a camera index, a device path, or a video file.

    A camera that fails ``lost_after`` reads in a row raises :class:`SourceLost`; a video
    file simply ends, or raises :class:`SourceError` if not one frame of it can be read.
    ``capture_factory`` is injectable for tests.
    """

    def __init__(
        self, target: int | str, *, live: bool, name: str,
        capture_factory: Callable[[int | str], Any] = cv2.VideoCapture,
        clock: Callable[[], float] = time.monotonic, lost_after: int = 5,
        size: tuple[int, int] | None = None, mains_hz: int | None = None,
        set_power_line: Callable[[str, int], None] | None = None,
    ) -> None:
        super().__init__(clock)
        self.target = target
        self.live = live
        self.name = name
        self.lost_after = lost_after
        self.size = size
        self.mains_hz = mains_hz
        self._set_power_line = set_power_line or v4l2.set_power_line
        self._factory = capture_factory
        self._failures = 0
        self._cap: Any = None
        self._open()

    def _open(self) -> None:
        cap = self._factory(self.target)
        if cap is None or not cap.isOpened():
            if cap is not None:
                cap.release()
            if self.live:
                raise SourceError(f"{self.name}: cannot open the camera ({IN_USE_HINT})")
            raise SourceError(f"{self.name}: cannot open the video (cut off, corrupt, or not "
                              "a video OpenCV can open)")
        if self.live:
            cap.set(cv2.CAP_PROP_BUFFERSIZE, CAMERA_BUFFERS)  # a driver may keep more
        if self.size is not None:
            if self.live:
                # compressed frames: over USB 2, many webcams give 1280x720 uncompressed
                # only at 5-10 frames a second (one without MJPG keeps its own format)
                cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        if self.mains_hz is not None:  # each opening: a camera plugged in again forgets it
            node = self.target if isinstance(self.target, str) else f"/dev/video{self.target}"
            try:
                self._set_power_line(node, self.mains_hz)
            except v4l2.ControlError as exc:
                cap.release()
                raise FlickerControlError(
                    f"{self.name}: {exc}: leave out ,{self.mains_hz}hz, or light the tray "
                    "with a flicker-free lamp") from None
        self._cap = cap
        self._failures = 0
        self._frames_read = 0  # since this opening, to tell a video cut short
        self._last_ms = -1.0  # the video's time of the frame last read (a file starts over)
        # when its autofocus is held: FOCUS_SECONDS from its first frame (inf until then)
        self._focus_at = math.inf if self.live else None
        self.focus_held = False  # its autofocus turned off, the lens held on the tray

    def read(self) -> Frame | None:
        self._check_open()
        if self._cap is None:
            raise SourceLost(f"{self.name}: lost; call reopen()")
        ok, image = self._cap.read()
        if ok and image is not None:
            self._failures = 0
            self._frames_read += 1
            if self._focus_at is not None:
                self._focus_timer()
            return self._frame(image, timestamp=None if self.live else self._video_time())
        if not self.live:
            if self._index == 0:  # opened (OpenCV opens a lone picture, or a bad .jpg name,
                # as a sequence of pictures) but not one frame in it
                raise SourceError(f"{self.name}: not one frame could be read: not a video "
                                  "OpenCV can play (corrupt, or in a codec it lacks)")
            self._note_cut_short()
            return None
        self._failures += 1
        if self._failures >= self.lost_after:
            self._cap.release()
            self._cap = None
            raise SourceLost(f"{self.name}: the camera stopped delivering frames (unplugged?)")
        return self.read()

    def _note_cut_short(self) -> None:
        """At a video's end: if it gave clearly fewer frames than its header counts (a copy
        cut off, or damaged part way), note the frames passed over in :attr:`skipped`. A
        count that is only an estimate (from the duration, for some containers) may be a
        few frames off, so :data:`VIDEO_SHORT_BY` of them are allowed."""
        get = getattr(self._cap, "get", None)
        claimed = int(get(cv2.CAP_PROP_FRAME_COUNT) or 0) if get is not None else 0
        if claimed - self._frames_read > max(2, VIDEO_SHORT_BY * claimed):
            note = (f"{self.name}: frames {self._frames_read + 1}-{claimed} of the {claimed} "
                    "its header counts cannot be read (the file is cut off, or damaged there)")
            if note not in self.skipped:
                self.skipped.append(note)

    @property
    def focusing(self) -> bool:
        return self._focus_at is not None and self.autofocus

    @property
    def autofocus(self) -> bool:
        """The webcam focuses by itself: its continuous autofocus is on, or was until held."""
        if self.focus_held:
            return True
        get = getattr(self._cap, "get", None)
        return get is not None and float(get(cv2.CAP_PROP_AUTOFOCUS)) == 1.0

    def refocus(self) -> bool:
        """Its autofocus on again for :data:`FOCUS_SECONDS`, then held again."""
        if self._cap is None or not self.live or not self.autofocus:
            return False
        if self.focus_held:
            self._cap.set(cv2.CAP_PROP_AUTOFOCUS, 1)
            self.focus_held = False
        self._focus_at = math.inf  # FOCUS_SECONDS from its next frame
        return True

    def _focus_timer(self) -> None:
        """Start the autofocus's time at the first frame after an opening or a refocus (the
        clock a command reads a camera by may only tell the time once it is open), hold
        the lens once it is up."""
        now = self._clock()
        if self._focus_at == math.inf:
            self._focus_at = now + FOCUS_SECONDS
        elif self._focus_at is not None and now >= self._focus_at:
            self._hold_focus()

    def _hold_focus(self) -> None:
        """Turn a webcam's continuous autofocus off, its lens staying where it found the
        tray (:data:`FOCUS_SECONDS`); a camera without autofocus, or with it already off
        (focused by hand: ``v4l2-ctl -c focus_automatic_continuous=0``), is left as it is."""
        self._focus_at = None
        if self.autofocus:
            self.focus_held = bool(self._cap.set(cv2.CAP_PROP_AUTOFOCUS, 0))

    def _video_time(self) -> float | None:
        """The place in the video of the frame just read, in seconds: the container's
        timestamp, or else the frame's number over the video's frame rate; ``None`` (the
        clock times it) where the backend tells neither."""
        get = getattr(self._cap, "get", None)
        if get is None:
            return None
        ms = float(get(cv2.CAP_PROP_POS_MSEC))
        if math.isfinite(ms) and ms >= 0 and (self._index == 0 or ms > self._last_ms):
            self._last_ms = ms
            return ms / 1000
        fps = float(get(cv2.CAP_PROP_FPS))
        if math.isfinite(fps) and fps > 0:
            return self._index / fps
        return None

    def reopen(self) -> None:
        super().reopen()
        if self._cap is not None:
            self._cap.release()
            self._cap = None
        self._open()

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None
        super().close()


def _mains_option(text: str, spec: str) -> tuple[str, int | None]:
    """``0,50hz`` -> ("0", 50): a webcam and the mains frequency its anti-flicker is set
    to (:mod:`vision.v4l2`)."""
    base, comma, option = text.partition(",")
    if not comma:
        return base, None
    option = option.strip().lower()
    if option not in ("50hz", "60hz"):
        raise SourceError(f"{spec}: after the comma, 50hz or 60hz (your mains, against a "
                          "lamp's flicker)")
    return base, int(option[:2])


def with_mains(spec: str, mains_hz: int | None) -> str:
    """``spec`` with its camera's anti-flicker set to ``mains_hz`` (a tray setup's, kept
    from its calibration), unless it names its own or is no camera: ``camera:0`` ->
    ``camera:0,50hz``, ``picamera`` -> ``picamera:50hz``, ``picamera:1`` ->
    ``picamera:1,50hz``; a recording, a file or ``None`` leave it as it is."""
    options = (spec.split(":", 1)[1] if spec.startswith("picamera:")
               else spec.partition(",")[2])
    if mains_hz is None or any(o.strip().lower().endswith("hz") for o in options.split(",")):
        return spec
    if spec.startswith(("camera:", "/dev/", "picamera:")):
        return f"{spec},{mains_hz}hz"
    if spec == "picamera":
        return f"picamera:{mains_hz}hz"
    return spec


def open_for_setup(
    spec: str, mains_hz: int | None, *, clock: Callable[[], float] = time.monotonic,
    refused: Callable[[str], None] | None = None,
) -> FrameSource:
    """``open_source(spec)`` with the anti-flicker a tray setup was calibrated with, when
    ``spec`` names none (:func:`with_mains`). A camera with no such setting (another camera
    than the setup's) opens without it, and ``refused`` is told why."""
    wanted = with_mains(spec, mains_hz)
    if wanted == spec:
        return open_source(spec, clock=clock)
    try:
        return open_source(wanted, clock=clock)
    except FlickerControlError as exc:
        if refused is not None:
            refused(str(exc))
        return open_source(spec, clock=clock)


NO_SOURCE = ("no source given: use camera:N, a /dev/video path, picamera, images:DIR, "
             "video:FILE or an image file")


MAX_CAMERA_INDEX = 9999
"""The largest N of ``camera:N`` looked for (V4L2 numbers its nodes from 0 up; OpenCV
takes the number as a C int)."""


def _camera_index(spec: str) -> tuple[int, int | None]:
    """``camera:N`` or ``camera:N,50hz`` -> (N, mains)."""
    index, mains = _mains_option(spec.split(":", 1)[1], spec)
    if not index.isdigit() or not index.isascii():
        raise SourceError(f"{spec}: expected camera:N with N a number (camera:N,50hz "
                          "or ,60hz against a lamp's flicker)")
    if int(index) > MAX_CAMERA_INDEX:  # OpenCV takes a C int: a larger one was a traceback
        raise SourceError(f"{spec}: no camera has that number (tableside cameras lists the "
                          "cameras here)")
    return int(index), mains


def _unknown(spec: str) -> SourceError:
    return SourceError(f"unknown source {spec!r}: use camera:N, a /dev/video path, picamera, "
                       "images:DIR, video:FILE or an image file")


def check_spec(spec: str) -> None:
    """:class:`SourceError` when ``spec`` names no source at all (a typo, an option that does
    not exist), found without opening anything: ``serve`` says so at once rather than look
    for it for ever. A camera not plugged in, or a file not there, is for opening to say."""
    if not spec.strip():
        raise SourceError(NO_SOURCE)
    if spec.startswith("camera:"):
        _camera_index(spec)
    elif spec == "picamera" or spec.startswith("picamera:"):
        from vision.picamera import picamera_options

        picamera_options(spec)
    elif spec.startswith("/dev/"):
        _mains_option(spec, spec)
    elif not spec.startswith(("images:", "video:")):
        path = Path(spec)
        if not (path.exists() or path.suffix.lower() in IMAGE_SUFFIXES + VIDEO_SUFFIXES
                or _a_link(path)):
            raise _unknown(spec)


def open_source(
    spec: str, *, clock: Callable[[], float] = time.monotonic,
    capture_factory: Callable[[int | str], Any] = cv2.VideoCapture,
) -> FrameSource:
    """Open a frame source from its string (see the module docstring)."""
    if not spec.strip():
        raise SourceError(NO_SOURCE)
    if spec.startswith("camera:"):
        index, mains = _camera_index(spec)
        return CaptureSource(index, live=True, name=spec, clock=clock,
                             capture_factory=capture_factory, size=CAMERA_SIZE,
                             mains_hz=mains)
    if spec == "picamera" or spec.startswith("picamera:"):
        from vision.picamera import picamera_source  # it builds on this module's classes

        return picamera_source(spec, clock)
    if spec.startswith("images:"):
        return ImagesSource(spec.split(":", 1)[1], clock=clock)
    if spec.startswith("video:"):
        path = spec.split(":", 1)[1]
        if not path.strip() or not Path(path).is_file():
            raise _not_a_file(spec, path)
        return CaptureSource(path, live=False, name=spec, clock=clock,
                             capture_factory=capture_factory)
    if spec.startswith("/dev/"):
        path, mains = _mains_option(spec, spec)
        return CaptureSource(path, live=True, name=spec, clock=clock,
                             capture_factory=capture_factory, size=CAMERA_SIZE,
                             mains_hz=mains)
    path = Path(spec)
    if path.is_dir():
        return ImagesSource(path, clock=clock)
    if path.is_file() and path.suffix.lower() in VIDEO_SUFFIXES:
        return open_source(f"video:{spec}", clock=clock, capture_factory=capture_factory)
    if path.is_file():
        return ImageSource(path, clock=clock)
    if path.suffix.lower() in IMAGE_SUFFIXES or _a_link(path):
        raise SourceError(f"{spec}: {missing(path)}")
    raise _unknown(spec)


def _a_link(path: Path) -> bool:
    """Whether a path that does not exist is a link all the same (to nothing, or in a loop
    of links): it names something, which is not there."""
    return path.is_symlink() or in_a_loop(path)
