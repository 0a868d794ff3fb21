// The TV view /t/<id>/tv for a shared screen: large type, the last roll big, the glory
// track, each province at a glance, recent events, what the camera sees while the table
// waits for dice, and the join QR code when this browser is the host (GET /invite answers
// only the host).
"use strict";

import {$, h, fill} from "./dom.js";
import {config, t} from "./i18n.js";
import {getJSON, getOptional, me} from "./api.js";
import {follow} from "./live.js";
import {hardwareAlerts} from "./alerts.js";
import {cameraWatcher} from "./camera.js";
import {boxFortune} from "./boxcount.js";
import {lastAsked, normalizeRead} from "./dice.js";
import {speaker} from "./speech.js";
import {
  diceFaces, endeavorBlock, gloryTrack, historyEvents, lastRoll, playerName, promptQuestion, wholeRoll,
  rollerOf,
  provinceName, shipLabel, statusLine, svgImageUrl, titleName,
} from "./views.js";

const tableId = config.table;
const base = `/api/tables/${encodeURIComponent(tableId)}`;
let view = null;
let events = [];
const version = () => (view ? view.version : -1);
let read = null;  // the latest dice read: one waiting for the table is checked on a phone
let boxConfirms = false;  // ... or confirmed on the button box (GET .../buttons expects it)
const latestAnswer = lastAsked();
const voice = speaker($("#speak"), config.lang);  // each new event read aloud, when on
async function loadRead() {
  try {
    const answer = await latestAnswer(() => getOptional(`${base}/dice/latest?if_any=1`));
    if (answer) read = normalizeRead(answer.body);  // else a later reload answers
  } catch (err) { /* keep */ }
}
async function readChanged() {
  await loadRead();
  boxConfirms = false;
  if (read && (read.status === "pending" || read.status === "undone")) {
    try {
      const buttons = await getOptional(`${base}/buttons`);
      boxConfirms = Boolean(buttons && buttons.expects.actions.includes("confirm"));
    } catch (err) { /* a phone, then */ }
  }
  trayWatch.render();
  fitRoll();
}
// a box of buttons at the table (serial, or on the Pi's pins): not the dashboard's own
const boxAtTable = (hw) => Boolean(hw && ((hw.button_box && hw.button_box.connected)
                                          || (hw.gpio && hw.gpio.state === "running")));
const where = (kind) => (hw) => `watch.${kind}_${boxConfirms && boxAtTable(hw) ? "box" : "phone"}`;

// A prompt's question beside the badge naming its player: without the name again at its
// start ("[Blue] Blue takes 3 damage" read « Bleu Bleu subit 3 dégâts »); the badge says who.
function unnamed(question, who) {
  if (!who || !question.startsWith(who + " ") && !question.startsWith(who + "\u00a0")) return question;
  return question.slice(who.length).replace(/^[\s\u00a0]*:?[\s\u00a0]*/, "");
}

// the fortune counted on the button box, under a spend prompt
const boxCount = boxFortune(tableId);
// what the camera sees, under a roll prompt
const trayWatch = cameraWatcher(tableId, {
  currentRead: () => read,
  onNewRead: readChanged,
  readKey: where("read"),  // the TV does not show the read itself
  undoneKey: where("undone"),
});

function tvProvince(state, colour) {
  const prov = state.provinces[colour];
  const ships = (prov.ships || []).map((id) => state.ships[id]).filter(Boolean);
  return h("article", {class: "tv-province", "data-province": colour},
    h("h3", {}, h("span", {class: `swatch c-${colour}`, "aria-hidden": "true"}),
      h("span", {class: "player-name", text: playerName(prov.player, colour)}),
      prov.title ? h("span", {class: "pill", text: titleName(prov.title)}) : null),
    h("p", {class: "tv-tokens"},
      h("span", {}, h("b", {text: String(prov.gold)}), " ", t("prov.gold")),
      h("span", {}, h("b", {text: String(prov.fortune)}), " ", t("prov.fortune")),
      h("span", {}, h("b", {text: String(prov.reputation)}), " ", t("prov.reputation")),
      h("span", {}, h("b", {text: String(prov.home_enmity)}), " ", t("prov.enmity"))),
    h("ul", {class: "tv-ships"}, ships.map((s) => h("li", {class: s.sunk ? "sunk" : ""},
      shipLabel(s), s.sunk ? h("span", {class: "damage", text: " · " + t("ship.sunk")})
        : s.damage.length ? h("span", {class: "damage", text: " ✕" + s.damage.length}) : null,
      s.upgrades.length ? h("span", {class: "muted", text: " · " + s.upgrades.map((u) => u.name).join(", ")}) : null))));
}

