"""The year: winter's six steps, rounds, events, the astrolabe, the end-of-game check; and
the turn's first step (rulebook, "Years and Rounds", "Taking Your Turn", "Setting up
SeaFall")."""

from __future__ import annotations

import pytest
from seafall_driver import Game, island, undo_restores

from companion.engine import Command
from companion.errors import IllegalCommand
from companion.table import Table


def new_game(**options) -> Game:
    return Game({"start_at": "winter", **options})


FORUM = ["Captain", "Madman", "Savage", "Smuggler", "Carpenter"]


def deal(g: Game, names=FORUM) -> None:
    for name in names:
        assert g.prompt.command == "deal_advisor"
        g.do("deal_advisor", advisor=name)


def three(**extra):
    provinces = [{"colour": "blue", "title": "prince"}, {"colour": "red", "title": "lord"},
                 {"colour": "green", "title": "duke"}]
    return {"provinces": provinces, **extra}


def test_titles_decide_seating_least_prominent_first():
    """"Setting up SeaFall": players sit in title order, the least prominent first."""
    g = new_game(**three())
    assert g.state.seating == ["red", "green", "blue"]


@pytest.mark.parametrize("game_no, target", [(1, 11), (5, 15), (14, 24), (20, 24)])
def test_glory_target_is_eleven_plus_games_played_capped_at_24(game_no, target):
    """"Setting up SeaFall": 11 in the first game, one more each game, at most 24."""
    assert new_game(game=game_no).state.glory_target == target


def test_first_winter_in_order_then_round_one():
    """"Winter Phase" steps 1-6 on a new game: astrolabe to the least glory (all tied at 0:
    the least prominent title, the Lord), five advisors dealt, fields harvested, no enmity
    moved in a game's first winter, islands produce, refresh; then round 1 from the
    astrolabe holder."""
    g = new_game(**three(islands=[island(sites=[
        {"name": "1", "kind": "good", "colour": "iron", "defense": 3}])]))
    assert g.state.astrolabe == "red"
    assert g.prompt.question.startswith("Deal the forum") and g.prompt.player is None
    deal(g)
    types = g.types()
    winter = types[types.index("WinterBegan"):]
    assert winter == ["WinterBegan", "AstrolabeGiven", *["AdvisorDealt"] * 5,
                      "FieldsHarvested", "FieldsHarvested", "FieldsHarvested",
                      "GoodsProduced", "Refreshed", "WinterEnded", "RoundBegan", "TurnStarted"]
    assert g.state.forum == FORUM
    assert g.state.provinces["red"].gold == 8  # two fields worth 4
    assert g.state.sites["isle/1"].good_present and g.state.supply.goods["iron"] == 9
    assert (g.state.round, g.state.turn.player) == (1, "red")


def test_harvest_skips_fields_with_enmity():
    g = new_game(advisor_deck=[], provinces=[
        {"colour": "green"}, {"colour": "red", "site_enmity": {"field-1": {"blue": 1}}},
        {"colour": "blue"}])
    harvested = g.last("FieldsHarvested") if False else [
        e for e in g.events if e.type == "FieldsHarvested" and e.payload["player"] == "red"][0]
    assert harvested.payload["gold"] == 4 and harvested.payload["skipped"] == ["red/field-1"]


def test_limited_supply_produces_westernmost_island_first_highest_defense_first():
    """Winter step 5: not enough goods for every site, so the westernmost island's sites are
    served first, and on an island the highest defense first. Map columns count westward
    from the coastal waters (datasets/seafall-map: column 0 borders them)."""
    sites = [{"name": "low", "kind": "good", "colour": "wood", "defense": 2},
             {"name": "high", "kind": "good", "colour": "wood", "defense": 5}]
    g = new_game(advisor_deck=[], supply={"goods": {"wood": 2}}, islands=[
        island("east", column=2, sites=sites), island("west", column=9, sites=sites)])
    produced = g.last("GoodsProduced").payload
    assert produced["sites"] == ["west/high", "west/low"]
    assert produced["short"] == ["east/high", "east/low"]


def play_round(g: Game) -> None:
    for _ in range(len(g.state.seating)):
        g.do("end_turn")


