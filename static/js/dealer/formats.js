// Special formats.
//
// Before "Start hand": bomb pot, flip (the chips every player posts), double
// board (000 Allgemein 14) and the straddles agreed at the table's opening
// (000 Aktionen 1), sent as `format` with `start_hand` and reset once the
// hand started. During a hand: "Run it twice" when the snapshot says it is
// possible, with the players' and the floor's agreement (000 Aktionen 8).

import { chips } from "../cards.js";
import { h } from "../dom.js";
import { seatName, potLabel } from "../hand.js";
import { t, i18n } from "./strings.js";
import { $, field, state, FORMATS_ON, freshFormat, render, setToggle, showAlert, showSheet, closeSheets } from "./state.js";
import { send } from "./connection.js";

export function resetFormat() {
  state.nextFormat = freshFormat();
  const input = $('input[name="format_amount"]');
  if (input) input.value = "";
}

/** The seats of the next hand in position order (small blind first, button
 * last), as the server deals them (HandSpec.standard). */
function nextHandOrder() {
  const model = state.model;
  if (!model) return [];
  const live = model.seats.filter((s) => s.player && s.stack > 0 && !s.sitting_out).map((s) => s.number)
    .sort((a, b) => a - b);
  const button = model.next_button_seat;
  const at = live.indexOf(button);
  if (at < 0 || live.length < 2) return [];
  return [...live.slice(at + 1), ...live.slice(0, at + 1)];
}

/** The `format` of start_hand: null for a standard hand, false when the input is incomplete. */
function formatMessage() {
  if (!FORMATS_ON) return null;
  const f = state.nextFormat;
  const out = {};
  if (f.kind !== "standard") {
    if (!/^\d+$/.test(String(f.amount)) || Number(f.amount) <= 0) {
      showAlert(t("err_format_amount"), "");
      return false;
    }
    out.kind = f.kind;
    out.amount = Number(f.amount);
  }
  if (f.double) out.double_board = true;
  if (f.kind === "standard") {
    const order = nextHandOrder();
    const straddles = [];
    for (let k = 2; k <= f.live && k < order.length; k += 1) straddles.push({ kind: "live", seat: order[k] });
    if (f.button && order.length >= 4) straddles.push({ kind: "button", seat: order[order.length - 1] });
    if (f.mississippi) straddles.push({ kind: "mississippi", seat: f.mississippi });
    if (straddles.length) out.straddles = straddles;
  }
  return Object.keys(out).length ? out : null;
}

/** "Start hand": start_hand with the chosen format. */
export function startHand() {
  const format = formatMessage();
  if (format === false) return;
  send("start_hand", format ? { format } : {});
}

export function renderFormats() {
  const model = state.model;
  const box = field("formats");
  box.hidden = !FORMATS_ON || !model;
  if (box.hidden) return;
  const f = state.nextFormat;
  for (const b of box.querySelectorAll("[data-format-kind]")) setToggle(b, b.dataset.formatKind === f.kind);
  setToggle($('[data-action="format-double"]'), f.double);
  field("format-amount-row").hidden = f.kind === "standard";
  const input = $('input[name="format_amount"]');
  if (document.activeElement !== input && input.value !== String(f.amount)) input.value = f.amount;

  // Straddles of the kinds agreed at the table's opening, for the seats of the next hand.
  const kinds = FORMATS_ON ? model.table.straddle_kinds || [] : [];
  const order = nextHandOrder();
  const bb = Number(model.table.big_blind) || 0;
  const key = JSON.stringify([kinds, order, f.kind, bb]);
  const wrap = field("format-straddles");
  if (key !== state.straddleKey) {
    state.straddleKey = key;
    const rows = [];
    if (f.kind === "standard" && order.length >= 3) {
      if (kinds.includes("live")) {
        const select = h("select", { name: "straddle_live" }, h("option", { value: "0" }, t("straddle_none")));
        const parts = [];
        let amount = bb;
        for (let k = 2; k < order.length; k += 1) {
          amount *= 2;
          parts.push(t("straddle_option", { seat: order[k], n: chips(amount) }));
          select.append(h("option", { value: k }, parts.join(", ")));
        }
        rows.push(h("label", { class: "field" }, t("straddle_live"), select));
      }
      if (kinds.includes("button") && order.length >= 4) {
        rows.push(h("button", { type: "button", class: "btn btn-small toggle", dataset: { action: "format-button-straddle" } },
          `${t("straddle_button")}: ${t("straddle_option", { seat: order[order.length - 1], n: chips(2 * bb) })}`));
      }
      if (kinds.includes("mississippi") && order.length >= 4) {
        rows.push(h("label", { class: "field" }, t("straddle_mississippi"),
          h("select", { name: "straddle_mississippi" }, h("option", { value: "" }, t("straddle_none")),
            order.slice(3).map((seat) => h("option", { value: seat }, t("straddle_option", { seat, n: chips(2 * bb) }))))));
      }
    }
    wrap.replaceChildren(...rows);
  }
  const live = wrap.querySelector('select[name="straddle_live"]');
  if (live) live.value = String(f.live);
  const miss = wrap.querySelector('select[name="straddle_mississippi"]');
  if (miss) miss.value = f.mississippi ? String(f.mississippi) : "";
  const btn = wrap.querySelector('[data-action="format-button-straddle"]');
  if (btn) setToggle(btn, f.button);

  const hints = [];
  if (f.kind !== "standard") hints.push(t(`format_${f.kind}_hint`));
  if (f.double) hints.push(t("format_double_hint"));
  if (f.kind === "standard" && kinds.length) {
    hints.push(t("format_straddle_hint", { kinds: kinds.map((k) => t(`straddle_${k}`)).join(", ") }));
  }
  field("format-hint").textContent = hints.join(" ");
}

