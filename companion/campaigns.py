"""Running a campaign: games set up from its ledger, recorded into the next ledger.

Above the store (:mod:`companion.store.campaigns`) and the table session: the engine of the
campaign's game validates the first setup and computes what a recorded game carries over
(``engine.next_game(state)``).
"""

from __future__ import annotations

import logging
from typing import Any

from companion.errors import IllegalCommand
from companion.games import find_game
from companion.store import backup
from companion.store.campaigns import CampaignConflict, CampaignInfo
from companion.store.errors import StoreError
from companion.store.sqlite import SQLiteStore
from companion.table import Table

log = logging.getLogger(__name__)


def start_campaign(store: SQLiteStore, name: str, game: str, setup: dict[str, Any]
                   ) -> CampaignInfo:
    """A new campaign whose first game will be set up with ``setup`` (checked now)."""
    engine = find_game(game)
    if not hasattr(engine, "next_game"):
        raise IllegalCommand(f"{game} has no campaign to carry over")
    engine.setup(setup)  # raises InvalidCommand with the reason
    return store.create_campaign(name, game, setup)


def start_next_game(store: SQLiteStore, campaign_id: str, actor: str | None = None,
                    changes: list[Any] | None = None) -> Table:
    """Set up the campaign's next game from its latest ledger, with ``changes`` of who plays
    it applied first (SeaFall's ``campaign_changes``: a player who joins, catches up after
    missing games, leaves, or is absent this game; docs/commands.md, "Campaign"). The
    ledger stays as it is: the changes are in this game's setup, and what they change is
    carried on by the ledger recorded from it."""
    info = store.campaign(campaign_id)
    if info.current is not None:
        raise CampaignConflict("under_way", name=info.name, session=info.current)
    options = info.ledger if not changes else {**info.ledger, "campaign_changes": changes}
    table = Table.create(store, info.game, options, actor)
    store.link_campaign_game(campaign_id, table.session_id)
    return table


def record_game(store: SQLiteStore, campaign_id: str) -> CampaignInfo:
    """Carry the game under way, once recorded, into the campaign's next ledger. A store in
    a file is then backed up (:mod:`companion.store.backup`): a recorded game is the
    moment a legacy campaign least wants to lose. A backup that fails is logged; the
    recording stands."""
    info = store.campaign(campaign_id)
    if info.current is None:
        raise CampaignConflict("none_under_way", name=info.name)
    table = Table.open(store, info.current)
    ledger = table.engine.next_game(table.state)  # IllegalCommand until recorded
    recorded = store.append_campaign_ledger(campaign_id, info.current, ledger)
    if store.path is not None:
        try:
            backup.take(store.path, label="game-recorded")
        except (OSError, StoreError) as exc:
            log.warning("the game recorded into %r was not backed up: %s", info.name, exc)
    return recorded
