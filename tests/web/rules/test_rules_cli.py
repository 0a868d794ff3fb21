"""``tableside rules``: import, search (text and JSON), list, glossary, forget, errors."""

from __future__ import annotations

import json

import pytest

from web.cli import main

RULEBOOK = "page 4\nTHE KRAKEN\nLe kraken se réveille quand trois dés vierges sortent.\n"


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "data" / "tableside.sqlite3")


def test_rules_help(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["rules", "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "import" in out and "search" in out and "glossary" in out


def test_rules_import_then_search_json(tmp_path, db, capsys):
    book = tmp_path / "regles.txt"
    book.write_text(RULEBOOK, encoding="utf-8")
    assert main(["rules", "import", str(book), "--game", "seafall", "--lang", "fr",
                 "--db", db]) == 0
    assert "1 page, 1 passage " in capsys.readouterr().out
    assert (tmp_path / "data" / "rules.sqlite3").is_file()

    assert main(["rules", "search", "vierges", "kraken", "--db", db, "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["query"] == "vierges kraken"
    [hit] = [r for r in body["results"] if r["source"] == "imported"]
    assert hit["ref"] == {"page": 4, "section": "The Kraken"} and hit["lang"] == "fr"

    book.write_text("page 5\nLe léviathan dort.\n", encoding="utf-8")
    assert main(["rules", "import", str(book), "--game", "seafall", "--lang", "fr",
                 "--db", db, "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["replaced"] == 1 and summary["passages"] == 1
    assert main(["rules", "search", "kraken", "--db", db, "--json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert all(r["source"] == "notes" for r in results)


def test_rules_search_text_output(db, capsys):
    assert main(["rules", "search", "hostilite", "--game", "seafall", "--lang", "en",
                 "--limit", "2", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "**enmity**" in out.lower() and "p. 11" in out and "note" in out
    assert "<mark>" not in out


def test_rules_search_shows_english_notes_first_without_lang(db, capsys):
    """QA: the example of ``rules --help`` listed ``Les jetons Chance [fr]`` and ``Les lieux
    risqués [fr]`` before ``Dangerous sites [en]``. English comes first without --lang."""
    assert main(["rules", "search", "dangerous site fortune", "--game", "seafall",
                 "--db", db]) == 0
    titles = [line for line in capsys.readouterr().out.splitlines()
              if not line.startswith(" ")]
    assert ", en, " in titles[0] and ", en, " in titles[1]
    assert titles.index(next(t for t in titles if t.startswith("Dangerous sites"))) < \
        titles.index(next(t for t in titles if t.startswith("Les jetons Chance")))

    assert main(["rules", "search", "fortune", "--db", db, "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    langs = [r["lang"] for r in body["results"]]
    assert langs == sorted(langs) and langs[0] == "en"  # every en before any fr
    assert body["other_language"] is False

    assert main(["rules", "search", "fortune", "--lang", "fr", "--db", db, "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert {r["lang"] for r in body["results"]} == {"fr"} and not body["other_language"]


def test_rules_search_in_french_of_english_only_notes_says_so(db, capsys):
    """As the /rules page: nothing in the language asked for shows the other's, said so."""
    assert main(["rules", "search", "pirate", "--game", "seafarers", "--lang", "fr",
                 "--db", db]) == 0
    out = capsys.readouterr().out
    assert out.startswith("nothing in French for 'pirate'; these passages are in another")
    assert "The pirate ship  [Catan: Seafarers, en, note" in out
    assert main(["rules", "search", "pirate", "--game", "seafarers", "--lang", "fr",
                 "--db", db, "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["other_language"] is True and {r["lang"] for r in body["results"]} == {"en"}


def test_rules_search_nothing_found(db, capsys):
    assert main(["rules", "search", "zzzyxw", "--db", db]) == 0
    assert "nothing found" in capsys.readouterr().out


def test_rules_search_errors(db, capsys):
    assert main(["rules", "search", "?!", "--db", db]) == 2
    assert "no word" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["rules", "search", "raid", "--game", "chess", "--db", db])
    assert exit_.value.code == 2


def test_rules_import_errors(tmp_path, db, capsys):
    bad = tmp_path / "book.pdf"
    bad.write_bytes(b"not a pdf at all")
    assert main(["rules", "import", str(bad), "--game", "seafall", "--lang", "en",
                 "--db", db]) == 2
    assert "PDF" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # --game and --lang are required
        main(["rules", "import", str(bad), "--db", db])


def test_rules_import_pdf(make_pdf, db, capsys):
    pdf = make_pdf(["Intro", "The kraken sleeps on page two"])
    assert main(["rules", "import", str(pdf), "--game", "seafall", "--lang", "en",
                 "--db", db]) == 0
    capsys.readouterr()
    assert main(["rules", "search", "kraken", "--db", db, "--json"]) == 0
    [hit] = json.loads(capsys.readouterr().out)["results"]
    assert hit["source"] == "imported" and hit["ref"]["page"] == 2
    assert main(["rules", "list", "--game", "seafall", "--lang", "fr", "--db", db,
                 "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert listing["imports"][0]["pages"] == 2
    assert listing["notes"] and {n["lang"] for n in listing["notes"]} == {"fr"}
    assert main(["rules", "forget", "--game", "seafall", "--lang", "en", "--db", db]) == 0
    assert "removed 2 passages" in capsys.readouterr().out


def test_rules_list_text(db, capsys):
    assert main(["rules", "list", "--game", "after-the-empire", "--db", db]) == 0
    out = capsys.readouterr().out
    assert out.startswith("After the Empire (en)") and "p. 11" in out


def test_rules_glossary(capsys):
    assert main(["rules", "glossary", "--game", "seafall", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "enmity = hostilité" in out and "endeavor = test" in out
    assert main(["rules", "glossary", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["terms"]) > 100
