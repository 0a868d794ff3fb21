"""Standing powers: treasures and structures for their owner, the revealed event for all
(issue 3 item 7's vocabulary: taxes +N, buy/sell +N goods, cheaper goods for a round...),
and damage cards known by name."""

from __future__ import annotations

import pytest
from seafall_driver import Game, island

from companion.errors import InvalidCommand


def merchant(events=None, treasures=None, event=None) -> Game:
    g = Game({
        "provinces": [{"colour": "blue", "gold": 10, "treasures": treasures or [],
                       "warehouse": ["iron"],
                       "ships": [{"location": "isle"}, {"location": "blue"}]},
                      {"colour": "red"}, {"colour": "green"}],
        "islands": [island(sites=[{"name": "1", "kind": "good", "colour": "wood",
                                   "good_present": True}])],
        "events": events or [], **({"event": event} if event else {}),
    })
    return g


def test_a_treasure_can_carry_expertise():
    g = merchant(treasures=[{"name": "Tax roll", "glory": 1, "effects": [
        {"effect": "expertise", "kind": "taxes", "amount": 2}]}])
    g.do("hire_guild", guild="soldiers")
    g.do("collect_taxes")
    assert g.state.provinces["blue"].gold == 10 + 3 + 2


def test_an_event_makes_goods_cheaper_for_its_round_only():
    """Designer notes (RULES-FACTS, events): one event makes goods cost 1 less that round."""
    g = merchant(events=[{"name": "Bumper harvest", "effects": [
        {"effect": "buy_price", "amount": -1}]}], event="Bumper harvest")
    assert g.state.event == "Bumper harvest"
    g.do("hire_guild", guild="merchants")
    events = g.do("buy", goods=[{"site": "isle/1"}])
    assert events[-1].payload["price"] == 2
    for _ in range(3):
        g.do("end_turn")
    assert g.state.event is None  # dismissed at the end of the round


def test_an_event_can_raise_the_sale_price():
    g = merchant(events=[{"name": "Fair", "effects": [{"effect": "sell_price", "amount": 1}]}],
                 event="Fair")
    g.do("hire_guild", guild="merchants")
    g.do("sell", goods=[{"good": "iron", "from": "warehouse"}])
    assert g.state.provinces["blue"].gold == 10 + 7


def test_unknown_expertise_kind_is_refused():
    with pytest.raises(InvalidCommand, match="expertise"):
        Game({"provinces": [{"colour": "blue", "treasures": [{"name": "X", "effects": [
            {"effect": "expertise", "kind": "flying", "amount": 1}]}]},
            {"colour": "red"}, {"colour": "green"}]})


def test_a_known_damage_card_brings_its_effects():
    """Damage cards are drawn at the table; one entered at setup is named and its powers
    apply without typing them again."""
    g = Game({"damage_cards": [{"name": "Holed", "effects": [
        {"effect": "stat", "stat": "hold", "amount": -1}]}],
        "provinces": [{"colour": "blue", "ships": [{"location": "isle"}, {"location": "isle"}]},
                      {"colour": "red"}, {"colour": "green"}],
        "islands": [island(sites=[{"name": "1", "defense": 5}])]})
    g.do("hire_guild", guild="explorers")
    g.do("explore", flagship="blue-1", site="isle/1")
    g.roll("standard", "standard", "standard")
    g.do("assign_damage", choice="card:blue-1", card="Holed")
    assert g.state.ships["blue-1"].damage[0].effects[0].amount == -1
