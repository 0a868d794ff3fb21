"""Components entered as the campaign unlocks them: validated, then in play (issue 3 item 7:
"adding or editing a card is a validated command; an unknown effect key is a clear error")."""

from __future__ import annotations

import pytest
from seafall_driver import Game, island

from companion.errors import IllegalCommand, InvalidCommand


def test_a_new_advisor_goes_to_the_bottom_of_the_deck_and_works():
    g = Game({"advisor_deck": ["Captain"]})
    g.do("add_component", kind="advisor", card={
        "name": "Harbor Witch", "guild": "explorers", "gold": 2,
        "expertise": {"explore": 1},
        "effects": [{"effect": "fortune_at_dangerous", "amount": 1}]})
    assert g.state.advisor_deck == ["Captain", "Harbor Witch"]
    assert g.state.catalogue.advisors["Harbor Witch"].expertise == {"explore": 1}


def test_an_edit_replaces_the_card_of_the_same_name():
    g = Game({})
    g.do("add_component", kind="upgrade",
         card={"name": "Swift", "colour": "linen", "cost": 12,
               "effects": [{"effect": "stat", "stat": "sail", "amount": 1}]})
    assert g.state.catalogue.upgrades["Swift"].cost == 12
    assert g.state.supply.upgrades["Swift"] == 1  # an edit adds no token


@pytest.mark.parametrize("kind, card, match", [
    pytest.param("advisor", {"name": "X", "guild": "pirates", "gold": 1}, "guild",
                 id="unknown guild"),
    pytest.param("upgrade", {"name": "Wings", "colour": "linen", "cost": 10,
                             "effects": [{"effect": "fly"}]}, "unknown effect 'fly'",
                 id="unknown effect key"),
    pytest.param("treasure", {"name": "Idol", "glory": -1}, "glory", id="negative glory"),
    pytest.param("event", {"name": "Storm", "text": "..."}, "by its 'name'",
                 id="event text is not copied"),
    pytest.param("relic", {"name": "Idol"}, "'kind'", id="unknown kind"),
    pytest.param("advisor", {"gold": 1}, "'name'", id="no name"),
])
def test_bad_components_are_refused_with_the_reason(kind, card, match):
    g = Game({})
    before = g.state
    with pytest.raises(InvalidCommand, match=match):
        g.do("add_component", kind=kind, card=card)
    assert g.state == before


def test_treasures_milestones_and_events_enter_the_game():
    g = Game({})
    g.do("add_component", kind="treasure", card={"name": "Idol", "cost": 12, "colour": "spice",
                                                 "glory": 2})
    g.do("add_component", kind="milestone", card={"name": "Sunken City", "glory": 6,
                                                  "events": ["Tidal Wave"]})
    g.do("add_component", kind="milestone", card={"name": "World's End", "glory": 10,
                                                  "end_of_world": True})
    assert g.state.milestones[-1].end_of_world
    g.do("add_component", kind="event", card={"name": "Tidal Wave"}, bagged=True)
    g.do("add_component", kind="event", card={"name": "Storm"})
    assert [t.name for t in g.state.treasures] == ["Idol"]
    assert g.state.bagged_events == ["Tidal Wave"] and g.state.event_deck == ["Storm"]
    g.do("hire_guild", guild="explorers")
    g.do("claim_milestone", milestone="Sunken City")
    assert g.state.event_deck == ["Storm", "Tidal Wave"]
    with pytest.raises(IllegalCommand, match="already claimed"):
        g.do("add_component", kind="milestone", card={"name": "Sunken City", "glory": 1})


def test_a_new_island_is_charted_and_can_be_explored():
    g = Game({"provinces": [{"colour": "red", "ships": [{"location": "red"}, {}]},
                            {"colour": "blue"}]})
    g.do("add_island", island=island("far", garrison=2,
                                     sites=[{"name": "1", "symbol": "sun", "defense": 4}]))
    assert g.state.regions["far"].garrison == 2
    assert g.state.sites["far/1"].kind == "unexplored"
    with pytest.raises(InvalidCommand, match="used twice"):
        g.do("add_island", island=island("far"))
    assert g.replayed() == g.state


