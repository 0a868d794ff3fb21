"""French log lines (log_fr.py): every event the engine writes reads in French, and English
is untouched.

The golden transcripts hold real payloads; the events they do not cover get a payload
written here in the shape the engine emits (companion/games/seafall/*.py ``em(...)``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from companion.engine import Event
from companion.games.seafall.engine import SeaFall
from companion.games.seafall.log import _TEMPLATES, describe
from companion.games.seafall.log_fr import TEMPLATES, phrase

TRANSCRIPTS = sorted((Path(__file__).parent / "transcripts").glob("*.events.json"))

# payloads for the event types no golden transcript holds, as the engine emits them
EXTRA: dict[str, list[dict[str, Any]]] = {
    "AbsentPassedBy": [
        {"player": "red", "step": 3, "what": "end of game step 3 (keep an advisor)"},
        {"player": "red", "step": None,
         "what": "no harvest (no gold is placed in an absent province)"}],
    "AdvisorSeized": [{"player": "red", "from_player": "blue", "advisor": "Savage",
                       "keep": True},
                      {"player": "red", "from_player": "blue", "advisor": "Savage",
                       "keep": False}],
    "AdvisorTrained": [{"player": "red", "retired": "Old Salt", "advisor": "Savage"}],
    "CardSeized": [{"player": "red", "from_player": "blue", "pile": "treasures",
                    "card": "Golden Idol"}],
    "ComponentAdded": [{"kind": "upgrade", "card": {"name": "Swift"}, "bagged": True},
                       {"kind": "advisor", "card": {"name": "Savage"}, "bagged": False}],
    "EmperorCrowned": [{"player": "green", "decided_by": "campaign glory",
                        "campaign": {"green": 40}, "milestone_glory": {}}],
    "EndeavorFailed": [{"reason": "the flagship sank"}, {"reason": "no success rolled"}],
    "EnmityMoved": [{"site": "isle/1", "owner": "red", "count": 2, "to": "at_war"},
                    {"site": "isle/1", "owner": "red", "count": 1, "to": "garrison"}],
    "EnmityReturned": [{"holder": "red", "owner": "blue", "count": 2}],
    "EnmitySpendingDone": [{"player": "green"}],
    "EventDismissed": [{"event": "Storm"}],
    "EventRevealed": [{"event": "Storm"}],
    "ForumDismissed": [{"advisors": ["Savage", "Brute"]}],
    "GoodLeft": [{"good": "iron"}],
    "GoodMoved": [{"player": "red", "good": "wood", "source": "warehouse", "to": "red-1",
                   "when": "before"}],
    "GoodsReturned": [{"ship": "red-1", "goods": ["wood", "iron"], "reason": "hold damaged"}],
    "HistoryNoted": [{"game": 2, "milestone_glory": {"red": 3}, "absent": ["blue"]}],
    "HoldOverloaded": [{"ship": "red-1"}],
    "IslandAdded": [{"island": {"id": "isle-b", "name": "Isle B"}}],
    "LeaderSet": [{"player": "red", "reputation": 2, "fortune": 3}],
    "MilestoneClaimed": [{"player": "red", "milestone": "Explorer", "events": ["Storm"]},
                         {"player": "red", "milestone": "Explorer", "events": []}],
    "PlunderSkipped": [{"reason": "the raider chose to plunder nothing"},
                       {"reason": "no site's plunder value is within the successes"},
                       {"reason": "no site within the successes has anything to take"}],
    "PlunderStepDone": [{}],
    "ReputationGiven": [{"player": "red", "to": "blue", "region": "blue"}],
    "ResearchCardKept": [{"player": "red", "card": "Charts", "dismissed": ["Maps"],
                          "cost": 2},
                         {"player": "red", "card": "Charts", "dismissed": [], "cost": 3,
                          "effects": [{"effect": "stat", "stat": "sail", "amount": 1},
                                      {"effect": "dice", "endeavor": "explore", "amount": 2,
                                       "role": "flagship"}]}],
    "ShipRebuilt": [{"player": "red", "ship": "red-1", "location": "red"}],
    "ShipRepaired": [{"player": "red", "ship": "red-1", "refreshed": ["Swift"],
                      "dismissed": ["Cracked hull"], "free": True}],
    "ShipSank": [{"ship": "red-1", "upgrades": ["Swift"], "goods": ["wood"],
                  "reason": "endeavor"},
                 {"ship": "red-1", "upgrades": [], "goods": [], "reason": "endeavor"}],
    "StickerLost": [{"player": "red", "region": "gray"}],
    "StructureBuilt": [{"player": "red", "site": "red/build-1", "structure": "Bastion",
                        "price": 6}],
    "StructureRaided": [{"site": "red/build-1", "structure": "Bastion"}],
    "StructureReturned": [{"player": "red", "site": "red/build-1", "structure": "Bastion"}],
    "TreasureBought": [{"player": "red", "treasure": "Golden Idol", "gold": 10}],
    "UpgradeExhausted": [{"ship": "red-1", "upgrade": "Swift", "reason": "endeavor"}],
    "UpgradeReturned": [{"ship": "red-1", "upgrade": "Swift"}],
    "UpgradeSeized": [{"ship": "red-1", "upgrade": "Swift", "replaced": "Nimble"}],
}

# English words that have no business in a French sentence. Names stay as they are
# ("Red ship 1", "Cracked hull"), so the words are chosen not to occur in this game's names.
ENGLISH = re.compile(r"\b(the|with|takes|gains|loses|from|into|rolls|dice|successes|"
                     r"begins|ends|is|are|and|turn|endeavor|enmity|fortune|glory|"
                     r"flagship|supply|damage|successful|advisor|upgrade)\b", re.IGNORECASE)
# proper names inside engine phrases ("flagship: Red ship 1's printed raid")
NAMES = re.compile(r"\b[A-Z][a-z]+ ship \d|Yellow province|Isle A|Spice isle")
# payload fields holding words the engine wrote in English (translated, so checked); every
# other string in a payload is a name (a card, a ship, a site) and is shown as it is
WORDS = {"reason", "what", "name", "kind", "source", "when", "stat", "action", "guild",
         "title", "decided_by", "to", "faces", "kinds", "goods", "good", "colour", "pool"}
NAMED = {"ProvinceImproved": {"name"}}  # an appellation ("the Steadfast") is a card's name


def _names(type_: str, payload: Any) -> list[str]:
    """The names in a payload (strings outside ``WORDS``), longest first."""
    found: list[str] = []
    words = WORDS - NAMED.get(type_, set())

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                if key not in words:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
    walk(payload)
    return sorted(set(found), key=len, reverse=True)


def _without_names(text: str, event: Event) -> str:
    for name in _names(event.type, event.payload):
        text = text.replace(name, " ")
    return NAMES.sub(" ", text)


def _transcript_events() -> list[Event]:
    events = []
    for path in TRANSCRIPTS:
        for raw in json.loads(path.read_text(encoding="utf-8")):
            events.append(Event(raw["type"], raw["payload"]))
    return events


def _all_events() -> list[Event]:
    extra = [Event(t, p) for t, payloads in EXTRA.items() for p in payloads]
    return _transcript_events() + extra


def test_every_english_template_has_a_french_one() -> None:
    assert set(_TEMPLATES) == set(TEMPLATES)  # the table's undo and redo markers too


def test_the_payloads_here_cover_every_template() -> None:
    covered = {e.type for e in _all_events()}
    assert set(TEMPLATES) <= covered, sorted(set(TEMPLATES) - covered)
    # the extras only fill gaps: a type the transcripts hold is tested on real payloads
    assert not set(EXTRA) & {e.type for e in _transcript_events()}


def test_every_event_reads_in_french_and_differs_from_english() -> None:
    assert len(TRANSCRIPTS) >= 10
    for event in _all_events():
        english, french = describe(event), describe(event, "fr")
        assert french and french != english, (event.type, french)
        leftover = ENGLISH.findall(_without_names(french, event))
        assert not leftover, (event.type, french, leftover)


@pytest.mark.parametrize(("english", "french"), [
    ("4 dice against defense 5 (dangerous)", "4 dés contre défense 5 (lieu risqué)"),
    ("2 dice against defense 3", "2 dés contre défense 3"),
    ("costs 2 reputation", "coûte 2 points de réputation"),
    ("costs 1 reputation", "coûte 1 point de réputation"),
    ("costs 13 gold", "coûte 13 or"),
    ("brings 4 gold", "rapporte 4 or"),
    ("The Gull to Isle A (2 spaces)", "The Gull vers Isle A (2 zones)"),
    ("Blue ship 1 to Green province (1 space)", "Bateau bleu 1 vers la province verte (1 zone)"),
    ("0 dice against defense 4", "0 dé contre défense 4"),
    ("1 die against defense 4 (dangerous)", "1 dé contre défense 4 (lieu risqué)"),
    ("repairs Blue ship 1", "répare Bateau bleu 1"),
    ("rebuilds The Gull", "reconstruit The Gull"),
    ("repairs Blue ship 1; rebuilds Blue ship 2",
     "répare Bateau bleu 1 ; reconstruit Bateau bleu 2"),
    ("repairs Blue ship 1, The Gull, Blue ship 2",  # a list: each default name in French
     "répare Bateau bleu 1, The Gull, Bateau bleu 2"),
])
def test_the_summaries_of_the_commands_a_player_may_send_are_translated(english, french):
    """choices.py's one-line summaries, each form (the pages show them by each command)."""
    assert phrase(english) == french
    engine = SeaFall()
    assert engine.phrase(english, "fr") == french and engine.phrase(english) == english


