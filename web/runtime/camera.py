"""The camera loop: frames in, one read per settled roll out, on a supervised thread.

:class:`CameraLoop` opens its source (``open_source``, a factory, so a camera that is
absent at start is looked for again), feeds every frame to a
:class:`vision.settle.SettleDetector`, and calls ``on_settled(frame)`` once each time the
tray settles, with where anything moved since the last settle (a re-roll's moved dice).
Dice thrown just before the roll is asked for are not lost: given ``waiting`` (whether a
table waits for dice now), a tray that settles while none does is kept, and read as soon
as one does, for as long as the tray stays as it settled (at most :data:`EARLY_SECONDS`);
``on_settled`` is then called with ``early``, the seconds the dice lay there before.
A re-read the table asks for (:meth:`CameraLoop.reread`) reads the next settled frame with
``again``: the same roll read again, though nothing was thrown.
When the source fails it does not die: a source that cannot be opened is
retried with backoff (state ``absent``); one that stops delivering (``SourceLost``, a
camera unplugged) is reported ``lost`` and re-opened with backoff (``reopening``) until it
delivers again (``running``). ``stop()`` ends the thread within its timeout.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.store.errors import StorageRefused
from firmware_bridge.backoff import Backoff
from vision.hands import SkinScene
from vision.said import message, said_of
from vision.settle import STALE_NOTE, STILL_SKIN_NOTE, SettleDetector, TrayState
from vision.sources import Frame, FrameSource, SourceError, SourceLost
from web.runtime.status import ABSENT, LOST, REOPENING, RUNNING, CameraStatus, utc_now

log = logging.getLogger(__name__)

EARLY_SECONDS = 120.0
"""How long dice that settled while no table waited for a roll are kept for the next roll
asked for, if the tray stays as they settled. A throw made a moment before the command
that asks for it is read; dice left lying from long before are not offered to a new
roll."""

EARLY_CHECK_SECONDS = 0.25
"""How often (frame time) the loop asks whether a table now waits for the kept dice."""

READING = "reading"
"""The camera status's ``tray`` while a settled frame is being read (otherwise the last
frame's :class:`vision.settle.TrayState`)."""

READ_FAILED = "the last read failed: "
"""How the camera's ``detail`` begins while its last settled frame could not be read (its
``last_error`` says why); the next settle taken ends it."""

# what the hardware card says of the camera (vision.said: in the page's language)
READ_FAILED_DETAIL = message("camera.read_failed", READ_FAILED + "{why}")
READ_LOST_DETAIL = message("camera.read_lost", READ_FAILED + "{why} (this roll was not "
                           "kept: throw the dice again then)")
"""A read the disk would not take (full, read-only, failing): the roll is not kept, so the
table throws again once there is room (docs/runtime.md, *Storage*)."""
EARLY_NOTE = message(
    "camera.early",
    "the tray came to rest with no roll asked for: any dice in it are read for the next roll "
    "asked for if they stay as they are")()  # not read yet: it may be empty
STARTING = message("camera.starting", "starting")()
FRAMES = message("camera.frames", "{source}: frames")
FRAMES_AGAIN = message("camera.frames_again", "{source}: frames again")
TURNED_OFF = message("camera.off", "turned off (--camera none)")()


