"""The campaign page's next-game form and record, in a real browser (docs/ui.md, "The
campaign page"): who played the games already recorded, a newcomer's name, and a player
ticked both as missing the next game and as leaving for good."""

from __future__ import annotations

from playwright.sync_api import expect


def hosted_after_game_1(devices, server, locale: str = "en-GB"):
    """A campaign whose game 1 (Ann blue, Cat green, Ben red) is recorded, and a page open
    on it as that game's host (who sets up the next one)."""
    from companion.campaigns import record_game, start_campaign, start_next_game
    from tests.companion.test_campaigns import play_out, script

    setup, lines = script()
    store = server.services.store
    info = start_campaign(store, "Summer league", "seafall", setup)
    play_out(server.services.tables.get(start_next_game(store, info.id).session_id), lines)
    record_game(store, info.id)
    page = devices(locale)
    last = store.campaign(info.id).games[-1].session_id
    page.goto(server.url(f"/host/{last}?pin={server.services.auth.demo_host(last)}"))
    page.goto(server.url(f"/campaigns/{info.id}"))
    expect(page.locator("#next-form")).to_be_visible()
    return page, info


def test_a_game_played_keeps_its_players_names_after_one_leaves(devices, server):
    """Before Cat (green) leaves, game 1 reads "Ann 3, Cat 0, Ben 2"; once she has left (Dan
    joining as gray), it still does. It read "Ann 3, Green 0, Ben 2": the record was named
    from the provinces still in the campaign."""
    page, info = hosted_after_game_1(devices, server)
    record = page.locator("#campaign-record li")
    expect(record).to_have_text(["Game 1: Ann 3, Cat 0, Ben 2"])
    page.locator("fieldset.joining select[name=join-colour]").select_option("gray")
    page.locator("input[name=join-player]").fill("Dan")
    page.locator("input[name=leave][value=green]").check()
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#next-form button[type=submit]").click()
    expect(page.locator("#campaign-result .pin")).to_be_visible()
    expect(record).to_have_count(3)
    expect(record.nth(0)).to_have_text("Game 1: Ann 3, Cat 0, Ben 2")
    expect(record.nth(2)).to_have_text("Before game 2: Cat left the campaign.")
    assert "green" not in server.services.tables.get(
        server.services.store.campaign(info.id).current).state.provinces


def test_a_new_player_is_not_sent_without_a_name(devices, server):
    """On the French page, « Gris » chosen under « Un nouveau joueur arrive » and « Nom du
    joueur » left empty: the form is not sent, and the name field says why in French. It was
    sent with the colour's French name as the player's ("Gris joined the campaign as Gray"
    on the English page)."""
    page, info = hosted_after_game_1(devices, server, "fr-FR")
    page.locator("fieldset.joining select[name=join-colour]").select_option("gray")
    name = page.locator("input[name=join-player]")
    expect(name).to_have_value("")
    page.locator("#next-form button[type=submit]").click()
    page.wait_for_timeout(500)
    assert server.services.store.campaign(info.id).current is None  # nothing sent
    assert name.evaluate("(input) => input.validationMessage") == \
        "Tapez le nom du nouveau joueur."
    name.fill("   ")
    page.locator("#next-form button[type=submit]").click()
    page.wait_for_timeout(500)
    assert server.services.store.campaign(info.id).current is None
    # nobody joining after all: the empty name no longer holds the form back
    page.locator("fieldset.joining select[name=join-colour]").select_option("")
    page.locator("#next-form button[type=submit]").click()
    expect(page.locator("#campaign-result .pin")).to_be_visible()
    assert "gray" not in server.services.tables.get(
        server.services.store.campaign(info.id).current).state.provinces


