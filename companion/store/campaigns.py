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


class UnknownCampaign(StoreError, KeyError):
    """No campaign with this id in the database."""

    def __str__(self) -> str:
        return f"no campaign {self.args[0]!r} in this database"


CONFLICTS: dict[str, str] = {  # the English of each CampaignConflict; {name}: a value
    "under_way": "campaign '{name}' already has a game under way ({session}): record it first",
    "none_under_way": "campaign '{name}' has no game under way",
    "not_under_way": "{session} is not the game under way in campaign '{name}'",
    "nothing_to_take_back": "campaign '{name}' has nothing to take back: no game was set up "
                            "from it yet",
    "changed": "campaign '{name}' changed: its last step is now the {kind} of {session}; "
               "reload",
    "played": "game {session} of campaign '{name}' has moves played on its table ({moves}): "
              "taking back its setting up takes the game out of the campaign (its table "
              "stays, as a table of its own); undo its moves on its table first, or take it "
              "back as played",
    "already_here": "campaign {campaign} is already in this database",
    "session_missing": "game session {session} is not in this database: import the "
                       "campaign's sessions first (tableside sessions import)",
}


class CampaignConflict(StoreError):
    """The campaign is not where the request assumed (a game already started or recorded).
    ``code`` names the case (:data:`CONFLICTS`, its English) and ``values`` fill it in, so a
    page can say it in its language."""

    def __init__(self, code: str, **values: str) -> None:
        super().__init__(CONFLICTS[code].format(**values))
        self.code, self.values = code, values


@dataclass(frozen=True)
class CampaignGame:
    version: int  # the ledger the game was set up from
    session_id: str
    recorded: bool  # a later ledger came from this game
    withdrawn: bool = False  # its setting up was taken back: a table of its own now


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
        return next((g.session_id for g in self.games
                     if g.version == self.version and not g.withdrawn), None)

    @property
    def over(self) -> dict[str, JSON] | None:
        """The campaign is over when its latest ledger was recorded from its final game:
        the ledger's ``campaign_over`` (who is crowned, and in which game), else None. Such a
        ledger keeps what the final game carried (the campaign page shows it) and sets up no
        game (the engine refuses it)."""
        over = self.ledger.get("campaign_over")
        return over if isinstance(over, dict) else None

    @property
    def last_step(self) -> tuple[str, str] | None:
        """What :meth:`CampaignTables.take_back_campaign_step` would take back:
        ``("game", session)``, the game set up from the latest ledger; else
        ``("recording", session)``, the game whose recording made the latest ledger; None
        when only the first ledger is left."""
        if self.current is not None:
            return ("game", self.current)
        recorded = [g for g in self.games if g.recorded and not g.withdrawn]
        return ("recording", recorded[-1].session_id) if recorded else None

    def to_json(self) -> dict[str, JSON]:
        return {"id": self.id, "name": self.name, "game": self.game,
                "created_at": self.created_at, "version": self.version,
                "current": self.current, "ledger": self.ledger, "over": self.over,
                "games": [{"version": g.version, "session": g.session_id,
                           "recorded": g.recorded, "withdrawn": g.withdrawn}
                          for g in self.games],
                "last_step": None if self.last_step is None else
                dict(zip(("kind", "session"), self.last_step, strict=True))}


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
            return [read_campaign(conn, cid) for cid in ids]

    def campaign(self, campaign_id: str) -> CampaignInfo:
        with self._read() as conn:
            return read_campaign(conn, campaign_id)

    def campaign_of(self, session_id: str) -> CampaignInfo | None:
        """The campaign a table is a game of, or None for a table of its own."""
        with self._read() as conn:
            row = conn.execute(
                "SELECT campaign_id FROM campaign_games WHERE session_id = ?1 AND NOT EXISTS "
                "(SELECT 1 FROM campaign_withdrawals WHERE session_id = ?1)",
                (session_id,)).fetchone()
            return None if row is None else read_campaign(conn, row[0])

    def campaign_recorded(self, session_id: str) -> str | None:
        """The name of the campaign a game is recorded into (its recording not taken back),
        or None."""
        with self._read() as conn:
            row = conn.execute(
                "SELECT c.name FROM campaign_ledgers AS l JOIN campaigns AS c "
                "ON c.id = l.campaign_id WHERE l.from_session = ? AND NOT EXISTS "
                "(SELECT 1 FROM campaign_withdrawals AS w WHERE w.campaign_id = l.campaign_id "
                "AND w.ledger_version = l.version)", (session_id,)).fetchone()
        return None if row is None else str(row[0])

    def link_campaign_game(self, campaign_id: str, session_id: str) -> CampaignInfo:
        """Record that ``session_id`` is the game set up from the latest ledger."""
        with self._write() as conn:
            info = read_campaign(conn, campaign_id)
            if info.current is not None:
                raise CampaignConflict("under_way", name=info.name, session=info.current)
            conn.execute("INSERT INTO campaign_games VALUES (?, ?, ?, ?)",
                         (campaign_id, info.version, session_id, self._now()))
        return self.campaign(campaign_id)

    def append_campaign_ledger(self, campaign_id: str, session_id: str,
                               ledger: dict[str, JSON]) -> CampaignInfo:
        """The next ledger, from the recorded game ``session_id`` (the game under way)."""
        text = to_json_text(ledger, "the campaign ledger")
        with self._write() as conn:
            info = read_campaign(conn, campaign_id)
            if info.current != session_id:
                raise CampaignConflict("not_under_way", name=info.name, session=session_id)
            # after the versions of any recording taken back: versions are never reused
            conn.execute("INSERT INTO campaign_ledgers SELECT ?, MAX(version) + 1, ?, ?, ? "
                         "FROM campaign_ledgers WHERE campaign_id = ?",
                         (campaign_id, text, session_id, self._now(), campaign_id))
        return self.campaign(campaign_id)

    def take_back_campaign_step(self, campaign_id: str,
                                expected: tuple[str, str] | None = None,
                                played: bool = False) -> CampaignInfo:
        """Take back the campaign's last step (:attr:`CampaignInfo.last_step`), appending
        the withdrawal: nothing is deleted.

        A game set up is unlinked: it stays a table of its own, and the ledger it came from
        sets up the next game again. A recording is withdrawn: the ledger before it is the
        latest again, and its game is the game under way, to be played on and recorded
        again. ``expected``, as ``last_step`` gave it, guards against taking back a step
        another phone took back first (``CampaignConflict``). A game with moves played on
        its table (more commands applied than undone) is taken out only when ``played``
        says it was meant: else ``CampaignConflict`` ``"played"`` (two take-backs in a row
        took a whole game, played and recorded, out of its campaign).
        """
        with self._write() as conn:
            info = read_campaign(conn, campaign_id)
            step = info.last_step
            if step is None:
                raise CampaignConflict("nothing_to_take_back", name=info.name)
            if expected is not None and tuple(expected) != step:
                raise CampaignConflict("changed", name=info.name, kind=step[0],
                                       session=step[1])
            kind, session = step
            if kind == "game" and not played and (moves := moves_played(conn, session)):
                raise CampaignConflict("played", name=info.name, session=session, moves=moves)
            seq = conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM campaign_withdrawals "
                               "WHERE campaign_id = ?", (campaign_id,)).fetchone()[0]
            conn.execute("INSERT INTO campaign_withdrawals VALUES (?, ?, ?, ?, ?)",
                         (campaign_id, seq, session if kind == "game" else None,
                          info.version if kind == "recording" else None, self._now()))
        return self.campaign(campaign_id)


