"""The read store (web/runtime/reads.py): reads, their pictures and corrections survive a
restart of the server; superseding a pending read drops only its pictures."""

from __future__ import annotations

from pathlib import Path

import numpy as np

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
