"""Text helpers shared by the glossary, the query builder and the importer.

``fold`` does in Python what the index's tokenizer (unicode61, remove_diacritics 2) does in
SQLite: lower case, accents removed, so "Hostilité" and "hostilite" compare equal on both
sides.
"""

from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"[^\W_]+", re.UNICODE)  # unicode61 splits on "_" too


def fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def words(text: str) -> list[str]:
    """The words of a text, as the index's tokenizer splits them (letters and digits)."""
    return _WORD.findall(text)
