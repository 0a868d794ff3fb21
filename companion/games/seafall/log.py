"""Readable log lines for SeaFall events, for the history view and ``tableside play``.

English here; French in ``log_fr.py`` (same event types, a test keeps them in step).

Written from the payload alone, so a log can be rendered from an exported session without
the state it was played in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.engine import Event
from companion.games.seafall import log_fr
from companion.games.seafall.powerwords import card_with_powers
from companion.games.seafall.seaspaces import at_sea, sea_name, sea_near
from companion.games.seafall.sitenames import site_name
from companion.games.seafall.state import SeaFallState


def _who(colour: Any) -> str:
    if not colour:
        return "The table"
    player = (log_fr.PLAYERS.get() or {}).get(str(colour))
    if player:
        return player
    return log_fr.titled(str(colour))


_PLURALS = {"die": "dice", "success": "successes", "glory": "glory"}

TITLES = {"prince": "Prince/Princess", "duke": "Duke/Duchess", "count": "Count/Countess",
          "baron": "Baron/Baroness", "lord": "Lord/Lady"}  # as the pages name them

FACES = {"blank": "blank", "standard": "success", "weak": "weak success",
         "strong": "strong success"}  # as the pages name the faces (en.json face.*)


def _a(word: Any) -> str:
    """``word`` with its article: "an iron", "a wood", "an event"."""
    word = str(word)
    return f"{'an' if word[:1].lower() in tuple('aeiou') else 'a'} {word}"


def _goods(goods: Any) -> str:
    """Goods as a sentence lists them: "the linen and the wood", "the iron and 2 wood
    cubes" (the rulebook's "iron cube")."""
    return log_fr.listed([f"the {g}" if n == 1 else f"{n} {g} cubes"
                          for g, n in log_fr.counted(goods)], "en")


def _faces(faces: Any) -> str:
    return ", ".join(FACES.get(f, str(f)) for f in faces)


def dice_showing(count: int, kinds: Any) -> str:
    """``2, ["weak"]`` -> "2 dice that show a weak success" (a re-roll's dice; more kinds
    joined by "or")."""
    named = [FACES.get(k, str(k)) for k in kinds]
    faces = " or ".join(_a(n) for n in named)
    return f"{_n(count, 'die')} that {'shows' if count == 1 else 'show'} {faces}"


def _n(count: int, word: str) -> str:
    return f"{count} {word if count == 1 else _PLURALS.get(word, word + 's')}"


def _started(p: Mapping[str, Any]) -> str:
    what = f"{p['site']}" if p.get("site") else f"{_who(p['target'])}'s province"
    pool = "; ".join(log_fr.pool_line(line["reason"], line["dice"]) for line in p["pool"])
    return (f"{_who(p['player'])} {'explores' if p['kind'] == 'explore' else 'raids'} {what} "
            f"with {p['flagship']} (defense {p['defense']}"
            f"{', dangerous' if p['dangerous'] else ''}): {_n(p['dice'], 'die')} [{pool}]")


def _counted(p: Mapping[str, Any]) -> str:
    parts = [f"{p['rolled']} rolled"]
    if p["fortune"]:
        parts.append(f"{p['fortune']} from fortune")
    if p["bonus"]:
        parts.append(f"{p['bonus']} from powers")
    text = f"{_n(p['successes'], 'success')} ({', '.join(parts)}) against defense {p['defense']}"
    if p.get("strong_reduction"):
        text += f"; strong successes prevent {p['strong_reduction']}"
    return text + (f": {p['damage']} damage." if p["damage"] else ": no damage.")


def _field(site: Any) -> str:
    """A province's field: by its id, "the field blue/field-1"; named, "field 1 of Blue
    province" already says it."""
    return f"the field {site}" if "/" in str(site) else str(site)


