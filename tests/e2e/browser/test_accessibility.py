"""The pages checked against the WCAG rules by axe-core (an npm package, injected into each
page in the real browser; docs/ui.md, "Accessibility"), in the states players see: the home
page with its forms open, the table page with a read waiting and a die's face picker open,
the photo page, the TV view, joining, a campaign, and the table page in French. Any
violation fails, with the rule, what it asks and where.

Without npm (``make test`` installs axe-core into ``tests/e2e/node`` when npm is there;
.ci/run installs Node) the test is skipped and says so; in CI (``CI`` set) it fails."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.e2e.browser.server import TV
from tests.e2e.browser.test_phone_pages import join_as, start_exploration, three_dice_read

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

AXE = Path(__file__).resolve().parents[1] / "node" / "node_modules" / "axe-core" / "axe.min.js"

RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help}; at ` +
    v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(", "));
}"""


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        reason = f"axe-core is not installed at {AXE} (make test installs it with npm)"
        if os.environ.get("CI"):
            pytest.fail(f"the accessibility test must run in CI: {reason}")
        pytest.skip(reason)
    return AXE.read_text(encoding="utf-8")


def violations(page, axe_source: str) -> list[str]:
    """What axe-core finds wrong with the page as it is now."""
    page.wait_for_load_state("networkidle")
    page.evaluate(axe_source)
    return page.evaluate(RUN)


def test_the_pages_players_see_meet_the_wcag_rules(devices, server, tmp_path, axe_source):
    found: dict[str, list[str]] = {}

    def check(page, where: str) -> None:
        if problems := violations(page, axe_source):
            found[where] = problems

    home = devices()
    home.goto(server.url("/"))
    home.check("#create-form input[name=campaign]")
    home.uncheck("#create-form input[name=demo_setup]")
    check(home, "the home page, its forms open")

    # the table page as a player sees a roll read from a photo that waits for the table:
    # three boxes for a roll of two, a die's face picker open, the whole picture open
    picture = three_dice_read(server, tmp_path)
    ana = join_as(devices, server, "Ana", "blue")
    start_exploration(ana)
    ana.set_input_files("#photo-input", str(picture))
    expect(ana.locator("#dice .read")).to_have_attribute("data-status", "pending")
    ana.locator("#dice .die-tile").nth(2).click()
    ana.locator("#dice .picker #not-a-die").click()
    expect(ana.locator("#dice .die-tile.not-a-die")).to_have_count(1)
    ana.locator("#dice .die-tile").first.click()
    ana.locator("#dice .read-frame summary").click()
    ana.locator("#dice-stats summary").click()
    check(ana, "the table page, a read waiting, a face picker open")

    ana.goto(server.url(f"/t/{server.table}/photo"))
    expect(ana.locator("#photo-prompt")).to_contain_text("Roll 2 dice")
    check(ana, "the photo page")

    tv = devices(viewport=TV)
    tv.goto(server.host_link())
    tv.goto(server.url(f"/t/{server.table}/tv"))
    expect(tv.locator("#tv-join")).to_be_visible()
    check(tv, "the TV view")

    newcomer = devices()
    newcomer.goto(server.join_link())
    check(newcomer, "joining")

    host = devices()
    host.goto(server.url("/"))
    host.check("#create-form input[name=campaign]")
    host.fill("#create-form input[name=campaign_name]", "Thursday nights")
    host.click("#create-form button[type=submit]")
    host.locator("#create-result").get_by_role("link", name="The campaign").click()
    expect(host.locator("#campaign-provinces article.province")).to_have_count(3)
    check(host, "a campaign, for its host")

    french = devices("fr-FR")
    french.goto(server.url(f"/t/{server.table}"))
    expect(french.locator("#dice .read")).to_be_visible()
    check(french, "the table page in French")

    assert not found, "\n".join(f"{where}:\n  " + "\n  ".join(problems)
                                for where, problems in found.items())