def test_a_new_player_named_joins_under_that_name(devices, server):
    """The name typed is the one stored (trimmed)."""
    page, info = hosted_after_game_1(devices, server, "fr-FR")
    page.locator("fieldset.joining select[name=join-colour]").select_option("gray")
    page.locator("input[name=join-player]").fill(" Dan ")
    page.locator("#next-form button[type=submit]").click()
    expect(page.locator("#campaign-result .pin")).to_be_visible()
    state = server.services.tables.get(server.services.store.campaign(info.id).current).state
    assert state.provinces["gray"].player == "Dan"


def test_a_player_ticked_as_missing_the_game_and_leaving_is_asked_which(devices, server):
    """Cat ticked under "Who misses the next game?" and "Who leaves the campaign for good?":
    the page says the two contradict each other, naming her, and sends nothing (it sent
    both, and the leave was kept without a word; the API refuses it too). Unticked, the
    form goes."""
    page, info = hosted_after_game_1(devices, server)
    page.locator("fieldset.joining select[name=join-colour]").select_option("gray")
    page.locator("input[name=join-player]").fill("Dan")
    page.locator("input[name=absent][value=green]").check()
    page.locator("input[name=leave][value=green]").check()
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.locator("#next-form button[type=submit]").click()
    expect(page.locator("#absent-and-leaving")).to_have_text(
        "Cat: ticked both as missing the next game and as leaving the campaign for good. "
        "Untick one of the two.")
    page.wait_for_timeout(300)
    assert asked == [] and server.services.store.campaign(info.id).current is None
    page.locator("input[name=absent][value=green]").uncheck()
    # the form changed: the warning goes at once (it stayed through the next submit)
    expect(page.locator("#absent-and-leaving")).to_have_count(0)
    page.locator("#next-form button[type=submit]").click()
    expect(page.locator("#campaign-result .pin")).to_be_visible()
    assert asked == ["Cat will leave the campaign for good. Go on?"]
    state = server.services.tables.get(server.services.store.campaign(info.id).current).state
    assert "green" not in state.provinces


def test_the_final_game_is_recorded_and_the_emperor_shown(devices, server):
    """The campaign's final game (the island at the end of the world found, the Emperor
    crowned): its table no longer promises a next game, the campaign page offers to record
    it, and once recorded names the Emperor and sets up nothing. There was no Record button
    (the standings stayed those before the game) and the table said a next game would be
    set up."""
    from companion.campaigns import start_campaign, start_next_game
    from tests.companion.test_campaigns import FINAL_SETUP, play_final_game

    store = server.services.store
    info = start_campaign(store, "Last voyage", "seafall", FINAL_SETUP)
    session = start_next_game(store, info.id).session_id
    table = server.services.tables.get(session)
    play_final_game(table)
    red = table.state.provinces["red"].player
    page = devices("en-GB")
    page.goto(server.url(f"/host/{session}?pin={server.services.auth.demo_host(session)}"))
    page.goto(server.url(f"/t/{session}"))
    expect(page.locator("#campaign-next")).to_contain_text("the Emperor is crowned")
    expect(page.locator("#campaign-next")).not_to_contain_text("sets up the next game")
    page.goto(server.url(f"/campaigns/{info.id}"))
    expect(page.locator("#campaign-actions")).to_contain_text("which ends with it")
    page.get_by_role("button", name="Record the game into the campaign").click()
    expect(page.locator("#campaign-result")).to_have_text("Recorded: the campaign is over.")
    expect(page.locator("#campaign-emperor")).to_have_text(
        f"The campaign is over: {red} is crowned Emperor (game 1).")
    expect(page.locator("#campaign-meta")).to_contain_text("over after game 1")
    expect(page.locator("#campaign-finished")).to_be_visible()
    expect(page.locator("#next-form")).to_have_count(0)
    expect(page.locator('article[data-province="red"] .pill.emperor')).to_have_text("Emperor")
    expect(page.locator("#campaign-record li")).to_have_count(1)
    expect(page.locator("#campaign-games li")).to_have_text(["Game 1 recorded"])
    assert store.campaign(info.id).over is not None
