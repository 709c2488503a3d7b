// The chips reader: the dealer taps the chips a player put out and the word
// said; the server's interpreter reads them by the house rules
// (`interpret`, a side request) and the dealer confirms the action or calls
// the floor.

import { chips } from "../cards.js";
import { h } from "../dom.js";
import { t, LANG, citeLinks } from "./strings.js";
import { root, $, field, state, render, setToggle, showAlert, showSheet, closeSheets } from "./state.js";
import { act, busy, request, errorText } from "./connection.js";
import { openFloor } from "./floorcall.js";

/** Chip denominations for the table: the usual casino values, from about a
 * fifth of the small blind up, seven of them. */
function denominations() {
  const standard = [1, 5, 25, 100, 500, 1000, 5000, 25000, 100000, 500000];
  const small = Number(root.dataset.smallBlind) || Number(root.dataset.bigBlind) || 1;
  const from = standard.filter((d) => d * 5 >= small);
  return (from.length ? from : standard).slice(0, 7);
}

function chipsTotal() {
  let total = 0;
  for (const [d, n] of state.chipCounts) total += d * n;
  return total;
}

function openChips() {
  state.chipCounts = new Map();
  state.chipsRead = null;
  const sheet = $("#sheet-chips");
  sheet.querySelector('select[name="declared"]').value = "";
  sheet.querySelector('input[name="declared_amount"]').value = "";
  setToggle(sheet.querySelector('[data-action="chips-before"]'), true);
  setToggle(sheet.querySelector('[data-action="chips-motions"]'), false);
  showSheet("sheet-chips");
  render();
}

/** What the dealer saw, as the interpreter takes it: {chips, declared, declared_before_chips, declared_amount, motions}. */
function observed() {
  const sheet = $("#sheet-chips");
  const chipsOut = {};
  for (const [d, n] of state.chipCounts) if (n) chipsOut[String(d)] = n;
  const declared = sheet.querySelector('select[name="declared"]').value || null;
  const said = sheet.querySelector('input[name="declared_amount"]').value;
  return {
    chips: chipsOut,
    declared,
    declared_before_chips: sheet.querySelector('[data-action="chips-before"]').classList.contains("on"),
    declared_amount: said && /^\d+$/.test(said) ? Number(said) : null,
    motions: sheet.querySelector('[data-action="chips-motions"]').classList.contains("on") ? 2 : 1,
  };
}

function readChips() {
  const obs = observed();
  if (!Object.keys(obs.chips).length && !obs.declared) {
    showAlert(t("chips_nothing"), "");
    return;
  }
  const seq = state.model.seq;
  field("chips-result").replaceChildren(h("p", { class: "hint", text: t("chips_reading") }));
  request("interpret", { observed: obs }, (msg) => {
    state.chipsRead = { seq, result: msg.result, observed: obs };
    if (state.model.seq !== seq) state.chipsRead = null;
  }, (err) => {
    field("chips-result").replaceChildren(h("p", { class: "chips-error", text: err.message || errorText(err) }));
    return true;
  });
}

function resultHeadline(r) {
  const n = chips(r.amount);
  switch (r.action) {
    case "raise": return t("res_raise", { n });
    case "bet": return t("res_bet", { n });
    case "call": return t("res_call");
    case "check": return t("res_check");
    case "fold": return t("res_fold");
    case "all-in": return t("res_all_in", { n });
    default: return t("res_none");
  }
}

export function renderChips() {
  const model = state.model;
  const sheet = $("#sheet-chips");
  if (sheet.hidden || !model) return;
  const p = model.bySeat.get(model.toAct);
  field("chips-who").textContent = p ? `${p.name} · ${t("seat_n", { n: p.seat })}` : "";
  field("chips-total").textContent = chips(chipsTotal());
  for (const b of field("denoms").querySelectorAll(".denom")) {
    const count = state.chipCounts.get(Number(b.dataset.denom)) || 0;
    b.querySelector(".denom-count").textContent = count ? `×${count}` : "";
    b.classList.toggle("on", count > 0);
  }
  const confirm = $('[data-action="chips-confirm"]');
  const toFloor = $('[data-action="chips-floor"]');
  const box = field("chips-result");
  if (!state.chipsRead) {
    if (!box.querySelector(".hint, .chips-error")) box.replaceChildren();
    confirm.hidden = true;
    toFloor.hidden = true;
    return;
  }
  const r = state.chipsRead.result;
  const lines = [h("p", { class: "res-action", dataset: { action: r.action || "none" }, text: resultHeadline(r) })];
  if (r.complete_to && r.to_add) lines.push(h("p", { class: "res-line", text: t("chips_to_add", { to: chips(r.complete_to), n: chips(r.to_add) }) }));
  if (r.change) lines.push(h("p", { class: "res-line", text: t("chips_change", { n: chips(r.change) }) }));
  if (r.options && r.options.length) lines.push(h("p", { class: "res-line", text: t("chips_options", { options: r.options.join(", ") }) }));
  if (r.floor) lines.push(h("p", { class: "res-line", text: t("chips_floor") }));
  const explanation = r.explanation ? (LANG === "de" ? r.explanation.de : r.explanation.en) || r.explanation.en : "";
  if (explanation) lines.push(h("p", { class: "res-expl", text: explanation }));
  lines.push(citeLinks(r.citations));
  if (!r.engine_action) lines.push(h("p", { class: "res-line res-none", text: t("chips_nothing_stands") }));
  box.replaceChildren(...lines);
  confirm.hidden = !r.engine_action;
  confirm.textContent = r.engine_action ? `${t("confirm")}: ${resultHeadline(r)}` : t("confirm");
  toFloor.hidden = Boolean(r.engine_action);
}

function confirmChips() {
  if (!state.chipsRead || !state.chipsRead.result.engine_action) return;
  const r = state.chipsRead.result;
  const action = { ...r.engine_action, interpretation: { citations: (r.citations || []).map((c) => c.label) } };
  closeSheets();
  state.chipsRead = null;
  act(action);
}

/** Clicks of the chips sheet; true when handled here. */
export function onChipsClick(b) {
  switch (b.dataset.action) {
    case "chips": if (!busy()) openChips(); return true;
    case "chips-clear":
      state.chipCounts = new Map();
      state.chipsRead = null;
      field("chips-result").replaceChildren();
      render();
      return true;
    case "chips-before":
    case "chips-motions":
      setToggle(b, !b.classList.contains("on"));
      state.chipsRead = null;
      render();
      return true;
    case "chips-read": readChips(); return true;
    case "chips-confirm": confirmChips(); return true;
    case "chips-floor": {
      const model = state.model;
      closeSheets();
      openFloor({ reason: "chip_action", seat: model ? model.toAct : null,
        details: { observed: state.chipsRead ? state.chipsRead.observed : observed() } });
      return true;
    }
    default:
      if (b.dataset.denom) {
        const d = Number(b.dataset.denom);
        state.chipCounts.set(d, (state.chipCounts.get(d) || 0) + 1);
        state.chipsRead = null;
        field("chips-result").replaceChildren();
        render();
        return true;
      }
      return false;
  }
}

/** The denomination buttons; any change of the word or amount said drops the last reading. */
export function bindChips() {
  field("denoms").replaceChildren(...denominations().map((d) =>
    h("button", { type: "button", class: `btn denom denom-${d}`, dataset: { denom: d } },
      h("span", { class: "denom-value", text: chips(d) }), h("span", { class: "denom-count" }))));
  for (const el of $("#sheet-chips").querySelectorAll("select, input")) {
    el.addEventListener("input", () => {
      state.chipsRead = null;
      render();
    });
  }
}
