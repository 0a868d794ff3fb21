"""What a QA tester found on the phone pages when phones are slow, sleep, or tap at the same
time, on small screens and large text, and when a join link is opened again (headless
Chromium, a real server): a tap always carries the version of what its screen shows."""

from __future__ import annotations

import contextlib
import re

import pytest

from companion.engine import Command
from tests.e2e.browser.server import WAIT
from tests.e2e.browser.test_phone_pages import join_as
from tests.e2e.browser.test_turn_forms import demo, new_table

pytest.importorskip("playwright")
from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = pytest.mark.slow
expect.set_options(timeout=WAIT)

CONFLICT = "The table changed meanwhile"


def loads(table_id: str):
    """The requests a page makes for each new version before it draws it."""
    return re.compile(rf"/api/tables/{table_id}/(choices|history)")


def hold(page, pattern) -> list:
    """Hold the page's requests matching ``pattern`` (a slow phone's) until released."""
    held: list = []
    page.route(pattern, lambda route: held.append(route))
    return held


def wait_held(page, held: list) -> None:
    for _ in range(WAIT // 20):
        if held:
            return
        page.wait_for_timeout(20)
    raise AssertionError("the page asked nothing")


def release(page, pattern, held: list) -> None:
    page.unroute(pattern)
    while held:
        with contextlib.suppress(PlaywrightError):  # already let go by the unroute
            held.pop(0).continue_()


def shown_version(page) -> int:
    return int(page.locator("#status").get_attribute("data-version"))


def damage_with_an_upgrade(server):
    """Ana (Blue) explored a defense-5 site with 4 dice (Blue ship 1's Bold upgrade):
    a roll prompt for the 4 dice."""
    table_id, table = new_table(server, {
        "provinces": [{"colour": "blue", "player": "Ana",
                       "ships": [{"location": "isle", "upgrades": ["Bold"]},
                                 {"location": "isle"}]},
                      {"colour": "red", "player": "Bo"}],
        "islands": [{"id": "isle", "name": "Iron isle", "space": "(0, 2, 2)",
                     "sites": [{"name": "1", "defense": 5}]}]})
    for cmd, args in (("hire_guild", {"guild": "explorers"}),
                      ("explore", {"flagship": "blue-1", "site": "isle/1"})):
        table.apply(Command(cmd, args, "blue"))
    return table_id, table


def test_a_tap_while_a_new_version_loads_is_sent_against_the_screen_shown(devices, server):
    """The host took Blue's hire back while Blue's phone was slow to read the new version's
    actions: it still showed "End the turn", and its tap went out with the new version, so
    the table accepted it. Sent with the version shown, it is a conflict: nothing applies,
    the page refreshes and says so."""
    ana = join_as(devices, server, "Ana", "blue")
    ana.click("#prompt button[data-value=explorers]")
    expect(ana.locator("#prompt")).to_be_hidden()  # hired
    table = demo(server)
    before = table.version
    expect(ana.locator("#status")).to_have_attribute("data-version", str(before))
    end = ana.locator("#actions [data-type=end_turn] button")
    expect(end).to_be_visible()
    pattern = loads(server.table)
    held = hold(ana, pattern)
    table.undo()  # the host takes the hire back
    wait_held(ana, held)  # the phone has the new version, not yet drawn
    assert shown_version(ana) == before
    end.click()
    expect(ana.locator("#notice")).to_contain_text(CONFLICT)
    assert table.version == before + 1  # the undo alone: the turn was not ended
    assert table.state.turn.player == "blue" and table.state.turn.guild is None
    release(ana, pattern, held)
    expect(ana.locator("#prompt button[data-value=explorers]")).to_be_visible()
    expect(ana.locator("#actions [data-type=end_turn] button")).to_be_visible()
    assert shown_version(ana) == table.version


def test_the_keyboard_goes_on_when_the_stream_brings_a_commands_version_first(devices,
                                                                             server):
    """Under load the live stream brought the new version of a command answered from the
    keyboard before the command's own answer did; that version is drawn only once its
    actions are read, and the keyboard stayed on the button pressed until the drawing took
    it away, and was left at the top of the page (a full run's failure). It now goes on to
    the status line once the screen is drawn."""
    ana = join_as(devices, server, "Ana", "blue")
    sent = re.compile(rf"/api/tables/{server.table}/commands")
    answers = hold(ana, sent)
    pattern = loads(server.table)
    held = hold(ana, pattern)
    ana.locator("#prompt button[data-value=explorers]").focus()
    ana.keyboard.press("Enter")
    wait_held(ana, answers)
    answer = answers[0].fetch()  # the table applies it; the stream tells the phone first
    wait_held(ana, held)
    answers.pop().fulfill(response=answer)
    ana.unroute(sent)
    release(ana, pattern, held)
    expect(ana.locator("#prompt")).to_be_hidden()
    ana.wait_for_function("document.activeElement && document.activeElement.id === 'status'")


def test_two_phones_taking_damage_at_once_the_later_one_gets_the_plain_conflict(devices,
                                                                                server):
    """Two phones pressed damage options at the same time: the later one got the engine's
    refusal, full of ids (« exhaust:red-1:Bold » n'est pas une façon de prendre ce dégât ;
    choisissez parmi : card:red-1). Its tap is sent against what its screen shows: the plain
    conflict."""
    table_id, table = damage_with_an_upgrade(server)
    table.apply(Command("roll", {"faces": ["standard", "standard", "standard", "blank"]},
                        "blue"))
    ana = join_as(devices, server, "Ana", "blue", table=table_id)
    host = devices("fr-FR")
    host.goto(server.url(f"/host/{table_id}?pin={server.services.auth.new_host_pin(table_id)}"))
    bold = "#prompt button[data-value='exhaust:blue-1:Bold']"
    expect(host.locator(bold)).to_be_visible()
    pattern = loads(table_id)
    held = hold(host, pattern)
    version = table.version
    ana.click(bold)  # the first phone's tap goes through
    expect(ana.locator(bold)).to_have_count(0)
    wait_held(host, held)
    host.click(bold)  # the host's, a moment later, on the screen before
    notice = host.locator("#notice")
    expect(notice).to_contain_text("La table a changé entre-temps")
    expect(notice).not_to_contain_text("exhaust")
    expect(notice).not_to_contain_text("card:")
    assert table.version == version + 1
    release(host, pattern, held)
    expect(host.locator(bold)).to_have_count(0)
    expect(host.locator("#prompt button[data-value='card:blue-1']")).to_be_visible()


def test_a_count_whose_roll_was_answered_while_the_phone_slept_is_said(devices, server):
    """Red entered 2 of 3 dice, the phone slept, the host confirmed the dice meanwhile: back,
    the page showed "Entered: 0 of 1" and nothing more, as catching up brings no events (the
    notice waited for a DiceRolled event). The roll the count was for is no longer asked:
    the notice says it was answered meanwhile."""
    table_id, table = damage_with_an_upgrade(server)
    ana = devices()
    # no live stream (a phone back from sleep polls its way up): its updates carry no events
    ana.route(re.compile(r"/api/stream/"), lambda route: route.fulfill(
        status=404, content_type="application/json",
        body='{"error": "not_found", "message": "no stream"}'))
    ana.goto(server.services.auth.invite(table_id, server.base + "/").join_url)
    ana.fill("#join-name", "Ana")
    ana.check("input[name=province][value=blue]")
    ana.click("#join-form button[type=submit]")
    prompt = ana.locator("#prompt")
    more = prompt.locator("li[data-face=standard] button[aria-label^='one more']")
    more.click()
    more.click()
    expect(prompt.locator(".tally-total")).to_have_text("Entered: 2 of 4")
    table.apply(Command("roll", {"faces": ["strong", "weak"]}, "blue"))  # 2 of the 4 dice
    expect(prompt.locator(".tally-total")).to_have_text("Entered: 0 of 2")
    expect(ana.locator("#notice")).to_contain_text("This roll was answered meanwhile")


def test_undone_is_not_said_once_another_change_comes(devices, server):
    """"Undone." stayed on screen after the next command, made on another phone."""
    ana = join_as(devices, server, "Ana", "blue")
    ana.click("#prompt button[data-value=merchants]")
    expect(ana.locator("#undo")).to_be_enabled()
    ana.click("#undo")
    notice = ana.locator("#notice")
    expect(notice).to_have_text("Undone.")
    table = demo(server)
    table.apply(Command("hire_guild", {"guild": "builders"}, "blue"))  # another phone
    expect(ana.locator("#status")).to_have_attribute("data-version", str(table.version))
    expect(notice).to_have_text("", timeout=1000)  # not at the 6 s timer


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


# A 320 px phone, and a 390 px one with its page zoomed (large text): a zoom of 1.5 leaves
# the page 260 CSS px, a zoom of 2, 195 px.
NARROW = (320, 260, 195)


@pytest.mark.parametrize(("locale", "role"), [
    # French only: its words are the longer (English read alike: left out for the suite's time)
    pytest.param("fr-FR", "joueur", id="French"),
])
def test_no_page_is_wider_than_a_narrow_or_zoomed_phone(devices, server, locale, role):
    """At 320 px the dice count rows ended at 337 px in French, 327 in English (the "+" past
    the card), and the home page's join link did not wrap (339 px); zoomed 1.5 at 390 px the
    province cards' number boxes made the page 413 px wide; zoomed 2, "Français" was cut
    off. Nothing is wider than the screen: the home page, the join page, and the table page
    with a dice count, an endeavor's odds, the provinces, glory, the rules' search and the
    turn's actions."""
    table_id, _table = damage_with_an_upgrade(server)
    phone = {"width": 320, "height": 640}
    home = devices(locale, viewport=phone)
    home.goto(server.url("/"))
    expect(home.locator("#demo-join-link")).to_be_visible()
    ana = join_as(devices, server, "Ana", "blue", locale=locale, role=role, table=table_id,
                  viewport=phone)
    expect(ana.locator("li.tally-row")).to_have_count(4)
    expect(ana.locator("#provinces .tokens").first).to_be_visible()
    joining = devices(locale, viewport=phone)
    joining.goto(server.join_link())
    cy = join_as(devices, server, "Cy", "blue", locale=locale, role=role, viewport=phone)
    cy.click("#prompt button[data-value=explorers]")  # the turn's actions, every group open
    expect(cy.locator("#actions details[data-type=sail]")).to_be_visible()
    for group in cy.locator("#actions details").all():
        group.evaluate("(d) => { d.open = true; }")
    for width in NARROW:
        for page in (home, ana, joining, cy):
            page.set_viewport_size({"width": width, "height": 640})
            assert page_width(page) <= width, (page.url, width)
        plus = ana.locator("li.tally-row button[data-key^=more]").last.bounding_box()
        card = ana.locator("#prompt").bounding_box()
        assert plus["x"] + plus["width"] <= card["x"] + card["width"]
        lang = home.locator(".langs a").bounding_box()
        assert lang["x"] >= 0 and lang["x"] + lang["width"] <= width


@pytest.mark.parametrize(("locale", "role", "line", "watch", "switch"), [
    pytest.param("en-GB", "player", "You play Blue — open the table",
                 "You play Blue. Give up that seat and just watch?",
                 "You play Blue. Give up that seat and play Green instead?", id="English"),
    pytest.param("fr-FR", "joueur", "Vous jouez pour Bleu — ouvrir la table",
                 "Vous jouez pour Bleu. Quitter cette place et seulement regarder\u00a0?",
                 "Vous jouez pour Bleu. Quitter cette place et jouer pour Vert\u00a0?",
                 id="French"),
])
def test_the_join_link_opened_again_says_the_seat_held_and_asks_before_giving_it_up(
        devices, server, locale, role, line, watch, switch):
    """A phone that joined and opened the join link again saw a fresh-looking form, its own
    province greyed out as "played by Anne", and gave up its seat with no warning. The page
    says which province it plays, with the way to the table, and asks before it switches
    seats or becomes a spectator."""
    ana = join_as(devices, server, "Anne", "blue", locale=locale, role=role)
    ana.goto(server.join_link())
    held = ana.locator("#seat-held")
    expect(held).to_have_text(line)
    expect(held.get_by_role("link")).to_have_attribute("href", f"/t/{server.table}")
    blue = ana.locator("input[name=province][value=blue]")
    expect(blue).to_be_enabled()
    expect(blue).to_be_checked()
    expect(ana.locator("#join-name")).to_have_value("Anne")
    asked: list = []

    def answer(dialog, accept: bool) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    ana.once("dialog", lambda dialog: answer(dialog, False))
    ana.check("input[name=province][value='']")
    ana.click("#join-form button[type=submit]")
    expect(held).to_be_visible()
    assert asked == [watch]
    holders = server.services.auth.store.holders(server.table)
    assert holders.get("blue") == ["Anne"]  # the seat kept
    ana.once("dialog", lambda dialog: answer(dialog, True))
    ana.check("input[name=province][value=green]")
    ana.click("#join-form button[type=submit]")
    ana.wait_for_url(re.compile(r"/t/[^/]+$"))
    assert asked == [watch, switch]
    holders = server.services.auth.store.holders(server.table)
    assert holders.get("green") == ["Anne"] and not holders.get("blue")


def test_a_phone_that_never_joined_sees_the_join_form_as_before(devices, server):
    page = devices()
    page.goto(server.join_link())
    page.wait_for_load_state("networkidle")  # its seat asked, none held
    expect(page.locator("#join-form")).to_be_visible()
    expect(page.locator("input[name=province][value=blue]")).not_to_be_checked()
    expect(page.locator("#seat-held")).to_be_hidden()


def test_a_new_turn_is_said_once_to_a_screen_reader(devices, server):
    """A screen reader heard nothing when the turn passed on another phone: the heading is
    drawn again in silence. A new heading is said once in a polite live region; a version
    that leaves it as it was says nothing, nor does the page's first drawing."""
    ana = join_as(devices, server, "Ana", "blue")
    region = ana.locator("#announce")
    expect(region).to_have_attribute("aria-live", "polite")
    expect(region).to_have_text("")
    ana.evaluate("""() => {
        window.said = [];
        const region = document.getElementById('announce');
        new MutationObserver(() => window.said.push(region.textContent))
            .observe(region, {childList: true, characterData: true, subtree: true});
    }""")
    table = demo(server)
    table.apply(Command("hire_guild", {"guild": "merchants"}, "blue"))  # the same turn
    expect(ana.locator("#status")).to_have_attribute("data-version", str(table.version))
    table.apply(Command("end_turn", {}, "blue"))
    expect(ana.locator("#status")).to_have_attribute("data-version", str(table.version))
    heading = ana.locator("#status").inner_text()
    assert "Green" in heading
    expect(region).to_have_text(heading)
    assert ana.evaluate("window.said") == [heading]