def test_pool_lines_and_reasons_are_translated() -> None:
    event = Event("EndeavorStarted", {
        "kind": "raid", "player": "gray", "site": None, "target": "yellow", "flagship": "gray-1",
        "defense": 5, "dangerous": True, "dice": 4, "pool": [
            {"reason": "flagship: Gray ship 1's printed raid", "dice": 3},
            {"reason": "advisor Savage: Raid +3", "dice": 3},
            {"reason": "garrison of Yellow province", "dice": -1},
            {"reason": "your enmity in Isle A", "dice": -1}]})
    text = describe(event, "fr")
    assert text.startswith("Gris pille la province de Jaune avec le vaisseau amiral gray-1")
    assert "lieu risqué" in text
    assert "valeur imprimée (pillage) de Bateau gris 1 +3" in text
    assert "expertise du conseiller Savage : pillage +3 ;" in text
    assert "garnison de la province jaune -1" in text
    assert "votre hostilité dans Isle A -1" in text
    assert describe(Event("GloryChanged", {"player": "red", "amount": -2,
                                           "reason": "lost advisor Savage"}), "fr") \
        == "Rouge perd 2 points de gloire (perte du conseiller Savage)."


def _endgame_reasons() -> list[str]:
    """Every reason endgame.py puts in the history (``em(..., reason=...)``), a name in it
    (an f-string's value) written as Example isle A."""
    import ast

    from companion.games.seafall import endgame

    source = Path(endgame.__file__).read_text(encoding="utf-8")

    def said(node: ast.expr) -> list[str]:
        if isinstance(node, ast.IfExp):  # "no advisor" if ... else "the winner keeps..."
            return said(node.body) + said(node.orelse)
        if isinstance(node, ast.JoinedStr):
            return ["".join(p.value if isinstance(p, ast.Constant) else "Example isle A"
                            for p in node.values)]
        assert isinstance(node, ast.Constant), ast.get_source_segment(source, node)
        return [node.value] if node.value is not None else []

    return [reason for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "em"
            for keyword in node.keywords if keyword.arg == "reason"
            for reason in said(keyword.value)]


