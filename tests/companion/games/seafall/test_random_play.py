"""Random play through the prompts: whatever the table does, the books balance.

Hypothesis drives whole turns from the demo table: it answers every prompt with a random
legal option or random dice, and tries random explores and raids (refusals are fine). After
every step: replaying the events gives the state, the state survives a JSON round trip,
goods and enmity tokens are conserved, glory and gold never go negative.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from seafall_driver import Game, check_books, check_glory

from companion.dice import SEAFALL
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.setup import demo_options

FACES = [*SEAFALL.labels, "standard", "strong"]  # lean towards successes: more plunder


def step(g: Game, rnd: random.Random) -> None:
    prompts = g.engine.prompts(g.state)
    player = g.state.turn.player if g.state.turn else None
    if prompts:
        p = prompts[0]
        if p.kind == "roll":
            faces = [rnd.choice(FACES) for _ in range(min(p.count, 15))]
            g.do("roll", faces=faces)
        elif p.kind == "spend":
            g.do(p.command, **{p.arg: rnd.randint(p.minimum, p.maximum)})
        else:
            g.do(p.command, **{p.arg: rnd.choice(p.options).value})
        return
    # the turn is open: try an endeavor where a ship is, or end the turn
    afloat = [s for s in g.state.province_ships(player) if not s.sunk]
    if not afloat or rnd.random() < 0.15:
        g.do("end_turn")
        return
    ship = rnd.choice(afloat)
    sites = [x.id for x in g.state.region_sites(ship.location)] or ["none"]
    region = g.state.regions[ship.location]
    try:
        if region.kind == "province" and region.owner != player and rnd.random() < 0.7:
            g.do("raid", flagship=ship.id, province=region.owner)
        elif rnd.random() < 0.5:
            g.do("explore", flagship=ship.id, site=rnd.choice(sites))
        else:
            g.do("raid", flagship=ship.id, site=rnd.choice(sites))
    except (IllegalCommand, InvalidCommand):
        g.do("end_turn")


def demo_with_war() -> dict:
    options = demo_options()
    # put ships in other harbors so province raids happen, and some war to return
    options["provinces"][0]["ships"] = [{"location": "green"}, {"location": "green"}]
    options["provinces"][0]["active_advisor"] = "Powder Monkey"
    options["provinces"][2]["ships"] = [{"location": "blue", "upgrades": ["Deadly"]},
                                        {"location": "isle-b", "upgrades": ["Fearless"]}]
    options["provinces"][0]["structures"] = ["Gun Tower", "Library"]
    options["provinces"][0]["treasures"] = [{"name": "Idol", "glory": 2}]
    options["provinces"][0]["glory"] = 5
    options["provinces"][1]["at_war_with"] = {"red": 1}
    options["provinces"][2]["enmity"] = 7
    options["provinces"][1]["warehouse"] = ["wood", "iron", "iron"]
    return options


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_play_keeps_the_books(seed):
    rnd = random.Random(seed)
    g = Game(demo_with_war())
    initial = g.state
    for _ in range(60):
        if g.state.game_over:
            break
        if g.state.turn is not None and g.state.turn.guild is None and not g.state.endeavor:
            g.do("hire_guild", guild=rnd.choice(["explorers", "soldiers"]))
        step(g, rnd)
        check_books(g.state)
        check_glory(g, initial)
    assert g.replayed() == g.state
    assert g.engine.load_state(g.engine.dump_state(g.state)) == g.state


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_undoing_everything_returns_the_initial_state(seed):
    """Through the table session: random play, then undo every command."""
    from companion.table import Table
    from tests.support.drivers import SeaFallDriver

    rnd = random.Random(seed)
    driver = SeaFallDriver()
    with Table.in_memory("seafall", driver.options()) as table:
        initial = table.state
        for _ in range(40):
            command = driver.next_command(table, rnd)
            if command is None:
                break
            try:
                table.apply(command)
            except (IllegalCommand, InvalidCommand):
                continue
        assert table.can_undo
        while table.can_undo:
            table.undo()
        assert table.state == initial
        while table.can_redo:
            table.redo()
        check_books(table.state)
