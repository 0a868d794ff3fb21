"""French log lines for SeaFall events: the same events as ``log.py``, one template each.

Kept apart from the English templates so that ``tableside play`` and the golden transcripts
(which read English) never change when a French sentence is reworded. Terms follow the
French rulebook and ``web/rules/data/glossary.json`` (endeavor = test, enmity = hostilité,
fortune = chance, raid = piller, plunder = butin, flagship = vaisseau amiral, dangerous site
= lieu risqué, supply = réserve...); the sentences are our own.

Payloads carry a few English words written by the engine (a glory ``reason``, a dice-pool
line, a skipped step's reason), and so do the summaries of the commands a player may send
(``choices.py``). Those known to the engine are translated by the patterns below; anything
else (a card's proper name, a reason added later) is shown as it is rather than guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import Any

from companion.games.seafall.names_fr import advisor_name, feminine, the_advisor
from companion.games.seafall.powerwords import card_with_powers

PLAYERS: ContextVar[Mapping[str, str] | None] = ContextVar("seafall_log_players", default=None)
"""The table's players by their province's colour, while ``describe`` is given the table's
state: a province is then named by its player ("Ann's turn begins", as the pages name it),
in both languages; without a state (an exported session, ``tableside play``), by colour."""

COLOURS = {"blue": "Bleu", "green": "Vert", "gray": "Gris", "red": "Rouge",
           "yellow": "Jaune", "purple": "Violet"}
GUILDS = {"merchants": "marchands", "builders": "bâtisseurs", "explorers": "explorateurs",
          "soldiers": "soldats"}
ACTIONS = {"sail": "Naviguer", "buy": "Acheter des ressources", "sell": "Vendre des ressources",
           "repair_or_upgrade": "Réparer ou améliorer", "repair": "Réparer",
           "upgrade": "Améliorer", "build": "Construire", "explore": "Explorer",
           "research": "Rechercher", "raid": "Piller", "taxes": "Taxer"}
"""The guild actions as the rulebook names them (its guild pages, and « l’action Naviguer »)."""
STATS = {"explore": "exploration", "raid": "pillage", "sail": "navigation", "hold": "cale"}
FACES = {"standard": "succès standard", "strong": "franc succès", "weak": "faible succès",
         "blank": "vierge"}  # the glossary's, as the pages name the faces (fr.json face.*)
GOODS = {"wood": "bois", "linen": "lin", "spice": "épice", "iron": "fer"}
TITLES = {"prince": "Prince/Princesse", "duke": "Duc/Duchesse", "count": "Comte/Comtesse",
          "baron": "Baron/Baronne", "lord": "Seigneur/Dame"}
COMPONENTS = {"advisor": "Un conseiller", "upgrade": "Une amélioration",
              "structure": "Un bâtiment", "treasure": "Un trésor", "milestone": "Une étape",
              "event": "Un évènement"}
SITE_KINDS = {"unexplored": "inexploré", "explored": "exploré", "good": "lieu de ressource",
              "mine": "mine", "docks": "chantier naval", "market": "marché", "other": "autre"}
SOURCES = {"camera": "caméra", "typed": "saisis à la main", "photo": "photo",
           "empty pool": "réserve de dés vide"}
PLACES = {"warehouse": "l’entrepôt", "supply": "la réserve", "site": "le lieu"}
WHEN = {"before": "avant", "after": "après"}
DECIDED_BY = {"campaign glory": "la gloire de campagne", "milestone glory":
              "la gloire des étapes", "title": "le rang"}
END_STEPS = {1: "modifier la province", 2: "former les conseillers", 3: "garder un conseiller",
             4: "améliorer les bateaux", 5: "régler l’hostilité", 6: "noter la gloire",
             7: "attribuer les rangs"}

def _stat(word: str) -> str:
    return STATS.get(word.lower(), word)


# (pattern, French): engine-written phrases in payloads; \1.. are names kept as they are,
# ``{statN}`` marks group N as a ship value (explore, raid...) to translate, ``{colourN}`` as
# a province colour, ``{step1}`` the name of the end-of-game step numbered by group 1
_PHRASES: list[tuple[re.Pattern[str], str]] = [(re.compile(f"^{p}$"), fr) for p, fr in [
    # the one-line summaries of the commands a player may send (choices.py)
    (r"([01]) (?:die|dice) against defense (\d+) \(dangerous\)",
     r"\1 dé contre défense \2 (lieu risqué)"),
    (r"(\d+) dice against defense (\d+) \(dangerous\)", r"\1 dés contre défense \2 (lieu risqué)"),
    (r"([01]) (?:die|dice) against defense (\d+)", r"\1 dé contre défense \2"),
    (r"(\d+) dice against defense (\d+)", r"\1 dés contre défense \2"),
    (r"costs ([01]) reputation", r"coûte \1 point de réputation"),
    (r"costs (\d+) reputation", r"coûte \1 points de réputation"),
    (r"costs (\d+) gold", r"coûte \1 or"),
    (r"brings (\d+) gold", r"rapporte \1 or"),
    (r"repairs (.+); rebuilds (.+)", r"répare \1 ; reconstruit \2"),
    (r"repairs (.+)", r"répare \1"),
    (r"rebuilds (.+)", r"reconstruit \1"),
    (r"1 reputation token, if (.+) accepts", r"1 jeton Réputation, si \1 accepte"),
    (r"(.+) stops in the coastal waters \(([01]) spaces?\)",
     r"\1 s’arrête dans la zone côtière après \2 zone"),
    (r"(.+) stops in the coastal waters \((\d+) spaces\)",
     r"\1 s’arrête dans la zone côtière après \2 zones"),
    (r"(.+) stops at sea ([01]) spaces? toward (.+)",
     r"\1 s’arrête en mer après \2 zone, en direction {de3}"),
    (r"(.+) stops at sea (\d+) spaces toward (.+)",
     r"\1 s’arrête en mer après \2 zones, en direction {de3}"),
    (r"(.+) to (.+) \(([01]) spaces?\)", r"\1 {vers2} (\3 zone)"),
    (r"(.+) to (.+) \((\d+) spaces\)", r"\1 {vers2} (\3 zones)"),
    # engine-written reasons
    (r"successful explore", "exploration réussie"),
    (r"successful raid", "pillage réussi"),
    (r"upgrade (.+) returned", r"amélioration \1 rendue"),
    (r"upgrade (.+)", r"amélioration \1"),
    (r"treasure (.+): (\w+) ([+-]\d+)", r"expertise du trésor \1 : {stat2} \3"),
    (r"structure (.+): (\w+) ([+-]\d+)", r"expertise du bâtiment \1 : {stat2} \3"),
    (r"event (.+): (\w+) ([+-]\d+)", r"expertise de l’événement \1 : {stat2} \3"),
    (r"treasure (.+)'s power", r"pouvoir du trésor \1"),
    (r"structure (.+)'s power", r"pouvoir du bâtiment \1"),
    (r"event (.+)'s power", r"pouvoir de l’événement \1"),
    (r"structure (.+) returned", r"bâtiment \1 rendu"),
    (r"structure (.+)", r"bâtiment \1"),
    (r"lost advisor (.+)", r"perte du conseiller {adv1}"),
    (r"advisor (.+)'s power at a site marked (.+)", r"pouvoir du conseiller {adv1} sur un lieu \2"),
    (r"advisor (.+)'s power", r"pouvoir du conseiller {adv1}"),
    (r"advisor (.+): (\w+) \+(\d+)", r"expertise du conseiller {adv1} : {stat2} +\3"),
    (r"advisor (.+)", r"conseiller {adv1}"),
    (r"treasure (.+)", r"trésor \1"),
    (r"milestone (.+)", r"étape \1"),
    (r"lost (.+)", r"perte de \1"),
    (r"took (.+)", r"prise de \1"),
    (r"(\d+) upgrade\(s\) returned when (.+) sank",
     r"\1 amélioration(s) rendue(s) au naufrage de \2"),
    (r"flagship: (.+)'s printed (\w+)", r"vaisseau amiral : valeur imprimée ({stat2}) de \1"),
    (r"flagship: upgrade (.+)", r"vaisseau amiral : amélioration \1"),
    (r"flagship: damage card (.+)", r"vaisseau amiral : carte Dégât \1"),
    (r"flagship (\w+) cannot be below 0", r"vaisseau amiral : {stat1} jamais sous 0"),
    (r"support ship's upgrade (.+)", r"amélioration \1 du bateau en soutien"),
    (r"support ship (.+)", r"bateau en soutien \1"),
    (r"research card (.+)", r"carte Recherche \1"),
    (r"power of (.+)", r"pouvoir de \1"),
    (r"(.+)'s upgrade", r"amélioration de \1"),
    (r"garrison of (.+)", r"garnison {de1}"),
    (r"your enmity in (.+)", r"votre hostilité dans \1"),
    (r"defending ship (.+)", r"bateau défenseur \1"),
    (r"at war with (\w+): their enmity you hold",
     r"en guerre avec {colour1} : son hostilité que vous détenez"),
    (r"the flagship sank", "le vaisseau amiral a coulé"),
    (r"no success rolled", "aucun succès obtenu"),
    (r"no site's plunder value is within the successes",
     "aucune valeur de butin n’est à la portée des succès"),
    (r"no site within the successes has anything to take",
     "rien à prendre dans les lieux à la portée des succès"),
    (r"the raider chose to plunder nothing", "le pillard ne prend aucun butin"),
    (r"no advisor with an empty slot", "aucun conseiller n’a d’emplacement libre"),
    (r"no retired advisor left to train with", "plus aucun conseiller retraité disponible"),
    (r"no advisor", "aucun conseiller"),
    (r"the winner keeps only an advisor cheaper than every one kept",
     "le vainqueur ne garde qu’un conseiller moins cher que tous ceux gardés par les autres"),
    (r"absent", "absent"),
    (r"no room for a sticker on (.+)", r"plus de place pour un autocollant sur \1"),
    (r"no harvest \(no gold is placed in an absent province\)",
     "pas de récolte (aucun or n’est placé dans une province absente)"),
    (r"end of game step (\d) \((.+)\)", r"étape \1 de la fin de partie ({step1})"),
    (r"(.+) in (.+)", r"\1 dans \2"),  # a structure's garrison: keep last, it is broad
]]


# the names the setup gives when none was given (setup.py: a province's player "Blue", its
# region "Blue province", its ships "Blue ship 1"), as the pages say them in French
_SHIP_FR = {"blue": "bleu", "green": "vert", "gray": "gris", "red": "rouge", "yellow": "jaune",
            "purple": "violet"}
_PROVINCE_FR = {"blue": "bleue", "green": "verte", "gray": "grise", "red": "rouge",
                "yellow": "jaune", "purple": "violette"}
_DEFAULT_NAME = re.compile(r"(Blue|Green|Gray|Red|Yellow|Purple)(?: (ship) (\d+)| (province))?")


def default_name(name: str) -> str:
    """A name the setup gave by default, in French ("Blue ship 1": "Bateau bleu 1"); any
    other name as it is."""
    made = _DEFAULT_NAME.fullmatch(name)
    if made is None:
        return name
    colour = made[1].lower()
    if made[2]:
        return f"Bateau {_SHIP_FR[colour]} {made[3]}"
    if made[4]:
        return f"Province {_PROVINCE_FR[colour]}"
    return COLOURS[colour]


def phrase(text: object) -> str:
    """An engine-written phrase in French when it is a known one, else as it is."""
    text = str(text)
    for pattern, french in _PHRASES:
        match = pattern.match(text)
        if match is None:
            continue
        out = _with_names(french, match)
        for i, group in enumerate(match.groups(), start=1):
            out = (out.replace(f"{{stat{i}}}", _stat(group))
                   .replace(f"{{colour{i}}}", _who(group))
                   .replace(f"{{adv{i}}}", advisor_name(group))
                   .replace(f"{{de{i}}}", de(default_name(group or "")))
                   .replace(f"{{vers{i}}}", vers(default_name(group or ""))))
        if "{step1}" in out:
            out = out.replace("{step1}", END_STEPS.get(int(match.group(1)), match.group(2)))
        return out
    return text


def de(name: str) -> str:
    """« de » before a place's name as French says it: « de la province bleue » for a
    province the setup named, « d’Example isle A » before a vowel, « de Tortuga »."""
    return _joined("de", "d’", "de la", name)


def to(name: str) -> str:
    """« à » before a place's name: « à la province bleue », « à Example isle A »."""
    return _joined("à", "à ", "à la", name)


