// Research (rulebook, "Explorers Guild" > "Research"): the cards are physical, so the turn's
// choices list research with the number of `cards` drawn (docs/seafall-actions.md); the
// player names each card drawn, ticks the one kept and types its powers. What is typed is
// kept here while the page redraws at each version (another phone acting), until it is
// sent or research is no longer offered.
"use strict";

import {h} from "./dom.js";
import {t} from "./i18n.js";
import {effectsField, effectsOf} from "./effects.js";

let sheet = null;  // {names, keep, rows} as typed

export function forgetResearch() {
  sheet = null;
}

// `choice`: the research entry of /choices, `summary` its summary in the page's language
// (its price); `send(args)` sends the command; `again()` draws
// the form anew (a power added or removed); `enabled` false while this phone may not act.
export function researchForm(choice, summary, {enabled, send, again}) {
  const cards = Math.max(1, choice.cards || 1);
  if (!sheet) sheet = {names: [], keep: 0, rows: []};
  sheet.names.length = cards;
  if (sheet.keep >= cards) sheet.keep = 0;
  const rows = [];
  for (let i = 0; i < cards; i++) {
    const name = h("input", {type: "text", name: "drawn", maxlength: "60", autocomplete: "off",
      required: i === 0, value: sheet.names[i] || "", "data-key": "research-name " + i,
      "aria-label": t("research.card", {n: i + 1})});
    name.addEventListener("input", () => { sheet.names[i] = name.value; });
    const keep = h("input", {type: "radio", name: "keep", value: String(i),
      checked: sheet.keep === i, "data-key": "research-keep " + i, "aria-label": t("research.keep")});
    keep.addEventListener("change", () => { sheet.keep = i; });
    rows.push(h("div", {class: "row research-card"},
      h("label", {}, t("research.card", {n: i + 1}), " ", name),
      h("label", {class: "check-row"}, keep, " ", t("research.keep"))));
  }
  const form = h("form", {class: "stack research-form", "data-key": "research-form"},
    h("p", {class: "muted small", text: t("research.help", {count: cards, summary})}),
    rows, effectsField(sheet.rows, "research", again),
    h("button", {type: "submit", class: "primary", "data-key": "research-go", disabled: !enabled,
                 text: t("research.go")}));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    const names = sheet.names.map((n) => (n || "").trim());
    const keep = names[sheet.keep];
    if (!keep) {  // the card kept is one named
      const field = form.querySelector(`[data-key="research-name ${sheet.keep}"]`);
      field.setCustomValidity(t("research.keep_named"));
      field.reportValidity();
      field.addEventListener("input", () => field.setCustomValidity(""), {once: true});
      return;
    }
    send({drawn: names.filter((n) => n), keep, effects: effectsOf(sheet.rows)});
  });
  return form;
}
