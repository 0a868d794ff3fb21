"""``tableside rules``: look up rules, and index the players' own rulebook.

* ``tableside rules search WORDS... [--game G] [--lang en|fr] [--json]``: notes written in
  our own words (with the rulebook page/section), and passages of your imported rulebook;
  English and French terms find the same notes (the glossary links them), accents optional.
  English passages come first; ``--lang fr`` shows only French ones (or, when none matches,
  the English ones, said so).
* ``tableside rules import FILE --game G --lang L``: index your rulebook (.txt or .pdf) with
  its page numbers so search can quote it. It stays on this machine, in the rule index
  beside the database; importing the same game and language again replaces it.
* ``tableside rules list``: the games, their notes and your imports; ``tableside rules
  glossary``: the terms in English and French; ``tableside rules forget``: drop an import.

``--db`` names the main database; the rule index is ``rules.sqlite3`` beside it. Bad input
prints one line on stderr and exits with status 2. See docs/rules.md.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
from pathlib import Path

from companion.store.paths import default_db_path
from web.rules import InvalidQuery, RulebookError, RuleIndex, UnknownGame, index_path
from web.rules.index import MAX_LIMIT, check_game, check_lang
from web.rules.notes import GAMES, LANGUAGES

DEFAULT_LANG = "en"  # without --lang, English passages come first

_EPILOG = """\
examples:
  tableside rules search hostilite
  tableside rules search "dangerous site fortune" --game seafall --json
  tableside rules import ~/rulebooks/seafall-fr.pdf --game seafall --lang fr
  tableside rules glossary --game seafall --lang fr
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rules", help="look up rules; index your own rulebook",
                       description=__doc__, epilog=_EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    rules = p.add_subparsers(dest="rules_command", metavar="SUBCOMMAND")
    rules.required = True
    games = ", ".join(GAMES)

    def common(q: argparse.ArgumentParser, game_required: bool = False,
               lang_help: str = "language: en or fr") -> None:
        q.add_argument("--game", required=game_required, choices=list(GAMES), metavar="GAME",
                       help=f"the game ({games})")
        q.add_argument("--lang", required=game_required, choices=list(LANGUAGES),
                       help=lang_help)
        q.add_argument("--db", type=Path, default=None,
                       help=f"the main database; the rule index is {index_path(Path('x')).name}"
                            f" beside it (default {default_db_path()})")

    s = rules.add_parser("search", help="search the rule notes and your imported rulebooks",
                         description="Search the rule notes (our own words, with the "
                                     "rulebook page) and your imported rulebooks. Words in "
                                     "English or French; accents optional.")
    s.add_argument("query", nargs="+", help="the words to look for")
    common(s, lang_help="only passages in this language, en or fr (if none matches, the "
                        "other language's, said so); without it, English passages first")
    s.add_argument("--limit", type=int, default=5,
                   help=f"how many results, 1-{MAX_LIMIT} (default %(default)s)")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.set_defaults(handler=run_search)

    i = rules.add_parser("import", help="index your own rulebook (.txt or .pdf) for search",
                         description="Index your own rulebook so search can quote it with "
                                     "page numbers. A text file's pages are cut at form feeds "
                                     "and at lines such as 'page 12'; a PDF's are its pages. "
                                     "The text stays on this machine; importing the same "
                                     "game and language again replaces the earlier import.")
    i.add_argument("file", type=Path, help="the rulebook: a .txt or .pdf file")
    common(i, game_required=True)
    i.add_argument("--json", action="store_true", help="print one JSON object")
    i.set_defaults(handler=run_import)

    f = rules.add_parser("forget", help="remove an imported rulebook from the index",
                         description="Remove the imported rulebook of one game and language.")
    common(f, game_required=True)
    f.set_defaults(handler=run_forget)

    ls = rules.add_parser("list", help="the games with notes, and your imported rulebooks",
                          description="List the rule notes (title and rulebook page) and "
                                      "the rulebooks you imported.")
    common(ls)
    ls.add_argument("--json", action="store_true", help="print one JSON object")
    ls.set_defaults(handler=run_list)

    g = rules.add_parser("glossary", help="game terms in English and French",
                         description="The glossary: each term in English and French with a "
                                     "short note.")
    common(g)
    g.add_argument("--json", action="store_true", help="print one JSON object")
    g.set_defaults(handler=run_glossary)


def _open(args: argparse.Namespace) -> RuleIndex:
    return RuleIndex(index_path(args.db or default_db_path()))


