// Dice reads from the camera or a phone photo (the dice API): the crop of every die, the
// uncertain ones highlighted, a tap to correct one die, and the confirm that answers the
// roll prompt. The shape of a read is taken loosely (docs/ui.md) so the page keeps working
// while the dice API grows.
"use strict";

import {fill, h} from "./dom.js";
import {config, t, pct, inLanguage} from "./i18n.js";
import {send} from "./api.js";
import {faceName, faceSymbol} from "./views.js";

const UNSURE = 0.8;

// Tells a read fetched again unchanged (true) from a new or changed one (false, and it is
// remembered): a page redraws only the latter, so a poll never closes a face picker.
// Two reloads of a read may race (a dice event's and a new version's): only the answer to
// the last one asked is kept (`null` for an earlier one), so an older read never comes
// back over a newer one.
export function lastAsked() {
  let asked = 0;
  return async (fetcher) => {
    const mine = ++asked;
    const body = await fetcher();
    return mine === asked ? {body} : null;
  };
}

export function unchangedRead() {
  let last = null;
  return (body) => {
    const seen = JSON.stringify(body);
    if (seen === last) return true;
    last = seen;
    return false;
  };
}

// What a photo's read found, said as its tiles show it: "2 dice read." only when each die
// is read sure; dice left unread ("?") or to check are counted as such (a photo of dice no
// profile reads said "2 dice read." over two "not read yet" tiles).
export function readSummary(read) {
  const dice = read.dice.filter((d) => !d.notADie);
  if (!dice.length) return t("photo.read_none");
  const checked = read.status === "applied" || read.status === "undone";
  const unread = dice.filter((d) => d.face === "?").length;
  const check = dice.filter((d) => d.face !== "?" && d.uncertain && !checked && !d.corrected).length;
  const sure = dice.length - unread - check;
  if (!unread && !check) return t("photo.read", {count: dice.length});
  if (!sure && !check) return t("photo.found_unread", {count: dice.length});
  const parts = [[sure, "photo.part_read"], [check, "photo.part_check"], [unread, "photo.part_unread"]]
    .filter(([count]) => count).map(([count, key]) => t(key, {count}));
  return t("photo.found", {count: dice.length, parts: parts.join(", ")});
}

// The dice left unread named one by one up to so many ("name dice 3, 7"); beyond, counted
const UNREAD_LISTED = 6;

export function normalizeRead(read) {
  if (!read) return null;
  const id = read.id ?? read.read_id;
  const raw = Array.isArray(read.dice) ? read.dice : (Array.isArray(read.faces) ? read.faces : []);
  const confidence = Array.isArray(read.confidence) ? read.confidence : [];
  const unsure = new Set(Array.isArray(read.uncertain) ? read.uncertain : []);
  const dice = raw.map((d, i) => {
    const item = typeof d === "string" ? {face: d} : d;
    const conf = item.confidence ?? confidence[i];
    return {
      face: item.face ?? item.label,
      confidence: typeof conf === "number" ? conf : null,
      // the reader's own judgement when it gives one; else a low confidence
      uncertain: typeof item.uncertain === "boolean" ? item.uncertain
        : unsure.has(i) || (typeof conf === "number" && conf < UNSURE),
      crop: item.crop_url ?? (id !== undefined ? `/api/dice/${encodeURIComponent(id)}/crops/${i}.png` : null),
      corrected: item.corrected_by ?? null,
      notADie: item.not_a_die === true,  // the table took this box out of the roll
      notADieBy: item.not_a_die_by ?? null,
      addedBy: item.added_by ?? null,  // the table tapped it where the reader missed it
      readFace: item.read_face ?? null,
      box: Array.isArray(item.box) && item.box.length === 4 ? item.box : null,
    };
  });
  // the reader's warnings and the runtime's notes, in the page's language where they say how
  const said = read.said || {};
  const say = (texts, keys) => (Array.isArray(texts) ? texts : [])
    .map((text, i) => inLanguage(text, Array.isArray(keys) ? keys[i] : null));
  const notes = [...say(read.warnings, said.warnings),
    ...(Array.isArray(read.notes) ? say(read.notes, said.notes) : [read.note])].filter(Boolean);
  const size = Array.isArray(read.frame_size) && read.frame_size.length === 2 ? read.frame_size : null;
  // the dice that answer the roll: a re-roll's thrown ones, never a box taken out
  const answering = Array.isArray(read.dice) && Array.isArray(read.faces) ? read.faces.length
    : dice.filter((d) => !d.notADie).length;
  const status = read.status || "pending";
  // whether a die may still be corrected (the API's can_correct: an applied read only while
  // nothing was done after its roll); a read from before the API said so, by its status
  const canCorrect = typeof read.can_correct === "boolean" ? read.can_correct
    : status !== "superseded" && status !== "closed";
  return {id, dice, answering, status, canCorrect, frame: read.frame_url ?? null,
          frameSize: size, notes, source: read.source ?? null, raw: read};
}

