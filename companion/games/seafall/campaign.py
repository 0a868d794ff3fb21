"""The campaign ledger: what a recorded game carries into the next one (rulebook, "Game
Carryover" and "End of Game").

:func:`next_game` turns the state of a recorded game into the setup options of the next:
explored sites and their stickers, permanent enmity on every region, ship values, the one
advisor each province kept (trained expertise included), unused research cards, titles,
leader levels, improved fields and garrisons, appellations, campaign glory, the historical
record, retired advisors with stickers left, milestones not yet claimed and the event deck
(events brought in by milestones stay). Gold, goods, upgrades, structures, damage and
game glory do not carry over; treasures go back to the treasure deck. A province whose player
missed the game carries ``games_missed`` (the catch-up owed when they return: see
:mod:`companion.games.seafall.membership`).

The campaign ends after the game in which a milestone marked ``end_of_world`` (the island at
the end of the world is found) is claimed: :func:`crown_if_the_world_ends` names the Emperor
once glory is recorded
("The Crowning of an Emperor"): the most campaign glory, then the most milestone glory in the
historical record, then the least prominent title held during that final game.

The final game is recorded like any other: :func:`next_game` still computes its ledger (the
final campaign glory, titles and historical record, which the campaign page shows), marked
``"campaign_over": {"emperor": colour, "player": name, "game": n}``. Such a ledger sets up
no game: the setup refuses it (:func:`refuse_if_over`), so the campaign's next game is
refused only once the final one is recorded.
"""

from __future__ import annotations

from typing import Any

from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.codec import dump
from companion.games.seafall.emitter import Emitter
from companion.games.seafall.state import TITLES, SeaFallState


def next_game(state: SeaFallState) -> dict[str, Any]:
    """Setup options for the next game of the campaign, from a recorded game."""
    if state.phase != "recorded":
        raise IllegalCommand("the game is not over and recorded yet: finish the end of the "
                             "game first")
    provinces = []
    for colour in state.seating:
        prov = state.provinces[colour]
        region = state.regions[colour]
        fields = [state.sites[s].value or 0 for s in region.sites
                  if state.sites[s].kind == "field"]
        provinces.append({
            "colour": colour,
            "player": prov.player,
            "title": prov.title,
            "campaign_glory": prov.campaign_glory,
            "leader_reputation": prov.leader_reputation,
            "leader_fortune": prov.leader_fortune,
            **({"appellation": prov.appellation} if prov.appellation else {}),
            "garrison": region.garrison,
            "defense": region.defense,
            "dangerous": region.dangerous,
            "fields": fields,
            "permanent_enmity": dict(region.permanent_enmity),
            "advisors": [prov.kept_advisor] if prov.kept_advisor else [],
            "research": [dump(card) for card in prov.research],
            "ships": [{"name": s.name, "sail": s.sail, "raid": s.raid, "explore": s.explore,
                       "hold": s.hold} for s in state.province_ships(colour)],
        })
        missed = prov.games_missed + (1 if prov.absent else 0)
        if missed:
            provinces[-1]["games_missed"] = missed
    islands = []
    for region in state.regions.values():
        if region.kind != "island":
            continue
        sites = []
        for site in state.region_sites(region.id):
            entry: dict[str, Any] = {"name": site.id.split("/", 1)[1], "kind": site.kind,
                                     "defense": site.defense, "dangerous": site.dangerous}
            for key in ("symbol", "colour", "value"):
                if getattr(site, key) is not None:
                    entry[key] = getattr(site, key)
            sites.append(entry)
        islands.append({
            "id": region.id, "name": region.name, "garrison": region.garrison,
            "effects": [e.to_json() for e in region.effects],
            "permanent_enmity": dict(region.permanent_enmity),
            "docks": list(region.docks), "market": list(region.market),
            "repair": region.repair,
            **({"space": region.space} if region.space else {}),
            **({"column": region.column} if region.column is not None else {}),
            "sites": sites,
        })
    held = {p.kept_advisor for p in state.provinces.values() if p.kept_advisor}
    catalogue = state.catalogue.to_json()
    over: dict[str, Any] = {}
    if state.emperor is not None:  # the final game: its ledger is kept, to set up nothing
        over = {"campaign_over": {"emperor": state.emperor,
                                  "player": state.provinces[state.emperor].player,
                                  "game": state.game_number}}
    return {
        **over,
        "game": state.game_number + 1,
        "provinces": provinces,
        "islands": islands,
        "components": catalogue,
        "advisor_deck": sorted(a for a in state.catalogue.advisors if a not in held),
        "treasures": [dump(c) for c in state.treasures]
        + [dump(c) for p in state.provinces.values() for c in p.treasures],
        "milestones": [dump(m) for m in state.milestones if m.claimed_by is None],
        "events": sorted(state.event_deck + ([state.event] if state.event else [])),
        "bagged_events": list(state.bagged_events),
        "retired_advisors": [dump(r) for r in state.retired_advisors if r.stickers > 0],
        "record": [dict(r) for r in state.record],
        "research_allowed": state.research_allowed,
    }


