"""Searching the rule index: both languages, accents, filters, ranking, safe queries."""

from __future__ import annotations

import pytest

from web.rules import InvalidQuery, RuleIndex, UnknownGame
from web.rules.notes import Note, Ref
from web.rules.rulebook import Passage


def ids(results) -> list[str | None]:
    return [r.note_id for r in results]


def test_search_english_term_finds_english_notes(index):
    results = index.search("enmity", game="seafall", lang="en")
    assert results and all(r.game == "seafall" and r.lang == "en" for r in results)
    assert "enmity" in ids(results)
    assert all(r.source == "notes" and r.ref.section for r in results)


@pytest.mark.parametrize("french, english", [
    pytest.param("hostilité", "enmity", id="hostilité = enmity"),
    pytest.param("chance", "fortune", id="chance = fortune"),
    pytest.param("vaisseau amiral", "flagship", id="vaisseau amiral = flagship"),
    pytest.param("butin", "plunder", id="butin = plunder"),
    pytest.param("test", "endeavor", id="test = endeavor"),
])
def test_search_french_term_finds_the_same_english_notes(index, french, english):
    via_french = ids(index.search(french, game="seafall", lang="en", limit=20))
    via_english = ids(index.search(english, game="seafall", lang="en", limit=20))
    assert via_french and set(via_french) == set(via_english)


def test_search_english_term_finds_french_notes(index):
    results = index.search("enmity", lang="fr")
    assert "hostilite" in ids(results)
    assert all(r.lang == "fr" for r in results)


@pytest.mark.parametrize("query", ["hostilite", "HOSTILITE", "hostilité", "Hostilîté"])
def test_search_is_accent_and_case_insensitive(index, query):
    results = index.search(query, lang="fr")
    assert "hostilite" in ids(results)
    assert "<mark>Hostilité</mark>" in " ".join(r.snippet for r in results)


def test_search_game_filter(index):
    duel = index.search("duel", game="city-of-five-sails", limit=50)
    assert len(duel) >= 5 and {r.game for r in duel} == {"city-of-five-sails"}
    assert index.search("riposte", game="seafall") == []
    sacked = index.search("sacked")
    assert sacked and {r.game for r in sacked} == {"after-the-empire"}


def test_search_lang_filter(index):
    english = index.search("raid", game="seafall", lang="en", limit=50)
    french = index.search("raid", game="seafall", lang="fr", limit=50)
    assert english and french
    assert {r.lang for r in english} == {"en"} and {r.lang for r in french} == {"fr"}


def test_search_without_filters_mixes_games_and_languages(index):
    results = index.search("gold", limit=50)
    assert {"seafall", "after-the-empire", "seafarers"} <= {r.game for r in results}


def test_search_ranks_the_note_about_the_term_first(index):
    assert index.search("flagship", lang="en")[0].note_id == "flagship"
    assert index.search("gambling", game="city-of-five-sails")[0].note_id == "gambling"
    assert index.search("pirate ship", game="seafarers")[0].note_id == "pirate"


def test_search_words_match_as_prefixes(index):
    # "raids" and "raiding" are not in the glossary; the prefix "raid" finds them
    assert "raid" in ids(index.search("raid", game="seafall", lang="en", limit=50))
    assert "sinking" in ids(index.search("sink", game="seafall", lang="en", limit=50))


def test_search_every_word_first_then_some(index):
    results = index.search("fortune dangerous site", game="seafall", lang="en", limit=8)
    first = results[0]
    assert first.note_id in {"dangerous-site", "fortune"}
    assert "dangerous" in first.text.lower() and "fortune" in first.text.lower()
    both = ["dangerous" in r.text.lower() and "fortune" in r.text.lower() for r in results]
    assert not all(both)  # topped up with notes that hold only some of the words
    assert both == sorted(both, reverse=True)  # ... after every note that holds them all


