"""Campaigns in the store: the ledger of what carries over, one version per game to come,
and the game sessions played from them (schema migration 2). Append-only, like the log.

A campaign starts with the setup of its first game (ledger version 1). Starting a game links
a new session to the latest ledger; recording that game (once the engine says it is over and
recorded) appends the next ledger, computed by the game's engine from the final state.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from companion.engine import JSON
from companion.store.errors import StoreError
from companion.store.records import to_json_text

CAMPAIGN_FORMAT = "tableside-campaign/1"


class UnknownCampaign(StoreError, KeyError):
    """No campaign with this id in the database."""

    def __str__(self) -> str:
        return f"no campaign {self.args[0]!r} in this database"


class CampaignConflict(StoreError):
    """The campaign is not where the request assumed (a game already started or recorded)."""


@dataclass(frozen=True)
class CampaignGame:
    version: int  # the ledger the game was set up from
    session_id: str
    recorded: bool  # a later ledger came from this game


@dataclass(frozen=True)
class CampaignInfo:
    id: str
    name: str
    game: str
    created_at: str
    version: int  # the latest ledger's
    ledger: dict[str, JSON]  # the setup of the campaign's next game
    games: tuple[CampaignGame, ...]

    @property
    def current(self) -> str | None:
        """The session of the game under way (started from the latest ledger), if any."""
        return next((g.session_id for g in self.games if g.version == self.version), None)

    def to_json(self) -> dict[str, JSON]:
        return {"id": self.id, "name": self.name, "game": self.game,
                "created_at": self.created_at, "version": self.version,
                "current": self.current, "ledger": self.ledger,
                "games": [{"version": g.version, "session": g.session_id,
                           "recorded": g.recorded} for g in self.games]}


class CampaignTables:
    """The campaign methods of :class:`companion.store.sqlite.SQLiteStore`, a mixin: they
    use the store's ``_read``/``_write`` transactions, ``_now`` and ``_new_id``."""

    _read: Any
    _write: Any
    _now: Any
    _new_id: Any

    def create_campaign(self, name: str, game: str, first_setup: dict[str, JSON]
                        ) -> CampaignInfo:
        cid = self._new_id()
        text = to_json_text(first_setup, "the campaign's first setup")
        with self._write() as conn:
            time = self._now()
            conn.execute("INSERT INTO campaigns VALUES (?, ?, ?, ?)", (cid, name, game, time))
            conn.execute("INSERT INTO campaign_ledgers VALUES (?, 1, ?, NULL, ?)",
                         (cid, text, time))
        return self.campaign(cid)

    def campaigns(self) -> list[CampaignInfo]:
        with self._read() as conn:
            ids = [r[0] for r in conn.execute("SELECT id FROM campaigns ORDER BY created_at, id")]
            return [_campaign(conn, cid) for cid in ids]

    def campaign(self, campaign_id: str) -> CampaignInfo:
        with self._read() as conn:
            return _campaign(conn, campaign_id)

    def campaign_of(self, session_id: str) -> CampaignInfo | None:
        """The campaign a table is a game of, or None for a table of its own."""
        with self._read() as conn:
            row = conn.execute("SELECT campaign_id FROM campaign_games WHERE session_id = ?",
                               (session_id,)).fetchone()
            return None if row is None else _campaign(conn, row[0])

    def link_campaign_game(self, campaign_id: str, session_id: str) -> CampaignInfo:
        """Record that ``session_id`` is the game set up from the latest ledger."""
        with self._write() as conn:
            info = _campaign(conn, campaign_id)
            if info.current is not None:
                raise CampaignConflict(f"campaign {info.name!r} already has a game under way "
                                       f"({info.current}): record it first")
            conn.execute("INSERT INTO campaign_games VALUES (?, ?, ?, ?)",
                         (campaign_id, info.version, session_id, self._now()))
        return self.campaign(campaign_id)

    def append_campaign_ledger(self, campaign_id: str, session_id: str,
                               ledger: dict[str, JSON]) -> CampaignInfo:
        """The next ledger, from the recorded game ``session_id`` (the game under way)."""
        text = to_json_text(ledger, "the campaign ledger")
        with self._write() as conn:
            info = _campaign(conn, campaign_id)
            if info.current != session_id:
                raise CampaignConflict(f"{session_id} is not the game under way in campaign "
                                       f"{info.name!r}")
            conn.execute("INSERT INTO campaign_ledgers VALUES (?, ?, ?, ?, ?)",
                         (campaign_id, info.version + 1, text, session_id, self._now()))
        return self.campaign(campaign_id)

    def export_campaign(self, campaign_id: str) -> dict[str, JSON]:
        """The campaign's ledgers and the ids of its games (export each game's session with
        ``export_session``)."""
        with self._read() as conn:
            info = _campaign(conn, campaign_id)
            ledgers = [{"version": v, "ledger": json.loads(text), "from_session": src,
                        "time": time} for v, text, src, time in conn.execute(
                "SELECT version, ledger, from_session, time FROM campaign_ledgers "
                "WHERE campaign_id = ? ORDER BY version", (campaign_id,))]
            games = [{"version": v, "session": sid, "time": time} for v, sid, time in
                     conn.execute("SELECT version, session_id, time FROM campaign_games "
                                  "WHERE campaign_id = ? ORDER BY version", (campaign_id,))]
        return {"format": CAMPAIGN_FORMAT, "id": info.id, "name": info.name,
                "game": info.game, "created_at": info.created_at, "ledgers": ledgers,
                "games": games}


