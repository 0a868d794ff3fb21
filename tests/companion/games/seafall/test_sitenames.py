"""Provinces named by their players, and sites named as players point at them
(companion/games/seafall/sitenames.py), in the history of a table (the log's ``describe``
with the table's state) rather than by their colours and ids ("isle-b/1"). A site is a place
within a region (rulebook, "Regions": an island's sites, and "Province Boards": a
province's fields and building sites), so it is named by its place in its region."""

from __future__ import annotations

import pytest

from companion.engine import Event
from companion.games.seafall.log import describe
from companion.games.seafall.setup import demo_options, initial_state
from companion.games.seafall.sitenames import site_name


@pytest.mark.parametrize(("site", "region", "english", "french"), [
    ("isle-b/1", "Example isle B", "site 1 of Example isle B", "le lieu 1 d’Example isle B"),
    ("blue/field-2", "Province bleue", "field 2 of Province bleue",
     "le champ 2 de la province bleue"),
    ("blue/build-3", "Ana's", "building site 3 of Ana's", "le chantier 3 d’Ana's"),
    ("blue/warehouse", "Home", "warehouse of Home", "l’entrepôt de Home"),
    ("blue/council-room", "Home", "council room of Home", "la salle du conseil de Home"),
    ("isle-c/wonder-2", "Ouest", "wonder 2 of Ouest", "wonder 2 d’Ouest"),  # not listed: words
    ("nowhere", "Home", "nowhere", "nowhere"),  # no place in a region: the id as it is
])
def test_a_site_is_named_by_its_place_in_its_region(site, region, english, french):
    assert site_name(site, region) == english
    assert site_name(site, region, "fr") == french
    assert site_name(site, region, "de") == english  # any other language: English


def test_the_history_names_sites_with_the_tables_state_and_keeps_ids_without():
    """A site at the head of a sentence begins it with a capital; a list of sites is named
    one by one; a province's field is not called "the field" twice. Without the state (an
    exported session, ``tableside play``) the ids stay."""
    state = initial_state(demo_options())
    explored = Event("SiteExplored", {"site": "isle-b/1"})
    assert describe(explored, "en", state) == "Site 1 of Example isle B is explored."
    assert describe(explored, "fr", state) == "Le lieu 1 d’Example isle B est exploré."
    assert describe(explored) == "isle-b/1 is explored."
    produced = Event("GoodsProduced", {"sites": ["isle-a/1", "isle-b/2"], "short": []})
    assert describe(produced, "en", state) == \
        "Islands produce: site 1 of Example isle A, site 2 of Example isle B."
    improved = Event("ProvinceImproved", {"player": "blue", "kind": "field",
                                          "site": "blue/field-1", "value": 5})
    assert describe(improved, "en", state) == "Blue improves field 1 of Blue province to 5 gold."
    assert describe(improved, "fr", state) == \
        "Bleu modifie le champ 1 de la province bleue à 5 or."
    assert describe(improved) == "Blue improves the field blue/field-1 to 5 gold."
    taken = Event("EnmityTakenBack", {"player": "red", "location": "isle-a/2"})
    assert describe(taken, "fr", state) == "Rouge reprend un jeton sur le lieu 2 d’Example isle A."
    # the end of the game's places of enmity tokens, and its regions (they showed ids:
    # "garrison:isle-a", "stickers on isle-a")
    garrison = Event("EnmityTakenBack", {"player": "red", "location": "garrison:isle-a"})
    assert describe(garrison, "en", state) == \
        "Red takes back a token from the garrison of Example isle A."
    assert describe(garrison, "fr", state) == \
        "Rouge reprend un jeton sur la garnison d’Example isle A."
    war = Event("EnmityTakenBack", {"player": "red", "location": "war:blue"})
    assert describe(war, "en", state) == \
        "Red takes back a token from the At War With space of Blue."
    stickers = Event("TokensBecomeStickers", {"player": "red", "regions": ["isle-a", "blue"]})
    assert describe(stickers, "en", state) == \
        "Red's tokens left become stickers on Example isle A, Blue province."
    assert describe(garrison) == "Red takes back a token from garrison:isle-a."
    unknown = Event("SiteExplored", {"site": "isle-z/9"})  # not on this map: as it is
    assert describe(unknown, "en", state) == "Isle-z/9 is explored."


