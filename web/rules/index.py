"""The rule index: SQLite FTS5 over the shipped notes and the players' imported rulebooks.

Where it lives: its own SQLite file, ``rules.sqlite3`` next to the main database (so
``--db ~/x/tableside.sqlite3`` puts it at ``~/x/rules.sqlite3``), opened on its own
connection. The event store keeps its schema and migrations to itself, and the index is
mostly a cache: the notes part is rebuilt from the package whenever the shipped data
changes (a digest of the data files is kept in ``meta``). Imported passages are the only
thing in it that cannot be rebuilt; they stay there across rebuilds and are replaced only by
importing the same game and language again. With no database file (tests, an in-memory
store) the index is in memory and built on first use.

Search: ``unicode61 remove_diacritics 2`` (so *hostilite* finds *hostilité*), ranked by
bm25 with titles and tags weighing more than bodies, snippets with the matched words marked.
With no language filter, the passages in the reader's language (``prefer``) come before the
other language's at each step.
"""

from __future__ import annotations

import html
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from web.rules.glossary import Glossary
from web.rules.notes import GAMES, LANGUAGES, Note, Ref, data_version, shipped_notes
from web.rules.query import InvalidQuery, build_match
from web.rules.rulebook import Passage, read_pages, split_passages
from web.sidefiles import set_aside_if_damaged

SCHEMA_VERSION = "1"
FILENAME = "rules.sqlite3"
MAX_LIMIT = 50

# Snippet markers: private-use characters no rulebook contains, turned into <mark> after the
# text around them has been HTML-escaped (so a rulebook's "<" can never become markup).
_OPEN, _CLOSE, _MORE = "\ue000", "\ue001", "\ue002"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS imports (
    game TEXT NOT NULL, lang TEXT NOT NULL, source TEXT NOT NULL,
    imported_at REAL NOT NULL, pages INTEGER NOT NULL, passages INTEGER NOT NULL,
    PRIMARY KEY (game, lang));
CREATE VIRTUAL TABLE IF NOT EXISTS passages USING fts5(
    title, body, tags,
    source UNINDEXED, game UNINDEXED, lang UNINDEXED, note_id UNINDEXED,
    page UNINDEXED, section UNINDEXED,
    tokenize = 'unicode61 remove_diacritics 2');