def refuse_if_over(options: Any) -> None:
    """A ledger recorded from the campaign's final game (``campaign_over``) sets up no game:
    the Emperor is crowned."""
    over = options.get("campaign_over") if isinstance(options, dict) else None
    if over is None:
        return
    if not isinstance(over, dict) or not isinstance(over.get("emperor"), str):
        raise InvalidCommand("'campaign_over' names the Emperor: {\"emperor\": colour, "
                             "\"player\": name, \"game\": n}")
    raise IllegalCommand(f"the campaign is over: {over.get('player') or over['emperor']} "
                         f"({over['emperor']}) is crowned Emperor")


def check_ledger(ledger: Any) -> None:
    """A ledger as a campaign keeps it (a campaign file being imported): read as the setup
    of the game it sets up would read it (``InvalidCommand`` naming the field), with what
    a stored ledger may hold besides: the catch-up owed to a player who missed games (made
    when the next game is set up) and the end of the campaign (``campaign_over``, naming
    one of its provinces)."""
    if not isinstance(ledger, dict):
        raise InvalidCommand("the ledger is a JSON object (the setup of the game to come)")
    summary = campaign_summary(ledger)
    over = summary["emperor"]
    if over is not None and over["colour"] not in {p["colour"] for p in summary["provinces"]}:
        raise InvalidCommand(f"'campaign_over' crowns {over['colour']}, which is not one of "
                             "its provinces")


# -- the historical record and the end of the campaign ------------------------------------


def milestone_glory(state: SeaFallState) -> dict[str, int]:
    """Glory each province earned from milestones claimed in this game."""
    out: dict[str, int] = {}
    for m in state.milestones:
        if m.claimed_by is not None and m.glory:
            out[m.claimed_by] = out.get(m.claimed_by, 0) + m.glory
    return out


def note_history(em: Emitter) -> None:
    """Right after glory is recorded (step 6), when there is something to note: the glory
    from milestones (the Emperor's first tie-break) and who was absent."""
    state = em.state
    earned = milestone_glory(state)
    absent = [c for c in state.seating if state.provinces[c].absent]
    if earned or absent:
        em("HistoryNoted", game=state.game_number, milestone_glory=earned, absent=absent)


def world_has_ended(state: SeaFallState) -> bool:
    return any(m.end_of_world and m.claimed_by is not None for m in state.milestones)


def campaign_milestone_glory(record: list[dict[str, Any]]) -> dict[str, int]:
    """Milestone glory over the whole historical record, by province."""
    out: dict[str, int] = {}
    for entry in record:
        for colour, glory in (entry.get("milestone_glory") or {}).items():
            out[colour] = out.get(colour, 0) + int(glory)
    return out


def emperor(state: SeaFallState) -> tuple[str, str]:
    """Who is crowned, and what decided it: ``"campaign glory"``, ``"milestone glory"`` or
    ``"title"`` (the least prominent title held during the final game)."""
    colours = list(state.seating)
    top = max(state.provinces[c].campaign_glory for c in colours)
    tied = [c for c in colours if state.provinces[c].campaign_glory == top]
    if len(tied) == 1:
        return tied[0], "campaign glory"
    by_milestones = campaign_milestone_glory(state.record)
    best = max(by_milestones.get(c, 0) for c in tied)
    tied = [c for c in tied if by_milestones.get(c, 0) == best]
    if len(tied) == 1:
        return tied[0], "milestone glory"

    def prominence(colour: str) -> int:  # the titles held in this, the final game
        title = state.provinces[colour].title
        return TITLES.index(title) if title in TITLES else len(TITLES)

    return max(tied, key=lambda c: (prominence(c), -colours.index(c))), "title"


