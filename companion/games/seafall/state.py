"""The SeaFall game state: provinces, ships, regions, sites, supply, the turn, the endeavor.

Plain dataclasses, folded from events by :mod:`companion.games.seafall.evolve`. The state
is never mutated in place by the engine's callers: ``evolve`` works on a copy.

Identifiers are short strings players can type: a province is its colour (``"red"``), and
its home harbor region has the same id; ships are ``"red-1"``/``"red-2"``; sites are
``"<region>/<name>"`` (``"red/field-1"``, ``"isle-a/2"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.seafall.codec import clone
from companion.games.seafall.components import Catalogue
from companion.games.seafall.effects import Effect

# Site kinds. Island sites start "unexplored" and show what the exploration sticker says
# once explored ("explored" until the table records it). Province sites are fixed.
ISLAND_SITE_KINDS = ("unexplored", "explored", "good", "mine", "docks", "market", "other")
PROVINCE_SITE_KINDS = (
    "field", "building_site", "warehouse", "council_room", "vault", "treasure_room",
)


@dataclass
class ShipUpgrade:
    name: str
    exhausted: bool = False


@dataclass
class DamageCard:
    name: str = "damage"
    effects: list[Effect] = field(default_factory=list)


@dataclass
class Ship:
    id: str
    owner: str
    name: str
    sail: int
    raid: int
    explore: int
    hold: int
    location: str | None
    upgrades: list[ShipUpgrade] = field(default_factory=list)
    damage: list[DamageCard] = field(default_factory=list)
    goods: list[str] = field(default_factory=list)
    sunk: bool = False


@dataclass
class Site:
    id: str
    region: str
    kind: str
    defense: int | None = None
    dangerous: bool = False
    symbol: str | None = None
    colour: str | None = None
    value: int | None = None
    plunder_value: int | None = None
    good_present: bool = False
    structure: str | None = None
    enmity: dict[str, int] = field(default_factory=dict)


@dataclass
class Region:
    id: str
    name: str
    kind: str  # "island" or "province"
    garrison: int
    owner: str | None = None
    defense: int | None = None  # a province's defense (island sites carry their own)
    dangerous: bool = False
    effects: list[Effect] = field(default_factory=list)
    permanent_enmity: dict[str, int] = field(default_factory=dict)
    garrison_enmity: dict[str, int] = field(default_factory=dict)
    sites: list[str] = field(default_factory=list)
    # what the region offers: upgrade colours at its docks, goods its market buys,
    # whether ships there may repair; "column" is the island's map column, numbered from
    # the coastal waters (0, east) out to the open sea (14, west), as in the map data
    docks: list[str] = field(default_factory=list)
    market: list[str] = field(default_factory=list)
    repair: bool = False
    column: int | None = None
    space: str | None = None  # the map space it occupies (docs/seafall.md, "The map")


@dataclass
class Advisor:
    name: str
    exhausted: bool = False


@dataclass
class Card:
    """A treasure or research card: a name, the glory it gives while held, its powers, and
    for a treasure its price and the colour of good that discounts it."""

    name: str
    glory: int = 0
    effects: list[Effect] = field(default_factory=list)
    cost: int = 0
    colour: str | None = None


@dataclass
class Milestone:
    """A milestone card: its glory, and who claimed it (players enter the rest)."""

    name: str
    glory: int = 0
    requirement: str = ""
    claimed_by: str | None = None
    events: list[str] = field(default_factory=list)  # bagged events it brings in
    end_of_world: bool = False  # claiming it ends the campaign after this game


TITLES = ("prince", "duke", "count", "baron", "lord")  # most prominent first


@dataclass
class Province:
    colour: str
    player: str
    gold: int = 0
    glory: int = 0
    reputation: int = 0
    fortune: int = 0
    home_enmity: int = 8
    at_war_with: dict[str, int] = field(default_factory=dict)
    council: list[Advisor] = field(default_factory=list)
    active_advisor: str | None = None
    research: list[Card] = field(default_factory=list)
    treasures: list[Card] = field(default_factory=list)
    warehouse: list[str] = field(default_factory=list)
    ships: list[str] = field(default_factory=list)
    title: str | None = None
    # the campaign: what carries over from game to game
    campaign_glory: int = 0
    leader_reputation: int = 0  # reputation tokens taken at the start of a game
    leader_fortune: int = 0  # fortune tokens taken at the start of a game
    appellation: str | None = None
    kept_advisor: str | None = None
    absent: bool = False  # its player misses this game ("Missing a game")
    games_missed: int = 0  # games missed before this one, not yet caught up


@dataclass
class RetiredAdvisor:
    """A retired advisor sticker sheet: the expertise it trains, and stickers left."""

    name: str
    expertise: dict[str, int] = field(default_factory=dict)
    stickers: int = 1


@dataclass
class EnmitySettling:
    """End of game step 5 for one player: the roll, then successes spent one at a time."""

    player: str
    rolled: bool = False
    successes: int = 0


@dataclass
class Supply:
    goods: dict[str, int] = field(default_factory=dict)
    upgrades: dict[str, int] = field(default_factory=dict)  # available (face up)
    exhausted_upgrades: dict[str, int] = field(default_factory=dict)
    structures: dict[str, int] = field(default_factory=dict)
    exhausted_structures: dict[str, int] = field(default_factory=dict)


@dataclass
class PoolLine:
    """One line of a dice pool's explanation: why, and how many dice (+ or -)."""

    reason: str
    dice: int