// A photo's longest side, past which it is sent smaller, and the side it is sent at: the
// reader scales a photo to 1,600 px anyway and dice read fine at 2,000-3,000 px, while a
// phone at its top quality (48-108 MP) sends 20-30 MB, over the server's upload limit.
export const PHOTO_LARGEST = 4000;
export const PHOTO_SENT_AT = 3000;

// The photo as it is sent: as taken, unless it is over the server's upload limit (the
// page's config.upload_limit, in bytes) or over PHOTO_LARGEST on its long side; then the
// browser draws it again at PHOTO_SENT_AT px, upright as the camera held it (its EXIF
// orientation applied), as a JPEG. One the browser cannot decode (HEIC in Chromium, not a
// picture) is sent as taken, and the server says why it is refused.
export async function photoToSend(file, limit = config.upload_limit) {
  if (typeof createImageBitmap !== "function") return file;
  let bitmap;
  try {
    bitmap = await createImageBitmap(file, {imageOrientation: "from-image"});
  } catch (err) { return file; }
  try {
    const side = Math.max(bitmap.width, bitmap.height);
    const over = typeof limit === "number" && limit > 0 && file.size > limit;
    if (side <= PHOTO_LARGEST && !over) return file;
    const scale = Math.min(1, PHOTO_SENT_AT / side);
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const context = canvas.getContext("2d");
    context.imageSmoothingQuality = "high";
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise((done) => canvas.toBlob(done, "image/jpeg", 0.92));
    if (!blob) return file;
    const name = (file.name || "dice").replace(/\.[^.]*$/, "") + ".jpg";
    return new File([blob], name, {type: "image/jpeg"});
  } finally {
    bitmap.close();
  }
}

export async function uploadPhoto(tableId, file, actor) {
  const form = new FormData();
  const sent = await photoToSend(file);
  form.append("photo", sent, sent.name || "dice.jpg");
  if (actor) form.append("actor", actor);
  return send(`/api/tables/${encodeURIComponent(tableId)}/dice/photo`, form, tableId);
}

// The read whose whole picture is open ("Where each die is"), kept open when the panel is
// drawn again.
let frameOpen = null;

