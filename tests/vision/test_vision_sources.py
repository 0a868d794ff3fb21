from __future__ import annotations

import math
import shutil
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.vision.helpers import PHOTOS, ManualClock
from vision import picamera
from vision.picamera import PicameraSource, flicker_period_us, lens_of
from vision.sources import (
    CAMERA_SIZE,
    FOCUS_SECONDS,
    CaptureSource,
    FakeSource,
    FlickerControlError,
    ImageSource,
    ImagesSource,
    SourceError,
    SourceLost,
    check_spec,
    open_for_setup,
    open_source,
    with_mains,
)


class FakeCapture:
    """Speaks the part of ``cv2.VideoCapture`` the sources use; can be unplugged."""

    def __init__(self, frames: int = 100, opens: bool = True) -> None:
        self.frames = frames
        self.opens = opens
        self.plugged = True
        self.released = False
        self.props: dict[int, float] = {}

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return self.opens

    def read(self) -> tuple[bool, np.ndarray | None]:
        if not self.plugged or self.frames <= 0:
            return False, None
        self.frames -= 1
        return True, np.zeros((4, 6, 3), np.uint8)

    def set(self, prop: int, value: float) -> bool:
        self.props[prop] = value
        return True

    def release(self) -> None:
        self.released = True


def test_image_source_gives_one_frame_then_ends() -> None:
    path = PHOTOS / "IMG_20191208_112609.jpg"
    with ImageSource(path, clock=ManualClock(5.0)) as source:
        frame = source.read()
        assert frame is not None
        assert frame.image.shape == (1024, 1024, 3)
        assert frame.ref == str(path) and frame.index == 0 and frame.timestamp == 5.0
        assert source.read() is None
        source.reopen()
        assert source.read() is not None


def test_images_source_reads_a_folder_in_order_and_skips_broken_files(tmp_path: Path) -> None:
    for name in ("b.jpg", "a.jpg"):
        shutil.copy(PHOTOS / "IMG_20191208_112609.jpg", tmp_path / name)
    (tmp_path / "c.jpg").write_bytes(b"broken")
    (tmp_path / "notes.txt").write_text("not an image")
    with open_source(f"images:{tmp_path}") as source:
        refs = [f.ref for f in source]
        assert [Path(r).name for r in refs] == ["a.jpg", "b.jpg"]
        assert source.skipped == [f"{tmp_path / 'c.jpg'}: not a readable image (corrupt or "
                                  "unsupported format)"]
        assert source.new_skips() == source.skipped and source.new_skips() == []
        source.reopen()  # read again: the same file is noted once
        assert len(list(source)) == 2 and len(source.skipped) == 1
        assert source.new_skips() == []  # and handed out once


def test_images_source_whose_folder_goes_away_is_lost_and_comes_back(tmp_path: Path) -> None:
    """The QA run: the folder moved away mid-game gave thousands of "skipped ...: no such
    file" notes, then the recording ended; moving it back brought nothing back."""
    folder = tmp_path / "frames"
    folder.mkdir()
    for name in ("a.jpg", "b.jpg", "c.jpg", "d.jpg"):
        shutil.copy(PHOTOS / "IMG_20191208_112609.jpg", folder / name)
    source = open_source(f"images:{folder}")
    assert Path(source.read().ref).name == "a.jpg"
    folder.rename(tmp_path / "away")
    with pytest.raises(SourceLost, match=r"the folder is gone \(no such folder"):
        source.read()
    with pytest.raises(SourceLost):  # again, as a camera still unplugged: nothing skipped
        source.read()
    assert source.skipped == [] and source.new_skips() == []
    with pytest.raises(SourceLost, match="still gone"):
        source.reopen()
    (tmp_path / "away").rename(folder)
    source.reopen()
    assert [Path(f.ref).name for f in source] == ["b.jpg", "c.jpg", "d.jpg"]  # goes on
    assert source.skipped == []
    source.reopen()  # a reopen otherwise starts over, as before
    assert Path(source.read().ref).name == "a.jpg"


def test_a_folder_of_which_no_image_can_be_read_is_an_error(tmp_path: Path) -> None:
    """Before, it was a recording of no frame: `watch` said the dice had not settled yet."""
    (tmp_path / "a.jpg").write_bytes(b"broken")
    (tmp_path / "b.png").write_bytes(b"")
    with open_source(f"images:{tmp_path}") as source, pytest.raises(
            SourceError, match=r"none of its images can be read \(a.jpg, b.png"):
        source.read()


