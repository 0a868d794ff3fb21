"""The turn's actions that need more than a tap, in a real browser (headless Chromium at
360x640, a real server): stopping a ship at sea, returning goods to buy, naming the research
cards drawn, giving reputation for a region, naming a damage card drawn. Each was a typed
JSON command before."""

from __future__ import annotations

import re

import pytest

from companion.engine import Command
from tests.e2e.browser.server import WAIT
from tests.e2e.browser.test_phone_pages import join_as

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

pytestmark = pytest.mark.slow
expect.set_options(timeout=WAIT)


def demo(server):
    return server.services.tables.get(server.table)


def new_table(server, options):
    """A table of its own (Ana plays blue and starts), its id and its table."""
    from companion.table import Table

    options = {"start_at": "turn", **options}
    table_id = Table.create(server.services.store, "seafall", options, "host").session_id
    return table_id, server.services.tables.get(table_id)


def damage_to_take(server, **extra):
    """A table where Ana (Blue) explored Iron isle's defense-5 site with 3 standard
    successes: 2 successes short, 2 damage to take (``extra``: more setup options)."""
    table_id, table = new_table(server, {
        **extra,
        "provinces": [{"colour": "blue", "player": "Ana",
                       "ships": [{"location": "isle"}, {"location": "isle"}]},
                      {"colour": "red", "player": "Bo"}],
        "islands": [{"id": "isle", "name": "Iron isle", "space": "(0, 2, 2)",
                     "sites": [{"name": "1", "defense": 5}]}]})
    for cmd, args in (("hire_guild", {"guild": "explorers"}),
                      ("explore", {"flagship": "blue-1", "site": "isle/1"}),
                      ("roll", {"faces": ["standard"] * 3})):
        table.apply(Command(cmd, args, "blue"))
    return table_id, table


@pytest.mark.parametrize(("locale", "role", "label", "button", "where", "line"), [
    pytest.param("en-GB", "player", "stops in the coastal waters after 1 space", "Sail",
                 "in the coastal waters", "Blue ship 1 sails from Blue province to the coastal "
                 "waters", id="English"),
    pytest.param("fr-FR", "joueur", "s’arrête dans la zone côtière après 1 zone", "Naviguer",
                 "dans la zone côtière", "Bateau bleu 1 navigue de la province bleue à la zone "
                 "côtière", id="French"),
])
def test_a_ship_stops_at_sea_short_of_a_place(devices, server, locale, role, label, button,
                                              where, line):
    """"Ships and Sailing" > "Sailing": a ship moves up to its sail value. The sail form
    listed only the places in reach: no ship could stop at sea. Its province card then
    says where it is by the board ("What's on the Map?"), not the map's "coastal_waters",
    and so does the history (it said "to coastal_waters"). The stop in the coastal waters,
    on every way out, is said so (it was "toward Green province", the first way's place)."""
    ana = join_as(devices, server, "Ana", "blue", locale=locale, role=role)
    ana.click("#prompt button[data-value=explorers]")
    sail = ana.locator("#actions details[data-type=sail]")
    sail.locator("summary").click()
    sail.locator("select[data-ship=blue-1]").select_option(label=label)
    sail.get_by_role("button", name=button).click()
    expect(ana.locator("#actions details[data-type=sail]")).to_have_count(0)
    assert demo(server).state.ships["blue-1"].location == "coastal_waters"
    expect(ana.locator("#provinces [data-ship=blue-1] .ship-head")).to_contain_text(where)
    expect(ana.locator("#history-list")).to_contain_text(line)
    expect(ana.locator("#history-list")).not_to_contain_text("coastal_waters")


@pytest.mark.parametrize(("locale", "role", "one", "two"), [
    pytest.param("en-GB", "player", "at sea, 1 space from Iron isle and Rock",
                 "at sea, 2 spaces from Iron isle", id="English"),
    pytest.param("fr-FR", "joueur", "en mer, à 1 zone d’Iron isle et Rock",
                 "en mer, à 2 zones d’Iron isle", id="French"),
])
def test_a_ship_on_the_open_sea_is_placed_by_the_nearest_islands(devices, server, locale,
                                                                 role, one, two):
    """"What's on the Map?": the open sea's hexes carry no name; a ship stopped there is
    said so many spaces from the nearest islands. Its card showed the map's "(1, 3, 4)"."""
    table_id, _ = new_table(server, {
        "provinces": [{"colour": "blue", "player": "Ana",
                       "ships": [{"location": "(1, 3, 4)"}, {"location": "(0, 5, 5)"}]},
                      {"colour": "red", "player": "Bo"}],
        "islands": [{"id": "isle", "name": "Iron isle", "space": "(2, 3, 5)"},
                    {"id": "rock", "name": "Rock", "space": "(1, 2, 3)"}]})
    ana = join_as(devices, server, "Ana", "blue", locale=locale, role=role, table=table_id)
    ships = ana.locator("#provinces")
    expect(ships.locator("[data-ship=blue-1] .ship-head")).to_contain_text(one)
    expect(ships.locator("[data-ship=blue-2] .ship-head")).to_contain_text(two)
    expect(ships).not_to_contain_text("(1, 3, 4)")