def test_rounds_go_clockwise_from_the_astrolabe_and_events_are_dismissed():
    """"Non-Winter Rounds": an event revealed, turns from the astrolabe holder clockwise,
    the event dismissed to the bottom of the deck, the astrolabe advanced."""
    g = new_game(advisor_deck=[], events=["Calm seas", "Storm"], **three())
    assert g.prompt.command == "reveal_event" and g.prompt.player == "red"
    g.do("reveal_event", event="Storm")
    starts = []
    for _ in range(3):
        starts.append(g.state.turn.player)
        g.do("end_turn")
    assert starts == ["red", "green", "blue"]
    assert g.state.event_deck == ["Calm seas", "Storm"] and g.state.round == 2
    assert g.prompt.command == "reveal_event"


def test_the_astrolabe_holder_reveals_the_event():
    """"Non-Winter Rounds" step 1 (page 12): the player who holds the astrolabe turns over
    the event card; the table may too. Another player's reveal_event was accepted."""
    from companion.games.seafall.refusals_fr import refusal

    options = {"start_at": "winter", "advisor_deck": [], "events": ["Calm seas", "Storm"],
               **three()}
    g = new_game(**{k: v for k, v in options.items() if k != "start_at"})
    assert g.state.astrolabe == "red"
    with pytest.raises(IllegalCommand, match=r"revealing the event is Red's \(red\) to do, "
                                             r"not Blue's \(blue\)") as refused:
        g.do("reveal_event", "blue", event="Storm")
    assert refusal(str(refused.value)).startswith("révéler l’événement")
    g.do("reveal_event", "red", event="Storm")
    assert g.state.event == "Storm"
    assert undo_restores(options, [Command("reveal_event", {"event": "Storm"})]).event == \
        "Storm"  # the table may reveal it too, and undo puts it back in the deck


def test_after_six_rounds_a_new_year_begins_with_winter_and_enmity_moves():
    """Winter step 4 (not in a game's first winter): province site tokens go to that
    province's At War With space, island site tokens onto the island's garrison; the forum
    is dismissed to the bottom of the deck and a new one dealt."""
    g = new_game(advisor_deck=FORUM + ["Brute", "Foreman", "Convict", "Alchemist", "Wind Master"],
                 provinces=[{"colour": "green"},
                            {"colour": "red", "site_enmity": {"field-1": {"blue": 2}}},
                            {"colour": "blue"}],
                 islands=[island(sites=[{"name": "1", "kind": "mine", "value": 3,
                                         "enmity": {"red": 1}}])])
    deal(g)
    assert "EnmityMoved" not in g.types()
    for _ in range(6):
        play_round(g)
    assert (g.state.year, g.state.phase) == (2, "forum")
    assert g.state.advisor_deck[-5:] == FORUM
    deal(g, ["Brute", "Foreman", "Convict", "Alchemist", "Wind Master"])
    assert g.state.provinces["red"].at_war_with == {"blue": 2}
    assert g.state.regions["isle"].garrison_enmity == {"red": 1}
    assert g.state.sites["red/field-1"].enmity == {}
    harvested = [e.payload for e in g.events if e.type == "FieldsHarvested"]
    # harvest (step 3) comes before the tokens move (step 4): the raided field gives
    # nothing this winter ("Plunder" > "Field": no gold at the next winter's harvest)
    assert harvested[-2] == {"player": "red", "gold": 4, "fields": ["red/field-2"],
                             "skipped": ["red/field-1"]}


def test_the_dismissed_forum_comes_up_only_after_the_cards_above_it():
    """"Winter Phase" step 2: the forum is dismissed to the bottom of the advisor deck, then
    five are dealt from its top. The table's deal offered the advisors just dismissed; they
    come up only once the cards above them are dealt, and then only they are offered."""
    above = ["Brute", "Foreman", "Convict"]
    g = new_game(advisor_deck=FORUM + above)
    deal(g)
    for _ in range(6):
        play_round(g)
    assert g.state.phase == "forum"
    assert [o.value for o in g.prompt.options] == sorted(above)
    with pytest.raises(IllegalCommand, match="Madman was put on the bottom of the advisor "
                                             "deck: the cards above it come first"):
        g.do("deal_advisor", advisor="Madman")
    deal(g, above)
    assert [o.value for o in g.prompt.options] == sorted(FORUM)  # the deck's bottom now
    deal(g, ["Madman", "Savage"])
    assert g.state.forum == [*above, "Madman", "Savage"] and g.state.round == 1
    assert g.state.advisors_below == [["Captain", "Smuggler", "Carpenter"]]


