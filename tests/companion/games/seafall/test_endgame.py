"""The end of a game, steps 1 to 7 (rulebook, "End of Game"), with its worked examples:
Green's kept advisor, Green's enmity roll, and the titles after a tie."""

from __future__ import annotations

import pytest
from seafall_driver import Game, island, undo_restores

from companion.errors import IllegalCommand, InvalidCommand


def ending(provinces, **options) -> Game:
    """A game whose round ends at once with someone over the glory target."""
    g = Game({"provinces": provinces, "glory_target": 11, **options})
    while not g.state.game_over:
        g.do("end_turn")
    return g


def answer(g: Game, value: str, **extra) -> None:
    p = g.prompt
    g.do(p.command, **{p.arg: value}, **extra)


def to_step(g: Game, step: int) -> None:
    """Answer every prompt with its first option until ``step`` begins."""
    while g.state.end_step < step:
        answer(g, g.prompt.options[0].value)


def test_the_game_ends_into_step_one_for_the_winner_only():
    g = ending([{"colour": "red", "glory": 12}, {"colour": "blue", "glory": 3}])
    assert g.state.winner == "red" and g.state.end_step == 1
    assert g.prompt.player == "red"
    values = [o.value for o in g.prompt.options]
    assert values == ["field:red/field-1", "field:red/field-2", "garrison:red", "reputation",
                      "fortune", "appellation"]
    with pytest.raises(IllegalCommand, match="blue"):
        g.do("improve_province", choice="fortune", actor="blue")
    g.do("improve_province", choice="field:red/field-2", value=6)
    assert g.state.sites["red/field-2"].value == 6
    # steps 2 and 3 pass by themselves: no retired advisors to train with, no advisors to keep
    assert g.state.end_step == 4
    assert g.types()[-7:] == ["EndStepBegan", "TrainingSkipped", "TrainingSkipped",
                              "EndStepBegan", "AdvisorKept", "AdvisorKept", "EndStepBegan"]


def test_an_appellation_is_taken_by_its_name_and_a_field_by_its_new_value():
    """Step 1 ("Improve province"): a field goes to the next gold value on the sheet, which
    may be more than one up when a sticker is gone; an appellation is a name from the sheet.
    The prompt says what each option needs typed, so a phone can ask for it (before, the
    table page sent the appellation without its name and could only be refused)."""
    g = ending([{"colour": "red", "glory": 12}, {"colour": "blue", "glory": 3}])
    options = {o["value"]: o for o in g.prompt.to_json()["options"]}
    assert options["field:red/field-1"]["inputs"] == [
        {"arg": "value", "label": "the field's new gold value", "kind": "number",
         "default": 5, "minimum": 5, "maximum": 8}]
    assert options["appellation"]["inputs"] == [
        {"arg": "name", "label": "the appellation's name", "kind": "text", "default": None,
         "minimum": 1, "maximum": 40}]
    assert "inputs" not in options["fortune"]  # nothing to type
    for name, why in [(None, "needs a name"), ("   ", "needs a name"),
                      (7, "needs a name"), ("x" * 41, "at most 40 characters")]:
        with pytest.raises(InvalidCommand, match=why):
            g.do("improve_province", choice="appellation", name=name)
    assert g.state.end_step == 1  # nothing was taken
    g.do("improve_province", choice="appellation", name="  the Wise ")
    assert g.state.provinces["red"].appellation == "the Wise"


def test_train_advisors_each_with_a_different_retired_advisor_and_expertise_combines():
    """Step 2: each province a different retired advisor; the same expertise combines
    (an advisor with Raid +1 and Raid +2 has Raid +3)."""
    g = ending([{"colour": "red", "glory": 12, "advisors": ["Powder Monkey"]},
                {"colour": "blue", "glory": 3, "advisors": ["Captain"]}],
               retired_advisors=[{"name": "Old Salt", "expertise": {"raid": 2}},
                                 {"name": "Cartographer", "expertise": {"explore": 1},
                                  "stickers": 2}])
    g.do("improve_province", choice="reputation")
    assert g.state.end_step == 2 and g.prompt.player == "blue"  # lowest glory first
    g.do("train_advisor", choice="Cartographer@Captain")
    assert [o.value for o in g.prompt.options] == ["Old Salt@Powder Monkey"]
    g.do("train_advisor", choice="Old Salt@Powder Monkey")
    assert g.state.catalogue.advisors["Powder Monkey"].expertise == {"raid": 3, "taxes": 1}
    assert g.state.catalogue.advisors["Captain"].expertise == {"explore": 2}
    assert [r.stickers for r in g.state.retired_advisors] == [0, 1]


