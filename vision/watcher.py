"""Watching a source: frames in, settled rolls out (and notices when the source is lost)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from vision.camerasize import CameraSize
from vision.reader import DiceReader
from vision.rolls import Roll, RollTracker
from vision.settle import STALE_NOTE, STILL_SKIN_NOTE, SettleDetector
from vision.sources import FrameSource, SourceLost


@dataclass(frozen=True)
class SourceNotice:
    """The source went away (``lost``) or came back (``back``), or the tray settled with
    no die found and the reader said why it may have missed them (``warning``), or (when
    asked) the tray's state changed (``tray``: moving, hand, still, settled)."""

    kind: str
    message: str


def watch(
    source: FrameSource, reader: DiceReader, detector: SettleDetector,
    tracker: RollTracker | None = None, *, reopen_attempts: int = 0,
    wait: Callable[[], None] = lambda: None, states: bool = False,
    sizes: CameraSize | None = None,
) -> Iterator[Roll | SourceNotice]:
    """Yield a :class:`Roll` each time the tray settles with dice thrown in it; stop when
    the source ends. A tray that settles empty is no roll: it ends the last one (the next
    roll is a new one, not a re-roll), unless the reader warns why it found no die (a black
    or flat picture: the dice may still be there), which yields a ``warning`` notice
    instead. Nor is a tray whose dice all lie where they lay (one was taken off:
    :attr:`Roll.thrown`).

    What the source passed over (an images folder's unreadable file, a video's frames past
    a cut) yields a ``warning`` notice naming it. When the source is lost it yields a
    ``lost`` notice and, up to ``reopen_attempts`` times (calling ``wait`` before each),
    tries ``reopen()``; success yields ``back``.
    With ``states``, a ``tray`` notice each time the tray's state changes, with the
    frame's time: why a roll is not read yet (a hand, or a shadow, still in the tray).
    With ``sizes``, a reader told no die size reads at the size the source's rolls taught
    (:mod:`vision.camerasize`: a camera lower than the framing default).
    """
    tracker = tracker or RollTracker()
    attempts = 0
    state = None
    while True:
        try:
            frame = source.read()
        except SourceLost as exc:
            yield SourceNotice("lost", str(exc))
            while True:
                if attempts >= reopen_attempts:
                    return
                attempts += 1
                wait()
                try:
                    source.reopen()
                except (SourceLost, RuntimeError):
                    continue
                yield SourceNotice("back", f"{source.name}: frames again")
                detector.resume()
                break
            continue
        for skipped in source.new_skips():  # a recording's unreadable file or frames
            yield SourceNotice("warning", f"skipped {skipped}")
        if frame is None:
            return
        stale = detector.stale_background
        taken = detector.still_skin_taken
        decision = detector.update(frame.image, frame.timestamp)
        if states and decision.state is not state:
            state = decision.state
            yield SourceNotice("tray", f"{state.value} at {frame.timestamp:.1f} s")
        if detector.stale_background and not stale:
            yield SourceNotice("warning", STALE_NOTE)
        if detector.still_skin_taken != taken:
            yield SourceNotice("warning", STILL_SKIN_NOTE)
        if decision.read_now:
            read = (reader.read(frame.image, frame.ref, detector.skin_scene) if sizes is None
                    else sizes.read(reader, frame.image, frame.ref, detector.skin_scene))
            motion = detector.take_motion(frame.image.shape)
            if read.dice:
                roll = tracker.add(read, motion, frame.image)
                if roll.thrown:  # not when a die was only taken off the tray
                    yield roll
                continue
            # an empty tray is no roll (as at the table, web.runtime.dice): the dice were
            # picked up, so the next roll is a new one, not a re-roll of these; but when
            # the reader says why it saw none (a covered lens, the light off), the dice may
            # lie where they were: say so, and keep the last roll for a re-roll
            if read.warnings:
                yield SourceNotice("warning", "; ".join(read.warnings))
            else:
                tracker.last = None
