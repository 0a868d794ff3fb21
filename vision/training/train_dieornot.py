"""Train the die-or-not check (``vision/models/die_or_not.onnx``) for dice read by a profile.

The packaged d6 face network has a *none* class, but it learned dice from pip dice only: a
SeaFall die's blank face, or its wheel, bar or star, is *none* to it, as a grey disc on
the tray is. Custom-face dice are found by the body detector (``dice_bodies.onnx``,
:mod:`vision.training.train_detector` with ``--blank``: it learned dice with their marks
wiped off too, so it finds a blank face), which also takes round grey blobs on a tray for
dice. This network tells the two apart: a die, whatever its face shows or does not show,
against anything else a detector may report.

Samples (each the reader's 64 px crop, :func:`vision.training.train_pips.render`):

* **die**: every labelled die of the d6 train photos (around its label box and around the
  packaged detector's box for it), each also with its marks wiped off (inpainted from the
  body around them, :func:`vision.training.train_detector.blank_faces`); and the dice of
  ``--synthetic`` synthetic SeaFall trays (:func:`vision.synthetic.tray_photo`, every face,
  random die size, floors from black felt to a light tray: :data:`DARKEST_TRAY`);
* **not a die**: the packaged detector's and the body detector's detections that match no
  labelled die, random tray patches, tray patches with drawn junk (coins, print, pencils,
  fingertips), and the body detector's detections on the synthetic trays that match no die,
  their random tray patches and patches with junk drawn on (:data:`TRAY_JUNK`).

With ``--floors`` a share of the photos' samples (either class) is learned again on a
darker floor (:func:`on_darker_floor`), as the body detector learns them.

Val is the d6 val photos' samples and synthetic trays of other seeds; the epoch kept is
the best on val (a die lost weighs as much as a false detection kept). The d6 test split
is never read. Needs the ``train`` extra (PyTorch)::

    .venv/bin/python -m vision.training.train_detector --blank 0.3 --floors 0.5 \\
        --out vision/models/dice_bodies.onnx        # first: the body detector
    .venv/bin/python -m vision.training.train_dieornot --floors 0.5 [--epochs 24] [--threads 1]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from vision.boxes import centre_in
from vision.detection import BOX_TO_DIE, detection_like, expected_die_px, to_work
from vision.dicefinder import DiceFinder
from vision.dieornot import BODIES_PATH, INPUT_PX, MODEL_PATH, DieOrNot
from vision.enroll import read_yolo
from vision.facenet import prepare
from vision.onnxmodel import available_engines
from vision.reading import Box
from vision.synthetic import blank_faces, random_faces, tray_photo
from vision.training.common import fit, report_saved, seeded
from vision.training.photos import DATASET, split_photos
from vision.training.samples import Sample, label_box, on_darker_floor
from vision.training.train_pips import (
    NONE,
    FaceCNN,
    _junk,
    _patch,
    extract,
    render,
)

NOT, DIE = 0, 1


def wiped(s: Sample, rng: np.random.Generator) -> Sample:
    """The sample's die with the marks of its top face wiped off (within its label box)."""
    patch = s.patch.copy()
    blank_faces(patch, label_box(s), rng, share=1.0)
    return Sample(patch, s.side, DIE, s.photo)


FLOOR_CHANCE = 0.0
"""Share of the d6 photos' samples (dice and non-dice alike) that are also learned on a
darker floor (``--floors``). The photos' floors are all light; on darker ones the check
dropped real dice that the body detector trained with ``--floors`` had found (the val
photos repainted a grey of 72: 200 of 204 boxed, 153 kept; twenty-ninth session). The
packaged check is trained at 0.5, and keeps 199 of them."""


TRAY_PATCHES = 6
"""Random tray patches per photo or synthetic tray, besides :func:`extract`'s."""


