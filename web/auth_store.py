"""Where web keeps who may do what at a table: host PINs, join tokens, browser sessions and
their roles. Its own small SQLite file next to the game database (``tableside.sqlite3`` ->
``tableside.web-auth.sqlite3``), or in memory for tests and in-memory stores.

It is web's alone: the companion's event store knows nothing of phones, and a database
exported for a campaign carries no credentials. Secrets are never stored as given: the host
PIN is kept as a salted PBKDF2 hash, join tokens and session cookies as SHA-256 hashes
(they are long random strings, so a plain hash is enough), so a copied file lets nobody in
as host or as a seated player. One exception: each table's current join link is also kept
as given (``current_invites``), so that after a restart (a power cut at the table) the host
page shows the same link and a printed or shared QR code still works until it expires; a
copied file can at most join a table through that link, as anyone shown the QR code can,
and the host's "new link" cuts it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from web.sidefiles import set_aside_if_damaged

MEMORY = ":memory:"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS hosts (
    table_id TEXT PRIMARY KEY,
    pin_salt BLOB NOT NULL,
    pin_hash BLOB NOT NULL,
    players_act_for_all INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS invites (
    token_hash TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    expires_at REAL NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS current_invites (
    table_id TEXT PRIMARY KEY,
    token TEXT NOT NULL,
    expires_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    sid_hash TEXT PRIMARY KEY,
    csrf TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS members (
    sid_hash TEXT NOT NULL,
    table_id TEXT NOT NULL,
    role TEXT NOT NULL,
    province TEXT,
    name TEXT,
    PRIMARY KEY (sid_hash, table_id)
);
"""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


PIN_ROUNDS = 120_000


def _pin_hash(pin: str, salt: bytes) -> bytes:
    # slow on purpose, so a copied file does not give the PIN away at once; PBKDF2 rather
    # than scrypt, whose 16 MB per check would count against the Pi's memory budget
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, PIN_ROUNDS)


@dataclass(frozen=True)
class Member:
    """Someone at a table: ``role`` is host, player or spectator; a player has a province."""

    role: str
    province: str | None = None
    name: str | None = None


