"""How the roll tracker tells a die nudged from a die of another face (vision.rolls).

A die knocked a little way and turned as the hand picks up its neighbours is the same die
(:func:`vision.rolls.nudge_likeness` at least :data:`vision.rolls.NUDGE_LIKENESS`); a die
of another face lying there is not. On the labelled real photos in tests/vision/photos
(each photo's dice pasted on its empty tray, as the rolls tests build their frames), each
die is, ``--trials`` times: knocked 0.15-0.8 of its size and turned up to 25 degrees, or
replaced by a die of another face of the photo turned up to 45 degrees; the frame gets
sensor noise, JPEG at quality 85 and up to 8% more or less light, and the new box is off
the die by a twentieth of its size. Prints the likenesses of both, by the die's middle and
by its whole box (:data:`vision.rolls.NUDGE_WHOLE`), and the time of one comparison; then
the same with both frames cut so that the die lay against the frame's edge, half the time
in a corner (only the pixels the frame holds are compared,
:data:`vision.rolls.NUDGE_IN_FRAME`). Then synthetic SeaFall trays (a third of ``--trays``,
12 dice each, one body colour a tray, half of them drawn with the dice's sides in view),
each die knocked and replaced 3 times the same way, by face: a blank face's plain middle
often fails the bar, its whole box seldom, which is why the tracker lays the whole box over
a die read sure as the face it showed; and every face again against the frame's edge. Then
SeaFall's dice, all alike: two synthetic trays of 15 thrown independently (``--trays``
pairs, each of one body colour), every die of the second within a die of a die of the
first, by their faces: a die of the same face passes for it, often, which is why nudges are
looked for only while most of the last roll's dice lie in place
(:data:`vision.rolls.NUDGE_AMONG`).

    .venv/bin/python benchmarks/bench_still_dice.py [--trials 6] [--seed 0] [--trays 60]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.vision.helpers import (  # noqa: E402
    DrawnPhoto,
    Photo,
    against_edge,
    as_shot,
    dice_laid,
    die_patches,
    empty_tray,
    labelled_photos,
)
from vision.boxes import centre  # noqa: E402
from vision.rolls import NUDGE_LIKENESS, NUDGE_WHOLE, nudge_likeness, settled_grey  # noqa: E402
from vision.synthetic import BODY_COLOURS, tray_photo  # noqa: E402

Likenesses = dict[str, list[float]]
"""Likenesses by what lay in the place and how it was laid over: "same" (the die knocked)
or "other" (another face), each by its "middle" or "whole" box: "same middle", ..."""


def likenesses(photos: list[Photo], trials: int, seed: int,
               ms: list[float] | None = None, edge: bool = False) -> dict[str, Likenesses]:
    """By the knocked die's face, :data:`Likenesses` of its place after it was knocked or
    replaced; ``ms`` gets the time of each comparison by the die's middle. With ``edge``
    both frames are cut so that the die lay against the frame's edge
    (:func:`tests.vision.helpers.against_edge`)."""
    rng = np.random.default_rng(seed)
    out: dict[str, Likenesses] = {}
    for p in photos:
        empty, patches = empty_tray(p), die_patches(p)
        before = settled_grey(dice_laid(p, {}, empty, patches))
        for k, (x, y, w, h) in enumerate(p.boxes):
            size = max(w, h)
            others = [i for i, f in enumerate(p.faces) if f != p.faces[k]]
            for _ in range(trials):
                d, heading = rng.uniform(0.15, 0.8) * size, rng.uniform(0, 2 * np.pi)
                dx, dy = int(d * np.cos(heading)), int(d * np.sin(heading))
                for knocked in (True, False):
                    if not knocked and not others:
                        continue
                    if knocked:
                        move = (dx, dy, rng.uniform(-25, 25), None)
                    else:
                        move = (dx, dy, rng.uniform(-45, 45),
                                int(others[rng.integers(len(others))]))
                    frame = as_shot(dice_laid(p, {k: move}, empty, patches), rng,
                                    rng.uniform(0.92, 1.08))
                    now = settled_grey(frame)
                    off = rng.normal(0, 0.05 * size, 2).astype(int)
                    box = (x + dx + int(off[0]), y + dy + int(off[1]), w, h)
                    old, first = (x, y, w, h), before
                    if edge:  # 0-0.1 of a die from the edge, half the time in a corner
                        corner = rng.random() < 0.5
                        gaps = tuple(int(rng.uniform(0, 0.1) * size)
                                     for _ in range(2 if corner else 1))
                        (first, now), left, top = against_edge((before, now), old, (dx, dy),
                                                               gaps)
                        old, box = (x - left, y - top, w, h), (box[0] - left, box[1] - top, w, h)
                    start = time.perf_counter()
                    value = nudge_likeness(first, now, old, box)
                    if ms is not None:
                        ms.append((time.perf_counter() - start) * 1000)
                    whole = nudge_likeness(first, now, old, box, NUDGE_WHOLE)
                    kind = "same" if knocked else "other"
                    face = out.setdefault(p.faces[k], {})
                    face.setdefault(f"{kind} middle", []).append(value)
                    face.setdefault(f"{kind} whole", []).append(whole)
    return out


def pooled(by_face: dict[str, Likenesses]) -> Likenesses:
    """Every face's likenesses together."""
    out: Likenesses = {}
    for values in by_face.values():
        for key, v in values.items():
            out.setdefault(key, []).extend(v)
    return out


