// The explored sites whose sticker the table has not told yet (rulebook, "Explorers Guild" >
// "Explore": a site explored gets the sticker of what was found there). Until it is told
// (record_site, docs/commands.md), the site produces nothing at winter and cannot be
// raided: this card asks for it, one small form per site, on the phones that may act.
"use strict";

import {h, redraw} from "./dom.js";
import {t} from "./i18n.js";
import {goodName, siteName} from "./views.js";

const KINDS = ["good", "mine", "docks", "market", "other"];
const GOODS = ["wood", "linen", "spice", "iron"];
const COLOURED = new Set(["good", "docks", "market"]);

// island sites explored and not yet told what they are, in id order
export function unrecorded(state) {
  return Object.entries(state.sites || {})
    .filter(([, s]) => s.kind === "explored" && ((state.regions || {})[s.region] || {}).kind === "island")
    .map(([id]) => id).sort();
}

let drawn = null;  // what the card shows: it is drawn again only when that changes

// `send(args)` sends the record_site command; `enabled` is false on a spectator's phone (the
// card is not shown) and while another command is on its way.
export function renderExplored(box, state, {enabled, send}) {
  const ids = enabled ? unrecorded(state) : [];
  const key = ids.join(" ");
  if (key === drawn) return;
  drawn = key;
  box.hidden = !ids.length;
  if (!ids.length) { redraw(box); return; }
  redraw(box, h("h2", {text: t("explored.title")}),
    h("p", {class: "muted small", text: t("explored.help")}),
    ids.map((id) => siteForm(state, id, send)));
}

function siteForm(state, id, send) {
  const kind = h("select", {"data-key": "kind " + id, "aria-label": t("explored.kind")},
    KINDS.map((k) => h("option", {value: k, text: t("explored.kind." + k)})));
  const colour = h("select", {"data-key": "colour " + id, "aria-label": t("explored.colour")},
    GOODS.map((g) => h("option", {value: g, text: goodName(g)})));
  const value = h("input", {type: "number", min: "0", max: "20", step: "1", inputmode: "numeric",
                            "data-key": "value " + id, "aria-label": t("explored.value")});
  const present = h("input", {type: "checkbox", "data-key": "present " + id});
  const colourRow = h("label", {}, t("explored.colour"), " ", colour);
  const valueRow = h("label", {}, t("explored.value"), " ", value);
  const presentRow = h("label", {class: "check-row"}, present, " ", t("explored.present"));
  const sync = () => {
    colourRow.hidden = !COLOURED.has(kind.value);
    valueRow.hidden = kind.value !== "mine";
    value.required = kind.value === "mine";
    presentRow.hidden = kind.value !== "good";
  };
  kind.addEventListener("change", sync);
  sync();
  const form = h("form", {class: "explored-site", "data-site": id},
    h("fieldset", {class: "stack"},
      h("legend", {text: siteName(state, id)}),
      h("label", {}, t("explored.kind"), " ", kind),
      colourRow, valueRow, presentRow,
      h("button", {type: "submit", class: "primary", "data-key": "record " + id, text: t("explored.record")})));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!form.reportValidity()) return;
    const args = {site: id, kind: kind.value};
    if (COLOURED.has(kind.value)) args.colour = colour.value;
    if (kind.value === "mine") args.value = Number(value.value);
    if (kind.value === "good") args.good_present = present.checked;
    send(args);
  });
  return form;
}
