"""Copies of the whole database, and putting one back (``tableside backup``; docs/store.md,
"Backups").

A legacy campaign lives in one file on the Pi's memory card: a card that fails takes every
game with it. :func:`take` copies the database through SQLite's online backup API, so the
copy is of one moment even while ``tableside serve`` writes; the copy is checked as the
store checks any file it opens, then renamed into place, so a copy cut short is never left
under a backup's name. ``serve`` takes one when it starts and when it stops, each only if
something was written since the newest one (the store only ever appends rows, so the count
of rows in each table says whether anything changed; a database with nothing in it yet is
not copied), and the folder keeps the last :data:`KEEP` of each database (backups are
named after their database, as databases in one folder share it): older backups are the
only files this module deletes.

:func:`restore` puts a backup back. It refuses while another program (``serve``) has the
database open, as that program would go on from the state it holds: ``serve`` holds a
lock on ``<database>.lock`` for as long as it runs (:func:`serving`), which restore asks
for too, without waiting (SQLite's own locks are no proof: a process that opens and closes
the database file outside SQLite, as :func:`inspect` reads its header, lets go of its
connections' locks on it). The lock is held alone, so a second ``serve`` on the same
database is refused as it starts too (:class:`AlreadyServed`: two servers each kept their
tables in memory, and the one that lost a race stayed stuck). Whoever holds it writes in
the file who it is (``serve`` or ``restore``, and its process id), so the one refused is
told which. The other commands (``sessions``, ``campaign``, ``backup take`` and ``list``)
do not take it: they run while serving. The database it
replaces is first copied into the backups too (``before-restore``), so a restore is undone
by restoring that copy; a database too damaged to copy is moved aside instead
(``.damaged-<time>``, with its journal files). A backup that holds none of the games of
the database it would replace is refused unless asked for (a backup of another database).
"""

from __future__ import annotations

import fcntl
import os
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from companion.store.errors import DatabaseInUse, DatabaseUnreadable, StoreError, refusals_said
from companion.store.sqlite import inspect

BACKUPS_DIR = "backups"
KEEP = 10
_STAMP_LABEL = r"-(\d{8}T\d{6}(?:\.\d{6})?Z)(?:-([a-z-]+))?\.sqlite3$"
#: What backups were named before they were named after their database: every database's
#: backups were ``tableside-<time>[-why].sqlite3``, which is still the default database's.
OLDER_PREFIX = "tableside"


@dataclass(frozen=True)
class Backup:
    """One backup file: when it was taken, why (``label``), and what it holds."""

    path: Path
    taken: datetime
    label: str
    size: int

    def counts(self) -> dict[str, int]:
        """Rows per table (sessions, commands, campaigns...), read only."""
        return _counts_of(self.path)

    def to_json(self) -> dict[str, object]:
        counts = self.counts()
        return {"file": str(self.path), "taken": self.taken.isoformat(), "label": self.label,
                "bytes": self.size, "sessions": counts.get("sessions", 0),
                "campaigns": counts.get("campaigns", 0), "commands": counts.get("commands", 0)}


def folder_for(db_path: Path) -> Path:
    """Where the database's backups are kept: ``backups/`` beside it."""
    return db_path.parent / BACKUPS_DIR


def prefix_for(db_path: Path) -> str:
    """What the database's backups are named after: its file name without ``.sqlite3``
    (``tableside.sqlite3``: ``tableside-<time>.sqlite3``). Several databases may share one
    folder, and so one ``backups/``: each lists, prunes and restores only its own."""
    name = db_path.name
    return name.removesuffix(".sqlite3") or name


def backups(db_path: Path) -> list[Backup]:
    """The backups kept for this database, newest first (files named as :func:`take`
    names them for this database; anything else in the folder is not its own and is left
    alone)."""
    return _named(db_path, prefix_for(db_path))


def older_backups(db_path: Path) -> list[Backup]:
    """Backups taken before they were named after their database (``tableside-<time>``)
    that may be of this one, newest first: for a database not named ``tableside.sqlite3``
    with no ``tableside.sqlite3`` beside it (whose own they would be). They are listed
    apart and restored by their file name; never pruned, never ``latest``."""
    if prefix_for(db_path) == OLDER_PREFIX or db_path.with_name("tableside.sqlite3").exists():
        return []
    return _named(db_path, OLDER_PREFIX)


