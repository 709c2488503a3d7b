// The structure editor: levels, breaks with their color-ups, chips in play and the
// windows (late registration, re-entry, rebuys, add-on). The server checks and stores
// (tournaments/services/structures.py); a refused structure shows every error and
// changes nothing.

import { h } from "./dom.js";

const root = document.getElementById("structure");
const data = JSON.parse(document.getElementById("ts-data").textContent);
const L = data.labels;
const rows = document.getElementById("ts-rows");
const WINDOWS = ["late_registration_until", "re_entry_until", "rebuy_until", "add_on_until"];
let structure = data.structure;
// the column headings label each cell (shown above the field on a phone) and name each field
const heads = [...root.querySelectorAll(".ts-periods thead th")].map((th) => th.textContent);
const cell = (col, ...children) => h("td", { "data-label": heads[col] }, ...children);

async function api(method, body, query = "") {
  const response = await fetch(root.dataset.api + query, {
    method,
    headers: { "Content-Type": "application/json", "X-CSRFToken": root.dataset.csrf },
    body: body ? JSON.stringify(body) : undefined,
  });
  return response.json();
}

function showErrors(errors, saved = "") {
  const box = document.getElementById("ts-errors");
  box.hidden = !errors.length;
  box.replaceChildren(...errors.map((e) => h("p", {}, e)));
  document.getElementById("ts-saved").textContent = saved;
}

const num = (v) => (v === "" ? "" : Number(v));

const COLUMN = { small_blind: 2, big_blind: 3, ante: 4, ante_kind: 5, minutes: 6, color_up: 7 };

function field(p, key, attrs = {}) {
  const input = h("input", { type: "number", min: "0", value: p[key] ?? "", "data-key": key, inputmode: "numeric",
    "aria-label": heads[COLUMN[key]], ...attrs });
  input.addEventListener("input", () => { p[key] = num(input.value); });
  return input;
}

// periods already played (the clock is past them) cannot change: their fields are locked
const played = data.played || 0;

function render() {
  let level = 0;
  rows.replaceChildren(...structure.periods.map((p, i) => {
    const isBreak = p.kind === "break";
    if (!isBreak) level += 1;
    const cells = [h("td", {}, String(i + 1)), h("td", {}, isBreak ? L.break : `${L.level} ${level}`,
      i < played ? h("small", { class: "ts-played", title: L.played_hint }, ` · ${L.played}`) : "")];
    if (isBreak) {
      cells.push(h("td", { colspan: "4", class: "ts-gap" }), cell(6, field(p, "minutes", { min: "1" })));
      const colorUp = h("input", { value: (p.color_up || []).join(", "), "data-key": "color_up", placeholder: "25",
        "aria-label": heads[7] });
      colorUp.addEventListener("input", () => {
        p.color_up = colorUp.value.split(/[ ,;]+/).filter(Boolean).map(Number);
      });
      cells.push(cell(7, colorUp));
    } else {
      const kind = h("select", { "data-key": "ante_kind", "aria-label": heads[5] },
        ...["none", "ante", "big_blind_ante"].map((k) => h("option", { value: k }, L[k])));
      kind.value = p.ante_kind || "none";
      kind.addEventListener("change", () => { p.ante_kind = kind.value; });
      cells.push(cell(2, field(p, "small_blind")), cell(3, field(p, "big_blind")), cell(4, field(p, "ante")),
        cell(5, kind), cell(6, field(p, "minutes", { min: "1" })), h("td", { class: "ts-gap" }));
    }
    const up = h("button", { type: "button", title: L.up, "aria-label": L.up }, "↑");
    up.addEventListener("click", () => {
      if (i > 0) { [structure.periods[i - 1], structure.periods[i]] = [structure.periods[i], structure.periods[i - 1]]; render(); }
    });
    const remove = h("button", { type: "button", title: L.remove, "aria-label": L.remove }, "✕");
    remove.addEventListener("click", () => { structure.periods.splice(i, 1); render(); });
    cells.push(h("td", {}, up, remove));
    const row = h("tr", { class: `${isBreak ? "break" : ""}${i < played ? " played" : ""}`, "data-played": i < played ? "1" : "0" }, ...cells);
    if (i < played) {
      for (const control of row.querySelectorAll("input, select, button")) { control.disabled = true; control.title = L.played_hint; }
    } else if (i === played && played > 0) {
      up.disabled = true; // it would move above a played period
    }
    return row;
  }));
  document.getElementById("ts-chips").value = (structure.chips || []).join(", ");
  scheduleEstimate();
  for (const select of root.querySelectorAll("[data-window]")) {
    const key = select.dataset.window;
    select.replaceChildren(h("option", { value: "" }, L.closed),
      ...structure.periods.map((p, i) => h("option", { value: String(i) }, `${L.end_of} ${i + 1}`)));
    select.value = structure[key] == null ? "" : String(structure[key]);
  }
}

