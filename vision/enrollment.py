"""Enrolled faces: a profile of embedding vectors per face, read by nearest neighbour.

The player shows each face a few times (crops of single dice, or photos with YOLO labels);
each crop is cut again as the reader cuts dice (:func:`reframe`), turned through a full
circle (:data:`ENROLL_TURNS` turns) and every turn is mapped to a vector by the generic
symbol embedding (:mod:`vision.embedding`, trained on synthetic random symbols only). A die
is read as the face of its most similar enrolled vector; the confidence grows with that
similarity and with its margin over the best other face, and a die below either threshold
is marked uncertain. Nothing here counts pips: the faces are arbitrary symbols.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.crops import crop
from vision.detection import BOX_TO_DIE, to_work
from vision.dicefinder import default_dice_finder
from vision.embedding import MODEL_ID, default_embedder
from vision.faces import faces_of
from vision.reading import Box
from vision.storage import check_name, data_dir

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")

ENROLL_TURNS = 12
"""Each enrollment crop is embedded at this many turns (every 30 degrees)."""

MIN_SIMILARITY = 0.8
MIN_MARGIN = 0.2
"""A read is uncertain below either: cosine similarity to the nearest enrolled vector, and
its lead over the nearest vector of another face (chosen on the d6 val split, faces
enrolled as symbols from 5 train crops each: the loosest margin with no silent error
there, 16% of dice read confidently; 0.15 read 21% with 0.5% silent errors, 0.1 read 24%
with 1.5%)."""


def reframe(crop_bgr: np.ndarray) -> np.ndarray:
    """A crop of one die cut again as the reader cuts dice: the learned detector finds the
    die (the one nearest the middle) in the crop, padded by its own edges, and the crop
    becomes the reader's crop of that box. Crops framed loosely or tightly, by hand or by
    another tool, then match what the reader will compare them with. A crop in which the
    detector finds no die is kept as it is."""
    h, w = crop_bgr.shape[:2]
    pad = max(h, w)
    big = cv2.copyMakeBorder(crop_bgr, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    found = default_dice_finder().find(big, 0.9 * max(h, w))
    if not found:
        return crop_bgr
    cx, cy = pad + w / 2, pad + h / 2
    box, _ = min(found, key=lambda f: abs(f[0][0] + f[0][2] / 2 - cx)
                 + abs(f[0][1] + f[0][3] / 2 - cy))
    return crop(big, detection_like(box, 1.0))


def turns(crop_bgr: np.ndarray, count: int = ENROLL_TURNS, zoom: float = 1.0) -> list[np.ndarray]:
    """The crop turned about its centre through a full circle in ``count`` steps (and
    scaled by ``zoom`` about its centre). Enrolling each crop zoomed in as well (for crops
    framed loosely by hand) was tried: on the d6 val split it brought other faces' vectors
    closer, and the dice read confidently (at the loosest thresholds without a silent
    error) fell from 23% to 8%; :func:`reframe` does that job instead."""
    h, w = crop_bgr.shape[:2]
    out = []
    for k in range(count):
        m = cv2.getRotationMatrix2D((w / 2, h / 2), 360.0 * k / count, zoom)
        out.append(cv2.warpAffine(crop_bgr, m, (w, h), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE))
    return out


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
    """Enrolled faces of one die: embedding vectors and their face labels."""

    name: str
    die: str
    labels: tuple[str, ...]
    vectors: np.ndarray
    vector_labels: np.ndarray
    min_similarity: float = MIN_SIMILARITY
    min_margin: float = MIN_MARGIN

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
        embedder = default_embedder()
        for i, label in enumerate(labels):
            for c in crops[label]:
                vectors.append(embedder.embed(turns(reframe(c))))
                owners.extend([i] * ENROLL_TURNS)
        return cls(name, die, labels, np.concatenate(vectors), np.array(owners, np.int32))

    def classify(self, crop_bgr: np.ndarray) -> FaceGuess:
        """The enrolled face most like this crop, with a confidence and an uncertain flag."""
        return self.classify_many([crop_bgr])[0]

    def classify_many(self, crops: Sequence[np.ndarray]) -> list[FaceGuess]:
        """:meth:`classify` of several crops, embedded in one forward pass."""
        if not len(crops):
            return []
        sims = default_embedder().embed(crops) @ self.vectors.T
        out = []
        for row in sims:
            best = np.full(len(self.labels), -1.0, np.float32)
            np.maximum.at(best, self.vector_labels, row)
            order = np.argsort(-best)
            top = float(best[order[0]])
            second = float(best[order[1]]) if len(order) > 1 else -1.0
            margin = top - second
            confidence = float(np.clip(top, 0, 1) * min(1.0, margin / (2 * self.min_margin)))
            uncertain = top < self.min_similarity or margin < self.min_margin
            out.append(FaceGuess(self.labels[order[0]], round(confidence, 3), uncertain, top,
                                 margin))
        return out

    def save(self, directory: Path | None = None) -> Path:
        """Write the profile as ``<name>.npz`` in ``directory`` (default: the data dir)."""
        directory = directory or profiles_dir()
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{self.name}.npz"
        meta = {
            "name": self.name, "die": self.die, "labels": list(self.labels),
            "embedding": MODEL_ID,
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
        if meta.get("embedding") != MODEL_ID:
            raise EnrollmentError(
                f"profile {path} was enrolled with another face model "
                f"({meta.get('embedding', 'appearance descriptors')}); enroll its faces again"
            )
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
