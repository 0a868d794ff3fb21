// Rendering a SeaFall table view (GET /api/tables/<id> "state") into nodes: shared by the
// phone table page and the TV view. Everything is text; nothing is parsed as HTML.
"use strict";

import {h} from "./dom.js";
import {powersText} from "./effects.js";
import {config, t, has, pct, num} from "./i18n.js";

export function colourName(colour) {
  return t("colour." + colour, null, colour);
}

// The names the setup gives when none was typed (a province's player "Blue", its region
// "Blue province", its ships "Blue ship 1") are said in the page's language; a name a player
// gave is shown as it is.
const titled = (colour) => String(colour).charAt(0).toUpperCase() + String(colour).slice(1);

export function playerName(player, colour) {
  return !player || player === titled(colour) ? colourName(colour) : player;
}

export function shipLabel(ship) {
  const made = ship.owner && String(ship.name).match(new RegExp(`^${titled(ship.owner)} ship (\\d+)$`));
  return made && has("ship.default." + ship.owner) ? t("ship.default." + ship.owner, {n: made[1]})
    : ship.name;
}

export function regionLabel(region) {
  return region.kind === "province" && region.owner && region.name === `${titled(region.owner)} province`
    && has("province.default." + region.owner) ? t("province.default." + region.owner) : region.name;
}

// An advisor by the name the page's language gives it (`advisor.name.<English name>` in the
// catalogue: the French rulebook's names, companion/games/seafall/names_fr.py); an advisor
// the catalogue does not name, as the engine names it. Commands keep the English name.
export function advisorName(name) {
  return t("advisor.name." + name, null, String(name));
}

export function titleName(title) {
  return t("option.title." + title, null, title);
}

export function provinceName(state, colour) {
  const prov = (state.provinces || {})[colour];
  return playerName(prov ? prov.player : null, colour);
}

export function shipName(state, shipId) {
  const ship = (state.ships || {})[shipId];
  return ship ? shipLabel(ship) : shipId;
}

export function placeName(state, id) {
  if (!id) return t("ship.at_sea");
  const region = (state.regions || {})[id];
  if (region) return regionLabel(region);
  const site = (state.sites || {})[id];
  if (site) return siteRef(state, id);
  return id;
}

// A ship at sea, where the board shows it (the view's `at_sea`, from
// companion/games/seafall/seaspaces.py): in the coastal waters, or on the open sea so many
// spaces from the nearest islands; never the map's label ("coastal_waters", "(1, 3, 4)").
// "A, B and C", « A, B et C »: a list in a sentence (seaName, a Buy's goods)
export const listed = new Intl.ListFormat(config.lang, {type: "conjunction"});
export function seaName(state, sea) {
  if (sea.kind === "coastal") return t("ship.sea.coastal");
  if (sea.kind === "harbor") return t("ship.sea.harbor", {colour: colourName(sea.colour).toLowerCase()});
  if (!(sea.near || []).length) return t("ship.sea.open");
  return t("ship.sea.near", {count: sea.spaces, places: listed.format(sea.near.map((id) => placeName(state, id)))});
}

// A site named as players point at it, by its id's place in its region and the region's
// name, as the history names it (companion/games/seafall/sitenames.py): "isle-b/1" is "site
// 1 of Example isle B", "blue/field-2" "field 2 of Blue province". It follows the id, not
// the kind, so it stays the same when the site is explored or built on.
const VOWEL_START = /^[aeiouyàâéèêëîïôöùûü]/i;
const ISLE_START = /^[ÎI]le\s+\S/;
export function siteName(state, id) {
  const [regionId, tail] = String(id).split(/\/(.*)/s);
  const region = (state.regions || {})[regionId];
  if (!region || !tail) return id;
  const named = sitePart(id);
  const name = regionLabel(region);
  // A catalogue may say a province the setup named with its article (French "de la
  // province bleue", as the history says it) and elide before a vowel ("d’").
  if (name !== region.name && has("sitename.of_default")) {
    return t("sitename.of_default", {part: named, region: name.charAt(0).toLowerCase() + name.slice(1)});
  }
  // an island named with the word « Île » takes its article (« de l’Île aux Épices »), as
  // the history says it (log_fr.de); no other name is given one
  const key = ISLE_START.test(name) && has("sitename.of_isle") ? "sitename.of_isle"
    : VOWEL_START.test(name) && has("sitename.of_vowel") ? "sitename.of_vowel" : "sitename.of";
  return t(key, {part: named, region: name});
}

