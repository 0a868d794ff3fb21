"""Rule lookup over HTTP: ``GET /api/rules/search``, ``/api/rules/glossary``, ``/api/rules``.

The same index as ``tableside rules`` (docs/rules.md): notes in our own words for each
supported game, the players' imported rulebook passages, and the EN/FR glossary. Read-only,
so open to every role. A query is words, never FTS5 syntax (:mod:`web.rules.query`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Blueprint, current_app, jsonify, request

from companion.errors import InvalidCommand
from web.api.requests import query_int
from web.errors import NotFound
from web.i18n import choose_language
from web.rules import InvalidQuery, RuleIndex, UnknownGame
from web.rules.index import MAX_LIMIT, check_game, check_lang
from web.rules.notes import GAMES, LANGUAGES

bp = Blueprint("rules", __name__, url_prefix="/api/rules")

MAX_QUERY_CHARS = 500


def _index() -> RuleIndex:
    index = current_app.extensions["tableside"].rules
    assert index is not None  # Services always makes one
    return index


@contextmanager
def _answers() -> Iterator[None]:
    """The index's own errors as the API's: 400 malformed, 404 unknown game."""
    try:
        yield
    except InvalidQuery as exc:
        raise InvalidCommand(str(exc)) from None
    except UnknownGame as exc:
        raise NotFound(str(exc)) from None


def _optional(name: str) -> str | None:
    value = request.args.get(name)
    if value is None:
        return None
    value = value.strip()
    if not value:
        raise InvalidCommand(f"'{name}' must not be empty (leave it out for all)")
    return value


@bp.get("/search")
def search() -> Any:
    query = request.args.get("q", "")
    if not query.strip():
        raise InvalidCommand("'q' is required: the words to look for")
    if len(query) > MAX_QUERY_CHARS:
        raise InvalidCommand(f"'q' is longer than {MAX_QUERY_CHARS} characters")
    limit = query_int("limit", 10, minimum=1, maximum=MAX_LIMIT)
    game, lang = _optional("game"), _optional("lang")
    # without a language filter, the reader's language (cookie, else Accept-Language, else
    # English) ranks first: an English search must not show the French notes first
    prefer = choose_language(request)
    with _answers():
        results = _index().search(query, game=game, lang=lang, limit=limit, prefer=prefer)
        # nothing in the language asked for (the other games' notes are in English only):
        # the passages in the other languages, said so, rather than an empty answer
        other = not results and lang is not None
        if other:
            results = _index().search(query, game=game, limit=limit, prefer=prefer)
    return jsonify({"query": query, "results": [r.to_json() for r in results],
                    "other_language": other and bool(results)})


@bp.get("/glossary")
def glossary() -> Any:
    with _answers():
        game = check_game(_optional("game"))
        lang = check_lang(_optional("lang")) or "en"
    terms = _index().glossary.for_game(game)
    return jsonify({"game": game, "lang": lang, "terms": [t.to_json(lang) for t in terms]})


@bp.get("")
def games() -> Any:
    """The games with notes, how many notes per language, and what the players imported."""
    index = _index()
    counts: dict[str, dict[str, int]] = {g: {lang: 0 for lang in LANGUAGES} for g in GAMES}
    for note in index.notes():
        counts[note["game"]][note["lang"]] += 1
    return jsonify({
        "games": [{"game": g, "name": name, "notes": counts[g]} for g, name in GAMES.items()],
        "imports": index.imports(),
    })
