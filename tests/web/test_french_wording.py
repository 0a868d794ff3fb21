"""French wording of the pages' catalogues: the rulebook's words where the pages said
something else (« Chance » is the fortune token, not a probability; a sea space is a
« zone »), and the singular French gives 0 and 1."""

from __future__ import annotations

from web import i18n

JS = i18n.HERE.parent / "static" / "js"


def test_odds_are_probabilities_and_fortune_is_the_token():
    fr, en = i18n.load("fr").strings, i18n.load("en").strings
    assert fr["odds.title"] == "Probabilités d’un test à SeaFall"
    assert fr["odds.distribution"] == "Probabilité de chaque nombre de succès"
    assert fr["odds.fortune"] == "Jetons Chance"
    # the roll card says the fortune its odds count as spent
    assert fr["odds.fortune_counted"] == "en dépensant jusqu’à {count} jetons Chance"
    assert fr["odds.fortune_counted_one"] == "en dépensant jusqu’à {count} jeton Chance"
    assert en["odds.fortune_counted"] == "counting up to {count} fortune tokens spent"
    views = (JS / "views.js").read_text("utf-8")
    assert 'oddsBlock(end.odds, end.defense, usableFortune(state, end))' in views
    assert 'fortune > 0 ? h("p", {class: "odds-fortune' in views