function render() {
  const state = view.state;
  $("#status").textContent = statusLine(state);
  fill($("#glory"), gloryTrack(state));
  fill($("#provinces"), (state.seating || Object.keys(state.provinces)).map((c) => tvProvince(state, c)));
  // the last roll, whose it was; none while an endeavor waits for its first dice (the
  // roll shown was another endeavor's, with no owner): its card says what is asked
  const waiting = state.endeavor && !(state.endeavor.faces || []).length;
  const roll = waiting ? null : lastRoll(events);
  const whole = roll ? wholeRoll(events, roll) : null;  // a re-roll's dice with the others
  const end = endeavorBlock(state, view.phrases);
  fill($("#tv-roll"),
    roll ? [diceFaces(whole.faces, "huge", whole.rerolled), h("p", {class: "tv-roll-text",
      text: t("dice.roll_of", {player: rollerOf(state, events, roll), text: whole.text})})]
      : waiting ? null : h("p", {class: "muted", text: t("dice.none")}),
    end);
  $("#roll-title").hidden = waiting;  // no "Last roll" over the endeavor's card alone
  const prompt = (view.prompts || [])[0];
  const who = prompt && prompt.player ? provinceName(state, prompt.player) : null;
  fill($("#tv-prompt"), prompt ? [h("span", {class: "pill", text: who || t("prompt.title")}),
    " ", unnamed(promptQuestion(state, prompt), who), prompt.kind === "roll" ? trayWatch.element() : null,
    boxCount.line(prompt)] : null);
  trayWatch.render();
  fitRoll();  // once the prompt above the card is in (measured without it, the first
  // drawing kept the bars that the next one dropped)
  fill($("#tv-events"), [...events].reverse().slice(0, 6).map((e) => h("li", {text: e.text || e.type})));
  fitEvents();
}

// The recent events, newest first, as many as the side column holds: the oldest go rather
// than a line cut in half at the bottom of the screen (long lines, the invite above).
function fitEvents() {
  const side = $(".tv-side"), list = $("#tv-events");
  while (list.children.length > 1 && side.scrollHeight > side.clientHeight) list.lastElementChild.remove();
}

// The TV is not scrolled: when the roll's column holds more than the screen (a long pool,
// many dice), the card's spacing closes up first, then the bar per number of successes
// goes, then the pool's lines, so the headline figures stay in view (they were cut off at
// the bottom).
function fitRoll() {
  const column = $(".tv-roll");
  column.classList.remove("snug", "tight", "tighter");
  for (const step of ["snug", "tight", "tighter"]) {
    if (column.scrollHeight <= column.clientHeight) return;
    column.classList.add(step);
  }
}

// The events of the table's history, in the page's language; new ones read aloud.
async function loadEvents() {
  try {
    events = historyEvents((await getJSON(`${base}/history?lang=${config.lang}`)).history,
                           view && view.state);
    voice.hear(events);
  } catch (err) { /* keep */ }
}

async function reload() {
  view = await getJSON(base);
  await boxCount.load((view.prompts || [])[0]);
  await loadRead();
  await loadEvents();
  render();
}

// the join code is the host's to show: another browser does not ask (it would be refused)
async function invite() {
  let body = null;
  try {
    const who = await me(tableId);
    if (who && who.role === "host") body = await getOptional(`${base}/invite`);
  } catch (err) { body = null; }
  if (!body || !body.qr_svg) return;
  $("#tv-qr").src = svgImageUrl(body.qr_svg);
  $("#tv-join-url").textContent = body.join_url || "";
  $("#tv-join").hidden = false;
  // the invite takes room from the recent events: fitted again once its picture is in
  const qr = $("#tv-qr");
  if (qr.complete) render(); else qr.addEventListener("load", render, {once: true});
}

(async () => {
  await reload();
  invite();
  window.addEventListener("resize", render);  // a window made smaller holds fewer lines
  // the camera's status now and every 15 s (every 2 s while a roll is asked for and the
  // camera reads for this table: camera.js)
  const alerts = hardwareAlerts($("#hw-alerts"), "hw.alert_where_phone");
  const hardware = () => getOptional("/api/hardware").catch(() => null).then((status) => {
    alerts(status);
    return trayWatch.follow(status);
  });
  hardware();
  setInterval(hardware, 15000);
  follow(tableId, {
    version,
    onStatus: (s) => { $("#conn").dataset.status = s; $("#conn").textContent = t("conn." + s); },
    onDice: readChanged,
    onButtons: async () => { await boxCount.load((view.prompts || [])[0]); render(); },
    onUpdate: async (m) => {
      if (m.version <= version() && !m.back) return;  // back: a backup restored (live.js)
      view = m.table;
      render();  // at once; the history (the dice of the roll) and the box's count follow
      readChanged();
      await Promise.all([loadEvents(), boxCount.load((view.prompts || [])[0])]);
      render();
    },
  });
})();
