// The odds calculator on the start page: asks /api/odds/seafall and shows the table.
"use strict";
(function () {
  const form = document.getElementById("odds-form");
  const out = document.getElementById("odds-result");
  const pct = (p) => (100 * p).toFixed(1) + "%";
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const query = new URLSearchParams();
    for (const name of ["dice", "defense", "fortune", "fortune_at_dangerous"]) {
      query.set(name, data.get(name) || "0");
    }
    for (const name of ["dangerous", "reroll_weak", "strong_counts_double"]) {
      query.set(name, data.get(name) ? "1" : "0");
    }
    const response = await fetch("/api/odds/seafall?" + query.toString());
    const body = await response.json();
    out.textContent = "";
    if (!response.ok) {
      const p = document.createElement("p");
      p.className = "error";
      p.textContent = body.message;
      out.appendChild(p);
      return;
    }
    const head = document.createElement("p");
    head.className = "headline";
    head.textContent = "At least one success " + pct(body.p_at_least_one_success) +
      " · no damage " + pct(body.p_no_damage) +
      " · expected damage " + body.expected_damage.toFixed(2);
    out.appendChild(head);
    const table = document.createElement("table");
    const header = table.insertRow();
    for (const text of ["successes", "probability"]) {
      const th = document.createElement("th");
      th.textContent = text;
      header.appendChild(th);
    }
    body.successes.forEach((p, k) => {
      const row = table.insertRow();
      row.insertCell().textContent = k;
      row.insertCell().textContent = pct(p);
    });
    out.appendChild(table);
  });
})();
