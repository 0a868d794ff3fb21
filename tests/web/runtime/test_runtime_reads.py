"""The read store (web/runtime/reads.py): reads, their pictures and corrections survive a
restart of the server; superseding a pending read drops only its pictures."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.framewarnings import HAND_IN_TRAY
from web.runtime.readnotes import COUNT
from web.runtime.reads import APPLIED, PENDING, SUPERSEDED, ReadDie, ReadStore


def die(face: str, x: int) -> ReadDie:
    return ReadDie(face, 0.9, False, (x, 10, 20, 20), face)


def add(store: ReadStore, table: str = "t1") -> str:
    frame = np.full((60, 80, 3), 128, np.uint8)
    crops = [np.zeros((64, 64, 3), np.uint8), np.ones((64, 64, 3), np.uint8)]
    record = store.add(table_id=table, prompt_id="roll:0", die="seafall", source="camera",
                       actor="camera", dice=[die("weak", 5), die("blank", 40)], crops=crops,
                       frame=frame, expected=2)
    return record.id


def test_reads_and_corrections_survive_a_restart(tmp_path: Path):
    store = ReadStore(tmp_path / "reads")
    read_id = add(store)
    record = store.get(read_id)
    assert record is not None and record.status == PENDING and record.frame_size == (80, 60)
    store.update(record, status=APPLIED, applied_version=7, applied_command=3,
                 applied_faces=("weak", "strong"))
    store.add_correction(read_id, 1, "blank", "strong", "Rosa", True)
    store.close()
    again = ReadStore(tmp_path / "reads")
    record = again.get(read_id)
    assert record is not None
    assert (record.status, record.applied_version, record.applied_faces) == (
        APPLIED, 7, ("weak", "strong"))
    assert [(c.die, c.from_face, c.to_face, c.actor, c.after_apply)
            for c in record.corrections] == [(1, "blank", "strong", "Rosa", True)]
    assert again.file(read_id, "frame.jpg") is not None
    assert again.file(read_id, "crop-1.png") is not None
    assert again.latest("t1") == record and again.latest("t2") is None
    again.close()


def test_warnings_and_notes_keep_their_keys_across_a_restart(tmp_path: Path):
    """A page says them in its language after a restart too (vision.said); a note kept as
    plain text before notes were a list still reads as that one note."""
    store = ReadStore(tmp_path / "reads")
    frame = np.full((60, 80, 3), 128, np.uint8)
    notes = (COUNT(count=3, seen=2), "a sentence of no message")
    record = store.add(table_id="t1", prompt_id="roll:0", die="seafall", source="camera",
                       actor="camera", dice=[die("weak", 5), die("blank", 40)], crops=[],
                       frame=frame, expected=3, warnings=[HAND_IN_TRAY], notes=notes)
    store.update(record, status=APPLIED)
    old = add(store)
    store._db.execute("UPDATE reads SET note = ? WHERE id = ?", ("an old note; of two", old))
    store.close()
    again = ReadStore(tmp_path / "reads")
    kept = again.get(record.id)
    assert kept is not None and kept.notes == notes and kept.warnings == (HAND_IN_TRAY,)
    assert kept.note == "the roll asks for 3 dice; the reader saw 2; a sentence of no message"
    assert kept.to_json()["said"] == {
        "warnings": [{"key": "vision.hand_in_tray", "values": {}}],
        "notes": [{"key": "runtime.count", "values": {"count": 3, "seen": 2}}, None]}
    assert again.get(old).notes == ("an old note; of two",)  # type: ignore[union-attr]
    again.supersede("t1", "roll:0", keep=record.id)
    assert again.get(old).to_json()["said"]["notes"] == [  # type: ignore[union-attr]
        {"key": "runtime.replaced", "values": {}}]
    again.close()


def test_superseding_drops_pending_pictures_only(tmp_path: Path):
    store = ReadStore(tmp_path / "reads")
    old = add(store)
    applied = add(store)
    store.update(store.get(applied), status=APPLIED)  # type: ignore[arg-type]
    other_table = add(store, "t2")
    new = add(store)
    assert store.supersede("t1", "roll:0", keep=new) == [old]
    assert store.get(old).status == SUPERSEDED  # type: ignore[union-attr]
    assert store.file(old, "frame.jpg") is None
    assert store.file(applied, "frame.jpg") is not None
    assert store.get(other_table).status == PENDING  # type: ignore[union-attr]
    assert store.latest("t1").id == new  # type: ignore[union-attr]
    assert store.count() == 4 and store.count("t1") == 3
    store.close()


def noisy_add(store: ReadStore, seed: int, table: str = "t1") -> str:
    """A read whose frame is noise (a JPEG of some 40 kB, as a real frame is sizeable)."""
    frame = np.random.default_rng(seed).integers(0, 256, (120, 160, 3), np.uint8)
    record = store.add(table_id=table, prompt_id="roll:0", die="seafall", source="camera",
                       actor="camera", dice=[die("weak", 5)],
                       crops=[np.zeros((64, 64, 3), np.uint8)], frame=frame, expected=1)
    return record.id


def frame_size(store: ReadStore, read_id: str) -> int:
    path = store.file(read_id, "frame.jpg")
    return path.stat().st_size if path is not None else 0


def test_a_superseded_reads_frame_no_longer_counts(tmp_path: Path):
    store = ReadStore(tmp_path / "reads")
    old = noisy_add(store, 1)
    size = store.frames_bytes()
    assert size == frame_size(store, old) > 0
    new = noisy_add(store, 2)
    assert store.supersede("t1", "roll:0", keep=new) == [old]
    assert store.frames_bytes() == frame_size(store, new)
    store.close()


def test_no_room_for_frames_keeps_the_crops_only(tmp_path: Path):
    store = ReadStore(tmp_path / "reads", frames_budget=0)
    read_id = noisy_add(store, 1)
    assert store.file(read_id, "frame.jpg") is not None  # pending: kept until looked at
    store.update(store.get(read_id), status=APPLIED)  # type: ignore[arg-type]
    later = noisy_add(store, 2)
    assert store.file(read_id, "frame.jpg") is None
    assert store.file(read_id, "crop-0.png") is not None
    assert store.frames_bytes() == frame_size(store, later)
    store.close()
    with pytest.raises(ValueError, match="0 or more"):
        ReadStore(tmp_path / "other", frames_budget=-1)


def test_a_full_disk_keeps_no_half_read_and_says_so(tmp_path: Path):
    """SQLite's own "database or disk is full" (its page limit reached, as a full card
    does): the read is refused with StorageFull, no folder is left without its row, and
    the store works again once there is room."""
    from companion.store.errors import StorageFull

    store = ReadStore(tmp_path / "reads")
    kept = noisy_add(store, 1)
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages}")
    folders = sorted(p.name for p in store.files.iterdir())
    refused = 0
    for seed in range(2, 40):  # until the pages are used up
        try:
            noisy_add(store, seed)
        except StorageFull as exc:
            assert "full: nothing was written" in str(exc)
            refused += 1
            break
        folders = sorted(p.name for p in store.files.iterdir())
    assert refused == 1
    assert sorted(p.name for p in store.files.iterdir()) == folders  # nothing half-kept
    assert store.count() == len(folders) and store.get(kept) is not None
    record = store.get(kept)
    with pytest.raises(StorageFull):  # an update too is refused whole
        for _ in range(1000):
            record = store.update(record, notes=("x" * 4000,))
    store._db.execute(f"PRAGMA max_page_count = {pages + 1000}")  # room again
    assert noisy_add(store, 99) in {p.name for p in store.files.iterdir()}
    store.close()
