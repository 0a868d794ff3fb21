"""Sites named as players point at them (companion/games/seafall/sitenames.py), in the
history of a table (the log's ``describe`` with the table's state) rather than by their ids
("isle-b/1"). The ids are the map's: rulebook p. 5 ("Islands" and their sites) and the
province board's fields and building sites."""

from __future__ import annotations

import pytest

from companion.engine import Event
from companion.games.seafall.log import describe
from companion.games.seafall.setup import demo_options, initial_state
from companion.games.seafall.sitenames import site_name


@pytest.mark.parametrize(("site", "region", "english", "french"), [
    ("isle-b/1", "Example isle B", "site 1 of Example isle B", "le lieu 1 d’Example isle B"),
    ("blue/field-2", "Province bleue", "field 2 of Province bleue",
     "le champ 2 de Province bleue"),
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
        "Bleu modifie le champ 1 de Province bleue à 5 or."
    assert describe(improved) == "Blue improves the field blue/field-1 to 5 gold."
    taken = Event("EnmityTakenBack", {"player": "red", "location": "isle-a/2"})
    assert describe(taken, "fr", state) == "Rouge reprend un jeton sur le lieu 2 d’Example isle A."
    unknown = Event("SiteExplored", {"site": "isle-z/9"})  # not on this map: as it is
    assert describe(unknown, "en", state) == "Isle-z/9 is explored."
