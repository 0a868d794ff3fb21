"""Checking a profile's own crops against one another before it reads a die.

A profile reads a die by its likeness to the crops it was enrolled with, so a crop filed
under the wrong face (a photo dropped in the wrong folder, a YOLO label naming the wrong
class, another die's crop) makes the reader surely wrong about every die that looks like
it: the one mistake the reader must never make. Each crop is therefore read, before the
profile is used, by the rest of the profile as the reader reads a die (its best likeness
to each face's other crops, the profile's own lead rule, :meth:`Profile.guesses`):

* a crop read *sure* as another face is **misfiled**, most likely: it looks more like the
  other face's crops than the lead rule lets a die be mistaken;
* a crop the die-or-not check (:mod:`vision.dieornot`, the reader's own check on every
  custom-face die it finds) does not take for a die is **not a die's face**: a crop of
  the tray or of something else, or a die seen so much from the side that its top face
  teaches little;
* the rest are fine, including crops the rest read uncertain: a face the profile cannot
  yet tell from another is what more crops are for.

A face needs :data:`JUDGED_FROM` crops for its crops to be read so: the rest must hold at
least two of it to stand against the other faces (one crop of a face is no measure of
how that face looks, and a face's only crop, with none left, would always read as
another).

Measured by ``benchmarks/bench_profile_check.py`` on the d6 faces enrolled as symbols and on
synthetic SeaFall dice (``docs/vision.md``, *Checking an enrollment*).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.dieornot import DIE_FROM, default_die_or_not
from vision.enrollment import Profile, face_scores

JUDGED_FROM = 3
"""Crops a face needs for the rest of the profile to judge whether they are misfiled."""


@dataclass(frozen=True)
class CropCheck:
    """What the rest of a profile makes of one of its crops."""

    index: int
    """The crop's place in the profile (its maps, vectors and owners)."""
    face: str
    """The face the crop is filed under."""
    read_as: str
    """The face the rest of the profile reads it as."""
    sure: bool
    """Whether that read is sure by the profile's lead rule (never, for a face of fewer
    than :data:`JUDGED_FROM` crops)."""
    die: float
    """The die-or-not check's probability that it is a die (:mod:`vision.dieornot`)."""

    @property
    def misfiled(self) -> bool:
        return self.sure and self.read_as != self.face

    @property
    def not_a_die(self) -> bool:
        return self.die < DIE_FROM


def check(profile: Profile) -> list[CropCheck]:
    """Each enrolled crop read by the profile's other crops (leave one out). Crops the
    table taught are checked too: a face named wrongly at the table is as harmful."""
    if profile.crops is None:
        raise ValueError(f"profile {profile.name!r} keeps no crops to check")
    likeness = profile.crop_scores(list(profile.crops))
    np.fill_diagonal(likeness, -1.0)                    # a crop is not compared with itself
    faces = len(profile.labels)
    rows = face_scores(likeness, profile.owners, faces)
    guesses = profile.guesses(rows)
    judged = np.bincount(profile.owners, minlength=faces)[profile.owners] >= JUDGED_FROM
    die = default_die_or_not().probabilities(list(profile.crops))
    return [CropCheck(i, profile.labels[int(o)], g.face, bool(judged[i]) and not g.uncertain,
                      float(die[i]))
            for i, (o, g) in enumerate(zip(profile.owners, guesses, strict=True))]


def suspects(checks: Sequence[CropCheck]) -> list[CropCheck]:
    """The crops a player should look at: misfiled, or not a die's face."""
    return [c for c in checks if c.misfiled or c.not_a_die]


def describe(c: CropCheck, origin: str) -> str:
    """One line for a player about a suspect crop (``origin``: its file, or photo and line)."""
    if c.misfiled:
        # a face filed right is read as another when crops of it are filed under that
        # other face (a helper filed four 6s under '1': two 6s filed right were named)
        return (f"{origin}: filed as {c.face!r}, but cut as the reader cuts dice, the other "
                f"crops read it as {c.read_as!r}, sure: is it filed right? (If it is, look "
                f"for crops of {c.face!r} filed under {c.read_as!r}; if there are none, crop "
                f"it closer about the die, or leave it out.)")
    return (f"{origin}: filed as {c.face!r}, but it does not look like a die's face seen "
            f"from above (die-or-not {c.die:.2f}): is it a crop of one die, its top face "
            f"in view?")


def trusted(profile: Profile) -> tuple[Profile, list[CropCheck]]:
    """The profile less the crops the check doubts (:func:`suspects`), and their checks."""
    doubted = suspects(check(profile))
    dropped = {c.index for c in doubted}
    return profile.only([i for i in range(len(profile.maps)) if i not in dropped]), doubted


def first_profile(name: str, die: str, named: dict[str, list[np.ndarray]], per_face: int,
                  least: int) -> tuple[Profile | None, list[CropCheck]]:
    """The profile a table makes from the dice its players named (``named``: crops by
    face, as the reader cut them, in the order named): the first ``per_face`` of each face
    that the others do not doubt (:func:`trusted`: a die named wrongly, or a crop of no
    die, left out), or None while a face has fewer than ``least`` left (more named dice
    are needed); and the checks of the crops doubted."""
    kept, doubted = trusted(Profile.from_crops(name, die, named, as_read=True))
    if np.bincount(kept.owners, minlength=len(kept.labels)).min() < least:
        return None, doubted
    return kept.first(per_face), doubted
