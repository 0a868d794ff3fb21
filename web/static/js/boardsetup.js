// "Set up the board": the host's card on the table page for what a game set up without the
// demonstration lacks (rulebook, "Setup"; RULES-FACTS "Not public (players enter them)"):
// each leader card's reputation and fortune (set_leader, in the first winter only), the
// islands with their sites (add_island), and the game's events, milestones and treasures
// (add_component). Each is one command, in the history and taken back by Undo like any
// other; the engine checks it and the page shows its refusal. What is typed is kept while
// the page redraws (another phone's command, the live stream).
"use strict";

import {h, redraw} from "./dom.js";
import {config, t} from "./i18n.js";
import {effectsField, effectsOf, powersText} from "./effects.js";
import {goodName, playerName} from "./views.js";

const SITE_KINDS = ["unexplored", "good", "mine", "docks", "market", "other"];
const COLOURED = new Set(["good", "docks", "market"]);
const SYMBOLS = ["sun", "anchor"];  // the rulebook's ("such as a sun or anchor"); others typed
const GOODS = ["wood", "linen", "spice", "iron"];

const newSite = () => ({kind: "unexplored", symbol: "sun", other: "", colour: "wood", value: "",
                        defense: "", dangerous: false});
const newIsland = () => ({name: "", garrison: "0", space: "", repair: false, sites: [newSite()], effects: []});
const newCards = () => ({event: {name: "", bagged: false}, milestone: {name: "", glory: "", requirement: ""},
                         treasure: {name: "", cost: "", glory: "0", effects: []}});

let island = newIsland();
let cards = newCards();
const leaders = {};  // colour -> {reputation, fortune} as typed
let drawn = null;    // what the card was drawn for: drawn again only when it changes
let args = null;     // the caller's {box, state, send}

// `send(type, args)` sends a command and resolves to true once it went through.
export function renderBoardSetup(box, state, {enabled, send}) {
  const key = enabled ? JSON.stringify([state.first_winter, state.regions, state.event_deck,
    state.bagged_events, state.milestones, state.treasures,
    Object.values(state.provinces || {}).map((p) => [p.leader_reputation, p.leader_fortune, p.player])]) : "";
  args = {box, state, send};
  if (key === drawn) return;
  drawn = key;
  draw();
}

// drawn again for what the host did in it: a site or a power added or removed, a kind picked
function again() { draw(); }

function draw() {
  const {box, state} = args;
  box.hidden = !drawn;
  if (!drawn) { redraw(box); return; }
  // in the first winter, above the forum's prompt (the board is set up before the winter's
  // production); afterwards, with the other cards lower down, folded
  const anchor = document.getElementById(state.first_winter ? "prompt" : "explored");
  if (anchor && (state.first_winter ? box.nextElementSibling !== anchor : anchor.nextElementSibling !== box)) {
    if (state.first_winter) anchor.before(box); else anchor.after(box);
  }
  const first = Boolean(state.first_winter);
  // open in the first winter, folded once it is over: keyed apart, neither keeps the other's
  const when = first ? " first-winter" : "";
  redraw(box, h("details", {"data-key": "board-setup" + when, open: first || null},
    h("summary", {}, h("h2", {text: t("board.title")})),
    h("p", {class: "muted small", text: t(first ? "board.help_first" : "board.help_later")}),
    first ? part("leaders" + when, t("board.leaders"), true, leaderForms(state)) : null,
    part("islands" + when, t("board.islands", {count: islandsOf(state).length}), first,
      islandList(state), islandForm(state)),
    part("cards" + when, t("board.cards"), first, cardLists(state), cardForms())));
}

function part(key, title, open, ...children) {
  return h("details", {class: "board-part", "data-key": "board " + key, open: open || null},
    h("summary", {}, h("strong", {text: title})), children);
}

async function sent(type, body, form) {
  if (form && !form.reportValidity()) return false;
  return args.send(type, body);
}

const number = (attrs) => h("input", Object.assign({type: "number", inputmode: "numeric", step: "1", min: "0"}, attrs));
const keep = (input, obj, field) => {
  const set = () => { obj[field] = input.type === "checkbox" ? input.checked : input.value; };
  input.addEventListener("input", set);
  input.addEventListener("change", set);
  return input;
};

// ---- leaders ------------------------------------------------------------------------------

