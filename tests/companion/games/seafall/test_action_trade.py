"""Buying and selling goods (rulebook, "Merchants Guild" > "Buy Goods" and "Sell Goods";
"Tokens and Enmity" > "Enmity and Costs on an Island")."""

from __future__ import annotations

import pytest
from seafall_driver import island

from companion.errors import IllegalCommand, InvalidCommand

SELL_TWO = {"name": "Red's trader", "guild": "merchants", "gold": 3, "expertise": {"sell": 2}}


def blue_at_two_islands(game, gold=10, advisor=None, **blue):
    """Blue's example: one ship at an island with an iron cube (its linen is produced but
    not there now), the other at an island with linen where Blue has two permanent enmity."""
    prov = {"colour": "blue", "gold": gold,
            "ships": [{"location": "iron-isle"}, {"location": "linen-isle"}], **blue}
    if advisor:
        prov["active_advisor"] = advisor
    g = game({"provinces": [prov, {"colour": "red"}], "islands": [
        island("iron-isle", sites=[
            {"name": "iron", "kind": "good", "colour": "iron", "good_present": True},
            {"name": "linen", "kind": "good", "colour": "linen", "good_present": False}]),
        island("linen-isle", permanent_enmity={"blue": 2}, sites=[
            {"name": "linen", "kind": "good", "colour": "linen", "good_present": True},
            {"name": "spice", "kind": "good", "colour": "spice", "good_present": True}]),
    ]})
    g.do("hire_guild", guild="merchants")
    return g


def test_buy_blue_iron_for_3_and_linen_for_5_with_two_enmity(game):
    """"Buy Goods", Blue's example: the iron costs 3; the linen at the island where Blue has
    two permanent enmity costs 5; each cube goes into the ship at its island."""
    g = blue_at_two_islands(game)
    events = g.do("buy", goods=[{"site": "iron-isle/iron"}, {"site": "linen-isle/linen"}])
    assert [(e.payload["good"], e.payload["price"]) for e in events[1:]] == [
        ("iron", 3), ("linen", 5)]
    assert g.state.provinces["blue"].gold == 2
    assert g.state.ships["blue-1"].goods == ["iron"]
    assert g.state.ships["blue-2"].goods == ["linen"]
    assert not g.state.sites["iron-isle/iron"].good_present


def test_buy_blue_a_third_good_needs_buy_expertise(game):
    """"Buy Goods": two goods per action; Blue has no advisor with Buy +X, so no third."""
    g = blue_at_two_islands(game, gold=20)
    with pytest.raises(IllegalCommand, match="may buy 2 goods"):
        g.do("buy", goods=[{"site": "iron-isle/iron"}, {"site": "linen-isle/linen"},
                           {"site": "linen-isle/spice"}])


def test_buy_expertise_allows_more_goods_paid_as_normal(game):
    """"Buy Goods": Buy +X buys X more goods, each paid for as normal (Smuggler: Buy +2)."""
    g = blue_at_two_islands(game, gold=20, advisor="Smuggler",
                            ships=[{"location": "iron-isle"}, {"location": "linen-isle",
                                                               "hold": 3}])
    g.do("buy", goods=[{"site": "iron-isle/iron"}, {"site": "linen-isle/linen"},
                       {"site": "linen-isle/spice"}])
    assert g.state.provinces["blue"].gold == 20 - 3 - 5 - 5


@pytest.mark.parametrize("goods, message", [
    pytest.param([{"site": "iron-isle/linen"}], "no good cube", id="produced but not there now"),
    pytest.param([{"site": "iron-isle/iron"}, {"site": "iron-isle/iron"}], "no good cube",
                 id="one cube per site"),
    pytest.param([{"site": "blue/field-1"}], "island sites", id="only at islands"),
    pytest.param([{"site": "linen-isle/linen", "ship": "blue-1"}], "not at",
                 id="the ship must be at that island"),
])
def test_buy_refused(game, goods, message):
    """"Buy Goods": cubes available on island sites, into a ship at that island."""
    g = blue_at_two_islands(game)
    with pytest.raises(IllegalCommand, match=message):
        g.do("buy", goods=goods)


def test_buy_not_enough_gold(game):
    """"Buy Goods": the price is paid in gold; gold never goes below zero."""
    g = blue_at_two_islands(game, gold=7)
    with pytest.raises(IllegalCommand, match="costs 5"):
        g.do("buy", goods=[{"site": "iron-isle/iron"}, {"site": "linen-isle/linen"}])