class CameraLoop:
    def __init__(
        self, spec: str, open_source: Callable[[], FrameSource],
        on_settled: Callable[..., str | None], *,
        waiting: Callable[[], bool] | None = None,
        detector: Callable[[], SettleDetector] | None = None,
        backoff: Backoff | None = None, min_period: float = 0.0,
        clock: Callable[[], float] = time.monotonic, label: Callable[[], str] | None = None,
    ) -> None:
        self.spec = spec
        self._label = label  # names the source opened, where the spec does not (auto)
        self._open_source = open_source
        self._on_settled = on_settled
        self._waiting = waiting
        self._early: _Early | None = None  # a settle no table waited for, kept to offer
        self._make_detector = detector or (lambda: SettleDetector(clock=clock))
        self._backoff = backoff or Backoff(0.5, 10.0)
        self._min_period = min_period
        self._clock = clock
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._status = CameraStatus(source=spec, detail=STARTING)
        self._source: FrameSource | None = None
        self._thread = threading.Thread(target=self._run, name="camera-loop", daemon=True)
        self._grab: _Grab | None = None  # frames asked for by grab(), filled by the loop
        self._new_detector = threading.Event()
        self._detector: SettleDetector | None = None
        self._reread = threading.Event()  # the table asked to read the still tray again

    # -- public ------------------------------------------------------------------------------
    def start(self) -> CameraLoop:
        self._thread.start()
        return self

    def stop(self, timeout: float = 3.0) -> bool:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        return not self._thread.is_alive()

    def status(self) -> dict[str, Any]:
        with self._lock:
            return self._status.to_json()

    def reread(self) -> None:
        """Read the tray again at the next frame that finds it settled, as the same roll
        (``on_settled(..., again=True)``: the table asked for a re-read, nothing was
        thrown); dice thrown meanwhile are read as they settle instead."""
        self._reread.set()

    def grab(self, count: int, timeout: float = 5.0,
             refocus: bool = False) -> list[np.ndarray]:
        """The next ``count`` frames the loop reads (a tray check, from another thread),
        none while the camera's lens is still moving; with ``refocus``, after the camera
        has focused again on what it sees (``FrameSource.refocus``). ``SourceError`` saying
        why when they do not all come within ``timeout`` seconds (no camera, or it stopped).
        The loop goes on reading and settling meanwhile."""
        grab = _Grab(count, refocus)
        with self._lock:
            self._grab = grab
        try:
            if not grab.done.wait(timeout):
                with self._lock:
                    detail = self._status.detail
                raise SourceError(f"the camera gave {len(grab.frames)} of {count} frames in "
                                  f"{timeout:g} s ({detail})")
            return grab.frames
        finally:
            with self._lock:
                if self._grab is grab:
                    self._grab = None

    @property
    def skin_scene(self) -> SkinScene | None:
        """The settle detector's tray with no hand in it (:mod:`vision.hands`), for reading
        the frame it settled on as it judged it (None before the first frame)."""
        return self._detector.skin_scene if self._detector is not None else None

    @property
    def mains_hz(self) -> int | None:
        """The anti-flicker the open camera was set to (None: not set, or no camera open)."""
        source = self._source
        return source.mains_hz if source is not None else None

    @property
    def lens_degrees(self) -> float | None:
        """The open camera's lens angle across the picture, when it tells it (a Pi camera
        module); None if not, or no camera open."""
        source = self._source
        return source.lens_degrees if source is not None else None

    def new_detector(self) -> None:
        """Settle with a new detector from the next frame on (a new tray setup's), going on
        from the old one's view of the tray (the dice on it are not read again)."""
        self._new_detector.set()

    def run(self, frames: int | None = None) -> None:
        """Run in this thread (tests): until stopped, the source ends, or ``frames`` read."""
        self._loop(frames)

    # -- the loop ----------------------------------------------------------------------------
    def _run(self) -> None:
        """The supervised thread: an unexpected failure restarts the loop after a pause."""
        try:
            while not self._stop.is_set():
                try:
                    self._loop(None)
                    return  # stopped, or a recording ended
                except Exception as exc:  # never let the camera take the server down
                    log.exception("the camera loop failed; restarting it")
                    self._close_source()
                    self._set(state=ABSENT, detail=f"the camera loop failed ({exc}); "
                                                   "restarting")
                    self._stop.wait(self._backoff.next_delay())
        finally:
            self._close_source()

    def _loop(self, frames: int | None) -> None:
        if self._detector is None:  # kept across runs and restarts: the same tray
            self._detector = self._make_detector()
        detector = self._detector
        seen = 0
        while not self._stop.is_set() and (frames is None or seen < frames):
            if self._source is None and not self._open():
                continue
            assert self._source is not None
            started = self._clock()
            try:
                frame = self._source.read()
            except (SourceLost, SourceError) as exc:
                self._lost(str(exc))
                # the same detector: the first frame back is compared with the last one
                # before, so a tray left as it was is not read again as a new roll
                detector.resume()
                continue
            for note in self._source.new_skips():  # a recording's unreadable files or frames
                log.warning("skipped %s", note)
            if frame is None:
                skipped = self._source.skipped
                self._close_source()
                passed = (f" ({len(skipped)} passed over, unreadable: {skipped[0]})"
                          if skipped else "")
                self._set(state=ABSENT, detail=f"{self._name()}: the recording ended{passed}")
                return
            seen += 1
            self._hand_over(frame.image)
            if self._new_detector.is_set():
                self._new_detector.clear()
                detector = self._detector = self._make_detector().take_over(detector)
                self._set(setup_note=None)
            stale = detector.stale_background
            taken = detector.still_skin_taken
            decision = detector.update(frame.image, frame.timestamp)
            self._set(frames=self._status.frames + 1, tray=decision.state.value,
                      last_frame=utc_now())
            if detector.still_skin_taken != taken:  # wood in view, most likely: say so
                self._set(detail=STILL_SKIN_NOTE, setup_note=STILL_SKIN_NOTE)
            if detector.stale_background != stale:  # the setup's check dropped, or back
                if detector.stale_background:
                    self._set(detail=STALE_NOTE, setup_note=STALE_NOTE)
                else:
                    self._set(setup_note=None)
            if decision.read_now:
                self._reread.clear()  # this settle is read anyway
                self._set(settles=self._status.settles + 1, last_settle=utc_now())
                motion = detector.take_motion(frame.image.shape)
                self._forget_early()
                if self._waiting is not None and not self._waiting():
                    self._early = _Early(frame.timestamp, motion)
                    self._set(detail=EARLY_NOTE)
                else:
                    self._settled(frame, motion)
            elif self._reread.is_set() and decision.state is TrayState.SETTLED:
                self._reread.clear()
                self._settled(frame, None, again=True)
            elif self._early is not None:
                self._offer_early(frame, decision.state)
            if self._min_period:
                spare = self._min_period - (self._clock() - started)
                if spare > 0:
                    self._stop.wait(spare)

    def _offer_early(self, frame: Frame, state: TrayState) -> None:
        """Read the kept settle once a table waits for dice, if the tray is as it settled
        (still settled: nothing thrown, taken or moved since; a hand in and out that left
        it so does not count); forget it once :data:`EARLY_SECONDS` have passed."""
        early = self._early
        assert early is not None
        age = frame.timestamp - early.settled_at
        if age > EARLY_SECONDS:
            self._forget_early()
            return
        if state is not TrayState.SETTLED or frame.timestamp < early.next_check:
            return
        early.next_check = frame.timestamp + EARLY_CHECK_SECONDS
        assert self._waiting is not None
        if self._waiting():
            self._forget_early()
            self._settled(frame, early.motion, early=max(0.0, age))

    def _forget_early(self) -> None:
        self._early = None
        with self._lock:
            if self._status.detail == EARLY_NOTE:
                self._status.detail = FRAMES(source=self._name())

    def _settled(self, frame: Frame, motion: np.ndarray | None, early: float | None = None,
                 again: bool = False) -> None:
        self._set(tray=READING)  # until the next frame: the phones say the dice are read
        extra: dict[str, Any] = {"early": early} if early is not None else {}
        if again:
            extra["again"] = True
        try:
            read_id = self._on_settled(frame, motion, **extra)
        except (ValueError, StorageRefused) as exc:  # the table cannot take it (no profile for
            # its die, ...), or the disk takes no write: said, without a traceback
            log.warning("a settled frame was not read: %s", exc)
            said = (READ_LOST_DETAIL if isinstance(exc, StorageRefused)
                    else READ_FAILED_DETAIL)(why=said_of(exc))
            self._set(detail=said, last_error=said_of(exc))
            return
        except Exception as exc:  # a read that fails must not stop the camera
            log.exception("reading a settled frame failed")
            self._set(detail=READ_FAILED_DETAIL(why=said_of(exc)), last_error=said_of(exc))
            return
        # this settle was taken (read, or nothing to read): an earlier failure is over
        with self._lock:
            self._status.last_error = None
            if self._status.detail.startswith(READ_FAILED):
                self._status.detail = FRAMES(source=self._name())
        if read_id is not None:
            self._set(reads=self._status.reads + 1, last_read=utc_now(), last_read_id=read_id)

    def _hand_over(self, image: np.ndarray) -> None:
        with self._lock:
            grab = self._grab
        source = self._source
        if grab is None or grab.done.is_set() or source is None:
            return
        if grab.refocus:  # on this thread, which reads the source
            grab.refocus = False
            source.refocus()
            return
        if source.focusing:  # a lens still moving gives no frame to check
            return
        grab.frames.append(image.copy())
        if len(grab.frames) >= grab.count:
            grab.done.set()

    def _open(self) -> bool:
        try:
            self._source = self._open_source()
        except (SourceError, OSError, RuntimeError) as exc:
            self._set(state=ABSENT, detail=str(exc))
            self._stop.wait(self._backoff.next_delay())
            return False
        self._backoff.reset()
        self._set(state=RUNNING, source=self._name(), detail=FRAMES(source=self._name()))
        return True

    def _name(self) -> str:
        """The source as the status names it: the camera found, else the one asked for."""
        return self._label() if self._label is not None else self.spec

    def _lost(self, reason: str) -> None:
        """Report the loss, then re-open with backoff until frames come again or stopped."""
        self._set(state=LOST, detail=reason)
        source = self._source
        assert source is not None
        while not self._stop.is_set():
            self._stop.wait(self._backoff.next_delay())
            if self._stop.is_set():
                return
            self._set(state=REOPENING, reopen_attempts=self._status.reopen_attempts + 1)
            try:
                source.reopen()
            except (SourceError, OSError, RuntimeError) as exc:
                self._set(detail=f"still lost: {exc}")
                continue
            self._backoff.reset()
            self._set(state=RUNNING, detail=FRAMES_AGAIN(source=self._name()))
            return

    def _close_source(self) -> None:
        if self._source is not None:
            try:
                self._source.close()
            except Exception:  # closing a vanished device may fail; it is gone either way
                log.debug("closing the camera failed", exc_info=True)
            self._source = None

    def _set(self, **changes: Any) -> None:
        with self._lock:
            for key, value in changes.items():
                setattr(self._status, key, value)


@dataclass
class _Early:
    """A settle no table waited for: when (frame time) and where things moved before it."""

    settled_at: float
    motion: np.ndarray
    next_check: float = float("-inf")  # frame time of the next look for a waiting table


class _Grab:
    """Frames asked of the loop: filled on its thread, waited for on the asker's."""

    def __init__(self, count: int, refocus: bool = False) -> None:
        self.count = count
        self.refocus = refocus  # the camera to focus again before the frames
        self.frames: list[np.ndarray] = []
        self.done = threading.Event()
