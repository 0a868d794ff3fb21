"""A new game from setup options: validated, turned into the initial state.

Options are JSON (the first line of a script, or the host's setup form). Everything has a
default drawn from the rulebook or RULES-FACTS.md, and everything can be set, because a
legacy campaign changes its components from game to game::

    {
      "provinces": [{"colour": "red", "player": "Ann", "gold": 8, "fortune": 2, ...}, ...],
      "islands": [{"id": "isle-a", "name": "...", "garrison": 1, "effects": [...],
                   "sites": [{"kind": "unexplored", "symbol": "anchor", "defense": 5,
                              "dangerous": true}, ...]}],
      "first_player": "red",
      "prologue": false,
      "components": {"upgrades": [...], "structures": [...], "advisors": [...]},
      "supply": {"goods": {"wood": 10, ...}}
    }

See docs/commands.md for every field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

from companion.errors import InvalidCommand, SetupRefused
from companion.games.seafall.components import (
    COLOURS,
    EXPERTISE,
    GOODS,
    Catalogue,
    default_catalogue,
)
from companion.games.seafall.effects import parse_effects
from companion.games.seafall.glory import held_glory
from companion.games.seafall.map import default_map, harbor_space, normalise
from companion.games.seafall.record import parse_record
from companion.games.seafall.state import (
    ISLAND_SITE_KINDS,
    TITLES,
    Advisor,
    Card,
    DamageCard,
    Milestone,
    Province,
    Region,
    RetiredAdvisor,
    SeaFallState,
    Ship,
    ShipUpgrade,
    Site,
    Supply,
)
from companion.names import MAX_NAME, name_key, player_name

GOODS_PER_COLOUR = 10  # RULES-FACTS.md, "Starting component counts"
ENMITY_TOKENS = 8  # rulebook, "Tokens and Enmity"

# Starting ships (RULES-FACTS.md "Starting ships"): both Explore 2 and Hold 2; one Sail 3 /
# Raid 2, the other Sail 2 / Raid 3.
DEFAULT_SHIPS = (
    {"sail": 3, "raid": 2, "explore": 2, "hold": 2},
    {"sail": 2, "raid": 3, "explore": 2, "hold": 2},
)
# Home province at game 1: garrison 1, defense 5, dangerous (RULES-FACTS.md [1]).
DEFAULT_PROVINCE = {"garrison": 1, "defense": 5, "dangerous": True}
# Province site plunder values. The rulebook's Plunder example fixes a field at 2 and puts the
# warehouse and council room at 3 or less, the vault and treasure room above 3; the treasure
# room's 5 is from the designer notes (RULES-FACTS.md). Players can correct them.
DEFAULT_PLUNDER = {"field": 2, "warehouse": 3, "council_room": 3, "vault": 4, "treasure_room": 5}
DEFAULT_FIELDS = (4, 4)
BUILDING_SITES = 3


def _obj(data: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise InvalidCommand(f"{where} must be a JSON object")
    return data


def _known(data: Mapping[str, Any], keys: frozenset[str], where: str) -> None:
    """Refuse keys this setup does not read: a misspelt "goldd" was passed over, and the
    province began with no gold and no word said."""
    unknown = sorted(str(k) for k in data if k not in keys)
    if unknown:
        raise InvalidCommand(f"{where}: unknown keys {', '.join(unknown)} (known: "
                             f"{', '.join(sorted(keys))})")


SHIP_KEYS = frozenset({"name", "sail", "raid", "explore", "hold", "location", "goods", "sunk",
                       "upgrades", "damage"})
PROVINCE_KEYS = frozenset({
    "colour", "player", "gold", "glory", "reputation", "leader_reputation", "fortune",
    "leader_fortune", "enmity", "at_war_with", "research", "treasures", "warehouse", "title",
    "campaign_glory", "appellation", "absent", "games_missed", "advisors", "active_advisor",
    "name", "garrison", "defense", "dangerous", "permanent_enmity", "plunder_values",
    "site_enmity", "fields", "structures", "ships"})
ISLAND_KEYS = frozenset({"id", "name", "garrison", "effects", "permanent_enmity",
                         "garrison_enmity", "docks", "market", "repair", "space", "column",
                         "sites"})
SITE_KEYS = frozenset({"name", "kind", "defense", "dangerous", "symbol", "colour", "value",
                       "good_present", "enmity"})


def _int(data: Mapping[str, Any], key: str, default: int, where: str,
         minimum: int | None = 0) -> int:
    val = data.get(key, default)
    if not isinstance(val, int) or isinstance(val, bool) or (minimum is not None
                                                             and val < minimum):
        bound = "" if minimum is None else f" >= {minimum}"
        raise InvalidCommand(f"{where}: '{key}' must be a whole number{bound}")
    return val


def _bool(data: Mapping[str, Any], key: str, default: bool, where: str) -> bool:
    val = data.get(key, default)
    if not isinstance(val, bool):
        raise InvalidCommand(f"{where}: '{key}' must be true or false")
    return val


def _str(data: Mapping[str, Any], key: str, default: str | None, where: str) -> str | None:
    val = data.get(key, default)
    if val is not None and (not isinstance(val, str) or not val):
        raise InvalidCommand(f"{where}: '{key}' must be a non-empty string")
    return val


def _player(raw: Mapping[str, Any], colour: str, where: str) -> str:
    """A province's player: its name trimmed (the colour's when none is given). A new
    game's names are checked by :func:`check_players`; a campaign's ledger kept from before
    is read as it is."""
    player = _str(raw, "player", colour.title(), where) or colour
    return player.strip() or player


def check_players(state: SeaFallState) -> None:
    """A new game's players' names: 1 to MAX_NAME characters each (the rule of the web's
    join), no two alike whatever their case (a player is named by their name as well as
    by their colour)."""
    seen: set[str] = set()
    for prov in state.provinces.values():
        name = prov.player
        if player_name(name) is None:
            raise SetupRefused("player_name", max=MAX_NAME)
        if name_key(name) in seen:
            raise SetupRefused("same_player", name=name)
        seen.add(name_key(name))


def _text(data: Mapping[str, Any], key: str, where: str) -> str:
    """Free text a player typed (may be empty)."""
    val = data.get(key, "")
    if not isinstance(val, str):
        raise InvalidCommand(f"{where}: '{key}' must be text")
    return val


def _goods(raw: Any, where: str) -> list[str]:
    if raw is None:
        return []
    if not isinstance(raw, list) or any(g not in GOODS for g in raw):
        raise InvalidCommand(f"{where}: goods are a list of {', '.join(GOODS)}")
    return list(raw)


def _counts(raw: Any, where: str, keep_zero: bool = False) -> dict[str, int]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping) or any(
        not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in raw.values()
    ):
        raise InvalidCommand(f"{where} maps names to whole numbers")
    return {str(k): int(v) for k, v in raw.items() if v or keep_zero}


def _effects(raw: Any, where: str) -> list:
    try:
        return list(parse_effects(raw, where))
    except ValueError as exc:
        raise InvalidCommand(str(exc)) from None


def _cards(raw: Any, where: str) -> list[Card]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise InvalidCommand(f"{where} must be a list")
    cards = []
    for item in raw:
        if isinstance(item, str):
            item = {"name": item}
        item = _obj(item, where)
        name = _str(item, "name", None, where)
        if name is None:
            raise InvalidCommand(f"{where}: each card needs a 'name'")
        cards.append(Card(name, _int(item, "glory", 0, f"{where} {name!r}"),
                          _effects(item.get("effects"), f"{where} {name!r}"),
                          _int(item, "cost", 0, f"{where} {name!r}"),
                          _str(item, "colour", None, f"{where} {name!r}")))
    return cards


def _title(raw: Any, where: str) -> str | None:
    if raw is None:
        return None
    if raw not in TITLES:
        raise InvalidCommand(f"{where}: 'title' is one of {', '.join(TITLES)}")
    return str(raw)


def _catalogue(options: Mapping[str, Any]) -> Catalogue:
    extra = options.get("components")
    if extra is None:
        return default_catalogue()
    try:
        return default_catalogue().merged(_obj(extra, "'components'"))
    except ValueError as exc:
        raise InvalidCommand(f"components: {exc}") from None


def _ship(raw: Any, colour: str, index: int, home: str, state: SeaFallState) -> Ship:
    where = f"province {colour} ship {index}"
    raw = _obj(raw, where)
    _known(raw, SHIP_KEYS, where)
    base = DEFAULT_SHIPS[(index - 1) % len(DEFAULT_SHIPS)]
    ship = Ship(
        id=f"{colour}-{index}",
        owner=colour,
        name=_str(raw, "name", f"{colour.title()} ship {index}", where) or "",
        sail=_int(raw, "sail", base["sail"], where),
        raid=_int(raw, "raid", base["raid"], where),
        explore=_int(raw, "explore", base["explore"], where),
        hold=_int(raw, "hold", base["hold"], where),
        location=_str(raw, "location", home, where),
        goods=_goods(raw.get("goods"), where),
        sunk=_bool(raw, "sunk", False, where),
    )
    if ship.sunk:
        ship.location = None
    ups = raw.get("upgrades", [])
    if not isinstance(ups, list) or len(ups) > 2:
        raise InvalidCommand(f"{where}: 'upgrades' is a list of at most two upgrade names")
    for up in ups:
        if not isinstance(up, str):
            _known(_obj(up, where), frozenset({"name", "exhausted"}), f"{where} upgrade")
        name, exhausted = (up, False) if isinstance(up, str) else (
            up.get("name"), _bool(up, "exhausted", False, where))
        if not isinstance(name, str) or name not in state.catalogue.upgrades:
            raise InvalidCommand(f"{where}: unknown upgrade {name!r}")
        ship.upgrades.append(ShipUpgrade(str(name), exhausted))
    damage = raw.get("damage", [])
    if not isinstance(damage, list) or len(damage) > 2:
        raise InvalidCommand(f"{where}: 'damage' is a list of at most two damage cards")
    for card in damage:
        card = {"name": card} if isinstance(card, str) else _obj(card, where)
        _known(card, frozenset({"name", "effects"}), f"{where} damage card")
        ship.damage.append(DamageCard(str(card.get("name", "damage")),
                                      _effects(card.get("effects"), where)))
    return ship


def _province(raw: Any, state: SeaFallState) -> None:
    raw = _obj(raw, "each province")
    colour = raw.get("colour")
    if colour not in COLOURS:
        raise InvalidCommand(f"a province's 'colour' must be one of {', '.join(COLOURS)}")
    if colour in state.provinces:
        raise InvalidCommand(f"province {colour} is listed twice")
    where = f"province {colour}"
    _known(raw, PROVINCE_KEYS, where)
    prov = Province(
        colour=colour,
        player=_player(raw, colour, where),
        gold=_int(raw, "gold", 0, where),
        glory=_int(raw, "glory", 0, where),
        # tokens: as many as the leader's levels, unless the scenario says otherwise
        reputation=_int(raw, "reputation", _int(raw, "leader_reputation", 0, where), where),
        fortune=_int(raw, "fortune", _int(raw, "leader_fortune", 0, where), where),
        home_enmity=_int(raw, "enmity", ENMITY_TOKENS, where),
        at_war_with=_counts(raw.get("at_war_with"), f"{where}: 'at_war_with'"),
        research=_cards(raw.get("research"), f"{where} research"),
        treasures=_cards(raw.get("treasures"), f"{where} treasures"),
        warehouse=_goods(raw.get("warehouse"), where),
        title=_title(raw.get("title"), where),
        # below zero too: a player who joins or misses a game when the last has little
        # ("Joining the campaign": the last's campaign glory less the games played)
        campaign_glory=_int(raw, "campaign_glory", 0, where, minimum=None),
        appellation=_str(raw, "appellation", None, where),
    )
    prov.leader_reputation = _int(raw, "leader_reputation", prov.reputation, where)
    prov.leader_fortune = _int(raw, "leader_fortune", prov.fortune, where)
    prov.absent = _bool(raw, "absent", False, where)
    prov.games_missed = _int(raw, "games_missed", 0, where)
    if prov.absent:
        _absent(raw, prov, where)
    elif prov.games_missed:
        raise InvalidCommand(
            f"{where}: {prov.player} returns after missing {prov.games_missed} game(s); "
            f"apply the catch-up first, the change {{\"catch_up\": {{\"colour\": "
            f"\"{colour}\", \"ships\": [...], \"improvements\": [...]}}}} (a ship "
            "improved per game missed, an improvement per three: docs/commands.md, "
            f"\"Campaign\"), or mark {colour} absent again")
    advisors = raw.get("advisors", [])
    if not isinstance(advisors, list):
        raise InvalidCommand(f"{where}: 'advisors' is a list of advisor names")
    for name in advisors:
        if not isinstance(name, str) or name not in state.catalogue.advisors:
            raise InvalidCommand(f"{where}: unknown advisor {name!r}")
        prov.council.append(Advisor(name))
    active = _str(raw, "active_advisor", None, where)
    if active is not None:
        if active not in state.catalogue.advisors:
            raise InvalidCommand(f"{where}: unknown advisor {active!r}")
        if active not in [a.name for a in prov.council]:
            prov.council.append(Advisor(active))
        prov.active_advisor = active
    state.provinces[colour] = prov

    region = Region(
        id=colour,
        name=_str(raw, "name", f"{colour.title()} province", where) or colour,
        kind="province",
        owner=colour,
        garrison=_int(raw, "garrison", DEFAULT_PROVINCE["garrison"], where),
        defense=_int(raw, "defense", DEFAULT_PROVINCE["defense"], where),
        dangerous=_bool(raw, "dangerous", bool(DEFAULT_PROVINCE["dangerous"]), where),
        permanent_enmity=_counts(raw.get("permanent_enmity"), f"{where}: 'permanent_enmity'"),
        # the home harbor: a four-colour dock, the warehouse's all-colour market, repair
        # (rulebook, "What's on the Map?" > icons; "Province Boards" > warehouse)
        docks=list(GOODS), market=list(GOODS), repair=True, space=harbor_space(colour),
    )
    state.regions[colour] = region
    plunder = dict(DEFAULT_PLUNDER)
    plunder.update(_counts(raw.get("plunder_values"), f"{where}: 'plunder_values'"))
    site_enmity = raw.get("site_enmity", {})
    if not isinstance(site_enmity, Mapping):
        raise InvalidCommand(f"{where}: 'site_enmity' maps site names to enmity")

    def add(name: str, kind: str, **kw: Any) -> Site:
        site = Site(id=f"{colour}/{name}", region=colour, kind=kind, **kw)
        site.enmity = _counts(site_enmity.get(name), f"{where}: site_enmity {name}")
        state.sites[site.id] = site
        region.sites.append(site.id)
        return site

    fields = raw.get("fields", list(DEFAULT_FIELDS))
    if not isinstance(fields, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in fields
    ):
        raise InvalidCommand(f"{where}: 'fields' is a list of field gold values")
    for i, value in enumerate(fields, 1):
        add(f"field-{i}", "field", value=value, plunder_value=plunder["field"])
    structures = raw.get("structures", [])
    if not isinstance(structures, list) or len(structures) > BUILDING_SITES:
        raise InvalidCommand(f"{where}: 'structures' lists at most {BUILDING_SITES} structures")
    for i in range(1, BUILDING_SITES + 1):
        built = structures[i - 1] if i <= len(structures) else None
        if built is not None and (not isinstance(built, str) or
                                  built not in state.catalogue.structures):
            raise InvalidCommand(f"{where}: unknown structure {built!r}")
        add(f"build-{i}", "building_site", structure=built,
            plunder_value=state.catalogue.structures[built].plunder_value if built else None)
    for kind in ("warehouse", "council_room", "vault", "treasure_room"):
        add(kind.replace("_", "-"), kind, plunder_value=plunder[kind])

    ships = raw.get("ships", [{}, {}])
    if not isinstance(ships, list) or not 1 <= len(ships) <= 2:
        raise InvalidCommand(f"{where}: 'ships' lists one or two ships")
    for i, ship_raw in enumerate(ships, 1):
        ship = _ship(ship_raw, colour, i, colour, state)
        state.ships[ship.id] = ship
        prov.ships.append(ship.id)


def _absent(raw: Mapping[str, Any], prov: Province, where: str) -> None:
    """An absent province ("Missing a game"): its cards in place, its ships at home, no gold,
    goods or tokens (no one is there to spend them)."""
    prov.reputation = _int(raw, "reputation", 0, where)
    prov.fortune = _int(raw, "fortune", 0, where)
    ships = raw.get("ships", [])
    if prov.gold or prov.warehouse or prov.reputation or prov.fortune or any(
            isinstance(s, Mapping) and (s.get("goods") or s.get("sunk")
                                        or s.get("location") not in (None, prov.colour))
            for s in (ships if isinstance(ships, list) else [])):
        raise InvalidCommand(f"{where} is absent: no gold, goods or tokens, and its ships "
                             "in its home harbor")
    advisors = raw.get("advisors", [])
    if raw.get("active_advisor") is not None or (isinstance(advisors, list)
                                                 and len(advisors) > 1):
        raise InvalidCommand(f"{where} is absent: at most the one advisor it kept, not active")


def _colours(raw: Any, where: str) -> list[str]:
    if raw is None:
        return []
    if not isinstance(raw, list) or any(c not in GOODS for c in raw):
        raise InvalidCommand(f"{where} is a list of colours ({', '.join(GOODS)})")
    return sorted(set(raw), key=GOODS.index)


def _space(raw: Any, state: SeaFallState, where: str) -> str | None:
    """An island's hex on the map (docs/seafall-actions.md, "The map"), or None if unknown."""
    if raw is None:
        return None
    if not isinstance(raw, str) or not normalise(raw).startswith("(") or \
            not default_map().knows(normalise(raw)):
        raise InvalidCommand(f"{where}: 'space' must be an open-sea hex of the map, "
                             "such as \"(14, 0, 14)\"")
    space = normalise(raw)
    if any(r.space == space for r in state.regions.values()):
        raise InvalidCommand(f"{where}: another region already occupies {space}")
    return space