def test_green_keeps_only_the_advisor_cheaper_than_all_others_kept():
    """"Keep Advisor", Green's example: Green won with advisors worth 2, 3 and 4 gold; Red
    and Blue keep advisors worth 3, Yellow one worth 4: Green may keep only the 2."""
    g = ending([
        {"colour": "green", "glory": 12, "advisors": ["Madman", "Captain", "Foreman",
                                                      "Renowned Explorer"]},
        {"colour": "red", "glory": 5, "advisors": ["Savage"]},
        {"colour": "blue", "glory": 4, "advisors": ["Dockmaster"]},
        {"colour": "yellow", "glory": 3, "advisors": ["Wind Master"]},
    ])
    to_step(g, 3)
    for colour, advisor in (("yellow", "Wind Master"), ("blue", "Dockmaster"),
                            ("red", "Savage")):
        assert g.prompt.player == colour
        g.do("keep_advisor", choice=advisor)
    keeps_only(g, "green", "Madman", refused="Captain")


def keeps_only(g, colour: str, only: str, refused: str) -> None:
    """``colour`` is asked to keep an advisor, may keep ``only`` (not ``refused``: it costs
    too much), and keeps it."""
    assert g.prompt.player == colour
    assert [o.value for o in g.prompt.options] == [only]
    with pytest.raises(IllegalCommand, match="cannot be kept"):
        g.do("keep_advisor", choice=refused)
    g.do("keep_advisor", choice=only)
    assert g.state.provinces[colour].kept_advisor == only


def test_a_winner_by_tie_keeps_last_and_under_every_other_keep():
    """"End of Game" step 3 (page 21): the winner keeps only an advisor cheaper than every one
    the others keep. Blue (Prince) and Red (Duke) tie at 12 glory; Red, less prominent, wins
    and would choose first in the order of glory. Before, Red kept Local Guide (2 gold) and
    Blue then Powder Monkey (1 gold), both accepted. The winner now keeps last."""
    provinces = [{"colour": "blue", "title": "prince", "glory": 12,
                  "advisors": ["Savage", "Powder Monkey"]},
                 {"colour": "red", "title": "duke", "glory": 12,
                  "advisors": ["Captain", "Local Guide"]},
                 {"colour": "green", "title": "count", "glory": 5, "advisors": ["Foreman"]}]
    g = ending(provinces)
    assert g.state.winner == "red"
    to_step(g, 3)
    assert g.last("EndStepBegan").payload["order"] == ["green", "blue", "red"]
    g.do("keep_advisor", choice="Foreman")
    assert g.prompt.player == "blue"
    with pytest.raises(IllegalCommand, match="red"):
        g.do("keep_advisor", choice="Local Guide", actor="red")
    g.do("keep_advisor", choice="Powder Monkey")
    # nothing of Red's costs less than 1 gold: Red keeps none, and step 4 begins
    assert g.state.provinces["red"].kept_advisor is None
    assert g.last("AdvisorKept").payload["player"] == "red"
    assert g.state.end_step == 4
    assert undo_restores(g.options, g.commands).end_step == 4  # undo: Blue chooses again
    g = ending(provinces)
    to_step(g, 3)
    g.do("keep_advisor", choice="Foreman")
    g.do("keep_advisor", choice="Savage")
    keeps_only(g, "red", "Local Guide", refused="Captain")
    assert undo_restores(g.options, g.commands).provinces["red"].kept_advisor == "Local Guide"


def test_why_no_advisor_is_kept_reads_in_english_and_french():
    """Step 3's history says why a province keeps no advisor, in French too (it said « Bob
    ne garde aucun conseiller (the winner keeps only an advisor cheaper than every one
    kept) »): Bob won and his advisors (3 and 4 gold) cost no less than Ann's kept Savage
    (3); Cléo has none."""
    from companion.games.seafall.engine import SeaFall

    g = ending([{"colour": "blue", "player": "Bob", "glory": 12,
                 "advisors": ["Captain", "Foreman"]},
                {"colour": "red", "player": "Ann", "glory": 5, "advisors": ["Savage"]},
                {"colour": "green", "player": "Cléo", "glory": 3}])
    to_step(g, 3)
    g.do("keep_advisor", choice="Savage")
    assert g.state.end_step == 4
    engine = SeaFall()
    kept = [(engine.describe(e, state=g.state), engine.describe(e, "fr", g.state))
            for e in g.events if e.type == "AdvisorKept"]
    assert kept == [
        ("Cléo keeps no advisor (no advisor).",
         "Cléo ne garde aucun conseiller (aucun conseiller)."),
        ("Ann keeps Savage.", "Ann garde Savage."),
        ("Bob keeps no advisor (the winner keeps only an advisor cheaper than every one "
         "kept).",
         "Bob ne garde aucun conseiller (le vainqueur ne garde qu’un conseiller moins cher "
         "que tous ceux gardés par les autres).")]


