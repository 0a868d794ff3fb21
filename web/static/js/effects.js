// The powers of a card the table names (a research card kept, a damage card drawn), typed
// as rows of the engine's effect vocabulary (companion/games/seafall/effects.py,
// docs/commands.md "Powers"): the effects such cards carry, each with the fields it needs.
// Others go through a typed command. `rows` is the caller's array, kept across redraws.
"use strict";

import {h} from "./dom.js";
import {t} from "./i18n.js";

const FIELDS = {  // effect -> its fields, in the order asked
  stat: ["stat", "amount"],
  dice: ["amount", "endeavor"],
  bonus_successes: ["amount"],
  reroll: ["face"],
  face_value: ["face", "value"],
  expertise: ["expertise", "amount"],
  note: ["text"],
};
const LISTS = {
  stat: ["sail", "raid", "explore", "hold"].map((s) => [s, t("option.stat." + s)]),
  endeavor: [["", t("power.both")], ["explore", t("end.kind.explore")], ["raid", t("end.kind.raid")]],
  face: ["blank", "standard", "weak", "strong"].map((f) => [f, t("face." + f)]),
  expertise: [["raid", "raid"], ["explore", "explore"], ["taxes", "collect_taxes"], ["buy", "buy"],
              ["sell", "sell"], ["upgrade", "upgrade"], ["build", "build"], ["research", "research"]]
    .map(([k, command]) => [k, t("command." + command)]),
};

export function newRow() {
  return {effect: "stat", stat: "sail", amount: "-1", endeavor: "", face: "weak", value: "0",
          expertise: "raid", text: ""};
}

// The rows as the engine's effects: [{"effect": "stat", "stat": "sail", "amount": -1}, ...]
export function effectsOf(rows) {
  return rows.map((row) => {
    const out = {effect: row.effect};
    for (const field of FIELDS[row.effect]) {
      if (field === "endeavor" && !row.endeavor) continue;
      if (field === "face" || field === "expertise") out.kind = row[field];
      else if (field === "amount" || field === "value") out[field] = Number(row[field]);
      else out[field] = field === "text" ? row.text.trim() : row[field];
    }
    return out;
  });
}

// A fieldset of the rows, with Add and Remove; `changed()` is called when a row is added or
// removed (the caller draws the form again), a value typed is kept in its row as it is typed.
export function effectsField(rows, key, changed) {
  return h("fieldset", {class: "effects stack", "data-key": "effects " + key},
    h("legend", {text: t("power.title")}),
    rows.map((row, i) => effectRow(rows, row, `${key} ${i}`, changed)),
    h("button", {type: "button", "data-key": `power-add ${key}`, text: t("power.add"),
                 onclick: () => { rows.push(newRow()); changed(); }}));
}

function effectRow(rows, row, key, changed) {
  const kind = h("select", {"data-key": "power " + key, "aria-label": t("power.kind")},
    Object.keys(FIELDS).map((e) => h("option", {value: e, text: t("power." + e), selected: e === row.effect})));
  kind.addEventListener("change", () => { row.effect = kind.value; changed(); });
  const fields = FIELDS[row.effect].map((field) => {
    const label = t("power.field." + field);
    let input;
    if (LISTS[field]) {
      input = h("select", {"data-key": `${field} ${key}`},
        LISTS[field].map(([value, text]) => h("option", {value, text, selected: value === row[field]})));
    } else if (field === "text") {
      input = h("input", {type: "text", required: true, maxlength: "200", value: row.text,
                          "data-key": `${field} ${key}`});
    } else {
      input = h("input", {type: "number", required: true, step: "1", inputmode: "numeric",
                          min: field === "value" ? "0" : "-9", max: "9", value: row[field],
                          "data-key": `${field} ${key}`});
    }
    input.addEventListener("input", () => { row[field] = input.value; });
    input.addEventListener("change", () => { row[field] = input.value; });
    return h("label", {}, label, " ", input);
  });
  return h("div", {class: "effect-row row", "data-row": key},
    h("label", {}, t("power.kind"), " ", kind), fields,
    h("button", {type: "button", "data-key": "power-remove " + key, text: t("power.remove"),
                 onclick: () => { rows.splice(rows.indexOf(row), 1); changed(); }}));
}

// A power in words, as a card prints it ("sail -1", "+1 die (exploration)", "Raid +1"): the
// province card's research cards, the ship card's damage cards. A power the catalogue does
// not word is said by its name. The history words a research card's powers the same way on
// the server (companion/games/seafall/powerwords.py, with the catalogue's words): change both.
const signed = (n) => (Number(n) > 0 ? "+" : "") + Number(n);
export function powerText(e) {
  const amount = Number(e.amount || 0);
  const values = {signed: signed(amount), count: Math.abs(amount)};
  if (e.stat) values.stat = t("option.stat." + e.stat, null, e.stat);
  if (e.kind && (e.effect === "reroll" || e.effect === "face_value")) values.face = t("face." + e.kind, null, e.kind);
  if (e.effect === "expertise") values.expertise = t("power.says.expertise." + e.kind, null, e.kind);
  if (e.effect === "face_value") values.count = Number(e.value || 0);
  if (e.effect === "note") return e.text || "";
  let text = t("power.says." + e.effect, values, e.effect.replace(/_/g, " "));
  if (e.endeavor) text = t("power.says.for", {power: text, endeavor: t("end.kind." + e.endeavor)});
  if (e.site_symbol) text = t("power.says.at_symbol", {power: text, symbol: e.site_symbol});
  if (e.role === "flagship") text = t("power.says.as_flagship", {power: text});
  if (e.role === "support") text = t("power.says.as_support", {power: text});
  return text;
}

export function powersText(effects) {
  return (effects || []).map(powerText).join(", ");
}