@pytest.mark.parametrize("reason", _endgame_reasons())
def test_every_reason_the_end_of_game_writes_reads_in_french(reason) -> None:
    """Each reason of the end of game's history (step 2's training skipped, step 3's
    advisor not kept, step 5's glory lost) has its French: « Bob ne garde aucun conseiller
    (the winner keeps only...) » showed one without it."""
    french = phrase(reason)
    assert french != reason or reason == "absent", f"no French for {reason!r}"
    assert not ENGLISH.findall(french.replace("Example isle A", " ")), french


def test_the_end_of_game_reasons_are_found() -> None:
    reasons = _endgame_reasons()
    assert len(reasons) >= 6
    assert "the winner keeps only an advisor cheaper than every one kept" in reasons


def test_unknown_phrases_and_colours_are_kept_not_guessed() -> None:
    assert phrase("a reason added later") == "a reason added later"
    assert describe(Event("TurnStarted", {"player": "orange"}), "fr") == "Début du tour d’Orange."
    assert describe(Event("EndStepBegan", {"step": 9, "name": "new step"}), "fr") \
        == "Fin de partie, étape 9 : new step."


def test_french_counts_use_the_singular_for_zero_and_one() -> None:
    assert describe(Event("FortuneSpent", {"player": "red", "amount": 1}), "fr") \
        == "Rouge dépense 1 jeton Chance."
    assert describe(Event("FortuneSpent", {"player": "red", "amount": 2}), "fr") \
        == "Rouge dépense 2 jetons Chance."
    assert describe(Event("EnmitySettlingBegan", {"player": "red", "dice": 0}), "fr") \
        == "Rouge lance 0 dé pour régler son hostilité."