// A site by its place in its region alone, "site 3", « lieu 3 », "field 2": where the
// region is said already (the enmity card's line for it).
export function sitePart(id) {
  const tail = String(id).split(/\/(.*)/s)[1] || "";
  const m = /^(?:(.*?)-)?(\d+)$/.exec(tail);
  const part = m ? (m[1] || "site") : tail;
  return t("sitename.part." + part, {n: m ? m[2] : ""}, part.replace(/-/g, " ") + (m ? " " + m[2] : ""));
}

// a site with a number on an island: its name and its kind (a province's part names it)
function isNumbered(id) {
  return /\/\d+$/.test(String(id));
}

export function faceName(label) {
  return t("face." + label, null, label);
}

// A kind of die as players call it ("SeaFall", "d6"); its id where no name is known.
export function dieName(die) {
  return t("die." + die, null, die);
}

export function statusLine(state) {
  const parts = [];
  if (state.year) parts.push(t("status.year", {year: state.year}));
  if (state.round) parts.push(t("status.round", {round: state.round}));
  // the round's event card, in effect until the round ends (prices, powers): said where
  // the round is, not only in the history
  if (state.event && state.phase !== "over") parts.push(t("status.event", {event: state.event}));
  if (state.phase === "over") parts.push(t("status.over"));
  else if (state.turn && state.turn.player) {
    parts.push(t("status.turn", {player: provinceName(state, state.turn.player)}));
  } else if (state.phase) parts.push(t("phase." + state.phase, null, state.phase));
  return parts.join(" · ");
}

// The glory track: each province's glory against the game's target.
export function gloryTrack(state) {
  const target = state.glory_target || 0;
  const rows = (state.seating || Object.keys(state.provinces || {})).map((colour) => {
    const prov = state.provinces[colour];
    const width = target ? Math.min(100, Math.round(100 * prov.glory / target)) : 0;
    return h("li", {class: "glory-row"},
      h("span", {class: `swatch c-${colour}`, "aria-hidden": "true"}),
      h("span", {class: "glory-name", text: playerName(prov.player, colour)}),
      h("span", {class: "glory-bar", role: "meter", "aria-valuemin": "0",
                 "aria-valuemax": String(target), "aria-valuenow": String(prov.glory),
                 "aria-label": t("glory.label", {player: playerName(prov.player, colour)})},
        // no glory, no fill (its 3 px floor showed a sliver of colour at 0)
        prov.glory > 0 ? h("span", {class: `glory-fill c-${colour}`, style: `width:${width}%`}) : null),
      h("span", {class: "glory-value", text: `${prov.glory} / ${target}`}));
  });
  return h("ol", {class: "glory"}, rows);
}

function tokens(label, value, cls) {
  return h("span", {class: "token token-" + cls},
    h("span", {class: "token-value", text: String(value)}),
    h("span", {class: "token-label", text: label}));
}

function shipItem(state, shipId) {
  const ship = state.ships[shipId];
  if (!ship) return null;
  // the values as they count now (the engine's: upgrades and damage cards included)
  const now = ship.values || ship;
  const stats = t("ship.stats", {explore: now.explore, raid: now.raid, sail: now.sail,
                                 hold: now.hold});
  // each damage card with its powers in words, "unnamed" where the table did not name it
  // ("damage" is any card): "2 damage cards: Broken mast (sail -1), unnamed (hold -1)"
  const damage = (ship.damage || []).map((d) => cardWithPowers(
    {name: d.name && d.name !== "damage" ? d.name : t("ship.damage_unnamed"), effects: d.effects}));
  // an exhausted upgrade or advisor said so (a "⤵" that nobody could read)
  const upgrades = (ship.upgrades || []).map((u) => u.name + (u.exhausted ? ` (${t("ship.exhausted")})` : ""));
  return h("li", {class: "ship" + (ship.sunk ? " sunk" : ""), "data-ship": ship.id},
    h("div", {class: "ship-head"},
      h("strong", {text: shipLabel(ship)}),
      h("span", {class: "muted", text: ship.sunk ? t("ship.sunk")
        : ship.at_sea ? seaName(state, ship.at_sea) : placeName(state, ship.location)})),
    h("div", {class: "muted small", text: stats}),
    (ship.damage || []).length ? h("div", {class: "damage"},
      t("ship.damage", {count: ship.damage.length}), " ", damage.join(", ")) : null,
    upgrades.length ? h("div", {class: "upgrades"}, t("ship.upgrades"), " ", upgrades.join(", "))
      : null,
    ship.goods && ship.goods.length ? h("div", {class: "small"},
      t("ship.goods"), " ", ship.goods.map(goodName).join(", ")) : null);
}

