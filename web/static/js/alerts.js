// A part of the hardware that needs fixing now (`state` "alert": the Pi's supply too weak,
// its card almost full) is said at the top of the table page and on the TV, where everyone
// sees it, not only in the hardware card a host may never open. Warnings stay in the card.
"use strict";

import {h, fill} from "./dom.js";
import {inLanguage, t} from "./i18n.js";

// Each alert is one short line in the page's language (`hw.<part>.alert`, or
// `hw.<part>.alert_<cause>` for a part that says its cause; a part without one shows its
// detail), then where its detail and what to do are (`where`: an i18n key).
export function hardwareAlerts(box, where) {
  return (status) => {
    const alerts = Object.entries(status || {}).filter(
      ([, part]) => part && typeof part === "object" && part.state === "alert");
    box.hidden = !alerts.length;
    fill(box, alerts.map(([name, part]) => h("p", {class: "notice error", "data-device": name},
      h("strong", {text: t("hw." + name, null, name.replace(/_/g, " "))}), ": ",
      t(`hw.${name}.alert${part.cause ? "_" + part.cause : ""}`, null,
        part.detail ? inLanguage(part.detail, part.detail_said) : t("hw.state.alert")), " ",
      h("span", {class: "alert-where", text: t(where)}))));
  };
}
