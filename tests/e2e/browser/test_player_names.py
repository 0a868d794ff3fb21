"""Players' names in a real browser: long names wrap or are cut short with "…" (the home
page's table list, the TV's provinces), a right-to-left override in one name does not turn
the others round, the home page and the join page say their refusals in the page's language,
and a province taken meanwhile is named by its colour and greyed out on the join form."""

from __future__ import annotations

import pytest

from tests.e2e.browser.server import WAIT

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

pytestmark = pytest.mark.slow
expect.set_options(timeout=WAIT)

LONG = "W" * 40  # the longest name a setup takes, in the widest letter, with no space
EVIL = "evil\u202e"  # a right-to-left override left open at the end of a name


def table_of(server, *players: str) -> str:
    table = server.services.tables.create("seafall", {"provinces": [
        {"colour": c, "player": p} for c, p in zip(("blue", "green", "red"), players,
                                                    strict=True)]})
    return table.session_id


def test_the_home_list_wraps_long_names_and_keeps_each_names_direction(devices, server):
    table_of(server, LONG, "M" * 40, "H" * 40)
    table_of(server, EVIL, "a", "b c")
    page = devices()
    page.goto(server.url("/"))
    expect(page.locator(".tables .table-link")).to_have_count(3)
    widths = page.evaluate("""[...document.querySelectorAll('.tables .table-link')]
        .map((a) => a.getBoundingClientRect().right)""")
    assert max(widths) <= 360  # the cards stay on the phone's screen
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    names = page.locator(".table-link:has-text('evil') .table-players bdi")
    expect(names).to_have_count(3)
    assert names.evaluate_all("(n) => n.map((b) => getComputedStyle(b).unicodeBidi)") == \
        ["isolate"] * 3
    boxes = names.evaluate_all("(n) => n.map((b) => b.getBoundingClientRect().left)")
    assert boxes == sorted(boxes)  # "evil, a, b c" reads left to right, not "c b ,a ,live"


def test_the_tv_cuts_a_long_name_short_with_an_ellipsis(devices, server):
    table = table_of(server, LONG, "Ann", EVIL)
    page = devices(viewport={"width": 1280, "height": 720})
    page.goto(server.url(f"/t/{table}/tv"))
    name = page.locator(".tv-province[data-province=blue] h3 .player-name")
    expect(name).to_have_text(LONG)
    # found and measured in one task: the TV redraws its cards as the history comes in, and
    # a node found first was measured after it was replaced (no style at all)
    cut = page.evaluate("""(sel) => { const n = document.querySelector(sel); return {
        style: getComputedStyle(n).textOverflow,
        cut: n.scrollWidth > n.clientWidth, right: n.getBoundingClientRect().right,
        card: n.closest('.tv-province').getBoundingClientRect().right,
        bidi: getComputedStyle(n).unicodeBidi}; }""",
                        ".tv-province[data-province=blue] h3 .player-name")
    assert cut["style"] == "ellipsis" and cut["cut"] and cut["right"] <= cut["card"]
    assert cut["bidi"] == "isolate"
    grid = page.locator(".tv-grid").bounding_box()
    assert grid and grid["width"] <= 1280  # the provinces' column keeps its width


def test_the_home_page_says_how_many_provinces_in_french(devices, server):
    page = devices("fr-FR")
    page.goto(server.url("/"))
    page.uncheck("#create-form input[name=demo_setup]")
    page.fill("#create-form input[name=player-blue]", "Ana")
    assert page.get_attribute("#create-form input[name=player-blue]", "maxlength") == "40"
    page.click("#create-form button[type=submit]")
    expect(page.locator("#create-result .notice.error")).to_contain_text(
        "une partie de SeaFall se joue avec 3 à 5 provinces")
    page.fill("#create-form input[name=player-green]", "ana")
    page.fill("#create-form input[name=player-red]", "Cy")
    page.click("#create-form button[type=submit]")
    expect(page.locator("#create-result .notice.error")).to_contain_text(
        "deux provinces ont le même nom de joueur (ana)")


@pytest.mark.parametrize("locale, said", [
    ("fr-FR", "Vert est déjà joué par Bo"),
    ("en-GB", "Green is already played by Bo"),
])
def test_a_province_taken_meanwhile_is_named_by_its_colour_and_greyed_out(
        devices, server, locale, said):
    late = devices(locale)
    late.goto(server.join_link())  # the form is drawn while green is free
    first = devices()
    first.goto(server.join_link())
    first.fill("#join-name", "Bo")
    first.check("input[name=province][value=green]")
    first.click("#join-form button[type=submit]")
    first.wait_for_url(f"**/t/{server.table}")
    late.fill("#join-name", "Paul")
    late.check("input[name=province][value=green]")
    late.click("#join-form button[type=submit]")
    expect(late.locator("#notice .notice.error")).to_contain_text(said)
    green = late.locator("input[name=province][value=green]")
    expect(green).to_be_disabled()
    expect(green).not_to_be_checked()
    expect(late.locator("label.pick:has(input[value=green]) .muted")).to_contain_text("Bo")
