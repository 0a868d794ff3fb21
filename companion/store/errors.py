"""Why the event store refuses: every error is a :class:`StoreError`.

Opening a file that is not a Tableside database never writes to it; the error says what
the file is and what to do. Appending with a stale version raises :class:`VersionConflict`
(a phone page that missed an update gets a conflict, never a silent overwrite).
"""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class StoreError(Exception):
    """Base class of every error the event store raises."""


class DatabaseUnreadable(StoreError):
    """The file is not an SQLite database, or SQLite cannot read it (corrupt, truncated)."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"{path}: not a readable Tableside database ({reason}); left untouched")
        self.path = str(path)
        self.reason = reason


class ForeignDatabase(StoreError):
    """An SQLite database that some other program owns (other or missing application id)."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"{path}: an SQLite database that is not Tableside's ({reason}); "
                         "left untouched")
        self.path = str(path)
        self.reason = reason


class SchemaTooNew(StoreError):
    """A Tableside database written by a newer Tableside (schema version above ours)."""

    def __init__(self, path: Path | str, found: int, supported: int) -> None:
        super().__init__(
            f"{path}: schema version {found} is newer than this Tableside supports "
            f"({supported}); upgrade Tableside to open it (the file was left untouched)"
        )
        self.path = str(path)
        self.found = found
        self.supported = supported


class MigrationFailed(StoreError):
    """A schema migration raised; the database stays at its previous version."""


class UnknownSession(StoreError, KeyError):
    """No table session with this id in the database."""

    def __init__(self, session_id: str) -> None:
        super().__init__(f"no table session {session_id!r} in this database")
        self.session_id = session_id

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class SessionExists(StoreError):
    """Importing a session whose id is already in the database."""

    def __init__(self, session_id: str) -> None:
        super().__init__(f"a table session {session_id!r} already exists in this database")
        self.session_id = session_id


class VersionConflict(StoreError):
    """The session moved on since the caller last saw it (optimistic concurrency)."""

    def __init__(self, session_id: str, expected: int, actual: int,
                 moved: str | None = None) -> None:
        where = moved or f"is at version {actual}, not {expected}"
        super().__init__(
            f"table session {session_id!r} {where}: "
            "someone else changed the table; reload and try again"
        )
        self.session_id = session_id
        self.expected = expected
        self.actual = actual


class MalformedExport(StoreError, ValueError):
    """An export file that cannot be imported; ``where`` points at the bad part."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"malformed session export at {where}: {reason}")
        self.where = where
        self.reason = reason


class InvalidSessionId(StoreError, ValueError):
    """A session id that is not one (it names a table in web addresses: ``/host/ID``)."""

    def __init__(self, where: str, session_id: str, rule: str) -> None:
        shown = session_id if len(session_id) <= 40 else session_id[:40] + "..."
        super().__init__(f"{where}: {shown!r} ({len(session_id)} characters) is not a "
                         f"session id: {rule}")
        self.session_id = session_id


class MissingDatabase(StoreError):
    """Asked to open an existing database where there is no file: said with what makes one,
    as on a fresh install it is what ``sessions list`` or ``campaign list`` meets first."""

    def __init__(self, path: Path | str) -> None:
        super().__init__(f"{path}: no Tableside database here: nothing has been played here "
                         "yet (tableside serve makes it, and so does a table or a campaign "
                         "created; or give --db another database)")
        self.path = str(path)


class DatabaseInUse(StoreError):
    """Another program (``tableside serve``) has the database open: it cannot be replaced."""

    def __init__(self, path: Path | str) -> None:
        super().__init__(f"{path}: open in another program (is tableside serve running?); "
                         "stop it, then try again (nothing was changed)")
        self.path = str(path)


class StorageRefused(StoreError):
    """The disk would not take the write: nothing of the change was written, and what was
    there is as it was. :class:`StorageFull`, :class:`StorageReadOnly` or
    :class:`StorageFailing`."""

    def __init__(self, path: Path | str | None, why: str, then: str) -> None:
        where = f"the disk holding {path}" if path is not None else "the memory it is kept in"
        super().__init__(f"{where} {why}: nothing was written, and everything is as it was; "
                         f"{then}")
        self.path = None if path is None else str(path)


class StorageFull(StorageRefused):
    """The disk is full (SQLite's ``SQLITE_FULL``, or ``ENOSPC`` writing a file). It works
    again once space is freed; nothing has to be reopened."""

    def __init__(self, path: Path | str | None) -> None:
        super().__init__(path, "is full", "free some space, then try again")


class StorageReadOnly(StorageRefused):
    """The disk takes no writes (SQLite's ``SQLITE_READONLY``, or ``EROFS``): most often a
    memory card the kernel found failing and mounted read-only again."""

    def __init__(self, path: Path | str | None) -> None:
        super().__init__(path, "is read-only (a memory card that fails is mounted so)",
                         "restart the Pi; if it stays so, copy the latest backup to a USB "
                         "stick and replace the card")


class StorageFailing(StorageRefused):
    """The disk failed to read or write (SQLite's ``SQLITE_IOERR`` and its variants, "disk
    I/O error", or ``EIO``): most often a memory card that is failing, before the kernel
    mounts it read-only. SQLite takes the transaction back whole."""

    def __init__(self, path: Path | str | None) -> None:
        super().__init__(path, "failed to read or write (a disk I/O error: a memory card "
                               "that is failing does this)",
                         "restart the Pi; if it happens again, the card is failing: copy the "
                         "latest backup to a USB stick and replace the card")


def is_full(exc: BaseException) -> bool:
    """Whether ``exc`` says that the disk (or a quota) is full."""
    if isinstance(exc, sqlite3.Error):
        return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)


def refused(exc: BaseException, path: Path | str | None) -> StorageRefused | None:
    """The :class:`StorageRefused` that ``exc`` (an SQLite or OS error writing at ``path``)
    amounts to, or None when it says something else."""
    if is_full(exc):
        return StorageFull(path)
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        if code is not None and code & 0xFF == sqlite3.SQLITE_READONLY:  # and its variants
            return StorageReadOnly(path)
        if code is not None and code & 0xFF == sqlite3.SQLITE_IOERR:  # "disk I/O error"
            return StorageFailing(path)
    elif isinstance(exc, OSError) and exc.errno == errno.EROFS:
        return StorageReadOnly(path)
    elif isinstance(exc, OSError) and exc.errno == errno.EIO:
        return StorageFailing(path)
    return None


class NotJSON(StoreError, ValueError):
    """A value to be logged (command args, event payload, state) that JSON cannot hold."""


@contextmanager
def refusals_said(path: Path | str | None) -> Iterator[None]:
    """An SQLite or OS error that says the disk at ``path`` takes no write is raised as its
    :class:`StorageRefused` (the web's 507 or 503); any other error as it is."""
    try:
        yield
    except (sqlite3.Error, OSError) as exc:
        if (said := refused(exc, path)) is not None:
            raise said from exc
        raise

