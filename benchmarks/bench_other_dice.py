"""Pip dice rolled where a profile of symbols reads: the reader with and without its check
for dice of another kind (``vision/otherdice.py``).

For each of ``--profiles`` drawn SeaFall profiles (5 synthetic crops a face, seeds 0..N-1,
as the tests enroll them), reads:

* the first ``--photos`` d6 photos of a split (``--split``, val by default; pip dice, so
  every die read sure is read wrong): the dice read sure, and the rolls told that pip dice
  are in the tray;
* ``--trays`` drawn SeaFall trays (6-12 dice, seeds 1000 + the profile's): the dice read
  sure and right, and the rolls told so wrongly;

and the d6 faces enrolled as symbols (the stand-in of ``bench_vision_accuracy.py``) on the
same photos, whose crops look like every pip face, so that its reads do not change.
Prints a table. Develop on train/val: test is not read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_vision_accuracy import frames  # noqa: E402

from vision.enrollment import Profile  # noqa: E402
from vision.otherdice import PIP_DICE  # noqa: E402
from vision.reader import DiceReader  # noqa: E402
from vision.synthetic import enrolment_crops, random_faces, tray_photo  # noqa: E402
from vision.training.calibrate_enrolled import enrolled_profile  # noqa: E402


def told(read) -> bool:  # noqa: ANN001 - a TrayRead
    return any(getattr(w, "key", "") == PIP_DICE.key for w in read.warnings)


def pip_photos(profile: Profile, split: str, photos: int) -> dict[str, list[int]]:
    """Over the photos, without and with the check: [dice read sure, rolls told]."""
    out = {"without": [0, 0], "with": [0, 0]}
    readers = {"without": DiceReader(profile.die, profile=profile, other_dice_check=False),
               "with": DiceReader(profile.die, profile=profile)}
    for _, small, _ in frames(split, photos):
        for name, reader in readers.items():
            read = reader.read(small)
            out[name][0] += sum(not d.uncertain for d in read.dice)
            out[name][1] += told(read)
    return out


def seafall_trays(profile: Profile, trays: int, seed: int) -> dict[str, list[int]]:
    """Over drawn trays, without and with the check: [dice read sure and right, rolls told
    (wrongly), dice]."""
    out = {"without": [0, 0, 0], "with": [0, 0, 0]}
    readers = {"without": DiceReader("seafall", profile=profile, other_dice_check=False),
               "with": DiceReader("seafall", profile=profile)}
    rng = np.random.default_rng(seed)
    for _ in range(trays):
        photo = tray_photo(rng, random_faces(rng, int(rng.integers(6, 13))))
        for name, reader in readers.items():
            read = reader.read(photo.image)
            faces = {tuple(d.box): d.face for d in photo.dice}
            for die in read.dice:
                near = min(faces, key=lambda b: abs(b[0] - die.box[0]) + abs(b[1] - die.box[1]))
                out[name][0] += (not die.uncertain) and faces[near] == die.face
            out[name][1] += told(read)
            out[name][2] += len(photo.dice)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--profiles", type=int, default=6)
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--trays", type=int, default=16)
    parser.add_argument("--split", default="val", choices=["train", "val"])
    args = parser.parse_args(argv)

    print(f"{'profile':<22}{'pip dice read sure':>22}{'rolls told':>12}"
          f"{'SeaFall sure+right':>22}{'told wrongly':>14}")
    print(f"{'':<22}{'without / with':>22}{'':>12}{'without / with':>22}{'':>14}")
    totals = np.zeros(6, int)
    for seed in range(args.profiles):
        profile = Profile.from_crops(f"drawn-{seed}", "seafall",
                                     enrolment_crops(np.random.default_rng(seed), 5))
        pips = pip_photos(profile, args.split, args.photos)
        trays = seafall_trays(profile, args.trays, 1000 + seed)
        row = np.array([pips["without"][0], pips["with"][0], pips["with"][1],
                        trays["without"][0], trays["with"][0], trays["with"][1]])
        totals += row
        print(f"{profile.name:<22}{f'{row[0]} / {row[1]}':>22}{row[2]:>12}"
              f"{f'{row[3]} / {row[4]}':>22}{row[5]:>14}")
    print(f"{'all drawn profiles':<22}{f'{totals[0]} / {totals[1]}':>22}{totals[2]:>12}"
          f"{f'{totals[3]} / {totals[4]}':>22}{totals[5]:>14}")
    standin = enrolled_profile()
    (before, _), (after, rolls) = pip_photos(standin, args.split, args.photos).values()
    print(f"{'d6 faces as symbols':<22}{f'{before} / {after}':>22}{rolls:>12}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
