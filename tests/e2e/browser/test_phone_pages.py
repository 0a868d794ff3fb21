"""The phone pages in a real browser (headless Chromium at 360x640, a real waitress server):
join by link, build an endeavor with its odds, answer the roll, and a second phone sees the
result live; undo; a stale page gets a clear conflict; French; the TV view at 1920x1080;
the campaign page; the photo page with the dice reader (following its read as other phones
act on it), and dice not known yet named by tapping."""

from __future__ import annotations

import re
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.engine import Command
from tests.e2e.browser.server import TV, WAIT
from tests.e2e.browser.speech import SPEECH
from vision.boxes import hold_each_other
from vision.synthetic import tray_photo
from web.runtime.recording import DIE_PX, SIZE

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

DEMO_FRAMES = Path(__file__).resolve().parents[3] / "web" / "runtime" / "demo"
pytestmark = pytest.mark.slow
expect.set_options(timeout=WAIT)


def join_as(devices, server, name: str, province: str | None, locale: str = "en-GB",
            role: str = "player", table: str | None = None, viewport: dict | None = None):
    """A phone that joins the table (the demo's, unless ``table`` is given) with the invite
    link, as a player would by QR code; its line names who holds it (``role``, the word for
    a player in ``locale``, is said only when the name typed is the province's own)."""
    page = devices(locale, viewport=viewport)
    page.goto(server.join_link() if table is None else
              server.services.auth.invite(table, server.base + "/").join_url)
    page.fill("#join-name", name)
    page.check(f"input[name=province][value='{province or ''}']")
    page.click("#join-form button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    expect(page.locator("#me")).to_contain_text(name)
    return page


@pytest.mark.parametrize(("locale", "typed", "line"), [
    ("en-GB", "Paul", "Paul, playing Bruno (Green)"),
    ("fr-FR", "Paul", "Paul, qui joue pour Bruno (Vert)"),
    ("en-GB", "Bruno", "Bruno (Green) · player"),  # the province’s own name: said once
])
def test_a_joined_phone_says_who_holds_it_and_whom_it_plays(devices, server, locale, typed,
                                                           line):
    """The join form asks "Your name": the page then says who holds the phone and the
    province it plays, by its player and its colour ("Paul, playing Bruno (Green)"); it said
    "Bruno · player", the typed name only in the host's list of seats."""
    from companion.games.seafall.setup import demo_options

    options = demo_options()
    options["provinces"][1]["player"] = "Bruno"
    table = server.services.tables.create("seafall", options).session_id
    page = join_as(devices, server, typed, "green", locale=locale, table=table)
    expect(page.locator("#me")).to_have_text(line)
    expect(page.locator("#me bdi").first).to_have_text(line.split(",")[0].split(" (")[0])


def start_exploration(page) -> None:
    """Blue hires the Explorers, sails Blue ship 1 to isle A and explores its site 3 (defense 3),
    all through the page's buttons, checking the builder's odds on the way."""
    page.click("#prompt button[data-value=explorers]")
    sail = page.locator("#actions details[data-type=sail]")
    sail.locator("summary").click()
    sail.get_by_label("Blue ship 1").select_option(label="to Example isle A (2 spaces)")
    sail.get_by_role("button", name="Sail").click()
    builder = page.locator("#builder")
    expect(builder).to_be_visible()
    builder.locator("button[data-kind=explore]").click()
    builder.locator("button[data-ship=blue-1]").click()
    builder.locator("button[data-site='isle-a/3']").click()
    preview = page.locator("#builder-preview")
    expect(preview).to_contain_text("2 dice")
    expect(preview).to_contain_text("defense 3")
    expect(preview.locator(".figure").first).to_have_text(re.compile(r"^\d+(\.\d)?%$"))
    expect(preview.locator(".pool")).to_contain_text("flagship")  # each die's reason
    before = preview.locator(".figure").first.inner_text()
    page.click("#start-endeavor")
    # the preview was the exact odds of this roll: the started endeavor shows the same
    expect(page.locator("#endeavor .figure").first).to_have_text(before)
    expect(page.locator("#prompt")).to_have_attribute("data-kind", "roll")


def test_join_build_an_endeavor_roll_and_a_second_phone_sees_it_live(devices, server):
    ana = join_as(devices, server, "Ana", "blue")
    watcher = devices()
    watcher.goto(server.url(f"/t/{server.table}"))
    expect(watcher.locator("#conn")).to_have_attribute("data-status", "live")
    expect(watcher.locator("#seat")).to_contain_text("You are watching")
    # who you are, with no internal version number beside it ("v3 spectator")
    expect(watcher.locator(".topline")).not_to_contain_text(re.compile(r"\bv\d+\b"))
    expect(watcher.locator("#prompt")).to_contain_text("Waiting for Blue")  # a spectator
    expect(watcher.locator("#prompt button")).to_have_count(0)

    start_exploration(ana)
    endeavor = ana.locator("#endeavor")
    expect(endeavor).to_contain_text("Blue's exploration")
    expect(endeavor.locator(".pool")).to_contain_text("flagship")  # every modifier explained
    expect(endeavor.locator(".pool-extras")).to_contain_text("re-roll weak success")
    rows = endeavor.locator("table.dist tr")
    expect(rows).to_have_count(3)  # 0, 1 or 2 successes with 2 dice: exact odds
    expect(watcher.locator("#endeavor")).to_contain_text("2 dice")  # live on phone 2

    prompt = ana.locator("#prompt")
    expect(prompt.locator(".big-count")).to_have_text("Roll 2 dice (SeaFall)")  # its name
    confirm = prompt.locator("#confirm-faces")
    expect(confirm).to_be_disabled()
    prompt.locator("li[data-face=standard] button[aria-label^='one more']").click()
    ana.reload()  # a half-entered count survives a reload (a phone that slept lost it)
    expect(prompt.locator(".tally-total")).to_have_text("Entered: 1 of 2")
    prompt.locator("li[data-face=strong] button[aria-label^='one more']").click()
    expect(prompt.locator(".tally-total")).to_have_text("Entered: 2 of 2")
    confirm.click()

    # the second phone shows the result without reloading: the dice and what followed
    expect(watcher.locator("#dice .faces .face")).to_have_count(2)
    expect(watcher.locator("#dice")).to_contain_text("Dice read")
    # one line, whose roll it was; taken back, it goes
    expect(watcher.locator("#live-log li")).to_have_text(["Blue rolled: success, strong success"])
    ana.click("#undo")
    expect(watcher.locator("#live-log li")).to_have_count(0)
    ana.click("#redo")
    expect(ana.locator("#redo")).to_be_disabled()  # done again: nothing more to redo
    expect(watcher.locator("#history-list")).to_contain_text(
        "Dice read (typed): success, strong success")  # the faces as the dice card names them
    table = server.services.tables.get(server.table)
    assert table.state.endeavor is None or table.state.endeavor.faces == ["standard", "strong"]


def test_faces_being_counted_when_another_answer_takes_the_roll_are_said_not_lost(
        devices, server):
    """A player counts faces by hand while the camera (here: another phone) answers the
    roll: the page says so, rather than the count vanishing; the player's own confirm is
    no such news."""
    ana = join_as(devices, server, "Ana", "blue")
    start_exploration(ana)
    prompt = ana.locator("#prompt")
    prompt.locator("li[data-face=standard] button[aria-label^='one more']").click()
    table = server.services.tables.get(server.table)
    table.apply(Command("roll", {"faces": ["blank", "strong"], "source": "camera"}, "blue"))
    expect(ana.locator("#notice")).to_contain_text("This roll was answered meanwhile")
    table.undo("blue")  # asked again: this time the player's own count answers it
    prompt.locator("li[data-face=weak] button[aria-label^='one more']").click()
    prompt.locator("li[data-face=strong] button[aria-label^='one more']").click()
    prompt.locator("#confirm-faces").click()
    expect(ana.locator("#history-list")).to_contain_text("Dice read (typed)")
    expect(ana.locator("#notice")).not_to_contain_text("answered meanwhile")


def test_a_new_question_for_the_phone_is_brought_into_view(devices, server):
    """A player far down the page (the history, the dice) when the table asks them
    something new (a re-roll after the roll): the question is scrolled into view, where it
    was left above the screen."""
    ana = join_as(devices, server, "Ana", "blue")
    start_exploration(ana)
    expect(ana.locator("#prompt")).to_have_attribute("data-kind", "roll")
    ana.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    expect(ana.locator("#prompt")).not_to_be_in_viewport()
    table = server.services.tables.get(server.table)
    table.apply(Command("roll", {"faces": ["weak", "standard"]}, "blue"))  # weak: re-rolled
    expect(ana.locator("#prompt")).to_have_attribute("data-prompt", re.compile(r"reroll"))
    expect(ana.locator("#prompt")).to_be_in_viewport()


def test_undo_from_the_page_takes_the_command_back_everywhere(devices, server):
    ana = join_as(devices, server, "Ana", "blue")
    ana.click("#prompt button[data-value=merchants]")
    expect(ana.locator("#prompt")).to_be_hidden()
    expect(ana.locator("#undo")).to_be_enabled()
    ana.click("#undo")
    expect(ana.locator("#prompt button[data-value=merchants]")).to_be_visible()
    expect(ana.locator("#history-list li.undone")).to_have_count(1)
    assert server.services.tables.get(server.table).state.turn.guild is None


def test_a_group_of_actions_opened_stays_open_while_other_phones_act(devices, server):
    """The page redraws at each version; a group the player opened (and the control the
    keyboard is on) must not shut under them when another phone moves the table on. The
    endeavor builder, redrawn at each pick, keeps the keyboard on the button picked."""
    ana = join_as(devices, server, "Ana", "blue")
    ana.click("#prompt button[data-value=explorers]")
    sail = ana.locator("#actions details[data-type=sail]")
    expect(sail).not_to_have_attribute("open", "")  # seven ways to sail: shut at first
    sail.locator("summary").click()
    expect(sail).to_have_attribute("open", "")
    button = sail.locator("select[data-ship=blue-1]")
    button.select_option("isle-a")  # chosen, not sent yet: it stays chosen too
    button.focus()
    table = server.services.tables.get(server.table)
    table.apply(Command("sail", {"moves": [{"ship": "blue-1",
                                            "path": ["coastal_waters", "isle-a"]}]}, "blue"))
    table.undo("blue")  # another phone sails and takes it back: the same choices again
    expect(ana.locator("#status")).to_have_attribute("data-version", str(table.version))
    expect(sail).to_have_attribute("open", "")
    expect(button).to_be_focused()
    # the same, the page showing the version in between, where sailing is no longer offered:
    # the group comes back as the player left it, with the keyboard on the same button
    table.apply(Command("sail", {"moves": [{"ship": "blue-1",
                                            "path": ["coastal_waters", "isle-a"]}]}, "blue"))
    expect(ana.locator("#status")).to_have_attribute("data-version", str(table.version))
    expect(sail).to_have_count(0)
    table.undo("blue")
    expect(ana.locator("#status")).to_have_attribute("data-version", str(table.version))
    expect(sail).to_have_attribute("open", "")
    expect(button).to_be_focused()
    expect(button).to_have_value("isle-a")
    ana.keyboard.press("Tab")  # on to the next ship's list, then the Sail button
    ana.keyboard.press("Tab")
    expect(sail.get_by_role("button", name="Sail")).to_be_focused()
    ana.keyboard.press("Enter")
    builder = ana.locator("#builder")
    expect(builder).to_be_visible()
    # each pick in the builder redraws it: the keyboard stays on the button picked
    for picked in ("button[data-kind=explore]", "button[data-ship=blue-1]",
                   "button[data-site='isle-a/3']"):
        builder.locator(picked).focus()
        ana.keyboard.press("Enter")
        expect(builder.locator(picked)).to_have_attribute("aria-pressed", "true")
        expect(builder.locator(picked)).to_be_focused()
    expect(ana.locator("#builder-preview")).to_contain_text("2 dice")


def test_a_stale_page_gets_a_clear_conflict_and_refreshes(devices, server):
    """The stream is made unavailable (404: the page falls back to polling) and polling is
    held on the old answer, so the page is stale when another device moves the table on."""
    page = join_as(devices, server, "Ana", "blue")
    stale = {"on": False, "body": None}

    def table_get(route):
        if stale["on"] and stale["body"] is not None:
            route.fulfill(status=200, content_type="application/json", body=stale["body"])
            return
        response = route.fetch()
        stale["body"] = response.text()
        route.fulfill(response=response)

    page.route(re.compile(r"/api/stream/"), lambda route: route.fulfill(
        status=404, content_type="application/json",
        body='{"error": "not_found", "message": "no stream"}'))
    page.route(re.compile(rf"/api/tables/{server.table}$"), table_get)
    page.reload()
    expect(page.locator("#conn")).to_have_attribute("data-status", "polling")
    expect(page.locator("#prompt button[data-value=soldiers]")).to_be_visible()
    stale["on"] = True
    table = server.services.tables.get(server.table)
    table.apply(Command("hire_guild", {"guild": "builders"}, "blue"))  # another device
    page.click("#prompt button[data-value=soldiers]")
    expect(page.locator("#notice")).to_contain_text("The table changed meanwhile")
    assert table.state.turn.guild == "builders"  # nothing overwritten
    stale["on"] = False
    expect(page.locator("#prompt")).to_be_hidden()  # polling brings the new version
    expect(page.locator("#history-list")).to_contain_text("Builders")


def test_french_ui_from_the_browser_language_and_the_switch(devices, server):
    page = devices("fr-FR")
    page.goto(server.url(f"/t/{server.table}"))
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#glory-title")).to_have_text("Gloire")
    expect(page.locator("#history-title")).to_have_text("Historique")
    expect(page.locator("#status")).to_contain_text("Année 1")
    expect(page.locator("#seat")).to_contain_text("Vous regardez")
    expect(page.locator("#provinces .token-label").first).to_have_text("or")
    # the names the setup gave by default, in French; none left in English
    expect(page.locator("#provinces")).to_contain_text("Bateau bleu 1")
    expect(page.locator("#provinces")).not_to_contain_text("Blue ship")
    expect(page.locator("#glory")).to_contain_text("Vert")
    # the engine's text is French too: the prompt (this spectator waits for Blue) and the log
    expect(page.locator("#prompt .question")).to_have_text("Bleu : quelle guilde engager ?")
    expect(page.locator("#history-list")).to_contain_text("Début du tour de Bleu.")
    ana = join_as(devices, server, "Ana", "blue", locale="fr-FR", role="joueur")
    expect(ana.locator("#prompt button[data-value=merchants]")).to_have_text("Marchands")
    ana.click("#prompt button[data-value=explorers]")
    expect(ana.locator("#history-list")).to_contain_text("Bleu engage la guilde des explorateurs.")
    expect(page.locator("#history-list")).to_contain_text(  # live, on the other phone
        "Bleu engage la guilde des explorateurs.")
    # each entry's head names its command and who sent it in French: no id left raw
    heads = page.locator("#history-list .history-head")
    expect(heads.first).to_have_text(re.compile(r"^Engager une guilde · \w+$"))
    expect(heads.last).to_have_text(re.compile(r"^Mise en place\b"))
    expect(page.locator("#history-list")).not_to_contain_text("· blue")
    page.click("a.lang[hreflang=en]")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#glory-title")).to_have_text("Glory")
    expect(page.locator("#history-list")).to_contain_text("Blue hires the Explorers guild.")
    page.goto(server.url("/"))  # the choice is remembered
    expect(page.locator("html")).to_have_attribute("lang", "en")
    # the dice pool's reasons, written by the engine in English, in French in the builder's
    # preview and on the endeavor's card, and on the English page in English
    flagship = "vaisseau amiral : valeur imprimée (exploration) de Bateau bleu 1"
    sail = ana.locator("#actions details[data-type=sail]")
    sail.locator("summary").click()
    sail.get_by_label("Bateau bleu 1").select_option(label="vers Example isle A (2 zones)")
    sail.get_by_role("button", name="Naviguer").click()
    builder = ana.locator("#builder")
    builder.locator("button[data-ship=blue-1]").click()
    expect(builder.locator("button[data-site='isle-a/3']")).to_contain_text(
        "2 dés contre défense 3")
    builder.locator("button[data-site='isle-a/3']").click()
    expect(ana.locator("#builder-preview .pool")).to_contain_text(flagship)
    ana.click("#start-endeavor")
    expect(ana.locator("#endeavor .pool")).to_contain_text(flagship)
    # a photo the server cannot read: why, in French (the error's message key: vision.said)
    ana.set_input_files("#photo-input", files=[{"name": "des.jpg", "mimeType": "image/jpeg",
                                                "buffer": b"not a picture"}])
    expect(ana.locator("#notice")).to_contain_text("La photo n’est pas une image lisible")
    from tests.vision.helpers import png_claiming  # a panorama: its reason in French too

    ana.set_input_files("#photo-input", files=[{"name": "des.png", "mimeType": "image/png",
                                                "buffer": png_claiming(4000, 300)}])
    expect(ana.locator("#notice")).to_contain_text(
        "La photo est en 4000x300 pixels : trop longue et étroite pour montrer un bac à dés")
    page.goto(server.url(f"/t/{server.table}"))
    expect(page.locator("#endeavor .pool")).to_contain_text(
        "flagship: Blue ship 1's printed explore")


def test_tv_view_at_1920x1080_shows_the_table_and_follows_it_live(devices, server):
    page = devices(viewport=TV)
    page.goto(server.host_link())  # the TV browser is the host's: it may show the invite
    page.goto(server.url(f"/t/{server.table}/tv"))
    expect(page.locator(".glory-row")).to_have_count(3)
    expect(page.locator(".tv-province")).to_have_count(3)
    expect(page.locator("#tv-join")).to_be_visible()
    page.wait_for_function("document.querySelector('#tv-qr').naturalWidth > 0")
    expect(page.locator("#tv-join-url")).to_contain_text(f"/join/{server.table}?token=")
    size = page.evaluate("getComputedStyle(document.querySelector('#status')).fontSize")
    assert float(size.rstrip("px")) >= 30  # large type, read from across the room
    box = page.locator(".tv-grid").bounding_box()
    assert box and box["height"] <= TV["height"]  # one screen, no scrolling

    table = server.services.tables.get(server.table)
    table.apply(Command("hire_guild", {"guild": "explorers"}, "blue"))
    table.apply(Command("sail", {"moves": [{"ship": "blue-1",
                                            "path": ["coastal_waters", "isle-a"]}]}, "blue"))
    table.apply(Command("explore", {"flagship": "blue-1", "site": "isle-a/3"}, "blue"))
    table.apply(Command("roll", {"faces": ["strong", "blank"]}, "blue"))
    expect(page.locator("#tv-roll .faces.huge .face")).to_have_count(2)
    expect(page.locator("#tv-roll")).to_contain_text("strong success")
    expect(page.locator("#tv-events")).to_contain_text("Dice read")
    table.undo("blue")  # said as the history card says it (the TV said "Command 4 undone.")
    expect(page.locator("#tv-events li").first).to_have_text("Taken back: Dice (Blue).")
    table.apply(Command("roll", {"faces": ["strong", "blank"]}))  # sent by no one (a box)
    table.undo("blue")  # named no one: it said "(null)"
    expect(page.locator("#tv-events li").first).to_have_text("Taken back: Dice.")

    from companion.games.seafall.setup import demo_options

    options = demo_options()  # a sunk ship is said so (a struck-through name, hardly seen)
    options["provinces"][1]["ships"][1]["sunk"] = True
    sunk = server.services.tables.create("seafall", options)
    page.goto(server.url(f"/t/{sunk.session_id}/tv"))
    ship = page.locator(".tv-province .sunk")
    expect(ship).to_have_text("Green ship 2 · sunk")


def test_the_tv_keeps_the_odds_in_view_and_says_whose_roll_it_shows(devices, server):
    """The TV is not scrolled: on a smaller screen the roll's column drops the bars per
    number of successes, then the pool's lines, so that the headline odds stay in view
    (they were cut off); the last roll says whose it was, and none is shown while a new
    endeavor waits for its dice (another province's roll was, with no owner)."""
    table = server.services.tables.get(server.table)
    table.apply(Command("hire_guild", {"guild": "explorers"}, "blue"))
    table.apply(Command("sail", {"moves": [{"ship": "blue-1",
                                            "path": ["coastal_waters", "isle-a"]}]}, "blue"))
    table.apply(Command("explore", {"flagship": "blue-1", "site": "isle-a/3"}, "blue"))
    tv = devices(viewport={"width": 1280, "height": 480})  # a short window
    tv.goto(server.url(f"/t/{server.table}/tv"))
    column = tv.locator(".tv-roll")
    expect(column).to_have_class(re.compile(r"\btight\b"))
    expect(tv.locator(".tv-roll .dist")).to_be_hidden()
    # measured in the page in one step, once drawn: a live redraw may replace the card
    # between a look for it and a measure of it (the box was None under a loaded machine)
    head = tv.wait_for_function("""() => {
        const e = document.querySelector('.tv-roll .odds-head');
        const r = e && e.getBoundingClientRect();
        return r && r.height > 0 ? {y: r.y, height: r.height} : null;
    }""").json_value()
    assert head["y"] + head["height"] < 480
    expect(tv.locator("#tv-roll")).not_to_contain_text("roll ·")  # no roll of this one yet
    expect(tv.locator("#roll-title")).to_be_hidden()  # nor its heading over the card alone
    table.apply(Command("roll", {"faces": ["standard", "strong"]}, "blue"))
    expect(tv.locator(".tv-roll-text")).to_contain_text(
        "Blue's roll · Dice read (typed): success, strong success")
    expect(tv.locator("#roll-title")).to_be_visible()


def test_a_small_french_tv_keeps_the_bars_per_number_of_successes(devices, server):
    """QA: at 1280x720 in French, the odds' longer words (« réussit (1 succès ou plus,
    vaisseau amiral à flot) ») passed the column by 30 px, and the bars went, leaving
    120 px empty under the card; in English they showed. The card's spacing closes up
    first, and the bars stay, the column unscrolled."""
    table = server.services.tables.get(server.table)
    table.apply(Command("hire_guild", {"guild": "explorers"}, "blue"))
    table.apply(Command("sail", {"moves": [{"ship": "blue-1", "path": [
        "coastal_waters", "isle-a", "isle-b"]}]}, "blue"))
    table.apply(Command("explore", {"flagship": "blue-1", "site": "isle-b/1"}, "blue"))
    tv = devices("fr-FR", viewport={"width": 1280, "height": 720})
    tv.goto(server.url(f"/t/{server.table}/tv"))
    expect(tv.locator(".tv-roll .dist .dist-bar")).to_have_count(3)
    tv.set_viewport_size({"width": 1280, "height": 700})  # drawn again (the first drawing
    tv.set_viewport_size({"width": 1280, "height": 720})  # was measured without its prompt)
    assert tv.evaluate("""() => new Promise((done) => requestAnimationFrame(() => {
        const c = document.querySelector('.tv-roll'), bars = c.querySelector('.dist');
        done([c.className, bars && bars.getBoundingClientRect().height > 0,
              c.scrollHeight <= c.clientHeight]);
    }))""") == ["tv-roll snug", True, True]


def explore_isle_a(server):
    """Blue has hired the Explorers, sailed Blue ship 1 to isle A and explores its site 3
    (2 dice against defense 3; the demo's Blue re-rolls a weak success)."""
    table = server.services.tables.get(server.table)
    table.apply(Command("hire_guild", {"guild": "explorers"}, "blue"))
    table.apply(Command("sail", {"moves": [{"ship": "blue-1",
                                            "path": ["coastal_waters", "isle-a"]}]}, "blue"))
    table.apply(Command("explore", {"flagship": "blue-1", "site": "isle-a/3"}, "blue"))
    return table


@pytest.mark.parametrize(("locale", "whole", "mark"), [
    pytest.param("en-GB", "Blue's roll · 2 dice, 1 re-rolled · 2 successes", "re-rolled",
                 id="English"),
    pytest.param("fr-FR", "Lancer de Bleu · 2 dés, dont 1 relancé · 2 succès", "relancé",
                 id="French"),
])
def test_the_last_roll_after_a_re_roll_is_the_whole_roll_that_counted(devices, server, locale,
                                                                      whole, mark):
    """"Re-rolls": the dice re-rolled keep their new faces beside the others. After a
    re-roll the TV's *Last roll* and every phone's *Dice* card showed the re-rolled die
    alone ("✓ success — Éloïse's roll · Re-rolled: success."): the whole roll, the die
    re-rolled marked so, and the successes it counted."""
    table = explore_isle_a(server)
    phone = devices(locale)
    phone.goto(server.url(f"/t/{server.table}"))
    tv = devices(locale, viewport=TV)
    tv.goto(server.url(f"/t/{server.table}/tv"))
    table.apply(Command("roll", {"faces": ["strong", "weak"]}, "blue"))  # the weak re-rolled
    table.apply(Command("roll", {"faces": ["standard"]}, "blue"))
    for faces, text in ((phone.locator("#dice .faces"), phone.locator("#dice p.muted")),
                        (tv.locator("#tv-roll .faces.huge"), tv.locator(".tv-roll-text"))):
        expect(faces.locator(".face")).to_have_count(2)
        expect(faces.locator(".face.rerolled")).to_have_count(1)
        expect(faces.locator(".face").nth(1)).to_have_class(re.compile(r"\brerolled\b"))
        expect(faces.locator(".face.rerolled .reroll-mark")).to_have_text(mark)
        expect(text).to_have_text(whole)


@pytest.mark.parametrize(("locale", "question"), [
    pytest.param("en-GB", "Blue's exploration (2 dice vs defense 3) · 1 of 2 dice in already, "
                 "1 to roll", id="English"),
    pytest.param("fr-FR", "Bleu\u00a0: exploration, 2 dés contre une défense de 3 · 1 dé sur 2 "
                 "déjà saisi, 1 à lancer", id="French"),
])
def test_a_roll_read_in_parts_says_the_dice_in_already(devices, server, locale, question):
    """A roll with fewer faces than the pool's dice is read in parts (docs/commands.md):
    the prompt then said "Roll 1 die", « Saisis : 0 sur 1 », and nothing of the dice in
    already; it says them, on the phones and the TV."""
    table = explore_isle_a(server)
    table.apply(Command("roll", {"faces": ["blank"]}, "blue"))
    phone = devices(locale)
    phone.goto(server.url(f"/t/{server.table}"))
    expect(phone.locator("#prompt .question")).to_have_text(question)
    tv = devices(locale, viewport=TV)
    tv.goto(server.url(f"/t/{server.table}/tv"))
    expect(tv.locator("#tv-prompt")).to_contain_text(question.split(" · ")[1])


def test_the_tvs_recent_events_fit_the_screen_newest_first(devices, server):
    """The TV is not scrolled: the recent events are as many as the side column holds,
    the newest first; long lines (players' long names, the invite above them) dropped the
    oldest line half cut at the bottom of the screen."""
    from companion.games.seafall.setup import demo_options

    options = demo_options()
    for prov in options["provinces"]:
        # as long as a name may be (40 characters)
        prov["player"] = f"{prov['colour'].title()} of the Long Name Trading Company"[:40]
    table = server.services.tables.create("seafall", options)
    for colour in table.state.seating:  # before the page opens: fitted before the invite
        table.apply(Command("hire_guild", {"guild": "merchants"}, colour))
        table.apply(Command("end_turn", {}, colour))
    tv = devices(viewport={"width": 1280, "height": 720})
    tv.goto(server.url(f"/host/{table.session_id}?pin="
                       f"{server.services.auth.demo_host(table.session_id)}"))
    tv.goto(server.url(f"/t/{table.session_id}/tv"))
    expect(tv.locator("#tv-join")).to_be_visible()
    tv.wait_for_function("document.querySelector('#tv-qr').naturalWidth > 0")
    history = tv.request.get(server.url(f"/api/tables/{table.session_id}/history")).json()
    newest = history["history"][-1]["events"][-1]["text"]
    expect(tv.locator("#tv-events li").first).to_have_text(newest)
    side = tv.locator(".tv-side").bounding_box()
    last = tv.locator("#tv-events li").last.bounding_box()
    assert last["y"] + last["height"] <= side["y"] + side["height"]  # no line cut in half
    assert 1 <= tv.locator("#tv-events li").count() < 6  # the oldest went
    for name in tv.locator(".tv-province h3").all():  # a long name on one line, cut short
        assert name.bounding_box()["height"] < 60
    grid = tv.locator(".tv-grid").bounding_box()
    assert grid["y"] + grid["height"] <= 720  # the header is as tall as it needs; no scroll


def test_a_phone_off_the_network_says_so_and_catches_up_at_once_when_back(devices, server):
    """The badge said "live" while the phone was off the network, and once back the page
    waited for its next try (up to 30 s) for the history and the actions."""
    page = devices()
    page.goto(server.url(f"/t/{server.table}"))
    expect(page.locator("#conn")).to_have_attribute("data-status", "live")
    page.context.set_offline(True)
    expect(page.locator("#conn")).to_have_attribute("data-status", "offline")
    table = server.services.tables.get(server.table)
    table.apply(Command("hire_guild", {"guild": "explorers"}, "blue"))  # while it is away
    page.context.set_offline(False)
    expect(page.locator("#history-list")).to_contain_text("Explorers", timeout=5000)
    expect(page.locator("#conn")).not_to_have_attribute("data-status", "offline")



def test_the_tables_silence_is_said_until_it_answers_again_and_logs_no_error(devices, server):
    """A tap sent while the table's server was down (restarted) said "No answer from the
    table", which stayed once the badge said "live" again; and the browser logged
    "TypeError: Failed to fetch". The notice goes when the table answers again; nothing
    is logged but the browser's own word on the request that failed."""
    ana = join_as(devices, server, "Ana", "blue")
    logged: list[str] = []
    ana.on("console", lambda m: logged.append(m.text) if m.type == "error" else None)
    expect(ana.locator("#conn")).to_have_attribute("data-status", "live")
    ana.route(re.compile(r"/commands$"), lambda route: route.abort())  # no answer at all
    ana.click("#prompt button[data-value=merchants]")
    expect(ana.locator("#notice")).to_have_text("No answer from the table (is the Wi-Fi on?). "
                                                "Try again.")
    ana.unroute(re.compile(r"/commands$"))
    # the table's server away and back: its stream ends, the phone reconnects
    live = server.services.live
    with live._lock:
        channel = live._channels.pop(server.table)
    channel.close()
    expect(ana.locator("#conn")).to_have_attribute("data-status", "live")
    expect(ana.locator("#notice")).to_be_empty()
    assert not [text for text in logged if "Failed to fetch" in text or "TypeError" in text]
    ana.click("#prompt button[data-value=merchants]")  # and a tap goes through again
    expect(ana.locator("#history-list")).to_contain_text("Merchants")

def test_the_rounds_event_is_said_where_the_round_is(devices, server):
    """The event revealed for the round changes prices and powers until the round ends;
    only the history said which it was (players saw "costs 2 gold" with no reason)."""
    from companion.games.seafall.setup import demo_options

    options = {**demo_options(), "events": ["Market Day", "Storm"], "event": "Market Day"}
    table = server.services.tables.create("seafall", options)
    for path in (f"/t/{table.session_id}", f"/t/{table.session_id}/tv"):
        page = devices()
        page.goto(server.url(path))
        expect(page.locator("#status")).to_contain_text("event: Market Day")


def test_a_table_never_read_logs_no_error_in_the_browser(devices, server):
    """Each poll of a table with no dice read yet asked GET .../dice/latest and got a 404,
    which the browser logs as an error: 868 of them in an evening's play. The pages ask
    with ?if_any=1 (204)."""
    page = devices()
    logged: list[str] = []
    page.on("console", lambda m: logged.append(m.text) if m.type == "error" else None)
    page.goto(server.url(f"/t/{server.table}"))
    expect(page.locator("#conn")).to_have_attribute("data-status", "live")
    page.goto(server.url(f"/t/{server.table}/tv"))
    expect(page.locator(".glory-row")).to_have_count(3)
    page.goto(server.url(f"/t/{server.table}/photo"))
    page.wait_for_load_state("networkidle")
    assert logged == []


def test_french_pages_elide_de_before_a_name_with_a_vowel(devices, server):
    """« tour de Éloïse » is not French: the pages say « tour d’Éloïse » and « gloire
    d’Anne », as the history does; « de Zoé » stays."""
    from companion.games.seafall.setup import demo_options

    options = demo_options()
    for prov, name in zip(options["provinces"], ("Éloïse", "Zoé", "Anne"), strict=False):
        prov["player"] = name
    table = server.services.tables.create("seafall", options)
    page = devices("fr-FR")
    page.goto(server.url(f"/host/{table.session_id}?pin="
                         f"{server.services.auth.demo_host(table.session_id)}"))
    expect(page.locator("#status")).to_contain_text("tour d’Éloïse")
    expect(page.locator("#glory [aria-label='gloire d’Anne']")).to_have_count(1)
    expect(page.locator("#glory [aria-label='gloire de Zoé']")).to_have_count(1)
    expect(page.locator("#history-list")).to_contain_text("Début du tour d’Éloïse")
    table.apply(Command("hire_guild", {"guild": "merchants"}, table.state.turn.player))
    sail = page.locator("#actions details[data-type=sail]")
    sail.locator("summary").click()  # a province the setup named, with its article
    expect(sail).to_contain_text("vers la province verte (")
    expect(sail).not_to_contain_text("vers Province")


def test_a_tv_that_is_not_the_hosts_shows_no_invite_and_asks_nothing_refused(devices, server):
    """The join code is the host's to show (docs/ui.md, the TV view): another browser's TV
    view does not show it, and does not ask for it only to be refused (a 403 in its
    console)."""
    page = devices(viewport=TV)
    refused = []
    page.on("response", lambda r: refused.append(r.url) if r.status in (401, 403) else None)
    page.goto(server.url(f"/t/{server.table}/tv"))
    expect(page.locator(".glory-row")).to_have_count(3)
    expect(page.locator("#tv-events li")).not_to_have_count(0)
    page.wait_for_load_state("networkidle")
    expect(page.locator("#tv-join")).to_be_hidden()
    assert refused == []


def test_the_tv_reads_each_new_event_aloud_with_a_voice_of_its_own(devices, server):
    """docs/ui.md, the TV view: *Read aloud* speaks each new event's sentence, in the page's
    language, with a voice the device has itself (never the network's); the events it
    opened on are not read; off, nothing is; the switch is remembered."""
    page = devices(viewport=TV)
    page.add_init_script(SPEECH)
    page.goto(server.url(f"/t/{server.table}/tv"))
    switch = page.locator("#speak")
    expect(switch).to_have_text("Read aloud: off")
    expect(page.locator("#tv-events li")).not_to_have_count(0)
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    table = server.services.tables.get(server.table)
    table.apply(Command("hire_guild", {"guild": "explorers"}, "blue"))
    expect(page.locator("#tv-events")).to_contain_text("Explorers")
    spoken = page.evaluate("window.__spoken")
    assert spoken[0] == {"text": "Tableside will read what happens at the table aloud.",
                         "voice": "Device", "lang": "en-GB"}
    assert [s["voice"] for s in spoken] == ["Device"] * len(spoken)
    said = [s["text"] for s in spoken[1:]]
    assert said == ["Blue hires the Explorers guild."]
    texts = page.locator("#tv-events li").all_inner_texts()
    assert said[-1] in texts  # the sentence the page shows, nothing older

    page.reload()  # remembered, and the events it opens on are not news
    expect(page.locator("#speak")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#tv-events")).to_contain_text("Explorers")
    assert page.evaluate("window.__spoken") == []
    page.locator("#speak").click()  # off
    assert page.evaluate("window.__spoken") == ["cancel"]
    table.undo("blue")
    expect(page.locator("#tv-events")).not_to_contain_text("Explorers")
    assert page.evaluate("window.__spoken") == ["cancel"]

    quiet = devices(viewport=TV, locale="fr-FR")  # no voice of its own: the switch says so
    quiet.add_init_script(SPEECH + "window.__noVoice = true;")
    quiet.goto(server.url(f"/t/{server.table}/tv"))
    expect(quiet.locator("#speak")).to_be_disabled()
    expect(quiet.locator("#speak")).to_have_text("Pas de voix ici")


@pytest.mark.parametrize(("size", "locale", "words"), [
    # French, whose words were squeezed (English, shorter, read alike: left out for the
    # suite's time)
    ({"width": 1280, "height": 720}, "fr-FR", "Pas de voix ici"),
    (TV, "fr-FR", "Pas de voix ici"),
])
def test_the_tvs_no_voice_switch_reads_on_one_line_beside_a_long_status(devices, server, size,
                                                                          locale, words):
    """The switch and the connection keep the width their words need; a long status line
    (an event card's name, a long player's name) is cut short with "…" instead. « Pas de voix
    ici » was squeezed onto four lines beside one, at 1280 and 1920 wide."""
    page = devices(viewport=size, locale=locale)
    page.add_init_script(SPEECH + "window.__noVoice = true;")
    page.goto(server.url(f"/t/{server.table}/tv"))
    switch = page.locator("#speak")
    expect(switch).to_have_text(words)
    expect(switch).to_be_disabled()
    expect(page.locator("#conn")).to_have_attribute("data-status", "live")
    expect(page.locator(".glory-row")).to_have_count(3)  # drawn: the status is not drawn again
    page.evaluate("""document.querySelector("#status").textContent =
        "Year 1 · round 1 · event: The great storm of the northern seas · " +
        "Maximilien-Alexandre de la Tour d'Auvergne's turn" """)
    lines = """(e) => { const r = document.createRange(); r.selectNodeContents(e);
        return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; }"""
    assert switch.evaluate(lines) == 1
    assert page.locator("#conn").evaluate(lines) == 1
    status = page.locator("#status").evaluate("(e) => [e.scrollWidth, e.clientWidth]")
    assert status[0] > status[1]  # the status is the one cut short
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]


def test_the_table_page_counts_the_dice_thrown_against_their_odds(devices, server):
    """docs/ui.md, "Dice at this table": opened, the card shows each face thrown against
    fair dice, too few yet to judge, by how the dice were read; and follows the table
    while open (a re-roll counted as it lands)."""
    page = devices()
    page.goto(server.url(f"/t/{server.table}"))
    card = page.locator("#dice-stats")
    # its heading is laid out as flex, which drops the browser's own triangle: one is drawn,
    # so the card is seen to open, and turned once it is open
    marker = """(s) => { const b = getComputedStyle(s, "::before");
                        return [b.content, b.transform]; }"""
    summary = page.locator("#dice-stats summary")
    assert summary.evaluate(marker) == ['"▸"', "none"]
    summary.click()
    expect(card).to_have_attribute("open", "")
    page.wait_for_function("""() => getComputedStyle(
        document.querySelector("#dice-stats summary"), "::before").transform !== "none" """)
    expect(card).to_contain_text("No dice thrown yet.")
    table = server.services.tables.get(server.table)
    table.apply(Command("hire_guild", {"guild": "explorers"}, "blue"))
    table.apply(Command("sail", {"moves": [{"ship": "blue-1",
                                            "path": ["coastal_waters", "isle-a"]}]}, "blue"))
    table.apply(Command("explore", {"flagship": "blue-1", "site": "isle-a/3"}, "blue"))
    table.apply(Command("roll", {"faces": ["strong", "weak"], "source": "camera"}, "blue"))
    expect(card).to_contain_text("SeaFall dice: 2 thrown")
    expect(card.locator('tr[data-face="strong"] td').first).to_have_text("1")
    expect(card.locator('tr[data-face="blank"] td').nth(1)).to_have_text("0.67")
    expect(card.locator(".stats-verdict")).to_have_text(
        "Too few dice to judge yet: each face should be expected at least 5 times.")
    table.apply(Command("roll", {"faces": ["blank"], "source": "photo"}, "blue"))  # re-roll
    expect(card).to_contain_text("SeaFall dice: 3 thrown")
    expect(card.locator('.stats-group li[data-group="camera"]')).to_contain_text(
        "camera · 2 dice · too few to judge")
    expect(card.locator('.stats-group li[data-group="photo"]')).to_contain_text(
        "phone photo · 1 die")


def _stats(by_player: dict[str, int]) -> str:
    """A dice/stats answer (docs/api.md, "Dice statistics") with these dice by province."""
    import json

    def group(n: int) -> dict:
        return {"dice": n, "p_value": None, "faces": [
            {"label": "blank", "observed": n, "expected": n / 4}]}
    total = sum(by_player.values())
    return json.dumps({"version": 0, "min_expected": 5.0, "dice": [
        {"die": "seafall", **group(total), "by_source": {"camera": group(total)},
         "by_player": {k: group(n) for k, n in by_player.items()}}]})


@pytest.mark.parametrize(("locale", "green"), [("en-GB", "Green"), ("fr-FR", "Vert")])
def test_the_dice_card_names_each_province_by_its_player(devices, server, locale, green):
    """The dice card's "By province" names a province as the province cards do: its colour's
    swatch, then its player (a name the setup gave by default said as its colour); it said
    "Bleu · 2 dés" where the page says "Zoé"."""
    from companion.games.seafall.setup import demo_options

    options = demo_options()
    options["provinces"][0]["player"] = "Zoé"
    table = server.services.tables.create("seafall", options).session_id
    page = devices(locale=locale)
    page.route("**/dice/stats", lambda route: route.fulfill(
        status=200, content_type="application/json", body=_stats({"blue": 2, "green": 1})))
    page.goto(server.url(f"/t/{table}"))
    expect(page.locator(".province[data-province=blue] h3")).to_contain_text("Zoé")
    page.locator("#dice-stats summary").click()
    blue = page.locator('.stats-group li[data-group="blue"]')
    expect(blue).to_contain_text("Zoé · 2 ")
    expect(blue.locator("strong .swatch.c-blue")).to_have_count(1)
    expect(page.locator('.stats-group li[data-group="green"]')).to_contain_text(f"{green} · 1 ")
    expect(page.locator("#dice-stats")).not_to_contain_text("Blue ·")
    expect(page.locator("#dice-stats")).not_to_contain_text("Bleu ·")


def test_the_hardware_card_says_when_the_pis_power_supply_is_too_weak(devices, server):
    """docs/runtime.md, "Power and heat" and "Storage": on a Pi whose firmware reports
    under-voltage now (get_throttled 0x50005), the hardware card's *Power and heat* row is
    red and says what to do, with the temperature; and so is *Storage* on a card with
    100 MB left."""
    from web.runtime import Runtime, RuntimeOptions
    from web.runtime.power import power_status
    from web.runtime.status import Cached
    from web.runtime.storage import MB, storage_status

    runtime = Runtime(server.services, RuntimeOptions(camera="none", box="none", gpio=False),
                      pi_model="Raspberry Pi 4 Model B Rev 1.4",
                      power=lambda: power_status(0x50005, 71.5),
                      storage=lambda: storage_status(Path("/data"), 100 * MB, 16_000 * MB))
    server.services.runtime = runtime
    try:
        page = devices()
        page.goto(server.url(f"/t/{server.table}"))
        row = page.locator("#hardware [data-device=power]")
        expect(row).to_contain_text("Power and heat too weak now")
        expect(row).to_contain_text("the power supply is too weak now")
        expect(row).to_contain_text("71.5 °C")
        expect(row).to_have_class("hw-bad")
        disk = page.locator("#hardware [data-device=storage]")
        expect(disk).to_contain_text("Storage almost full")
        expect(disk).to_contain_text("only 100 MB free on the disk holding the games")
        expect(disk).to_have_class("hw-bad")
        # both need fixing now: said at the top of the table page and on the TV, where
        # everyone sees them
        tv = devices(viewport=TV)
        tv.goto(server.url(f"/t/{server.table}/tv"))
        for shown, where in ((page, "Hardware, below"), (tv, "Hardware, on a phone's table")):
            alerts = shown.locator("#hw-alerts .notice")
            expect(alerts).to_have_count(2)
            expect(alerts.nth(0)).to_contain_text(
                "Power and heat: the Pi's power supply is too weak now")
            expect(alerts.nth(1)).to_contain_text(
                "Storage: the disk that keeps the games is almost full")
            expect(alerts.nth(1)).to_contain_text(f"What to do: {where}")
        # the TV still fits one screen, the grid below the alerts
        assert tv.evaluate("document.documentElement.scrollHeight <= window.innerHeight")
        runtime.storage = Cached(lambda: storage_status(Path("/data"), 5000 * MB, 16_000 * MB))
        runtime.power = Cached(lambda: power_status(0x50000, 50.0))  # a dip before: warning
        page.reload()
        expect(page.locator("#hardware [data-device=storage]")).to_have_class("hw-ok")
        expect(page.locator("#hw-alerts")).to_be_hidden()  # a warning stays in the card
    finally:
        server.services.runtime = None
        runtime.stop()


def test_a_player_taps_only_what_is_theirs_until_the_host_lets_players_act_for_all(
        devices, server):
    """docs/ui.md, the table page: during another province's turn a player sees whose turn
    it is, not its actions, and cannot undo its command; once the host lets players act for
    every province (live, without a reload: the stream's seats event) the player's taps act
    for the province whose turn it is."""
    ana = join_as(devices, server, "Ana", "blue")
    ben = join_as(devices, server, "Ben", "green")
    ana.click("#prompt button[data-value=merchants]")
    expect(ana.locator("#actions details[data-type=sail]")).to_be_visible()  # Ana's turn
    expect(ben.locator("#turn-waiting")).to_have_text("Blue is taking their turn.")
    expect(ben.locator("#actions details")).to_have_count(0)
    expect(ben.locator("#builder")).to_be_hidden()
    expect(ben.locator("#undo")).to_be_disabled()  # Blue's hire: not Ben's to take back
    expect(ana.locator("#undo")).to_be_enabled()

    host = devices()
    host.goto(server.host_link())
    host.locator("#seat summary").click()  # the host's panel
    host.get_by_label("Players may act for every province").check()
    expect(ben.locator("#actions details[data-type=sail]")).to_be_visible()  # live
    expect(ben.locator("#undo")).to_be_enabled()
    end = ben.locator("#actions [data-type=end_turn]")
    expect(end).to_have_text("End the turn")  # its button alone: not "End the turn (1)" too
    end.locator("button").click()
    expect(ben.locator("#history-list")).to_contain_text("Blue's turn ends.")
    table = server.services.tables.get(server.table)
    assert table.history()[-1].record.actor == "blue"  # sent as the province whose turn it was


def test_the_host_takes_back_a_players_command_and_only_its_player_may_redo_it(devices, server):
    """The host's undo is the host's in the history, and names what it took back and whose
    it was (it read "Undo · Green: Command 20 undone."); Redo is off on a phone whose
    redo the server would refuse (another province's command), on while it is its own."""
    ana = join_as(devices, server, "Ana", "blue")
    ben = join_as(devices, server, "Ben", "green")
    ana.click("#prompt button[data-value=merchants]")
    expect(ana.locator("#actions details[data-type=sail]")).to_be_visible()
    host = devices()
    host.goto(server.host_link())
    expect(host.locator("#undo")).to_be_enabled()
    host.click("#undo")
    undo = host.locator("#history-list li[data-kind=undo]").first
    expect(undo).to_contain_text("Taken back: Hire a guild (Blue).")  # the demo's player
    expect(undo.locator(".history-head")).to_have_text("Undo · the host")  # not "· Blue"
    table = server.services.tables.get(server.table)
    assert table.history()[-1].record.actor is None  # the host's, not Blue's
    expect(ana.locator("#redo")).to_be_enabled()
    expect(ben.locator("#redo")).to_be_disabled()  # Blue's to redo, not Ben's
    ana.click("#redo")
    expect(ana.locator("#history-list li[data-kind=redo]").first).to_contain_text(
        "Done again: Hire a guild (Blue).")


def test_a_turn_offers_advisors_before_the_guild_and_sails_every_ship_at_once(devices, server):
    """Rulebook, "Taking your turn": an advisor is hired (or a treasure bought) and one
    activated before the guild is hired; the page hid every action while the guild's prompt
    was open, so they could never be taken. "Sail": each ship moves, in one action; the page
    sailed one ship and the action was gone."""
    ana = join_as(devices, server, "Ana", "blue")
    expect(ana.locator("#prompt button[data-value=explorers]")).to_be_visible()
    hire = ana.locator("#actions details[data-type=hire_advisor]")
    expect(hire).to_be_visible()
    expect(ana.locator("#actions details[data-type=hire_guild]")).to_have_count(0)  # the prompt's
    hire.locator("summary").click()
    hire.get_by_role("button", name="Captain · pay gold").click()
    expect(ana.locator("#history-list")).to_contain_text("Captain")
    table = server.services.tables.get(server.table)
    assert "Captain" in [a.name for a in table.state.provinces["blue"].council]
    ana.click("#prompt button[data-value=Alchemist]")  # the forum dealt again: then the guild
    ana.click("#prompt button[data-value=explorers]")
    sail = ana.locator("#actions details[data-type=sail]")
    sail.locator("summary").click()
    sail.get_by_role("button", name="Sail").click()  # no ship chosen: said, nothing sent
    expect(ana.locator("#notice")).to_have_text(
        "Choose where at least one ship sails, or goods to move.")
    sail.get_by_label("Blue ship 1").select_option(label="to Example isle A (2 spaces)")
    sail.get_by_label("Blue ship 2").select_option(label="to Red province (2 spaces)")
    sail.get_by_role("button", name="Sail").click()
    expect(ana.locator("#actions details[data-type=sail]")).to_have_count(0)  # the action's done
    expect(ana.locator("#notice")).to_be_empty()  # the error before it is over
    locations = {s.id: s.location for s in table.state.ships.values()}
    assert locations["blue-1"] == "isle-a" and locations["blue-2"] == "red"


def test_a_french_phone_hires_advisors_by_their_french_names(devices, server):
    """QA (French table): the hire buttons said "Captain · payer en or" on a French page,
    where the log and the prompts said « la Capitaine » (names_fr.py)."""
    ana = join_as(devices, server, "Ana", "blue", locale="fr-FR")
    hire = ana.locator("#actions details[data-type=hire_advisor]")
    hire.locator("summary").click()
    hire.get_by_role("button", name="Capitaine · payer en or").click()
    expect(ana.locator("#history-list")).to_contain_text("Capitaine")
    table = server.services.tables.get(server.table)
    assert "Captain" in [a.name for a in table.state.provinces["blue"].council]  # the command's


def test_goods_are_loaded_before_sailing_and_unloaded_after_at_home(devices, server):
    """Rulebook, "Ships and Sailing" > "Sailing": before and after sailing, goods go between
    the warehouse and the ships at home (the sail form could move no goods, so none ever
    reached the warehouse); after sailing, only for a ship that ends at home."""
    from companion.games.seafall.setup import demo_options

    options = demo_options()
    options["provinces"][0]["warehouse"] = ["spice"]
    table = server.services.tables.create("seafall", options)
    table.apply(Command("hire_guild", {"guild": "merchants"}, "blue"))
    host = devices()
    host.goto(server.url(f"/host/{table.session_id}?pin="
                         f"{server.services.auth.demo_host(table.session_id)}"))
    sail = host.locator("#actions details[data-type=sail]")
    sail.locator("summary").click()
    before = sail.locator("fieldset[data-key='goods before']")
    after = sail.locator("fieldset[data-key='goods after']")
    load_after = after.get_by_label("Load the spice onto Blue ship 1")
    expect(load_after).to_be_enabled()  # Blue ship 1 is at home, and stays so far
    sail.locator("select[data-ship=blue-1]").select_option(label="to Example isle A (2 spaces)")
    expect(load_after).to_be_disabled()  # it ends at isle A: no warehouse there
    before.get_by_label("Load the spice onto Blue ship 1").check()
    sail.get_by_role("button", name="Sail").click()
    expect(host.locator("#actions details[data-type=sail]")).to_have_count(0)
    state = table.state
    assert state.ships["blue-1"].location == "isle-a" and state.ships["blue-1"].goods == ["spice"]
    assert state.provinces["blue"].warehouse == []


@pytest.mark.parametrize("follows", ["stream", "polling"])
def test_the_host_frees_a_province_whose_phone_is_lost(devices, server, follows):
    """docs/ui.md, the host's panel: each province played from a phone, with a button to
    free it (asked once more); the phone that played it watches from then on, live, and the
    province can be joined again. A phone that polls (no stream) sees it too (the GET's
    ``seats``: it kept offering the province's actions, each refused, until a reload)."""
    ben = join_as(devices, server, "Ben", "green")
    if follows == "polling":
        ben.route(re.compile(r"/api/stream/"), lambda route: route.fulfill(
            status=404, content_type="application/json", body='{"error": "not_found"}'))
        ben.reload()
        expect(ben.locator("#conn")).to_have_attribute("data-status", "polling")
    host = devices()
    host.goto(server.host_link())
    host.locator("#seat summary").click()
    expect(host.locator("#seat .seats li")).to_have_text(["Green is played by Ben. Free it"])
    host.once("dialog", lambda dialog: dialog.accept())
    host.locator("#seat button[data-seat=green]").click()
    expect(host.locator("#seat .seats")).to_have_count(0)
    expect(host.locator("#seat details")).to_have_attribute("open", "")  # still open
    expect(ben.locator("#seat")).to_contain_text("You are watching")  # live on Ben's phone
    expect(ben.locator("#notice")).to_contain_text("The host freed Green: you are watching now")
    bo = join_as(devices, server, "Bo", "green")
    expect(bo.locator("#me")).to_have_text("Bo, playing Green")


def test_the_keyboard_is_not_sent_back_to_the_top_after_a_command(devices, server):
    """A prompt answered from the keyboard: the button is gone, and the keyboard goes on to
    where the game stands (the status line), not to the top of the page."""
    ana = join_as(devices, server, "Ana", "blue")
    ana.locator("#prompt button[data-value=explorers]").focus()
    ana.keyboard.press("Enter")
    expect(ana.locator("#prompt")).to_be_hidden()
    ana.wait_for_function("document.activeElement && document.activeElement.id === 'status'")


def test_a_lost_request_for_the_turns_actions_is_asked_again(devices, server):
    """A phone whose request for the actions is lost (Wi-Fi) is not left without them: it
    asks again shortly."""
    ana = join_as(devices, server, "Ana", "blue")
    lost = []

    def drop_once(route):
        if not lost:
            lost.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    ana.route(re.compile(r"/choices"), drop_once)
    ana.click("#prompt button[data-value=merchants]")
    expect(ana.locator("#actions details[data-type=sail]")).to_be_visible()
    assert len(lost) == 1


def test_names_typed_on_the_home_page_play_the_demonstration_setup(devices, server):
    """docs/ui.md, the home page: with the demonstration setup ticked (the default), the
    names typed for its colours play its provinces; a name for a colour it does not have is
    refused with the reason, and no table is made."""
    page = devices()
    page.goto(server.url("/"))
    before = {t.id for t in server.services.store.sessions()}
    page.fill("#create-form input[name=player-yellow]", "Zoe")
    page.click("#create-form button[type=submit]")
    expect(page.locator("#create-result")).to_have_text(
        "The demonstration setup is played by Blue, Green, Red: untick it to play Yellow.")
    assert {t.id for t in server.services.store.sessions()} == before
    page.fill("#create-form input[name=player-yellow]", "")
    # QA: the refusal stayed under a form edited since (beside the browser's own "Please
    # fill out this field" for the campaign's name); it goes once the form is edited
    expect(page.locator("#create-result")).to_have_text("")
    page.fill("#create-form input[name=player-blue]", "Ana")
    page.fill("#create-form input[name=player-red]", "Cy")
    page.click("#create-form button[type=submit]")
    expect(page.locator("#create-result .pin")).to_be_visible()
    (made,) = {t.id for t in server.services.store.sessions()} - before
    provinces = server.services.tables.get(made).state.provinces
    assert {c: p.player for c, p in provinces.items()} == {
        "blue": "Ana", "green": "Green", "red": "Cy"}
    assert [a.name for a in provinces["green"].council] == ["Advanced Scout"]  # the demo's


def test_a_campaign_is_started_from_the_home_page_with_its_first_game(devices, server):
    """docs/ui.md, the home page: *Start a campaign with it* asks the campaign's name, then
    starts the campaign and sets up its first game at once (POST /api/campaigns, then
    .../next); this phone hosts the game, which links to its campaign. A campaign without a
    name is not started."""
    page = devices()
    page.goto(server.url("/"))
    name = page.locator("#create-form input[name=campaign_name]")
    expect(name).to_be_hidden()
    page.check("#create-form input[name=campaign]")
    expect(name).to_be_visible()
    expect(name).to_have_attribute("required", "")
    # the name only blank: the phone's own check lets it through; the page's does not
    name.fill("   ")
    page.click("#create-form button[type=submit]")
    result = page.locator("#create-result")
    expect(result).to_have_text("Name the campaign.")
    assert server.services.store.campaigns() == []
    name.fill("Thursday nights")
    page.click("#create-form button[type=submit]")
    expect(result).to_contain_text("The campaign “Thursday nights” is started")
    expect(result.locator(".pin")).to_have_text(re.compile(r"^\d{6}$"))
    campaigns = server.services.store.campaigns()
    assert [c.name for c in campaigns] == ["Thursday nights"]
    game = campaigns[0].current
    assert game is not None  # the first game is set up and under way
    result.get_by_role("link", name="The campaign").click()
    expect(page.locator("#campaign-name")).to_have_text("Thursday nights")
    expect(page.locator("#campaign-provinces article.province")).to_have_count(3)
    # its games by their number, not the ledger they were set up from
    expect(page.locator("#campaign-meta")).to_have_text(
        "SeaFall · game 1 under way · glory target 11")
    expect(page.locator("#campaign-games li")).to_have_text(["Game 1 in play"])
    page.goto(server.url("/"))
    page.check("#create-form input[name=campaign]")
    page.fill("#create-form input[name=campaign_name]", "Thursday nights")
    page.click("#create-form button[type=submit]")
    page.locator("#create-result").get_by_role("link", name="Go to the table").click()
    expect(page).to_have_url(re.compile(r"/t/[0-9a-f]+$"))
    expect(page.locator("#me")).to_contain_text("host")
    expect(page.locator("#campaign-link")).to_have_text("Campaign: Thursday nights")
    assert len(server.services.store.campaigns()) == 2  # a campaign's name need not be new


def test_campaign_page_shows_titles_record_and_enmity(devices, server):
    from companion.campaigns import start_campaign

    setup = {"provinces": [{"colour": "blue", "player": "Ana", "title": "prince"},
                           {"colour": "green", "player": "Bo", "title": "duke"},
                           {"colour": "red", "player": "Cy", "title": "count"}],
             # as the engine writes it: milestones by name to who claimed them (the page
             # showed them only as a list, which the engine never wrote), and changes of
             # players as entries of their own (they showed as "Game ?:")
             "record": [{"game": 1, "glory": {"blue": 12, "green": 9, "red": 7},
                         "milestones": {"Explorer": "green"}, "milestone_glory": {"green": 2},
                         "absent": ["red"]},
                        {"event": "joined", "province": "gray", "player": "Dee",
                         "before_game": 2, "campaign_glory": 6},
                        {"event": "returned", "province": "red", "before_game": 3,
                         "games_missed": 1},
                        {"event": "left", "province": "gray", "player": "Dee",
                         "before_game": 4, "returned": {"advisors": [], "research": []}}]}
    info = start_campaign(server.services.store, "Autumn league", "seafall", setup)
    page = devices()
    page.goto(server.url(f"/campaigns/{info.id}"))
    expect(page.locator("#campaign-name")).to_have_text("Autumn league")
    expect(page.locator("#campaign-provinces article.province")).to_have_count(3)
    expect(page.locator("#campaign-provinces")).to_contain_text("Ana")
    # titles as the table page names them ("Prince/Princess", not "prince")
    expect(page.locator("#campaign-provinces .pill").first).to_be_visible()
    titles = page.locator("#campaign-provinces .pill").all_text_contents()
    assert titles and all(title in ("Prince/Princess", "Duke/Duchess", "Count/Countess",
                                    "Baron/Baroness", "Lord/Lady") for title in titles), titles
    record = page.locator("#campaign-record li")
    expect(record).to_have_count(4)
    expect(record.nth(0)).to_contain_text("Game 1: Ana 12, Bo 9, Cy 7")
    expect(record.nth(0)).to_contain_text("Milestones: Explorer (Bo)")
    expect(record.nth(0)).to_contain_text("Glory from milestones: Bo 2")
    expect(record.nth(0)).to_contain_text("Absent: Cy")
    expect(record.nth(1)).to_have_text(
        "Before game 2: Dee joined the campaign as Gray, with 6 campaign glory.")
    expect(record.nth(2)).to_have_text("Before game 3: Cy came back after missing 1 game.")
    expect(record.nth(3)).to_have_text("Before game 4: Dee left the campaign.")
    page.goto(server.url("/campaigns/nope"))  # the missing page, not empty headings
    expect(page.locator("h1")).to_have_text("Not found")
    expect(page.locator("main")).to_contain_text("There is nothing here called “nope”.")


def test_the_host_records_a_game_and_sets_up_the_next_with_a_player_missing_it(devices,
                                                                              server):
    """The campaign page's host part (docs/ui.md): before the first game anyone may set it
    up; then only its host sees the buttons. Until the game is over the page says why it
    cannot be recorded yet (the engine's reason) instead of offering a button the server
    refuses, and offers it as soon as the game is over, without a reload; the next game is
    set up with the players ticked as missing it (rulebook, "Missing a game")."""
    from companion.campaigns import start_campaign
    from tests.companion.test_campaigns import play_out, script

    setup, lines = script()
    info = start_campaign(server.services.store, "Winter league", "seafall", setup)
    page = devices()
    page.goto(server.url(f"/campaigns/{info.id}"))
    expect(page.locator("#next-form input[name=absent]")).to_have_count(3)
    page.locator("#next-form button").click()
    expect(page.locator("#campaign-result .pin")).to_be_visible()  # the new table's host PIN
    expect(page.locator("#campaign-games li")).to_have_count(1)
    expect(page.locator("#record-wait")).to_have_text(
        "The game is not over and recorded yet: finish the end of the game first.")
    expect(page.get_by_role("button", name="Record the game into the campaign")).to_have_count(0)
    expect(page.locator("#campaign-actions").get_by_role("link", name="Go to the table")) \
        .to_have_attribute("href", f"/t/{server.services.store.campaign(info.id).current}")
    expect(page.get_by_role("link", name="Go to the table")).to_have_count(1)  # QA: twice

    watcher = devices()  # another phone: it sees the campaign, not the host's buttons
    watcher.goto(server.url(f"/campaigns/{info.id}"))
    expect(watcher.locator("#campaign-games li")).to_have_count(1)
    expect(watcher.locator("#campaign-host")).to_be_hidden()

    session = server.services.store.campaign(info.id).current
    play_out(server.services.tables.get(session), lines)
    expect(page.locator("#campaign-actions")).to_contain_text("The game is over")  # polled
    expect(page.locator("#campaign-news")).to_be_empty()  # not another phone's step
    page.get_by_role("button", name="Record the game into the campaign").click()
    expect(page.locator("#campaign-result")).to_contain_text("Recorded")
    expect(page.locator("#campaign-meta")).to_contain_text("next game 2")
    expect(page.locator("#campaign-record li")).to_have_count(1)
    page.locator("#next-form input[name=absent][value=red]").check()  # Ben
    page.locator("#next-form button").click()
    expect(page.locator("#campaign-result .pin")).to_be_visible()
    second = server.services.store.campaign(info.id).current
    assert second != session
    state = server.services.tables.get(second).state
    assert [c for c, p in state.provinces.items() if p.absent] == ["red"]


def test_the_campaign_pages_refusal_reads_in_french(devices, server):
    """docs/ui.md, "Languages", refusals: why a game that is not over cannot be recorded
    yet, in the page's French (the engine's reason with its ``phrases``)."""
    from companion.campaigns import start_campaign
    from tests.companion.test_campaigns import script

    info = start_campaign(server.services.store, "Ligue d’hiver", "seafall", script()[0])
    host = devices("fr-FR")
    host.goto(server.url(f"/campaigns/{info.id}"))
    host.locator("#next-form button").click()
    expect(host.locator("#campaign-result .pin")).to_be_visible()
    expect(host.locator("#record-wait")).to_have_text(
        "La partie n’est pas encore finie et notée : terminez d’abord la fin de partie.")


def test_the_campaign_page_follows_what_another_phone_does(devices, server):
    """A phone left on the campaign page sees the campaign move on at another phone (the
    next game set up, a step taken back), drawn anew with a line saying so (docs/ui.md).
    Before, it kept its stale buttons and form until it acted and got 409 conflict. The
    phone that made the change draws its own answer, with no such line."""
    from companion.campaigns import start_campaign
    from tests.companion.test_campaigns import script

    info = start_campaign(server.services.store, "Harvest league", "seafall", script()[0])
    watcher = devices()
    watcher.goto(server.url(f"/campaigns/{info.id}"))
    expect(watcher.locator("#next-form")).to_be_visible()  # before the first game: anyone
    host = devices()
    host.goto(server.url(f"/campaigns/{info.id}"))
    host.locator("#next-form button").click()
    expect(host.locator("#campaign-result .pin")).to_be_visible()

    expect(watcher.locator("#campaign-games li")).to_have_count(1)  # without a reload
    expect(watcher.locator("#campaign-news")).to_have_text(
        "Another phone moved this campaign on: it is shown as it is now.")
    expect(watcher.locator("#campaign-host")).to_be_hidden()  # the new game has its host

    server.services.store.take_back_campaign_step(info.id)  # as the host's other device
    expect(host.locator("#campaign-games li .pill")).to_have_text("taken back")
    expect(host.locator("#next-form")).to_be_visible()
    expect(host.locator("#campaign-news")).not_to_be_empty()
    expect(host.locator("#campaign-result .pin")).to_be_visible()  # the PIN shown once stays
    host.locator("#next-form button").click()  # its own change: no line about another phone
    expect(host.locator("#campaign-games li")).to_have_count(2)
    expect(host.locator("#campaign-news")).to_be_empty()
    expect(watcher.locator("#campaign-games li")).to_have_count(2)
    host.wait_for_timeout(6000)  # a poll after its own change: still no line
    expect(host.locator("#campaign-news")).to_be_empty()


def test_a_player_back_after_missing_games_catches_up_from_the_campaign_page(devices, server):
    """Rulebook, "Missing a game": back after six missed games, a ship is improved six
    times and the province takes two improvements, as the end of a game offers them; the
    host chooses them on the page (the next game could not be set up from the phone at all:
    the catch-up was owed). A field goes to the gold value typed (5 is gone from the sheet:
    6); an appellation is taken by its name (before, the page offered neither)."""
    from companion.games.seafall.engine import SeaFall
    from companion.games.seafall.membership import catch_up
    from tests.companion.test_campaigns import script

    ledger = {**script()[0], "game": 7}  # Ben (red) away for games 1 to 6
    red = next(p for p in ledger["provinces"] if p["colour"] == "red")
    red["games_missed"] = 6
    info = server.services.store.create_campaign("Spring league", "seafall", ledger)
    page = devices()
    page.goto(server.url(f"/campaigns/{info.id}"))
    part = page.locator('fieldset[data-returning="red"]')
    expect(part.locator("legend")).to_have_text(
        "Ben comes back after missing 6 games: the catch-up")
    expect(part.locator("select[name=ship]")).to_have_count(6)
    expect(part.locator("select[name=improvement]")).to_have_count(2)
    page.locator("#next-form input[name=absent][value=red]").check()
    expect(part).to_be_hidden()  # absent again: nothing to catch up yet
    page.locator("#next-form input[name=absent][value=red]").uncheck()
    chosen = ["red-1:sail", "red-1:sail", "red-2:hold", "red-2:hold", "red-1:raid",
              "red-2:explore"]
    for select, value in zip(part.locator("select[name=ship]").all(), chosen, strict=True):
        select.select_option(value)
    first, second = part.locator(".improvement").all()
    expect(first.locator("select[name=improvement] option")).to_have_text([
        "leader reputation +1", "leader fortune +1", "garrison +1",
        "field 1 (worth 4 gold)", "field 2 (worth 4 gold)", "an appellation"])
    expect(first.locator("input")).to_have_count(0)  # reputation: nothing to type
    first.locator("select[name=improvement]").select_option("field:red/field-2")
    value = first.locator("input[name=improvement-value]")
    expect(value).to_have_value("5")
    value.fill("6")
    second.locator("select[name=improvement]").select_option("appellation")
    second.locator("input[name=improvement-name]").fill(" the Returned ")
    page.locator("#next-form button").click()
    expect(page.locator("#campaign-result .pin")).to_be_visible()
    state = server.services.tables.get(server.services.store.campaign(info.id).current).state
    expected = SeaFall().setup(catch_up(ledger, "red", ships=chosen, improvements=[
        {"choice": "field:red/field-2", "value": 6},
        {"choice": "appellation", "name": "the Returned"}]))[0]
    assert state.provinces["red"].games_missed == 0 and not state.provinces["red"].absent
    assert {sid: (s.sail, s.raid, s.explore, s.hold) for sid, s in state.ships.items()} == {
        sid: (s["sail"], s["raid"], s["explore"], s["hold"])
        for sid, s in expected.payload["state"]["ships"].items()}
    assert state.sites["red/field-2"].value == \
        expected.payload["state"]["sites"]["red/field-2"]["value"] == 6
    assert state.provinces["red"].appellation == "the Returned"


@pytest.mark.parametrize("follows", ["stream", "polling"])
def test_a_campaign_game_links_to_its_campaign_and_says_when_it_is_recorded(devices, server,
                                                                            follows):
    """A table that is a campaign's game links to the campaign page, and once the end of the
    game is recorded, says that the campaign page carries it on (before, a phone at the
    table had no way there but the home page). A table of its own has no such link.
    Recording and taking back change no table version: a page that follows the stream hears
    its campaign event, and a page that polls (no stream) sees the table's `campaign` move."""
    from companion.campaigns import start_campaign, start_next_game
    from tests.companion.test_campaigns import play_out, script

    setup, lines = script()
    store = server.services.store
    info = start_campaign(store, "Summer league", "seafall", setup)
    game = start_next_game(store, info.id).session_id
    page = devices()
    if follows == "polling":
        page.route(re.compile(r"/api/stream/"), lambda route: route.fulfill(
            status=404, content_type="application/json",
            body='{"error": "not_found", "message": "no stream"}'))
    page.goto(server.url(f"/t/{server.table}"))
    expect(page.locator("#status")).not_to_have_text("Loading…")
    expect(page.locator("#campaign-link")).to_have_count(0)
    page.goto(server.url(f"/host/{game}?pin={server.services.auth.demo_host(game)}"))
    page.goto(server.url(f"/t/{game}"))  # its host, who may undo
    expect(page.locator("#conn")).to_have_attribute("data-status",
                                                   "live" if follows == "stream" else "polling")
    expect(page.locator("#campaign-link")).to_have_text("Campaign: Summer league")
    expect(page.locator("#campaign-next")).to_be_hidden()  # under way
    play_out(server.services.tables.get(game), lines)
    expect(page.locator("#status")).to_contain_text("game over, glory counted")  # live
    expect(page.locator("#campaign-next")).to_contain_text("The game is over")
    expect(page.locator("#undo")).to_be_enabled()
    campaign = page.context.new_page()  # the host records it from the campaign page
    campaign.set_default_timeout(WAIT)
    campaign.goto(server.url(f"/campaigns/{info.id}"))
    campaign.locator("#campaign-actions button.primary").click()
    expect(campaign.locator("#take-back")).to_have_text("Take back the recording of game 1")
    # the table page hears it (no new version of the table): it stays as recorded
    expect(page.locator("#campaign-next")).to_contain_text("Recorded into the campaign")
    expect(page.locator("#undo")).to_be_disabled()
    expect(page.locator("#next-game")).to_have_count(0)
    # the next game set up: the old table's phones are pointed at its table (they had no
    # way there but the campaign page), and no longer once that is taken back
    campaign.locator("#next-form button[type=submit]").click()
    expect(campaign.locator("#campaign-result .pin")).to_be_visible()
    second = store.campaign(info.id).current
    expect(page.locator("#next-game")).to_have_attribute("href", f"/t/{second}")
    campaign.once("dialog", lambda dialog: dialog.accept())
    campaign.locator("#take-back").click()
    expect(page.locator("#next-game")).to_have_count(0)
    campaign.once("dialog", lambda dialog: dialog.accept())
    expect(campaign.locator("#take-back")).to_have_text("Take back the recording of game 1")
    campaign.locator("#take-back").click()
    expect(page.locator("#campaign-next")).to_contain_text("The game is over")
    expect(page.locator("#undo")).to_be_enabled()  # to be mended, then recorded again
    campaign.close()
    page.locator("#campaign-next a").click()
    expect(page.locator("#campaign-name")).to_have_text("Summer league")
    expect(page.locator(f"a[href='/t/{game}']")).to_be_visible()  # its games list it


def test_the_host_takes_back_a_game_set_up_wrong_and_then_a_recording(devices, server):
    """Undo on the campaign page: the host ticked a player absent by mistake and takes the
    game's setting up back (asked once more, and again once a move was played on it; the
    table stays, as one of its own), and sets it up again; the game is played and recorded,
    and its recording taken back too."""
    from companion.campaigns import start_campaign
    from tests.companion.test_campaigns import play_out, script

    setup, lines = script()
    store = server.services.store
    info = start_campaign(store, "Winter league", "seafall", setup)
    page = devices()
    page.goto(server.url(f"/campaigns/{info.id}"))
    page.locator("#next-form input[name=absent][value=red]").check()  # by mistake
    page.locator("#next-form button[type=submit]").click()
    expect(page.locator("#campaign-result .pin")).to_be_visible()
    wrong = store.campaign(info.id).current
    # a move played on it: the take-back is asked a second time, the moves counted
    server.services.tables.get(wrong).apply(Command("deal_advisor", {"advisor": "Captain"}))
    table_page = page.context.new_page()  # the wrong game's table, open on another tab
    table_page.set_default_timeout(WAIT)
    # its live stream is held until the game is taken back: the campaign event is sent before
    # the stream opens, so the page learns of it only by asking when the stream opens (a
    # CI run found the page still linking the campaign when its stream opened that late)
    held = []
    table_page.route(re.compile(r"/api/stream/"), lambda route: held.append(route))
    table_page.goto(server.url(f"/t/{wrong}"))
    expect(table_page.locator("#campaign-link")).to_have_text("Campaign: Winter league")
    while not held:
        table_page.wait_for_timeout(50)
    page.bring_to_front()
    take_back = page.locator("#take-back")
    expect(take_back).to_have_text("Take back the setting up of game 1")
    page.once("dialog", lambda dialog: dialog.dismiss())  # on second thoughts: nothing sent
    take_back.click()
    expect(page.locator("#record-wait")).to_contain_text("The game is not over")  # as it was
    asked: list[str] = []

    def answer(dialog) -> None:  # noqa: ANN001 - a Playwright Dialog
        asked.append(dialog.message)
        dialog.accept()

    page.on("dialog", answer)
    take_back.click()
    expect(page.locator("#campaign-result")).to_have_text("Taken back.")
    page.remove_listener("dialog", answer)
    assert len(asked) == 2 and asked[1].startswith("A move was played on this game's table")
    expect(page.locator("#campaign-games li")).to_have_text(["Game 1 taken back"])
    expect(page.locator("#take-back")).to_have_count(0)  # nothing more to take back
    expect(table_page.locator("#campaign-link")).to_be_visible()  # its stream is held
    held[0].continue_()
    expect(table_page.locator("#conn")).to_have_attribute("data-status", "live")
    expect(table_page.locator("#campaign-link")).to_be_hidden()  # a table of its own
    table_page.close()
    page.locator("#next-form button[type=submit]").click()
    expect(page.locator("#campaign-result .pin")).to_be_visible()
    game = store.campaign(info.id).current
    assert game != wrong and store.campaign_of(wrong) is None
    assert server.services.tables.get(wrong).state.provinces["red"].absent  # kept, apart

    stale = page.context.new_page()  # the host's second tab, left open on the campaign
    stale.set_default_timeout(WAIT)
    stale.goto(server.url(f"/campaigns/{info.id}"))
    expect(stale.locator("#take-back")).to_have_text("Take back the setting up of game 1")
    play_out(server.services.tables.get(game), lines)
    page.reload()
    page.locator("#campaign-actions button.primary").click()  # record the game
    expect(page.locator("#take-back")).to_have_text("Take back the recording of game 1")
    # the stale tab still offers to take back the game's setting up: refused, with the
    # reason, and the tab shows the campaign as it is now
    stale.bring_to_front()
    stale.once("dialog", lambda dialog: dialog.accept())
    stale.locator("#take-back").click()
    expect(stale.locator("#campaign-result")).to_contain_text("its last step is now the "
                                                              "recording of")
    expect(stale.locator("#take-back")).to_have_text("Take back the recording of game 1")
    assert store.campaign(info.id).version == 2  # nothing taken back
    page.bring_to_front()
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#take-back").click()
    expect(page.locator("#campaign-actions")).to_contain_text("Record the game")
    assert store.campaign(info.id).current == game
    # recorded again: the games keep their numbers (a recording taken back leaves a gap in
    # the ledgers' versions, and the list said "Game 0 recorded")
    page.locator("#campaign-actions button.primary").click()
    expect(page.locator("#campaign-games li")).to_have_text(
        ["Game 1 taken back", "Game 1 recorded"])
    expect(page.locator("#campaign-meta")).to_contain_text("next game 2")


def test_a_player_leaves_for_good_and_a_new_one_joins_from_the_campaign_page(devices, server):
    """Rulebook, "Changing the number of players in your campaign": after game 1, Ben (red)
    leaves for good, asked once more, and Dan joins as gray with an advisor worth one
    reputation and one ship improvement (one game played)."""
    from companion.campaigns import record_game, start_campaign, start_next_game
    from tests.companion.test_campaigns import play_out, script

    setup, lines = script()
    store = server.services.store
    info = start_campaign(store, "Summer league", "seafall", setup)
    play_out(server.services.tables.get(start_next_game(store, info.id).session_id), lines)
    record_game(store, info.id)
    page = devices()
    page.goto(server.url(f"/campaigns/{info.id}"))
    # the page is open to anyone before a game; now it is the last game's host's
    expect(page.locator("#campaign-host")).to_be_hidden()
    last = store.campaign(info.id).games[-1].session_id
    page.goto(server.url(f"/host/{last}?pin={server.services.auth.demo_host(last)}"))
    page.goto(server.url(f"/campaigns/{info.id}"))
    page.locator("fieldset.joining select[name=join-colour]").select_option("gray")
    page.locator("input[name=join-player]").fill("Dan")
    expect(page.locator("fieldset.joining select[name=ship]")).to_have_count(1)
    page.locator("fieldset.joining select[name=ship]").select_option("gray-2:raid")
    page.locator("input[name=leave][value=red]").check()
    page.once("dialog", lambda dialog: dialog.dismiss())  # on second thoughts: nothing sent
    page.locator("#next-form button").click()
    expect(page.locator("#campaign-result")).to_be_empty()
    assert store.campaign(info.id).current is None
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#next-form button").click()
    expect(page.locator("#campaign-result .pin")).to_be_visible()
    state = server.services.tables.get(store.campaign(info.id).current).state
    assert set(state.provinces) == {"green", "blue", "gray"}
    gray = state.provinces["gray"]
    assert gray.player == "Dan" and len(gray.council) == 1
    assert state.catalogue.advisors[gray.council[0].name].reputation == 1
    assert state.ships["gray-2"].raid == 3 + 1  # the second starting ship's raid, improved


def seafall_profile():
    """The demo's SeaFall profile, enrolled from synthetic crops, once a reader with it can
    be made (vision's model files are in the checkout)."""
    from vision.reader import DiceReader
    from web.runtime.recording import enroll_demo_profile

    try:
        profile = enroll_demo_profile()
        DiceReader("seafall", profile=profile)
    except Exception as exc:  # vision's ModelError and friends: a model file is missing
        pytest.skip(f"the SeaFall dice reader is not available here: {exc}")
    return profile


def test_the_province_cards_show_ships_as_they_count_and_the_structures_built(devices, server):
    """A ship's values on the province card count its upgrades (Red ship 1's Bold: explore
    3, as its endeavors roll; the card said 2), a damage card is not named "damage", and
    the structures built in a province are listed with where they stand (they were in the
    history only)."""
    from companion.games.seafall.setup import demo_options

    options = demo_options()
    options["provinces"][0]["gold"] = 20  # Blue: enough for a Port
    options["provinces"][0]["ships"] = [  # said in words, not "Damage card: 1", "⤵"
        {}, {"upgrades": [{"name": "Swift", "exhausted": True}], "damage": ["Leak"]}]
    table = server.services.tables.create("seafall", options)
    table.apply(Command("activate_advisor", {"advisor": "Madman"}, "blue"))
    table.apply(Command("hire_guild", {"guild": "builders"}, "blue"))
    table.apply(Command("build", {"structure": "Port"}, "blue"))
    page = devices()
    page.goto(server.url(f"/t/{table.session_id}"))
    red = page.locator("#provinces [data-ship=red-1]")
    expect(red).to_contain_text("explore 3 · raid")
    blue = page.locator("#provinces article[data-province=blue]")
    expect(blue.locator(".structures")).to_have_text(
        "Structures: Port (building site 1 of Blue province)")
    expect(blue).to_contain_text("Madman (active)")  # the active advisor, marked
    ship = page.locator("#provinces [data-ship=blue-2]")
    expect(ship).to_contain_text("1 damage card: Leak")
    expect(ship).to_contain_text("Swift (exhausted)")
    french = devices("fr-FR")  # a province the setup named, said as the history says it
    french.goto(server.url(f"/t/{table.session_id}"))
    expect(french.locator("#provinces article[data-province=blue] .structures")).to_contain_text(
        "(chantier 1 de la province bleue)")


def test_upgrades_and_structures_offered_say_what_they_do(devices, server):
    """The builders' buttons name each upgrade and structure with what it does
    (RULES-FACTS, "Starting ship upgrades", "Starting structures"): a player had only the
    name ("Swift", "Port") to choose by, in either language."""
    from companion.games.seafall.setup import demo_options

    options = demo_options()
    options["provinces"][0]["gold"] = 20
    table = server.services.tables.create("seafall", options)
    table.apply(Command("hire_guild", {"guild": "builders"}, "blue"))
    link = server.url(f"/host/{table.session_id}?pin="
                      f"{server.services.auth.demo_host(table.session_id)}")
    for locale, upgrade, structure in (
            ("en-GB", "Swift (sail +1)", "Port (repair without using an action)"),
            ("fr-FR", "Swift (navigation +1)", "Port (réparer sans y passer une action)")):
        host = devices(locale)
        host.goto(link)
        for kind, said in (("upgrade", upgrade), ("build", structure)):
            group = host.locator(f"#actions details[data-type={kind}]")
            group.locator("summary").click()
            expect(group.locator("button.choice", has_text=said).first).to_be_visible()


def test_an_explored_site_is_told_what_was_found_from_the_phone(devices, server):
    """Rulebook, "Explorers Guild" > "Explore": the site explored gets the sticker of what
    was found. No page offered record_site, so an explored site stayed a blank "explored"
    one (no production at winter, never raided). A card asks each explored site's sticker;
    a mine is recorded with its gold; the card goes once nothing is left to tell."""
    table = server.services.tables.get(server.table)
    for cmd, args in (("hire_guild", {"guild": "explorers"}),
                      ("sail", {"moves": [{"ship": "blue-1",
                                           "path": ["coastal_waters", "isle-a"]}]}),
                      ("explore", {"flagship": "blue-1", "site": "isle-a/3"}),
                      ("roll", {"faces": ["strong", "strong"]}),
                      ("assign_damage", {"choice": "card:blue-1"})):
        table.apply(Command(cmd, args, "blue"))
    assert table.state.sites["isle-a/3"].kind == "explored"
    watcher = devices()  # a spectator is not asked
    watcher.goto(server.url(f"/t/{server.table}"))
    expect(watcher.locator("#status")).to_contain_text("Year")
    ana = join_as(devices, server, "Ana", "green")  # any player at the table may tell
    card = ana.locator("#explored")
    form = card.locator("form[data-site='isle-a/3']")
    expect(form.locator("legend")).to_have_text("site 3 of Example isle A")
    expect(form.get_by_label("Goods", exact=True)).to_be_visible()  # a site with goods by default
    form.get_by_label("The site is", exact=True).select_option(label="a mine")
    expect(form.get_by_label("Goods", exact=True)).to_be_hidden()
    form.get_by_role("button", name="Record").click()  # no gold given: the form says so
    assert table.state.sites["isle-a/3"].kind == "explored"
    form.get_by_label("Gold it is worth", exact=True).fill("3")
    form.get_by_role("button", name="Record").click()
    expect(card).to_be_hidden()
    site = table.state.sites["isle-a/3"]
    assert (site.kind, site.value) == ("mine", 3)
    expect(watcher.locator("#explored")).to_be_hidden()


def test_a_photo_with_no_die_says_why_and_what_to_do(devices, server, tmp_path):
    """A photo of no dice (a dark picture) while a roll is asked: the table page shows the
    read with the reader's warning, says to throw or take the photo again or type the
    faces, and offers no confirm of 0 dice (it hid the card; the photo page said to tap
    the dice it missed on a picture it did not show, and offered "Confirm this die")."""
    dark = tmp_path / "dark.jpg"
    cv2.imwrite(str(dark), np.full((720, 1280, 3), 6, np.uint8))
    ana = join_as(devices, server, "Ana", "blue")
    start_exploration(ana)
    ana.set_input_files("#photo-input", str(dark))
    expect(ana.locator("#dice .read")).to_have_attribute("data-status", "pending")
    expect(ana.locator("#dice-none")).to_have_text(
        "No die was found in this picture: throw or take the photo again, or type the faces "
        "the dice show.")
    expect(ana.locator("#dice")).to_contain_text("the picture is black")  # the warning
    expect(ana.locator("#confirm-read")).to_have_count(0)
    expect(ana.locator("#dice-missed")).to_have_count(0)


def test_a_die_the_host_corrects_says_the_host_in_the_pages_language(devices, server):
    """Who corrected a die is named as the history names them: the host as the host, in
    the page's language (a French page said "corrigé par host")."""
    server.services.dice().readers.profiles["seafall"] = seafall_profile()
    ana = join_as(devices, server, "Ana", "blue")
    start_exploration(ana)
    host = devices("fr-FR")
    host.goto(server.host_link())
    host.set_input_files("#photo-input", str(DEMO_FRAMES / "roll-1-settled.jpg"))
    tile = host.locator("#dice .die-tile").first
    expect(tile).to_be_visible()
    face = host.request.get(server.url(
        f"/api/tables/{server.table}/dice/latest")).json()["dice"][0]["face"]
    tile.click()
    host.locator(f"#dice .picker button.face-button.f-{'blank' if face != 'blank' else 'strong'}"
                 ).click()
    expect(host.locator("#dice .die-tile").first).to_contain_text("corrigé par l’hôte")


def test_photo_of_the_dice_is_read_shown_with_crops_and_corrected(devices, server):
    """A recorded tray frame of the demo (web/runtime/demo/) goes through the real reader;
    the page shows exactly the read the dice API keeps (each die's crop and face, the dice
    the reader is unsure of highlighted, a confirm while it is pending); a tap corrects one
    die, recorded with who corrected, and the second phone follows."""
    server.services.dice().readers.profiles["seafall"] = seafall_profile()
    ana = join_as(devices, server, "Ana", "blue")
    start_exploration(ana)
    watcher = devices()
    watcher.goto(server.url(f"/t/{server.table}"))

    ana.set_input_files("#photo-input", str(DEMO_FRAMES / "roll-1-settled.jpg"))
    read = ana.locator("#dice .read")
    expect(read).to_be_visible()
    kept = ana.request.get(server.url(f"/api/tables/{server.table}/dice/latest")).json()
    assert kept["source"] == "photo" and kept["dice"]
    expect(read).to_have_attribute("data-status", kept["status"])
    tiles = read.locator(".die-tile")
    expect(tiles).to_have_count(len(kept["dice"]))
    expect(read.locator(".die-tile.uncertain")).to_have_count(
        sum(d["uncertain"] for d in kept["dice"]))
    ana.wait_for_function(
        "[...document.querySelectorAll('#dice .die-tile img')].every(i => i.naturalWidth > 0)")
    for n, die in enumerate(kept["dice"]):
        # named for a screen reader by its number, what it shows, then what a tap does
        expect(tiles.nth(n)).to_have_accessible_name(re.compile(
            rf"^die {n + 1}: {re.escape(FACE_NAMES[die['face']])}\b.*; tap to correct$"))
    # the whole picture, each die's box numbered as its tile, where the reader found it
    read.locator(".read-frame summary").click()
    boxes = read.locator(".read-frame .die-box")
    expect(boxes).to_have_text([str(n + 1) for n in range(len(kept["dice"]))])
    ana.wait_for_function("document.querySelector('#dice .read-frame img').naturalWidth > 0")
    shown = read.locator(".read-frame img").bounding_box()
    first_box = boxes.first.bounding_box()
    width, height = kept["frame_size"]
    x, y, w, _ = kept["dice"][0]["box"]
    scale = shown["width"] / width
    assert abs(first_box["x"] - (shown["x"] + x * scale)) <= 2
    assert abs(first_box["y"] - (shown["y"] + y * scale)) <= 2
    assert abs(first_box["width"] - w * scale) <= 2 and shown["height"] == pytest.approx(
        height * scale, abs=2)
    if kept["status"] == "pending":
        expect(ana.locator("#confirm-read")).to_be_visible()
        ana.click("#confirm-read")
    expect(ana.locator("#dice .read")).to_have_attribute("data-status", "applied")
    expect(ana.locator("#confirm-read")).to_have_count(0)
    expect(ana.locator("#dice .read-frame")).to_have_attribute("open", "")  # drawn again, open
    expect(watcher.locator("#history-list")).to_contain_text("Dice read (photo)")
    # the roll in the history links to the picture it was read from
    expect(watcher.locator("#history-list .roll-picture")).to_have_attribute(
        "href", kept["frame_url"])
    assert watcher.request.get(server.url(kept["frame_url"])).status == 200

    new_face = "blank" if kept["dice"][0]["face"] != "blank" else "strong"
    ana.locator("#dice .die-tile").first.click()
    # an applied read's picker: the faces and Cancel, nothing left over ("null" was written
    # where the "not a die" button is not offered)
    expect(ana.locator("#dice .picker")).not_to_contain_text("null")
    ana.locator(f"#dice .picker button.face-button.f-{new_face}").click()
    first = ana.locator("#dice .die-tile").first
    expect(first).to_contain_text("corrected by Ana")
    expect(first).to_contain_text(FACE_NAMES[new_face])
    expect(watcher.locator("#history-list")).to_contain_text(new_face)

    # the roll undone: the read says so on both phones, and one tap applies it again
    ana.click("#undo")
    for page in (ana, watcher):
        expect(page.locator("#dice .read")).to_have_attribute("data-status", "undone")
        expect(page.locator("#dice .read-status")).to_contain_text("its roll was undone")
    expect(ana.locator("#confirm-read")).to_have_text("Apply this roll again")
    ana.dblclick("#confirm-read")  # a double tap applies it once, and says no error
    for page in (ana, watcher):
        expect(page.locator("#dice .read")).to_have_attribute("data-status", "applied")
    ana.wait_for_timeout(300)
    expect(ana.locator("#notice .error")).to_have_count(0)
    assert server.services.tables.get(server.table).state.endeavor.faces


def three_dice_read(server, tmp_path) -> Path:
    """A photo of three SeaFall dice (the synthetic tray), read by the demo's profile, for
    a roll that asks for two: the read waits."""
    server.services.dice().readers.profiles["seafall"] = seafall_profile()
    photo = tray_photo(np.random.default_rng(11), ["weak", "strong", "standard"], size=SIZE,
                       die_px=DIE_PX)
    picture = tmp_path / "three-boxes.jpg"
    cv2.imwrite(str(picture), photo.image)
    return picture


def test_a_box_that_is_no_die_is_taken_out_of_the_roll_by_tapping(devices, server, tmp_path):
    """docs/ui.md, "Dice": a roll of 2 read as 3 boxes (a token, a die from another roll)
    waits; a tap on the third, *Not a die*, takes it out (greyed, dashed, said by whom,
    on every phone), the confirm counts the 2 dice left, and the roll is answered with
    them. Before the confirm, *It is a die* puts a box back."""
    picture = three_dice_read(server, tmp_path)
    ana = join_as(devices, server, "Ana", "blue")
    start_exploration(ana)
    watcher = devices()
    watcher.goto(server.url(f"/t/{server.table}"))
    ana.set_input_files("#photo-input", str(picture))
    read = ana.locator("#dice .read")
    expect(read).to_have_attribute("data-status", "pending")
    expect(read.locator(".die-tile")).to_have_count(3)
    # three for a roll of two: which to take out is said, and no confirm to be refused
    expect(ana.locator("#dice-extra")).to_have_text(
        "It found 3 dice and the roll asks for 2: tap the die that is not the roll's and take "
        "it out (“Not a die”), then confirm.")
    expect(ana.locator("#confirm-read")).to_have_count(0)
    ana.locator("#dice .die-tile").nth(2).click()
    ana.locator("#dice .picker #not-a-die").click()
    for page in (ana, watcher):
        out = page.locator("#dice .die-tile").nth(2)
        expect(out).to_have_class(re.compile(r"\bnot-a-die\b"))
        expect(out).to_contain_text("not a die")
        expect(out).to_contain_text("taken out by Ana")
    expect(ana.locator("#confirm-read")).to_have_text("Confirm these 2 dice")
    ana.locator("#dice .die-tile").nth(2).click()  # on second thoughts: it is a die
    ana.locator("#dice .picker #is-a-die").click()
    expect(ana.locator("#dice-extra")).to_be_visible()  # three again: no confirm
    expect(ana.locator("#confirm-read")).to_have_count(0)
    expect(ana.locator("#dice .die-tile.not-a-die")).to_have_count(0)
    ana.locator("#dice .die-tile").nth(2).click()  # no: it is not
    ana.locator("#dice .picker #not-a-die").click()
    expect(ana.locator("#confirm-read")).to_have_text("Confirm these 2 dice")
    kept = ana.request.get(server.url(f"/api/tables/{server.table}/dice/latest")).json()
    ana.click("#confirm-read")
    expect(read).to_have_attribute("data-status", "applied")
    assert server.services.tables.get(server.table).state.endeavor.faces == kept["faces"]
    assert len(kept["faces"]) == 2 and kept["dice"][2]["not_a_die"]
    expect(ana.locator("#dice .die-tile.not-a-die")).to_be_disabled()  # the roll is answered


def test_a_read_is_folded_with_no_tap_once_something_was_done_after_its_roll(
        devices, server, tmp_path):
    """docs/ui.md, "Dice": on phones, an old read stayed on the table page turns later, with
    the notes it had while it waited ("the roll asks for 2 dice; the reader saw 3") and its
    tiles "tap to correct" buttons the server refused. Applied, its notes are over and a tile
    that cannot be tapped says no tap; once a command follows its roll (no die of it may be
    corrected: the read's ``can_correct``), the card says whose roll it was, folded, its
    tiles no buttons; that command undone, its dice may be corrected again."""
    picture = three_dice_read(server, tmp_path)
    ana = join_as(devices, server, "Ana", "blue")
    start_exploration(ana)
    ana.set_input_files("#photo-input", str(picture))
    read = ana.locator("#dice .read")
    expect(read).to_have_attribute("data-status", "pending")
    expect(read).to_contain_text("the roll asks for 2 dice; the reader saw 3")
    ana.locator("#dice .die-tile").nth(2).click()
    ana.locator("#dice .picker #not-a-die").click()
    ana.click("#confirm-read")
    expect(read).to_have_attribute("data-status", "applied")
    expect(read).not_to_contain_text("the reader saw 3")  # why it waited: over
    tiles = ana.locator("#dice .die-tile")
    expect(tiles.nth(0)).to_have_accessible_name(re.compile(r"; tap to correct$"))
    expect(tiles.nth(2)).to_be_disabled()  # taken out: nothing to tap once applied
    expect(tiles.nth(2)).not_to_have_accessible_name(re.compile("tap to correct"))
    kept = ana.request.get(server.url(f"/api/tables/{server.table}/dice/latest")).json()
    assert kept["can_correct"] is True

    server.services.tables.get(server.table).apply(
        Command("assign_damage", {"choice": "card:blue-1"}, "blue"))
    folded = ana.locator("#dice details.settled-read")
    faces = ", ".join(FACE_NAMES[f] for f in kept["faces"])
    expect(folded.locator("> summary")).to_have_text(
        re.compile(rf"^Last roll · .+'s exploration: {re.escape(faces)}$"))
    expect(folded.locator(".dice-tiles")).to_be_hidden()  # out of the way until opened
    folded.locator("> summary").click()
    expect(folded.locator("div.die-tile")).to_have_count(3)
    expect(ana.locator("#dice button.die-tile")).to_have_count(0)
    expect(ana.locator("#dice")).not_to_contain_text("tap to correct")
    expect(ana.locator("#dice-done-with")).to_contain_text("can no longer be corrected")
    latest = ana.request.get(server.url(f"/api/tables/{server.table}/dice/latest")).json()
    assert latest["status"] == "applied" and latest["can_correct"] is False

    ana.click("#undo")  # the damage taken back: the roll may be corrected again
    expect(ana.locator("#dice details.settled-read")).to_have_count(0)
    expect(ana.locator("#dice button.die-tile")).to_have_count(3)
    expect(ana.locator("#dice .die-tile").nth(0)).to_have_accessible_name(
        re.compile(r"; tap to correct$"))


def test_what_a_read_says_is_said_in_each_pages_language(devices, server, tmp_path):
    """docs/ui.md, "Languages": a read's notes (vision.said) come with their keys, and a
    French phone says them in French while an English one says the server's English."""
    picture = three_dice_read(server, tmp_path)
    ana = join_as(devices, server, "Ana", "blue")
    start_exploration(ana)
    french = devices("fr-FR")
    french.goto(server.url(f"/t/{server.table}"))
    ana.set_input_files("#photo-input", str(picture))
    expect(ana.locator("#dice .read")).to_contain_text(
        "the roll asks for 2 dice; the reader saw 3")
    expect(french.locator("#dice .read")).to_contain_text(
        "le lancer demande 2 dés ; le lecteur en a vu 3")
    expect(french.locator("#dice .read")).not_to_contain_text("the reader saw")


def test_a_die_the_reader_missed_is_added_by_tapping_it_on_the_picture(devices, server,
                                                                     tmp_path):
    """docs/ui.md, "Dice": a read with fewer dice than the roll asks for says so; on the
    read's whole picture the player taps the die it missed, which is added (read by the
    reader, uncertain, *added by ...*), and the read is confirmed with it."""
    server.services.dice().readers.profiles["seafall"] = seafall_profile()
    photo = tray_photo(np.random.default_rng(12), ["weak", "strong"], size=SIZE, die_px=DIE_PX)
    picture = tmp_path / "two-dice.jpg"
    cv2.imwrite(str(picture), photo.image)
    ana = join_as(devices, server, "Ana", "blue")
    start_exploration(ana)
    ana.set_input_files("#photo-input", str(picture))
    read = ana.locator("#dice .read")
    expect(read).to_be_visible()
    # the reader missed the second die: the read as it would have been kept without it
    dice = server.services.dice()
    latest = ana.request.get(server.url(f"/api/tables/{server.table}/dice/latest")).json()
    record = dice.store.get(latest["read_id"])
    missed = record.dice[1]
    if record.status == "applied":
        server.services.tables.get(server.table).undo("blue")
    dice.store.update(record, status="pending", applied_version=None, applied_command=None,
                      applied_faces=None, dice=record.dice[:1])
    ana.reload()
    expect(read.locator(".die-tile")).to_have_count(1)
    expect(ana.locator("#dice-missed")).to_have_text(
        "It found 1 of the 2 dice the roll asks for: open “Where each die is” below and tap "
        "each die it missed.")
    read.locator(".read-frame summary").click()
    expect(read.locator(".read-frame")).to_contain_text("Tap it on the picture to add it.")
    ana.wait_for_function("document.querySelector('#dice .read-frame img').naturalWidth > 0")
    shown = read.locator(".read-frame img").bounding_box()
    width, height = latest["frame_size"]
    x, y, w, h = missed.box
    ana.mouse.click(shown["x"] + (x + w / 2) / width * shown["width"],
                    shown["y"] + (y + h / 2) / height * shown["height"])
    tiles = read.locator(".die-tile")
    expect(tiles).to_have_count(2)
    expect(tiles.nth(1)).to_contain_text("added by Ana")
    expect(tiles.nth(1)).to_have_class(re.compile(r"\buncertain\b"))
    expect(tiles.nth(1)).to_contain_text(FACE_NAMES[missed.face])
    expect(ana.locator("#dice-missed")).to_have_count(0)
    expect(read.locator(".read-frame .die-box")).to_have_text(["1", "2"])  # boxed, numbered
    ana.click("#confirm-read")
    expect(read).to_have_attribute("data-status", "applied")
    assert server.services.tables.get(server.table).state.endeavor.faces == [
        record.dice[0].face, missed.face]


def unread_two_dice(server, tmp_path):
    """A photo of a weak and a strong die (the synthetic tray) and its file, with the
    server given no SeaFall profile, so that its dice are found and left unread."""
    server.services.dice().readers.profile_dir = tmp_path / "no-profiles"
    photo = tray_photo(np.random.default_rng(3), ["weak", "strong"], size=SIZE, die_px=DIE_PX)
    picture = tmp_path / "two-dice.jpg"
    cv2.imwrite(str(picture), photo.image)
    return photo, picture


UNREAD_TWO = "2 dice found, none read yet: tap each to name it."
"""The notice over a photo's two dice that no profile reads (it said "2 dice read.")."""


def photo_sent_for_an_exploration(devices, server, picture, locale: str):  # noqa: ANN001, ANN201
    """Blue explores (the roll asked for), and Ana, Blue's player on a phone in
    ``locale``, sends ``picture`` from the photo page: that page."""
    table = server.services.tables.get(server.table)
    for cmd, args in (("hire_guild", {"guild": "explorers"}),
                      ("sail", {"moves": [{"ship": "blue-1", "path": ["coastal_waters",
                                                                      "isle-a"]}]}),
                      ("explore", {"flagship": "blue-1", "site": "isle-a/3"})):
        table.apply(Command(cmd, args, "blue"))
    ana = join_as(devices, server, "Ana", "blue", locale=locale,
                  role="joueur" if locale == "fr-FR" else "player")
    camera = ana.context.new_page()
    camera.set_default_timeout(WAIT)
    camera.goto(server.url(f"/t/{server.table}/photo"))
    expect(camera.locator("#photo-form")).to_be_visible()
    camera.set_input_files("#photo-file", str(picture))
    return camera


@pytest.mark.parametrize(("locale", "said"), [
    pytest.param("en-GB", UNREAD_TWO, id="English"),
    pytest.param("fr-FR", "2 dés trouvés, aucun encore lu\u00a0: touchez chacun pour le nommer.",
                 id="French"),
])
def test_a_photo_of_dice_not_read_yet_says_so(devices, server, tmp_path, locale, said):
    """Two dice found and left "not read yet" (no profile): the notice said "2 dice read."
    (« 2 dés lus. ») above two tiles saying neither was read; it says they are found and
    to name them, and, with some read, how many are read, to check and not read yet, as
    the tiles show them."""
    _, picture = unread_two_dice(server, tmp_path)
    camera = photo_sent_for_an_exploration(devices, server, picture, locale)
    expect(camera.locator("#notice")).to_have_text(said)
    expect(camera.locator("#dice .die-tile")).to_have_count(2)
    summary = camera.evaluate("""async () => {
        const {readSummary} = await import("/static/js/dice.js");
        const die = (face, uncertain) => ({face, uncertain, notADie: false, corrected: null});
        return [
          readSummary({status: "pending", dice: [die("weak", false), die("strong", true),
                                                 die("?", true)]}),
          readSummary({status: "pending", dice: [die("weak", false), die("?", true)]}),
          readSummary({status: "pending", dice: [die("weak", false), die("strong", false)]}),
          readSummary({status: "applied", dice: [die("weak", false), die("strong", true)]}),
        ];
    }""")
    if locale == "en-GB":
        assert summary == ["3 dice found: 1 read, 1 to check, 1 not read yet.",
                           "2 dice found: 1 read, 1 not read yet.", "2 dice read.",
                           "2 dice read."]
    else:
        assert summary == ["3 dés trouvés\u00a0: 1 lu, 1 à vérifier, 1 pas encore lu.",
                           "2 dés trouvés\u00a0: 1 lu, 1 pas encore lu.", "2 dés lus.",
                           "2 dés lus."]


@pytest.mark.parametrize(("locale", "said"), [
    pytest.param("en-GB", "No dice read.", id="English"),
    pytest.param("fr-FR", "Aucun dé lu.", id="French"),
])
def test_a_photo_without_dice_is_said_in_words(devices, server, tmp_path, locale, said):
    """A photo of the empty tray: the notice said « 0 dé lu. »."""
    server.services.dice().readers.profile_dir = tmp_path / "no-profiles"
    photo = tray_photo(np.random.default_rng(3), [], size=SIZE, die_px=DIE_PX)
    picture = tmp_path / "empty.jpg"
    cv2.imwrite(str(picture), photo.image)
    camera = photo_sent_for_an_exploration(devices, server, picture, locale)
    expect(camera.locator("#notice")).to_have_text(said)


def with_orientation(jpeg: bytes, orientation: int) -> bytes:
    """A JPEG with an EXIF APP1 segment giving its orientation (6: the picture shows turned
    a quarter clockwise, as a phone held upright writes it)."""
    tiff = (b"MM\x00\x2a\x00\x00\x00\x08\x00\x01" + b"\x01\x12\x00\x03\x00\x00\x00\x01"
            + orientation.to_bytes(2, "big") + b"\x00\x00" + b"\x00\x00\x00\x00")
    app1 = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + (len(app1) + 2).to_bytes(2, "big") + app1 + jpeg[2:]


def sent_picture(body: bytes) -> np.ndarray:
    """The picture in a multipart photo upload."""
    start = body.index(b"\xff\xd8")
    return cv2.imdecode(np.frombuffer(body[start:], np.uint8), cv2.IMREAD_COLOR)


def test_a_phone_photo_over_the_upload_limit_is_sent_smaller_and_upright(
        devices, server, tmp_path):
    """A phone at its top quality sends 20-30 MB, over the server's 16 MB: the page said the
    server's English "The data value transmitted exceeds the capacity limit." (in French
    too). The photo page draws such a photo again at 3,000 px, upright as the phone held it
    (its EXIF orientation applied), and its dice are read; one the browser cannot open is
    sent as it is, and refused with a sentence in the page's language."""
    server.services.dice().readers.profile_dir = tmp_path / "no-profiles"
    photo = tray_photo(np.random.default_rng(3), ["weak", "strong"], size=SIZE, die_px=DIE_PX)
    big = cv2.resize(photo.image, (6000, 4500), interpolation=cv2.INTER_CUBIC)
    big = np.clip(big.astype(np.int16) + np.random.default_rng(1).integers(
        -24, 25, big.shape, dtype=np.int16), 0, 255).astype(np.uint8)  # a sensor's noise
    turned = cv2.rotate(big, cv2.ROTATE_90_COUNTERCLOCKWISE)  # stored as a phone held upright
    data = with_orientation(cv2.imencode(".jpg", turned, [cv2.IMWRITE_JPEG_QUALITY, 97])[1]
                            .tobytes(), 6)
    assert len(data) > 16 * 1024 * 1024
    picture = tmp_path / "IMG_big.jpg"
    picture.write_bytes(data)
    ana = join_as(devices, server, "Ana", "blue")
    start_exploration(ana)
    camera = ana.context.new_page()
    camera.set_default_timeout(WAIT)
    sent = []

    def keep(route):
        sent.append(route.request.post_data_buffer)
        route.continue_()

    camera.route(re.compile(r"/dice/photo$"), keep)
    camera.goto(server.url(f"/t/{server.table}/photo"))
    expect(camera.locator("#photo-prompt")).to_contain_text("Roll 2 dice")
    camera.set_input_files("#photo-file", str(picture))
    expect(camera.locator("#notice")).to_have_text(UNREAD_TWO)
    assert len(sent) == 1 and len(sent[0]) < 16 * 1024 * 1024
    assert sent_picture(sent[0]).shape[:2] == (2250, 3000)  # landscape, as the tray lies
    # a file the browser cannot open as a picture goes as it is: refused, in French
    odd = tmp_path / "IMG_odd.jpg"
    odd.write_bytes(b"\xff\xd8" + bytes(17 * 1024 * 1024))
    camera.set_input_files("#photo-file", str(odd))
    expect(camera.locator("#notice")).to_have_text(
        "the photo is over 16 MB, more than Tableside takes: send a smaller one (set the "
        "phone's camera to a lower resolution)")
    bo = join_as(devices, server, "Bo", "green", locale="fr-FR", role="joueur")
    bo.goto(server.url(f"/t/{server.table}/photo"))
    expect(bo.locator("#photo-form")).to_be_visible()
    bo.set_input_files("#photo-file", str(odd))
    expect(bo.locator("#notice")).to_have_text(
        "La photo dépasse 16 Mo, plus que ce que Tableside accepte\u00a0: envoyez-en une "
        "plus petite (réglez l’appareil photo du téléphone sur une résolution plus basse)")


def test_the_photo_page_offers_a_photo_only_while_a_roll_is_asked(devices, server):
    """docs/ui.md, the photo page: with no roll asked it says so and offers no photo (one
    would be refused); the button comes as the table asks for dice, live."""
    ana = join_as(devices, server, "Ana", "blue")
    photo = ana.context.new_page()
    photo.set_default_timeout(WAIT)
    photo.goto(server.url(f"/t/{server.table}/photo"))
    expect(photo.locator("#photo-prompt")).to_have_text(
        "No roll is asked for right now: take the photo when the table asks for dice.")
    expect(photo.locator("#photo-form")).to_be_hidden()
    start_exploration(ana)
    expect(photo.locator("#photo-form")).to_be_visible()
    expect(photo.locator("#photo-prompt")).to_contain_text("dice")


def test_the_photo_page_shows_each_photo_it_sends_and_the_read_waiting_after_a_reload(
        devices, server, tmp_path):
    """Photos sent one after another from the photo page: each is shown as it is read (the
    first one's read, fetched again at the stream's dice event, came back over the newer
    one and the page showed only the first, replaced); reloaded, the page shows the read
    that waits for the table rather than "no photo read yet"."""
    _, picture = unread_two_dice(server, tmp_path)
    ana = join_as(devices, server, "Ana", "blue")
    start_exploration(ana)
    camera = ana.context.new_page()
    camera.set_default_timeout(WAIT)
    camera.goto(server.url(f"/t/{server.table}/photo"))
    expect(camera.locator("#photo-prompt")).to_contain_text("Roll 2 dice")
    latest = f"/api/tables/{server.table}/dice/latest"
    seen = []
    for _ in range(3):
        camera.set_input_files("#photo-file", str(picture))
        expect(camera.locator("#notice")).to_have_text(UNREAD_TWO)
        read_id = camera.request.get(server.url(latest)).json()["read_id"]
        assert read_id not in seen
        seen.append(read_id)
        expect(camera.locator("#dice .read")).to_have_attribute("data-read", read_id)
        camera.wait_for_timeout(500)  # the stream's dice event and its fetch come after
        expect(camera.locator("#dice .read")).to_have_attribute("data-read", read_id)
        expect(camera.locator("#dice .read")).to_have_attribute("data-status", "pending")
    camera.reload()
    expect(camera.locator("#dice .read")).to_have_attribute("data-read", seen[-1])
    # its dice not read yet: named first (a Confirm was offered, and refused)
    expect(camera.locator("#dice-unread")).to_have_text(
        "Name dice 1, 2 (tap each) or take them out, then confirm.")
    expect(camera.locator("#confirm-read")).to_have_count(0)


FACE_NAMES = {"blank": "blank", "standard": "success", "weak": "weak success",
              "strong": "strong success"}


@pytest.mark.parametrize("path, file_input, follows", [
    pytest.param("/t/{id}", "#photo-input", "live", id="from the table page's roll prompt"),
    pytest.param("/t/{id}/photo", "#photo-file", "live", id="from the photo page"),
    pytest.param("/t/{id}", "#photo-input", "polling",
                 id="seen by a phone whose stream is refused"),
    pytest.param("/t/{id}", "#photo-input", "late",
                 id="seen by a phone whose stream opens after the read"),
])
def test_dice_the_table_does_not_know_yet_are_shown_unread_and_named_by_tapping(
        devices, server, tmp_path, path, file_input, follows):
    """With no SeaFall profile at all, the photo's dice are found and shown unread; the
    player taps each to name it and confirms, which answers the roll (and starts enrolling
    the die at the table: docs/vision.md, "Enrolling at the table"). Another phone shows
    the read waiting, and each die as it is named, though neither changes the table's
    version: by the live stream's dice event, or, when the server has no stream left for
    it (503 busy), by its polls. A stream that opens only after the read (held here; a slow
    phone, or one back from sleep) tells nothing of it: the page asks once it opens."""
    photo, picture = unread_two_dice(server, tmp_path)
    ana = join_as(devices, server, "Ana", "blue")
    start_exploration(ana)
    watcher = devices()
    held = []
    if follows == "polling":
        watcher.route(re.compile(r"/api/stream/"), lambda route: route.fulfill(
            status=503, content_type="application/json", headers={"Retry-After": "5"},
            body='{"error": "busy", "message": "too many live streams"}'))
    elif follows == "late":
        watcher.route(re.compile(r"/api/stream/"), lambda route: held.append(route))
    watcher.goto(server.url(f"/t/{server.table}"))
    if follows == "late":
        expect(watcher.locator("#status")).not_to_have_text("Loading…")
        while not held:
            watcher.wait_for_timeout(50)
    else:
        expect(watcher.locator("#conn")).to_have_attribute("data-status", follows)
    page = ana
    if path != "/t/{id}":
        page = ana.context.new_page()
        page.set_default_timeout(WAIT)
        page.goto(server.url(path.format(id=server.table)))
        expect(page.locator("#photo-prompt")).to_contain_text("Roll 2 dice (SeaFall)")
    page.set_input_files(file_input, str(picture))
    read = page.locator("#dice .read")
    expect(read).to_have_attribute("data-status", "pending")
    if follows == "late":
        expect(watcher.locator("#dice .read")).to_have_count(0)  # its stream is held
        held[0].continue_()
        expect(watcher.locator("#conn")).to_have_attribute("data-status", "live")
    expect(watcher.locator("#dice .read")).to_have_attribute("data-status", "pending")
    if follows == "polling":  # a poll that finds the same read draws nothing again
        watcher.locator("#dice .read").evaluate("el => { el.dataset.drawn = 'once'; }")
        watcher.wait_for_timeout(2500)
        expect(watcher.locator("#dice .read")).to_have_attribute("data-drawn", "once")
    kept = page.request.get(server.url(f"/api/tables/{server.table}/dice/latest")).json()
    assert [d["face"] for d in kept["dice"]] == ["?", "?"]
    tiles = read.locator(".die-tile")
    expect(tiles).to_have_count(2)
    expect(read.locator(".die-tile.uncertain")).to_have_count(2)
    for n, die in enumerate(kept["dice"]):
        expect(tiles.nth(n)).to_have_accessible_name(re.compile("not read yet"))
        face = next(d.face for d in photo.dice if hold_each_other(d.box, die["box"]))
        tiles.nth(n).click()
        page.locator(f"#dice .picker button.face-button.f-{face}").click()
        expect(page.locator("#dice .die-tile").nth(n)).to_contain_text(FACE_NAMES[face])
        expect(watcher.locator("#dice .die-tile").nth(n)).to_contain_text(FACE_NAMES[face])
        # it had no face to correct: named (it said "corrected by Ana")
        expect(page.locator("#dice .die-tile").nth(n).locator(".corrected")).to_have_text(
            "named by Ana")
        # named by a player: checked, no longer highlighted, and no reader's "0%" on it
        expect(page.locator("#dice .die-tile").nth(n)).not_to_have_class(
            re.compile(r"\buncertain\b"))
        expect(page.locator("#dice .die-tile").nth(n).locator(".conf")).to_have_count(0)
    page.click("#confirm-read")
    expect(page.locator("#dice .read")).to_have_attribute("data-status", "applied")
    expect(page.locator("#dice .die-tile.uncertain")).to_have_count(0)
    expect(page.locator("#dice")).not_to_contain_text("Highlighted dice")
    faces = sorted(server.services.tables.get(server.table).state.endeavor.faces)
    assert faces == ["strong", "weak"]
    expect(ana.locator("#history-list")).to_contain_text("Dice read (photo)")


def test_a_face_picker_stays_open_when_the_read_is_drawn_again_under_it(
        devices, server, tmp_path):
    """A player has tapped die 1 of an unread photo on the table page and is choosing its
    face when the same player's other tab names die 2: the table page draws the read again
    (die 2 named) and keeps the picker open on die 1, so the choice is not lost (it was,
    when a redraw came between the tap and the choice)."""
    photo, picture = unread_two_dice(server, tmp_path)
    ana = join_as(devices, server, "Ana", "blue")
    start_exploration(ana)
    ana.set_input_files("#photo-input", str(picture))
    expect(ana.locator("#dice .read")).to_have_attribute("data-status", "pending")
    kept = ana.request.get(server.url(f"/api/tables/{server.table}/dice/latest")).json()
    first, second = (next(d.face for d in photo.dice if hold_each_other(d.box, die["box"]))
                     for die in kept["dice"])
    other = ana.context.new_page()  # the same player's table page, on a second tab
    other.set_default_timeout(WAIT)
    other.goto(server.url(f"/t/{server.table}"))
    expect(other.locator("#dice .die-tile")).to_have_count(2)

    # the player taps in the tab in front (a tab behind gets no animation frames, and a
    # click waits for them)
    ana.bring_to_front()
    ana.locator("#dice .die-tile").nth(0).click()
    picker = ana.locator("#dice .picker")
    expect(picker).to_be_visible()
    expect(picker).to_contain_text("Die 1 shows:")
    other.bring_to_front()
    other.locator("#dice .die-tile").nth(1).click()
    other.locator(f"#dice .picker button.face-button.f-{second}").click()
    expect(ana.locator("#dice .die-tile").nth(1)).to_contain_text(FACE_NAMES[second])
    ana.bring_to_front()
    expect(picker).to_be_visible()  # drawn again, still open on die 1
    expect(picker).to_contain_text("Die 1 shows:")
    picker.locator(f"button.face-button.f-{first}").click()
    expect(ana.locator("#dice .die-tile").nth(0)).to_contain_text(FACE_NAMES[first])
    expect(ana.locator("#dice .picker")).to_be_hidden()  # a choice made closes it
    ana.click("#confirm-read")
    expect(ana.locator("#dice .read")).to_have_attribute("data-status", "applied")


def game_just_over(server):
    """A table of Ana (red, past the glory target), Bo and Cy whose game just ended at the
    round's end: its id and table, at the end of the game's first step."""
    from companion.table import Table

    options = {"start_at": "turn", "glory_target": 11,
               "provinces": [{"colour": "red", "player": "Ana", "glory": 12},
                             {"colour": "blue", "player": "Bo"},
                             {"colour": "green", "player": "Cy"}]}
    table_id = Table.create(server.services.store, "seafall", options, "host").session_id
    table = server.services.tables.get(table_id)
    while not table.state.game_over:  # Ana is past the target: the round ends the game
        table.apply(Command("end_turn", {}))
    return table_id, table


def test_the_winner_takes_an_appellation_by_its_name_on_the_table_page(devices, server):
    """End of game, step 1 (rulebook, "End of Game": "Take Appellation"): the winner taps
    the appellation and types its name; a field asks for its new gold value. Before, the
    page sent the appellation without a name, and the winner could only be refused."""
    table_id, table = game_just_over(server)
    ana = join_as(devices, server, "Ana", "red", table=table_id)
    prompt = ana.locator("#prompt")
    expect(prompt).to_contain_text("improve your province")
    prompt.locator("button[data-value='field:red/field-1']").click()
    value = prompt.locator("form.option-inputs input[name=value]")
    expect(value).to_have_value("5")  # the next one up, unless that sticker is gone
    expect(value).to_have_attribute("max", "8")
    prompt.locator("button[data-value=appellation]").click()
    expect(prompt.locator("form.option-inputs input[name=value]")).to_have_count(0)
    name = prompt.locator("form.option-inputs input[name=name]")
    expect(name).to_be_focused()
    name.fill("   ")  # only spaces: the server says why, and the form stays
    prompt.locator("form.option-inputs button[type=submit]").click()
    expect(ana.locator("#notice")).to_contain_text("An appellation needs a name")
    expect(name).to_be_visible()
    name.fill("the Unconquerable Admiral of the Windward Seas")  # past the sheet's 40
    expect(name).to_have_value("the Unconquerable Admiral of the Windwar")
    expect(prompt.locator("form.option-inputs")).to_contain_text("40 of 40 characters")
    name.fill("the Wise")
    expect(prompt.locator("form.option-inputs")).to_contain_text("8 of 40 characters")
    prompt.locator("form.option-inputs button[type=submit]").click()
    expect(ana.locator("#history-list")).to_contain_text("the Wise")
    assert table.state.provinces["red"].appellation == "the Wise"


def test_improving_a_ship_at_the_end_of_the_game_shows_the_value_it_goes_to(devices, server):
    """Rulebook, "End of Game", step 4: each player improves one value of a ship. The
    options said only "Red ship 1: sail"; they say the printed value and the next one, as
    the province's step does ("worth 4")."""
    table_id, table = game_just_over(server)
    while (prompt := table.prompts()[0]).command != "improve_ship":
        if prompt.command == "improve_province":
            table.apply(Command(prompt.command, {prompt.arg: "fortune"}, prompt.player))
        else:
            table.apply(Command(prompt.command, {prompt.arg: prompt.options[0].value},
                                prompt.player))
    player = prompt.player
    ship_id = table.state.provinces[player].ships[0]
    sail = table.state.ships[ship_id].sail
    page = devices()
    page.goto(server.url(f"/host/{table_id}?pin={server.services.auth.demo_host(table_id)}"))
    expect(page.locator("#prompt")).to_contain_text("improve which ship value?")
    expect(page.locator(f"#prompt button[data-value='{ship_id}:sail']")).to_contain_text(
        f"sail {sail} → {sail + 1}")


def test_a_re_rolls_read_marks_the_dice_thrown_and_those_left_in_place(devices, server):
    """A camera read answering a re-roll of two of three dice: the tiles were alike, and
    nothing said which two answer the re-roll (the read's ``used``)."""
    page = devices()
    page.goto(server.url(f"/t/{server.table}"))
    roles = page.evaluate("""async () => {
        const dice = await import("/static/js/dice.js");
        const read = dice.normalizeRead({read_id: "r1", status: "pending", used: [1, 2],
            dice: [0, 1, 2].map(() => ({face: "weak", confidence: 0.9, uncertain: false,
                                        box: [0, 0, 10, 10]}))});
        const panel = dice.readPanel("t", read, {faces: [], version: () => 1, canAct: true,
                                                 actor: null, onChanged: () => {}});
        return [...panel.querySelectorAll(".die-tile .reroll-role")].map((n) => n.textContent);
    }""")
    assert roles == ["left in place", "re-rolled", "re-rolled"]


def test_only_the_rollers_phone_is_offered_to_confirm_a_read(devices, server, tmp_path):
    """Confirming a read answers the roll, which is the roller's: another player's phone
    was offered Confirm, and refused ("Answering blue's explore is Blue's (blue) to do");
    and so is correcting it once applied."""
    photo, picture = unread_two_dice(server, tmp_path)
    ana = join_as(devices, server, "Ana", "blue")
    gus = join_as(devices, server, "Gus", "green")
    start_exploration(ana)
    ana.set_input_files("#photo-input", str(picture))
    expect(ana.locator("#dice .read")).to_have_attribute("data-status", "pending")
    kept = ana.request.get(server.url(f"/api/tables/{server.table}/dice/latest")).json()
    for n, die in enumerate(kept["dice"]):  # named on the roller's phone
        face = next(d.face for d in photo.dice if hold_each_other(d.box, die["box"]))
        ana.locator("#dice .die-tile").nth(n).click()
        ana.locator(f"#dice .picker button.face-button.f-{face}").click()
    expect(ana.locator("#confirm-read")).to_be_visible()
    expect(gus.locator("#dice .die-tile").nth(1)).to_contain_text("named by Ana")
    expect(gus.locator("#confirm-read")).to_have_count(0)
    expect(gus.locator("#dice-unread")).to_have_count(0)
    # confirmed, the roll is Ana's to correct: Gus's tiles are offered no more (a tap opened
    # the picker, and his correction was refused)
    ana.locator("#confirm-read").click()
    expect(gus.locator("#dice .read")).to_have_attribute("data-status", "applied")
    expect(ana.locator("#dice .die-tile").first).to_be_enabled()
    expect(gus.locator("#dice .die-tile").first).to_be_disabled()


@pytest.mark.parametrize("then", ["confirmed on the table page", "replaced by a newer read"])
def test_the_photo_page_follows_its_read_when_another_phone_acts_on_it(
        devices, server, tmp_path, then):
    """The photo page shows the read of the photo it sent. When the table page names its dice
    and confirms it, the photo page shows the faces and the read applied; when a newer photo
    replaces it, the photo page says so and shows the newer read, the one the table answers
    the roll with."""
    photo, picture = unread_two_dice(server, tmp_path)
    ana = join_as(devices, server, "Ana", "blue")
    start_exploration(ana)
    camera = ana.context.new_page()  # the same player's second tab: the photo page
    camera.set_default_timeout(WAIT)
    camera.goto(server.url(f"/t/{server.table}/photo"))
    expect(camera.locator("#photo-prompt")).to_contain_text("Roll 2 dice")
    camera.set_input_files("#photo-file", str(picture))
    expect(camera.locator("#dice .read")).to_have_attribute("data-status", "pending")
    expect(camera.locator("#dice-unread")).to_be_visible()  # named before it is confirmed
    first = camera.locator("#dice .read").get_attribute("data-read")
    expect(ana.locator("#dice .read")).to_have_attribute("data-read", first)
    if then == "replaced by a newer read":
        ana.set_input_files("#photo-input", str(picture))
        expect(ana.locator("#dice .read")).not_to_have_attribute("data-read", first)
        newer = ana.locator("#dice .read").get_attribute("data-read")
        expect(camera.locator("#dice .read")).to_have_attribute("data-read", newer)
        expect(camera.locator("#notice")).to_have_text(
            "A newer read of the dice replaced the one waiting for the table: check this one.")
        expect(camera.locator("#dice .read")).to_have_attribute("data-status", "pending")
        return
    kept = ana.request.get(server.url(f"/api/tables/{server.table}/dice/latest")).json()
    tiles = ana.locator("#dice .die-tile")
    ana.bring_to_front()  # the player goes back to the table page's tab to name the dice
    for n, die in enumerate(kept["dice"]):
        face = next(d.face for d in photo.dice if hold_each_other(d.box, die["box"]))
        tiles.nth(n).click()
        ana.locator(f"#dice .picker button.face-button.f-{face}").click()
        # named on the table page, seen on the photo page (no new version: the dice event)
        expect(camera.locator("#dice .die-tile").nth(n)).to_contain_text(FACE_NAMES[face])
    ana.click("#confirm-read")
    expect(camera.locator("#dice .read")).to_have_attribute("data-status", "applied")
    expect(camera.locator("#confirm-read")).to_have_count(0)
    assert sorted(server.services.tables.get(server.table).state.endeavor.faces) == [
        "strong", "weak"]


def test_a_roll_prompt_says_what_the_camera_sees(devices, server):
    """While the table waits for dice, every phone and the TV say what the camera sees
    (docs/vision.md, "Settle detection"; docs/ui.md): the tray watched, dice moving,
    something in the tray that holds the read back (a hand, or a player's shadow), a read
    waiting for the table (shown on every phone, though it changes no table version), why a
    settled tray was not read (the lens covered), and a camera that lost its picture."""
    from tests.vision.helpers import empty_tray, hand, photo
    from tests.web.runtime.support import PacedCamera
    from web.runtime import Runtime, RuntimeOptions

    sheet = photo("IMG_20191208_112541.jpg")
    empty = empty_tray(sheet)
    camera = PacedCamera([empty])
    runtime = Runtime(server.services, RuntimeOptions(box="none"),
                      camera_factory=lambda: camera, camera_spec="camera:0", pi_model=None)
    server.services.runtime = runtime
    runtime.start()
    try:
        ana = join_as(devices, server, "Ana", "blue")
        start_exploration(ana)  # the table asks Blue for 2 dice
        watcher = devices("fr-FR")  # a spectator's phone, in French
        watcher.goto(server.url(f"/t/{server.table}"))
        tv = devices(viewport=TV)  # and the shared screen
        tv.goto(server.url(f"/t/{server.table}/tv"))
        watch, seen = ana.locator("#camera-watch"), watcher.locator("#camera-watch")
        on_tv = tv.locator("#tv-prompt #camera-watch")
        expect(watch).to_have_attribute("data-tray", "settled")
        expect(on_tv).to_have_attribute("data-tray", "settled")
        expect(watch).to_have_text("The camera is watching the tray: roll the dice into it.")
        expect(seen).to_have_text("La caméra surveille le bac : lancez-y les dés.")

        camera.frames[:] = [hand(empty, 0.45)]  # a hand reaching in, held there
        expect(watch).to_have_attribute("data-tray", "hand")
        expect(watch).to_contain_text("a hand or a shadow: the dice are read once it is clear")
        expect(seen).to_contain_text("une main ou une ombre")
        expect(on_tv).to_have_attribute("data-tray", "hand")
        camera.frames[:] = [sheet.image(), empty]  # dice coming and going: moving
        expect(watch).to_have_attribute("data-tray", "moving")
        expect(watch).to_have_text("The camera sees the dice moving…")
        camera.frames[:] = [sheet.image()]  # at rest: read, more dice than the 2 asked for
        expect(watch).to_have_attribute("data-tray", "read")
        expect(watch).to_have_text("The camera has read the tray: check the dice below.")
        # a read left for the table changes no table version: each phone fetches it
        for page in (ana, watcher):
            expect(page.locator("#dice .read")).to_have_attribute("data-status", "pending")
        expect(seen).to_have_text("La caméra a lu le bac : vérifiez les dés ci-dessous.")
        expect(on_tv).to_have_text("The camera has read the tray: check the dice on a phone.")
        # read again at a phone's asking: the still tray, a new read in place of the old
        first = ana.locator("#dice .read").get_attribute("data-read")
        ana.click("#reread")
        for page in (ana, watcher):
            expect(page.locator("#dice .read")).not_to_have_attribute("data-read", first)
            expect(page.locator("#dice .read")).to_have_attribute("data-status", "pending")
        # confirmed with the faces, then the roll undone: the dice still lie there
        table = server.services.tables.get(server.table)
        dice = server.services.dice()
        dice.confirm(table, dice.latest(table).id, ["blank", "weak"], None, None)
        table.undo()
        expect(watch).to_have_attribute("data-tray", "undone")
        expect(watch).to_have_text("The roll was undone: throw the dice again, or apply the "
                                   "read below again.")
        expect(on_tv).to_have_text("The roll was undone: throw the dice again, or apply the "
                                   "read again on a phone.")
        # with a button box at the table, the TV says its confirm applies it again
        status = runtime.status
        runtime.status = lambda: {**status(), "button_box": {"state": "connected",
                                                             "connected": True}}
        expect(on_tv).to_have_text("The roll was undone: throw the dice again, or press "
                                   "confirm on the button box to apply the read again.")
        runtime.status = status
        camera.frames[:] = [np.zeros_like(empty)]  # the lens covered: why nothing is read
        expect(watch).to_have_attribute("data-tray", "failed")
        expect(watch).to_contain_text("The camera could not read the tray: no die was read "
                                      "(the picture is black")
        expect(seen).to_contain_text("La caméra n’a pas pu lire le bac : aucun dé n’a été lu "
                                     "(l’image est noire")  # the server's why, in French

        camera.plugged = False  # the cable pulled
        expect(watch).to_have_attribute("data-tray", "lost")
        expect(watch).to_contain_text("enter the faces, or take a photo")
        expect(ana.locator("#prompt .tally")).to_be_visible()  # typing the faces stays open
        # then no camera at all (a recording ended; an images: folder gone before, which
        # said nothing on the phones): the line stays, saying so, not dropped
        camera.frames[:] = []
        camera.loop = False
        camera.plugged = True
        expect(watch).to_have_attribute("data-tray", "absent")
        expect(watch).to_have_text("No camera is watching the tray (it is not there): enter "
                                   "the faces by hand, or take a photo.")
        expect(seen).to_contain_text("elle n’est pas là")
        expect(on_tv).to_have_attribute("data-tray", "absent")
    finally:
        assert runtime.stop(timeout=3.0)
        server.services.runtime = None


def test_rule_search_and_hardware_status_on_the_table_page(devices, server):
    page = devices("fr-FR")
    page.goto(server.url(f"/t/{server.table}"))
    page.fill("#rules-q", "chance")
    # the keyboard's search key: a click could land beside the button while the table's
    # state, drawn above the form as it loads, moves it down (seen once under full load)
    page.press("#rules-q", "Enter")
    first = page.locator("#rules-results li").first
    expect(first).to_contain_text("Chance")
    expect(first).to_contain_text("page 11")
    expect(first).not_to_contain_text("<mark>")  # the snippet's markup is never shown
    expect(page.locator("#hardware [data-device=camera]")).to_contain_text("Caméra")
    expect(page.locator("#hardware [data-device=software_box]")).to_contain_text("en marche")
    # GPIO, not used here by design, is neither working (green) nor to fix (red): grey
    gpio = page.locator("#hardware [data-device=gpio]")
    expect(gpio).to_contain_text("Boutons GPIO non utilisés")
    expect(gpio).not_to_have_class("hw-bad")
    expect(gpio).not_to_have_class("hw-ok")
    # each part's detail, written by the server in English, in French (vision.said)
    expect(page.locator("#hardware [data-device=software_box]")).to_contain_text(
        "les boutons de la page de la table")
    expect(page.locator("#hardware")).not_to_contain_text("no runtime")


def test_the_other_games_notes_are_searched_from_the_home_page(devices, server):
    """QA: City of Five Sails, After the Empire and Catan: Seafarers could not be reached
    from any page, and a French search of their notes (in English only) said nothing. The
    create form leads to the rules page, whose search shows them in English, said so."""
    page = devices("fr-FR")
    page.goto(server.url("/"))
    page.locator("#notes-only").get_by_role("link").click()
    page.wait_for_url("**/rules")
    page.select_option("#rules-game", "seafarers")
    page.fill("#rules-q", "pirate")
    page.press("#rules-q", "Enter")
    expect(page.locator("#rules-other-language")).to_have_text(
        "Rien en français pour « pirate » : voici ce qui existe en anglais.")
    first = page.locator("#rules-results li").first
    expect(first).to_contain_text("The pirate ship")
    expect(first).to_have_attribute("lang", "en")


def test_creating_a_table_from_the_home_page_makes_the_creator_host(devices, server):
    page = devices()
    page.goto(server.url(f"/t/{server.table}"))  # this browser has a session already,
    expect(page.locator("#seat")).to_contain_text("You are watching")  # so needs its CSRF
    page.goto(server.url("/"))
    expect(page.locator("#demo-host-link")).to_be_visible()  # the demo's host link
    # each table says when it was last played, in the phone's own words and time zone
    # (the page as served says it in UTC)
    played = page.locator(f".tables a[data-table='{server.table}'] time")
    expect(played).not_to_contain_text("UTC")
    expect(played).to_contain_text(re.compile(r"\d{1,2}:\d{2}"))
    # as an en-GB phone writes a date ("1 Dec 2026, 22:51"), not the US way of "en" alone
    # ("Dec 1, 2026, 10:51 PM"); an en-US phone keeps its own
    expect(played).to_have_text(re.compile(r"^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$"))
    american = devices("en-US")
    american.goto(server.url("/"))
    expect(american.locator(f".tables a[data-table='{server.table}'] time")).to_have_text(
        re.compile(r"^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$"))
    # the players' name fields line up, whatever each colour's name; a box's words sit
    # beside it on one row
    fields = page.locator("#create-form .swatch-row input")
    assert len({round(fields.nth(i).bounding_box()["x"]) for i in range(fields.count())}) == 1
    box, words = page.locator("#create-form label.check-row").first.evaluate("""(label) => {
        const range = document.createRange();
        range.selectNodeContents(label.lastChild);  // the words after the box
        const b = label.querySelector("input").getBoundingClientRect();
        const w = range.getBoundingClientRect();
        return [[b.left, b.right, b.top, b.bottom], [w.left, w.right, w.top, w.bottom]]; }""")
    assert words[0] >= box[1] and words[0] - box[1] < 30  # just right of the box
    assert words[2] < box[3]  # and beginning level with it, not on a row below
    page.uncheck("#create-form input[name=demo_setup]")
    for colour, name in (("blue", "Ana"), ("red", "Bo"), ("green", "Cy")):
        page.fill(f"#create-form input[name=player-{colour}]", name)
    before = page.locator(".tables a.table-link").count()
    page.click("#create-form button[type=submit]")
    expect(page.locator("#create-result .pin")).to_have_text(re.compile(r"^\d{6}$"))
    # the new table is in "Tables in play" at once, first (it was missing until a reload),
    # its time in the phone's words
    new_id = page.locator("#create-result a").get_attribute("href").rsplit("/", 1)[1]
    expect(page.locator(".tables a.table-link")).to_have_count(before + 1)
    made = page.locator("#tables-card .tables a.table-link").first
    expect(made).to_have_attribute("data-table", new_id)
    expect(made).to_contain_text("Ana, Cy, Bo")
    expect(made.locator("time")).not_to_contain_text("UTC")
    page.click("#create-result a")
    expect(page.locator("#me")).to_contain_text("host")
    expect(page.locator("#provinces article.province")).to_have_count(3)
    expect(page.locator("#provinces")).to_contain_text("Cy")


def test_the_host_forgets_what_the_table_taught_a_profile_and_puts_it_back(devices, server):
    """The hardware card shows the host each dice profile's faces, enrolled and learned;
    the host forgets what the table taught it (asked once more) and puts it back; a
    player's page shows no profiles (docs/ui.md, Hardware)."""
    profile = seafall_profile()
    assert profile.crops is not None
    readers = server.services.dice().readers
    readers.profiles["seafall"] = profile.learn(
        [(profile.labels[profile.owners[i]], profile.crops[i], f"r1:{i}") for i in (0, 6)])
    page = devices()
    page.goto(server.host_link())
    page.goto(server.url(f"/t/{server.table}"))
    row = page.locator("#dice-profiles [data-profile=seafall]")
    expect(row).to_contain_text("learned from 1 read the table confirmed or corrected")
    expect(row).to_contain_text("blank 10+2")  # the demo's 10 enrolled a face
    page.once("dialog", lambda dialog: dialog.dismiss())  # on second thoughts: nothing
    row.locator(".forget-lessons").click()
    expect(row.locator(".restore-profile")).to_have_count(0)
    page.once("dialog", lambda dialog: dialog.accept())
    row.locator(".forget-lessons").click()
    expect(page.locator("#notice")).to_contain_text("forgot what the table taught it")
    expect(row).to_contain_text("learned from 0 reads")
    assert readers.profiles["seafall"].learned_from() == {}
    row.locator(".restore-profile").click()
    expect(row).to_contain_text("learned from 1 read ")
    assert readers.profiles["seafall"].learned_from() == {"r1": 2}
    ana = join_as(devices, server, "Ana", "blue")
    expect(ana.locator("#hardware")).to_be_visible()
    expect(ana.locator("#dice-profiles")).to_be_hidden()


def test_the_host_sees_a_profile_named_otherwise_than_its_die_as_the_command_lines(
        devices, server, tmp_path):
    """tableside enroll --die de1 --profile pe1 (for read-dice --profile pe1) was shown the
    host as an error, "profile 'pe1' is for the de1 die, not pe1": it is listed with its
    die, saying the table reads de1 dice with the profile named de1; nothing to forget."""
    import dataclasses

    profile = seafall_profile()
    readers = server.services.dice().readers
    readers.profile_dir = tmp_path / "profiles"
    dataclasses.replace(profile, name="pe1", die="de1").save(readers.profile_dir)
    readers.profiles["seafall"] = profile
    page = devices()
    page.goto(server.host_link())
    page.goto(server.url(f"/t/{server.table}"))
    row = page.locator("#dice-profiles [data-profile=pe1]")
    expect(row).to_contain_text("for de1 dice, read with it by tableside read-dice and watch "
                                "(--profile pe1); the table reads de1 dice with the profile "
                                "named de1")
    expect(row).not_to_contain_text("not pe1")
    expect(row.locator("button")).to_have_count(0)
    expect(page.locator("#dice-profiles [data-profile=seafall]")).to_contain_text("blank 10+0")


def test_the_host_forgets_what_one_roll_taught_from_the_history(devices, server):
    """A player confirms a photo's read, and the profile learns its dice; the host finds
    that roll in the history and forgets what it taught (its faces given wrong, the game
    gone on), and the profile no longer holds it (docs/ui.md, History)."""
    readers = server.services.dice().readers
    readers.profiles["seafall"] = seafall_profile()
    ana = join_as(devices, server, "Ana", "blue")
    start_exploration(ana)
    ana.set_input_files("#photo-input", str(DEMO_FRAMES / "roll-1-settled.jpg"))
    read = ana.locator("#dice .read")
    expect(read).to_be_visible()
    kept = ana.request.get(server.url(f"/api/tables/{server.table}/dice/latest")).json()
    rid = kept["read_id"]
    # the profile learns before the answer is sent; the page may draw the read from the
    # live stream's update a moment before that, so the test waits for the answer itself
    if kept["status"] == "pending":  # confirmed: every die of it teaches
        with ana.expect_response(lambda r: r.url.endswith("/confirm")) as answer:
            ana.click("#confirm-read")
        expect(read).to_have_attribute("data-status", "applied")
    else:  # applied as read teaches nothing; a die named otherwise (a slip) does
        other = "blank" if kept["dice"][0]["face"] != "blank" else "strong"
        ana.locator("#dice .die-tile").first.click()
        with ana.expect_response(lambda r: r.url.endswith("/correct")) as answer:
            ana.locator(f"#dice .picker button.face-button.f-{other}").click()
        expect(ana.locator("#dice .die-tile").first).to_contain_text("corrected by Ana")
    assert answer.value.ok
    assert rid in readers.profiles["seafall"].learned_from()
    host = devices()
    host.goto(server.host_link())
    host.goto(server.url(f"/t/{server.table}"))
    button = host.locator(f"#history-list .forget-roll[data-read='{rid}']")
    expect(button).to_have_count(1)
    expect(ana.locator("#history-list .forget-roll")).to_have_count(0)  # the host's only
    host.once("dialog", lambda dialog: dialog.accept())
    button.click()
    expect(host.locator("#notice")).to_contain_text("forgot this roll's dice")
    expect(button).to_have_count(0)
    assert rid not in readers.profiles["seafall"].learned_from()


def test_the_host_checks_the_trays_picture_from_the_table_page(devices, server, tmp_path,
                                                               monkeypatch):
    """The camera's picture of the empty tray checked from the host's phone: advice, or
    "good", and the tray kept as the camera's setup (docs/vision.md, "Calibration"); the
    dice measured, and the measure taken back."""
    from tests.vision.helpers import empty_tray, photo
    from tests.web.runtime.support import PacedCamera
    from web.runtime import Runtime, RuntimeOptions

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))  # the setup is saved there
    sheet = photo("IMG_20191208_112541.jpg")
    camera = PacedCamera([empty_tray(sheet)])
    runtime = Runtime(server.services, RuntimeOptions(box="none"),
                      camera_factory=lambda: camera, camera_spec="camera:0", pi_model=None)
    server.services.runtime = runtime
    runtime.start()
    try:
        # the page shows the camera as it is when it loads (and again every 15 s)
        deadline = time.monotonic() + 10
        while runtime.status()["camera"]["state"] != "running" and time.monotonic() < deadline:
            time.sleep(0.02)
        page = devices()
        page.goto(server.host_link())
        page.goto(server.url(f"/t/{server.table}"))
        row = page.locator("#hardware [data-device=camera]")
        expect(row).to_contain_text("running")
        page.click("#check-tray")
        result = page.locator("#tray-check")
        expect(result).to_have_attribute("data-saved", "true")
        # the sheet fills the picture of a camera that tells no lens: kept, and asked for it
        expect(result).to_contain_text("Kept as the tray setup “tray”. To read dice better:")
        expect(result.locator("li")).to_have_count(1)
        expect(result.locator("li")).to_contain_text("The camera's lens is not known")
        french = devices("fr-FR")  # the host's advice in the host's language
        french.goto(server.host_link())
        french.goto(server.url(f"/t/{server.table}"))
        french.click("#check-tray")
        expect(french.locator("#tray-check li")).to_contain_text(
            "L’objectif de la caméra n’est pas connu")
        # the lens's angle from the camera's sheet, typed where the advice asks for it: a
        # narrow lens, nothing to fix; a check again keeps it (the setup's)
        page.fill("#lens-degrees", "30")
        page.get_by_role("button", name="Check the tray again with this lens").click()
        expect(result).to_contain_text("The picture is good")
        expect(page.locator("#lens-form")).to_have_count(0)
        assert runtime.setup is not None and runtime.setup.lens_degrees == 30.0
        page.click("#check-tray")
        expect(page.locator("#check-tray")).to_be_enabled()
        expect(result).to_contain_text("The picture is good")
        expect(row).to_contain_text("read with the tray setup “tray”")
        assert runtime.setup is not None and runtime.setup.name == "tray"
        expect(page.locator("#restore-setup")).to_be_visible()  # the first check is kept
        checked_px = runtime.setup.die_px
        # then a few dice on the tray, and their size is measured
        camera.frames[:] = [sheet.image()]
        page.click("#measure-dice")
        expect(page.locator("#notice")).to_contain_text("The dice are about")
        truth = float(np.median([max(w, h) for _, _, w, h in sheet.boxes]))
        assert runtime.setup.die_px == pytest.approx(truth, rel=0.3)
        expect(page.locator("#notice")).to_contain_text(f"{round(runtime.setup.die_px)} pixels")
        # the measure taken back: the setup as the last check left it
        page.click("#restore-setup")
        expect(page.locator("#notice")).to_contain_text(
            "The tray setup “tray” is back as it was before its last check")
        assert runtime.setup.die_px == pytest.approx(checked_px)
        # another phone, not the host's, has no such button
        watcher = devices()
        watcher.goto(server.url(f"/t/{server.table}"))
        expect(watcher.locator("#hardware [data-device=camera]")).to_contain_text("running")
        expect(watcher.locator("#check-tray")).to_have_count(0)
    finally:
        assert runtime.stop(timeout=3.0)
        server.services.runtime = None
