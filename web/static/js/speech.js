// Saying aloud what happens at the table (the TV view's *Speak* switch): each new event's
// sentence, as the server wrote it in the page's language ("Dice read: 1 strong success,
// 1 blank"), through the browser's own speech synthesis (the Web Speech API). Only a voice
// the device has itself is used (`localService`): with none, the switch says so and stays
// off, as a voice from the network would send the table's game out of the room. The switch
// is remembered per device; events already shown when the page opened are not read out.
"use strict";

import {t} from "./i18n.js";

const KEY = "tableside.speak";
const AT_ONCE = 4;  // one change's sentences read out at most (the newest)

function remembered() {
  try { return localStorage.getItem(KEY) === "on"; } catch (err) { return false; }
}

function remember(on) {
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (err) { /* private mode */ }
}

// A device voice for the language ("fr" takes "fr-FR"), else none.
function localVoice(synth, lang) {
  const voices = synth.getVoices().filter((v) => v.localService);
  const ours = voices.filter((v) => (v.lang || "").toLowerCase().startsWith(lang));
  return ours.find((v) => v.default) || ours[0] || null;
}

// `button` turns speaking on and off; `hear(events)` is given every event the page knows
// (each with `seq` and `text`) after each change, and reads out those it has not seen.
export function speaker(button, lang) {
  const synth = window.speechSynthesis;
  let on = remembered();
  let seen = null;  // the newest event's seq when last heard (null: not yet)
  const voice = () => (synth ? localVoice(synth, lang) : null);

  function draw() {
    const usable = Boolean(voice());
    button.disabled = !usable;
    button.setAttribute("aria-pressed", String(usable && on));
    button.textContent = t(usable ? (on ? "speech.on" : "speech.off") : "speech.no_voice");
    button.title = usable ? t("speech.help") : t("speech.no_voice_help");
  }

  function say(text) {
    const chosen = voice();
    if (!chosen) return;
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.voice = chosen;
    utterance.lang = chosen.lang;
    synth.speak(utterance);
  }

  button.addEventListener("click", () => {
    on = !on;
    remember(on);
    if (on) say(t("speech.started"));
    else synth.cancel();
    draw();
  });
  if (synth && typeof synth.addEventListener === "function") {
    synth.addEventListener("voiceschanged", draw);  // voices often load after the page
  }
  draw();

  return {
    hear(events) {
      const newest = events.reduce((top, e) => Math.max(top, e.seq || 0), 0);
      if (seen === null) { seen = newest; return; }  // what the page opened on: not news
      const fresh = events.filter((e) => (e.seq || 0) > seen);
      seen = Math.max(seen, newest);
      if (!on || !fresh.length) return;
      for (const e of fresh.slice(-AT_ONCE)) say(e.text || e.type);
    },
  };
}
