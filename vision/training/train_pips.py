"""Train the d6 face classifier (``vision/models/d6_faces.onnx``) on the real d6 photos.

Data: ``../shared/datasets/d6-photos/data`` beside the repository (MIT, (c) 2025 Nikita
Menshikov, from photos and labels BSD-3-Clause, (c) 2019 Nell Byler), exactly these files:

* ``images/train/*.jpg`` with ``labels/train/*.txt`` (200 photos, 1,458 dice): training;
* ``images/val/*.jpg`` with ``labels/val/*.txt`` (25 photos, 204 dice): validation, used
  to pick the epoch to keep; with ``--val-too`` (the packaged network since the eleventh
  session) learned from as well, and the last epoch kept.

The test split is never read. Each photo is scaled to the reader's working size
(:func:`vision.detection.to_work`) and each labelled die is cut out twice: around its label
box shrunk to the die's top face (:func:`vision.detection.detection_like`), and around
the learned detector's box for that die (:mod:`vision.dicefinder`, shrunk the same way, as
the reader crops it) when the detector finds it. Detections that match no labelled die,
random patches of tray, and tray patches with drawn junk (a coin or token, print, a
pencil, a fingertip) are the ``none`` class. Re-train the detector first. Training
augments every crop with a random rotation (any angle), scale, shift, brightness,
contrast, colour-channel order, blur and noise, makes ``--ghost`` of the dice (0.3)
look translucent (another die's face blended in faintly, tinted, low contrast:
:func:`translucent`), draws a glint across ``--glare`` of the crops (0.3: :func:`glare`),
leaves out the known label mistakes (``--label-errors drop``: :data:`LABEL_ERRORS`, each
die picked out by the packaged network's read), and feeds the network exactly what the
reader does (:func:`vision.facenet.prepare` of a 64 px crop). ``--neighbour`` (off: tried
in the eighth session, it read no more out-of-fold dice under the reader's rule) pastes
another die against a side of that share of the dice (:func:`beside`).

``--zoom LO HI`` is the range of a crop's random zoom (0.85-1.2 by default; the packaged
network 0.7-1.35). Tried in the eleventh session on out-of-fold reads (seed 6): the wider
zoom with ``--val-too`` read 99.58% of the dice sure under the reader's rule with its
views' mean placed again (1 silent error), against 99.38% for ``--val-too`` alone and for
the earlier recipe (1 silent error each): the detector's boxes are often loose or tight
on a die, and the wider zoom shows the network both.

``--teacher MODEL.onnx`` (with ``--distil``, ``--temperature``) has the network learn from
another face network's probabilities as well (:class:`Distilled`). Tried in the twelfth
session for a faster reader: width-1 networks (half the time) taught by the packaged
recipe's fold networks read 99.03% of the out-of-fold dice sure with 3 silent errors,
against their teachers' 99.86% with 1; not kept.

``--folds 3 --fold k`` trains without fold *k* of the train photos (photo index modulo 3)
for :mod:`vision.training.calibrate_faces`, which places the reader's uncertainty rule on
the reads of the left-out photos.

Needs the ``train`` extra (``pip install -e '.[train]'``: PyTorch, and ``onnx`` for the
exporter); the reader itself runs the exported model with ONNX Runtime or OpenCV only. On
one CPU core a fold network took 19-22 minutes, the packaged one about 28 (two runs
sharing two cores)::

    .venv/bin/python -m vision.training.train_pips --val-too --zoom 0.7 1.35 \
        [--epochs 40] [--copies 3] [--width 1.5] [--seed 6]

(24 epochs of 2 augmented copies, the first recipe, read 3 points fewer out-of-fold dice
confidently with the same uncertainty rule; the same recipe at width 1, the second
session's network, 0.8 points fewer.)
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from vision.boxes import centre_in, hold_each_other
from vision.crops import CROP_PX
from vision.detection import detection_like, expected_die_px, to_work
from vision.dicefinder import default_dice_finder
from vision.enroll import read_yolo
from vision.facenet import CLASSES, INPUT_PX, MODEL_PATH, FaceNet, default_face_net, prepare
from vision.onnxmodel import OnnxModel, available_engines
from vision.reading import Box
from vision.training.common import conv_block, fit, photometric, report_saved, seeded
from vision.training.degradations import blur, jpeg, motion, noise
from vision.training.label_errors import LABEL_ERRORS
from vision.training.photos import DATASET, in_fold, split_photos
from vision.training.samples import Sample, on_darker_floor

ROOT = Path(__file__).resolve().parents[2]
NONE = len(CLASSES) - 1
PATCH_SIDES = 3.0
"""A stored patch spans this many die sides around the die's centre (room to rotate)."""
CROP_MARGIN = 0.1
"""The reader's crop margin (:func:`vision.crops.crop`)."""


