// Which table the button box serves: GET /api/hardware's `table`, the open table that
// changed last (docs/runtime.md, "Which table"), named on the hardware card as the home
// page names a table: its game, its campaign, who plays it and its id ("SeaFall · Ana, Bo
// · ede0a8b0f403"). A box at a Pi with two tables open answered one of them without a word
// of which.
"use strict";

import {h} from "./dom.js";
import {config, t, has} from "./i18n.js";
import {getJSON} from "./api.js";

const names = new Map();  // table id -> its name (GET /api/tables), asked once a table

// A player as the home page names one (pages.py _player_name): a colour the setup gave for
// a name ("Blue", or "blue" for a colour nobody plays) in the page's language ("Bleu"); any
// other name as typed.
function playerName(name) {
  const colour = String(name).toLowerCase();
  const titled = colour.charAt(0).toUpperCase() + colour.slice(1);
  return (name === colour || name === titled) && has("colour." + colour) ? t("colour." + colour) : name;
}

// A row of GET /api/tables named as the home page lists it.
export function tableName(row) {
  const parts = [(config.game_titles || {})[row.game] || row.game];
  if (row.campaign) parts.push(t("home.in_campaign", {name: row.campaign.name}));
  const players = (row.players || []).map(playerName);
  if (players.length) parts.push(players.join(", "));
  parts.push(row.id);
  return parts.join(" · ");
}

async function nameOf(id) {
  if (!names.has(id)) {
    try {
      for (const row of (await getJSON("/api/tables")).tables || []) names.set(row.id, tableName(row));
    } catch (err) { /* said by its id until the list answers */ }
  }
  return names.get(id) || id;
}

// The line under the button box's row: this table, another (with the way to it) or none
// open; null when no runtime runs the hardware (mode "off": nothing is served).
export async function servedLine(status, tableId) {
  if (!status || status.mode === "off") return null;
  const id = status.table || "";
  const line = (cls, ...parts) => h("div", {class: "small served " + cls, "data-table": id}, ...parts);
  if (!id) return line("muted", t("hw.serves_none"));
  const name = await nameOf(id);
  if (id === tableId) return line("muted", t("hw.serves_this", {table: name}));
  return line("", t("hw.serves_other", {table: name}), " ",
    h("a", {href: `/t/${encodeURIComponent(id)}`, text: t("hw.serves_open")}));
}