def _rgb(css: str) -> tuple[float, ...]:
    """The first colour in a computed CSS value ("rgb(15, 92, 122)", a box-shadow's ...)."""
    found = re.search(r"rgba?\(([\d.]+), ([\d.]+), ([\d.]+)", css)
    assert found, f"no colour in {css!r}"
    return tuple(float(x) for x in found.groups())


def contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The WCAG contrast ratio of two sRGB colours."""
    def luminance(rgb):
        lin = [(c / 255 / 12.92) if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4
               for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


FOCUS = """(el) => {
  const s = getComputedStyle(el);
  return {width: s.outlineWidth, style: s.outlineStyle, colour: s.outlineColor,
          offset: s.outlineOffset, halo: s.boxShadow, control: s.backgroundColor,
          page: getComputedStyle(document.body).backgroundColor,
          card: getComputedStyle(el.closest('.card') || document.body).backgroundColor,
          focused: el === document.activeElement && el.matches(':focus-visible')};
}"""


def test_a_button_reached_by_the_keyboard_shows_where_the_keyboard_is(devices, server):
    """The focused prompt button showed the browser's 1 px near-black ring on its dark teal
    (2.5:1): now a 3 px light ring, 7:1 and more on the button, in a dark halo, 3:1 and
    more on the page around it (WCAG 2.4.7, 1.4.11)."""
    ana = join_as(devices, server, "Ana", "blue")
    merchants = ana.locator("#prompt button[data-value=merchants]")
    merchants.focus()
    ana.keyboard.press("Tab")  # the keyboard's way onto the button, not a script's
    ana.keyboard.press("Shift+Tab")
    ring = merchants.evaluate(FOCUS)
    assert ring["focused"], "the keyboard is not on Merchants"
    assert ring["style"] == "solid" and float(ring["width"].rstrip("px")) >= 3
    assert float(ring["offset"].rstrip("px")) >= 2
    colour, halo = _rgb(ring["colour"]), _rgb(ring["halo"])
    assert contrast(colour, _rgb(ring["control"])) >= 3, ring  # on the button
    assert contrast(colour, halo) >= 3, ring  # the ring in its halo
    for around in (ring["page"], ring["card"]):  # the halo on the page and the prompt's card
        assert contrast(halo, _rgb(around)) >= 3, ring
    # a light control on a light card: the halo makes the ring seen
    ana.locator("#undo").evaluate("(el) => { el.disabled = false; }")
    ana.locator("#undo").focus()
    ana.keyboard.press("Tab")
    ana.keyboard.press("Shift+Tab")
    ring = ana.locator("#undo").evaluate(FOCUS)
    assert ring["focused"] and float(ring["width"].rstrip("px")) >= 3
    assert contrast(_rgb(ring["halo"]), _rgb(ring["control"])) >= 3, ring
    assert contrast(_rgb(ring["halo"]), _rgb(ring["card"])) >= 3, ring


def test_buttons_are_named_for_a_screen_reader_by_what_they_do(devices, server):
    """The host's "Free it" buttons were heard three times alike, and Undo and Redo with
    their arrows ("↶ Undo"): each freeing button names its province, the arrows are not read."""
    join_as(devices, server, "Ben", "green")
    join_as(devices, server, "Ana", "blue")
    host = devices()
    host.goto(server.host_link())
    host.locator("#seat summary").click()
    expect(host.get_by_role("button", name="Free Blue's seat", exact=True)).to_have_attribute(
        "data-seat", "blue")
    expect(host.get_by_role("button", name="Free Green's seat", exact=True)).to_have_attribute(
        "data-seat", "green")
    expect(host.get_by_role("button", name="Free it")).to_have_count(0)
    expect(host.get_by_role("button", name="Undo", exact=True)).to_have_attribute("id", "undo")
    expect(host.get_by_role("button", name="Redo", exact=True)).to_have_attribute("id", "redo")
    expect(host.locator("#undo")).to_contain_text("↶")  # still seen

    french = devices("fr-FR")
    french.goto(server.host_link())
    french.locator("#seat summary").click()
    expect(french.get_by_role("button", name="Libérer la place de Bleu", exact=True)
           ).to_have_attribute("data-seat", "blue")
    expect(french.get_by_role("button", name="Annuler", exact=True)).to_have_attribute(
        "id", "undo")


TV_TEXT = """() => {
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) continue;
    if (getComputedStyle(el).visibility === 'hidden') continue;
    out.push({what: el.tagName + '.' + el.className + ' ' + el.textContent.trim().slice(0, 40),
              px: parseFloat(getComputedStyle(el).fontSize),
              line: !!el.closest('.tv-ships, #tv-events')});
  }
  return out;
}"""
CLIPPED = """() => [...document.querySelectorAll(
    '.tv-grid > *, .tv-province, .tv-ships, #tv-events')]
  .filter((el) => el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)
  .map((el) => el.className || el.id)"""
SUNK = """(el) => {
  let opacity = 1;
  for (let e = el; e; e = e.parentElement) opacity *= parseFloat(getComputedStyle(e).opacity);
  return {colour: getComputedStyle(el).color, opacity,
          card: getComputedStyle(el.closest('.tv-province')).backgroundColor,
          struck: getComputedStyle(el).textDecorationLine};
}"""


@pytest.mark.parametrize("locale,sunk", [("en-GB", "Green ship 2 · sunk"),
                                         ("fr-FR", "Bateau vert 2 · coulé")])
def test_the_tv_is_read_across_the_table_on_a_small_screen(devices, server, locale, sunk):
    """The TV's sizes follow the screen's width: at 1280x720 the ship lines were 11 px and
    the recent events 13 px. No word on it is under 16 px, its lines are 18 px and up, and
    it still fits its screen; a sunk ship, struck through, was dimmed to 3:1 on its card."""
    from companion.engine import Command
    from companion.games.seafall.setup import demo_options

    options = demo_options()
    options["provinces"][1]["ships"][1]["sunk"] = True
    table = server.services.tables.create("seafall", options)
    table.apply(Command("hire_guild", {"guild": "explorers"}, "blue"))
    table.apply(Command("sail", {"moves": [{"ship": "blue-1",
                                            "path": ["coastal_waters", "isle-a"]}]}, "blue"))
    table.apply(Command("explore", {"flagship": "blue-1", "site": "isle-a/3"}, "blue"))
    table.apply(Command("roll", {"faces": ["strong", "blank"]}, "blue"))
    pin = server.services.auth.demo_host(table.session_id)
    for size in ({"width": 1280, "height": 720}, TV):
        tv = devices(locale, viewport=size)
        tv.goto(server.url(f"/host/{table.session_id}?pin={pin}"))  # with the invite
        tv.goto(server.url(f"/t/{table.session_id}/tv"))
        tv.wait_for_function("document.querySelector('#tv-qr').naturalWidth > 0")
        expect(tv.locator("#tv-roll .faces.huge .face")).to_have_count(2)
        expect(tv.locator(".tv-province .sunk")).to_have_text(sunk)
        tv.wait_for_load_state("networkidle")
        texts = tv.evaluate(TV_TEXT)
        assert texts
        small = [t["what"] + f" {t['px']}px" for t in texts
                 if t["px"] < (18 if t["line"] else 16)]
        assert not small, f"at {size}: {small}"
        scroll = tv.evaluate("[document.documentElement.scrollWidth, "
                             "document.documentElement.scrollHeight]")
        assert scroll == [size["width"], size["height"]], f"at {size}: the page scrolls"
        assert tv.evaluate(CLIPPED) == [], f"at {size}: cut off"
        assert 1 <= tv.locator("#tv-events li").count()
        ship = tv.locator(".tv-province .sunk").evaluate(SUNK)
        assert "line-through" in ship["struck"]
        assert ship["opacity"] == 1
        assert contrast(_rgb(ship["colour"]), _rgb(ship["card"])) >= 4.5, ship
