// Following a table live. The Server-Sent Events stream /api/stream/<id> is used when the
// server has it: the browser reconnects by itself and sends Last-Event-ID, so nothing is
// missed; updates older than what the page shows are dropped, so nothing is doubled. When
// the stream does not exist (404: the connection is closed, not retried) the page polls
// GET /api/tables/<id> every 2 seconds instead, and tries the stream again now and then.
// A dice read left for the table to confirm changes no version: the stream says so with a
// "dice" event (`onDice`), and the page fetches the latest read. A polling page has no such
// event: each poll calls `onDice` too, and the page redraws only a read that changed. A
// campaign game's page hears its campaign move on (`onCampaign`: the game recorded, a step
// taken back) from the stream's "campaign" event; a polling page compares the `campaign` the
// table's GET answers with the last one seen, as neither changes a version; so too with
// who plays what (`onSeats`: the stream's "seats" event, the GET's `seats`). The stream only
// tells of reads and campaign steps that come while it is open, so each time it opens (the
// first time, and after a reconnect) the page asks for both once: what came while the page
// loaded, or while the phone was away, is not missed. The fortune a button counts on a
// spend prompt changes no version either (`onButtons`: the stream's "buttons" event; a
// polling page asks at each poll, as for dice reads).
// A table can also go back: a backup restored (docs/store.md) puts the server at an earlier
// version, or at the same number with another history. Versions older than the page's are
// dropped as doubles, so a page left open kept showing the game that is gone, badge "live".
// So each reconnect, poll and stream message older than the page asks GET /api/tables/<id>:
// a version older than the page had when it asked (the server's versions only grow else)
// is handed over with `back: true`, for the page to take as it is.
"use strict";

import {getJSON} from "./api.js";

const POLL_MS = 2000;
const STREAM_RETRY_MS = 30000;

export function follow(tableId, {version, onUpdate, onStatus, onDice, onCampaign, onSeats, onButtons}) {
  const id = encodeURIComponent(tableId);
  let pollTimer = null;
  let retryTimer = null;
  let source = null;
  let campaignSeen;  // the table's campaign standing at the last poll (the first poll asks)
  let seatsSeen;  // who plays what at the last poll (the page asked when it loaded)
  let opened = false;  // the stream opened once: a later open is a reconnect

  // the server's table went back behind the page (asked when the page was at `asked`)
  // (the same number with another history is not told: the stream's table and the GET's
  // differ for some viewers, and a TV redrew and a phone said "put back" for nothing)
  function wentBack(table, asked) {
    return table.version < asked;
  }

  function accept(data) {
    if (!data || typeof data.version !== "number") return;
    // older than the page, or the page's number with another table: a stream message sent
    // before the page's own command's answer, or a table put back; the GET tells which
    if (data.version < version()) { poll(); return; }
    if (data.version <= version()) return;
    onUpdate(data);
  }

  async function poll() {
    try {
      const asked = version();
      const table = await getJSON(`/api/tables/${id}`);
      if (pollTimer !== null) onStatus("polling");
      const standing = JSON.stringify(table.campaign ?? null);
      const campaignNews = standing !== campaignSeen;
      campaignSeen = standing;
      const back = wentBack(table, asked);
      if (back) onUpdate({version: table.version, table, events: null, back: true});
      else if (table.version !== version()) onUpdate({version: table.version, table, events: null});
      else if (pollTimer !== null) {
        if (onDice) onDice();
        if (onButtons) onButtons();
      }
      if (campaignNews && onCampaign) onCampaign();
      const seatsNews = seatsSeen !== undefined && table.seats !== seatsSeen;
      seatsSeen = table.seats;
      if (seatsNews && onSeats) onSeats();
    } catch (err) {
      onStatus("offline");
    }
  }

  function startPolling() {
    if (pollTimer === null) pollTimer = setInterval(poll, POLL_MS);
    poll();
    if (retryTimer === null) retryTimer = setTimeout(() => { retryTimer = null; openStream(); },
                                                     STREAM_RETRY_MS);
  }

  function stopPolling() {
    if (pollTimer !== null) clearInterval(pollTimer);
    pollTimer = null;
  }

  function openStream() {
    if (typeof EventSource === "undefined") { startPolling(); return; }
    source = new EventSource(`/api/stream/${id}?since=${version()}`);
    const onMessage = (message) => {
      try { accept(JSON.parse(message.data)); } catch (err) { /* not ours */ }
    };
    source.addEventListener("table", onMessage);
    // a dice read waiting for the table: no new version, so no table message
    if (onDice) source.addEventListener("dice", () => onDice());
    // the table's campaign moved on (the game recorded into it, a step taken back)
    if (onCampaign) source.addEventListener("campaign", () => onCampaign());
    // who plays what, or what players may do, changed (a join, the host's settings)
    if (onSeats) source.addEventListener("seats", () => onSeats());
    // a button counted fortune to spend (the button box's fortune + and -)
    if (onButtons) source.addEventListener("buttons", () => onButtons());
    source.onmessage = onMessage;
    source.onopen = () => {
      stopPolling();
      onStatus("live");
      // back after a break: the table may have gone back meanwhile (a backup restored with
      // the server stopped), which the stream cannot tell at the page's version
      if (opened) poll();
      opened = true;
      // what came before the stream opened, which it cannot tell
      if (onDice) onDice();
      if (onCampaign) onCampaign();
      if (onButtons) onButtons();
    };
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        source = null;
        startPolling();
      } else {
        // the browser retries the stream by itself; meanwhile the page polls, so it is not
        // left behind while only the stream fails (it stayed at an old version for good)
        onStatus("reconnecting");
        if (pollTimer === null) pollTimer = setInterval(poll, POLL_MS);
      }
    };
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") poll();
  });
  // the phone says when its network goes and comes back: said at once, and caught up at
  // once (the badge said "live" while offline, and the page waited for its next try)
  window.addEventListener("offline", () => onStatus("offline"));
  window.addEventListener("online", () => {
    if (source !== null && source.readyState === EventSource.OPEN) onStatus("live");
    poll();
    if (source === null && pollTimer !== null) openStream();
  });
  openStream();
  return {refresh: poll};
}
