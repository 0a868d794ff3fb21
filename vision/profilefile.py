"""Profile files: where profiles are saved, and how one is written and read back.

A profile (:class:`vision.enrollment.Profile`) is saved as ``<name>.npz`` in the data dir
(``$XDG_DATA_HOME/tableside/vision/profiles``): a JSON description, the crops' ink maps and
embedding vectors (as float16), which face each crop shows, where each came from, and the
crops themselves. Reading one checks that its parts fit together, and a file that is not a
whole profile (damaged, cut short, another file renamed) is a clear
:class:`EnrollmentError`, never a crash. A profile made by an earlier reader is made again
from the crops it kept (:data:`METHOD`).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import tokenize
import zipfile
import zlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from vision import templates
from vision.crops import CROP_PX
from vision.embedding import MODEL_ID
from vision.enrollcrops import ENROLL_TURNS, maps_and_vectors
from vision.storage import check_name, data_dir

METHOD = f"{templates.METHOD}+{MODEL_ID}"
"""How a profile was made (saved with it). A profile made another way is made again from
the crops it keeps (:attr:`vision.enrollment.Profile.crops`); one saved before profiles
kept their crops must be enrolled again."""

NOT_A_PROFILE = ("not a whole profile file (damaged, cut short, or not made by tableside "
                 "enroll): enroll its faces again")


class EnrollmentError(ValueError):
    """Enrollment input that cannot make a profile, or a profile file that cannot be read
    (the message says why)."""


def profiles_dir() -> Path:
    return data_dir() / "profiles"


def saved_profiles(directory: Path | None = None) -> list[str]:
    """The names of the profiles saved in ``directory`` (default: the data dir), sorted
    (a save's temporary file left by a crash is none)."""
    directory = directory or profiles_dir()
    if not directory.is_dir():
        return []
    return sorted(p.stem for p in directory.glob("*.npz")
                  if not p.name.endswith(".tmp.npz") and p.is_file())


def profile_path(name_or_path: str, directory: Path | None = None) -> Path:
    """The file of a profile named (in ``directory``, default the data dir), or the
    ``.npz`` path given."""
    path = Path(name_or_path)
    if path.suffix == ".npz":
        return path
    return (directory or profiles_dir()) / f"{check_name(name_or_path, 'profile')}.npz"


BACKUP = ".bak"
"""How a profile file kept before a change ends: ``<name>.npz.<UTC time>.bak``."""

KEEP_COPIES = 10
"""How many copies of a profile's file are kept (the oldest go first)."""


def keep_previous(path: Path) -> Path | None:
    """Keep a copy of the profile file at ``path`` before a change that replaces it
    (enrolled again, lessons forgotten): ``<name>.npz.<UTC time>.bak`` beside it, which
    :func:`restore_latest` puts back. None when there is no file yet. The table's lessons
    make no copy: each is a change of one die, mended by correcting that die."""
    if not path.is_file():
        return None
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    kept = path.with_name(f"{path.name}.{stamp}{BACKUP}")
    tmp = kept.with_name(kept.name + ".tmp")
    shutil.copyfile(path, tmp)
    tmp.replace(kept)
    for old in backups(path)[:-KEEP_COPIES]:
        old.unlink(missing_ok=True)
    return kept


def backups(path: Path) -> list[Path]:
    """The copies :func:`keep_previous` kept of the profile file at ``path``, oldest
    first."""
    return sorted(p for p in path.parent.glob(f"{path.name}.*{BACKUP}") if p.is_file())


def restore_latest(path: Path) -> tuple[Path, Path | None]:
    """Put the latest kept copy of the profile file back at ``path``: (the copy put back,
    the copy now kept of the file it replaced, or None where there was none). Restoring
    again puts that one back: an undo, then a redo. :class:`EnrollmentError` when no copy
    is kept, or the latest is not a whole profile."""
    kept = backups(path)
    if not kept:
        raise EnrollmentError(f"no earlier copy of profile {path.stem!r} is kept (in "
                              f"{path.parent})")
    latest = kept[-1]
    read(latest, latest.name)  # a damaged copy is refused before anything is replaced
    now = keep_previous(path)
    latest.replace(path)
    return latest, now


START_OVER = ".start-over"
"""How the file ends that says when a die was last started over: ``<name>.start-over``
beside its profile's file (:func:`remove`)."""


def start_over_file(path: Path) -> Path:
    """The file beside the profile file at ``path`` saying when its die was started over."""
    return path.with_name(path.stem + START_OVER)


def remove(path: Path) -> tuple[Path | None, datetime]:
    """Start the die of the profile file at ``path`` over: note the time (the table then
    makes its profile again only from dice named in reads taken after it,
    :func:`started_over`), keep a copy of the file (:func:`keep_previous`, which
    :func:`restore_latest` puts back) and remove it. Returns the copy (None when there
    was no file: the time is noted all the same) and the time noted."""
    now = datetime.now(UTC)
    marker = start_over_file(path)
    marker.parent.mkdir(parents=True, exist_ok=True)
    tmp = marker.with_name(marker.name + ".tmp")
    tmp.write_text(json.dumps({"since": now.isoformat(timespec="milliseconds")}) + "\n")
    tmp.replace(marker)  # noted before the file goes: a crash between keeps the profile
    kept = keep_previous(path)
    path.unlink(missing_ok=True)
    return kept, now


def started_over(path: Path) -> datetime | None:
    """When the die of the profile file at ``path`` was last started over (:func:`remove`),
    or None if never. A note that cannot be read counts from its file's change time."""
    marker = start_over_file(path)
    try:
        text = marker.read_text()
    except FileNotFoundError:
        return None
    except OSError:
        text = ""
    try:
        since = datetime.fromisoformat(json.loads(text)["since"])
        if since.tzinfo is None:
            raise ValueError("no time zone")
        return since
    except (ValueError, KeyError, TypeError):
        try:
            return datetime.fromtimestamp(marker.stat().st_mtime, UTC)
        except OSError:
            return None


def write(path: Path, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> Path:
    """Write a profile's description and arrays to ``path`` whole: to a temporary file
    first, then moved over the old one, so that a crash mid-save leaves the old profile.
    The temporary file's name is this save's own (``<name>.<random>.tmp.npz``): two saves
    at once (``enroll`` while the server learns) each move a whole file, the last one
    kept; with one name for both, the second found the first's moved away (a helper's six
    ``enroll`` at once: one or two failed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f"{path.stem}.", suffix=".tmp.npz")
    tmp = Path(name)
    try:
        with os.fdopen(handle, "wb") as f:
            np.savez_compressed(f, meta=np.array(json.dumps({**meta, "method": METHOD})),
                                **arrays)
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def read(path: Path, asked: str | None = None) -> dict[str, Any]:
    """A saved profile's parts, checked to fit together: ``name``, ``die``, ``labels``,
    ``min_similarity``, ``maps``, ``vectors``, ``owners``, ``sources`` and ``crops``
    (None in a profile saved before profiles kept them). :class:`EnrollmentError` for a
    missing, unreadable or damaged file, or one enrolled another way without its crops;
    ``asked`` is the name or path the player gave, for the message on a missing file."""
    if not path.is_file():
        raise EnrollmentError(f"no profile {asked or str(path)!r} (looked for {path}); "
                              + _saved_note(path.parent))
    try:
        # the file is opened here, so that it is closed whatever np.load makes of it
        f = path.open("rb")
    except OSError as exc:  # not readable: its permissions, say
        raise EnrollmentError(f"cannot read profile {path}: {exc.strerror or exc}") from None
    try:
        with f, _npz(f) as data:
            meta = json.loads(str(data["meta"]))
            if not isinstance(meta, dict):
                raise _OddDescription("its description is not a JSON object")
            method = meta.get("method")
            crops = data["crops"] if "crops" in data else None
            if method == METHOD or crops is not None:
                maps = data["maps"].astype(np.float32)
                vectors = data["vectors"].astype(np.float32)
                owners = data["owners"].astype(np.int32)
                sources = (tuple(str(v) for v in data["sources"])
                           if "sources" in data else ())
    except _OddDescription as exc:
        raise EnrollmentError(f"cannot read profile {path}: {exc}") from None
    except _DAMAGED:  # cut short, or damaged inside: whatever the zip or NumPy made of it
        raise EnrollmentError(f"cannot read profile {path}: {NOT_A_PROFILE}") from None
    if method != METHOD and crops is None:
        made = method or meta.get("embedding") or "appearance descriptors"
        raise EnrollmentError(
            f"profile {path} was enrolled another way ({made}); enroll its faces again"
        )
    not_fitting = EnrollmentError(f"cannot read profile {path}: its parts do not fit together")
    if (crops is not None and (crops.dtype != np.uint8
                               or crops.shape != (len(owners), CROP_PX, CROP_PX, 3))):
        raise not_fitting
    if method != METHOD:  # made by an earlier reader: made again from its crops
        maps, vectors = maps_and_vectors(crops)
    try:
        labels = tuple(meta["labels"])
        parts = {"name": meta["name"], "die": meta["die"], "labels": labels,
                 "min_similarity": float(meta["min_similarity"])}
    except KeyError as exc:
        raise EnrollmentError(f"cannot read profile {path}: its description has no {exc}"
                              ) from None
    except (TypeError, ValueError):
        raise EnrollmentError(f"cannot read profile {path}: its description is not a "
                              "profile's") from None
    if (maps.ndim != 3 or maps.shape[1:] != (templates.MAP_PX, templates.MAP_PX)
            or len(owners) != len(maps) or len(vectors) != len(maps) * ENROLL_TURNS
            or (sources and len(sources) != len(maps))
            or not 0 <= owners.min(initial=0) <= owners.max(initial=0) < len(labels)):
        raise not_fitting
    return {**parts, "maps": maps, "vectors": vectors, "owners": owners, "sources": sources,
            "crops": crops}


class _OddDescription(ValueError):
    """A profile file whose description reads, but is not a profile's."""


_DAMAGED = (
    EOFError, OSError, zipfile.BadZipFile, zlib.error,  # cut short, bytes changed
    KeyError,  # a part missing from the archive
    ValueError, SyntaxError, tokenize.TokenError,  # an array's header or the JSON garbled
    NotImplementedError, RuntimeError,  # a zip entry's flags garbled (as if encrypted...)
)
"""What reading a damaged ``.npz`` raises, from :mod:`zipfile`, :mod:`zlib` and NumPy's
array headers (found by changing a saved profile's bytes at random)."""


def _npz(f: BinaryIO) -> Any:
    """``np.load`` of an open ``.npz`` file (``ValueError`` if it is not a zip archive:
    np.load would take it for a pickle, and speak of pickled data)."""
    if f.read(4) != b"PK\x03\x04":
        raise ValueError(NOT_A_PROFILE)
    f.seek(0)
    return np.load(f, allow_pickle=False)


def _saved_note(directory: Path) -> str:
    """What a player asking for a missing profile may have meant: the profiles saved in
    ``directory``, or how to make one."""
    names = saved_profiles(directory)
    if not names:
        return "none is saved there yet: enroll one with tableside enroll"
    return "saved there: " + ", ".join(names)