// A card and its powers in words: "Chart (+1 die for exploration)"; a card without any, its
// name.
function cardWithPowers(card) {
  const powers = powersText(card.effects);
  return powers ? `${card.name} (${powers})` : card.name;
}

// The structures built in a province, each with where it stands.
function structuresOf(state, colour) {
  const region = (state.regions || {})[colour];
  return ((region && region.sites) || [])
    .map((id) => [id, (state.sites || {})[id]])
    .filter(([, site]) => site && site.structure)
    .map(([id, site]) => `${site.structure} (${siteName(state, id)})`);
}

export function provinceCard(state, colour, mine) {
  const prov = state.provinces[colour];
  const built = structuresOf(state, colour);
  const advisors = (prov.council || []).map((a) => (a.name === prov.active_advisor
    ? t("prov.active", {advisor: advisorName(a.name)}) : advisorName(a.name)) + (a.exhausted ? ` (${t("ship.exhausted")})` : ""));
  return h("article", {class: "province" + (mine ? " mine" : ""), "data-province": colour},
    h("h3", {},
      h("span", {class: `swatch c-${colour}`, "aria-hidden": "true"}),
      playerName(prov.player, colour),
      prov.title ? h("span", {class: "pill", text: titleName(prov.title)}) : null,
      mine ? h("span", {class: "pill you", text: t("me.you")}) : null),
    h("div", {class: "tokens"},
      tokens(t("prov.gold"), prov.gold, "gold"),
      tokens(t("prov.glory"), prov.glory, "glory"),
      tokens(t("prov.fortune"), prov.fortune, "fortune"),
      tokens(t("prov.reputation"), prov.reputation, "reputation"),
      tokens(t("prov.enmity"), prov.home_enmity, "enmity")),
    advisors.length ? h("p", {class: "small"}, h("strong", {text: t("prov.advisors") + " "}),
                        advisors.join(", ")) : null,
    // treasures held, each with its powers in words, as the research cards below
    prov.treasures && prov.treasures.length ? h("p", {class: "small treasures"},
      h("strong", {text: t("prov.treasures") + " "}),
      prov.treasures.map((c) => (typeof c === "string" ? c : cardWithPowers(c))).join(", ")) : null,
    // research cards kept, each with its powers in words (rulebook, "Research": kept face
    // up in the treasure room)
    prov.research && prov.research.length ? h("p", {class: "small research"},
      h("strong", {text: t("prov.research") + " "}),
      prov.research.map(cardWithPowers).join(", ")) : null,
    prov.warehouse && prov.warehouse.length ? h("p", {class: "small"},
      h("strong", {text: t("prov.warehouse") + " "}), prov.warehouse.map(goodName).join(", ")) : null,
    built.length ? h("p", {class: "small structures"},
      h("strong", {text: t("prov.structures") + " "}), built.join(", ")) : null,
    h("ul", {class: "ships"}, (prov.ships || []).map((id) => shipItem(state, id))));
}

// Enmity on the map: permanent stickers and garrison/site enmity, by region.
export function enmityList(state) {
  const items = [];
  for (const region of Object.values(state.regions || {})) {
    const parts = [];
    const add = (what, counts) => {
      for (const [colour, n] of Object.entries(counts || {})) {
        if (n) parts.push(t(what, {player: provinceName(state, colour), count: n}));
      }
    };
    add("enmity.permanent", region.permanent_enmity);
    add("enmity.garrison", region.garrison_enmity);
    // each site named, as the rest of the page names it (the line said "on a site")
    for (const siteId of region.sites || []) {
      const site = sitePart(siteId);
      const key = VOWEL_START.test(site) && has("enmity.site_vowel") ? "enmity.site_vowel" : "enmity.site";
      for (const [colour, n] of Object.entries((state.sites[siteId] || {}).enmity || {})) {
        if (n) parts.push(t(key, {player: provinceName(state, colour), count: n, site}));
      }
    }
    if (parts.length) items.push(h("li", {}, h("strong", {text: regionLabel(region) + ": "}), parts.join(", ")));
  }
  for (const [colour, prov] of Object.entries(state.provinces || {})) {
    for (const [other, n] of Object.entries(prov.at_war_with || {})) {
      if (n) items.push(h("li", {text: t("enmity.war", {player: playerName(prov.player, colour),
                                                      other: provinceName(state, other)})}));
    }
  }
  return items.length ? h("ul", {class: "enmity"}, items) : h("p", {class: "muted", text: t("enmity.none")});
}