/** Clicks of the format control and the run-it-twice sheet; true when handled here. */
export function onFormatClick(b) {
  const f = state.nextFormat;
  const ritPick = state.ritPick;
  if (b.dataset.formatKind) {
    f.kind = b.dataset.formatKind;
    render();
    return true;
  }
  switch (b.dataset.action) {
    case "format-double": f.double = !f.double; render(); return true;
    case "format-button-straddle": f.button = !f.button; render(); return true;
    case "rit-open": if (state.model && state.model.runTwicePossible) openRunTwice(); return true;
    case "rit-floor": if (ritPick) { ritPick.floor = !ritPick.floor; render(); } return true;
    case "rit-send": sendRunTwice(); return true;
    default:
      break;
  }
  if (ritPick && b.dataset.ritPot !== undefined) {
    const i = Number(b.dataset.ritPot);
    if (ritPick.pots.has(i)) ritPick.pots.delete(i);
    else ritPick.pots.add(i);
    render();
    return true;
  }
  if (ritPick && b.dataset.ritSeat !== undefined) {
    const s = Number(b.dataset.ritSeat);
    if (ritPick.agreed.has(s)) ritPick.agreed.delete(s);
    else ritPick.agreed.add(s);
    render();
    return true;
  }
  return false;
}

/** Typing in the format control: the posted amount and the straddle selects. */
export function onFormatInput(e) {
  const el = e.target;
  const f = state.nextFormat;
  if (el.name === "format_amount") f.amount = el.value.trim();
  else if (el.name === "straddle_live") f.live = Number(el.value) || 0;
  else if (el.name === "straddle_mississippi") f.mississippi = el.value ? Number(el.value) : null;
  else return;
  render();
}

// ---------------------------------------------------------------- run it twice

function openRunTwice() {
  state.ritPick = { pots: new Set(state.model.pots.map((_, i) => i)), agreed: new Set(), floor: false };
  showSheet("sheet-rit");
  render();
}

/** The seats that must agree: every player in the chosen pots (000 Aktionen 8 b). */
function ritPlayers() {
  const seats = new Set();
  state.model.pots.forEach((pot, i) => {
    if (state.ritPick.pots.has(i)) for (const s of pot.eligible) seats.add(s);
  });
  return [...seats].sort((a, b) => a - b);
}

export function renderRunTwice() {
  const model = state.model;
  const ritPick = state.ritPick;
  const sheet = $("#sheet-rit");
  if (sheet.hidden || !ritPick || !model) return;
  field("rit-pots").replaceChildren(...model.pots.map((pot, i) => {
    const on = ritPick.pots.has(i);
    return h("button", { type: "button", class: `btn btn-small toggle${on ? " on" : ""}`, dataset: { ritPot: i },
      "aria-pressed": on ? "true" : "false" }, `${potLabel(i18n, i)} ${chips(pot.amount)}`);
  }));
  const players = ritPlayers();
  field("rit-players").replaceChildren(...players.map((s) => {
    const on = ritPick.agreed.has(s);
    return h("button", { type: "button", class: `btn btn-small toggle${on ? " on" : ""}`, dataset: { ritSeat: s },
      "aria-pressed": on ? "true" : "false" }, `${seatName(model, s) || ""} (${s})`);
  }));
  setToggle(sheet.querySelector('[data-action="rit-floor"]'), ritPick.floor);
  const needFloor = players.length > 2;
  const allAgreed = players.every((s) => ritPick.agreed.has(s));
  field("rit-hint").textContent = !allAgreed ? t("rit_all_must_agree") : needFloor && !ritPick.floor ? t("rit_floor_needed") : "";
  sheet.querySelector('[data-action="rit-send"]').disabled =
    !ritPick.pots.size || !players.length || !allAgreed || (needFloor && !ritPick.floor) || Boolean(state.pending);
}

function sendRunTwice() {
  const ritPick = state.ritPick;
  if (!ritPick || !state.model) return;
  const players = ritPlayers();
  const message = {
    agreed: players.filter((s) => ritPick.agreed.has(s)),
    pots: [...ritPick.pots].sort((a, b) => a - b),
    floor: ritPick.floor,
  };
  closeSheets();
  send("run_it_twice", message);
}