@pytest.mark.parametrize(("locale", "role", "label"), [
    pytest.param("en-GB", "player", "returns the wood of Blue ship 1 to the supply", id="English"),
    pytest.param("fr-FR", "joueur", "rend à la réserve la ressource (bois) de Bateau bleu 1",
                 id="French"),
])
def test_a_buy_into_a_full_hold_returns_a_good_for_room(devices, server, locale, role, label):
    """"Merchants Guild" > "Buy Goods": goods may go back to the supply to store others. No
    Buy was offered into a full hold."""
    table_id, table = new_table(server, {
        "provinces": [{"colour": "blue", "player": "Ana", "gold": 5,
                       "ships": [{"location": "isle", "hold": 1, "goods": ["wood"]}, {}]},
                      {"colour": "red", "player": "Bo"}],
        "islands": [{"id": "isle", "name": "Iron isle", "space": "(0, 2, 2)", "sites": [
            {"name": "1", "kind": "good", "colour": "iron", "good_present": True}]}]})
    ana = join_as(devices, server, "Ana", "blue", locale=locale, role=role, table=table_id)
    ana.click("#prompt button[data-value=merchants]")
    buy = ana.locator("#actions details[data-type=buy]")
    expect(buy).to_have_attribute("open", "")  # one way to buy: open
    buy.get_by_role("button").filter(has_text=label).click()
    expect(ana.locator("#actions details[data-type=buy]")).to_have_count(0)
    assert table.state.ships["blue-1"].goods == ["iron"]


@pytest.mark.parametrize(("locale", "role", "label", "line"), [
    pytest.param("en-GB", "player",
                 "the iron at site 1 of Iron isle into Blue ship 1 and the spice at site 2 of "
                 "Iron isle into Blue ship 1 · returns the linen of Blue ship 1 and the wood of "
                 "Blue ship 1 to the supply",
                 "Blue ship 1 returns the linen and the wood to the supply.", id="English"),
    pytest.param("fr-FR", "joueur",
                 "la ressource (fer) du lieu 1 d’Iron isle dans Bateau bleu 1 et la ressource "
                 "(épice) du lieu 2 d’Iron isle dans Bateau bleu 1 · rend à la réserve la "
                 "ressource (lin) de Bateau bleu 1 et la ressource (bois) de Bateau bleu 1",
                 "Bateau bleu 1 rend le lin et le bois à la réserve.", id="French"),
])
def test_a_buy_of_two_goods_reads_as_a_sentence(devices, server, locale, role, label, line):
    """A Buy's option said each site with its kind after its name ("site 1 of Iron isle ·
    goods into Blue ship 1"), French « de lieu 1 » without its article, and its lists and
    the history's without "and" (« rend lin, bois à la réserve »)."""
    table_id, table = new_table(server, {
        "provinces": [{"colour": "blue", "player": "Ana", "gold": 10,
                       "ships": [{"location": "isle", "hold": 2, "goods": ["linen", "wood"]},
                                 {}]},
                      {"colour": "red", "player": "Bo"}],
        "islands": [{"id": "isle", "name": "Iron isle", "space": "(0, 2, 2)", "sites": [
            {"name": "1", "kind": "good", "colour": "iron", "good_present": True},
            {"name": "2", "kind": "good", "colour": "spice", "good_present": True}]}]})
    ana = join_as(devices, server, "Ana", "blue", locale=locale, role=role, table=table_id)
    ana.click("#prompt button[data-value=merchants]")
    buy = ana.locator("#actions details[data-type=buy]")
    buy.locator("summary").click()
    option = buy.get_by_role("button").filter(has_text=label)
    expect(option.locator("span").first).to_have_text(label)
    option.click()
    expect(ana.locator("#history-list")).to_contain_text(line)
    assert table.state.ships["blue-1"].goods == ["iron", "spice"]