def tray_patches(image: np.ndarray, boxes: list[Box], side: float, rng: np.random.Generator,
                 n: int = TRAY_PATCHES, junk: bool = False) -> list[Sample]:
    """Up to ``n`` die-sized patches of tray away from every die (``boxes``, with sides);
    with ``junk``, each with a coin, token, print, pencil or fingertip drawn on it
    (:func:`vision.training.train_pips._junk`)."""
    h, w = image.shape[:2]
    out = []
    for _ in range(n * 5):
        if len(out) == n:
            break
        cx, cy = rng.uniform(side, w - side), rng.uniform(side, h - side)
        if all(abs(cx - (b[0] + b[2] / 2)) > 0.9 * max(b[2], side)
               or abs(cy - (b[1] + b[3] / 2)) > 0.9 * max(b[3], side) for b in boxes):
            s = side * rng.uniform(0.7, 1.3)
            patch, pside = _patch(image, (round(cx - s / 2), round(cy - s / 2),
                                          round(s), round(s)))
            if junk:
                _junk(patch, pside, rng)
            out.append(Sample(patch, pside, NOT))
    return out


def body_detections(split: str, finder: DiceFinder, rng: np.random.Generator
                    ) -> list[Sample]:
    """The body detector's detections in a split's photos that match no labelled die, and
    more random tray patches."""
    out = []
    for index, path in enumerate(split_photos(split)):
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        work = to_work(image)
        small = work.image
        labels = [tuple(round(v * work.scale) for v in b) for _, b in read_yolo(
            DATASET / "labels" / split / (path.stem + ".txt"), image.shape[1], image.shape[0])]
        for found, _ in finder.find(small, expected_die_px(small.shape)):
            if not any(centre_in(lb, found) for lb in labels):
                out.append(Sample(*_patch(small, detection_like(found, 1.0)), NOT, index))
        if labels:
            side = float(np.median([max(b[2], b[3]) for b in labels])) * BOX_TO_DIE
            out += tray_patches(small, labels, side, rng)
    return out


DARKEST_TRAY = 20
"""Least grey of the synthetic trays' floors (each drawn from this to 230, then tinted;
``--darkest-tray``). 60 until the thirty-seventh session: the check had then seen no floor
darker than about 40, and on a black one (a grey of 30) it gave a fifth of red and blue
SeaFall dice 0.3-0.4, under :data:`vision.dieornot.DIE_FROM` (``bench_tray_floors.py``:
198 and 201 of 240 found; from 20, 236 and 234, and the d6 photos read by a profile the
same to the die)."""


TRAY_JUNK = 2
"""Patches of each synthetic tray with junk drawn on it (``--tray-junk``), as the photos'
:func:`vision.training.train_pips.extract` draws on theirs. 0 until the thirty-eighth
session: the check had seen coins and tokens on the photos' light floors only (their
darker repaints paint over what is not a die), and kept a plain disc of a die's size on
a floor of mid grey or darker as a die (a pale one 5 of 6 times on mid grey, 6 of 6 on
dark grey and black; ``docs/vision-history.md``, *Coins on dark floors*)."""


def synthetic(seeds: range, finder: DiceFinder, darkest: int = DARKEST_TRAY,
              junk: int = TRAY_JUNK) -> list[Sample]:
    """Dice and non-dice of synthetic SeaFall trays (one tray per seed, drawn from it; the
    floor's grey from ``darkest`` to 230; ``junk`` patches of each with junk drawn on)."""
    out = []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        die_px = int(rng.integers(30, 60))
        tray = tuple(int(v) for v in rng.integers(darkest, 230) + rng.integers(-20, 20, 3))
        photo = tray_photo(rng, random_faces(rng, int(rng.integers(6, 13))), die_px=die_px,
                           tray=tray)
        image = photo.image
        for d in photo.dice:
            out.append(Sample(*_patch(image, detection_like(d.box, 1.0)), DIE, seed))
        for found, _ in finder.find(image, float(die_px)):
            if not any(centre_in(d.box, found) for d in photo.dice):
                out.append(Sample(*_patch(image, detection_like(found, 1.0)), NOT, seed))
        out += tray_patches(image, [d.box for d in photo.dice], die_px * BOX_TO_DIE, rng, 3)
        if junk:  # (no draw at 0: the same stream as before)
            out += tray_patches(image, [d.box for d in photo.dice], die_px * BOX_TO_DIE, rng,
                                junk, junk=True)
    return out


