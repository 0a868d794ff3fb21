"""Screenshots of the pages for docs/screenshots/: phone views at 360x640 and the TV view at
1920x1080, taken in headless Chromium from a real server playing the demo table.

    python -m tests.e2e.browser.screenshots [OUT_DIR]   (default docs/screenshots)

Each phone view is scrolled to the part it shows (below the sticky header)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.e2e.browser.server import PHONE, TV, WAIT, chromium, demo_server
from tests.e2e.browser.speech import SPEECH

ROOT = Path(__file__).resolve().parents[3]
FRAMES = ROOT / "web" / "runtime" / "demo"


def scroll_to(page: Any, selector: str) -> None:
    page.locator(selector).first.wait_for()
    page.wait_for_timeout(400)  # let late updates (the live log, images) settle the layout
    page.evaluate("""(sel) => { const el = document.querySelector(sel);
        const bar = document.querySelector('header').offsetHeight;
        window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - bar - 8); }""",
                  selector)
    page.wait_for_timeout(150)


def new_page(browser: Any, viewport: dict[str, int] = PHONE, locale: str = "en-GB") -> Any:
    mobile = viewport == PHONE
    context = browser.new_context(viewport=viewport, locale=locale, is_mobile=mobile,
                                  has_touch=mobile, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(WAIT)
    return page


def take(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    shots: list[Path] = []

    def shot(page: Any, name: str) -> None:
        path = out / f"{name}.png"
        page.screenshot(path=str(path))
        shots.append(path)

    with tempfile.TemporaryDirectory() as tmp, demo_server(Path(tmp)) as server, \
            chromium() as browser:
        try:  # the photo read needs the SeaFall dice profile (vision's models)
            from vision.reader import DiceReader
            from web.runtime.recording import enroll_demo_profile

            profile = enroll_demo_profile()
            DiceReader("seafall", profile=profile)
            server.services.dice().readers.profiles["seafall"] = profile
            can_read = True
        except Exception as exc:  # noqa: BLE001 - any missing model: no photo shot
            print(f"no photo read screenshot: {exc}", file=sys.stderr)
            can_read = False
        home = new_page(browser)
        home.goto(server.url("/"))
        shot(home, "phone-home")

        ana = new_page(browser)
        ana.goto(server.join_link())
        ana.fill("#join-name", "Ana")
        ana.check("input[name=province][value=blue]")
        shot(ana, "phone-join")
        ana.click("#join-form button[type=submit]")
        ana.wait_for_url(f"**/t/{server.table}")
        ana.locator("#prompt button.choice").first.wait_for()
        shot(ana, "phone-table")

        tv = new_page(browser, TV)
        tv.add_init_script(SPEECH)  # a voice, as a TV's browser has: the switch drawn usable
        tv.goto(server.host_link())
        tv.goto(server.url(f"/t/{server.table}/tv"))

        ana.click("#prompt button[data-value=explorers]")
        sail = ana.locator("#actions details[data-type=sail]")
        sail.locator("summary").click()
        sail.locator("select[data-ship=blue-1]").select_option("isle-a")
        sail.get_by_role("button", name="Sail").click()
        ana.locator("#builder button[data-kind=explore]").click()
        ana.locator("#builder button[data-site='isle-a/3']").click()
        ana.locator("#builder-preview .figure").first.wait_for()
        scroll_to(ana, "#builder")
        shot(ana, "phone-builder")
        ana.click("#start-endeavor")
        ana.locator("#prompt[data-kind=roll]").wait_for()
        scroll_to(ana, "#prompt")
        shot(ana, "phone-roll")
        scroll_to(ana, "#endeavor")
        shot(ana, "phone-odds")

        bo = new_page(browser)
        bo.goto(server.url(f"/t/{server.table}"))
        bo.locator("#endeavor").wait_for()
        if can_read:  # what the reader makes of the frame is vision's: shown as it is
            ana.set_input_files("#photo-input", str(FRAMES / "roll-2-settled.jpg"))
            ana.locator("#dice .read .die-tile img").first.wait_for()
            ana.wait_for_function("[...document.querySelectorAll('#dice .die-tile img')]"
                                  ".every(i => i.naturalWidth > 0)")
            scroll_to(ana, "#dice")
            shot(ana, "phone-dice-photo")
            if ana.locator("#confirm-read").count():
                ana.click("#confirm-read")
            ana.locator("#dice .read[data-status=applied]").wait_for()
            ana.locator("#dice .die-tile").first.click()
            ana.locator("#dice .picker").wait_for()
            scroll_to(ana, "#dice")
            shot(ana, "phone-dice-correct")
        else:
            for face in ("standard", "weak"):
                ana.locator(f"#prompt li[data-face={face}] button[aria-label^='one more']").click()
            ana.click("#confirm-faces")
        bo.locator("#dice .faces .face, #dice .die-tile").first.wait_for()
        bo.locator("#live-log li").first.wait_for()
        shot(bo, "phone-second-phone")
        scroll_to(bo, "#dice")
        shot(bo, "phone-dice-result")
        scroll_to(bo, "#provinces")
        shot(bo, "phone-provinces")
        scroll_to(bo, "#history-title")
        shot(bo, "phone-history")

        tv.locator("#tv-roll .faces .face").first.wait_for()
        tv.wait_for_function("document.querySelector('#tv-qr').naturalWidth > 0")
        shot(tv, "tv")

        fr = new_page(browser, locale="fr-FR")
        fr.goto(server.url(f"/t/{server.table}"))
        fr.locator("#endeavor, #prompt").first.wait_for()
        fr.locator("#conn[data-status=live]").wait_for()
        shot(fr, "phone-table-fr")
        fr_tv = new_page(browser, TV, locale="fr-FR")
        fr_tv.add_init_script(SPEECH)
        fr_tv.goto(server.url(f"/t/{server.table}/tv"))
        fr_tv.locator(".tv-province").first.wait_for()
        fr_tv.locator("#tv-roll .faces .face").first.wait_for()
        shot(fr_tv, "tv-fr")

        from companion.campaigns import start_campaign

        setup = {"game": 2,
                 "provinces": [{"colour": "blue", "player": "Ana"},
                               {"colour": "green", "player": "Bo"},
                               {"colour": "red", "player": "Cy"}],
                 "record": [{"game": 1, "glory": {"blue": 12, "green": 9, "red": 7},
                             "milestones": {"Explorer": "green"},
                             "milestone_glory": {"green": 2}}]}
        info = start_campaign(server.services.store, "Autumn league", "seafall", setup)
        camp = new_page(browser)
        camp.goto(server.url(f"/campaigns/{info.id}"))
        camp.locator("#campaign-provinces article.province").first.wait_for()
        shot(camp, "phone-campaign")
        for page in (home, ana, tv, bo, fr, fr_tv, camp):
            page.context.close()
    return shots


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "docs" / "screenshots"
    for path in take(out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