def moves_played(conn: sqlite3.Connection, session_id: str) -> int:
    """The commands applied on a game's table now: those made, and redone, less those
    undone (its setup is none)."""
    (moves,) = conn.execute(
        "SELECT COALESCE(SUM(CASE kind WHEN 'undo' THEN -1 WHEN 'setup' THEN 0 ELSE 1 END), 0) "
        "FROM commands WHERE session_id = ?", (session_id,)).fetchone()
    return int(moves)


def read_campaign(conn: sqlite3.Connection, campaign_id: str) -> CampaignInfo:
    """The campaign as the database holds it now, within the caller's transaction."""
    row = conn.execute("SELECT name, game, created_at FROM campaigns WHERE id = ?",
                       (campaign_id,)).fetchone()
    if row is None:
        raise UnknownCampaign(campaign_id)
    taken_back = conn.execute("SELECT session_id, ledger_version FROM campaign_withdrawals "
                              "WHERE campaign_id = ?", (campaign_id,)).fetchall()
    withdrawn_games = {sid for sid, _ in taken_back if sid is not None}
    withdrawn_ledgers = {v for _, v in taken_back if v is not None}
    ledgers = [(v, text, src) for v, text, src in conn.execute(
        "SELECT version, ledger, from_session FROM campaign_ledgers WHERE campaign_id = ? "
        "ORDER BY version", (campaign_id,)) if v not in withdrawn_ledgers]
    version, text, _ = ledgers[-1]  # version 1 is never withdrawn
    recorded = {src for _, _, src in ledgers if src is not None}
    rows = conn.execute("SELECT version, session_id, time FROM campaign_games "
                        "WHERE campaign_id = ?", (campaign_id,)).fetchall()
    # in play order: by ledger, a game taken back before the one set up again in its place
    rows.sort(key=lambda r: (r[0], r[1] not in withdrawn_games, r[2]))
    games = tuple(CampaignGame(v, sid, sid in recorded, sid in withdrawn_games)
                  for v, sid, _ in rows)
    return CampaignInfo(campaign_id, row[0], row[1], row[2], version, json.loads(text), games)
