"""French refusals (refusals_fr.py): every refusal the SeaFall engine writes reads in French,
names kept, and English is untouched.

The engine's source is read for every ``IllegalCommand`` it raises; each refusal is written
out with sample values (numbers, so each can be found again) and must come out in French
with every value still in it. A few real refusals, met by playing, are checked word for word.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from companion.errors import IllegalCommand
from companion.games.seafall.engine import SeaFall
from companion.games.seafall.refusals_fr import DOING, refusal

ROOT = Path(__file__).resolve().parents[4]
SOURCES = sorted((ROOT / "companion/games/seafall").rglob("*.py")) + [ROOT / "companion/table.py"]
# values whose words the pattern needs (an endeavor's kind, what it waits for, a doing)
WORD = re.compile(r"[A-Za-z]{5,}")
KEPT = {"replace", "forum", "SeaFall", "record", "field",  # said as the command says
        "province", "provinces", "action", "actions", "prologue", "absent"}  # French too
DOMAIN = {"end.kind": "raid", "_waiting_for(end)": "a decision on fortune",
          "doing": "hiring a guild"}


def _render(node: ast.expr, source: str, counter: list[int]) -> str:
    """The refusal an f-string (or a concatenation of strings) writes, each value a fresh
    number (or the DOMAIN word its expression needs)."""
    if isinstance(node, ast.Constant):
        return str(node.value)
    if isinstance(node, ast.BinOp):
        return _render(node.left, source, counter) + _render(node.right, source, counter)
    if isinstance(node, ast.JoinedStr):
        return "".join(_render(part, source, counter) for part in node.values)
    if isinstance(node, ast.FormattedValue):
        expr = ast.get_source_segment(source, node.value) or ""
        if expr in DOMAIN:
            return DOMAIN[expr]
        counter[0] += 1
        value = str(10 + counter[0])
        return repr(value) if node.conversion == ord("r") else value
    counter[0] += 1  # a call such as ", ".join(...): a list of names
    return str(10 + counter[0])


def engine_refusals() -> list[tuple[str, str]]:
    """(where, the English refusal with sample values) for every IllegalCommand raised."""
    found = []
    for path in SOURCES:
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "IllegalCommand"
                    and node.args):
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                found.append((where, _render(node.args[0], source, [0])))
    return found


REFUSALS = engine_refusals()


def test_the_engine_refuses_in_many_ways():
    assert len(REFUSALS) > 120  # the scan finds the refusals, not an empty list


@pytest.mark.parametrize(("where", "english"), REFUSALS, ids=[w for w, _ in REFUSALS])
def test_every_refusal_of_the_engine_reads_in_french_with_its_values(where, english):
    french = refusal(english)
    assert french != english, f"{where}: no French for {english!r}"
    values = [word.strip(".,;:()'") for word in english.split()]
    for value in (v for v in values if v.isdigit() and int(v) > 10):
        assert value in french, f"{where}: {value} lost from {french!r}"
    assert "{" not in french and "}" not in french, french
    left = set(WORD.findall(english)) & set(WORD.findall(french)) - KEPT  # a broad pattern
    assert not left, f"{where}: English left in {french!r}"  # matched a narrower refusal


def _doings() -> list[str]:
    """Every 'doing' phrase passed to the helpers that refuse another province's player."""
    takes = {"require_player": 3, "start_action": 3, "_acting": 3, "_first_step": 2}
    out = []
    for path in SOURCES:
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in takes:
                arg = node.args[takes[node.func.id]]
                if isinstance(arg, ast.Constant):
                    out.append(arg.value)
                elif isinstance(arg, ast.JoinedStr):  # "answering red's raid"
                    out.append(_render(arg, source, [0]).replace("11", "red"))
    return out


@pytest.mark.parametrize("doing", _doings())
def test_what_a_player_was_doing_is_said_in_french(doing):
    english = f"{doing} is Ann's (red) to do, not Bob's (blue)"
    french = refusal(english)
    assert french.endswith("revient à Ann (Rouge), pas à Bob (Bleu)")
    assert doing not in french


