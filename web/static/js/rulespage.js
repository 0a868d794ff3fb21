// The rules page (/rules): every game's rule notes searched, the game chosen in the form
// (the table page's Rules card searches its own game's: web/static/js/rules.js).
"use strict";

import {$, h, fill} from "./dom.js";
import {t} from "./i18n.js";
import {ApiError} from "./api.js";
import {searchRules} from "./rules.js";

const failed = (err) => fill($("#notice"), h("p", {class: "notice error",
  text: err instanceof ApiError ? err.message : t("error.network")}));

$("#rules-form").addEventListener("submit", (event) => {
  event.preventDefault();
  fill($("#notice"));
  searchRules($("#rules-game").value, failed);
});
// another game: the passages shown were the last game's
$("#rules-game").addEventListener("change", () => fill($("#rules-results")));
