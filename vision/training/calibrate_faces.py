"""Place the face network's uncertainty rule on out-of-fold reads of the train photos.

Val is too small and too easy to place the rule (the network read all its found dice
right), and the train photos cannot place it with the network trained on them (it has
learned them). So the train photos are cut into ``--folds`` folds (photo index modulo the
fold count, as ``train_pips --folds K --fold k`` leaves them out); a network trained
without fold *k* reads fold *k*'s photos exactly as the reader does, and each found die's
crop is scored in all eight views (:data:`vision.facenet.VIEWS`). The result is a table
of candidate rules: the plain threshold on the top probability, and the view-agreement
check (a die read differently in any view, or whose mean probability over the views is
low, is uncertain), with the read accuracy and silent errors each gives over all
out-of-fold dice (about 1,450: each rule's silent errors are counted die by die, so a
rule with no silent error here is evidence at the 0.1% level that val is not). Val, read
by the packaged model, is shown beside it. The test split is never read.

    .venv/bin/python -m vision.training.train_pips --threads 1 --folds 3 --fold 0 \\
        --out /tmp/fold0.onnx        # and --fold 1, --fold 2 (same seed as the model)
    .venv/bin/python -m vision.training.calibrate_faces --models /tmp/fold{}.onnx

``--save FILE.npz`` keeps the per-die probabilities (labels, views) for further study.

``--quick-models /tmp/quick{}.onnx`` (fold networks of the quick first look, each taught
by the fold network of the same fold: ``train_pips --width 1.0 --teacher /tmp/fold0.onnx
--folds 3 --fold 0 --out /tmp/quick0.onnx``) adds the table that places
:data:`vision.pipnets.QUICK_SURE`: per threshold, the share of dice the quick look reads
alone, the reads and silent errors of the two together, and how many dice it reads
otherwise than the face network under the reader's rule would.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.facenet import CLASSES, INPUT_PX, NOT_A_DIE, VIEWS, FaceNet
from vision.faces import D6_FACES
from vision.pipnets import (
    NET_CHECK_BELOW,
    NET_UNCERTAIN_BELOW,
    NET_VIEWS,
    NET_VIEWS_MEAN,
    NET_WIDE_MEAN,
    QUICK_SURE,
)
from vision.reader import DiceReader
from vision.training.label_errors import LABEL_ERRORS
from vision.training.photos import found_dice, in_fold, split_photos

NONE = CLASSES.index(NOT_A_DIE)


def mislabelled(labels: np.ndarray, views: np.ndarray, names: list[str]) -> np.ndarray:
    """Dice in :data:`LABEL_ERRORS` read otherwise at 0.8 or more (a label mistake)."""
    plain = views[:, 0, :NONE]
    return np.array([(n, D6_FACES[lab]) in LABEL_ERRORS and p.argmax() != lab
                     and p.max() >= 0.8 for n, lab, p in zip(names, labels, plain,
                                                              strict=True)], bool)


def rule_table(labels: np.ndarray, views: np.ndarray, wrong_label: np.ndarray | None = None,
               wide: np.ndarray | None = None) -> list[tuple[str, float, float, float]]:
    """(rule, accuracy %, silent %, uncertain %) over the dice for the candidate rules
    ``floor / check below / views [agree] / mean``: a die is uncertain below the floor;
    one read from the floor to the check is read again in that many views and uncertain
    unless its face's mean probability over them is at least the mean (and, with
    ``agree``, every view reads that face). Dice marked in ``wrong_label`` are left out.

    With ``wide`` (the wider crops' views, ``(N, VIEWS, classes)``), the kept rule is
    also shown with the reader's second look: a die it leaves uncertain is read sure when
    its wider crop's likeliest face has a mean probability over the views of at least
    the row's figure.

    ``views`` is ``(N, VIEWS, classes)``; view 0 is the crop as the reader sees it."""
    if wrong_label is not None:
        labels, views = labels[~wrong_label], views[~wrong_label]
        wide = None if wide is None else wide[~wrong_label]
    n = max(len(labels), 1)
    faces = views[:, :, :NONE]
    plain = faces[:, 0]
    face = plain.argmax(1)
    top = plain.max(1)
    out = []

    def add(name: str, uncertain: np.ndarray) -> None:
        right = (~uncertain) & (face == labels)
        silent = (~uncertain) & (face != labels)
        out.append((name, 100 * right.sum() / n, 100 * silent.sum() / n,
                    100 * uncertain.sum() / n))

    for t in (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98):
        add(f"top >= {t}", top < t)
    # per number of views: do they all read the plain read's face, and its mean over them
    agree = {k: (faces[:, :k].argmax(2) == face[:, None]).all(1) for k in (2, 4, 8)}
    mean = {k: faces[:, :k].mean(1)[np.arange(len(face)), face] for k in (2, 4, 8)}
    for u in (0.5, 0.6, 0.7):
        for c in (0.85, 0.9, 0.95):
            # dice read at c or more are not looked at again (the reader's speed)
            checked = (top >= u) & (top < c)
            for k in (2, 4, 8):
                for m in (0.5, 0.6, 0.65, 0.7):
                    add(f"{u} / {c} / {k} views agree / {m}",
                        (top < u) | (checked & (~agree[k] | (mean[k] < m))))
                    add(f"{u} / {c} / {k} views / {m}", (top < u) | (checked & (mean[k] < m)))
    if wide is not None:
        for t in (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9):
            face, uncertain = kept_reads(views, wide, t)
            right = (~uncertain) & (face == labels)
            silent = (~uncertain) & (face != labels)
            out.append((f"kept + wider second look / {t}", 100 * right.sum() / n,
                        100 * silent.sum() / n, 100 * uncertain.sum() / n))
    return out


def kept_reads(views: np.ndarray, wide: np.ndarray, wide_mean: float = NET_WIDE_MEAN
               ) -> tuple[np.ndarray, np.ndarray]:
    """(face, uncertain) of each die under the reader's rule, its second look (at
    ``wide_mean``) included, from its crop's and its wider crop's views (each ``(N, VIEWS,
    classes)``)."""
    faces = views[:, :, :NONE]
    face, top = faces[:, 0].argmax(1), faces[:, 0].max(1)
    mean = faces[:, :NET_VIEWS].mean(1)[np.arange(len(face)), face]
    checked = (top >= NET_UNCERTAIN_BELOW) & (top < NET_CHECK_BELOW)
    uncertain = (top < NET_UNCERTAIN_BELOW) | (checked & (mean < NET_VIEWS_MEAN))
    second = wide[:, :, :NONE].mean(1)
    sure = uncertain & (second.max(1) >= wide_mean)
    return np.where(sure, second.argmax(1), face), uncertain & ~sure


QUICK_CANDIDATES = (0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99)


def quick_table(labels: np.ndarray, views: np.ndarray, wide: np.ndarray, quick: np.ndarray,
                wrong_label: np.ndarray | None = None
                ) -> list[tuple[str, float, float, float, float, int]]:
    """(quick look at, share it reads %, accuracy %, silent %, uncertain %, dice read
    otherwise than by the face network alone) for candidate QUICK_SURE thresholds, the
    quick first look's probabilities ``quick`` (``(N, classes)``) taken where its likeliest
    face reaches the threshold and the reader's rule (:func:`kept_reads`) elsewhere."""
    if wrong_label is not None:
        keep = ~wrong_label
        labels, views, wide, quick = labels[keep], views[keep], wide[keep], quick[keep]
    n = max(len(labels), 1)
    face, uncertain = kept_reads(views, wide)
    q_face, q_top = quick[:, :NONE].argmax(1), quick[:, :NONE].max(1)
    out = []
    for t in QUICK_CANDIDATES:
        taken = q_top >= t
        f = np.where(taken, q_face, face)
        u = uncertain & ~taken
        otherwise = int((taken & (uncertain | (q_face != face))).sum())
        out.append((f"quick look at {t}", 100 * taken.sum() / n,
                    100 * ((~u) & (f == labels)).sum() / n,
                    100 * ((~u) & (f != labels)).sum() / n, 100 * u.sum() / n, otherwise))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=3)
    parser.add_argument("--models", default="/tmp/fold{}.onnx",
                        help="path of fold k's network, {} standing for k")
    parser.add_argument("--val-model", type=Path, default=None,
                        help="network for the val column (default: the packaged one)")
    parser.add_argument("--input-px", type=int, default=INPUT_PX,
                        help="input side of the fold networks (train_pips --input-px)")
    parser.add_argument("--quick-models", default=None,
                        help="path of fold k's quick first look ({} standing for k): "
                             "prints the table that places QUICK_SURE")
    parser.add_argument("--save", type=Path, default=None)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    n_photos = len(split_photos("train"))
    labels: list[int] = []
    views: list[np.ndarray] = []
    wides: list[np.ndarray] = []
    names: list[str] = []
    quick: list[np.ndarray] = []
    for k in range(args.folds):
        net = FaceNet(args.models.format(k), input_px=args.input_px)
        reader = DiceReader("d6", face_net=net)
        photos = [i for i in range(n_photos) if in_fold(i, args.folds, k)]
        lab, crops, wide, nm = found_dice(reader, "train", photos)
        labels += lab
        names += nm
        views.append(net.view_probabilities(crops, VIEWS))
        wides.append(net.view_probabilities(wide, VIEWS))
        if args.quick_models:
            quick.append(FaceNet(args.quick_models.format(k)).probabilities(crops))
        print(f"fold {k}: {len(photos)} photos, {len(lab)} dice found", flush=True)
    oof_labels, oof_views = np.array(labels), np.concatenate(views)
    oof_wide = np.concatenate(wides)
    val_net = (FaceNet(args.val_model, input_px=args.input_px) if args.val_model
               else FaceNet())
    vl, vc, vw, vn = found_dice(DiceReader("d6", face_net=val_net), "val")
    val_labels, val_views = np.array(vl), val_net.view_probabilities(vc, VIEWS)
    val_wide = val_net.view_probabilities(vw, VIEWS)
    if args.save:
        np.savez_compressed(args.save, oof_labels=oof_labels, oof_views=oof_views,
                            oof_wide=oof_wide, oof_names=np.array(names),
                            val_labels=val_labels, val_views=val_views, val_wide=val_wide,
                            val_names=np.array(vn),
                            oof_quick=np.concatenate(quick) if quick else np.zeros((0,)))
    wrong_label = mislabelled(oof_labels, oof_views, names)
    print(f"label mistakes left out: {int(wrong_label.sum())}")
    oof = rule_table(oof_labels, oof_views, wrong_label, oof_wide)
    val = rule_table(val_labels, val_views, wide=val_wide)
    print(f"{'rule':<36} {'out-of-fold train (' + str(int((~wrong_label).sum())) + ' dice)':>34}"
          f" {'val (' + str(len(val_labels)) + ' dice)':>28}")
    print(f"{'':<36} {'accuracy%':>11} {'silent%':>10} {'uncert%':>10}"
          f" {'accuracy%':>10} {'silent%':>8} {'uncert%':>8}")
    for (name, a, s, u), (_, va, vs, vu) in zip(oof, val, strict=True):
        print(f"{name:<36} {a:>11.2f} {s:>10.2f} {u:>10.2f} {va:>10.2f} {vs:>8.2f} {vu:>8.2f}")
    if quick:
        print(f"quick first look (QUICK_SURE, packaged {QUICK_SURE}), the reader's rule "
              "elsewhere:")
        print(f"{'':<24} {'read by it%':>12} {'accuracy%':>10} {'silent%':>8} "
              f"{'uncert%':>8} {'read otherwise':>15}")
        for name, share, a, s_, u, other in quick_table(
                oof_labels, oof_views, oof_wide, np.concatenate(quick), wrong_label):
            print(f"{name:<24} {share:>12.2f} {a:>10.2f} {s_:>8.2f} {u:>8.2f} {other:>15}")
    wrong = np.flatnonzero(oof_views[:, 0, :NONE].argmax(1) != oof_labels)
    print("out-of-fold dice read wrong (photo, label, read, top, views agree):")
    for i in wrong:
        f = oof_views[i, :, :NONE]
        print(f"  {names[i]} {D6_FACES[oof_labels[i]]} -> {D6_FACES[f[0].argmax()]} "
              f"{f[0].max():.2f} {int((f.argmax(1) == f[0].argmax()).sum())}/{VIEWS}"
              + (" (label mistake)" if wrong_label[i] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
