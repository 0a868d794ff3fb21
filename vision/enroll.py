"""Enrolling a profile from folders: crops of single dice (``tableside enroll --crops``)
or photos with YOLO labels (``--photos``, class i = the die's i-th face), cut as the reader
cuts dice. What a profile is and how it reads: :mod:`vision.enrollment`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from pathlib import Path

import cv2
import numpy as np

from vision import profilecheck
from vision.boxes import TOP_FACE_SHIFT, toward_top_face
from vision.crops import crop
from vision.detection import detection_like, to_work
from vision.enrollment import SURE_FROM_CROPS, EnrollmentError, Profile
from vision.faces import faces_of
from vision.imagefile import ImageError, read_file
from vision.storage import check_name

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


def _images(directory: Path) -> list[Path]:
    return sorted(p for p in directory.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES)


def _image(path: Path, tray: bool = True) -> np.ndarray:
    """An enrollment picture (a very large JPEG decoded reduced: :mod:`vision.imagefile`):
    a photo of the tray, or (``tray`` False) a crop of one die."""
    try:
        return read_file(path, tray=tray).image
    except ImageError as exc:
        raise EnrollmentError(f"cannot read image {exc}") from None


def crops_from_dir(directory: Path, origins: dict[str, list[str]] | None = None,
                   ) -> dict[str, list[np.ndarray]]:
    """``--crops DIR``: one sub-folder per face label, each holding crops of single dice.
    ``origins``, when given, gets each crop's file, face by face in the same order."""
    if not directory.is_dir():
        raise EnrollmentError(f"{directory} is not a folder")
    out: dict[str, list[np.ndarray]] = {}
    subs = sorted(p for p in directory.iterdir() if p.is_dir())
    empty = [sub for sub in subs if not sub.name.startswith(".") and not _images(sub)]
    if empty and any(_images(sub) for sub in subs):
        # a folder made for a face and left empty (crops not copied yet) was left out without
        # a word: the profile then read that face as another, and could be sure of it
        many = len(empty) > 1
        folders = ", ".join(str(sub) for sub in empty)
        faces = ", ".join(repr(sub.name) for sub in empty)
        raise EnrollmentError(
            f"{folders} {'are' if many else 'is'} empty (no images): face{'s' if many else ''} "
            f"{faces} would be left out of the profile, which would then read "
            f"{'them' if many else 'it'} as another face, and could be sure of it; put crops "
            f"of {'each' if many else 'the'} face in {'them' if many else 'it'}, or remove "
            f"the folder{'s' if many else ''} if the die has no such face")
    unread: list[str] = []
    for sub in subs:
        paths = _images(sub)
        images = []
        for path in paths:  # every crop that cannot be read is named at once, not the first
            try:
                images.append(_image(path, tray=False))
            except EnrollmentError as exc:
                unread.append(str(exc).removeprefix("cannot read image "))
        if unread:
            continue
        if images:
            out[sub.name] = [cv2.resize(i, (64, 64), interpolation=cv2.INTER_AREA) for i in images]
            if origins is not None:
                origins[sub.name] = [str(path) for path in paths]
    if len(unread) == 1:
        raise EnrollmentError(f"cannot read image {unread[0]}")
    if unread:
        raise EnrollmentError(f"cannot read {len(unread)} images (mend or remove each, then "
                              "enroll again):\n  " + "\n  ".join(unread))
    if not out:
        raise EnrollmentError(f"{directory} has no face sub-folders with images")
    return out


def label_file(image_path: Path) -> Path | None:
    """The YOLO label file of a photo: side by side, or in a parallel ``labels/`` tree."""
    beside = image_path.with_suffix(".txt")
    if beside.is_file():
        return beside
    parts = list(image_path.parts)
    for i in range(len(parts) - 1, -1, -1):
        if parts[i] == "images":
            parallel = Path(*parts[:i], "labels", *parts[i + 1 :]).with_suffix(".txt")
            if parallel.is_file():
                return parallel
    return None


def read_yolo(path: Path, width: int, height: int) -> list[tuple[int, tuple[int, int, int, int]]]:
    """(class, box in pixels) per line of a YOLO label file."""
    return [(cls_id, box) for _, cls_id, box in yolo_lines(path, width, height)]


def yolo_lines(path: Path, width: int, height: int,
               ) -> list[tuple[int, int, tuple[int, int, int, int]]]:
    """(line number, class, box in pixels) per labelled line of a YOLO label file."""
    try:  # utf-8-sig: a label tool on Windows may begin the file with a byte-order mark
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise EnrollmentError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise EnrollmentError(f"{path}: not a text file of YOLO lines (class x y w h, one "
                              "die a line)") from None
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        try:
            cls_id = int(parts[0])
            x, y, w, h = (float(v) for v in parts[1:5])
        except (ValueError, IndexError):
            raise EnrollmentError(f"{path}:{n}: not a YOLO line: {line!r}") from None
        if not (0 <= x <= 1 and 0 <= y <= 1 and 0 < w <= 1 and 0 < h <= 1):  # NaN too
            raise EnrollmentError(
                f"{path}:{n}: the box is not in the picture (a YOLO line gives its centre "
                f"and size as fractions of the picture, each 0 to 1): {line!r}")
        box = (round((x - w / 2) * width), round((y - h / 2) * height),
               round(w * width), round(h * height))
        out.append((n, cls_id, box))
    return out


