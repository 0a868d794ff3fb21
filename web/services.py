"""The services the web application is given (no module globals, STYLE.md "Web").

:class:`Services` holds the event store and the open table sessions; ``tableside serve``
builds one and passes it to :func:`web.app.create_app`, tests build their own.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.store.errors import UnknownSession
from companion.store.protocol import EventStore
from companion.table import Table
from firmware_bridge.keys import SoftwareButtonBox
from web.auth import Auth
from web.auth_store import AuthStore
from web.buttons import TableButtons
from web.errors import NotFound
from web.live import Broker
from web.rules import RuleIndex, index_path


@dataclass
class Tables:
    """Open :class:`Table` sessions by id, opened from the store on first use."""

    store: EventStore
    _open: dict[str, Table] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def get(self, session_id: str) -> Table:
        with self._lock:
            table = self._open.get(session_id)
            if table is None:
                try:
                    table = Table.open(self.store, session_id)
                except UnknownSession:
                    raise NotFound(f"there is no table {session_id!r}") from None
                self._open[session_id] = table
            return table

    def create(self, game: str, options: Mapping[str, Any], actor: str | None = None) -> Table:
        table = Table.create(self.store, game, options, actor)
        with self._lock:
            self._open[table.session_id] = table
        return table


@dataclass
class Services:
    store: EventStore
    tables: Tables = field(init=False)
    demo_table: str | None = None
    software_box: SoftwareButtonBox = field(init=False)
    _buttons: dict[str, TableButtons] = field(default_factory=dict)
    # live updates (web.live) and roles (web.auth, its own file beside the database)
    live: Broker = field(default_factory=Broker)
    auth: Auth = field(init=False)
    # rule lookup (web.rules): its own index file beside the database, or in memory
    rules: RuleIndex | None = None

    def __post_init__(self) -> None:
        self.tables = Tables(self.store)
        self.software_box = SoftwareButtonBox(source="dashboard")
        self.auth = Auth(AuthStore.beside(getattr(self.store, "path", None)))
        if self.rules is None:
            self.rules = RuleIndex(index_path(getattr(self.store, "path", None)))

    def buttons_for(self, table: Table) -> TableButtons:
        """The button meanings of a table (its game's mapping), made on first use."""
        buttons = self._buttons.get(table.session_id)
        if buttons is None:
            buttons = self._buttons.setdefault(table.session_id,
                                               TableButtons.for_game(table.game))
        return buttons

    def close(self) -> None:
        self.live.close(timeout=1.0)
        self.auth.store.close()
        if self.rules is not None:
            self.rules.close()
        self.software_box.close()
        self.store.close()
