// The join page /join/<id>?token=...: a name, a province or spectating, then the table.
"use strict";

import {$, h, fill} from "./dom.js";
import {config, t} from "./i18n.js";
import {ApiError, forget, send} from "./api.js";

const tableId = config.table;

$("#join-form")?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(event.target);
  const body = {token: config.token, name: String(data.get("name") || "").trim(),
                province: data.get("province") || null};
  try {
    await send(`/api/tables/${encodeURIComponent(tableId)}/join`, body, tableId);
    forget(tableId);
    location.assign(`/t/${encodeURIComponent(tableId)}`);
  } catch (err) {
    const said = err instanceof ApiError ? err.body.said : null;
    const taken = said && said.key === "join.taken" && said.values ? said.values : null;
    const text = taken ? takenMeanwhile(String(taken.seat), String(taken.holders), err.message)
      : err instanceof ApiError && err.status === 403 ? t("join.refused", {reason: err.message})
        : err instanceof ApiError && err.status === 404 ? t("join.unavailable") : err.message;
    fill($("#notice"), h("p", {class: "notice error", text}));
  }
});

// A province another phone took since the page was drawn: named as the page names it (its
// colour in the page's language, not its id), and greyed out as a taken one is, with who
// plays it; the sentence to show.
function takenMeanwhile(seat, holders, english) {
  const input = [...document.querySelectorAll("#join-form input[name=province]")]
    .find((radio) => radio.value === seat);
  if (input) {
    input.checked = false;
    input.disabled = true;
    const label = input.closest("label");
    const played = t("join.taken", {names: holders});
    const note = label.querySelector(".muted");
    if (note) {
      const before = note.textContent.trim().replace(/^\(|\)$/g, "");
      if (!before.includes(played)) note.textContent = `(${before ? before + " · " : ""}${played})`;
    } else {
      label.append(" ", h("span", {class: "muted", text: `(${played})`}));
    }
  }
  return t("said.join.taken", {seat: t("colour." + seat, null, seat), holders}, english);
}
