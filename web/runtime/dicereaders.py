"""The dice readers of a running Tableside: one per die, and the profiles they read with.

``d6`` is read by the built-in networks; any other die by its enrolled profile, given in
memory (the demo's) or saved under the die's name in vision's profile folder. A die with no
profile yet is read with its faces unknown, so that the table can name its dice and so
enroll it (:meth:`DiceReaders.start_profile`, once :data:`STARTER_PER_FACE` of every face
are named); a profile learns the dice the table confirms or corrects
(:meth:`DiceReaders.learn`). The policy that decides when a read is applied, confirmed or
taught is :mod:`web.runtime.dice`'s.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from companion.errors import IllegalCommand
from vision import profilecheck
from vision.calibration import Calibration
from vision.camerasize import CameraSize
from vision.enrollment import Profile
from vision.hands import SkinScene
from vision.profilefile import (
    EnrollmentError,
    backups,
    profiles_dir,
    restore_latest,
    saved_profiles,
    started_over,
)
from vision.reader import DiceReader
from vision.reading import TrayRead
from vision.storage import check_name
from web.runtime.readnotes import DOUBT_LOOKS_LIKE, DOUBT_NO_DIE

log = logging.getLogger(__name__)


STARTER_PER_FACE = 3
"""Confirmed dice of every face a die needs before the table makes its profile."""

ENROLL_PER_FACE = 5
"""At most this many confirmed dice per face go into a profile made at the table (as many
as the enrolled reader was measured with); later ones are learned (``Profile.learn``)."""


def _doubts(checks: Sequence[profilecheck.CropCheck]) -> tuple[str, ...]:
    """What the players are told of the named dice the others doubt, alike ones counted."""
    said = Counter((c.face, None if c.not_a_die else c.read_as) for c in checks)
    return tuple(
        DOUBT_LOOKS_LIKE(count=n, face=[face], read_as=[read_as]) if read_as is not None
        else DOUBT_NO_DIE(count=n, face=[face])
        for (face, read_as), n in said.items())


@dataclass
class DiceReaders:
    """One :class:`DiceReader` per die: ``d6`` built in, any other die from its profile
    (given, or enrolled under the die's name in vision's profile folder)."""

    profiles: dict[str, Profile] = field(default_factory=dict)
    profile_dir: Path | None = None
    waiting: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Per die still being enrolled at the table, what holds its first profile back: a
    line per named die the other named dice doubt (:meth:`start_profile`), for the note
    the players see with the next roll."""
    camera_size: CameraSize = field(default_factory=CameraSize)
    """What the camera's rolls taught of its dice's size, read at when no setup gives one
    (:mod:`vision.camerasize`)."""
    _readers: dict[str, DiceReader] = field(default_factory=dict)
    _files: dict[str, tuple[int, int] | None] = field(default_factory=dict)
    """Per die read from the profile folder, its file as loaded or last saved here (change
    time and size): a file changed meanwhile (enrolled again, lessons forgotten with
    ``tableside profiles``) is loaded again before the next read or lesson, never saved
    over."""
    _earlier: dict[str, Profile] = field(default_factory=dict)
    """Per die given in memory (the demo's), the profile before its last forgetting
    (:meth:`restore`): a saved profile keeps its copy beside its file instead."""
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def reader(self, die: str) -> DiceReader:
        reader = self._readers.get(die)
        if reader is not None and (die in self.profiles or die == "d6"
                                   or self._files.get(die) == self._file_now(die)):
            return reader
        profile = self.profiles.get(die)
        if profile is None and die != "d6":
            self._readers.pop(die, None)
            profile = self._saved_profile(die)
            if profile is None:
                # no profile yet: the dice are found, and the table names them (and so
                # enrolls them); not kept, so a profile enrolled meanwhile is used at once
                return DiceReader(die, unknown_faces=True)
        reader = DiceReader(die, profile=profile)
        self._readers[die] = reader
        return reader

    def _path(self, die: str) -> Path:
        return (self.profile_dir or profiles_dir()) / f"{check_name(die, 'die')}.npz"

    def _file_now(self, die: str) -> tuple[int, int] | None:
        try:
            stat = self._path(die).stat()
        except (OSError, ValueError):
            return None
        return (stat.st_mtime_ns, stat.st_size)

    def _saved_profile(self, die: str) -> Profile | None:
        """The die's profile from the profile folder; None when there is none, and
        IllegalCommand (saying how to enroll again) when it cannot be used."""
        try:
            path = self._path(die)
            self._files[die] = self._file_now(die)
            if not path.is_file():
                return None
            profile = Profile.load(str(path))
        except (EnrollmentError, ValueError) as exc:
            raise IllegalCommand(
                f"this table cannot read {die} dice: {exc}. Enroll their faces again "
                f"(tableside enroll --die {die} --profile {die} --crops DIR), or remove "
                "the profile to enroll them at the table") from None
        # named as its file is, whatever name it was enrolled under (a file renamed): what
        # the table teaches it is saved back there, where forgetting it looks
        return profile if profile.name == die else replace(profile, name=die)

    def learn(self, die: str, dice: Sequence[tuple[str, np.ndarray, str]]) -> Profile | None:
        """Let the die's profile learn confirmed dice (``(face, crop, source)``); the new
        profile reads from now on, and is saved where it was loaded from. None when the die
        has no profile (the built-in d6 network)."""
        with self._lock:
            if die == "d6" and die not in self.profiles:
                return None
            profile = self.reader(die).profile
            if profile is None:
                return None
            learned = profile.learn(dice)
            if die in self.profiles:
                self.profiles[die] = learned  # given in memory (the demo's): kept in memory
            else:
                learned.save(self.profile_dir)
                self._files[die] = self._file_now(die)
            self._readers[die] = DiceReader(die, profile=learned)
            return learned

    # -- the host's view of the profiles, and lessons taken back ----------------------------
    def summaries(self) -> list[dict[str, Any]]:
        """Each profile this table reads with (saved in the profile folder, or given in
        memory): :meth:`vision.enrollment.Profile.summary`, with ``saved`` and ``kept`` (a
        copy to put back: :meth:`restore`), and ``table`` (true); a profile that cannot be
        used says why, and one saved under another name than its die's is listed as the
        command line's (:meth:`_for_another_die`)."""
        with self._lock:
            dies = sorted(set(saved_profiles(self.profile_dir)) | set(self.profiles))
            out: list[dict[str, Any]] = []
            for die in dies:
                try:
                    profile = self.reader(die).profile
                except (IllegalCommand, ValueError) as exc:
                    if (other := self._for_another_die(die)) is not None:
                        out.append(other)
                    else:
                        out.append({"die": die, "error": str(exc)})
                    continue
                if profile is None:
                    continue
                saved = die not in self.profiles
                kept = (bool(backups(self._path(die))) if saved else die in self._earlier)
                out.append({**profile.summary(), "die": die, "saved": saved, "kept": kept,
                            "table": True})
            return out

    def _for_another_die(self, name: str) -> dict[str, Any] | None:
        """A saved profile named otherwise than its die (``tableside enroll --die de1
        --profile pe1``): legitimate for the command line (``--profile pe1``), and not one
        the table reads (it reads a die with the profile named after it), so listed with
        ``table`` false, its ``die`` its own, and no forget or restore (the table teaches it
        nothing). It was shown the host as an error ("profile 'pe1' is for the de1 die, not
        pe1"). None for a file that is no such profile."""
        if name in self.profiles:
            return None
        try:
            profile = Profile.load(str(self._path(name)))
        except (EnrollmentError, ValueError, OSError):
            return None
        if profile.die == name:
            return None
        return {**profile.summary(), "name": name, "saved": True, "kept": False,
                "table": False}

    def forget(self, die: str, reads: Collection[str] | None = None) -> Profile:
        """The die's profile without the dice it learned from ``reads`` (read ids), or
        from the table at all (None); its enrolled crops stay. A saved profile keeps a copy
        of its file first (:func:`vision.profilefile.keep_previous`), one in memory its
        profile before, for :meth:`restore`. ``IllegalCommand`` when it has none of
        those lessons."""
        with self._lock:
            profile = self._profile_of(die)
            try:
                if die in self.profiles:
                    fewer = profile.forget(reads)
                    self._earlier[die] = profile
                    self.profiles[die] = fewer
                else:
                    fewer = Profile.forget_saved(str(self._path(die)), reads)[1]
                    self._files[die] = self._file_now(die)
            except EnrollmentError as exc:
                raise IllegalCommand(str(exc)) from None
            self._readers[die] = DiceReader(die, profile=fewer)
            return fewer

    def restore(self, die: str) -> Profile:
        """The die's profile as it was before its last change that kept a copy (lessons
        forgotten, or enrolled again from the command line); the one it replaces is kept in
        turn, so restoring again is the redo. ``IllegalCommand`` when no copy is kept."""
        with self._lock:
            if die in self.profiles:
                earlier = self._earlier.get(die)
                if earlier is None:
                    raise IllegalCommand(f"no earlier {die} profile is kept")
                self._earlier[die], self.profiles[die] = self.profiles[die], earlier
                self._readers[die] = DiceReader(die, profile=earlier)
                return earlier
            try:
                restore_latest(self._path(die))
            except (EnrollmentError, ValueError) as exc:
                raise IllegalCommand(str(exc)) from None
            profile = self.reader(die).profile  # the file changed: loaded again
            assert profile is not None
            return profile

    def _profile_of(self, die: str) -> Profile:
        profile = self.profiles.get(die)
        if profile is None and die != "d6":
            profile = self.reader(die).profile
        if profile is None:
            raise IllegalCommand(f"the {die} die has no profile: nothing learned to forget")
        return profile

    def started_over(self, die: str) -> datetime | None:
        """When the die was last started over (``tableside profiles remove``: its profile
        file removed, :func:`vision.profilefile.remove`): dice named at the table in reads
        taken before then make no new profile of it. None if never."""
        try:
            return started_over(self._path(die))
        except ValueError:  # a name no profile file could have
            return None

    def start_profile(self, die: str, crops: dict[str, list[np.ndarray]]) -> Profile | None:
        """Make, save and use a die's first profile from dice the table named: the first
        :data:`ENROLL_PER_FACE` of each face that the others do not doubt
        (:func:`vision.profilecheck.trusted`: a die named wrongly, or a crop of no die, left
        out). None, and nothing saved, while a face has fewer than
        :data:`STARTER_PER_FACE` left: more named dice are needed."""
        with self._lock:
            profile, doubted = profilecheck.first_profile(die, die, crops, ENROLL_PER_FACE,
                                                          STARTER_PER_FACE)
            self.waiting[die] = _doubts(doubted)
            for line in self.waiting[die]:
                log.warning("%s (left out of the %s die's first profile)", line, die)
            if profile is None:
                return None
            del self.waiting[die]
            profile.save(self.profile_dir)
            self._files[die] = self._file_now(die)
            self._readers[die] = DiceReader(die, profile=profile)
            return profile

    @contextmanager
    def in_use(self) -> Iterator[None]:
        """Hold the vision models for other work (a tray check): a network run through
        OpenCV's DNN module must not run on two threads at once."""
        with self._lock:
            yield

    def read(self, die: str, frame: np.ndarray, ref: str,
             setup: Calibration | None = None,
             skin_scene: SkinScene | None = None,
             lens_degrees: float | None = None, photo: bool = False) -> TrayRead:
        """Read a frame (one read at a time: the face network is not shared across threads),
        with a calibrated tray's die size and floor for the camera's frames (``ValueError``
        for a frame of another size than the setup's), and the camera's ``skin_scene``
        (:meth:`vision.reader.DiceReader.read`). The setup's lens, or where it keeps none
        (no setup, one saved before setups kept it) the camera's own ``lens_degrees``. A
        ``photo`` (a phone's) is read at its dice's own size, however close it was taken
        (:attr:`vision.reader.DiceReader.size_search`); a camera's frame with no setup, at
        the size the camera's rolls taught (:attr:`camera_size`)."""
        with self._lock:
            reader = self.reader(die)
            if setup is not None:
                reader = replace(reader, die_px=setup.die_px, roi=setup.roi)
            lens = setup.lens_degrees if setup is not None else None
            if (lens := lens if lens is not None else lens_degrees) is not None:
                reader = replace(reader, lens_degrees=lens)
            if photo:
                return replace(reader, size_search=True).read(frame, ref, skin_scene)
            if setup is None:
                return self.camera_size.read(reader, frame, ref, skin_scene)
            return reader.read(frame, ref, skin_scene)