def _sailed(p: Mapping[str, Any]) -> str:
    if "elsewhere" in p:  # from one space of the open sea to another said alike (_named)
        text = (f"{p['ship']} sails on the open sea to another space"
                + (f" {p['elsewhere']}" if p["elsewhere"] else "")
                + f" ({_n(len(p['path']), 'space')} of {p['sail']})")
    else:
        text = (f"{p['ship']} sails from {p['start']} to {p['to']} "
                f"({_n(len(p['path']), 'space')} of {p['sail']})")
    if p.get("together_with"):
        text += f", together with {p['together_with']}"
    if p.get("unchecked"):
        text += f"; not checked against the map: {', '.join(p['unchecked'])}"
    return text + "."


def _noted(p: Mapping[str, Any]) -> str:
    parts = []
    if p["milestone_glory"]:
        parts.append("glory from milestones " + ", ".join(
            f"{_who(c)} {g}" for c, g in p["milestone_glory"].items()))
    if p["absent"]:
        parts.append("absent " + ", ".join(_who(c) for c in p["absent"]))
    return f"The historical record notes for game {p['game']}: {'; '.join(parts)}."


_TEMPLATES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "GameSetUp": lambda p: "A new game of SeaFall is set up.",
    "ComponentAdded": lambda p: f"{_a(p['kind']).capitalize()} enters the game: "
                                f"{p['card']['name']}"
                                + (" (into the storage chest)" if p.get("bagged") else "") + ".",
    "IslandAdded": lambda p: "A new island is charted: "
                             f"{p['island'].get('name') or p['island'].get('id')}.",
    "LeaderSet": lambda p: f"{_who(p['player'])} takes the leader card's "
                           f"{p['reputation']} reputation and {p['fortune']} fortune.",
    "WinterBegan": lambda p: f"Winter of year {p['year']}.",
    "AstrolabeGiven": lambda p: f"{_who(p['player'])} takes the astrolabe and the event deck "
                                "(least glory).",
    "ForumDismissed": lambda p: f"The forum is dismissed: {', '.join(p['advisors'])}.",
    "AdvisorDealt": lambda p: f"{p['advisor']} is dealt to the forum.",
    "FieldsHarvested": lambda p: f"{_who(p['player'])} harvests {p['gold']} gold"
                                 + (f" ({len(p['skipped'])} field(s) with enmity give nothing)"
                                    if p["skipped"] else "")
                                 + (f" ({len(p['fallow'])} field(s) plundered since the last "
                                    "harvest give nothing)" if p.get("fallow") else "") + ".",
    "EnmityMoved": lambda p: f"{_n(p['count'], 'enmity token')} of {_who(p['owner'])} on "
                             f"{p['site']} {'moves' if p['count'] == 1 else 'move'} "
                             + ("to the At War With space." if p["to"] == "at_war"
                                else "onto the island's garrison."),
    "GoodsProduced": lambda p: f"Islands produce: {', '.join(p['sites']) or 'nothing'}"
                               + (f"; the supply runs short for {', '.join(p['short'])}"
                                  if p["short"] else "") + ".",
    "Refreshed": lambda p: "Advisors, and the supply's structures and upgrades, are refreshed.",
    "WinterEnded": lambda p: "Winter ends.",
    "RoundBegan": lambda p: f"Round {p['round']} begins.",
    "EventRevealed": lambda p: f"Event revealed: {p['event']}.",
    "EventDismissed": lambda p: f"The event {p['event']} is resolved and dismissed.",
    "EndStepBegan": lambda p: f"End of game, step {p['step']}: {p['name']}.",
    "ProvinceImproved": lambda p: f"{_who(p['player'])} improves "
                                  + {"field": f"{_field(p.get('site'))} to {p.get('value')} gold",
                                     "garrison": f"the garrison of {p.get('region')} to "
                                                 f"{p.get('value')}",
                                     "reputation": f"the leader's reputation to {p.get('value')}",
                                     "fortune": f"the leader's fortune to {p.get('value')}",
                                     "appellation": f"the leader with the appellation "
                                                    f"{p.get('name')}"}[p["kind"]] + ".",
    "AdvisorTrained": lambda p: f"{_who(p['player'])} trains {p['advisor']} with "
                                f"{p['retired']}.",
    "TrainingSkipped": lambda p: f"{_who(p['player'])} trains no advisor ({p['reason']}).",
    "AdvisorKept": lambda p: f"{_who(p['player'])} keeps {p['advisor']}." if p["advisor"]
                             else f"{_who(p['player'])} keeps no advisor ({p['reason']}).",
    "ShipImproved": lambda p: f"{_who(p['player'])} improves {p['ship']}'s {p['stat']}."
                              if p["ship"] else f"{_who(p['player'])}'s ships are all at "
                                                "their best.",
    "EnmitySettlingBegan": lambda p: f"{_who(p['player'])} rolls {_n(p['dice'], 'die')} for "
                                     "enmity.",
    "EnmityRolled": lambda p: f"{_who(p['player'])} rolls {_n(p['successes'], 'success')}.",
    "EnmityTakenBack": lambda p: f"{_who(p['player'])} takes back a token from "
                                 f"{p['location']}.",
    "StickerCrossedOut": lambda p: f"{_who(p['player'])} crosses out a sticker on "
                                   f"{p['region']}.",
    "EnmitySpendingDone": lambda p: f"{_who(p['player'])} keeps the remaining successes.",
    "TokensBecomeStickers": lambda p: f"{_who(p['player'])}'s tokens left become stickers on "
                                      f"{', '.join(p['regions'])}.",
    "StickerPlaced": lambda p: f"{_who(p['player'])} places a sticker on {p['region']}"
                               + (f", covering one of {_who(p['covered'])}'s"
                                  if p["covered"] else "") + ".",
    "StickerLost": lambda p: f"{p['region']} is full of {_who(p['player'])}'s stickers.",
    "EnmitySettled": lambda p: f"{_who(p['player'])}'s enmity is settled.",
    "EnmityRollPassedBy": lambda p: f"{_who(p['player'])} has no enmity token out and "
                                    + ("no sticker to cross out" if not p["stickers"] else
                                       f"{_n(p['dice'], 'die')} cannot make the 2 successes "
                                       "that cross out a sticker")
                                    + ": no roll for enmity.",
    "GloryRecorded": lambda p: "Glory recorded: " + ", ".join(
        f"{_who(c)} {g} (campaign {p['campaign'][c]})" for c, g in p["glory"].items()) + ".",
    "TitlesRanked": lambda p: "Titles by campaign glory: " + "; ".join(
        "/".join(_who(c) for c in b["players"]) + ": "
        + " or ".join(TITLES.get(t, t) for t in b["titles"]) for b in p["blocks"]) + ".",
    "TitleChosen": lambda p: f"{_who(p['player'])} is now "
                             f"{TITLES.get(p['title'], p['title'])}.",
    "GameRecorded": lambda p: f"Game {p['game']} is recorded in the campaign.",
    "AbsentPassedBy": lambda p: f"{_who(p['player'])} is absent: {p['what']}.",
    "HistoryNoted": _noted,
    "EmperorCrowned": lambda p: f"The island at the end of the world is found: the campaign "
                                f"ends and {_who(p['player'])} is crowned Emperor (decided by "
                                f"{p['decided_by']}).",
    "GameEnded": lambda p: f"The game ends: {_who(p['winner'])} wins with "
                           f"{p['glory'][p['winner']]} glory (target {p['target']}).",
    "TurnStarted": lambda p: f"{_who(p['player'])}'s turn begins.",
    "TurnEnded": lambda p: f"{_who(p['player'])}'s turn ends.",
    "AdvisorActivated": lambda p: f"{_who(p['player'])} activates {p['advisor']}.",
    "AdvisorExhausted": lambda p: f"{_who(p['player'])}'s {p['advisor']} is exhausted.",
    "ActionTaken": lambda p: f"{_who(p['player'])} takes the {p['action'].replace('_', ' ')} "
                             "action.",
    "AdvisorHired": lambda p: f"{_who(p['player'])} hires {p['advisor']} for "
                              + (f"{p['gold']} gold." if p["reputation"] == 0
                                 else f"{_n(p['reputation'], 'reputation token')}."),
    "TreasureBought": lambda p: f"{_who(p['player'])} buys {p['treasure']} for "
                                f"{p['gold']} gold.",
    "MilestoneClaimed": lambda p: f"{_who(p['player'])} claims the milestone {p['milestone']}"
                                  + (f"; {', '.join(p['events'])} enter the event deck"
                                     if p["events"] else "") + ".",
    "ReputationGiven": lambda p: f"{_who(p['player'])} gives a reputation token to "
                                 f"{_who(p['to'])} to use {p['region']}'s powers this turn.",
    "GuildHired": lambda p: f"{_who(p['player'])} hires the {p['guild'].title()} guild.",
    "EndeavorStarted": _started,
    "DiceRolled": lambda p: f"Dice read ({p.get('source', 'typed')}): "
                            f"{_faces(p['faces']) or 'no dice'}.",
    "RerollRequired": lambda p: f"Re-roll {dice_showing(len(p['indices']), p['kinds'])}.",
    "DiceRerolled": lambda p: f"Re-rolled: {_faces(p['faces'])}.",
    "FortuneOffered": lambda p: f"Up to {p['maximum']} fortune may be spent.",
    "FortuneSpent": lambda p: f"{_who(p['player'])} spends {p['amount']} fortune.",
    "SuccessesCounted": _counted,
    "UpgradeExhausted": lambda p: f"{p['ship']} exhausts {p['upgrade']} to take a damage.",
    "DamageCardDrawn": lambda p: f"{p['ship']} takes a damage card"
                                 + (f" ({p['card']})." if p["card"] != "damage" else "."),
    "HoldOverloaded": lambda p: f"{p['ship']}'s hold is over its value.",
    "GoodsReturned": lambda p: f"{p['ship']} returns {_goods(p['goods'])} to the supply.",
    "ShipSank": lambda p: f"{p['ship']} sinks"
                          + (f", returning {', '.join(p['upgrades'])}" if p["upgrades"] else "")
                          + (f"{' and' if p['upgrades'] else ','} losing {_goods(p['goods'])}"
                             if p["goods"] else "") + ".",
    "GloryChanged": lambda p: f"{_who(p['player'])} {'gains' if p['amount'] > 0 else 'loses'} "
                              f"{_n(abs(p['amount']), 'glory')} ({p['reason']}).",
    "EndeavorFailed": lambda p: f"The endeavor fails: {p['reason']}.",
    "EndeavorSucceeded": lambda p: "The endeavor succeeds.",
    "EndeavorEnded": lambda p: "The endeavor is over.",
    "SiteExplored": lambda p: f"{p['site']} is explored.",
    "SiteRecorded": lambda p: f"{p['site']} is recorded as {p['kind']}"
                              + (f" ({p['colour']})" if p.get("colour") else "")
                              + (f" worth {p['value']} gold" if p.get("value") else "") + ".",
    "PlunderChosen": lambda p: f"Plunder from {p['site']}.",
    "PlunderSkipped": lambda p: f"No plunder: {p['reason']}.",
    "PlunderStepDone": lambda p: "Plunder taken.",
    "GoldTaken": lambda p: f"{_who(p['player'])} takes {p['amount']} gold"
                           + (f" from {_who(p['from_player'])}" if p.get("from_player") else "")
                           + ".",
    "GoodsSeized": lambda p: f"Seized: {', '.join(p['goods']) or 'nothing'}.",
    "GoodLoaded": lambda p: f"The {p['good']} goes aboard {p['ship']}.",
    "GoodLeft": lambda p: f"The {p['good']} is left behind (no room).",
    "UpgradeSeized": lambda p: f"{p['ship']} takes the {p['upgrade']} upgrade"
                               + (f", returning {p['replaced']}" if p.get("replaced") else "")
                               + ".",
    "StructureRaided": lambda p: f"{p['structure']} at {p['site']} is returned, exhausted.",
    "AdvisorSeized": lambda p: f"{_who(p['player'])} "
                               f"{'takes' if p['keep'] else 'dismisses'} {p['advisor']} "
                               f"from {_who(p['from_player'])}"
                               + ("" if p["keep"] else " to the bottom of the advisor deck")
                               + ".",
    "CardSeized": lambda p: f"{_who(p['player'])} takes {p['card']} "
                            f"from {_who(p['from_player'])}.",
    "EnmityReturned": lambda p: f"{_who(p['holder'])} returns "
                                f"{_n(p['count'], 'enmity token')} to {_who(p['owner'])}.",
    "EnmityPlaced": lambda p: f"{_who(p['player'])} places "
                              f"{_n(p['count'], 'enmity token')} on {p['site']}.",
    # guild actions (companion/games/seafall/actions/)
    "ShipSailed": _sailed,
    "GoodMoved": lambda p: f"{_who(p['player'])} moves {_a(p['good'])} from {p['source']} to "
                           f"{p['to']} ({p['when']} sailing).",
    "GoodBought": lambda p: f"{_who(p['player'])} buys the {p['good']} at {p['site']} for "
                            f"{p['price']} gold, into {p['ship']}.",
    "GoodSold": lambda p: f"{_who(p['player'])} sells {_a(p['good'])} from {p['source']} for "
                          f"{p['gold']} gold"
                          + (f" ({p['bonus']} from a structure)" if p.get("bonus") else "") + ".",
    "GoodSpent": lambda p: f"{_who(p['player'])} spends {_a(p['good'])} from {p['source']} "
                           f"for 8 gold off {p['on']}.",
    "ShipRepaired": lambda p: f"{p['ship']} is repaired"
                              + (" (without an action)" if p.get("free") else "")
                              + (f", refreshing {', '.join(p['refreshed'])}"
                                 if p["refreshed"] else "")
                              + (f", dismissing {_n(len(p['dismissed']), 'damage card')}"
                                 if p["dismissed"] else "") + ".",
    "ShipRebuilt": lambda p: f"{p['ship']} is rebuilt in {_who(p['location'])}'s home harbor.",
    "UpgradeReturned": lambda p: f"{p['ship']} returns {p['upgrade']} to the supply, "
                                 "exhausted.",
    "UpgradeBought": lambda p: f"{_who(p['player'])} buys {p['upgrade']} for {p['ship']} "
                               f"({p['price']} gold).",
    "StructureReturned": lambda p: f"{p['structure']} at {p['site']} goes back to the supply, "
                                   "exhausted.",
    "StructureBuilt": lambda p: f"{_who(p['player'])} builds {p['structure']} at {p['site']} "
                                f"({p['price']} gold).",
    "ResearchCardKept": lambda p: f"{_who(p['player'])} pays {p['cost']} gold for research "
                                  f"and keeps {card_with_powers(p['card'], p.get('effects'))}"
                                  + (f", dismissing {', '.join(p['dismissed'])}"
                                     if p["dismissed"] else "") + ".",
    "TaxesCollected": lambda p: f"{_who(p['player'])} collects {p['amount']} gold in taxes.",
    # written by the table itself (companion/store/records.py), not by SeaFall's rules
    "CommandUndone": lambda p: f"Command {p.get('command_no', '?')} undone.",
    "CommandRedone": lambda p: f"Command {p.get('command_no', '?')} redone.",
}


