// Card entry: the 52-card picker, typed cards, and the view that deals the
// board (the flop, turn and river; a double board one board at a time).

import { cardEl } from "../cards.js";
import { h } from "../dom.js";
import { cardList } from "../hand.js";
import { t } from "./strings.js";
import { $, field, state, RANKS, SUITS, render } from "./state.js";

/** "jc 3D,5c" -> ["Jc", "3d", "5c"]: only well-formed cards are kept. */
export function normalise(text) {
  return cardList(text)
    .map((c) => c[0].toUpperCase() + c[1].toLowerCase())
    .filter((c) => RANKS.includes(c[0]) && SUITS.includes(c[1]));
}

function cardsInUse() {
  const model = state.model;
  const used = new Set(model ? [...model.board, ...(model.board2 || [])] : []);
  if (model) for (const p of model.players) for (const c of p.cards) if (c !== "??") used.add(c);
  return used;
}

/** Fill `el` with one button per card; onPick(code) on a tap. */
export function buildPicker(el, onPick) {
  const rows = SUITS.map((suit) =>
    h(
      "div",
      { class: "picker-row" },
      [...RANKS].map((rank) => {
        const code = rank + suit;
        const b = h("button", { type: "button", class: `pick suit-${suit}`, dataset: { card: code } });
        b.append(cardEl(code));
        b.addEventListener("click", () => onPick(code));
        return b;
      }),
    ),
  );
  el.replaceChildren(...rows);
}

/** Mark the chosen cards of a picker; cards already in play cannot be picked. */
export function markPicker(el, chosen) {
  const used = cardsInUse();
  for (const b of el.querySelectorAll(".pick")) {
    const c = b.dataset.card;
    b.classList.toggle("chosen", chosen.includes(c));
    b.disabled = used.has(c) && !chosen.includes(c);
  }
}

/** How many cards the board takes next (3 for the flop, then 1). */
export function boardNeeded() {
  const model = state.model;
  const due = { flop: 3, turn: 1, river: 1 };
  if (model.nextStreet in due) return due[model.nextStreet];
  const n = model.board.length;
  return n === 0 ? 3 : n < 5 ? 1 : 0;
}

function renderSlots(el, cards, count, onRemove) {
  const slots = [];
  for (let i = 0; i < count; i += 1) {
    const c = cards[i];
    const b = h("button", { type: "button", class: "slot-btn" });
    b.append(c ? cardEl(c) : h("span", { class: "card slot" }));
    if (c) b.addEventListener("click", () => onRemove(c));
    slots.push(b);
  }
  el.replaceChildren(...slots);
}

export function renderBoard() {
  const model = state.model;
  const need = boardNeeded();
  const key = model.nextStreet ? `deal_${model.nextStreet}` : "deal_next";
  field("deal-title").textContent = model.board2 ? t("deal_on_board", { street: t(key), n: model.nextBoard }) : t(key);
  $('[data-action="rit-open"]').hidden = !model.runTwicePossible;
  renderSlots(field("board-slots"), state.boardCards, need, (c) => {
    state.boardCards = state.boardCards.filter((x) => x !== c);
    field("board-text").value = state.boardCards.join("");
    render();
  });
  markPicker($('[data-picker="board"]'), state.boardCards);
  $('[data-action="board"]').disabled = state.boardCards.length !== need;
}

/** The board's picker and text field. */
export function bindBoard() {
  buildPicker($('[data-picker="board"]'), (code) => {
    if (state.boardCards.includes(code)) state.boardCards = state.boardCards.filter((c) => c !== code);
    else if (state.boardCards.length < boardNeeded()) state.boardCards = [...state.boardCards, code];
    field("board-text").value = state.boardCards.join("");
    render();
  });
  field("board-text").addEventListener("input", (e) => {
    state.boardCards = normalise(e.target.value).slice(0, boardNeeded());
    render();
  });
}
