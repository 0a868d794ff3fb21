// The phone table page /t/<id>: the table live, the prompt of the moment with big buttons,
// the endeavor builder with exact odds, dice reads, history with undo/redo, hardware status
// and rule search. All state comes from the JSON API; the page never decides a rule.
"use strict";

import {$, h, fill, redraw, typedInput} from "./dom.js";
import {config, t, has, pct, num, inLanguage} from "./i18n.js";
import {ApiError, NetworkError, getJSON, getOptional, me, remove, send} from "./api.js";
import {follow} from "./live.js";
import {lastAsked, normalizeRead, readPanel, readSummary, unchangedRead, uploadPhoto} from "./dice.js";
import {hardwareAlerts} from "./alerts.js";
import {cameraWatcher} from "./camera.js";
import {boxFortune} from "./boxcount.js";
import {servedLine} from "./served.js";
import {diceStats} from "./dicestats.js";
import {renderExplored} from "./explored.js";
import {forgetResearch, researchForm} from "./research.js";
import {effectsField, effectsOf} from "./effects.js";
import {renderBoardSetup} from "./boardsetup.js";
import {searchRules} from "./rules.js";
import {
  actorName as actorNamed, advisorName, colourName, diceFaces, dieName, endeavorBlock, enmityList, faceName, faceSymbol, gloryTrack, historyEvents,
  goodName, lastRoll, listed, optionLabel, wholeRoll, rollerOf, placeName, playerName, poolLines, promptQuestion, provinceCard,
  provinceName, seaName, shipName, siteName, statusLine, stepText, svgImageUrl,
} from "./views.js";

const tableId = config.table;
const base = `/api/tables/${encodeURIComponent(tableId)}`;
let view = null;          // the table JSON
let who = null;           // /me, or null without auth
let choices = [];         // legal commands now
let choicePhrases = {};   // their previews' engine phrases in the page's language
let history = [];
let read = null;          // the latest dice read (dice API), normalized
let tally = {id: null, counts: {}};
let builder = {kind: null, flagship: null, choice: null, preview: null};
let busy = false;
let seatRole;             // the role the seat panel was drawn for
let lessons = new Map();  // the host's: read id -> the die whose profile learned from it

const version = () => (view ? view.version : -1);
// The version the screen shows: what a command is sent against. A new version is kept in
// `view` as soon as it comes, but drawn only once its /choices and /history are read; a tap
// meanwhile, on a button of the screen before, went out with the new version and was
// accepted (an "End the turn" the host had just taken back). Sent with the version shown,
// it is refused as a conflict, and the page refreshes and says so.
let shown = -1;
let loading = 0;          // new versions whose /choices and /history are being read
const shownVersion = () => shown;
// what the camera sees, under a roll prompt; a camera read left pending is fetched here
const trayWatch = cameraWatcher(tableId, {currentRead: () => read, onNewRead: readChanged});
// the fortune counted on the button box, under a spend prompt
const boxCount = boxFortune(tableId);

let errorShownAt = 0;  // when the error in the notice was shown (0: none)
let unanswered = false;  // the notice says the table did not answer (a NetworkError)

let noticeKind = null;  // the kind of the notice shown ("info", "warn", "error"), or null

function notice(text, kind) {
  const box = $("#notice");
  if (text) text = text.charAt(0).toUpperCase() + text.slice(1);  // a refusal is a sentence
  fill(box, text ? h("p", {class: "notice " + (kind || "info"), text}) : null);
  noticeKind = text ? (kind || "info") : null;
  errorShownAt = text && kind === "error" ? Date.now() : 0;
  unanswered = false;
  if (text && kind !== "error") setTimeout(() => { if (box.textContent === text) fill(box); }, 6000);
}

// An error stays until the table moves on: a new version, once it was read (6 s), clears it.
function staleError() {
  if (errorShownAt && Date.now() - errorShownAt > 6000) notice(null);
}

function showError(err) {
  if (err instanceof NetworkError) {  // said, not logged: the badge says when it is back
    notice(t("error.network"), "error");
    unanswered = true;
    return;
  }
  if (!(err instanceof ApiError)) console.error(err);
  if (err instanceof ApiError && err.code === "conflict") {
    notice(t("error.conflict"), "warn");
    refresh().finally(() => { retyped = null; });  // drawn: what was typed is back, or not offered
    return;
  }
  notice(err instanceof ApiError ? err.message : t("error.network"), "error");
}

// Whether this phone may act for every province: the host, or a player while the host lets
// players act for all (web/auth.py acts_for_all).
function forAll() {
  return !who || who.role === "host" || (who.role === "player" && who.players_act_for_all === true);
}

// The province a command is sent as: this phone's own, unless it acts for all, when it is
// the prompt's (or the turn's) province.
function actorFor(prompt) {
  if (who && who.province && !forAll()) return who.province;
  if (prompt && prompt.player) return prompt.player;
  if (view && view.state.turn) return view.state.turn.player;
  return who && who.province ? who.province : null;
}

function canAct() {
  return !(who && who.role === "spectator");
}

// Whether this phone may take the turn's actions now: its own turn, or it acts for all.
function canTakeTurn() {
  const turn = view && view.state.turn;
  return canAct() && (forAll() || !who.province || !turn || turn.player === who.province);
}

// Send a command answering a prompt or taken from /choices; true once it went through.
// `typed`: what was typed with a prompt's option (optionInputs), given back to the form
// when the command comes back as a conflict and the redrawn prompt still offers the option.
async function command(type, args, prompt, typed = null) {
  if (busy) return false;
  busy = true;
  document.body.classList.add("busy");
  try {
    const body = {type, args, expected_version: shownVersion()};
    const actor = actorFor(prompt);
    if (actor) body.actor = actor;
    const out = await send(`${base}/commands`, body, tableId);
    if (errorShownAt) notice(null);  // it went through: an error shown before it is over
    await update({version: out.version, table: out, events: out.events || [], own: true});
    keyboardAfterDrawing();
    return true;
  } catch (err) {
    if (typed && err instanceof ApiError && err.code === "conflict") retyped = typed;
    showError(err);
    return false;
  } finally {
    busy = false;
    document.body.classList.remove("busy");
  }
}

// After a command the button tapped may be gone (a prompt answered, an action taken): the
// keyboard goes on to the next prompt's first choice, else to where the game stands, never
// back to the top of the page.
// A command answered from the keyboard: once the screen shows its outcome, the keyboard
// goes on where the game stands (keepKeyboard). The live stream may bring the same version
// first, and it is then drawn only once its choices and history are in: the focus is kept
// for that drawing (under load, the button pressed stayed focused until it was drawn away,
// and the keyboard was left at the top of the page).
let keyboardWaits = false;
function keyboardAfterDrawing() {
  keyboardWaits = loading > 0;
  if (!keyboardWaits) keepKeyboard();
}

function keepKeyboard() {
  const focused = document.activeElement;
  if (focused && focused !== document.body && document.contains(focused)) return;
  const next = $("#prompt").hidden ? null : $("#prompt").querySelector("button:not([disabled])");
  (next || $("#status")).focus({preventScroll: true});
}

async function historyStep(which) {
  try {
    const body = {expected_version: shownVersion()};
    // who takes it back: a player as their province; the host as themselves (the server
    // names them), not as the province whose command it was (the history said Green undid)
    const actor = who && who.role === "host" ? null : actorFor(null);
    if (actor) body.actor = actor;
    const out = await send(`${base}/${which}`, body, tableId);
    await update({version: out.version, table: out, events: out.events || [], own: true});
    notice(t(which === "undo" ? "history.undone" : "history.redone"), "info");
  } catch (err) {
    showError(err);
    campaignMoved();  // recorded into its campaign meanwhile?
  }
}

// ---- the prompt -------------------------------------------------------------------------

// The faces counted so far for a roll, kept in this tab (sessionStorage) while the roll is
// asked: a reload, or a phone that slept and reloaded, lost a half-entered count.
const TALLY_KEY = `tableside.tally.${tableId}`;
function keptTally(id) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(TALLY_KEY) || "null");
    return kept && kept.id === id && kept.counts && typeof kept.counts === "object"
      ? {id, counts: kept.counts} : null;
  } catch (err) { return null; }
}
function forgetKeptTally() {
  try { sessionStorage.removeItem(TALLY_KEY); } catch (err) { /* nothing kept */ }
}
// The count under way, if any: this page's, or one kept in the tab by the page before a
// reload (a phone that slept); null once sent or with nothing counted.
function countUnderWay() {
  let count = tally;
  if (tally.id === null) {
    try { count = JSON.parse(sessionStorage.getItem(TALLY_KEY) || "null"); }
    catch (err) { count = null; }
  }
  if (!count || count.id == null || count.sent || !count.counts) return null;
  return Object.values(count.counts).some((n) => n > 0) ? count : null;
}
function dropTally() {  // answered (by this phone or another way): nothing to keep
  tally = {id: null, counts: {}};
  forgetKeptTally();
}
function keepTally() {
  try { sessionStorage.setItem(TALLY_KEY, JSON.stringify({id: tally.id, counts: tally.counts})); }
  catch (err) { /* private browsing: the count lives as long as the page */ }
}