def researching(server, devices, locale="en-GB", role="player"):
    """Ana (blue) with Research +1 (two cards drawn), her Explorers hired, research open."""
    table_id, table = new_table(server, {
        "research_allowed": True,
        "components": {"advisors": [{"name": "Cartographer", "guild": "explorers", "gold": 2,
                                     "expertise": {"research": 1}}]},
        "provinces": [{"colour": "blue", "player": "Ana", "gold": 5, "reputation": 1,
                       "active_advisor": "Cartographer"},
                      {"colour": "red", "player": "Bo"}]})
    ana = join_as(devices, server, "Ana", "blue", locale=locale, role=role, table=table_id)
    ana.click("#prompt button[data-value=explorers]")
    research = ana.locator("#actions details[data-type=research]")
    research.locator("summary").click()
    return table, ana, research


def test_research_names_the_cards_drawn_and_keeps_one_with_its_powers(devices, server):
    """"Explorers Guild" > "Research": pay 3 gold, draw 1 card (+ Research expertise), keep
    one. The phones offered no research: its cards are physical, and only a typed command
    could name them."""
    table, ana, research = researching(server, devices)
    expect(research).to_contain_text("costs 3 gold: name the 2 cards drawn")
    research.get_by_label("Card drawn 1").fill("Chart")
    research.get_by_label("Card drawn 2").fill("Map")
    research.locator("[data-key='research-keep 1']").check()
    research.get_by_role("button", name="Add a power").click()
    research.get_by_label("Power", exact=True).select_option(label="more dice")
    research.locator("[data-key='amount research 0']").fill("1")
    research.locator("[data-key='endeavor research 0']").select_option(label="exploration")
    research.get_by_role("button", name="Research", exact=True).click()
    expect(ana.locator("#actions details[data-type=research]")).to_have_count(0)
    (card,) = table.state.provinces["blue"].research
    assert card.name == "Map"
    assert [e.to_json() for e in card.effects] == [
        {"effect": "dice", "endeavor": "explore", "amount": 1}]
    assert table.state.provinces["blue"].gold == 2
    # the card kept is on the province card, with its powers (nothing showed it)
    expect(ana.locator("#provinces [data-province=blue] .research")).to_have_text(
        "Research cards: Map (+1 die for exploration)")


@pytest.mark.parametrize(("locale", "role", "line"), [
    pytest.param("en-GB", "player", "Research cards: Chart (sail +1, Raid +1), "
                 "Map (as flagship, a weak success counts as 1 success)", id="English"),
    pytest.param("fr-FR", "joueur", "Cartes Recherche\u00a0: Carte marine (navigation +1, "
                 "Piller +1), Map (vaisseau amiral\u00a0: «\u00a0faible succès\u00a0» compte "
                 "pour 1 succès)", id="French"),
])
def test_the_research_cards_kept_are_shown_with_their_powers(devices, server, locale, role,
                                                              line):
    """"Research": a card kept stays in the treasure room, its powers in play. The state had
    the cards and their powers; no page showed them."""
    chart = "Carte marine" if locale == "fr-FR" else "Chart"
    table_id, _ = new_table(server, {"provinces": [
        {"colour": "blue", "player": "Ana", "research": [
            {"name": chart, "effects": [{"effect": "stat", "stat": "sail", "amount": 1},
                                        {"effect": "expertise", "kind": "raid", "amount": 1}]},
            {"name": "Map", "effects": [{"effect": "face_value", "kind": "weak", "value": 1,
                                         "role": "flagship"}]}]},
        {"colour": "red", "player": "Bo"}]})
    ana = join_as(devices, server, "Ana", "blue", locale=locale, role=role, table=table_id)
    expect(ana.locator("#provinces [data-province=blue] .research")).to_have_text(line)