def test_buy_full_hold_returns_a_good_to_make_room(game):
    """"Buy Goods": holds limit goods; a good may go back to the supply (for nothing) to
    store a different one."""
    g = blue_at_two_islands(game, ships=[{"location": "iron-isle", "hold": 1,
                                          "goods": ["wood"]}, {"location": "linen-isle"}])
    with pytest.raises(IllegalCommand, match="hold is full"):
        g.do("buy", goods=[{"site": "iron-isle/iron"}])
    wood = g.state.supply.goods["wood"]
    g.do("buy", goods=[{"site": "iron-isle/iron"}], **{"return": [{"ship": "blue-1",
                                                                      "good": "wood"}]})
    assert g.state.ships["blue-1"].goods == ["iron"]
    assert g.state.supply.goods["wood"] == wood + 1


def test_buy_two_ships_at_the_island_must_be_named(game):
    """Which ship takes a good is the player's choice, so the command names it."""
    g = blue_at_two_islands(game, ships=[{"location": "iron-isle"}, {"location": "iron-isle"}])
    with pytest.raises(InvalidCommand, match="name the 'ship'"):
        g.do("buy", goods=[{"site": "iron-isle/iron"}])
    g.do("buy", goods=[{"site": "iron-isle/iron", "ship": "blue-2"}])
    assert g.state.ships["blue-2"].goods == ["iron"]


def test_buy_is_a_merchants_action(game):
    """"Guilds": buy goods is an action of the Merchants guild only."""
    g = game({"provinces": [{"colour": "blue"}, {"colour": "red"}]})
    g.do("hire_guild", guild="builders")
    with pytest.raises(IllegalCommand, match="not an action of the Builders"):
        g.do("buy", goods=[{"site": "x"}])


def red_sells(game, **red):
    g = game({"provinces": [
        {"colour": "red", "active_advisor": "Red's trader", "gold": 0,
         "warehouse": ["wood", "linen", "spice", "iron"], **red},
        {"colour": "blue"}], "components": {"advisors": [SELL_TWO]}})
    g.do("hire_guild", guild="merchants")
    return g


def test_sell_red_four_goods_with_sell_plus_two_for_24_gold(game):
    """"Sell Goods", Red's example: Sell +2 sells four goods from the warehouse, whose
    market takes all four colours, at 6 gold each: 24 gold."""
    g = red_sells(game)
    supply = dict(g.state.supply.goods)
    g.do("sell", goods=[{"good": c, "from": "warehouse"}
                        for c in ("wood", "linen", "spice", "iron")])
    assert g.state.provinces["red"].gold == 24
    assert g.state.provinces["red"].warehouse == []
    assert all(g.state.supply.goods[c] == supply[c] + 1 for c in supply)


def test_sell_a_fifth_good_is_refused(game):
    """"Sell Goods": two goods plus the advisor's Sell +X, no more."""
    g = red_sells(game, warehouse=["wood", "wood", "linen", "spice", "iron"])
    with pytest.raises(IllegalCommand, match="may sell 4"):
        g.do("sell", goods=[{"good": "wood", "from": "warehouse"}] * 5)


def test_sell_marketplace_adds_two_gold_a_good_in_its_region(game):
    """Marketplace (RULES-FACTS: goods sold in its region +2 gold, effect sell_bonus)."""
    g = red_sells(game, structures=["Marketplace"])
    g.do("sell", goods=[{"good": "wood", "from": "warehouse"},
                        {"good": "iron", "from": "warehouse"}])
    assert g.state.provinces["red"].gold == 16


def island_market(game, **kw):
    g = game({"provinces": [
        {"colour": "red", "ships": [{"location": "mart", "goods": ["iron", "wood"]},
                                    {"location": "blue", "goods": ["iron"]}]},
        {"colour": "blue", "structures": ["Marketplace"]}],
        "islands": [island("mart", sites=[{"name": "m", "kind": "market", "colour": "iron"}],
                           **kw)]})
    g.do("hire_guild", guild="merchants")
    return g


def test_sell_at_an_island_market_of_one_colour(game):
    """"Sell Goods": some markets take only one colour (an explored market site)."""
    g = island_market(game)
    g.do("sell", goods=[{"good": "iron", "from": "red-1"}])
    assert g.state.provinces["red"].gold == 6
    assert g.state.ships["red-1"].goods == ["wood"]


@pytest.mark.parametrize("goods, message", [
    pytest.param([{"good": "wood", "from": "red-1"}], "buys wood", id="wrong colour"),
    pytest.param([{"good": "iron", "from": "red-2"}], "no market",
                 id="another province's market is its owner's"),
    pytest.param([{"good": "spice", "from": "red-1"}], "holds no spice",
                 id="only goods you hold"),
])
def test_sell_refused(game, goods, message):
    """"Sell Goods": goods are sold at a region with a market of their colour. Reading: a
    province's warehouse market serves its owner (or a player who paid reputation)."""
    g = island_market(game)
    with pytest.raises(IllegalCommand, match=message):
        g.do("sell", goods=goods)