// The odds of an endeavor: the headline figures and a bar per number of successes; with
// `fortune`, the tokens the odds count as spent (companion/games/seafall/odds.py
// `pool_rules`: the province's fortune, what a dangerous site allows), said under them.
export function oddsBlock(odds, defense, fortune) {
  if (!odds) return null;
  const best = Math.max(...odds.successes, 0.0001);
  return h("div", {class: "odds"},
    h("div", {class: "odds-head"},
      h("div", {class: "big-figure"},
        h("span", {class: "figure", text: pct(odds.p_success ?? odds.p_at_least_one_success)}),
        h("span", {class: "figure-label", text: t("odds.success")})),
      h("div", {class: "big-figure"},
        h("span", {class: "figure", text: pct(odds.p_no_damage)}),
        h("span", {class: "figure-label", text: t("odds.no_damage")})),
      h("div", {class: "big-figure"},
        h("span", {class: "figure", text: num(odds.expected_damage)}),
        // French says « 1 dégât attendu », « 0,5 dégât attendu » (below 2: singular)
        h("span", {class: "figure-label", text: t("odds.expected_damage", {count: odds.expected_damage})}))),
    fortune > 0 ? h("p", {class: "odds-fortune muted small", text: t("odds.fortune_counted", {count: fortune})}) : null,
    h("table", {class: "dist"},
      h("caption", {text: t("odds.distribution")}),
      odds.successes.map((p, k) => h("tr", {class: defense !== undefined && k >= defense ? "enough" : ""},
        h("th", {scope: "row", text: t("odds.k_successes", {count: k})}),
        h("td", {class: "bar-cell"},
          h("span", {class: "dist-bar", style: `width:${Math.round(100 * p / best)}%`})),
        h("td", {class: "num", text: pct(p)})))));
}

// The fortune tokens an endeavor's odds count as spent: the player's, all of them, or at a
// dangerous site only those a power allows there (PoolRules.usable_fortune).
export function usableFortune(state, end) {
  const prov = (state.provinces || {})[end.player] || {};
  const held = typeof prov.fortune === "number" ? prov.fortune : 0;
  return end.dangerous ? Math.min(held, end.fortune_allowed || 0) : held;
}

// A dice-pool line's modifiers, each with its reason in the page's language where the
// answer's `phrases` says it (the engine writes English: docs/ui.md, "Languages").
export function poolLines(pool, phrases) {
  return (pool || []).map((m) => {
    const amount = (m.dice > 0 ? "+" : "") + m.dice;
    const said = (phrases || {})[m.reason] ?? m.reason;
    // a reason that says its own amount ("advisor Woodsman: explore +1") is not followed by it
    const reason = said.endsWith(" " + amount) ? said.slice(0, -(amount.length + 1)) : said;
    return h("li", {class: m.dice < 0 ? "minus" : "plus"},
      h("span", {class: "mod", text: amount}), h("span", {text: reason}));
  });
}

