"""Sentences for the table that a page can say in its player's language.

The reader and the runtime tell the table what is wrong with a read in English sentences
(the CLI prints them, the API answers them). Each such sentence is made from a
:class:`Message`: a key and an English text with ``{name}`` for each value. What it makes
is a :class:`Said`, an ordinary ``str`` (the English) that also keeps its key and values,
so the web pages can look ``said.<key>`` up in their catalogue (``web/i18n``) and fill the
values in there. Every message is registered in :data:`MESSAGES` as its module is
imported; a test checks that each has its French.

A value is a number (a whole one written with thousands separators in English; a page
writes numbers its language's way), a text, a list of a die's faces (the English joins them with
commas; a page names each face in its language), or another :class:`Said` sentence (kept
with its English, its key and values: a page says it in its language too).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Value = int | float | str | Sequence[str]  # a Said is a str


class Said(str):
    """An English sentence that keeps the :class:`Message` key and values it was made of."""

    key: str
    values: Mapping[str, Any]

    def __new__(cls, text: str, key: str, values: Mapping[str, Any]) -> Said:
        said = super().__new__(cls, text)
        said.key = key
        said.values = dict(values)
        return said

    def __reduce__(self) -> tuple[Any, ...]:  # copied and pickled with its key
        return (Said, (str(self), self.key, dict(self.values)))

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "values": dict(self.values)}


def said_json(text: str) -> dict[str, Any] | None:
    """What a page needs to say ``text`` in its language: its key and values, or None for a
    sentence that has none (it is shown as it is)."""
    return text.to_json() if isinstance(text, Said) else None


def said_from_json(text: str, data: Any) -> str:
    """``text`` kept with :func:`said_json`'s ``data``, as it was made (a :class:`Said`);
    ``text`` alone where ``data`` is none or not one."""
    if (isinstance(data, Mapping) and isinstance(data.get("key"), str)
            and isinstance(data.get("values"), Mapping)):
        return Said(text, data["key"], data["values"])
    return text


def said_of(error: BaseException) -> str:
    """What an exception made with a :class:`Said` as its message says, as that sentence;
    any other's message as plain text."""
    said = error.args[0] if len(error.args) == 1 else None
    return said if isinstance(said, Said) else str(error)


@dataclass(frozen=True)
class Message:
    """A sentence with a ``key`` and its English ``text`` (``{name}`` for each value);
    ``one`` is its English when the value ``count`` is 1."""

    key: str
    text: str
    one: str | None = None

    def __call__(self, **values: Value) -> Said:
        template = self.one if self.one is not None and values.get("count") == 1 else self.text
        shown = {k: ", ".join(v) if isinstance(v, (list, tuple))
                 else f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else v
                 for k, v in values.items()}
        kept = {k: {"text": str(v), **v.to_json()} if isinstance(v, Said)
                else list(v) if isinstance(v, (list, tuple)) else v for k, v in values.items()}
        return Said(template.format(**shown), self.key, kept)


MESSAGES: dict[str, Message] = {}


def message(key: str, text: str, one: str | None = None) -> Message:
    """A :class:`Message`, registered in :data:`MESSAGES` under its key (one key, one
    message)."""
    if key in MESSAGES:
        raise ValueError(f"a message {key!r} is already registered")
    made = MESSAGES[key] = Message(key, text, one)
    return made