def test_a_new_advisor_goes_to_the_bottom_of_the_deck():
    """An advisor added to the game (legacy.py) goes on the bottom of the deck: it is dealt
    after the cards already there."""
    g = new_game(advisor_deck=FORUM + ["Brute"])
    g.do("add_component", kind="advisor", card={"name": "Newcomer", "guild": "builders", "gold": 2})
    assert [o.value for o in g.prompt.options] == sorted([*FORUM, "Brute"])
    deal(g, [*FORUM[:4], "Brute"])
    assert "Newcomer" in g.state.advisor_deck


def test_the_rounds_event_is_dismissed_under_the_deck_until_winter_shuffles_it():
    """"Non-Winter Rounds": the round's event goes to the bottom of the event deck, so the
    next rounds reveal the others first; "Winter Phase" step 1 shuffles the deck, so a new
    year may reveal any of them."""
    g = new_game(advisor_deck=[], events=["Calm seas", "Storm", "Fog"], **three())
    g.do("reveal_event", event="Storm")
    play_round(g)
    assert [o.value for o in g.prompt.options] == ["Calm seas", "Fog"]
    with pytest.raises(IllegalCommand, match="'Storm' was put on the bottom of the event "
                                             "deck this year"):
        g.do("reveal_event", event="Storm")
    g.do("reveal_event", event="Fog")
    play_round(g)
    g.do("reveal_event", event="Calm seas")
    play_round(g)
    assert [o.value for o in g.prompt.options] == ["Storm"]  # the first one under
    g.do("reveal_event", event="Storm")
    for _ in range(2):  # rounds 5 and 6
        play_round(g)
        g.do("reveal_event", event=g.prompt.options[0].value)
    play_round(g)
    assert (g.state.year, g.state.round) == (2, 1)  # winter shuffled the deck
    assert [o.value for o in g.prompt.options] == ["Calm seas", "Fog", "Storm"]


def test_game_ends_at_the_end_of_the_round_and_ties_go_to_the_less_prominent_title():
    """"Check Glory Track for End of Game" and "End of Game": the game ends when the round
    ends; with equal glory, the less prominent title wins."""
    g = Game({**three(), "glory_target": 11, "first_player": "red"})
    g.state.provinces["blue"].glory = 12  # scenario: set mid-game
    g.state.provinces["green"].glory = 12
    g.do("end_turn")
    assert not g.state.game_over  # the round goes on
    g.do("end_turn")
    g.do("end_turn")
    assert g.state.game_over and g.state.winner == "green"  # Duke is less prominent
    assert g.last("GameEnded").payload["glory"] == {"red": 0, "green": 12, "blue": 12}


def test_hire_an_advisor_for_gold_or_reputation_and_refill_the_forum():
    """"Hire an Advisor": pay gold or reputation, gain its printed glory, refill the forum
    from the top of the deck."""
    g = Game({"provinces": [{"colour": "red", "gold": 3, "reputation": 1}, {"colour": "blue"}],
              "forum": FORUM, "advisor_deck": ["Brute"],
              "components": {"advisors": [{"name": "Captain", "guild": "explorers",
                                           "gold": 3, "glory": 1,
                                           "expertise": {"explore": 1}}]}})
    g.do("hire_advisor", advisor="Captain")
    assert g.state.provinces["red"].gold == 0 and g.state.provinces["red"].glory == 1
    assert g.prompt.command == "deal_advisor" and g.prompt.options[0].value == "Brute"
    g.do("deal_advisor", advisor="Brute")
    assert "Brute" in g.state.forum and len(g.state.forum) == 5
    with pytest.raises(IllegalCommand, match="already hired"):
        g.do("hire_advisor", advisor="Madman", pay="reputation")


def test_hiring_is_refused_without_the_price_or_after_the_guild():
    g = Game({"provinces": [{"colour": "red", "gold": 1}, {"colour": "blue"}],
              "forum": FORUM})
    with pytest.raises(IllegalCommand, match="has 1 gold; Savage costs 3"):
        g.do("hire_advisor", advisor="Savage")
    with pytest.raises(IllegalCommand, match="reputation"):
        g.do("hire_advisor", advisor="Savage", pay="reputation")
    g.do("hire_guild", guild="soldiers")
    with pytest.raises(IllegalCommand, match="before hiring a guild"):
        g.do("hire_advisor", advisor="Madman")


