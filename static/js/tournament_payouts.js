// Payout desk: the running sum of the edited prizes against the pool, the
// print button, and a confirmation before a deal is recorded.
(function () {
  "use strict";
  const _ = window.gettext || ((s) => s); // "_" is a keyword makemessages extracts (a local alias like "t" is not)
  const fmt = window.interpolate || ((s, o) => s.replace(/%\((\w+)\)s/g, (_, k) => o[k]));
  const root = document.getElementById("payouts");
  if (!root) return;
  const pool = Number(root.dataset.pool || 0);
  const sumLine = document.getElementById("pd-sum");
  let inputs = Array.from(document.querySelectorAll(".pd-amount"));

  function showSum() {
    if (!sumLine) return;
    const values = inputs.map((i) => (/^\d+$/.test(i.value.trim()) ? Number(i.value.trim()) : NaN));
    if (values.some(Number.isNaN)) {
      sumLine.textContent = _("Every prize must be a whole amount of 0 or more.");
      sumLine.className = "pd-sum bad";
      return;
    }
    const total = values.reduce((a, b) => a + b, 0);
    const rising = values.findIndex((v, k) => k > 0 && v > values[k - 1]);
    let text = fmt(_("Sum %(total)s of %(pool)s"), { total, pool }, true);
    let ok = total === pool && rising < 0;
    if (total !== pool) text += " · " + fmt(_("%(diff)s to distribute"), { diff: pool - total }, true);
    if (rising >= 0) text += " · " + fmt(_("place %(place)s is above place %(better)s"), { place: rising + 1, better: rising }, true);
    sumLine.textContent = text;
    sumLine.className = ok ? "pd-sum good" : "pd-sum bad";
    inputs.forEach((input, k) => input.classList.toggle("bad", k > 0 && values[k] > values[k - 1]));
  }
  inputs.forEach((i) => i.addEventListener("input", showSum));
  showSum();

  // One more paid place: a new row at 0 (places left at 0 at the end are not paid); its words come
  // translated with the form (data-add-label, data-prize-label).
  const body = document.querySelector(".pd-places tbody");
  const save = document.getElementById("pd-save");
  if (body && save && !save.disabled) {
    const add = document.createElement("button");
    add.type = "button";
    add.id = "pd-add-place";
    const labels = document.getElementById("pd-edit").dataset;
    add.textContent = labels.addLabel;
    save.before(add, " ");
    add.addEventListener("click", () => {
      const place = inputs.length + 1;
      const row = document.createElement("tr");
      const cells = [String(place), "", ""].map((text) => {
        const cell = document.createElement("td");
        cell.textContent = text;
        return cell;
      });
      cells[1].className = "num";
      const input = document.createElement("input");
      input.name = "amount";
      input.className = "pd-amount";
      input.inputMode = "numeric";
      input.size = 8;
      input.value = "0";
      input.setAttribute("aria-label", `${labels.prizeLabel} ${place}`);
      input.addEventListener("input", showSum);
      cells[2].append(input);
      row.append(...cells);
      body.append(row);
      inputs = Array.from(document.querySelectorAll(".pd-amount"));
      showSum();
      input.focus();
      input.select();
    });
  }

  const print = document.getElementById("pd-print");
  if (print) print.addEventListener("click", () => window.print());

  const record = document.getElementById("pd-record");
  if (record) {
    record.addEventListener("submit", (event) => {
      if (!window.confirm(_("Record this deal? The payouts can no longer change afterwards."))) event.preventDefault();
    });
  }
})();