def _island(raw: Any, state: SeaFallState, index: int) -> None:
    raw = _obj(raw, "each island")
    rid = _str(raw, "id", f"isle-{index}", "island") or ""
    if rid in state.regions:
        raise InvalidCommand(f"region id {rid!r} is used twice")
    where = f"island {rid}"
    _known(raw, ISLAND_KEYS, where)
    region = Region(
        id=rid,
        name=_str(raw, "name", rid, where) or rid,
        kind="island",
        garrison=_int(raw, "garrison", 0, where),
        effects=_effects(raw.get("effects"), where),
        permanent_enmity=_counts(raw.get("permanent_enmity"), f"{where}: 'permanent_enmity'"),
        garrison_enmity=_counts(raw.get("garrison_enmity"), f"{where}: 'garrison_enmity'"),
        docks=_colours(raw.get("docks"), f"{where}: 'docks'"),
        market=_colours(raw.get("market"), f"{where}: 'market'"),
        repair=_bool(raw, "repair", False, where),
        space=_space(raw.get("space"), state, where),
        column=_int(raw, "column", 0, where) if "column" in raw else None,
    )
    if region.column is None and region.space is not None:  # a hex "(column, a, b)"
        region.column = int(region.space.strip("()").split(",")[0])
    state.regions[rid] = region
    sites = raw.get("sites", [])
    if not isinstance(sites, list):
        raise InvalidCommand(f"{where}: 'sites' must be a list")
    for i, sraw in enumerate(sites, 1):
        sraw = _obj(sraw, f"{where} site {i}")
        sid = f"{rid}/{_str(sraw, 'name', str(i), where)}"
        swhere = f"site {sid}"
        _known(sraw, SITE_KEYS, swhere)
        kind = sraw.get("kind", "unexplored")
        if kind not in ISLAND_SITE_KINDS:
            raise InvalidCommand(f"{swhere}: 'kind' must be one of {', '.join(ISLAND_SITE_KINDS)}")
        colour = _str(sraw, "colour", None, swhere)
        if kind in ("good", "docks", "market") and colour not in GOODS:
            raise InvalidCommand(f"{swhere}: a {kind} site needs a 'colour' ({', '.join(GOODS)})")
        if kind == "mine" and "value" not in sraw:
            raise InvalidCommand(f"{swhere}: a mine needs its gold 'value'")
        site = Site(
            id=sid, region=rid, kind=kind,
            defense=_int(sraw, "defense", 0, swhere),
            dangerous=_bool(sraw, "dangerous", False, swhere),
            symbol=_str(sraw, "symbol", None, swhere),
            colour=colour,
            value=_int(sraw, "value", 0, swhere) if "value" in sraw else None,
            good_present=_bool(sraw, "good_present", False, swhere),
            enmity=_counts(sraw.get("enmity"), f"{swhere}: 'enmity'"),
        )
        if sid in state.sites:
            raise InvalidCommand(f"site id {sid!r} is used twice")
        state.sites[sid] = site
        region.sites.append(sid)