SEAFALL_FACES = ("blank", "blank", "standard", "standard", "weak", "strong")
"""A SeaFall die's six faces (RULES-FACTS: 2 blank, 2 standard, 1 weak, 1 strong)."""


def seafall_trays(trays: int, seed: int) -> list[DrawnPhoto]:
    """Synthetic SeaFall trays of 12 dice at 960x720, one body colour each, every other one
    drawn with the dice's sides in view."""
    rng = np.random.default_rng(seed)
    return [DrawnPhoto.of(tray_photo(rng, [SEAFALL_FACES[i] for i in rng.integers(0, 6, 12)],
                                     body=BODY_COLOURS[t % len(BODY_COLOURS)],
                                     top_shift=0.02 if t % 2 else 0.0))
            for t in range(trays)]


def seafall_near(trays: int, seed: int) -> dict[str, list[float]]:
    """Likenesses of the dice of one synthetic SeaFall throw to the dice of another lying
    within a die of them, by face pair ("blank", ..., or "other faces")."""
    rng = np.random.default_rng(seed)
    out: dict[str, list[float]] = {}
    for t in range(trays):
        body = BODY_COLOURS[t % len(BODY_COLOURS)]
        throws = [tray_photo(rng, [SEAFALL_FACES[i] for i in rng.integers(0, 6, 15)], body=body)
                  for _ in range(2)]
        before, now = (settled_grey(p.image) for p in throws)
        for new in throws[1].dice:
            nx, ny = centre(new.box)
            for old in throws[0].dice:
                ox, oy = centre(old.box)
                if np.hypot(nx - ox, ny - oy) <= max(new.box[2:]):
                    key = new.face if new.face == old.face else "other faces"
                    out.setdefault(key, []).append(nudge_likeness(before, now, old.box, new.box))
    return out


def table(values: Likenesses) -> None:
    """Rows of likenesses: how many, their spread, and how many reach the bar."""
    print(f"{'die in the place':<34}{'n':>5}{'least':>8}{'1st%':>8}{'median':>8}"
          f"{'99th%':>8}{'most':>8}{'kept':>8}")
    names = {"same middle": "the die knocked, by its middle",
             "same whole": "  by its whole box",
             "other middle": "another face, by the middle",
             "other whole": "  by the whole box"}
    for key, name in names.items():
        v = np.array(values.get(key, []))
        if not len(v):
            continue
        print(f"{name:<34}{len(v):>5}{v.min():>8.3f}{np.percentile(v, 1):>8.3f}"
              f"{np.median(v):>8.3f}{np.percentile(v, 99):>8.3f}{v.max():>8.3f}"
              f"{int((v >= NUDGE_LIKENESS).sum()):>8}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=6, help="trials per die (default 6)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--trays", type=int, default=60, help="SeaFall tray pairs (default 60)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    ms: list[float] = []
    real = pooled(likenesses(labelled_photos(), args.trials, args.seed, ms))
    print(f"nudge likeness, {len(labelled_photos())} real photos, threshold {NUDGE_LIKENESS}")
    table(real)
    print(f"one comparison: median {np.median(ms):.2f} ms, p95 {np.percentile(ms, 95):.2f} ms"
          " (one thread)")
    edge_ms: list[float] = []
    print("\nthe same, each die against the frame's edge (half of them in a corner)")
    table(pooled(likenesses(labelled_photos(), args.trials, args.seed, edge_ms, edge=True)))
    print(f"one comparison: median {np.median(edge_ms):.2f} ms, "
          f"p95 {np.percentile(edge_ms, 95):.2f} ms")
    trays = seafall_trays(args.trays // 3, args.seed)
    drawn = likenesses(trays, 3, args.seed)
    for face in dict.fromkeys(SEAFALL_FACES):
        print(f"\nSeaFall {face} faces, {args.trays // 3} synthetic trays")
        table(drawn.get(face, {}))
        both = [max(a, b) for a, b in zip(drawn[face]["same middle"],
                                          drawn[face]["same whole"], strict=True)]
        print(f"{'  knocked, middle or whole (sure)':<34}{len(both):>5}"
              f"{'':>40}{sum(v >= NUDGE_LIKENESS for v in both):>8}")
    edge = pooled(likenesses(trays, 3, args.seed, edge=True))
    print(f"\nSeaFall, {args.trays // 3} synthetic trays, each die against the frame's edge")
    table(edge)
    both = [max(a, b) for a, b in zip(edge["same middle"], edge["same whole"], strict=True)]
    print(f"{'  knocked, middle or whole (sure)':<34}{len(both):>5}"
          f"{'':>40}{sum(v >= NUDGE_LIKENESS for v in both):>8}")
    near = seafall_near(args.trays, args.seed)
    print(f"\nSeaFall, {args.trays} pairs of independent throws of 15 alike dice: a die within a"
          " die of a die of the other throw")
    print(f"{'faces':<34}{'n':>5}{'median':>8}{'most':>8}{'kept':>8}")
    for name in (*dict.fromkeys(SEAFALL_FACES), "other faces"):
        v = np.array(near.get(name, [0.0]))
        print(f"{name:<34}{len(near.get(name, [])):>5}{np.median(v):>8.3f}{v.max():>8.3f}"
              f"{int((v >= NUDGE_LIKENESS).sum()):>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