// The read's whole picture with each die's box numbered as its tile, so a player knows
// which die on the table a tile is before correcting it. A picture no longer kept (the
// oldest are let go: docs/runtime.md, "Storage") says so instead.
// `onTap(x, y)`, when given (a read that waits), takes a tap on the picture, in its pixels:
// a die the reader missed.
function wholePicture(read, onTap) {
  const [w, h_] = read.frameSize || [0, 0];
  if (!read.frame || !(w > 0 && h_ > 0) || !read.dice.some((d) => d.box)) return null;
  const pct = (v, of) => `${(100 * v / of).toFixed(3)}%`;
  const tap = (event) => {
    if (event.target.closest(".die-box")) return;  // a die boxed already: its tile corrects it
    const shown = wrap.querySelector("img").getBoundingClientRect();
    onTap(Math.floor((event.clientX - shown.left) / shown.width * w),
          Math.floor((event.clientY - shown.top) / shown.height * h_));
  };
  const wrap = h("div", {class: "frame-wrap" + (onTap ? " tappable" : ""), onclick: onTap ? tap : null},
    h("img", {src: read.frame, alt: t("dice.frame_alt"), loading: "lazy",
              onerror: () => wrap.replaceWith(h("p", {class: "muted small", text: t("dice.frame_gone")}))}),
    read.dice.map((d, i) => d.box ? h("span", {
      class: "die-box" + (d.notADie ? " not-a-die" : d.uncertain ? " uncertain" : ""), "aria-hidden": "true",
      style: `left:${pct(d.box[0], w)};top:${pct(d.box[1], h_)};` +
             `width:${pct(d.box[2], w)};height:${pct(d.box[3], h_)}`},
      h("span", {class: "die-no", text: String(i + 1)})) : null));  // above: the die shows
  return h("details", {class: "read-frame", open: frameOpen === read.id,
                       ontoggle: (e) => { frameOpen = e.target.open ? read.id : null; }},
    h("summary", {text: t("dice.where_each")}),
    onTap ? h("p", {class: "muted small", text: t("dice.tap_missed")}) : null, wrap);
}

// The face picker the player has open ({table, read, die}), or null. A panel drawn again for
// the same read (another phone named a die, the stream's dice event, a poll, a new version)
// opens it again, so a tap is never lost under a redraw.
let openPick = null;

// One read, drawn as tiles; `faces` are the labels of the die for the correction picker.
// A pending read waits for a confirm; an applied one may still be corrected (the dice API
// takes the roll back and applies it again) while nothing was done after its roll; one
// whose roll the table undid may be applied again, as it was or corrected; a superseded,
// closed or settled one (`canCorrect` false) is only shown: its tiles are no buttons.
// Who corrected a die, added one or took one out, as a page without the table's provinces
// names them: the host, the camera, the demonstration in the page's language; a name as is.
export function actorLabel(actor) {
  return t("actor." + actor, null, String(actor));
}

