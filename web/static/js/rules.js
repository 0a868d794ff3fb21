// The rule search (GET /api/rules/search), shared by the table page's *Rules* card and the
// rules page (/rules, every game's notes). A search in the page's language that finds
// nothing in it shows the passages of the other language, said so (the other three
// games' notes are in English only: a French search said nothing at all).
"use strict";

import {$, h, fill} from "./dom.js";
import {config, t} from "./i18n.js";
import {getOptional} from "./api.js";

// The passages found for the form's words in `game`, drawn into #rules-results; an error
// goes to `failed` (the table page's notice).
export async function searchRules(game, failed) {
  const q = $("#rules-q").value.trim();
  const out = $("#rules-results");
  if (!q) { fill(out); return; }
  const params = new URLSearchParams({q, game, lang: config.lang, limit: "8"});
  try {
    const body = await getOptional("/api/rules/search?" + params);
    if (body === null) { fill(out, h("p", {class: "muted", text: t("rules.unavailable")})); return; }
    const results = Array.isArray(body) ? body : (body.results || []);
    if (!results.length) { fill(out, h("p", {class: "muted", text: t("rules.none", {q})})); return; }
    fill(out, body.other_language ? h("p", {class: "notice info", id: "rules-other-language",
      text: t("rules.other_language", {q})}) : null,
    h("ul", {class: "rules"}, results.slice(0, 10).map((r) => {
      const ref = r.ref && typeof r.ref === "object" ? r.ref : {};
      const where = [t("rules.source." + r.source, null, r.source || ""),
                     ref.page ? t("rules.page", {page: ref.page}) : null, ref.section || null];
      return h("li", {lang: r.lang || config.lang},
        h("strong", {text: r.title || ""}),
        h("p", {text: r.text || ""}),
        h("p", {class: "muted small", text: where.filter(Boolean).join(" · ")}));
    })));
  } catch (err) {
    failed(err);
  }
}
