"""Dice reads with their evidence: what the camera or a phone photo showed, kept on disk.

Each read keeps its frame (``frame.jpg``; reduced, then let go, when the frames pass their
budget: web.runtime.frames) and one crop per die (``crop-<n>.png``, the very pixels the
classifier saw) in ``<reads dir>/files/<read_id>/``, and its metadata in a small
SQLite file of the web layer's own (``<reads dir>/reads.sqlite3``), apart from the event
store: a read is evidence about a command, not a game event. Corrections are rows of their
own, so who changed which die from what to what is never overwritten.

The reads dir sits next to the table database (``<db dir>/reads/``).
"""

from __future__ import annotations

import json
import secrets
import shutil
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from companion.store.errors import refusals_said
from vision.said import said_from_json, said_json
from web.runtime.frames import FULL, Frames
from web.runtime.images import jpeg, png
from web.runtime.readnotes import REPLACED
from web.sidefiles import set_aside_if_damaged

# The frames (a read's whole picture: 100-500 kB) are kept within this many bytes, the
# oldest reduced, the oldest reduced let go (web.runtime.frames); each die's crop (a few
# kB, what a profile learns from) is always kept.
FRAMES_BUDGET = 512 * 1024 * 1024

PENDING = "pending"
APPLIED = "applied"
SUPERSEDED = "superseded"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS reads (
    id TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    prompt_id TEXT,
    die TEXT NOT NULL,
    source TEXT NOT NULL,
    actor TEXT,
    created_at TEXT NOT NULL,
    status TEXT NOT NULL,
    dice TEXT NOT NULL,
    frame_w INTEGER NOT NULL,
    frame_h INTEGER NOT NULL,
    expected INTEGER,
    warnings TEXT NOT NULL,
    ms REAL NOT NULL,
    applied_version INTEGER,
    applied_command INTEGER,
    applied_faces TEXT,
    note TEXT,
    used TEXT
);
CREATE INDEX IF NOT EXISTS reads_by_table ON reads (table_id, created_at);
CREATE TABLE IF NOT EXISTS corrections (
    no INTEGER PRIMARY KEY AUTOINCREMENT,
    read_id TEXT NOT NULL REFERENCES reads (id),
    die INTEGER,
    from_face TEXT,
    to_face TEXT,
    actor TEXT,
    at TEXT NOT NULL,
    after_apply INTEGER NOT NULL
);
"""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class ReadDie:
    """One die of a read: what the reader said, and the face the table uses now."""

    read_face: str
    confidence: float
    uncertain: bool
    box: tuple[int, int, int, int]
    face: str
    corrected_by: str | None = None
    not_a_die_by: str | None = None
    """Who said this box is no die of the roll (a token, a die outside the tray, a die's
    side boxed as one of its own): it answers nothing and teaches nothing, and is kept as
    evidence. None: a die."""
    added_by: str | None = None
    """Who tapped this die on the read's picture, where the reader had missed it: its box
    was placed by a tap, so it is read uncertain and teaches nothing. None: the reader
    found it."""

    def to_json(self) -> dict[str, Any]:
        return {"face": self.face, "read_face": self.read_face,
                "confidence": round(float(self.confidence), 3),
                "uncertain": bool(self.uncertain), "box": list(self.box),
                "corrected_by": self.corrected_by, "not_a_die": self.not_a_die_by is not None,
                "not_a_die_by": self.not_a_die_by, "added_by": self.added_by}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ReadDie:
        return cls(data["read_face"], float(data["confidence"]), bool(data["uncertain"]),
                   tuple(data["box"]), data["face"], data.get("corrected_by"),  # type: ignore[arg-type]
                   data.get("not_a_die_by"), data.get("added_by"))


@dataclass(frozen=True)
class Correction:
    die: int | None  # None: the faces were replaced as a whole (a die missed or extra)
    from_face: str | None
    to_face: str | None
    actor: str | None
    at: str
    after_apply: bool

    def to_json(self) -> dict[str, Any]:
        return {"die": self.die, "from": self.from_face, "to": self.to_face,
                "actor": self.actor, "at": self.at, "after_apply": self.after_apply}


@dataclass(frozen=True)
class DiceReadRecord:
    """A read as kept: its dice, its status and how it reached the table."""

    id: str
    table_id: str
    prompt_id: str | None
    die: str
    source: str
    actor: str | None
    created_at: str
    status: str
    dice: tuple[ReadDie, ...]
    frame_size: tuple[int, int]
    expected: int | None
    warnings: tuple[str, ...] = ()
    ms: float = 0.0
    applied_version: int | None = None
    applied_command: int | None = None
    applied_faces: tuple[str, ...] | None = None
    notes: tuple[str, ...] = ()
    """What the runtime tells the table of the read (web.runtime.readnotes), besides the
    reader's ``warnings``."""
    used: tuple[int, ...] | None = None  # a re-roll: the dice that moved answer it
    corrections: tuple[Correction, ...] = field(default=())

    @property
    def note(self) -> str | None:
        """The :attr:`notes` as one English text, or None."""
        return "; ".join(self.notes) if self.notes else None

    @property
    def faces(self) -> tuple[str, ...]:
        return tuple(d.face for d in self.dice)

    @property
    def positions(self) -> tuple[int, ...]:
        """The dice that answer the prompt: the re-rolled ones, or all; never a box the
        table said is no die."""
        seen = self.used if self.used is not None else range(len(self.dice))
        return tuple(i for i in seen if self.dice[i].not_a_die_by is None)

    @property
    def answer(self) -> tuple[str, ...]:
        """The faces read for the prompt (of the re-rolled dice only, for a re-roll)."""
        return tuple(self.dice[i].face for i in self.positions)

    @property
    def is_certain(self) -> bool:
        dice = [self.dice[i] for i in self.positions]
        return bool(dice) and not any(d.uncertain for d in dice)

    def to_json(self) -> dict[str, Any]:
        base = f"/api/dice/{self.id}"
        dice = []
        for n, d in enumerate(self.dice):
            item = d.to_json()
            item["crop_url"] = f"{base}/crops/{n}.png"
            dice.append(item)
        return {
            "read_id": self.id, "table_id": self.table_id, "die": self.die,
            "source": self.source, "actor": self.actor, "created_at": self.created_at,
            "prompt_id": self.prompt_id, "status": self.status, "expected": self.expected,
            "dice": dice, "faces": list(self.applied_faces or self.answer),
            "used": list(self.used) if self.used is not None else None,
            "frame_url": f"{base}/frame.jpg", "frame_size": list(self.frame_size),
            "warnings": list(self.warnings), "ms": round(self.ms, 1),
            "applied_version": self.applied_version, "note": self.note,
            "notes": list(self.notes),
            # how a page says the warnings and notes in its language (vision.said)
            "said": {"warnings": [said_json(w) for w in self.warnings],
                     "notes": [said_json(n) for n in self.notes]},
            "corrections": [c.to_json() for c in self.corrections],
        }