def test_doing_words_have_no_unused_entries():
    assert set(DOING) <= set(_doings())


def test_real_refusals_read_in_french_word_for_word(game):
    """Refusals met in play (rulebook, "Forum" and "Guild actions": an advisor hired before
    the guild, two guild actions a turn)."""
    g = game({"provinces": [{"colour": "red", "player": "Ann", "gold": 1},
                            {"colour": "blue", "player": "Bob"}],
              "forum": ["Savage", "Madman", "Brute", "Captain"]})
    engine = SeaFall()

    def refused(type_: str, actor: str | None = None, **args: object) -> str:
        with pytest.raises(IllegalCommand) as caught:
            g.do(type_, actor, **args)
        return engine.refusal(str(caught.value), lang="fr")

    assert refused("hire_advisor", advisor="Savage") == "Ann a 1 or ; Savage coûte 3"
    assert refused("end_turn", actor="blue") == \
        "finir le tour revient à Ann (Rouge), pas à Bob (Bleu)"
    assert refused("sail", moves=[{"ship": "red-1", "path": ["coastal_waters"]}]) == \
        "Ann doit engager la guilde des marchands pour naviguer"
    g.do("hire_guild", guild="soldiers")
    assert refused("hire_guild", guild="merchants") == \
        "Ann a déjà engagé la guilde des soldats ce tour-ci"
    assert refused("hire_advisor", advisor="Madman") == \
        "on engage un conseiller ou on achète un trésor avant d’engager une guilde"


def test_a_rolls_faces_that_do_not_fit_it_read_in_french(game):
    """A read confirmed with more dice than the pool has left (a phone's photo of 6 dice for
    a roll of 2) is refused with a 400, not a 409: said in French all the same (its page
    showed "the pool has 2 dice left to roll, got 6"), and in English with one die."""
    from companion.errors import InvalidCommand

    g = game({"provinces": [{"colour": "red", "ships": [{"location": "isle"}]},
                            {"colour": "blue"}],
              "islands": [{"id": "isle", "name": "Isle", "garrison": 0, "effects": [],
                           "sites": [{"name": "1", "defense": 3}]}]})
    g.do("hire_guild", guild="explorers")
    g.do("explore", flagship="red-1", site="isle/1")
    g.roll("blank")
    with pytest.raises(InvalidCommand) as caught:
        g.roll(*["blank"] * 6)
    assert str(caught.value) == "the pool has 1 die left to roll, got 6"
    assert SeaFall().refusal(str(caught.value), lang="fr") == \
        "la réserve n’a plus que 1 dé(s) à lancer, reçu 6"
    assert SeaFall().refusal("a roll needs at least one face", lang="fr") == \
        "un lancer demande au moins une face"
    assert SeaFall().refusal("the re-roll needs exactly 2 dice, got 3", lang="fr") == \
        "la relance demande exactement 2 dé(s), reçu 3"


def test_english_and_unknown_refusals_are_left_as_they_are():
    engine = SeaFall()
    text = "Blue already hired the Soldiers guild this turn"
    assert engine.refusal(text) == text and engine.refusal(text, lang="de") == text
    assert engine.refusal("a refusal written later", lang="fr") == "a refusal written later"


def test_names_the_setup_gave_by_default_are_said_in_french_names_given_are_kept():
    assert refusal("Blue ship 1 is not at Isle A") == "Bateau bleu 1 n’est pas à Isle A"
    assert refusal("The Gull is not at Isle A") == "The Gull n’est pas à Isle A"
    assert refusal("Red already took two guild actions this turn") == \
        "Rouge a déjà fait deux actions de guilde ce tour-ci"


def _refused(g, type_: str, actor: str | None = None, **args: object) -> tuple[str, str]:
    """A command's refusal, in English and in French."""
    with pytest.raises(IllegalCommand) as caught:
        g.do(type_, actor, **args)
    return str(caught.value), SeaFall().refusal(str(caught.value), lang="fr")


