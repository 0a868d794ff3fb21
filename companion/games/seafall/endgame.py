"""The end of a game (rulebook, "End of Game"), steps 1 to 7 in order.

Within each step players act from the lowest game glory to the highest (ties: the less
prominent title first). Where a player has nothing to choose, the step passes them by with
a log line; where they have a choice, a prompt lists the legal options.

1. The winner improves the province: a field, a garrison, the leader's reputation or
   fortune, or an appellation.
2. Each player trains an advisor with a retired advisor (a different one each), if they
   can; expertise of the same kind combines.
3. Each player keeps one advisor; the winner only one cheaper (in gold) than every advisor
   the others kept, so the winner keeps last (even when a tie would put them first).
4. Each player improves one value of one ship (at most 5, RULES-FACTS).
5. Each player rolls one die per fortune and reputation token left: one success takes back
   an enmity token, two cross out one of their permanent stickers (a player the roll can
   change nothing for, with no token out and no sticker a roll could cross out, is passed
   by without rolling); the tokens left become
   stickers where they lie (six slots a region; when full, another colour's sticker is
   covered; when all six are the player's own, 1 glory is lost instead), and every token
   goes home.
6. Game glory is added to campaign glory in the historical record.
7. Titles go by campaign glory; players tied for a block of titles choose among them, the
   least prominent (before this step) first.
"""

from __future__ import annotations

from typing import Any

from companion.dice import SEAFALL, DiceRead
from companion.engine import Command, Event
from companion.errors import IllegalCommand, InvalidCommand
from companion.games.seafall.args import only, require_player, text
from companion.games.seafall.campaign import crown_if_the_world_ends, note_history
from companion.games.seafall.emitter import Emitter
from companion.games.seafall.log_fr import titled
from companion.games.seafall.state import TITLES, SeaFallState
from companion.games.seafall.year import prominence
from companion.prompts import Option, OptionInput

STAT_MAX = 5  # ship values are improved at most to 5 (RULES-FACTS [1])
FIELD_MAX = 8  # fields improve up to 8 gold (RULES-FACTS)
STICKER_SLOTS = 6  # "the six boxes near an island or province"
IMPROVEMENTS = ("field", "garrison", "reputation", "fortune", "appellation")
SHIP_STATS = ("sail", "raid", "explore", "hold")
STEP_NAMES = {1: "improve the province", 2: "train advisors", 3: "keep an advisor",
              4: "improve ships", 5: "determine enmity", 6: "record glory",
              7: "assign titles"}


def step_order(state: SeaFallState) -> list[str]:
    """Lowest game glory first; ties to the less prominent title, then seating."""
    return sorted(state.seating, key=lambda c: (state.provinces[c].glory,
                                                -prominence(state, c),
                                                state.seating.index(c)))


def begin(em: Emitter) -> None:
    """Called when the game ends: start step 1."""
    _begin_step(em, 1)
    advance(em)


def _begin_step(em: Emitter, step: int) -> None:
    state = em.state
    if step == 1:
        order = [state.winner or ""]
    else:
        order = step_order(state)
        if step == 3 and state.winner in order:
            # the winner's keep is checked against every other kept advisor: it keeps last,
            # even when a tie for the most glory would have it choose first
            order.remove(state.winner)
            order.append(state.winner)
    em("EndStepBegan", step=step, name=STEP_NAMES[step], order=order)


def advance(em: Emitter) -> None:
    """Run the end of game until a player must choose."""
    while True:
        state = em.state
        step = state.end_step
        if step == 0:
            return
        if not state.end_order:
            if step == 7:
                em("GameRecorded", game=state.game_number)
                return
            _begin_step(em, step + 1)
            continue
        player = state.end_order[0]
        if state.provinces[player].absent and step in (2, 3, 4):
            _pass_absent(em, player, step)
            continue
        if step == 2 and not trainable(state, player):
            em("TrainingSkipped", player=player,
               reason="no advisor with an empty slot" if not _slotted(state, player)
               else "no retired advisor left to train with")
            continue
        if step == 3 and not keepable(state, player):
            em("AdvisorKept", player=player, advisor=None,
               reason="no advisor" if not state.provinces[player].council
               else "the winner keeps only an advisor cheaper than every one kept")
            continue
        if step == 4 and not improvable(state, player):
            em("ShipImproved", player=player, ship=None, stat=None)
            continue
        if step == 5 and _settle_enmity_step(em, player):
            continue
        if step == 6:
            _record_glory(em)
            continue
        if step == 7:
            if not state.title_blocks:
                _rank_titles(em)
                continue
            block = state.title_blocks[0]
            # one player left, or only absent ones (who choose nothing: the best title left
            # goes to the least prominent of them, as they would choose)
            if len(block["players"]) == 1 or state.provinces[block["players"][0]].absent:
                em("TitleChosen", player=block["players"][0], title=block["titles"][0])
                continue
        return


