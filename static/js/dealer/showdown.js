// The showdown: the players in showing order with their cards (show or
// muck), and the pots to award by hand when the cards are not entered.

import { chips, cardEl } from "../cards.js";
import { h } from "../dom.js";
import { seatName, potLabel, potOnTwoBoards } from "../hand.js";
import { t, i18n } from "./strings.js";
import { $, field, state, render } from "./state.js";
import { act } from "./connection.js";
import { buildPicker, markPicker, normalise } from "./cards.js";
import { onSeatTap } from "./seats.js";

export function renderShowdown() {
  const model = state.model;
  const list = field("showdown");
  const contenders = model.players.filter((p) => !p.folded);
  const order = model.showdownOrder.length
    ? model.showdownOrder.map((s) => model.bySeat.get(s)).filter(Boolean)
    : contenders;
  const current = order.find((p) => p.seat === state.showSeat);
  if (!current || current.shown || current.mucked) {
    const first = order.find((p) => !p.shown && !p.mucked);
    state.showSeat = first ? first.seat : null;
  }
  list.replaceChildren(
    ...order.map((p, i) => {
      const typed = state.showCards.get(p.seat) || [];
      const known = p.cards.filter((c) => c !== "??");
      const row = h(
        "li",
        { class: `sd-row${p.seat === state.showSeat ? " selected" : ""}${p.mucked ? " mucked" : ""}`, dataset: { seat: p.seat } },
        h("button", { type: "button", class: "sd-who", onclick: () => onSeatTap(p.seat) },
          h("b", { text: p.name }), " ", h("span", { class: "muted", text: t("seat_n", { n: p.seat }) }),
          i === 0 ? h("span", { class: "tag tag-act", text: t("shows_first") }) : null),
        h("span", { class: "sd-cards" }, (known.length ? known : typed).map(cardEl)),
      );
      if (!p.shown && !p.mucked) {
        row.append(
          h("span", { class: "sd-actions" },
            h("button", { type: "button", class: "btn btn-small btn-go", dataset: { action: "show", seat: p.seat },
              disabled: typed.length !== model.holeCount, onclick: () => act({ type: "show", seat: p.seat, cards: typed.join("") }) }, t("show")),
            h("button", { type: "button", class: "btn btn-small btn-ghost", dataset: { action: "muck", seat: p.seat },
              onclick: () => act({ type: "muck", seat: p.seat }) }, t("muck")),
          ),
        );
      }
      return row;
    }),
  );
  markPicker($('[data-picker="show"]'), state.showCards.get(state.showSeat) || []);

  // Pots to award by hand (cards unknown): eligible seats as toggles.
  const awarded = new Set(model.awards.map((a) => a.pot));
  const awards = field("awards");
  awards.replaceChildren(
    ...model.pots.map((pot, i) => {
      const pick = state.awardPick.get(i) || new Set();
      const box = h("div", { class: `award${awarded.has(i) ? " done" : ""}`, dataset: { pot: i } },
        h("div", { class: "award-head" },
          h("span", { text: potLabel(i18n, i) }), h("b", { text: chips(pot.amount) })),
      );
      if (awarded.has(i)) {
        box.append(h("div", { class: "award-result" },
          model.awards.filter((a) => a.pot === i).map((a) =>
            t("wins", { who: `${seatName(model, a.seat)} (${a.seat})`, amount: chips(a.amount) })).join(" · ")));
        return box;
      }
      const toggles = (picks, attr) => pot.eligible.map((s) => {
        const on = (picks.get(i) || new Set()).has(s);
        return h("button", { type: "button", class: `btn btn-small toggle${on ? " on" : ""}`,
          dataset: { [attr]: s }, "aria-pressed": on ? "true" : "false",
          onclick: () => {
            const set = picks.get(i) || new Set();
            if (set.has(s)) set.delete(s);
            else set.add(s);
            picks.set(i, set);
            render();
          } }, `${seatName(model, s) || ""} (${s})`);
      });
      // A pot on two boards is halved between them: the winners of each board (000 Allgemein 14, Aktionen 8).
      const two = potOnTwoBoards(model, i);
      const pick2 = state.awardPick2.get(i) || new Set();
      const seats = two
        ? h("div", { class: "award-seats" },
          h("div", { class: "award-board", dataset: { board: 1 } }, h("span", { class: "label", text: t("board_n", { n: 1 }) }), toggles(state.awardPick, "winner")),
          h("div", { class: "award-board", dataset: { board: 2 } }, h("span", { class: "label", text: t("board_n", { n: 2 }) }), toggles(state.awardPick2, "winner2")))
        : h("div", { class: "award-seats" }, toggles(state.awardPick, "winner"));
      const sorted = (set) => [...set].sort((a, b) => a - b);
      const go = h("button", { type: "button", class: "btn btn-go", dataset: { action: "award", pot: i },
        disabled: pick.size === 0 || (two && pick2.size === 0),
        onclick: () => act({ type: "award", pot: i, winners: sorted(pick), ...(two ? { winners2: sorted(pick2) } : {}) }) },
        t(pick.size > 1 || two ? "split_between" : "award_pot", { pot: potLabel(i18n, i) }));
      box.append(seats, go);
      return box;
    }),
  );
}

/** The picker and text field of the selected player's cards. */
export function bindShowdown() {
  buildPicker($('[data-picker="show"]'), (code) => {
    if (state.showSeat === null) return;
    let cards = state.showCards.get(state.showSeat) || [];
    if (cards.includes(code)) cards = cards.filter((c) => c !== code);
    else if (cards.length < state.model.holeCount) cards = [...cards, code];
    state.showCards.set(state.showSeat, cards);
    field("show-text").value = cards.join("");
    render();
  });
  field("show-text").addEventListener("input", (e) => {
    if (state.showSeat === null) return;
    state.showCards.set(state.showSeat, normalise(e.target.value).slice(0, state.model.holeCount));
    render();
  });
}
