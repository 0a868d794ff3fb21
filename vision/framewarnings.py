"""What the reader tells the table about a frame it read: warnings that mark every die of
the read uncertain (:meth:`vision.reader.DiceReader.read`).

A blank picture, a picture with no colour, dice too small to read, a smeared (shaken)
picture, every die found unlike the profile, a hand in the tray: each comes as one sentence
saying what is wrong and what to do, and the players confirm the dice instead of trusting
them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.boxes import unscaled
from vision.detection import WorkFrame, expected_die_px, small_dice_warning
from vision.enrollment import Profile
from vision.filters import blank
from vision.hands import HAND_SHARE, SkinScene, hand_fraction
from vision.reading import DieRead
from vision.said import message
from vision.smear import smear, smear_and_own, smear_from, smear_warning

NO_COLOUR = message(
    "vision.no_colour",
    "the picture has no colour (a black-and-white camera, night mode or filter): "
    "every die is marked uncertain")()
HAND_IN_TRAY = message(
    "vision.hand_in_tray", "a hand is in the tray: every die is marked uncertain")()
UNLIKE = message(
    "vision.unlike",
    "{count} dice were found but look like none of the faces of profile '{profile}': is it "
    "this die's profile? If the dice or the light changed since, enroll the faces again",
    one="{count} die was found but looks like none of the faces of profile '{profile}': is it "
    "this die's profile? If the dice or the light changed since, enroll the faces again")
BLACK = message(
    "vision.black",
    "the picture is black, with nothing in it: is the camera's lens covered, or the light "
    "over the tray off?")()
WHITE = message(
    "vision.white",
    "the picture is white, with nothing in it: the camera's exposure is far too high, or a "
    "lamp shines straight into it")()
FLAT = message(
    "vision.flat",
    "the picture is one flat colour, with nothing in it: is the camera's lens covered, or "
    "the camera pointed away from the tray?")()


def frame_warnings(
    frame: np.ndarray, grey: bool, work: WorkFrame, small: np.ndarray,
    dice: Sequence[DieRead], *, die: str, profile: Profile | None, unlike: int = 0,
    smear_check: bool = True, skin_scene: SkinScene | None = None,
) -> list[str]:
    """What to tell the table of a frame read (any warning marks every die uncertain):
    a blank picture, no colour (``grey``), dice too small or smeared, every die found
    unlike the ``profile`` (``unlike`` of them), a hand in the tray (``small``: the
    detector's copy of the frame, judged alone without a ``skin_scene``). ``die`` and
    ``profile`` are the reader's."""
    warnings: list[str] = []
    if not dice and blank(frame):
        # nothing to read, and nothing wrong with colour or hands: say what is wrong
        warnings.append(blank_warning(frame))
    elif grey:
        # the networks and templates learned from colour photos: on grey ones they
        # find fewer dice and read some wrong, sure (d6 val: 2 of 204)
        warnings.append(NO_COLOUR)
    too_small = None
    if dice and profile is None and die == "d6":
        # pips too small to tell apart run together into sure wrong faces; a profile's
        # reads grow unsure by themselves as dice shrink (docs/vision.md)
        side = float(np.median([max(d.box[2], d.box[3]) for d in dice]))
        if too_small := small_dice_warning(side):
            warnings.append(too_small)
    if dice and not too_small and smear_check and (
            smeared := smeared_warning(work, dice, die, profile)):
        # a shaken camera smears pips into ovals and bars, and symbols into others,
        # read as other faces, sure (vision.smear)
        warnings.append(smeared)
    if not dice and unlike and profile is not None:
        # every die found was dropped as unlike the profile: a profile of another die,
        # or enrolled under other light; "no dice" alone would hide it
        warnings.append(UNLIKE(count=unlike, profile=profile.name))
    # with a scene, the whole frame (the scene is of the frame's shape, not small's)
    if hand_fraction(small if skin_scene is None else frame, skin_scene) > hand_bar(
            dice, frame.shape, work.die_px):
        # dice in or near a hand may be moving, held or hidden: confirm them all
        warnings.append(HAND_IN_TRAY)
    return warnings


def hand_bar(dice: Sequence[DieRead], shape: tuple[int, ...], read_px: float) -> float:
    """The share of a picture (of ``shape``, read at a die size of ``read_px``) that a
    patch of skin colour must cover to be a hand: :data:`vision.hands.HAND_SHARE` for
    dice at the framing default's size or smaller, and as much more as the dice's area is
    larger than its (a hand seen closer is larger in the picture by as much as the dice
    are). The dice count at the size they were read at or their smallest box, whichever
    is smaller: a frame read at the default whose boxes are larger (dice read at a size
    not theirs, whose reads are not to be trusted) keeps the bar, and a hand's knuckles
    boxed as a large die do not raise it."""
    if not dice:
        return HAND_SHARE
    side = min(read_px, float(min(max(d.box[2], d.box[3]) for d in dice)))
    return HAND_SHARE * max(1.0, side / expected_die_px(shape)) ** 2


def blank_warning(frame: np.ndarray) -> str:
    """What to tell the table of a frame that is one flat shade (:func:`blank`)."""
    level = float(frame.mean())
    return BLACK if level < 40 else WHITE if level > 215 else FLAT


def smeared_warning(work: WorkFrame, dice: Sequence[DieRead], die: str,
                    profile: Profile | None) -> str | None:
    """The smear warning for a frame's dice (boxes in frame pixels), or None: pip dice
    from :data:`vision.smear.SMEAR_FROM`; enrolled dice from above their faces' own
    direction (:func:`vision.smear.smear_from`; not checked when the profile kept no
    crops to measure it from); other dice are not checked."""
    boxes = [unscaled(d.box, 1 / work.scale) for d in dice]
    if profile is None:
        return smear_warning(smear(work.image, boxes)) if die == "d6" else None
    own = profile.directions_of([d.face for d in dice])
    if own is None:
        return None
    value, share = smear_and_own(work.image, boxes, own)
    return smear_warning(value, smear_from(share))
