"""Dice under a transparent part of a picture (a PNG with an alpha channel, edited).

:func:`vision.imagefile.decode` lays such a picture over white, as a page shows it, and
keeps where it is not opaque (:attr:`vision.imagefile.Decoded.hidden`). What lies there
is not the tray as the camera saw it: a die half under it shows half its face (a 6 with a
column of pips gone reads as a sure 3), a die wholly under it does not show at all. Each
die whose box reaches a transparent part is left to the table, and the read says why.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.reading import TrayRead
from vision.said import message

OPAQUE_FROM = 250
"""The least alpha (of 255) a pixel counts as opaque at: below it, what shows is partly
the white it was laid over."""

SHOWN_SHARE = 0.001
"""The share of the picture that must be transparent for the read to say so when no die
is touched (a stray pixel of an editor's brush is nothing to tell the table)."""

GROW = 0.2
"""How far a die's box is grown each way, in its sides, before it is looked under: a box
cut where the picture turns white ends at the transparent part, not across it."""

CUT_CONFIDENCE = 0.3
"""The most confidence a die reaching a transparent part keeps (as a die cut by the
frame's edge: :meth:`vision.reader.DiceReader._is_cut`)."""

UNDER = message(
    "vision.transparent_dice",
    "{count} dice lie partly under a transparent part of the picture (it was edited): they "
    "are marked uncertain; send the photo as the camera took it",
    one="{count} die lies partly under a transparent part of the picture (it was edited): "
    "it is marked uncertain; send the photo as the camera took it")
HIDDEN = message(
    "vision.transparent",
    "part of the picture is transparent (it was edited): a die there cannot be seen; send "
    "the photo as the camera took it")()
ALL_HIDDEN = message(
    "vision.transparent_all",
    "the picture is transparent throughout, with nothing in it to see (it was edited, or "
    "saved without its picture): send the photo as the camera took it")()

ALL_FROM = 0.99
"""The share of the picture transparent from which it is said to be transparent throughout
(and not blank: laid over white, a wholly transparent picture was said to be white, "the
camera's exposure is far too high", a helper's)."""

BLANK_KEYS = frozenset({"vision.white", "vision.black", "vision.flat"})
"""The warnings of a blank picture (:mod:`vision.framewarnings`), which a picture
transparent throughout gives for no fault of the camera's."""


def hidden_mask(alpha: np.ndarray) -> np.ndarray | None:
    """Where a picture's alpha channel (8 bits) is not opaque, or None where it all is."""
    hidden = alpha < OPAQUE_FROM
    return hidden if hidden.any() else None


def under_transparency(read: TrayRead, hidden: np.ndarray | None) -> TrayRead:
    """``read`` with each die whose box (in ``hidden``'s pixels, grown by :data:`GROW`)
    reaches a transparent pixel marked uncertain, and a warning when any is, or when
    :data:`SHOWN_SHARE` of the picture or more is transparent. ``read`` itself where
    nothing is (``hidden`` None)."""
    if hidden is None:
        return read
    height, width = hidden.shape
    dice, touched = [], 0
    for die in read.dice:
        x, y, w, h = die.box
        gx, gy = round(w * GROW), round(h * GROW)
        patch = hidden[max(y - gy, 0) : min(y + h + gy, height),
                       max(x - gx, 0) : min(x + w + gx, width)]
        if patch.size and patch.any():
            touched += 1
            die = replace(die, confidence=min(die.confidence, CUT_CONFIDENCE), uncertain=True)
        dice.append(die)
    share = float(hidden.mean())
    warnings = read.warnings
    if share >= ALL_FROM:
        warnings = tuple(w for w in warnings if getattr(w, "key", None) not in BLANK_KEYS)
        said = ALL_HIDDEN if not touched else UNDER(count=touched)
    elif touched:
        said = UNDER(count=touched)
    elif share >= SHOWN_SHARE:
        said = HIDDEN
    else:
        return read
    return replace(read, dice=tuple(dice), warnings=(*warnings, said))