TEMPLATES: dict[str, dict[str, Callable[[Mapping[str, Any]], str]]] = {
    "en": _TEMPLATES, "fr": log_fr.TEMPLATES}
LANGUAGES = tuple(TEMPLATES)


NAMED = ("ship", "flagship", "support", "together_with", "region", "regions", "start", "to",
         "location", "site", "sites", "source")
"""Payload keys that may hold a ship's, a region's or a site's id (or a list of them),
named by :func:`describe` when it is given the table's state (other keys hold colours,
which are also the provinces' region ids, so only these are looked up)."""

PROVINCE_KEYS = {"ReputationGiven": ("to",)}
"""Keys of :data:`NAMED` that hold a province's colour in these events: named as a player
(a reputation token goes to Green, not to Green province)."""


def describe(event: Event, lang: str = "en", state: SeaFallState | None = None) -> str:
    """One readable sentence for an event, in ``lang`` ("en" or "fr"; any other: English).

    The language is a parameter, never a setting: the same engine serves an English and a
    French phone at once. With the table's ``state``, a province is named by its player
    (as the pages name it: "Ann's turn begins"), and a ship, a region or a site as the
    table knows it ("Blue ship 1", "Example isle A", "site 1 of Example isle A"; in French
    a name the setup gave by default said in French) rather than by its colour or id
    ("blue-1", "isle-a", "isle-a/1"), which ``tableside play`` and the golden transcripts
    keep.
    """
    template = TEMPLATES.get(lang, _TEMPLATES).get(event.type)
    if template is None:
        return f"{event.type}."
    if state is None:
        return template(event.payload)
    players = log_fr.PLAYERS.set({c: p.player for c, p in state.provinces.items() if p.player})
    try:
        text = template(_named(event, state, lang))
    finally:
        log_fr.PLAYERS.reset(players)
    return text[:1].upper() + text[1:]  # a sentence that begins with a site's name