def test_improve_one_ship_value_at_most_five():
    g = ending([{"colour": "red", "glory": 12,
                 "ships": [{"sail": 5, "raid": 5, "explore": 5, "hold": 5},
                           {"sail": 5, "raid": 5, "explore": 4, "hold": 5}]},
                {"colour": "blue", "glory": 1}])
    to_step(g, 4)
    g.do("improve_ship", choice="blue-1:hold")
    assert g.state.ships["blue-1"].hold == 3
    assert [o.value for o in g.prompt.options] == ["red-2:explore"]
    g.do("improve_ship", choice="red-2:explore")
    assert g.state.ships["red-2"].explore == 5


def green_enmity() -> Game:
    """"Determine Enmity", Green's example: three tokens out, three fortune and one
    reputation left (four dice), a permanent sticker on Gray's province."""
    return ending([
        {"colour": "green", "glory": 2, "fortune": 3, "reputation": 1},
        {"colour": "gray", "glory": 12, "permanent_enmity": {"green": 1},
         "site_enmity": {"field-1": {"green": 1}}, "at_war_with": {"green": 1}},
    ], islands=[island(sites=[{"name": "1", "kind": "mine", "value": 2,
                               "enmity": {"green": 1}}])])


def test_green_crosses_out_a_sticker_takes_back_a_token_and_stickers_the_rest():
    """Three successes: two cross out the sticker on Gray, one takes back a token; the two
    tokens left become stickers where they lie, and all tokens go home."""
    g = green_enmity()
    to_step(g, 5)
    assert g.prompt.kind == "roll" and g.prompt.player == "green" and g.prompt.count == 4
    g.do("roll", faces=["standard", "weak", "strong", "blank"])
    assert [o.value for o in g.prompt.options] == [
        "take:gray/field-1", "take:isle/1", "take:war:gray", "cross:gray", "done"]
    g.do("settle_enmity", choice="cross:gray")
    g.do("settle_enmity", choice="take:isle/1")
    # no success left: the two tokens in Gray's province become stickers there
    assert g.state.regions["gray"].permanent_enmity == {"green": 2}
    assert g.state.regions["isle"].permanent_enmity == {}
    assert g.state.provinces["green"].home_enmity == 8
    assert g.state.provinces["gray"].at_war_with == {}
    # Gray has nothing to roll or settle; glory is recorded and the titles follow the
    # campaign glory without a tie: the game is recorded
    assert g.state.phase == "recorded"
    assert (g.state.provinces["gray"].title, g.state.provinces["green"].title) == ("prince",
                                                                                  "duke")


def test_a_player_the_enmity_roll_can_change_nothing_for_is_passed_by():
    """"Determine Enmity" (End of Game, step 5): a success takes back a token, two cross out
    a sticker, and the tokens left become stickers. With no token out and no sticker of
    theirs, or a sticker but a single die (one success at most), the roll changes nothing:
    the player is passed by with a log line, as steps 2 to 4 pass by a player with no
    choice. They were asked to "roll 1 die for enmity" all the same. With a sticker and two
    dice, or a token out and one die, the roll can matter: asked."""
    g = ending([
        {"colour": "green", "glory": 1, "fortune": 2},  # nothing out, no sticker
        {"colour": "blue", "glory": 2, "fortune": 1},  # a sticker on Red's, one die
        {"colour": "yellow", "glory": 3, "fortune": 1},  # a token out, one die
        {"colour": "red", "glory": 12, "fortune": 2, "permanent_enmity": {"blue": 1},
         "site_enmity": {"field-1": {"yellow": 1}}},
    ], islands=[island(permanent_enmity={"red": 1})])
    to_step(g, 5)
    passed = [e.payload for e in g.events if e.type == "EnmityRollPassedBy"]
    assert passed == [{"player": "green", "dice": 2, "stickers": 0},
                      {"player": "blue", "dice": 1, "stickers": 1}]
    # Yellow's token could be taken back with one success: asked, one die
    assert g.prompt.kind == "roll" and g.prompt.player == "yellow" and g.prompt.count == 1
    g.do("roll", faces=["blank"])
    assert g.state.regions["red"].permanent_enmity == {"blue": 1, "yellow": 1}
    said = [(g.engine.describe(e, state=g.state), g.engine.describe(e, "fr", g.state))
            for e in g.events if e.type == "EnmityRollPassedBy"]
    assert "no enmity token out and no sticker to cross out: no roll" in said[0][0]
    assert "1 die cannot make the 2 successes that cross out a sticker" in said[1][0]
    assert "pas de lancer pour l’hostilité" in said[1][1]
    # Red has a sticker (on the island) and two dice: two successes would cross it out
    assert g.prompt.kind == "roll" and g.prompt.player == "red" and g.prompt.count == 2
    g.do("roll", faces=["standard", "standard"])
    g.do("settle_enmity", choice="cross:isle")
    # no success left and no token out: Red is done, and the game goes on to the end
    assert g.state.phase == "recorded"
    assert g.state.regions["isle"].permanent_enmity == {}
    assert g.state.provinces["blue"].glory == 2  # nothing changed for the players passed by


