"""What the runtime tells the table about a dice read, beside the reader's own warnings
(:mod:`vision.framewarnings`): the roll's count, dice the table does not know yet, a read
that settled early, a re-roll with the wrong dice picked up, a read not applied; and why it
refuses the table's word on a read (the refusals below: an API error's message). Each is a
:class:`vision.said.Message`, so the pages say it in the player's language (``said.<key>``
in ``web/i18n``); the API and the logs have the English.
"""

from __future__ import annotations

from vision.said import Said, message

EARLY_NOTE_START = "these dice settled "
"""How :data:`EARLY` begins in English (a read kept before this key was stored is known by
it)."""

EARLY = message(
    "runtime.early",
    EARLY_NOTE_START + "{seconds} s before the roll was asked for: if they were thrown for "
    "it, confirm them; if not, throw again")
WRONG_KEPT = message(
    "runtime.wrong_kept",
    "the dice left in place show {shown}, but the re-roll keeps {keeps}: were the right dice "
    "picked up? Check the dice and confirm the re-roll's faces")
WRONG_KEPT_UNSURE = message(
    "runtime.wrong_kept_unsure",
    "the dice left in place show {shown} (not all read for sure), but the re-roll keeps "
    "{keeps}: were the right dice picked up? Check the dice and confirm the re-roll's faces")
COUNT = message(
    "runtime.count", "the roll asks for {count} dice; the reader saw {seen}",
    one="the roll asks for {count} die; the reader saw {seen}")
_UNKNOWN_DIE = message(
    "runtime.unknown_die",
    "this table does not know {die} dice yet: give their faces; after {starter} of each face "
    "it reads them itself")

DIE_NAMES = {"seafall": "SeaFall"}
"""A kind of die as players call it, as the roll prompt names it (the pages' ``die.*``);
any other by its id ("d6")."""


def UNKNOWN_DIE(*, die: str, starter: int) -> Said:  # noqa: N802 - a message, as the others
    """Dice the table has no profile for, by the name the roll prompt gives them ("this
    table does not know SeaFall dice yet"): it said the die's id, "seafall dice"."""
    return _UNKNOWN_DIE(die=DIE_NAMES.get(die, die), starter=starter)
DOUBT_LOOKS_LIKE = message(
    "runtime.doubt_looks_like",
    "waiting: {count} dice named '{face}' look like '{read_as}' to the other named dice: were "
    "they named right?",
    one="waiting: a die named '{face}' looks like '{read_as}' to the other named dice: was "
    "it named right?")
DOUBT_NO_DIE = message(
    "runtime.doubt_no_die",
    "waiting: {count} dice named '{face}' do not look like a die to the other named dice: "
    "were they named right?",
    one="waiting: a die named '{face}' does not look like a die to the other named dice: "
    "was it named right?")
NO_DIE_READ = message("runtime.no_die_read", "no die was read ({why})")
NOT_APPLIED = message("runtime.not_applied", "not applied: {why}")
REPLACED = message("runtime.replaced", "a newer read replaced it")()

# -- refusals: why the table's word on a read cannot be taken (an API error's ``said``) -----

NO_BUTTON_READ = message(
    "refused.no_button_read",
    "no dice read waits for a button's confirm: check the dice on a phone")()
APPLIED_ALREADY = message(
    "refused.applied_already", "this read is already applied; correct a die instead")()
REPLACED_CONFIRM = message(
    "refused.replaced_confirm", "a newer read replaced this one: confirm the latest read")()
REPLACED_CORRECT = message(
    "refused.replaced_correct", "a newer read replaced this one: correct the latest read")()
UNREAD_FACES = message(
    "refused.unread_faces",
    "these dice were found but not read (the table does not know their faces yet): give "
    "their faces ('faces')")()
NO_FACES = message("refused.no_faces", "no dice to confirm: give the faces ('faces')")()
NOT_A_DIE_FIRST = message(
    "refused.not_a_die_first",
    "die {die} was said to be no die of the roll: say it is a die first")
LAST_DIE = message(
    "refused.last_die",
    "this is the read's last die: to say no die was read, type the faces instead")()
NOT_WAITING_TAKE_OUT = message(
    "refused.not_waiting_take_out",
    "only a read waiting for a confirm has boxes to take out; this one's roll was applied: "
    "correct its dice, or undo the roll and type the faces")()
NOT_WAITING_ADD = message(
    "refused.not_waiting_add",
    "only a read waiting for a confirm takes a die it missed; this one's roll was applied: "
    "correct its dice, or undo the roll and type the faces")()
BOXED_ALREADY = message("refused.boxed_already", "die {die} is boxed there already")
BOXED_NOT_A_DIE = message(
    "refused.boxed_not_a_die", "die {die} is boxed there already: say it is a die")
NO_SIZE = message(
    "refused.no_size", "no die was found to size a die by: type the faces")()
MOST_BOXES_HELD = message(
    "refused.most_boxes", "a read holds at most {most} boxes: type the faces")
PICTURE_GONE = message(
    "refused.picture_gone",
    "this read's picture is no longer kept whole: type the faces instead")()
NO_ROLL = message(
    "refused.no_roll", "no roll is asked for now: the table is not waiting for dice")()
ROLL_CLOSED = message(
    "refused.roll_closed", "the roll this read was made for is no longer open")()
NOT_REROLLED = message(
    "refused.not_rerolled", "die {die} was not re-rolled: the re-roll is dice {dice}")
MORE_HAPPENED = message(
    "refused.more_happened",
    "more happened after this roll: undo the later commands first, then correct the die")()
