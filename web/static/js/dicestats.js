// The table page's "Dice at this table" (GET /api/tables/<id>/dice/stats): each face thrown
// against what fair dice would show, whether that is unusual (the chi-square test's p:
// docs/api.md, "Dice statistics"), and the same by how the dice were read (a camera that
// reads one face too often shows here) and by province (named by its player, with its colour's
// swatch, as the province cards name it). Read when the card is opened, and again at each new
// version while it is open.
"use strict";

import {h, fill} from "./dom.js";
import {t, pct, num} from "./i18n.js";
import {getJSON} from "./api.js";
import {dieName, faceName, provinceName} from "./views.js";

const UNUSUAL = 0.01;  // a p below this is called unusual

// the test's answer in words: a sentence, or (`brief`) a few words for one group's line
function verdict(f, minExpected, brief = false) {
  const key = f.p_value === null ? "too_few" : f.p_value < UNUSUAL ? "unusual" : "usual";
  return t(`stats.${brief ? "brief_" : ""}${key}`,
           {min: num(minExpected), p: f.p_value === null ? "" : pct(f.p_value)});
}

function faceRows(f) {
  const top = Math.max(1, ...f.faces.map((x) => Math.max(x.observed, x.expected)));
  return h("table", {class: "stats-faces"},
    h("thead", {}, h("tr", {},
      h("th", {scope: "col", text: t("stats.face")}),
      h("th", {scope: "col", text: t("stats.thrown")}),
      h("th", {scope: "col", text: t("stats.fair")}))),
    h("tbody", {}, f.faces.map((x) => h("tr", {"data-face": x.label},
      h("th", {scope: "row", text: faceName(x.label)}),
      h("td", {}, h("span", {class: "stats-bar", style: `width: ${(100 * x.observed / top).toFixed(1)}%`}),
        h("span", {class: "stats-n", text: String(x.observed)})),
      h("td", {class: "muted", text: num(x.expected)})))));
}

// `name(key)` is a group's name: a text, or nodes (a province's swatch and player)
function groupRows(title, groups, name, minExpected) {
  const entries = Object.entries(groups || {});
  if (entries.length < 2) return null;  // one group is the whole table again
  return h("div", {class: "stats-group"}, h("h4", {text: title}),
    h("ul", {}, entries.map(([key, f]) => h("li", {"data-group": key},
      h("strong", {}, name(key)), ` · ${t("stats.dice", {count: f.dice})} · ${verdict(f, minExpected, true)}`))));
}

// a province as the province cards name it: its colour's swatch, then its player
function province(state, colour) {
  return [h("span", {class: `swatch c-${colour}`, "aria-hidden": "true"}),
          h("bdi", {text: provinceName(state || {}, colour)})];
}

function render(body, data, state) {
  if (!data.dice.length) {
    fill(body, h("p", {class: "muted", text: t("stats.none")}));
    return;
  }
  fill(body, data.dice.map((f) => h("div", {class: "stats-die", "data-die": f.die},
    h("p", {}, h("strong", {text: t("stats.die", {die: dieName(f.die), count: f.dice})})),
    faceRows(f),
    h("p", {class: "stats-verdict", text: verdict(f, data.min_expected)}),
    groupRows(t("stats.by_source"), f.by_source, (k) => t("dice.source." + k, null, k), data.min_expected),
    groupRows(t("stats.by_player"), f.by_player, (k) => province(state, k), data.min_expected))));
}

// `details` is the card's <details>; `body` where the figures go; `state()` the table's
// state now (for the players' names).
export function diceStats(base, details, body, state = () => null) {
  let shown = -1;  // the version drawn
  async function load(version) {
    if (!details.open || version === shown) return;
    try {
      const data = await getJSON(`${base}/dice/stats`);
      shown = data.version;
      render(body, data, state());
    } catch (err) {
      fill(body, h("p", {class: "notice error", text: err.message || t("error.network")}));
    }
  }
  details.addEventListener("toggle", () => load(null));
  return {changed: (version) => load(version)};
}