def _pass_absent(em: Emitter, player: str, step: int) -> None:
    """An absent province makes no choices ("Missing a game"): it trains nothing, keeps the
    advisor it brought (if still in its council) and improves its ships when it returns."""
    if step == 3:
        council = em.state.provinces[player].council
        em("AdvisorKept", player=player, advisor=council[0].name if council else None,
           reason="absent")
        return
    em("AbsentPassedBy", player=player, step=step,
       what=f"end of game step {step} ({STEP_NAMES[step]})")


# -- step 1 -------------------------------------------------------------------------------


def improvement_options(state: SeaFallState, player: str) -> list[Option]:
    """Step 1's menu. A field asks for its new gold value (the next one up, unless that
    sticker is gone: "the next higher numbered gold value available"); an appellation asks
    for its name, as on the improvement sheet."""
    opts = [Option(f"field:{s.id}", f"improve the field {s.id} (worth {s.value})",
                   (field_value_input(s.value or 0),))
            for s in state.region_sites(player)
            if s.kind == "field" and (s.value or 0) < FIELD_MAX]
    opts += [Option(f"garrison:{r.id}", f"improve the garrison of {r.name} ({r.garrison})")
             for r in state.regions.values() if r.owner == player]
    prov = state.provinces[player]
    opts += [Option("reputation", f"leader reputation {prov.leader_reputation} -> "
                                  f"{prov.leader_reputation + 1}"),
             Option("fortune", f"leader fortune {prov.leader_fortune} -> "
                               f"{prov.leader_fortune + 1}"),
             Option("appellation", "take an appellation (give its name)", (APPELLATION_INPUT,))]
    return opts


def field_value_input(value: int) -> OptionInput:
    """The new gold value of a field worth ``value``."""
    return OptionInput("value", "the field's new gold value", "number", value + 1, value + 1,
                       FIELD_MAX)


APPELLATION_MAX = 40  # characters: a sticker's few words ("the Wise")
APPELLATION_INPUT = OptionInput("name", "the appellation's name", "text", None, 1,
                                APPELLATION_MAX)


def appellation(value: Any) -> str:
    """An appellation's name as given: ``InvalidCommand`` unless it is 1-40 characters."""
    name = value.strip() if isinstance(value, str) else ""
    if not name:
        raise InvalidCommand("an appellation needs a name (as on the improvement sheet)")
    if len(name) > APPELLATION_MAX:
        raise InvalidCommand(f"an appellation's name has at most {APPELLATION_MAX} characters")
    return name


def improve_province(state: SeaFallState, cmd: Command) -> list[Event]:
    """``choice``: ``field:<site>`` (with an optional ``value``, the new gold value),
    ``garrison:<region>``, ``reputation``, ``fortune`` or ``appellation`` (with ``name``)."""
    args = only(cmd, "choice", "value", "name")
    player = _acting(state, cmd, 1, "improving the province")
    prov = state.provinces[player]
    kind, _, target = (text(args, "choice", cmd.type) or "").partition(":")
    if kind not in IMPROVEMENTS:
        raise InvalidCommand(f"'choice' is one of {', '.join(IMPROVEMENTS)} "
                             "(field:<site>, garrison:<region>)")
    em = Emitter(state)
    if kind == "field":
        site = state.sites.get(target)
        if site is None or site.kind != "field" or state.regions[site.region].owner != player:
            raise IllegalCommand(f"choose a field {prov.player} controls")
        value = args.get("value", (site.value or 0) + 1)
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidCommand("'value' is the field's new gold value")
        if not (site.value or 0) < value <= FIELD_MAX:
            raise IllegalCommand(f"the field is worth {site.value}; its new value must be "
                                 f"higher, at most {FIELD_MAX}")
        em("ProvinceImproved", player=player, kind=kind, site=site.id, value=value)
    elif kind == "garrison":
        region = state.regions.get(target or player)
        if region is None or region.owner != player:
            raise IllegalCommand(f"choose a region {prov.player} controls")
        em("ProvinceImproved", player=player, kind=kind, region=region.id,
           value=region.garrison + 1)
    elif kind in ("reputation", "fortune"):
        current = prov.leader_reputation if kind == "reputation" else prov.leader_fortune
        em("ProvinceImproved", player=player, kind=kind, value=current + 1)
    else:
        em("ProvinceImproved", player=player, kind=kind, name=appellation(args.get("name")))
    advance(em)
    return em.events


