// The odds calculator on the start page: asks GET /api/odds/seafall and shows the exact
// chances, in the page's language.
"use strict";

import {$, h, fill} from "./js/dom.js";
import {t, pct, num} from "./js/i18n.js";
import {getJSON} from "./js/api.js";

$("#odds-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(event.target);
  const query = new URLSearchParams();
  for (const name of ["dice", "defense", "fortune", "fortune_at_dangerous"]) query.set(name, data.get(name) || "0");
  for (const name of ["dangerous", "reroll_weak", "strong_counts_double"]) query.set(name, data.get(name) ? "1" : "0");
  const out = $("#odds-result");
  try {
    const body = await getJSON("/api/odds/seafall?" + query);
    fill(out,
      h("p", {class: "headline", text: t("odds.headline", {success: pct(body.p_at_least_one_success),
        nodamage: pct(body.p_no_damage), damage: num(body.expected_damage)})}),
      h("table", {class: "dist"},
        h("tr", {}, h("th", {text: t("odds.successes")}), h("th", {text: t("odds.probability")})),
        body.successes.map((p, k) => h("tr", {}, h("td", {text: String(k)}), h("td", {class: "num", text: pct(p)})))));
  } catch (err) {
    fill(out, h("p", {class: "notice error", text: err.message}));
  }
});
