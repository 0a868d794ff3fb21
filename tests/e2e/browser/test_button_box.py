"""The button box as the pages show it, in a real browser (headless Chromium, a real
server): the fortune counted on the box under the spend prompt it is for (docs/hardware.md,
"What the buttons do": 6 and 7 count fortune up and down, 0 confirms), on the table page and
the TV; and the table it serves, on the hardware card; in English and French."""

from __future__ import annotations

import pytest

from companion.engine import Command
from tests.e2e.browser.server import TV, WAIT
from tests.e2e.browser.test_phone_pages import join_as
from tests.web.test_buttons import CONFIRM, FORTUNE_DOWN, FORTUNE_UP

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

pytestmark = pytest.mark.slow
expect.set_options(timeout=WAIT)

EXPLORING = {"start_at": "turn", "provinces": [
    {"colour": "red", "player": "Ana", "fortune": 3,
     "ships": [{"location": "isle"}, {"location": "isle"}]},
    {"colour": "blue", "player": "Bo"}],
    "islands": [{"id": "isle", "name": "Iron isle", "sites": [{"name": "1", "defense": 4}]}]}


def at_the_fortune_prompt(server):
    """A table of its own where Red has rolled one success against defense 4: spend
    fortune? (0-2); its id, and a press of one of its box's buttons."""
    from companion.table import Table

    table_id = Table.create(server.services.store, "seafall", EXPLORING, "host").session_id
    table = server.services.tables.get(table_id)
    table.apply(Command("hire_guild", {"guild": "explorers"}, "red"))
    table.apply(Command("explore", {"flagship": "red-1", "site": "isle/1"}, "red"))
    table.apply(Command("roll", {"faces": ["standard", "blank", "blank"]}, "red"))
    assert table.prompts()[0].kind == "spend"

    def press(button: int) -> None:
        buttons = server.services.buttons_for(table)
        for event in server.services.software_box.click(button):
            buttons.press(table, event)

    return table_id, press


def test_the_fortune_counted_on_the_button_box_is_shown_under_its_prompt(devices, server):
    """The box's fortune + and - count the tokens that its confirm spends, and change no
    version of the table: the players saw nothing of the count until it was spent."""
    table_id, press = at_the_fortune_prompt(server)
    ana = join_as(devices, server, "Ana", "red", table=table_id)
    watcher = devices("fr-FR")  # a spectator's phone, in French
    watcher.goto(server.url(f"/t/{table_id}"))
    tv = devices(viewport=TV)
    tv.goto(server.url(f"/t/{table_id}/tv"))
    expect(ana.locator("#prompt button[data-value='2']")).to_be_visible()
    expect(tv.locator("#tv-prompt")).to_contain_text("spend fortune")
    for page in (ana, watcher, tv):
        expect(page.locator("#box-fortune")).to_have_count(0)  # nothing counted yet

    press(FORTUNE_UP)
    press(FORTUNE_UP)
    expect(ana.locator("#prompt #box-fortune")).to_have_text(
        "On the button box: 2 fortune tokens counted; press confirm on the box to spend them")
    expect(tv.locator("#tv-prompt #box-fortune")).to_have_attribute("data-count", "2")
    expect(watcher.locator("#prompt #box-fortune")).to_have_text(
        "Sur le boîtier à boutons : 2 jetons Chance comptés ; appuyez sur valider pour les "
        "dépenser")
    press(FORTUNE_DOWN)
    expect(ana.locator("#box-fortune")).to_have_text(
        "On the button box: 1 fortune token counted; press confirm on the box to spend it")
    expect(tv.locator("#box-fortune")).to_contain_text("1 fortune token counted")
    expect(watcher.locator("#box-fortune")).to_contain_text("1 jeton Chance compté")

    press(CONFIRM)  # spent: the damage is asked next, and the count is gone
    expect(ana.locator("#prompt")).to_contain_text("damage")
    for page in (ana, watcher, tv):
        expect(page.locator("#box-fortune")).to_have_count(0)
    assert server.services.tables.get(table_id).state.provinces["red"].fortune == 2


def test_the_hardware_card_names_the_table_the_button_box_serves(devices, server):
    """docs/runtime.md, "Which table": a button answers the open table that changed last.
    With two tables open, the card said the box was connected, not which table it would
    answer; it names it as the home page does, and links to it when it is another."""
    from web.runtime import Runtime, RuntimeOptions

    runtime = Runtime(server.services, RuntimeOptions(camera="none", box="none", gpio=False),
                      pi_model=None)
    server.services.runtime = runtime
    try:
        page, french = devices(), devices("fr-FR")
        page.goto(server.url(f"/t/{server.table}"))
        served = page.locator("#hardware [data-device=button_box] .served")
        expect(served).to_have_text(f"Serves this table: SeaFall · Blue, Green, Red · "
                                    f"{server.table}")
        french.goto(server.url(f"/t/{server.table}"))  # the demo's colours, in French
        expect(french.locator("#hardware [data-device=button_box] .served")).to_contain_text(
            "Répond à cette table : SeaFall · Bleu, Vert, Rouge · ")
        other, _ = at_the_fortune_prompt(server)  # played since: the box answers it now
        page.reload()
        expect(served).to_have_attribute("data-table", other)
        expect(served).to_contain_text(f"Serves another table: SeaFall · Ana, Bo · {other}")
        served.get_by_role("link", name="open that table").click()
        page.wait_for_url(f"**/t/{other}")
        expect(served).to_have_text(f"Serves this table: SeaFall · Ana, Bo · {other}")
        french.goto(server.url(f"/t/{server.table}"))
        expect(french.locator("#hardware [data-device=button_box] .served")).to_contain_text(
            f"Répond à une autre table : SeaFall · Ana, Bo · {other}")
    finally:
        server.services.runtime = None
        runtime.stop()


def test_the_hardware_card_says_the_demos_button_box_is_simulated(devices, server):
    """docs/runtime.md, "The demo": with --demo the box is the firmware on a simulated Pico,
    and /api/hardware says ``simulated``; the card said "Button box connected" and
    "heartbeats on time" as for a real box. It says it is the demo's simulated box, in the
    page's language; a real box says nothing of it."""
    import json
    import re

    def hardware(simulated: bool):
        body = json.dumps({"button_box": {
            "state": "connected", "connected": True, "detail": "heartbeats on time",
            "simulated": simulated, "port": "/dev/pts/3"}})
        return lambda route: route.fulfill(status=200, content_type="application/json",
                                           body=body)

    page, french = devices(), devices("fr-FR")
    page.route(re.compile(r"/api/hardware$"), hardware(True))
    french.route(re.compile(r"/api/hardware$"), hardware(True))
    page.goto(server.url(f"/t/{server.table}"))
    french.goto(server.url(f"/t/{server.table}"))
    row = page.locator("#hardware [data-device=button_box]")
    expect(row).to_contain_text("connected")
    expect(row.locator(".hw-simulated")).to_have_text(
        "The demo’s simulated box: no real box is plugged in (tableside serve --demo).")
    expect(french.locator("#hardware [data-device=button_box] .hw-simulated")).to_have_text(
        "Le boîtier simulé de la démo\u00a0: aucun vrai boîtier n’est branché (tableside "
        "serve --demo).")
    page.unroute(re.compile(r"/api/hardware$"))
    page.route(re.compile(r"/api/hardware$"), hardware(False))
    page.reload()
    expect(row).to_contain_text("connected")
    expect(row.locator(".hw-simulated")).to_have_count(0)