# -- step 2 -------------------------------------------------------------------------------


def _slotted(state: SeaFallState, player: str) -> list[str]:
    return [a.name for a in state.provinces[player].council
            if state.catalogue.advisors[a.name].slots > 0]


def _free_retired(state: SeaFallState) -> list[str]:
    return [r.name for r in state.retired_advisors
            if r.stickers > 0 and r.name not in state.trained_with]


def trainable(state: SeaFallState, player: str) -> bool:
    return bool(_slotted(state, player)) and bool(_free_retired(state))


def training_options(state: SeaFallState, player: str) -> list[tuple[str, str]]:
    return [(f"{r}@{a}", f"train {a} with {r}")
            for r in _free_retired(state) for a in _slotted(state, player)]


def train_advisor(state: SeaFallState, cmd: Command) -> list[Event]:
    """``choice``: ``<retired advisor>@<advisor>``."""
    args = only(cmd, "choice")
    player = _acting(state, cmd, 2, "training an advisor")
    retired, _, advisor = (text(args, "choice", cmd.type) or "").partition("@")
    if retired not in _free_retired(state):
        raise IllegalCommand(f"{retired!r} is not a retired advisor free to train with "
                             f"(free: {', '.join(_free_retired(state))})")
    if advisor not in _slotted(state, player):
        raise IllegalCommand(f"{advisor!r} is not an advisor of yours with an empty slot")
    sheet = next(r for r in state.retired_advisors if r.name == retired)
    em = Emitter(state)
    em("AdvisorTrained", player=player, retired=retired, advisor=advisor,
       expertise=dict(sheet.expertise))
    advance(em)
    return em.events


# -- step 3 -------------------------------------------------------------------------------


def keepable(state: SeaFallState, player: str) -> list[str]:
    """The advisors ``player`` may keep (the winner's restriction applied)."""
    council = [a.name for a in state.provinces[player].council]
    if player != state.winner:
        return council
    kept = [state.catalogue.advisors[p.kept_advisor].gold
            for c, p in state.provinces.items()
            if c != player and p.kept_advisor and not p.absent]
    if not kept:
        return council
    return [a for a in council if state.catalogue.advisors[a].gold < min(kept)]


def keep_advisor(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "choice")
    player = _acting(state, cmd, 3, "keeping an advisor")
    advisor = text(args, "choice", cmd.type) or ""
    allowed = keepable(state, player)
    if advisor not in allowed:
        raise IllegalCommand(f"{advisor!r} cannot be kept; choose one of: "
                             f"{', '.join(allowed)}")
    em = Emitter(state)
    em("AdvisorKept", player=player, advisor=advisor, reason=None)
    advance(em)
    return em.events


# -- step 4 -------------------------------------------------------------------------------


def improvable(state: SeaFallState, player: str) -> list[tuple[str, str]]:
    return [(s.id, stat) for s in state.province_ships(player) for stat in SHIP_STATS
            if getattr(s, stat) < STAT_MAX]


def improve_ship(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "choice")
    player = _acting(state, cmd, 4, "improving a ship")
    choice = tuple((text(args, "choice", cmd.type) or "").partition(":")[::2])
    if choice not in improvable(state, player):
        raise IllegalCommand(f"{choice[0]}'s {choice[1]} cannot be improved (at most "
                             f"{STAT_MAX}, and only your own ships)")
    em = Emitter(state)
    em("ShipImproved", player=player, ship=choice[0], stat=choice[1])
    advance(em)
    return em.events


# -- step 5 -------------------------------------------------------------------------------