// The endeavor under way: who, where, the dice pool with every modifier, odds, faces;
// `phrases` the view's (its engine phrases in the page's language).
export function endeavorBlock(state, phrases) {
  const end = state.endeavor;
  if (!end) return null;
  const where = end.site ? placeName(state, end.site) : placeName(state, end.region);
  const pool = poolLines(end.pool, phrases);
  const extras = [];
  if (end.bonus) extras.push(t("end.bonus", {count: end.bonus}));
  if (end.dangerous) extras.push(t("end.dangerous"));
  if ((end.reroll_kinds || []).length) {
    extras.push(t("end.reroll", {faces: end.reroll_kinds.map(faceName).join(", ")}));
  }
  for (const [face, value] of Object.entries(end.face_values || {})) {
    extras.push(t("end.face_value", {face: faceName(face), value}));
  }
  return h("section", {class: "endeavor card", id: "endeavor"},
    h("h2", {},
      t("end.title", {player: provinceName(state, end.player),
                      kind: t("end.kind." + end.kind, null, end.kind)})),
    h("p", {class: "where"}, where, " · ", t("end.flagship", {ship: shipName(state, end.flagship)}),
      end.support ? [" · ", t("end.support", {ship: shipName(state, end.support)})] : null),
    h("div", {class: "versus"},
      h("span", {class: "dice-count", text: t("end.dice", {count: end.dice})}),
      h("span", {class: "vs", text: t("end.vs")}),
      h("span", {class: "defense", text: t("end.defense", {count: end.defense})})),
    h("ul", {class: "pool", "aria-label": t("end.pool")}, pool),
    extras.length ? h("ul", {class: "pool-extras"}, extras.map((x) => h("li", {text: x}))) : null,
    end.stage === "roll" && !(end.faces || []).length ? oddsBlock(end.odds, end.defense, usableFortune(state, end)) : null,
    (end.faces || []).length ? h("div", {class: "rolled"},
      h("span", {class: "muted", text: t("end.rolled")}), diceFaces(end.faces)) : null,
    end.stage === "fortune" ? h("p", {class: "result"},  // not counted until fortune is spent
      t("end.successes_so_far", {count: end.successes_so_far ?? 0, defense: end.defense})) :
    end.stage !== "roll" && end.stage !== "reroll" ? h("p", {class: "result"},
      t("end.successes", {count: end.successes, defense: end.defense}),
      end.damage_due ? [" · ", t("end.damage_due", {count: end.damage_due})] : null) : null);
}

// `rerolled`: the indices of the dice re-rolled, each marked so under its face
export function diceFaces(faces, cls, rerolled) {
  return h("ul", {class: "faces " + (cls || "")},
    faces.map((f, i) => h("li", {class: "face f-" + f + (rerolled && rerolled.has(i) ? " rerolled" : ""),
                                 title: faceName(f)},
      h("span", {class: "face-symbol", "aria-hidden": "true", text: faceSymbol(f)}),
      h("span", {class: "face-name", text: faceName(f)}),
      rerolled && rerolled.has(i) ? h("span", {class: "reroll-mark", text: t("dice.rerolled_die")}) : null)));
}

const SYMBOLS = {blank: "", standard: "✓", weak: "◐", strong: "★"};
export function faceSymbol(label) {
  return Object.prototype.hasOwnProperty.call(SYMBOLS, label) ? SYMBOLS[label] : label;
}

// The last dice roll in a list of events (newest last), or null.
export function lastRoll(events) {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.payload && Array.isArray(e.payload.faces) && (e.type === "DiceRolled" || /Dice|Roll/.test(e.type))) {
      return e;
    }
  }
  return null;
}

// The whole roll a roll event is part of, as it counted: the endeavor's dice from its start
// up to this event (a roll typed in parts, a re-roll's dice in place of those they
// replaced: the re-roll's event holds those alone), the indices re-rolled, the successes the
// engine counted from them once it did (null before), and its text: the event's own line
// for a roll in one event, else "5 dice, 1 re-rolled · 3 successes".
export function wholeRoll(events, roll) {
  const at = events.indexOf(roll);
  let start = at;
  while (start >= 0 && events[start].type !== "EndeavorStarted") start--;
  const dice = roll.type === "DiceRolled" || roll.type === "DiceRerolled";
  if (!dice || start < 0) {
    return {faces: roll.payload.faces, rerolled: new Set(), successes: null, text: roll.text};
  }
  const faces = [], rerolled = new Set();
  let throws = 0;
  for (let i = start; i <= at; i++) {
    const e = events[i];
    if (e.type === "DiceRolled") { faces.push(...(e.payload.faces || [])); throws++; }
    if (e.type === "DiceRerolled") {
      (e.payload.indices || []).forEach((index, k) => { faces[index] = e.payload.faces[k]; rerolled.add(index); });
      throws++;
    }
  }
  let successes = null;
  for (let i = at + 1; i < events.length && events[i].type !== "EndeavorStarted"; i++) {
    if (events[i].type === "SuccessesCounted") { successes = events[i].payload.rolled; break; }
  }
  if (throws < 2) return {faces, rerolled, successes, text: roll.text};
  const said = [t("dice.count", {count: faces.length})];
  if (rerolled.size) said[0] = t("dice.count_rerolled", {dice: said[0], count: rerolled.size});
  if (successes !== null) said.push(t("dice.successes", {count: successes}));
  return {faces, rerolled, successes, text: said.join(" · ")};
}

