"""Importing the players' own rulebook: pages from text and PDF, passages, re-import."""

from __future__ import annotations

import collections
import random

import pytest

from tests.web.rules.conftest import pdf_bytes
from web.rules import RulebookError
from web.rules.rulebook import Page, read_pages, split_passages, text_pages

RULEBOOK_V1 = """\
THE KRAKEN
The kraken rises when a captain rolls three blanks in a row.
\f
SEA MONSTERS
A sea monster never attacks a ship in its home harbor.
\f
Nothing else on this page but the scoring of krakens.
"""


def test_text_pages_form_feeds():
    pages = text_pages(RULEBOOK_V1)
    assert [p.number for p in pages] == [1, 2, 3]
    assert "kraken rises" in pages[0].text


@pytest.mark.parametrize("marker", ["page 12", "Page 12", "p. 12", "- 12 -", "[12]",
                                    "=== page 12 ===", "  PAGE 12  "])
def test_text_pages_page_marker_lines(marker):
    pages = text_pages(f"intro text\n{marker}\nthe rule of page twelve\n")
    assert pages == [Page(None, "intro text"), Page(12, "the rule of page twelve")]


@pytest.mark.parametrize("text, numbers", [
    pytest.param("page 5\nalpha five.\n\fbravo after ff.\n", [5, 6], id="after a marker"),
    pytest.param("page 2\ntwo\n\fthree\n\fpage 12\ntwelve\n\fthirteen\n", [2, 3, 12, 13],
                 id="mixed"),
    pytest.param("one\n\ftwo\n\f\fpage 9\nnine\n\ften\n", [1, 2, 9, 10],
                 id="an empty page, then a marker"),
])
def test_text_pages_a_form_feed_follows_the_page_before_it(text, numbers):
    """The page after a form feed was counted from the feeds alone: text after "page 5"
    and a feed was quoted as p. 2, not p. 6."""
    assert [p.number for p in text_pages(text)] == numbers


def test_a_folder_is_refused_as_a_folder(tmp_path):
    """It said "no such file" of a folder that is there."""
    with pytest.raises(RulebookError, match=r": a folder, not a rulebook file \(.txt or .pdf\)$"):
        read_pages(tmp_path)


def test_text_pages_marker_words_inside_a_sentence_are_text():
    [page] = text_pages("see page 12 for the kraken\n")
    assert page.number is None and "page 12" in page.text


def test_split_passages_keeps_page_and_section():
    passages = split_passages(text_pages(RULEBOOK_V1))
    assert [(p.page, p.section) for p in passages] == [
        (1, "The Kraken"), (2, "Sea Monsters"), (3, "Sea Monsters")]


def test_split_passages_cuts_long_paragraphs_at_sentences():
    sentence = "The kraken eats one ship upgrade for every blank die rolled. "
    passages = split_passages([Page(5, sentence * 40)], size=300)
    assert len(passages) > 5
    assert all(len(p.text) <= 300 and p.page == 5 for p in passages)
    assert all(p.text.endswith(".") for p in passages)


def test_split_passages_cuts_a_run_without_sentence_ends():
    passages = split_passages([Page(1, "word " * 1000)], size=200)
    assert all(0 < len(p.text) <= 200 for p in passages)
    assert sum(p.text.count("word") for p in passages) == 1000


def test_import_text_then_search_quotes_it_with_the_page(index, tmp_path):
    path = tmp_path / "my-seafall.txt"
    path.write_text(RULEBOOK_V1, encoding="utf-8")
    summary = index.import_rulebook(path, "seafall", "en")
    assert (summary.pages, summary.passages, summary.replaced) == (3, 3, 0)
    hits = [r for r in index.search("sea monster attacks") if r.source == "imported"]
    hit = hits[0]  # the passage with every word; page 3 only shares the section title
    assert hit.ref.page == 2 and hit.ref.section == "Sea Monsters"
    assert hit.game == "seafall" and hit.lang == "en"
    assert "home harbor" in hit.text and "<mark>" in hit.snippet
    assert index.imports()[0]["source"] == "my-seafall.txt"


