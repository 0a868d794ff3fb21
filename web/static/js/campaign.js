// The campaign page /campaigns/<id>: titles and campaign glory, the historical record of
// past games, permanent enmity on the map, and the games played (GET /api/campaigns/<id>).
"use strict";

import {$, h, fill} from "./dom.js";
import {config, t} from "./i18n.js";
import {ApiError, getJSON} from "./api.js";
import {colourName} from "./views.js";

// One entry of the historical record, as the engine writes it (companion/games/seafall/
// record.py): a game's glory, the milestones claimed ({name: colour}), the glory they gave
// and who was absent; or a province that joined, returned or left between games.
function gameEntry(r, names) {
  const who = (colour) => names[colour] || colourName(colour);
  const byColour = (glory) => Object.entries(glory || {}).map(([c, g]) => `${who(c)} ${g}`).join(", ");
  const milestones = Object.entries(r.milestones || {});
  const note = (key, text) => h("div", {class: "muted small", text: `${t(key)} ${text}`});
  return [
    h("strong", {text: t("campaign.game_n", {n: r.game ?? "?"})}), " ", byColour(r.glory),
    milestones.length ? note("campaign.milestones",
      milestones.map(([name, colour]) => t("campaign.claimed", {milestone: name, player: who(colour)})).join(", ")) : null,
    Object.keys(r.milestone_glory || {}).length ? note("campaign.milestone_glory", byColour(r.milestone_glory)) : null,
    (r.absent || []).length ? note("campaign.absent", r.absent.map(who).join(", ")) : null,
  ];
}

function changeEntry(r, names) {
  const player = r.player || names[r.province] || colourName(r.province);
  const values = {player, colour: colourName(r.province), game: r.before_game ?? "?",
                  glory: r.campaign_glory ?? "?", count: r.games_missed ?? 0};
  return [h("strong", {text: t("campaign.before_game", {game: values.game})}), " ",
          t(`campaign.${r.event}`, values, r.event)];
}

function render(c) {
  const s = c.summary || {};
  document.title = `${c.name} · Tableside`;
  $("#campaign-name").textContent = c.name;
  $("#campaign-meta").textContent = t("campaign.meta", {game: config.game_titles[c.game] || c.game, number: s.game ?? "?",
                                                        target: s.glory_target ?? "?"});
  const names = {};
  for (const p of s.provinces || []) names[p.colour] = p.player || colourName(p.colour);
  const fact = (key, value) => h("div", {class: "fact"},
    h("dt", {text: t(key)}), h("dd", {text: value === null || value === undefined ? "—" : String(value)}));
  fill($("#campaign-provinces"), h("div", {class: "provinces"}, (s.provinces || []).map((p) =>
    h("article", {class: "province", "data-province": p.colour},
      h("h3", {}, h("span", {class: `swatch c-${p.colour}`, "aria-hidden": "true"}), names[p.colour],
        p.title ? h("span", {class: "pill", text: p.title}) : null),
      h("dl", {class: "facts"},
        fact("campaign.glory", p.campaign_glory),
        fact("campaign.title_col", p.title),
        fact("campaign.leader", t("campaign.leader_levels", {reputation: p.leader_reputation,
                                                            fortune: p.leader_fortune})),
        fact("campaign.appellation", p.appellation),
        fact("campaign.kept", p.kept_advisor),
        fact("campaign.missed", p.games_missed))))));
  const record = s.record || [];
  fill($("#campaign-record"), record.length ? h("ol", {class: "record"},
    record.map((r) => h("li", {}, ...(r.event ? changeEntry(r, names) : gameEntry(r, names)))))
    : h("p", {class: "muted", text: t("campaign.no_record")}));
  const enmity = s.permanent_enmity || [];
  fill($("#campaign-enmity"), enmity.length ? h("ul", {class: "enmity"}, enmity.map((r) => h("li", {},
    h("strong", {text: r.name + ": "}),
    Object.entries(r.permanent_enmity || {}).filter(([, n]) => n)
      .map(([colour, n]) => t("enmity.permanent", {player: names[colour] || colourName(colour), count: n})).join(", "))))
    : h("p", {class: "muted", text: t("enmity.none")}));
  fill($("#campaign-games"), (c.games || []).map((g) => h("li", {},
    g.session ? h("a", {href: `/t/${encodeURIComponent(g.session)}`, text: t("campaign.game_link", {version: g.version})})
      : t("campaign.game_link", {version: g.version}),
    " ", h("span", {class: "pill", text: g.recorded ? t("campaign.recorded") : t("campaign.in_play")}))));
}

(async () => {
  try {
    render(await getJSON(`/api/campaigns/${encodeURIComponent(config.campaign)}`));
  } catch (err) {
    const text = err instanceof ApiError && err.status === 404 ? t("campaign.missing") : err.message;
    fill($("#notice"), h("p", {class: "notice error", text}));
    $("#campaign-meta").textContent = "";
  }
})();
