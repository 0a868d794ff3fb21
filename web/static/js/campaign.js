// The campaign page /campaigns/<id>: titles and campaign glory, the historical record of
// past games, permanent enmity on the map, and the games played (GET /api/campaigns/<id>).
// Its host (the host of the campaign's latest game; anyone, before the first) records the
// game under way into the campaign, and sets up the next game with who misses it, comes
// back after missing games, leaves for good or joins. The page follows the campaign: while
// it is in view it asks for it again every few seconds, and draws it anew, with a line
// saying so, when another phone moved it on (set up, recorded or took back a game).
"use strict";

import {$, h, fill, typedInput} from "./dom.js";
import {config, t} from "./i18n.js";
import {ApiError, getJSON, me, send} from "./api.js";
import {colourName, playerName, titleName} from "./views.js";

// One entry of the historical record, as the engine writes it (companion/games/seafall/
// record.py): a game's glory, the milestones claimed ({name: colour}), the glory they gave
// and who was absent; or a province that joined, returned or left between games. The
// summary adds `players`, who held each colour then: a game is told with the names of those
// who played it, not of who holds its colours now (a player who left read as "Green").
function whoThen(r, names) {
  return (colour) => (r.players || {})[colour] ? playerName(r.players[colour], colour)
    : names[colour] || colourName(colour);
}

function gameEntry(r, names) {
  const who = whoThen(r, names);
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
  const player = r.player ? playerName(r.player, r.province) : whoThen(r, names)(r.province);
  const values = {player, colour: colourName(r.province), game: r.before_game ?? "?",
                  glory: r.campaign_glory ?? "?", count: r.games_missed ?? 0};
  return [h("strong", {text: t("campaign.before_game", {game: values.game})}), " ",
          t(`campaign.${r.event}`, values, r.event)];
}

// The number of the game set up next, or under way: the one the latest ledger sets up.
function gameNumber(c) {
  return (c.summary || {}).game || c.version;
}

// The number of each game listed, counted back from the latest ledger's: each recording
// that stands made one ledger (a game recorded is one less than the games after it); a
// setting up taken back keeps the number it had. Ledger versions do not count games: a
// recording taken back leaves a gap in them (the list said "Game 0 recorded").
function gameNumbers(c) {
  const games = c.games || [];
  let next = gameNumber(c);
  const numbers = new Array(games.length);
  for (let i = games.length - 1; i >= 0; i -= 1) {
    if (games[i].recorded && !games[i].withdrawn) next -= 1;
    numbers[i] = next;
  }
  return numbers;
}

