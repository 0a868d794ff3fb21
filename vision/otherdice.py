"""Dice of another kind than the profile's: pip dice rolled at a table that reads symbols.

A profile reads whatever die lies in the tray as one of its own faces, and pip d6 rolled
where SeaFall dice were expected read sure as "weak" or "strong" for about a third of them
(drawn SeaFall profiles on the d6 val photos). The d6 face network
(:mod:`vision.facenet`) knows pip faces, and a profile's own crops tell which of them its
symbols look like (:func:`pip_looks`): on drawn SeaFall profiles a "1" at most (a single
round star), and for the d6 faces enrolled as symbols (the stand-in) all six, so the check
is off for a profile of pip dice. A die that the network reads surely
(:data:`OTHER_FROM`) as a pip face that none of the profile's crops looks like is a pip
die: it is marked uncertain. When most of a roll's dice are (:data:`ROLL_SHARE`), the
table is told that pip dice are in the tray, and every die is uncertain.

Placed on drawn SeaFall trays and the d6 val photos (test not read), 6 drawn profiles of
5 crops a face, 40 val photos and 16 drawn trays each (sure reads of pip dice caught /
SeaFall dice read sure and right made uncertain), by the die rule alone:

  floor (OTHER_FROM)      pip dice read sure, caught   SeaFall dice made uncertain
  0.8                     233 of 267                  9 of 831
  0.9 (kept)              233 of 267                  2 of 831
  0.95                    182 of 267                  0 of 831

Requiring pip counting (:mod:`vision.pips`) to agree caught 188 and made none uncertain.
Views of the profile's crops turned and mirrored (as :data:`vision.pipnets.NET_VIEWS`)
found a "3" in a star seen turned, and let pip 3s through (caught 168).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from vision.crops import crop
from vision.facenet import CLASSES, D6_FACES, FaceNet
from vision.reading import TrayRead, left_to_the_table
from vision.said import message

LOOKS_FROM = 0.5
"""A pip face the network gives at least this probability on any of a profile's crops is
one its symbols look like: dice read so are not taken for pip dice."""

OTHER_FROM = 0.9
"""A die the network reads as a pip face (one the profile's symbols do not look like)
with at least this probability is taken for a pip die (the module's table)."""

ROLL_SHARE = 0.5
"""When at least this share of a read's dice, and two or more, are taken for pip dice,
the roll is of pip dice: the table is told, and every die is uncertain."""

OTHER_CONFIDENCE = 0.3
"""The confidence a die taken for a pip die is left with, at most."""

PIP_DICE = message(
    "vision.pip_dice",
    "{count} dice look like pip dice (d6), not the dice of profile '{profile}': every die "
    "is marked uncertain; throw the game's own dice")


def pip_looks(crops: np.ndarray, net: FaceNet) -> frozenset[str]:
    """The pip faces that any of a profile's ``crops`` looks like to the face network
    (:data:`LOOKS_FROM`)."""
    if not len(crops):
        return frozenset()
    p = net.probabilities(list(crops))
    return frozenset(face for k, face in enumerate(D6_FACES)
                     if bool((p[:, k] >= LOOKS_FROM).any()))


def checks_anything(looks: frozenset[str]) -> bool:
    """Whether a profile whose crops look like ``looks`` can tell pip dice from its own:
    not when its faces look like every pip face (a profile of pip dice)."""
    return not looks >= set(D6_FACES)


def pip_dice(crops: Sequence[np.ndarray], looks: frozenset[str], net: FaceNet
             ) -> list[bool]:
    """Which of the ``crops`` (dice boxes cut from the frame) the network reads surely as
    a pip face none of the profile's crops look like."""
    if not len(crops):
        return []
    p = net.probabilities(list(crops))
    out = []
    for row in p:
        k = int(np.argmax(row[: len(D6_FACES)]))
        out.append(bool(row[k] >= OTHER_FROM) and CLASSES[k] not in looks)
    return out


def checked(read: TrayRead, frame: np.ndarray, looks: frozenset[str], net: FaceNet,
            profile: str) -> TrayRead:
    """``read`` (of ``frame``, by profile ``profile`` whose crops look like ``looks``)
    with its dice that look like pip dice made uncertain, or every die with a warning
    when most do (:data:`ROLL_SHARE`)."""
    if not read.dice or not checks_anything(looks):
        return read
    flagged = pip_dice([crop(frame, d.box) for d in read.dice], looks, net)
    count = sum(flagged)
    if not count:
        return read
    if count >= 2 and count >= ROLL_SHARE * len(read.dice):
        return left_to_the_table(read, PIP_DICE(count=count, profile=profile))
    dice = tuple(replace(d, confidence=min(d.confidence, OTHER_CONFIDENCE), uncertain=True)
                 if other else d for d, other in zip(read.dice, flagged, strict=True))
    return replace(read, dice=dice)
