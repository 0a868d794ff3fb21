"""Setting up the board from the host's phone (docs/ui.md, the table page's "Set up the
board"), in a real browser (headless Chromium at 360x640, a real server). A table made on
the home page without the demonstration setup (the only way to play four or five) started
with an empty board: no islands, cards or leader values, a first winter where islands
produced nothing and a round 1 with nothing to explore. The host now enters them on the
table page, and the island is sailed to and offered for exploring in round 1."""

from __future__ import annotations

import pytest

from tests.e2e.browser.server import WAIT

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

pytestmark = pytest.mark.slow
expect.set_options(timeout=WAIT)

WORDS = {
    "en-GB": {"set": "Set", "leader": "Ana takes the leader card's 2 reputation and 3 fortune",
              "island": "Add the island", "card": "Add", "site": "site 1 of Tortuga",
              "produced": "spice", "undo": "none yet", "sail": "Sail",
              "title": "Set up the board"},
    "fr-FR": {"set": "Fixer",
              "leader": "Ana prend la réputation et la chance de sa carte Leadeur : 2 et 3",
              "island": "Ajouter l’île", "card": "Ajouter", "site": "lieu 1 de Tortuga",
              "produced": "épice", "undo": "aucun pour l’instant", "sail": "Naviguer",
              "title": "Mettre en place le plateau"},
}


@pytest.mark.parametrize("locale", [pytest.param("en-GB", id="English"),
                                    pytest.param("fr-FR", id="French")])
def test_the_host_sets_up_the_board_of_a_four_player_table_and_explores_in_round_1(
        devices, server, locale):
    words = WORDS[locale]
    page = devices(locale)
    page.goto(server.url("/"))
    page.uncheck("#create-form input[name=demo_setup]")
    for colour, name in (("blue", "Ana"), ("gray", "Cy"), ("red", "Bo"), ("yellow", "Zoe")):
        page.fill(f"#create-form input[name=player-{colour}]", name)
    before = {t.id for t in server.services.store.sessions()}
    page.click("#create-form button[type=submit]")
    page.locator("#create-result a.button").click()
    (made,) = {t.id for t in server.services.store.sessions()} - before
    table = server.services.tables.get

    card = page.locator("#board-setup")
    expect(card).to_be_visible()
    expect(card.locator("summary h2").first).to_have_text(words["title"])
    # above the forum's prompt: the board is set up before the winter's production
    assert page.evaluate("document.querySelector('#board-setup').nextElementSibling.id") \
        == "prompt"

    # the leader card's reputation and fortune: tokens as many
    leader = card.locator("form.leader[data-province=blue]")
    leader.locator("[data-key='leader-rep blue']").fill("2")
    leader.locator("[data-key='leader-fortune blue']").fill("3")
    leader.get_by_role("button", name=words["set"]).click()
    expect(page.locator("#history-list")).to_contain_text(words["leader"])
    blue = table(made).state.provinces["blue"]
    assert (blue.leader_reputation, blue.reputation, blue.fortune) == (2, 2, 3)

    # an island with two sites, on a hex next to the coastal waters
    island = card.locator("#board-island")
    island.locator("[data-key=island-name]").fill("Tortuga")
    island.locator("[data-key=island-garrison]").fill("1")
    island.locator("[data-key=island-space]").select_option("(0, 2, 2)")
    island.locator("[data-key='site-defense 0']").fill("4")
    island.locator("[data-key=site-add]").click()
    island.locator("[data-key='site-kind 1']").select_option("good")
    island.locator("[data-key='site-colour 1']").select_option("spice")
    island.locator("[data-key='site-defense 1']").fill("5")
    island.locator("[data-key='site-dangerous 1']").check()
    island.get_by_role("button", name=words["island"]).click()
    expect(card.locator("li[data-island=isle-1]")).to_contain_text("Tortuga")
    expect(island.locator("[data-key=island-name]")).to_have_value("")  # ready for the next
    sites = table(made).state.sites
    assert (sites["isle-1/1"].kind, sites["isle-1/1"].symbol, sites["isle-1/1"].defense) == (
        "unexplored", "sun", 4)
    assert (sites["isle-1/2"].colour, sites["isle-1/2"].dangerous) == ("spice", True)

    # a card typed, then taken back by Undo like any other command
    treasure = card.locator("form[data-card=treasure]")
    treasure.locator("[data-key=treasure-name]").fill("Idol")
    treasure.locator("[data-key=treasure-cost]").fill("12")
    treasure.get_by_role("button", name=words["card"], exact=True).click()
    expect(card.locator(".board-cards")).to_contain_text("Idol")
    page.click("#undo")
    expect(card.locator(".board-cards")).not_to_contain_text("Idol")
    expect(card.locator(".board-cards dd").nth(2)).to_have_text(words["undo"])
    event = card.locator("form[data-card=event]")
    event.locator("[data-key=event-name]").fill("Storm")
    event.get_by_role("button", name=words["card"], exact=True).click()
    expect(card.locator(".board-cards dd").first).to_have_text("Storm")

    # the forum dealt: the winter ends, the island produces, round 1 reveals the event
    deck = len(table(made).state.advisor_deck)
    for dealt in range(1, 6):
        page.locator("#prompt button.choice").first.click()
        if dealt < 5:  # the advisor dealt is no longer offered
            expect(page.locator("#prompt button.choice")).to_have_count(deck - dealt)
    expect(page.locator("#prompt button[data-value=Storm]")).to_be_visible()
    assert table(made).state.sites["isle-1/2"].good_present
    page.click("#prompt button[data-value=Storm]")
    # afterwards the card is folded, lower down
    expect(card.locator("details[data-key=board-setup]")).to_have_count(1)
    assert card.locator("details[data-key=board-setup]").get_attribute("open") is None
    assert page.evaluate("document.querySelector('#explored').nextElementSibling.id") \
        == "board-setup"

    # Ana (blue, the host's phone acts for all) sails to Tortuga and is offered its site
    page.click("#prompt button[data-value=explorers]")
    sail = page.locator("#actions details[data-type=sail]")
    if sail.get_attribute("open") is None:
        sail.locator("summary").click()
    sail.locator("select[data-ship=blue-1]").select_option("isle-1")
    sail.get_by_role("button", name=words["sail"]).click()
    target = page.locator("#builder button[data-site='isle-1/1']")
    expect(target).to_contain_text(words["site"])
    target.click()
    page.click("#start-endeavor")
    expect(page.locator("#prompt")).to_be_visible()
    assert table(made).state.endeavor is not None