@dataclass
class Endeavor:
    """An explore or raid endeavor in progress (rulebook, "Endeavors and Damage")."""

    number: int
    kind: str  # "explore" or "raid"
    player: str
    region: str
    site: str | None  # None when raiding a province as a whole
    target: str | None  # the defending province's colour, when raiding a province
    flagship: str
    support: str | None
    defense: int
    dangerous: bool
    pool: list[PoolLine]
    dice: int
    research: list[str] = field(default_factory=list)
    fortune_allowed: int | None = None  # None: as many as the player has
    reroll_kinds: list[str] = field(default_factory=list)
    face_values: dict[str, int] = field(default_factory=dict)
    bonus: int = 0
    strong_reduces_damage: bool = False
    stage: str = "roll"  # roll, reroll, fortune, damage, plunder
    faces: list[str] = field(default_factory=list)
    reroll: list[int] = field(default_factory=list)  # die indices awaiting a re-roll
    rerolled: bool = False
    fortune_offered: int = 0
    fortune_spent: int = 0
    rolled_successes: int = 0
    successes: int = 0
    damage_due: int = 0
    support_damage_left: int = 0
    sank: bool = False
    plunder_site: str | None = None
    plunder_step: str | None = None  # a choice the plundered site still asks for
    goods_to_place: list[str] = field(default_factory=list)
    # where the goods to place were taken from ("site", "supply" or the defender's colour
    # for its warehouse): what no ship has room for stays there
    goods_from: str | None = None
    picks_left: int = 0


@dataclass
class Turn:
    player: str
    guild: str | None = None
    actions: list[str] = field(default_factory=list)
    hired: bool = False  # step 1 done: an advisor hired or a treasure bought
    bought_treasure: bool = False  # step 1 was a treasure: no advisor, even with a Library
    milestone_claimed: bool = False
    borrowed: list[str] = field(default_factory=list)  # regions paid for with reputation
    # a ship of the player whose hold an upgrade returned left over its value: the turn
    # waits for goods returned to the supply ("Damage", as a damaged hold; ships.lighten_hold)
    hold_over: str | None = None


@dataclass
class SeaFallState:
    catalogue: Catalogue
    seating: list[str]
    provinces: dict[str, Province]
    ships: dict[str, Ship]
    regions: dict[str, Region]
    sites: dict[str, Site]
    supply: Supply
    prologue: bool = False
    # the year: round 0 is winter; the astrolabe holder starts each round
    year: int = 1
    round: int = 0
    phase: str = "turns"  # forum (dealing advisors), event (revealing one), turns, over
    astrolabe: str | None = None
    first_winter: bool = True
    glory_target: int = 11
    # decks and displays: physical cards, so the table says what was dealt
    forum: list[str] = field(default_factory=list)
    advisor_deck: list[str] = field(default_factory=list)
    # the cards known to be at the bottom of a deck since it was shuffled (decks.py)
    advisors_below: list[list[str]] = field(default_factory=list)
    treasures: list[Card] = field(default_factory=list)  # for sale
    milestones: list[Milestone] = field(default_factory=list)
    event_deck: list[str] = field(default_factory=list)
    events_below: list[list[str]] = field(default_factory=list)
    # building sites whose structure was plundered this year: not built on until winter;
    # fields plundered this year: not plundered again until winter (tokens or none)
    plundered_sites: list[str] = field(default_factory=list)
    # fields plundered since the last harvest: they yield nothing at the next one
    fallow_fields: list[str] = field(default_factory=list)
    bagged_events: list[str] = field(default_factory=list)
    event: str | None = None  # the event revealed this round
    event_powers: dict[str, list[Effect]] = field(default_factory=dict)  # by event name
    damage_cards: dict[str, list[Effect]] = field(default_factory=dict)  # known, by name
    turns_taken: list[str] = field(default_factory=list)  # this round, in order
    game_over: bool = False
    winner: str | None = None
    # end of game (rulebook, "End of Game"): the step under way and who still acts in it
    game_number: int = 1
    end_step: int = 0
    end_order: list[str] = field(default_factory=list)
    retired_advisors: list[RetiredAdvisor] = field(default_factory=list)
    trained_with: list[str] = field(default_factory=list)  # retired advisors used this game
    enmity: EnmitySettling | None = None
    sticker_to_place: list[str] = field(default_factory=list)  # regions, for the player
    title_blocks: list[dict[str, list[str]]] = field(default_factory=list)  # tied groups:
    # {"players": in picking order, "titles": the titles they share}
    record: list[dict[str, Any]] = field(default_factory=list)  # the historical record
    turn: Turn | None = None
    endeavor: Endeavor | None = None
    endeavors: int = 0  # how many endeavors were started: numbers prompts
    research_allowed: bool = False  # "Research": not at the start of the campaign
    emperor: str | None = None  # set when the campaign ends ("The Crowning of an Emperor")

    def clone(self) -> SeaFallState:
        new: SeaFallState = clone(self)
        return new

    # -- lookups -----------------------------------------------------------------------

    def province_ships(self, colour: str) -> list[Ship]:
        return [self.ships[s] for s in self.provinces[colour].ships]

    def ships_at(self, region: str, owner: str | None = None) -> list[Ship]:
        """Ships afloat in a region (optionally only one province's), in id order."""
        return [
            s for s in sorted(self.ships.values(), key=lambda s: s.id)
            if s.location == region and not s.sunk and (owner is None or s.owner == owner)
        ]

    def region_sites(self, region: str) -> list[Site]:
        return [self.sites[s] for s in self.regions[region].sites]