@pytest.mark.parametrize("lang", ["de", "", "EN", "fr-CA"])
def test_an_unknown_language_falls_back_to_english(lang: str) -> None:
    for event in _all_events()[:80]:
        assert describe(event, lang) == describe(event) == describe(event, "en")


def test_the_engine_describes_in_either_language_and_english_by_default() -> None:
    engine = SeaFall()
    event = Event("GuildHired", {"player": "red", "guild": "soldiers"})
    assert engine.describe(event) == "Red hires the Soldiers guild."
    assert engine.describe(event, "en") == "Red hires the Soldiers guild."
    assert engine.describe(event, "fr") == "Rouge engage la guilde des soldats."
    unknown = Event("SomethingNew", {})
    assert engine.describe(unknown, "fr") == engine.describe(unknown) == "SomethingNew."


@pytest.mark.parametrize(("card", "english", "french"), [
    ("damage", "red-1 takes a damage card.", "red-1 reçoit une carte Dégât."),
    ("Leak", "red-1 takes a damage card (Leak).", "red-1 reçoit une carte Dégât (Leak)."),
])
def test_a_damage_card_is_named_only_when_the_table_named_it(card, english, french):
    """A card drawn without its name ("damage", the default) is not named as "damage"."""
    event = Event("DamageCardDrawn", {"ship": "red-1", "card": card, "effects": []})
    assert describe(event) == english and describe(event, "fr") == french


@pytest.mark.parametrize(("english", "french"), [
    ("flagship: Blue ship 1's printed explore",
     "vaisseau amiral : valeur imprimée (exploration) de Bateau bleu 1"),
    ("flagship: The Gull's printed explore",
     "vaisseau amiral : valeur imprimée (exploration) de The Gull"),
    ("garrison of Purple province", "garnison de la province violette"),
    ("garrison of Example isle A", "garnison d’Example isle A"),  # elided before a vowel
    ("garrison of Tortuga", "garnison de Tortuga"),
])
def test_names_the_setup_gave_by_default_are_said_in_french(english, french):
    """setup.py names a province's ships and region after its colour when none is given;
    a French page says them in French (as the pages' views do), a name given as it is."""
    assert phrase(english) == french


def test_with_the_tables_state_ships_and_places_are_named_as_the_table_knows_them(game):
    """The history names a ship and a region by name ("Blue ship 1", "Example isle A"),
    in French a name the setup gave by default in French; without the state (``tableside
    play``, the golden transcripts) by their ids, as before. A colour (``player``) is never
    taken for the province's region of the same id."""
    from companion.games.seafall.setup import demo_options

    g = game(demo_options())
    g.do("hire_guild", guild="explorers")
    events = g.do("sail", moves=[{"ship": "blue-1", "path": ["coastal_waters", "isle-a"]}])
    sailed = next(e for e in events if e.type == "ShipSailed")
    engine = SeaFall()
    assert engine.describe(sailed).startswith("blue-1 sails from blue to isle-a")
    assert engine.describe(sailed, state=g.state).startswith(
        "Blue ship 1 sails from Blue province to Example isle A (2 spaces")
    assert engine.describe(sailed, "fr", g.state).startswith(
        "Bateau bleu 1 navigue de la province bleue à Example isle A (2 zones")
    hired = g.events[-len(events) - 1]
    assert engine.describe(hired, "fr", g.state) == "Bleu engage la guilde des explorateurs."


