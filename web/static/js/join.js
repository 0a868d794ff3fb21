// The join page /join/<id>?token=...: a name, a province or spectating, then the table.
"use strict";

import {$, h, fill} from "./dom.js";
import {config, t} from "./i18n.js";
import {ApiError, forget, send} from "./api.js";

const tableId = config.table;

$("#join-form")?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(event.target);
  const body = {token: config.token, name: String(data.get("name") || "").trim(),
                province: data.get("province") || null};
  try {
    await send(`/api/tables/${encodeURIComponent(tableId)}/join`, body, tableId);
    forget(tableId);
    location.assign(`/t/${encodeURIComponent(tableId)}`);
  } catch (err) {
    const text = err instanceof ApiError && err.status === 403 ? t("join.refused", {reason: err.message})
      : err instanceof ApiError && err.status === 404 ? t("join.unavailable") : err.message;
    fill($("#notice"), h("p", {class: "notice error", text}));
  }
});