def _named(db_path: Path, prefix: str) -> list[Backup]:
    folder = folder_for(db_path)
    pattern = re.compile("^" + re.escape(prefix) + _STAMP_LABEL)
    found = []
    if folder.is_dir():
        for path in folder.iterdir():
            match = pattern.match(path.name)
            if match is None or not path.is_file():
                continue
            stamp = match.group(1)
            fmt = "%Y%m%dT%H%M%S.%fZ" if "." in stamp else "%Y%m%dT%H%M%SZ"
            taken = datetime.strptime(stamp, fmt).replace(tzinfo=UTC)
            found.append(Backup(path, taken, match.group(2) or "", path.stat().st_size))
    return sorted(found, key=lambda b: (b.taken, b.path.name), reverse=True)


def latest(db_path: Path) -> Backup | None:
    kept = backups(db_path)
    return kept[0] if kept else None


def take(db_path: Path, output: Path | None = None, label: str = "",
         only_if_changed: bool = False, now: datetime | None = None,
         replace: bool = False) -> Path | None:
    """Copy the database at ``db_path`` to ``output`` (default: a new file in its backups
    folder, the oldest beyond :data:`KEEP` then removed). With ``only_if_changed``, nothing
    is written (None) when the newest backup holds the same rows, or when there is none and
    the database holds no rows yet. Raises
    :class:`StoreError` for a database that is missing, damaged, not ours or too new, and
    for an ``output`` that is the database itself, a folder, in a folder that does not
    exist (a USB stick not mounted: never created here), or a file that exists (unless
    ``replace``)."""
    if inspect(db_path) is None:
        raise StoreError(f"{db_path}: no Tableside database to back up")
    if output is not None:
        _check_output(db_path, output, replace)
    if only_if_changed:
        newest = latest(db_path)
        if (_same_rows(newest.path, db_path) if newest is not None
                else not any(_counts_of(db_path).values())):
            return None
    if label and not re.fullmatch(r"[a-z-]+", label):
        raise ValueError(f"a backup's label is lower-case letters and dashes, not {label!r}")
    into_folder = output is None
    target = output or folder_for(db_path) / _name(db_path, now or datetime.now(UTC), label)
    _write(_reader(db_path), target)
    if into_folder:
        _prune(db_path)
    return target


def _check_output(db_path: Path, output: Path, replace: bool) -> None:
    if output.is_dir():
        raise StoreError(f"{output}: a folder; name the backup file to write")
    if not output.parent.is_dir():
        raise StoreError(f"{output.parent}: no such folder (is the USB stick mounted?); "
                         "nothing was written")
    if output.exists() or output.is_symlink():
        if output.exists() and output.samefile(db_path):
            raise StoreError(f"{output} is the database itself; name another file")
        if not replace:
            raise StoreError(f"{output}: a file already exists there; name a new file "
                             "(or pass --force to replace it)")
        if not output.is_file():
            raise StoreError(f"{output}: not a regular file; name another file")


def restore(backup_path: Path, db_path: Path, other_database: bool = False) -> Path | None:
    """Put the backup at ``backup_path`` in place of the database at ``db_path``. Returns
    where the replaced database went (a ``before-restore`` backup, or the damaged file
    moved aside), or None if there was none.

    A backup that holds none of the database's table sessions and campaigns, when it holds
    any, is refused as one of another database (:class:`OtherDatabase`) unless
    ``other_database``: a backup may come from another machine, but replacing every game
    here is said first, not done silently."""
    if backup_path.exists() and db_path.exists() and backup_path.samefile(db_path):
        raise StoreError(f"{backup_path} is the database itself, not a backup of it")
    if not backup_path.is_file() or (version := inspect(backup_path)) is None:
        raise StoreError(f"{backup_path}: no such backup file")
    if version == 0:  # an empty file, or an SQLite file with nothing in it: no schema
        raise StoreError(f"{backup_path}: not a backup (it holds no Tableside database: "
                         "empty, or never written by Tableside); nothing was changed")
    kept: Path | None = None
    try:
        present = inspect(db_path) is not None
    except DatabaseUnreadable:  # nothing to copy: the damaged file is kept as it is
        kept, present = set_aside(db_path), False
    if present and not other_database:
        _check_same_database(backup_path, db_path)
    if present:
        # no server, and read and written through this one connection
        with _alone(db_path), _exclusive(db_path) as conn:
            kept = _write(conn, folder_for(db_path) / _name(db_path, datetime.now(UTC),
                                                                 "before-restore"),
                          close=False)
            with closing(_reader(backup_path)) as source:
                source.backup(conn)
        _prune(db_path)
    else:
        db_path.parent.mkdir(parents=True, exist_ok=True)
        with _alone(db_path):  # a server that has just made the file is not written over
            _write(_reader(backup_path), db_path)
    inspect(db_path)
    return kept


