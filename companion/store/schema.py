"""The database schema and its ordered migrations.

A Tableside database says what it is in its header: ``PRAGMA application_id`` is
:data:`APPLICATION_ID` and ``PRAGMA user_version`` is the schema version, the number of the
last migration applied. :func:`migrate` applies the pending migrations in order, all in one
transaction, so a database is always at exactly one version: a failing migration leaves it
where it was.

Never edit a released migration; add the next one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from companion.store.errors import MigrationFailed

APPLICATION_ID = 0x54424C53
"""``PRAGMA application_id`` of every Tableside database: the bytes "TBLS"."""


@dataclass(frozen=True)
class Migration:
    """One step of the schema: ``version`` is the schema version once it has run."""

    version: int
    description: str
    statements: tuple[str, ...]

    def apply(self, conn: sqlite3.Connection) -> None:
        for statement in self.statements:
            conn.execute(statement)


def _append_only(table: str) -> tuple[str, ...]:
    return tuple(
        f"CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{table} are append-only: history is never rewritten'); END"
        for verb in ("UPDATE", "DELETE")
    )


MIGRATION_1 = Migration(
    1,
    "table sessions, the command and event log, snapshots",
    (
        """CREATE TABLE sessions (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            options TEXT NOT NULL,
            created_at TEXT NOT NULL,
            created_by TEXT
        )""",
        # One row per recorded action: the setup (command 0), each command, undo and redo.
        """CREATE TABLE commands (
            session_id TEXT NOT NULL REFERENCES sessions(id),
            command_no INTEGER NOT NULL CHECK (command_no >= 0),
            kind TEXT NOT NULL CHECK (kind IN ('setup', 'command', 'undo', 'redo')),
            type TEXT NOT NULL,
            args TEXT NOT NULL,
            actor TEXT,
            time TEXT NOT NULL,
            target INTEGER,
            event_count INTEGER NOT NULL CHECK (event_count >= 0),
            PRIMARY KEY (session_id, command_no),
            CHECK ((kind IN ('undo', 'redo')) = (target IS NOT NULL)),
            CHECK ((kind = 'setup') = (command_no = 0))
        ) WITHOUT ROWID""",
        """CREATE TABLE events (
            session_id TEXT NOT NULL,
            seq INTEGER NOT NULL CHECK (seq >= 1),
            command_no INTEGER NOT NULL,
            actor TEXT,
            time TEXT NOT NULL,
            type TEXT NOT NULL,
            payload TEXT NOT NULL,
            PRIMARY KEY (session_id, seq),
            FOREIGN KEY (session_id, command_no) REFERENCES commands(session_id, command_no)
        ) WITHOUT ROWID""",
        "CREATE INDEX events_by_command ON events(session_id, command_no)",
        """CREATE TABLE snapshots (
            session_id TEXT NOT NULL,
            version INTEGER NOT NULL,
            command_no INTEGER NOT NULL,
            state TEXT NOT NULL,
            applied TEXT NOT NULL,
            redoable TEXT NOT NULL,
            PRIMARY KEY (session_id, command_no),
            FOREIGN KEY (session_id, command_no) REFERENCES commands(session_id, command_no)
        ) WITHOUT ROWID""",
        # Numbering is gapless per session, whoever writes.
        """CREATE TRIGGER commands_gapless BEFORE INSERT ON commands
           WHEN NEW.command_no != (SELECT COALESCE(MAX(command_no) + 1, 0) FROM commands
                                   WHERE session_id = NEW.session_id)
           BEGIN SELECT RAISE(ABORT, 'command numbers must be gapless'); END""",
        """CREATE TRIGGER events_gapless BEFORE INSERT ON events
           WHEN NEW.seq != (SELECT COALESCE(MAX(seq), 0) + 1 FROM events
                            WHERE session_id = NEW.session_id)
           BEGIN SELECT RAISE(ABORT, 'event sequence numbers must be gapless'); END""",
        *_append_only("commands"),
        *_append_only("events"),
        *_append_only("snapshots"),
    ),
)

MIGRATION_2 = Migration(
    2,
    "campaigns: what carries over from game to game, and the games played",
    (
        """CREATE TABLE campaigns (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            game TEXT NOT NULL,
            created_at TEXT NOT NULL
        )""",
        # One ledger per game to come: version 1 sets up the first game; each recorded game
        # adds the next (from_session is the game it came from).
        """CREATE TABLE campaign_ledgers (
            campaign_id TEXT NOT NULL REFERENCES campaigns(id),
            version INTEGER NOT NULL CHECK (version >= 1),
            ledger TEXT NOT NULL,
            from_session TEXT REFERENCES sessions(id),
            time TEXT NOT NULL,
            PRIMARY KEY (campaign_id, version),
            CHECK ((version = 1) = (from_session IS NULL))
        ) WITHOUT ROWID""",
        # The game session started from a ledger (at most one per ledger).
        """CREATE TABLE campaign_games (
            campaign_id TEXT NOT NULL,
            version INTEGER NOT NULL,
            session_id TEXT NOT NULL UNIQUE REFERENCES sessions(id),
            time TEXT NOT NULL,
            PRIMARY KEY (campaign_id, version),
            FOREIGN KEY (campaign_id, version) REFERENCES campaign_ledgers(campaign_id, version)
        ) WITHOUT ROWID""",
        """CREATE TRIGGER campaign_ledgers_gapless BEFORE INSERT ON campaign_ledgers
           WHEN NEW.version != (SELECT COALESCE(MAX(version), 0) + 1 FROM campaign_ledgers
                                WHERE campaign_id = NEW.campaign_id)
           BEGIN SELECT RAISE(ABORT, 'campaign ledger versions must be gapless'); END""",
        *_append_only("campaign_ledgers"),
        *_append_only("campaign_games"),
    ),
)

MIGRATION_3 = Migration(
    3,
    "campaigns: a step taken back (a game set up, a game recorded), and a ledger set up again",
    (
        # campaign_games was keyed by the ledger a game was set up from (one game each); a
        # game taken back leaves its ledger free for the next, so the key is the session
        "DROP TRIGGER campaign_games_no_update",
        "DROP TRIGGER campaign_games_no_delete",
        """CREATE TABLE campaign_games_3 (
            campaign_id TEXT NOT NULL,
            version INTEGER NOT NULL,
            session_id TEXT NOT NULL UNIQUE REFERENCES sessions(id),
            time TEXT NOT NULL,
            PRIMARY KEY (campaign_id, session_id),
            FOREIGN KEY (campaign_id, version) REFERENCES campaign_ledgers(campaign_id, version)
        ) WITHOUT ROWID""",
        "INSERT INTO campaign_games_3 SELECT campaign_id, version, session_id, time "
        "FROM campaign_games",
        "DROP TABLE campaign_games",
        "ALTER TABLE campaign_games_3 RENAME TO campaign_games",
        *_append_only("campaign_games"),
        # One row per step taken back, in order: a game set up (session_id), or a game's
        # recording (the ledger version it appended). Nothing is deleted.
        """CREATE TABLE campaign_withdrawals (
            campaign_id TEXT NOT NULL REFERENCES campaigns(id),
            seq INTEGER NOT NULL CHECK (seq >= 1),
            session_id TEXT REFERENCES sessions(id),
            ledger_version INTEGER,
            time TEXT NOT NULL,
            PRIMARY KEY (campaign_id, seq),
            CHECK ((session_id IS NULL) != (ledger_version IS NULL)),
            FOREIGN KEY (campaign_id, ledger_version)
                REFERENCES campaign_ledgers(campaign_id, version)
        ) WITHOUT ROWID""",
        *_append_only("campaign_withdrawals"),
    ),
)

MIGRATIONS: tuple[Migration, ...] = (MIGRATION_1, MIGRATION_2, MIGRATION_3)
"""Every migration, in order; ``MIGRATIONS[-1].version`` is the current schema version."""


def latest_version(migrations: Sequence[Migration] = MIGRATIONS) -> int:
    """The schema version a database has once every migration has run."""
    check_order(migrations)
    return migrations[-1].version if migrations else 0


def check_order(migrations: Sequence[Migration]) -> None:
    """Migrations are numbered 1, 2, 3, ... with no gap (``ValueError`` otherwise)."""
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise ValueError(
                f"migration {migration.description!r} has version {migration.version}, "
                f"expected {expected}"
            )


def migrate(conn: sqlite3.Connection, migrations: Sequence[Migration] = MIGRATIONS) -> int:
    """Bring the database up to ``latest_version(migrations)``; return the version reached.

    ``conn`` must be in autocommit mode (``isolation_level=None``). Every pending migration
    runs inside one ``BEGIN IMMEDIATE`` transaction together with the header update, so
    either all of them land or none; the version is read again inside the transaction in
    case another process migrated first.
    """
    target = latest_version(migrations)
    conn.execute("BEGIN IMMEDIATE")
    try:
        current = conn.execute("PRAGMA user_version").fetchone()[0]
        for migration in migrations[current:]:
            try:
                migration.apply(conn)
            except sqlite3.Error as exc:
                raise MigrationFailed(
                    f"migration {migration.version} ({migration.description}) failed: {exc}; "
                    f"the database stays at schema version {current}"
                ) from exc
        if current < target:
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {target}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return max(int(current), target)
