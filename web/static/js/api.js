// Talking to the JSON API: every change carries the CSRF token from /me (when auth is in
// place) and the version the page shows; errors come back as ApiError with the server's
// readable message.
"use strict";

import {inLanguage, t} from "./i18n.js";

export class ApiError extends Error {
  constructor(status, body) {
    // the server's message, in the page's language where it says how: `said` (a message's
    // key and values), or `phrases` (the game's own refusal, said by its engine)
    const phrased = body && body.phrases && body.message && body.phrases[body.message];
    super(phrased || (body && body.message && inLanguage(body.message, body.said))
          || ("HTTP " + status));
    this.status = status;
    this.code = (body && body.error) || "error";
    this.body = body || {};
  }
}

// No answer at all (the table's server stopped, the Wi-Fi gone): the browser's "Failed to
// fetch" TypeError, said in the page's language; the page shows it and logs nothing.
export class NetworkError extends Error {
  constructor(cause) {
    super(t("error.network"));
    this.code = "network";
    this.cause = cause;
  }
}

async function reach(url, init) {
  try {
    return await fetch(url, init);
  } catch (err) {
    if (err instanceof TypeError) throw new NetworkError(err);
    throw err;
  }
}

async function parse(response) {
  const type = response.headers.get("Content-Type") || "";
  const body = type.includes("json") ? await response.json() : null;
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

export async function getJSON(url) {
  const response = await reach(url, {headers: {"Accept": "application/json"},
                                     credentials: "same-origin"});
  return parse(response);
}

// GET that answers null on 404 (an endpoint another part of Tableside has not added yet).
export async function getOptional(url) {
  try {
    return await getJSON(url);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 405)) return null;
    throw err;
  }
}

const identities = new Map();

// Who this browser is at a table: {role, province, name, csrf_token}, or null without auth.
export function me(tableId, fresh) {
  if (fresh || !identities.has(tableId)) {
    identities.set(tableId, getJSON(`/api/tables/${encodeURIComponent(tableId)}/me`)
      .catch((err) => {
        if (err instanceof ApiError && err.status === 404) return null;
        identities.delete(tableId);
        throw err;
      }));
  }
  return identities.get(tableId);
}

export function forget(tableId) { identities.delete(tableId); }

let browserSession = null;

// The CSRF token of this browser's session outside any table (GET /api/session), or null.
function sessionToken() {
  if (browserSession === null) {
    browserSession = getOptional("/api/session")
      .then((body) => (body ? body.csrf_token : null))
      .catch(() => { browserSession = null; return null; });
  }
  return browserSession;
}

// POST (JSON object or FormData); retries once with a fresh token if the token was refused.
export function send(url, body, tableId) {
  return request("POST", url, body, tableId, false);
}

// DELETE (a seat freed by the host), with the same token and retry.
export function remove(url, tableId) {
  return request("DELETE", url, null, tableId, false);
}

async function request(method, url, body, tableId, retried) {
  const headers = {"Accept": "application/json"};
  const token = tableId ? ((await me(tableId).catch(() => null)) || {}).csrf_token
    : await sessionToken();
  if (token) headers["X-CSRF-Token"] = token;
  let payload = body;
  if (method === "DELETE") {
    payload = undefined;
  } else if (!(body instanceof FormData)) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body || {});
  }
  const response = await reach(url, {method, headers, body: payload, credentials: "same-origin"});
  try {
    return await parse(response);
  } catch (err) {
    if (!retried && err instanceof ApiError && err.status === 403 && err.code === "csrf") {
      if (tableId) me(tableId, true);
      else browserSession = null;
      return request(method, url, body, tableId, true);
    }
    throw err;
  }
}