function collect() {
  structure.chips = document.getElementById("ts-chips").value.split(/[ ,;]+/).filter(Boolean).map(Number);
  for (const select of root.querySelectorAll("[data-window]")) {
    structure[select.dataset.window] = select.value === "" ? null : Number(select.value);
  }
  return structure;
}

function load(next) { structure = next; render(); showErrors([]); }

// the estimated end of the structure as edited (tournaments/services/planning.py, asked of the server
// a moment after each change): start (or the clock's time played) + periods up to the end big blind
let estimateTimer = null;
function scheduleEstimate() {
  clearTimeout(estimateTimer);
  estimateTimer = setTimeout(async () => {
    const answer = await api("POST", { op: "estimate", structure, ...plan() });
    document.getElementById("ts-end").textContent = answer.ok && answer.estimate ? answer.estimate.text : "";
  }, 250);
}
function plan() {
  const value = (id) => document.getElementById(id).value;
  return { hours: value("ts-hours"), level_minutes: value("ts-level-minutes"), players: value("ts-players"),
    starting_stack: value("ts-stack"), start: value("ts-start") };
}
rows.addEventListener("input", scheduleEstimate);
for (const id of ["ts-players", "ts-stack", "ts-start"]) document.getElementById(id).addEventListener("input", scheduleEstimate);
document.getElementById("ts-generate").addEventListener("submit", async (event) => {
  event.preventDefault();
  const answer = await api("POST", { op: "generate", ...plan() });
  if (answer.ok) { load(answer.structure); showErrors([], L.generated); } else showErrors(answer.errors || [answer.message]);
});

document.getElementById("ts-add-level").addEventListener("click", () => {
  const last = [...structure.periods].reverse().find((p) => p.kind !== "break");
  structure.periods.push(last ? { ...last, kind: "level" }
    : { kind: "level", small_blind: 100, big_blind: 200, ante: 0, ante_kind: "none", minutes: 20 });
  render();
});
document.getElementById("ts-add-break").addEventListener("click", () => {
  structure.periods.push({ kind: "break", minutes: 10, color_up: [] });
  render();
});
document.getElementById("ts-load-template").addEventListener("click", async () => {
  const answer = await api("GET", null, `?template=${encodeURIComponent(document.getElementById("ts-template").value)}`);
  if (answer.ok) load(answer.structure); else showErrors([answer.message]);
});
document.getElementById("ts-load-copy").addEventListener("click", async () => {
  const answer = await api("GET", null, `?from=${encodeURIComponent(document.getElementById("ts-copy").value)}`);
  if (answer.ok) load(answer.structure); else showErrors([answer.message]);
});
document.getElementById("ts-import").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  let document_;
  try { document_ = JSON.parse(await file.text()); } catch { showErrors([L.bad_file]); return; }
  const answer = await api("POST", { op: "import", document: document_ });
  if (answer.ok) { load(answer.structure); showErrors([], L.saved); } else showErrors(answer.errors || [answer.message]);
});
document.getElementById("ts-check").addEventListener("click", async () => {
  const answer = await api("POST", { op: "check", structure: collect() });
  showErrors(answer.errors || [], answer.ok ? L.good : "");
});
document.getElementById("ts-save").addEventListener("click", async () => {
  const answer = await api("POST", { op: "save", structure: collect() });
  if (answer.ok) { load(answer.structure); showErrors([], L.saved); } else showErrors(answer.errors || [answer.message]);
});
document.getElementById("ts-save-template").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = document.getElementById("ts-template-name").value;
  const answer = await api("POST", { op: "save_template", name, structure: collect() });
  if (answer.ok) {
    showErrors([], L.template_saved.replace("%(name)s", answer.template.name));
    const picker = document.getElementById("ts-template");
    if (![...picker.options].some((o) => o.value === answer.template.key)) {
      picker.append(h("option", { value: answer.template.key }, answer.template.name));
    }
  } else showErrors(answer.errors || [answer.message]);
});

render();
