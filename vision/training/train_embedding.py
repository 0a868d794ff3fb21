"""Train the enrolled-face embedding (``vision/models/symbol_embed.onnx``) on synthetic dice.

No photo and no face label of any real die is used: the training set is a bank of
:data:`CLASSES` random symbols (:func:`vision.glyphs.random_glyph`: dots, rings, bars,
polygons, letters, arcs at random places; class 0 is the blank face), each drawn
:data:`RENDERS` times on a synthetic die (:func:`vision.glyphs.symbol_die_crop`: random
body, ink and tray colours, turn, sides, shadow, glint, uneven light, blur, noise), and
augmented again while training (quarter turns, colour-channel order, inversion, brightness,
contrast, shift). The network is trained as a classifier over the bank with a cosine
(CosFace) head, whose weights are thrown away: what is kept is the unit vector before the
head, so that a face never seen in training (a SeaFall symbol, a d6 pip pattern) is still
mapped close to other crops of itself.

The checkpoint kept is the last one (no selection on real dice). At the end the script
prints, for information, how well the embedding separates held-out random symbols and the
d6 val split's faces enrolled from at most 5 train crops each (the d6 test split is never
read).

``--real-dice N`` also learns from up to N unlabelled dice the detector finds in the train
photos, each crop a class of its own (no label file is read). It was tried and is off by
default: the d6 val faces' nearest-face accuracy fell from 68% to 56%.

``--real-bodies N`` draws a share (``--body-share``) of each symbol's renders on up to N
dice the detector finds in the train photos, their pips wiped off
(:func:`vision.glyphs.glyph_on_body`; no label file is read). Tried in the seventh
session and off by default: alone the embedding picked the right d6 face more often
(76% against 72%), but mixed with the ink templates it read fewer dice confidently
(``docs/vision.md``, *Custom faces*).

``--families F`` (0.8, the packaged model ``symbol-embed-3``, eighth session): each new
symbol of the bank starts a family with a chance of F/3, a family bringing about three,
so that 0.8 makes about half the bank (52%) families of near-twins
(:func:`vision.glyphs.glyph_family`: a
random base, the base with one more stroke, often a dot like one it has, and the base
less one stroke), each twin a class of its own. Trained on independent random symbols,
the embedding took a symbol and the same symbol with one more mark for one another (a 4
and a 5, a 2 and a 3, when the d6 faces are enrolled as symbols); the families teach it
that one mark makes another symbol, without any die's layout. With the ink templates, the
d6 faces enrolled from 5 crops each then read 69.9% of train and 72.4% of val
confidently at the calibrated lead, against 58.9% and 62.1% (``docs/vision.md``; the
same recipe with seed 12 read 60.9% of train, other family shares 59-65%: trainings
differ much, and the packaged one is the best of five on train and val).

``--marked-sides P`` and ``--streaks P`` (fifteenth session, off by default): a share of
the renders at a steeper slant with a side face in view carrying another symbol, and a
share of the glints drawn as thin streaks (:func:`vision.glyphs.symbol_die_crop`), the
two kinds of dice the enrolled reader reads silently wrong. With them the d6 faces enrolled
as symbols read 80.4-80.8% of train confidently at the rule's margin (0.155) against 83.0%
at 0.14 (``docs/vision-history.md``).

``--classes``, ``--renders`` and ``--width`` (thirty-third session): the bank's size, the
renders a symbol and the network's channels. 4,000 symbols and 10,000 steps, and the same
1.5 times as wide, made the embedding alone pick the right d6 face for 88.6% and 91.3% of
train against 83.4%, but mixed with the ink templates the reader read no more dice sure
(``docs/vision-history.md``, *Thirty-third session*), so the packaged model stays.

Needs the ``train`` extra (PyTorch). Fixed seeds; about twelve minutes on one core::

    .venv/bin/python -m vision.training.train_embedding [--steps 3000] [--threads 1] \
        [--families 0.8]

(1,500 steps, the first model ``symbol-embed-1``: enrolled synthetic SeaFall dice read 63 of
96 confidently right against 70 with 3,000; the d6 faces enrolled as symbols read the
same.)
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
from torch.nn import functional as F  # noqa: N812 - the usual name

from vision.crops import CROP_PX
from vision.embedding import DIM, INPUT_PX, MODEL_PATH, SymbolEmbedder
from vision.facenet import prepare
from vision.glyphs import (
    Glyph,
    glyph_family,
    glyph_on_body,
    random_dots,
    random_glyph,
    symbol_die_crop,
)
from vision.onnxmodel import available_engines
from vision.synthetic import blank_faces
from vision.training.common import conv_block, report_saved, seeded

ROOT = Path(__file__).resolve().parents[2]
DATASET = ROOT.parent / "shared" / "datasets" / "d6-photos" / "data"
CLASSES = 1000
RENDERS = 16
SCALE, MARGIN = 20.0, 0.3
"""CosFace head: logit scale and the margin taken off the true class's cosine."""


