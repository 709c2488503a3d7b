// Payout desk: the running sum of the edited prizes against the pool, the
// print button, and a confirmation before a deal is recorded.
(function () {
  "use strict";
  const t = window.gettext || ((s) => s);
  const fmt = window.interpolate || ((s, o) => s.replace(/%\((\w+)\)s/g, (_, k) => o[k]));
  const root = document.getElementById("payouts");
  if (!root) return;
  const pool = Number(root.dataset.pool || 0);
  const sumLine = document.getElementById("pd-sum");
  const inputs = Array.from(document.querySelectorAll(".pd-amount"));

  function showSum() {
    if (!sumLine) return;
    const values = inputs.map((i) => (/^\d+$/.test(i.value.trim()) ? Number(i.value.trim()) : NaN));
    if (values.some(Number.isNaN)) {
      sumLine.textContent = t("Every prize must be a whole amount of 0 or more.");
      sumLine.className = "pd-sum bad";
      return;
    }
    const total = values.reduce((a, b) => a + b, 0);
    const rising = values.findIndex((v, k) => k > 0 && v > values[k - 1]);
    let text = fmt(t("Sum %(total)s of %(pool)s"), { total, pool }, true);
    let ok = total === pool && rising < 0;
    if (total !== pool) text += " · " + fmt(t("%(diff)s to distribute"), { diff: pool - total }, true);
    if (rising >= 0) text += " · " + fmt(t("place %(place)s is above place %(better)s"), { place: rising + 1, better: rising }, true);
    sumLine.textContent = text;
    sumLine.className = ok ? "pd-sum good" : "pd-sum bad";
    inputs.forEach((input, k) => input.classList.toggle("bad", k > 0 && values[k] > values[k - 1]));
  }
  inputs.forEach((i) => i.addEventListener("input", showSum));
  showSum();

  const print = document.getElementById("pd-print");
  if (print) print.addEventListener("click", () => window.print());

  const record = document.getElementById("pd-record");
  if (record) {
    record.addEventListener("submit", (event) => {
      if (!window.confirm(t("Record this deal? The payouts can no longer change afterwards."))) event.preventDefault();
    });
  }
})();