def _named(event: Event, state: SeaFallState, lang: str) -> dict[str, Any]:
    out = dict(event.payload)
    for key in NAMED:
        if key in PROVINCE_KEYS.get(event.type, ()):
            continue
        value = out.get(key)
        if isinstance(value, str):
            out[key] = _name(value, state, lang)
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            out[key] = [_name(v, state, lang) for v in value]
    if event.type == "ShipSailed" and out.get("start") == out.get("to"):
        # two spaces of the open sea as near the same islands: "sails from the open sea 1
        # space from X to the open sea 1 space from X" read as if the ship had not moved
        sea = at_sea(state, str(event.payload.get("to")))
        if sea is not None and sea["kind"] == "open":
            out["elsewhere"] = sea_near(sea, lambda island: _name(island, state, lang), lang)
    return out


def _name(value: str, state: SeaFallState, lang: str) -> str:
    """A ship's, a region's or a site's id named as the table knows it, a place of enmity
    tokens (``garrison:<region>``, ``war:<province>``), or a space at sea as the board shows
    it ("the coastal waters", "the open sea 1 space from Example isle A": seaspaces.py);
    else as it is."""
    said = log_fr.default_name if lang == "fr" else str
    kind, _, rest = value.partition(":")
    if kind == "garrison" and rest in state.regions:
        name = said(state.regions[rest].name or rest)
        return f"la garnison {log_fr.de(name)}" if lang == "fr" else f"the garrison of {name}"
    if kind == "war" and rest in state.provinces:
        who = state.provinces[rest].player or log_fr.titled(rest)
        return (f"la case « En guerre avec » {log_fr.de(who)}" if lang == "fr"
                else f"the At War With space of {who}")
    thing = state.ships.get(value) or state.regions.get(value)
    if thing is not None:
        return said(thing.name) if thing.name else value
    site = state.sites.get(value)
    region = state.regions.get(site.region) if site is not None else None
    if region is not None and region.name:
        return site_name(value, said(region.name), lang)
    sea = at_sea(state, value)  # a ship's place at sea, not the map's label
    if sea is not None:
        return sea_name(sea, lambda island: _name(island, state, lang), lang)
    return value