def _campaign(conn: sqlite3.Connection, campaign_id: str) -> CampaignInfo:
    row = conn.execute("SELECT name, game, created_at FROM campaigns WHERE id = ?",
                       (campaign_id,)).fetchone()
    if row is None:
        raise UnknownCampaign(campaign_id)
    version, text = conn.execute(
        "SELECT version, ledger FROM campaign_ledgers WHERE campaign_id = ? "
        "ORDER BY version DESC LIMIT 1", (campaign_id,)).fetchone()
    recorded = {r[0] for r in conn.execute(
        "SELECT from_session FROM campaign_ledgers WHERE campaign_id = ? "
        "AND from_session IS NOT NULL", (campaign_id,))}
    games = tuple(CampaignGame(v, sid, sid in recorded) for v, sid in conn.execute(
        "SELECT version, session_id FROM campaign_games WHERE campaign_id = ? ORDER BY version",
        (campaign_id,)))
    return CampaignInfo(campaign_id, row[0], row[1], row[2], version, json.loads(text), games)


def parse_campaign(doc: Any) -> dict[str, Any]:
    """Check an exported campaign document; ValueError names what is wrong."""
    if not isinstance(doc, dict) or doc.get("format") != CAMPAIGN_FORMAT:
        raise ValueError(f"not a Tableside campaign export (format {CAMPAIGN_FORMAT})")
    for key in ("id", "name", "game", "created_at"):
        if not isinstance(doc.get(key), str) or not doc[key]:
            raise ValueError(f"the campaign export needs a text '{key}'")
    ledgers, games = doc.get("ledgers"), doc.get("games")
    if not isinstance(ledgers, list) or not ledgers or not isinstance(games, list):
        raise ValueError("the campaign export needs 'ledgers' (at least one) and 'games'")
    for number, entry in enumerate(ledgers, 1):
        if not isinstance(entry, dict) or entry.get("version") != number or \
                not isinstance(entry.get("ledger"), dict) or \
                (entry.get("from_session") is None) != (number == 1):
            raise ValueError(f"ledger {number} of the campaign export is malformed")
    for entry in games:
        if not isinstance(entry, dict) or not isinstance(entry.get("session"), str) or \
                not isinstance(entry.get("version"), int):
            raise ValueError("each game of the campaign export is {version, session, time}")
    return doc


class CampaignImport:
    """Import for :class:`CampaignTables` (the games' sessions must be imported first)."""

    _write: Any

    def import_campaign(self, doc: Any) -> str:
        doc = parse_campaign(doc)
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM campaigns WHERE id = ?", (doc["id"],)).fetchone():
                raise CampaignConflict(f"campaign {doc['id']} is already in this database")
            for entry in doc["games"]:
                if not conn.execute("SELECT 1 FROM sessions WHERE id = ?",
                                    (entry["session"],)).fetchone():
                    raise CampaignConflict(
                        f"game session {entry['session']} is not in this database: import the "
                        "campaign's sessions first (tableside sessions import)")
            conn.execute("INSERT INTO campaigns VALUES (?, ?, ?, ?)",
                         (doc["id"], doc["name"], doc["game"], doc["created_at"]))
            for entry in doc["ledgers"]:
                conn.execute("INSERT INTO campaign_ledgers VALUES (?, ?, ?, ?, ?)",
                             (doc["id"], entry["version"], to_json_text(entry["ledger"]),
                              entry["from_session"], entry.get("time", doc["created_at"])))
            for entry in doc["games"]:
                conn.execute("INSERT INTO campaign_games VALUES (?, ?, ?, ?)",
                             (doc["id"], entry["version"], entry["session"],
                              entry.get("time", doc["created_at"])))
        return str(doc["id"])
