"""Prompt questions and option labels in the page's language, for the prompts a short browser
walk does not reach (re-roll, plunder steps, end-of-game choices): the page's own module
(views.js ``promptQuestion`` / ``optionLabel``) runs in Chromium on a French table page with
views shaped like the engine's (companion/games/seafall/engine.py ``prompts``). A prompt or
value the catalogue does not know shows the engine's English rather than nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright")

pytestmark = pytest.mark.slow

STATE: dict[str, Any] = {
    "year": 2, "round": 3,
    "provinces": {"red": {"player": "Bo"}, "blue": {"player": "Ana"}},
    "ships": {"red-1": {"name": "Red ship 1", "damage": ["Leak", "Rot"]},
              "red-2": {"name": "Red ship 2", "damage": []}},
    "regions": {"gray": {"name": "Gray province", "garrison": 1}},
    "sites": {"gray/field-1": {"kind": "field", "value": 4, "plunder_value": 2},
              "gray/build-1": {"kind": "building_site", "structure": "Bastion"}},
    "sticker_to_place": ["gray"],
}


def endeavor(**fields: Any) -> dict[str, Any]:
    base = {"kind": "raid", "dice": 5, "defense": 4, "stage": "plunder", "plunder_site": None,
            "picks_left": 0, "goods_to_place": [], "plunder_step": None, "damage_due": 2}
    return {**STATE, "endeavor": {**base, **fields}}


def choice(command: str, question: str, *values: str, player: str = "red") -> dict[str, Any]:
    return {"kind": "choice", "id": "x", "player": player, "command": command,
            "question": question, "options": [{"value": v, "label": f"EN {v}"} for v in values]}


CASES = [
    pytest.param(endeavor(stage="reroll", reroll_kinds=["weak"]),
                 {"kind": "roll", "id": "endeavor:1:reroll", "player": "red", "count": 2,
                  "purpose": "re-roll the 2 dice showing weak", "command": "roll"},
                 "relancez les 2 dés qui montrent « faible succès »", [], id="re-roll"),
    pytest.param(STATE, choice("return_good", "Red ship 1's hold is over: return which good?",
                               "wood"),
                 "La cale de Red ship 1 déborde : quelle ressource rendre ?", ["bois"],
                 id="hold"),
    pytest.param(endeavor(), choice("plunder", "Which site do you plunder?", "gray/field-1",
                                    "none"),
                 "Quel lieu pillez-vous ?",
                 ["champ 1 de Gray province : vaut 4 or (valeur de butin 2)", "ne rien piller"],
                 id="plunder site"),
    pytest.param(endeavor(plunder_site="gray/field-1", picks_left=2),
                 choice("plunder", "Take which good? (2 more)", "iron"),
                 "Quelle ressource prenez-vous ? (encore 2)", ["fer"], id="plunder goods"),
    pytest.param(endeavor(plunder_site="gray/field-1", goods_to_place=["spice"]),
                 choice("plunder", "Which ship takes the spice?", "red-2", "leave"),
                 "Quel bateau prend la ressource (épice) ?",
                 ["Red ship 2", "laisser la ressource (épice)"], id="plunder ship"),
    pytest.param(endeavor(plunder_site="gray/field-1", plunder_step="docks"),
                 choice("plunder", "Which upgrade, on which ship?", "Swift@red-2",
                        "Swift@red-1:replace:Nimble"),
                 "Quelle amélioration, sur quel bateau ?",
                 ["Swift sur Red ship 2", "Swift sur Red ship 1, en rendant Nimble"],
                 id="plunder docks"),
    pytest.param(endeavor(plunder_site="gray/field-1", plunder_step="council_room"),
                 choice("plunder", "Which advisor do you take?", "keep:Savage",
                        "dismiss:Savage"),
                 "Quel conseiller prenez-vous ?", ["prendre Savage", "rejeter Savage"],
                 id="plunder council room"),
    pytest.param(endeavor(plunder_site="gray/field-1", plunder_step="treasure_room"),
                 choice("plunder", "Which card do you take?", "treasures:Golden Idol",
                        "research:Charts"),
                 "Quelle carte prenez-vous ?", ["trésor Golden Idol", "carte Recherche Charts"],
                 id="plunder treasure room"),
    pytest.param(endeavor(plunder_site="gray/build-1", plunder_step="structure"),
                 choice("plunder", "Bastion: take a iron or 3 gold?", "good", "gold"),
                 "Bastion : prendre une ressource (fer) ou 3 or ?",
                 ["une ressource (fer) de la réserve", "3 or"], id="plunder structure"),
    pytest.param(endeavor(stage="damage"),
                 choice("assign_damage", "Bo takes 2 damage: take the next point how?",
                        "exhaust:red-1:Swift", "card:red-1", "card:red-2"),
                 "Bo subit 2 dégâts : comment encaisser le prochain dégât ?",
                 ["épuiser Swift sur Red ship 1", "piocher une carte Dégât pour Red ship 1 "
                  "(il coule)", "piocher une carte Dégât pour Red ship 2"], id="damage"),
    pytest.param(STATE, choice("cover_sticker", "Ana: Gray province is full: cover whose "
                               "sticker?", "red", player="blue"),
                 "Ana : Gray province est pleine ; recouvrir l’autocollant de qui ?", ["Bo"],
                 id="cover sticker"),
    pytest.param(STATE, choice("train_advisor", "Bo: train which advisor, with which retired "
                               "advisor?", "Old Salt@Savage"),
                 "Bo : former quel conseiller, avec quel conseiller retraité ?",
                 ["former Savage avec Old Salt"], id="train advisor"),
    pytest.param(STATE, {**choice("deal_advisor", "Deal the forum: which advisor came up? "
                                  "(2 of 5)", "Captain", "Savage"), "player": None},
                 "Forum : quel conseiller vient d’être révélé ? (2 sur 5)",
                 ["Capitaine", "EN Savage"], id="advisors by their French names"),
    pytest.param(STATE, choice("reveal_event", "Year 2, round 3: which event is revealed?",
                               "Storm"),
                 "Année 2, manche 3 : quel évènement est révélé ?", ["EN Storm"],
                 id="names stay as the engine gives them"),
    pytest.param(STATE, choice("new_command", "Something new?", "a"),
                 "Something new?", ["EN a"], id="an unknown prompt: the engine's text"),
    pytest.param({}, choice("assign_damage", "Bo takes 2 damage: take the next point how?",
                            "card:red-1"),
                 "Bo takes 2 damage: take the next point how?", ["EN card:red-1"],
                 id="a view without the values: the engine's text"),
]


def typeset(text: str) -> str:
    """French as the pages set it (i18n.js ``spaced``): a non-breaking space before « : ; ?
    ! » and inside the guillemets, so that no line begins with a colon."""
    return re.sub(r" ([:;?!»])", "\u00a0\\1", text).replace("« ", "«\u00a0")


@pytest.mark.parametrize(("state", "prompt", "question", "labels"), CASES)
def test_a_prompt_in_french(devices, server, state, prompt, question, labels):
    page = devices("fr-FR")
    page.goto(server.url(f"/t/{server.table}"))
    page.wait_for_function("document.documentElement.lang === 'fr'")
    shown = page.evaluate("""async ([state, prompt]) => {
        const views = await import("/static/js/views.js");
        return {question: views.promptQuestion(state, prompt),
                labels: (prompt.options || []).map((o) => views.optionLabel(state, prompt, o))};
    }""", [state, prompt])
    assert shown == {"question": typeset(question), "labels": [typeset(x) for x in labels]}
