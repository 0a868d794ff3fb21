"""English and French for the pages: catalogues of UI strings and the choice of language.

The catalogues are JSON files in ``web/i18n/`` (one per language, the same keys in each, a
test checks it). The language of a request is the ``lang`` cookie when the player has used
the switch, else the best match of the browser's ``Accept-Language``, else English. Text
that comes from a game engine is translated too: event sentences by the engine itself
(``describe(event, lang)``, for the history and the live stream, whose API requests may also
say ``?lang=``), prompt questions and option labels by the pages from ``prompt.*`` keys
here (docs/ui.md "Languages"), and what the reader and the runtime tell the table of a dice
read from ``said.*`` keys: their English is the code's own (:func:`said_english`, added to
the English catalogue), the other languages' is in their files.

The catalogues are loaded once per application (``init_app``) and kept in
``app.extensions``, not in a module global, so tests can build apps side by side.
"""

from __future__ import annotations

import functools
import importlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, Request

from vision.said import MESSAGES

LANGUAGES = ("en", "fr")
SAID_IN = ("vision.calibration", "vision.detection", "vision.framewarnings", "vision.imagefile",
           "vision.settle", "vision.setupadvice", "vision.sideview", "vision.smear",
           "web.api.hardware", "web.api.join", "web.auth",
           "web.errors", "web.runtime", "web.runtime.boxes", "web.runtime.camera",
           "web.runtime.images", "web.runtime.power", "web.runtime.readnotes",
           "web.runtime.status", "web.runtime.storage", "web.services")
"""The modules whose messages (vision.said) reach the pages."""
DEFAULT = "en"
COOKIE = "lang"
HERE = Path(__file__).with_name("i18n")


@dataclass(frozen=True)
class Catalogue:
    """The UI strings of one language; ``{name}`` marks a value filled in at use."""

    lang: str
    strings: Mapping[str, str]

    def get(self, key: str, **values: object) -> str:
        text = self.strings.get(key, key)
        return text.format(**values) if values else text


def load(lang: str, folder: Path = HERE) -> Catalogue:
    with open(folder / f"{lang}.json", encoding="utf-8") as f:
        strings = json.load(f)
    if not isinstance(strings, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in strings.items()):
        raise ValueError(f"{lang}.json must map string keys to string texts")
    if lang == DEFAULT:
        said = said_english()
        if twice := sorted(set(said) & set(strings)):
            raise ValueError(f"{lang}.json has keys the code's messages give: {twice}")
        strings = {**strings, **said}
    return Catalogue(lang, strings)


def said_english() -> dict[str, str]:
    """The English of what the reader and the runtime tell the table of a dice read
    (:mod:`vision.said`), as catalogue entries ``said.<key>`` (and ``said.<key>_one``).
    It is kept once, in the code that says it; the other languages' files give theirs."""
    for module in SAID_IN:
        importlib.import_module(module)
    out: dict[str, str] = {}
    for key, made in MESSAGES.items():
        out[f"said.{key}"] = made.text
        if made.one is not None:
            out[f"said.{key}_one"] = made.one
    return out


def init_app(app: Flask) -> None:
    app.extensions["tableside_i18n"] = {lang: load(lang) for lang in LANGUAGES}


def catalogue(app: Flask, lang: str) -> Catalogue:
    catalogues: dict[str, Catalogue] = app.extensions["tableside_i18n"]
    return catalogues.get(lang, catalogues[DEFAULT])


@functools.cache
def shared(lang: str) -> Catalogue:
    """The catalogue of ``lang`` (English when we have not that language) for text made
    outside a request, as a live stream's lines are: the same files as the app's."""
    return load(lang if lang in LANGUAGES else DEFAULT)


def choose_language(request: Request) -> str:
    """The cookie set by the switch, else the browser's preference, else English."""
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES, default=DEFAULT) or DEFAULT


def request_language(request: Request) -> str:
    """An API request's language: ``?lang=`` when it names one we have (a page asking for
    the language it shows), else :func:`choose_language`."""
    asked = request.args.get("lang")
    return asked if asked in LANGUAGES else choose_language(request)