def _fail(message: str) -> int:
    print(f"tableside rules: {message}", file=sys.stderr)
    return 2


def _plain(snippet: str) -> str:
    """The API's HTML snippet for a terminal: matched words between ** **."""
    text = snippet.replace("<mark>", "**").replace("</mark>", "**")
    return html.unescape(re.sub(r"<[^>]+>", "", text))


_LANGUAGE_NAMES = {"en": "English", "fr": "French"}


def run_search(args: argparse.Namespace) -> int:
    """English notes first unless ``--lang`` says otherwise; with ``--lang``, only that
    language, or, when nothing matches in it, the other language's passages, said so (as
    ``GET /api/rules/search`` and the /rules page do)."""
    query = " ".join(args.query)
    index = _open(args)
    try:
        results = index.search(query, game=args.game, lang=args.lang, limit=args.limit,
                               prefer=DEFAULT_LANG)
        other = not results and args.lang is not None
        if other:
            results = index.search(query, game=args.game, limit=args.limit)
    except (InvalidQuery, UnknownGame) as exc:
        return _fail(str(exc))
    finally:
        index.close()
    other = other and bool(results)
    if args.json:
        print(json.dumps({"query": query, "results": [r.to_json() for r in results],
                          "other_language": other}, ensure_ascii=False, indent=2))
        return 0
    if not results:
        print(f"nothing found for {query!r}")
        return 0
    if other:
        print(f"nothing in {_LANGUAGE_NAMES[args.lang]} for {query!r}; "
              "these passages are in another language:")
    for r in results:
        origin = "your rulebook" if r.source == "imported" else "note"
        print(f"{r.title}  [{GAMES[r.game]}, {r.lang}, {origin}, {r.ref}]")
        print(f"  {_plain(r.snippet)}")
    return 0


def run_import(args: argparse.Namespace) -> int:
    index = _open(args)
    try:
        summary = index.import_rulebook(args.file, args.game, args.lang)
    except (RulebookError, InvalidQuery, UnknownGame) as exc:
        return _fail(str(exc))
    finally:
        index.close()
    if args.json:
        print(json.dumps(summary.to_json(), ensure_ascii=False))
    else:
        again = f" (replacing {summary.replaced} earlier passages)" if summary.replaced else ""
        pages = (_count(summary.pages, "page") if summary.pages else
                 "no page numbers found (mark pages with form feeds or 'page N' lines)")
        print(f"imported {summary.source}: {pages}, {_count(summary.passages, 'passage')} "
              f"for {GAMES[summary.game]} ({summary.lang}){again}")
    return 0


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def run_forget(args: argparse.Namespace) -> int:
    index = _open(args)
    try:
        removed = index.remove_import(args.game, args.lang)
    finally:
        index.close()
    print(f"removed {_count(removed, 'passage')} of your {GAMES[args.game]} ({args.lang}) rulebook")
    return 0


def run_list(args: argparse.Namespace) -> int:
    index = _open(args)
    try:
        notes = index.notes(args.game, args.lang)
        imports = index.imports()
    finally:
        index.close()
    if args.json:
        print(json.dumps({"notes": notes, "imports": imports}, ensure_ascii=False, indent=2))
        return 0
    current = None
    for note in notes:
        if (note["game"], note["lang"]) != current:
            current = (note["game"], note["lang"])
            print(f"{GAMES[note['game']]} ({note['lang']})")
        page = note["ref"]["page"]
        where = f"p. {page}, {note['ref']['section']}" if page else note["ref"]["section"]
        print(f"  {note['title']}  [{where}]")
    for item in imports:
        print(f"your rulebook: {GAMES.get(item['game'], item['game'])} ({item['lang']}) from "
              f"{item['source']}: {item['pages']} pages, {item['passages']} passages")
    return 0


def run_glossary(args: argparse.Namespace) -> int:
    index = RuleIndex(None)
    try:
        check_game(args.game)
        check_lang(args.lang)
    except (InvalidQuery, UnknownGame) as exc:  # pragma: no cover - argparse checks first
        return _fail(str(exc))
    lang = args.lang or "en"
    terms = [t.to_json(lang) for t in index.glossary.for_game(args.game)]
    if args.json:
        print(json.dumps({"game": args.game, "lang": lang, "terms": terms},
                         ensure_ascii=False, indent=2))
        return 0
    for term in terms:
        fr = term["fr"] or "-"
        print(f"{term['en']} = {fr}  ({GAMES[term['game']]}): {term['note']}")
    return 0
