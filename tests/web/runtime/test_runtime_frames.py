"""The reads' frames within their budget (web/runtime/frames.py; docs/runtime.md,
"Storage"): the oldest are first reduced to 480 pixels, so the roll can still be seen;
the reduced ones are kept within a quarter of the budget by letting the oldest go; a
pending read's frame and every crop stay; the bytes are summed again after a restart."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from tests.web.runtime.test_runtime_reads import die
from web.runtime.frames import FULL, REDUCED, REDUCED_SHARE, REDUCED_SIDE
from web.runtime.reads import APPLIED, ReadStore


def add(store: ReadStore, seed: int, applied: bool = True) -> str:
    """A read of a 960x540 frame of noise (a JPEG as big as a real frame, or bigger)."""
    frame = np.random.default_rng(seed).integers(0, 256, (540, 960, 3), np.uint8)
    read_id = store.add(table_id="t1", prompt_id="roll:0", die="seafall", source="camera",
                        actor="camera", dice=[die("weak", 5)],
                        crops=[np.zeros((64, 64, 3), np.uint8)], frame=frame, expected=1).id
    if applied:
        store.update(store.get(read_id), status=APPLIED)  # type: ignore[arg-type]
    return read_id


def kind(store: ReadStore, read_id: str) -> str | None:
    """Which frame the read keeps: FULL, REDUCED or None; checked against its pixels."""
    path = store.file(read_id, "frame.jpg")
    if path is None:
        return None
    side = max(cv2.imread(str(path)).shape[:2])
    assert side == (960 if path.name == FULL else REDUCED_SIDE)
    return path.name


def on_disk(store: ReadStore, name: str) -> int:
    return sum(p.stat().st_size for p in store.files.glob(f"*/{name}"))


def test_the_oldest_are_reduced_then_the_oldest_reduced_let_go(tmp_path: Path):
    probe = ReadStore(tmp_path / "probe")
    full = on_disk(probe, FULL) if add(probe, 0) else 0
    probe.close()
    store = ReadStore(tmp_path / "reads", frames_budget=int(2.5 * full))
    ids = [add(store, seed) for seed in range(1, 5)]
    # four full frames do not fit in two and a half: the two oldest are reduced, none go
    assert [kind(store, r) for r in ids] == [REDUCED, REDUCED, FULL, FULL]
    assert on_disk(store, REDUCED) < full / 2  # two reduced take less than half of one
    ids += [add(store, seed) for seed in range(5, 40)]
    kinds = [kind(store, r) for r in ids]
    # oldest first: those let go, then the reduced ones, then the full ones
    assert kinds == sorted(kinds, key=[None, REDUCED, FULL].index)
    assert kinds[0] is None and kinds[-1] == FULL and REDUCED in kinds
    reduced = on_disk(store, REDUCED)  # their share, passed by the last one reduced at most
    largest = max(p.stat().st_size for p in store.files.glob(f"*/{REDUCED}"))
    assert reduced - largest <= store.frames_budget * REDUCED_SHARE
    assert store.frames_bytes() == reduced + on_disk(store, FULL) <= store.frames_budget
    assert all(store.file(r, "crop-0.png") is not None for r in ids)  # a profile learns
    store.close()
    again = ReadStore(tmp_path / "reads", frames_budget=int(2.5 * full))  # after a restart
    assert again.frames_bytes() == on_disk(again, REDUCED) + on_disk(again, FULL)
    assert [kind(again, r) for r in ids] == kinds
    again.close()


def test_a_pending_reads_frame_is_never_touched(tmp_path: Path):
    store = ReadStore(tmp_path / "reads", frames_budget=0)
    waiting = add(store, 1, applied=False)  # the table has not looked at it yet
    later = [add(store, seed) for seed in (2, 3)]
    assert kind(store, waiting) == FULL
    assert kind(store, later[0]) is None  # no room at all: reduced, then let go
    assert kind(store, later[1]) == FULL  # pending when the last read came
    assert store.frames_bytes() == on_disk(store, FULL)
    store.close()


def test_a_frame_that_cannot_be_read_is_let_go_not_reduced(tmp_path: Path):
    store = ReadStore(tmp_path / "reads", frames_budget=1)
    broken = add(store, 1)
    (store.files / broken / FULL).write_bytes(b"not a JPEG")  # a card that lost a page
    kept = add(store, 2, applied=False)
    assert store.file(broken, "frame.jpg") is None and kind(store, kept) == FULL
    store.close()
