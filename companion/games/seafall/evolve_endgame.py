"""Folding the end-of-game events (see :mod:`companion.games.seafall.endgame`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.seafall.evolve import handles
from companion.games.seafall.state import EnmitySettling, SeaFallState


def _done(state: SeaFallState, player: str) -> None:
    if player in state.end_order:
        state.end_order.remove(player)


@handles("EndStepBegan")
def _end_step_began(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.end_step = p["step"]
    state.end_order = list(p["order"])


@handles("ProvinceImproved")
def _province_improved(state: SeaFallState, p: Mapping[str, Any]) -> None:
    prov = state.provinces[p["player"]]
    kind = p["kind"]
    if kind == "field":
        state.sites[p["site"]].value = p["value"]
    elif kind == "garrison":
        state.regions[p["region"]].garrison = p["value"]
    elif kind == "reputation":
        prov.leader_reputation = p["value"]
    elif kind == "fortune":
        prov.leader_fortune = p["value"]
    else:
        prov.appellation = p["name"]
    _done(state, p["player"])


@handles("AdvisorTrained")
def _advisor_trained(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.catalogue = state.catalogue.trained(p["advisor"], p["expertise"])
    sheet = next(r for r in state.retired_advisors if r.name == p["retired"])
    sheet.stickers -= 1
    state.trained_with.append(p["retired"])
    _done(state, p["player"])


@handles("TrainingSkipped")
def _training_skipped(state: SeaFallState, p: Mapping[str, Any]) -> None:
    _done(state, p["player"])


@handles("AdvisorKept")
def _advisor_kept(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.provinces[p["player"]].kept_advisor = p["advisor"]
    _done(state, p["player"])


@handles("ShipImproved")
def _ship_improved(state: SeaFallState, p: Mapping[str, Any]) -> None:
    if p["ship"] is not None:
        ship = state.ships[p["ship"]]
        setattr(ship, p["stat"], getattr(ship, p["stat"]) + 1)
    _done(state, p["player"])


@handles("EnmitySettlingBegan")
def _enmity_settling_began(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.enmity = EnmitySettling(p["player"])


@handles("EnmityRolled")
def _enmity_rolled(state: SeaFallState, p: Mapping[str, Any]) -> None:
    assert state.enmity is not None
    state.enmity.rolled = True
    state.enmity.successes = p["successes"]


def _remove_token(state: SeaFallState, player: str, location: str, count: int) -> None:
    kind, _, where = location.partition(":")
    if kind == "garrison":
        pool = state.regions[where].garrison_enmity
    elif kind == "war":
        pool = state.provinces[where].at_war_with
    else:
        pool = state.sites[location].enmity
    pool[player] -= count
    if not pool[player]:
        del pool[player]
    state.provinces[player].home_enmity += count


@handles("EnmityTakenBack")
def _enmity_taken_back(state: SeaFallState, p: Mapping[str, Any]) -> None:
    assert state.enmity is not None
    _remove_token(state, p["player"], p["location"], 1)
    state.enmity.successes -= 1


@handles("StickerCrossedOut")
def _sticker_crossed_out(state: SeaFallState, p: Mapping[str, Any]) -> None:
    assert state.enmity is not None
    stickers = state.regions[p["region"]].permanent_enmity
    stickers[p["player"]] -= 1
    if not stickers[p["player"]]:
        del stickers[p["player"]]
    state.enmity.successes -= 2


@handles("EnmitySpendingDone")
def _enmity_spending_done(state: SeaFallState, p: Mapping[str, Any]) -> None:
    assert state.enmity is not None
    state.enmity.successes = 0


@handles("TokensBecomeStickers")
def _tokens_become_stickers(state: SeaFallState, p: Mapping[str, Any]) -> None:
    player = p["player"]
    for site in state.sites.values():
        if site.enmity.get(player):
            _remove_token(state, player, site.id, site.enmity[player])
    for region in state.regions.values():
        if region.garrison_enmity.get(player):
            _remove_token(state, player, f"garrison:{region.id}",
                          region.garrison_enmity[player])
    for colour, prov in state.provinces.items():
        if prov.at_war_with.get(player):
            _remove_token(state, player, f"war:{colour}", prov.at_war_with[player])
    state.sticker_to_place = list(p["regions"])


@handles("StickerPlaced")
def _sticker_placed(state: SeaFallState, p: Mapping[str, Any]) -> None:
    stickers = state.regions[p["region"]].permanent_enmity
    if p["covered"]:
        stickers[p["covered"]] -= 1
        if not stickers[p["covered"]]:
            del stickers[p["covered"]]
    stickers[p["player"]] = stickers.get(p["player"], 0) + 1
    state.sticker_to_place.pop(0)


@handles("StickerLost")
def _sticker_lost(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.sticker_to_place.pop(0)


@handles("EnmityRollPassedBy")
def _enmity_roll_passed_by(state: SeaFallState, p: Mapping[str, Any]) -> None:
    _done(state, p["player"])  # no token out: nothing to settle


@handles("EnmitySettled")
def _enmity_settled(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.enmity = None
    _done(state, p["player"])


@handles("GloryRecorded")
def _glory_recorded(state: SeaFallState, p: Mapping[str, Any]) -> None:
    for colour, total in p["campaign"].items():
        state.provinces[colour].campaign_glory = total
    state.record.append({"game": p["game"], "glory": dict(p["glory"]),
                         "milestones": dict(p["milestones"])})
    state.end_order = []


@handles("TitlesRanked")
def _titles_ranked(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.title_blocks = [{"players": list(b["players"]), "titles": list(b["titles"])}
                          for b in p["blocks"]]


@handles("TitleChosen")
def _title_chosen(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.provinces[p["player"]].title = p["title"]
    block = state.title_blocks[0]
    block["players"].remove(p["player"])
    block["titles"].remove(p["title"])
    if not block["players"]:
        state.title_blocks.pop(0)
    _done(state, p["player"])


@handles("GameRecorded")
def _game_recorded(state: SeaFallState, p: Mapping[str, Any]) -> None:
    state.end_step = 8
    state.phase = "recorded"
