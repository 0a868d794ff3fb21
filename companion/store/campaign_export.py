"""A campaign as one JSON document, and back: its ledgers, the ids of its games and the
steps taken back (``tableside-campaign/2``; import also reads ``/1``, which had none).

The games' sessions travel as session exports of their own (:mod:`companion.store.export`)
and are imported first. :func:`parse_campaign` checks the whole document before anything is
written and names the first bad part, so a campaign file edited by hand is refused with a
reason, never half imported.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from typing import Any

from companion.engine import JSON
from companion.store.campaigns import CampaignConflict, read_campaign
from companion.store.records import to_json_text

CAMPAIGN_FORMAT = "tableside-campaign/2"  # 2: steps taken back ("withdrawn")
CAMPAIGN_FORMATS = ("tableside-campaign/1", CAMPAIGN_FORMAT)  # what import reads


class CampaignExport:
    """Export and import for :class:`companion.store.campaigns.CampaignTables`, a mixin of
    :class:`companion.store.sqlite.SQLiteStore` (its ``_read`` and ``_write``)."""

    _read: Any
    _write: Any

    def export_campaign(self, campaign_id: str) -> dict[str, JSON]:
        """The campaign's ledgers, the ids of its games and the steps taken back (export
        each game's session with ``export_session``)."""
        with self._read() as conn:
            info = read_campaign(conn, campaign_id)
            ledgers = [{"version": v, "ledger": json.loads(text), "from_session": src,
                        "time": time} for v, text, src, time in conn.execute(
                "SELECT version, ledger, from_session, time FROM campaign_ledgers "
                "WHERE campaign_id = ? ORDER BY version", (campaign_id,))]
            times = dict(conn.execute("SELECT session_id, time FROM campaign_games "
                                      "WHERE campaign_id = ?", (campaign_id,)).fetchall())
            games = [{"version": g.version, "session": g.session_id,
                      "time": times[g.session_id]} for g in info.games]
            withdrawn = [{"seq": seq, "session": sid, "ledger_version": v, "time": time}
                         for seq, sid, v, time in conn.execute(
                "SELECT seq, session_id, ledger_version, time FROM campaign_withdrawals "
                "WHERE campaign_id = ? ORDER BY seq", (campaign_id,))]
        return {"format": CAMPAIGN_FORMAT, "id": info.id, "name": info.name,
                "game": info.game, "created_at": info.created_at, "ledgers": ledgers,
                "games": games, "withdrawn": withdrawn}

    def import_campaign(self, doc: Any) -> str:
        """Write a campaign from its export (:func:`parse_campaign` first); its games'
        sessions must be in the database already (``CampaignConflict`` otherwise)."""
        doc = parse_campaign(doc)
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM campaigns WHERE id = ?", (doc["id"],)).fetchone():
                raise CampaignConflict("already_here", campaign=doc["id"])
            for entry in doc["games"]:
                if not conn.execute("SELECT 1 FROM sessions WHERE id = ?",
                                    (entry["session"],)).fetchone():
                    raise CampaignConflict("session_missing", session=entry["session"])
            try:
                _write_campaign(conn, doc)
            except sqlite3.IntegrityError as exc:  # what the checks above do not foresee
                raise ValueError(f"the campaign export does not hold together ({exc})") from None
        return str(doc["id"])


def _write_campaign(conn: sqlite3.Connection, doc: dict[str, Any]) -> None:
    cid, created = doc["id"], doc["created_at"]
    conn.execute("INSERT INTO campaigns VALUES (?, ?, ?, ?)",
                 (cid, doc["name"], doc["game"], created))
    for entry in doc["ledgers"]:
        conn.execute("INSERT INTO campaign_ledgers VALUES (?, ?, ?, ?, ?)",
                     (cid, entry["version"], to_json_text(entry["ledger"]),
                      entry["from_session"], entry.get("time") or created))
    for entry in doc["games"]:
        conn.execute("INSERT INTO campaign_games VALUES (?, ?, ?, ?)",
                     (cid, entry["version"], entry["session"], entry.get("time") or created))
    for entry in doc["withdrawn"]:
        conn.execute("INSERT INTO campaign_withdrawals VALUES (?, ?, ?, ?, ?)",
                     (cid, entry["seq"], entry.get("session"), entry.get("ledger_version"),
                      entry.get("time") or created))


