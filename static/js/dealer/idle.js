// Between hands: the result of the last hand, the next button, the format of
// the next hand (./formats.js) and, at tournament tables, absent players.

import { chips } from "../cards.js";
import { h } from "../dom.js";
import { seatName, potLabel } from "../hand.js";
import { t, i18n, loc, citeLinks } from "./strings.js";
import { root, $, field, state, render, showAlert, IS_STUD_TABLE } from "./state.js";
import { renderFormats } from "./formats.js";
import { isMisdeal, nextButton } from "./seats.js";
import { studStartHint } from "./stud.js";

export function renderIdle() {
  const model = state.model;
  const result = field("result");
  if (model && model.hand && model.hand.status === "complete") {
    // The main pot first, then the side pots, whichever the dealer awarded first.
    const lines = [...model.awards].sort((a, b) => a.pot - b.pot).map((a) => {
      const who = `${seatName(model, a.seat) || ""} (${a.seat})`;
      return h(
        "li",
        {},
        model.pots.length > 1
          ? t("wins_pot", { who, amount: chips(a.amount), pot: potLabel(i18n, a.pot) })
          : t("wins", { who, amount: chips(a.amount) }),
      );
    });
    const byBoard = [...model.boardResults].sort((a, b) => a.pot - b.pot).flatMap((r) => r.boards.map((b) => h("li", { dataset: { pot: r.pot, board: b.board } },
      t("wins_board", {
        b: b.board,
        who: b.winners.map((s) => `${seatName(model, s) || ""} (${s})`).join(", "),
        amount: model.pots.length > 1 ? `${chips(b.chips)} (${potLabel(i18n, r.pot)})` : chips(b.chips),
      }) + (b.hand ? ` · ${b.hand}` : ""))));
    // replaceChildren() writes a null child as the text "null": only real elements go in.
    const parts = [h("h2", { text: `${t("hand_n", { n: model.hand.number })} · ${t("street_complete")}` }),
      h("ul", { class: "winners" }, lines)];
    if (byBoard.length) parts.push(h("ul", { class: "board-winners" }, byBoard));
    result.replaceChildren(...parts);
  } else if (isMisdeal(model)) {
    // a misdeal the dealer declared at the table names the house rule it follows (issue 24)
    const ev = model.hand.last_event;
    const pl = (ev && ev.payload) || {};
    const byDealer = ev && ev.kind === "correction" && pl.type === "misdeal" && pl.by === "dealer";
    const parts = [
      h("h2", { text: `${t("hand_n", { n: model.hand.number })} · ${t("misdeal")}` }),
      h("p", { class: "hint", text: t("misdeal_redeal") }),
    ];
    if (byDealer) {
      parts.push(h("p", { class: "proc-done", dataset: { field: "misdeal-rule" } },
        h("strong", { text: t("proc_done", { summary: loc(pl, "summary") }) }), " ", citeLinks(pl.citations)));
    }
    result.replaceChildren(...parts);
  } else {
    result.replaceChildren();
  }
  renderFormats();
  const next = model ? nextButton(model) : null;
  // A misdealt hand dealt again keeps its button, blinds and format (start_hand refuses another one).
  const redeal = isMisdeal(model) && next === model.buttonSeat;
  if (redeal) field("formats").hidden = true;
  field("start-hint").textContent = redeal ? t("redeal_hint") : IS_STUD_TABLE ? studStartHint() : t("start_hint");
  field("next-button").textContent =
    next === null || next === undefined
      ? t("next_button_none")
      : t("next_button", { seat: next, who: seatName(model, next) || "" });
  $('[data-action="start"]').disabled = next === null || next === undefined;
  renderAbsent();
}

// ---------------------------------------------------------------- absent players
//
// Tournament tables only: between hands the dealer marks a player away from
// his seat and back (001 Sitzverteilung, 004 #30: he is dealt in, his blinds
// and antes are posted, his hand is dead). State and words come from
// /tournaments/tables/<id>/absent/ (404 at other tables: no control); the
// server pushes {"type": "absent", "seats"} when they change.

const ABSENT_URL = `/tournaments/tables/${root.dataset.tableId}/absent/`;

/** Fetch the absent players, or send a change ({seat, absent}) and take the answer. */
export async function loadAbsent(change = null) {
  if (state.absent === null && !change) return; // a cash table: the floor marks absent players on the room page
  const csrf = document.querySelector("input[name=csrfmiddlewaretoken]");
  const init = change ? { method: "POST", body: JSON.stringify(change),
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf ? csrf.value : "" } } : {};
  let body;
  try {
    const response = await fetch(ABSENT_URL, init);
    if (!change && (response.status === 404 || response.status === 403)) state.absent = null;
    body = await response.json();
  } catch (e) {
    return; // offline: the socket shows it
  }
  if (body.ok) state.absent = { seats: new Set(body.seats), labels: body.labels, rule: body.rule_label || body.rule };
  else if (change) showAlert(body.message || body.code, "");
  render();
}

/** The broadcast `absent` (the seats marked away changed); true when handled here. */
export function handleAbsentMessage(msg) {
  if (msg.type === "absent" && state.absent) {
    state.absent.seats = new Set(msg.seats);
    render();
    return true;
  }
  return false;
}

function renderAbsent() {
  const absent = state.absent;
  const view = $('[data-view="idle"]');
  let box = view.querySelector(".absent-box");
  if (!absent) {
    if (box) box.remove();
    return;
  }
  if (!box) view.append((box = h("div", { class: "absent-box" })));
  const L = absent.labels;
  const seated = state.model.seats.filter((s) => s.player);
  box.replaceChildren(
    h("p", { class: "hint", text: `${L.title}: ${L.hint.replace("{rule}", absent.rule)}` }),
    ...seated.map((s) => {
      const away = absent.seats.has(s.number);
      return h("button", { type: "button", class: `btn btn-small btn-ghost${away ? " on" : ""}`,
        dataset: { absentSeat: s.number }, "aria-pressed": away ? "true" : "false",
        onclick: () => loadAbsent({ seat: s.number, absent: !away }) },
      `${s.number} · ${s.player}: ${away ? L.back : L.away}`);
    }));
}