"""


def index_path(db_path: Path | None) -> Path | None:
    """The rule index beside the main database (None: in memory)."""
    return None if db_path is None else Path(db_path).with_name(FILENAME)


class UnknownGame(LookupError):
    """A game with no notes (the API answers 404)."""


@dataclass(frozen=True)
class Result:
    game: str
    lang: str
    title: str
    snippet: str  # HTML: escaped text, matched words in <mark>
    text: str
    ref: Ref
    source: str  # "notes" or "imported"
    note_id: str | None
    score: float

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "lang": self.lang, "title": self.title,
                "snippet": self.snippet, "text": self.text, "ref": self.ref.to_json(),
                "source": self.source, "id": self.note_id}


@dataclass(frozen=True)
class ImportSummary:
    game: str
    lang: str
    source: str
    pages: int  # page numbers found (0: the file marks no pages)
    passages: int
    replaced: int

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def check_game(game: str | None) -> str | None:
    if game is not None and game not in GAMES:
        raise UnknownGame(f"no rule notes for the game {game!r} "
                          f"(known: {', '.join(GAMES)})")
    return game


def check_lang(lang: str | None) -> str | None:
    if lang is not None and lang not in LANGUAGES:
        raise InvalidQuery(f"the language must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    return lang


class RuleIndex:
    """The rule notes, the glossary and the imported rulebooks, searchable.

    One connection guarded by a lock: waitress serves from several threads, and the index
    is small enough that searches never queue for long.
    """

    def __init__(self, path: Path | None = None, glossary: Glossary | None = None,
                 notes: Sequence[Note] | None = None) -> None:
        self.path = None if path is None else Path(path)
        self._glossary = glossary
        self._notes = notes
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    @property
    def glossary(self) -> Glossary:
        """The glossary, read on first use (every app builds an index; few search)."""
        if self._glossary is None:
            self._glossary = Glossary.shipped()
        return self._glossary

    # -- opening -------------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            if self.path is not None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                # damaged: the notes are indexed again, the players' imports asked for again
                set_aside_if_damaged(self.path, "the rule index: import your rulebooks again")
            db = sqlite3.connect(str(self.path) if self.path else ":memory:",
                                 check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA busy_timeout = 5000")
            if self.path is not None:
                db.execute("PRAGMA journal_mode = WAL")
            db.executescript(_SCHEMA)
            self._db = db
            self._refresh_notes(db)
        return self._db

    def _version(self) -> str:
        if self._notes is not None:
            return "custom-" + str(hash(tuple(self._notes)))
        return f"{SCHEMA_VERSION}-{data_version()}"

    def _refresh_notes(self, db: sqlite3.Connection) -> None:
        """Rebuild the notes part of the index when the shipped data changed."""
        version = self._version()
        row = db.execute("SELECT value FROM meta WHERE key = 'notes_version'").fetchone()
        if row is not None and row[0] == version:
            return
        notes = list(self._notes) if self._notes is not None else shipped_notes()
        with _transaction(db):
            db.execute("DELETE FROM passages WHERE source = 'notes'")
            db.executemany(
                "INSERT INTO passages (title, body, tags, source, game, lang, note_id, page,"
                " section) VALUES (?, ?, ?, 'notes', ?, ?, ?, ?, ?)",
                [(n.title, n.body, " ".join(n.tags), n.game, n.lang, n.id, n.ref.page,
                  n.ref.section) for n in notes])
            db.execute("INSERT OR REPLACE INTO meta VALUES ('notes_version', ?)", (version,))

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    # -- search --------------------------------------------------------------------------

    def search(self, query: str, game: str | None = None, lang: str | None = None,
               limit: int = 10, prefer: str | None = None) -> list[Result]:
        """Passages with every term first, then those with some of them; within each, the
        passages in ``prefer`` (the reader's language, when ``lang`` filters none) ahead of
        the other languages', so an English search shows the English notes first."""
        check_game(game)
        check_lang(lang)
        check_lang(prefer)
        if not 1 <= limit <= MAX_LIMIT:
            raise InvalidQuery(f"the limit must be between 1 and {MAX_LIMIT}")
        match = build_match(query, self.glossary, game)
        with self._lock:
            db = self._connection()
            results = self._run(db, match.all_terms, game, lang, prefer, limit)
            if len(results) < limit and len(match.terms) > 1:
                # Passages with every term first, then those with some of them.
                seen = {(r.source, r.game, r.lang, r.title, r.text) for r in results}
                for extra in self._run(db, match.any_term, game, lang, prefer, limit):
                    key = (extra.source, extra.game, extra.lang, extra.title, extra.text)
                    if key not in seen and len(results) < limit:
                        seen.add(key)
                        results.append(extra)
        return results

    def _run(self, db: sqlite3.Connection, expression: str, game: str | None,
             lang: str | None, prefer: str | None, limit: int) -> list[Result]:
        where, params = ["passages MATCH ?"], [expression]
        if game is not None:
            where.append("game = ?")
            params.append(game)
        if lang is not None:
            where.append("lang = ?")
            params.append(lang)
        rows = db.execute(
            "SELECT game, lang, title, body, page, section, source, note_id,"
            f" snippet(passages, 1, '{_OPEN}', '{_CLOSE}', '{_MORE}', 24),"
            " bm25(passages, 8.0, 1.0, 4.0) AS score"
            f" FROM passages WHERE {' AND '.join(where)}"
            " ORDER BY lang IS NOT ?, score, source DESC, rowid LIMIT ?",
            [*params, prefer, limit]).fetchall()
        return [Result(game=r[0], lang=r[1], title=r[2], text=r[3],
                       ref=Ref(None if r[4] is None else int(r[4]), r[5]), source=r[6],
                       note_id=r[7], snippet=_snippet_html(r[8]), score=float(r[9]))
                for r in rows]

    def notes(self, game: str | None = None, lang: str | None = None) -> list[dict[str, Any]]:
        """The shipped notes (title and ref) of a game, for listings."""
        check_game(game)
        check_lang(lang)
        with self._lock:
            db = self._connection()
            rows = db.execute(
                "SELECT game, lang, note_id, title, page, section FROM passages"
                " WHERE source = 'notes' AND (?1 IS NULL OR game = ?1)"
                " AND (?2 IS NULL OR lang = ?2) ORDER BY game, lang, rowid",
                (game, lang)).fetchall()
        return [{"game": r[0], "lang": r[1], "id": r[2], "title": r[3],
                 "ref": {"page": None if r[4] is None else int(r[4]), "section": r[5]}}
                for r in rows]

    # -- imports -------------------------------------------------------------------------

    def import_rulebook(self, path: Path, game: str, lang: str) -> ImportSummary:
        """Index the players' rulebook; replaces an earlier import of the same game+lang."""
        check_game(game)
        if lang is None:
            raise InvalidQuery("say which language the rulebook is in")
        check_lang(lang)
        pages = read_pages(path)
        passages = split_passages(pages)
        numbered = len({p.number for p in pages if p.number is not None})
        return self.import_passages(passages, game, lang, Path(path).name, numbered)

    def import_passages(self, passages: Sequence[Passage], game: str, lang: str,
                        source: str, pages: int) -> ImportSummary:
        with self._lock:
            db = self._connection()
            with _transaction(db):
                replaced = db.execute(
                    "SELECT count(*) FROM passages WHERE source = 'imported' AND game = ?"
                    " AND lang = ?", (game, lang)).fetchone()[0]
                db.execute("DELETE FROM passages WHERE source = 'imported' AND game = ?"
                           " AND lang = ?", (game, lang))
                db.executemany(
                    "INSERT INTO passages (title, body, tags, source, game, lang, note_id,"
                    " page, section) VALUES (?, ?, '', 'imported', ?, ?, NULL, ?, ?)",
                    [(_passage_title(p), p.text, game, lang, p.page, p.section)
                     for p in passages])
                db.execute("INSERT OR REPLACE INTO imports VALUES (?, ?, ?, ?, ?, ?)",
                           (game, lang, source, time.time(), pages, len(passages)))
        return ImportSummary(game, lang, source, pages, len(passages), replaced)

    def imports(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._connection().execute(
                "SELECT game, lang, source, imported_at, pages, passages FROM imports"
                " ORDER BY game, lang").fetchall()
        return [{"game": r[0], "lang": r[1], "source": r[2], "imported_at": r[3],
                 "pages": r[4], "passages": r[5]} for r in rows]

    def remove_import(self, game: str, lang: str) -> int:
        with self._lock:
            db = self._connection()
            with _transaction(db):
                count = db.execute("SELECT count(*) FROM passages WHERE source = 'imported'"
                                   " AND game = ? AND lang = ?", (game, lang)).fetchone()[0]
                db.execute("DELETE FROM passages WHERE source = 'imported' AND game = ?"
                           " AND lang = ?", (game, lang))
                db.execute("DELETE FROM imports WHERE game = ? AND lang = ?", (game, lang))
        return int(count)


def _passage_title(passage: Passage) -> str:
    """How an imported passage is titled in results: its section and page."""
    where = [passage.section] if passage.section else []
    if passage.page is not None:
        where.append(f"p. {passage.page}")
    return " · ".join(where) or "Your rulebook"


def _snippet_html(raw: str) -> str:
    escaped = html.escape(raw, quote=False)
    return (escaped.replace(_OPEN, "<mark>").replace(_CLOSE, "</mark>")
            .replace(_MORE, "…"))


class _transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        self.db.execute("ROLLBACK" if kind else "COMMIT")


__all__ = ["ImportSummary", "InvalidQuery", "Result", "RuleIndex", "UnknownGame",
           "check_game", "check_lang", "index_path"]