function rollPrompt(prompt) {
  const faces = (config.dice || {})[prompt.die] || [];
  if (tally.id !== prompt.id) tally = keptTally(prompt.id) || {id: prompt.id, counts: {}};
  const total = () => Object.values(tally.counts).reduce((a, b) => a + b, 0);
  const counter = h("p", {class: "tally-total", "aria-live": "polite"});
  const confirm = h("button", {type: "button", class: "primary big", id: "confirm-faces",
    "data-key": "confirm faces", onclick: () => {
      const list = [];
      for (const f of faces) for (let i = 0; i < (tally.counts[f.label] || 0); i++) list.push(f.label);
      tally.sent = true;  // this phone's own answer: no "answered meanwhile" for it
      forgetKeptTally();
      command(prompt.command, {[prompt.arg]: list}, prompt);
    }});
  const refreshTotal = () => {
    counter.textContent = t("roll.total", {count: total(), of: prompt.count});
    confirm.disabled = total() !== prompt.count || !canAct();
    confirm.textContent = t("roll.confirm", {count: prompt.count});
  };
  const rows = faces.map((f) => {
    const value = h("span", {class: "tally-value", text: String(tally.counts[f.label] || 0)});
    const change = (d) => {
      const n = Math.max(0, (tally.counts[f.label] || 0) + d);
      if (d > 0 && total() >= prompt.count) return;
      tally.counts[f.label] = n;
      keepTally();
      value.textContent = String(n);
      refreshTotal();
    };
    return h("li", {class: "tally-row f-" + f.label, "data-face": f.label},
      h("span", {class: "face-symbol", "aria-hidden": "true", text: faceSymbol(f.label)}),
      h("span", {class: "face-name", text: faceName(f.label)}),
      h("button", {type: "button", class: "stepper", "aria-label": t("roll.less", {face: faceName(f.label)}),
                   "data-key": "less " + f.label, text: "−", onclick: () => change(-1)}),
      value,
      h("button", {type: "button", class: "stepper", "aria-label": t("roll.more", {face: faceName(f.label)}),
                   "data-key": "more " + f.label, text: "+", onclick: () => change(+1)}));
  });
  refreshTotal();
  return [
    h("p", {class: "question", text: promptQuestion(view.state, prompt)}),
    h("p", {class: "big-count", text: t("roll.count", {count: prompt.count, die: dieName(prompt.die)})}),
    photoButton(),
    h("p", {class: "muted", text: t("roll.or_type")}),
    h("ul", {class: "tally"}, rows),
    counter,
    confirm,
  ];
}

function photoButton() {
  const input = h("input", {type: "file", accept: "image/*", capture: "environment",
                            class: "visually-hidden", id: "photo-input",
                            onchange: () => sendPhoto(input)});
  return h("label", {class: "button big photo-button", for: "photo-input"},
    input, h("span", {class: "icon-camera", "aria-hidden": "true"}), t("photo.take"));
}

async function sendPhoto(input) {
  const file = input.files && input.files[0];
  if (!file) return;
  notice(t("photo.sending"), "info");
  try {
    const out = await uploadPhoto(tableId, file, who ? (who.province || who.name) : null);
    read = normalizeRead(out);
    notice(readSummary(read), "info");
    if (typeof out.table_version === "number" && out.table_version !== version()) await refresh();
    renderDice();
    $("#dice").scrollIntoView({behavior: "smooth", block: "start"});
  } catch (err) {
    if (err instanceof ApiError && err.status === 404 && err.code === "not_found" &&
        /route|URL/i.test(err.message)) {
      notice(t("photo.unavailable"), "error");
    } else showError(err);
  } finally {
    input.value = "";
  }
}

// An option that needs something typed with it (an appellation's name, a field's new gold
// value, a damage card's name and powers) opens a small form under the choices; what is
// typed is kept while the page redraws.
let typing = null;  // {prompt: id, value: the option's, values: {arg: text, or effect rows}}
// What was typed with an option sent and refused as a conflict (another phone moved the
// game on meanwhile: a damage point taken there, an undo and redo): the page redraws the
// game as it is now, and the form opens again with what was typed (a damage card's name,
// its powers) if the prompt still offers that option; the prompt's id may have changed
// (one damage point less to take). {command, value, values}, until the refresh has drawn.
let retyped = null;

function choicePrompt(prompt) {
  const open = typing ? prompt.options.find((o) => o.value === typing.value) : null;
  return [
    h("p", {class: "question", text: promptQuestion(view.state, prompt)}),
    h("div", {class: "choices"}, prompt.options.map((o) => h("button", {
      type: "button", class: "choice" + (o === open ? " selected" : ""), disabled: !canAct(),
      "data-value": o.value, "data-key": "choice " + o.value, text: optionLabel(view.state, prompt, o),
      onclick: () => {
        if (!(o.inputs || []).length) { command(prompt.command, {[prompt.arg]: o.value}, prompt); return; }
        typing = {prompt: prompt.id, value: o.value, values: {}};
        renderPrompt();
        const first = $("#prompt form.option-inputs input");
        if (first) first.focus();
      }}))),
    open ? optionInputs(prompt, open) : null,
  ];
}

// A text with a default (a damage card's name: "damage", any card) is shown empty, the
// default said in the page's language as its placeholder, and left out when left empty:
// the engine's default applies (a French page never shows the engine's English word).
// A card's powers are rows of effects.js, left out when there are none: a card the engine
// knows by its name brings its own.
function optionInputs(prompt, option) {
  const fields = option.inputs.map((input) => {
    if (input.kind === "effects") {
      const rows = typing.values[input.arg] || (typing.values[input.arg] = []);
      return effectsField(rows, prompt.command, () => { $("#prompt").dataset.key = ""; renderPrompt(); });
    }
    const kept = typing.values[input.arg];
    const field = typedInput(input, input.arg,
      kept !== undefined ? kept : (input.kind === "number" && input.default !== null ? String(input.default) : ""));
    // the default said on a line under the field, the field's placeholder a word: the
    // sentence as a placeholder was cut short on a 390 px phone ("none: an unnamed damage car…")
    const hint = input.kind !== "number" && input.default !== null
      ? h("span", {class: "muted small input-hint", id: `hint-${prompt.command}-${input.arg}`,
                   text: t(`input.${prompt.command}.${input.arg}.empty`, null, String(input.default))}) : null;
    if (hint) {
      field.placeholder = t("input.optional");
      field.setAttribute("aria-describedby", hint.id);
    }
    // a name has a most length, which the field stops at: a count says so (a name typed
    // or pasted longer was cut short without a word)
    const count = input.kind !== "number" && input.maximum
      ? h("span", {class: "muted small", "aria-live": "polite"}) : null;
    const counted = () => {
      if (count) count.textContent = t("input.chars", {count: field.value.length, n: field.value.length, max: input.maximum});
    };
    field.addEventListener("input", () => { typing.values[input.arg] = field.value; counted(); });
    counted();
    return h("label", {}, t(`input.${prompt.command}.${input.arg}`, null, input.label), field, hint, count);
  });
  const form = h("form", {class: "option-inputs stack"}, ...fields,
    h("div", {class: "row"},
      h("button", {type: "submit", class: "primary", disabled: !canAct(), text: t("prompt.input_send")}),
      h("button", {type: "button", text: t("prompt.input_cancel"),
                   onclick: () => { typing = null; renderPrompt(); }})));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const args = {[prompt.arg]: option.value};
    for (const input of option.inputs) {
      if (input.kind === "effects") {
        const rows = typing.values[input.arg] || [];
        if (rows.length) args[input.arg] = effectsOf(rows);
        continue;
      }
      const raw = form.elements[input.arg].value.trim();
      if (raw === "" && input.default !== null) continue;  // the engine's default
      args[input.arg] = input.kind === "number" ? Number(raw) : raw;
    }
    // refused: the form stays, with what was typed; also past a conflict's redraw
    command(prompt.command, args, prompt,
            {command: prompt.command, value: option.value, values: typing.values});
  });
  return form;
}

function spendPrompt(prompt) {
  const amounts = [];
  for (let n = prompt.minimum; n <= prompt.maximum; n++) amounts.push(n);
  const token = t("token." + prompt.token, null, prompt.token);
  return [
    h("p", {class: "question", text: promptQuestion(view.state, prompt)}),
    h("div", {class: "choices amounts"}, amounts.map((n) => h("button", {
      type: "button", class: "choice amount", disabled: !canAct(), "data-value": String(n),
      "data-key": "amount " + n,
      onclick: () => command(prompt.command, {[prompt.arg]: n}, prompt)},
      h("span", {class: "amount-n", text: String(n)}),
      h("span", {class: "amount-label", text: n === 0 ? t("spend.none") : token})))),
  ];
}

