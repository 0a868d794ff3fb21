"""Dice reads answer the table's roll prompt: the policy between the reader and the rules.

A read (camera frame or phone photo) is made for the table's open roll prompt, with the
prompt's die (``seafall``, ``d6``, ...). Then:

* **applied at once** when every die is certain (no die uncertain, no warning) and the
  number of dice equals what the prompt asks for: the prompt's command (``roll``) is
  applied with the faces, and the read's id, source, confidences and frame URL ride along
  in its arguments as evidence;
* otherwise **pending** until a player confirms it (optionally giving the faces), which
  applies it with the page's ``expected_version`` (stale: 409, nothing changes);
* a newer read for the table replaces a pending one (``superseded``);
* a **re-roll** seen by the camera (the prompt asks for fewer dice than the tray holds):
  the dice that moved since the last read (:class:`vision.rolls.RollTracker`) answer it
  when they are exactly as many as the prompt asks for (``used``), and wait for the table
  when the dice left in place do not show what the re-roll keeps (``RollPrompt.keep``:
  the wrong dice were picked up);
* **correcting** a die of a pending read changes it there; correcting a die of an applied
  read undoes that roll and applies it again with the corrected faces, provided nothing
  was done after the roll (otherwise 409: undo the later commands first). Every correction
  is recorded with who made it.
* a read whose roll the table **undid** (its command is off the undo stack, :func:`undone`)
  is shown as ``undone``, never stored so (a redo makes it applied again): confirming it
  applies it again as it was, and correcting a die of it applies it again with the
  corrected faces, while its roll is open.
* **the profile learns** (the issue's "rolls and confirms"): once a read is applied after
  the table confirmed or corrected it, the dice the reader was unsure of or read wrong
  join the die's enrolled profile with the faces the table gave
  (:meth:`vision.enrollment.Profile.learn`), and the next rolls are read with it. A die
  corrected again is learned again, as last said. A profile loaded from the profile folder
  is saved back; the built-in d6 network does not learn.
* **enrolling at the table**: a die with no profile yet (none in the profile folder) is
  not refused: its dice are found and shown unread (face ``"?"``), and the players give
  their faces. Once the confirmed dice hold
  :data:`~web.runtime.dicereaders.STARTER_PER_FACE` of every face, a profile is made from
  them (up to :data:`~web.runtime.dicereaders.ENROLL_PER_FACE` each, the first confirmed,
  less any the others doubt: a die named wrongly, or no die, :mod:`vision.profilecheck`)
  and saved, and the table reads that die itself from then on. Only dice of rolls still
  in their games count (an undone roll's names nothing, at any table), and only of reads
  taken after the die was last started over (``tableside profiles remove``).
* an undone roll keeps what it taught the profile (the lesson is taken back with
  ``tableside profiles forget NAME --read ID``): undo and redo are the table's, and this
  service teaches only when it applies a read (docs/vision.md, "Rolls and confirms").

Every change goes through :class:`companion.table.Table`, so it reaches the log, the undo
stack and every phone like any other command.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

import cv2
import numpy as np

from companion.dice import find_die
from companion.engine import Command
from companion.errors import IllegalCommand, InvalidCommand
from companion.prompts import RollPrompt
from companion.store.errors import StorageRefused, StoreError, VersionConflict
from companion.store.records import undo_stacks
from companion.table import Table
from vision.calibration import Calibration
from vision.faces import faces_of
from vision.hands import SkinScene
from vision.profilefile import EnrollmentError
from vision.reader import UNREAD
from vision.reading import DieRead, TrayRead
from vision.rolls import RollTracker
from vision.said import said_of
from vision.transparency import under_transparency
from web.errors import NotFound
from web.runtime.dicereaders import ENROLL_PER_FACE, STARTER_PER_FACE, DiceReaders
from web.runtime.images import decode_photo
from web.runtime.readnotes import (
    APPLIED_ALREADY,
    BOXED_ALREADY,
    BOXED_NOT_A_DIE,
    COUNT,
    EARLY,
    EARLY_NOTE_START,
    LAST_DIE,
    MORE_HAPPENED,
    MOST_BOXES_HELD,
    NO_BUTTON_READ,
    NO_DIE_READ,
    NO_FACES,
    NO_ROLL,
    NO_SIZE,
    NOT_A_DIE_FIRST,
    NOT_APPLIED,
    NOT_REROLLED,
    NOT_WAITING_ADD,
    NOT_WAITING_TAKE_OUT,
    PICTURE_GONE,
    REPLACED_CONFIRM,
    REPLACED_CORRECT,
    ROLL_CLOSED,
    UNKNOWN_DIE,
    UNREAD_FACES,
    WRONG_KEPT,
    WRONG_KEPT_UNSURE,
)
from web.runtime.reads import APPLIED, PENDING, SUPERSEDED, DiceReadRecord, ReadDie, ReadStore

log = logging.getLogger(__name__)

TRACKED_TABLES = 4
"""Tables whose last camera roll is kept (the camera serves the table in focus; a few, so
that a quick switch to another table and back still matches a re-roll). Each keeps its
last settled frame."""


UNDONE = "undone"
"""The status shown for an applied read whose roll was undone; not stored (:func:`undone`)."""


def undone(record: DiceReadRecord, table: Table) -> bool:
    """An applied read whose roll is not in the game: the table undid it (and did not redo
    it), or its command is not the one that applied this read. A read keeps its command's
    number, and a game database put back from a backup (docs/store.md) can have given that
    number to another command since; that command names its read (``read_id``)."""
    if record.status != APPLIED:
        return False
    return _off_the_stack(record, table.applied, table.store)


def _off_the_stack(record: DiceReadRecord, applied: Sequence[int], store: Any) -> bool:
    """:func:`undone` for an applied read of the game whose undo stack (command numbers in
    effect) is ``applied``, its records in the event ``store``."""
    if record.applied_command not in applied:
        return True
    try:
        command = store.record(record.table_id, record.applied_command)
    except (KeyError, StoreError):
        return True
    return bool(command.args.get("read_id") != record.id)


def _read_at(record: DiceReadRecord) -> datetime:
    """When a read was taken (its ``created_at``, UTC)."""
    return datetime.fromisoformat(record.created_at)


def roll_prompt(table: Table) -> RollPrompt | None:
    """The table's open roll prompt, if the first thing it asks for is dice."""
    prompts = list(table.prompts())
    if prompts and isinstance(prompts[0], RollPrompt):
        return prompts[0]
    return None


