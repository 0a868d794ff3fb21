"""The room left on the disk that holds the games (``GET /api/hardware``'s ``storage``;
docs/runtime.md, "Storage").

A Pi keeps everything on its memory card: the campaign's database, its backups, the dice
reads' pictures. A card that fills up refuses the next command (the API answers 507, and
nothing is written: companion.store.StorageFull), which a table finds out in the middle of
a game; so does a card the kernel mounted read-only as it failed (503,
companion.store.StorageReadOnly: ``alert`` at once), and one that failed a read or a write
(a disk I/O error, 503, companion.store.StorageFailing: ``alert`` from then on, until serve
restarts). Here it is said before: ``warning``
under :data:`WARNING_FREE` free, ``alert`` under :data:`ALERT_FREE`, with what of
Tableside's takes room (the dice pictures, the backups). The pictures are kept within their
own budget (web.runtime.reads.FRAMES_BUDGET), so what fills a card is most often something
else; the free space is said either way.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from vision.said import message
from web.runtime.status import ALERT, OK, WARNING, said_fields

MB = 1024 * 1024
WARNING_FREE = 1024 * MB  # a few games' pictures and backups
ALERT_FREE = 200 * MB  # the next backup or a burst of reads may not fit
FULL_FREE = MB  # less is no room at all (0 MB said): the disk is full, not almost
READ_ONLY_DETAIL = ("the disk holding the games is read-only (a memory card that fails is "
                    "mounted so): no move can be saved; restart the Pi, and if it stays so, "
                    "copy the latest backup to a USB stick and replace the card")
FAILING_DETAIL = ("the disk holding the games failed to read or write (a disk I/O error: a "
                  "memory card that is failing does this): the move was not saved; restart "
                  "the Pi; if it happens again, the card is failing: copy the latest backup "
                  "to a USB stick and replace the card")


@dataclass
class StorageStatus:
    """The ``storage`` part of the hardware status."""

    state: str
    detail: str
    path: str
    free_bytes: int
    total_bytes: int
    pictures_bytes: int | None = None  # the dice reads' frames kept
    pictures_budget: int | None = None
    backups_bytes: int | None = None
    cause: str | None = None  # below ok: "low" or "full" (free space), "read_only", "failing"

    def to_json(self) -> dict[str, Any]:
        return said_fields(asdict(self))


FREE = message("hw.storage_free", "{mb} MB free on the disk holding the games")
"""What the hardware card says of a disk with room (vision.said: in the page's language)."""


def _mb(n: int) -> str:
    return f"{n / MB:,.0f} MB"


def storage_status(path: Path, free: int, total: int, pictures: int | None = None,
                   budget: int | None = None, backups: int | None = None,
                   read_only: bool = False, failing: bool = False) -> StorageStatus:
    """What the free space, a disk mounted read-only, or one that failed a read or a write
    (``failing``: a disk I/O error seen since serve started) means for the table (pure)."""
    if read_only:
        return StorageStatus(ALERT, READ_ONLY_DETAIL, str(path), free, total, pictures,
                             budget, backups, "read_only")
    if failing:
        return StorageStatus(ALERT, FAILING_DETAIL, str(path), free, total, pictures,
                             budget, backups, "failing")
    room = []
    if pictures:
        room.append(f"the dice pictures take {_mb(pictures)}"
                    + (f" (kept within {_mb(budget)}: a lower 'tableside serve "
                       "--pictures-mb' keeps fewer)" if budget else ""))
    if backups:
        room.append(f"the backups take {_mb(backups)} ('tableside backup list')")
    mine = f"; of Tableside's, {' and '.join(room)}" if room else ""
    if free < FULL_FREE:  # not "almost": the next write is refused
        state, detail = ALERT, ("the disk holding the games is full (" + _mb(free) + " free): "
                                "no move can be saved (nothing is lost: they are refused); "
                                "free some space now" + mine)
        return StorageStatus(state, detail, str(path), free, total, pictures, budget, backups,
                             "full")
    if free < ALERT_FREE:
        state, detail = ALERT, (f"only {_mb(free)} free on the disk holding the games: the "
                                "next moves may not be saved (nothing is lost: they are "
                                "refused); free some space now" + mine)
    elif free < WARNING_FREE:
        state, detail = WARNING, (f"{_mb(free)} free on the disk holding the games: free "
                                  "some space before the next game" + mine)
    else:
        state, detail = OK, FREE(mb=round(free / MB))
    return StorageStatus(state, detail, str(path), free, total, pictures, budget, backups,
                         None if state == OK else "low")


def folder_bytes(folder: Path) -> int:
    """The bytes of the files directly in ``folder`` (0 if there is none)."""
    try:
        return sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
    except OSError:
        return 0


def read_storage(path: Path, pictures: Callable[[], tuple[int, int] | None] = lambda: None,
                 backups: Path | None = None, failing: bool = False) -> StorageStatus | None:
    """The room on the disk holding ``path`` now, or None where it cannot be asked
    (``failing``: the disk failed a read or a write since serve started)."""
    here = path
    while not here.exists() and here.parent != here:  # the disk it will be on
        here = here.parent
    try:
        usage = shutil.disk_usage(here)
        read_only = bool(os.statvfs(here).f_flag & os.ST_RDONLY)
    except OSError:
        return None
    kept = pictures()
    used, budget = kept if kept is not None else (None, None)
    return storage_status(path, usage.free, usage.total, used, budget,
                          folder_bytes(backups) if backups is not None else None, read_only,
                          failing)