function renderPrompt() {
  const box = $("#prompt");
  const prompts = view.prompts || [];
  if (!prompts.length) { box.hidden = true; fill(box); return; }
  box.hidden = false;
  const prompt = prompts[0];
  if (typing && typing.prompt !== prompt.id) typing = null;  // answered, or undone past
  if (retyped && !typing && prompt.kind === "choice" && prompt.command === retyped.command) {
    const again = prompt.options.find((o) => o.value === retyped.value && (o.inputs || []).length);
    if (again) typing = {prompt: prompt.id, value: again.value, values: retyped.values};
    if (again) retyped = null;
  }
  // a redraw while a player types would close the phone's keyboard: the same prompt, as
  // the same player, is left as it is
  const key = JSON.stringify([prompt, canAct(), who && who.province, typing && typing.value]);
  if (typing && box.dataset.key === key && box.querySelector("form.option-inputs")) return;
  box.dataset.key = key;
  const body = prompt.kind === "roll" ? rollPrompt(prompt)
    : prompt.kind === "spend" ? spendPrompt(prompt)
    : prompt.kind === "choice" ? choicePrompt(prompt)
    : [h("p", {class: "question", text: promptQuestion(view.state, prompt)})];
  const others = who && who.province && prompt.player && prompt.player !== who.province &&
    !forAll();
  const waiting = others || (who && who.role === "spectator");
  const [question, ...rest] = waiting
    ? [h("p", {class: "question", text: promptQuestion(view.state, prompt)}),
       h("p", {class: "muted", text: t("prompt.waiting", {player: prompt.player ? provinceName(view.state, prompt.player) : t("prompt.table")})})]
    : body;
  // a redraw at a new version keeps the keyboard on the button it was on (dom.redraw)
  redraw(box,
    h("h2", {}, t("prompt.title"),
      prompt.player ? h("span", {class: "pill", text: provinceName(view.state, prompt.player)}) : null),
    question,
    prompt.kind === "roll" ? trayWatch.element() : null,  // under the question, for everyone
    boxCount.line(prompt),
    rest);
  box.dataset.kind = prompt.kind;
  const asked = box.dataset.prompt !== prompt.id;
  box.dataset.prompt = prompt.id;
  trayWatch.render();
  // a new question for this phone, out of view (asked above, after a confirm far down the
  // page): brought into view, so the player sees what is asked now
  if (asked && !waiting && canAct()) {
    const top = box.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight - 80) box.scrollIntoView({block: "start"});
  }
}

// ---- picks not sent yet -----------------------------------------------------------------

// What a player picked in the sail form and the endeavor builder, not sent yet, is kept in
// this tab (sessionStorage) as a roll's count is: a reload, or a phone that slept and
// reloaded, found the forms back at their defaults. The picks are tied to the point of the
// game they were made at (the same turn, before its next action): at another point they
// are forgotten, and so they are once sent. Restored, a pick no longer offered is dropped.
function decisionPoint(state) {
  const turn = state && state.turn;
  if (!turn) return null;
  return JSON.stringify([state.game_number, state.phase, state.year, state.round,
                         (state.turns_taken || []).length, turn.player, turn.guild,
                         (turn.actions || []).length]);
}
const picksKey = (form) => `tableside.${form}.${tableId}`;
function keptPicks(form) {  // the picks kept for this point of the game, or null
  const at = decisionPoint(view && view.state);
  try {
    const kept = JSON.parse(sessionStorage.getItem(picksKey(form)) || "null");
    return at !== null && kept && kept.at === at && kept.picks && typeof kept.picks === "object"
      ? kept.picks : null;
  } catch (err) { return null; }
}
function keepPicks(form, picks) {
  const at = decisionPoint(view && view.state);
  if (at === null) return;
  try { sessionStorage.setItem(picksKey(form), JSON.stringify({at, picks})); }
  catch (err) { /* private browsing: the picks live as long as the page */ }
}
function forgetPicks(form) {
  try { sessionStorage.removeItem(picksKey(form)); } catch (err) { /* nothing kept */ }
}
// the game moved on (an action taken, the turn over, a game taken back): picks kept for
// the point before are over
function forgetPassedPicks() {
  for (const form of ["sail", "builder"]) {
    let kept = null;
    try { kept = JSON.parse(sessionStorage.getItem(picksKey(form)) || "null"); }
    catch (err) { kept = null; }
    if (kept && kept.at !== decisionPoint(view.state)) forgetPicks(form);
  }
}

// ---- the endeavor builder ---------------------------------------------------------------

const siteOf = (c) => c.args.site || c.args.province;
let builderAt = null;  // the point of the game the builder's picks were made at

function keepBuilder() {
  keepPicks("builder", {kind: builder.kind, flagship: builder.flagship,
                        site: builder.choice ? siteOf(builder.choice) : null});
}

// The odds shown for an endeavor picked: the engine's preview of it, or why there is none.
function previewOf(choice) {
  const e = choice.endeavor;
  return e && e.odds ? e : {error: choicePhrases[choice.summary] ?? choice.summary};
}

function renderBuilder() {
  const box = $("#builder");
  const state = view.state;
  const endeavors = choices.filter((c) => c.type === "explore" || c.type === "raid");
  if (!endeavors.length || (view.prompts || []).length || !canTakeTurn()) {
    box.hidden = true; fill(box); return;
  }
  box.hidden = false;
  const kinds = [...new Set(endeavors.map((c) => c.type))];
  // picks made at another point of the game are over; on a page just loaded, the picks
  // kept in the tab come back, as far as they are still offered
  const at = decisionPoint(state);
  if (builderAt !== at) {
    builderAt = at;
    const kept = keptPicks("builder") || {};
    builder = {kind: kept.kind, flagship: kept.flagship, choice: null, preview: null,
               site: kept.site};
  }
  if (!kinds.includes(builder.kind)) builder = {kind: kinds[0], flagship: null, choice: null, preview: null};
  const ofKind = endeavors.filter((c) => c.type === builder.kind);
  const ships = [...new Set(ofKind.map((c) => c.args.flagship))];
  if (!ships.includes(builder.flagship)) {
    builder.flagship = ships[0]; builder.choice = null; builder.site = undefined;
  }
  const targets = ofKind.filter((c) => c.args.flagship === builder.flagship);
  // the site picked, found again among the choices of a new version (they are new objects)
  const site = builder.choice ? siteOf(builder.choice) : builder.site;
  builder.site = undefined;
  const again = site == null ? null : targets.find((c) => siteOf(c) === site);
  if (again !== builder.choice) {
    builder.choice = again || null;
    builder.preview = again ? previewOf(again) : null;
  }

  const step = (label, items) => h("fieldset", {class: "step"}, h("legend", {text: label}), h("div", {class: "choices"}, items));
  const sel = (active) => "choice" + (active ? " selected" : "");
  // each pick redraws the builder: the button picked keeps the keyboard (dom.redraw)
  redraw(box,
    h("h2", {text: t("builder.title")}),
    step(t("builder.kind"), kinds.map((k) => h("button", {type: "button", class: sel(k === builder.kind),
      "aria-pressed": String(k === builder.kind), "data-kind": k, "data-key": "kind " + k,
      text: t("command." + k, null, k),
      onclick: () => { builder.kind = k; builder.choice = null; renderBuilder(); keepBuilder(); }}))),
    step(t("builder.flagship"), ships.map((s) => h("button", {type: "button", class: sel(s === builder.flagship),
      "aria-pressed": String(s === builder.flagship), "data-ship": s, "data-key": "ship " + s,
      text: shipName(state, s),
      onclick: () => { builder.flagship = s; builder.choice = null; renderBuilder(); keepBuilder(); }}))),
    step(t("builder.site"), targets.map((c) => {
      const label = c.args.site ? placeName(state, c.args.site)
        : t("builder.province", {player: provinceName(state, c.args.province)});
      return h("button", {type: "button", class: sel(c === builder.choice) + " site",
        "aria-pressed": String(c === builder.choice), "data-site": c.args.site || c.args.province,
        "data-key": "site " + (c.args.site || c.args.province),
        onclick: () => { builder.choice = c; builder.preview = null; renderBuilder(); previewOdds(c); keepBuilder(); }},
        h("span", {class: "site-name", text: label}),
        // a dangerous site is said once, by the summary ("defense 5 (dangerous)"): a badge
        // after it said it twice
        h("span", {class: "site-summary", text: choicePhrases[c.summary] ?? c.summary}));
    })),
    builder.choice ? h("div", {class: "preview", id: "builder-preview"},
      builder.preview ? previewBlock(builder.preview) : h("p", {class: "muted", text: t("builder.computing")}),
      h("button", {type: "button", class: "primary big", id: "start-endeavor", disabled: !canAct(),
        "data-key": "start",
        text: t("builder.start", {kind: t("end.kind." + builder.kind, null, builder.kind)}),
        onclick: async () => {
          if (await command(builder.choice.type, builder.choice.args, null)) forgetPicks("builder");
        }})) : null);
}

function previewBlock(p) {
  if (p.error) return h("p", {class: "muted", text: p.error});
  const pool = poolLines(p.pool, choicePhrases);
  return h("div", {},
    h("div", {class: "odds-head"},
      h("div", {class: "big-figure"}, h("span", {class: "figure", text: pct(p.odds.p_success ?? p.odds.p_at_least_one_success)}),
        h("span", {class: "figure-label", text: t("odds.success")})),
      h("div", {class: "big-figure"}, h("span", {class: "figure", text: pct(p.odds.p_no_damage)}),
        h("span", {class: "figure-label", text: t("odds.no_damage")})),
      h("div", {class: "big-figure"}, h("span", {class: "figure", text: t("end.dice", {count: p.dice})}),
        h("span", {class: "figure-label", text: t("end.defense", {count: p.defense})}))),
    h("ul", {class: "pool", "aria-label": t("end.pool")}, pool),
    p.dice <= 0 ? h("p", {class: "warn", id: "no-dice", text: t("builder.no_dice", {count: p.defense})}) : null);
}