@pytest.mark.parametrize(("locale", "role", "line"), [
    pytest.param("en-GB", "player", "Treasures: Golden Idol (Taxes +1, +1 die for raid), "
                 "Pearl", id="English"),
    pytest.param("fr-FR", "joueur", "Trésors\u00a0: Golden Idol (Taxer +1, +1 dé en pillage), "
                 "Pearl", id="French"),
])
def test_the_treasures_held_are_shown_with_their_powers(devices, server, locale, role, line):
    """A treasure held gives its powers ("Treasures"; the engine counts its ``effects``).
    The province card named the treasures and no more; it says their powers as it says a
    research card's."""
    table_id, _ = new_table(server, {"provinces": [
        {"colour": "blue", "player": "Ana", "treasures": [
            {"name": "Golden Idol", "glory": 2, "effects": [
                {"effect": "expertise", "kind": "taxes", "amount": 1},
                {"effect": "dice", "endeavor": "raid", "amount": 1}]},
            {"name": "Pearl", "glory": 1}]},
        {"colour": "red", "player": "Bo"}]})
    ana = join_as(devices, server, "Ana", "blue", locale=locale, role=role, table=table_id)
    expect(ana.locator("#provinces [data-province=blue] .treasures")).to_have_text(line)

def test_research_in_french_keeps_what_is_typed_while_another_phone_acts(devices, server):
    table, ana, research = researching(server, devices, locale="fr-FR", role="joueur")
    expect(research).to_contain_text("coûte 3 or\u00a0: nommez les 2 cartes piochées")
    research.get_by_label("Carte piochée 1").fill("Carte marine")
    table.apply(Command("give_reputation", {"to": "red", "region": "red"}, "blue"))
    expect(ana.locator("#history-list")).to_contain_text("jeton Réputation")  # a new version
    expect(research.get_by_label("Carte piochée 1")).to_have_value("Carte marine")


@pytest.mark.parametrize(("locale", "role", "button", "summary"), [
    pytest.param("en-GB", "player", "to Green, for Green province",
                 "1 reputation token, if Green accepts", id="English"),
    pytest.param("fr-FR", "joueur", "à Vert, pour la province verte",
                 "1 jeton Réputation, si Vert accepte", id="French"),
])
def test_a_reputation_token_is_given_for_a_region(devices, server, locale, role, button,
                                                   summary):
    """"Tokens" > "Reputation Tokens": a token given to a player who accepts lends one of
    their regions' powers for the turn. The phones did not offer it."""
    ana = join_as(devices, server, "Ana", "blue", locale=locale, role=role)
    give = ana.locator("#actions details[data-type=give_reputation]")
    give.locator("summary").click()
    choice = give.get_by_role("button").filter(has_text=button)
    expect(choice).to_contain_text(summary)
    choice.click()
    expect(ana.locator("#history-list")).to_contain_text(  # to the player, for their region
        "a reputation token to Green to use Green province's powers" if locale == "en-GB"
        else "à Vert pour utiliser les pouvoirs de la province verte")
    state = demo(server).state
    assert (state.provinces["blue"].reputation, state.turn.borrowed) == (1, ["green"])


@pytest.mark.parametrize(("locale", "role", "empty", "first", "send", "add", "shown"), [
    pytest.param("en-GB", "player", "Left empty: an unnamed damage card", "Broken mast", "Choose",
                 "Add a power", "2 damage cards: Broken mast (sail -1), Holed (hold -1)",
                 id="English: a card named, with its powers"),
    pytest.param("fr-FR", "joueur", "Laissé vide\u00a0: une carte Dégât sans nom", "", "Choisir",
                 None,
                 "2 cartes Dégât\u00a0: sans nom, Holed (cale -1)",
                 id="French: a card left unnamed"),
])
def test_a_damage_card_drawn_is_named_with_its_powers(devices, server, locale, role, empty,
                                                      first, send, add, shown):
    """"Endeavors and Damage" > "Damage": a damage card is drawn for each point not taken by
    an upgrade, and its powers apply to the ship. The page sent the draw with neither the
    card's name nor its powers. A name left empty is any card ("damage", the engine's
    default, never shown to a French player); a card the setup knows by its name ("Holed")
    brings its own powers when none are typed. The ship card lists each card with its
    powers (it listed the named ones only, without their powers)."""
    table_id, table = damage_to_take(server, damage_cards=[
        {"name": "Holed", "effects": [{"effect": "stat", "stat": "hold", "amount": -1}]}])
    ana = join_as(devices, server, "Ana", "blue", locale=locale, role=role, table=table_id)
    prompt = ana.locator("#prompt")
    for name, power in ((first, add), ("Holed", None)):
        prompt.locator("button[data-value='card:blue-1']").click()
        form = prompt.locator("form.option-inputs")
        field = form.locator("input[name=card]")
        expect(field).to_have_value("")
        expect(form.locator(".input-hint")).to_have_text(empty)  # the default, under the field
        field.fill(name)
        if power:  # a row's first power: the ship's sail -1
            form.get_by_role("button", name=power).click()
        form.get_by_role("button", name=send).click()
        expect(form).to_have_count(0)
    expect(prompt).to_be_hidden()
    damage = [(d.name, [e.to_json() for e in d.effects])
              for d in table.state.ships["blue-1"].damage]
    assert damage == [
        (first or "damage", [{"effect": "stat", "stat": "sail", "amount": -1}] if add else []),
        ("Holed", [{"effect": "stat", "stat": "hold", "amount": -1}])]
    expect(ana.locator("#provinces [data-ship=blue-1] .damage")).to_have_text(shown)