def default_provinces() -> list[dict[str, Any]]:
    """The provinces of a setup that names none: blue, green and red (docs/commands.md)."""
    return [{"colour": c} for c in ("blue", "green", "red")]


def initial_state(options: Mapping[str, Any]) -> SeaFallState:
    """Validate setup options and build the state a new game starts from."""
    options = _obj(options, "the setup options")
    from companion.games.seafall.campaign import refuse_if_over

    refuse_if_over(options)  # the final game's ledger: the Emperor is crowned
    if "campaign_changes" in options:  # joining, returning, leaving: applied first
        from companion.games.seafall.membership import apply_changes

        options = apply_changes(options)
    known = {"provinces", "islands", "first_player", "prologue", "components", "supply",
             "start_at", "game", "glory_target", "advisor_deck", "forum", "treasures",
             "milestones", "events", "bagged_events", "research_allowed",
             "retired_advisors", "record", "damage_cards", "event"}
    unknown = set(options) - known
    if unknown:
        raise InvalidCommand(f"unknown setup options: {', '.join(sorted(unknown))}")
    catalogue = _catalogue(options)
    supply_raw = _obj(options.get("supply", {}), "'supply'")
    _known(supply_raw, frozenset({"goods", "upgrades", "structures"}), "'supply'")
    supply = Supply(
        goods={g: GOODS_PER_COLOUR for g in GOODS},
        upgrades={name: 1 for name in catalogue.upgrades},
        structures={s.name: s.count for s in catalogue.structures.values()},
    )
    for key in ("goods", "upgrades", "structures"):
        getattr(supply, key).update(
            _counts(supply_raw.get(key), f"'supply.{key}'", keep_zero=True))
    state = SeaFallState(
        catalogue=catalogue, seating=[], provinces={}, ships={}, regions={}, sites={},
        supply=supply, prologue=_bool(options, "prologue", False, "setup"),
    )
    provinces = options.get("provinces")
    if provinces is None:
        provinces = default_provinces()
    if not isinstance(provinces, list):
        raise InvalidCommand("'provinces' lists 2 to 5 provinces")
    if not 2 <= len(provinces) <= 5:
        raise SetupRefused("provinces_in_turn" if options.get("start_at") == "turn"
                           else "provinces_new_game")
    for raw in provinces:
        _province(raw, state)
    if sum(not p.absent for p in state.provinces.values()) < 2:
        raise InvalidCommand("at least two provinces' players must be present")
    state.seating = _seating(state, [p["colour"] for p in provinces])
    islands = options.get("islands", [])
    if not isinstance(islands, list):
        raise InvalidCommand("'islands' must be a list")
    for i, raw in enumerate(islands, 1):
        _island(raw, state, i)
    _balance_enmity(state, {p["colour"]: p.get("enmity") for p in provinces})
    for raw in provinces:  # without a stated glory, a province has its holdings' glory
        if "glory" not in raw:
            state.provinces[raw["colour"]].glory = held_glory(state, raw["colour"])
    # Goods, upgrades and structures already in play come out of the supply.
    for ship in state.ships.values():
        for good in ship.goods:
            _take(supply.goods, good, f"{good}")
    for prov in state.provinces.values():
        for good in prov.warehouse:
            _take(supply.goods, good, f"{good}")
    for site in state.sites.values():
        if site.good_present and site.colour:
            _take(supply.goods, site.colour, f"{site.colour}")
    for ship in state.ships.values():
        for up in ship.upgrades:
            _take(supply.upgrades, up.name, f"upgrade {up.name}")
    for site in state.sites.values():
        if site.structure is not None:
            _take(supply.structures, site.structure, f"structure {site.structure}")
    for ship in state.ships.values():
        if ship.location is not None and ship.location not in state.regions:
            ship.location = _at_sea(state, ship.location)
            if ship.location is None:
                raise InvalidCommand(f"ship {ship.id}: unknown location")
    if options.get("start_at", "winter") == "winter" and len(provinces) < 3:
        raise SetupRefused("provinces_new_game")
    state.research_allowed = _bool(options, "research_allowed", False, "setup")
    _decks(options, state)
    game = _int(options, "game", 1, "setup", minimum=1)
    state.game_number = game
    state.retired_advisors = _retired(options.get("retired_advisors"))
    state.record = parse_record(options.get("record"))
    state.glory_target = _int(options, "glory_target", min(GLORY_TARGET_FIRST + game - 1,
                                                           GLORY_TARGET_MAX), "setup")
    start = options.get("start_at", "winter")
    if start not in ("winter", "turn"):
        raise InvalidCommand("'start_at' is 'winter' (a new game) or 'turn' (a game in play)")
    present = [c for c in state.seating if not state.provinces[c].absent]
    first = _str(options, "first_player", present[0], "setup")
    if first not in state.provinces:
        raise InvalidCommand(f"'first_player' {first!r} is not a province in this game")
    if first not in present:
        raise InvalidCommand(f"'first_player' {first!r} is absent and takes no turns")
    if start == "turn":
        state.round, state.phase, state.astrolabe = 1, "turns", first
        state.first_winter = False
    else:
        state.round, state.phase = 0, "forum"
    return state