class OtherDatabase(StoreError):
    """A backup that holds none of the games of the database it would replace."""


def _ids(path: Path) -> tuple[set[str], set[str]]:
    """The session and campaign ids in a (checked) database file."""
    conn = _reader(path)
    try:
        tables = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        found = tuple({row[0] for row in conn.execute(f"SELECT id FROM {name}")}
                      if name in tables else set() for name in ("sessions", "campaigns"))
    finally:
        conn.close()
    return found[0], found[1]


def _check_same_database(backup_path: Path, db_path: Path) -> None:
    sessions, campaigns = _ids(db_path)
    if not sessions and not campaigns:
        return  # nothing here to lose: a new Pi put back from another's backup
    theirs, their_campaigns = _ids(backup_path)
    if sessions & theirs or campaigns & their_campaigns:
        return

    def said(ids: set[str]) -> str:
        shown = sorted(ids)[:3]
        return (", ".join(shown) + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")
                if ids else "none")

    raise OtherDatabase(
        f"{backup_path} holds none of the table sessions in {db_path} (it holds "
        f"{said(theirs)}; the database holds {said(sessions)}): a backup of another "
        "database? Nothing was changed; to put it in place anyway (the database is first "
        "kept as a before-restore backup), pass --other-database")


def _prune(db_path: Path) -> None:
    for old in backups(db_path)[KEEP:]:
        old.path.unlink(missing_ok=True)


