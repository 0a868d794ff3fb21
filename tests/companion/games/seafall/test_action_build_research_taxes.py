"""Build (rulebook, "Builders Guild" > "Build"), research ("Explorers Guild" > "Research")
and collect taxes ("Soldiers Guild" > "Collect Taxes")."""

from __future__ import annotations

import pytest

from companion.errors import IllegalCommand, InvalidCommand


def builder(game, **prov):
    g = game({"provinces": [{"colour": "red", "gold": 10, **prov}, {"colour": "blue"}]})
    g.do("hire_guild", guild="builders")
    return g


def test_build_on_the_first_free_site_for_a_glory(game):
    """"Build": a structure from the board onto a build site you control, +1 glory."""
    g = builder(game)
    events = g.do("build", structure="Gun Tower")
    assert g.types(events) == ["ActionTaken", "StructureBuilt", "GloryChanged"]
    site = g.state.sites["red/build-1"]
    assert site.structure == "Gun Tower" and site.plunder_value == 3
    assert g.state.provinces["red"].gold == 0 and g.state.provinces["red"].glory == 1
    assert g.state.supply.structures["Gun Tower"] == 2


@pytest.mark.parametrize("prov, args, price", [
    pytest.param({}, {}, 10, id="printed cost"),
    pytest.param({"warehouse": ["spice"]}, {"good_from": "warehouse"}, 2,
                 id="a good of its colour in the warehouse: -8"),
    pytest.param({"ships": [{"goods": ["spice"]}, {}]}, {"good_from": "red-1"}, 2,
                 id="a good on a ship in the home harbor: -8"),
    pytest.param({"active_advisor": "Convict"}, {}, 8, id="Build -2"),
    pytest.param({"active_advisor": "Foreman", "warehouse": ["spice"]},
                 {"good_from": "warehouse"}, 0, id="never below 0"),
])
def test_build_price(game, prov, args, price):
    """"Build": printed cost, -8 with a good of its colour in the build site's region, less
    Build expertise, never below 0 (Port: spice, 10 gold, RULES-FACTS)."""
    g = builder(game, **prov)
    g.do("build", structure="Port", **args)
    assert g.state.provinces["red"].gold == 10 - price


def test_build_good_on_a_ship_away_from_home_does_not_count(game):
    """"Build": the good must be in the same region as the build site."""
    g = game({"provinces": [{"colour": "red", "gold": 10, "ships": [
        {"location": "blue", "goods": ["spice"]}, {}]}, {"colour": "blue"}]})
    g.do("hire_guild", guild="builders")
    with pytest.raises(IllegalCommand, match="not in"):
        g.do("build", structure="Port", good_from="red-1")


def test_build_exhausted_structures_are_not_available(game):
    """"Build": exhausted (face-down) structures cannot be bought."""
    g = game({"provinces": [{"colour": "red", "gold": 10}, {"colour": "blue"}],
              "supply": {"structures": {"Marketplace": 0}}})
    g.do("hire_guild", guild="builders")
    with pytest.raises(IllegalCommand, match="no Marketplace is available"):
        g.do("build", structure="Marketplace")


def test_build_full_province_returns_a_structure_exhausted(game):
    """"Build": structures may go back to the board exhausted to make room, losing the
    glory they gave."""
    g = builder(game, glory=3, structures=["Gun Tower", "Port", "Library"])
    with pytest.raises(IllegalCommand, match="no free building site"):
        g.do("build", structure="Marketplace")
    events = g.do("build", structure="Marketplace", site="red/build-2", replace=True)
    assert g.types(events) == ["ActionTaken", "StructureReturned", "StructureBuilt",
                               "GloryChanged", "GloryChanged"]
    assert g.state.sites["red/build-2"].structure == "Marketplace"
    assert g.state.supply.exhausted_structures == {"Port": 1}
    assert g.state.provinces["red"].glory == 3
    # the choices offer it too, in place of each structure (they offered no build at all)
    full = builder(game, structures=["Gun Tower", "Port", "Library"])
    offered = [c["args"] for c in full.engine.legal_commands(full.state)
               if c["type"] == "build" and c["args"]["structure"] == "Marketplace"
               and "good_from" not in c["args"]]
    assert offered == [{"structure": "Marketplace", "site": f"red/build-{n}", "replace": True}
                       for n in (1, 2, 3)]


@pytest.mark.parametrize("args, error, message", [
    pytest.param({"site": "red/build-1", "replace": True}, IllegalCommand, "free building site",
                 id="returned only to make room"),
    pytest.param({"site": "blue/build-1"}, IllegalCommand, "not a building site of",
                 id="only on sites you control"),
    pytest.param({"site": "red/vault"}, IllegalCommand, "not a building site",
                 id="only on building sites"),
    pytest.param({"replace": True}, InvalidCommand, "needs the 'site'",
                 id="replace names the site"),
])
def test_build_site_refusals(game, args, error, message):
    """"Build": on a build site you control; returning a structure is to make room."""
    g = builder(game, structures=["Gun Tower"])
    with pytest.raises(error, match=message):
        g.do("build", structure="Marketplace", **args)