def test_another_provinces_ship_is_named_as_the_history_names_it(game):
    """A ship of another province is named, and the provinces by their players, as the
    history says them (it said "ship blue-1 belongs to blue, not red")."""
    g = game({"provinces": [{"colour": "red", "ships": [{"location": "isle"}]},
                            {"colour": "blue", "ships": [{"location": "isle"}]}],
              "islands": [{"id": "isle", "name": "Isle", "garrison": 0, "effects": [],
                           "sites": [{"name": "1", "defense": 3}]}]})
    g.do("hire_guild", guild="explorers")
    assert _refused(g, "explore", flagship="blue-1", site="isle/1") == (
        "Blue ship 1 belongs to Blue, not Red", "Bateau bleu 1 appartient à Bleu, pas à Rouge")
    named = game({"provinces": [{"colour": "red", "player": "Ann"},
                                {"colour": "blue", "player": "Éloïse",
                                 "ships": [{"name": "The Gull", "location": "blue"}]}]})
    named.do("hire_guild", guild="merchants")
    assert _refused(named, "sail", moves=[{"ship": "blue-1", "path": ["coastal_waters"]}]) == (
        "The Gull belongs to Éloïse, not Ann", "The Gull appartient à Éloïse, pas à Ann")


@pytest.mark.parametrize(("location", "rock", "english", "french"), [
    pytest.param("coastal_waters", True, "the coastal waters", "dans la zone côtière",
                 id="coastal"),
    pytest.param("(1, 3, 4)", True, "the open sea 1 space from Isle and Rock",
                 "en mer, à 1 zone d’Isle et Rock", id="near two islands"),
    pytest.param("(0, 3, 3)", False, "the open sea 2 spaces from Isle",
                 "en mer, à 2 zones d’Isle", id="two spaces away"),
    pytest.param("green_harbor", True, "the green home harbor", "dans le port d’attache vert",
                 id="a home harbor no province holds"),
])
def test_a_ship_at_sea_is_said_where_it_is_as_the_history_says_it(game, location, rock,
                                                                  english, french):
    """A ship at sea, not at a region, is said where it is on the board (it said the map's
    label: "Blue ship 1 is at sea (coastal_waters), not at a region")."""
    from seafall_driver import island

    g = game({"provinces": [{"colour": "blue", "ships": [{"location": location,
                                                          "goods": ["iron"]},
                                                         {"location": location}]},
                            {"colour": "red"}],
              "islands": [island("isle", space="(2, 3, 5)")]
              + ([island("rock", space="(1, 2, 3)")] if rock else [])})
    g.do("hire_guild", guild="merchants")
    assert _refused(g, "sail", before=[{"good": "iron", "from": "blue-1", "to": "blue-2"}]) == (
        f"Blue ship 1 is in {english}, not at a region",
        f"Bateau bleu 1 est {french}, pas dans une région")


def test_a_raided_province_is_named_by_its_player(game):
    """A province raid's refusals name the raided province by its player, as the history
    does (they said "Red ship 1 is not in blue's home harbor")."""
    from seafall_driver import island

    def raid(blue: dict, red: dict) -> tuple[str, str]:
        g = game({"provinces": [{"colour": "red", **red},
                                {"colour": "blue", "ships": [{"location": "isle"}], **blue}],
                  "islands": [island()]})
        g.do("hire_guild", guild="soldiers")
        return _refused(g, "raid", flagship="red-1", province="blue")

    assert raid({}, {"ships": [{"location": "isle"}]}) == (
        "Red ship 1 is not in Blue's home harbor",
        "Bateau rouge 1 n’est pas dans le port d’attache de Bleu")
    assert raid({"player": "Éloïse"}, {"player": "Ann", "ships": [{"location": "isle"}]}) == (
        "Red ship 1 is not in Éloïse's home harbor",
        "Bateau rouge 1 n’est pas dans le port d’attache d’Éloïse")
    assert raid({}, {"enmity": 1, "ships": [{"location": "blue"}]}) == (
        "Red has 1 enmity token(s) to give; the cheapest site to plunder in Blue's province "
        "needs 2",
        "Rouge a 1 jeton(s) Hostilité à donner ; le lieu le moins cher à piller dans la "
        "province de Bleu en demande 2")


