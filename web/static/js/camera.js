// The camera's view of the tray, under a roll prompt (the table page and the TV view).
// While the table waits for dice, the screens say what the camera sees: dice moving,
// something in the tray (a hand, or a player's shadow: the dice are read once it is clear,
// docs/vision.md, "Settle detection"), dice at rest being read, a read to check, why a
// settled tray was not read, the picture lost, no camera there (the faces typed). Only for
// the table the camera reads for (GET /api/hardware's "table"), polled every few seconds
// while the line is on the page.
// A camera read left for the table to confirm changes no table version, so the live stream
// does not bring it: a new read named by the camera's status (last_read_id) is announced
// through `onNewRead`.
"use strict";

import {$, h} from "./dom.js";
import {t, inLanguage} from "./i18n.js";
import {getOptional} from "./api.js";

const POLL_MS = 2000;
const TRAYS = ["moving", "hand", "still", "settled"];

// [what the camera sees, its text], or null when there is nothing to say; `read` is the
// page's latest dice read (normalized), if it keeps one, and `readKey` the text for one
// waiting for the table (where the page shows it, or elsewhere), `undoneKey` for one whose
// roll was undone (the dice still lie there: throw again, or apply it again)
export function cameraLine(camera, read, readKey = "watch.read", undoneKey = "watch.undone") {
  if (camera.state === "lost" || camera.state === "reopening") return ["lost", t("watch.lost")];
  // asked for but not there (not found, gone, a recording ended): the faces are typed
  if (camera.state === "absent") return ["absent", t("watch.absent")];
  if (camera.state !== "running") return null;
  const tray = camera.tray;
  if (camera.last_error && (tray === "settled" || tray === "still")) {
    // the server's words, in the page's language where they say how
    return ["failed", t("watch.failed", {why: inLanguage(camera.last_error, camera.last_error_said)})];
  }
  if (tray === "settled" && read && read.status === "pending") return ["read", t(readKey)];
  if (tray === "settled" && read && read.status === "undone") return ["undone", t(undoneKey)];
  if (tray === "reading") return ["reading", t("watch.still")];  // a settled frame being read
  return TRAYS.includes(tray) ? [tray, t("watch." + tray)] : null;
}

// `readKey` and `undoneKey` may be functions of the last GET /api/hardware, giving the key.
export function cameraWatcher(tableId, {currentRead = () => null, onNewRead = null,
                                        readKey = "watch.read",
                                        undoneKey = "watch.undone"} = {}) {
  let hardware = null;      // the last GET /api/hardware
  let timer = null;
  let readId;               // the camera's last read when the page last looked

  // the camera of a GET /api/hardware answer, when it reads for this table
  const ours = (status) => (status && status.table === tableId ? status.camera : null);

  // (a camera turned off by design says nothing; one absent says so, and is polled for)
  function thisTable() {
    const camera = ours(hardware);
    return camera && camera.state !== "off" ? camera : null;
  }

  // the line's element, to put under a roll prompt (filled by render)
  function element() {
    return h("p", {id: "camera-watch", class: "camera-watch", "aria-live": "polite", hidden: true});
  }

  function render() {
    const el = $("#camera-watch");
    if (!el) return;
    const camera = thisTable();
    const key = (k) => (typeof k === "function" ? k(hardware) : k);
    const line = camera ? cameraLine(camera, currentRead(), key(readKey), key(undoneKey)) : null;
    el.hidden = !line;
    el.dataset.tray = line ? line[0] : "";
    if (el.textContent !== (line ? line[1] : "")) el.textContent = line ? line[1] : "";
    if (camera && timer === null) {
      timer = setTimeout(async () => {
        timer = null;
        let status = hardware;
        try { status = await getOptional("/api/hardware"); } catch (err) { /* keep the last */ }
        await follow(status);
      }, POLL_MS);
    }
  }

  // a fresh GET /api/hardware (or null): keep it, fetch a new camera read, draw the line
  async function follow(status) {
    hardware = status;
    const camera = ours(status);
    const last = camera ? camera.last_read_id : null;
    const read = currentRead();
    if (onNewRead && readId !== undefined && last && last !== readId && (!read || read.id !== last)) {
      readId = last;
      await onNewRead();
    }
    readId = last;
    render();
  }

  return {element, render, follow};
}
