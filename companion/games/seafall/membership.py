"""Changing who plays the campaign (rulebook, "Changing the number of players in your
campaign"): pure functions from the next game's setup options (as
:func:`companion.games.seafall.campaign.next_game` writes them) to new setup options.

* :func:`join`: a new province enters after ``game - 1`` games (the prologue is not
  counted): its ships improved once per game played, one improvement per three games
  (rounded down), an advisor worth one reputation from the advisor deck, campaign glory equal
  to the last place's (among the players who stay) less the games played, the next title
  down, a line in the record.
* :func:`catch_up`: a player returns after missing games: ships improved once per game
  missed, one improvement per three games missed (rounded down).
* :func:`miss_game`: a player cannot come to the next game: the province is absent.
* :func:`leave`: a province leaves for good: its kept advisor goes back to the advisor deck,
  its research cards back to their deck, the record notes it; its permanent enmity stays on
  the board. The players left keep their order of titles, closed up to the titles for their
  number.

The same changes can be written in the setup options themselves, as ``campaign_changes``
(:func:`apply_changes`, which setup calls first), so a script's first line or the host's
setup form can carry them. Every choice is an explicit argument, validated: ship
improvements as ``"<ship>:<value>"`` (``"gray-1:sail"``, as the end-of-game
``improve_ship``), improvements as the end-of-game ``improve_province`` arguments
(``{"choice": "field:gray/field-1", "value": 5}``, ``{"choice": "garrison:gray"}``,
``{"choice": "reputation"}``, ``{"choice": "fortune"}``, ``{"choice": "appellation",
"name": "the Wise"}``).
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.components import Catalogue, default_catalogue
from companion.games.seafall.endgame import FIELD_MAX, SHIP_STATS, STAT_MAX, appellation
from companion.games.seafall.record import parse_record
from companion.games.seafall.setup import (
    COLOURS,
    DEFAULT_FIELDS,
    DEFAULT_PROVINCE,
    DEFAULT_SHIPS,
    default_provinces,
)
from companion.games.seafall.state import TITLES

GAMES_PER_IMPROVEMENT = 3
MAX_PROVINCES = 5


def games_played(options: Mapping[str, Any]) -> int:
    """Games played in the campaign before this one, the prologue not counted (game 1 is the
    first after the prologue, as for the glory target)."""
    game = options.get("game", 1)
    if not isinstance(game, int) or isinstance(game, bool) or game < 1:
        raise InvalidCommand("'game' is the number of the game about to be played (1 or more)")
    return game - 1


def join(options: Mapping[str, Any], colour: str, player: str | None, *,
         ships: Sequence[str], improvements: Sequence[Mapping[str, Any]],
         advisor: str | None, leader_reputation: int = 0,
         leader_fortune: int = 0, leaving: Collection[str] = ()) -> dict[str, Any]:
    """The next game's options with a new province joining the campaign. ``player`` is the
    newcomer's name, required: the record and every page name them by it (a colour's name
    stood in for it, in the language of the page that sent it: "Gris" on an English page).
    ``leaving``: the colours that leave the campaign before the same game (the changes may
    have them leave after the newcomer joins, to keep three provinces at every step): they
    are not the last place the newcomer's campaign glory is taken from (docs/seafall.md,
    "One leaves, another joins, before the same game")."""
    out = copy.deepcopy(dict(options))
    provinces = _provinces(out)
    if colour not in COLOURS:
        raise InvalidCommand(f"a province's colour is one of {', '.join(COLOURS)}")
    if not isinstance(player, str) or not player.strip():
        raise InvalidCommand(f"the new player of the {colour} province needs a name "
                             "('player')")
    player = player.strip()
    if any(p.get("colour") == colour for p in provinces):
        raise IllegalCommand(f"the {colour} province is already in the campaign")
    if len(provinces) >= MAX_PROVINCES:
        raise IllegalCommand(f"the campaign already has {MAX_PROVINCES} provinces")
    if not provinces:
        raise IllegalCommand("joining needs a campaign with provinces in it")
    played = games_played(out)
    # "the last-place player's current campaign glory": of the players who stay
    staying = [p for p in provinces if p.get("colour") not in leaving] or provinces
    glory = min(int(p.get("campaign_glory", 0)) for p in staying) - played
    prov: dict[str, Any] = {
        "colour": colour, "player": player, "campaign_glory": glory,
        "leader_reputation": leader_reputation, "leader_fortune": leader_fortune,
        "garrison": DEFAULT_PROVINCE["garrison"], "defense": DEFAULT_PROVINCE["defense"],
        "dangerous": DEFAULT_PROVINCE["dangerous"], "fields": list(DEFAULT_FIELDS),
        "permanent_enmity": {}, "advisors": [], "research": [],
        "ships": [{"name": f"{colour.title()} ship {i}", **stats}
                  for i, stats in enumerate(DEFAULT_SHIPS, 1)],
    }
    titles = [p.get("title") for p in provinces]
    if any(titles):
        free = [t for t in TITLES[:len(provinces) + 1] if t not in titles]
        if len(free) != 1:
            raise IllegalCommand("the provinces' titles are not the titles for their number; "
                                 "assign titles first")
        prov["title"] = free[0]  # last in campaign glory: the least prominent title
    _improve_ships(prov, ships, played, "games played")
    _improve(prov, improvements, played // GAMES_PER_IMPROVEMENT, "games played")
    deck = list(out.get("advisor_deck", []))
    kinds = _catalogue(out).advisors
    worth_one = [a for a in deck if a in kinds and kinds[a].reputation == 1]
    if advisor is None:
        if worth_one:
            raise IllegalCommand("take an advisor worth one reputation from the advisor deck: "
                                 + ", ".join(sorted(set(worth_one))))
    elif advisor not in worth_one:
        raise IllegalCommand(f"{advisor!r} is not an advisor worth one reputation in the "
                             "advisor deck")
    else:
        deck.remove(advisor)
        prov["advisors"] = [advisor]
        out["advisor_deck"] = deck
    provinces.append(prov)
    out["record"] = [*parse_record(out.get("record")),
                     {"event": "joined", "province": colour, "player": player,
                      "before_game": played + 1, "campaign_glory": glory}]
    return out


def catch_up(options: Mapping[str, Any], colour: str, *, ships: Sequence[str],
             improvements: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The next game's options with a returning player caught up ("Missing a game")."""
    out = copy.deepcopy(dict(options))
    prov = _province(out, colour)
    missed = prov.get("games_missed", 0)
    if prov.get("absent"):
        raise IllegalCommand(f"{colour} is still marked absent for this game")
    if not missed:
        raise IllegalCommand(f"{colour} has no missed games to catch up")
    _improve_ships(prov, ships, missed, "games missed")
    _improve(prov, improvements, missed // GAMES_PER_IMPROVEMENT, "games missed")
    del prov["games_missed"]
    out["record"] = [*parse_record(out.get("record")),
                     {"event": "returned", "province": colour,
                      "before_game": games_played(out) + 1, "games_missed": missed}]
    return out


def leave(options: Mapping[str, Any], colour: str) -> dict[str, Any]:
    """The next game's options without a province that leaves the campaign for good."""
    out = copy.deepcopy(dict(options))
    prov = _province(out, colour)
    provinces = [p for p in _provinces(out) if p is not prov]
    if len(provinces) < 3:
        raise IllegalCommand("a game of SeaFall needs at least 3 provinces")
    advisors = list(prov.get("advisors", []))
    out["advisor_deck"] = sorted([*out.get("advisor_deck", []), *advisors])
    research = [c if isinstance(c, str) else c.get("name") for c in prov.get("research", [])]
    if all(p.get("title") in TITLES for p in provinces):
        ranked = sorted(provinces, key=lambda p: TITLES.index(p["title"]))
        for title, other in zip(TITLES, ranked, strict=False):
            other["title"] = title
    out["provinces"] = provinces
    out["record"] = [*parse_record(out.get("record")),
                     {"event": "left", "province": colour, "player": prov.get("player", colour),
                      "before_game": games_played(out) + 1,
                      "returned": {"advisors": advisors, "research": research}}]
    return out


def miss_game(options: Mapping[str, Any], colour: str) -> dict[str, Any]:
    """The next game's options with a player who cannot come ("Missing a game"): the
    province is in the game, absent (no turns, no choices), so it is set up with no gold,
    goods or tokens and its ships at home, as setup checks (a first game's options may
    give it some: marking its player absent was refused). The game's end records it one
    glory below the lowest score and counts the game missed for the catch-up on return."""
    out = copy.deepcopy(dict(options))
    prov = _province(out, colour)
    if prov.get("absent"):
        raise IllegalCommand(f"{colour} is already marked absent for this game")
    prov["absent"] = True
    for key in ("gold", "warehouse", "reputation", "fortune"):
        prov.pop(key, None)  # no one is there to spend them
    ships = prov.get("ships")
    if isinstance(ships, list):
        prov["ships"] = [{k: v for k, v in s.items() if k not in ("goods", "sunk", "location")}
                         if isinstance(s, dict) else s for s in ships]
    return out


CHANGES: dict[str, tuple[str, ...]] = {  # each change's arguments besides "colour"
    "join": ("player", "ships", "improvements", "advisor", "leader_reputation",
             "leader_fortune"),
    "catch_up": ("ships", "improvements"),
    "leave": (),
    "absent": (),
}


def apply_changes(options: Mapping[str, Any]) -> dict[str, Any]:
    """Apply the setup option ``campaign_changes`` (a list, in order, of ``{"join": {...}}``,
    ``{"catch_up": {...}}``, ``{"leave": {"colour": ...}}`` or ``{"absent": {"colour":
    ...}}``, each holding the arguments of the function of that name, :func:`miss_game` for
    ``absent``) and return the options without it."""
    out = dict(options)
    if out.get("provinces") is None:  # a setup naming none has the default ones to change
        out["provinces"] = default_provinces()
    changes = out.pop("campaign_changes", [])
    if not isinstance(changes, list):
        raise InvalidCommand("'campaign_changes' is a list of {\"join\"|\"catch_up\"|"
                             "\"leave\"|\"absent\": {...}}")
    _refuse_absent_and_leaving(changes)
    leaving = set(_colours_of(changes, "leave"))
    for number, change in enumerate(changes):
        if not isinstance(change, Mapping) or len(change) != 1 or \
                next(iter(change)) not in CHANGES:
            raise InvalidCommand(f"each campaign change is one of {', '.join(CHANGES)}, "
                                 "with its arguments")
        kind, raw = next(iter(change.items()))
        args = dict(raw) if isinstance(raw, Mapping) else {}
        colour = args.pop("colour", None)
        unknown = set(args) - set(CHANGES[kind])
        if not isinstance(colour, str) or unknown:
            raise InvalidCommand(f"'{kind}' takes the province's 'colour'"
                                 + "".join(f", '{k}'" for k in CHANGES[kind]))
        for key in ("ships", "improvements"):
            if key in CHANGES[kind] and not isinstance(args.setdefault(key, []), list):
                raise InvalidCommand(f"'{kind}': '{key}' is a list")
        for key in ("leader_reputation", "leader_fortune"):
            val = args.get(key, 0)
            if not isinstance(val, int) or isinstance(val, bool) or val < 0:
                raise InvalidCommand(f"'{kind}': '{key}' is a whole number")
        if kind == "join":
            out = join(out, colour, args.pop("player", None),
                       advisor=args.pop("advisor", None), leaving=leaving, **args)
        elif kind == "catch_up":
            out = catch_up(out, colour, **args)
        elif kind == "absent":
            out = miss_game(out, colour)
        else:
            out = _leave_before_joins(out, colour, _colours_of(changes[number + 1:], "join"))
    return out


def _leave_before_joins(options: dict[str, Any], colour: str, joining: list[str]
                        ) -> dict[str, Any]:
    """A leave applied in order; refused below 3 provinces. When a join listed after it would
    have kept the count (3 players, one leaving and one joining), the refusal says so: it
    said only that a game needs 3 provinces, and the order of the changes was the cause."""
    try:
        return leave(options, colour)
    except IllegalCommand:
        if not joining:
            raise
        raise IllegalCommand(f"a game of SeaFall needs at least 3 provinces: {colour} leaves "
                             f"before {joining[0]} joins; list the join before the leave to "
                             "keep the count") from None


# -- helpers ------------------------------------------------------------------------------


def _colours_of(changes: list[Any], kind: str) -> list[str]:
    """The colours of the changes of ``kind`` (as written: checked when applied)."""
    return [change[kind]["colour"] for change in changes
            if isinstance(change, Mapping) and isinstance(change.get(kind), Mapping)
            and isinstance(change[kind].get("colour"), str)]


def _refuse_absent_and_leaving(changes: list[Any]) -> None:
    """A player marked both as missing this game and as leaving for good: the leave was
    applied and the absence dropped without a word (or, leaving first, the absence refused
    as "there is no ... province"). Which one was meant is the table's to say."""
    leaving = set(_colours_of(changes, "leave"))
    for colour in _colours_of(changes, "absent"):
        if colour in leaving:
            raise IllegalCommand(f"{colour} cannot both miss this game and leave the campaign "
                                 "for good: choose one")


def _provinces(options: dict[str, Any]) -> list[dict[str, Any]]:
    """The ledger's provinces, each with what the changes read of it checked first: the
    ledger may come from a campaign file, and the changes run before the setup checks it
    (a campaign glory of "x" raised ValueError here, an advisor deck holding a list
    TypeError)."""
    provinces = options.get("provinces")
    if not isinstance(provinces, list) or not all(isinstance(p, dict) for p in provinces):
        raise InvalidCommand("'provinces' must be a list of provinces")
    for prov in provinces:
        _check_province(prov)
    deck = options.get("advisor_deck", [])
    if not isinstance(deck, list) or not all(isinstance(a, str) for a in deck):
        raise InvalidCommand("'advisor_deck' is a list of advisor names")
    return provinces


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_province(prov: dict[str, Any]) -> None:
    where = f"province {prov.get('colour')!r}"
    if not isinstance(prov.get("colour"), str):
        raise InvalidCommand("each province needs its 'colour'")
    for key in ("campaign_glory", "leader_reputation", "leader_fortune", "garrison",
                "games_missed"):
        if key in prov and not _whole(prov[key]):
            raise InvalidCommand(f"{where}: '{key}' must be a whole number")
    if prov.get("title") is not None and prov["title"] not in TITLES:
        raise InvalidCommand(f"{where}: 'title' is one of {', '.join(TITLES)}")
    advisors = prov.get("advisors", [])
    if not isinstance(advisors, list) or not all(isinstance(a, str) for a in advisors):
        raise InvalidCommand(f"{where}: 'advisors' is a list of advisor names")
    research = prov.get("research", [])
    if not isinstance(research, list) or not all(
            isinstance(c, str) or (isinstance(c, Mapping) and isinstance(c.get("name"), str))
            for c in research):
        raise InvalidCommand(f"{where}: 'research' is a list of cards (a name or "
                             "{\"name\", ...})")
    fields = prov.get("fields", [])
    if not isinstance(fields, list) or not all(_whole(v) for v in fields):
        raise InvalidCommand(f"{where}: 'fields' is a list of field gold values")
    ships = prov.get("ships", [])
    if not isinstance(ships, list) or not all(
            isinstance(ship, dict) and all(_whole(ship[k]) for k in SHIP_STATS if k in ship)
            for ship in ships):
        raise InvalidCommand(f"{where}: 'ships' is a list of ships with whole-number values")


def _province(options: dict[str, Any], colour: str) -> dict[str, Any]:
    for prov in _provinces(options):
        if prov.get("colour") == colour:
            return prov
    raise IllegalCommand(f"there is no {colour} province in the campaign")


def _catalogue(options: Mapping[str, Any]) -> Catalogue:
    extra = options.get("components")
    try:
        return default_catalogue() if extra is None else default_catalogue().merged(extra)
    except ValueError as exc:
        raise InvalidCommand(f"components: {exc}") from None


def _improve_ships(prov: dict[str, Any], choices: Sequence[str], owed: int, why: str) -> None:
    if isinstance(choices, str) or len(choices) != owed:
        raise IllegalCommand(f"{prov['colour']} improves its ships {owed} time(s), one per "
                             f"{why.replace('games', 'game', 1)}; got {len(choices)}")
    ships = prov.setdefault("ships", [{**s} for s in DEFAULT_SHIPS])
    for choice in choices:
        ship_id, _, stat = str(choice).partition(":")
        prefix, _, index = ship_id.rpartition("-")
        if prefix != prov["colour"] or index not in {str(i) for i in range(1, len(ships) + 1)} \
                or stat not in SHIP_STATS:
            raise InvalidCommand(f"a ship improvement is '<ship>:<value>', such as "
                                 f"'{prov['colour']}-1:sail' (values: {', '.join(SHIP_STATS)})")
        ship = ships[int(index) - 1]
        base = DEFAULT_SHIPS[(int(index) - 1) % len(DEFAULT_SHIPS)]
        value = ship.get(stat, base[stat]) + 1
        if value > STAT_MAX:
            raise IllegalCommand(f"{ship_id}'s {stat} is already {STAT_MAX}, the most")
        ship[stat] = value


def _improve(prov: dict[str, Any], choices: Sequence[Mapping[str, Any]], owed: int,
             why: str) -> None:
    if len(choices) != owed:
        raise IllegalCommand(f"{prov['colour']} takes {owed} improvement(s), one per "
                             f"{GAMES_PER_IMPROVEMENT} {why}; got {len(choices)}")
    colour = prov["colour"]
    for raw in choices:
        if not isinstance(raw, Mapping) or not isinstance(raw.get("choice"), str):
            raise InvalidCommand("an improvement is {\"choice\": ...} as for improve_province")
        kind, _, target = raw["choice"].partition(":")
        if kind == "field":
            fields = prov.setdefault("fields", list(DEFAULT_FIELDS))
            prefix, _, index = target.rpartition("/field-")
            if prefix != colour or index not in {str(i) for i in range(1, len(fields) + 1)}:
                raise IllegalCommand(f"choose a field of {colour}'s province, such as "
                                     f"'field:{colour}/field-1'")
            old = fields[int(index) - 1]
            value = raw.get("value", old + 1)
            if not isinstance(value, int) or isinstance(value, bool) \
                    or not old < value <= FIELD_MAX:
                raise IllegalCommand(f"the field is worth {old}; its new value must be higher, "
                                     f"at most {FIELD_MAX}")
            fields[int(index) - 1] = value
        elif kind == "garrison":
            if target not in ("", colour):
                raise IllegalCommand(f"{colour} controls only its own province's garrison here")
            prov["garrison"] = prov.get("garrison", DEFAULT_PROVINCE["garrison"]) + 1
        elif kind in ("reputation", "fortune"):
            key = f"leader_{kind}"
            prov[key] = prov.get(key, 0) + 1
        elif kind == "appellation":
            prov["appellation"] = appellation(raw.get("name"))
        else:
            raise InvalidCommand("an improvement is field:<site>, garrison, reputation, "
                                 "fortune or appellation")