function leaderForms(state) {
  return [h("p", {class: "muted small", text: t("board.leaders_help")}),
    (state.seating || Object.keys(state.provinces)).map((colour) => {
      const prov = state.provinces[colour];
      const typed = leaders[colour] || (leaders[colour] = {});
      const value = (field, level) => (typed[field] !== undefined ? typed[field] : String(level));
      const rep = keep(number({max: "9", required: true, value: value("reputation", prov.leader_reputation),
        "data-key": "leader-rep " + colour}), typed, "reputation");
      const fort = keep(number({max: "9", required: true, value: value("fortune", prov.leader_fortune),
        "data-key": "leader-fortune " + colour}), typed, "fortune");
      const form = h("form", {class: "leader row", "data-province": colour},
        h("strong", {text: playerName(prov.player, colour)}),
        h("label", {}, t("board.reputation"), " ", rep),
        h("label", {}, t("board.fortune"), " ", fort),
        h("button", {type: "submit", "data-key": "leader-set " + colour, text: t("board.leader_set")}),
        h("span", {class: "muted small", text: prov.leader_reputation || prov.leader_fortune
          ? t("board.leader_now", {reputation: prov.leader_reputation, fortune: prov.leader_fortune})
          : t("board.leader_none")}));
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        if (await sent("set_leader", {province: colour, reputation: Number(rep.value),
                                      fortune: Number(fort.value)}, form)) delete leaders[colour];
      });
      return form;
    })];
}

// ---- islands ------------------------------------------------------------------------------

const islandsOf = (state) => Object.values(state.regions || {}).filter((r) => r.kind === "island");

function siteText(site) {
  const parts = [t("board.kind." + site.kind, null, site.kind)];
  if (site.kind === "unexplored" && site.symbol) parts[0] += ` (${t("board.symbol." + site.symbol, null, site.symbol)})`;
  if (site.colour) parts.push(goodName(site.colour));
  if (site.kind === "mine" && site.value !== null && site.value !== undefined) parts.push(t("board.gold", {count: site.value}));
  parts.push(t("board.defense_of", {count: site.defense || 0}));
  if (site.dangerous) parts.push(t("board.dangerous"));
  return parts.join(" · ");
}

function islandList(state) {
  const list = islandsOf(state);
  if (!list.length) return h("p", {class: "muted", id: "board-no-islands", text: t("board.no_islands")});
  return h("ul", {class: "board-islands"}, list.map((r) => h("li", {"data-island": r.id},
    h("strong", {text: r.name}), " · ", t("board.garrison_of", {count: r.garrison || 0}),
    r.space ? ` · ${t("board.at_hex", {hex: r.space})}` : ` · ${t("board.no_hex")}`,
    (r.effects || []).length ? ` · ${powersText(r.effects)}` : null,
    h("ul", {}, (r.sites || []).map((id) => {
      const site = (state.sites || {})[id];
      return site ? h("li", {class: "small", text: t("board.site_line",
        {site: t("board.site_n", {n: id.split("/").pop()}), what: siteText(site)})}) : null;
    })))));
}

function hexSelect(state) {
  const taken = new Set(Object.values(state.regions || {}).map((r) => r.space).filter(Boolean));
  const columns = new Map();
  for (const hex of config.sea_hexes || []) {
    const column = Number(hex.slice(1).split(",")[0]);
    if (!columns.has(column)) columns.set(column, []);
    columns.get(column).push(hex);
  }
  const select = h("select", {"data-key": "island-space", name: "space"},
    h("option", {value: "", text: t("board.no_hex")}),
    [...columns].map(([column, hexes]) => h("optgroup", {label: t("board.column", {count: column})},
      hexes.map((hex) => h("option", {value: hex, text: hex, disabled: taken.has(hex) || null,
                                      selected: hex === island.space || null})))));
  return keep(select, island, "space");
}

