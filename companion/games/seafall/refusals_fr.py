"""French for the engine's refusals: why a command was refused (``IllegalCommand``, and
the ``InvalidCommand`` of a roll's faces that do not fit it).

The engine refuses in English (the CLI, the golden transcripts and the API's ``message``
read it). A page in French shows the same refusal said in French, from the patterns below:
one per refusal the engine writes, each matching the whole English sentence, with the names
in it (players, ships, sites, cards) kept as they are, but for the names the setup gave by
default ("Blue ship 1": log_fr.default_name), and the game's words in it (a guild, an
action, a good, a province's colour) said in French. Terms follow the glossary
(``web/rules/data/glossary.json``), as ``log_fr.py`` does; the sentences are our own.

A refusal no pattern knows is left in English rather than guessed.
``tests/companion/games/seafall/test_refusals_fr.py`` finds every refusal in the engine's
source and checks that it has a pattern here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

from companion.games.seafall.log_fr import COLOURS, GOODS, GUILDS, STATS, de, default_name, to
from companion.games.seafall.names_fr import advisor_name, feminine, the_advisor
from companion.games.seafall.sitenames import french_site_name

ACTIONS = {"sail": "naviguer", "buy": "acheter des ressources", "sell": "vendre des ressources",
           "repair_or_upgrade": "réparer ou améliorer", "build": "construire",
           "research": "rechercher", "taxes": "taxer", "explore": "explorer",
           "raid": "piller"}
KINDS = {"explore": "exploration", "raid": "pillage"}  # an endeavor's kind
ANSWERING = {"explore": "répondre à l’exploration", "raid": "répondre au pillage"}
DOING = {  # what a player was doing when another province's player was refused
    "hiring a guild": "engager une guilde", "activating an advisor": "activer un conseiller",
    "ending the turn": "finir le tour", "repairing": "réparer", "sailing": "naviguer",
    "buying goods": "acheter des ressources", "selling goods": "vendre des ressources",
    "researching": "rechercher", "collecting taxes": "taxer",
    "upgrading a ship": "améliorer un bateau", "building": "construire",
    "rolling for enmity": "lancer les dés d’hostilité", "settling enmity": "régler l’hostilité",
    "placing a sticker": "coller un autocollant", "choosing a title": "choisir un rang",
    "claiming a milestone": "revendiquer une étape",
    "giving reputation": "donner de la réputation", "exploring": "explorer",
    "raiding": "piller", "improving the province": "modifier la province",
    "training an advisor": "former un conseiller", "keeping an advisor": "garder un conseiller",
    "improving a ship": "améliorer un bateau", "hiring an advisor": "engager un conseiller",
    "buying a treasure": "acheter un trésor", "revealing the event": "révéler l’événement",
}
WAITING = {"a decision on fortune": "une décision sur la chance",
           "damage to be assigned": "la répartition des dégâts",
           "goods to be returned": "les ressources à rendre",
           "plunder to be chosen": "le choix du butin"}
STEPS = {"improve the province": "modifier la province", "train advisors":
         "former les conseillers", "keep an advisor": "garder un conseiller",
         "improve ships": "améliorer les bateaux", "determine enmity": "régler l’hostilité",
         "record glory": "noter la gloire", "assign titles": "attribuer les rangs"}
STICKERS = {"a good site": "un lieu de ressource", "a mine": "une mine",  # turn.STICKERS
            "docks": "un chantier naval", "a market": "un marché", "something else": "autre chose"}
WHY = {"games played": "parties jouées", "games missed": "parties manquées",
       "game played": "partie jouée", "game missed": "partie manquée"}
Q = ("«\u00a0", "\u00a0»")  # French quotation marks, kept with what they quote


def _colour(word: str) -> str:
    return COLOURS.get(word, word)


def _doing(text: str) -> str:
    if text in DOING:
        return DOING[text]
    # an endeavor's prompt, its player named as the history names them: « d’Ann », « de Bleu »
    answering = re.fullmatch(r"answering (.+)'s (explore|raid)", text)
    if answering:
        return f"{ANSWERING[answering[2]]} {de(default_name(answering[1]))}"
    plunder = re.fullmatch(r"choosing (.+)'s plunder", text)
    if plunder:
        return f"choisir le butin {de(default_name(plunder[1]))}"
    goods = re.fullmatch(r"returning (.+)'s goods", text)
    if goods:
        return f"rendre les ressources {de(default_name(goods[1]))}"
    return text


def _waiting(text: str) -> str:
    dice = re.fullmatch(r"(\d+) dice to be (re-)?rolled", text)
    if dice:
        return f"{dice[1]} dé(s) à {'relancer' if dice[2] else 'lancer'}"
    return WAITING.get(text, text)


def _sea(text: str) -> str:
    """A space at sea as the history names it in English (seaspaces.sea_name), in French
    with the word that says where: « dans la zone côtière », « en mer »."""
    if text == "the coastal waters":
        return "dans la zone côtière"
    if text == "the open sea":
        return "en mer"
    harbor = re.fullmatch(r"the (\w+) home harbor", text)
    if harbor:
        return f"dans le port d’attache {_colour(harbor[1]).lower()}"
    near = re.fullmatch(r"the open sea (\d+) spaces? from (.+)", text)
    if near:
        spaces, places = int(near[1]), near[2].rsplit(" and ", 1)
        return (f"en mer, à {spaces} zone{'s' if spaces > 1 else ''} "
                f"{de(' et '.join(places))}")
    return f"dans {text}"


def _quoted(text: str) -> str:
    """A value the engine quoted with repr (a choice, a card's name) in French quotes."""
    quoted = len(text) > 1 and text[0] == text[-1] and text[0] in "'\""
    return f"{Q[0]}{text[1:-1]}{Q[1]}" if quoted else text


WORDS: dict[str, Callable[[str], str]] = {
    "colour": _colour,
    "good": lambda w: GOODS.get(w, w),
    "guild": lambda w: GUILDS.get(w.lower(), w),
    "action": lambda w: ACTIONS.get(w, w),
    "kind": lambda w: KINDS.get(w, w),
    "stat": lambda w: STATS.get(w, w),
    "doing": _doing,
    "waiting": _waiting,
    "step": lambda w: STEPS.get(w, w),
    "why": lambda w: WHY.get(w, w),
    "sticker": lambda w: STICKERS.get(w, w),
    "q": _quoted,
    "sea": _sea,
    "de": lambda w: de(default_name(w)),  # « de Vert », « d’Éloïse »
    # a site as the history names it ("site 1 of Example isle B"), with its article:
    # « le lieu 1 d’Example isle B », « du chantier 1 de la province bleue », « au lieu 1 … »
    "site": french_site_name,
    "ofsite": lambda w: de(french_site_name(w)),
    "atsite": lambda w: to(french_site_name(w)),
    # an advisor by its French name where it has one (names_fr): alone, « Capitaine »; with
    # its article, « la Capitaine »; a word agreeing with it (« placée », « engagez-la »)
    "adv": lambda w: advisor_name(default_name(w)),
    "theadv": lambda w: the_advisor(default_name(w)),
    "e": lambda w: "e" if feminine(w) else "",
    "le": lambda w: "la" if feminine(w) else "le",
}

# (English refusal as a pattern, French): ``{N}`` is group N as it is; ``{word:N}`` is group N
# said in French by WORDS[word] (a colour, a good, a guild...). Patterns match the whole
# refusal and are tried in order, so a narrower one comes before a broader one.
_REFUSALS: list[tuple[str, str]] = [
    # the table (companion/table.py)
    (r"there is nothing to undo", "il n’y a rien à annuler"),
    (r"there is nothing to redo", "il n’y a rien à rétablir"),
    # a roll's faces that do not fit it (endeavor.py; InvalidCommand, said the same way)
    (r"the pool has (\d+) (?:die|dice) left to roll, got (\d+)",
     "la réserve n’a plus que {1} dé(s) à lancer, reçu {2}"),
    (r"the re-roll needs exactly (\d+) (?:die|dice), got (\d+)",
     "la relance demande exactement {1} dé(s), reçu {2}"),
    (r"a roll needs at least one face", "un lancer demande au moins une face"),
    # whose turn, whose command (args.py, turn.py, engine.py)
    (r"(.+) is (.+)'s \((\w+)\) to do, not (.+)'s \((\w+)\)",
     "{doing:1} revient à {2} ({colour:3}), pas à {4} ({colour:5})"),
    (r"(.+) belongs to (.+), not (.+)", "{1} appartient à {2}, pas à {3}"),
    (r"the game has not been set up", "la partie n’est pas encore mise en place"),
    (r"no turn is in progress", "aucun tour n’est en cours"),
    (r"(.+)'s explore is not finished yet", "l’exploration {de:1} n’est pas finie"),
    (r"(.+)'s raid is not finished yet", "le pillage {de:1} n’est pas fini"),
    (r"(.+) must hire the (\w+) guild to (\w+)",
     "{1} doit engager la guilde des {guild:2} pour {action:3}"),
    (r"(\w+) is not an action of the (\w+) guild that (.+) hired",
     "{Q0}{action:1}{Q1} n’est pas une action de la guilde des {guild:2} engagée par {3}"),
    (r"(.+) already took the (\w+) action this turn",
     "{1} a déjà fait l’action {Q0}{action:2}{Q1} ce tour-ci"),
    (r"(.+) already took two guild actions this turn",
     "{1} a déjà fait deux actions de guilde ce tour-ci"),
    (r"(.+) already hired the (\w+) guild this turn",
     "{1} a déjà engagé la guilde des {guild:2} ce tour-ci"),
    (r"advisors are activated before a guild is hired",
     "un conseiller s’active avant d’engager une guilde"),
    (r"(.+) already has (.+) active", "{1} a déjà {theadv:2} comme conseiller actif"),
    (r"(.+) has no advisor (.+) in the council room",
     "{1} n’a pas de conseiller {adv:2} dans sa salle du conseil"),
    (r"(.+) is exhausted until winter", "{theadv:1} est épuisé{e:1} jusqu’à l’hiver"),
    (r"only island sites are explored", "seuls les lieux des îles s’explorent"),
    (r"(.+) has not been explored yet", "{site:1} n’a pas encore été exploré"),
    (r"(.+) is already recorded as (.+)", "{site:1} est déjà noté comme {sticker:2}"),
    # the forum (forum.py)
    (r"advisors are hired and treasures bought before hiring a guild",
     "on engage un conseiller ou on achète un trésor avant d’engager une guilde"),
    (r"advisors are hired and treasures bought before activating one",
     "on engage un conseiller ou on achète un trésor avant d’en activer un"),
    (r"(.+) already hired an advisor or bought a treasure this turn",
     "{1} a déjà engagé un conseiller ou acheté un trésor ce tour-ci"),
    (r"(.+) bought a treasure this turn: no advisor can be hired too \(hire advisors or buy "
     r"a treasure, not both\)",
     "{1} a acheté un trésor ce tour-ci : pas de conseiller à engager en plus (on "
     "engage des conseillers ou on achète un trésor, pas les deux)"),
    (r"(.+) has no reputation cost: hire it with gold",
     "{theadv:1} n’a pas de coût en réputation : engagez-{le:1} avec de l’or"),
    (r"(.+) is not in the forum", "{theadv:1} n’est pas au forum"),
    (r"(.+) is not among the treasures for sale", "{1} n’est pas parmi les trésors en vente"),
    (r"(.+) has no colour: no good discounts it",
     "{1} n’a pas de couleur : aucune ressource n’en baisse le prix"),
    (r"there is no milestone ('.+')", "il n’y a pas d’étape {q:1}"),
    (r"(.+) was claimed by (.+)", "{1} a été revendiquée par {2}"),
    (r"only one milestone can be claimed in a turn",
     "une seule étape peut être revendiquée par tour"),
    (r"a milestone is claimed after an action: hire a guild first",
     "une étape se revendique après une action : engagez d’abord une guilde"),
    (r"(.+) does not control a region ('.+')", "{1} ne contrôle pas de région {q:2}"),
    (r"(.+) has no reputation token to give", "{1} n’a plus de jeton Réputation à donner"),
    (r"(.+) already gave reputation for (.+) this turn: its powers are theirs until the "
     r"turn ends",
     "{1} a déjà donné de la réputation pour les pouvoirs {de:2} ce tour-ci : ils lui "
     "sont acquis jusqu’à la fin du tour"),
    (r"(.+) has (-?\d+) reputation; (.+) costs (\d+)",
     "{1} a {2} de réputation ; {theadv:3} en coûte {4}"),
    # gold (forum.py, the actions)
    (r"(.+) has (-?\d+) gold; research costs (\d+)", "{1} a {2} or ; rechercher coûte {3}"),
    (r"(.+) has (-?\d+) gold; the (\w+) at (.+) costs (\d+)",
     "{1} a {2} or ; la ressource {good:3} à {4} coûte {5}"),
    (r"(.+) has (-?\d+) gold; (.+) costs (\d+) here", "{1} a {2} or ; {3} coûte {4} ici"),
    (r"(.+) has (-?\d+) gold; (.+) costs (\d+)", "{1} a {2} or ; {theadv:3} coûte {4}"),
    # building (actions/build.py)
    (r"(.+) has no free building site: name a 'site' and 'replace' its structure",
     "{1} n’a plus de chantier libre : nommez un lieu («\u00a0site\u00a0») et remplacez son "
     "bâtiment («\u00a0replace\u00a0»)"),
    (r"(.+) is not a building site of (.+)'s province",
     "{site:1} n’est pas un chantier de la province {de:2}"),
    (r"(.+) is empty: there is nothing to replace", "{site:1} est vide : rien à remplacer"),
    (r"(.+) holds (.+): say 'replace' to return it",
     "{site:1} porte {2} : dites «\u00a0replace\u00a0» pour le rendre"),
    (r"(.+) has a free building site \((.+)\); structures are returned only to make room",
     "{1} a un chantier libre ({site:2}) ; on ne rend un bâtiment que pour faire de la place"),
    (r"no (.+) is available \(exhausted or all built\)",
     "aucun {1} n’est disponible (épuisé ou tous construits)"),
    # goods that lower a price (actions/places.py)
    (r"(.+) has sunk; a repair action can rebuild it",
     "{1} a coulé ; une action Réparer peut le reconstruire"),
    (r"(.+) is at sea \((.+)\), not at a region", "{1} est en mer ({2}), pas dans une région"),
    (r"(.+) is in (.+), not at a region", "{1} est {sea:2}, pas dans une région"),
    (r"(.+)'s warehouse is not in (.+), where (.+) is bought",
     "l’entrepôt de {1} n’est pas dans {2}, où s’achète {3}"),
    (r"(.+)'s warehouse holds no (\w+) for (.+)",
     "l’entrepôt de {1} ne contient pas de {good:2} pour {3}"),
    (r"(.+) is not in (.+), where (.+) is bought", "{1} n’est pas dans {2}, où s’achète {3}"),
    (r"(.+) carries no (\w+) for (.+)", "{1} ne transporte pas de {good:2} pour {3}"),
    # research (actions/research.py)
    (r"research is not possible yet in this campaign \(no maps or charts have been found\)",
     "on ne peut pas encore rechercher dans cette campagne (aucune carte n’a été trouvée)"),
    (r"(.+) draws (\d+) research card\(s\), not (\d+)",
     "{1} pioche {2} carte(s) recherche, pas {3}"),
    # sailing (actions/sail.py)
    (r"(.+) and (.+) are not in the same space, so they cannot move together",
     "{1} et {2} ne sont pas dans la même zone : ils ne peuvent pas naviguer ensemble"),
    (r"ships moving together share their path until the slower one stops",
     "des bateaux qui naviguent ensemble suivent le même trajet jusqu’à l’arrêt du plus lent"),
    (r"(.+) sails at most (\d+) space\(s\); the path has (\d+)",
     "{1} navigue d’au plus {2} zone(s) ; le trajet en compte {3}"),
    (r"(.+) is already at (.+); each step enters a neighbouring space",
     "{1} est déjà à {2} ; chaque pas entre dans une zone voisine"),
    (r"(.+) is not next to (.+) on the map", "{1} n’est pas voisin de {2} sur la carte"),
    (r"(.+) and (.+) are not together at a region, so they cannot pass goods",
     "{1} et {2} ne sont pas ensemble dans une région : ils ne peuvent pas s’échanger de "
     "ressources"),
    (r"(.+) is not in its home harbor, where (.+)'s warehouse is",
     "{1} n’est pas dans son port d’attache, où se trouve l’entrepôt de {2}"),
    (r"(.+)'s hold takes (\d+) goods, not (\d+)",
     "la cale de {1} prend {2} ressource(s), pas {3}"),
    # the shipyard (actions/shipyard.py)
    (r"(.+) has no structure that repairs without the action",
     "{1} n’a pas de bâtiment qui répare sans l’action"),
    (r"(.+) has not sunk", "{1} n’a pas coulé"),
    (r"(.+) is rebuilt in its home harbor, which has no Port of (.+)'s",
     "{1} se reconstruit dans son port d’attache, où {2} n’a pas de Port"),
    (r"(.+) has nothing to repair: no damaged ship (.+) and no sunk ship",
     "{1} n’a rien à réparer : aucun bateau endommagé {2} et aucun bateau coulé"),
    (r"(.+) is not available \(exhausted or on a ship\)",
     "{1} n’est pas disponible (épuisée ou sur un bateau)"),
    (r"(.+) has no dock (.+) may use for (\w+) upgrades",
     "{1} n’a pas de chantier naval utilisable par {2} pour les améliorations {good:3}"),
    (r"(.+) already has (\d+) upgrades: name one to 'replace'",
     "{1} a déjà {2} améliorations : nommez celle à remplacer («\u00a0replace\u00a0»)"),
    (r"(.+) has room for (.+); upgrades are returned only to make room",
     "{1} a de la place pour {2} ; on ne rend une amélioration que pour faire de la place"),
    (r"(.+) has no upgrade (.+)", "{1} n’a pas l’amélioration {2}"),
    # trading (actions/trade.py)
    (r"(.+) has no ship at (.+) to buy there", "{1} n’a pas de bateau à {2} pour y acheter"),
    (r"(.+) may buy (\d+) goods with this action, not (\d+)",
     "{1} peut acheter {2} ressource(s) avec cette action, pas {3}"),
    (r"(.+) may sell (\d+) goods with this action, not (\d+)",
     "{1} peut vendre {2} ressource(s) avec cette action, pas {3}"),
    (r"goods are bought from island sites", "les ressources s’achètent sur les lieux des îles"),
    (r"there is no good cube for sale at (.+)", "aucune ressource n’est à vendre {atsite:1}"),
    (r"(.+)'s hold is over its value: return goods to the supply first",
     "la cale de {1} dépasse sa valeur : rendez d’abord des ressources à la réserve"),
    (r"(.+)'s hold is full \(return a good to make room\)",
     "la cale de {1} est pleine (rendez une ressource pour faire de la place)"),
    (r"(.+) holds no (\w+) to sell", "{1} ne contient pas de {good:2} à vendre"),
    (r"no market (.+) may use at (.+) buys (\w+)",
     "aucun marché utilisable par {1} à {2} n’achète de {good:3}"),
    (r"(.+) carries no (\w+) to return", "{1} ne transporte pas de {good:2} à rendre"),
    (r"(.+) holds no (\w+)", "{1} ne contient pas de {good:2}"),
    # endeavors (endeavor.py, plunder.py)
    (r"(.+) has sunk and must be rebuilt before it can sail",
     "{1} a coulé et doit être reconstruit avant de naviguer"),
    (r"only sites on islands are explored", "seuls les lieux des îles s’explorent"),
    (r"(.+) is already explored", "{site:1} est déjà exploré"),
    (r"(.+) has no research card ('.+')", "{1} n’a pas de carte Recherche {q:2}"),
    (r"(.+) cannot raid their own province", "{1} ne peut pas piller sa propre province"),
    (r"provinces cannot be raided in the prologue",
     "on ne pille pas de province pendant le prologue"),
    (r"(.+) is not in (.+)'s home harbor", "{1} n’est pas dans le port d’attache {de:2}"),
    (r"(.+) has no enmity token left to place on (.+); a raid needs one",
     "{1} n’a plus de jeton Hostilité à poser sur {site:2} ; un pillage en demande un"),
    (r"no endeavor is waiting for that", "aucun test n’attend cela"),
    (r"the (explore|raid) is waiting for (.+), not (\w+)",
     "le test ({kind:1}) attend {waiting:2}, pas {Q0}{3}{Q1}"),
    (r"at most (\d+) fortune can be spent on this roll",
     "ce lancer accepte au plus {1} jeton(s) Chance"),
    (r"('.*') is not a way to take this damage; choose one of: (.+)",
     "{q:1} n’est pas une façon de prendre ce dégât ; choisissez parmi : {2}"),
    (r"(.+) carries no (\w+)", "{1} ne transporte pas de {good:2}"),
    (r"(.+) is unexplored: explore it before raiding it",
     "{site:1} est inexploré : explorez-le avant de le piller"),
    (r"record what (.+) is \(record_site\) before raiding it",
     "notez ce qu’est {site:1} (record_site) avant de le piller"),
    (r"(.+) has nothing to plunder", "{site:1} n’a aucun butin"),
    (r"(.+) already has enmity on it and cannot be raided again this year",
     "{site:1} porte déjà de l’hostilité : il ne peut plus être pillé cette année"),
    (r"no (\w+) is left in the supply, so (.+) cannot be raided",
     "la réserve n’a plus de {good:1} : {site:2} ne peut pas être pillé"),
    (r"no (\w+) 10-gold upgrade is available, so (.+) cannot be raided",
     "aucune amélioration {good:1} à 10 or n’est disponible : {site:2} ne peut pas être pillé"),
    (r"every site in (.+)'s province already has enmity or was plundered this year",
     "chaque lieu de la province {de:1} porte déjà de l’hostilité ou a déjà été pillé "
     "cette année"),
    (r"(.+) has (\d+) enmity token\(s\) to give; the cheapest site to plunder in (.+)'s "
     r"province needs (\d+)",
     "{1} a {2} jeton(s) Hostilité à donner ; le lieu le moins cher à piller dans la "
     "province {de:3} en demande {4}"),
    (r"no raid is waiting for plunder to be chosen",
     "aucun pillage n’attend le choix d’un butin"),
    (r"('.*') is not an answer to ('.*'); choose one of: (.+)",
     "{q:1} ne répond pas à {q:2} ; choisissez parmi : {3}"),
    # the year (year.py)
    (r"the forum is full: no advisor is being dealt",
     "le forum est plein : aucun conseiller n’est à distribuer"),
    (r"no event is waiting to be revealed", "aucun évènement n’attend d’être révélé"),
    (r"('.+') is not in the event deck", "{q:1} n’est pas dans la pioche Évènement"),
    (r"(.+) is not in the advisor deck", "{theadv:1} n’est pas dans la pioche Conseiller"),
    (r"(.+) was put on the bottom of the advisor deck: the cards above it come first",
     "{theadv:1} a été placé{e:1} sous la pioche Conseiller : "
     "les cartes au-dessus viennent d’abord"),
    (r"('.+') was put on the bottom of the event deck this year: the cards above it come "
     r"first", "{q:1} a été placé sous la pioche Évènement cette année : les cartes "
     "au-dessus viennent d’abord"),
    (r"(.+) had its structure plundered this year: it is not built on until the next winter",
     "le bâtiment {ofsite:1} a été pillé cette année : on n’y construit plus avant l’hiver"),
    # the end of the game (endgame.py)
    (r"an appellation needs a name \(as on the improvement sheet\)",
     "une appellation a besoin d’un nom (comme sur la feuille d’améliorations)"),
    (r"an appellation's name has at most (\d+) characters",
     "le nom d’une appellation a au plus {1} caractères"),
    (r"the end of the game is not at the step '(.+)'",
     "la fin de partie n’est pas à l’étape {Q0}{step:1}{Q1}"),
    (r"choose a field (.+) controls", "choisissez un champ que {1} contrôle"),
    (r"choose a region (.+) controls", "choisissez une région que {1} contrôle"),
    (r"the field is worth (-?\d+|None); its new value must be higher, at most (\d+)",
     "le champ vaut {1} ; sa nouvelle valeur doit être plus haute, au plus {2}"),
    (r"('.*') is not a retired advisor free to train with \(free: (.*)\)",
     "{q:1} n’est pas un conseiller retraité disponible pour la formation (disponibles : "
     "{2})"),
    (r"('.*') is not an advisor of yours with an empty slot",
     "{q:1} n’est pas l’un de vos conseillers avec un emplacement libre"),
    (r"('.*') cannot be kept; choose one of: (.*)",
     "{q:1} ne peut pas être gardé ; choisissez parmi : {2}"),
    (r"(.*)'s (.*) cannot be improved \(at most (\d+), and only your own ships\)",
     "{stat:2} de {1} ne peut pas être améliorée (au plus {3}, et seulement sur vos propres "
     "bateaux)"),
    (r"no roll is waiting", "aucun lancer n’est attendu"),
    (r"no enmity is waiting to be settled", "aucune hostilité n’attend d’être réglée"),
    (r"('.*') is not an option now", "{q:1} n’est pas possible maintenant"),
    (r"no sticker is waiting to be placed", "aucun autocollant n’attend d’être collé"),
    (r"there is no sticker of (.+)'s to cover on (.+)",
     "il n’y a pas d’autocollant {de:1} à recouvrir sur {2}"),
    (r"no title is waiting to be chosen", "aucun rang n’attend d’être choisi"),
    (r"('.*') is not a title open to this tie; choose one of (.*)",
     "{q:1} n’est pas un rang ouvert à cette égalité ; choisissez parmi {2}"),
    # the campaign (campaign.py, legacy.py, membership.py)
    (r"the game is not over and recorded yet: finish the end of the game first",
     "la partie n’est pas encore finie et notée : terminez d’abord la fin de partie"),
    (r"the campaign is over: (.+) \((\w+)\) is crowned Emperor",
     "la campagne est finie : {1} ({colour:2}) est couronné Empereur"),
    (r"milestone (.+) was already claimed", "l’étape {1} a déjà été revendiquée"),
    (r"event (.+) is already in the game", "l’évènement {1} est déjà en jeu"),
    (r"a leader's reputation and fortune are set before round 1 of the game; since then "
     r"they change only by the rules",
     "la réputation et la chance d’un leadeur se fixent avant la manche 1 de la partie ; "
     "depuis, elles ne changent que selon les règles"),
    (r"there is no (\w+) province in the campaign",
     "il n’y a pas de province {colour:1} dans la campagne"),
    (r"the (\w+) province is already in the campaign",
     "la province {colour:1} est déjà dans la campagne"),
    (r"the campaign already has (\d+) provinces", "la campagne a déjà {1} provinces"),
    (r"the new player of the (\w+) province needs a name \('player'\)",
     "le nouveau joueur de la province {colour:1} doit avoir un nom ({Q0}player{Q1})"),
    (r"joining needs a campaign with provinces in it",
     "pour rejoindre, il faut une campagne qui a des provinces"),
    (r"(\w+) is still marked absent for this game",
     "{colour:1} est encore marqué absent pour cette partie"),
    (r"(\w+) has no missed games to catch up", "{colour:1} n’a aucune partie manquée à rattraper"),
    (r"a game of SeaFall needs at least (\d+) provinces",
     "une partie de SeaFall demande au moins {1} provinces"),
    (r"a game of SeaFall needs at least (\d+) provinces: (\w+) leaves before (\w+) joins; "
     r"list the join before the leave to keep the count",
     "une partie de SeaFall demande au moins {1} provinces : {colour:2} part avant que "
     "{colour:3} n’arrive ; placez l’arrivée avant le départ pour garder le compte"),
    (r"(\w+) cannot both miss this game and leave the campaign for good: choose one",
     "{colour:1} ne peut pas à la fois manquer cette partie et quitter la campagne pour de "
     "bon : choisissez l’un des deux"),
    (r"(\w+) is already marked absent for this game",
     "{colour:1} est déjà marqué absent pour cette partie"),
    (r"(\w+) improves its ships (\d+) time\(s\), one per (.+); got (\d+)",
     "{colour:1} améliore ses bateaux {2} fois, une par {why:3} ; reçu {4}"),
    (r"(\w+) takes (\d+) improvement\(s\), one per (\d+) (.+); got (\d+)",
     "{colour:1} reçoit {2} modification(s) permanente(s), une pour {3} {why:4} ; reçu {5}"),
    (r"the provinces' titles are not the titles for their number; assign titles first",
     "les rangs des provinces ne sont pas ceux de leur nombre : attribuez d’abord les rangs"),
    (r"take an advisor worth one reputation from the advisor deck: (.*)",
     "prenez dans la pioche Conseiller un conseiller qui vaut une réputation : {1}"),
    (r"('.*') is not an advisor worth one reputation in the advisor deck",
     "{q:1} n’est pas un conseiller de la pioche qui vaut une réputation"),
    (r"(.+)'s (\w+) is already (\d+), the most", "{stat:2} de {1} vaut déjà {3}, le maximum"),
    (r"choose a field of (\w+)'s province, such as '(.+)'",
     "choisissez un champ de la province {colour:1}, par exemple {Q0}{2}{Q1}"),
    (r"(\w+) controls only its own province's garrison here",
     "{colour:1} ne contrôle ici que la garnison de sa propre province"),
    (r"there is already an island named ('.+'): give this one another name",
     "il y a déjà une île nommée {q:1} : donnez-lui un autre nom"),
    # broad: last, so that a narrower refusal is never taken for it
    (r"(.+) is not at (.+)", "{1} n’est pas à {2}"),
]
REPR = r"""('[^']*'|"[^"]*"|'.*')"""  # a value the engine wrote with repr()
PATTERNS: list[tuple[re.Pattern[str], str]] = [(re.compile(p.replace("('.+')", REPR)
                                                           .replace("('.*')", REPR)), fr)
                                               for p, fr in _REFUSALS]
_SLOT = re.compile(r"\{(?:(\w+):)?(\w+)\}")


def refusal(text: object) -> str:
    """An engine refusal in French when a pattern knows it, else as it is."""
    text = str(text)
    for pattern, french in PATTERNS:
        match = pattern.fullmatch(text)
        if match is not None:
            return _SLOT.sub(partial(_fill, match), french)
    return text


def _fill(match: re.Match[str], slot: re.Match[str]) -> str:
    word, name = slot.group(1), slot.group(2)
    if name in ("Q0", "Q1"):
        return Q[int(name[1])]
    value = match.group(int(name))
    return WORDS[word](value) if word else default_name(value)
