"""Random guild actions keep the books (rulebook, "Merchants Guild", "Builders Guild",
"Explorers Guild" > "Research", "Soldiers Guild" > "Collect Taxes", "Ships and Sailing").

Hypothesis plays turns made of random sail, buy, sell, repair, upgrade, build, research and
taxes commands (refusals are fine). After every step: goods are conserved at 10 per colour
(supply, holds, warehouses, cubes on sites), gold and glory are never negative, no ship has
more goods than its hold or more than two upgrades; at the end, replaying the events gives
the state and the state survives a JSON round trip.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from seafall_driver import Game, check_books, check_glory, island

from companion.dice import SEAFALL
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.components import GOODS, GUILDS
from companion.games.seafall.map import default_map
from companion.games.seafall.state import SeaFallState
from companion.games.seafall.turn import GUILD_ACTIONS

PLACED = {  # goods placed at setup (setup takes them out of the supply)
    "warehouses": {"blue": ["iron", "linen", "spice"], "red": ["wood", "wood"]},
    "ships": {"green-1": ["spice"]},
}


def options() -> dict[str, Any]:
    cubes = [("spice", True), ("iron", True), ("linen", True), ("wood", True)]
    islands = [
        island("near", space="(0, 3, 3)", docks=["iron"], repair=True, sites=[
            {"name": c, "kind": "good", "colour": c, "good_present": p} for c, p in cubes[:2]
        ] + [{"name": "m", "kind": "market", "colour": "iron"}]),
        island("far", space="(1, 3, 4)", permanent_enmity={"red": 1}, sites=[
            {"name": c, "kind": "good", "colour": c, "good_present": p} for c, p in cubes[2:]
        ] + [{"name": "d", "kind": "docks", "colour": "linen"}]),
        island("fog", sites=[{"name": "spice", "kind": "good", "colour": "spice",
                              "good_present": True}]),
    ]
    return {
        "provinces": [
            {"colour": "blue", "gold": 12, "glory": 1, "active_advisor": "Dockmaster",
             "warehouse": PLACED["warehouses"]["blue"],
             "ships": [{"location": "near", "upgrades": ["Bold"]}, {"sail": 0}]},
            {"colour": "red", "gold": 4, "warehouse": PLACED["warehouses"]["red"],
             "structures": ["Marketplace", "Port"],
             "ships": [{"damage": ["Leak"], "upgrades": [{"name": "Hale", "exhausted": True}]},
                       {"sunk": True}]},
            {"colour": "green", "gold": 20, "active_advisor": "Foreman",
             "ships": [{"location": "far", "goods": PLACED["ships"]["green-1"]},
                       {"location": "coastal_waters"}]},
        ],
        "islands": islands,
        "research_allowed": True,
    }


def random_path(state: SeaFallState, location: str, rnd: random.Random) -> list[str]:
    sea = default_map()
    region = state.regions.get(location)
    here = region.space if region is not None else location
    path: list[str] = []
    for _ in range(rnd.randint(1, 3)):
        if here is None or not sea.knows(here) or rnd.random() < 0.1:
            path.append(rnd.choice(["fog", "coastal_waters"]))
            here = state.regions["fog"].space if path[-1] == "fog" else path[-1]
            continue
        here = rnd.choice(sorted(sea.neighbours[here]))
        path.append(here)
    return path


COMMAND_OF = {"sail": ["sail"], "buy": ["buy"], "sell": ["sell"],
              "repair_or_upgrade": ["repair", "upgrade"], "build": ["build"],
              "explore": [], "raid": [], "research": ["research"], "taxes": ["collect_taxes"]}


def random_command(state: SeaFallState, player: str, rnd: random.Random) -> tuple[str, dict]:
    ships = state.province_ships(player)
    ship = rnd.choice(ships)
    good = rnd.choice(GOODS)
    source = rnd.choice(["warehouse", *[s.id for s in ships]])
    good_sites = [s.id for s in state.sites.values() if s.kind == "good"]
    guild = state.turn.guild if state.turn is not None else None
    kinds = [k for action in GUILD_ACTIONS.get(guild or "", ()) for k in COMMAND_OF[action]]
    if not kinds or rnd.random() < 0.15:
        return "end_turn", {}
    kind = rnd.choice(kinds)
    if kind == "sail":
        moves = [{"ship": s.id, "path": random_path(state, s.location, rnd)}
                 for s in ships if s.location is not None and rnd.random() < 0.8]
        args = {"moves": moves}
        if rnd.random() < 0.4:
            to = rnd.choice([t for t in ["warehouse", *[s.id for s in ships]] if t != source])
            args[rnd.choice(["before", "after"])] = [{"good": good, "from": source, "to": to}]
        return "sail", args
    if kind == "buy":
        picks = rnd.sample(good_sites, rnd.randint(1, 3))
        args: dict = {"goods": [{"site": s, "ship": rnd.choice(ships).id} for s in picks]}
        if ship.goods and rnd.random() < 0.5:
            args["return"] = [{"ship": ship.id, "good": ship.goods[0]}]
        return "buy", args
    if kind == "sell":
        return "sell", {"goods": [{"good": rnd.choice(GOODS), "from": source}
                                  for _ in range(rnd.randint(1, 3))]}
    if kind == "repair":
        return "repair", {"free": rnd.random() < 0.4}
    if kind == "upgrade":
        args = {"ship": ship.id, "upgrade": rnd.choice(sorted(state.catalogue.upgrades))}
        if rnd.random() < 0.5:
            args["good_from"] = source
        if ship.upgrades and rnd.random() < 0.5:
            args["replace"] = ship.upgrades[0].name
        return "upgrade", args
    if kind == "build":
        args = {"structure": rnd.choice(sorted(state.catalogue.structures))}
        if rnd.random() < 0.5:
            args["good_from"] = source
        if rnd.random() < 0.3:
            args.update(site=f"{player}/build-{rnd.randint(1, 3)}", replace=True)
        return "build", args
    if kind == "research":
        return "research", {"drawn": ["Chart"], "keep": "Chart"}
    return kind, {}


def answer_prompt(g: Game, rnd: random.Random) -> bool:
    prompts = g.engine.prompts(g.state)
    if not prompts:
        return True
    p = prompts[0]
    if p.kind == "roll":
        g.do("roll", faces=[rnd.choice(SEAFALL.labels) for _ in range(min(p.count, 15))])
    elif p.kind == "spend":
        g.do(p.command, **{p.arg: rnd.randint(p.minimum, p.maximum)})
    elif p.options:
        g.do(p.command, **{p.arg: rnd.choice(p.options).value})
    else:
        return False
    return True


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_guild_actions_keep_the_books(seed):
    rnd = random.Random(seed)
    g = Game(options())
    initial = g.state
    check_books(g.state)
    for _ in range(80):
        if g.state.game_over or g.state.turn is None:
            if not answer_prompt(g, rnd):
                break
            continue
        if g.engine.prompts(g.state):
            if not answer_prompt(g, rnd):
                break
        elif g.state.turn.guild is None:
            g.do("hire_guild", guild=rnd.choice(GUILDS))
        else:
            kind, args = random_command(g.state, g.state.turn.player, rnd)
            try:
                g.do(kind, **args)
            except (IllegalCommand, InvalidCommand):
                pass
        check_books(g.state)
        check_glory(g, initial)
    assert g.replayed() == g.state
    assert g.engine.load_state(g.engine.dump_state(g.state)) == g.state