// Whose roll it was: the province of the endeavor (or the enmity settling) it was for.
export function rollerOf(state, events, roll) {
  for (let i = events.indexOf(roll); i >= 0; i--) {
    const e = events[i];
    if ((e.type === "EndeavorStarted" || e.type === "EnmitySettlingBegan") && e.payload && e.payload.player) {
      return provinceName(state, e.payload.player);
    }
  }
  return t("dice.someone");
}

// History entries (GET /history) flattened to their events, newest last.
// The events in effect, oldest first; with the table's `state`, an undo's or a redo's line
// names what it took back (stepText), as the history card does (the TV said "Command 4
// undone.").
export function historyEvents(history, state = null) {
  const out = [];
  for (const entry of history || []) {
    if (entry.undone) continue;
    for (const e of entry.events || []) {
      const step = state ? stepText(state, history, e) : null;
      out.push(step ? {...e, text: step} : e);
    }
  }
  return out;
}

// Who sent a command, as the pages name them: a province by its player, the camera and the
// demonstration in the page's language, anyone else as recorded.
export function actorName(state, actor) {
  const province = state && state.provinces ? state.provinces[actor] : null;
  if (province) return playerName(province.player, actor);
  return t("actor." + actor, null, actor);
}

// An undo or redo names the command it took back or brought back, and whose it was
// ("Taken back: Sail (Green)"), where the engine's line gave its number only.
export function stepText(state, history, e) {
  const which = {CommandUndone: "history.step_undone", CommandRedone: "history.step_redone"}[e.type];
  const number = e.payload ? e.payload.command_no : undefined;
  const target = which && (history || []).find((x) => x.kind === "command" && x.command_no === number);
  if (!target) return null;
  // a command no one sent in particular (the table's, a button's "next") names no one
  return t(target.actor ? which : which + "_table",
           {command: t("command." + target.type, null, target.type.replace(/_/g, " ")),
            player: target.actor ? actorName(state, target.actor) : ""});
}

const SVG_NS = "http://www.w3.org/2000/svg";  // a namespace name, not a download

// An SVG made by our server (the join QR code) as an image URL: shown by <img>, never
// parsed into the page, so nothing in it can run.
export function svgImageUrl(svg) {
  const text = /<svg[^>]*\sxmlns=/.test(svg) ? svg : svg.replace("<svg", `<svg xmlns="${SVG_NS}"`);
  return URL.createObjectURL(new Blob([text], {type: "image/svg+xml"}));
}

// ---- prompts in the page's language ------------------------------------------------------
// The engine writes a prompt's question and option labels in English. The page shows them
// from the catalogue ("prompt.<command>", "option.<command>.<kind>") with values taken from
// the prompt, the option's value and the table view; when a key or a value is missing (a
// prompt this page does not know yet) it shows the engine's own text.

const own = (obj, key) => obj !== null && typeof obj === "object" &&
  Object.prototype.hasOwnProperty.call(obj, key);

// t() only when the key exists and every value is known, else null (the caller falls back)
function tr(key, values) {
  if (!has(key)) return null;
  for (const v of Object.values(values || {})) if (v === undefined || v === null || Number.isNaN(v)) return null;
  return t(key, values);
}

// the numbers written in an engine text, for the values the view does not hold
function numbers(text) {
  return (String(text || "").match(/\d+/g) || []).map(Number);
}

export function goodName(good) {
  return t("option.good." + good, null, good);
}

// a site in an option: its name, and on an island its kind ("site 2 of Example isle A ·
// mine"; "field 1 of Gray province" says it)
function siteRef(state, id) {
  const site = (state.sites || {})[id];
  if (!site) return id;
  return isNumbered(id) ? `${siteName(state, id)} · ${t("site." + site.kind, null, site.kind.replace(/_/g, " "))}`
    : siteName(state, id);
}

function regionName(state, id) {
  const region = (state.regions || {})[id];
  return region ? regionLabel(region) : id;
}

