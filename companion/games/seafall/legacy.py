"""Adding and editing components as the campaign unlocks them (issue: components are data).

SeaFall is a legacy game: boxes open, new advisors, upgrades, structures, treasures,
milestones, events and islands enter the game. Each arrives by a validated command, so a
typo or an unknown power is refused with the reason instead of surfacing mid-game:

* ``add_component {"kind": "advisor" | "upgrade" | "structure" | "treasure" | "milestone" |
  "event", "card": {...}}``: a new card, or a new version of one with the same name (an
  edit). Advisors go to the bottom of the advisor deck, upgrades and structures to the
  supply, treasures to those for sale, events to the event deck (or the storage chest with
  ``"bagged": true``).
* ``add_island {"island": {...}}``: an island as in the setup options (sites, powers,
  docks, market, map space); its name may not be an island's already (case and spacing
  aside).
* ``set_leader {"province": "blue", "reputation": 2, "fortune": 3}``: a leader card's
  reputation and fortune, as printed (rulebook, "Setup": each player takes as many
  reputation and fortune tokens as their leader card shows). Only in the game's first winter,
  before round 1: the tokens are set to the card's values, none spent yet. Afterwards the
  levels change only by the rules (an improvement at the end of a game).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine import Command, Event
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.args import only, text, whole
from companion.games.seafall.codec import dump
from companion.games.seafall.effects import parse_effects
from companion.games.seafall.emitter import Emitter
from companion.games.seafall.evolve import handles
from companion.games.seafall.setup import add_island as _add_island
from companion.games.seafall.setup import cards_from
from companion.games.seafall.state import Milestone, SeaFallState

KINDS = ("advisor", "upgrade", "structure", "treasure", "milestone", "event")


def _catalogue_key(kind: str) -> str:
    return f"{kind}s"


def add_component(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "kind", "card", "bagged")
    kind = text(args, "kind", cmd.type)
    if kind not in KINDS:
        raise InvalidCommand(f"'kind' is one of {', '.join(KINDS)}")
    raw = args.get("card")
    if not isinstance(raw, Mapping) or not isinstance(raw.get("name"), str) or \
            not raw["name"].strip():
        raise InvalidCommand("'card' is a JSON object with at least a 'name'")
    name = raw["name"]
    card: dict[str, Any]
    if kind in ("advisor", "upgrade", "structure"):
        try:
            merged = state.catalogue.merged({_catalogue_key(kind): [dict(raw)]})
        except ValueError as exc:
            raise InvalidCommand(str(exc)) from None
        card = next(e for e in merged.to_json()[_catalogue_key(kind)] if e["name"] == name)
    elif kind == "treasure":
        (parsed,) = cards_from([dict(raw)], "the treasure")
        card = dump(parsed)
    elif kind == "milestone":
        glory = raw.get("glory", 0)
        events = raw.get("events", [])
        if not isinstance(glory, int) or isinstance(glory, bool) or glory < 0:
            raise InvalidCommand("a milestone's 'glory' is a whole number")
        if not isinstance(events, list) or not all(isinstance(e, str) for e in events):
            raise InvalidCommand("a milestone's 'events' is a list of event names")
        if not isinstance(raw.get("requirement", ""), str):
            raise InvalidCommand("a milestone's 'requirement' is text")
        if not isinstance(raw.get("end_of_world", False), bool):
            raise InvalidCommand("a milestone's 'end_of_world' is true or false")
        if any(m.name == name and m.claimed_by for m in state.milestones):
            raise IllegalCommand(f"milestone {name} was already claimed")
        card = {"name": name, "glory": glory, "requirement": raw.get("requirement", ""),
                "events": list(events), "end_of_world": raw.get("end_of_world", False)}
    else:  # event
        if set(raw) - {"name", "effects"}:
            raise InvalidCommand("an event card is entered by its 'name' and its powers as "
                                 "'effects' (its text stays on the card)")
        try:
            parse_effects(raw.get("effects"), f"event {name!r}")
        except ValueError as exc:
            raise InvalidCommand(str(exc)) from None
        if name in state.event_deck or name in state.bagged_events or name == state.event:
            raise IllegalCommand(f"event {name} is already in the game")
        card = {"name": name, "effects": list(raw.get("effects") or [])}
    bagged = args.get("bagged", False)
    if not isinstance(bagged, bool) or (bagged and kind != "event"):
        raise InvalidCommand("'bagged' (true or false) goes with an event")
    em = Emitter(state)
    em("ComponentAdded", kind=kind, card=card, bagged=bagged)
    return em.events


@handles("ComponentAdded")
def _component_added(state: SeaFallState, p: Mapping[str, Any]) -> None:
    kind, card = p["kind"], p["card"]
    name = card["name"]
    if kind in ("advisor", "upgrade", "structure"):
        new = name not in getattr(state.catalogue, _catalogue_key(kind))
        state.catalogue = state.catalogue.merged({_catalogue_key(kind): [card]})
        if new and kind == "advisor":
            state.advisor_deck.append(name)
            state.advisors_below.append([name])
        elif new and kind == "upgrade":
            state.supply.upgrades[name] = 1
        elif new and kind == "structure":
            state.supply.structures[name] = card.get("count", 1)
    elif kind == "treasure":
        (parsed,) = cards_from([card], "the treasure")
        state.treasures = [t for t in state.treasures if t.name != name] + [parsed]
    elif kind == "milestone":
        state.milestones = [m for m in state.milestones if m.name != name] + [
            Milestone(name, card["glory"], card["requirement"], None, list(card["events"]),
                      card["end_of_world"])]
    else:
        if card.get("effects"):
            state.event_powers[name] = list(parse_effects(card["effects"], f"event {name!r}"))
        (state.bagged_events if p["bagged"] else state.event_deck).append(name)


def add_island(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "island")
    raw = args.get("island")
    if not isinstance(raw, Mapping):
        raise InvalidCommand("'island' is a JSON object, as in the setup options")
    trial = state.clone()
    _add_island(dict(raw), trial)  # validates; raises InvalidCommand
    name = next(r.name for rid, r in trial.regions.items() if rid not in state.regions)
    same = [r.name for r in state.regions.values()
            if r.kind == "island" and _same_name(r.name, name)]
    if same:  # two islands of one name could not be told apart (a site, a ship, the log)
        raise IllegalCommand(f"there is already an island named {same[0]!r}: give this one "
                             "another name")
    em = Emitter(state)
    em("IslandAdded", island=dict(raw))
    return em.events


def _same_name(a: str, b: str) -> bool:
    """Whether two names are one (case and spacing aside: "Isle A" and "isle  a")."""
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


@handles("IslandAdded")
def _island_added(state: SeaFallState, p: Mapping[str, Any]) -> None:
    _add_island(dict(p["island"]), state)


def set_leader(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "province", "reputation", "fortune")
    colour = text(args, "province", cmd.type)
    if colour not in state.provinces:
        raise InvalidCommand(f"'province' is one of {', '.join(state.provinces)}")
    reputation = whole(args, "reputation", cmd.type)
    fortune = whole(args, "fortune", cmd.type)
    if not state.first_winter:
        raise IllegalCommand("a leader's reputation and fortune are set before round 1 of "
                             "the game; since then they change only by the rules")
    em = Emitter(state)
    em("LeaderSet", player=colour, reputation=reputation, fortune=fortune)
    return em.events


@handles("LeaderSet")
def _leader_set(state: SeaFallState, p: Mapping[str, Any]) -> None:
    prov = state.provinces[p["player"]]
    prov.leader_reputation, prov.leader_fortune = p["reputation"], p["fortune"]
    # the tokens, as many as the card shows; an absent player takes none ("Missing a game")
    prov.reputation = 0 if prov.absent else p["reputation"]
    prov.fortune = 0 if prov.absent else p["fortune"]