// Odds before starting: the engine previews each endeavor it lists (the pool line by line
// with its reasons, and the exact odds of that very roll, every power included).
function previewOdds(choice) {
  builder.preview = previewOf(choice);
  renderBuilder();
}

// ---- other actions of the turn ----------------------------------------------------------

const opened = new Map();  // each group of actions as the player opened or shut it

function renderActions() {
  const box = $("#actions");
  // What the engine accepts now, less what an open prompt already offers: at the start of
  // a turn, beside "hire which guild?", hiring an advisor, buying a treasure, activating an
  // advisor and ending the turn (rulebook, "Taking your turn", steps 1-3). Hidden while a
  // prompt was open, they could never be taken: a turn's first prompt is the guild's.
  const asked = new Set((view.prompts || []).map((p) => p.command));
  const others = choices.filter((c) => c.type !== "explore" && c.type !== "raid" && !asked.has(c.type));
  if (!others.some((c) => c.type === "research")) forgetResearch();  // sent, or not now
  if (!others.length) { box.hidden = true; fill(box); return; }
  box.hidden = false;
  if (!canTakeTurn()) {  // another province's turn: what it may do is not this phone's to tap
    redraw(box, h("h2", {text: t("actions.title")}), h("p", {class: "muted", id: "turn-waiting",
      text: t("actions.waiting", {player: provinceName(view.state, view.state.turn.player)})}));
    return;
  }
  const groups = new Map();
  for (const c of others) {
    if (!groups.has(c.type)) groups.set(c.type, []);
    groups.get(c.type).push(c);
  }
  // A group opened (or shut) by the player stays so while the page redraws at each version.
  redraw(box, h("h2", {text: t("actions.title")}),
    // one action with nothing to choose ("End the turn"): its button alone, not a group
    // named after it holding the same words again
    [...groups].map(([type, list]) => list.length === 1 && !FORMS[type]
      && !Object.keys(list[0].args || {}).length
      ? h("div", {class: "action-single", "data-type": type}, choiceButton(list[0], type))
      : h("details", {class: "action-group", "data-type": type,
      // research is a form to fill when the cards are drawn: shut until tapped
      "data-key": type, open: (opened.has(type) ? opened.get(type)
        : (list.length === 1 && type !== "research") || (type === "sail" && keptPicks("sail") !== null))
        || null},
      h("summary", {"data-key": "summary " + type,
                    // as the player leaves it, also past a version without the group
                    onclick: (e) => opened.set(type, !e.currentTarget.parentElement.open)},
        t("command." + type, null, type.replace(/_/g, " ")),
        h("span", {class: "muted", text: ` (${list.length})`})),
      FORMS[type] ? FORMS[type](list) :
      h("div", {class: "choices"}, list.map((c) => choiceButton(c, type))))));
}

// The actions that are a form, not a button a choice: where every ship sails; the research
// cards drawn, named (research.js)
const FORMS = {
  sail: (list) => sailForm(list),
  research: ([c]) => researchForm(c, choicePhrases[c.summary] ?? c.summary, {
    enabled: canAct(), again: renderActions, send: (args) => command("research", args, null)}),
};

function choiceButton(c, type) {
  return h("button", {type: "button", class: "choice",
    "data-key": c.type + " " + JSON.stringify(c.args || {}),
    disabled: !canAct(), onclick: () => command(c.type, c.args, null)},
    h("span", {text: describeArgs(c)}),
    c.summary && c.summary !== type.replace(/_/g, " ")
      ? h("span", {class: "muted small", text: choicePhrases[c.summary] ?? c.summary}) : null);
}

function describeArgs(c) {
  if (c.type === "give_reputation") {  // a reputation token: to whom, for which of their regions
    return t("arg.give_reputation", {player: provinceName(view.state, c.args.to),
                                     region: placeName(view.state, c.args.region)});
  }
  const parts = [];
  for (const [key, value] of Object.entries(c.args || {})) {
    if (key === "moves") continue;
    parts.push(argText(key, value));
  }
  return parts.length ? parts.join(" · ") : t("command." + c.type, null, c.type.replace(/_/g, " "));
}

// A command's argument as the table names it: ships, sites and goods by name, where the
// button showed ids and JSON ("blue-2 · Swift", [{"ship":"blue-1","site":"isle-a/1"}]).
function argText(key, value) {
  const state = view.state;
  const from = (where) => where === "warehouse" ? t("arg.warehouse") : shipName(state, where);
  if (key === "ship" || key === "flagship") return shipName(state, value);
  if (key === "site") return placeName(state, value);
  if (key === "good_from") return t("arg.good_from", {place: from(value)});
  if (key === "pay") return t("arg.pay." + value, null, value);
  if (key === "free" && value === true) return t("arg.free_repair");
  // what goes back to make room: an upgrade by name, a building site's structure
  if (key === "replace" && typeof value === "string") return t("arg.replace_upgrade", {upgrade: value});
  if (key === "replace" && value === true) return t("arg.replace_structure");
  if (key === "guild") return t("option.guild." + value, null, value);
  if (key === "advisor") return advisorName(value);  // the French rulebook's names (names_fr.py)
  // an upgrade or a structure with what it does (RULES-FACTS's table), which no button said
  if ((key === "upgrade" || key === "structure") && has("effect." + value)) {
    return t("arg.with_effect", {name: value, effect: t("effect." + value)});
  }
  // a Buy's site by its name alone: its good says its kind ("site 1 of Iron isle", not
  // "site 1 of Iron isle · goods")
  if (key === "goods" && Array.isArray(value)) {
    return listed.format(value.map((g) => g.good ? t("arg.sell", {good: goodName(g.good), place: from(g.from)})
      : t("arg.buy", {good: goodName(((state.sites || {})[g.site] || {}).colour || ""),
                      site: siteName(state, g.site), ship: shipName(state, g.ship)})));
  }
  // goods a Buy sends back to the supply first, for room in a full hold
  if (key === "return" && Array.isArray(value)) {
    return t("arg.return", {goods: listed.format(value.map((g) => t("arg.return_good",
      {good: goodName(g.good), ship: shipName(state, g.ship)})))});
  }
  return typeof value === "string" ? value : JSON.stringify(value);
}

// Sailing: each ship may sail in the same action (rulebook, "Sail": every ship moves up to
// its sail value). The engine offers each ship's reachable places and the spaces at sea
// where it may stop on its way to a place; the form picks one (or none) per ship and sends
// them as one sail.
function sailForm(list) {
  const byShip = new Map();
  for (const c of list) {
    const move = ((c.args || {}).moves || [])[0];
    if (!move) continue;
    if (!byShip.has(move.ship)) byShip.set(move.ship, []);
    const there = move.path[move.path.length - 1];
    // a stop at sea, short of a place: said by the place it heads toward, not its hex; the
    // coastal waters, one space on every way, as the board says them
    const label = c.at_sea
      ? t("sail.stop_at", {place: seaName(view.state, c.at_sea), count: move.path.length})
      : c.toward
        ? t("sail.stop", {place: placeName(view.state, c.toward), count: move.path.length})
        : t("sail.to", {place: placeName(view.state, there), count: move.path.length});
    byShip.get(move.ship).push({move, there, label});
  }
  const selects = [...byShip].map(([ship, options]) => h("label", {class: "sail-ship"},
    shipName(view.state, ship),
    h("select", {name: "sail", "data-ship": ship, "data-key": "sail " + ship},
      h("option", {value: "", text: t("sail.stay")}),
      options.map((o) => h("option", {value: o.there, text: o.label})))));
  const goods = sailGoods();
  const form = h("form", {class: "stack sail-form", "data-key": "sail-form"}, selects,
    goods.before.length ? goodsField("sail.before", "before", goods.before) : null,
    goods.after.length ? goodsField("sail.after", "after", goods.after) : null,
    h("button", {type: "submit", class: "primary", "data-key": "sail-go", disabled: !canAct(),
                 text: t("sail.go")}));
  // goods moved after sailing go to or from the warehouse only where a ship ends at home
  const endsAtHome = () => {
    const home = new Set();
    for (const ship of goods.ships) {
      const sel = form.querySelector(`select[name=sail][data-ship="${ship}"]`);
      const end = sel && sel.value ? sel.value : (view.state.ships[ship] || {}).location;
      if (end === goods.player) home.add(ship);
    }
    for (const box of form.querySelectorAll("input[name=after]")) {
      box.disabled = !home.has(JSON.parse(box.value).ship);
      if (box.disabled) box.checked = false;
    }
  };
  // the picks kept in the tab (a reload), as far as they are still offered; each change kept
  const kept = keptPicks("sail");
  if (kept) {
    for (const sel of form.querySelectorAll("select[name=sail]")) {
      const value = (kept.ships || {})[sel.dataset.ship];
      if (value && [...sel.options].some((o) => o.value === value)) sel.value = value;
    }
    for (const box of form.querySelectorAll("input[type=checkbox]")) {
      box.checked = Array.isArray(kept[box.name]) && kept[box.name].includes(box.value);
    }
  }
  const keep = () => {
    const picks = {ships: Object.fromEntries([...form.querySelectorAll("select[name=sail]")]
      .filter((sel) => sel.value !== "").map((sel) => [sel.dataset.ship, sel.value]))};
    for (const name of ["before", "after"]) {
      picks[name] = [...form.querySelectorAll(`input[name=${name}]:checked`)].map((box) => box.value);
    }
    const any = Object.keys(picks.ships).length || picks.before.length || picks.after.length;
    if (any) keepPicks("sail", picks); else forgetPicks("sail");  // all back to the defaults
  };
  form.addEventListener("change", endsAtHome);
  form.addEventListener("change", keep);
  endsAtHome();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const moves = [...form.querySelectorAll("select[name=sail]")]
      .filter((sel) => sel.value !== "")
      .map((sel) => byShip.get(sel.dataset.ship).find((o) => o.there === sel.value).move);
    const ticked = (name) => [...form.querySelectorAll(`input[name=${name}]:checked`)]
      .map((box) => JSON.parse(box.value).move);
    const args = {moves};
    for (const when of ["before", "after"]) if (ticked(when).length) args[when] = ticked(when);
    if (!moves.length && !args.before && !args.after) { notice(t("sail.none"), "error"); return; }
    if (await command("sail", args, null)) forgetPicks("sail");
  });
  return form;
}

