"""French names of SeaFall's advisors, as the French rulebook prints them on its advisor cards
and names them in its examples, for the pages and the history in French.

The engine, its commands and the English pages keep the English names (a command still
names "Captain"); only what a French page shows is said with these. An advisor is given a
French name only where the two rulebooks match it surely: its guild, gold cost, expertise
and ability (components.json) against the French card or example; the others stay in
English rather than guessed. ``web/i18n/fr.json`` carries the same names (``advisor.*``)
for the pages' scripts; a test keeps the two in step.
"""

from __future__ import annotations

# English name: (French name with its article, as a sentence says it; feminine)
ADVISORS: dict[str, tuple[str, bool]] = {
    # soldiers, gold 2, Raid +2, may spend up to 2 fortune at a dangerous site
    # (the card; the raid example names him, with Raid +2 and fortune at a dangerous site)
    "Advanced Scout": ("l’Éclaireur avancé", False),
    # merchants, gold 1, Buy goods +1 and Taxes +1 (the card: the only one with both)
    "Brute": ("la Brute", True),
    # explorers, gold 3, Explore +1 (the card: the only explorer at 3 gold)
    "Captain": ("la Capitaine", True),
    # builders, gold 2, Upgrade -2 and Build -2 (the card: the only builder at 2 gold)
    "Carpenter": ("le Charpentier", False),
    # explorers, gold 2, Explore +1 (the card; the Madman, also 2 gold and Explore +1, is
    # « le Fou » of the example)
    "Local Guide": ("la Guide locale", True),
    # explorers, Explore +1: the dice-pool example (Gray's active advisor, Explore +1)
    "Madman": ("le Fou", False),
    # explorers, Explore +1 and a die more at an anchor site: the explore example
    "Woodsman": ("le Forestier", False),
}


def advisor_name(name: object) -> str:
    """An advisor's name alone, as a list or a label shows it: « Capitaine », « Éclaireur
    avancé »; an advisor without a sure French name (or any other name) as it is."""
    text = str(name)
    if text not in ADVISORS:
        return text
    said = ADVISORS[text][0]
    return said.split(" ", 1)[1] if " " in said and not said.startswith("l’") else said[2:]


def the_advisor(name: object, capital: bool = False) -> str:
    """An advisor as a sentence names it, with its article: « la Capitaine », « l’Éclaireur
    avancé » (« La Capitaine » to begin a sentence); another name as it is."""
    text = str(name)
    if text not in ADVISORS:
        return text
    said = ADVISORS[text][0]
    return said[:1].upper() + said[1:] if capital else said


def of_advisor(name: object) -> str:
    """« de » and the advisor: « du Forestier », « de la Capitaine », « de l’Éclaireur
    avancé »; an advisor without a French name « de Savage » (« d’Alchemist »)."""
    text = str(name)
    if text in ADVISORS:
        said = ADVISORS[text][0]
        return "du " + said[3:] if said.startswith("le ") else "de " + said
    return ("d’" if text[:1].lower() in "aeiouyéèêàâîôû" else "de ") + text


def feminine(name: object) -> bool:
    """Whether a sentence agrees with the advisor as feminine (« épuisée »)."""
    return ADVISORS.get(str(name), ("", False))[1]
