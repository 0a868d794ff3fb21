"""Hands told from skin-coloured trays, tables and light (vision.hands, vision.settle).

Wood, cork and a light tray under a warm lamp are skin-coloured to a camera. For each of a
few surroundings (``vision.surroundings``: wooden floors, a wooden table round the tray,
with and without the empty tray's check, a warm lamp), prints:

* **rolls**: the recorded roll sequences of the checked-in photos (``tests/vision``'s
  ``roll_sequence``: a hand reaches in, the dice tumble, the tray is still), fed to a
  settle detector at 10 frames a second, then 12 s more of the still tray: how many were
  read once, as they should be, and how long after the last die stopped the read came
  (median, seconds; the detector waits ``settle_seconds``, 0.4 s);
* **still hand**: after that, a hand held still in the tray for 3 s: in how many
  sequences it was seen (no read, the tray's state ``hand`` at the end);
* **leaning in**: a second throw after the first settled, the player leaning over the
  table meanwhile (``leaning_shadow``: 30% deep over the near third of the tray, its
  penumbra 2% of the frame wide): how long after the dice stopped it was read (median
  and most, seconds; a shadow taken for a hand holds it 10 s);
* **photos, hand said**: single photos read with no stream (the reader's own check):
  how many of the d6 photos without a hand (249 of 250; with ``--quick`` the 6 checked-in
  ones) were said to hold a hand, by skin colour alone (before this check) and by
  :func:`vision.hands.hand_fraction`; and whether the real photo of a hand holding a die
  was.

Takes about eleven minutes on one core (2026-11-30)::

    .venv/bin/python benchmarks/bench_hands.py [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.vision.helpers import (  # noqa: E402
    ManualClock,
    empty_tray,
    hand,
    labelled_photos,
    leaning_shadow,
    roll_sequence,
)
from vision.hands import HAND_SHARE, hand_fraction, largest_share, skin_mask, small_colour  # noqa: E402
from vision.settle import SettleDetector, TrayState  # noqa: E402
from vision.surroundings import LAMPS, WOODS, lamp_light, wooden_border, wooden_floor  # noqa: E402

DATASET = ROOT.parent / "shared" / "datasets" / "d6-photos" / "data"
HAND_PHOTO = "IMG_20191208_112623.jpg"
"""The real photo of a hand holding a die over the tray."""
FPS = 10
STILL_AFTER = 120
"""Frames of the still tray after each sequence (12 s: past the 10 s after which still
skin colour is taken into the tray, vision.settle.STILL_SKIN_SECONDS)."""

Change = Callable[[np.ndarray], np.ndarray]


def surroundings() -> list[tuple[str, Change, bool]]:
    """(name, what it does to a frame, whether the detector has the empty tray's check)."""
    pine, oak = WOODS["pine"], WOODS["oak"]
    out: list[tuple[str, Change, bool]] = [("as shot", lambda f: f, False),
                                           ("as shot, checked", lambda f: f, True)]
    out += [(f"{name} floor", lambda f, c=colour: wooden_floor(f, c), False)
            for name, colour in WOODS.items()]
    out += [(name, lambda f, c=cast: lamp_light(f, c), False) for name, cast in LAMPS.items()]
    out += [("oak table round", lambda f: wooden_border(f, oak), False),
            ("oak table round, checked", lambda f: wooden_border(f, oak), True),
            ("pine floor and table", lambda f: wooden_border(wooden_floor(f, pine), oak), False)]
    return out


def colour_alone(image: np.ndarray) -> bool:
    """The check before vision.hands: the largest skin-coloured patch over 1%."""
    ycrcb = cv2.cvtColor(small_colour(image), cv2.COLOR_BGR2YCrCb)
    return largest_share(skin_mask(ycrcb)) > HAND_SHARE


def rolls(change: Change, checked: bool) -> tuple[int, int, list[float], int]:
    """(sequences, read once, seconds from the last motion to the read, still hands seen)."""
    count = once = seen = 0
    delays: list[float] = []
    for p in labelled_photos():
        if p.path.name == HAND_PHOTO:
            continue
        frames, final = roll_sequence(p, moved=set(range(len(p.faces))))
        still = change(final)
        sequence = [change(f) for f in frames[:-8]] + [still] * STILL_AFTER
        background = change(empty_tray(p)) if checked else None
        detector = SettleDetector(clock=ManualClock(), background=background)
        decisions = [detector.update(f, timestamp=i / FPS) for i, f in enumerate(sequence)]
        reads = [i for i, d in enumerate(decisions) if d.read_now]
        count += 1
        once += len(reads) == 1
        if reads:
            delays.append((reads[0] - (len(frames) - 8)) / FPS)
        held = change(hand(final, 0.45))
        start = len(sequence)
        after = [detector.update(held, timestamp=(start + i) / FPS) for i in range(3 * FPS)]
        seen += not any(d.read_now for d in after) and after[-1].state is TrayState.HAND
    return count, once, delays, seen


LEANING_PENUMBRA = 0.02
"""The leaning player's shadow's penumbra, a share of the frame's width."""


def leaning(change: Change, checked: bool) -> list[float]:
    """Seconds from the last die stopping to the read, a second throw each sequence, the
    player's shadow over the tray from the hand's first frame on (None: no read)."""
    delays: list[float] = []
    for p in labelled_photos():
        if p.path.name == HAND_PHOTO:
            continue
        frames, final = roll_sequence(p, moved=set(range(len(p.faces))))
        background = change(empty_tray(p)) if checked else None
        detector = SettleDetector(clock=ManualClock(), background=background)
        first = [change(f) for f in frames] + [change(final)] * 10
        for i, f in enumerate(first):
            detector.update(f, timestamp=i / FPS)
        again, thrown = roll_sequence(p, moved=set(range(len(p.faces))), offset=(-40, 30),
                                      start=final)
        shade = [leaning_shadow(change(f), LEANING_PENUMBRA) for f in again[3:-8]]
        sequence = [change(f) for f in again[:3]] + shade
        sequence += [leaning_shadow(change(thrown), LEANING_PENUMBRA)] * STILL_AFTER
        start, stopped = len(first), len(first) + len(again) - 8
        reads = [start + i for i, f in enumerate(sequence)
                 if detector.update(f, timestamp=(start + i) / FPS).read_now]
        delays.append((reads[0] - stopped) / FPS if reads else float("inf"))
    return delays


def photo_paths(quick: bool) -> list[Path]:
    if quick or not DATASET.is_dir():
        return [p.path for p in labelled_photos()]
    return sorted((DATASET / "images").glob("*/*.jpg"))


def photos(change: Change, paths: list[Path]) -> tuple[int, int, int, bool]:
    """(photos without a hand, said to hold one by colour alone, and by vision.hands;
    whether the real hand was seen)."""
    plain = alone = now = 0
    hand_seen = False
    for path in paths:
        image = change(cv2.imread(str(path), cv2.IMREAD_REDUCED_COLOR_4))
        said = hand_fraction(image) > HAND_SHARE
        if path.name == HAND_PHOTO:
            hand_seen = said
            continue
        plain += 1
        alone += colour_alone(image)
        now += said
    return plain, alone, now, hand_seen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="single photos: the checked-in ones only, not the d6 set")
    args = parser.parse_args(argv)
    paths = photo_paths(args.quick)
    print(f"{'surroundings':<26} {'rolls read once':>15} {'read after s':>12} "
          f"{'still hand seen':>15} {'leaning in: read after s':>24} "
          f"{'photos, hand said: colour alone / now':>38} {'real hand':>9}")
    for name, change, checked in surroundings():
        count, once, delays, seen = rolls(change, checked)
        shaded = leaning(change, checked)
        plain, alone, now, hand_seen = photos(change, paths)
        delay = f"{statistics.median(delays):.1f}" if delays else "-"
        lean = f"{statistics.median(shaded):.1f} / {max(shaded):.1f}"
        print(f"{name:<26} {f'{once} of {count}':>15} {delay:>12} {f'{seen} of {count}':>15} "
              f"{lean:>24} {f'{alone} / {now} of {plain}':>38} "
              f"{'seen' if hand_seen else 'not seen':>9}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
