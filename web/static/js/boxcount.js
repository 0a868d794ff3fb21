// The fortune counted on the button box, shown under the spend prompt it is for (the table
// page and the TV view: "spend fortune to turn blanks into successes?", after the roll).
// The box's fortune + and - count without a move of the table (confirm spends the count),
// so GET /api/tables/<id>/buttons says it: `fortune`, once a fortune button counted on the
// prompt open now (`fortune_counted`). The live stream's "buttons" event says when to ask
// again (live.js `onButtons`), and so does each new version of the table.
"use strict";

import {h} from "./dom.js";
import {t} from "./i18n.js";
import {getOptional} from "./api.js";

export function boxFortune(tableId) {
  const url = `/api/tables/${encodeURIComponent(tableId)}/buttons`;
  let counted = null;  // {prompt: its id, fortune} once a fortune button counted on it

  // ask the count again for `prompt` (the table's first prompt, or none)
  async function load(prompt) {
    if (!prompt || prompt.kind !== "spend") { counted = null; return; }
    try {
      const status = await getOptional(url);
      counted = status && status.fortune_counted && typeof status.fortune === "number"
        ? {prompt: prompt.id, fortune: status.fortune} : null;
    } catch (err) { /* the last count stays until the next answer */ }
  }

  // the line under `prompt`, or null when no fortune button counted on it
  function line(prompt) {
    if (!prompt || !counted || counted.prompt !== prompt.id) return null;
    return h("p", {class: "box-fortune", id: "box-fortune", "aria-live": "polite",
                   "data-count": String(counted.fortune),
                   text: t("spend.box", {count: counted.fortune})});
  }

  return {load, line};
}
