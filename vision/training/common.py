"""What the training scripts share: the photometric augmentation of a training image and
the conv-batchnorm-relu block of the small crop networks. Training only (needs torch)."""

from __future__ import annotations

import cv2
import numpy as np
from torch import nn


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