def bank(rng: np.random.Generator, n: int, dots: float = 0.0,
         families: float = 0.0) -> list[Glyph]:
    """``n`` distinct-enough symbols: the blank face first, then non-blank random ones (a
    share ``dots`` of them random scatters of alike dots, :func:`random_dots`; a new symbol
    starts a family of near-twins, :func:`glyph_family`, with a chance of ``families``/3,
    so that 0.8 puts about half the bank in families)."""
    out = [Glyph(())]
    while len(out) < n:
        if families and rng.random() < families / 3:  # a family brings about three
            out.extend(g for g in glyph_family(rng) if g not in out)
            continue
        g = random_dots(rng) if dots and rng.random() < dots else random_glyph(rng)
        if g.strokes:
            out.append(g)
    return out[:n]


def render_bank(glyphs: list[Glyph], renders: int, rng: np.random.Generator,
                trays: np.ndarray | None = None, translucent: float = 0.0,
                bodies: np.ndarray | None = None, body_share: float = 0.0,
                marked_sides: float = 0.0, streaks: float = 0.0) -> np.ndarray:
    """``(len(glyphs), renders, CROP_PX, CROP_PX, 3)`` uint8 crops: about ``body_share``
    of each symbol's renders drawn on real dice bodies (``bodies``, :func:`real_dice`),
    the rest on synthetic dice."""
    out = np.empty((len(glyphs), renders, CROP_PX, CROP_PX, 3), np.uint8)
    on_bodies = bodies is not None and len(bodies) > 0
    for i, g in enumerate(glyphs):
        for j in range(renders):
            if on_bodies and rng.random() < body_share:
                body = bodies[int(rng.integers(len(bodies)))]
                out[i, j] = glyph_on_body(rng, g, body)
            else:
                out[i, j] = symbol_die_crop(rng, g, CROP_PX, trays, translucent,
                                            marked_sides, streaks)
    return out


def real_trays(limit: int, rng: np.random.Generator) -> np.ndarray:
    """Up to ``limit`` patches of empty tray floor cut from the train photos (scaled as
    :func:`vision.glyphs.symbol_die_crop`'s canvas), ``(n, 2*CROP_PX, 2*CROP_PX, 3)``:
    where the detector finds no die nearby. No label file is read."""
    from vision.detection import WORK_DIE_PX, expected_die_px, to_work
    from vision.dicefinder import default_dice_finder

    paths = sorted((DATASET / "images" / "train").glob("*.jpg"))
    out: list[np.ndarray] = []
    side = int(1.6 * WORK_DIE_PX)  # the canvas spans ~1.6 dice
    for path in paths[::4]:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        work = to_work(image).image
        found = [b for b, _ in default_dice_finder().find(work, expected_die_px(work.shape))]
        h, w = work.shape[:2]
        for _ in range(12):
            x, y = int(rng.integers(0, w - side)), int(rng.integers(0, h - side))
            if all(x + side < bx - 4 or bx + bw + 4 < x or y + side < by - 4
                   or by + bh + 4 < y for bx, by, bw, bh in found):
                out.append(cv2.resize(work[y : y + side, x : x + side],
                                      (2 * CROP_PX, 2 * CROP_PX),
                                      interpolation=cv2.INTER_LINEAR))
                if len(out) >= limit:
                    return np.stack(out)
    return np.stack(out) if out else np.zeros((0, 2 * CROP_PX, 2 * CROP_PX, 3), np.uint8)