class RestoreUnderWay(StoreError):
    """A backup is being restored into the database: it is not opened meanwhile."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path}: a backup is being restored into it right now; try again "
                         "when tableside backup restore is done")
        self.path = str(path)


class AlreadyServed(StoreError):
    """Another ``tableside serve`` has the database: one server per database (each keeps
    its tables in memory; two would each miss the other's changes)."""

    def __init__(self, path: Path, pid: int | None) -> None:
        which = f" (process {pid})" if pid is not None else ""
        stop = f"kill {pid}" if pid is not None else "kill its process"
        super().__init__(
            f"{path}: another tableside serve{which} is serving this database; only one "
            "may serve it at a time, and nothing was started or changed. Use that server "
            f"(its address is on its terminal), or stop it first (Ctrl-C in its terminal, or "
            f"{stop}), or serve another database with --db")
        self.path = str(path)
        self.pid = pid


def lock_path(db_path: Path) -> Path:
    """The file ``serve`` and :func:`restore` lock: ``<database>.lock`` beside it. It is
    left there (removing a lock file another process may be waiting on is a race); only the
    lock on it says anything, and the kernel lets go of that when its process ends."""
    return db_path.with_name(db_path.name + ".lock")


def _lock(db_path: Path, holder: str) -> int | None:
    """An open descriptor of :func:`lock_path` locked alone (``flock``, without waiting),
    with ``holder`` and this process's id written in it; None when the lock is taken by
    another; OSError when the file cannot be made."""
    fd = os.open(lock_path(db_path), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    try:  # who holds it, for the one refused (a file that takes no write: said without)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{holder} {os.getpid()}\n".encode(), 0)
    except OSError:
        pass
    return fd


def holder(db_path: Path, wait: float = 0.5) -> tuple[str, int | None]:
    """Who holds :func:`lock_path` as it says (``serve``, ``restore``, or ``""`` when it
    does not say), and its process id. One that has just taken the lock is given ``wait``
    seconds to write it."""
    deadline = time.monotonic() + wait
    while True:
        try:
            words = lock_path(db_path).read_text(errors="replace").split()
        except OSError:
            words = []
        if len(words) == 2 and words[1].isdigit():
            return words[0], int(words[1])
        if time.monotonic() >= deadline:
            return "", None
        time.sleep(0.02)


@contextmanager
def serving(db_path: Path) -> Iterator[None]:
    """Held by ``tableside serve`` for as long as it has the database open: the lock
    (``flock``) on :func:`lock_path`, alone: :class:`AlreadyServed` while another serve has
    it, :class:`RestoreUnderWay` while a restore writes (:func:`restore` must have it too).
    A server that crashes, is killed or loses power holds it no longer (the kernel's locks
    die with their process): nothing is left stuck. Where the lock file cannot be made (a
    read-only card), it is served without: no restore can write there either."""
    try:
        fd = _lock(db_path, "serve")
    except OSError:
        yield
        return
    if fd is None:
        who, pid = holder(db_path)
        if who == "restore":
            raise RestoreUnderWay(db_path)
        raise AlreadyServed(db_path, pid)
    try:
        yield
    finally:
        os.close(fd)  # another file than the database: SQLite's locks on it stay


@contextmanager
def _alone(db_path: Path) -> Iterator[None]:
    """No server has the database open, and none opens it until this is done:
    :class:`DatabaseInUse` otherwise."""
    fd = _lock(db_path, "restore")
    if fd is None:
        raise DatabaseInUse(db_path)
    try:
        yield
    finally:
        os.close(fd)


@contextmanager
def _exclusive(db_path: Path) -> Iterator[sqlite3.Connection]:
    """The database opened so that no other connection may read or write it until this one
    closes (SQLite's exclusive locking mode); :class:`DatabaseInUse` if another is writing
    it (a connection that only has it open may have lost its lock: :func:`serving`)."""
    conn = sqlite3.connect(db_path, isolation_level=None, timeout=0.5)
    try:
        try:
            conn.execute("PRAGMA locking_mode = EXCLUSIVE")
            conn.execute("BEGIN EXCLUSIVE")
            conn.execute("COMMIT")  # the lock stays until the connection closes
        except sqlite3.OperationalError:
            raise DatabaseInUse(db_path) from None
        yield conn
    finally:
        conn.close()


def _reader(path: Path) -> sqlite3.Connection:
    """A connection that only reads (a file already checked by :func:`inspect`). It is not
    opened read-only: a read-only connection to a WAL database, the last to close, leaves
    the -wal and -shm files behind, where a writable one checkpoints and removes them."""
    return sqlite3.connect(path, timeout=10.0)


def _name(db_path: Path, taken: datetime, label: str) -> str:
    why = f"-{label}" if label else ""
    return f"{prefix_for(db_path)}-{taken.strftime('%Y%m%dT%H%M%S.%fZ')}{why}.sqlite3"


def _write(source: sqlite3.Connection, target: Path, close: bool = True) -> Path:
    """Copy the database ``source`` reads into a new file at ``target``: written beside it,
    checked, flushed to the card, then renamed over it (a copy cut short is never left under
    the name). The copy is in rollback-journal mode, so reading it leaves no -wal or -shm
    file beside it; the store turns a restored file back to WAL when it opens it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(f".{target.name}.part")
    try:
        with refusals_said(target.parent):  # a full disk: the part is removed below
            dest = sqlite3.connect(part)
            try:
                source.backup(dest)
                dest.execute("PRAGMA journal_mode = DELETE")
            finally:
                dest.close()
            inspect(part)  # checked as any database the store opens
            with part.open("rb") as f:
                os.fsync(f.fileno())
            os.replace(part, target)
    finally:
        part.unlink(missing_ok=True)
        if close:
            source.close()
    return target


def _counts_of(path: Path) -> dict[str, int]:
    conn = _reader(path)
    try:
        names = [row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        return {name: conn.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
                for name in names}
    finally:
        conn.close()


def _same_rows(a: Path, b: Path) -> bool:
    try:
        return _counts_of(a) == _counts_of(b)
    except sqlite3.DatabaseError:  # a damaged backup is no reason to skip a new one
        return False


def set_aside(db_path: Path) -> Path:
    """Move a damaged SQLite file aside as ``<name>.damaged-<UTC time>``, its journal files
    with it; where it went."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    aside = db_path.with_name(f"{db_path.name}.damaged-{stamp}")
    for suffix in ("-wal", "-shm"):  # a journal is never left to be read into the backup
        journal = db_path.with_name(db_path.name + suffix)
        if journal.exists():
            journal.rename(aside.with_name(aside.name + suffix))
    db_path.rename(aside)
    return aside