export function readPanel(tableId, read, {faces, version, canAct, actor, onChanged, onError,
                                          nameOf = actorLabel, mayAnswer = canAct}) {
  // a read no die of which may be corrected any more: shown, its tiles no buttons
  const settled = !read.canCorrect;
  // an applied (or undone) read is corrected by answering its roll again: only a phone
  // that may answer it (another player's was offered it, and refused); a waiting read's
  // dice any player may name
  const canCorrect = canAct && !settled && (read.status === "pending" || mayAnswer);
  const withActor = (body) => (actor ? {...body, actor} : body);
  // confirming answers the roll: the roller's phone, or one that acts for all (another
  // player's was offered it, and refused)
  const canConfirm = mayAnswer && !settled && (read.status === "pending" || read.status === "undone");
  const base = `/api/tables/${encodeURIComponent(tableId)}/dice/${encodeURIComponent(read.id)}`;
  const picker = h("div", {class: "picker", hidden: true});
  // a box may be taken out of the roll (no die: a token, a die's side) while the read waits
  const canTakeOut = canAct && !settled && read.status === "pending";
  // a tile's name for a screen reader is what it shows, with its number before and what a
  // tap does after (unseen), so that a voice command naming what is seen finds it; a tile
  // that cannot be tapped says no tap, and a settled read's tiles are no buttons at all
  const unseen = (text) => h("span", {class: "visually-hidden", text});
  const said = (key, who) => (who ? h("span", {class: "corrected", text: t(key, {who: nameOf(who)})}) : null);
  const tile = (i, die, kind, disabled, ...shown) => {
    const inside = [unseen(t("dice.tile_no", {n: i + 1}) + " "),
      die.crop ? h("img", {src: die.crop, alt: "", loading: "lazy", width: "72", height: "72"}) : null,
      ...shown];
    if (settled) return h("li", {}, h("div", {class: "die-tile" + kind, "data-die": String(i)}, inside));
    return h("li", {},
      h("button", {type: "button", class: "die-tile" + kind, disabled, "data-die": String(i),
                   onclick: () => openPicker(i)},
        inside, disabled ? null : unseen(t("dice.tile_tap"))));
  };
  // once the table confirmed the read (applied, or undone after), or a player named the
  // die, it is checked: no longer highlighted to check
  const checked = read.status === "applied" || read.status === "undone";
  const unsure = (die) => die.uncertain && !checked && !die.corrected;
  const used = read.raw && Array.isArray(read.raw.used) ? read.raw.used : null;
  const rerolled = used && used.length < read.dice.length ? new Set(used) : null;
  const tiles = read.dice.map((die, i) => (die.notADie
    ? tile(i, die, " not-a-die", !canTakeOut,
      h("span", {class: "face-name", text: t("dice.not_a_die_tile")}),
      said("dice.not_a_die_by", die.notADieBy))
    : tile(i, die, unsure(die) ? " uncertain" : "", !canCorrect,
      h("span", {class: "face-symbol", "aria-hidden": "true", text: faceSymbol(die.face)}),
      h("span", {class: "face-name", text: faceName(die.face)}),
      // a face a player named is theirs, not the reader's: no reader's confidence on it;
      // nor on a die not read yet ("?": its "0 %" read as a verdict)
      die.confidence !== null && !die.corrected && die.face !== "?"
        ? h("span", {class: "conf", text: pct(die.confidence)}) : null,
      unsure(die) ? h("span", {class: "unsure", text: t("dice.unsure")}) : null,
      said("dice.added_by", die.addedBy),
      // a die the reader left unread ("?") was named, not corrected
      said(die.readFace === "?" ? "dice.named_by" : "dice.corrected", die.corrected),
      // a re-roll: which dice answer it (the ones thrown) and which stayed where they were
      rerolled ? h("span", {class: "muted small reroll-role",
                            text: t(rerolled.has(i) ? "dice.rerolled_die" : "dice.left_die")}) : null)));
  const status = t("dice.status." + read.status, null, read.status);
  // dice found but not read (a die added by a tap the reader could not read): named, or
  // taken out, before the read can answer the roll (a Confirm then was refused)
  const unread = read.dice.map((d, i) => (!d.notADie && d.face === "?" ? i : -1)).filter((i) => i >= 0);

  function closePicker() {
    picker.hidden = true;
    openPick = null;
  }

  // a die the reader missed, where the player tapped on the read's picture
  const expected = read.raw && typeof read.raw.expected === "number" ? read.raw.expected : null;
  // no die found at all (an empty tray, a dark picture): nothing to tap on or to size a
  // missed die by, so another photo or the faces typed, not "tap each die it missed"
  const none = canTakeOut && !read.dice.length;
  const short = canTakeOut && expected !== null && read.answering < expected && !none;
  // more dice than the roll asks for (a die from another roll, a token): the extra ones are
  // taken out first, as confirming them all would be refused
  const over = canTakeOut && expected !== null && read.answering > expected;
  const addMissed = async (x, y) => {
    try {
      await send(`${base}/add`, withActor({x, y, expected_version: version()}), tableId);
      onChanged();
    } catch (err) { onError(err); }
  };

  // box i taken out of the roll (`out`), or put back
  const takeOut = (i, out) => async () => {
    try {
      await send(`${base}/not-a-die`, withActor({die: i, not_a_die: out, expected_version: version()}), tableId);
      closePicker();
      onChanged();
    } catch (err) { onError(err); }
  };

  function openPicker(i, scroll = true) {
    openPick = {table: tableId, read: read.id, die: i};
    picker.hidden = false;
    if (read.dice[i].notADie) {
      fill(picker,
        h("p", {text: t("dice.not_a_die_which", {n: i + 1})}),
        h("button", {type: "button", class: "primary", id: "is-a-die", text: t("dice.is_a_die"),
                     onclick: takeOut(i, false)}),
        h("button", {type: "button", class: "secondary", text: t("action.cancel"), onclick: closePicker}));
      if (scroll) picker.scrollIntoView({block: "nearest"});
      return;
    }
    fill(picker,
      h("p", {text: t("dice.correct_which", {n: i + 1})}),
      h("div", {class: "choices"}, (faces || []).map((f) => h("button", {
        type: "button", class: "choice face-button f-" + f.label,
        onclick: async () => {
          try {
            await send(`${base}/correct`, withActor({die: i, face: f.label, expected_version: version()}), tableId);
            closePicker();
            onChanged();
          } catch (err) { onError(err); }
        }},
        h("span", {class: "face-symbol", "aria-hidden": "true", text: faceSymbol(f.label)}),
        faceName(f.label)))),
      canTakeOut && read.answering > 1 ? h("button", {type: "button", class: "secondary", id: "not-a-die",
        text: t("dice.not_a_die"), onclick: takeOut(i, true)}) : null,
      h("button", {type: "button", class: "secondary", text: t("action.cancel"),
                   onclick: closePicker}));
    if (scroll) picker.scrollIntoView({block: "nearest"});
  }

  if (openPick && openPick.table === tableId && openPick.read === read.id &&
      openPick.die < read.dice.length && (read.dice[openPick.die].notADie ? canTakeOut : canCorrect)) {
    openPicker(openPick.die, false);
  }

  return h("div", {class: "read", "data-read": String(read.id), "data-status": read.status},
    h("p", {class: "read-status"}, h("span", {class: "pill status-" + read.status, text: status}),
      // this read's own source (a replaced read's is not the newer one's)
      read.source ? h("span", {class: "muted small", text: " · " + t("dice.source." + read.source, null, read.source)}) : null),
    h("ul", {class: "dice-tiles"}, tiles),
    none ? h("p", {class: "warn", id: "dice-none", text: t("dice.none_found")}) : null,
    short ? h("p", {class: "warn", id: "dice-missed", text: t("dice.missed", {found: read.answering, expected})}) : null,
    over ? h("p", {class: "warn", id: "dice-extra", text: t("dice.extra", {found: read.answering, expected,
                                                                           count: read.answering - expected})}) : null,
    wholePicture(read, canTakeOut ? addMissed : null),
    read.dice.some((d) => !d.notADie && unsure(d)) && canCorrect
      ? h("p", {class: "warn", text: t("dice.check_unsure")}) : null,
    unread.length && canConfirm ? h("p", {class: "warn", id: "dice-unread",
      // which ones, while few; many (a photo of 22 dice none read), how many
      text: unread.length > UNREAD_LISTED ? t("dice.name_unread_many", {count: unread.length})
        : t("dice.name_unread", {dice: unread.map((i) => String(i + 1)).join(", "), count: unread.length})}) : null,
    // the reader's warnings and the runtime's notes say why a read waits (the roll's count,
    // dice not known yet, ...): once the table applied it, they are over
    read.status === "applied" || read.status === "undone" || read.status === "closed" ? null
      : read.notes.map((n) => h("p", {class: "muted small", text: n})),
    // an applied read with something done after its roll: why its dice are no buttons
    settled && read.status === "applied" ? h("p", {class: "muted small", id: "dice-done-with",
                                                   text: t("dice.done_with")}) : null,
    picker,
    canAct && read.raw && read.raw.can_reread ? h("button", {type: "button", class: "secondary",
      id: "reread", text: t("dice.reread"),
      onclick: async (event) => {
        event.currentTarget.disabled = true;  // until the new read is drawn
        try {
          await send(`/api/tables/${encodeURIComponent(tableId)}/dice/reread`, withActor({}), tableId);
          onChanged();
        } catch (err) { onError(err); }
      }}) : null,
    canConfirm && !over && !unread.length && read.answering > 0 ? h("button", {type: "button", class: "primary big", id: "confirm-read",
      text: read.status === "undone" ? t("dice.apply_again")
        : t("dice.confirm", {count: read.answering}),
      onclick: async (event) => {
        const button = event.currentTarget;
        if (button.disabled) return;
        button.disabled = true;  // one tap, one confirm: a second tap was refused as applied
        try {
          await send(`${base}/confirm`, withActor({expected_version: version()}), tableId);
          onChanged();
        } catch (err) {
          button.disabled = false;
          onError(err);
        }
      }}) : null);
}