// Goods moved when sailing (rulebook, "Ships and Sailing" > "Sailing"): before or after,
// between two ships together at land, and into or out of the warehouse where a ship is at
// home. Before: from where the ships are now; after: offered for a ship that ends at home.
function sailGoods() {
  const state = view.state;
  const player = (state.turn || {}).player;
  const prov = (state.provinces || {})[player] || {};
  const ships = (prov.ships || []).filter((id) => state.ships[id] && !state.ships[id].sunk);
  const where = (id) => state.ships[id].location;
  const moves = (atHome, pairs) => {
    const out = [];
    for (const ship of ships) {
      if (atHome(ship)) {
        for (const good of prov.warehouse || []) {
          out.push({ship, move: {good, from: "warehouse", to: ship},
                    label: t("sail.load", {good: goodName(good), ship: shipName(state, ship)})});
        }
        for (const good of state.ships[ship].goods || []) {
          out.push({ship, move: {good, from: ship, to: "warehouse"},
                    label: t("sail.unload", {good: goodName(good), ship: shipName(state, ship)})});
        }
      }
      for (const other of pairs ? ships : []) {
        if (other === ship || !where(ship) || where(ship) !== where(other) ||
            !(state.regions || {})[where(ship)]) continue;
        for (const good of state.ships[ship].goods || []) {
          out.push({ship, move: {good, from: ship, to: other}, label: t("sail.shift",
            {good: goodName(good), ship: shipName(state, ship), other: shipName(state, other)})});
        }
      }
    }
    return out;
  };
  return {player, ships, before: moves((ship) => where(ship) === player, true),
          after: moves(() => true, false)};
}

function goodsField(legend, name, moves) {
  return h("fieldset", {class: "goods-moves", "data-key": "goods " + name},
    h("legend", {text: t(legend)}),
    moves.map((m) => h("label", {class: "check-row"},
      h("input", {type: "checkbox", name, value: JSON.stringify({ship: m.ship, move: m.move})}),
      h("span", {text: m.label}))));
}

// ---- dice, history, hardware, rules -----------------------------------------------------

// The read's whole card is folded away once its dice can no longer be corrected (a later
// command happened): kept open across redraws while a player looks at it.
let settledOpen = null;

// The roll a read answered, among the events in effect (newest last), or null (not applied,
// or its roll undone).
function rollOfRead(events, readId) {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if ((e.type === "DiceRolled" || e.type === "DiceRerolled") && e.payload && e.payload.read_id === readId) return e;
  }
  return null;
}

// Whose roll it was and for what: "Blue's exploration", or the province alone (an enmity's
// settling), from the endeavor it was for.
function rollFor(events, roll) {
  for (let i = events.indexOf(roll); i >= 0; i--) {
    const e = events[i];
    if ((e.type === "EndeavorStarted" || e.type === "EnmitySettlingBegan") && e.payload && e.payload.player) {
      const player = provinceName(view.state, e.payload.player);
      return e.type === "EndeavorStarted" && e.payload.kind
        ? t("end.title", {player, kind: t("end.kind." + e.payload.kind, null, e.payload.kind)}) : player;
    }
  }
  return t("dice.someone");
}