def test_a_token_out_is_rolled_for_even_with_one_die():
    g = ending([{"colour": "green", "glory": 1, "fortune": 1},
                {"colour": "red", "glory": 12, "site_enmity": {"field-1": {"green": 1}}}])
    to_step(g, 5)
    assert g.prompt.kind == "roll" and g.prompt.player == "green" and g.prompt.count == 1
    assert "EnmityRollPassedBy" not in g.types()


def test_a_full_region_covers_another_colour_or_costs_glory():
    """Six slots a region: when full, another colour's sticker is covered (the player
    chooses whose); when all six are the player's own, a glory is lost instead."""
    g = ending([
        {"colour": "green", "glory": 2},
        {"colour": "gray", "glory": 12,
         "permanent_enmity": {"red": 2, "blue": 1, "green": 3},
         "site_enmity": {"field-1": {"green": 1}}},
        {"colour": "red", "glory": 0}, {"colour": "blue", "glory": 1},
    ], islands=[island(permanent_enmity={"green": 6},
                       sites=[{"name": "1", "kind": "mine", "value": 2,
                               "enmity": {"green": 1}}])])
    to_step(g, 5)
    while g.prompt.player != "green":
        answer(g, g.prompt.options[0].value) if g.prompt.kind == "choice" else \
            g.do("roll", faces=["blank"] * g.prompt.count)
    if g.prompt.kind == "roll":
        g.do("roll", faces=["blank"] * g.prompt.count)
    assert g.prompt.command == "cover_sticker"
    assert [o.value for o in g.prompt.options] == ["blue", "red"]
    with pytest.raises(IllegalCommand) as own:  # whose sticker named by its player, as the
        g.do("cover_sticker", choice="green")  # history names it (it said "no green sticker")
    assert str(own.value) == "there is no sticker of Green's to cover on Gray province"
    assert g.engine.refusal(str(own.value), lang="fr") == \
        "il n’y a pas d’autocollant de Vert à recouvrir sur Province grise"
    g.do("cover_sticker", choice="red")
    assert g.state.regions["gray"].permanent_enmity == {"red": 1, "blue": 1, "green": 4}
    assert g.state.regions["isle"].permanent_enmity == {"green": 6}
    assert g.state.provinces["green"].glory == 1  # no room on the island: 1 glory lost


def test_glory_is_recorded_and_titles_assigned_with_the_tie_procedure():
    """"Assign Titles", the rulebook's example: the Princess has the most campaign glory and
    keeps her title, the Count has the least and becomes Lord; the Lord, Baron and Duke tie
    for second: the Lord chooses first (Baron), then the Baron (Duke), the Duke takes the
    Count title left."""
    provinces = [
        {"colour": "red", "title": "prince", "campaign_glory": 30, "glory": 12},
        {"colour": "blue", "title": "duke", "campaign_glory": 20, "glory": 5},
        {"colour": "green", "title": "count", "campaign_glory": 10, "glory": 4},
        {"colour": "gray", "title": "baron", "campaign_glory": 15, "glory": 10},
        {"colour": "yellow", "title": "lord", "campaign_glory": 19, "glory": 6},
    ]
    g = ending(provinces)
    to_step(g, 6)
    while g.state.end_step < 7:  # enmity rolls with no dice pass by themselves
        answer(g, g.prompt.options[0].value)
    assert g.state.record == [{"game": 1, "glory": {"yellow": 6, "green": 4, "gray": 10,
                                                    "blue": 5, "red": 12},
                               "milestones": {}}]
    assert {c: p.campaign_glory for c, p in g.state.provinces.items()} == {
        "red": 42, "blue": 25, "green": 14, "gray": 25, "yellow": 25}
    assert g.prompt.player == "yellow"  # the Lord picks first among the tied
    assert [o.value for o in g.prompt.options] == ["duke", "count", "baron"]
    g.do("choose_title", choice="baron")
    assert g.prompt.player == "gray"
    g.do("choose_title", choice="duke")
    titles = {c: p.title for c, p in g.state.provinces.items()}
    assert titles == {"red": "prince", "gray": "duke", "blue": "count", "yellow": "baron",
                      "green": "lord"}
    assert g.state.phase == "recorded" and g.engine.prompts(g.state) == []
    assert g.replayed() == g.state