GLORY_TARGET_FIRST = 11  # rulebook, "Setting up SeaFall": 11 in the first game after
GLORY_TARGET_MAX = 24  # the prologue, one more each game, at most 24


def _balance_enmity(state: SeaFallState, given: Mapping[str, Any]) -> None:
    """Each province has 8 enmity tokens: those at home default to 8 less the ones the
    scenario places on the board. A stated number may be lower (a scenario that leaves some
    tokens out of the picture), never more than 8 in all."""
    for colour, prov in state.provinces.items():
        out = sum(s.enmity.get(colour, 0) for s in state.sites.values())
        out += sum(r.garrison_enmity.get(colour, 0) for r in state.regions.values())
        out += sum(p.at_war_with.get(colour, 0) for p in state.provinces.values())
        if given.get(colour) is None:
            prov.home_enmity = ENMITY_TOKENS - out
        if prov.home_enmity + out > ENMITY_TOKENS or prov.home_enmity < 0:
            raise InvalidCommand(
                f"province {colour}: {prov.home_enmity} enmity at home and {out} on the board "
                f"make {prov.home_enmity + out}, not {ENMITY_TOKENS}")


def _retired(raw: Any) -> list[RetiredAdvisor]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise InvalidCommand("'retired_advisors' must be a list")
    out = []
    for item in raw:
        item = _obj(item, "each retired advisor")
        name = _str(item, "name", None, "retired advisor")
        if name is None:
            raise InvalidCommand("each retired advisor needs a 'name'")
        expertise = _counts(item.get("expertise"), f"retired advisor {name!r}: 'expertise'")
        if not expertise or any(k not in EXPERTISE for k in expertise):
            raise InvalidCommand(f"retired advisor {name!r}: 'expertise' maps "
                                 f"{', '.join(EXPERTISE)} to numbers")
        out.append(RetiredAdvisor(name, expertise,
                                  _int(item, "stickers", 1, f"retired advisor {name!r}")))
    return out


