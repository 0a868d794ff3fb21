"""The table page on a 390x844 phone (headless Chromium, a real server): what a QA table
found wider than the screen, cut short or drawn wrong on a phone of that size."""

from __future__ import annotations

import pytest

from tests.e2e.browser.server import TV, WAIT
from tests.e2e.browser.test_phone_pages import join_as
from tests.e2e.browser.test_turn_forms import damage_to_take

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

pytestmark = pytest.mark.slow
expect.set_options(timeout=WAIT)

PHONE_390 = {"width": 390, "height": 844}


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.parametrize(("locale", "role", "button"), [
    pytest.param("en-GB", "player", "Sail", id="English"),
    pytest.param("fr-FR", "joueur", "Naviguer", id="French"),
])
def test_the_sail_form_fits_a_390_px_phone(devices, server, locale, role, button):
    """The Sail form took the width of its longest option ("stops at sea after 2 spaces,
    toward Example isle B"): its selects and its button ran past the card's right edge, the
    page 533 px wide in English, 455 px in French. A select fits its card; the select cuts
    its own options short."""
    ana = join_as(devices, server, "Ana", "blue", locale=locale, role=role,
                  viewport=PHONE_390)
    ana.click("#prompt button[data-value=explorers]")
    sail = ana.locator("#actions details[data-type=sail]")
    sail.locator("summary").click()
    expect(sail.get_by_role("button", name=button)).to_be_visible()
    assert page_width(ana) <= 390
    card = ana.locator("#actions").bounding_box()
    for control in sail.locator("select, button").all():
        box = control.bounding_box()
        assert box["x"] + box["width"] <= card["x"] + card["width"] + 0.5


def damage_to_name(server, devices, locale: str, role: str):
    """Ana's exploration of a defense-5 site with 3 standard successes: 2 damage to take;
    her phone at 390 px, the prompt's first card drawn for Blue ship 1 opened."""
    table_id, _table = damage_to_take(server)
    ana = join_as(devices, server, "Ana", "blue", locale=locale, role=role, table=table_id,
                  viewport=PHONE_390)
    ana.locator("#prompt button[data-value='card:blue-1']").click()
    return ana, ana.locator("#prompt form.option-inputs")


@pytest.mark.parametrize(("locale", "role", "add"), [
    pytest.param("en-GB", "player", "Add a power", id="English"),
    pytest.param("fr-FR", "joueur", "Ajouter un pouvoir", id="French"),
])
def test_a_damage_cards_powers_fit_a_390_px_phone(devices, server, locale, role, add):
    """The same with the powers of a damage card drawn: a power's select, « une valeur du
    bateau change », pushed the French page to 457 px."""
    ana, form = damage_to_name(server, devices, locale, role)
    form.get_by_role("button", name=add).click()
    expect(form.locator(".effect-row")).to_have_count(1)
    assert page_width(ana) <= 390


@pytest.mark.parametrize(("locale", "role", "hint"), [
    pytest.param("en-GB", "player", "Left empty: an unnamed damage card", id="English"),
    pytest.param("fr-FR", "joueur", "Laissé vide\u00a0: une carte Dégât sans nom", id="French"),
])
def test_a_damage_cards_name_field_says_its_default_in_full(devices, server, locale, role, hint):
    """The name field's placeholder said the default, cut off at 390 px ("none: an unnamed
    damage car…"): a word in the field, the default on a line under it, in full."""
    ana, form = damage_to_name(server, devices, locale, role)
    field = form.locator("input[name=card]")
    expect(field).to_be_visible()
    room = field.evaluate("""(f) => {
        const style = getComputedStyle(f);
        const ctx = document.createElement("canvas").getContext("2d");
        ctx.font = style.font;
        return f.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
            - ctx.measureText(f.placeholder).width;
    }""")
    assert room >= 0, f"the placeholder {field.get_attribute('placeholder')!r} is cut short"
    line = form.locator(".input-hint")
    expect(line).to_have_text(hint)
    assert line.evaluate("(e) => e.scrollWidth <= e.clientWidth + 1")
    assert field.evaluate("(f) => document.getElementById(f.getAttribute('aria-describedby'))"
                          ".textContent") == hint


def test_a_glory_bar_at_no_glory_is_empty(devices, server):
    """At 0 glory the bar showed a sliver of the province's colour (the fill's 3 px floor),
    on the phones and the TV: empty at 0, some colour from 1 on."""
    table = server.services.tables.get(server.table)
    phone = devices(viewport=PHONE_390)
    phone.goto(server.url(f"/t/{server.table}"))
    tv = devices(viewport=TV)
    tv.goto(server.url(f"/t/{server.table}/tv"))
    for page in (phone, tv):
        expect(page.locator(".glory-row").first).to_be_visible()
        filled = page.evaluate("""() => [...document.querySelectorAll('.glory-bar')].map((b) => {
            const fill = b.querySelector('.glory-fill');
            return [Number(b.getAttribute('aria-valuenow')),
                    fill ? fill.getBoundingClientRect().width : 0];
        })""")
        assert sorted(glory for glory, _ in filled) == sorted(
            p.glory for p in table.state.provinces.values())
        assert any(glory == 0 for glory, _ in filled) and any(glory for glory, _ in filled)
        assert all((width > 0) == (glory > 0) for glory, width in filled), filled
