"""The glossary: a game's terms in English and French, and a short note on each.

Players at a French table say *hostilité* where the English rulebook says *enmity*; the
glossary maps the two so that a search in either language finds the same notes
(:func:`web.rules.query.build_match` widens every recognised term to all its forms). The
French forms are the ones the French SeaFall rulebook uses (the seeds have no French
rulebook of the other games, so their terms are English only). Data:
``data/glossary.json``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from web.rules.notes import GAMES, LANGUAGES, NoteDataError
from web.rules.text import fold, words


@dataclass(frozen=True)
class Term:
    game: str
    forms: dict[str, tuple[str, ...]]  # language -> forms, the first one is the usual one
    notes: dict[str, str]  # language -> a short note in our words

    def all_forms(self) -> tuple[str, ...]:
        return tuple(form for lang in LANGUAGES for form in self.forms.get(lang, ()))

    def to_json(self, lang: str) -> dict[str, Any]:
        usual = {code: (forms[0] if forms else None) for code, forms in
                 ((code, self.forms.get(code, ())) for code in LANGUAGES)}
        return {
            "game": self.game,
            "term": usual.get(lang) or usual["en"],
            **usual,
            "forms": {code: list(self.forms.get(code, ())) for code in LANGUAGES},
            "note": self.notes.get(lang) or self.notes.get("en"),
        }


@dataclass(frozen=True)
class Glossary:
    terms: tuple[Term, ...]

    @classmethod
    def shipped(cls) -> Glossary:
        file = resources.files("web.rules").joinpath("data", "glossary.json")
        return cls.parse(json.loads(file.read_text(encoding="utf-8")))

    @classmethod
    def parse(cls, data: dict[str, Any]) -> Glossary:
        terms = []
        for i, item in enumerate(data.get("terms", [])):
            where = f"glossary term {i}"
            game = item.get("game")
            if game not in GAMES:
                raise NoteDataError(f"{where}: unknown game {game!r}")
            forms = {}
            for lang in LANGUAGES:
                values = item.get(lang, [])
                if not isinstance(values, list) or not all(
                        isinstance(v, str) and words(v) for v in values):
                    raise NoteDataError(f"{where}: {lang!r} must be a list of terms")
                if values:
                    forms[lang] = tuple(values)
            if "en" not in forms:
                raise NoteDataError(f"{where}: every term needs its English form")
            notes = {lang: item[key] for lang, key in (("en", "note"), ("fr", "note_fr"))
                     if isinstance(item.get(key), str) and item[key].strip()}
            if "en" not in notes:
                raise NoteDataError(f"{where}: every term needs a note")
            terms.append(Term(game, forms, notes))
        return cls(tuple(terms))

    def for_game(self, game: str | None) -> list[Term]:
        return [t for t in self.terms if game is None or t.game == game]

    def synonyms(self, game: str | None) -> list[tuple[tuple[str, ...], list[str]]]:
        """Every form of every term as folded words, with all the forms it stands for;
        longest first so that "vaisseau amiral" wins over "amiral"."""
        table = []
        for term in self.for_game(game):
            everything = list(dict.fromkeys(term.all_forms()))
            for form in everything:
                table.append((tuple(fold(w) for w in words(form)), everything))
        table.sort(key=lambda entry: -len(entry[0]))
        return table