function plunderQuestion(state, end, prompt) {
  if (!end.plunder_site) return tr("prompt.plunder.site");
  if (end.picks_left > 0) return tr("prompt.plunder.goods", {count: end.picks_left});
  if ((end.goods_to_place || []).length) return tr("prompt.plunder.ship", {good: goodName(end.goods_to_place[0])});
  const step = end.plunder_step;
  if (step === "structure") {
    const site = (state.sites || {})[end.plunder_site] || {};
    const m = /take an? (\S+) or (\d+) gold\?$/.exec(prompt.question || "");
    return m ? tr("prompt.plunder.structure", {structure: site.structure, good: goodName(m[1]), gold: m[2]}) : null;
  }
  return step ? tr("prompt.plunder." + step) : null;
}

function rollPurpose(state, prompt) {
  const end = state.endeavor;
  const player = provinceName(state, prompt.player);
  if (/^end:5:/.test(prompt.id)) return tr("prompt.roll.enmity", {player});
  if (!end) return null;
  if (end.stage === "reroll") {
    const kinds = (end.reroll_kinds || []).map(faceName).join(", ");
    return tr("prompt.roll.reroll", {count: prompt.count, kinds});
  }
  const question = tr("prompt.roll.endeavor", {player, kind: t("end.kind." + end.kind, null, end.kind),
    count: end.dice, defense: end.defense});
  // a roll read in parts (docs/commands.md): the dice in already said, beside the few asked
  // now ("Roll 1 die" alone looked like a roll of one die)
  const rolled = (end.faces || []).length;
  return question && end.stage === "roll" && rolled > 0 && rolled < end.dice
    ? question + " · " + t("prompt.roll.partial", {count: rolled, of: end.dice, left: end.dice - rolled})
    : question;
}

function localQuestion(state, prompt) {
  const player = prompt.player ? provinceName(state, prompt.player) : null;
  const end = state.endeavor;
  switch (prompt.kind === "roll" ? "roll" : prompt.command) {
    case "roll": return rollPurpose(state, prompt);
    case "deal_advisor": {
      const [dealt, size] = numbers(prompt.question).slice(-2);
      return tr("prompt.deal_advisor", {dealt, size});
    }
    case "reveal_event": return tr("prompt.reveal_event", {year: state.year, round: state.round});
    case "spend_fortune": return tr("prompt.spend_fortune", {player, max: prompt.maximum});
    case "assign_damage": return end ? tr("prompt.assign_damage", {player, count: end.damage_due}) : null;
    case "return_good": {
      const m = /^(.*)'s hold is over/.exec(prompt.question || "");
      return m ? tr("prompt.return_good", {ship: m[1]}) : null;
    }
    case "plunder": return end ? plunderQuestion(state, end, prompt) : null;
    case "cover_sticker": {
      const id = (state.sticker_to_place || [])[0];
      return id ? tr("prompt.cover_sticker", {player, region: regionName(state, id)}) : null;
    }
    case "settle_enmity": return state.enmity ? tr("prompt.settle_enmity", {player, count: state.enmity.successes}) : null;
    default: return tr("prompt." + prompt.command, {player});
  }
}

// A prompt's question (a roll prompt: its purpose) in the page's language.
export function promptQuestion(state, prompt) {
  let text = null;
  try { text = localQuestion(state || {}, prompt); } catch (err) { text = null; }
  return text || prompt.question || prompt.purpose || prompt.kind;
}

function place(state, loc) {
  const [kind, id] = loc.split(/:(.*)/s);
  if (kind === "garrison") return tr("option.place.garrison", {region: regionName(state, id)});
  if (kind === "war") return tr("option.place.war", {player: provinceName(state, id)});
  return siteRef(state, loc);
}