function render(c) {
  const s = c.summary || {};
  document.title = `${c.name} · Tableside`;
  $("#campaign-name").textContent = c.name;
  // a campaign over (its final game recorded) names its Emperor, and sets up no game
  const over = !c.current && c.over ? c.over : null;
  $("#campaign-meta").textContent = t(over ? "campaign.meta_over" : c.current ? "campaign.meta_playing" : "campaign.meta",
    {game: config.game_titles[c.game] || c.game, number: over ? over.game ?? gameNumber(c) - 1 : gameNumber(c),
     target: s.glory_target ?? "?"});
  const names = {};
  for (const p of s.provinces || []) names[p.colour] = playerName(p.player, p.colour);
  const emperor = $("#campaign-emperor");
  emperor.hidden = !over;
  emperor.textContent = over ? t("campaign.over", {player: names[over.emperor] || playerName(over.player, over.emperor),
                                                   game: over.game ?? "?"}) : "";
  const fact = (key, value) => h("div", {class: "fact"},
    h("dt", {text: t(key)}), h("dd", {text: value === null || value === undefined ? "—" : String(value)}));
  fill($("#campaign-provinces"), h("div", {class: "provinces"}, (s.provinces || []).map((p) =>
    h("article", {class: "province", "data-province": p.colour},
      h("h3", {}, h("span", {class: `swatch c-${p.colour}`, "aria-hidden": "true"}), names[p.colour],
        p.title ? h("span", {class: "pill", text: titleName(p.title)}) : null,
        over && over.emperor === p.colour ? h("span", {class: "pill emperor", text: t("campaign.emperor")}) : null,
        p.absent ? h("span", {class: "pill absent", text: t("campaign.absent_now")}) : null),
      h("dl", {class: "facts"},
        fact("campaign.glory", p.campaign_glory),
        fact("campaign.title_col", p.title ? titleName(p.title) : null),
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
    : h("p", {class: "muted", text: t("campaign.no_permanent_enmity")}));
  const numbers = gameNumbers(c);
  fill($("#campaign-games"), (c.games || []).map((g, i) => h("li", {},
    g.session ? h("a", {href: `/t/${encodeURIComponent(g.session)}`, text: t("campaign.game_link", {n: numbers[i]})})
      : t("campaign.game_link", {n: numbers[i]}),
    " ", h("span", {class: "pill", text: g.withdrawn ? t("campaign.withdrawn")
      : g.recorded ? t("campaign.recorded") : t("campaign.in_play")}))));
}

// The host's part: who may act is the API's rule (web/api/campaigns.py), shown here so
// that no one is offered a button the server would refuse.
async function hostActions(c) {
  const section = $("#campaign-host");
  const latest = (c.games || []).length ? c.games[c.games.length - 1].session : null;
  const who = latest ? await me(latest).catch(() => null) : null;
  if (latest && !(who && who.role === "host")) {
    section.hidden = true;
    return;
  }
  section.hidden = false;
  const url = `/api/campaigns/${encodeURIComponent(c.id)}`;
  const result = $("#campaign-result");
  const failed = async (err) => {
    fill(result, h("p", {class: "notice error",
      text: err instanceof ApiError ? err.message : t("error.network")}));
    // a stale page (another phone set the game up, recorded it or took a step back): the
    // campaign as it is now, under the reason
    if (err instanceof ApiError && err.code === "conflict") {
      try { await show(await getJSON(url)); } catch (again) { /* the reason stays shown */ }
    }
  };
  if (c.current && c.recording && !c.recording.ready) {
    // not yet (the game is not over) or never (the campaign is): the reason, and the way
    // to the game, rather than a button the server would refuse
    const reason = c.recording.reason || "";
    const said = (c.recording.phrases || {})[reason] || reason;  // a clause: made a sentence
    fill($("#campaign-actions"), h("p", {class: "muted", id: "record-wait",
      text: said.charAt(0).toUpperCase() + said.slice(1) + (/[.!?]$/.test(said) ? "" : ".")}),
      h("p", {}, h("a", {class: "button", href: `/t/${encodeURIComponent(c.current)}`,
                         text: t("home.go_table")})),
      takeBack(c, url, result, failed));
    return;
  }
  if (c.current) {
    const button = h("button", {type: "button", class: "primary", text: t("campaign.record_game")});
    button.addEventListener("click", () => act(async () => {
      button.disabled = true;
      try {
        const updated = await send(`${url}/record`, {});
        fill(result, h("p", {class: "notice info", text: t(updated.over ? "campaign.recorded_final" : "campaign.recorded_into")}));
        await show(updated);
      } catch (err) {
        await failed(err);
      } finally {
        button.disabled = false;
      }
    }));
    fill($("#campaign-actions"), h("p", {class: "muted",
      text: t((c.recording || {}).final ? "campaign.record_help_final" : "campaign.record_help")}), button,
      takeBack(c, url, result, failed));
    return;
  }
  if (c.over) {  // the final game recorded: no next game (its recording can be taken back)
    fill($("#campaign-actions"), h("p", {class: "muted", id: "campaign-finished", text: t("campaign.finished")}),
      takeBack(c, url, result, failed));
    return;
  }
  const provinces = (c.summary || {}).provinces || [];
  const returning = provinces.filter((p) => p.games_missed > 0);
  const boxes = (name, legend) => h("fieldset", {class: "players"}, h("legend", {text: t(legend)}),
    ...provinces.map((p) => h("label", {class: "check-row"},
      h("input", {type: "checkbox", name, value: p.colour}),
      h("span", {class: `swatch c-${p.colour}`, "aria-hidden": "true"}),
      playerName(p.player, p.colour))));
  const form = h("form", {class: "stack", id: "next-form"},
    boxes("absent", "campaign.absent_legend"),
    ...returning.map((p) => catchUp(c, p)),
    c.version > 1 ? boxes("leave", "campaign.leave_legend") : null,
    c.version > 1 ? joining(c, provinces) : null,
    h("button", {type: "submit", class: "primary", text: t("campaign.next_game")}));
  for (const box of form.querySelectorAll("input[name=absent], input[name=leave]")) {
    box.addEventListener("change", () => {  // absent again, or gone: no catch-up
      const part = form.querySelector(`fieldset[data-returning="${box.value}"]`);
      if (part) {
        part.hidden = part.disabled = [...form.querySelectorAll(
          `input[name=absent][value="${box.value}"], input[name=leave][value="${box.value}"]`)]
          .some((other) => other.checked);
      }
    });
  }
  // the warning below (ticked as missing and leaving) goes once the form changes: it stayed
  // on screen after a box was unticked, through the next submit
  form.addEventListener("change", () => {
    const warning = result.querySelector("#absent-and-leaving");
    if (warning) fill(result);
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const ticked = (name) => [...form.querySelectorAll(`input[name=${name}]:checked`)].map((box) => box.value);
    const values = (part, name) => [...part.querySelectorAll(`select[name=${name}]`)].map((x) => x.value);
    const leaving = ticked("leave");  // for good: asked once more
    const nameOf = (colour) => playerName((provinces.find((p) => p.colour === colour) || {}).player, colour);
    // missing the next game and leaving for good contradict each other: which one is meant
    // is the host's to say (it was sent, and the leave kept without a word); the API
    // refuses it too
    const both = ticked("absent").filter((colour) => leaving.includes(colour));
    if (both.length) {
      fill(result, h("p", {class: "notice error", id: "absent-and-leaving",
        text: t("campaign.absent_and_leave", {players: both.map(nameOf).join(", ")})}));
      return;
    }
    if (leaving.length && !window.confirm(t("campaign.leave_confirm", {players: leaving.map(nameOf).join(", ")}))) return;
    // who comes back, who misses this game, who joins, then who leaves: a game keeps three
    // provinces at every step, so a newcomer replacing a leaver joins first (docs/seafall.md)
    const changes = [];
    for (const part of form.querySelectorAll("fieldset[data-returning]:not([disabled])")) {
      changes.push({catch_up: {colour: part.dataset.returning, ships: values(part, "ship"),
                               improvements: chosenImprovements(part)}});
    }
    changes.push(...ticked("absent").map((colour) => ({absent: {colour}})));
    const join = form.querySelector("fieldset.joining");
    const colour = join ? join.querySelector("select[name=join-colour]").value : "";
    if (colour) {
      changes.push({join: {colour, player: join.querySelector("input[name=join-player]").value.trim(),
                           advisor: join.querySelector("select[name=join-advisor]").value || null,
                           ships: values(join, "ship"),
                           improvements: chosenImprovements(join)}});
    }
    changes.push(...leaving.map((colour) => ({leave: {colour}})));
    const button = form.querySelector("button");
    await act(async () => {
      button.disabled = true;
      try {
        const out = await send(`${url}/next`, {changes});
        await show(out.campaign);  // with the way to the new game, under why it waits
        fill(result, out.host_pin ? h("p", {class: "notice info"}, t("home.host_pin"), " ",
          h("strong", {class: "pin", text: String(out.host_pin)})) : null);
      } catch (err) {
        await failed(err);
      } finally {
        button.disabled = false;
      }
    });
  });
  fill($("#campaign-actions"), form, takeBack(c, url, result, failed));
}

// Undo for the campaign's last step (the API's last_step): the game set up, kept as a table
// of its own, or the last game's recording, its game under way again. Nothing is deleted.
function takeBack(c, url, result, failed) {
  const step = c.last_step;
  if (!step) return null;
  const next = gameNumber(c);
  const [label, question] = step.kind === "game"
    ? [t("campaign.take_back_game", {game: next}), t("campaign.take_back_game_confirm")]
    : [t("campaign.take_back_recording", {game: next - 1}), t("campaign.take_back_recording_confirm")];
  const button = h("button", {type: "button", class: "secondary", id: "take-back", text: label});
  button.addEventListener("click", () => act(async () => {
    if (!window.confirm(question)) return;
    button.disabled = true;
    try {
      let updated;
      try {
        updated = await send(`${url}/take-back`, step);
      } catch (err) {
        // moves were played on the game's table: taken out of the campaign only if meant
        if (!(err instanceof ApiError && err.code === "played")) throw err;
        if (!window.confirm(t("campaign.take_back_played_confirm", {count: err.body.moves}))) return;
        updated = await send(`${url}/take-back`, {...step, played: true});
      }
      await show(updated);
      fill(result, h("p", {class: "notice info", text: t("campaign.taken_back")}));
    } catch (err) {
      await failed(err);
    } finally {
      button.disabled = false;
    }
  }));
  return h("div", {class: "take-back"}, button);
}

// The choices owed for games not played ("Missing a game", "Joining the campaign"): a ship
// improved per game, and an improvement per three, as the end-of-game step 1 offers them:
// leader reputation or fortune, the garrison, a field (to the next gold value on the sheet,
// one more unless that sticker is gone) or an appellation (its name, as on the sheet).
function improvements(colour, games, fields) {
  const select = (label, name, options) => h("label", {}, label, h("select", {name}, ...options));
  const ships = () => [1, 2].flatMap((n) => ["sail", "raid", "explore", "hold"].map((stat) =>
    h("option", {value: `${colour}-${n}:${stat}`,
                 text: t("campaign.ship_stat", {n, stat: t("option.stat." + stat, null, stat)})})));
  return [
    ...Array.from({length: games}, (_, i) => select(t("campaign.ship_n", {n: i + 1}), "ship", ships())),
    ...Array.from({length: Math.floor(games / 3)}, (_, i) =>
      improvement(t("campaign.improvement_n", {n: i + 1}), colour, fields)),
  ];
}

const FIELD_MAX = config.field_max || 8;

function improvement(label, colour, fields) {
  const choice = h("select", {name: "improvement"},
    ...["reputation", "fortune", "garrison"].map((value) =>
      h("option", {value, text: t("campaign.improve." + value)})),
    ...fields.map((gold, i) => gold < FIELD_MAX ? h("option", {value: `field:${colour}/field-${i + 1}`,
      "data-gold": String(gold), text: t("campaign.improve.field", {n: i + 1, from: gold})}) : null),
    h("option", {value: "appellation", text: t("campaign.improve.appellation")}));
  const typed = h("div", {class: "stack"});
  const shown = () => {  // what the chosen improvement needs typed, if anything
    const option = choice.selectedOptions[0];
    const gold = option && option.dataset.gold !== undefined ? Number(option.dataset.gold) : null;
    fill(typed,  // as the end-of-game prompt's options ask for them (docs/api.md, "inputs")
      gold !== null ? h("label", {}, t("input.improve_province.value"), typedInput(
        {kind: "number", default: gold + 1, minimum: gold + 1, maximum: FIELD_MAX},
        "improvement-value", gold + 1)) : null,
      choice.value === "appellation" ? h("label", {}, t("input.improve_province.name"), typedInput(
        {kind: "text", default: null, minimum: 1, maximum: config.appellation_max || 40},
        "improvement-name", "")) : null);
  };
  choice.addEventListener("change", shown);
  shown();
  return h("div", {class: "stack improvement"}, h("label", {}, label, choice), typed);
}

// The improvements chosen in a catch-up or a newcomer's part of the form.
function chosenImprovements(part) {
  return [...part.querySelectorAll(".improvement")].map((box) => {
    const out = {choice: box.querySelector("select[name=improvement]").value};
    const value = box.querySelector("input[name=improvement-value]");
    const name = box.querySelector("input[name=improvement-name]");
    if (value) out.value = Number(value.value);
    if (name) out.name = name.value.trim();
    return out;
  });
}

// A province's field values, as its ledger has them (a new province's: the setup's default).
const NEW_FIELDS = config.new_fields || [];
function fieldsOf(c, colour) {
  const prov = ((c.ledger || {}).provinces || []).find((p) => p.colour === colour) || {};
  return Array.isArray(prov.fields) ? prov.fields : NEW_FIELDS;
}

// A player back after missing games catches up before the game ("Missing a game").
function catchUp(c, p) {
  return h("fieldset", {"data-returning": p.colour},
    h("legend", {text: t("campaign.returns", {player: playerName(p.player, p.colour), count: p.games_missed})}),
    ...improvements(p.colour, p.games_missed, fieldsOf(c, p.colour)));
}

// A new player ("Joining the campaign"): a colour not in the campaign, a name, an advisor
// worth one reputation from the advisor deck, and the improvements for the games played.
function joining(c, provinces) {
  const played = Math.max(((c.summary || {}).game || 1) - 1, 0);
  const taken = new Set(provinces.map((p) => p.colour));
  const kinds = new Map((((c.ledger || {}).components || {}).advisors || []).map((a) => [a.name, a]));
  const worthOne = [...new Set(((c.ledger || {}).advisor_deck || [])
    .filter((name) => (kinds.get(name) || {}).reputation === 1))].sort();
  const colour = h("select", {name: "join-colour"}, h("option", {value: "", text: t("campaign.join_nobody")}),
    ...(config.colours || []).filter((x) => !taken.has(x)).map((x) => h("option", {value: x, text: colourName(x)})));
  const details = h("div", {class: "stack", hidden: true});
  colour.addEventListener("change", () => {
    details.hidden = !colour.value;
    if (!colour.value) {  // nobody joins: nothing of theirs to fill, nor to check
      fill(details);
      return;
    }
    // the name is required (the engine refuses a newcomer without one): the form is not
    // sent without it, and says so in the page's language (a colour's name stood in for it)
    const name = h("input", {name: "join-player", autocomplete: "off", required: true,
                             maxlength: "40"});
    const named = () => name.setCustomValidity(name.value.trim() ? "" : t("campaign.join_name_needed"));
    name.addEventListener("input", named);
    named();
    fill(details,
      h("label", {}, t("campaign.join_player"), name),
      worthOne.length ? h("label", {}, t("campaign.join_advisor"), h("select", {name: "join-advisor"},
        ...worthOne.map((name) => h("option", {value: name, text: name})))) : h("input", {type: "hidden", name: "join-advisor", value: ""}),
      ...improvements(colour.value, played, NEW_FIELDS));
  });
  return h("fieldset", {class: "joining"}, h("legend", {text: t("campaign.join_legend")}),
    h("label", {}, t("campaign.join_colour"), colour), details);
}

const CAMPAIGN_URL = `/api/campaigns/${encodeURIComponent(config.campaign)}`;
const FOLLOW_MS = 5000;
let drawn = null;  // the campaign as last drawn (its JSON text)
let drawings = 0;  // how many times it was drawn: an answer asked before a drawing is stale
let acting = 0;  // this phone's own requests under way

// Runs one of this phone's own changes (`work` draws its answer): the campaign polled
// meanwhile is not news from another phone.
async function act(work) {
  acting += 1;
  try { return await work(); } finally { acting -= 1; }
}

async function show(c, news = false) {
  drawn = JSON.stringify(c);
  drawings += 1;
  fill($("#campaign-news"), news ? h("p", {class: "notice info", text: t("campaign.moved_on")}) : null);
  render(c);
  await hostActions(c);
}

// Another phone may set up the next game, record one or take a step back: its answer would
// leave this page's buttons and form stale (the server refuses them: 409 conflict).
async function followCampaign() {
  if (document.visibilityState !== "visible" || acting || drawn === null) return;
  const asked = drawings;
  let c;
  try { c = await getJSON(CAMPAIGN_URL); } catch (err) { return; }  // offline: asked again later
  if (asked !== drawings || acting || JSON.stringify(c) === drawn) return;
  // the game under way coming to its end (it can be recorded now) is not another phone's
  // doing on this page: drawn anew without the line
  const steps = (x) => JSON.stringify({...x, recording: null});
  await show(c, steps(c) !== steps(JSON.parse(drawn)));
}

(async () => {
  try {
    await show(await getJSON(CAMPAIGN_URL));
    setInterval(followCampaign, FOLLOW_MS);
    document.addEventListener("visibilitychange", followCampaign);
  } catch (err) {
    const text = err instanceof ApiError && err.status === 404 ? t("campaign.missing") : err.message;
    fill($("#notice"), h("p", {class: "notice error", text}));
    $("#campaign-meta").textContent = "";
  }
})();