def _patch(image: np.ndarray, box: Box) -> tuple[np.ndarray, float]:
    x, y, w, h = box
    side = float(max(w, h))
    cx, cy = x + w / 2, y + h / 2
    half = int(math.ceil(side * PATCH_SIDES / 2))
    m = np.float32([[1, 0, half - cx], [0, 1, half - cy]])
    patch = cv2.warpAffine(image, m, (2 * half, 2 * half), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
    return patch, side


def extract(split: str, rng: np.random.Generator, skip_fold: tuple[int, int] = (1, 0),
            drop: frozenset[tuple[str, str]] = frozenset()) -> list[Sample]:
    """Samples of one split: labelled dice (label and detector boxes) and non-dice;
    ``skip_fold=(folds, fold)`` leaves out that fold's photos (for out-of-fold
    calibration). ``drop`` names (photo, face label) pairs of known label mistakes
    (:data:`LABEL_ERRORS`): of the dice with that label in that photo, the one the packaged
    network reads as another face at 0.8 or more gives no sample (a photo may hold other,
    rightly labelled dice of that face)."""
    out: list[Sample] = []
    for index, path in enumerate(split_photos(split)):
        if in_fold(index, *skip_fold):
            continue
        first = len(out)
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        work = to_work(image)
        small = work.image
        labels = read_yolo(DATASET / "labels" / split / (path.stem + ".txt"),
                           image.shape[1], image.shape[0])
        truth = [(c, detection_like(b, work.scale),
                  tuple(round(v * work.scale) for v in b)) for c, b in labels]
        dropped = [t for t in truth if _mislabelled(path.name, t[0], small, t[1], drop)]
        truth = [t for t in truth if t not in dropped]
        for c, box, _ in truth:
            out.append(Sample(*_patch(small, box), c))
        for found, _ in default_dice_finder().find(small, expected_die_px(small.shape)):
            if any(centre_in(lb, found) for _, _, lb in dropped):
                continue  # a known label mistake: neither its face nor tray
            # the reader's crop box for this detection (its top face)
            box = detection_like(found, 1.0)
            hits = [c for c, _, lb in truth if hold_each_other(lb, found)]
            if len(hits) == 1:
                out.append(Sample(*_patch(small, box), hits[0]))
            elif not any(centre_in(lb, found) for _, _, lb in truth):
                out.append(Sample(*_patch(small, box), NONE))
        # random tray patches away from every die
        side = float(np.median([max(b[2], b[3]) for _, b, _ in truth])) if truth else 32.0
        h, w = small.shape[:2]
        for k in range(2 + JUNK_PER_PHOTO):
            for _try in range(20):
                cx, cy = rng.uniform(side, w - side), rng.uniform(side, h - side)
                if all(abs(cx - (lb[0] + lb[2] / 2)) > 0.9 * max(lb[2], side)
                       or abs(cy - (lb[1] + lb[3] / 2)) > 0.9 * max(lb[3], side)
                       for _, _, lb in truth + dropped):
                    s = side * rng.uniform(0.7, 1.3)
                    box = (round(cx - s / 2), round(cy - s / 2), round(s), round(s))
                    patch, pside = _patch(small, box)
                    if k >= 2:  # a drawn token, letter, pencil or finger on the tray
                        _junk(patch, pside, rng)
                    out.append(Sample(patch, pside, NONE))
                    break
        for sample in out[first:]:
            sample.photo = index
    return out


def _mislabelled(photo: str, label: int, image: np.ndarray, box: Box,
                 drop: frozenset[tuple[str, str]]) -> bool:
    """Whether the die labelled ``label`` at ``box`` is a known label mistake."""
    if (photo, CLASSES[label]) not in drop:
        return False
    p = default_face_net().probabilities([render(Sample(*_patch(image, box), label), None)])[0]
    return int(p.argmax()) != label and float(p.max()) >= 0.8


JUNK_PER_PHOTO = 3
"""Drawn junk patches per photo in the *none* class (the detector can take a coin or a
printed letter for a die; the face network must not read one as a face)."""


def _junk(patch: np.ndarray, side: float, rng: np.random.Generator) -> None:
    """Draw one die-sized piece of junk at the centre of a patch, in place."""
    c = patch.shape[0] // 2
    colour = tuple(int(v) for v in rng.integers(0, 256, 3))
    kind = int(rng.integers(4))
    if kind == 0:  # a coin or token, maybe with a rim or an emblem
        r = int(side * rng.uniform(0.3, 0.55))
        cv2.circle(patch, (c, c), r, colour, -1, cv2.LINE_AA)
        if rng.random() < 0.6:
            rim = tuple(int(v * rng.uniform(0.5, 0.9)) for v in colour)
            cv2.circle(patch, (c, c), r, rim, max(1, r // 8), cv2.LINE_AA)
        if rng.random() < 0.4:
            ink = tuple(int(v) for v in rng.integers(0, 256, 3))
            cv2.circle(patch, (c, c), max(1, r // 3), ink, -1, cv2.LINE_AA)
    elif kind == 1:  # print: a letter or two, or a symbol
        text = "".join(chr(int(v)) for v in rng.integers(65, 91, int(rng.integers(1, 3))))
        scale = side / 30 * rng.uniform(0.6, 1.2)
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
        if rng.random() < 0.5:  # on a card
            half = int(side * rng.uniform(0.6, 1.0))
            cv2.rectangle(patch, (c - half, c - half), (c + half, c + half),
                          tuple(int(v) for v in rng.integers(180, 256, 3)), -1)
        cv2.putText(patch, text, (c - tw // 2, c + th // 2), cv2.FONT_HERSHEY_SIMPLEX, scale,
                    colour, int(rng.integers(1, 4)), cv2.LINE_AA)
    elif kind == 2:  # a pencil or a cable
        a = rng.uniform(0, np.pi)
        d = side * rng.uniform(0.8, 1.5)
        p0 = (int(c - d * np.cos(a)), int(c - d * np.sin(a)))
        p1 = (int(c + d * np.cos(a)), int(c + d * np.sin(a)))
        cv2.line(patch, p0, p1, colour, max(2, int(side * rng.uniform(0.1, 0.3))),
                 cv2.LINE_AA)
    else:  # a fingertip
        skin = (int(rng.integers(60, 140)), int(rng.integers(100, 180)),
                int(rng.integers(150, 240)))
        axes = (int(side * rng.uniform(0.5, 0.9)), int(side * rng.uniform(0.3, 0.45)))
        cv2.ellipse(patch, (c, c), axes, float(rng.uniform(0, 180)), 0, 360, skin, -1,
                    cv2.LINE_AA)


GHOST_CHANCE = 0.3
"""Share of training crops made to look like a translucent die (see :func:`translucent`)."""


def translucent(x: np.ndarray, ghost: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A crop made to look like a translucent die: the pips of the hidden faces show
    through the body (another die's face, turned or mirrored, blurred and faint, blended
    in) and the body is tinted and low in contrast. The label stays the top face's."""
    g = ghost.astype(np.float32)
    if rng.random() < 0.5:
        g = g[:, ::-1]
    g = cv2.GaussianBlur(g, (0, 0), rng.uniform(0.6, 2.0))
    shift = rng.normal(0, 4, 2)
    g = cv2.warpAffine(g, np.float32([[1, 0, shift[0]], [0, 1, shift[1]]]),
                       (g.shape[1], g.shape[0]), borderMode=cv2.BORDER_REFLECT)
    a = rng.uniform(0.15, 0.4)
    x = (1 - a) * x + a * g
    c = rng.uniform(0.45, 0.9)  # contrast left after the tint
    tint = rng.uniform(40, 230, 3).astype(np.float32)
    return c * x + (1 - c) * tint


GLARE_CHANCE = 0.3
"""Share of training crops given a drawn glint (see :func:`glare`; the packaged network's
recipe since the fifth session)."""


def glare(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A crop with a specular glint drawn across it: a thin bright streak or arc, or a long
    narrow highlight, as a glossy die's edge or face throws under a lamp. Such glints are
    what the network took for pips (a 4 with a streak down its middle read as 5); a glint
    is long and thin where a pip is round, and the label stays the die's."""
    size = x.shape[0]
    mask = np.zeros(x.shape[:2], np.float32)
    c = np.array([size / 2, size / 2]) + rng.normal(0, size * 0.12, 2)
    angle = float(rng.uniform(0, 180))
    kind = int(rng.integers(3))
    if kind == 0:  # a straight streak, maybe across the whole face
        half = size * rng.uniform(0.15, 0.45)
        d = half * np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
        cv2.line(mask, tuple(int(v) for v in c - d), tuple(int(v) for v in c + d), 1.0,
                 int(rng.integers(1, 6)), cv2.LINE_AA)
    elif kind == 1:  # an arc, as round a pip's rim or a rounded edge
        axes = (int(size * rng.uniform(0.08, 0.4)), int(size * rng.uniform(0.08, 0.4)))
        start = float(rng.uniform(0, 360))
        cv2.ellipse(mask, tuple(int(v) for v in c), axes, angle, start,
                    start + float(rng.uniform(60, 200)), 1.0, int(rng.integers(1, 3)),
                    cv2.LINE_AA)
    else:  # a long narrow highlight
        axes = (int(size * rng.uniform(0.08, 0.25)), max(1, int(size * rng.uniform(0.01, 0.04))))
        cv2.ellipse(mask, tuple(int(v) for v in c), axes, angle, 0, 360, 1.0, -1, cv2.LINE_AA)
    mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(0.5, 2.5))
    mask *= rng.uniform(0.5, 1.0) / max(float(mask.max()), 1e-6)
    light = rng.uniform(225, 255) + rng.normal(0, 8, 3)
    return x * (1 - mask[..., None]) + light * mask[..., None]


NEIGHBOUR_CHANCE = 0.0
"""Share of training dice given a drawn neighbour (see :func:`beside`; tried in the eighth
session, 0 in the packaged network's recipe)."""


def beside(x: np.ndarray, other: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A crop with another die's crop pasted against one side, as a die lying beside a
    neighbour is cut: the neighbour's face, turned at random, fills the crop beyond a line
    about half a die from the centre (the two dice's common edge), so that its marks show
    at the crop's border. The label stays the centre die's."""
    size = x.shape[0]
    side = size / (1 + 2 * CROP_MARGIN)
    angle = rng.uniform(0, 2 * np.pi)
    u = np.array([np.cos(angle), np.sin(angle)])
    gap = side * rng.uniform(0.7, 1.05)  # centre to centre (less: a box off its die)
    shift = gap * u
    move = np.float32([[1, 0, shift[0]], [0, 1, shift[1]]])
    moved = cv2.warpAffine(other.astype(np.float32), move, (size, size),
                           borderMode=cv2.BORDER_REPLICATE)
    yy, xx = np.mgrid[:size, :size].astype(np.float32) - (size - 1) / 2
    edge = gap / 2 + rng.normal(0, side * 0.04)
    mask = np.clip((xx * u[0] + yy * u[1] - edge) / 1.5 + 0.5, 0, 1)[..., None]
    return x * (1 - mask) + moved * mask


SHIFT = 0.06
"""Spread of the random shift of a training crop's centre, as a share of the die's side."""

ZOOM = (0.85, 1.2)
"""Range of the random zoom of a training crop (the die's box side over the crop's)."""

FLOOR_CHANCE = 0.0
"""Share of training crops whose tray floor is repainted a random darker colour
(``--floors``, :func:`vision.training.samples.on_darker_floor`); 0 (the packaged
network's recipe) draws nothing, so that the other draws are as before. The photos'
floors are all light, and the packaged network misses and misreads dice on dark ones.
Tried at 0.5 in the thirtieth session, with the pip-dice detector trained so too: on the
val photos repainted a grey of 40, 197 of 204 dice read sure and right and none wrong
(161 and 4 before), but on light floors a few dice in a thousand fewer read sure (out of
fold 99.58% against 99.86%; the test split 97.7% against 99.25%, one die wrong and
sure). So it is packaged beside the light-floor network, as ``d6_faces_dark.onnx``
(with its quick look), and the reader picks by the frame's floor
(:data:`vision.reader.DARK_NETS_BELOW`; ``docs/vision-history.md``, *Pip d6 on dark
floors*)."""


DEGRADE_CHANCE = 0.0
"""Share of training dice shown as a worse camera would give them (``--degrade``,
:func:`worse_camera`, on the sample's patch at the working scale, before the crop is
cut): out of focus, smeared or compressed beyond what the photometric draws do. The
default, 0, draws nothing, so the other draws are as before (the dark-floor pair's
recipe). The packaged light-floor face network and quick look are trained with
``--degrade 0.1 --epochs 60`` since the forty-ninth session: out of fold (seed 6) the
reader's rule reads 99.38% of the clean dice sure with 1 silent error, as before, against
99.86%, and under blur and smears a third or less of the dice read wrong and sure
(``benchmarks/bench_degraded.py``; docs/vision.md, *What a worse camera costs*). 0.3
(forty-seventh session) read 99.31% sure with 4 silent errors; not kept."""


def worse_camera(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A sample's patch (at the working scale, a die about 40 px, as a camera's frame is
    read) as one of a worse camera's faults shows it: out of focus (Gaussian, sigma 1-3
    px), smeared (3-13 px at any angle: a camera shaken) or compressed (JPEG quality
    20-80: a webcam's MJPG), sometimes with sensor noise."""
    kind = rng.integers(3)
    if kind == 0:
        x = blur(rng.uniform(1.0, 3.0))(x, rng)
    elif kind == 1:
        n = int(rng.integers(3, 14))
        x = motion(n, rng.uniform(0, 180))(x, rng)
    else:
        x = jpeg(int(rng.integers(20, 81)))(x, rng)
    if rng.random() < 0.3:
        x = noise(rng.uniform(3, 12))(x, rng)
    return x


def render(s: Sample, rng: np.random.Generator | None,
           ghost: Sample | None = None, glare_chance: float = 0.0,
           shift: float = SHIFT, neighbour: Sample | None = None,
           zoom: tuple[float, float] = ZOOM) -> np.ndarray:
    """The reader's 64 px crop of a sample; with ``rng``, randomly augmented (and with
    ``ghost``, made to look translucent with that die's face showing through)."""
    centre = s.patch.shape[0] / 2
    side = s.side * (1 + 2 * CROP_MARGIN)
    angle, k, dx, dy = 0.0, 1.0, 0.0, 0.0
    if rng is not None:
        angle = rng.uniform(0, 360)
        k = rng.uniform(*zoom)
        dx, dy = rng.normal(0, shift * s.side, 2)
    m = cv2.getRotationMatrix2D((centre + dx, centre + dy), angle, CROP_PX / (side * k))
    m[0, 2] += CROP_PX / 2 - (centre + dx)
    m[1, 2] += CROP_PX / 2 - (centre + dy)
    c = cv2.warpAffine(s.patch, m, (CROP_PX, CROP_PX), flags=cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)
    if rng is None:
        return c
    x = c.astype(np.float32)
    if ghost is not None:
        x = translucent(x, _turned(render(ghost, None), rng), rng)
    if neighbour is not None:
        x = beside(x, _turned(render(neighbour, None), rng), rng)
    if glare_chance and rng.random() < glare_chance:
        x = glare(x, rng)
    return photometric(x, rng, CROP_PX, white_balance=False, blur=(0.4, 1.3),
                       down=(0.25, 0.45, 0.8), noise=(2, 8))


def _turned(c: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    m = cv2.getRotationMatrix2D((c.shape[1] / 2, c.shape[0] / 2), rng.uniform(0, 360), 1.0)
    return cv2.warpAffine(c, m, (c.shape[1], c.shape[0]), borderMode=cv2.BORDER_REPLICATE)


class FaceCNN(nn.Module):
    """Five 3x3 conv layers (16-32-48-48-96 channels times ``width``, pooled from 32 to 4
    px) and a linear head. At the packaged width, 1.5 (24-48-72-72-144): about 184k weights
    and 9.8M multiply-adds per crop (at width 1, 82k and 4.5M; a frame of 20 dice in a few
    milliseconds on one core)."""

    def __init__(self, classes: int = len(CLASSES), width: float = 1.0) -> None:
        super().__init__()
        a, b, c, d = (max(8, round(n * width)) for n in (16, 32, 48, 96))
        self.features = nn.Sequential(
            *conv_block(3, a), nn.MaxPool2d(2),
            *conv_block(a, b), nn.MaxPool2d(2),
            *conv_block(b, c), *conv_block(c, c), nn.MaxPool2d(2),
            *conv_block(c, d), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2),
            nn.Linear(d, classes),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.features(x)


def batch(samples: list[Sample], rng: np.random.Generator | None,
          dice: list[Sample] | None = None, ghost_chance: float = GHOST_CHANCE,
          px: int = INPUT_PX, glare_chance: float = GLARE_CHANCE,
          shift: float = SHIFT, neighbour_chance: float = NEIGHBOUR_CHANCE,
          zoom: tuple[float, float] = ZOOM, floors: float = FLOOR_CHANCE,
          degrade: float = DEGRADE_CHANCE) -> torch.Tensor:
    """The network's input for samples; with ``rng`` augmented, with ``dice`` some
    made translucent with one of those dice showing through, and a ``floors`` share on a
    darker floor."""
    crops = []
    for s in samples:
        if rng is not None and floors and rng.random() < floors:
            s = on_darker_floor(s, rng, s.label != NONE)
        ghost = None
        if (rng is not None and dice and s.label != NONE
                and rng.random() < ghost_chance):
            ghost = dice[int(rng.integers(len(dice)))]
        neighbour = None
        if (rng is not None and dice and s.label != NONE and neighbour_chance
                and rng.random() < neighbour_chance):
            neighbour = dice[int(rng.integers(len(dice)))]
        if rng is not None and degrade and rng.random() < degrade:
            s = Sample(worse_camera(s.patch, rng), s.side, s.label, s.photo)
        crops.append(render(s, rng, ghost, glare_chance, shift, neighbour, zoom))
    return torch.from_numpy(prepare(crops, px))


class Distilled(nn.Module):
    """Knowledge distillation (Hinton et al., 2015): the loss is ``share`` of the KL
    divergence from a teacher network's softened probabilities (both sets of logits
    divided by ``temperature``; times its square, so that its gradients keep their scale)
    and the rest the usual cross-entropy with the labels. The teacher (an exported face
    network, run through ONNX Runtime) reads each augmented batch as :meth:`prime` sees
    it, before the student does."""

    def __init__(self, teacher: Path, share: float, temperature: float,
                 base: nn.Module) -> None:
        super().__init__()
        self.teacher = OnnxModel(teacher, "teacher", "vision/training/train_pips.py")
        self.share, self.temperature, self.base = share, temperature, base
        self._soft: torch.Tensor | None = None

    def prime(self, x: torch.Tensor) -> torch.Tensor:
        """Keep the teacher's soft targets for the batch ``x``; ``x`` unchanged."""
        logits = torch.from_numpy(self.teacher.run(x.numpy()).reshape(len(x), -1))
        self._soft = (logits / self.temperature).softmax(1)
        return x

    def forward(self, logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        assert self._soft is not None and len(self._soft) == len(logits)
        t = self.temperature
        kd = nn.functional.kl_div((logits / t).log_softmax(1), self._soft,
                                  reduction="batchmean") * t * t
        return self.share * kd + (1 - self.share) * self.base(logits, y)


def evaluate(model: nn.Module, samples: list[Sample], px: int = INPUT_PX,
             ) -> tuple[float, float]:
    """(accuracy over dice, accuracy over non-dice) without augmentation."""
    model.eval()
    with torch.no_grad():
        pred = model(batch(samples, None, px=px)).argmax(1).numpy()
    y = np.array([s.label for s in samples])
    dice = y != NONE
    return float((pred[dice] == y[dice]).mean()), float((pred[~dice] == NONE).mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--copies", type=int, default=3, help="augmented copies per epoch")
    parser.add_argument("--max-minutes", type=float, default=30.0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument("--folds", type=int, default=1,
                        help="with --fold: train without one fold of the train photos")
    parser.add_argument("--fold", type=int, default=0,
                        help="the fold left out (photo index %% folds); see calibrate_faces")
    parser.add_argument("--ghost", type=float, default=GHOST_CHANCE,
                        help="share of crops made translucent")
    parser.add_argument("--width", type=float, default=1.5,
                        help="channels of every layer times this (1: 16-32-48-48-96)")
    parser.add_argument("--glare", type=float, default=GLARE_CHANCE,
                        help="share of crops given a drawn glint (streak, arc, highlight)")
    parser.add_argument("--label-errors", choices=("keep", "drop"), default="drop",
                        help="train on the known label mistakes' dice as labelled, or not")
    parser.add_argument("--shift", type=float, default=SHIFT,
                        help="spread of a crop's random shift, as a share of the die's side")
    parser.add_argument("--neighbour", type=float, default=NEIGHBOUR_CHANCE,
                        help="share of dice given a drawn neighbour against one side")
    parser.add_argument("--input-px", type=int, default=INPUT_PX,
                        help="side of the network's input (the reader's must match)")
    parser.add_argument("--zoom", type=float, nargs=2, default=ZOOM, metavar=("LO", "HI"),
                        help="range of a crop's random zoom")
    parser.add_argument("--teacher", type=Path, default=None, metavar="MODEL.onnx",
                        help="learn from this face network's probabilities as well "
                             "(knowledge distillation; a fold network for --fold)")
    parser.add_argument("--distil", type=float, default=0.7,
                        help="with --teacher: share of the loss from the teacher")
    parser.add_argument("--temperature", type=float, default=2.0,
                        help="with --teacher: the softening of both networks' logits")
    parser.add_argument("--floors", type=float, default=FLOOR_CHANCE,
                        help="share of crops whose tray floor is repainted darker")
    parser.add_argument("--degrade", type=float, default=DEGRADE_CHANCE, metavar="P",
                        help="share of crops shown as a worse camera gives them: blurred, "
                             "smeared or compressed (default %(default)s)")
    parser.add_argument("--val-too", action="store_true",
                        help="learn from the val photos as well and keep the last epoch "
                             "(val no longer chooses it)")
    args = parser.parse_args(argv)
    rng = seeded(args.seed, args.threads)
    start = time.monotonic()
    train = extract("train", rng, (args.folds, args.fold),
                    LABEL_ERRORS if args.label_errors == "drop" else frozenset())
    val = extract("val", rng)
    if args.val_too:
        train += val
    dice = [s for s in train if s.label != NONE]
    counts = np.bincount([s.label for s in train], minlength=len(CLASSES))
    print(f"samples: train {len(train)} {counts.tolist()}, val {len(val)}; "
          f"extracted in {time.monotonic() - start:.0f} s", flush=True)
    model = FaceCNN(width=args.width)
    params = sum(p.numel() for p in model.parameters())
    print(f"model: {params} parameters, input {args.input_px}x{args.input_px} BGR", flush=True)

    def score() -> tuple[float, str]:
        dice_acc, none_acc = evaluate(model, val, args.input_px)
        line = f"val dice {dice_acc:.4f} none {none_acc:.3f}"
        if args.val_too:  # val is learned from: every epoch ties, so the last is kept
            return 0.0, line + " (learned from)"
        return dice_acc + 0.2 * none_acc, line

    loss_fn: nn.Module = nn.CrossEntropyLoss(label_smoothing=0.05)
    prime = None
    if args.teacher is not None:
        loss_fn = Distilled(args.teacher, args.distil, args.temperature, loss_fn)
        prime = loss_fn.prime

    def step_input(chunk: list[Sample]) -> torch.Tensor:
        x = batch(chunk, rng, dice, args.ghost, args.input_px, args.glare, args.shift,
                  args.neighbour, tuple(args.zoom), args.floors, args.degrade)
        return x if prime is None else prime(x)

    fit(model, train, step_input, lambda s: s.label, rng, epochs=args.epochs,
        copies=args.copies, loss_fn=loss_fn, max_minutes=args.max_minutes, evaluate=score)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 3, args.input_px, args.input_px), str(args.out),
                      dynamo=False, input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=13)
    # the exported model must give what PyTorch gives, through each engine the reader uses
    check = [render(s, None) for s in val[:64]]
    with torch.no_grad():
        ref = model(torch.from_numpy(prepare(check, args.input_px))).softmax(1).numpy()
    diffs = {e: float(np.abs(FaceNet(args.out, e, args.input_px).probabilities(check)
                             - ref).max()) for e in available_engines()}
    report_saved(args.out, diffs, start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
