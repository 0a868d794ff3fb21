"""The services the web application is given (no module globals, STYLE.md "Web").

:class:`Services` holds the event store and the open table sessions; ``tableside serve``
builds one and passes it to :func:`web.app.create_app`, tests build their own.
"""

from __future__ import annotations

import logging
import tempfile
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import IllegalCommand
from companion.games import game_names
from companion.store.errors import StorageFailing, StorageRefused, UnknownSession
from companion.store.protocol import EventStore
from companion.table import Table
from firmware_bridge.keys import SoftwareButtonBox
from vision.said import message
from web.auth import Auth
from web.auth_store import AuthStore
from web.buttons import TableButtons
from web.errors import NotFound, Unopenable
from web.live import Broker
from web.rules import RuleIndex, index_path

log = logging.getLogger(__name__)
RECORDED = message("table.recorded", "this game is recorded into the campaign '{name}'; to "
                   "change it, take its recording back on the campaign page first")

if TYPE_CHECKING:
    from web.runtime.dice import DiceService


@dataclass
class Tables:
    """Open :class:`Table` sessions by id, opened from the store on first use."""

    store: EventStore
    _open: dict[str, Table] = field(default_factory=dict)
    _unopenable: dict[str, tuple[str, bool]] = field(default_factory=dict)  # game, known
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def get(self, session_id: str) -> Table:
        with self._lock:
            table = self._open.get(session_id)
            if table is None:
                if session_id in self._unopenable:  # asked again: answered, not tried again
                    raise Unopenable(session_id, *self._unopenable[session_id])
                try:
                    table = Table.open(self.store, session_id)
                except UnknownSession:
                    raise NotFound(f"there is no table {session_id!r}") from None
                except Exception:  # noqa: BLE001 - a game's code on its stored events
                    log.exception("table %s cannot be opened", session_id)
                    game = self.store.session(session_id).game
                    self._unopenable[session_id] = game, game in game_names()
                    raise Unopenable(session_id, *self._unopenable[session_id]) from None
                table.add_guard(self._recorded_games_stay)
                self._open[session_id] = table
            return table

    def _recorded_games_stay(self, table: Table) -> None:
        """A game recorded into a campaign stays as it was recorded: the next ledger came
        from it. Its recording is taken back on the campaign page first."""
        recorded = getattr(self.store, "campaign_recorded", None)
        name = recorded(table.session_id) if recorded is not None else None
        if name is not None:
            raise IllegalCommand(RECORDED(name=name))

    def opened(self) -> list[Table]:
        """The tables open now (being played), for the camera and the button box."""
        with self._lock:
            return list(self._open.values())

    def create(self, game: str, options: Mapping[str, Any], actor: str | None = None) -> Table:
        table = Table.create(self.store, game, options, actor)
        table.add_guard(self._recorded_games_stay)
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
    data_dir: Path | None = None  # beside the database: dice reads and their pictures
    pictures_budget: int | None = None  # bytes of the reads' frames kept (None: the default)
    runtime: Any = None  # web.runtime.Runtime when `tableside serve` runs the hardware
    _dice: DiceService | None = None
    _scratch: tempfile.TemporaryDirectory[str] | None = None
    _dice_lock: threading.Lock = field(default_factory=threading.Lock)
    # live updates (web.live) and roles (web.auth, its own file beside the database)
    live: Broker = field(default_factory=Broker)
    auth: Auth = field(init=False)
    # rule lookup (web.rules): its own index file beside the database, or in memory
    rules: RuleIndex | None = None
    # the disk failed a read or a write (a disk I/O error) since serve started: the storage
    # status says so until serve restarts (docs/runtime.md, "Storage")
    storage_failing: bool = False

    def __post_init__(self) -> None:
        self.tables = Tables(self.store)
        self.software_box = SoftwareButtonBox(source="dashboard")
        self.auth = Auth(AuthStore.beside(getattr(self.store, "path", None)))
        if self.rules is None:
            self.rules = RuleIndex(index_path(getattr(self.store, "path", None)))

    def storage_refused(self, exc: StorageRefused) -> None:
        """A write (or a read) the disk refused: one that failed (a disk I/O error) is an
        alert on every page from now on, said at once, not at the next read of the disk."""
        if isinstance(exc, StorageFailing) and not self.storage_failing:
            self.storage_failing = True
            log.error("the disk failed: %s", exc)
            if self.runtime is not None:
                self.runtime.storage.forget()

    def buttons_for(self, table: Table) -> TableButtons:
        """The button meanings of a table (its game's mapping), made on first use."""
        buttons = self._buttons.get(table.session_id)
        if buttons is None:
            buttons = self._buttons.setdefault(
                table.session_id,
                TableButtons.for_game(table.game, self.dice, lambda: self.runtime,
                                      lambda: self.live.buttons_changed(table.session_id)))
        return buttons

    def dice(self) -> DiceService:
        """Dice reads (web.runtime.dice), made on first use; without a data dir their
        pictures go to a temporary folder removed at close."""
        with self._dice_lock:
            if self._dice is None:
                from web.runtime.dice import DiceService
                from web.runtime.reads import ReadStore

                folder = self.data_dir
                if folder is None:
                    self._scratch = tempfile.TemporaryDirectory(prefix="tableside-reads-")
                    folder = Path(self._scratch.name)
                budget = {} if self.pictures_budget is None else {
                    "frames_budget": self.pictures_budget}
                self._dice = DiceService(ReadStore(folder / "reads", **budget),
                                         on_read=self.live.dice_read)
            return self._dice

    def close(self) -> None:
        if self.runtime is not None:
            self.runtime.stop()
        if self._dice is not None:
            self._dice.store.close()
        if self._scratch is not None:
            self._scratch.cleanup()
        self.live.close(timeout=1.0)
        self.auth.store.close()
        if self.rules is not None:
            self.rules.close()
        self.software_box.close()
        self.store.close()
