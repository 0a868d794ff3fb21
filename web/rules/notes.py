"""Rule notes: short explanations of a game's rules written in the project's own words.

The publishers' rulebooks (``../shared/seeds/``) are the authority, but their sentences may
not be shipped. A :class:`Note` restates one rule in our words and points to where the
players can read the original (:class:`Ref`: page and section of the rulebook they own).
Notes live in ``data/notes/<game>.<lang>.json``; they are validated at load so a typo in a
data file fails a test, not a search at the table.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

LANGUAGES = ("en", "fr")

# The games that have notes, with the name players know them by.
GAMES: Mapping[str, str] = {
    "seafall": "SeaFall",
    "city-of-five-sails": "7th Sea: City of Five Sails",
    "after-the-empire": "After the Empire",
    "seafarers": "Catan: Seafarers",
}


class NoteDataError(ValueError):
    """A shipped notes or glossary file does not have the expected shape."""


@dataclass(frozen=True)
class Ref:
    """Where in the players' rulebook a rule is: a page number (when known) and a section."""

    page: int | None
    section: str | None

    def to_json(self) -> dict[str, Any]:
        return {"page": self.page, "section": self.section}

    def __str__(self) -> str:
        parts = []
        if self.page is not None:
            parts.append(f"p. {self.page}")
        if self.section:
            parts.append(self.section)
        return ", ".join(parts) or "rulebook"


@dataclass(frozen=True)
class Note:
    id: str
    game: str
    lang: str
    title: str
    body: str
    tags: tuple[str, ...]
    ref: Ref

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "lang": self.lang, "title": self.title,
                "body": self.body, "tags": list(self.tags), "ref": self.ref.to_json()}


def _data_files() -> list[Any]:
    folder = resources.files("web.rules").joinpath("data", "notes")
    return sorted((f for f in folder.iterdir() if f.name.endswith(".json")),
                  key=lambda f: f.name)


def _require(item: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    value = item.get(key)
    if not isinstance(value, kind) or (isinstance(value, str) and not value.strip()):
        raise NoteDataError(f"{where}: {key!r} must be a non-empty {kind.__name__}")
    return value


def parse_notes(data: Mapping[str, Any], where: str) -> list[Note]:
    """The notes of one data file, checked field by field."""
    game = _require(data, "game", str, where)
    lang = _require(data, "lang", str, where)
    if game not in GAMES:
        raise NoteDataError(f"{where}: unknown game {game!r}")
    if lang not in LANGUAGES:
        raise NoteDataError(f"{where}: unknown language {lang!r}")
    notes = []
    seen: set[str] = set()
    for i, item in enumerate(_require(data, "notes", list, where)):
        at = f"{where} note {i}"
        note_id = _require(item, "id", str, at)
        if note_id in seen:
            raise NoteDataError(f"{at}: duplicate id {note_id!r}")
        seen.add(note_id)
        tags = _require(item, "tags", list, at)
        if not all(isinstance(t, str) and t for t in tags):
            raise NoteDataError(f"{at}: tags must be non-empty strings")
        ref = _require(item, "ref", dict, at)
        page = ref.get("page")
        if page is not None and (not isinstance(page, int) or isinstance(page, bool)
                                 or page < 1):
            raise NoteDataError(f"{at}: ref.page must be a page number or null")
        section = _require(ref, "section", str, at)
        notes.append(Note(note_id, game, lang, _require(item, "title", str, at),
                          _require(item, "body", str, at), tuple(tags), Ref(page, section)))
    return notes


def shipped_notes() -> list[Note]:
    """Every note shipped in the package, all games and languages."""
    notes: list[Note] = []
    for file in _data_files():
        notes.extend(parse_notes(json.loads(file.read_text(encoding="utf-8")), file.name))
    return notes


def data_version(extra: Iterable[bytes] = ()) -> str:
    """A digest of the shipped data: the index is rebuilt when it changes."""
    digest = hashlib.sha256()
    for file in _data_files():
        digest.update(file.name.encode())
        digest.update(file.read_bytes())
    for chunk in extra:
        digest.update(chunk)
    return digest.hexdigest()[:16]