def vers(name: str) -> str:
    """« vers » before a place's name: « vers la province bleue », « vers l’Île aux Épices »,
    « vers Tortuga »."""
    return _joined("vers", "vers ", "vers la", name)


def _isle(name: str) -> bool:
    """A name that begins with the word « Île » (« Île aux Épices »): French says it with its
    article, « l’Île aux Épices », as it would « l’île »; no other name is given one."""
    return re.match(r"[ÎI]le\s+\S", name) is not None


def _joined(word: str, elided: str, feminine: str, name: str) -> str:
    if name.startswith("Province ") and name[9:] in _PROVINCE_FR.values():
        return f"{feminine} province {name[9:]}"
    if _isle(name):
        return f"{word} l’{name}"
    if name.startswith("le "):  # a place said with its article: « du port d’attache vert »
        return {"de": "du", "à": "au", "vers": "vers le"}[word] + name[2:]
    if name[:1].lower() in "aeiouyàâéèêëîïôöùûü" and elided.endswith("’"):  # not before h
        return f"{elided}{name}"
    return f"{word} {name}"


def aboard(ship: str) -> str:
    """« à bord » of a ship: « à bord du Bateau vert 1 » (a name the setup gave, « le
    bateau »), « à bord de The Gull », « d’Elsa »."""
    return f"à bord du {ship}" if ship.startswith("Bateau ") else f"à bord {de(ship)}"