def test_reimport_replaces_the_same_game_and_language_only(index, tmp_path):
    first, second, other = (tmp_path / n for n in ("a.txt", "b.txt", "c.txt"))
    first.write_text("page 1\nThe kraken sleeps.\n", encoding="utf-8")
    second.write_text("page 7\nThe leviathan sleeps.\n", encoding="utf-8")
    other.write_text("page 2\nLe kraken dort.\n", encoding="utf-8")
    index.import_rulebook(first, "seafall", "en")
    index.import_rulebook(other, "seafall", "fr")
    summary = index.import_rulebook(second, "seafall", "en")
    assert summary.replaced == 1
    kraken = [(r.lang, r.ref.page) for r in index.search("kraken") if r.source == "imported"]
    assert kraken == [("fr", 2)]  # the English kraken is gone, the French one stays
    [leviathan] = index.search("leviathan")
    assert leviathan.ref.page == 7
    assert [(i["lang"], i["source"]) for i in index.imports()] == [("en", "b.txt"),
                                                                   ("fr", "c.txt")]


def test_forget_an_import(index, tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("The kraken sleeps.\n", encoding="utf-8")
    index.import_rulebook(path, "seafall", "en")
    assert index.remove_import("seafall", "en") == 1
    assert index.search("kraken") == [] and index.imports() == []


def test_import_pdf_pages(index, make_pdf):
    path = make_pdf(["The kraken page one", "Sea monsters and the leviathan on page two"])
    assert [p.number for p in read_pages(path)] == [1, 2]
    summary = index.import_rulebook(path, "seafall", "fr")
    assert (summary.pages, summary.passages) == (2, 2)
    [hit] = index.search("leviathan")
    assert hit.ref.page == 2 and hit.source == "imported" and hit.lang == "fr"


def test_import_is_kept_on_disk(tmp_path):
    from web.rules import RuleIndex

    path = tmp_path / "a.txt"
    path.write_text("page 3\nThe kraken sleeps.\n", encoding="utf-8")
    first = RuleIndex(tmp_path / "rules.sqlite3")
    first.import_rulebook(path, "seafall", "en")
    first.close()
    again = RuleIndex(tmp_path / "rules.sqlite3")
    assert [r.ref.page for r in again.search("kraken")] == [3]
    again.close()


@pytest.mark.parametrize("name, content, message", [
    pytest.param("rules.pdf", b"%PDF-1.4\nnot really a pdf", "PDF", id="broken pdf"),
    pytest.param("rules.docx", b"PK\x03\x04", ".txt or .pdf", id="unknown kind"),
    pytest.param("empty.txt", b"  \n\n", "no text", id="empty text"),
])
def test_import_bad_files(index, tmp_path, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(RulebookError, match=message):
        index.import_rulebook(path, "seafall", "en")
    assert index.imports() == []


def damaged_copy(data: bytes, seed: int) -> bytes:
    """``data`` with one to six bytes overwritten, runs cut out or put in, or its end cut."""
    rng, out = random.Random(seed), bytearray(data)
    for _ in range(rng.randint(1, 6)):
        if len(out) < 2:
            break
        what, at = rng.random(), rng.randrange(len(out))
        if what < 0.4:
            out[at] = rng.randrange(256)
        elif what < 0.6:
            del out[at:at + rng.randint(1, 50)]
        elif what < 0.8:
            out[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 20)))
        else:
            del out[at:]
    return bytes(out)


def test_a_damaged_pdf_reads_or_is_refused_with_a_reason(tmp_path):
    """pypdf raises whatever its code meets on a damaged file: 1,600 damaged copies of a
    two-page PDF let an AssertionError (copy 226) and an AttributeError (copy 1523) escape
    as tracebacks before. Each copy now reads, or is a RulebookError naming the file."""
    good = pdf_bytes(["Raid: roll dice against the defense.", "Explore: sail to a site."])
    outcomes = collections.Counter()
    for seed in range(1600):
        path = tmp_path / f"{seed}.pdf"
        path.write_bytes(damaged_copy(good, seed))
        try:
            read_pages(path)
            outcomes["read"] += 1
        except RulebookError as exc:
            assert str(exc).startswith(f"{path}: ")
            outcomes["refused"] += 1
    assert outcomes["read"] and outcomes["refused"]  # the damage is of both kinds


