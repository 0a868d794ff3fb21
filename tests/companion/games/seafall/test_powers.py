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


IDOL = [{"name": "Idol", "effects": [{"effect": "expertise", "kind": "raid", "amount": 2},
                                     {"effect": "expertise", "kind": "taxes", "amount": 2}]}]


def raider(treasures=None, structures=None, events=None, event=None, advisor=None) -> Game:
    return Game({
        "provinces": [{"colour": "red", "treasures": treasures or [],
                       "structures": structures or [],
                       **({"active_advisor": advisor} if advisor else {}),
                       "ships": [{"location": "isle"}, {"location": "isle"}]},
                      {"colour": "blue"}],
        "islands": [island(sites=[{"name": "1", "kind": "mine", "value": 3, "defense": 2},
                                  {"name": "2", "kind": "unexplored", "symbol": "anchor",
                                   "defense": 2}])],
        "events": events or [], **({"event": event} if event else {}),
    })


def test_a_treasures_raid_expertise_adds_raid_dice_like_an_advisors():
    """"Endeavors and Damage" > "Creating a Dice Pool" (page 10): other effects add dice to
    the pool; effects.py's ``expertise`` is "as an advisor's", and an advisor's Raid +X adds
    X dice ("Advisors"). The Idol's Raid +2 made taxes 5 gold but left the raid at 3 dice
    (raid 2 + support 1); it is 5 now, said as a pool line, and the preview's odds (the
    phone's) are those of the same 5 dice."""
    from companion.games.seafall.engine import SeaFall
    from companion.games.seafall.log_fr import phrase

    g = raider(treasures=IDOL)
    g.do("hire_guild", guild="soldiers")
    raid = next(c for c in SeaFall().legal_commands(g.state)
                if c["type"] == "raid" and c["args"] == {"flagship": "red-1", "site": "isle/1"})
    assert raid["endeavor"]["dice"] == 5 and raid["summary"] == "5 dice against defense 2"
    g.do("raid", flagship="red-1", site="isle/1")
    assert g.state.endeavor.dice == 5
    assert ("treasure Idol: Raid +2", 2) in [(x.reason, x.dice) for x in g.state.endeavor.pool]
    assert phrase("treasure Idol: Raid +2") == "expertise du trésor Idol : pillage +2"
    assert raid["endeavor"]["odds"] == SeaFall().view(g.state, None)["endeavor"]["odds"]


def test_standing_explore_expertise_and_dice_count_but_not_another_kind():
    """A structure's Explore +1 and the event's extra die (for explore only) count for an
    exploration; the Idol's Raid and Taxes expertise do not."""
    g = raider(treasures=IDOL, structures=["Observatory"],
               events=[{"name": "Fair winds", "effects": [
                   {"effect": "dice", "endeavor": "explore", "amount": 1},
                   {"effect": "expertise", "kind": "explore", "amount": 1}]}],
               event="Fair winds")
    g.do("hire_guild", guild="explorers")
    g.do("explore", flagship="red-1", site="isle/2")
    pool = [(x.reason, x.dice) for x in g.state.endeavor.pool]
    assert ("event Fair winds: Explore +1", 1) in pool
    assert ("event Fair winds's power", 1) in pool
    assert not any("Idol" in reason for reason, _ in pool)
    assert g.state.endeavor.dice == 2 + 1 + 1 + 1  # explore 2, support, the event twice


def test_standing_endeavor_powers_work_as_an_advisors():
    """effects.py: the endeavor powers (re-rolls, bonus successes, fortune at a dangerous
    site, face values) of a treasure held work for its owner as an advisor's would: the
    endeavor's re-roll kinds and bonus include them, so the odds shown count them too."""
    tre = [{"name": "Compass", "effects": [{"effect": "reroll", "kind": "weak"},
                                           {"effect": "bonus_successes", "amount": 1}]}]
    g = raider(treasures=tre)
    g.do("hire_guild", guild="soldiers")
    g.do("raid", flagship="red-1", site="isle/1")
    assert g.state.endeavor.reroll_kinds == ["weak"] and g.state.endeavor.bonus == 1
    g.roll("weak", "blank", "blank")
    assert g.types()[-1] == "RerollRequired"