def _at_isle(game, site: dict, guild: str, **red: object):
    """Red's ship at Example isle B, whose site 1 is ``site``; ``guild`` hired."""
    from seafall_driver import island

    g = game({"provinces": [{"colour": "red", "ships": [{"location": "isle-b"}], **red},
                            {"colour": "blue"}],
              "islands": [island("isle-b", name="Example isle B",
                                 sites=[{"name": "1", "defense": 1, **site}])],
              "supply": {"goods": {"iron": 0}}})
    g.do("hire_guild", guild=guild)
    return g


RAID = ("raid", {"flagship": "red-1", "site": "isle-b/1"})


@pytest.mark.parametrize(("site", "guild", "command", "english", "french"), [
    pytest.param({}, "explorers", ("record_site", {"site": "isle-b/1", "kind": "other"}),
                 "{} has not been explored yet", "{} n’a pas encore été exploré",
                 id="record_site before exploring"),
    pytest.param({"kind": "market", "colour": "iron"}, "explorers",
                 ("record_site", {"site": "isle-b/1", "kind": "good", "colour": "iron"}),
                 "{} is already recorded as a market", "{} est déjà noté comme un marché",
                 id="record_site twice"),
    pytest.param({"kind": "other"}, "explorers",
                 ("explore", {"flagship": "red-1", "site": "isle-b/1"}),
                 "{} is already explored", "{} est déjà exploré", id="explored twice"),
    pytest.param({}, "soldiers", RAID, "{} is unexplored: explore it before raiding it",
                 "{} est inexploré : explorez-le avant de le piller", id="raid unexplored"),
    pytest.param({"kind": "explored"}, "soldiers", RAID,
                 "record what {} is (record_site) before raiding it",
                 "notez ce qu’est {} (record_site) avant de le piller", id="raid unrecorded"),
    pytest.param({"kind": "other"}, "soldiers", RAID, "{} has nothing to plunder",
                 "{} n’a aucun butin", id="raid nothing"),
    pytest.param({"kind": "mine", "value": 3, "enmity": {"blue": 1}}, "soldiers", RAID,
                 "{} already has enmity on it and cannot be raided again this year",
                 "{} porte déjà de l’hostilité : il ne peut plus être pillé cette année",
                 id="raid twice"),
    pytest.param({"kind": "good", "colour": "iron"}, "soldiers", RAID,
                 "no iron is left in the supply, so {} cannot be raided",
                 "la réserve n’a plus de fer : {} ne peut pas être pillé", id="raid no supply"),
    pytest.param({"kind": "mine", "value": 3}, "soldiers", RAID,
                 "Red has no enmity token left to place on {}; a raid needs one",
                 "Rouge n’a plus de jeton Hostilité à poser sur {} ; un pillage en demande un",
                 id="raid without a token"),
    pytest.param({"kind": "good", "colour": "linen"}, "merchants",
                 ("buy", {"goods": [{"site": "isle-b/1"}]}),
                 "there is no good cube for sale at {}", "aucune ressource n’est à vendre {}",
                 id="buy no cube"),
])
def test_an_island_site_is_named_as_the_history_names_it(game, site, guild, command, english,
                                                        french):
    """A refused command on an island's site names the site as the history does (it said
    its id: "site isle-b/1 has not been explored yet"); « à le lieu » is « au lieu »."""
    type_, args = command
    at = "au lieu 1 d’Example isle B" if type_ == "buy" else "le lieu 1 d’Example isle B"
    red = {"enmity": 0} if "token" in english else {}
    assert _refused(_at_isle(game, site, guild, **red), type_, **args) == (
        english.format("site 1 of Example isle B"), french.format(at))


def test_a_docks_site_without_an_upgrade_is_named_as_the_history_names_it(game):
    g = _at_isle(game, {"kind": "docks", "colour": "spice"}, "soldiers")
    g.state.supply.upgrades = {}  # every upgrade taken
    assert _refused(g, *RAID[:1], **RAID[1]) == (
        "no spice 10-gold upgrade is available, so site 1 of Example isle B cannot be raided",
        "aucune amélioration épice à 10 or n’est disponible : le lieu 1 d’Example isle B ne "
        "peut pas être pillé")


