"""Rule lookup: notes in our own words, a bilingual glossary, and the players' rulebooks.

* :mod:`web.rules.notes`: the shipped rule notes (``data/notes/``), each pointing to a page
  and section of the rulebook the players own;
* :mod:`web.rules.glossary`: game terms in English and French (``data/glossary.json``);
* :mod:`web.rules.query`: a player's words -> a safe FTS5 query widened by the glossary;
* :mod:`web.rules.rulebook`: reading an imported rulebook (text or PDF) into passages;
* :mod:`web.rules.index`: the SQLite FTS5 index that holds and searches all of it.

See docs/rules.md.
"""

from web.rules.index import RuleIndex, UnknownGame, index_path
from web.rules.query import InvalidQuery
from web.rules.rulebook import RulebookError

__all__ = ["InvalidQuery", "RuleIndex", "RulebookError", "UnknownGame", "index_path"]