function siteRow(site, i) {
  const kind = keep(h("select", {"data-key": `site-kind ${i}`, "aria-label": t("board.site_kind")},
    SITE_KINDS.map((k) => h("option", {value: k, text: t("board.kind." + k), selected: k === site.kind || null}))), site, "kind");
  kind.addEventListener("change", again);
  const symbol = keep(h("select", {"data-key": `site-symbol ${i}`},
    [...SYMBOLS, ""].map((s) => h("option", {value: s, text: s ? t("board.symbol." + s) : t("board.symbol_other"),
                                             selected: s === site.symbol || null}))), site, "symbol");
  symbol.addEventListener("change", again);
  const other = keep(h("input", {type: "text", maxlength: "30", required: true, value: site.other,
                                 "data-key": `site-other ${i}`, "aria-label": t("board.symbol_other")}), site, "other");
  const colour = keep(h("select", {"data-key": `site-colour ${i}`},
    GOODS.map((g) => h("option", {value: g, text: goodName(g), selected: g === site.colour || null}))), site, "colour");
  const value = keep(number({max: "20", required: true, value: site.value, "data-key": `site-value ${i}`}), site, "value");
  const defense = keep(number({max: "20", required: true, value: site.defense, "data-key": `site-defense ${i}`}), site, "defense");
  const dangerous = keep(h("input", {type: "checkbox", checked: site.dangerous || null, "data-key": `site-dangerous ${i}`}),
    site, "dangerous");
  return h("fieldset", {class: "board-site stack", "data-site": String(i + 1)},
    h("legend", {text: t("board.site_n", {n: i + 1})}),
    h("label", {}, t("board.site_kind"), " ", kind),
    site.kind === "unexplored" ? h("label", {}, t("board.symbol"), " ", symbol) : null,
    site.kind === "unexplored" && !site.symbol ? h("label", {}, t("board.symbol_other"), " ", other) : null,
    COLOURED.has(site.kind) ? h("label", {}, t("board.goods"), " ", colour) : null,
    site.kind === "mine" ? h("label", {}, t("board.mine_value"), " ", value) : null,
    h("label", {}, t("board.defense"), " ", defense),
    h("label", {class: "check-row"}, dangerous, " ", t("board.dangerous_site")),
    island.sites.length > 1 ? h("button", {type: "button", class: "secondary small", "data-key": `site-remove ${i}`,
      text: t("board.site_remove"), onclick: () => { island.sites.splice(i, 1); again(); }}) : null);
}

function islandArgs() {
  const out = {name: island.name.trim(), garrison: Number(island.garrison || 0)};
  if (island.space) out.space = island.space;
  if (island.repair) out.repair = true;
  if (island.effects.length) out.effects = effectsOf(island.effects);
  out.sites = island.sites.map((s, i) => {
    const site = {name: String(i + 1), kind: s.kind, defense: Number(s.defense)};
    if (s.kind === "unexplored") site.symbol = s.symbol || s.other.trim();
    if (COLOURED.has(s.kind)) site.colour = s.colour;
    if (s.kind === "mine") site.value = Number(s.value);
    if (s.dangerous) site.dangerous = true;
    return site;
  });
  return out;
}

// The demonstration's example island (data/demo.json), to fill the form with: a sample of
// what is typed, not a printed island (the board's islands are not public).
function fillSample() {
  const sample = config.sample_island;
  if (!sample) return;
  island = {name: sample.name, garrison: String(sample.garrison || 0), space: "", repair: Boolean(sample.repair),
    effects: [], sites: (sample.sites || []).map((s) => ({...newSite(), kind: s.kind || "unexplored",
      symbol: SYMBOLS.includes(s.symbol) ? s.symbol : (s.symbol ? "" : "sun"), other: SYMBOLS.includes(s.symbol) ? "" : (s.symbol || ""),
      colour: s.colour || "wood", value: s.value !== undefined ? String(s.value) : "",
      defense: String(s.defense || 0), dangerous: Boolean(s.dangerous)}))};
  again();
}

function islandForm(state) {
  const name = keep(h("input", {type: "text", required: true, maxlength: "60", value: island.name,
                                autocomplete: "off", "data-key": "island-name"}), island, "name");
  const garrison = keep(number({max: "9", required: true, value: island.garrison, "data-key": "island-garrison"}),
    island, "garrison");
  const repair = keep(h("input", {type: "checkbox", checked: island.repair || null, "data-key": "island-repair"}),
    island, "repair");
  const form = h("form", {class: "board-island stack", id: "board-island"},
    h("h3", {text: t("board.island_add")}),
    config.sample_island ? h("button", {type: "button", class: "secondary small", "data-key": "island-sample",
      text: t("board.island_sample"), onclick: fillSample}) : null,
    h("label", {}, t("board.island_name"), " ", name),
    h("label", {}, t("board.garrison"), " ", garrison),
    h("label", {}, t("board.hex"), " ", hexSelect(state)),
    h("p", {class: "muted small", text: t("board.hex_help")}),
    h("label", {class: "check-row"}, repair, " ", t("board.repair")),
    effectsField(island.effects, "island", again),
    island.sites.map(siteRow),
    h("button", {type: "button", class: "secondary", "data-key": "site-add", text: t("board.site_add"),
                 onclick: () => { island.sites.push(newSite()); again(); }}),
    h("button", {type: "submit", class: "primary", "data-key": "island-send", text: t("board.island_send")}));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (await sent("add_island", {island: islandArgs()}, form)) { island = newIsland(); again(); }
  });
  return form;
}

