"""Which table the camera and the button box serve: the open table that changed last.

One Pi serves one table, but the server may have several open (a game and a test table, a
finished game still shown). The camera reads for the open table whose state changed most
recently among those waiting for dice; a button answers the open table that changed most
recently. A change is seen by polling each open table's version and first prompt, which is
cheap and needs no hook into the tables.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.table import Table
from web.runtime.dice import roll_prompt


@dataclass
class Focus:
    opened: Callable[[], list[Table]]
    _seen: dict[str, tuple[int, str | None]] = field(default_factory=dict)
    _changed: dict[str, int] = field(default_factory=dict)
    _tick: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def refresh(self) -> list[Table]:
        """Note which open tables changed since the last look; the open tables."""
        tables = self.opened()
        with self._lock:
            for table in tables:
                prompts = table.prompts()
                key = (table.version, prompts[0].id if prompts else None)
                if self._seen.get(table.session_id) != key:
                    self._seen[table.session_id] = key
                    self._tick += 1
                    self._changed[table.session_id] = self._tick
        return tables

    def table(self, *, waiting_for_dice: bool = False) -> Table | None:
        """The open table that changed last (among those with a roll prompt open)."""
        tables = self.refresh()
        if waiting_for_dice:
            tables = [t for t in tables if roll_prompt(t) is not None]
        if not tables:
            return None
        with self._lock:
            return max(tables, key=lambda t: self._changed.get(t.session_id, 0))
