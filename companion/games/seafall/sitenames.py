"""A site named as players point at it, from its id and its region's name: ``isle-b/1`` is
"site 1 of Example isle B", ``blue/field-2`` "field 2 of Blue province",
``blue/warehouse`` "warehouse of Blue province" (in French "le lieu 1 d’Example isle B",
"le champ 2 de la province bleue", "l’entrepôt de la province bleue").

A site's id is its region's id, a slash, and its place in the region: a number on an
island, a part of the province sheet on a province (``field-N``, ``build-N``, ``warehouse``,
...). The name follows the id, not the site's kind, so a site keeps its name when it is
explored or built on, and the history's older lines still point at the same place.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from companion.games.seafall.log_fr import de, default_name

if TYPE_CHECKING:
    from companion.games.seafall.state import SeaFallState

PARTS = {
    "en": {"": "site", "field": "field", "build": "building site",
           "council-room": "council room", "treasure-room": "treasure room"},
    "fr": {"": "le lieu", "field": "le champ", "build": "le chantier", "warehouse": "l’entrepôt",
           "council-room": "la salle du conseil", "vault": "le coffre",
           "treasure-room": "la salle du trésor"},
}
"""The parts of a region a site id names, by language (French with its article: the
log's sentences say "sur le lieu 1", "le champ 2"); a part not listed is its id's words
(``warehouse``: "warehouse")."""

_PART = re.compile(r"(?:(.*?)-)?(\d+)|(.+)")


def site_name(site_id: str, region_name: str, lang: str = "en") -> str:
    """``site_id`` named in ``lang`` ("en" or "fr"; any other: English) with its region's
    name (already as the page's language says it)."""
    words = PARTS.get(lang, PARTS["en"])
    _, _, tail = site_id.partition("/")
    match = _PART.fullmatch(tail)
    if match is None:  # no place after the slash: the id as it is
        return site_id
    part, number, whole = match.groups()
    key = whole if whole is not None else (part or "")
    named = words.get(key, key.replace("-", " "))
    if number is not None:
        named = f"{named} {number}"
    if lang == "fr":  # « de » as the log says it: « d’Example isle B », « de la province bleue »
        return f"{named} {de(region_name)}"
    return f"{named} of {region_name}"


def site_called(state: SeaFallState, site_id: str) -> str:
    """A site of the table named in English as the history names it ("site 1 of Example
    isle B", "building site 2 of Blue province": log.py); its id when its region has no
    name."""
    site = state.sites.get(site_id)
    region = state.regions.get(site.region) if site is not None else None
    return site_name(site_id, region.name, "en") if region is not None and region.name \
        else site_id


_ENGLISH = re.compile(r"([a-z][a-z ]*?)(?: (\d+))? of (.+)")
_KEYS = {word: key for key, word in PARTS["en"].items()}


def french_site_name(english: str) -> str:
    """A site named in English (:func:`site_name`'s "site 1 of Example isle B") in French
    ("le lieu 1 d’Example isle B"), its region's name said as the French history says it
    ("Blue province": "de la province bleue"); anything else as it is."""
    match = _ENGLISH.fullmatch(english)
    if match is None:
        return english
    words, number, region = match.groups()
    key = _KEYS.get(words, words.replace(" ", "-"))
    place = f"{key}-{number}" if number is not None and key else number or key
    return site_name(f"x/{place}", default_name(region), "fr")
