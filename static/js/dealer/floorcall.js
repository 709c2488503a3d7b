// The floor: calling the floor (with what the dealer entered attached), and
// the notices the floor sends back: the call's status, a ruling, the
// tournament director's instructions. Broadcasts `floor_call`, `ruling` and
// `instruction` carry no seq: they are not fed to the SeqTracker; the floor
// call is a side request (not retried).

import { h } from "../dom.js";
import { seatName } from "../hand.js";
import { t, LANG, citeLinks } from "./strings.js";
import { $, field, state, MAX_SEATS, render, showSheet, closeSheets } from "./state.js";
import { request } from "./connection.js";

/** Open the floor-call sheet, prefilled (the chips reader and the guided procedures attach details). */
export function openFloor({ reason = "other", seat = null, details = null, note = "" } = {}) {
  const model = state.model;
  const sheet = $("#sheet-floor");
  const seats = sheet.querySelector('select[name="seat"]');
  const opts = [h("option", { value: "" }, "–")];
  for (let n = 1; n <= MAX_SEATS; n += 1) {
    const who = model ? seatName(model, n) || (model.seats.find((s) => s.number === n) || {}).player : null;
    opts.push(h("option", { value: n }, who ? `${n} · ${who}` : String(n)));
  }
  seats.replaceChildren(...opts);
  seats.value = seat ? String(seat) : "";
  const reasons = sheet.querySelector('select[name="reason"]');
  reasons.value = reason;
  reasons.onchange = renderAtTable;
  sheet.querySelector('input[name="note"]').value = note;
  state.floorDetails = details;
  field("floor-details").textContent = details ? t("floor_details_attached") : "";
  renderAtTable();
  showSheet("sheet-floor");
}

/** An exposed card or a misdeal (without a procedure walked yet): the house rules may let the
 * dealer finish it at the table; the sheet offers the procedure instead of the call. */
function renderAtTable() {
  const reason = $('#sheet-floor select[name="reason"]').value;
  const box = field("floor-at-table");
  const offer = !state.floorDetails && (reason === "misdeal" || reason === "exposed_card");
  box.hidden = !offer;
  if (offer) box.querySelector('[data-action="floor-to-procedure"]').dataset.procedure = reason;
}

function sendFloor() {
  const sheet = $("#sheet-floor");
  const seat = sheet.querySelector('select[name="seat"]').value;
  const message = {
    reason: sheet.querySelector('select[name="reason"]').value,
    seat: seat ? Number(seat) : null,
    note: sheet.querySelector('input[name="note"]').value.trim(),
    details: state.floorDetails || {},
  };
  const sent = request("floor_call", message, (ack) => {
    if (typeof ack.floor_call === "number" && !state.floorCalls.has(ack.floor_call)) {
      state.floorCalls.set(ack.floor_call, { id: ack.floor_call, status: "open" });
    }
  });
  if (sent) {
    state.floorDetails = null;
    closeSheets();
  }
}

/** The broadcasts `floor_call`, `ruling` and `instruction`; true when handled here. */
export function handleFloorMessage(msg) {
  if (msg.type === "floor_call" && msg.call) {
    const call = msg.call;
    if (call.status === "open" || call.status === "answered") state.floorCalls.set(call.id, call);
    else state.floorCalls.delete(call.id);
    render();
    return true;
  }
  if (msg.type === "ruling" && msg.ruling) {
    const model = state.model;
    state.ruling = { ruling: msg.ruling, handId: model && model.hand ? model.hand.id : null };
    render();
    return true;
  }
  if (msg.type === "instruction") {
    if (msg.cancelled || msg.status === "cancelled") state.instructions.delete(msg.id);
    else state.instructions.set(msg.id, msg);
    render();
    return true;
  }
  return false;
}

/** Clicks of the floor call and its notices; true when handled here. */
export function onFloorClick(b) {
  switch (b.dataset.action) {
    case "floor": openFloor(); return true;
    case "floor-send": sendFloor(); return true;
    case "dismiss-ruling": state.ruling = null; render(); return true;
    case "dismiss-instruction": state.instructions.delete(Number(b.dataset.id)); render(); return true;
    default: return false;
  }
}

/** The notices under the header: floor call status, ruling, instructions. */
export function renderNotices() {
  const status = field("floor-status");
  const calls = [...state.floorCalls.values()];
  const call = calls[calls.length - 1];
  status.hidden = !call;
  if (call) {
    status.dataset.status = call.status;
    status.textContent = call.status === "answered"
      ? (call.answered_by ? t("floor_on_way", { name: call.answered_by }) : t("floor_on_way_anon"))
      : t("floor_called");
  }
  const rb = field("ruling");
  const ruling = state.ruling;
  rb.hidden = !ruling;
  if (ruling) {
    const r = ruling.ruling;
    rb.replaceChildren(
      h("div", { class: "notice-body" },
        h("strong", { text: t("ruling_title") }), " ",
        h("span", { class: "ruling-decision", text: LANG === "de" && r.decision_de ? r.decision_de : r.decision }), " ",
        citeLinks(r.citations)),
      h("button", { type: "button", class: "alert-close", dataset: { action: "dismiss-ruling" }, "aria-label": t("dismiss") }, "✕"),
    );
  }
  const ib = field("instruction");
  const list = [...state.instructions.values()];
  ib.hidden = !list.length;
  ib.replaceChildren(...list.map((m) => h("div", { class: "instruction", dataset: { id: m.id } },
    h("div", { class: "notice-body" }, h("strong", { text: t("instruction_title") }), " ",
      h("span", { text: LANG === "de" && m.text_de ? m.text_de : m.text_en || m.text_de })),
    h("button", { type: "button", class: "alert-close", dataset: { action: "dismiss-instruction", id: m.id },
      "aria-label": t("dismiss") }, "✕"))));
}