def token_locations(state: SeaFallState, player: str) -> list[tuple[str, str, int]]:
    """(location, region, count) of ``player``'s enmity tokens on the board."""
    out = []
    for site in state.sites.values():
        if site.enmity.get(player):
            out.append((site.id, site.region, site.enmity[player]))
    for region in state.regions.values():
        if region.garrison_enmity.get(player):
            out.append((f"garrison:{region.id}", region.id, region.garrison_enmity[player]))
    for colour, prov in state.provinces.items():
        if prov.at_war_with.get(player):
            out.append((f"war:{colour}", colour, prov.at_war_with[player]))
    return out


def enmity_options(state: SeaFallState) -> list[tuple[str, str]]:
    settling = state.enmity
    assert settling is not None
    player, left = settling.player, settling.successes
    opts = [(f"take:{loc}", f"take back a token from {loc} (1 success)")
            for loc, _, _ in token_locations(state, player)] if left >= 1 else []
    if left >= 2:
        opts += [(f"cross:{r.id}", f"cross out your sticker on {r.name} (2 successes)")
                 for r in state.regions.values() if r.permanent_enmity.get(player)]
    return opts + [("done", "done: the tokens left become permanent stickers")]


def _settle_enmity_step(em: Emitter, player: str) -> bool:
    """Automatic parts of step 5; True when ``player`` is finished."""
    state = em.state
    prov = state.provinces[player]
    if state.enmity is None or state.enmity.player != player:
        dice = prov.fortune + prov.reputation
        stickers = sum(r.permanent_enmity.get(player, 0) for r in state.regions.values())
        if dice > 0 and not token_locations(state, player) and (stickers == 0 or dice < 2):
            # the roll can change nothing: a success takes back a token (none is out) and
            # two cross out a sticker (none, or one die makes one success at most); with no
            # token out, none becomes a sticker either. Passed by, as steps 2 to 4 do.
            em("EnmityRollPassedBy", player=player, dice=dice, stickers=stickers)
            return True
        em("EnmitySettlingBegan", player=player, dice=dice)
        if prov.fortune + prov.reputation == 0:
            em("EnmityRolled", player=player, faces=[], successes=0)
        return _settle_enmity_step(em, player)
    if not state.enmity.rolled:
        return False  # the roll prompt
    if state.sticker_to_place:
        region = state.regions[state.sticker_to_place[0]]
        others = sorted(c for c, n in region.permanent_enmity.items() if n and c != player)
        if sum(region.permanent_enmity.values()) < STICKER_SLOTS:
            em("StickerPlaced", player=player, region=region.id, covered=None)
        elif not others:
            em("StickerLost", player=player, region=region.id)
            if state.provinces[player].glory > 0:  # glory never goes below 0
                em("GloryChanged", player=player, amount=-1,
                   reason=f"no room for a sticker on {region.name}")
        elif len(others) == 1:
            em("StickerPlaced", player=player, region=region.id, covered=others[0])
        else:
            return False  # which colour to cover: the player's choice
        return _settle_enmity_step(em, player)
    if state.enmity.successes > 0 and len(enmity_options(state)) > 1:
        return False
    if token_locations(state, player):
        em("TokensBecomeStickers", player=player,
           regions=[r for _, r, n in token_locations(state, player) for _ in range(n)])
        return _settle_enmity_step(em, player)
    em("EnmitySettled", player=player)
    return True


def roll(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "faces", "die", "source", "confidence", "read_id", "image")
    settling = state.enmity
    if state.end_step != 5 or settling is None or settling.rolled:
        raise IllegalCommand("no roll is waiting")
    require_player(state, cmd, settling.player, "rolling for enmity")
    read = DiceRead.from_json(dict(args), default_die=SEAFALL.name).validate(SEAFALL)
    prov = state.provinces[settling.player]
    if len(read.faces) != prov.fortune + prov.reputation:
        raise InvalidCommand(f"the enmity roll is {prov.fortune + prov.reputation} dice, "
                             f"got {len(read.faces)}")
    successes = sum(SEAFALL.face(f).value for f in read.faces)
    em = Emitter(state)
    em("EnmityRolled", player=settling.player, faces=list(read.faces), successes=successes)
    advance(em)
    return em.events


