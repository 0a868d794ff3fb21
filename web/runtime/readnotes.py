"""What the runtime tells the table about a dice read, beside the reader's own warnings
(:mod:`vision.framewarnings`): the roll's count, dice the table does not know yet, a read
that settled early, a re-roll with the wrong dice picked up, a read not applied. Each is a
:class:`vision.said.Message`, so the pages say it in the player's language (``said.<key>``
in ``web/i18n``); the API and the logs have the English.
"""

from __future__ import annotations

from vision.said import message

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
UNKNOWN_DIE = message(
    "runtime.unknown_die",
    "this table does not know {die} dice yet: give their faces; after {starter} of each face "
    "it reads them itself")
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