def crown_if_the_world_ends(em: Emitter) -> None:
    """Once glory is recorded (step 6, before titles change hands): if the island at the end
    of the world was found in this game, the campaign ends and the Emperor is crowned."""
    state = em.state
    if not world_has_ended(state):
        return
    winner, decided_by = emperor(state)
    em("EmperorCrowned", player=winner, decided_by=decided_by,
       campaign={c: state.provinces[c].campaign_glory for c in state.seating},
       milestone_glory=campaign_milestone_glory(state.record))


# -- the campaign page ---------------------------------------------------------------------


def campaign_summary(ledger: dict[str, Any]) -> dict[str, Any]:
    """What the campaign page shows, read from a ledger (the next game's setup options, or
    the first game's), or from a game's setup options (a ledger with its changes of
    players): each province's title, campaign glory and leader levels, the historical
    record, and the permanent enmity on every region.

    The ledger is set up as a game would be, so a first setup (which leaves titles and
    enmity to their defaults) reads the same way as a carried-over one."""
    from companion.games.seafall.membership import apply_changes
    from companion.games.seafall.setup import initial_state

    over = ledger.get("campaign_over")
    if over is not None:  # the final game's ledger: read as the game it would set up
        if not isinstance(over, dict) or not isinstance(over.get("emperor"), str):
            refuse_if_over(ledger)  # says what it should be
        ledger = {k: v for k, v in ledger.items() if k != "campaign_over"}
    if "campaign_changes" in ledger:  # a game's setup: who joined, came back, left, is away
        ledger = apply_changes(ledger)
    # A player who missed games is owed a catch-up before the next game can be set up, and
    # the setup refuses the ledger until then: the page read it only to fail (after any game
    # with an absent player, the campaign could not be shown). The count is read aside.
    missed: dict[str, int] = {}
    if isinstance(ledger.get("provinces"), list):
        ready = []
        for raw in ledger["provinces"]:
            count = raw.get("games_missed") if isinstance(raw, dict) else None
            if isinstance(count, int) and not isinstance(count, bool) and count > 0 and \
                    not raw.get("absent"):
                missed[raw.get("colour")] = count
                raw = {k: v for k, v in raw.items() if k != "games_missed"}
            ready.append(raw)
        ledger = {**ledger, "provinces": ready}
    state = initial_state(ledger)
    provinces = []
    for colour in state.seating:
        prov = state.provinces[colour]
        if colour in missed:
            prov.games_missed = missed[colour]
        provinces.append({
            "colour": colour, "player": prov.player, "title": prov.title,
            "campaign_glory": prov.campaign_glory,
            "leader_reputation": prov.leader_reputation,
            "leader_fortune": prov.leader_fortune, "appellation": prov.appellation,
            # kept at the end of the game (step 3), else brought into the next one: the
            # ledger's setup puts it on the council, and ``kept_advisor`` is the game's own
            "kept_advisor": prov.kept_advisor or ", ".join(a.name for a in prov.council)
            or None,
            "games_missed": prov.games_missed, "absent": prov.absent})
    enmity = [{"region": r.id, "name": r.name, "kind": r.kind,
               "permanent_enmity": dict(r.permanent_enmity)}
              for r in state.regions.values() if any(r.permanent_enmity.values())]
    return {"game": state.game_number, "glory_target": state.glory_target,
            "provinces": provinces,
            "record": record_with_players(state.record,
                                          {c: state.provinces[c].player for c in state.seating}),
            "permanent_enmity": enmity,
            "titles": list(TITLES),
            # the campaign is over (its final game recorded): who is crowned, else None
            "emperor": None if over is None else {
                "colour": over.get("emperor"), "player": over.get("player"),
                "game": over.get("game")}}


def record_with_players(record: list[dict[str, Any]], players: dict[str, str]
                        ) -> list[dict[str, Any]]:
    """The historical record, each entry with ``players``: who played each colour at that
    point (colour -> name). The record names colours; the provinces today are not who played
    its games: a player who left is no longer among them, and another may have taken their
    colour since (the page wrote "Green 0" for a game Cat played, once Cat had left). Read
    backwards from ``players`` (the provinces now): up to a ``left`` entry its player held
    the colour; before a ``joined`` entry nobody did."""
    names = dict(players)
    out: list[dict[str, Any]] = []
    for entry in reversed(record):
        colour, event = entry.get("province"), entry.get("event")
        if event == "left" and isinstance(colour, str):
            names[colour] = str(entry.get("player") or colour.title())
        out.append({**entry, "players": dict(names)})  # a change: its player named too
        if event == "joined" and isinstance(colour, str):
            names.pop(colour, None)
    return out[::-1]