def test_a_reputation_token_goes_to_a_player_for_the_powers_of_a_region(game):
    """"Tokens" > "Reputation Tokens": the token goes to the player, for a region of
    theirs. The history, given the state, named the colour it went to as that province's
    region ("to Green province"), and in French put no article before the region."""
    from companion.games.seafall.setup import demo_options

    g = game(demo_options())
    (given,) = g.do("give_reputation", to="green", region="green")
    engine = SeaFall()
    assert engine.describe(given, state=g.state) == (
        "Blue gives a reputation token to Green to use Green province's powers this turn.")
    assert engine.describe(given, "fr", g.state) == (
        "Bleu donne un jeton Réputation à Vert pour utiliser les pouvoirs de la province "
        "verte ce tour-ci.")


def test_the_tables_undo_and_redo_markers_read_in_both_languages():
    undone = Event("CommandUndone", {"command_no": 7})
    assert describe(undone) == "Command 7 undone."
    assert describe(undone, "fr") == "Action n° 7 annulée."
    assert describe(Event("CommandRedone", {"command_no": 7})) == "Command 7 redone."


@pytest.mark.parametrize(("event", "english", "french"), [
    (Event("DiceRolled", {"faces": ["standard", "strong", "blank", "weak"], "source": "camera"}),
     "Dice read (camera): success, strong success, blank, weak success.",
     "Dés lus (caméra) : succès standard, franc succès, vierge, faible succès."),
    (Event("RerollRequired", {"indices": [1, 3], "kinds": ["weak"]}),
     "Re-roll 2 dice that show a weak success.", "Relancer 2 dés (faible succès)."),
    (Event("RerollRequired", {"indices": [0], "kinds": ["blank", "standard"]}),
     "Re-roll 1 die that shows a blank or a success.", "Relancer 1 dé (vierge, succès standard)."),
    (Event("DiceRerolled", {"faces": ["strong"]}),
     "Re-rolled: strong success.", "Dés relancés : franc succès."),
])
def test_the_log_names_the_faces_as_the_dice_card_does(event, english, french):
    """The history names a die's faces as the pages' dice card does (en.json and fr.json
    ``face.*``): it said "standard, strong" in English while the card said "success,
    strong success"."""
    assert describe(event) == english and describe(event, "fr") == french


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_logs_face_names_are_the_pages(lang):
    """Each log's names of the faces are the pages' catalogue's (``face.*``), word for
    word, so the history and the dice card never name a face two ways."""
    from companion.games.seafall import log, log_fr

    catalogue = json.loads((Path(__file__).parents[4] / "web" / "i18n" / f"{lang}.json")
                           .read_text(encoding="utf-8"))
    faces = log.FACES if lang == "en" else log_fr.FACES
    assert faces == {face: catalogue[f"face.{face}"]
                     for face in ("blank", "standard", "weak", "strong")}