// ---- events, milestones, treasures ----------------------------------------------------------

function cardLists(state) {
  const deck = (state.event_deck || []).map((n) => n);
  const bagged = (state.bagged_events || []).map((n) => t("board.in_chest", {name: n}));
  // "none yet" per list: French agrees it with the cards listed (« aucune » carte Étape)
  const rows = [
    [t("board.events"), [...deck, ...bagged], t("board.none.events")],
    [t("board.milestones"), (state.milestones || []).map((m) => t("board.milestone_is", {name: m.name, count: m.glory || 0})),
      t("board.none.milestones")],
    [t("board.treasures"), (state.treasures || []).map((c) => t("board.treasure_is", {name: c.name, cost: c.cost || 0, count: c.glory || 0})
      + ((c.effects || []).length ? ` (${powersText(c.effects)})` : "")), t("board.none.treasures")],
  ];
  return h("dl", {class: "board-cards"}, rows.map(([title, items, none]) => [h("dt", {text: title}),
    h("dd", {text: items.length ? items.join(", ") : none})]));
}

function cardForm(kind, fields, build) {
  const form = h("form", {class: "board-card stack", "data-card": kind},
    h("h3", {text: t("board.add." + kind)}), fields,
    h("button", {type: "submit", class: "primary", "data-key": "card-send " + kind, text: t("board.card_send")}));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (await sent("add_component", build(), form)) { cards[kind] = newCards()[kind]; again(); }
  });
  return form;
}

function cardForms() {
  const text = (obj, field, key, attrs = {}) => keep(h("input", Object.assign({type: "text", maxlength: "80",
    autocomplete: "off", value: obj[field], "data-key": key}, attrs)), obj, field);
  const {event: ev, milestone: ms, treasure: tr} = cards;
  return [
    cardForm("event", [
      h("label", {}, t("board.card_name"), " ", text(ev, "name", "event-name", {required: true})),
      h("label", {class: "check-row"}, keep(h("input", {type: "checkbox", checked: ev.bagged || null,
        "data-key": "event-bagged"}), ev, "bagged"), " ", t("board.bagged"))],
    () => ({kind: "event", card: {name: ev.name.trim()}, bagged: Boolean(ev.bagged)})),
    cardForm("milestone", [
      h("label", {}, t("board.card_name"), " ", text(ms, "name", "milestone-name", {required: true})),
      h("label", {}, t("board.glory"), " ", keep(number({max: "30", required: true, value: ms.glory,
        "data-key": "milestone-glory"}), ms, "glory")),
      h("label", {}, t("board.requirement"), " ", text(ms, "requirement", "milestone-requirement", {maxlength: "200"}))],
    () => ({kind: "milestone", card: {name: ms.name.trim(), glory: Number(ms.glory),
                                      requirement: ms.requirement.trim()}})),
    cardForm("treasure", [
      h("label", {}, t("board.card_name"), " ", text(tr, "name", "treasure-name", {required: true})),
      h("label", {}, t("board.cost"), " ", keep(number({max: "60", required: true, value: tr.cost,
        "data-key": "treasure-cost"}), tr, "cost")),
      h("label", {}, t("board.glory"), " ", keep(number({max: "30", required: true, value: tr.glory,
        "data-key": "treasure-glory"}), tr, "glory")),
      effectsField(tr.effects, "treasure", again)],
    () => {
      const card = {name: tr.name.trim(), cost: Number(tr.cost), glory: Number(tr.glory)};
      if (tr.effects.length) card.effects = effectsOf(tr.effects);
      return {kind: "treasure", card};
    }),
  ];
}