def crops_from_photos(
    photos: Iterable[Path], faces: Sequence[str], per_face: int | None = None,
    per_photo: int | None = None, wrong_labels: Collection[tuple[str, str]] = (),
    taken_from: list[str] | None = None, top_face_shift: float = TOP_FACE_SHIFT,
    origins: dict[str, list[str]] | None = None,
) -> dict[str, list[np.ndarray]]:
    """Crops of labelled dice in photos (class i = ``faces[i]``), at the working scale,
    each about its label box moved out by ``top_face_shift`` (as the reader cuts
    custom-face dice, :func:`vision.boxes.toward_top_face`; a profile then frames each
    enrolled crop again about the die found in it, :func:`vision.enrollcrops.reframe`):
    at most ``per_face`` of a face, at most ``per_photo`` of a face
    from one photo, and none labelled with a face in ``wrong_labels`` (``(photo name,
    face)``: labels known to be mistaken). ``taken_from``, when given, gets the name of
    each photo a crop was taken from (so that a measurement can leave those photos out);
    ``origins``, each crop's label file and line, face by face in the crops' order."""
    out: dict[str, list[np.ndarray]] = {f: [] for f in faces}
    for path in photos:
        if per_face is not None and min(len(v) for v in out.values()) >= per_face:
            break
        taken: dict[str, int] = {}
        labels = label_file(path)
        if labels is None:
            continue
        image = _image(path)
        work = to_work(image)
        for line, cls_id, box in yolo_lines(labels, image.shape[1], image.shape[0]):
            if not 0 <= cls_id < len(faces):
                raise EnrollmentError(
                    f"{labels}:{line}: class {cls_id}, but the die has {len(faces)} faces "
                    f"(classes 0 to {len(faces) - 1}, in the order of its faces)")
            face = faces[cls_id]
            if ((per_face is not None and len(out[face]) >= per_face)
                    or (per_photo is not None and taken.get(face, 0) >= per_photo)
                    or (path.name, face) in wrong_labels):
                continue
            taken[face] = taken.get(face, 0) + 1
            box = toward_top_face(detection_like(box, work.scale), work.image.shape,
                                  top_face_shift)
            out[face].append(crop(work.image, box))
            if origins is not None:
                origins.setdefault(face, []).append(f"{labels}:{line}")
            if taken_from is not None and path.name not in taken_from:
                taken_from.append(path.name)
    return {f: c for f, c in out.items() if c}


def photos_in(directory: Path, unlabelled: list[Path] | None = None) -> list[Path]:
    """The photos of ``--photos DIR`` that have a label file; ``unlabelled``, when given,
    gets the others (left out)."""
    if not directory.is_dir():
        raise EnrollmentError(f"{directory} is not a folder")
    images = _images(directory)
    photos = [p for p in images if label_file(p) is not None]
    if not photos:
        raise EnrollmentError(f"{directory} has no photos with YOLO label files")
    if unlabelled is not None:
        unlabelled.extend(p for p in images if p not in photos)
    return photos


def _left_out(unlabelled: Sequence[Path], photos: int) -> str:
    """What a ``--photos`` folder's photos without label files are (left out)."""
    named = ", ".join(p.name for p in unlabelled[:5]) + (", …" if len(unlabelled) > 5 else "")
    return (f"{len(unlabelled)} of {photos} photos have no label file (beside them, or in a "
            f"parallel labels/ folder) and were left out: {named}")