function localOption(state, prompt, value) {
  const ships = state.ships || {};
  const end = state.endeavor || {};
  const [head, rest] = value.split(/:(.*)/s);
  switch (prompt.command) {
    case "hire_guild": return tr("option.guild." + value);
    case "choose_title": return tr("option.title." + value);
    case "return_good": return goodName(value);
    case "cover_sticker": return provinceName(state, value);
    case "assign_damage": {
      if (head === "exhaust") {
        const [ship, upgrade] = rest.split(/:(.*)/s);
        return tr("option.assign_damage.exhaust", {ship: shipName(state, ship), upgrade});
      }
      const ship = ships[rest];
      if (head !== "card" || !ship) return null;
      return tr((ship.damage || []).length >= 2 ? "option.assign_damage.card_sinks" : "option.assign_damage.card",
        {ship: shipLabel(ship)});
    }
    case "plunder": {
      if (!end.plunder_site) {
        if (value === "none") return tr("option.plunder.none");
        const site = (state.sites || {})[value];
        if (!site) return null;
        // what the raider would take there: the structure standing on it, a field's gold
        // (the page said only "building site 1 of Red province")
        const what = site.structure ? site.structure
          : site.kind === "field" && typeof site.value === "number" ? t("option.plunder.field_worth", {gold: site.value})
          : null;
        return what ? tr("option.plunder.site_holding", {site: siteRef(state, value), what, value: site.plunder_value})
          : tr("option.plunder.site", {site: siteRef(state, value), value: site.plunder_value});
      }
      if (end.picks_left > 0) return goodName(value);
      if ((end.goods_to_place || []).length) {
        return value === "leave" ? tr("option.plunder.leave", {good: goodName(end.goods_to_place[0])})
          : (ships[value] ? shipLabel(ships[value]) : null);
      }
      if (end.plunder_step === "docks") {
        if (value === "none") return tr("option.plunder.no_upgrade");
        const m = /^(.*)@([^:]+)(?::replace:(.*))?$/s.exec(value);
        if (!m) return null;
        return m[3] ? tr("option.plunder.upgrade_replace", {upgrade: m[1], ship: shipName(state, m[2]), old: m[3]})
          : tr("option.plunder.upgrade", {upgrade: m[1], ship: shipName(state, m[2])});
      }
      if (head === "keep" || head === "dismiss") return tr("option.plunder." + head, {advisor: advisorName(rest)});
      if (head === "treasures" || head === "research") return tr("option.plunder." + head, {card: rest});
      if (value === "good" || value === "gold") {
        const m = /take an? (\S+) or (\d+) gold\?$/.exec(prompt.question || "");
        return m ? tr("option.plunder." + value, {good: goodName(m[1]), gold: m[2]}) : null;
      }
      return null;
    }
    case "improve_province": {
      const prov = (state.provinces || {})[prompt.player] || {};
      if (head === "field") {
        const site = (state.sites || {})[rest];
        return site ? tr("option.improve_province.field", {site: siteName(state, rest), value: site.value}) : null;
      }
      if (head === "garrison") {
        const region = (state.regions || {})[rest];
        return region ? tr("option.improve_province.garrison", {region: regionLabel(region), value: region.garrison}) : null;
      }
      if (value === "reputation" || value === "fortune") {
        const from = prov["leader_" + value];
        return typeof from === "number" ? tr("option.improve_province." + value, {from, to: from + 1}) : null;
      }
      return value === "appellation" ? tr("option.improve_province.appellation") : null;
    }
    case "train_advisor": {
      const at = value.indexOf("@");
      return at > 0 ? tr("option.train_advisor", {retired: advisorName(value.slice(0, at)),
                                                  advisor: advisorName(value.slice(at + 1))}) : null;
    }
    // an advisor dealt to the forum, or kept at the end of the game: its name in the language
    case "deal_advisor":
    case "keep_advisor":
      return has("advisor.name." + value) ? advisorName(value) : null;
    case "improve_ship": {
      const colon = value.lastIndexOf(":");
      const stat = value.slice(colon + 1);
      if (colon <= 0) return null;
      const ship = (state.ships || {})[value.slice(0, colon)];
      const now = ship ? ship[stat] : undefined;  // its printed value, as the sheet shows it
      const named = {ship: shipName(state, value.slice(0, colon)), stat: t("option.stat." + stat, null, stat)};
      return typeof now === "number" ? tr("option.improve_ship.values", {...named, from: now, to: now + 1})
        : tr("option.improve_ship", named);
    }
    case "settle_enmity":
      if (value === "done") return tr("option.settle_enmity.done");
      if (head === "take") return tr("option.settle_enmity.take", {place: place(state, rest)});
      if (head === "cross") return tr("option.settle_enmity.cross", {region: regionName(state, rest)});
      return null;
    default: return null;  // names (events, cards): shown as the engine gives them
  }
}

// An option's label in the page's language.
export function optionLabel(state, prompt, option) {
  let text = null;
  try { text = localOption(state || {}, prompt, String(option.value)); } catch (err) { text = null; }
  return text || option.label;
}