def test_library_owner_may_hire_several():
    """Structure Library (RULES-FACTS): hire any number of advisors from the forum."""
    g = Game({"provinces": [{"colour": "red", "gold": 9, "structures": ["Library"]},
                            {"colour": "blue"}], "forum": FORUM})
    g.do("hire_advisor", advisor="Madman")
    g.do("hire_advisor", advisor="Smuggler")
    assert [a.name for a in g.state.provinces["red"].council] == ["Madman", "Smuggler"]


def test_an_advisor_without_a_reputation_cost_is_not_hired_with_reputation():
    """"Reputation Tokens" (page 9): reputation pays for an advisor instead of gold only when
    the advisor has a reputation cost. Before, Miser (3 gold, no reputation cost) was hired
    for nothing with pay "reputation", and the choices offered it."""
    from companion.games.seafall.refusals_fr import refusal

    options = {"provinces": [{"colour": "blue", "gold": 2, "reputation": 1},
                             {"colour": "red"}, {"colour": "green"}],
               "components": {"advisors": [{"name": "Miser", "guild": "explorers", "gold": 3,
                                            "reputation": 0, "expertise": {"explore": 1}}]},
               "forum": ["Miser", "Savage"]}
    g = Game(options)
    with pytest.raises(IllegalCommand, match="Miser has no reputation cost: hire it with gold"
                       ) as refused:
        g.do("hire_advisor", advisor="Miser", pay="reputation")
    assert refusal(str(refused.value)) == ("Miser n’a pas de coût en réputation : "
                                           "engagez-le avec de l’or")
    hires = [c["args"] for c in g.engine.legal_commands(g.state)
             if c["type"] == "hire_advisor"]
    assert hires == [{"advisor": "Savage", "pay": "reputation"}]  # 2 gold buys neither
    after = undo_restores(options, [Command("hire_advisor", {"advisor": "Savage",
                                                             "pay": "reputation"}, "blue")])
    assert after.provinces["blue"].reputation == 0 and after.forum == ["Miser"]


def test_a_library_does_not_let_a_treasure_buyer_hire_advisors_too():
    """"Taking Your Turn" step 1 (page 12): hire advisors OR buy a treasure. The Library
    (RULES-FACTS: any number of advisors from the forum) lifts the one-advisor limit, not
    the OR. Hiring first then buying was refused; buying first then hiring was accepted."""
    from companion.games.seafall.refusals_fr import refusal

    options = {"provinces": [{"colour": "blue", "gold": 30, "structures": ["Library"]},
                             {"colour": "red"}, {"colour": "green"}],
               "forum": ["Savage", "Madman"],
               "treasures": [{"name": "Cup", "cost": 6, "colour": "iron", "glory": 1}]}
    g = Game(options)
    g.do("buy_treasure", treasure="Cup")
    with pytest.raises(IllegalCommand, match="Blue bought a treasure this turn: no advisor "
                                             "can be hired too") as refused:
        g.do("hire_advisor", advisor="Savage")
    assert refusal(str(refused.value)).startswith(
        "Bleu a acheté un trésor ce tour-ci : pas de conseiller à engager en plus")
    assert "hire_advisor" not in {c["type"] for c in g.engine.legal_commands(g.state)}
    # undoing the treasure opens the forum again, to as many advisors as the Library allows
    with Table.in_memory("seafall", {"start_at": "turn", **options}) as table:
        before = table.state
        table.apply(Command("buy_treasure", {"treasure": "Cup"}, "blue"))
        assert table.state.turn.bought_treasure
        table.undo()
        assert table.state == before and not table.state.turn.bought_treasure
        table.apply(Command("hire_advisor", {"advisor": "Savage"}, "blue"))
        table.apply(Command("hire_advisor", {"advisor": "Madman"}, "blue"))
        assert [a.name for a in table.state.provinces["blue"].council] == ["Savage", "Madman"]


@pytest.mark.parametrize("cost, good, paid", [
    pytest.param(10, None, 10, id="full price"),
    pytest.param(10, "warehouse", 2, id="a good of its colour takes 8 off"),
    pytest.param(6, "warehouse", 0, id="never below 0, no rebate"),
])
def test_buy_treasure(cost, good, paid):
    """"Buy Treasure": its printed cost, 8 less with exactly one good of its colour from the
    province, never below 0; the treasure's glory is gained."""
    g = Game({"provinces": [{"colour": "red", "gold": 10, "warehouse": ["spice", "spice"]},
                            {"colour": "blue"}],
              "treasures": [{"name": "Idol", "cost": cost, "colour": "spice", "glory": 2}]})
    g.do("buy_treasure", treasure="Idol", **({"good_from": good} if good else {}))
    prov = g.state.provinces["red"]
    assert prov.gold == 10 - paid and prov.glory == 2
    assert prov.warehouse == (["spice"] if good else ["spice", "spice"])
    assert [c.name for c in prov.treasures] == ["Idol"] and g.state.treasures == []


