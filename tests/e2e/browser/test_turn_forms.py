"""The turn's actions that need more than a tap, in a real browser (headless Chromium at
360x640, a real server): stopping a ship at sea. It was a typed JSON command before."""

from __future__ import annotations

import pytest

from tests.e2e.browser.server import WAIT
from tests.e2e.browser.test_phone_pages import join_as

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

pytestmark = pytest.mark.slow
expect.set_options(timeout=WAIT)


def demo(server):
    return server.services.tables.get(server.table)


@pytest.mark.parametrize(("locale", "role", "label", "button"), [
    pytest.param("en-GB", "player", "stops at sea after 1 space, toward Green province", "Sail",
                 id="English"),
    pytest.param("fr-FR", "joueur", "s’arrête en mer après 1 case, en direction de la province "
                 "verte", "Naviguer", id="French, with the province's article"),
])
def test_a_ship_stops_at_sea_short_of_a_place(devices, server, locale, role, label, button):
    """"Ships and Sailing" > "Sailing": a ship moves up to its sail value. The sail form
    listed only the places in reach: no ship could stop at sea."""
    ana = join_as(devices, server, "Ana", "blue", locale=locale, role=role)
    ana.click("#prompt button[data-value=explorers]")
    sail = ana.locator("#actions details[data-type=sail]")
    sail.locator("summary").click()
    sail.locator("select[data-ship=blue-1]").select_option(label=label)
    sail.get_by_role("button", name=button).click()
    expect(ana.locator("#actions details[data-type=sail]")).to_have_count(0)
    assert demo(server).state.ships["blue-1"].location == "coastal_waters"