def settle_enmity(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "choice")
    choice = text(args, "choice", cmd.type) or ""
    settling = state.enmity
    if state.end_step != 5 or settling is None or not settling.rolled or \
            state.sticker_to_place:
        raise IllegalCommand("no enmity is waiting to be settled")
    require_player(state, cmd, settling.player, "settling enmity")
    if choice not in dict(enmity_options(state)):
        raise IllegalCommand(f"{choice!r} is not an option now")
    em = Emitter(state)
    how, _, where = choice.partition(":")
    if how == "take":
        em("EnmityTakenBack", player=settling.player, location=where)
    elif how == "cross":
        em("StickerCrossedOut", player=settling.player, region=where)
    else:
        em("EnmitySpendingDone", player=settling.player)
    advance(em)
    return em.events


def cover_sticker(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "choice")
    colour = text(args, "choice", cmd.type) or ""
    settling = state.enmity
    if state.end_step != 5 or settling is None or not state.sticker_to_place:
        raise IllegalCommand("no sticker is waiting to be placed")
    require_player(state, cmd, settling.player, "placing a sticker")
    region = state.regions[state.sticker_to_place[0]]
    if colour == settling.player or not region.permanent_enmity.get(colour):
        owner = state.provinces.get(colour)  # named by its player, as the history does
        whose = owner.player if owner is not None and owner.player else titled(colour)
        raise IllegalCommand(f"there is no sticker of {whose}'s to cover on {region.name}")
    em = Emitter(state)
    em("StickerPlaced", player=settling.player, region=region.id, covered=colour)
    advance(em)
    return em.events


# -- steps 6 and 7 ------------------------------------------------------------------------


def recorded_glory(state: SeaFallState) -> dict[str, int]:
    """Game glory as recorded: an absent province gets one less than the lowest-scoring
    player ("Missing a game")."""
    present = [state.provinces[c].glory for c in state.seating
               if not state.provinces[c].absent]
    return {c: min(present) - 1 if state.provinces[c].absent else state.provinces[c].glory
            for c in state.seating}


def _record_glory(em: Emitter) -> None:
    state = em.state
    glory = recorded_glory(state)
    em("GloryRecorded", game=state.game_number, glory=glory,
       campaign={c: state.provinces[c].campaign_glory + glory[c] for c in state.seating},
       milestones={m.name: m.claimed_by for m in state.milestones if m.claimed_by})
    note_history(em)
    crown_if_the_world_ends(em)


def _rank_titles(em: Emitter) -> None:
    state = em.state
    titles = list(TITLES[:len(state.seating)])  # 3 players: prince, duke, count
    ranked = sorted(state.seating, key=lambda c: -state.provinces[c].campaign_glory)
    blocks = []
    i = 0
    while i < len(ranked):
        glory = state.provinces[ranked[i]].campaign_glory
        group = [c for c in ranked if state.provinces[c].campaign_glory == glory]
        # an absent player makes no choice: the others choose first, it takes what is left
        group.sort(key=lambda c: (state.provinces[c].absent, -prominence(state, c),
                                  state.seating.index(c)))
        blocks.append({"players": group, "titles": titles[i:i + len(group)]})
        i += len(group)
    em("TitlesRanked", blocks=blocks)


def title_options(state: SeaFallState) -> list[str]:
    return list(state.title_blocks[0]["titles"]) if state.title_blocks else []


def choose_title(state: SeaFallState, cmd: Command) -> list[Event]:
    args = only(cmd, "choice")
    title = text(args, "choice", cmd.type) or ""
    if state.end_step != 7 or not state.title_blocks:
        raise IllegalCommand("no title is waiting to be chosen")
    player = state.title_blocks[0]["players"][0]
    require_player(state, cmd, player, "choosing a title")
    if title not in title_options(state):
        raise IllegalCommand(f"{title!r} is not a title open to this tie; choose one of "
                             f"{', '.join(title_options(state))}")
    em = Emitter(state)
    em("TitleChosen", player=player, title=title)
    advance(em)
    return em.events


def _acting(state: SeaFallState, cmd: Command, step: int, doing: str) -> str:
    if state.end_step != step or not state.end_order:
        raise IllegalCommand(f"the end of the game is not at the step '{STEP_NAMES[step]}'")
    player = state.end_order[0]
    require_player(state, cmd, player, doing)
    return player