def test_claim_one_milestone_per_turn_and_its_events_enter_the_deck():
    """"Claim a Milestone": at most one a turn; milestones bring new events into the deck."""
    g = Game({"milestones": [{"name": "Explorer", "glory": 5, "events": ["Plague"]},
                             {"name": "Builder", "glory": 5}],
              "bagged_events": ["Plague"]})
    g.do("hire_guild", guild="explorers")
    g.do("claim_milestone", milestone="Explorer")
    assert g.state.provinces["blue"].glory == 5
    assert g.state.event_deck == ["Plague"] and g.state.bagged_events == []
    with pytest.raises(IllegalCommand, match="one milestone"):
        g.do("claim_milestone", milestone="Builder")
    g.do("end_turn")
    with pytest.raises(IllegalCommand, match="Explorer was claimed by Blue"):
        g.do("claim_milestone", milestone="Explorer")


def test_a_milestone_is_claimed_after_an_action_not_at_the_start_of_the_turn():
    """"Taking Your Turn" step 4 and "Milestones" (pages 6 and 12): a milestone is claimed
    after an action, at the end of the turn (or after the first action). It was accepted
    as the turn's first command, and offered then. Now it waits for the guild's step, which
    closes hiring, buying and activating for the turn."""
    from companion.games.seafall.refusals_fr import refusal

    options = {"provinces": [{"colour": "blue", "gold": 30}, {"colour": "red"}],
               "forum": FORUM, "milestones": [{"name": "Explorer", "glory": 5}]}
    g = Game(options)
    with pytest.raises(IllegalCommand, match="a milestone is claimed after an action: hire a "
                                             "guild first") as refused:
        g.do("claim_milestone", milestone="Explorer")
    assert refusal(str(refused.value)) == ("une étape se revendique après une action : "
                                           "engagez d’abord une guilde")
    assert "claim_milestone" not in {c["type"] for c in g.engine.legal_commands(g.state)}
    g.do("hire_guild", guild="explorers")
    assert "claim_milestone" in {c["type"] for c in g.engine.legal_commands(g.state)}
    g.do("claim_milestone", milestone="Explorer")
    for command, args in (("hire_advisor", {"advisor": "Savage"}),
                          ("activate_advisor", {"advisor": "Savage"})):
        with pytest.raises(IllegalCommand, match="before"):
            g.do(command, **args)
    after = undo_restores(options, g.commands)
    assert after.milestones[0].claimed_by == "blue" and after.provinces["blue"].glory == 5


def test_reputation_is_given_once_a_turn_for_a_region():
    """"Reputation Tokens": one token lends a region's powers until the turn ends, so a
    second for the same region buys nothing. It was accepted (the choices offered it once)."""
    from companion.games.seafall.refusals_fr import refusal

    options = {"provinces": [{"colour": "red", "reputation": 2}, {"colour": "yellow"}]}
    g = Game(options)
    g.do("give_reputation", to="yellow", region="yellow")
    with pytest.raises(IllegalCommand, match="Red already gave reputation for Yellow province "
                                             "this turn") as refused:
        g.do("give_reputation", to="yellow", region="yellow")
    assert refusal(str(refused.value)).startswith(
        "Rouge a déjà donné de la réputation pour les pouvoirs de la province jaune")
    assert g.state.provinces["red"].reputation == 1
    after = undo_restores(options, [Command("give_reputation",
                                            {"to": "yellow", "region": "yellow"}, "red")])
    assert after.turn.borrowed == ["yellow"]  # and undone, Red has its 2 tokens back


def test_reputation_buys_a_regions_powers_for_the_turn():
    g = Game({"provinces": [{"colour": "red", "reputation": 1}, {"colour": "yellow"}]})
    g.do("give_reputation", to="yellow", region="yellow")
    assert g.state.turn.borrowed == ["yellow"]
    assert (g.state.provinces["red"].reputation, g.state.provinces["yellow"].reputation) == (0, 1)
    with pytest.raises(IllegalCommand, match="no reputation"):
        g.do("give_reputation", to="yellow", region="yellow")
