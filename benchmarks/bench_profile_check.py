"""How well the enrollment check finds crops filed under the wrong face, and how often it
doubts a good one (``vision/profilecheck.py``, run by ``tableside enroll`` and by the table
when it enrolls a die from the dice the players named).

Each row draws ``--draws`` enrollments of ``--per-face`` crops per face at random from a
pool and prints:

* *good enrollments doubted*: the share of enrollments, every crop filed right, in which
  the check names at least one crop (``tableside enroll`` then asks the player to look at
  it, or to pass ``--keep-suspects``), and the share of crops it names;
* *moved crop caught*: one crop of each enrollment filed under another face at random
  (a photo in the wrong folder, a YOLO class off by one, a die named wrongly at the table):
  the share in which that crop is named;
* *tray crop caught*: one crop replaced by a die-sized crop of a photo's empty tray: the
  share in which it is named.

A second table enrolls SeaFall at the table as ``tableside serve`` does (10 named dice a
face from synthetic trays of mixed colours, cut as :func:`table_crops` cuts them, the
first 5 of each kept, with or without the check's doubted dice left out first:
``DiceReaders.start_profile``), cleanly and with a slip (the first standard and the first
blank named each other's face), and reads 40 synthetic trays (8 of seed 11 and 16 of seed
99 drawn flat, 16 of seed 99 in perspective; 480 dice) with each profile, for ``--seeds``
enrollments. A third enrolls each colour's set from its own dice (5 named a face) and reads
16 trays of that set alone (:func:`one_set_each`), as a table with one box of dice does.

Pools: the d6 faces enrolled as symbols (as the enrolled reader is measured), from the
train and val photos of ``../shared/datasets/d6-photos`` (label mistakes known in train
left out; test not read), each crop cut as ``enroll --photos`` cuts it; and synthetic
SeaFall crops cut as the table cuts the dice its players name (:func:`table_crops`), one
pool per body colour of the renderer (a set of alike dice, as SeaFall's 15 are) and one of
its colours mixed. Tray crops are cut beside the labelled dice of the d6 photos. Takes
about twelve minutes.

    .venv/bin/python benchmarks/bench_profile_check.py [--draws 200] [--per-face 3 5 10] \\
        [--seeds 6]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.vision.helpers import table_crops  # noqa: E402
from tests.vision.test_vision_enrollment import score_synthetic  # noqa: E402
from vision import profilecheck  # noqa: E402
from vision.crops import crop  # noqa: E402
from vision.detection import detection_like, to_work  # noqa: E402
from vision.enroll import crops_from_photos, label_file, read_yolo  # noqa: E402
from vision.enrollment import Profile  # noqa: E402
from vision.faces import D6_FACES, SEAFALL_FACES  # noqa: E402
from vision.imagefile import read_file  # noqa: E402
from vision.reader import DiceReader  # noqa: E402
from vision.synthetic import BODY_COLOURS, BODY_NAMES  # noqa: E402
from vision.training.label_errors import LABEL_ERRORS  # noqa: E402
from vision.training.photos import split_photos  # noqa: E402

TRAY = "tray"
"""The label the pool's crops of the empty tray are kept under (never a die's face)."""


class Pool:
    """Crops cut once, as a profile cuts them (:meth:`Profile.from_crops`; ``as_read``:
    the reader's own crops, kept as they are), from which profiles are drawn
    (:meth:`Profile.only`): dice of each face, and crops of the empty tray. ``owners`` and
    ``trays`` index the pool's crops, grouped face by face."""

    def __init__(self, faces: Sequence[str], crops: list[np.ndarray], owners: list[int],
                 trays: Sequence[np.ndarray] = (), as_read: bool = False) -> None:
        self.faces = tuple(faces)
        grouped = {f: [c for c, o in zip(crops, owners, strict=True) if o == i]
                   for i, f in enumerate(self.faces)}
        self.every = Profile.from_crops("bench", "bench", {**grouped, TRAY: list(trays)},
                                        as_read=as_read)
        self.crops = self.every.crops
        self.owners = self.every.owners
        self.trays = list(np.flatnonzero(self.owners == len(self.faces)))

    def profile(self, rows: Sequence[int], owners: Sequence[int]) -> Profile:
        """The pool's crops ``rows``, filed under the faces ``owners``."""
        return replace(self.every.only(rows), labels=self.faces,
                       owners=np.asarray(owners, np.int32))


def d6_pool(split: str) -> Pool:
    """The split's labelled dice, and die-sized crops of its empty tray."""
    crops, owners, trays = [], [], []
    for path in split_photos(split):
        for face, items in crops_from_photos([path], D6_FACES, wrong_labels=LABEL_ERRORS).items():
            crops += items
            owners += [D6_FACES.index(face)] * len(items)
        image = read_file(path).image
        work = to_work(image)
        boxes = [b for _, b in read_yolo(label_file(path), image.shape[1], image.shape[0])]
        x, y, w, h = boxes[0]
        for dx, dy in ((3, 0), (-3, 0), (0, 3), (0, -3), (2, 2), (-2, -2)):
            nx, ny = x + dx * w, y + dy * h
            inside = 0 <= nx and 0 <= ny and nx + w <= image.shape[1] and ny + h <= image.shape[0]
            if inside and all(abs(nx - bx) >= 1.5 * w or abs(ny - by) >= 1.5 * h
                              for bx, by, _, _ in boxes):
                trays.append(crop(work.image, detection_like((nx, ny, w, h), work.scale)))
                break
    return Pool(D6_FACES, crops, owners, trays)


def seafall_pool(per_face: int, trays: Sequence[np.ndarray],
                 body: tuple[int, int, int] | None = None) -> Pool:
    crops = table_crops(seed=5, per_face=per_face, body=body)
    return Pool(SEAFALL_FACES, [c for f in SEAFALL_FACES for c in crops[f]],
                [i for i, f in enumerate(SEAFALL_FACES) for _ in crops[f]], trays,
                as_read=True)


def named(pool: Pool, rows: Sequence[int], owners: Sequence[int]) -> set[int]:
    """Places (in ``rows``) of the crops the check names."""
    return {c.index for c in profilecheck.suspects(profilecheck.check(pool.profile(rows, owners)))}


def row(pool: Pool, per_face: int, draws: int, seed: int = 1,
        ) -> tuple[float, float, float, float]:
    rng = random.Random(seed)
    doubted_enrollments = doubted_crops = crops = moved = tray_caught = 0
    for _ in range(draws):
        rows, owners = [], []
        for f in range(len(pool.faces)):
            rows += rng.sample(list(np.flatnonzero(pool.owners == f)), per_face)
            owners += [f] * per_face
        doubted = named(pool, rows, owners)
        doubted_enrollments += bool(doubted)
        doubted_crops += len(doubted)
        crops += len(rows)
        k = rng.randrange(len(rows))
        refiled = list(owners)
        refiled[k] = rng.choice([f for f in range(len(pool.faces)) if f != owners[k]])
        moved += k in named(pool, rows, refiled)
        with_tray = list(rows)
        with_tray[k] = rng.choice(pool.trays)
        tray_caught += k in named(pool, with_tray, owners)
    return (100 * doubted_enrollments / draws, 100 * doubted_crops / crops,
            100 * moved / draws, 100 * tray_caught / draws)


TRAYS = ((11, 8, 0.0), (99, 16, 0.0), (99, 16, 0.02))
"""(seed, trays, top_shift) of the synthetic trays each table-made profile reads."""


def at_the_table(seeds: int) -> None:
    """Right and silent reads of profiles made at the table, with and without the check."""
    totals: dict[tuple[str, str], list[int]] = {}
    for seed in range(7, 7 + 12 * seeds, 12):
        named = table_crops(seed=seed, per_face=10)
        slipped = {f: list(v) for f, v in named.items()}
        slipped["blank"][0], slipped["standard"][0] = named["standard"][0], named["blank"][0]
        for case, crops in (("clean", named), ("a slip", slipped)):
            every = Profile.from_crops("bench", "seafall", crops, as_read=True)
            kept, _ = profilecheck.trusted(every)
            for how, chosen in (("all named", every), ("doubted left out", kept)):
                reader = DiceReader("seafall", profile=chosen.first(5))
                for s, n, shift in TRAYS:
                    got = score_synthetic(reader, seed=s, photos=n, top_shift=shift)
                    t = totals.setdefault((case, how), [0, 0, 0])
                    t[0] += got["dice"]
                    t[1] += got["right"]
                    t[2] += got["silent"]
    print(f"\nSeaFall enrolled at the table, {seeds} enrollments, each reading 40 trays")
    print(f"{'named':<8} {'profile from':<18} {'read sure and right':>20} {'silent errors':>14}")
    for (case, how), (dice, right, silent) in totals.items():
        print(f"{case:<8} {how:<18} {100 * right / dice:>19.1f}% {silent:>14}")


def one_set_each(seeds: int) -> None:
    """Right and silent reads of each colour's set, enrolled at the table from its own dice
    (5 named a face, the table's first profile) and reading trays of that set alone."""
    print(f"\nSeaFall sets enrolled at the table, {seeds} enrollments a set, each reading "
          "16 trays of 15 dice of the set (8 drawn flat, 8 in perspective)")
    print(f"{'set':<8} {'dice':>6} {'found':>7} {'read sure and right':>20} "
          f"{'silent errors':>14} {'false boxes':>12}")
    for name, body in zip(BODY_NAMES, BODY_COLOURS, strict=True):
        t = {"dice": 0, "found": 0, "right": 0, "silent": 0, "false": 0}
        for seed in range(7, 7 + 12 * seeds, 12):
            profile = Profile.from_crops("bench", "seafall", table_crops(seed, 5, body),
                                         as_read=True)
            reader = DiceReader("seafall", profile=profile)
            for trays, shift in ((101, 0.0), (202, 0.02)):
                got = score_synthetic(reader, seed=trays, photos=8, top_shift=shift,
                                      body=body, dice=15)
                t = {k: t[k] + got[k] for k in t}
        print(f"{name:<8} {t['dice']:>6} {t['found']:>7} {100 * t['right'] / t['dice']:>19.1f}% "
              f"{t['silent']:>14} {t['false']:>12}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--draws", type=int, default=200, help="enrollments per row")
    parser.add_argument("--per-face", type=int, nargs="+", default=[3, 5, 10],
                        help="crops per face of each enrollment")
    parser.add_argument("--seeds", type=int, default=6,
                        help="enrollments at the table, and a third as many of each "
                             "colour's set (0: leave those tables out)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    train = d6_pool("train")
    trays = [train.crops[i] for i in train.trays]
    pools = [("d6 train", train), ("d6 val", d6_pool("val")),
             *((f"SeaFall {name}", seafall_pool(max(args.per_face) * 3, trays, body))
               for name, body in zip(BODY_NAMES, BODY_COLOURS, strict=True)),
             ("SeaFall mixed", seafall_pool(max(args.per_face) * 3, trays))]
    print(f"{'pool':<18} {'per face':>8} {'good enrollments doubted':>25} {'crops doubted':>14} "
          f"{'moved crop caught':>18} {'tray crop caught':>17}")
    for name, pool in pools:
        for per_face in args.per_face:
            if min(np.bincount(pool.owners)) < per_face + 1:
                continue
            e, c, m, t = row(pool, per_face, args.draws)
            print(f"{name:<18} {per_face:>8} {e:>24.1f}% {c:>13.2f}% {m:>17.1f}% {t:>16.1f}%",
                  flush=True)
    print(f"({args.draws} enrollments a row)")
    if args.seeds:
        at_the_table(args.seeds)
        one_set_each(max(1, args.seeds // 3))
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