def parse_campaign(doc: Any) -> dict[str, Any]:
    """Check an exported campaign document: ``ValueError`` names what is wrong. Returns the
    document with its ``withdrawn`` list (empty for format ``/1``)."""
    if not isinstance(doc, dict) or doc.get("format") not in CAMPAIGN_FORMATS:
        raise ValueError(_wrong_format(doc))
    for key in ("id", "name", "game", "created_at"):
        if not isinstance(doc.get(key), str) or not doc[key]:
            raise ValueError(f"the campaign export needs a text '{key}'")
    ledgers, games = doc.get("ledgers"), doc.get("games")
    if not isinstance(ledgers, list) or not ledgers or not isinstance(games, list):
        raise ValueError("the campaign export needs 'ledgers' (at least one) and 'games'")
    for number, entry in enumerate(ledgers, 1):
        src = entry.get("from_session", 0) if isinstance(entry, dict) else 0
        if not isinstance(entry, dict) or not _whole(entry.get("version"), number, number) or \
                not isinstance(entry.get("ledger"), dict) or \
                not (src is None if number == 1 else isinstance(src, str)) or \
                not _time(entry):
            raise ValueError(f"ledger {number} of the campaign export is malformed: "
                             "{version, ledger, from_session (none for the first), time}")
    set_up: dict[str, int] = {}  # each game's session: the ledger it was set up from
    for entry in games:
        if not isinstance(entry, dict) or not isinstance(entry.get("session"), str) or \
                not _whole(entry.get("version"), 1, len(ledgers)) or not _time(entry):
            raise ValueError("each game of the campaign export is {version (a ledger's), "
                             "session, time}")
        if entry["session"] in set_up:
            raise ValueError(f"game {entry['session']} is listed twice in the campaign export")
        set_up[entry["session"]] = entry["version"]
    for number, entry in enumerate(ledgers[1:], 2):
        if set_up.get(entry["from_session"], number) >= number:
            raise ValueError(f"ledger {number} of the campaign export comes from game "
                             f"{entry['from_session']}, which it does not set up before it")
    withdrawn = doc.get("withdrawn", [])
    if not isinstance(withdrawn, list):
        raise ValueError("'withdrawn' of the campaign export is a list")
    for number, entry in enumerate(withdrawn, 1):
        if not isinstance(entry, dict) or entry.get("seq") != number or \
                (entry.get("session") is None) == (entry.get("ledger_version") is None) or \
                not isinstance(entry.get("session") or entry.get("ledger_version"), (str, int)) \
                or not _time(entry):
            raise ValueError(f"step {number} taken back in the campaign export is malformed: "
                             "{seq, session | ledger_version, time}")
        if entry.get("session") not in {None, *set_up} or \
                entry.get("ledger_version") not in {None, *range(2, len(ledgers) + 1)}:
            raise ValueError(f"step {number} taken back in the campaign export names a game "
                             "or a ledger the export does not have")
    _check_ledgers(doc["game"], ledgers)
    return {**doc, "withdrawn": withdrawn}


def _check_ledgers(game: str, ledgers: list[dict[str, Any]]) -> None:
    """Each ledger's game data, read by the game's engine as the setup of the game it sets
    up would read it: a value edited by hand (campaign glory "lots", a province without
    ships) was imported, and the campaign broke at its next setup."""
    from companion.errors import IllegalCommand, InvalidCommand
    from companion.games import find_game

    try:
        engine = find_game(game)
    except KeyError:
        raise ValueError(f"the campaign export is of {game!r}, a game this version does not "
                         "play") from None
    check = getattr(engine, "check_ledger", None)
    if check is None:
        return
    for number, entry in enumerate(ledgers, 1):
        try:
            check(entry["ledger"])
        except (InvalidCommand, IllegalCommand) as exc:
            game_number = entry["ledger"].get("game")
            what = [f"setting up game {game_number}"] if _whole(game_number, 1, 10**6) else []
            what.append(f"recorded from table {entry['from_session']}" if number > 1 else
                        "the campaign's first setup")
            raise ValueError(f"ledger {number} of the campaign export ({', '.join(what)}) is "
                             f"damaged: {exc}; nothing was imported") from None


def _wrong_format(doc: Any) -> str:
    """What the file says it is, and what this version reads: the message named the format
    expected as if the file said it ("format tableside-campaign/2" for a file saying /9)."""
    reads = f"this version reads {' and '.join(CAMPAIGN_FORMATS)}"
    found = doc.get("format") if isinstance(doc, dict) else None
    if isinstance(found, str) and found.startswith("tableside-campaign/"):
        return (f"the campaign export is in format {found}, which this version of Tableside "
                f"does not read ({reads}; a newer Tableside wrote it?)")
    said = f"its format is {found!r}" if isinstance(doc, dict) and "format" in doc else \
        "it names no format" if isinstance(doc, dict) else "it is not a JSON object"
    return f"not a Tableside campaign export: {said} ({reads})"


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _time(entry: dict[str, Any]) -> bool:
    """A time, if given, is an ISO 8601 time, as a session export's (the export's
    ``created_at`` stands in for none)."""
    time = entry.get("time")
    if time is None:
        return True
    try:
        datetime.fromisoformat(time)
    except (TypeError, ValueError):
        return False
    return True