def enroll(
    name: str, die: str, *, crops_dir: Path | None = None, photos_dir: Path | None = None,
    faces: Sequence[str] | None = None, per_face: int | None = None,
    keep_suspects: bool = False, doubts: list[str] | None = None,
    notes: list[str] | None = None,
) -> Profile:
    """Build a profile from ``--crops DIR`` or ``--photos DIR`` (exactly one), and check
    its crops against one another (:mod:`vision.profilecheck`): a crop that looks filed
    under the wrong face, or like no die, is a :class:`SuspectCrops` error naming it,
    unless ``keep_suspects``; ``doubts``, when given, gets one line per
    suspect crop kept, and ``notes`` what else the profile is made with (faces shown fewer
    than :data:`FEW_CROPS` times)."""
    if (crops_dir is None) == (photos_dir is None):
        raise EnrollmentError("give exactly one of --crops DIR or --photos DIR")
    if faces is not None:
        _check_faces(die, faces)
    try:  # before any crop is read: the name is where the profile is saved
        check_name(name, "profile")
    except ValueError as exc:
        raise EnrollmentError(str(exc)) from None
    origins: dict[str, list[str]] = {}
    left_out = ""  # photos of --photos DIR without label files
    if crops_dir is not None:
        crops = crops_from_dir(crops_dir, origins)
        known = faces or faces_of(die)
        if known is not None:
            unknown = sorted(set(crops) - set(known))
            if unknown:
                raise EnrollmentError(
                    f"{', '.join(unknown)}: not faces of the {die} die ({', '.join(known)})"
                )
        if per_face is not None:
            crops = {k: v[:per_face] for k, v in crops.items()}
    else:
        assert photos_dir is not None
        face_list = faces or faces_of(die)
        if face_list is None:
            raise EnrollmentError(
                f"the {die} die is not built in: name its faces in class order (--faces a,b,c)"
            )
        unlabelled: list[Path] = []
        photos = photos_in(photos_dir, unlabelled)
        crops = crops_from_photos(photos, face_list, per_face, origins=origins)
        if unlabelled:
            left_out = _left_out(unlabelled, len(photos) + len(unlabelled))
            if notes is not None:
                notes.append(left_out)
    known = faces or faces_of(die)
    missing = [f for f in known or () if f not in crops]
    if missing:
        # a profile without a face would read that face as another, and could be sure of it
        raise EnrollmentError(
            f"no crops of {', '.join(missing)}: show every face of the {die} die "
            f"({', '.join(known or ())})" + (f"; {left_out}" if left_out else ""))
    few = [f for f in sorted(crops) if len(crops[f]) < FEW_CROPS]
    if few and notes is not None:  # saved, but said: docs/vision.md asks for 5 a face
        notes.append(f"{_few_crops(crops, few)}: show each face at least {FEW_CROPS} "
                     "times for a profile that reads it surely (its crops are checked "
                     "against one another from 3, and a face of fewer than "
                     f"{SURE_FROM_CROPS} is never read sure)")
    profile = Profile.from_crops(name, die, crops)
    where = [origins[face][k] for face in profile.labels for k in range(len(crops[face]))]
    found = [profilecheck.describe(c, where[c.index])
             for c in profilecheck.suspects(profilecheck.check(profile))]
    if found and not keep_suspects:
        raise SuspectCrops(found)
    if doubts is not None:
        doubts.extend(found)
    return profile


def _few_crops(crops: dict[str, list[np.ndarray]], few: Sequence[str]) -> str:
    """The faces shown too few times, each named as a face: "only 1 of 4" read as one
    out of four where face '4' had 1 crop."""
    by_count: dict[int, list[str]] = {}
    for face in few:
        by_count.setdefault(len(crops[face]), []).append(face)
    parts = []
    for count, faces in sorted(by_count.items()):
        crop_s = f"{count} crop{'' if count == 1 else 's'}"
        if len(faces) == 1:
            parts.append(f"face {faces[0]!r} has only {crop_s}")
        else:
            parts.append(f"faces {', '.join(repr(f) for f in faces)} have only {crop_s} each")
    return "; ".join(parts)


FEW_CROPS = 5
"""Crops of a face under which enrolling says the profile may not read it surely (the
docs ask for 5 a face; the check judges a face from 3)."""


def _check_faces(die: str, faces: Sequence[str]) -> None:
    """``--faces``: a built-in die's faces are its own, and each face is named once."""
    built_in = faces_of(die)
    if built_in is not None and list(faces) != list(built_in):
        raise EnrollmentError(
            f"the {die} die's faces are {', '.join(built_in)}: --faces names the faces of a "
            "die of your own (--die NAME), or leave it out")
    if any(not f for f in faces):
        raise EnrollmentError("--faces names each face: one is empty")
    twice = sorted({f for f in faces if list(faces).count(f) > 1})
    if twice:
        raise EnrollmentError(f"--faces names {', '.join(twice)} twice: each face once, in "
                              "class order (two classes named alike read as one face)")


class SuspectCrops(EnrollmentError):
    """Crops that look filed under the wrong face, or like no die: nothing is saved until
    they are moved, removed, or kept on purpose."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = list(lines)
        many = len(self.lines) != 1
        shown = self.lines[:SHOWN_SUSPECTS]
        more = len(self.lines) - len(shown)
        super().__init__(
            f"{len(self.lines)} crop{'s' if many else ''} may be filed under the wrong face, "
            "so no profile was made (a crop of the wrong face makes the reader surely "
            "wrong):\n" + "".join(f"  {line}\n" for line in shown)
            + (f"  ... and {more} more\n" if more else "")
            + "Move or remove each and enroll again; if it does show the face it is filed "
            "under, enroll with --keep-suspects.")


SHOWN_SUSPECTS = 10
"""Suspect crops named in :class:`SuspectCrops`' message (the rest are counted)."""