def test_french_elides_de_before_a_players_name_with_a_vowel():
    """« Fin du tour de Anne » was not French: « d’Anne », « d’Éloïse »; « de Zoé »."""
    state = initial_state(demo_options())
    state.provinces["blue"].player, state.provinces["green"].player = "Éloïse", "Zoé"
    assert describe(Event("TurnEnded", {"player": "blue"}), "fr", state) == \
        "Fin du tour d’Éloïse."
    assert describe(Event("TurnStarted", {"player": "green"}), "fr", state) == \
        "Début du tour de Zoé."
    assert describe(Event("TurnStarted", {"player": "red"}), "fr") == "Début du tour de Rouge."


def test_with_the_tables_state_a_province_is_named_by_its_player():
    """A campaign's players by name, as the pages name them ("Ann's turn", while the history
    said "Blue's turn begins"); a default player's name in French; by colour without the
    state; and the names do not leak out of the sentence they were used for."""
    state = initial_state(demo_options())
    state.provinces["blue"].player = "Ann"
    began = Event("TurnStarted", {"player": "blue"})
    hired = Event("GuildHired", {"player": "green", "guild": "soldiers"})
    assert describe(began, "en", state) == "Ann's turn begins."
    assert describe(hired, "fr", state) == "Vert engage la guilde des soldats."
    assert describe(began) == "Blue's turn begins."
    assert describe(hired, "fr") == "Vert engage la guilde des soldats."


def test_sentences_that_read_twice_or_wrong_are_mended():
    """A pool line whose reason says its own amount gives it once ("advisor Woodsman:
    explore +1 +1" was written); one enmity token "moves"; a home harbour is the region's
    name as the table knows it ("Blue Province's" was written); a single fortune token "peut
    être dépensé"."""
    state = initial_state(demo_options())
    started = Event("EndeavorStarted", {
        "kind": "explore", "player": "blue", "site": "isle-a/3", "target": None,
        "flagship": "blue-1", "defense": 3, "dangerous": False, "dice": 3,
        "pool": [{"reason": "flagship: Blue ship 1's printed explore", "dice": 2},
                 {"reason": "advisor Woodsman: explore +1", "dice": 1}]})
    assert describe(started).endswith("[flagship: Blue ship 1's printed explore +2; "
                                      "advisor Woodsman: explore +1]")
    moved = Event("EnmityMoved", {"count": 1, "owner": "red", "site": "isle-a/1",
                                  "to": "garrison"})
    assert " moves onto " in describe(moved, "en", state)
    rebuilt = Event("ShipRebuilt", {"player": "blue", "ship": "blue-1", "location": "blue"})
    assert describe(rebuilt, "en", state) == \
        "Blue ship 1 is rebuilt in Blue province's home harbor."
    assert describe(Event("FortuneOffered", {"maximum": 1}), "fr") == \
        "Jusqu’à 1 jeton Chance peut être dépensé."


@pytest.mark.parametrize(("site", "region", "french"), [
    ("isle-b/1", "Example isle B", "le lieu 1 d’Example isle B"),
    ("blue/field-2", "Blue province", "le champ 2 de la province bleue"),
    ("red/build-3", "Red province", "le chantier 3 de la province rouge"),
    ("blue/warehouse", "Blue province", "l’entrepôt de la province bleue"),
    ("blue/treasure-room", "Home", "la salle du trésor de Home"),
    ("isle-c/wonder-2", "Isle of Man", "wonder 2 d’Isle of Man"),
    ("isle-b/1", "", "isle-b/1"),  # an id (a region without a name): as it is
])
def test_a_sites_english_name_is_said_in_french(site, region, french):
    """A refusal names a site in English as the history does; its French page says the
    French history's name (refusals_fr.py), the setup's default names in French."""
    from companion.games.seafall.sitenames import french_site_name

    english = site_name(site, region) if region else site
    assert french_site_name(english) == french
