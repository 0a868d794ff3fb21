"""What the training scripts share: the photometric augmentation of a training image, the
conv-batchnorm-relu block of the small crop networks, their training loop and the report
of an exported model. Training only (needs torch)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np
import torch
from torch import nn

T = TypeVar("T")


def seeded(seed: int, threads: int) -> np.random.Generator:
    """Start a reproducible run: PyTorch seeded and held to ``threads``, OpenCV to one
    thread; the run's NumPy generator."""
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    cv2.setNumThreads(1)
    return np.random.default_rng(seed)


def photometric(x: np.ndarray, rng: np.random.Generator, side: int, *,
                white_balance: bool, blur: tuple[float, float],
                down: tuple[float, float, float], noise: tuple[float, float]) -> np.ndarray:
    """A float image (``side`` x ``side``) as another camera and light might show it: channels
    swapped (dice of other colours), contrast and brightness, optionally a white-balance
    shift, gamma, blur (``blur`` = sigma range), a lower resolution scaled back up
    (``down`` = chance, lowest and highest factor) and sensor noise (``noise`` = sigma
    range). The random draws come in a fixed order, so a seeded run is reproducible."""
    if rng.random() < 0.5:
        x = np.ascontiguousarray(x[..., rng.permutation(3)])
    x = x * rng.uniform(0.6, 1.4) + rng.uniform(-40, 40)
    if white_balance:
        x = x + rng.uniform(-15, 15, 3)
    if rng.random() < 0.3:
        x = 255.0 * (np.clip(x, 0, 255) / 255.0) ** rng.uniform(0.6, 1.6)
    if rng.random() < 0.3:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(*blur))
    if rng.random() < down[0]:
        f = rng.uniform(down[1], down[2])
        small = cv2.resize(x, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        x = cv2.resize(small, (side, side), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.4:
        x = x + rng.normal(0, rng.uniform(*noise), x.shape)
    return np.clip(x, 0, 255).astype(np.uint8)


def conv_block(cin: int, cout: int) -> list[nn.Module]:
    """3x3 convolution (no bias), batch norm, ReLU."""
    return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True)]


def fit(model: nn.Module, train: list[T], step_input: Callable[[list[T]], torch.Tensor],
        label: Callable[[T], int], rng: np.random.Generator, *, epochs: int, copies: int,
        loss_fn: nn.Module, max_minutes: float,
        evaluate: Callable[[], tuple[float, str]]) -> None:
    """Train a crop classifier as the face network and the die-or-not check are trained:
    each epoch ``copies`` shuffled passes over ``train`` in batches of 128 (the input made
    by ``step_input``, augmented), AdamW under a one-cycle schedule; after each epoch
    ``evaluate()`` gives a score and a line to print. The best-scoring epoch's weights (the
    later one on a tie) are loaded at the end; a run past ``max_minutes`` stops early."""
    steps_per_epoch = math.ceil(len(train) * copies / 128)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=3e-3, total_steps=epochs * steps_per_epoch, pct_start=0.15)
    best: tuple[float, dict[str, torch.Tensor]] | None = None
    start = time.monotonic()
    for epoch in range(epochs):
        model.train()
        order = [train[i] for i in rng.permutation(len(train) * copies) % len(train)]
        total = 0.0
        for b in range(steps_per_epoch):
            chunk = order[b * 128 : (b + 1) * 128]
            if not chunk:
                break
            x = step_input(chunk)
            y = torch.tensor([label(s) for s in chunk])
            opt.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(chunk)
        score, line = evaluate()
        if best is None or score >= best[0]:
            best = (score, {k: v.clone() for k, v in model.state_dict().items()})
        minutes = (time.monotonic() - start) / 60
        print(f"epoch {epoch + 1:>3} loss {total / len(order):.3f} {line} ({minutes:.1f} min)",
              flush=True)
        if minutes > max_minutes:
            print("time budget reached", flush=True)
            break
    assert best is not None
    model.load_state_dict(best[1])
    model.eval()


def report_saved(out: Path, diffs: dict[str, float], start: float) -> None:
    """Print where a model was saved and how far each engine's outputs are from PyTorch's
    (the exported model must give what PyTorch gives, through each engine the reader
    uses)."""
    print(f"saved {out} ({out.stat().st_size / 1024:.0f} KiB); vs PyTorch, max diff "
          + ", ".join(f"{e} {d:.2e}" for e, d in diffs.items())
          + f"; total {time.monotonic() - start:.0f} s")