@pytest.mark.parametrize(("event", "english", "french"), [
    pytest.param(Event("GoodsReturned", {"ship": "Blue ship 1", "goods": ["linen", "wood"]}),
                 "Blue ship 1 returns the linen and the wood to the supply.",
                 "Blue ship 1 rend le lin et le bois à la réserve.", id="two goods"),
    pytest.param(Event("GoodsReturned", {"ship": "red-1", "goods": ["spice"]}),
                 "red-1 returns the spice to the supply.",
                 "red-1 rend l’épice à la réserve.", id="one good"),
    pytest.param(Event("ShipSank", {"ship": "red-1", "upgrades": [],
                                    "goods": ["wood", "iron", "wood"]}),
                 "red-1 sinks, losing 2 wood cubes and the iron.",
                 "red-1 coule, perdant 2 cubes de bois et le fer.", id="a good twice"),
    pytest.param(Event("ShipSank", {"ship": "red-1", "upgrades": ["Swift"], "goods": ["iron"]}),
                 "red-1 sinks, returning Swift and losing the iron.",
                 "red-1 coule, rendant Swift et perdant le fer.", id="with an upgrade"),
])
def test_goods_are_listed_with_their_articles_and_and(event, english, french):
    """« rend lin, bois à la réserve », "returns linen, wood to the supply": a list of goods
    read as a list of words; goods are listed as the rulebook lists them (« le lin,
    l’épice et le fer », "the iron cube")."""
    assert (describe(event), describe(event, "fr")) == (english, french)


@pytest.mark.parametrize(("effects", "english", "french"), [
    pytest.param([{"effect": "stat", "stat": "sail", "amount": 1},
                  {"effect": "expertise", "kind": "raid", "amount": 1}],
                 "keeps Chart (sail +1, Raid +1), dismissing Map.",
                 "garde Chart (navigation +1, Piller +1), en rejetant Map.", id="two powers"),
    pytest.param([{"effect": "face_value", "kind": "weak", "value": 1, "role": "flagship"}],
                 "keeps Chart (as flagship, a weak success counts as 1 success), dismissing Map.",
                 "garde Chart (vaisseau amiral : « faible succès » compte pour 1 succès), "
                 "en rejetant Map.", id="a role"),
    pytest.param([{"effect": "dice", "endeavor": "explore", "amount": 1, "site_symbol": "anchor"},
                  {"effect": "support_dice", "amount": 2}],
                 "keeps Chart (+1 die for exploration at a site marked anchor, +2 dice as a "
                 "support ship), dismissing Map.",
                 "garde Chart (+1 dé en exploration sur un lieu marqué anchor, +2 dés en "
                 "soutien), en rejetant Map.", id="an endeavor, a site, counted"),
    pytest.param([{"effect": "note", "text": "draw two, keep one"}, {"effect": "made_up"}],
                 "keeps Chart (draw two, keep one, made up), dismissing Map.",
                 "garde Chart (draw two, keep one, made up), en rejetant Map.",
                 id="a note, a power without words"),
    pytest.param([], "keeps Chart, dismissing Map.", "garde Chart, en rejetant Map.",
                 id="no powers"),
])
def test_the_research_card_kept_is_said_with_its_powers(effects, english, french):
    """"Research": the card kept stays in play with its powers. The history said "keeps
    Chart, dismissing Map" and no more; it says the powers as the province card does
    (``effects.js`` ``powersText``), an older payload without ``effects`` by the name."""
    event = Event("ResearchCardKept", {"player": "blue", "card": "Chart", "dismissed": ["Map"],
                                       "cost": 3, "effects": effects})
    assert describe(event) == f"Blue pays 3 gold for research and {english}"
    assert describe(event, "fr") == f"Bleu paie 3 or pour rechercher et {french}"
    older = Event("ResearchCardKept", {"player": "blue", "card": "Chart", "dismissed": [],
                                       "cost": 3})
    assert describe(older) == "Blue pays 3 gold for research and keeps Chart."


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_words_for_powers_are_the_pages(lang):
    """The history words a card's powers with the pages' catalogue's words (``power.says.*``,
    ``option.stat.*``, ``face.*``, ``end.kind.*``), word for word, so the history and the
    province card never say a power two ways."""
    from companion.games.seafall import powerwords

    catalogue = json.loads((Path(__file__).parents[4] / "web" / "i18n" / f"{lang}.json")
                           .read_text(encoding="utf-8"))

    def under(prefix: str) -> dict[str, str]:
        return {k[len(prefix):]: v for k, v in catalogue.items()
                if k.startswith(prefix) and k != "face.?"}

    assert powerwords.SAYS[lang] == under("power.says.")
    assert powerwords.STATS[lang] == under("option.stat.")
    assert powerwords.FACES[lang] == under("face.")
    assert powerwords.ENDEAVORS[lang] == under("end.kind.")