def _with_names(french: str, match: re.Match[str]) -> str:
    """``french`` with each ``\\N`` the phrase's group N, a name the setup gave by default
    said in French (:func:`default_name`), each of a list of names too ("Blue ship 1, Blue
    ship 2")."""
    names = [", ".join(map(default_name, g.split(", "))) if g is not None else ""
             for g in match.groups()]
    return re.sub(r"\\(\d)", lambda ref: names[int(ref[1]) - 1], french)


def _who(colour: Any) -> str:
    if not colour:
        return "La table"
    player = (PLAYERS.get() or {}).get(str(colour))
    if player:
        return default_name(player)
    text = str(colour)
    return COLOURS.get(text, titled(text))


def titled(text: str) -> str:
    """A colour id titled ("blue": "Blue"); a name (a region's, as named) as it is."""
    return text if text != text.lower() else text.title()


def _of(colour: Any) -> str:
    """« de Rouge », « d’Éloïse » — the province a thing belongs to."""
    return de(_who(colour))


def _n(count: int, one: str, many: str | None = None) -> str:
    # French: 0 and 1 take the singular
    return f"{count} {one if abs(count) < 2 else (many or one + 's')}"


def _list(items: Any, words: Mapping[str, str] | None = None) -> str:
    return ", ".join(words.get(i, i) if words else str(i) for i in items)


