// The join page /join/<id>?token=...: a name, a province or spectating, then the table.
"use strict";

import {$, h, fill} from "./dom.js";
import {config, t} from "./i18n.js";
import {ApiError, forget, me, send} from "./api.js";

const tableId = config.table;
let held = null;  // the seat this phone holds already: {province, name (as the form names it)}

// A phone that joined already and opens the link again (the QR code scanned twice): the page
// says which province it plays, with the way to the table, and its own province is offered
// as its own (it was greyed out as "played by Anne", the form looking fresh).
async function seatHeld() {
  const form = $("#join-form");
  if (!form) return;
  let who;
  try { who = await me(tableId); } catch (err) { return; }
  if (!who || !who.province) return;
  const input = [...form.querySelectorAll("input[name=province]")]
    .find((radio) => radio.value === who.province);
  if (!input) return;
  const label = input.closest("label");
  const named = label.querySelector(".player-name");
  held = {province: who.province, name: named ? named.textContent.trim() : who.province};
  input.disabled = false;
  input.checked = true;
  const note = label.querySelector(".muted");
  const seat = (who.seats || []).find((s) => s.id === who.province);
  if (note && seat && seat.taken_by.length) {
    const played = t("join.taken", {names: seat.taken_by.join(", ")});
    note.textContent = note.textContent.replace(played, t("join.yours"));
  }
  const name = $("#join-name");
  if (name && !name.value && who.name) name.value = who.name;
  const line = $("#seat-held");
  fill(line, t("join.already", {province: held.name}), " — ",
       h("a", {id: "open-table", href: `/t/${encodeURIComponent(tableId)}`, text: t("join.open_table")}));
  line.hidden = false;
}
seatHeld();

$("#join-form")?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(event.target);
  const body = {token: config.token, name: String(data.get("name") || "").trim(),
                province: data.get("province") || null};
  // giving up the seat this phone holds (another province, or watching) is asked once more
  if (held && body.province !== held.province) {
    const other = body.province
      ? event.target.querySelector(`input[name=province][value="${CSS.escape(body.province)}"]`)
      : null;
    const otherName = other && other.closest("label").querySelector(".player-name");
    const question = body.province
      ? t("join.confirm_switch", {seat: held.name,
                                  province: otherName ? otherName.textContent.trim() : body.province})
      : t("join.confirm_watch", {seat: held.name});
    if (!window.confirm(question)) return;
  }
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