@contextmanager
def _holding(table: Table) -> Iterator[None]:
    """Hold the table's own lock across several steps (apply and read its version; undo and
    apply again), so no other thread's command slips in between. The table's lock is
    re-entrant, so its own methods still take it."""
    lock = getattr(table, "_lock", None)
    if lock is None:
        yield
        return
    with lock:
        yield


class NoDiceRead(ValueError):
    """A camera frame settled with no die read, and the reader said why it may have missed
    them (a profile the dice are unlike, the lens covered): for the camera's status, so the
    table sees why its roll was not taken."""


@dataclass
class DiceService:
    """Makes reads for tables' roll prompts, applies, confirms and corrects them."""

    store: ReadStore
    readers: DiceReaders = field(default_factory=DiceReaders)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _trackers: dict[str, RollTracker] = field(default_factory=dict)  # camera, per table
    _tracking: threading.Lock = field(default_factory=threading.Lock)
    """Guards the trackers: the camera thread adds rolls while a phone's confirmation
    (under ``_lock``, taken before this one) tells the last roll its faces."""
    _camera_rolls: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Per table, the camera read its tracker's last roll was recorded as: (read id, roll
    id), so the table's confirmations and corrections of that read reach the tracker."""
    on_read: Callable[[str], None] | None = None
    """Told a table's id when one of its reads is recorded, or corrected while it waits,
    without the table changing (the live streams: :meth:`web.live.Broker.dice_read`)."""

    # -- new reads ---------------------------------------------------------------------------
    def read_photo(self, table: Table, data: bytes, actor: str | None = None,
                   who: str | None = None) -> DiceReadRecord:
        """A phone photo of the dice, read for the table's open roll prompt. ``actor`` is
        who the roll command is sent as (a province, or None for the table), ``who`` the
        person recorded as having sent the photo."""
        prompt = self._open_prompt(table)
        frame, hidden = decode_photo(data)
        tray = under_transparency(self.readers.read(prompt.die, frame, "photo", photo=True),
                                  hidden)
        return self.record(table, prompt, tray, frame, source="photo", actor=actor, who=who)

    def read_frame(self, table: Table, frame: np.ndarray, ref: str = "camera",
                   actor: str | None = "camera", motion: np.ndarray | None = None,
                   setup: Calibration | None = None,
                   early: float | None = None,
                   skin_scene: SkinScene | None = None,
                   lens_degrees: float | None = None,
                   again: bool = False) -> DiceReadRecord | None:
        """A settled camera frame; None when the table has no roll prompt open, the tray
        is empty (it settles empty between rolls: that is no roll) or no die on it was
        thrown since the last read (one was taken off); :class:`NoDiceRead`
        when no die was read and the reader warned why (the camera's status shows it; the
        last roll is kept for a re-roll: a covered lens does not pick the dice up).
        A die whose place looks as it did in the last read's frame was not re-rolled;
        ``motion`` (0/1, the frame's size: where anything moved since the last settle) is
        used where there is no last frame to compare with. ``early`` (seconds) says the
        dice settled that long before the roll was asked for: they may have been thrown
        for it, or be left from before, so the read waits for the table (:func:`early_note`)
        and is never applied as read. ``skin_scene``: the camera's tray with no hand in
        it (a wooden tray's skin colour is no hand: :mod:`vision.hands`); ``lens_degrees``:
        the camera's own lens, for a ``setup`` that keeps none (:meth:`DiceReaders.read`).
        ``again``: the table asked for a re-read (nothing was thrown): the camera's last
        roll read again (:meth:`vision.rolls.RollTracker.again`), replacing the read that
        waits."""
        prompt = roll_prompt(table)
        if prompt is None:
            return None
        tray = self.readers.read(prompt.die, frame, ref, setup, skin_scene, lens_degrees)
        with self._tracking:  # a phone may be confirming the last camera read meanwhile
            if not tray.dice:
                if tray.warnings:  # a covered lens, the light off: the dice may be there
                    # the one warning said in the page's language (vision.said)
                    why = tray.warnings[0] if len(tray.warnings) == 1 else "; ".join(
                        tray.warnings)
                    raise NoDiceRead(NO_DIE_READ(why=why))
                self._trackers.pop(table.session_id, None)  # the dice were picked up
                self._camera_rolls.pop(table.session_id, None)
                return None
            tracker = self._trackers.pop(table.session_id, None) or RollTracker()
            self._trackers[table.session_id] = tracker  # the most recent last
            for stale in list(self._trackers)[:-TRACKED_TABLES]:  # each keeps a frame
                del self._trackers[stale]
                self._camera_rolls.pop(stale, None)
            roll = tracker.again(tray, frame) if again else tracker.add(tray, motion, frame)
            # the last camera read no longer matches the tracker's last roll (a new one)
            self._camera_rolls.pop(table.session_id, None)
            if not roll.thrown:  # a die taken off the tray: the others were not rolled again
                return None
        use = None
        warnings = tray.warnings
        if (prompt.count < len(tray.dice) and roll.previous_id is not None
                and len(roll.rerolled) == prompt.count):
            use = roll.rerolled
            kept = [roll.read.dice[i] for i in roll.kept if i not in roll.not_dice]
            if (wrong := _wrong_dice_kept(prompt, kept)):
                warnings = (*warnings, wrong)
        if early is not None:
            warnings = (*warnings, early_note(early))
        tray = replace(tray, dice=roll.read.dice, frame=None, warnings=warnings)
        # a box the table said is no die, still lying where it lay (a token), stays out
        record = self.record(table, prompt, tray, frame, source="camera", actor=actor, use=use,
                             not_dice=roll.not_dice)
        with self._tracking:
            if tracker.last is not None and tracker.last.id == roll.id:
                self._camera_rolls[table.session_id] = (record.id, roll.id)
        return record

    def record(self, table: Table, prompt: RollPrompt, tray: TrayRead, frame: np.ndarray, *,
               source: str, actor: str | None, who: str | None = None,
               use: Sequence[int] | None = None,
               not_dice: Mapping[int, str] | None = None) -> DiceReadRecord:
        """Keep a read as evidence and apply it at once if the policy allows; ``use``
        names the dice that answer the prompt (a re-roll), all of them by default;
        ``not_dice`` the boxes the table already said are no dice (who said so)."""
        version = table.version
        not_dice = not_dice or {}
        dice = [ReadDie(d.face, d.confidence, d.uncertain, d.box, d.face,
                        not_a_die_by=not_dice.get(i)) for i, d in enumerate(tray.dice)]
        notes: list[str] = []
        answering = len([i for i in (use if use is not None else range(len(dice)))
                         if i not in not_dice])
        if answering != prompt.count:
            notes.append(COUNT(count=prompt.count, seen=len(dice) - len(not_dice)))
        if any(d.read_face == UNREAD for d in dice):
            notes.append(UNKNOWN_DIE(die=tray.die, starter=STARTER_PER_FACE))
            notes.extend(self.readers.waiting.get(tray.die, ()))  # what holds it back
        with self._lock:
            record = self.store.add(
                table_id=table.session_id, prompt_id=prompt.id, die=tray.die, source=source,
                actor=who or actor, dice=dice, crops=[d.crop for d in tray.dice], frame=frame,
                expected=prompt.count, warnings=tray.warnings, ms=tray.ms, notes=notes,
                used=use)
            self.store.supersede(table.session_id, prompt.id, keep=record.id)
            if record.is_certain and answering == prompt.count and not tray.warnings:
                try:
                    record = self._apply(table, record, record.answer, actor, version)
                except (IllegalCommand, InvalidCommand, VersionConflict, StorageRefused) as exc:
                    # it waits for the table (a full disk: until there is room to confirm it)
                    notes = (NOT_APPLIED(why=said_of(exc)),)  # a message stays one
                    try:
                        record = self.store.update(record, notes=notes)
                    except StorageRefused:  # said in the answer, if not in the reads' file
                        record = replace(record, notes=notes)
        if record.status == PENDING:
            self._tell_phones(table)
        return record

    def _tell_phones(self, table: Table) -> None:
        """A read of ``table`` waits for it, and no new version says so (:attr:`on_read`)."""
        if self.on_read is not None:
            try:
                self.on_read(table.session_id)
            except Exception:  # the streams must not fail a read
                log.exception("telling the phones of a dice read failed")

    # -- players' answers --------------------------------------------------------------------
    def _latest_for_roll(self, table: Table) -> tuple[RollPrompt, DiceReadRecord] | None:
        """The roll open now and the table's latest read, when it was made for that roll."""
        prompt = roll_prompt(table)
        record = self.store.latest(table.session_id) if prompt is not None else None
        if prompt is None or record is None or record.prompt_id != prompt.id:
            return None
        return prompt, record

    def camera_read_waiting(self, table: Table) -> DiceReadRecord | None:
        """The camera's read of the roll open now, if it waits for the table (pending): the
        read a re-read replaces (:meth:`read_frame` ``again``)."""
        found = self._latest_for_roll(table)
        if found is None or found[1].status != PENDING or found[1].source != "camera":
            return None
        return found[1]

    def waiting_read(self, table: Table) -> DiceReadRecord | None:
        """The read a button's confirm may apply as read, if any: the table's latest read,
        made for the roll open now and as many dice as it asks for, that waits for the
        table's word only (pending with every die read sure, and no warning but that the
        dice settled before the roll was asked for), or whose roll was undone (the table
        had taken its faces). A die the reader was unsure of, a hand in the tray, the wrong
        dice kept for a re-roll are for a phone, where the players see each die."""
        found = self._latest_for_roll(table)
        if found is None:
            return None
        prompt, record = found
        faces = tuple(record.applied_faces or record.answer)
        if UNREAD in faces or len(faces) != prompt.count:
            return None
        if undone(record, table):
            return record
        if record.status == PENDING and record.is_certain and all(
                w.startswith(EARLY_NOTE_START) for w in record.warnings):
            return record
        return None

    def confirm_as_read(self, table: Table, read_id: str, who: str) -> DiceReadRecord:
        """A button's confirm: :meth:`waiting_read`'s read applied as read, for the table
        (the buttons belong to no province), teaching the profile nothing (nobody looked
        at each die); ``IllegalCommand`` when ``read_id`` is not that read any more."""
        with self._lock:
            waiting = self.waiting_read(table)
            if waiting is None or waiting.id != read_id:
                raise IllegalCommand(NO_BUTTON_READ)
            return self._confirm(table, waiting, None, None, None, who, looked=False)

    def confirm(self, table: Table, read_id: str, faces: Sequence[str] | None,
                expected_version: int | None, actor: str | None,
                who: str | None = None) -> DiceReadRecord:
        """Apply a pending read, with the faces given (corrections) or as read."""
        with self._lock:
            return self._confirm(table, self.get(table, read_id), faces, expected_version,
                                 actor, who, looked=True)

    def _confirm(self, table: Table, record: DiceReadRecord, faces: Sequence[str] | None,
                 expected_version: int | None, actor: str | None, who: str | None,
                 looked: bool) -> DiceReadRecord:
        """``looked``: the players saw every die (a phone), so every die teaches."""
        if record.status == APPLIED and not undone(record, table):
            raise IllegalCommand(APPLIED_ALREADY)
        if record.status == SUPERSEDED:
            raise IllegalCommand(REPLACED_CONFIRM)
        shown = tuple(record.applied_faces or record.answer)  # an undone read's as applied
        new_faces = shown if faces is None else self._faces(record.die, faces)
        if UNREAD in new_faces:
            raise InvalidCommand(UNREAD_FACES)
        if not new_faces:
            raise InvalidCommand(NO_FACES)
        applied = self._apply(table, record, new_faces, actor, expected_version)
        confirmed = self._note_corrections(applied, shown, new_faces, who or actor, False)
        self._teach(table, confirmed, confirmed=looked)
        self._tell_camera(table, confirmed)
        return confirmed

    def correct(self, table: Table, read_id: str, die: int, face: str,
                expected_version: int | None, actor: str | None,
                who: str | None = None) -> DiceReadRecord:
        """Change one die's face; an applied read's roll is undone and applied again."""
        with self._lock:
            record = self.get(table, read_id)
            if record.status == SUPERSEDED:
                raise IllegalCommand(REPLACED_CORRECT)
            if 0 <= die < len(record.dice) and record.dice[die].not_a_die_by is not None:
                raise InvalidCommand(NOT_A_DIE_FIRST(die=die))
            before = tuple(record.applied_faces or record.answer)
            faces = list(before)
            slot = self._slot(record, die, len(faces))
            self._faces(record.die, [face])
            old = faces[slot]
            faces[slot] = face
            if record.status == PENDING:
                if expected_version is not None and expected_version != table.version:
                    raise VersionConflict(table.session_id, expected_version, table.version)
                noted = self._note_corrections(record, before, tuple(faces), who or actor,
                                               False)
                self._tell_camera(table, noted)
                self._tell_phones(table)
                return noted
            if undone(record, table):  # its roll was undone: applied again, corrected
                updated = self._apply(table, record, tuple(faces), actor, expected_version)
                corrected = self._note_corrections(updated, before, tuple(faces),
                                                   who or actor, False)
                self._teach(table, corrected)
                self._tell_camera(table, corrected)
                return corrected
            if old == face:
                return record
            updated = self._reapply(table, record, tuple(faces), actor, expected_version)
            corrected = self._note_corrections(updated, before, tuple(faces), who or actor,
                                               True)
            self._teach(table, corrected)
            self._tell_camera(table, corrected)
            return corrected

    def mark_not_a_die(self, table: Table, read_id: str, die: int, not_a_die: bool,
                       expected_version: int | None, actor: str | None,
                       who: str | None = None) -> DiceReadRecord:
        """The table says box ``die`` of a read waiting for a confirm is no die of the roll
        (a token, a die outside the tray, a die's side boxed as one of its own), or is one
        after all (``not_a_die`` False): it leaves, or joins again, the dice that answer the
        roll, so that the read can be confirmed with the dice really thrown. Its crop stays
        as evidence; a box that is no die teaches the profile nothing."""
        with self._lock:
            record = self._waiting(table, read_id, expected_version, NOT_WAITING_TAKE_OUT)
            if not 0 <= die < len(record.dice):
                raise InvalidCommand(f"'die' is a die number, 0 to {len(record.dice) - 1}")
            this = record.dice[die]
            if (this.not_a_die_by is not None) == not_a_die:
                return record  # already so: another phone said it first
            if not_a_die and record.positions == (die,):
                raise InvalidCommand(LAST_DIE)
            who = who or actor or "someone"
            dice = list(record.dice)
            dice[die] = replace(this, not_a_die_by=who if not_a_die else None)
            self.store.add_correction(record.id, die, this.face if not_a_die else None,
                                      None if not_a_die else this.face, who, False)
            self.store.update(record, dice=tuple(dice))
            fresh = self._recounted(self.get(table, read_id))
            self._tell_camera(table, fresh)
            self._tell_phones(table)
            return fresh

    def _recounted(self, record: DiceReadRecord) -> DiceReadRecord:
        """The read with its note on the roll's count said again for the dice it holds now
        (a die the table added or took out), or gone once they are as many as the roll
        asks: "the reader saw 1" stayed under the two dice of a roll of two."""
        seen = len(record.positions)  # the dice that answer the roll, as confirm takes them
        notes = list(record.notes)
        at = next((i for i, n in enumerate(notes) if getattr(n, "key", None) == COUNT.key),
                  None)
        if at is not None:
            del notes[at]
        if record.expected is not None and seen != record.expected:
            notes.insert(at or 0, COUNT(count=record.expected, seen=seen))
        if tuple(notes) == tuple(record.notes):
            return record
        return self.store.update(record, notes=tuple(notes))

    def _waiting(self, table: Table, read_id: str, expected_version: int | None,
                 refusal: str) -> DiceReadRecord:
        """Read ``read_id`` while it waits for a confirm, the only time the table changes
        which boxes are dice, asked from a page at ``expected_version``; ``refusal`` is the
        error's message for a read no longer waiting (it says what was asked of it)."""
        record = self.get(table, read_id)
        if record.status != PENDING or undone(record, table):
            raise IllegalCommand(refusal)
        if expected_version is not None and expected_version != table.version:
            raise VersionConflict(table.session_id, expected_version, table.version)
        return record

    def add_die(self, table: Table, read_id: str, x: int, y: int,
                expected_version: int | None, actor: str | None,
                who: str | None = None) -> DiceReadRecord:
        """A die the reader missed, added where the table taps on the read's picture
        (``x``, ``y`` in its pixels, ``frame_size``): a box the size of the read's dice
        about the tap, read by the die's reader (:meth:`vision.reader.DiceReader.
        read_boxes`) and left uncertain, for the table to confirm or name. It answers the
        roll with the others; its box was placed by a tap, so it teaches the profile
        nothing."""
        with self._lock:
            record = self._waiting(table, read_id, expected_version, NOT_WAITING_ADD)
            w, h = record.frame_size
            if not (0 <= x < w and 0 <= y < h):
                raise InvalidCommand(f"'x' and 'y' are a point of the read's picture, "
                                     f"0 to {w - 1} and 0 to {h - 1}")
            for i, die in enumerate(record.dice):
                bx, by, bw, bh = die.box
                if bx <= x < bx + bw and by <= y < by + bh:
                    raise InvalidCommand((BOXED_ALREADY if die.not_a_die_by is None
                                          else BOXED_NOT_A_DIE)(die=i))
            if not record.dice:
                raise IllegalCommand(NO_SIZE)
            if len(record.dice) >= MOST_BOXES:
                raise IllegalCommand(MOST_BOXES_HELD(most=MOST_BOXES))
            path = self.store.file(record.id, "frame.jpg")
            frame = cv2.imread(str(path), cv2.IMREAD_COLOR) if path is not None else None
            if frame is None or frame.shape[:2] != (h, w):
                raise IllegalCommand(PICTURE_GONE)
            side = min(int(np.median([max(d.box[2], d.box[3]) for d in record.dice])), w, h)
            box = (min(max(x - side // 2, 0), w - side), min(max(y - side // 2, 0), h - side),
                   side, side)
            (read,) = self.readers.reader(record.die).read_boxes(frame, [box])
            who = who or actor or "someone"
            added = ReadDie(read.face, read.confidence, True, box, read.face, added_by=who)
            self.store.add_correction(record.id, len(record.dice), None, read.face, who, False)
            self.store.add_die(record, added, read.crop)
            fresh = self._recounted(self.get(table, read_id))
            self._tell_phones(table)
            return fresh

    # -- looking up --------------------------------------------------------------------------
    def get(self, table: Table | None, read_id: str) -> DiceReadRecord:
        record = self.store.get(read_id)
        if record is None or (table is not None and record.table_id != table.session_id):
            raise NotFound(f"there is no dice read {read_id!r}"
                           + (f" for table {table.session_id}" if table is not None else ""))
        return record

    def latest(self, table: Table) -> DiceReadRecord:
        record = self.store.latest(table.session_id)
        if record is None:
            raise NotFound(f"no dice have been read for table {table.session_id} yet")
        return record

    # -- helpers -----------------------------------------------------------------------------
    def _tell_camera(self, table: Table, record: DiceReadRecord) -> None:
        """The table's faces for a camera read reach the camera's roll tracker: a die of it
        that stays in the tray keeps the face the table gave in the next read (a re-roll of
        the others), sure, instead of the reader's first guess. The faces the table gave are
        those of an applied read's dice that answered the roll, and any die corrected. A box
        the table said is no die (a token) stays out of the next reads while it lies where
        it lies, so the table does not take it out again at every throw."""
        faces = {i: d.face for i, d in enumerate(record.dice) if d.corrected_by is not None}
        applied = record.applied_faces if record.status == APPLIED else None
        if applied is not None and len(applied) == len(record.positions):
            faces.update(zip(record.positions, applied, strict=True))
        # faces given for a different number of dice than were seen say nothing of each die;
        # a die the table added is none of the camera's read (the tracker would take no face)
        faces = {i: f for i, f in faces.items() if record.dice[i].added_by is None}
        # a box said to be no die stays out of the next reads while it lies where it lies
        not_dice = {i: d.not_a_die_by for i, d in enumerate(record.dice)
                    if d.not_a_die_by is not None and d.added_by is None}
        with self._tracking:
            camera = self._camera_rolls.get(table.session_id)
            tracker = self._trackers.get(table.session_id)
            if camera is None or tracker is None or camera[0] != record.id:
                return
            tracker.confirm(camera[1], {i: f for i, f in faces.items() if f != UNREAD},
                            not_dice)

    def _teach(self, table: Table, record: DiceReadRecord, confirmed: bool = False) -> None:
        """Teach the die's profile the applied read's dice the players looked at, with the
        faces the table gave: every die of a read they confirmed (``confirmed``: they saw
        the whole roll and named or passed each die), else the dice they corrected (even
        back to the face read: what was learned from the wrong face is replaced). A read
        applied as read, every die sure, teaches nothing: a wrong sure read would teach
        itself. Nothing is learned when the faces were replaced as a whole (a die missed
        or extra: which face is which crop's is not known). Learning never fails the
        confirm: a problem is logged."""
        faces = tuple(record.dice[i].face for i in record.positions)
        if record.status != APPLIED or faces != tuple(record.applied_faces or ()):
            return
        dice = []
        for i in record.positions:
            d = record.dice[i]
            if not (confirmed or d.face != d.read_face or d.corrected_by is not None):
                continue  # read sure and right, and not looked at: nothing to learn
            if d.added_by is not None:
                continue  # its box was placed by a tap: its crop may sit off the die
            path = self.store.file(record.id, f"crop-{i}.png")
            crop = cv2.imread(str(path), cv2.IMREAD_COLOR) if path is not None else None
            if crop is not None:
                dice.append((d.face, crop, f"{record.id}:{i}"))
        if not dice:
            return
        try:
            if self.readers.reader(record.die).profile is None:
                self._enroll_at_table(record.die, table)
            else:
                self.readers.learn(record.die, dice)
        except (EnrollmentError, IllegalCommand, OSError, ValueError) as exc:
            log.warning("the %s profile could not learn read %s: %s", record.die, record.id,
                        exc)


    def _enroll_at_table(self, die: str, table: Table) -> None:
        """Make the die's profile once the table has named enough of its unread dice: the
        dice of the reads of that die whose rolls are in their games, oldest first. A roll
        a table undid (and did not redo) is no longer in its game, whatever its read's
        stored status says (:func:`undone`): dice named wrongly are taken back so, and they
        must not make the profile. That holds for every table's reads: those of ``table``
        are judged by its undo stack, those of other tables (another game of the same
        campaign, say) by theirs as the game database keeps it, and a read of a game the
        database does not hold (put back from an earlier backup) counts for nothing. Reads
        taken before the die was last started over (``tableside profiles remove``,
        :meth:`DiceReaders.started_over`) do not count either."""
        labels = faces_of(die) or tuple(dict.fromkeys(f.label for f in find_die(die).faces))
        crops: dict[str, list[np.ndarray]] = {label: [] for label in labels}
        since = self.readers.started_over(die)
        stacks: dict[str, Sequence[int] | None] = {table.session_id: table.applied}
        for record in self.store.applied(die):
            if since is not None and _read_at(record) <= since:
                continue  # named before the die was started over
            if record.table_id not in stacks:
                try:
                    stacks[record.table_id] = undo_stacks(
                        table.store.records(record.table_id))[0]
                except (KeyError, StoreError, ValueError):
                    stacks[record.table_id] = None  # no such game here: in no game
            applied = stacks[record.table_id]
            if applied is None or _off_the_stack(record, applied, table.store):
                continue  # its roll was undone: the dice may have been named wrongly
            if tuple(record.dice[i].face for i in record.positions) != record.applied_faces:
                continue  # faces replaced as a whole: which crop shows which is not known
            for i in record.positions:
                d = record.dice[i]
                if (d.read_face != UNREAD or d.face not in crops or d.added_by is not None
                        or len(crops[d.face]) >= 2 * ENROLL_PER_FACE):  # spares for the check
                    continue
                path = self.store.file(record.id, f"crop-{i}.png")
                crop = cv2.imread(str(path), cv2.IMREAD_COLOR) if path is not None else None
                if crop is not None:
                    crops[d.face].append(crop)
        if min(len(v) for v in crops.values()) >= STARTER_PER_FACE:
            profile = self.readers.start_profile(die, crops)
            if profile is not None:
                log.info("the table enrolled the %s die from %d confirmed dice", die,
                         len(profile.owners))

    @staticmethod
    def _open_prompt(table: Table) -> RollPrompt:
        prompt = roll_prompt(table)
        if prompt is None:
            raise IllegalCommand(NO_ROLL)
        return prompt

    @staticmethod
    def _faces(die: str, faces: Any) -> tuple[str, ...]:
        if not isinstance(faces, (list, tuple)) or not all(isinstance(f, str) for f in faces):
            raise InvalidCommand("'faces' is a list of face labels")
        try:
            known = find_die(die)
        except (KeyError, ValueError):
            return tuple(faces)
        for label in faces:
            known.face(label)  # InvalidCommand names the faces of the die
        return tuple(faces)

    def _apply(self, table: Table, record: DiceReadRecord, faces: Sequence[str],
               actor: str | None, expected_version: int | None) -> DiceReadRecord:
        with _holding(table):
            prompt = roll_prompt(table)
            if prompt is None or prompt.id != record.prompt_id:
                raise IllegalCommand(ROLL_CLOSED)
            table.apply(self._command(record, prompt, faces, actor),
                        expected_version=expected_version)
            version, command_no = table.version, table.last_command
        applied = {"status": APPLIED, "applied_version": version, "applied_command": command_no,
                   "applied_faces": tuple(faces)}
        try:
            return self.store.update(record, **applied)
        except StorageRefused as exc:  # the roll is in the game: the answer must say so
            log.warning("read %s is applied (command %d) but the reads file could not say "
                        "so: %s", record.id, command_no, exc)
            return replace(record, **applied)

    @staticmethod
    def _slot(record: DiceReadRecord, die: int, answered: int) -> int:
        """Where die ``die`` (a number in ``dice``, as its crop) sits in the faces sent."""
        positions = record.positions
        if answered == len(positions):
            if die not in positions:
                if 0 <= die < len(record.dice):
                    raise InvalidCommand(NOT_REROLLED(die=die, dice=[str(p) for p in positions]))
                raise InvalidCommand(f"'die' is a die number, 0 to {len(record.dice) - 1}")
            return positions.index(die)
        if not 0 <= die < answered:  # the faces were replaced as a whole when confirmed
            raise InvalidCommand(f"'die' is a die number, 0 to {answered - 1}")
        return die

    @staticmethod
    def _confidences(record: DiceReadRecord, faces: Sequence[str]) -> list[float] | None:
        dice = [record.dice[i] for i in record.positions]
        if len(faces) != len(dice):
            return None
        return [round(d.confidence, 3) if d.face == f and d.corrected_by is None else 1.0
                for d, f in zip(dice, faces, strict=True)]

    def _command(self, record: DiceReadRecord, prompt: RollPrompt, faces: Sequence[str],
                 actor: str | None) -> Command:
        """The command that answers ``prompt`` with a read's dice as ``faces``."""
        confidences = self._confidences(record, faces)
        args: dict[str, Any] = {prompt.arg: list(faces), "die": record.die,
                                "source": record.source, "read_id": record.id,
                                "image": f"/api/dice/{record.id}/frame.jpg"}
        if confidences is not None:
            args["confidence"] = confidences
        return Command(prompt.command, args, actor)

    def _reapply(self, table: Table, record: DiceReadRecord, faces: tuple[str, ...],
                 actor: str | None, expected_version: int | None) -> DiceReadRecord:
        with _holding(table):
            if expected_version is not None and expected_version != table.version:
                raise VersionConflict(table.session_id, expected_version, table.version)
            if not table.applied or table.applied[-1] != record.applied_command:
                raise IllegalCommand(MORE_HAPPENED)
            # decided first on the state the undo would leave: a correction the engine
            # refuses (another player's roll) used to undo and redo the roll, both recorded
            before = table.before_last()
            prompts = list(table.engine.prompts(before))
            prompt = prompts[0] if prompts and isinstance(prompts[0], RollPrompt) else None
            if prompt is None or prompt.id != record.prompt_id:
                raise IllegalCommand(ROLL_CLOSED)
            list(table.engine.decide(before, self._command(record, prompt, faces, actor)))
            table.undo(actor)
            try:
                return self._apply(table, record, faces, actor, None)
            except (IllegalCommand, InvalidCommand):
                table.redo(actor)  # put the roll as it was back
                raise

    def _note_corrections(self, record: DiceReadRecord, old: Sequence[str],
                          new: Sequence[str], actor: str | None,
                          after_apply: bool) -> DiceReadRecord:
        if tuple(old) == tuple(new):
            return record
        dice = list(record.dice)
        positions = record.positions
        if len(old) == len(new) == len(positions):
            for k, (before, after) in enumerate(zip(old, new, strict=True)):
                i = positions[k]
                if before != after:
                    self.store.add_correction(record.id, i, before, after, actor, after_apply)
                    dice[i] = replace(dice[i], face=after, corrected_by=actor or "someone")
        else:
            self.store.add_correction(record.id, None, " ".join(old), " ".join(new), actor,
                                      after_apply)
        self.store.update(record, dice=tuple(dice))
        fresh = self.store.get(record.id)
        assert fresh is not None
        return fresh


MOST_BOXES = 64
"""The most boxes a read holds with the dice the table added (a SeaFall pool is at most a
few tens of dice)."""

def early_note(seconds: float) -> str:
    """Why a read of dice that settled before their roll was asked for waits for the
    table: they may be this roll's, thrown a moment early, or dice left from before."""
    return EARLY(seconds=round(seconds))


def _wrong_dice_kept(prompt: RollPrompt, kept: Sequence[DieRead]) -> str | None:
    """Why a re-roll read cannot be applied as read: the dice left in the tray do not show
    what the re-roll keeps (``prompt.keep``), so other dice than those asked for were
    picked up; None when they do (or the game does not say what it keeps)."""
    shown = sorted(d.face for d in kept)
    if not prompt.keep or shown == sorted(prompt.keep):
        return None
    said = WRONG_KEPT_UNSURE if any(d.uncertain for d in kept) else WRONG_KEPT
    return said(shown=shown, keeps=sorted(prompt.keep))


CLOSED = "closed"
"""The status shown for a read left waiting when its roll was answered otherwise (the faces
typed, another read confirmed) or is no longer asked: nothing can confirm it any more. Not
stored: the roll asked again (its answer undone) makes it ``pending`` again."""


def closed(record: DiceReadRecord, table: Table) -> bool:
    """A pending read whose roll is not the one the table asks for now."""
    if record.status != PENDING:
        return False
    prompt = roll_prompt(table)
    return prompt is None or prompt.id != record.prompt_id


def correctable(record: DiceReadRecord, table: Table) -> bool:
    """Whether the table may still change a die of the read (:meth:`DiceReads.correct`): a
    pending read while its roll is asked, an undone one while its roll is asked again (it
    is applied again), an applied one while its roll is the last command in effect (nothing
    done after it); never a superseded one."""
    if record.status == PENDING:
        return not closed(record, table)
    if record.status != APPLIED:
        return False
    if undone(record, table):
        prompt = roll_prompt(table)
        return prompt is not None and prompt.id == record.prompt_id
    return bool(table.applied) and table.applied[-1] == record.applied_command


def table_reads_json(record: DiceReadRecord, table: Table) -> dict[str, Any]:
    """A read as the API answers it, with the table's version and prompts after it, and
    whether a die of it may still be corrected (``can_correct``)."""
    out = record.to_json()
    if undone(record, table):
        out["status"] = UNDONE
    elif closed(record, table):
        out["status"] = CLOSED
    out["can_correct"] = correctable(record, table)
    out["table_version"] = table.version
    out["prompts"] = [p.to_json() for p in table.prompts()]
    return out


def parse_faces(data: Mapping[str, Any]) -> list[str] | None:
    faces = data.get("faces")
    if faces is None:
        return None
    if not isinstance(faces, list) or not all(isinstance(f, str) for f in faces):
        raise InvalidCommand("'faces' is a list of face labels")
    return faces