def _good(good: Any) -> str:
    return GOODS.get(str(good), str(good))


THE_GOODS = {"wood": "le bois", "linen": "le lin", "spice": "l’épice", "iron": "le fer"}
"""A good with its article, as the rulebook lists them (« le bois, le lin, l’épice et le
fer »)."""


def listed(names: list[str], lang: str = "fr") -> str:
    """"A", "A and B", "A, B and C" (« et » in French), as the pages' lists read."""
    last = names[-1]
    return f"{', '.join(names[:-1])} {'et' if lang == 'fr' else 'and'} {last}" if names[:-1] \
        else last


def counted(goods: Any) -> list[tuple[str, int]]:
    """Each good of a list once, with how many of it, in the order they come."""
    out: dict[str, int] = {}
    for good in goods:
        out[str(good)] = out.get(str(good), 0) + 1
    return list(out.items())


def goods_listed(goods: Any) -> str:
    """Goods as a sentence lists them: « le lin et le bois », « le fer et 2 cubes de bois »
    (the rulebook's « cube de fer »)."""
    return listed([THE_GOODS.get(g, g) if n == 1 else f"{n} cubes {de(_good(g))}"
                   for g, n in counted(goods)])


def pool_line(reason: str, dice: int) -> str:
    """A pool line (either language): its reason and its dice, but once when the reason
    says them ("advisor Woodsman: explore +1", where "... explore +1 +1" was written)."""
    amount = f"{dice:+d}"
    return reason if reason.endswith(" " + amount) else f"{reason} {amount}"


def _card_name(p: Mapping[str, Any]) -> str:
    name = p["card"]["name"]
    return advisor_name(name) if p["kind"] == "advisor" else str(name)


def _place(where: Any) -> str:
    return PLACES.get(str(where), str(where))


def _started(p: Mapping[str, Any]) -> str:
    what = p["site"] if p.get("site") else f"la province {_of(p['target'])}"
    verb = "explore" if p["kind"] == "explore" else "pille"
    pool = " ; ".join(pool_line(phrase(line["reason"]), line["dice"]) for line in p["pool"])
    return (f"{_who(p['player'])} {verb} {what} avec le vaisseau amiral {p['flagship']} "
            f"(défense {p['defense']}{', lieu risqué' if p['dangerous'] else ''}) : "
            f"{_n(p['dice'], 'dé')} [{pool}]")


def _counted(p: Mapping[str, Any]) -> str:
    parts = [f"{p['rolled']} aux dés"]
    if p["fortune"]:
        parts.append(f"{p['fortune']} grâce à la chance")
    if p["bonus"]:
        parts.append(f"{p['bonus']} grâce aux pouvoirs")
    text = f"{_n(p['successes'], 'succès', 'succès')} ({', '.join(parts)}) pour une " \
           f"défense de {p['defense']}"
    if p.get("strong_reduction"):
        text += f" ; les francs succès évitent {p['strong_reduction']}"
    return text + (f" : {_n(p['damage'], 'dégât')}." if p["damage"] else " : aucun dégât.")