def test_import_missing_file(index, tmp_path):
    with pytest.raises(RulebookError, match="no such file"):
        index.import_rulebook(tmp_path / "nope.txt", "seafall", "en")


def test_import_latin1_text(index, tmp_path):
    path = tmp_path / "vieux.txt"
    path.write_bytes("Le kraken détruit la coque.\n".encode("latin-1"))
    index.import_rulebook(path, "seafall", "fr")
    assert index.search("detruit")[0].text == "Le kraken détruit la coque."


def test_import_text_saved_by_windows_tools(index, tmp_path):
    """Notepad's "Unicode" is UTF-16 with a byte-order mark (it was read as Latin-1, a NUL
    between every letter), and older files are in Windows' Western code page (its curly
    quotes were control characters)."""
    path = tmp_path / "notepad.txt"
    path.write_bytes("Le kraken détruit la coque.\n".encode("utf-16"))
    index.import_rulebook(path, "seafall", "fr")
    assert index.search("detruit")[0].text == "Le kraken détruit la coque."
    path = tmp_path / "old.txt"
    path.write_bytes("The \u201cKraken\u201d sleeps \u2013 for now.\n".encode("cp1252"))
    index.import_rulebook(path, "seafall", "en")
    assert index.search("sleeps")[0].text == "The \u201cKraken\u201d sleeps \u2013 for now."


def test_a_file_of_bytes_named_txt_is_refused_and_indexes_nothing(index, tmp_path):
    path = tmp_path / "photo.txt"
    path.write_bytes(bytes(range(256)) * 8)  # it was indexed as one passage of noise
    with pytest.raises(RulebookError, match=r"photo\.txt: not a text file"):
        index.import_rulebook(path, "seafall", "en")
    assert index.search("kraken") == []


def test_a_damaged_index_is_set_aside_and_built_again(tmp_path, caplog):
    """It stopped every rules search and the server's rules page with a traceback."""
    from web.rules import RuleIndex

    path = tmp_path / "rules.sqlite3"
    first = RuleIndex(path)
    rulebook = tmp_path / "k.txt"
    rulebook.write_text("THE KRAKEN\nThe kraken sleeps.\n", encoding="utf-8")
    first.import_rulebook(rulebook, "seafall", "en")
    notes = len(first.search("fortune"))
    assert notes > 0
    first.close()
    data = bytearray(path.read_bytes())
    data[200:3200] = bytes(range(250)) * 12
    path.write_bytes(bytes(data))
    with caplog.at_level("WARNING", logger="web.sidefiles"):
        again = RuleIndex(path)
        try:
            assert len(again.search("fortune")) == notes  # the notes, indexed again
            assert again.search("kraken") == []  # the players' import: to do again
        finally:
            again.close()
    assert "import your rulebooks again" in caplog.text
    assert len(list(tmp_path.glob("rules.sqlite3.damaged-*Z"))) == 1


def test_import_without_page_marks_counts_no_pages(index, tmp_path):
    path = tmp_path / "plain.txt"
    path.write_text("THE KRAKEN\nThe kraken sleeps.\n", encoding="utf-8")
    summary = index.import_rulebook(path, "seafall", "en")
    assert (summary.pages, summary.passages) == (0, 1)
    [hit] = index.search("kraken")
    assert hit.ref.page is None and hit.ref.section == "The Kraken"


def test_headings_on_several_lines_make_one_section():
    [passage] = split_passages(text_pages("THE SOLDIERS GUILD\nAND ITS ACTIONS\nRaid a site.\n"))
    assert passage.section == "The Soldiers Guild And Its Actions"


def test_numbered_labels_are_not_sections():
    [passage] = split_passages(text_pages("PLUNDER\nRULE 17\nTake the gold.\n"))
    assert passage.section == "Plunder" and passage.text == "RULE 17 Take the gold."