@pytest.mark.parametrize(("locale", "role", "line"), [
    pytest.param("en-GB", "player", "Iron isle: Bo 2 on the garrison, Bo 1 on site 2",
                 id="English"),
    pytest.param("fr-FR", "joueur", "Iron isle: Bo 2 sur la garnison, Bo 1 sur le lieu 2",
                 id="French"),
])
def test_the_enmity_card_names_the_site_an_enmity_token_is_on(devices, server, locale, role,
                                                                line):
    """"Enmity": a token goes on the site raided. The card said "Bo 1 on a site", « sur un
    site » (the rulebook's « lieu »), and not which: the site is named as the page names
    sites everywhere else."""
    table_id, _ = new_table(server, {
        "provinces": [{"colour": "blue", "player": "Ana"}, {"colour": "red", "player": "Bo"}],
        "islands": [{"id": "isle", "name": "Iron isle", "space": "(0, 2, 2)",
                     "garrison_enmity": {"red": 2},
                     "sites": [{"name": "1"}, {"name": "2", "enmity": {"red": 1}}]}]})
    ana = join_as(devices, server, "Ana", "blue", locale=locale, role=role, table=table_id)
    expect(ana.locator("#enmity li").first).to_have_text(line)


@pytest.mark.parametrize(("locale", "role", "word"), [
    pytest.param("en-GB", "player", "dangerous", id="English"),
    pytest.param("fr-FR", "joueur", "lieu risqué", id="French"),
])
def test_the_builder_says_a_dangerous_site_once(devices, server, locale, role, word):
    """A dangerous target in the endeavor builder read "…defense 5 (dangerous)" and then a
    "dangerous" badge, « (lieu risqué) » then « lieu risqué »: said once."""
    table_id, table = new_table(server, {
        "provinces": [{"colour": "blue", "player": "Ana",
                       "ships": [{"location": "isle"}, {"location": "isle"}]},
                      {"colour": "red", "player": "Bo"}],
        "islands": [{"id": "isle", "name": "Iron isle", "space": "(0, 2, 2)",
                     "sites": [{"name": "1", "defense": 5, "dangerous": True},
                               {"name": "2", "defense": 3}]}]})
    table.apply(Command("hire_guild", {"guild": "explorers"}, "blue"))
    ana = join_as(devices, server, "Ana", "blue", locale=locale, role=role, table=table_id)
    builder = ana.locator("#builder")
    builder.locator("button[data-kind=explore]").click()
    builder.locator("button[data-ship=blue-1]").click()
    dangerous = builder.locator("button[data-site='isle/1']")
    expect(dangerous).to_contain_text(word)
    assert dangerous.inner_text().count(word) == 1, dangerous.inner_text()
    expect(builder.locator("button[data-site='isle/2']")).not_to_contain_text(word)


def test_the_sail_picks_are_kept_across_a_reload_until_sent(devices, server):
    """A phone that slept and reloaded (or a pull-to-refresh) found the sail form back at
    its defaults: a ship's place and the goods ticked are kept in the tab for that point of
    the turn, and forgotten once the sail is sent."""
    table_id, table = new_table(server, {
        "provinces": [{"colour": "blue", "player": "Ana", "warehouse": ["wood"]},
                      {"colour": "red", "player": "Bo"}],
        "islands": [{"id": "isle", "name": "Iron isle", "space": "(0, 2, 2)"}]})
    table.apply(Command("hire_guild", {"guild": "explorers"}, "blue"))
    ana = join_as(devices, server, "Ana", "blue", table=table_id)
    sail = ana.locator("#actions details[data-type=sail]")
    ship = sail.locator("select[data-ship=blue-1]")
    load = sail.locator("[data-key='goods before']").get_by_label("Load the wood onto Blue ship 1")
    sail.locator("summary").click()
    ship.select_option("isle")
    load.check()
    ana.reload()
    expect(sail).to_have_attribute("open", "")  # the picks shown, not shut away
    expect(ship).to_have_value("isle")
    expect(load).to_be_checked()
    expect(sail.locator("select[data-ship=blue-2]")).to_have_value("")
    sail.get_by_role("button", name="Sail").click()
    expect(sail).to_have_count(0)
    assert table.state.ships["blue-1"].location == "isle"
    assert table.state.ships["blue-1"].goods == ["wood"]
    table.undo("blue")  # the same point of the turn again: the picks sent are not kept
    ana.reload()
    sail.locator("summary").click()
    expect(ship).to_have_value("")
    expect(load).not_to_be_checked()