def _sailed(p: Mapping[str, Any]) -> str:
    if "elsewhere" in p:  # d’une zone de mer à une autre, dites de même (log._named)
        text = (f"{p['ship']} navigue en mer vers une autre zone de mer"
                + (f" {p['elsewhere']}" if p["elsewhere"] else "")
                + f" ({_n(len(p['path']), 'zone')} sur {p['sail']})")
    else:
        text = (f"{p['ship']} navigue {de(str(p['start']))} {to(str(p['to']))} "
                f"({_n(len(p['path']), 'zone')} sur {p['sail']})")
    if p.get("together_with"):
        text += f", accompagné {de(p['together_with'])}"
    if p.get("unchecked"):
        text += f" ; trajet non vérifié sur la carte : {', '.join(p['unchecked'])}"
    return text + "."


def _noted(p: Mapping[str, Any]) -> str:
    parts = []
    if p["milestone_glory"]:
        parts.append("gloire des étapes " + ", ".join(
            f"{_who(c)} {g}" for c, g in p["milestone_glory"].items()))
    if p["absent"]:
        parts.append("absents " + ", ".join(_who(c) for c in p["absent"]))
    return f"Les chroniques notent pour la partie {p['game']} : {' ; '.join(parts)}."


def _improved(p: Mapping[str, Any]) -> str:
    site = p.get("site")  # by its id, or named ("le champ 1 de Province bleue")
    what = {"field": (f"le champ {site}" if "/" in str(site) else str(site))
            + f" à {p.get('value')} or",
            "garrison": f"la garnison {de(str(p.get('region')))} à {p.get('value')}",
            "reputation": f"la réputation de son leadeur à {p.get('value')}",
            "fortune": f"la chance de son leadeur à {p.get('value')}",
            "appellation": f"son leadeur avec le titre « {p.get('name')} »"}[p["kind"]]
    return f"{_who(p['player'])} modifie {what}."


def _repaired(p: Mapping[str, Any]) -> str:
    text = f"{p['ship']} est réparé"
    if p.get("free"):
        text += " (sans action)"
    if p["refreshed"]:
        text += f", en redressant {', '.join(p['refreshed'])}"
    if p["dismissed"]:
        text += f", en rejetant {_n(len(p['dismissed']), 'carte Dégât', 'cartes Dégât')}"
    return text + "."


def _sank(p: Mapping[str, Any]) -> str:
    text = f"{p['ship']} coule"
    if p["upgrades"]:
        text += f", rendant {', '.join(p['upgrades'])}"
    if p["goods"]:
        text += f"{' et' if p['upgrades'] else ','} perdant {goods_listed(p['goods'])}"
    return text + "."


