"""Where the vision package keeps per-user data (profiles, calibrations): XDG data dir."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def data_dir(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME/tableside/vision`` (default ``~/.local/share/tableside/vision``)."""
    env = os.environ if env is None else env
    base = env.get("XDG_DATA_HOME") or str(Path(env.get("HOME", "~")).expanduser() / ".local/share")
    return Path(base) / "tableside" / "vision"


def check_name(name: str, what: str) -> str:
    """A profile or setup name safe to use as a file name (``ValueError`` otherwise)."""
    if not _SAFE_NAME.match(name) or name in {".", ".."}:
        raise ValueError(
            f"bad {what} name {name!r}: use letters, digits, '-', '_' or '.' (at most 64)"
        )
    return name