def test_open_source_errors_are_clear(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such folder"):
        open_source(f"images:{tmp_path / 'nope'}")
    with pytest.raises(SourceError, match="no images"):
        open_source(f"images:{tmp_path}")
    with pytest.raises(SourceError, match="unknown source"):
        open_source("telescope:3")
    with pytest.raises(SourceError, match="camera:N"):
        open_source("camera:front")
    with pytest.raises(SourceError, match="no such file"):
        open_source(f"video:{tmp_path / 'x.avi'}")


def test_a_folder_given_as_video_or_a_file_as_images_says_which_prefix_to_use(
        tmp_path: Path) -> None:
    """``watch video:DIR`` said "no such file" of a folder that is there, and
    ``watch images:clip.mp4`` "no such folder" of a file that is there."""
    frames = tmp_path / "fr"
    frames.mkdir()
    video = tmp_path / "clip.mp4"
    video.write_bytes(b"x")
    still = tmp_path / "photo.jpg"
    still.write_bytes(b"x")
    with pytest.raises(SourceError) as folder:
        open_source(f"video:{frames}")
    assert str(folder.value) == (f"video:{frames}: {frames} is a folder, not a video file: "
                                 f"use images:{frames} for a folder of frames")
    with pytest.raises(SourceError) as file:
        open_source(f"images:{video}")
    assert str(file.value) == (f"images:{video}: {video} is a file, not a folder: use "
                               f"video:{video} for a video file, images:DIR for a folder of "
                               "frames")
    with pytest.raises(SourceError, match=r"is a file, not a folder: give .*photo\.jpg alone "
                       "for one photo"):
        open_source(f"images:{still}")
    with pytest.raises(SourceError, match=r"/dev/null is not a video file \(a device"):
        open_source("video:/dev/null")
    with pytest.raises(SourceError, match=r"/dev/null is not a folder \(a device"):
        open_source("images:/dev/null")
    # an empty path is no folder (Path("") is the working folder, whose frames it read)
    with pytest.raises(SourceError, match="images: names no folder"):
        open_source("images:")
    with pytest.raises(SourceError, match="video: names no file"):
        open_source("video:")


def test_a_loop_of_links_given_as_a_source_says_it_is_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``watch images:loopa`` said "no such folder", ``video:loopa`` "no such file" and
    ``watch loopa`` "unknown source", of a link that is there, in a loop."""
    monkeypatch.chdir(tmp_path)
    Path("loopa").symlink_to("loopb")
    Path("loopb").symlink_to("loopa")
    Path("gone").symlink_to("nowhere")
    loop = "a loop of links (loopa -> loopb -> loopa), which leads to no"
    for spec, said in (("images:loopa", f"images:loopa: {loop} folder"),
                       ("video:loopa", f"video:loopa: {loop} file"),
                       ("loopa", f"loopa: {loop} file"),
                       ("gone", "gone: a link to a file that is not there (nowhere)"),
                       ("images:gone", "images:gone: a link to a folder that is not there "
                        "(nowhere)")):
        with pytest.raises(SourceError) as error:
            open_source(spec)
        assert str(error.value) == said
    check_spec("loopa")  # it names something: for opening to say what is wrong with it
    check_spec("gone")


def test_camera_source_reports_unplugging_and_reopens() -> None:
    captures: list[FakeCapture] = []

    def factory(target: Any) -> FakeCapture:
        assert target == 0
        captures.append(FakeCapture())
        return captures[-1]

    with open_source("camera:0", capture_factory=factory) as source:
        assert source.read() is not None
        captures[-1].plugged = False
        with pytest.raises(SourceLost, match="unplugged"):
            source.read()
        assert captures[-1].released
        with pytest.raises(SourceLost):
            source.read()
        source.reopen()
        assert len(captures) == 2
        assert source.read() is not None
    assert captures[-1].released


class QueuedCapture(FakeCapture):
    """A V4L2 camera's buffer queue, as OpenCV drives it (``cap_v4l.cpp``): the camera
    takes a frame every ``1/fps`` s of ``clock`` into the first of its queued buffers, or
    drops it when none is queued; a read gives back the buffer of the read before, takes
    the oldest filled one, and waits (moving the clock) for the next frame when none is
    filled. ``CAP_PROP_BUFFERSIZE`` sets how many buffers there are (4 unless set);
    ``ages`` records how old each frame read was when read."""

    def __init__(self, clock: ManualClock, fps: float = 30.0) -> None:
        super().__init__()
        self.clock = clock
        self.period = 1 / fps
        self.buffers = 4
        self.next_shot = clock.now
        self.queued = self.buffers
        self.filled: list[float] = []  # when each filled buffer's frame was taken
        self.held = False
        self.ages: list[float] = []

    def set(self, prop: int, value: float) -> bool:
        if prop == cv2.CAP_PROP_BUFFERSIZE:  # the stream starts again with new buffers
            self.buffers = self.queued = int(value)
            self.filled = []
        return super().set(prop, value)

    def _shoot(self, until: float) -> None:
        while self.next_shot <= until + 1e-9:
            if self.queued:
                self.queued -= 1
                self.filled.append(self.next_shot)
            self.next_shot += self.period

    def read(self) -> tuple[bool, np.ndarray | None]:
        self._shoot(self.clock.now)
        if self.held:
            self.queued += 1
        if not self.filled:  # waits for the camera's next frame
            self.clock.now = self.next_shot
            self._shoot(self.clock.now)
        self.held = True
        self.ages.append(self.clock.now - self.filled.pop(0))
        return True, np.zeros((4, 6, 3), np.uint8)


def read_every(capture: QueuedCapture, period: float, reads: int) -> list[float]:
    """The ages of the last half of ``reads`` frames read every ``period`` s of the
    capture's clock (once the queue has filled)."""
    for _ in range(reads):
        capture.read()
        capture.clock.advance(period)
    return capture.ages[reads // 2:]


def test_a_v4l2_queue_hands_a_slower_reader_old_frames_and_a_faster_one_waits() -> None:
    """The fake's own behaviour, as the driver's: 4 buffers read 20 times a second from a
    30 fps camera are nearly 3 reads old (each was filled at the camera's first frame
    after it was given back); read faster than the camera, each read waits for the next
    frame and gets it new."""
    ages = read_every(QueuedCapture(ManualClock()), 0.05, 40)
    assert 0.15 - 1 / 30 - 1e-9 <= min(ages) and max(ages) <= 0.15 + 1e-9
    fast = QueuedCapture(ManualClock(), fps=10)
    assert max(read_every(fast, 0.02, 40)) < 0.1


def test_a_camera_hands_over_its_newest_frame_not_one_queued_long_ago() -> None:
    """A read of ``camera:N`` gets a frame taken after the read before it (the camera loop
    reads 20 a second, a webcam films 30): not one of V4L2's default four."""
    clock = ManualClock()
    made: list[QueuedCapture] = []

    def factory(_: Any) -> QueuedCapture:
        made.append(QueuedCapture(clock))
        return made[-1]

    with open_source("camera:0", capture_factory=factory, clock=clock) as source:
        for _ in range(40):
            assert source.read() is not None
            clock.advance(0.05)
        assert made[-1].buffers == 1
        assert max(made[-1].ages) == 0.0  # each read waited for the next frame
    video = CaptureSource("clip.avi", live=False, name="video:clip.avi",
                          capture_factory=factory)
    assert cv2.CAP_PROP_BUFFERSIZE not in made[-1].props  # a file has no queue
    video.close()


class FocusingCapture(FakeCapture):
    """A webcam with continuous autofocus (as V4L2's ``focus_automatic_continuous``,
    OpenCV's ``CAP_PROP_AUTOFOCUS``), or without any (``get`` answers -1, ``set`` False)."""

    def __init__(self, autofocus: float = 1.0) -> None:
        super().__init__()
        self.has_autofocus = autofocus >= 0
        self.props[cv2.CAP_PROP_AUTOFOCUS] = autofocus

    def get(self, prop: int) -> float:
        return self.props.get(prop, -1.0)

    def set(self, prop: int, value: float) -> bool:
        if prop == cv2.CAP_PROP_AUTOFOCUS and not self.has_autofocus:
            return False
        return super().set(prop, value)


def test_a_webcam_holds_its_focus_once_it_has_found_the_tray_each_time_it_opens() -> None:
    """A lens hunting over a plain tray would change the picture under still dice: the
    autofocus is given FOCUS_SECONDS, then turned off; plugged back in, the same again."""
    clock = ManualClock()
    made: list[FocusingCapture] = []

    def factory(_: Any) -> FocusingCapture:
        made.append(FocusingCapture())
        return made[-1]

    with open_source("camera:0", clock=clock, capture_factory=factory) as source:
        for _ in range(int(FOCUS_SECONDS * 10)):
            assert source.read() is not None
            clock.advance(0.099)
        assert made[-1].props[cv2.CAP_PROP_AUTOFOCUS] == 1.0 and not source.focus_held
        clock.advance(0.1)
        source.read()
        assert made[-1].props[cv2.CAP_PROP_AUTOFOCUS] == 0.0 and source.focus_held
        made[-1].plugged = False
        with pytest.raises(SourceLost):
            source.read()
        source.reopen()  # a webcam plugged in again starts with its autofocus on
        source.read()
        assert made[-1].props[cv2.CAP_PROP_AUTOFOCUS] == 1.0 and not source.focus_held
        clock.advance(FOCUS_SECONDS)
        source.read()
        assert made[-1].props[cv2.CAP_PROP_AUTOFOCUS] == 0.0 and source.focus_held


@pytest.mark.parametrize("autofocus", [-1.0, 0.0])
def test_a_webcam_without_autofocus_or_focused_by_hand_is_left_alone(autofocus) -> None:
    clock = ManualClock()
    cap = FocusingCapture(autofocus)
    with CaptureSource(0, live=True, name="camera:0", clock=clock,
                       capture_factory=lambda _: cap) as source:
        assert not source.focusing  # its frames are good from the first
        clock.advance(FOCUS_SECONDS + 1)
        assert source.read() is not None and not source.focus_held
        assert not source.refocus() and not source.focusing
    assert cap.props[cv2.CAP_PROP_AUTOFOCUS] == autofocus


def test_a_webcam_focuses_again_when_asked_then_holds_its_lens_again() -> None:
    clock = ManualClock()
    cap = FocusingCapture()
    with CaptureSource(0, live=True, name="camera:0", clock=clock,
                       capture_factory=lambda _: cap) as source:
        assert source.focusing
        clock.advance(10.0)  # opened long before its first frame is read: no matter
        source.read()  # its autofocus's time starts at its first frame
        clock.advance(FOCUS_SECONDS - 0.5)
        source.read()
        assert source.focusing and not source.focus_held
        clock.advance(0.5)
        source.read()
        assert source.focus_held and not source.focusing
        assert source.refocus()
        assert cap.props[cv2.CAP_PROP_AUTOFOCUS] == 1.0 and source.focusing
        source.read()  # from the next frame
        clock.advance(FOCUS_SECONDS - 0.5)
        source.read()
        assert source.refocus()  # asked again while focusing: its time starts over
        source.read()
        clock.advance(FOCUS_SECONDS - 0.5)
        source.read()
        assert source.focusing
        clock.advance(0.5)
        source.read()
        assert cap.props[cv2.CAP_PROP_AUTOFOCUS] == 0.0 and not source.focusing
    video = CaptureSource("clip.avi", live=False, name="video:clip.avi",
                          capture_factory=lambda _: FocusingCapture())
    assert not video.refocus() and not video.focusing  # a recording has no lens to move
    video.close()


def test_camera_that_cannot_open_says_so() -> None:
    with pytest.raises(SourceError, match="cannot open the camera"):
        CaptureSource(0, live=True, name="camera:0",
                      capture_factory=lambda t: FakeCapture(opens=False))


def test_device_path_goes_to_video_capture() -> None:
    seen: list[Any] = []

    def factory(target: Any) -> FakeCapture:
        seen.append(target)
        return FakeCapture()

    with open_source("/dev/video7", capture_factory=factory) as source:
        assert source.read() is not None
    assert seen == ["/dev/video7"]


def test_cameras_are_asked_for_1280x720_in_mjpg_and_video_files_are_not() -> None:
    made: list[FakeCapture] = []

    def factory(target: Any) -> FakeCapture:
        made.append(FakeCapture())
        return made[-1]

    for spec in ("camera:0", "/dev/video2"):
        with open_source(spec, capture_factory=factory):
            props = made[-1].props
        assert (props[cv2.CAP_PROP_FRAME_WIDTH], props[cv2.CAP_PROP_FRAME_HEIGHT]) == CAMERA_SIZE
        assert props[cv2.CAP_PROP_FOURCC] == cv2.VideoWriter.fourcc(*"MJPG")
    video = CaptureSource("clip.avi", live=False, name="video:clip.avi",
                          capture_factory=factory)
    assert made[-1].props == {}  # a file plays at its own size
    video.close()


def clip(folder: Path, frames: int) -> Path:
    """A small MJPG video at 10 frames a second, each frame a shade brighter (from black
    again after the seventh)."""
    path = folder / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10, (64, 48))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for i in range(frames):
        writer.write(np.full((48, 64, 3), i * 40 % 280, np.uint8))
    writer.release()
    return path


def test_video_file_source_reads_every_frame(tmp_path: Path) -> None:
    path = clip(tmp_path, 5)
    with open_source(f"video:{path}") as source:
        frames = list(source)
    assert len(frames) == 5
    assert [f.index for f in frames] == [0, 1, 2, 3, 4]


def test_a_video_cut_off_says_which_frames_it_could_not_read(tmp_path: Path) -> None:
    """A recording copied only in part plays up to the cut, then ends: the frames its
    header counts past that are noted, not passed over as if the video ended there."""
    path = clip(tmp_path, 20)
    with open_source(f"video:{path}") as whole:
        assert len(list(whole)) == 20 and whole.skipped == []
    data = path.read_bytes()
    path.write_bytes(data[: len(data) * 6 // 10])
    with open_source(f"video:{path}") as cut:
        read = len(list(cut))
        assert 0 < read < 20
        assert cut.skipped == [f"video:{path}: frames {read + 1}-20 of the 20 its header "
                               "counts cannot be read (the file is cut off, or damaged there)"]
        cut.reopen()  # played again: noted once
        assert len(list(cut)) == read and len(cut.skipped) == 1


class _CountedCapture(FakeCapture):
    """A capture whose header counts ``counted`` frames (an estimate, for some containers)."""

    def __init__(self, frames: int, counted: int) -> None:
        super().__init__(frames=frames)
        self.counted = counted

    def get(self, prop: int) -> float:
        return float(self.counted) if prop == cv2.CAP_PROP_FRAME_COUNT else 0.0


@pytest.mark.parametrize(("frames", "counted", "noted"), [
    (97, 100, False),  # within an estimate's few frames
    (100, 0, False),  # a container that counts none
    (10, 12, False),  # two frames off: allowed
    (94, 100, True),
    (9, 12, True),
])
def test_a_videos_count_is_trusted_only_past_an_estimates_error(
        frames: int, counted: int, noted: bool) -> None:
    video = CaptureSource("a.mkv", live=False, name="video:a.mkv",
                          capture_factory=lambda _: _CountedCapture(frames, counted))
    assert len(list(video)) == frames
    assert bool(video.skipped) is noted


def test_picamera_missing_gives_a_clear_message() -> None:
    try:
        import picamera2  # noqa: F401
    except ImportError:
        with pytest.raises(SourceError, match="picamera2"):
            open_source("picamera")
    else:
        pytest.skip("picamera2 is installed here")


def test_a_picamera2_that_will_not_load_says_what_to_do(monkeypatch) -> None:
    """Raspberry Pi OS's picamera2 seen from a venv with NumPy 2: its simplejpeg (built
    for NumPy 1) raises ValueError on import, not ImportError."""
    def broken(name: str) -> Any:
        raise ValueError("numpy.dtype size changed, may indicate binary incompatibility")

    monkeypatch.setattr(picamera.importlib, "import_module", broken)
    with pytest.raises(SourceError, match="installed but will not load.*dtype size changed"
                       ".*--force-reinstall simplejpeg"):
        open_source("picamera")


class FakePicamera2:
    """picamera2's Picamera2 as far as PicameraSource uses it: a camera with the controls
    given (``AfMode`` for one that focuses, ``AeFlickerPeriod`` for a libcamera with
    anti-flicker), whose focus cycle succeeds or not, and that can be unplugged."""

    def __init__(self, camera_num: int = 0, controls: tuple[str, ...] = (),
                 focuses: bool | None = True, model: str | None = None,
                 active: tuple[int, int] | None = None,
                 crop: tuple[int, int, int, int] | None = None) -> None:
        self.camera_num = camera_num
        self.camera_controls = {name: (0, 1, 0) for name in controls}
        self.camera_properties: dict[str, Any] = {} if model is None else {"Model": model}
        if active is not None:  # the sensor's active area, as libcamera gives it
            self.camera_properties["PixelArrayActiveAreas"] = [(0, 0, *active)]
        self.crop = crop  # the part of it a frame is read from (None: no such metadata)
        self.focuses = focuses  # None: the focus cycle raises
        self.cycles = 0
        self.started = False
        self.closed = False
        self.fail = False

    def create_video_configuration(self, main: dict[str, Any],
                                   controls: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"main": main, "controls": dict(controls or {})}

    def configure(self, config: dict[str, Any]) -> None:
        self.config = config

    def start(self) -> None:
        self.started = True

    def autofocus_cycle(self) -> bool:
        if not self.started:
            raise RuntimeError("the camera is not started")
        self.cycles += 1
        if self.focuses is None:
            raise RuntimeError("focus cycle timed out")
        return self.focuses

    def capture_metadata(self) -> dict[str, Any]:
        if not self.started:
            raise RuntimeError("the camera is not started")
        if self.crop is None:
            raise RuntimeError("no metadata")
        return {"ScalerCrop": self.crop, "ExposureTime": 10_000}

    def capture_array(self) -> np.ndarray:
        if self.fail:
            raise RuntimeError("camera gone")
        return np.zeros((720, 1280, 4), np.uint8)

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True


def fake_picamera2(cams: list[FakePicamera2], **kwargs: Any) -> Any:
    class Module:
        @staticmethod
        def Picamera2(camera_num: int = 0) -> FakePicamera2:  # noqa: N802 - picamera2's name
            cams.append(FakePicamera2(camera_num, **kwargs))
            return cams[-1]

    return Module


def test_picamera_source_with_a_fake_module_reads_and_recovers() -> None:
    cams: list[FakePicamera2] = []
    with PicameraSource(module=fake_picamera2(cams)) as source:
        frame = source.read()
        assert frame is not None and frame.image.shape == (720, 1280, 3)
        assert cams[-1].config == {"main": {"size": (1280, 720), "format": "RGB888"},
                                   "controls": {}}
        assert cams[-1].camera_num == 0 and source.focused is None  # a fixed lens
        cams[-1].fail = True
        with pytest.raises(SourceLost):
            source.read()
        source.reopen()
        assert source.read() is not None
    assert not cams[-1].started


def test_a_pi_camera_that_focuses_focuses_once_on_the_tray_each_time_it_opens(caplog) -> None:
    """Camera Module 3 focuses: one cycle when it opens (the lens then held, not hunting
    while the dice are read), again when it is opened after being lost; a cycle that finds
    no sharp picture, or fails, is logged and the camera still delivers."""
    cams: list[FakePicamera2] = []
    with PicameraSource(module=fake_picamera2(cams, controls=("AfMode",))) as source:
        assert cams[-1].cycles == 1 and source.focused is True
        for _ in range(3):
            assert source.read() is not None
        assert cams[-1].cycles == 1
        cams[-1].fail = True
        with pytest.raises(SourceLost):
            source.read()
        source.reopen()
        assert len(cams) == 2 and cams[-1].cycles == 1 and source.focused is True
        # a tray check asks it to focus again, on the empty tray
        assert source.refocus() and cams[-1].cycles == 2 and not source.focusing
    with PicameraSource(module=fake_picamera2(cams)) as fixed:  # Camera Module 2: no AfMode
        assert fixed.focused is None and not fixed.refocus() and cams[-1].cycles == 0
    for focuses, said in ((False, "no sharp picture"), (None, "focus cycle failed")):
        caplog.clear()
        with PicameraSource(module=fake_picamera2(cams, controls=("AfMode",),
                                                  focuses=focuses)) as source:
            assert source.focused is False and source.read() is not None
        assert said in caplog.text


@pytest.mark.parametrize(("model", "degrees"), [
    ("imx219", 62.2), ("imx708", 66.0), ("imx708_wide", 102.0), ("imx708_wide_noir", 102.0),
    ("ov5647", 53.5), ("imx477", None), ("imx296", None), (None, None)])
def test_a_pi_camera_module_tells_its_lens_by_its_sensor(model, degrees) -> None:
    """Camera Modules 1-3 carry their own lens, so their sensor names its angle; the HQ
    and Global Shutter cameras (imx477, imx296) take any lens, which is not guessed."""
    cams: list[FakePicamera2] = []
    with PicameraSource(module=fake_picamera2(cams, model=model)) as source:
        assert source.lens_degrees == degrees
    assert FakeSource([]).lens_degrees is None  # a recording, a webcam: not known


def test_a_pi_camera_read_from_part_of_its_sensor_spans_a_narrower_angle() -> None:
    """The modules' angles are across the sensor's whole active width; a sensor mode that
    reads a 1280x720 picture from part of it (its ScalerCrop) spans that part's angle."""
    cams: list[FakePicamera2] = []
    whole = fake_picamera2(cams, model="imx708", active=(4608, 2592), crop=(0, 0, 4608, 2592))
    with PicameraSource(module=whole) as source:  # Module 3: binned from the whole width
        assert source.lens_degrees == 66.0
    half = fake_picamera2(cams, model="ov5647", active=(2592, 1944),
                          crop=(656, 612, 1296, 720))  # Module 1: a cropped mode
    with PicameraSource(module=half) as source:
        expected = math.degrees(2 * math.atan(math.tan(math.radians(53.5) / 2) / 2))
        assert source.lens_degrees == pytest.approx(expected, abs=0.05)  # 28.3 degrees
    silent = fake_picamera2(cams, model="imx219", active=(3280, 2464))  # no ScalerCrop
    with PicameraSource(module=silent) as source:
        assert source.lens_degrees == 62.2
    assert lens_of("imx477", 1000, 4056) is None  # an HQ camera's lens is still not known
    assert lens_of("imx708", 4608, 4608) == lens_of("imx708") == 66.0


def test_a_pi_camera_exposes_against_the_mains_flicker_when_told_the_mains() -> None:
    assert flicker_period_us(50) == 10_000 and flicker_period_us(60) == 8_333
    cams: list[FakePicamera2] = []
    with PicameraSource(module=fake_picamera2(cams, controls=("AeFlickerMode",
                                                              "AeFlickerPeriod")),
                        number=1, mains_hz=60) as source:
        assert cams[-1].camera_num == 1 and source.name == "picamera:1,60hz"
        assert cams[-1].config["controls"] == {"AeFlickerMode": 1, "AeFlickerPeriod": 8_333}
    # a libcamera without the control: a clear error, and the camera is let go
    with pytest.raises(SourceError, match="no anti-flicker control: leave out ,50hz"):
        PicameraSource(module=fake_picamera2(cams), mains_hz=50)
    assert cams[-1].closed and not cams[-1].started


@pytest.mark.parametrize(("spec", "number", "mains"), [
    ("picamera", 0, None), ("picamera:1", 1, None), ("picamera:50hz", 0, 50),
    ("picamera:1,60Hz", 1, 60), ("picamera: 60hz ", 0, 60),
])
def test_picamera_specs(monkeypatch, spec, number, mains) -> None:
    made: list[dict[str, Any]] = []
    monkeypatch.setattr(picamera, "PicameraSource", lambda **kw: made.append(kw) or kw)
    open_source(spec)
    assert made[-1]["number"] == number and made[-1]["mains_hz"] == mains


@pytest.mark.parametrize(("spec", "mains", "expected"), [
    ("camera:0", 50, "camera:0,50hz"), ("camera:0,60hz", 50, "camera:0,60hz"),
    ("camera:0,60Hz", 50, "camera:0,60Hz"), ("camera:0", None, "camera:0"),
    ("/dev/video2", 60, "/dev/video2,60hz"),
    ("/dev/v4l/by-id/usb-Shz_Cam-video-index0", 50,
     "/dev/v4l/by-id/usb-Shz_Cam-video-index0,50hz"),  # "hz" in its name is no option
    ("picamera", 50, "picamera:50hz"), ("picamera:1", 50, "picamera:1,50hz"),
    ("picamera:60hz", 50, "picamera:60hz"), ("picamera:1, 60hz", 50, "picamera:1, 60hz"),
    ("images:/tray", 50, "images:/tray"), ("video:roll.mp4", 50, "video:roll.mp4"),
    ("photo.jpg", 50, "photo.jpg"),
])
def test_a_setups_anti_flicker_is_added_to_a_camera_that_names_none(spec, mains,
                                                                    expected) -> None:
    assert with_mains(spec, mains) == expected


def test_open_for_setup_falls_back_when_the_camera_has_no_anti_flicker(monkeypatch) -> None:
    import vision.sources as sources

    opened: list[str] = []

    def fake_open(spec: str, **_: Any) -> FakeSource:
        opened.append(spec)
        if spec.endswith("hz"):
            raise FlickerControlError(f"{spec}: no power line frequency control")
        return FakeSource([], name=spec)

    monkeypatch.setattr(sources, "open_source", fake_open)
    refused: list[str] = []
    assert open_for_setup("camera:1", 50, refused=refused.append).name == "camera:1"
    assert opened == ["camera:1,50hz", "camera:1"]
    assert refused == ["camera:1,50hz: no power line frequency control"]
    # a camera named with its own anti-flicker: its refusal is the player's to see
    with pytest.raises(FlickerControlError):
        open_for_setup("camera:1,60hz", 50)
    assert open_for_setup("images:/tray", 50).name == "images:/tray"  # nothing to set


def test_a_webcam_without_anti_flicker_says_so_as_such(tmp_path: Path) -> None:
    """The ioctl refused (here: a file that is no video device) is a FlickerControlError,
    so a setup's remembered setting can be left out where a named one is not."""
    node = tmp_path / "video7"
    node.write_bytes(b"")
    cap = FakeCapture()
    with pytest.raises(FlickerControlError, match="leave out ,50hz"):
        CaptureSource(str(node), live=True, name=f"{node},50hz", mains_hz=50,
                      capture_factory=lambda _: cap)
    assert cap.released


@pytest.mark.parametrize(("spec", "said"), [
    ("", "no source given"), ("camra:0", "unknown source 'camra:0'"),
    ("camera:x", "expected camera:N"), ("camera:0,55hz", "after the comma, 50hz or 60hz"),
    ("/dev/video0,50", "after the comma"), ("picamera:2x", "expected picamera, picamera:N"),
    ("tray", "unknown source 'tray'"),
    ("camera:2147483648", "no camera has that number"),  # past a C int: it was a traceback
    ("camera:99999999999999999999", "no camera has that number"),
    ("camera:²", "expected camera:N"),  # a digit to str.isdigit, no number to int()
])
def test_a_source_string_that_names_nothing_is_told_before_anything_opens(spec, said) -> None:
    with pytest.raises(SourceError, match=said):
        check_spec(spec)


@pytest.mark.parametrize("spec", [
    "camera:0", "camera:12,60hz", "/dev/video0", "/dev/v4l/by-id/usb-x-video-index0,50hz",
    "picamera", "picamera:1,50hz", "images:/not/yet", "video:/not/yet.mp4", "missing.jpg",
    "later.mp4", str(PHOTOS),
])
def test_a_source_string_that_names_something_passes_even_when_it_is_not_there(spec) -> None:
    check_spec(spec)  # a camera not plugged in, or a file not there yet: opening says so
    if spec.startswith("camera:"):
        with pytest.raises(SourceError, match="cannot open the camera"):
            open_source(spec, capture_factory=lambda _: FakeCapture(opens=False))


@pytest.mark.parametrize("spec", ["picamera:", "picamera:fifty", "picamera:50", "picamera:1,2x"])
def test_a_bad_picamera_spec_says_what_is_expected(spec) -> None:
    with pytest.raises(SourceError, match="expected picamera, picamera:N") as error:
        open_source(spec)
    assert ("write 50hz" in str(error.value)) == (spec == "picamera:50")


def test_fake_source_disappears_and_comes_back() -> None:
    frames = [np.zeros((4, 4, 3), np.uint8)] * 3
    clock = ManualClock()
    with FakeSource(frames, lose_after=2, clock=clock) as source:
        assert source.read() is not None
        assert source.read() is not None
        with pytest.raises(SourceLost):
            source.read()
        with pytest.raises(SourceLost, match="still unplugged"):
            source.reopen()
        source.plugged = True
        source.reopen()
        assert source.opened == 2
        assert source.read() is not None
        assert source.read() is None


def test_closed_source_refuses_to_read() -> None:
    source = FakeSource([np.zeros((4, 4, 3), np.uint8)])
    source.close()
    with pytest.raises(SourceError, match="closed"):
        source.read()


def test_images_source_rejects_a_file_as_folder() -> None:
    with pytest.raises(SourceError):
        ImagesSource(PHOTOS / "manifest.json")


def test_a_video_file_is_timed_by_its_own_frames_not_by_the_clock(tmp_path: Path) -> None:
    """``watch video:FILE`` settles a roll by the video's time: read faster than it was
    filmed, by the clock, its dice would never have been still long enough."""
    path = clip(tmp_path, 4)
    with open_source(f"video:{path}", clock=ManualClock(500.0)) as source:
        times = [f.timestamp for f in source]
        assert times == pytest.approx([0.0, 0.1, 0.2, 0.3])
        source.reopen()  # a file starts over
        assert source.read().timestamp == 0.0


class _TimedCapture(FakeCapture):
    """A capture that tells a frame rate but no position (as some backends do)."""

    def get(self, prop: int) -> float:
        return {cv2.CAP_PROP_POS_MSEC: 0.0, cv2.CAP_PROP_FPS: 25.0}.get(prop, 0.0)


def test_a_video_without_positions_is_timed_by_its_frame_rate_else_by_the_clock() -> None:
    clock = ManualClock(7.0)
    timed = CaptureSource("a.mp4", live=False, name="video:a.mp4", clock=clock,
                          capture_factory=lambda _: _TimedCapture(frames=3))
    assert [f.timestamp for f in timed] == pytest.approx([0.0, 0.04, 0.08])
    untimed = CaptureSource("b.mp4", live=False, name="video:b.mp4", clock=clock,
                            capture_factory=lambda _: FakeCapture(frames=2))
    assert [f.timestamp for f in untimed] == [7.0, 7.0]
    camera = CaptureSource(0, live=True, name="camera:0", clock=clock,
                           capture_factory=lambda _: _TimedCapture(frames=2))
    assert camera.read().timestamp == 7.0  # a camera's frames: as they come


def test_a_video_path_is_a_video_and_an_empty_source_is_an_error(tmp_path: Path) -> None:
    """``calibrate clip.mp4`` said "not a readable image"; ``watch ''`` read the current
    folder's pictures."""
    path = clip(tmp_path, 3)
    with open_source(str(path)) as source:
        assert isinstance(source, CaptureSource) and not source.live
        assert source.name == f"video:{path}" and len(list(source)) == 3
    for blank in ("", "  "):
        with pytest.raises(SourceError, match="no source given"):
            open_source(blank)


def test_a_video_that_opens_with_not_one_frame_in_it_is_an_error(tmp_path: Path) -> None:
    """OpenCV opens a file named like a picture as a sequence of pictures, even one that
    is no picture: ``watch video:roll.jpg`` said it ended with no roll settled, as if dice
    had been filmed and never came to rest."""
    bad = tmp_path / "roll.jpg"
    bad.write_text("not a picture")
    with open_source(f"video:{bad}") as source, \
            pytest.raises(SourceError, match="not one frame could be read"):
        source.read()
    with CaptureSource("clip.avi", live=False, name="video:clip.avi",
                       capture_factory=lambda _: FakeCapture(frames=1)) as video:
        assert video.read() is not None and video.read() is None  # then it just ends