class ReadStore:
    """Reads and their files under ``directory``; safe to share between threads."""

    def __init__(self, directory: Path, frames_budget: int = FRAMES_BUDGET) -> None:
        self.directory = Path(directory)
        self.files = self.directory / "files"
        self._frames = Frames(self.files, frames_budget)
        self.files.mkdir(parents=True, exist_ok=True)
        path = self.directory / "reads.sqlite3"
        set_aside_if_damaged(path, "the dice reads")  # their pictures stay in files/
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- writing ---------------------------------------------------------------------------
    def add(self, *, table_id: str, prompt_id: str | None, die: str, source: str,
            actor: str | None, dice: Sequence[ReadDie], crops: Sequence[np.ndarray | None],
            frame: np.ndarray, expected: int | None, warnings: Sequence[str] = (),
            ms: float = 0.0, notes: Sequence[str] = (),
            used: Sequence[int] | None = None) -> DiceReadRecord:
        """Keep a new pending read: its files first, then its row (so a row has files)."""
        read_id = secrets.token_hex(6)
        folder = self.files / read_id
        h, w = frame.shape[:2]
        record = DiceReadRecord(read_id, table_id, prompt_id, die, source, actor, _now(),
                                PENDING, tuple(dice), (w, h), expected, tuple(warnings), ms,
                                notes=tuple(notes),
                                used=tuple(used) if used is not None else None)
        try:
            with refusals_said(self.directory):
                folder.mkdir(parents=True)
                (folder / FULL).write_bytes(jpeg(frame))
                for n, c in enumerate(crops):
                    if c is not None:
                        (folder / f"crop-{n}.png").write_bytes(png(c))
                with self._lock:
                    self._db.execute(
                        "INSERT INTO reads (id, table_id, prompt_id, die, source, actor, "
                        "created_at, status, dice, frame_w, frame_h, expected, warnings, ms, "
                        "note, used) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (read_id, table_id, prompt_id, die, source, actor, record.created_at,
                         PENDING, _dice_json(dice), w, h, expected, _texts_json(warnings),
                         ms, _texts_json(notes) if notes else None,
                         json.dumps(list(used)) if used is not None else None))
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)  # no files without their row
            raise
        with self._lock:
            self._frames.added(read_id)
            self._frames.fit(self._not_pending)
        return record

    @property
    def frames_budget(self) -> int:
        return self._frames.budget

    def frames_bytes(self) -> int:
        """The bytes of the frames kept (each read's picture, full or reduced; not the
        dice's crops)."""
        with self._lock:
            return self._frames.total()

    def _not_pending(self, after: int) -> Iterator[tuple[int, str]]:
        """The reads after a rowid that are no longer pending, oldest first (lock held)."""
        yield from self._db.execute(
            "SELECT rowid, id FROM reads WHERE rowid > ? AND status != ? ORDER BY rowid",
            (after, PENDING))

    def update(self, record: DiceReadRecord, **changes: Any) -> DiceReadRecord:
        """Change a read's status, dice, faces applied, note or dice used; returns the new
        record."""
        new = replace(record, **changes)
        with self._lock, refusals_said(self.directory):
            self._db.execute(
                "UPDATE reads SET status = ?, dice = ?, applied_version = ?, "
                "applied_command = ?, applied_faces = ?, note = ?, used = ? WHERE id = ?",
                (new.status, _dice_json(new.dice), new.applied_version, new.applied_command,
                 json.dumps(list(new.applied_faces)) if new.applied_faces is not None
                 else None, _texts_json(new.notes) if new.notes else None,
                 json.dumps(list(new.used)) if new.used is not None else None, new.id))
        return new

    def add_die(self, record: DiceReadRecord, die: ReadDie, crop: np.ndarray
                ) -> DiceReadRecord:
        """``record`` with one more die (its crop's file first, then the row), which
        answers the roll with the others (a re-roll's too: the table says it was
        thrown)."""
        n = len(record.dice)
        with refusals_said(self.directory):
            (self.files / record.id / f"crop-{n}.png").write_bytes(png(crop))
        used = None if record.used is None else (*record.used, n)
        return self.update(record, dice=(*record.dice, die), used=used)

    def add_correction(self, read_id: str, die: int | None, from_face: str | None,
                       to_face: str | None, actor: str | None, after_apply: bool) -> None:
        with self._lock, refusals_said(self.directory):
            self._db.execute(
                "INSERT INTO corrections (read_id, die, from_face, to_face, actor, at, "
                "after_apply) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (read_id, die, from_face, to_face, actor, _now(), int(after_apply)))

    def supersede(self, table_id: str, prompt_id: str | None, keep: str) -> list[str]:
        """Mark the table's other pending reads superseded and drop their files (a pending
        read was never applied, so its pictures are evidence of nothing)."""
        with self._lock, refusals_said(self.directory):
            rows = self._db.execute(
                "SELECT id FROM reads WHERE table_id = ? AND status = ? AND id != ?",
                (table_id, PENDING, keep)).fetchall()
            ids = [r[0] for r in rows]
            for read_id in ids:
                self._db.execute("UPDATE reads SET status = ?, note = ? WHERE id = ?",
                                 (SUPERSEDED, _texts_json([REPLACED]), read_id))
                self._frames.dropped(read_id)
                shutil.rmtree(self.files / read_id, ignore_errors=True)
        return ids

    # -- reading ---------------------------------------------------------------------------
    def get(self, read_id: str) -> DiceReadRecord | None:
        with self._lock:
            row = self._db.execute(f"SELECT {_COLUMNS} FROM reads WHERE id = ?",
                                   (read_id,)).fetchone()
            if row is None:
                return None
            corrections = self._corrections(read_id)
        return _record(row, corrections)

    def latest(self, table_id: str, *, include_superseded: bool = False
               ) -> DiceReadRecord | None:
        query = f"SELECT {_COLUMNS} FROM reads WHERE table_id = ?"
        if not include_superseded:
            query += f" AND status != '{SUPERSEDED}'"
        with self._lock:
            row = self._db.execute(query + " ORDER BY created_at DESC, rowid DESC LIMIT 1",
                                   (table_id,)).fetchone()
            if row is None:
                return None
            corrections = self._corrections(row[0])
        return _record(row, corrections)

    def applied(self, die: str) -> list[DiceReadRecord]:
        """Every applied read of a die, of any table, oldest first."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM reads WHERE die = ? AND status = '{APPLIED}' "
                "ORDER BY created_at, rowid", (die,)).fetchall()
            found = [(row, self._corrections(row[0])) for row in rows]
        return [_record(row, corrections) for row, corrections in found]

    def count(self, table_id: str | None = None) -> int:
        with self._lock:
            if table_id is None:
                return int(self._db.execute("SELECT COUNT(*) FROM reads").fetchone()[0])
            return int(self._db.execute("SELECT COUNT(*) FROM reads WHERE table_id = ?",
                                        (table_id,)).fetchone()[0])

    def file(self, read_id: str, name: str) -> Path | None:
        """A read's frame (full, else reduced) or crop file, or None if it is not kept."""
        if name == FULL:
            with self._lock:
                return self._frames.path(read_id)
        path = self.files / read_id / name
        return path if path.is_file() else None

    def _corrections(self, read_id: str) -> list[tuple[Any, ...]]:
        return self._db.execute(
            "SELECT die, from_face, to_face, actor, at, after_apply FROM corrections "
            "WHERE read_id = ? ORDER BY no", (read_id,)).fetchall()


_COLUMNS = ("id, table_id, prompt_id, die, source, actor, created_at, status, dice, frame_w, "
            "frame_h, expected, warnings, ms, applied_version, applied_command, "
            "applied_faces, note, used")


def _dice_json(dice: Sequence[ReadDie]) -> str:
    return json.dumps([d.to_json() for d in dice])


def _texts_json(texts: Sequence[str]) -> str:
    """Warnings or notes as kept: each its English, with its key and values where it has
    them (vision.said), so a page can say it in its language after a restart."""
    return json.dumps([t if (said := said_json(t)) is None else {"text": str(t), **said}
                       for t in texts])


def _texts(kept: str | None) -> tuple[str, ...]:
    """:func:`_texts_json`'s texts again. A note kept before notes were a list is its plain
    English text (never JSON: no note began with a bracket)."""
    if not kept:
        return ()
    if not kept.startswith("["):
        return (kept,)
    return tuple(said_from_json(t["text"], t) if isinstance(t, dict) else str(t)
                 for t in json.loads(kept))


def _record(row: tuple[Any, ...], corrections: list[tuple[Any, ...]]) -> DiceReadRecord:
    (read_id, table_id, prompt_id, die, source, actor, created_at, status, dice, w, h,
     expected, warnings, ms, applied_version, applied_command, applied_faces, note, used) = row
    return DiceReadRecord(
        read_id, table_id, prompt_id, die, source, actor, created_at, status,
        tuple(ReadDie.from_json(d) for d in json.loads(dice)), (w, h), expected,
        _texts(warnings), ms, applied_version, applied_command,
        tuple(json.loads(applied_faces)) if applied_faces is not None else None, _texts(note),
        tuple(json.loads(used)) if used is not None else None,
        tuple(Correction(c[0], c[1], c[2], c[3], c[4], bool(c[5])) for c in corrections))
