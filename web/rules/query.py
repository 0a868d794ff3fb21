"""From what a player types to an FTS5 query that cannot fail.

Players type words, not FTS5 syntax: ``raid AND "`` must search for *raid*, not raise a
syntax error. So the query is cut into words (the tokenizer's own notion of a word), every
word is quoted, and the query text never reaches SQLite as syntax. Words that name a
glossary term are widened to every form of the term in every language (``hostilite`` ->
``hostilité`` OR ``enmity``), multi-word terms first (``vaisseau amiral`` is one term).
Each word also matches as a prefix (``raid`` finds *raids*, *raiding*), which stands in
for the stemming that FTS5's unicode61 tokenizer does not do.
"""

from __future__ import annotations

from dataclasses import dataclass

from web.rules.glossary import Glossary
from web.rules.text import fold, words

MAX_WORDS = 12  # a question, not a page; keeps the expression small

# Words that carry no rule (English and French), dropped unless nothing else is left.
STOPWORDS = frozenset("""
a an and are as at be by can do does for from how i if in is it its my of on or the this
that to what when where which who why with you your
au aux ce ces cette comment dans de des du elle en est et il je la le les l d ma mes mon
ou on par peut pour quand que quel quelle qui quoi se sur un une y
""".split())

MIN_PREFIX = 3  # shorter words match whole only ("vp" must not find "vpx...")


class InvalidQuery(ValueError):
    """The query has no word to search for."""


@dataclass(frozen=True)
class Match:
    """The query as FTS5 expressions: ``all_terms`` needs every term, ``any_term`` one."""

    terms: tuple[tuple[str, ...], ...]  # per term, the phrases it may match
    all_terms: str
    any_term: str


def _phrase(phrase: str) -> str:
    tokens = [fold(w) for w in words(phrase)]
    quoted = '"' + " ".join(tokens).replace('"', '""') + '"'
    return quoted + ("*" if len(tokens[-1]) >= MIN_PREFIX else "")


def build_match(query: str, glossary: Glossary, game: str | None = None) -> Match:
    tokens = [fold(w) for w in words(query)][:MAX_WORDS * 2]
    if not tokens:
        raise InvalidQuery("the query has no word to search for")
    synonyms = glossary.synonyms(game)
    # Glossary terms first, on every word (terms such as "valeur de butin" or "at war with"
    # hold stopwords), then the other words less the stopwords.
    found: list[tuple[str, ...]] = []
    loose: list[tuple[str, ...]] = []
    i = 0
    while i < len(tokens):
        for key, forms in synonyms:
            if tuple(tokens[i:i + len(key)]) == key:
                found.append(tuple(forms))
                i += len(key)
                break
        else:
            loose.append((tokens[i],))
            i += 1
    kept = [w for w in loose if w[0] not in STOPWORDS]
    terms = (found + kept) if (found or kept) else loose
    terms = list(dict.fromkeys(terms))[:MAX_WORDS]
    groups = ["(" + " OR ".join(dict.fromkeys(_phrase(p) for p in term)) + ")"
              for term in terms]
    return Match(tuple(terms), " AND ".join(groups), " OR ".join(groups))