def _seating(state: SeaFallState, listed: list[str]) -> list[str]:
    """Titles decide seating, least prominent first; without titles, the order given."""
    titles = {c: state.provinces[c].title for c in listed}
    if not any(titles.values()):
        return listed
    if not all(titles.values()):
        raise InvalidCommand("give every province a title, or none")
    if len(set(titles.values())) != len(titles):
        raise InvalidCommand("two provinces cannot hold the same title")
    return sorted(listed, key=lambda c: -TITLES.index(titles[c] or ""))


def _powered(raw: Any, where: str, powers: dict[str, list[Any]]) -> list[str]:
    """Cards given by name, or as ``{"name", "effects"}`` (their powers go in ``powers``)."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise InvalidCommand(f"{where} is a list of cards")
    names = []
    for item in raw:
        if isinstance(item, str):
            item = {"name": item}
        item = _obj(item, where)
        name = _str(item, "name", None, where)
        if name is None or set(item) - {"name", "effects"}:
            raise InvalidCommand(f"{where}: each card is a name or {{\"name\", \"effects\"}}")
        if "effects" in item:
            powers[name] = _effects(item["effects"], f"{where} {name!r}")
        names.append(name)
    return names


def _names(raw: Any, where: str) -> list[str]:
    if raw is None:
        return []
    if not isinstance(raw, list) or not all(isinstance(n, str) and n for n in raw):
        raise InvalidCommand(f"{where} is a list of names")
    return list(raw)


def _decks(options: Mapping[str, Any], state: SeaFallState) -> None:
    held = {a.name for p in state.provinces.values() for a in p.council}
    forum = _names(options.get("forum"), "'forum'")
    default_deck = ([] if options.get("start_at") == "turn" else
                    [a for a in state.catalogue.advisors if a not in held and a not in forum])
    deck = _names(options.get("advisor_deck", default_deck), "'advisor_deck'")
    for name in [*forum, *deck]:
        if name not in state.catalogue.advisors:
            raise InvalidCommand(f"unknown advisor {name!r} in the forum or advisor deck")
    dup = {n for n in [*forum, *deck, *held] if [*forum, *deck, *held].count(n) > 1}
    if dup:
        raise InvalidCommand(f"advisor(s) in two places at once: {', '.join(sorted(dup))}")
    if len(forum) > 5:
        raise InvalidCommand("the forum holds five advisors")
    state.forum, state.advisor_deck = forum, deck
    treasures = _cards(options.get("treasures"), "'treasures'")
    for card in treasures:
        if card.colour is not None and card.colour not in GOODS:
            raise InvalidCommand(f"treasure {card.name!r}: 'colour' must be one of "
                                 f"{', '.join(GOODS)}")
    state.treasures = treasures
    milestones = options.get("milestones", [])
    if not isinstance(milestones, list):
        raise InvalidCommand("'milestones' must be a list")
    for raw in milestones:
        raw = _obj(raw, "each milestone")
        name = _str(raw, "name", None, "milestone")
        if name is None:
            raise InvalidCommand("each milestone needs a 'name'")
        state.milestones.append(Milestone(
            name, _int(raw, "glory", 0, f"milestone {name!r}"),
            _text(raw, "requirement", f"milestone {name!r}"),
            None, _names(raw.get("events"), f"milestone {name!r}: 'events'"),
            _bool(raw, "end_of_world", False, f"milestone {name!r}")))
    state.event_deck = _powered(options.get("events"), "'events'", state.event_powers)
    state.bagged_events = _powered(options.get("bagged_events"), "'bagged_events'",
                                   state.event_powers)
    _powered(options.get("damage_cards"), "'damage_cards'", state.damage_cards)
    revealed = _str(options, "event", None, "setup")  # a scenario's event of the round
    if revealed is not None:
        if revealed not in state.event_deck:
            raise InvalidCommand(f"'event' {revealed!r} is not in 'events'")
        state.event_deck.remove(revealed)
        state.event = revealed


def _at_sea(state: SeaFallState, location: str) -> str | None:
    """A ship's location given as a map space: the region there, else the space itself."""
    space = normalise(location)
    if not default_map().knows(space):
        return None
    return next((r.id for r in state.regions.values() if r.space == space), space)


def _take(counts: dict[str, int], name: str, what: str) -> None:
    if counts.get(name, 0) <= 0:
        raise InvalidCommand(f"{what} is used more times than the supply holds")
    counts[name] -= 1


def demo_options() -> dict[str, Any]:
    """The demonstration table (``data/demo.json``): three provinces, two example islands."""
    text = resources.files(__package__).joinpath("data").joinpath("demo.json").read_text("utf-8")
    options = json.loads(text)
    options.pop("_about", None)
    return dict(options)


def add_island(raw: Any, state: SeaFallState) -> None:
    """Add an island described as in the setup options to ``state`` (validated)."""
    _island(raw, state, len([r for r in state.regions.values() if r.kind == "island"]) + 1)


def cards_from(raw: Any, where: str) -> list[Card]:
    """Treasure or research cards described as in the setup options (validated)."""
    return _cards(raw, where)
