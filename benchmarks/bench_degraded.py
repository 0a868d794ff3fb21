"""The pip reader on the d6 photos as a worse camera would give them: blurred, smeared,
compressed, noisy, dark, bright, tinted.

Each photo of a split, at the reader's working size (a die about 40 px), is degraded and
read as a frame. Prints, for each degradation: read accuracy, dice found, dice read wrong
and sure (silent) and of those how many are not among the data set's known label
mistakes, dice left uncertain, and dice in frames carrying a warning (every die of which
is uncertain). The degradations (``vision.training.degradations``), at the working scale:

* ``blur S``: out of focus, a Gaussian of sigma S px (the face network is trained with
  up to about 1);
* ``motion N``: smeared sideways over N px (a camera shaken); ``motionN@A`` turned A
  degrees. The reader leaves a smeared frame's dice to the table (``vision.smear``);
  ``--no-smear-check`` reads them as the networks alone would;
* ``jpeg Q``: JPEG at quality Q (a webcam's MJPG, a photo sent small);
* ``noise S``: sensor noise of sigma S grey levels (a dim room's gain);
* ``blur+noise``, ``blur+jpeg``: the two together, as a soft lens gives them;
* ``dark G``, ``bright G``: the light times G; ``warm``, ``cold``: a lamp's tint.

This is the measure for making the reader hold up under them (the forty-seventh session
found dice read wrong and sure under blur, smear and compression: docs/vision.md,
*What a worse camera costs*). Develop on train and val only. About 2 minutes on val,
15 on train, one core::

    .venv/bin/python benchmarks/bench_degraded.py [--splits val train] [--only blur2 ...]

``--reader enrolled`` reads the same frames with the d6 faces enrolled as symbols (5 train
crops a face: ``bench_vision_accuracy``'s enrolled reader), whose smear check starts above
the direction its faces show of their own (``vision.smear.smear_from``).

A network trained otherwise (``train_pips --folds 3 --fold K [--degrade P]``) is measured
on the photos it was trained without::

    .venv/bin/python benchmarks/bench_degraded.py --faces /tmp/fold0.onnx --fold 0/3
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_vision_accuracy import score  # noqa: E402 - beside this script

from vision.facenet import FaceNet  # noqa: E402
from vision.faces import D6_FACES  # noqa: E402
from vision.reader import DiceReader  # noqa: E402
from vision.training.calibrate_enrolled import enrolled_profile  # noqa: E402
from vision.training.degradations import DEGRADATIONS, Degrade  # noqa: E402
from vision.training.photos import in_fold, labelled_frames, split_photos  # noqa: E402


def measure(frames: list, degrade: Degrade, reader: DiceReader) -> Counter[str]:
    rng = np.random.default_rng(0)
    total: Counter[str] = Counter()
    for name, frame, truth in frames:
        read = reader.read(degrade(frame, rng), name)
        total["warned"] += len(truth) if read.warnings else 0
        total.update(score(read, truth, name))
    return total


def _fold(text: str) -> tuple[int, int]:
    """``K/N`` as (K, N), for argparse."""
    try:
        k, n = (int(v) for v in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not K/N, e.g. 0/3") from None
    if not 0 <= k < n or n < 2:
        raise argparse.ArgumentTypeError(f"fold {k} of {n}: K is 0..N-1, N at least 2")
    return k, n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--splits", nargs="+", default=["val"], choices=["train", "val"])
    parser.add_argument("--only", nargs="+", choices=sorted(DEGRADATIONS), metavar="NAME",
                        help=f"some of: {', '.join(DEGRADATIONS)}")
    parser.add_argument("--no-quick-look", action="store_true",
                        help="every die read by the face network (DiceReader(quick_look=False))")
    parser.add_argument("--no-smear-check", action="store_true",
                        help="read smeared frames' dice as they look, as the networks "
                             "alone would (DiceReader(smear_check=False)): how well a "
                             "recipe holds up under smears")
    parser.add_argument("--faces", type=Path, metavar="MODEL.onnx",
                        help="read with this face network alone (no quick look), e.g. a "
                             "fold network of train_pips --folds")
    parser.add_argument("--reader", choices=["pips", "enrolled"], default="pips",
                        help="the pip reader (default), or the d6 faces enrolled as "
                             "arbitrary symbols from 5 train crops a face, as "
                             "bench_vision_accuracy's enrolled reader")
    parser.add_argument("--fold", type=_fold, metavar="K/N",
                        help="the train photos of fold K of N (those a fold network was "
                             "trained without) instead of --splits")
    args = parser.parse_args(argv)
    check = not args.no_smear_check
    if args.reader == "enrolled":
        reader = DiceReader("d6", profile=enrolled_profile(), smear_check=check)
    elif args.faces:
        reader = DiceReader("d6", face_net=FaceNet(args.faces), smear_check=check)
    else:
        reader = DiceReader("d6", quick_look=not args.no_quick_look, smear_check=check)
    if args.fold:
        k, n = args.fold
        photos = [i for i in range(len(split_photos("train"))) if in_fold(i, n, k)]
        sets = [(f"f{k}/{n}", "train", photos)]
    else:
        sets = [(split, split, None) for split in args.splits]
    print(f"{'split':<6} {'degradation':<15} {'dice':>5} {'accuracy%':>9} {'found%':>7} "
          f"{'silent':>6} {'not label mistakes':>18} {'uncertain':>9} {'warned':>6}")
    for label, split, photos in sets:
        frames = [(path.name, small, [(D6_FACES[c], b) for c, b in truth])
                  for path, small, truth in labelled_frames(split, photos)]
        for name in args.only or DEGRADATIONS:
            t = measure(frames, DEGRADATIONS[name], reader)
            n = t["dice"]
            print(f"{label:<6} {name:<15} {n:>5} {100 * t['right'] / n:>9.2f} "
                  f"{100 * t['found'] / n:>7.2f} {t['silent']:>6} {t['beyond']:>18} "
                  f"{t['uncertain']:>9} {t['warned']:>6}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
