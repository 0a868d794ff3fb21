"""Where the database lives by default: the XDG data home (``~/.local/share`` fallback)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

DB_FILENAME = "tableside.sqlite3"


def default_db_path(environ: Mapping[str, str] | None = None, home: Path | None = None) -> Path:
    """``$XDG_DATA_HOME/tableside/tableside.sqlite3``, else ``~/.local/share/tableside/...``.

    An empty or relative ``XDG_DATA_HOME`` is ignored, as the XDG base directory spec says.
    """
    env = os.environ if environ is None else environ
    data_home = env.get("XDG_DATA_HOME", "")
    if data_home and Path(data_home).is_absolute():
        base = Path(data_home)
    else:
        base = (home if home is not None else Path.home()) / ".local" / "share"
    return base / "tableside" / DB_FILENAME
