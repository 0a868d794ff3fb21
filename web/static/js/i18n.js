// The page's language: the catalogue the server put in the page (web/i18n/*.json).
"use strict";

export const config = JSON.parse(document.getElementById("config").textContent);
const strings = config.strings || {};

// t("key", {name: value}) fills {name} in the text; a missing key shows `fallback` or the key.
// A text with {count} has a singular form under key + "_one" (French: 0 and 1; English: 1).
export function t(key, values, fallback) {
  if (values && typeof values.count === "number") {
    const one = config.lang === "fr" ? Math.abs(values.count) < 2 : values.count === 1;
    if (one && has(key + "_one")) key = key + "_one";
  }
  let text = Object.prototype.hasOwnProperty.call(strings, key) ? strings[key]
    : (fallback !== undefined ? fallback : key);
  if (config.lang === "fr") text = spaced(text);
  for (const [name, value] of Object.entries(values || {})) {
    if (config.lang === "fr") text = elided(text, name, String(value));
    text = text.split("{" + name + "}").join(String(value));
  }
  return text;
}

// French typography: a non-breaking space before « : ; ? ! » and inside the guillemets, so
// that no line (on the TV, a phone) begins with a colon or a lone guillemet.
function spaced(text) {
  return text.replace(/ ([:;?!»])/g, "\u00a0$1").replace(/« /g, "«\u00a0");
}

// French says « d’Éloïse », « qu’Anne », not « de Éloïse »: before a value that begins
// with a vowel, « de » and « que » in front of its place lose their e (the history's
// log_fr.de does the same on the server).
const VOWEL = /^[aeiouyàâäéèêëîïôöùûüœæ]/i;
// A province the setup named, as the French catalogue names it ("Province bleue"), takes
// its article after a preposition: « vers la province bleue », « de la province bleue »
// (the history's log_fr.de and log_fr.to say it so).
const PROVINCE = /^Province [a-zàâäéèêëîïôöùûü]+$/;
function elided(text, name, value) {
  if (PROVINCE.test(value)) {
    const after = new RegExp(`(^|[\\s(«\u00a0])(de|à|vers|sur|dans|pour) \\{${name}\\}`, "g");
    text = text.replace(after, (_, start, word) => `${start}${word} la p${value.slice(1)}`);
  }
  if (!VOWEL.test(value)) return text;
  const before = new RegExp(`(^|[\\s(«\u00a0])([dD]|[qQ]u)e \\{${name}\\}`, "g");
  return text.replace(before, `$1$2’{${name}}`);
}

export function has(key) {
  return Object.prototype.hasOwnProperty.call(strings, key);
}

// The locale dates are written in: the phone's own (en-GB: "1 Dec 2026, 22:51") where it
// speaks the page's language, else the page's language ("en" alone writes dates the US way,
// "Dec 1, 2026, 10:51 PM", whatever the phone).
export const dateLocale = (() => {
  const phone = (navigator.languages && navigator.languages.length ? navigator.languages
    : [navigator.language]).filter(Boolean);
  const same = phone.find((tag) => tag.split("-")[0].toLowerCase() === config.lang);
  try {
    return same ? Intl.DateTimeFormat.supportedLocalesOf([same])[0] || config.lang : config.lang;
  } catch (err) { return config.lang; }  // a tag the browser does not take
})();

const percent = new Intl.NumberFormat(config.lang, {style: "percent", maximumFractionDigits: 1});
const decimal = new Intl.NumberFormat(config.lang, {maximumFractionDigits: 2});

export function pct(p) { return percent.format(p); }
export function num(x) { return decimal.format(x); }

// A sentence of the server's (vision/said.py: a read's warnings and notes, why the camera
// could not read the tray) in the page's language, from its key and values (`said.<key>`
// in the catalogue; a list value is a die's faces, each named in the language; an object
// value is a sentence of its own, {text, key, values}; a number is written the language's
// way, `count` choosing the singular); the server's English where the
// sentence came without a key or the catalogue does not know it.
export function inLanguage(text, said) {
  if (!said || typeof said.key !== "string" || !has("said." + said.key)) return text;
  const values = {};
  for (const [name, value] of Object.entries(said.values || {})) {
    values[name] = Array.isArray(value) ? value.map((f) => t("face." + f, null, String(f))).join(", ")
      : value && typeof value === "object" ? inLanguage(String(value.text ?? ""), value)
        : typeof value === "number" && name !== "count" ? num(value) : value;  // 78 957 in French
  }
  return t("said." + said.key, values, text);
}
