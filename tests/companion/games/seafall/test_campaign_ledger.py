"""The campaign ledger is data that round-trips ("Game Carryover"): the next game's setup
options, set up, played and recorded through the scripted mode, give the options of the game
after, with every carried value kept except what that game's end changed."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from seafall_driver import Game

from companion.games.seafall.campaign import next_game
from web.cli import main

WHOLE_GAME = Path(__file__).parent / "transcripts" / "whole-game.jsonl"


def play(script: Path, next_file: Path) -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["play", "seafall", "--script", str(script), "--json",
                     "--next-game", str(next_file)]) == 0


def quick_game(options: dict[str, Any], picks: list[int]) -> tuple[list[dict], Game]:
    """A game with no actions (everyone passes; the target is 0 so it ends after a round),
    its end-of-game choices taken from ``picks``: the commands, and the game played."""
    setup = {**options, "glory_target": 0}
    g = Game({**setup, "start_at": "winter"})
    lines: list[dict[str, Any]] = [{"setup": setup}]
    choice = iter(picks)
    while g.state.phase != "recorded":
        prompts = g.engine.prompts(g.state)
        if not prompts or prompts[0].command == "hire_guild":
            line = {"type": "end_turn"}
        elif prompts[0].kind == "roll":
            line = {"type": "roll", "faces": ["blank"] * prompts[0].count}
        else:
            p = prompts[0]
            opts = [o.value for o in p.options if o.value != "appellation"]
            line = {"type": p.command, p.arg: opts[next(choice, 0) % len(opts)]}
        g.do(line["type"], **{k: v for k, v in line.items() if k != "type"})
        lines.append(line)
    return lines, g


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(picks=st.lists(st.integers(min_value=0, max_value=40), min_size=12, max_size=12))
def test_two_games_in_a_row_keep_every_carried_value(picks):
    with tempfile.TemporaryDirectory() as tmp:
        first, second = Path(tmp) / "game2.jsonl", Path(tmp) / "game3.jsonl"
        play(WHOLE_GAME, first)
        options = json.loads(first.read_text())["setup"]
        lines, g = quick_game(options, picks)
        script = Path(tmp) / "game2-played.jsonl"
        script.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
        play(script, second)
        after = json.loads(second.read_text())["setup"]
    assert after == json.loads(json.dumps(next_game(g.state)))  # the scripted mode agrees

    expected = copy.deepcopy(options)
    expected["game"] = options["game"] + 1
    expected["record"] = [*options["record"], g.state.record[-1]]
    for prov in expected["provinces"]:
        colour = prov["colour"]
        improved = [e.payload for e in g.events if e.type == "ShipImproved"
                    and e.payload["player"] == colour and e.payload["ship"]]
        for change in improved:
            ship = g.state.ships[change["ship"]]
            index = g.state.provinces[colour].ships.index(ship.id)
            prov["ships"][index][change["stat"]] += 1
        improvement = [e.payload for e in g.events if e.type == "ProvinceImproved"
                       and e.payload["player"] == colour]
        for change in improvement:
            if change["kind"] in ("reputation", "fortune"):
                prov[f"leader_{change['kind']}"] = change["value"]
            elif change["kind"] == "garrison":
                prov["garrison"] = change["value"]
            else:
                field = int(change["site"].rsplit("-", 1)[1]) - 1
                prov["fields"][field] = change["value"]
    assert expected["provinces"] != options["provinces"]  # each game improves a ship
    by_colour = {p["colour"]: p for p in after["provinces"]}
    assert [by_colour[p["colour"]] for p in expected["provinces"]] == expected["provinces"]
    assert {k: v for k, v in after.items() if k != "provinces"} == \
        {k: v for k, v in expected.items() if k != "provinces"}
