// The photo page /t/<id>/photo: the phone's camera through a file input (capture works
// without HTTPS), the photo sent to the dice reader, then the read with one-tap corrections
// and the confirm that answers the roll prompt.
"use strict";

import {$, h, fill} from "./dom.js";
import {config, t} from "./i18n.js";
import {ApiError, getJSON, getOptional, me} from "./api.js";
import {actorLabel, lastAsked, normalizeRead, readPanel, readSummary, unchangedRead, uploadPhoto} from "./dice.js";
import {follow} from "./live.js";
import {dieName, playerName, promptQuestion} from "./views.js";

const tableId = config.table;
const base = `/api/tables/${encodeURIComponent(tableId)}`;
let view = null;
let read = null;
let who = null;
const version = () => (view ? view.version : -1);

function notice(text, kind) {
  fill($("#notice"), text ? h("p", {class: "notice " + (kind || "info"), text}) : null);
}

function rollPrompt() {
  return ((view && view.prompts) || []).find((p) => p.kind === "roll") || null;
}

function render() {
  const prompt = rollPrompt();
  $("#photo-prompt").textContent = prompt ? `${promptQuestion(view.state, prompt)} · ${t("roll.count", {count: prompt.count, die: dieName(prompt.die)})}`
    : t("photo.no_roll");
  $("#photo-form").hidden = !prompt;  // a photo answers a roll: none is asked, none is sent
  const box = $("#dice");
  if (!read) { fill(box, h("h2", {text: t("dice.title")}), h("p", {class: "muted", text: t("photo.none_yet")})); return; }
  fill(box, h("h2", {text: t("dice.title")}), readPanel(tableId, read, {
    faces: config.dice[prompt ? prompt.die : "seafall"] || [], version,
    canAct: !(who && who.role === "spectator"), actor: who ? (who.province || who.name) : null,
    nameOf: (actor) => {  // a province by its player, as the table page names it
      const province = ((view && view.state && view.state.provinces) || {})[actor];
      return province ? playerName(province.player, actor) : actorLabel(actor);
    },
    onChanged: async () => { await reload(); },
    onError: (err) => notice(err.message, "error")}));
}

// This page's read as it is now: another phone may have named, corrected or confirmed its
// dice, or a newer read replaced it (a photo sent since, the camera): the page then shows
// the newer one, which the table answers the roll with. With no read yet (the page just
// opened, or reloaded) the table's latest read is shown while it waits for the table.
// True when it changed since last fetched. An answer about a read the page no longer
// shows (a photo's own answer came first) is dropped.
const unchanged = unchangedRead();
const latestAnswer = lastAsked();
async function reloadRead() {
  const shown = read ? read.id : undefined;
  try {
    const answer = await latestAnswer(async () => {
      const mine = shown === undefined ? null
        : await getJSON(`${base}/dice/${encodeURIComponent(shown)}`);
      if (mine && mine.status !== "superseded") return mine;
      const latest = await getOptional(`${base}/dice/latest?if_any=1`);
      // with none shown, only a read that waits for the table (not an old applied one)
      return shown === undefined && latest && latest.status !== "pending" ? null : (latest || mine);
    });
    if (!answer || !answer.body) return false;  // a later reload answers, or nothing to show
    if ((read ? read.id : undefined) !== shown) return false;  // the page moved on meanwhile
    const body = answer.body;
    if (unchanged(body)) return false;
    const before = read;
    read = normalizeRead(body);
    // said when the newer read waits for the table (one already answered asks nothing)
    if (before && before.id !== read.id && read.status === "pending") {
      notice(t("dice.replaced"), "info");
    }
    return true;
  } catch (err) { return false; /* keep */ }
}

async function reload() {
  view = await getJSON(base);
  await reloadRead();
  render();
}

$("#photo-file").addEventListener("change", async (event) => {
  const file = event.target.files && event.target.files[0];
  if (!file) return;
  notice(t("photo.sending"), "info");
  try {
    const out = await uploadPhoto(tableId, file, who ? (who.province || who.name) : null);
    latestAnswer(async () => null);  // a reload asked before this answer is stale now
    read = normalizeRead(out);
    unchanged(out);  // remembered as drawn
    notice(readSummary(read), "info");
    render();
  } catch (err) {
    notice(err instanceof ApiError && err.status === 404 ? t("photo.unavailable") : err.message, "error");
  } finally {
    event.target.value = "";
  }
});

(async () => {
  try { who = await me(tableId); } catch (err) { who = null; }
  await reload();
  // a new version (the read applied, maybe from another phone) or a read changed without
  // one (its dice named or corrected, or a newer read replacing it: the stream's dice event)
  follow(tableId, {version, onStatus: () => {},
                   onUpdate: async (m) => { view = m.table; await reloadRead(); render(); },
                   onDice: async () => { if (await reloadRead()) render(); }});
})();
