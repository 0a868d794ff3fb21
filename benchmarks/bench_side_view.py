"""How dice read as the camera sees more of their sides: a wider lens, with the tray
filling the picture.

A camera over the tray sees each die a little from the side: its top face lies out from
its foot by ``h / (H - h)`` of the foot's distance from the picture's centre (die height
``h``, camera height ``H``), and the side between them shows. Half of that is the **side
share** (:func:`vision.synthetic.tray_photo`'s ``top_shift``). At the picture's edge a die
shows about ``tan(A / 2)`` of its height as side, for a lens ``A`` degrees across, however
high the camera: a lens that frames the tray from lower down sees the same. So the share
of a drawn tray stands for a lens angle (:func:`vision.synthetic.lens_for`): the drawn
trays are 960 px wide with dice 46 px across, the tray filling the picture.

For each share of ``--shares``, each body colour's SeaFall set is enrolled at the table
under that camera as the table makes a first profile (``--enroll table``, the default,
since the sixtieth session: its players name the dice of each roll, kept as the reader cut
them, and once every face has 3 the profile is the first 5 of each face the others do not
doubt, :func:`vision.profilecheck.first_profile`; ``tests.vision.helpers.table_profile``),
or, with ``--enroll first-five``, from the first 5 dice named a face, unchecked
(``tests.vision.helpers.table_crops``, as before the sixtieth session), and reads
``--trays`` drawn trays of 1 to 15 of its dice
(:data:`vision.training.calibrate_smear_symbols.COUNTS`). Printed per share: the lens
angle it stands for, the dice, those found, read sure and right, read wrong and sure (and
how many of those lie in the outer half of the picture: further from its centre than half
of the half-diagonal), the dice read sure where none lies (``extra``), the commonest wrong
reads, and then the same dice found, read sure and right and wrong and sure, and the
extra, by a reader told the lens (a setup's
:attr:`vision.calibration.Calibration.lens_degrees`): its last steps
(:func:`vision.sideview.side_pairs` and the floor :func:`vision.sideview.side_sure_from`
puts on each custom die) applied to the same reads, and from
:data:`vision.reader.WIDE_NETS_FROM` each tray read again, the dice found by the body
detector for a wide lens (:data:`vision.dieornot.WIDE_BODIES_PATH`), by a profile
enrolled as a table whose setup keeps the lens enrolls it: the named dice found and cut by
a reader told the lens too (:func:`told_profile`; before the fifty-ninth session the
reader told the lens read with the first columns' profile).
``docs/vision.md``, *Dice seen from the side*. With ``--learn``, each profile is then
taught by the trays it reads as the table teaches it (:func:`taught`: a read that waits
for the players is confirmed with every die found named right, and learned; a read applied
at once teaches nothing), so the rows measure a table's first 96 rolls of a set
rather than its first profile alone. About two minutes a share on one core (the six
shares below 11.5 minutes, 2026-11-30; more with ``--learn``)::

    .venv/bin/python benchmarks/bench_side_view.py [--shares 0 0.01 0.02 0.025 0.03 0.035] \\
        [--trays 96] [--seed 41]

``--floor GREY`` draws the trays' floor (and the enrolled dice's) that grey instead of
the usual light grey: under :data:`vision.reader.DARK_NETS_BELOW` the dark-floor
networks, thresholds and checks read them.

With ``--die d6``, pip dice read without enrollment instead, each body colour's on
``--trays`` trays of 1 to 15: drawn as cubes through a lens of each angle of ``--lenses``
(:func:`vision.cubes.cube_photo`: the sides' pips in view). The same columns; the reader
told the lens reads each tray again (a pip die gets no floor, only
:func:`vision.sideview.side_pairs`, and from :data:`vision.reader.WIDE_NETS_FROM` its dice
are found by the detector for a wide lens, :data:`vision.dicefinder.WIDE_MODEL_PATH`, or
on a dark floor :data:`vision.dicefinder.DARK_WIDE_MODEL_PATH`). About five minutes a lens
at 96 trays::

    .venv/bin/python benchmarks/bench_side_view.py --die d6 [--lenses 10 45 55 64 72] \
        [--floor 60]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.vision.helpers import ENROLLMENTS, enrolled_at_table  # noqa: E402
from vision.boxes import centre_in, hold_each_other  # noqa: E402
from vision.cubes import cube_photo  # noqa: E402
from vision.enrollment import Profile  # noqa: E402
from vision.faces import D6_FACES  # noqa: E402
from vision.reader import WIDE_NETS_FROM, DiceReader  # noqa: E402
from vision.reading import Box, TrayRead  # noqa: E402
from vision.sideview import read_under_lens  # noqa: E402
from vision.synthetic import (  # noqa: E402
    BODY_COLOURS,
    BODY_NAMES,
    SyntheticDie,
    SyntheticPhoto,
    lens_for,
    random_faces,
    tray_photo,
)
from vision.training.calibrate_smear_symbols import COUNTS  # noqa: E402

SHARES = (0.0, 0.01, 0.02, 0.025, 0.03, 0.035)
LENSES = (10.0, 45.0, 55.0, 64.0, 72.0)
TOTALS = tuple(k + n for k in ("", "lens_")
               for n in ("dice", "found", "right", "silent", "outer", "extra"))


def floor_tray(floor: float | None) -> dict[str, tuple[int, int, int]]:
    """The drawing functions' ``tray`` argument for a floor of grey ``floor``; none (their
    light grey) for None."""
    return {} if floor is None else {"tray": (round(floor),) * 3}


def enrolled(enroll: str, seed: int, body: tuple[int, int, int], share: float,
             tray: dict[str, tuple[int, int, int]], lens_degrees: float | None = None
             ) -> Profile:
    """A set's profile enrolled at the table under a camera showing ``share`` (the reader
    that finds the named dice told ``lens_degrees``), as ``enroll`` says
    (:data:`tests.vision.helpers.ENROLLMENTS`)."""
    return enrolled_at_table(enroll, seed, body, top_shift=share, lens_degrees=lens_degrees,
                             name="side", **tray)


def read_sets(share: float, trays: int, seed: int, floor: float | None = None,
              enroll: str = "table", learn: bool = False) -> dict[str, object]:
    """The SeaFall sets, each enrolled (``enroll``: :data:`tests.vision.helpers.ENROLLMENTS`)
    and read under a camera showing ``share``, on :func:`vision.synthetic.tray_photo`'s
    light grey tray or, with ``floor``, a floor of that grey; with ``learn``, each reader's
    profile taught by the trays as the table teaches it (:func:`taught`)."""
    totals: dict[str, int] = dict.fromkeys(TOTALS, 0)
    lens = lens_for(share)
    wrong: Counter[tuple[str, str]] = Counter()
    tray = floor_tray(floor)
    for k, body in enumerate(BODY_COLOURS):
        profile = enrolled(enroll, seed + 100 + k, body, share, tray)
        reader = DiceReader("seafall", profile=profile)
        told_reader = wide_reader(lens, "seafall", profile=told_profile(
            profile, seed + 100 + k, body, share, tray, enroll))
        rng = np.random.default_rng(seed + k)
        for t in range(trays):
            photo = tray_photo(rng, random_faces(rng, COUNTS[t % len(COUNTS)], profile.labels),
                               top_shift=share, body=body, **tray)
            read = reader.read(photo.image)
            tally(photo, read, totals, wrong)
            told_read = told(read, photo.image, lens, told_reader)
            tally(photo, told_read, totals, Counter(), "lens_")
            if learn:
                reader = taught(reader, photo, read, t)
                if told_reader is not None:
                    told_reader = taught(told_reader, photo, told_read, t)
    return {**totals, "wrong": wrong}


def taught(reader: DiceReader, photo: SyntheticPhoto, read: TrayRead, number: int
           ) -> DiceReader:
    """``reader`` after the table has seen its read of ``photo``: a read that waits for the
    players (a die left uncertain, a warning, or not as many dice as the tray holds: the
    roll's count) is confirmed with every die found named right, and the profile learns
    those dice (``Profile.learn``, as ``web/runtime/dice.py`` teaches it a confirmed read;
    dice read where none lies are not named); a read applied at once teaches nothing."""
    waits = (any(d.uncertain for d in read.dice) or bool(read.warnings)
             or len(read.dice) != len(photo.dice))
    if reader.profile is None or not waits:
        return reader
    dice = [(die.face, read.dice[i].crop, f"{number}:{i}")
            for die, i in matches(photo, read) if i is not None]
    if not dice:
        return reader
    return replace(reader, profile=reader.profile.learn(dice))


def read_pips(lens: float, trays: int, seed: int, floor: float | None = None
              ) -> dict[str, object]:
    """Pip dice of each body colour drawn as cubes through a lens ``lens`` across, on
    :func:`vision.cubes.cube_photo`'s light grey tray or, with ``floor``, a floor of
    that grey."""
    totals: dict[str, int] = dict.fromkeys(TOTALS, 0)
    wrong: Counter[tuple[str, str]] = Counter()
    reader = DiceReader("d6")
    told_reader = wide_reader(lens, "d6")
    tray = floor_tray(floor)
    for k, body in enumerate(BODY_COLOURS):
        rng = np.random.default_rng(seed + k)
        for t in range(trays):
            photo = cube_photo(rng, random_faces(rng, COUNTS[t % len(COUNTS)], D6_FACES),
                               lens, body=body, **tray)
            read = reader.read(photo.image)
            tally(photo, read, totals, wrong, holds=centre_in)
            tally(photo, told(read, photo.image, lens, told_reader), totals, Counter(),
                  "lens_", holds=centre_in)
    return {**totals, "wrong": wrong}


def wide_reader(lens: float, die: str, profile: Profile | None = None) -> DiceReader | None:
    """A reader told ``lens`` when it finds the dice otherwise than a reader told no lens
    (from :data:`vision.reader.WIDE_NETS_FROM`: the detectors for a wide lens), else None."""
    return (DiceReader(die, profile=profile, lens_degrees=lens) if lens >= WIDE_NETS_FROM
            else None)


def told_profile(profile: Profile, seed: int, body: tuple[int, int, int], share: float,
                 tray: dict[str, tuple[int, int, int]], enroll: str = "table") -> Profile:
    """The set's profile as a table whose setup keeps the lens enrolls it: from
    :data:`vision.reader.WIDE_NETS_FROM` the reader that cuts the named dice is told the
    lens too (``web/runtime/dice.py``), and so finds them with the body detector for a wide
    lens; below it, that reader finds and cuts them as one told no lens (``profile``)."""
    lens = lens_for(share)
    if lens < WIDE_NETS_FROM:
        return profile
    return enrolled(enroll, seed, body, share, tray, lens)


def told(read: TrayRead, image: np.ndarray, lens: float,
         wide: DiceReader | None) -> TrayRead:
    """The read a reader told the lens gives: the tray read again by ``wide``
    (:func:`wide_reader`) when there is one; else, as it finds the dice alike, its last
    step put on the same ``read``."""
    if wide is not None:
        return wide.read(image)
    return replace(read, dice=tuple(read_under_lens(read.dice, image.shape, lens,
                                                    custom=read.die != "d6")))


def matches(photo: SyntheticPhoto, read: TrayRead,
            holds: Callable[[Box, Box], bool] = hold_each_other
            ) -> list[tuple[SyntheticDie, int | None]]:
    """Each drawn die with the index of the read die it is (None: not found): the first
    read die not yet taken whose box the drawn die's box ``holds`` (:func:`tally`)."""
    used: set[int] = set()
    out: list[tuple[SyntheticDie, int | None]] = []
    for die in photo.dice:
        i = next((i for i, d in enumerate(read.dice)
                  if i not in used and holds(die.box, d.box)), None)
        if i is not None:
            used.add(i)
        out.append((die, i))
    return out


def tally(photo: SyntheticPhoto, read: TrayRead, totals: dict[str, int],
          wrong: Counter[tuple[str, str]], key: str = "",
          holds: Callable[[Box, Box], bool] = hold_each_other) -> None:
    """Count a read of a drawn photo against the faces drawn, into ``totals``' counts
    named with ``key`` before them: a read die is the drawn die whose box ``holds`` it (by
    default, when each box holds the other's centre; for the cubes, whose drawn outline
    takes in sides the reader may leave out of its box, when the outline holds the read
    box's centre)."""
    h, w = photo.image.shape[:2]
    pairs = matches(photo, read, holds)
    used = {i for _, i in pairs if i is not None}
    for die, i in pairs:
        totals[key + "dice"] += 1
        if i is None:
            continue
        totals[key + "found"] += 1
        got = read.dice[i]
        if got.uncertain:
            continue
        if got.face == die.face:
            totals[key + "right"] += 1
            continue
        totals[key + "silent"] += 1
        wrong[(die.face, got.face)] += 1
        x, y, bw, bh = die.box
        off = math.hypot(x + bw / 2 - w / 2, y + bh / 2 - h / 2) / math.hypot(w, h)
        totals[key + "outer"] += off > 0.25  # past half of the half-diagonal
    totals[key + "extra"] += sum(1 for i, d in enumerate(read.dice)
                                 if i not in used and not d.uncertain)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--die", choices=("seafall", "d6"), default="seafall")
    parser.add_argument("--shares", nargs="+", type=float, default=list(SHARES),
                        help="side shares of drawn SeaFall trays")
    parser.add_argument("--lenses", nargs="+", type=float, default=list(LENSES),
                        help="lens angles (degrees across) of drawn pip trays (--die d6)")
    parser.add_argument("--floor", type=float, default=None, metavar="GREY",
                        help="the drawn trays' floor this grey (0-255) instead of a light "
                             "grey")
    parser.add_argument("--trays", type=int, default=96, help="trays a set and share")
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--learn", action="store_true",
                        help="teach each profile the trays it reads as the table does: a "
                             "read with a die left uncertain is confirmed and learned")
    parser.add_argument("--enroll", choices=ENROLLMENTS, default="table",
                        help="enroll each set as the table makes a first profile (the "
                             "first 5 trusted named dice a face, once every face has 3), "
                             "or from the first 5 named a face, unchecked (as before the "
                             "sixtieth session)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    floor = "" if args.floor is None else f", on a floor of grey {args.floor:.0f}"
    if args.die == "d6":
        print(f"pip d6 ({', '.join(BODY_NAMES)}), {args.trays} trays of 1-15 dice each, "
              f"drawn as cubes through the lens{floor}")
        runs = [(lens, lens, read_pips(lens, args.trays, args.seed, args.floor))
                for lens in args.lenses]
    else:
        how = ("as the table makes a first profile" if args.enroll == "table"
               else "from the first 5 dice named a face")
        taught_too = ", each profile then taught the reads the table confirms" if args.learn else ""
        print(f"SeaFall sets ({', '.join(BODY_NAMES)}), {args.trays} trays of 1-15 dice "
              f"each, enrolled at the table {how} under the same camera{floor}{taught_too}")
        runs = ((share, lens_for(share),
                 read_sets(share, args.trays, args.seed, args.floor, args.enroll, args.learn))
                for share in args.shares)
    print(f"{'share':>6} {'lens':>5} {'dice':>6} {'found':>6} {'sure+right':>11} "
          f"{'wrong+sure':>11} {'outer':>6} {'extra':>6} | told the lens: {'found':>6} "
          f"{'sure+right':>10} {'wrong+sure':>10} {'extra':>6} | commonest wrong reads")
    for share, lens, t in runs:
        dice = int(t["dice"])  # type: ignore[call-overload]
        silent = int(t["silent"])  # type: ignore[call-overload]
        wrong: Counter[tuple[str, str]] = t["wrong"]  # type: ignore[assignment]
        common = ", ".join(f"{a}->{b} {n}" for (a, b), n in wrong.most_common(3)) or "-"
        shown = "-" if args.die == "d6" else f"{share:.3f}"
        print(f"{shown:>6} {lens:>4.0f}d {dice:>6} {t['found']:>6} "
              f"{100 * int(t['right']) / dice:>10.1f}% "  # type: ignore[call-overload]
              f"{silent:>4} {100 * silent / dice:>5.2f}% {t['outer']:>6} {t['extra']:>6} | "
              f"{'':>14} {t['lens_found']:>6} "
              f"{100 * int(t['lens_right']) / dice:>9.1f}% "  # type: ignore[call-overload]
              f"{t['lens_silent']:>10} {t['lens_extra']:>6} | {common}", flush=True)
    print("(lens: the angle across of a lens showing as much of the dice's sides with the "
          "tray filling the picture; extra: dice read sure where none lies; told the lens: "
          "the same reads as a reader told the lens gives them; "
          f"{time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
