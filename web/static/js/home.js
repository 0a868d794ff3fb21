// The start page: create a table (the creator becomes host and sees the host PIN once).
// The odds calculator is its own module (/static/odds.js).
"use strict";

import {$, h, fill} from "./dom.js";
import {config, dateLocale, t} from "./i18n.js";
import {send, ApiError} from "./api.js";

// when each table was last played, in the page's language as the phone writes it (en-GB:
// "1 Dec 2026, 22:51") and in its time zone (the server writes it in UTC, for a page
// without scripts)
const when = new Intl.DateTimeFormat(dateLocale, {dateStyle: "medium", timeStyle: "short"});
function showTimes() {
  for (const time of document.querySelectorAll(".tables time[datetime]")) {
    const at = new Date(time.getAttribute("datetime"));
    if (!Number.isNaN(at.getTime())) time.textContent = when.format(at);
  }
}
showTimes();

// "Tables in play" and the campaigns, fetched again once a table or a campaign is made (the
// new one was missing until a reload): the server draws them, in the page's language, so
// the home page is asked again and its lists taken in place of these.
async function refreshLists() {
  let fresh;
  try {
    const response = await fetch(window.location.pathname + window.location.search,
                                 {headers: {"Accept": "text/html"}, credentials: "same-origin"});
    if (!response.ok) return;
    fresh = new DOMParser().parseFromString(await response.text(), "text/html");
  } catch (err) { return; }  // the lists stay as they were: a reload shows the new one
  const tables = fresh.getElementById("tables-card");
  if (tables && $("#tables-card")) $("#tables-card").replaceWith(document.adoptNode(tables));
  const campaigns = fresh.getElementById("campaigns-card");
  if (campaigns && $("#campaigns-card")) {
    $("#campaigns-card").replaceWith(document.adoptNode(campaigns));
  } else if (campaigns) {  // the first campaign: its card comes after the create card
    $("#create-form").closest("section").after(document.adoptNode(campaigns));
  }
  showTimes();
}

// "Start a campaign with it": the campaign's name is asked only then
const asCampaign = $("#create-form input[name=campaign]");
const campaignName = $("#campaign-name");
asCampaign.addEventListener("change", () => {
  campaignName.hidden = !asCampaign.checked;
  campaignName.querySelector("input").required = asCampaign.checked;
});

const hostPin = (pin) => (pin ? h("p", {class: "notice info"}, t("home.host_pin"), " ",
  h("strong", {class: "pin", text: String(pin)})) : null);
const button = (href, key, kind = "primary") => h("a", {class: `button ${kind}`, href, text: t(key)});

// A campaign (POST /api/campaigns) and its first game set up from it (.../next), which this
// browser hosts. A campaign whose first game could not be set up is kept: its page sets it up.
async function startCampaign(name, game, setup) {
  const campaign = await send("/api/campaigns", {name, game, setup});
  const page = `/campaigns/${encodeURIComponent(campaign.id)}`;
  try {
    const first = await send(`/api/campaigns/${encodeURIComponent(campaign.id)}/next`, {});
    return [h("p", {class: "notice info", text: t("home.campaign_started", {name})}),
      hostPin(first.host_pin),
      h("p", {class: "row"}, button(`/t/${encodeURIComponent(first.table)}`, "home.go_table"),
        button(page, "home.go_campaign", "secondary"))];
  } catch (err) {
    return [h("p", {class: "notice error", text: t("home.campaign_no_game",
      {name, reason: err instanceof ApiError ? err.message : t("error.network")})}),
      h("p", {}, button(page, "home.go_campaign"))];
  }
}

// A refusal is of the form as it was sent: once it is edited, or sent again (the browser's
// own "Please fill out this field" stops it before "submit"), the old refusal goes. A result
// (the host PIN, shown once) stays.
const clearRefusal = () => {
  const refusal = $("#create-result .notice.error");
  if (refusal) $("#create-result").replaceChildren();
};
for (const kind of ["input", "change"]) $("#create-form").addEventListener(kind, clearRefusal);
$("#create-form").addEventListener("invalid", clearRefusal, true);
$("#create-form button[type=submit]").addEventListener("click", clearRefusal);

$("#create-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(event.target);
  const out = $("#create-result");
  const named = [];  // the names typed, by colour
  for (const [key, value] of data.entries()) {
    if (key.startsWith("player-") && String(value).trim()) {
      named.push({colour: key.slice(7), player: String(value).trim()});
    }
  }
  let options = {provinces: named};
  if (data.get("demo_setup")) {
    // the demonstration's provinces, played by the names typed for their colours
    const demo = config.demo_options;
    const colours = demo.provinces.map((p) => p.colour);
    const outside = named.filter((n) => !colours.includes(n.colour));
    if (outside.length) {
      fill(out, h("p", {class: "notice error", text: t("home.demo_colours", {
        colours: colours.map((c) => t("colour." + c)).join(", "),
        named: outside.map((n) => t("colour." + n.colour)).join(", ")})}));
      return;
    }
    const player = new Map(named.map((n) => [n.colour, n.player]));
    options = {...demo, provinces: demo.provinces.map((p) => (
      player.has(p.colour) ? {...p, player: player.get(p.colour)} : p))};
  }
  const name = String(data.get("campaign_name") || "").trim();
  if (data.get("campaign") && !name) {
    fill(out, h("p", {class: "notice error", text: t("home.campaign_needs_name")}));
    return;
  }
  const submit = event.target.querySelector("button[type=submit]");
  submit.disabled = true;  // a second tap while the first is on its way makes no second table
  try {
    if (data.get("campaign")) {
      fill(out, await startCampaign(name, data.get("game"), options));
      await refreshLists();
      return;
    }
    const table = await send("/api/tables", {game: data.get("game"), options});
    fill(out, hostPin(table.host_pin),
      h("p", {}, button(`/t/${encodeURIComponent(table.id)}`, "home.go_table")));
    await refreshLists();
  } catch (err) {
    fill(out, h("p", {class: "notice error", text: err instanceof ApiError ? err.message : t("error.network")}));
  } finally {
    submit.disabled = false;
  }
});
