"""Known label mistakes in the d6 photos' train split (pure data: no PyTorch needed)."""

from __future__ import annotations

LABEL_ERRORS = frozenset({
    # (photo, label) of train dice whose label is wrong, checked by eye on the crops the
    # out-of-fold networks read confidently otherwise (each the only die with that label
    # near the network's read; the network was right every time)
    ("IMG_20191208_111919.jpg", "2"), ("IMG_20191209_095526.jpg", "3"),
    ("IMG_20191209_095555.jpg", "5"), ("IMG_20191209_100722.jpg", "6"),
    ("IMG_20191208_111246.jpg", "2"), ("IMG_20191208_112342.jpg", "2"),
    ("IMG_20191209_095439.jpg", "5"), ("IMG_20191209_100002.jpg", "2"),
    ("IMG_20191209_095954.jpg", "2"),
})
"""Found by :mod:`vision.training.calibrate_faces`; a die read wrong at 0.8 or more whose
(photo, label) is here is counted as a label mistake, not as a silent error."""
