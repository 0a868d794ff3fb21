"""Enrolled faces: a profile of appearance descriptors per face, read by nearest neighbour.

The player shows each face a few times (crops of single dice, or photos with YOLO labels);
each crop is described at every rotation (:mod:`vision.descriptors`). A die is read as the
face of its most similar enrolled descriptor; the confidence grows with that similarity and
with its margin over the best other face, and a die below either threshold is marked
uncertain. Nothing here counts pips: the faces are arbitrary symbols.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.crops import crop
from vision.descriptors import describe, rotations
from vision.detection import BOX_TO_DIE, to_work
from vision.faces import faces_of
from vision.reading import Box
from vision.storage import check_name, data_dir

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


class EnrollmentError(ValueError):
    """Enrollment input that cannot make a profile (the message says why)."""


@dataclass(frozen=True)
class FaceGuess:
    face: str
    confidence: float
    uncertain: bool
    similarity: float
    margin: float


@dataclass(frozen=True)
class Profile:
    """Enrolled faces of one die: descriptors and their face labels."""

    name: str
    die: str
    labels: tuple[str, ...]
    vectors: np.ndarray
    vector_labels: np.ndarray
    min_similarity: float = 0.8
    min_margin: float = 0.1

    @classmethod
    def from_crops(
        cls, name: str, die: str, crops: Mapping[str, Sequence[np.ndarray]]
    ) -> Profile:
        """Build a profile from BGR crops of single dice, grouped by face label."""
        check_name(name, "profile")
        vectors: list[np.ndarray] = []
        owners: list[int] = []
        labels = tuple(label for label, items in crops.items() if len(items))
        if len(labels) < 2:
            raise EnrollmentError(
                f"a profile needs crops of at least two faces (got {', '.join(labels) or 'none'})"
            )
        for i, label in enumerate(labels):
            for c in crops[label]:
                rot = rotations(c)
                vectors.append(rot)
                owners.extend([i] * len(rot))
        return cls(name, die, labels, np.concatenate(vectors), np.array(owners, np.int32))

    def classify(self, crop_bgr: np.ndarray) -> FaceGuess:
        """The enrolled face most like this crop, with a confidence and an uncertain flag."""
        sims = self.vectors @ describe(crop_bgr)
        best = np.full(len(self.labels), -1.0, np.float32)
        np.maximum.at(best, self.vector_labels, sims)
        order = np.argsort(-best)
        top = float(best[order[0]])
        second = float(best[order[1]]) if len(order) > 1 else -1.0
        margin = top - second
        confidence = float(np.clip(top, 0, 1) * min(1.0, margin / (2 * self.min_margin)))
        uncertain = top < self.min_similarity or margin < self.min_margin
        return FaceGuess(self.labels[order[0]], round(confidence, 3), uncertain, top, margin)

    def save(self, directory: Path | None = None) -> Path:
        """Write the profile as ``<name>.npz`` in ``directory`` (default: the data dir)."""
        directory = directory or profiles_dir()
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{self.name}.npz"
        meta = {
            "name": self.name, "die": self.die, "labels": list(self.labels),
            "min_similarity": self.min_similarity, "min_margin": self.min_margin,
        }
        tmp = path.with_suffix(".tmp.npz")
        np.savez_compressed(
            tmp, meta=np.array(json.dumps(meta)), vectors=self.vectors.astype(np.float16),
            vector_labels=self.vector_labels,
        )
        tmp.replace(path)
        return path

    @classmethod
    def load(cls, name_or_path: str, directory: Path | None = None) -> Profile:
        """Load a profile by name (from the data dir) or from an ``.npz`` path."""
        path = Path(name_or_path)
        if path.suffix != ".npz":
            path = (directory or profiles_dir()) / f"{check_name(name_or_path, 'profile')}.npz"
        if not path.is_file():
            raise EnrollmentError(f"no profile {name_or_path!r} (looked for {path})")
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                vectors = data["vectors"].astype(np.float32)
                owners = data["vector_labels"].astype(np.int32)
        except (OSError, ValueError, KeyError) as exc:
            raise EnrollmentError(f"cannot read profile {path}: {exc}") from None
        return cls(
            meta["name"], meta["die"], tuple(meta["labels"]), vectors, owners,
            float(meta["min_similarity"]), float(meta["min_margin"]),
        )


def profiles_dir() -> Path:
    return data_dir() / "profiles"


def _images(directory: Path) -> list[Path]:
    return sorted(p for p in directory.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES)


def crops_from_dir(directory: Path) -> dict[str, list[np.ndarray]]:
    """``--crops DIR``: one sub-folder per face label, each holding crops of single dice."""
    if not directory.is_dir():
        raise EnrollmentError(f"{directory} is not a folder")
    out: dict[str, list[np.ndarray]] = {}
    for sub in sorted(p for p in directory.iterdir() if p.is_dir()):
        images = []
        for path in _images(sub):
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                raise EnrollmentError(f"cannot read image {path}")
            images.append(image)
        if images:
            out[sub.name] = [cv2.resize(i, (64, 64), interpolation=cv2.INTER_AREA) for i in images]
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
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        try:
            cls_id = int(parts[0])
            x, y, w, h = (float(v) for v in parts[1:5])
        except (ValueError, IndexError):
            raise EnrollmentError(f"{path}:{n}: not a YOLO line: {line!r}") from None
        box = (round((x - w / 2) * width), round((y - h / 2) * height),
               round(w * width), round(h * height))
        out.append((cls_id, box))
    return out


def crops_from_photos(
    photos: Iterable[Path], faces: Sequence[str], per_face: int | None = None
) -> dict[str, list[np.ndarray]]:
    """Crops of labelled dice in photos (class i = ``faces[i]``), at the working scale."""
    out: dict[str, list[np.ndarray]] = {f: [] for f in faces}
    for path in photos:
        labels = label_file(path)
        if labels is None:
            continue
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise EnrollmentError(f"cannot read image {path}")
        work = to_work(image)
        for cls_id, box in read_yolo(labels, image.shape[1], image.shape[0]):
            if not 0 <= cls_id < len(faces):
                raise EnrollmentError(
                    f"{labels}: class {cls_id} but the die has {len(faces)} faces"
                )
            face = faces[cls_id]
            if per_face is not None and len(out[face]) >= per_face:
                continue
            out[face].append(crop(work.image, detection_like(box, work.scale)))
    return {f: c for f, c in out.items() if c}


def detection_like(box: Box, scale: float) -> Box:
    """A label box (which includes the die's visible sides) scaled to the working image
    and shrunk about its centre to the size the detector reports for that die."""
    x, y, w, h = (v * scale for v in box)
    cx, cy = x + w / 2, y + h / 2
    w, h = w * BOX_TO_DIE, h * BOX_TO_DIE
    return (round(cx - w / 2), round(cy - h / 2), max(1, round(w)), max(1, round(h)))


def photos_in(directory: Path) -> list[Path]:
    if not directory.is_dir():
        raise EnrollmentError(f"{directory} is not a folder")
    photos = [p for p in _images(directory) if label_file(p) is not None]
    if not photos:
        raise EnrollmentError(f"{directory} has no photos with YOLO label files")
    return photos


def enroll(
    name: str, die: str, *, crops_dir: Path | None = None, photos_dir: Path | None = None,
    faces: Sequence[str] | None = None, per_face: int | None = None,
) -> Profile:
    """Build a profile from ``--crops DIR`` or ``--photos DIR`` (exactly one)."""
    if (crops_dir is None) == (photos_dir is None):
        raise EnrollmentError("give exactly one of --crops DIR or --photos DIR")
    if crops_dir is not None:
        crops = crops_from_dir(crops_dir)
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
        crops = crops_from_photos(photos_in(photos_dir), face_list, per_face)
    return Profile.from_crops(name, die, crops)
