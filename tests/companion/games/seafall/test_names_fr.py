"""Advisors' French names (names_fr.py): a French page and the French history name an advisor
as the French rulebook does, where the match is sure; commands keep the English names, and
an advisor without a sure French name stays in English."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from seafall_driver import Game

from companion.errors import IllegalCommand
from companion.games.seafall import log_fr
from companion.games.seafall.engine import SeaFall
from companion.games.seafall.names_fr import ADVISORS, advisor_name, the_advisor

ROOT = Path(__file__).resolve().parents[4]
COMPONENTS = json.loads((ROOT / "companion/games/seafall/data/components.json")
                        .read_text(encoding="utf-8"))


def hiring() -> Game:
    return Game({"provinces": [{"colour": "red", "player": "Ann", "gold": 5},
                               {"colour": "blue", "player": "Bob"}],
                 "forum": ["Captain", "Savage", "Woodsman"]})


def test_every_french_name_is_an_advisor_of_the_game():
    names = {a["name"] for a in COMPONENTS["advisors"]}
    assert set(ADVISORS) <= names
    assert advisor_name("Captain") == "Capitaine"
    assert advisor_name("Advanced Scout") == "Éclaireur avancé"
    assert the_advisor("Madman") == "le Fou"
    assert the_advisor("Local Guide", capital=True) == "La Guide locale"


def test_an_advisor_without_a_sure_match_stays_english():
    for name in ("Savage", "Alchemist", "Convict", "Foreman"):
        assert advisor_name(name) == the_advisor(name) == name


def test_the_pages_catalogues_name_the_same_advisors():
    fr = json.loads((ROOT / "web/i18n/fr.json").read_text(encoding="utf-8"))
    en = json.loads((ROOT / "web/i18n/en.json").read_text(encoding="utf-8"))
    said = {k[len("advisor.name."):]: v for k, v in fr.items() if k.startswith("advisor.name.")}
    assert said == {name: advisor_name(name) for name in ADVISORS}
    assert {k: v for k, v in en.items() if k.startswith("advisor.name.")} == \
        {f"advisor.name.{name}": name for name in ADVISORS}


def test_a_command_names_the_english_advisor_and_the_french_history_the_french_one():
    g = hiring()
    events = g.do("hire_advisor", advisor="Captain", pay="gold")
    hired = next(e for e in events if e.type == "AdvisorHired")
    engine = SeaFall()
    assert engine.describe(hired, "fr") == "Rouge engage la Capitaine pour 3 or."
    assert engine.describe(hired, "en").endswith("hires Captain for 3 gold.")
    assert "Captain" in [a.name for a in g.state.provinces["red"].council]
    events = g.do("activate_advisor", advisor="Captain")
    assert engine.describe(g.last("AdvisorActivated"), "fr") == "Rouge active la Capitaine."


def test_an_unmatched_advisor_in_the_french_history_and_refusals_stays_english():
    g = hiring()
    g.do("hire_advisor", advisor="Savage", pay="gold")
    assert SeaFall().describe(g.last("AdvisorHired"), "fr") == "Rouge engage Savage pour 3 or."
    assert log_fr.phrase("advisor Savage: raid +3") == "expertise du conseiller Savage : pillage +3"


def test_refusals_and_pool_lines_say_the_french_name():
    engine = SeaFall()
    g = hiring()
    g.do("hire_advisor", advisor="Woodsman", pay="gold")
    with pytest.raises(IllegalCommand) as caught:
        g.do("activate_advisor", advisor="Captain")
    assert engine.refusal(str(caught.value), "fr") == \
        "Ann n’a pas de conseiller Capitaine dans sa salle du conseil"
    assert engine.refusal("Local Guide is exhausted until winter", "fr") == \
        "la Guide locale est épuisée jusqu’à l’hiver"
    assert log_fr.phrase("advisor Woodsman: explore +1") == \
        "expertise du conseiller Forestier : exploration +1"
    assert log_fr.TEMPLATES["AdvisorExhausted"]({"player": "red", "advisor": "Captain"}) == \
        "La Capitaine (Rouge) est épuisée."


def test_the_rulebooks_action_names_and_articles_in_the_french_history():
    taken = log_fr.TEMPLATES["ActionTaken"]
    assert taken({"player": "red", "action": "sail"}) == (
        "Rouge choisit l’action «\u00a0Naviguer\u00a0».")
    assert taken({"player": "red", "action": "buy"}) == \
        "Rouge choisit l’action «\u00a0Acheter des ressources\u00a0»."
    assert log_fr.de("Île aux Épices") == "de l’Île aux Épices"
    assert log_fr.phrase("Green ship 1 to Île aux Épices (2 spaces)") == \
        "Bateau vert 1 vers l’Île aux Épices (2 zones)"
    assert log_fr.de("Iron isle") == "d’Iron isle"  # no article made up for a name
    bought = log_fr.TEMPLATES["GoodBought"]({"player": "green", "good": "iron", "price": 3,
                                             "site": "lieu 1", "ship": "Bateau vert 1"})
    assert bought.endswith("chargée à bord du Bateau vert 1.")
    assert log_fr.aboard("The Gull") == "à bord de The Gull"