TEMPLATES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "GameSetUp": lambda p: "Une nouvelle partie de SeaFall est mise en place.",
    "ComponentAdded": lambda p: f"{COMPONENTS.get(p['kind'], p['kind'])} entre en jeu : "
                                f"{_card_name(p)}"
                                + (" (dans le coffret de rangement)" if p.get("bagged") else "")
                                + ".",
    "IslandAdded": lambda p: "Une nouvelle île apparaît sur la carte : "
                             f"{p['island'].get('name') or p['island'].get('id')}.",
    "LeaderSet": lambda p: f"{_who(p['player'])} prend la réputation et la chance de sa "
                           f"carte Leadeur : {p['reputation']} et {p['fortune']}.",
    "WinterBegan": lambda p: f"Hiver de l’année {p['year']}.",
    "AstrolabeGiven": lambda p: f"{_who(p['player'])} reçoit l’astrolabe et la pioche "
                                "Évènement (le moins de gloire).",
    "ForumDismissed": lambda p: "Le forum est vidé : "
                                f"{', '.join(map(advisor_name, p['advisors']))}.",
    "AdvisorDealt": lambda p: f"{the_advisor(p['advisor'], capital=True)} arrive au forum.",
    "FieldsHarvested": lambda p: f"{_who(p['player'])} récolte {p['gold']} or"
                                 + (f" ({_n(len(p['skipped']), 'champ')} sous hostilité, "
                                    "sans revenu)" if p["skipped"] else "")
                                 + (f" ({_n(len(p['fallow']), 'champ pillé', 'champs pillés')} "
                                    "depuis la dernière récolte, sans revenu)" if p.get("fallow")
                                    else "") + ".",
    "EnmityMoved": lambda p: f"{_n(p['count'], 'jeton Hostilité', 'jetons Hostilité')} "
                             f"{_of(p['owner'])} sur {p['site']} "
                             + (("part" if p["count"] < 2 else "partent")
                                + " sur la case « En guerre avec »." if p["to"] == "at_war"
                                else ("rejoint" if p["count"] < 2 else "rejoignent")
                                + " la garnison de l’île."),
    "GoodsProduced": lambda p: "Les îles produisent : "
                               f"{', '.join(p['sites']) or 'rien'}"
                               + (f" ; la réserve manque de {_list(p['short'], GOODS)}"
                                  if p["short"] else "") + ".",
    "Refreshed": lambda p: "Les conseillers, ainsi que les bâtiments et améliorations de la "
                           "réserve, sont redressés.",
    "WinterEnded": lambda p: "Fin de l’hiver.",
    "RoundBegan": lambda p: f"Début de la manche {p['round']}.",
    "EventRevealed": lambda p: f"Évènement révélé : {p['event']}.",
    "EventDismissed": lambda p: f"L’évènement {p['event']} est résolu puis rejeté.",
    "EndStepBegan": lambda p: f"Fin de partie, étape {p['step']} : "
                              f"{END_STEPS.get(p['step'], p['name'])}.",
    "ProvinceImproved": _improved,
    "AdvisorTrained": lambda p: f"{_who(p['player'])} forme {the_advisor(p['advisor'])} grâce à "
                                f"{the_advisor(p['retired'])}.",
    "TrainingSkipped": lambda p: f"{_who(p['player'])} ne forme aucun conseiller "
                                 f"({phrase(p['reason'])}).",
    "AdvisorKept": lambda p: f"{_who(p['player'])} garde {the_advisor(p['advisor'])}."
                             if p["advisor"] else f"{_who(p['player'])} ne garde aucun conseiller "
                                  f"({phrase(p['reason'])}).",
    "ShipImproved": lambda p: f"{_who(p['player'])} améliore la valeur de "
                              f"{STATS.get(p['stat'], p['stat'])} {de(p['ship'])}."
                              if p["ship"] else f"Les bateaux {_of(p['player'])} sont "
                                                "tous au maximum.",
    "EnmitySettlingBegan": lambda p: f"{_who(p['player'])} lance {_n(p['dice'], 'dé')} "
                                     "pour régler son hostilité.",
    "EnmityRolled": lambda p: f"{_who(p['player'])} obtient "
                              f"{_n(p['successes'], 'succès', 'succès')}.",
    "EnmityTakenBack": lambda p: f"{_who(p['player'])} reprend un jeton sur {p['location']}.",
    "StickerCrossedOut": lambda p: f"{_who(p['player'])} raye un autocollant sur "
                                   f"{p['region']}.",
    "EnmitySpendingDone": lambda p: f"{_who(p['player'])} ne dépense plus de succès.",
    "TokensBecomeStickers": lambda p: f"Les jetons restants {_of(p['player'])} deviennent des "
                                      f"autocollants sur {', '.join(p['regions'])}.",
    "StickerPlaced": lambda p: f"{_who(p['player'])} colle un autocollant sur {p['region']}"
                               + (f", par-dessus un autocollant {_of(p['covered'])}"
                                  if p["covered"] else "") + ".",
    "StickerLost": lambda p: f"{p['region']} est déjà couverte d’autocollants "
                             f"{_of(p['player'])}.",
    "EnmitySettled": lambda p: f"L’hostilité {_of(p['player'])} est réglée.",
    "EnmityRollPassedBy": lambda p: f"{_who(p['player'])} n’a aucun jeton d’hostilité sorti "
                                    + ("ni autocollant à rayer" if not p["stickers"] else
                                       f"et {_n(p['dice'], 'dé')} ne peut faire les 2 succès "
                                       "qui rayent un autocollant")
                                    + " : pas de lancer pour l’hostilité.",
    "GloryRecorded": lambda p: "Gloire notée : " + ", ".join(
        f"{_who(c)} {g} (campagne {p['campaign'][c]})" for c, g in p["glory"].items()) + ".",
    "TitlesRanked": lambda p: "Rangs selon la gloire de campagne : " + " ; ".join(
        "/".join(_who(c) for c in b["players"]) + " : "
        + " ou ".join(TITLES.get(t, t) for t in b["titles"])
        for b in p["blocks"]) + ".",
    "TitleChosen": lambda p: f"{_who(p['player'])} prend le rang "
                             f"{TITLES.get(p['title'], p['title'])}.",
    "GameRecorded": lambda p: f"La partie {p['game']} est inscrite dans la campagne.",
    "AbsentPassedBy": lambda p: f"{_who(p['player'])} est absent : {phrase(p['what'])}.",
    "HistoryNoted": _noted,
    "EmperorCrowned": lambda p: "L’île du bout du monde est découverte : la campagne "
                                f"s’achève et {_who(p['player'])} devient Empereur/Impératrice "
                                f"(départagé par "
                                f"{DECIDED_BY.get(p['decided_by'], p['decided_by'])}).",
    "GameEnded": lambda p: f"Fin de la partie : {_who(p['winner'])} l’emporte avec "
                           f"{_n(p['glory'][p['winner']], 'point')} de gloire "
                           f"(objectif {p['target']}).",
    "TurnStarted": lambda p: f"Début du tour {_of(p['player'])}.",
    "TurnEnded": lambda p: f"Fin du tour {_of(p['player'])}.",
    "AdvisorActivated": lambda p: f"{_who(p['player'])} active {the_advisor(p['advisor'])}.",
    "AdvisorExhausted": lambda p: f"{the_advisor(p['advisor'], capital=True)} "
                                  f"({_who(p['player'])}) est épuisé"
                                  f"{'e' if feminine(p['advisor']) else ''}.",
    "ActionTaken": lambda p: f"{_who(p['player'])} choisit l’action « "
                             f"{ACTIONS.get(p['action'], p['action'].replace('_', ' '))} ».",
    "AdvisorHired": lambda p: f"{_who(p['player'])} engage {the_advisor(p['advisor'])} pour "
                              + (f"{p['gold']} or." if p["reputation"] == 0
                                 else _n(p['reputation'], 'jeton Réputation',
                                         'jetons Réputation') + "."),
    "TreasureBought": lambda p: f"{_who(p['player'])} achète {p['treasure']} pour "
                                f"{p['gold']} or.",
    "MilestoneClaimed": lambda p: f"{_who(p['player'])} remplit l’étape {p['milestone']}"
                                  + (f" ; {', '.join(p['events'])} rejoignent la pioche "
                                     "Évènement" if p["events"] else "") + ".",
    "ReputationGiven": lambda p: f"{_who(p['player'])} donne un jeton Réputation à "
                                 f"{_who(p['to'])} pour utiliser les pouvoirs "
                                 f"{de(p['region'])} ce tour-ci.",
    "GuildHired": lambda p: f"{_who(p['player'])} engage la guilde des "
                            f"{GUILDS.get(p['guild'], p['guild'])}.",
    "EndeavorStarted": _started,
    "DiceRolled": lambda p: ("Dés saisis à la main" if p.get("source", "typed") == "typed"
                             else f"Dés lus ({SOURCES.get(p['source'], p['source'])})")
                            + f" : {_list(p['faces'], FACES) or 'aucun dé'}.",
    "RerollRequired": lambda p: f"Relancer {_n(len(p['indices']), 'dé')} "
                                f"({_list(p['kinds'], FACES)}).",
    "DiceRerolled": lambda p: f"Dés relancés : {_list(p['faces'], FACES)}.",
    "FortuneOffered": lambda p: f"Jusqu’à {_n(p['maximum'], 'jeton Chance', 'jetons Chance')} "
                                + ("peut être dépensé." if p["maximum"] < 2
                                   else "peuvent être dépensés."),
    "FortuneSpent": lambda p: f"{_who(p['player'])} dépense "
                              f"{_n(p['amount'], 'jeton Chance', 'jetons Chance')}.",
    "SuccessesCounted": _counted,
    "UpgradeExhausted": lambda p: f"{p['ship']} épuise {p['upgrade']} pour encaisser un dégât.",
    "DamageCardDrawn": lambda p: f"{p['ship']} reçoit une carte Dégât"
                                 + (f" ({p['card']})." if p["card"] != "damage" else "."),
    "HoldOverloaded": lambda p: f"La cale {de(p['ship'])} dépasse sa valeur.",
    "GoodsReturned": lambda p: f"{p['ship']} rend {goods_listed(p['goods'])} à la réserve.",
    "ShipSank": _sank,
    "GloryChanged": lambda p: f"{_who(p['player'])} "
                              f"{'gagne' if p['amount'] > 0 else 'perd'} "
                              f"{_n(abs(p['amount']), 'point')} de gloire "
                              f"({phrase(p['reason'])}).",
    "EndeavorFailed": lambda p: f"Le test échoue : {phrase(p['reason'])}.",
    "EndeavorSucceeded": lambda p: "Le test réussit.",
    "EndeavorEnded": lambda p: "Le test est terminé.",
    "SiteExplored": lambda p: f"{p['site']} est exploré.",
    "SiteRecorded": lambda p: f"{p['site']} est noté comme {SITE_KINDS.get(p['kind'], p['kind'])}"
                              + (f" ({_good(p['colour'])})" if p.get("colour") else "")
                              + (f", valeur {p['value']} or" if p.get("value") else "") + ".",
    "PlunderChosen": lambda p: f"Butin pris sur {p['site']}.",
    "PlunderSkipped": lambda p: f"Aucun butin : {phrase(p['reason'])}.",
    "PlunderStepDone": lambda p: "Butin pris.",
    "GoldTaken": lambda p: f"{_who(p['player'])} prend {p['amount']} or"
                           + (f" à {_who(p['from_player'])}" if p.get("from_player") else "")
                           + ".",
    "GoodsSeized": lambda p: f"Butin en ressources : {_list(p['goods'], GOODS) or 'rien'}.",
    "GoodLoaded": lambda p: f"Une ressource ({_good(p['good'])}) est chargée "
                            f"{aboard(p['ship'])}.",
    "GoodLeft": lambda p: f"Une ressource ({_good(p['good'])}) reste sur place (cale pleine).",
    "UpgradeSeized": lambda p: f"{p['ship']} récupère l’amélioration {p['upgrade']}"
                               + (f", en rendant {p['replaced']}" if p.get("replaced") else "")
                               + ".",
    "StructureRaided": lambda p: f"{p['structure']} sur {p['site']} retourne à la réserve, "
                                 "épuisé.",
    "AdvisorSeized": lambda p: f"{_who(p['player'])} "
                               f"{'prend' if p['keep'] else 'rejette'} {the_advisor(p['advisor'])} "
                               f"à {_who(p['from_player'])}"
                               + ("" if p["keep"] else " sous la pioche des conseillers")
                               + ".",
    "CardSeized": lambda p: f"{_who(p['player'])} prend {p['card']} "
                            f"à {_who(p['from_player'])}.",
    "EnmityReturned": lambda p: f"{_who(p['holder'])} rend "
                                f"{_n(p['count'], 'jeton Hostilité', 'jetons Hostilité')} "
                                f"à {_who(p['owner'])}.",
    "EnmityPlaced": lambda p: f"{_who(p['player'])} place "
                              f"{_n(p['count'], 'jeton Hostilité', 'jetons Hostilité')} "
                              f"sur {p['site']}.",
    # guild actions (companion/games/seafall/actions/)
    "ShipSailed": _sailed,
    "GoodMoved": lambda p: f"{_who(p['player'])} déplace une ressource ({_good(p['good'])}) "
                           f"de {_place(p['source'])} vers {_place(p['to'])} "
                           f"({WHEN.get(p['when'], p['when'])} la navigation).",
    "GoodBought": lambda p: f"{_who(p['player'])} achète une ressource ({_good(p['good'])}) "
                            f"sur {p['site']} pour {p['price']} or, chargée {aboard(p['ship'])}.",
    "GoodSold": lambda p: f"{_who(p['player'])} vend une ressource ({_good(p['good'])}) "
                          f"depuis {_place(p['source'])} pour {p['gold']} or"
                          + (f" ({p['bonus']} grâce à un bâtiment)" if p.get("bonus") else "")
                          + ".",
    "GoodSpent": lambda p: f"{_who(p['player'])} dépense une ressource ({_good(p['good'])}) "
                           f"depuis {_place(p['source'])} : 8 or de moins sur {p['on']}.",
    "ShipRepaired": _repaired,
    "ShipRebuilt": lambda p: f"{p['ship']} est reconstruit dans le port d’attache "
                             f"{_of(p['location'])}.",
    "UpgradeReturned": lambda p: f"{p['ship']} rend {p['upgrade']} à la réserve, épuisée.",
    "UpgradeBought": lambda p: f"{_who(p['player'])} achète {p['upgrade']} pour {p['ship']} "
                               f"({p['price']} or).",
    "StructureReturned": lambda p: f"{p['structure']} sur {p['site']} retourne à la réserve, "
                                   "épuisé.",
    "StructureBuilt": lambda p: f"{_who(p['player'])} construit {p['structure']} sur "
                                f"{p['site']} ({p['price']} or).",
    "ResearchCardKept": lambda p: f"{_who(p['player'])} paie {p['cost']} or pour rechercher "
                                  f"et garde {card_with_powers(p['card'], p.get('effects'), 'fr')}"
                                  + (f", en rejetant {', '.join(p['dismissed'])}"
                                     if p["dismissed"] else "") + ".",
    "TaxesCollected": lambda p: f"{_who(p['player'])} perçoit {p['amount']} or de taxes.",
    # written by the table itself (companion/store/records.py), not by SeaFall's rules
    "CommandUndone": lambda p: f"Action n° {p.get('command_no', '?')} annulée.",
    "CommandRedone": lambda p: f"Action n° {p.get('command_no', '?')} rétablie.",
}
