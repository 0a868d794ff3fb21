"""SQLite files the server keeps beside the game database, which it can start afresh.

The game database is the players' campaign: a damaged one is refused and left untouched
(:mod:`companion.store.sqlite`). The web's credentials (who joined which table) and the dice
reads (their pictures and corrections) are not the game: when one of them is damaged (a
card's corruption, a copy cut short), it is moved aside under a name that says so, kept
for whoever wants to look at it, and a new one is made, so that the table still plays.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from companion.store.backup import set_aside
from companion.store.sqlite import SQLITE_MAGIC

log = logging.getLogger(__name__)


def damage(path: Path) -> str | None:
    """Why the SQLite file at ``path`` cannot be read whole (read only), or None; None too
    when SQLite cannot look (the file locked by another program): only a file seen to be
    damaged is set aside, never one in use."""
    with path.open("rb") as f:
        header = f.read(100)
    if not header:
        return None  # an empty file is a new database to SQLite
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        return "not an SQLite file"
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=0.5)
        try:
            problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
        finally:
            conn.close()
    except sqlite3.OperationalError:
        return None  # locked by another program, say: no sign of damage, not judged here
    except sqlite3.DatabaseError as exc:  # malformed, or not a database past its header
        return str(exc)
    return None if problems == ["ok"] else "; ".join(problems[:3])


def set_aside_if_damaged(path: Path, what: str) -> Path | None:
    """Move a damaged SQLite file at ``path`` (and its journal files) aside, logged as a
    warning naming ``what`` it held; the name it was moved to, or None if it was sound or
    absent."""
    if not path.is_file() or (why := damage(path)) is None:
        return None
    aside = set_aside(path)
    log.warning("%s (%s) was damaged (%s): kept as %s, and a new one started", path, what,
                why, aside.name)
    return aside