def test_sell_in_a_borrowed_province_with_its_marketplace(game):
    """"Reputation Tokens": a token given to another player buys that region's benefits and
    powers for the turn: here Blue's warehouse market and her Marketplace's +2 gold."""
    g = game({"provinces": [
        {"colour": "red", "reputation": 1, "ships": [{"location": "blue", "goods": ["iron"]}, {}]},
        {"colour": "blue", "structures": ["Marketplace"]}]})
    g.do("give_reputation", to="blue", region="blue")
    g.do("hire_guild", guild="merchants")
    events = g.do("sell", goods=[{"good": "iron", "from": "red-1"}])
    assert events[-1].payload["gold"] == 8 and events[-1].payload["bonus"] == 2
    assert g.state.provinces["red"].gold == 8
    assert "2 from a structure" in g.engine.describe(events[-1])


def offered(g, kind):
    return [c["args"]["goods"] for c in g.engine.legal_commands(g.state) if c["type"] == kind]


def test_the_choices_offer_two_goods_a_buy_and_more_with_expertise(game):
    """"Buy Goods" and "Sell Goods": up to two goods an action, more with expertise. The
    choices (what the phones show) offered one good an action: one tap used the Buy up.
    Blue's example's iron and linen are offered together, as the rulebook buys them; a set
    Blue cannot pay for, or of three goods without expertise, is not."""
    g = blue_at_two_islands(game)
    buys = offered(g, "buy")
    assert [{"site": "iron-isle/iron", "ship": "blue-1"},
            {"site": "linen-isle/linen", "ship": "blue-2"}] in buys
    assert max(len(b) for b in buys) == 2
    poor = blue_at_two_islands(game, gold=7)  # iron 3 + linen 5 is 8
    assert [{"site": "iron-isle/iron", "ship": "blue-1"},
            {"site": "linen-isle/linen", "ship": "blue-2"}] not in offered(poor, "buy")
    sells = offered(red_sells(game), "sell")  # Sell +2: the four goods in one action
    assert [{"good": c, "from": "warehouse"} for c in ("iron", "linen", "spice", "wood")] \
        in sells


def test_the_choices_offer_a_buy_into_a_full_hold_with_a_good_returned_for_room(game):
    """"Buy Goods": a good may go back to the supply, for nothing, to store another. The
    choices offered no Buy into a full hold: only a typed command could return a good."""
    g = blue_at_two_islands(game, ships=[{"location": "iron-isle", "hold": 2,
                                          "goods": ["wood", "wood"]},
                                         {"location": "linen-isle", "hold": 1,
                                          "goods": ["spice"]}])
    buys = [c["args"] for c in g.engine.legal_commands(g.state) if c["type"] == "buy"]
    iron = [{"site": "iron-isle/iron", "ship": "blue-1"}]
    # the two woods are one cube each alike: one way to return one
    assert [b for b in buys if b["goods"] == iron] == [
        {"goods": iron, "return": [{"ship": "blue-1", "good": "wood"}]}]
    both = [b for b in buys if len(b["goods"]) == 2 and b["goods"][0] == iron[0]]
    assert {"goods": [*iron, {"site": "linen-isle/linen", "ship": "blue-2"}],
            "return": [{"ship": "blue-1", "good": "wood"}, {"ship": "blue-2", "good": "spice"}]} \
        in both
    g.do("buy", goods=iron, **{"return": [{"ship": "blue-1", "good": "wood"}]})
    assert g.state.ships["blue-1"].goods == ["wood", "iron"]


def summaries(g, kind):
    return {str(c["args"]["goods"]): c["summary"] for c in g.engine.legal_commands(g.state)
            if c["type"] == kind}


def test_the_choices_say_the_price_of_every_good_of_a_buy_or_a_sell(game):
    """A Buy or a Sell of several goods is paid or paid for good by good ("Buy Goods": 3
    gold, 1 more per enmity; "Sell Goods": 6 gold each). The summary said the last good's
    price only: Blue's iron and linen "cost 5 gold" where the history then charged 8."""
    g = blue_at_two_islands(game)
    both = [{"site": "iron-isle/iron", "ship": "blue-1"},
            {"site": "linen-isle/linen", "ship": "blue-2"}]
    assert summaries(g, "buy")[str(both)] == "costs 8 gold"
    assert summaries(g, "buy")[str(both[:1])] == "costs 3 gold"
    four = [{"good": c, "from": "warehouse"} for c in ("iron", "linen", "spice", "wood")]
    assert summaries(red_sells(game), "sell")[str(four)] == "brings 24 gold"
