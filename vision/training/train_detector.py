"""Train the die detector (``vision/models/dice_centres.onnx``) on the real d6 photos.

Data: ``../shared/datasets/d6-photos/data`` beside the repository (MIT, (c) 2025 Nikita
Menshikov, from photos and labels BSD-3-Clause, (c) 2019 Nell Byler), exactly these files:

* ``images/train/*.jpg`` with ``labels/train/*.txt`` (200 photos, 1,458 dice): training;
* ``images/val/*.jpg`` with ``labels/val/*.txt`` (25 photos, 204 dice): validation, used
  to pick the checkpoint to keep (recall first, then fewest false detections).

The test split is never read. The network (:class:`CentreNet`) is CenterNet-like: a
fully-convolutional net that sees the frame scaled so a die is about
:data:`vision.dicefinder.NET_DIE_PX` pixels across and outputs, at a quarter of that
resolution, a heatmap of die centres, the centre's sub-cell offset and the log of the
die's box size. Touching dice are two peaks, not one blob to split; a hand, a coin or the
tray's edge is no peak. Training crops are random 192 px windows of the photos, augmented
with flips, quarter turns, small rotations, scale (dice 11 to 24 px), colour-channel order,
brightness, contrast, gamma, blur, down-and-up sampling, noise, and drawn junk (coins,
lines, skin-coloured blobs, print) that must give no peak.

Needs the ``train`` extra (PyTorch); the reader runs the exported model with ONNX Runtime
or OpenCV only.
Fixed seeds; on one CPU core it takes about fifteen minutes::

    .venv/bin/python -m vision.training.train_detector [--steps 1600] [--threads 1]

The body detector for custom-face dice (``vision/models/dice_bodies.onnx``, see
:mod:`vision.dieornot`) is the same recipe with marks wiped off some dice::

    .venv/bin/python -m vision.training.train_detector --blank 0.3 --floors 0.5 \
        --out vision/models/dice_bodies.onnx

``--floors`` repaints the light floor of a share of the windows darker
(:func:`vision.synthetic.darker_floor`); the body detector learns so since the
twenty-ninth session (:data:`FLOOR_CHANCE`).

The detector for a wide lens (``vision/models/dice_centres_wide.onnx``, fifty-seventh
session, :data:`vision.reader.WIDE_NETS_FROM`) cuts three tenths of its windows from 300
trays of pip d6 drawn as cubes through lenses of 10-80 degrees (:func:`drawn_cubes`, their
own seeds: the photos' windows are drawn as before), and learns for longer; every 250
steps it also reports 40 other drawn trays::

    .venv/bin/python -m vision.training.train_detector --cubes 0.3 --steps 2400 \
        --max-minutes 60 --out vision/models/dice_centres_wide.onnx
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812 - the usual name

from vision.boxes import hold_each_other
from vision.cubes import random_tray
from vision.detection import DEFAULT_DIE_FRACTION
from vision.dicefinder import MODEL_PATH, NET_DIE_PX, STRIDE, DiceFinder, decode, prepare
from vision.enroll import read_yolo
from vision.onnxmodel import available_engines
from vision.synthetic import blank_faces, darker_floor
from vision.training.common import photometric, report_saved, seeded

ROOT = Path(__file__).resolve().parents[2]
DATASET = ROOT.parent / "shared" / "datasets" / "d6-photos" / "data"
STORE_DIE_PX = 26.0
"""Nominal die size at which photos are kept in memory (scaled down from there)."""
WINDOW = 192
"""Side of a training window, in network-input pixels."""


@dataclass
class Photo:
    image: np.ndarray  # BGR at STORE_DIE_PX per nominal die
    boxes: np.ndarray  # (n, 4) float x, y, w, h in image pixels


def load(split: str) -> list[Photo]:
    out = []
    for path in sorted((DATASET / "images" / split).glob("*.jpg")):
        image = cv2.imread(str(path), cv2.IMREAD_REDUCED_COLOR_2)
        full = image.shape[0] * 2
        scale = STORE_DIE_PX / (DEFAULT_DIE_FRACTION * full)
        small = cv2.resize(image, None, fx=scale * 2, fy=scale * 2, interpolation=cv2.INTER_AREA)
        labels = read_yolo(DATASET / "labels" / split / (path.stem + ".txt"), full, full)
        boxes = np.array([[v * scale for v in b] for _, b in labels], np.float32).reshape(-1, 4)
        out.append(Photo(small, boxes))
    if not out:
        raise SystemExit(f"no photos in {DATASET / 'images' / split}")
    return out


CUBE_CHANCE = 0.0
"""Share of training windows cut from trays of pip d6 drawn as cubes through a lens
(:func:`drawn_cubes`) instead of the photos; 0 (the packaged recipe) draws nothing, so
that the stream of the other draws is as before."""

CUBE_DIE_PX = 46
"""The side of a drawn die's top face under the picture's centre, in drawn pixels."""


def drawn_cubes(count: int, seed: int) -> list[Photo]:
    """``count`` trays of pip d6 drawn as cubes through lenses of 10-80 degrees
    (:func:`vision.cubes.random_tray`), each die's box its whole outline (its top and the
    sides in view), as the photos' labels box a die; scaled to :data:`STORE_DIE_PX`."""
    rng = np.random.default_rng(seed)
    k = STORE_DIE_PX / CUBE_DIE_PX
    out = []
    for _ in range(count):
        photo = random_tray(rng, CUBE_DIE_PX)
        small = cv2.resize(photo.image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        boxes = np.array([d.box for d in photo.dice], np.float32).reshape(-1, 4) * k
        out.append(Photo(small, boxes))
    return out


def _junk(img: np.ndarray, centres: np.ndarray, side: float, rng: np.random.Generator) -> None:
    """Draw one distractor (coin, line, skin blob, print) away from every die, in place."""
    h, w = img.shape[:2]
    for _ in range(10):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        if len(centres) and np.min(np.hypot(centres[:, 0] - cx, centres[:, 1] - cy)) < 1.6 * side:
            continue
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        kind = rng.integers(4)
        p = (int(cx), int(cy))
        if kind == 0:  # a coin or token
            cv2.circle(img, p, int(side * rng.uniform(0.3, 0.7)), colour, -1, cv2.LINE_AA)
        elif kind == 1:  # a cable, a tray wall, a pencil
            a = rng.uniform(0, math.pi)
            d = side * rng.uniform(1.5, 5)
            q = (int(cx + d * math.cos(a)), int(cy + d * math.sin(a)))
            cv2.line(img, p, q, colour, int(rng.integers(1, max(2, int(side * 0.4)))),
                     cv2.LINE_AA)
        elif kind == 2:  # a hand or finger: a skin-coloured blob
            skin = (int(rng.integers(60, 140)), int(rng.integers(100, 180)),
                    int(rng.integers(150, 240)))
            axes = (int(side * rng.uniform(0.8, 2.5)), int(side * rng.uniform(0.4, 1.0)))
            cv2.ellipse(img, p, axes, float(rng.uniform(0, 180)), 0, 360, skin, -1,
                        cv2.LINE_AA)
        else:  # print on a card or the tray
            text = "".join(chr(int(c)) for c in rng.integers(65, 91, int(rng.integers(2, 6))))
            cv2.putText(img, text, p, cv2.FONT_HERSHEY_SIMPLEX, side / 30 * rng.uniform(0.5, 1.2),
                        colour, int(rng.integers(1, 3)), cv2.LINE_AA)
        return


FLOOR_CHANCE = 0.0
"""Share of training windows whose floor is repainted darker
(:func:`vision.synthetic.darker_floor`); 0 (the pip-dice detector's recipe) draws nothing,
so that the stream of the other draws is as before. The body detector is trained at 0.5
(``docs/vision.md``, *Which tray floor*): it finds far more dice on darker floors (ivory
SeaFall dice on mid grey 118 of 120 against 87). Tried in the twenty-eighth session, it
was kept in the twenty-ninth, with the die-or-not check trained on darker floors too and
the dice named at the table enrolled as the reader cut them (it boxes a black die on a
dark floor tightly: cut again by the pip-dice detector, the enrolled crops were framed
more loosely, and 11 of 240 such dice were read wrong and sure). The pip-dice detector
trained at 0.5 (thirtieth session, seed 5) boxed 199 of the val photos' 204 dice on a
floor repainted a grey of 40 against 193; it is packaged as ``dice_centres_dark.onnx``,
for frames darker than :data:`vision.reader.DARK_NETS_BELOW` (``train_pips.FLOOR_CHANCE``)."""


BLANK_CHANCE = 0.0
"""Share of training windows in which some dice lose their marks
(:func:`vision.synthetic.blank_faces`).
Tried at 0.3 and 0.12 (fourth session): the detector then found SeaFall's blank faces on
synthetic trays (4-5 of 72 missed, against 18), but on the d6 photos it also took round
grey blobs (the tray's) for dice, which the enrolled reader reports (20-24 false
detections per 100 val photos, against 0), and it read val's pips no better. So the
pip-dice detector (the default, ``dice_centres.onnx``) is trained without; since the sixth
session a second detector trained with ``--blank 0.3`` (``dice_bodies.onnx``) finds
custom-face dice, and the die-or-not check (:mod:`vision.dieornot`) drops its discs."""


def sample(photo: Photo, rng: np.random.Generator, blank: float = BLANK_CHANCE,
           floors: float = FLOOR_CHANCE) -> tuple[np.ndarray, np.ndarray]:
    """An augmented WINDOW px window and its boxes (x, y, w, h in window pixels); in a
    ``blank`` share of windows some dice have their marks wiped
    (:func:`vision.synthetic.blank_faces`), in a ``floors`` share the floor is repainted
    darker (:func:`vision.synthetic.darker_floor`)."""
    k = NET_DIE_PX / STORE_DIE_PX * rng.uniform(0.7, 1.5)
    angle = rng.uniform(-15, 15) + 90 * int(rng.integers(4))
    h, w = photo.image.shape[:2]
    boxes = photo.boxes
    if len(boxes) and rng.random() < 0.8:  # centre the window near a die mostly
        b = boxes[rng.integers(len(boxes))]
        cx, cy = b[0] + b[2] / 2 + rng.normal(0, 40), b[1] + b[3] / 2 + rng.normal(0, 40)
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), angle, k)
    m[0, 2] += WINDOW / 2 - cx
    m[1, 2] += WINDOW / 2 - cy
    flip = rng.random() < 0.5
    if flip:
        m[0] = -m[0]
        m[0, 2] += WINDOW
    # past the photo's edge: its edge pixels drawn out, or a plain colour (never mirrored
    # dice, which would be dice without labels)
    border = cv2.BORDER_REPLICATE if rng.random() < 0.7 else cv2.BORDER_CONSTANT
    img = cv2.warpAffine(photo.image, m, (WINDOW, WINDOW), flags=cv2.INTER_AREA,
                         borderMode=border, borderValue=tuple(int(v) for v in
                                                              rng.integers(0, 256, 3)))
    if len(boxes):
        c = np.stack([boxes[:, 0] + boxes[:, 2] / 2, boxes[:, 1] + boxes[:, 3] / 2,
                      np.ones(len(boxes))], axis=1)
        centres = c @ m.T
        # an axis-aligned box of a die turned by a small angle: same size (quarter turns swap)
        quarter = int(round(angle / 90)) % 2 == 1
        wh = boxes[:, [3, 2]] if quarter else boxes[:, [2, 3]]
        wh = wh * k
        out = np.concatenate([centres - wh / 2, wh], axis=1)
        inside = ((centres[:, 0] >= 0) & (centres[:, 0] < WINDOW)
                  & (centres[:, 1] >= 0) & (centres[:, 1] < WINDOW))
        out = out[inside]
    else:
        out = np.zeros((0, 4), np.float32)
    if len(out) and blank > 0 and rng.random() < blank:  # (no draw at 0: the same stream)
        blank_faces(img, out, rng)
    if floors > 0 and rng.random() < floors:  # (no draw at 0: the same stream)
        darker_floor(img, out, rng)
    side = float(np.median(out[:, 2:].max(axis=1))) if len(out) else NET_DIE_PX
    centres = out[:, :2] + out[:, 2:] / 2
    for _ in range(int(rng.integers(0, 3)) if rng.random() < 0.5 else 0):
        _junk(img, centres, side, rng)
    x = photometric(img.astype(np.float32), rng, WINDOW, white_balance=True,
                    blur=(0.3, 1.2), down=(0.2, 0.5, 0.8), noise=(2, 10))
    return x, out