def real_dice(limit: int, wipe: np.random.Generator | None = None) -> np.ndarray:
    """Up to ``limit`` reader crops of dice the detector finds in the train photos,
    ``(n, CROP_PX, CROP_PX, 3)``; no label file is read. With ``wipe`` (the generator
    :func:`vision.synthetic.blank_faces` draws from), their marks are wiped off first:
    real bodies, sides, shadows and light to draw random symbols on (``--real-bodies``).
    Without, each crop becomes a class of its own (``--real-dice``), so the network learns
    what varies between two looks at one real die."""
    from vision.crops import crop
    from vision.detection import detection_like, expected_die_px, to_work
    from vision.dicefinder import default_dice_finder

    out = []
    for path in sorted((DATASET / "images" / "train").glob("*.jpg")):
        work = to_work(cv2.imread(str(path), cv2.IMREAD_COLOR)).image
        found = [box for box, _ in default_dice_finder().find(work, expected_die_px(work.shape))]
        if wipe is not None and found:
            work = work.copy()
            blank_faces(work, np.array(found), wipe, share=1.0)
        for box in found:
            out.append(crop(work, detection_like(box, 1.0)))
            if len(out) >= limit:
                return np.stack(out)
    return np.stack(out) if out else np.zeros((0, CROP_PX, CROP_PX, 3), np.uint8)


def augment(c: np.ndarray, rng: np.random.Generator, turn: bool = False) -> np.ndarray:
    if turn:  # any angle, and a little scale (one real crop per class)
        m = cv2.getRotationMatrix2D((CROP_PX / 2, CROP_PX / 2), float(rng.uniform(0, 360)),
                                    float(rng.uniform(0.9, 1.1)))
        c = cv2.warpAffine(c, m, (CROP_PX, CROP_PX), borderMode=cv2.BORDER_REPLICATE)
        if rng.random() < 0.3:
            c = cv2.GaussianBlur(c, (0, 0), float(rng.uniform(0.4, 1.2)))
    c = np.rot90(c, int(rng.integers(4)))
    if rng.random() < 0.5:
        c = c[..., rng.permutation(3)]
    x = c.astype(np.float32)
    if rng.random() < 0.15:
        x = 255 - x
    x = x * rng.uniform(0.7, 1.3) + rng.uniform(-30, 30)
    dx, dy = rng.normal(0, 2.0, 2)
    m = np.float32([[1, 0, dx], [0, 1, dy]])
    x = cv2.warpAffine(np.ascontiguousarray(x), m, (CROP_PX, CROP_PX),
                       borderMode=cv2.BORDER_REPLICATE)
    return np.clip(x, 0, 255).astype(np.uint8)