def test_build_not_enough_gold(game):
    """"Build": the price is paid in gold (gold never goes below zero)."""
    g = builder(game, gold=9)
    with pytest.raises(IllegalCommand, match="costs 10"):
        g.do("build", structure="Port")


def researcher(game, allowed=True, **prov):
    g = game({"provinces": [{"colour": "red", "gold": 5, **prov}, {"colour": "blue"}],
              "research_allowed": allowed,
              "components": {"advisors": [{"name": "Cartographer", "guild": "explorers",
                                           "gold": 2, "expertise": {"research": 1}}]}})
    g.do("hire_guild", guild="explorers")
    return g


def test_research_keeps_one_card_for_three_gold(game):
    """"Research": pay 3 gold, keep one drawn card (face up in the treasure room); with
    Research +1 two cards are drawn and the other is dismissed."""
    g = researcher(game, active_advisor="Cartographer")
    effects = [{"effect": "dice", "endeavor": "explore", "amount": 1}]
    events = g.do("research", drawn=["Chart", "Map"], keep="Chart", effects=effects)
    assert events[-1].payload["dismissed"] == ["Map"]
    prov = g.state.provinces["red"]
    assert prov.gold == 2
    assert [(c.name, [e.to_json() for e in c.effects]) for c in prov.research] == [
        ("Chart", effects)]


@pytest.mark.parametrize("allowed, advisor, drawn, keep, error, message", [
    pytest.param(False, None, ["Chart"], "Chart", IllegalCommand, "not possible yet",
                 id="not at the start of the campaign"),
    pytest.param(True, None, ["Chart", "Map"], "Chart", IllegalCommand, "draws 1",
                 id="one card without Research expertise"),
    pytest.param(True, None, ["Chart"], "Map", InvalidCommand, "one of the cards drawn",
                 id="keep a card that was drawn"),
    pytest.param(True, None, [], "Map", InvalidCommand, "'drawn'", id="nothing drawn"),
])
def test_research_refused(game, allowed, advisor, drawn, keep, error, message):
    """"Research": not at the start of SeaFall; 1 + Research +X cards; keep one drawn."""
    g = researcher(game, allowed=allowed,
                   **({"active_advisor": advisor} if advisor else {}))
    with pytest.raises(error, match=message):
        g.do("research", drawn=drawn, keep=keep)


def test_research_needs_three_gold(game):
    """"Research": it costs three gold."""
    g = researcher(game, gold=2)
    with pytest.raises(IllegalCommand, match="costs 3"):
        g.do("research", drawn=["Chart"], keep="Chart")


def test_research_bad_effect_is_invalid(game):
    """Powers are validated (an unknown effect is a clear error)."""
    g = researcher(game)
    with pytest.raises(InvalidCommand, match="unknown effect"):
        g.do("research", drawn=["Chart"], keep="Chart", effects=[{"effect": "teleport"}])


def researches(g):
    return [c for c in g.engine.legal_commands(g.state) if c["type"] == "research"]


def test_the_choices_offer_research_with_the_number_of_cards_to_name(game):
    """"Research": the cards drawn are physical, so the choices list research with empty
    ``args`` and the number of cards the table names (1 + Research expertise). The phones
    did not offer research at all."""
    assert researches(researcher(game)) == [
        {"type": "research", "args": {}, "cards": 1, "summary": "costs 3 gold"}]
    assert researches(researcher(game, active_advisor="Cartographer"))[0]["cards"] == 2
    assert researches(researcher(game, allowed=False)) == []  # not yet in this campaign
    assert researches(researcher(game, gold=2)) == []


@pytest.mark.parametrize("advisor, gold", [
    pytest.param(None, 3, id="3 gold"),
    pytest.param("Renowned Soldier", 5, id="Taxes +2"),
])
def test_taxes_add_three_gold_plus_expertise(game, advisor, gold):
    """"Collect Taxes": 3 gold to the vault, more with Taxes +X."""
    g = game({"provinces": [{"colour": "red", **({"active_advisor": advisor} if advisor else {})},
                            {"colour": "blue"}]})
    g.do("hire_guild", guild="soldiers")
    events = g.do("collect_taxes")
    assert g.types(events) == ["ActionTaken", "TaxesCollected"]
    assert g.state.provinces["red"].gold == gold
    with pytest.raises(IllegalCommand, match="already took the taxes"):
        g.do("collect_taxes")


def test_taxes_need_the_soldiers(game):
    """"Guilds": collect taxes is the Soldiers' action."""
    g = game({"provinces": [{"colour": "red"}, {"colour": "blue"}]})
    with pytest.raises(IllegalCommand, match="hire the Soldiers"):
        g.do("collect_taxes")