def test_an_island_of_a_name_already_charted_is_refused_and_undo_frees_the_name():
    """The board setup took "Example isle A" twice (the demo's sample island, added twice):
    two islands of one name, which no one could tell apart. The second is refused, with the
    reason, in French too; once the first is undone the name is free again."""
    from companion.engine import Command
    from companion.games.seafall.refusals_fr import refusal
    from companion.table import Table

    first = Command("add_island", {"island": {"name": "Example isle A", "garrison": 2}})
    again = Command("add_island", {"island": {"name": " example  ISLE a", "garrison": 1}})
    with Table.in_memory("seafall", {"start_at": "turn", "provinces": [
            {"colour": "red"}, {"colour": "blue"}]}) as table:
        table.apply(first)
        version = table.version
        with pytest.raises(IllegalCommand) as refused:
            table.apply(again)
        said = str(refused.value)
        assert said == ("there is already an island named 'Example isle A': give this one "
                        "another name")
        assert refusal(said) == ("il y a déjà une île nommée «\u00a0Example isle A\u00a0» : "
                                 "donnez-lui un autre nom")
        assert table.version == version
        assert [r.name for r in table.state.regions.values() if r.kind == "island"] == [
            "Example isle A"]
        table.undo()
        table.apply(again)  # the name is free once the first is taken back
        assert [r.name for r in table.state.regions.values() if r.kind == "island"] == [
            " example  ISLE a"]


WINTER = {"start_at": "winter", "provinces": [{"colour": c} for c in
                                               ("blue", "gray", "red", "yellow")]}


def test_a_leader_card_sets_its_reputation_and_fortune_tokens_in_the_first_winter():
    from companion.games.seafall.engine import SeaFall

    g = Game(WINTER)
    assert g.state.phase == "forum" and g.state.first_winter
    events = g.do("set_leader", province="gray", reputation=2, fortune=3)
    assert g.types(events) == ["LeaderSet"]
    gray = g.state.provinces["gray"]
    assert (gray.leader_reputation, gray.leader_fortune, gray.reputation, gray.fortune) == (
        2, 3, 2, 3)
    assert g.state.provinces["blue"].reputation == 0  # the others' cards are their own
    g.do("set_leader", province="gray", reputation=3, fortune=2)  # typed wrong: set again
    gray = g.state.provinces["gray"]
    assert (gray.leader_reputation, gray.reputation, gray.fortune) == (3, 3, 2)
    assert g.replayed() == g.state
    engine = SeaFall()
    assert engine.describe(events[0]) == "Gray takes the leader card's 2 reputation and 3 " \
                                         "fortune."
    assert engine.describe(events[0], "fr") == "Gris prend la réputation et la chance de sa " \
                                               "carte Leadeur : 2 et 3."


@pytest.mark.parametrize("args, match", [
    pytest.param({"province": "purple", "reputation": 2, "fortune": 2}, "'province'",
                 id="not a province of the game"),
    pytest.param({"province": "red", "reputation": -1, "fortune": 2}, "'reputation'",
                 id="negative"),
    pytest.param({"province": "red", "reputation": 2}, "'fortune'", id="fortune missing"),
    pytest.param({"province": "red", "reputation": 2, "fortune": 2, "glory": 1}, "glory",
                 id="unknown field"),
])
def test_a_leader_card_typed_wrong_is_refused(args, match):
    g = Game(WINTER)
    before = g.state
    with pytest.raises(InvalidCommand, match=match):
        g.do("set_leader", **args)
    assert g.state == before


def test_once_round_1_began_the_leader_changes_only_by_the_rules():
    from companion.games.seafall.engine import SeaFall

    g = Game({})  # a game in its first round
    with pytest.raises(IllegalCommand, match="before round 1") as refused:
        g.do("set_leader", province="red", reputation=2, fortune=2)
    assert SeaFall().refusal(str(refused.value), "fr").startswith(
        "la réputation et la chance d’un leadeur se fixent avant la manche 1")


def test_islands_and_cards_set_up_in_the_first_winter_produce_and_come_up():
    """A table set up without the demonstration: the board is set up while the forum is
    dealt, and the winter then has islands to produce and the round an event to reveal."""
    g = Game(WINTER)
    g.do("add_island", island=island("far", name="Far isle", space="(0, 2, 2)", sites=[
        {"name": "1", "symbol": "sun", "defense": 4},
        {"name": "2", "kind": "good", "colour": "spice", "defense": 5, "dangerous": True}]))
    g.do("add_component", kind="event", card={"name": "Storm"})
    while g.state.phase == "forum":
        g.do("deal_advisor", advisor=g.prompt.options[0].value)
    assert g.state.sites["far/2"].good_present  # islands produce: spice on site 2
    assert g.state.round == 1 and g.prompt.command == "reveal_event"
    assert [o.value for o in g.prompt.options] == ["Storm"]
