// The start page: create a table (the creator becomes host and sees the host PIN once).
// The odds calculator is its own module (/static/odds.js).
"use strict";

import {$, h, fill} from "./dom.js";
import {config, t} from "./i18n.js";
import {send, ApiError} from "./api.js";

// when each table was last played, in the page's language and the phone's time zone (the
// server writes it in UTC, for a page without scripts)
const when = new Intl.DateTimeFormat(config.lang, {dateStyle: "medium", timeStyle: "short"});
for (const time of document.querySelectorAll(".tables time[datetime]")) {
  const at = new Date(time.getAttribute("datetime"));
  if (!Number.isNaN(at.getTime())) time.textContent = when.format(at);
}

$("#create-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(event.target);
  let options;
  if (data.get("demo_setup")) {
    options = config.demo_options;
  } else {
    const provinces = [];
    for (const [key, value] of data.entries()) {
      if (key.startsWith("player-") && String(value).trim()) {
        provinces.push({colour: key.slice(7), player: String(value).trim()});
      }
    }
    options = {provinces};
  }
  const out = $("#create-result");
  try {
    const table = await send("/api/tables", {game: data.get("game"), options});
    const link = h("a", {class: "button primary", href: `/t/${encodeURIComponent(table.id)}`, text: t("home.go_table")});
    fill(out, table.host_pin ? h("p", {class: "notice info"}, t("home.host_pin"), " ", h("strong", {class: "pin", text: String(table.host_pin)})) : null,
      h("p", {}, link));
  } catch (err) {
    fill(out, h("p", {class: "notice error", text: err instanceof ApiError ? err.message : t("error.network")}));
  }
});