def samples(split: str, rng: np.random.Generator, finder: DiceFinder,
            seeds: range, floors: float = FLOOR_CHANCE,
            darkest: int = DARKEST_TRAY, junk: int = TRAY_JUNK) -> list[Sample]:
    """Every sample of a split of the d6 photos, and of the synthetic trays ``seeds``; a
    ``floors`` share of the photos' samples again on a darker floor."""
    out = []
    for s in extract(split, rng):
        if s.label == NONE:
            out.append(Sample(s.patch, s.side, NOT, s.photo))
        else:
            out.append(Sample(s.patch, s.side, DIE, s.photo))
            out.append(wiped(s, rng))
    out += body_detections(split, finder, rng)
    if floors > 0:  # (no draw at 0: the same stream as before)
        out += [on_darker_floor(s, rng, s.label == DIE) for s in out
                if rng.random() < floors]
    return out + synthetic(seeds, finder, darkest, junk)


def evaluate(model: nn.Module, val: list[Sample]) -> tuple[float, float]:
    """(share of dice kept, share of non-dice dropped) without augmentation."""
    model.eval()
    with torch.no_grad():
        pred = model(torch.from_numpy(prepare([render(s, None) for s in val], INPUT_PX)))
    p = pred.argmax(1).numpy()
    y = np.array([s.label for s in val])
    return float((p[y == DIE] == DIE).mean()), float((p[y == NOT] == NOT).mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=24)
    parser.add_argument("--copies", type=int, default=2, help="augmented copies per epoch")
    parser.add_argument("--synthetic", type=int, default=300,
                        help="synthetic SeaFall trays to learn from")
    parser.add_argument("--max-minutes", type=float, default=30.0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--width", type=float, default=1.0,
                        help="channels of every layer times this (1: 16-32-48-48-96)")
    parser.add_argument("--bodies", type=Path, default=BODIES_PATH,
                        help="the body detector whose false detections are learned")
    parser.add_argument("--floors", type=float, default=FLOOR_CHANCE,
                        help="share of the photos' samples also learned on a darker floor")
    parser.add_argument("--darkest-tray", type=int, default=DARKEST_TRAY,
                        help="least grey of the synthetic trays' floors (0-229)")
    parser.add_argument("--tray-junk", type=int, default=TRAY_JUNK,
                        help="patches of each synthetic tray with a coin, token, print, "
                             "pencil or fingertip drawn on")
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    args = parser.parse_args(argv)
    if not 0 <= args.darkest_tray < 230:
        parser.error("--darkest-tray must be from 0 to 229")
    if args.tray_junk < 0:
        parser.error("--tray-junk must be 0 or more")
    rng = seeded(args.seed, args.threads)
    start = time.monotonic()
    finder = DiceFinder(args.bodies)
    train = samples("train", rng, finder, range(args.synthetic), args.floors, args.darkest_tray,
                    args.tray_junk)
    val = samples("val", rng, finder, range(10_000, 10_040), args.floors, args.darkest_tray,
                  args.tray_junk)
    counts = np.bincount([s.label for s in train], minlength=2)
    print(f"samples: train {len(train)} (not {counts[NOT]}, die {counts[DIE]}), val "
          f"{len(val)}; made in {time.monotonic() - start:.0f} s", flush=True)
    model = FaceCNN(classes=2, width=args.width)
    print(f"model: {sum(p.numel() for p in model.parameters())} parameters", flush=True)
    def score() -> tuple[float, str]:
        kept, dropped = evaluate(model, val)
        return kept + dropped, f"val dice kept {kept:.4f} non-dice dropped {dropped:.4f}"

    # the classes are weighted to count alike, whatever their numbers
    weight = torch.tensor(counts.sum() / (2.0 * np.maximum(counts, 1)), dtype=torch.float32)
    fit(model, train,
        lambda chunk: torch.from_numpy(prepare([render(s, rng) for s in chunk], INPUT_PX)),
        lambda s: s.label, rng, epochs=args.epochs, copies=args.copies,
        loss_fn=nn.CrossEntropyLoss(weight=weight, label_smoothing=0.05),
        max_minutes=args.max_minutes, evaluate=score)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 3, INPUT_PX, INPUT_PX), str(args.out),
                      dynamo=False, input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=13)
    check = [render(s, None) for s in val[:64]]
    with torch.no_grad():
        ref = model(torch.from_numpy(prepare(check, INPUT_PX))).softmax(1).numpy()[:, DIE]
    diffs = {e: float(np.abs(DieOrNot(args.out, e).probabilities(check) - ref).max())
             for e in available_engines()}
    report_saved(args.out, diffs, start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
