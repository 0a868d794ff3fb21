"""The guild actions' golden transcripts end where the rulebook's examples say (each file
cites its section; tests/web/test_cli_play.py compares their events with the golden ones)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from seafall_driver import Game

TRANSCRIPTS = Path(__file__).parent / "transcripts"


def play(name: str) -> Game:
    lines = [json.loads(line) for line in (TRANSCRIPTS / f"{name}.jsonl").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    g = Game(lines[0]["setup"])
    for line in lines[1:]:
        args = dict(line.get("args", {}))
        args.update({k: v for k, v in line.items() if k not in ("type", "args", "actor")})
        g.do(line["type"], line.get("actor"), **args)
    for event in g.events:
        assert g.engine.describe(event).endswith(".")
    return g


@pytest.mark.parametrize("name, check", [
    pytest.param("blue-buys-goods",
                 lambda s: (s.provinces["blue"].gold, s.ships["blue-1"].goods,
                            s.ships["blue-2"].goods) == (2, ["iron"], ["linen"]),
                 id="Buy Goods: Blue pays 3 + 5"),
    pytest.param("red-sells-four-goods",
                 lambda s: (s.provinces["red"].gold, s.provinces["red"].warehouse) == (24, []),
                 id="Sell Goods: Red gets 24 gold"),
    pytest.param("yellow-swift-upgrade",
                 lambda s: (s.provinces["yellow"].gold, s.provinces["yellow"].glory,
                            [u.name for u in s.ships["yellow-1"].upgrades]) == (12, 1, ["Swift"]),
                 id="Upgrade: Yellow's SWIFT is free"),
    pytest.param("blue-sails-two-speeds",
                 lambda s: (s.ships["blue-1"].location, s.ships["blue-2"].location)
                 == ("isle", "(1, 3, 4)"),
                 id="Sailing: the faster ship goes on to the island"),
])
def test_transcript_ends_as_the_example_says(name, check):
    g = play(name)
    assert check(g.state)
    assert g.replayed() == g.state