@pytest.mark.parametrize(("structures", "args", "english", "french"), [
    pytest.param([], {"site": "blue/field-1"},
                 "field 1 of Blue province is not a building site of Éloïse's province",
                 "le champ 1 de la province bleue n’est pas un chantier de la province "
                 "d’Éloïse", id="another province's field"),
    pytest.param([], {"site": "red/build-2", "replace": True},
                 "building site 2 of Red province is empty: there is nothing to replace",
                 "le chantier 2 de la province rouge est vide : rien à remplacer",
                 id="replace nothing"),
    pytest.param(["Gun Tower"], {"site": "red/build-1"},
                 "building site 1 of Red province holds Gun Tower: say 'replace' to return it",
                 "le chantier 1 de la province rouge porte Gun Tower : dites «\u00a0replace"
                 "\u00a0» pour le rendre", id="built on"),
    pytest.param(["Gun Tower"], {"site": "red/build-1", "replace": True},
                 "Éloïse has a free building site (building site 2 of Red province); "
                 "structures are returned only to make room",
                 "Éloïse a un chantier libre (le chantier 2 de la province rouge) ; on ne rend "
                 "un bâtiment que pour faire de la place", id="replace with room"),
])
def test_a_building_site_is_named_as_the_history_names_it(game, structures, args, english,
                                                          french):
    """A refused build names the building site as the history does (it said its id:
    "red/build-2 is empty")."""
    g = game({"provinces": [{"colour": "red", "player": "Éloïse", "gold": 10,
                             "structures": structures}, {"colour": "blue"}]})
    g.do("hire_guild", guild="builders")
    assert _refused(g, "build", structure="Port", **args) == (english, french)


def test_a_plundered_building_site_is_named_as_the_history_names_it(game):
    """« de le chantier » is « du chantier » (it said "blue/build-1 had its structure
    plundered")."""
    from seafall_driver import island

    g = game({"provinces": [
        {"colour": "red", "ships": [{"raid": 5, "location": "blue"}, {"raid": 4}],
         "active_advisor": "Savage"},
        {"colour": "blue", "ships": [{"location": "isle"}, {"location": "isle"}],
         "structures": ["Gun Tower"], "gold": 30}], "islands": [island()]})
    g.do("hire_guild", guild="soldiers")
    g.do("raid", flagship="red-1", province="blue")
    g.roll(*(["standard"] * g.state.endeavor.dice))
    g.do("plunder", choice="blue/build-1")
    g.do("plunder", choice="gold")
    g.do("end_turn")
    g.do("hire_guild", guild="builders")
    assert _refused(g, "build", structure="Port", site="blue/build-1") == (
        "building site 1 of Blue province had its structure plundered this year: it is not "
        "built on until the next winter",
        "le bâtiment du chantier 1 de la province bleue a été pillé cette année : on n’y "
        "construit plus avant l’hiver")


def test_a_milestones_claimer_and_a_reputations_taker_are_named_by_their_players(game):
    """A claimed milestone names who claimed it, and a reputation token's taker is named,
    by their players as the history does (they said "Builder was claimed by red", "blue
    does not control a region 'isle'")."""
    from seafall_driver import island

    g = game({"provinces": [{"colour": "red", "player": "Éloïse", "reputation": 1},
                            {"colour": "blue", "reputation": 1}],
              "islands": [island()], "milestones": [{"name": "Builder", "glory": 3}]})
    assert _refused(g, "give_reputation", to="blue", region="isle") == (
        "Blue does not control a region 'isle'",
        "Bleu ne contrôle pas de région «\u00a0isle\u00a0»")
    g.do("hire_guild", guild="builders")
    g.do("claim_milestone", milestone="Builder")
    g.do("end_turn")
    assert _refused(g, "claim_milestone", milestone="Builder") == (
        "Builder was claimed by Éloïse", "Builder a été revendiquée par Éloïse")
    assert SeaFall().refusal("Builder was claimed by Red", lang="fr") == \
        "Builder a été revendiquée par Rouge"


