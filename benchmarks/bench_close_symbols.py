"""Photos of custom-face dice taken close: drawn SeaFall dice read with and without the
photo's check for dice read in pieces (``vision.dicescale.in_pieces``).

For each of ``--profiles`` drawn SeaFall profiles (5 synthetic crops a face, seeds
``--seed`` on), drawn trays at 960x720 with dice at each of ``--times`` the framing
default's size (at 1: ``--trays`` x 2.5 trays of 6-12 dice; larger: ``--trays`` trays of
2-8 dice, fewer as they grow), read by the profile without the check (a camera's frame)
and with it (``size_search``: a photo). Prints, per size, the dice, the boxes read sure
and right, sure and wrong (a die read in pieces gives several), and the trays warned.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.detection import DEFAULT_DIE_FRACTION  # noqa: E402
from vision.dicescale import IN_PIECES  # noqa: E402
from vision.enrollment import Profile  # noqa: E402
from vision.reader import DiceReader  # noqa: E402
from vision.synthetic import enrolment_crops, random_faces, tray_photo  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--profiles", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2, help="the first profile's seed")
    parser.add_argument("--trays", type=int, default=12)
    parser.add_argument("--times", type=float, nargs="+",
                        default=[1.0, 1.3, 1.6, 2.0, 2.5, 3.3])
    args = parser.parse_args(argv)
    print(f"{'dice x default':<15}{'dice':>6}{'sure+right':>16}{'sure+wrong':>16}"
          f"{'trays warned':>16}")
    print(f"{'':<15}{'':>6}{'without / with':>16}{'without / with':>16}{'with':>16}")
    for times in args.times:
        dice = 0
        counts = np.zeros((2, 3), int)  # without / with: right, wrong, warned
        for seed in range(args.seed, args.seed + args.profiles):
            profile = Profile.from_crops(f"drawn-{seed}", "seafall",
                                         enrolment_crops(np.random.default_rng(seed), 5))
            readers = [DiceReader("seafall", profile=profile, size_search=s)
                       for s in (False, True)]
            rng = np.random.default_rng(100 + seed)
            trays = args.trays if times > 1 else int(args.trays * 2.5)
            for _ in range(trays):
                k = (max(2, min(8, int(8 / times ** 1.5))) if times > 1
                     else int(rng.integers(6, 13)))
                photo = tray_photo(rng, random_faces(rng, k), size=(960, 720),
                                   die_px=int(DEFAULT_DIE_FRACTION * 720 * times))
                dice += len(photo.dice)
                for row, reader in enumerate(readers):
                    read = reader.read(photo.image)
                    counts[row, 2] += any(getattr(w, "key", "") == IN_PIECES.key
                                          for w in read.warnings)
                    for die in read.dice:
                        cx, cy = die.box[0] + die.box[2] / 2, die.box[1] + die.box[3] / 2
                        hit = [t.face for t in photo.dice if t.box[0] <= cx <= t.box[0]
                               + t.box[2] and t.box[1] <= cy <= t.box[1] + t.box[3]]
                        if not die.uncertain and hit:
                            counts[row, 0 if hit[0] == die.face else 1] += 1
        print(f"{times:<15g}{dice:>6}{f'{counts[0, 0]} / {counts[1, 0]}':>16}"
              f"{f'{counts[0, 1]} / {counts[1, 1]}':>16}{counts[1, 2]:>16}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
