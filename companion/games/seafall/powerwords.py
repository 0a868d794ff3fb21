"""A card's powers in words, as the pages say them: "sail +1, Raid +1", « navigation +1,
Piller +1 » (the history's research line; the province card says them with ``effects.js``
``powersText``).

The words are the pages' catalogue's (``web/i18n/en.json`` and ``fr.json``: ``power.says.*``,
``option.stat.*``, ``face.*``, ``end.kind.*``), word for word, and the sentence is built as
``powerText`` builds it, so a card's powers read the same in the history and on the province
card; ``tests/companion/games/seafall/test_log_fr.py`` keeps the words in step with the
catalogue. French spaces stay plain, as everywhere in the history (the pages' ``t()`` sets
the non-breaking ones).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

SAYS: dict[str, dict[str, str]] = {  # power.says.*
    "en": {
        "stat": "{stat} {signed}",
        "dice": "{signed} dice",
        "dice_one": "{signed} die",
        "support_dice": "{signed} dice as a support ship",
        "support_dice_one": "{signed} die as a support ship",
        "fortune_at_dangerous": "up to {count} fortune at a dangerous site",
        "fortune_at_dangerous_one": "up to {count} fortune at a dangerous site",
        "reroll": "re-roll each {face}",
        "face_value": "a {face} counts as {count} successes",
        "face_value_one": "a {face} counts as {count} success",
        "bonus_successes": "{signed} successes if one is rolled",
        "bonus_successes_one": "{signed} success if one is rolled",
        "strong_reduces_damage": "1 damage less per strong success",
        "support_takes_damage": "takes up to {count} damage as a support ship",
        "support_takes_damage_one": "takes up to {count} damage as a support ship",
        "garrison": "garrison {signed}",
        "expertise": "{expertise} {signed}",
        "expertise.raid": "Raid",
        "expertise.explore": "Explore",
        "expertise.taxes": "Taxes",
        "expertise.buy": "Buy",
        "expertise.sell": "Sell",
        "expertise.upgrade": "Upgrade",
        "expertise.build": "Build",
        "expertise.research": "Research",
        "buy_price": "each good bought costs {signed} gold",
        "sell_price": "each good sold brings {signed} gold",
        "sell_bonus": "{signed} gold a good sold in its region",
        "peek_deck": "look at a deck",
        "hire_any_number": "hire any number of advisors",
        "free_repair": "repair without an action",
        "for": "{power} for {endeavor}",
        "at_symbol": "{power} at a site marked {symbol}",
        "as_flagship": "as flagship, {power}",
        "as_support": "as a support ship, {power}",
    },
    "fr": {
        "stat": "{stat} {signed}",
        "dice": "{signed} dés",
        "dice_one": "{signed} dé",
        "support_dice": "{signed} dés en soutien",
        "support_dice_one": "{signed} dé en soutien",
        "fortune_at_dangerous": "jusqu’à {count} jetons Chance sur un lieu risqué",
        "fortune_at_dangerous_one": "jusqu’à {count} jeton Chance sur un lieu risqué",
        "reroll": "relancer chaque {face}",
        "face_value": "« {face} » compte pour {count} succès",
        "face_value_one": "« {face} » compte pour {count} succès",
        "bonus_successes": "{signed} succès si au moins un est obtenu",
        "bonus_successes_one": "{signed} succès si au moins un est obtenu",
        "strong_reduces_damage": "1 dégât de moins par franc succès",
        "support_takes_damage": "encaisse jusqu’à {count} dégâts en soutien",
        "support_takes_damage_one": "encaisse jusqu’à {count} dégât en soutien",
        "garrison": "garnison {signed}",
        "expertise": "{expertise} {signed}",
        "expertise.raid": "Piller",
        "expertise.explore": "Explorer",
        "expertise.taxes": "Taxer",
        "expertise.buy": "Acheter",
        "expertise.sell": "Vendre",
        "expertise.upgrade": "Améliorer",
        "expertise.build": "Construire",
        "expertise.research": "Rechercher",
        "buy_price": "chaque ressource achetée coûte {signed} or",
        "sell_price": "chaque ressource vendue rapporte {signed} or",
        "sell_bonus": "{signed} or par ressource vendue dans sa région",
        "peek_deck": "regarder une pioche",
        "hire_any_number": "engager autant de conseillers que voulu",
        "free_repair": "réparer sans action",
        "for": "{power} en {endeavor}",
        "at_symbol": "{power} sur un lieu marqué {symbol}",
        "as_flagship": "vaisseau amiral : {power}",
        "as_support": "en soutien : {power}",
    },
}

STATS = {  # option.stat.*
    "en": {"explore": "explore", "raid": "raid", "sail": "sail", "hold": "hold"},
    "fr": {"explore": "exploration", "raid": "pillage", "sail": "navigation", "hold": "cale"},
}
FACES = {  # face.*
    "en": {"blank": "blank", "standard": "success", "weak": "weak success",
           "strong": "strong success"},
    "fr": {"blank": "vierge", "standard": "succès standard", "weak": "faible succès",
           "strong": "franc succès"},
}
ENDEAVORS = {  # end.kind.*
    "en": {"explore": "exploration", "raid": "raid"},
    "fr": {"explore": "exploration", "raid": "pillage"},
}


def _number(value: Any) -> int | float:
    number = float(value or 0)
    return int(number) if number.is_integer() else number


def _say(lang: str, key: str, values: Mapping[str, Any], fallback: str) -> str:
    """``t("power.says." + key, values, fallback)``: the singular form (``key_one``) where
    ``count`` is 1 (French: 0 or 1)."""
    says = SAYS[lang]
    count = values.get("count")
    if isinstance(count, (int, float)):
        one = abs(count) < 2 if lang == "fr" else count == 1
        if one and f"{key}_one" in says:
            key = f"{key}_one"
    text = says.get(key, fallback)
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def power_text(effect: Mapping[str, Any], lang: str = "en") -> str:
    """One power in words, as a card prints it: "sail -1", "+1 die for exploration",
    "Raid +1" (``effects.js`` ``powerText``); a power without words, by its name."""
    lang = lang if lang in SAYS else "en"
    name = str(effect.get("effect") or "")
    kind = effect.get("kind")
    amount = _number(effect.get("amount"))
    values: dict[str, Any] = {"signed": ("+" if amount > 0 else "") + str(amount),
                              "count": abs(amount)}
    if effect.get("stat"):
        values["stat"] = STATS[lang].get(str(effect["stat"]), str(effect["stat"]))
    if kind and name in ("reroll", "face_value"):
        values["face"] = FACES[lang].get(str(kind), str(kind))
    if name == "expertise":
        values["expertise"] = SAYS[lang].get(f"expertise.{kind}", str(kind))
    if name == "face_value":
        values["count"] = _number(effect.get("value"))
    if name == "note":
        return str(effect.get("text") or "")
    text = _say(lang, name, values, name.replace("_", " "))
    if effect.get("endeavor"):
        endeavor = str(effect["endeavor"])
        text = _say(lang, "for", {"power": text,
                                  "endeavor": ENDEAVORS[lang].get(endeavor, endeavor)}, "")
    if effect.get("site_symbol"):
        text = _say(lang, "at_symbol", {"power": text, "symbol": effect["site_symbol"]}, "")
    if effect.get("role") in ("flagship", "support"):
        text = _say(lang, f"as_{effect['role']}", {"power": text}, "")
    return text


def powers_text(effects: Iterable[Mapping[str, Any]] | None, lang: str = "en") -> str:
    """Powers in words, joined: "sail +1, Raid +1" (``effects.js`` ``powersText``)."""
    return ", ".join(power_text(e, lang) for e in effects or ())


def card_with_powers(name: Any, effects: Iterable[Mapping[str, Any]] | None,
                     lang: str = "en") -> str:
    """A card and its powers in words, "Chart (sail +1, Raid +1)"; a card without any, its
    name (``views.js`` ``cardWithPowers``)."""
    powers = powers_text(effects, lang)
    return f"{name} ({powers})" if powers else str(name)
