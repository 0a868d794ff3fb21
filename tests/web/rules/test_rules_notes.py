"""The shipped rule notes and glossary: shape, coverage, and written in our own words."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from web.rules.glossary import Glossary
from web.rules.notes import GAMES, NoteDataError, parse_notes, shipped_notes
from web.rules.text import fold, words

SEEDS = Path(__file__).resolve().parents[4] / "shared" / "seeds"  # ../shared/seeds

NOTES = shipped_notes()
COPY_RUN = 12  # words: a longer run found verbatim in a rulebook counts as copied


def test_notes_per_game_and_language():
    counts = Counter((n.game, n.lang) for n in NOTES)
    assert counts[("seafall", "en")] >= 40
    assert counts[("seafall", "fr")] >= 15
    for game in GAMES:
        assert counts[(game, "en")] >= 12, game


def test_notes_have_a_title_body_tags_and_a_rulebook_pointer():
    for note in NOTES:
        assert note.title and len(note.body) >= 60 and note.tags, note.id
        assert note.ref.section, note.id
        assert note.ref.page is None or 1 <= note.ref.page <= 40, note.id
    keys = [(n.game, n.lang, n.id) for n in NOTES]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("tag", [
    "endeavor", "dice", "fortune", "re-roll", "raid", "plunder", "enmity", "damage", "repair",
    "winter", "merchants", "builders", "explorers", "soldiers", "buy goods", "sell goods",
    "upgrade", "build", "explore", "research", "taxes", "advisor", "milestone", "end of game",
    "campaign", "sink", "at war with", "permanent enmity", "dangerous site", "flagship",
])
def test_seafall_notes_cover(tag):
    assert any(tag in n.tags for n in NOTES if n.game == "seafall" and n.lang == "en")


@pytest.mark.parametrize("game, tags", [
    ("city-of-five-sails", ["duel", "riposte", "parry", "thrust", "threat pool", "gambling",
                            "final strike", "restricted hostilities", "victory"]),
    ("after-the-empire", ["archery", "movement", "melee", "sacked", "survived", "invader",
                          "siege card", "income", "harvest", "feast", "flags"]),
    ("seafarers", ["production", "pirate", "robber", "gold field", "ship", "scenario"]),
])
def test_other_games_notes_cover(game, tags):
    have = {t for n in NOTES if n.game == game for t in n.tags}
    assert set(tags) <= have


@pytest.mark.parametrize("data, message", [
    ({"game": "chess", "lang": "en", "notes": []}, "unknown game"),
    ({"game": "seafall", "lang": "de", "notes": []}, "unknown language"),
    ({"game": "seafall", "lang": "en", "notes": [{"id": "x", "title": "T", "body": "B",
                                                   "tags": ["t"], "ref": {"page": 0,
                                                                          "section": "S"}}]},
     "page"),
    ({"game": "seafall", "lang": "en", "notes": [{"id": "x", "title": "", "body": "B",
                                                   "tags": ["t"], "ref": {"section": "S"}}]},
     "title"),
])
def test_parse_notes_rejects_bad_data(data, message):
    with pytest.raises(NoteDataError, match=message):
        parse_notes(data, "test.json")


GLOSSARY = Glossary.shipped()


@pytest.mark.parametrize("english, french", [
    ("endeavor", "test"), ("enmity", "hostilité"), ("fortune", "chance"), ("glory", "gloire"),
    ("raid", "pillage"), ("plunder", "butin"), ("flagship", "vaisseau amiral"),
    ("dangerous site", "lieu risqué"), ("milestone", "étape"), ("winter", "hiver"),
])
def test_glossary_maps_english_and_french(english, french):
    [term] = [t for t in GLOSSARY.for_game("seafall") if t.forms["en"][0] == english]
    assert french in term.forms["fr"]
    assert term.notes["en"] and term.notes["fr"]


def seed_words(name: str) -> str:
    path = SEEDS / name
    if not path.is_file():
        pytest.skip(f"the rulebooks are not here ({SEEDS})")
    return " " + " ".join(fold(w) for w in words(path.read_text(encoding="utf-8"))) + " "


def test_glossary_french_terms_are_the_french_rulebook_words():
    """Every French form of a SeaFall term is found in the French rulebook (folded)."""
    text = seed_words("seafall-rulebook-fr.txt")
    missing = [form for t in GLOSSARY.for_game("seafall") for form in t.forms.get("fr", ())
               if " " + " ".join(fold(w) for w in words(form)) + " " not in text]
    assert missing == []


def rulebook_words() -> str:
    if not SEEDS.is_dir():
        pytest.skip(f"the rulebooks are not here ({SEEDS})")
    return " " + " ".join(
        fold(w) for path in sorted(SEEDS.glob("*.txt"))
        for w in words(path.read_text(encoding="utf-8"))) + " "


def copied_runs(text: str, rulebooks: str) -> list[str]:
    """Every run of COPY_RUN words of ``text`` found verbatim (folded) in the rulebooks."""
    tokens = [fold(w) for w in words(text)]
    runs = (" " + " ".join(tokens[i:i + COPY_RUN]) + " "
            for i in range(len(tokens) - COPY_RUN + 1))
    return [run.strip() for run in runs if run in rulebooks]


def test_copy_check_catches_a_copied_sentence():
    rulebooks = rulebook_words()
    copied = ("If you did not roll a single success, or if your ship sank as a result of "
              "taking damage, the endeavor is a failure")
    assert copied_runs(copied, rulebooks)
    assert copied_runs(copied.upper().replace(",", " ;"), rulebooks)  # case, punctuation


def test_no_note_copies_rulebook_text():
    rulebooks = rulebook_words()
    copied = [(n.game, n.lang, n.id, run) for n in NOTES
              for field in (n.title, n.body) for run in copied_runs(field, rulebooks)]
    assert copied == []


def test_glossary_notes_are_our_own_words_too():
    rulebooks = rulebook_words()
    copied = [run for term in GLOSSARY.terms for text in term.notes.values()
              for run in copied_runs(text, rulebooks)]
    assert copied == []


def test_seafall_page_refs_follow_the_rulebook_contents():
    """The rulebook's own contents (p. 3) put endeavors on 10-11, the guilds on 14-19 and
    the end of the game on 20-21; the notes must point there."""
    refs = {n.id: n.ref.page for n in NOTES if n.game == "seafall" and n.lang == "en"}
    assert 10 <= refs["endeavor"] <= 11 and 10 <= refs["fortune"] <= 11
    assert all(14 <= refs[k] <= 19 for k in ("buy-goods", "repair", "explore", "raid",
                                             "plunder-provinces"))
    assert 20 <= refs["end-of-game"] <= 21