def test_search_prefer_ranks_that_language_first_within_each_step(index):
    """QA: "dangerous site fortune" listed the French notes before the English ones. The
    language preferred comes first among the passages with every term, and again among
    those with some; a passage with every term still beats one with some, in any language."""
    english = index.search("dangerous site fortune", game="seafall", limit=8, prefer="en")
    assert [r.lang for r in english[:2]] == ["en", "en"]
    assert {r.note_id for r in english[:2]} == {"dangerous-site", "fortune"}
    assert english.index(next(r for r in english if r.lang == "fr")) == 2  # then French
    french = index.search("dangerous site fortune", game="seafall", limit=8, prefer="fr")
    assert [r.lang for r in french[:2]] == ["fr", "fr"]
    assert {r.lang for r in french} == {"en", "fr"}  # the other language still shown
    with pytest.raises(InvalidQuery):
        index.search("fortune", prefer="de")


def test_search_question_in_plain_words(index):
    results = index.search("how do I spend fortune?", game="seafall", lang="en")
    assert results[0].note_id == "fortune"


@pytest.mark.parametrize("query", [
    'raid AND "', "NEAR(", "fortune OR", "-enmity", "title:raid", "^raid", "raid*",
    "(raid", "{raid}", "raid NOT", "'; DROP TABLE passages; --",
])
def test_search_fts_syntax_in_input_never_fails(index, query):
    results = index.search(query)
    assert isinstance(results, list)
    assert index.search("enmity")  # the index is intact


@pytest.mark.parametrize("query", ["", "   ", "!!!", '"*"()'])
def test_search_with_no_words_is_invalid(index, query):
    with pytest.raises(InvalidQuery):
        index.search(query)


def test_search_only_stopwords_still_searches(index):
    assert index.search("the", lang="en")


def test_search_bad_filters(index):
    with pytest.raises(UnknownGame):
        index.search("raid", game="monopoly")
    with pytest.raises(InvalidQuery):
        index.search("raid", lang="de")
    with pytest.raises(InvalidQuery):
        index.search("raid", limit=0)


def test_search_snippet_is_escaped_html_with_marks(index):
    index.import_passages([Passage(3, "Tricks", "A <script>alert(1)</script> kraken & co")],
                          "seafall", "en", "mine.txt", 3)
    [result] = index.search("kraken")
    assert result.source == "imported" and result.ref.page == 3
    assert "&lt;script&gt;" in result.snippet and "<script>" not in result.snippet
    assert "<mark>kraken</mark>" in result.snippet and "&amp;" in result.snippet
    assert result.text == "A <script>alert(1)</script> kraken & co"  # text is the raw passage


def note(body: str, note_id: str = "n1") -> Note:
    return Note(note_id, "seafall", "en", "A note", body, ("tag",), Ref(4, "Somewhere"))


def test_index_rebuilds_notes_when_the_data_changes_and_keeps_imports(tmp_path):
    path = tmp_path / "rules.sqlite3"
    first = RuleIndex(path, notes=[note("about the kraken")])
    first.import_passages([Passage(1, None, "the leviathan wakes")], "seafall", "fr", "x", 1)
    assert ids(first.search("kraken")) == ["n1"]
    first.close()
    second = RuleIndex(path, notes=[note("about the leviathan", "n2")])
    assert second.search("kraken") == []
    found = second.search("leviathan")
    assert {(r.source, r.note_id) for r in found} == {("notes", "n2"), ("imported", None)}
    second.close()


def test_index_on_disk_is_built_once_and_reused(tmp_path, monkeypatch):
    from web.rules import index as index_module

    loads = []
    real = index_module.shipped_notes
    monkeypatch.setattr(index_module, "shipped_notes", lambda: loads.append(1) or real())
    path = tmp_path / "rules.sqlite3"
    for _ in range(2):
        opened = RuleIndex(path)
        assert opened.search("enmity")
        opened.close()
    assert loads == [1]  # the second opening found the same data version: no rebuild


def test_in_memory_index_works_without_a_file():
    index = RuleIndex(None)
    assert index.search("hostilite")
    index.close()