function renderDice() {
  const box = $("#dice");
  const events = historyEvents(history);
  const roll = lastRoll(events);
  const parts = [h("h2", {text: t("dice.title")})];
  // a new endeavor waiting for its dice: no earlier roll is shown (it showed another
  // province's roll from long before, with no owner)
  const waiting = view.state.endeavor && !(view.state.endeavor.faces || []).length;
  const panel = () => {
    const prompt = (view.prompts || []).find((p) => p.kind === "roll");
    return readPanel(tableId, read, {
      faces: (config.dice || {})[prompt ? prompt.die : "seafall"] || [],
      version: shownVersion, canAct: canAct(), actor: who ? (who.province || who.name) : null, nameOf: actorName,
      mayAnswer: canAct() && (forAll() || !prompt || !prompt.player || who.province === prompt.player),
      onChanged: async () => { await loadRead(); refresh(); },
      onError: showError});
  };
  const readRoll = read ? rollOfRead(events, read.id) : null;
  // a read with no die found is shown while it waits: why (its warnings), and what to do
  if (read && read.canCorrect && (read.dice.length || read.status === "pending")) {
    parts.push(panel());
  } else if (read && readRoll && readRoll === roll && read.dice.length && !waiting) {
    // the last roll's read, settled (something was done after it): whose roll it was, its
    // faces, and the read folded away, its tiles no buttons
    const faces = wholeRoll(events, roll).faces.map(faceName).join(", ");
    parts.push(h("details", {class: "settled-read", "data-read": String(read.id), open: settledOpen === read.id,
                             ontoggle: (e) => { settledOpen = e.target.open ? read.id : null; }},
      h("summary", {text: t("dice.last_roll", {what: rollFor(events, roll), faces})}),
      panel()));
  } else if (roll && !waiting) {
    // the last roll, whose it was (a read older than it, or none, is not shown)
    // the whole roll as it counted: a re-roll's dice among the others, marked
    const whole = wholeRoll(events, roll);
    parts.push(diceFaces(whole.faces, "big", whole.rerolled),
      h("p", {class: "muted", text: t("dice.roll_of", {player: rollerOf(view.state, events, roll), text: whole.text})}));
  } else {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  fill(box, parts);
}

const actorName = (actor) => actorNamed(view && view.state, actor);

function renderHistory() {
  const list = [...history].reverse().slice(0, 40);
  fill($("#history-list"), list.map((entry) => h("li", {class: entry.undone ? "undone" : "",
      "data-kind": entry.kind},
    h("div", {class: "history-head"},
      h("strong", {text: entry.kind === "command" ? t("command." + entry.type, null, entry.type.replace(/_/g, " "))
        : t("history." + entry.kind, null, entry.kind)}),
      entry.actor ? h("span", {class: "muted", text: " · " + actorName(entry.actor)})
        : entry.kind === "undo" || entry.kind === "redo"  // the host's, who sends no province
          ? h("span", {class: "muted", text: " · " + t("actor.host")}) : null,
      entry.undone ? h("span", {class: "pill", text: t("history.was_undone")}) : null),
    h("ul", {class: "events"}, (entry.events || []).map((e) => h("li", {text: stepText(view.state, history, e) || e.text || e.type}))),
    rollPicture(entry),
    forgetRollButton(entry))));
  renderUndoRedo();
}


// A roll read from the camera or a photo links to the picture it was read from: the proof
// of the roll, for anyone who doubts it later.
function rollPicture(entry) {
  const image = entry.args && typeof entry.args.image === "string" ? entry.args.image : "";
  if (!image.startsWith("/api/dice/")) return null;
  return h("a", {class: "small roll-picture", href: image, target: "_blank", rel: "noopener",
                 text: t("history.picture")});
}

// The host forgets what one roll taught a dice profile (its dice confirmed with a wrong
// face, and the game gone on): a roll whose read the profile learned from
// (`lessons`, from GET /api/dice/profiles).
function forgetRollButton(entry) {
  const readId = entry.args && typeof entry.args.read_id === "string" ? entry.args.read_id : null;
  const die = readId ? lessons.get(readId) : undefined;
  if (!die || entry.undone) return null;
  return h("button", {type: "button", class: "secondary small forget-roll", "data-read": readId,
    text: t("history.forget_roll"),
    onclick: async () => {
      if (!window.confirm(t("history.forget_roll_confirm", {die}))) return;
      try {
        await send(`/api/tables/${encodeURIComponent(tableId)}/dice/profiles/${encodeURIComponent(die)}/forget`,
                   {reads: [readId]}, tableId);
        notice(t("history.roll_forgotten", {die}), "info");
      } catch (err) { showError(err); }
      renderProfiles();
    }});
}

let trayCheck = null;      // the host's last tray check (POST /api/hardware/camera/check)
let lensTyped = "";       // the lens angle being typed for it (the card redraws meanwhile)

const alerts = hardwareAlerts($("#hw-alerts"), "hw.alert_where_card");  // fix now: at the top

async function renderHardware() {
  const box = $("#hardware");
  let status = null;
  try { status = await getOptional("/api/hardware"); } catch (err) { status = null; }
  alerts(status);
  await trayWatch.follow(status);
  if (!status) { box.hidden = true; return; }
  box.hidden = false;
  const served = await servedLine(status, tableId);  // which table the button box answers
  const rows = Object.entries(status)
    .filter(([, value]) => value && typeof value === "object" && typeof value.state === "string")
    .map(([name, value]) => {
      const ok = ["running", "connected", "ready", "ok", "simulated"].includes(value.state);
      const bad = ["absent", "lost", "error", "disconnected", "alert"].includes(value.state);
      return h("li", {class: ok ? "hw-ok" : bad ? "hw-bad" : "", "data-device": name},
        h("span", {class: "hw-dot", "aria-hidden": "true"}),
        h("strong", {text: t("hw." + name, null, name.replace(/_/g, " "))}), " ",
        h("span", {text: t(`hw.${name}.state.${value.state}_${value.cause}`, null,
                           t(`hw.${name}.state.${value.state}`, null,
                             t("hw.state." + value.state, null, value.state)))}),
        value.detail ? h("div", {class: "muted small", text: inLanguage(value.detail, value.detail_said)}) : null,
        name === "power" && typeof value.temperature_c === "number"
          ? h("div", {class: "muted small", text: t("hw.temperature", {t: num(value.temperature_c)})}) : null,
        name === "camera" && value.setup
          ? h("div", {class: "muted small", text: t("hw.setup", {setup: value.setup})}) : null,
        // the demo's box is a simulated one (docs/runtime.md): said, not taken for a real one
        name === "button_box" && value.simulated
          ? h("div", {class: "muted small hw-simulated", text: t("hw.button_box_simulated")}) : null,
        name === "button_box" ? served : null,
        name === "camera" ? trayCheckBlock(value) : null);
    });
  const typing = document.activeElement && document.activeElement.id === "lens-degrees";
  fill($("#hardware-list"), rows);
  if (typing && $("#lens-degrees")) $("#lens-degrees").focus();  // redrawn as it was typed in
  await renderProfiles();
}

// The host sees what the dice profiles learned at the table, forgets it (a roll confirmed
// with a wrong face, the game gone on) and puts the profile before back (docs/vision.md,
// "Rolls and confirms").
async function renderProfiles() {
  const box = $("#dice-profiles");
  let profiles = [];
  if (who && who.role === "host") {
    try { profiles = (await getJSON("/api/dice/profiles")).profiles || []; } catch (err) { profiles = []; }
  }
  box.hidden = !profiles.length;
  // a profile named otherwise than its die is the command line's (--profile NAME): the
  // table reads a die with the profile named after it, and teaches that one only
  const byRead = new Map(profiles.filter((p) => p.table !== false)
    .flatMap((p) => Object.keys(p.learned_from || {}).map((r) => [r, p.die])));
  const changed = byRead.size !== lessons.size || [...byRead].some(([r, d]) => lessons.get(r) !== d);
  lessons = byRead;
  if (changed) renderHistory();
  const base = `/api/tables/${encodeURIComponent(tableId)}/dice/profiles/`;
  const act = (die, what) => async () => {
    if (what === "forget" && !window.confirm(t("hw.profile_forget_confirm", {die}))) return;
    try {
      await send(base + encodeURIComponent(die) + "/" + what, {}, tableId);
      notice(t(what === "forget" ? "hw.profile_forgotten" : "hw.profile_restored", {die}), "info");
    } catch (err) { showError(err); }
    renderProfiles();
  };
  fill(box, profiles.length ? [h("h3", {text: t("hw.profiles")}),
    h("ul", {class: "hardware"}, profiles.map((p) => {
      if (p.error) return h("li", {"data-profile": p.die}, h("strong", {text: dieName(p.die)}), " ", h("span", {class: "muted small", text: p.error}));
      if (p.table === false) {
        return h("li", {"data-profile": p.name, class: "profile-other-name"},
          h("strong", {text: p.name}), " ",
          h("span", {class: "small", text: p.faces.map((f) => `${faceName(f.face)} ${f.enrolled}+${f.learned}`).join(" · ")}),
          h("div", {class: "muted small", text: t("hw.profile_other_name", {name: p.name, die: dieName(p.die)})}));
      }
      const learned = Object.keys(p.learned_from || {}).length;
      return h("li", {"data-profile": p.die},
        h("strong", {text: dieName(p.die)}), " ",
        h("span", {class: "small", text: p.faces.map((f) => `${faceName(f.face)} ${f.enrolled}+${f.learned}`).join(" · ")}),
        h("div", {class: "muted small", text: t("hw.profile_learned", {count: learned})}),
        learned ? h("button", {type: "button", class: "secondary forget-lessons",
                               text: t("hw.profile_forget"), onclick: act(p.die, "forget")}) : null,
        p.kept ? h("button", {type: "button", class: "secondary restore-profile",
                              text: t("hw.profile_restore"), onclick: act(p.die, "restore")}) : null);
    }))] : null);
}

// The host checks the camera's picture of the empty tray (light, focus, colour, things left
// in it) and keeps it as the camera's setup (docs/vision.md, "Calibration").
function trayCheckBlock(camera) {
  if (!who || who.role !== "host" || camera.state !== "running") return null;
  const button = h("button", {type: "button", id: "check-tray", class: "secondary",
                              text: t("hw.check_tray")});
  const checkTray = async (body, busy) => {
    busy.disabled = true;
    busy.textContent = t("hw.checking");
    try {
      trayCheck = await send("/api/hardware/camera/check", body, tableId);
    } catch (err) {
      trayCheck = null;
      showError(err);
    }
    renderHardware();
  };
  button.addEventListener("click", () => checkTray({}, button));
  let result = null;
  if (trayCheck) {
    const said = trayCheck.quality.advice_said || [];  // the advice in the page's language
    const advice = trayCheck.quality.advice.map((a, i) => inLanguage(a, said[i]));
    const used = trayCheck.in_use ?? trayCheck.saved;
    const head = !used ? t("hw.tray_not_kept")
      : !trayCheck.saved ? t(advice.length ? "hw.tray_run_advice" : "hw.tray_run_good")  // the demo's
      : advice.length ? t("hw.tray_kept_advice", {setup: trayCheck.setup})
        : t("hw.tray_good", {setup: trayCheck.setup});
    // a camera that does not tell its lens, and a tray that fills the picture: the angle
    // from the camera's sheet, typed here, and the tray checked again with it
    const lensAsked = said.some((x) => x && x.key === "advice.unknown_lens");
    let lensForm = null;
    if (lensAsked) {
      const input = h("input", {type: "number", id: "lens-degrees", min: "1", max: "170", step: "any",
                                inputmode: "decimal", required: true, value: lensTyped});
      input.addEventListener("input", () => { lensTyped = input.value; });
      const again = h("button", {type: "submit", class: "secondary", text: t("hw.lens_check")});
      lensForm = h("form", {class: "stack", id: "lens-form"},
        h("label", {}, t("hw.lens_degrees"), input), again);
      lensForm.addEventListener("submit", (event) => {
        event.preventDefault();
        checkTray({lens: Number(input.value)}, again);
      });
    }
    result = h("div", {id: "tray-check", "data-saved": String(trayCheck.saved)},
      h("p", {text: head}),
      advice.length ? h("ul", {class: "small"}, advice.map((a) => h("li", {text: a}))) : null,
      lensForm);
  }
  return h("div", {class: "tray-check"}, h("p", {class: "muted small", text: t("hw.check_tray_hint")}),
    button, result, camera.setup ? measureBlock() : null,
    camera.setup_kept ? restoreSetupButton() : null);
}

// A host's camera action: a button that posts to `url`, says what came of it
// (`done(answer)` gives the notice), and is off while it runs; `after`, if given, draws
// the panel again instead of turning the button back on.
const busyActions = new Set();  // camera actions on their way: the card redraws meanwhile

function cameraAction(id, label, url, done, after = null) {
  const button = h("button", {type: "button", id, class: "secondary", text: label,
                              disabled: busyActions.has(id) || null});
  button.addEventListener("click", async () => {
    if (busyActions.has(id)) return;
    busyActions.add(id);
    button.disabled = true;
    try {
      notice(done(await send(url, {}, tableId)), "info");
    } catch (err) {
      showError(err);
    }
    busyActions.delete(id);
    const shown = document.getElementById(id);  // the card may have been drawn again
    if (after) after(); else if (shown) shown.disabled = false;
  });
  return button;
}

// The setup as it was before the last check or measure (a check in bad light), put back.
function restoreSetupButton() {
  return h("div", {}, cameraAction("restore-setup", t("hw.restore_setup"),
    "/api/hardware/camera/restore", (out) => {
      trayCheck = null;
      return t("hw.setup_restored", {setup: out.setup});
    }, renderHardware));
}

// Then a few dice on the tray: their size in the picture is measured for the setup.
function measureBlock() {
  return h("div", {}, h("p", {class: "muted small", text: t("hw.measure_dice_hint")}),
    cameraAction("measure-dice", t("hw.measure_dice"), "/api/hardware/camera/measure",
      (out) => t("hw.dice_measured", {px: Math.round(out.die_px)})));
}

function rulesSubmitted(event) {
  event.preventDefault();
  searchRules(view ? view.game : config.game, showError);
}

// ---- the whole page ---------------------------------------------------------------------

// t() with each value given as nodes (a name in its own <bdi>, so that a right-to-left name
// does not turn the line round): the text's parts and the values' nodes, in order
function tNodes(key, values) {
  const names = Object.keys(values);
  const text = t(key, Object.fromEntries(names.map((name, i) => [name, `\u0000${i}\u0000`])));
  return text.split(/\u0000(\d+)\u0000/).map((part, i) => (i % 2 ? values[names[Number(part)]] : part));
}

// Who holds this phone: the name typed when joining, then the province it plays, by its
// player with its colour when the setup named the player ("Paul, playing Bruno (Green)"); a
// host's role after it ("· host"); the province alone when the names are the same.
function renderMe() {
  const box = $("#me");
  if (!who) { fill(box); return; }
  const role = t("role." + who.role, null, who.role);
  if (!who.province) {
    fill(box, h("span", {class: "pill you"}, who.name ? [h("bdi", {text: who.name}), ` · ${role}`] : role));
    return;
  }
  const player = provinceName(view.state, who.province);
  const colour = colourName(who.province);
  const province = [h("bdi", {text: player}), player === colour ? "" : ` (${colour})`];
  const same = !who.name || who.name.trim().toLocaleLowerCase() === player.trim().toLocaleLowerCase();
  fill(box, h("span", {class: "pill you"}, same ? [province, ` · ${role}`]
    : [tNodes("me.playing", {name: h("bdi", {text: who.name}), province}),
       who.role === "player" ? "" : ` · ${role}`]));
}

// Who am I here: a spectator is told how to join (or to enter the host PIN); the host gets
// the join link and QR code to show the other players.
function renderSeat() {
  const box = $("#seat");
  if (!who) { box.hidden = true; return; }
  box.hidden = false;
  if (who.role === "spectator") {
    const pin = h("input", {id: "host-pin", inputmode: "numeric", autocomplete: "off", maxlength: "12", required: true,
                            "aria-label": t("seat.pin")});
    fill(box, h("h2", {text: t("seat.watching")}),
      h("p", {text: t("seat.how_to_join")}),
      h("details", {}, h("summary", {text: t("seat.host_q")}),
        h("form", {class: "row", onsubmit: async (event) => {
          event.preventDefault();
          if (!pin.value.trim()) { pin.value = ""; pin.reportValidity(); return; }  // spaces only
          try {
            who = await send(`${base}/host`, {pin: pin.value.trim()}, tableId);
            me(tableId, true);
            notice(t("seat.now_host"), "info");
            renderState();
          } catch (err) { showError(err); }
        }}, pin, h("button", {type: "submit", text: t("seat.become_host")}))));
    return;
  }
  if (who.role === "host") {
    const qr = h("img", {class: "qr", alt: t("tv.qr_alt"), width: "200", height: "200"});
    const link = h("p", {class: "small join-url"});
    const load = async (fresh) => {
      try {
        const body = fresh ? await send(`${base}/invite`, {}, tableId) : await getJSON(`${base}/invite`);
        if (qr.src.startsWith("blob:")) URL.revokeObjectURL(qr.src);
        qr.src = svgImageUrl(body.qr_svg);
        link.textContent = body.join_url;
      } catch (err) { showError(err); }
    };
    const forAll = h("input", {type: "checkbox", checked: who.players_act_for_all || null,
      onchange: async () => {
        try { who = await send(`${base}/settings`, {players_act_for_all: forAll.checked}, tableId); }
        catch (err) { showError(err); }
      }});
    // a province played from a phone that is lost or flat: freed, it can be joined again
    const taken = (who.seats || []).filter((seat) => (seat.taken_by || []).length);
    const seats = taken.length ? h("ul", {class: "seats"}, taken.map((seat) => h("li", {},
      t("seat.played_by", {province: playerName(seat.name, seat.id), names: seat.taken_by.join(", ")}), " ",
      h("button", {type: "button", class: "secondary small", "data-seat": seat.id, text: t("seat.free"),
        // heard as the province it frees, not "Free it" once per province
        "aria-label": t("seat.free_label", {province: playerName(seat.name, seat.id)}),
        onclick: async () => {
          if (!confirm(t("seat.free_confirm", {province: playerName(seat.name, seat.id)}))) return;
          try { who = await remove(`${base}/seats/${encodeURIComponent(seat.id)}`, tableId); renderSeat(); }
          catch (err) { showError(err); }
        }})))) : null;
    // drawn again when a seat changes hands (the stream's seats event): kept open if it was
    redraw(box, h("details", {"data-key": "host-panel",
                              ontoggle: (e) => { if (e.target.open && !qr.src) load(false); }},
      h("summary", {}, h("strong", {text: t("seat.host_panel")})),
      h("p", {text: t("seat.invite_hint")}), qr, link,
      h("button", {type: "button", class: "secondary", text: t("seat.new_link"),
                   onclick: () => { if (confirm(t("seat.new_link_confirm"))) load(true); }}),
      h("label", {}, t("seat.for_all"), forAll), seats));
    if (box.querySelector("details").open && !qr.src) load(false);
    return;
  }
  box.hidden = true;
}

// A campaign's game, once recorded (the end of game's seven steps done): the campaign page
// carries it into the campaign and sets the next game up. Once carried, the game stays as
// recorded (the server refuses changes) until its recording is taken back there. The page
// asks the campaign at each version of a recorded game, when the stream says the campaign
// moved on, and when an undo is refused.
let carried = false;      // this game is recorded into its campaign
let campaignGone = false; // its setting up was taken back: a table of its own now
let nextGame = null;      // the table of the campaign's game after this one, once set up

async function renderCampaignNext(state, ask = false) {
  const box = $("#campaign-next");
  if (config.campaign && (ask || (!campaignGone && state.phase === "recorded"))) {
    const asked = version();
    try {
      const c = await getJSON(`/api/campaigns/${encodeURIComponent(config.campaign.id)}`);
      if (asked !== version()) return;  // a newer version draws it
      const mine = (c.games || []).find((g) => g.session === tableId);
      campaignGone = !mine || mine.withdrawn;
      carried = Boolean(mine && mine.recorded && !mine.withdrawn);
      const games = (c.games || []).filter((g) => !g.withdrawn);
      const after = mine ? games[games.indexOf(mine) + 1] : null;
      nextGame = after ? after.session : null;
    } catch (err) { /* what is shown stays */ }
  }
  const link = $("#campaign-link");
  if (link) link.hidden = campaignGone;
  box.hidden = !(config.campaign && !campaignGone && state.phase === "recorded");
  if (box.hidden) carried = false;
  // once the next game is set up, its table is where the players go (they join it again)
  fill(box, box.hidden ? null : [
    h("p", {text: t(carried ? "table.campaign_carried" : state.emperor ? "table.campaign_final" : "table.campaign_next")}),
    carried && nextGame ? h("a", {class: "button primary", id: "next-game",
      href: `/t/${encodeURIComponent(nextGame)}`, text: t("table.campaign_next_game")}) : null,
    h("a", {class: "button" + (carried && nextGame ? " secondary" : " primary"),
            href: `/campaigns/${encodeURIComponent(config.campaign.id)}`,
            text: t("table.campaign_open")})]);
  renderUndoRedo();
}

// Ask the campaign again: the stream said it moved on, or an undo was refused.
function campaignMoved() {
  if (view && config.campaign) renderCampaignNext(view.state, true);
}

// The province that sent a command (its actor: a province or its player's name), or null.
function seatOf(actor) {
  const provinces = (view && view.state.provinces) || {};
  if (provinces[actor]) return actor;
  const found = Object.entries(provinces).find(([, p]) => p.player === actor);
  return found ? found[0] : null;
}

// Whether the command an undo would take back is this phone's to undo: a player takes back
// their own (the host, or anyone acting for all, any), and the camera's read of her roll
// (its `roller`), as the server decides (web/auth.py).
function mayUndoLast() {
  if (forAll() || !who.province) return true;
  const last = [...history].reverse().find((e) => e.kind === "command" && !e.undone);
  return !last || seatOf(last.actor) === who.province || last.roller === who.province;
}

// The same for redo: the command it would bring back is the first one taken back after
// the last in effect (undo and redo are a stack).
function mayRedoNext() {
  if (forAll() || !who.province) return true;
  const commands = history.filter((e) => e.kind === "command");
  let last = -1;
  commands.forEach((e, i) => { if (!e.undone) last = i; });
  const next = commands.slice(last + 1).find((e) => e.undone);
  return !next || seatOf(next.actor) === who.province || next.roller === who.province;
}

function renderUndoRedo() {
  // part of the screen drawn with its version (renderState): while a new one loads, a
  // redraw of the history (the same version again, from the stream or a poll) turned Undo
  // on for the new version with the version shown still the one before, and a quick tap
  // was refused as a conflict
  if (loading) return;
  $("#undo").disabled = !view.can_undo || !canAct() || carried || !mayUndoLast();
  $("#redo").disabled = !view.can_redo || !canAct() || carried || !mayRedoNext();
}

let announced = null;  // the status line a screen reader was last told of

function renderState() {
  // a new version is drawn once its /choices and /history are in (update): until then the
  // screen stays as it is, whole, and so does the version its buttons are sent against
  if (loading) return;
  const state = view.state;
  const heading = statusLine(state);
  $("#status").textContent = heading;
  // a screen reader hears nothing of a heading redrawn: a new one (the turn passed, another
  // phone moved the round on) is said once in a polite live region, not the page's first
  if (announced !== null && heading !== announced) $("#announce").textContent = heading;
  announced = heading;
  // the table's version, for tests and debugging: no word of it for players ("v131 spectator")
  shown = view.version;  // drawn with its choices: what the buttons act on
  $("#status").dataset.version = String(shown);
  renderMe();
  forgetPassedPicks();
  if (seatRole !== (who ? who.role : null)) { seatRole = who ? who.role : null; renderSeat(); }
  renderPrompt();
  renderCampaignNext(state);
  fill($("#endeavor-slot"), endeavorBlock(state, view.phrases));
  renderBuilder();
  renderActions();
  renderExplored($("#explored"), state, {enabled: canAct(),
                                         send: (args) => command("record_site", args, null)});
  // the host's: the islands, cards and leader values a game set up without them lacks
  renderBoardSetup($("#board-setup"), state, {
    enabled: config.game === "seafall" && (!who || who.role === "host") && !["over", "recorded"].includes(state.phase),
    send: (type, args) => command(type, args, null)});
  fill($("#glory"), gloryTrack(state));
  fill($("#provinces"), (state.seating || Object.keys(state.provinces)).map(
    (c) => provinceCard(state, c, who && who.province === c)));
  fill($("#enmity"), enmityList(state));
  if (keyboardWaits) { keyboardWaits = false; keepKeyboard(); }
}

// Each says whether it got its answer: one lost (a phone's Wi-Fi dropping a request) is
// asked again shortly (retryLoads), so the page is never left without its actions.
async function loadChoices() {
  try {
    const body = await getJSON(`${base}/choices`);
    if (body.version === view.version) {
      choices = body.commands || [];
      choicePhrases = body.phrases || {};
    }
    return true;
  } catch (err) { choices = []; return false; }
}

async function loadHistory() {
  try {
    history = (await getJSON(`${base}/history?lang=${config.lang}`)).history || [];
    return true;
  } catch (err) { return false; /* keep */ }
}

let retryTimer = null;
// back on the network: what failed is asked again at once, not at its next try (up to 30 s
// away), and the error said while away is over
window.addEventListener("online", () => {
  if (retryTimer !== null) { clearTimeout(retryTimer); retryTimer = null; retryLoads(250); }
  if (errorShownAt) notice(null);
});

function retryLoads(wait = 2000) {
  if (retryTimer !== null) return;
  retryTimer = setTimeout(async () => {
    retryTimer = null;
    const got = await Promise.all([loadChoices(), loadHistory()]);
    if (view) { renderState(); renderHistory(); }
    if (!got.every(Boolean)) retryLoads(Math.min(wait * 2, 30000));
  }, wait);
}

// a read waiting for the table came or changed (no new version): the stream's dice event,
// or the camera's status naming a new read, or a poll (then most often nothing changed, and
// nothing is redrawn under a player choosing a face)
async function readChanged() {
  if (!(await loadRead())) return;
  renderDice();
  trayWatch.render();
}

const unchanged = unchangedRead();

// true when the latest read is new or changed
const latestAnswer = lastAsked();
async function loadRead() {
  try {
    const answer = await latestAnswer(() => getOptional(`${base}/dice/latest?if_any=1`));
    if (!answer) return false;  // a later reload answers
    const body = answer.body;
    const latest = body ? normalizeRead(body) : null;
    if (!latest || latest.id === undefined || unchanged(body)) return false;
    // a read waiting for the table, replaced by a newer one (the camera saw the dice settle
    // again, another phone sent a photo): said, so a correction under way is not lost unseen
    if (read && read.id !== latest.id && read.status === "pending" && latest.status === "pending") {
      notice(t("dice.replaced"), "info");
    }
    read = latest;
    return true;
  } catch (err) { return false; /* no dice API yet */ }
}

// the dice thrown against their odds, while its card is open
const stats = diceStats(base, $("#dice-stats"), $("#dice-stats-body"), () => view && view.state);

// A new version arrived (stream, poll, or our own command's answer), or the table went back
// (`back`: a backup restored; live.js), taken as the server has it and said.
async function update(message) {
  if (!message || !message.table || (message.version < version() && !message.back)) return;
  const fresh = !view || message.version !== view.version || message.back;
  view = message.table;
  if (fresh) {
    staleError();
    // a word on this phone's last step ("Undone.") is over once another change comes
    if (!message.own && noticeKind === "info") notice(null);
    if (message.back) notice(t("live.went_back"), "info");
    loading++;
    let got;
    try {
      got = await Promise.all([loadChoices(), loadHistory(), loadRead(),
                               boxCount.load((view.prompts || [])[0])]);
    } finally { loading--; }
    const [gotChoices, gotHistory] = got;
    if (!gotChoices || !gotHistory) retryLoads();
    // stream events carry a readable text (no payload): the dice themselves come from
    // the history, which has them
    const types = (message.events || []).map((e) => e.type);
    // faces being counted by hand for a roll that another answer took (the camera read it,
    // another phone sent it): said, so the count does not vanish unexplained; said once
    // the roll it was for is no longer asked, whether or not this update carries the roll's
    // events (a phone back from sleep catches up with none), unless it says the roll was
    // only taken back (an undo of the endeavor)
    const counting = countUnderWay();
    if (counting && !(view.prompts || []).some((p) => p.id === counting.id)) {
      dropTally();
      const rolled = types.includes("DiceRolled") || types.includes("DiceRerolled");
      if (rolled || !types.includes("CommandUndone")) notice(t("roll.taken"), "info");
    }
    if (types.includes("CommandUndone")) flash(null);  // a roll taken back is not shown on
    if (types.includes("DiceRolled") || types.includes("DiceRerolled")) {
      const events = historyEvents(history);
      const roll = lastRoll(events);
      if (roll && roll.payload.faces.length) {
        const key = roll.type === "DiceRerolled" ? "dice.rerolled_by" : "dice.rolled_by";
        flash(t(key, {player: rollerOf(view.state, events, roll), faces: roll.payload.faces.map(faceName).join(", ")}));
      }
    }
  }
  renderState();
  renderDice();
  renderHistory();
  stats.changed(view.version);
}

// The last roll, said at the top for a while, whose it was: one line, gone after a while
// or when the table takes a command back (three lines stayed for good, with no owner,
// an empty one for a pool of no dice, and a roll that was undone).
const FLASH_MS = 30000;
let flashTimer = null;
function flash(text) {
  const box = $("#live-log");
  if (flashTimer !== null) clearTimeout(flashTimer);
  flashTimer = null;
  fill(box, text ? h("li", {text}) : null);
  if (text) flashTimer = setTimeout(() => { fill(box); flashTimer = null; }, FLASH_MS);
}



async function refresh() {
  try {
    const table = await getJSON(base);
    view = null;
    await update({version: table.version, table, events: []});
  } catch (err) {
    showError(err);
  }
}

function setConnection(status) {
  const el = $("#conn");
  // back in touch with the table: "the table is not answering" said meanwhile is over
  const answering = (s) => s === "live" || s === "polling";
  if (unanswered && answering(status) && !answering(el.dataset.status)) notice(null);
  el.dataset.status = status;
  el.textContent = t("conn." + status);
}

// Who plays what, or what players may do, changed on another phone (a join, a freed seat,
// the host's "players act for every province"): ask who this phone is again and redraw.
async function seatsChanged() {
  const before = who;
  try { who = await me(tableId, true); } catch (err) { return; }
  if (before && before.role === "player" && before.province && who && who.role === "spectator") {
    // the host freed this phone's province: say why its actions went, and how to play again
    notice(t("seat.freed", {province: provinceName(view.state, before.province)}), "info");
  }
  if (who && who.role === "host") renderSeat();  // who plays what, on the host's panel
  if (view) renderState();
}

// A button of the box counted fortune (no new version): the count, under the spend prompt.
async function boxCounted() {
  if (!view || loading) return;  // a version being read draws the count with it
  await boxCount.load((view.prompts || [])[0]);
  renderPrompt();
}

async function start() {
  // the page's own controls work at once, before the table has loaded
  $("#undo").addEventListener("click", () => historyStep("undo"));
  $("#redo").addEventListener("click", () => historyStep("redo"));
  $("#rules-form").addEventListener("submit", rulesSubmitted);
  try { who = await me(tableId); } catch (err) { who = null; }
  await refresh();
  follow(tableId, {version, onStatus: setConnection,
                   onUpdate: (m) => update(m).catch(showError),
                   onDice: readChanged,
                   onCampaign: campaignMoved,
                   onSeats: seatsChanged,
                   onButtons: boxCounted});
  renderHardware();
  setInterval(renderHardware, 15000);
}

start();