def _ann_at_isle(game, site: dict, ann: str = "Ann", **blue: object):
    """Ann's (Blue's) two ships at Isle, whose site 1 is ``site``; Cléo plays Red."""
    from seafall_driver import island

    return game({"provinces": [{"colour": "blue", "player": ann, "fortune": 2,
                                "ships": [{"location": "isle", "raid": 5, **blue},
                                          {"location": "isle"}]},
                               {"colour": "red", "player": "Cléo"}],
                 "islands": [island(sites=[{"name": "1", "defense": 3, **site}])]})


def _answering(kind: str, ann: str = "Ann") -> tuple[str, str]:
    french = {"explore": "répondre à l’exploration", "raid": "répondre au pillage"}[kind]
    whose = "d’Ann" if ann == "Ann" else "de Bleu"
    return (f"answering {ann}'s {kind} is {ann}'s (blue) to do, not Cléo's (red)",
            f"{french} {whose} revient à {'Ann' if ann == 'Ann' else 'Bleu'} (Bleu), "
            "pas à Cléo (Rouge)")


def test_answering_another_players_endeavor_names_that_player(game):
    """Cléo (Red) answering a prompt of Ann's (Blue's) endeavor is refused naming Ann, as
    the history does, in English and in French (it said "answering blue's explore is Ann's
    (blue) to do", « répondre au test (exploration) de Bleu »): the roll, the fortune, the
    damage and the goods to return of an explore; a raid's; its plunder."""
    g = _ann_at_isle(game, {}, goods=["wood", "iron"])
    g.do("hire_guild", guild="explorers")
    g.do("explore", flagship="blue-1", site="isle/1")
    assert _refused(g, "roll", "red", faces=["blank"]) == _answering("explore")
    g.roll("standard", "blank", "blank")  # one success against defense 3: fortune offered
    assert g.state.endeavor.stage == "fortune"
    assert _refused(g, "spend_fortune", "red", amount=1) == _answering("explore")
    assert _refused(g, "end_turn") == ("Ann's explore is not finished yet",
                                       "l’exploration d’Ann n’est pas finie")
    g.do("spend_fortune", amount=0)
    assert g.state.endeavor.stage == "damage"
    assert _refused(g, "assign_damage", "red", choice="card:blue-1") == _answering("explore")
    g.do("assign_damage", choice="card:blue-1")  # two damage: the second lowers the hold
    g.do("assign_damage", choice="card:blue-1", card="Holed",
         effects=[{"effect": "stat", "stat": "hold", "amount": -1}])
    assert g.state.endeavor.stage == "hold"
    assert _refused(g, "return_good", "red", choice="wood") == _answering("explore")

    g = _ann_at_isle(game, {"kind": "good", "colour": "iron", "good_present": True})
    g.do("hire_guild", guild="soldiers")
    g.do("raid", flagship="blue-1", site="isle/1")
    assert _refused(g, "roll", "red", faces=["blank"]) == _answering("raid")
    assert _refused(g, "end_turn") == ("Ann's raid is not finished yet",
                                       "le pillage d’Ann n’est pas fini")
    g.roll(*(["standard"] * g.state.endeavor.dice))
    assert g.state.endeavor.stage == "plunder"
    assert _refused(g, "plunder", "red", choice="blue-2") == (
        "choosing Ann's plunder is Ann's (blue) to do, not Cléo's (red)",
        "choisir le butin d’Ann revient à Ann (Bleu), pas à Cléo (Rouge)")


def test_answering_a_default_named_players_endeavor_names_the_province(game):
    """A player the setup named by default ("Blue") is said as the history says it."""
    g = _ann_at_isle(game, {"kind": "mine", "value": 3}, ann="Blue")
    g.do("hire_guild", guild="soldiers")
    g.do("raid", flagship="blue-1", site="isle/1")
    assert _refused(g, "roll", "red", faces=["blank"]) == _answering("raid", ann="Blue")