class EmbedCNN(nn.Module):
    """Five 3x3 conv layers (16-32-48-64-96 channels times ``width``, pooled from 32 to
    4 px), global average pooling and a linear map to DIM numbers: about 110k weights at
    width 1."""

    def __init__(self, width: float = 1.0) -> None:
        super().__init__()
        c = [max(1, round(n * width)) for n in (16, 32, 48, 64, 96)]
        self.features = nn.Sequential(
            *conv_block(3, c[0]), nn.MaxPool2d(2),
            *conv_block(c[0], c[1]), nn.MaxPool2d(2),
            *conv_block(c[1], c[2]), *conv_block(c[2], c[3]), nn.MaxPool2d(2),
            *conv_block(c[3], c[4]), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
            nn.Linear(c[4], DIM),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.features(x)


def nearest_accuracy(vectors: np.ndarray, labels: np.ndarray, enroll: np.ndarray) -> float:
    """Share of non-enrolled vectors whose nearest enrolled vector has their label."""
    q = ~enroll
    sims = vectors[q] @ vectors[enroll].T
    return float((labels[enroll][sims.argmax(1)] == labels[q]).mean())


def held_out(model: nn.Module, rng: np.random.Generator) -> float:
    """Nearest-neighbour accuracy over 6 new symbols, 5 enrolled crops each, 4 turns each."""
    model.eval()
    glyphs = bank(rng, 7)[1:]
    crops = render_bank(glyphs, 15, rng)
    flat = [np.rot90(c, k) for cs in crops for c in cs for k in range(4)]
    labels = np.repeat(np.arange(len(glyphs)), 15 * 4)
    enroll = np.tile(np.repeat(np.arange(15) < 5, 4), len(glyphs))
    with torch.no_grad():
        v = F.normalize(model(torch.from_numpy(prepare(flat, INPUT_PX))), dim=1).numpy()
    model.train()
    return nearest_accuracy(v, labels, enroll)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=160)
    parser.add_argument("--max-minutes", type=float, default=40.0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--classes", type=int, default=CLASSES,
                        help="random symbols in the bank, each a class")
    parser.add_argument("--renders", type=int, default=RENDERS,
                        help="synthetic dice drawn per symbol")
    parser.add_argument("--width", type=float, default=1.0,
                        help="the network's channels times this")
    parser.add_argument("--real-dice", type=int, default=0,
                        help="also learn from up to N unlabelled dice found in the train photos")
    parser.add_argument("--real-share", type=float, default=0.25)
    parser.add_argument("--dots", type=float, default=0.0,
                        help="share of the symbol bank that is random dot scatters")
    parser.add_argument("--families", type=float, default=0.8,
                        help="3 x the chance that a new symbol starts a family of near-twins "
                             "one stroke apart (0.8: about half the bank in families)")
    parser.add_argument("--translucent", type=float, default=0.0,
                        help="share of renders on translucent dice")
    parser.add_argument("--real-trays", type=int, default=0,
                        help="up to N empty-tray patches from the train photos as floors")
    parser.add_argument("--real-bodies", type=int, default=0,
                        help="draw symbols on up to N dice of the train photos, marks wiped")
    parser.add_argument("--body-share", type=float, default=0.5,
                        help="share of each symbol's renders drawn on those bodies")
    parser.add_argument("--marked-sides", type=float, default=0.0,
                        help="share of renders at a steeper slant, a side face in view "
                             "carrying another symbol")
    parser.add_argument("--streaks", type=float, default=0.0,
                        help="share of glints drawn as thin streaks")
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    args = parser.parse_args(argv)
    rng = seeded(args.seed, args.threads)
    start = time.monotonic()
    glyphs = bank(rng, args.classes, args.dots, args.families)
    trays = real_trays(args.real_trays, rng) if args.real_trays else None
    if trays is not None:
        print(f"real tray patches: {len(trays)}", flush=True)
    bodies = real_dice(args.real_bodies, wipe=rng) if args.real_bodies else None
    if bodies is not None:
        print(f"real dice bodies: {len(bodies)}", flush=True)
    crops = render_bank(glyphs, args.renders, rng, trays, args.translucent, bodies, args.body_share,
                        args.marked_sides, args.streaks)
    print(f"bank: {args.classes} symbols x {args.renders} renders "
          f"in {time.monotonic() - start:.0f} s", flush=True)
    real = (real_dice(args.real_dice) if args.real_dice
            else np.zeros((0, CROP_PX, CROP_PX, 3), np.uint8))[:, None]
    n_classes = args.classes + len(real)
    print(f"real dice (unlabelled, one class each): {len(real)}", flush=True)
    model = EmbedCNN(args.width)
    head = nn.Parameter(torch.randn(n_classes, DIM) * 0.1)
    print(f"model: {sum(p.numel() for p in model.parameters())} parameters", flush=True)
    opt = torch.optim.AdamW([*model.parameters(), head], lr=3e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=args.steps,
                                                pct_start=0.1)
    eval_rng = np.random.default_rng(args.seed + 1)
    total = 0.0
    for step in range(1, args.steps + 1):
        n_real = int(round(args.batch * args.real_share)) if len(real) else 0
        cls = rng.integers(args.classes, size=args.batch - n_real)
        idx = rng.integers(args.renders, size=len(cls))
        picked = [augment(crops[c, j], rng) for c, j in zip(cls, idx, strict=True)]
        rcls = rng.integers(len(real), size=n_real) if n_real else np.zeros(0, np.int64)
        picked += [augment(real[c, 0], rng, turn=True) for c in rcls]
        x = torch.from_numpy(prepare(picked, INPUT_PX))
        y = torch.from_numpy(np.concatenate([cls, args.classes + rcls]).astype(np.int64))
        emb = F.normalize(model(x), dim=1)
        cos = emb @ F.normalize(head, dim=1).T
        logits = SCALE * (cos - MARGIN * F.one_hot(y, n_classes))
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        total += loss.item()
        minutes = (time.monotonic() - start) / 60
        last = step == args.steps or minutes > args.max_minutes
        if step % 250 == 0 or last:
            acc = held_out(model, eval_rng)
            print(f"step {step} loss {total / 250:.3f} held-out symbols nearest {acc:.3f} "
                  f"({minutes:.1f} min)", flush=True)
            total = 0.0
        if last:
            if minutes > args.max_minutes:
                print("time budget reached", flush=True)
            break
    model.eval()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 3, INPUT_PX, INPUT_PX), str(args.out),
                      dynamo=False, input_names=["crops"], output_names=["embedding"],
                      dynamic_axes={"crops": {0: "n"}, "embedding": {0: "n"}}, opset_version=13)
    check = [crops[i, 0] for i in range(32)]
    with torch.no_grad():
        ref = F.normalize(model(torch.from_numpy(prepare(check, INPUT_PX))), dim=1).numpy()
    diffs = {e: np.abs(SymbolEmbedder(args.out, e).embed(check) - ref).max()
             for e in available_engines()}
    report_saved(args.out, diffs, start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
