"""French wording of the pages' catalogues: the rulebook's words where the pages said
something else (« Chance » is the fortune token, not a probability; a sea space is a
« zone »), and the singular French gives 0 and 1."""

from __future__ import annotations

from web import i18n


def test_odds_are_probabilities_and_fortune_is_the_token():
    fr, en = i18n.load("fr").strings, i18n.load("en").strings
    assert fr["odds.title"] == "Probabilités d’un test à SeaFall"
    assert fr["odds.distribution"] == "Probabilité de chaque nombre de succès"
    assert fr["odds.fortune"] == "Jetons Chance"
    # the roll card says the fortune its odds count as spent
    assert fr["odds.fortune_counted"] == "en dépensant jusqu’à {count} jetons Chance"
    assert fr["odds.fortune_counted_one"] == "en dépensant jusqu’à {count} jeton Chance"
    assert en["odds.fortune_counted"] == "counting up to {count} fortune tokens spent"


def test_a_sea_space_is_a_zone():
    fr = i18n.load("fr").strings
    assert fr["sail.to"] == "vers {place} ({count} zones)"
    assert fr["sail.stop_at_one"] == "s’arrête {place} après {count} zone"
    assert fr["ship.sea.near"] == "en mer, à {count} zones de {places}"
    assert not [k for k, v in fr.items() if " case" in v and k.startswith(("sail.", "ship."))]


def test_french_takes_the_singular_for_0_and_1():
    fr, en = i18n.load("fr").strings, i18n.load("en").strings
    assert fr["odds.expected_damage_one"] == "dégât attendu"
    assert fr["input.chars_one"] == "{n} caractère sur {max}"
    assert set(en) >= {"odds.expected_damage_one", "input.chars_one"}


def test_the_pages_french_words():
    fr = i18n.load("fr").strings
    assert fr["refused.title"] == "Accès refusé"
    assert fr["said.join.wrong_pin"] == "ce n’est pas le code d’hôte de cette table"
    assert not [k for k, v in fr.items() if "code PIN d’hôte" in v or "QR code" in v]
    assert fr["tv.qr_alt"] == "Code QR pour rejoindre cette table"
    assert fr["roll.total"] == "Dés saisis : {count} sur {of}"
    assert fr["site.good"] == "lieu de ressource"  # as the history says the sticker
    assert fr["sitename.of_isle"] == "{part} de l’{region}"
    # the campaign page's own line, not the map's "no enmity on the map"
    assert fr["campaign.no_permanent_enmity"] == "Aucune hostilité permanente pour l’instant."
    assert fr["dice.name_unread_many"].startswith("Nommez les {count} dés (touchez-les)")