def test_the_builder_picks_are_kept_across_a_reload_until_sent(devices, server):
    """The endeavor builder's kind, flagship and site came back at their defaults after a
    reload: kept in the tab, with the odds of the site picked, and forgotten once the
    endeavor is started."""
    table_id, table = new_table(server, {
        "provinces": [{"colour": "blue", "player": "Ana",
                       "ships": [{"location": "isle"}, {"location": "isle"}]},
                      {"colour": "red", "player": "Bo"}],
        "islands": [{"id": "isle", "name": "Iron isle", "space": "(0, 2, 2)",
                     "sites": [{"name": "1", "defense": 5}, {"name": "2", "defense": 3}]}]})
    table.apply(Command("hire_guild", {"guild": "explorers"}, "blue"))
    ana = join_as(devices, server, "Ana", "blue", table=table_id)
    builder = ana.locator("#builder")
    picks = ("button[data-kind=explore]", "button[data-ship=blue-2]",
             "button[data-site='isle/2']")
    for picked in picks:
        builder.locator(picked).click()
        expect(builder.locator(picked)).to_have_attribute("aria-pressed", "true")
    expect(ana.locator("#builder-preview")).to_contain_text("defense 3")
    ana.reload()
    for picked in picks:
        expect(builder.locator(picked)).to_have_attribute("aria-pressed", "true")
    expect(builder.locator("button[data-ship=blue-1]")).to_have_attribute("aria-pressed",
                                                                          "false")
    expect(ana.locator("#builder-preview")).to_contain_text("defense 3")
    ana.locator("#start-endeavor").click()
    expect(ana.locator("#prompt")).to_be_visible()  # the roll asked
    assert table.state.endeavor.flagship == "blue-2"
    table.undo("blue")  # the same point of the turn again: the picks sent are not kept
    ana.reload()
    expect(builder.locator("button[data-ship=blue-1]")).to_have_attribute("aria-pressed",
                                                                          "true")
    expect(builder.locator("button[data-site]").first).to_be_visible()
    expect(builder.locator("button[data-site][aria-pressed=true]")).to_have_count(0)
    expect(ana.locator("#builder-preview")).to_have_count(0)


def test_a_damage_card_name_typed_stays_past_a_conflict(devices, server):
    """A damage card's name typed, sent as another phone took a damage point meanwhile:
    refused as a conflict (409), the page redraws the game as it is now and the name typed
    was gone. The same card is still to draw: the form is open again with the name."""
    table_id, table = damage_to_take(server)
    ana = join_as(devices, server, "Ana", "blue", table=table_id)
    prompt = ana.locator("#prompt")
    prompt.locator("button[data-value='card:blue-1']").click()
    form = prompt.locator("form.option-inputs")
    form.locator("input[name=card]").fill("Broken mast")
    moved = []

    def another_phone_first(route):
        if not moved and route.request.method == "POST":  # just before this phone's
            table.apply(Command("assign_damage", {"choice": "card:blue-1"}, "blue"))
            moved.append(True)
        route.continue_()

    ana.route(re.compile(r"/commands$"), another_phone_first)
    form.get_by_role("button", name="Choose").click()
    expect(ana.locator("#notice")).to_contain_text("The table changed meanwhile")
    expect(ana.locator("#status")).to_have_attribute("data-version", str(table.version))
    expect(form.locator("input[name=card]")).to_have_value("Broken mast")
    assert [d.name for d in table.state.ships["blue-1"].damage] == ["damage"]
    form.get_by_role("button", name="Choose").click()  # sent again: it goes through
    expect(prompt).to_be_hidden()
    assert [d.name for d in table.state.ships["blue-1"].damage] == ["damage", "Broken mast"]