def targets(boxes: np.ndarray, side: int) -> np.ndarray:
    """(5, side, side): centre heatmap, x/y offset, log w/h (in cells); offset/size masked."""
    t = np.zeros((6, side, side), np.float32)
    ys, xs = np.mgrid[0:side, 0:side].astype(np.float32)
    for x, y, w, h in boxes:
        cx, cy = (x + w / 2) / STRIDE, (y + h / 2) / STRIDE
        ix, iy = int(cx), int(cy)
        if not (0 <= ix < side and 0 <= iy < side):
            continue
        sigma = max(0.5, 0.12 * max(w, h) / STRIDE)
        g = np.exp(-((xs - ix) ** 2 + (ys - iy) ** 2) / (2 * sigma**2))
        t[0] = np.maximum(t[0], g)
        t[1, iy, ix], t[2, iy, ix] = cx - ix, cy - iy
        t[3, iy, ix], t[4, iy, ix] = math.log(w / STRIDE), math.log(h / STRIDE)
        t[5, iy, ix] = 1.0
    return t


def _cbr(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> list[nn.Module]:
    return [nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
            nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]


class CentreNet(nn.Module):
    """Stride-2 conv, pool, conv (1/4 scale); pool and three convs, one dilated (1/8 scale,
    about 90 px of view: a die and its neighbours); upsampled and added back at 1/4 scale,
    one conv and a 1x1 head of five maps. About 40k weights."""

    def __init__(self) -> None:
        super().__init__()
        self.f4 = nn.Sequential(*_cbr(3, 12, 2), nn.MaxPool2d(2), *_cbr(12, 24))
        self.f8 = nn.Sequential(nn.MaxPool2d(2), *_cbr(24, 32), *_cbr(32, 32),
                                *_cbr(32, 32, dilation=2))
        self.lateral = nn.Conv2d(32, 24, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.head = nn.Sequential(*_cbr(24, 24), nn.Conv2d(24, 5, 1))
        self.head[-1].bias.data[0] = -4.0  # start from "no die anywhere"

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f4 = self.f4(x)
        return self.head(f4 + self.up(self.lateral(self.f8(f4))))


def loss_fn(out: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
    """CenterNet's focal loss on the heatmap, L1 on offsets and log sizes at centres."""
    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    g = t[:, 0]
    pos = (g >= 0.999).float()
    neg = (1 - pos) * (1 - g) ** 4
    focal = -(pos * (1 - p) ** 2 * torch.log(p) + neg * p**2 * torch.log(1 - p)).sum()
    n = pos.sum().clamp(min=1)
    mask = t[:, 5:6]
    reg = (F.l1_loss(out[:, 1:5] * mask, t[:, 1:5] * mask, reduction="sum")) / n
    return focal / n + reg


def score(found: list[np.ndarray], truth: np.ndarray) -> tuple[int, int]:
    """(dice found, false detections), a die found when each box holds the other's centre."""
    used: set[int] = set()
    hit = 0
    for b in truth:
        for i, f in enumerate(found):
            if i not in used and hold_each_other(b, f):
                used.add(i)
                hit += 1
                break
    return hit, len(found) - len(used)


def validate(model: nn.Module, val: list[Photo], thresholds: list[float]) -> list[tuple]:
    """(threshold, recall, false per 100 images) at each threshold, on whole val photos
    scaled to the nominal die size, as the reader sees them."""
    model.eval()
    k = NET_DIE_PX / STORE_DIE_PX
    dice = sum(len(p.boxes) for p in val)
    res = {t: [0, 0] for t in thresholds}
    with torch.no_grad():
        for p in val:
            img = cv2.resize(p.image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
            blob, pad = prepare(img)
            maps = model(torch.from_numpy(blob)).numpy()[0]
            for t in thresholds:
                found = [np.array(b) / k for b, _ in decode(maps, t, 1.0)]
                h, f = score(found, p.boxes)
                res[t][0] += h
                res[t][1] += f
    model.train()
    return [(t, 100 * res[t][0] / dice, 100 * res[t][1] / len(val)) for t in thresholds]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1600)
    parser.add_argument("--batch", type=int, default=24)
    parser.add_argument("--max-minutes", type=float, default=25.0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument("--blank", type=float, default=BLANK_CHANCE,
                        help="share of windows in which some dice lose their marks")
    parser.add_argument("--floors", type=float, default=FLOOR_CHANCE,
                        help="share of windows whose tray floor is repainted darker")
    parser.add_argument("--cubes", type=float, default=CUBE_CHANCE,
                        help="share of windows cut from pip d6 drawn as cubes through a "
                             "lens of 10-80 degrees, their sides in view")
    parser.add_argument("--cube-trays", type=int, default=300,
                        help="drawn trays the --cubes windows are cut from")
    args = parser.parse_args(argv)
    rng = seeded(args.seed, args.threads)
    start = time.monotonic()
    train, val = load("train"), load("val")
    print(f"photos: train {len(train)}, val {len(val)}; loaded in "
          f"{time.monotonic() - start:.0f} s", flush=True)
    cubes, cubes_val = [], []
    if args.cubes > 0:  # drawn from their own seeds: the run's stream is as before
        cubes = drawn_cubes(args.cube_trays, 9000 + args.seed)
        cubes_val = drawn_cubes(40, 9500 + args.seed)
        print(f"drawn cube trays: train {len(cubes)}, val {len(cubes_val)} "
              f"({time.monotonic() - start:.0f} s)", flush=True)
    model = CentreNet()
    print(f"model: {sum(p.numel() for p in model.parameters())} parameters", flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=4e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=4e-3, total_steps=args.steps,
                                                pct_start=0.1)
    thresholds = [0.2, 0.25, 0.3, 0.35, 0.4, 0.5]
    best: tuple[float, dict[str, torch.Tensor], float] | None = None
    side = WINDOW // STRIDE
    total = 0.0
    for step in range(1, args.steps + 1):
        xs, ts = [], []
        for _ in range(args.batch):
            drawn = args.cubes > 0 and rng.random() < args.cubes  # (no draw at 0)
            pool = cubes if drawn else train
            img, boxes = sample(pool[int(rng.integers(len(pool)))], rng, args.blank,
                                args.floors)
            blob, _ = prepare(img)
            xs.append(blob[0])
            ts.append(targets(boxes, side))
        x, t = torch.from_numpy(np.stack(xs)), torch.from_numpy(np.stack(ts))
        opt.zero_grad()
        loss = loss_fn(model(x), t)
        loss.backward()
        opt.step()
        sched.step()
        total += loss.item()
        minutes = (time.monotonic() - start) / 60
        last = step == args.steps or minutes > args.max_minutes
        if step % 250 == 0 or last:
            rows = validate(model, val, thresholds)
            # recall first; a false detection costs as much as a fifth of a point of recall
            s, thr = max((r - 0.2 * f, t) for t, r, f in rows)
            line = " ".join(f"{t}:{r:.1f}/{f:.0f}" for t, r, f in rows)
            print(f"step {step} loss {total / 250:.3f} val recall/false100 {line} "
                  f"({minutes:.1f} min)", flush=True)
            if cubes_val:
                line = " ".join(f"{t}:{r:.1f}/{f:.0f}"
                                for t, r, f in validate(model, cubes_val, thresholds))
                print(f"    drawn cubes recall/false100 {line}", flush=True)
            total = 0.0
            if step >= args.steps // 2 and (best is None or s >= best[0]):
                best = (s, {k: v.clone() for k, v in model.state_dict().items()}, thr)
        if last:
            if minutes > args.max_minutes:
                print("time budget reached", flush=True)
            break
    if best is None:
        best = (0.0, model.state_dict(), 0.3)
    model.load_state_dict(best[1])
    model.eval()
    print(f"kept: val score {best[0]:.2f} at threshold {best[2]}", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 3, 256, 448), str(args.out), dynamo=False,
                      input_names=["frame"], output_names=["maps"],
                      dynamic_axes={"frame": {2: "h", 3: "w"}, "maps": {2: "h4", 3: "w4"}},
                      opset_version=13)
    img = cv2.resize(val[0].image, None, fx=NET_DIE_PX / STORE_DIE_PX,
                     fy=NET_DIE_PX / STORE_DIE_PX, interpolation=cv2.INTER_AREA)
    blob, _ = prepare(img)
    with torch.no_grad():
        ref = model(torch.from_numpy(blob)).numpy()
    diffs = {e: np.abs(DiceFinder(args.out, engine=e).maps(blob) - ref).max()
             for e in available_engines()}
    report_saved(args.out, diffs, start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