class AuthStore:
    """The web's credentials, in SQLite (one connection, one lock: it is small and quick)."""

    def __init__(self, path: str | Path = MEMORY) -> None:
        self.path = None if str(path) == MEMORY else Path(path)
        if self.path is not None:  # damaged: the players join again rather than no one
            set_aside_if_damaged(self.path, "who joined which table")
        self._conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        if self.path is not None:
            self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.executescript(_SCHEMA)
        self._lock = threading.Lock()

    @classmethod
    def beside(cls, db_path: Path | None) -> AuthStore:
        """The auth file next to a game database, or one in memory if there is none."""
        if db_path is None:
            return cls(MEMORY)
        return cls(db_path.with_name(f"{db_path.stem}.web-auth.sqlite3"))

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def _run(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._conn.execute(sql, args).fetchall()

    # -- host --------------------------------------------------------------------------------

    def set_pin(self, table_id: str, pin: str) -> None:
        salt = secrets.token_bytes(16)
        self._run("INSERT INTO hosts (table_id, pin_salt, pin_hash) VALUES (?, ?, ?) "
                  "ON CONFLICT(table_id) DO UPDATE SET pin_salt = excluded.pin_salt, "
                  "pin_hash = excluded.pin_hash", (table_id, salt, _pin_hash(pin, salt)))

    def check_pin(self, table_id: str, pin: str) -> bool:
        rows = self._run("SELECT pin_salt, pin_hash FROM hosts WHERE table_id = ?", (table_id,))
        if not rows:
            return False
        salt, stored = rows[0]
        return hmac.compare_digest(_pin_hash(pin, salt), stored)

    def has_host(self, table_id: str) -> bool:
        return bool(self._run("SELECT 1 FROM hosts WHERE table_id = ?", (table_id,)))

    def players_act_for_all(self, table_id: str) -> bool:
        rows = self._run("SELECT players_act_for_all FROM hosts WHERE table_id = ?", (table_id,))
        return bool(rows and rows[0][0])

    def set_players_act_for_all(self, table_id: str, allowed: bool) -> None:
        self._run("UPDATE hosts SET players_act_for_all = ? WHERE table_id = ?",
                  (int(allowed), table_id))

    # -- invites -----------------------------------------------------------------------------

    def add_invite(self, table_id: str, token: str, expires_at: float) -> None:
        """A new join token; the older ones of the table stop working (a leaked link dies)."""
        with self._lock, self._conn:
            self._conn.execute("UPDATE invites SET revoked = 1 WHERE table_id = ?", (table_id,))
            self._conn.execute("INSERT INTO invites (token_hash, table_id, expires_at) "
                               "VALUES (?, ?, ?)", (token_hash(token), table_id, expires_at))
            self._conn.execute("INSERT INTO current_invites (table_id, token, expires_at) "
                               "VALUES (?, ?, ?) ON CONFLICT(table_id) DO UPDATE SET "
                               "token = excluded.token, expires_at = excluded.expires_at",
                               (table_id, token, expires_at))

    def current_invite(self, table_id: str) -> tuple[str, float] | None:
        """The table's newest join token as given and when it expires (kept so that a
        restart shows the same link), or None if it has none."""
        rows = self._run("SELECT token, expires_at FROM current_invites WHERE table_id = ?",
                         (table_id,))
        return (rows[0][0], rows[0][1]) if rows else None

    def invite_expiry(self, table_id: str, token: str) -> float | None:
        """When the table's join token expires (or expired), or None for a token never made."""
        rows = self._run("SELECT expires_at FROM invites WHERE token_hash = ? AND table_id = ?",
                         (token_hash(token), table_id))
        return rows[0][0] if rows else None

    def newest_invite_expiry(self, table_id: str, before: float) -> float | None:
        """The expiry of the table's newest join token expiring before ``before``."""
        rows = self._run("SELECT MAX(expires_at) FROM invites WHERE table_id = ? AND "
                         "expires_at < ?", (table_id, before))
        return rows[0][0] if rows else None

    def invite_valid(self, table_id: str, token: str, now: float) -> bool:
        rows = self._run("SELECT expires_at, revoked FROM invites WHERE token_hash = ? AND "
                         "table_id = ?", (token_hash(token), table_id))
        return bool(rows) and not rows[0][1] and rows[0][0] > now

    # -- sessions ----------------------------------------------------------------------------

    def new_session(self, now: float) -> tuple[str, str]:
        """A browser session: the cookie value (given out once) and its CSRF token."""
        sid, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        self._run("INSERT INTO sessions (sid_hash, csrf, created_at) VALUES (?, ?, ?)",
                  (token_hash(sid), csrf, now))
        return sid, csrf

    def csrf_of(self, sid: str) -> str | None:
        rows = self._run("SELECT csrf FROM sessions WHERE sid_hash = ?", (token_hash(sid),))
        return rows[0][0] if rows else None

    def member(self, sid: str, table_id: str) -> Member | None:
        rows = self._run("SELECT role, province, name FROM members WHERE sid_hash = ? AND "
                         "table_id = ?", (token_hash(sid), table_id))
        return Member(*rows[0]) if rows else None

    def set_member(self, sid: str, table_id: str, member: Member) -> None:
        self._run("INSERT INTO members (sid_hash, table_id, role, province, name) "
                  "VALUES (?, ?, ?, ?, ?) ON CONFLICT(sid_hash, table_id) DO UPDATE SET "
                  "role = excluded.role, province = excluded.province, name = excluded.name",
                  (token_hash(sid), table_id, member.role, member.province, member.name))

    def holders(self, table_id: str) -> dict[str, list[str]]:
        """Province -> the names of the sessions playing it."""
        out: dict[str, list[str]] = {}
        for province, name in self._run(
                "SELECT province, name FROM members WHERE table_id = ? AND province IS NOT "
                "NULL ORDER BY rowid", (table_id,)):
            out.setdefault(province, []).append(name or "")
        return out

    def holder_sessions(self, table_id: str, province: str) -> list[str]:
        return [r[0] for r in self._run("SELECT sid_hash FROM members WHERE table_id = ? AND "
                                        "province = ?", (table_id, province))]

    def release(self, table_id: str, province: str) -> int:
        """Free a province: its players become spectators. Returns how many there were."""
        with self._lock, self._conn:
            cur = self._conn.execute(
                "UPDATE members SET role = CASE role WHEN 'host' THEN 'host' ELSE 'spectator' "
                "END, province = NULL WHERE table_id = ? AND province = ?", (table_id, province))
            return cur.rowcount
