// The felt: the seat ring with names, stacks, tags, hole cards and bets, the
// board(s), the pots and the status pills of the header.

import { chips, cardEl } from "../cards.js";
import { h } from "../dom.js";
import { streetKey, potLabel, formatLabel } from "../hand.js";
import { t, i18n } from "./strings.js";
import { $, field, state, MAX_SEATS, currentView, render, tag } from "./state.js";
import { procedureTags, openOutOfTurn } from "./procedures.js";

const seatEls = new Map();
const betEls = new Map();

function ellipse(index, count, rx, ry) {
  // The dealer sits at the bottom centre; seat 1 is on the dealer's left and
  // the numbers go clockwise round the table.
  const gap = 24;
  const step = count > 1 ? (360 - 2 * gap) / (count - 1) : 0;
  const angle = ((90 + gap + index * step) * Math.PI) / 180;
  return [50 + rx * Math.cos(angle), 50 + ry * Math.sin(angle)];
}

/** Build the seat buttons and bet chips of the table's MAX_SEATS seats, once. */
export function buildFelt() {
  const felt = $("#felt");
  for (let n = 1; n <= MAX_SEATS; n += 1) {
    const [x, y] = ellipse(n - 1, MAX_SEATS, 45, 41);
    const el = h(
      "button",
      { type: "button", class: "seat", dataset: { seat: n }, style: `left:${x}%;top:${y}%` },
      h("span", { class: "seat-no", text: n }),
      h("span", { class: "seat-name" }),
      h("span", { class: "seat-stack" }),
      h("span", { class: "seat-tags" }),
      h("span", { class: "seat-cards" }),
    );
    el.addEventListener("click", () => onSeatTap(n));
    felt.append(el);
    seatEls.set(n, el);
    // the bet lies between the seat and the board, clear of the seat box (dealer.css keeps it on top)
    const [bx, by] = ellipse(n - 1, MAX_SEATS, 29, 24);
    const bet = h("span", { class: "bet", dataset: { betSeat: n }, style: `left:${bx}%;top:${by}%`, hidden: true });
    felt.append(bet);
    betEls.set(n, bet);
  }
}

/** A hand declared a misdeal is void: its chips went back, the felt shows the seats as they are. */
export function isMisdeal(model) {
  return Boolean(model && model.hand && model.hand.status === "misdeal");
}

/** The button of the next hand: a misdealt hand is dealt again with its own button when every
 * player and stack is still as dealt (001 6.25, 003 "Miss-Deal", 004 #35; the server's start_hand
 * checks the same), else the button moves on. */
export function nextButton(model) {
  if (isMisdeal(model) && model.players.length) {
    const bySeat = new Map(model.seats.map((s) => [s.number, s]));
    const same = model.players.every((p) => {
      const seat = bySeat.get(p.seat);
      return seat && seat.player === p.name && seat.stack === p.startingStack;
    });
    if (same && model.buttonSeat !== null) return model.buttonSeat;
  }
  return model.next_button_seat;
}

export function renderFelt() {
  const model = state.model;
  const absent = state.absent;
  const byNumber = new Map(model.seats.map((s) => [s.number, s]));
  const misdeal = isMisdeal(model);
  for (const [n, el] of seatEls) {
    const seat = byNumber.get(n);
    const hp = misdeal ? null : model.bySeat.get(n);
    // After the hand a player who left the seat (busted, moved) is off the felt at once.
    const p = hp && !model.live && (!seat || seat.player !== hp.name) ? null : hp;
    const name = p ? p.name : seat && seat.player;
    const stack = p ? p.stack : seat && seat.stack;
    const empty = !name;
    el.classList.toggle("empty", empty);
    el.classList.toggle("in-hand", Boolean(p));
    el.classList.toggle("folded", Boolean(p && p.folded));
    el.classList.toggle("to-act", Boolean(model.live && p && model.toAct === n));
    el.classList.toggle("selected", state.showSeat === n);
    el.classList.toggle("winner", model.awards.some((a) => a.seat === n));
    el.querySelector(".seat-name").textContent = empty ? t("empty_seat") : name;
    el.querySelector(".seat-stack").textContent = empty ? "" : chips(stack);
    const tags = [];
    // While a hand runs, its button; between hands the next hand's (the panel's "Button: seat n").
    const buttonSeat = model.live && !misdeal ? model.buttonSeat : nextButton(model);
    if (n === buttonSeat && !empty) tags.push(tag("D", "tag-button"));
    if (p && model.live && p.blind) tags.push(tag(p.blind, "tag-blind"));
    if (p && p.folded && model.live) tags.push(tag(t("folded"), "tag-folded"));
    if (p && p.allIn && !p.folded && model.live) tags.push(tag(t("all_in_tag"), "tag-allin"));
    if (model.live && p && model.toAct === n) tags.push(tag(t("to_act"), "tag-act"));
    if (p && model.live) tags.push(...procedureTags(n));
    if (seat && seat.sitting_out && !p) tags.push(tag(t("sitting_out"), "tag-out"));
    if (absent && absent.seats.has(n) && !empty) tags.push(tag(absent.labels.tag, "tag-out tag-absent"));
    el.querySelector(".seat-tags").replaceChildren(...tags);
    const cards = p && !p.folded ? p.cards.filter((c) => c !== "??") : [];
    el.querySelector(".seat-cards").replaceChildren(...cards.map(cardEl));
    const bet = betEls.get(n);
    const amountIn = p && model.live ? p.bet : 0;
    bet.hidden = !amountIn;
    bet.textContent = amountIn ? chips(amountIn) : "";
  }
  // Board with empty slots, so the street is obvious at a glance; a double
  // board or a hand run twice has a second one (000 Allgemein 14, Aktionen 8).
  const two = Boolean(model.hand && model.board2 && !misdeal);
  field("board").parentElement.classList.toggle("two-boards", two);
  renderBoardCards(field("board"), misdeal ? [] : model.board, 1, two);
  const board2 = field("board2");
  board2.hidden = !two;
  if (two) renderBoardCards(board2, model.board2, 2, two);
  else board2.replaceChildren();
  // Pots. While a betting round runs, the chips collected from the streets before ("in the pot")
  // and the bets in front of the seats: which bets make a side pot is known only when the round
  // closes. Then (and at the showdown) main first, then side pots with their eligible seats.
  const pots = field("pots");
  const bets = model.players.reduce((sum, p) => sum + (p.bet || 0), 0);
  if (!model.hand || misdeal || !model.pots.length) {
    pots.replaceChildren();
  } else if (model.phase === "betting" || model.pots.length < 2) {
    const inPot = model.phase === "betting" ? model.potTotal - bets : model.potTotal;
    pots.replaceChildren(...[
      inPot || !bets ? h("div", { class: "pot", dataset: { pot: "total" } },
        h("span", { class: "pot-label", text: t("pot_in") }),
        h("b", { class: "pot-amount", text: chips(inPot) })) : null,
      bets && model.phase === "betting"
        ? h("div", { class: "pot pot-bets", dataset: { pot: "bets" } },
          h("span", { class: "pot-label", text: t("pot_bets") }),
          h("b", { class: "pot-amount", text: chips(bets) }))
        : null,
    ].filter(Boolean)); // replaceChildren() would write a null as the text "null"
  } else {
    pots.replaceChildren(
      ...model.pots.map((pot, i) =>
        h(
          "div",
          { class: `pot${i ? " side" : ""}`, dataset: { pot: i } },
          h("span", { class: "pot-label", text: potLabel(i18n, i) }),
          h("b", { class: "pot-amount", text: chips(pot.amount) }),
          h("span", { class: "pot-elig", text: t("eligible", { seats: pot.eligible.join(", ") }) }),
        ),
      ),
    );
  }
  field("hand-no").textContent = model.hand ? t("hand_n", { n: model.hand.number }) : t("no_hand");
  const sk = misdeal ? "misdeal" : streetKey(model);
  field("street").textContent = sk ? t(sk) : "";
  field("street").hidden = !sk;
  const label = model.hand ? formatLabel(i18n, model.format, model.runTwicePots) : "";
  field("format").textContent = label;
  field("format").hidden = !label;
}

function renderBoardCards(el, cards, number, two) {
  const model = state.model;
  const slots = cards.map(cardEl);
  const due = currentView() === "board" && (model.nextBoard ?? 1) === number;
  if (due) {
    // the cards being picked, shown faded where they will lie
    for (const c of state.boardCards) {
      const card = cardEl(c);
      card.classList.add("preview");
      slots.push(card);
    }
  }
  while (model.hand && slots.length < 5) slots.push(h("span", { class: "card slot" }));
  if (two) slots.unshift(h("span", { class: "board-label", text: t("board_n", { n: number }) }));
  el.classList.toggle("due", due && two);
  el.replaceChildren(...slots);
}

/** A tap on a seat: out of turn while betting, the player whose cards are entered at the showdown. */
export function onSeatTap(n) {
  const model = state.model;
  if (model && currentView() === "betting") {
    openOutOfTurn(n);
    return;
  }
  if (!model || model.phase !== "showdown") return;
  const p = model.bySeat.get(n);
  if (!p || p.folded) return;
  state.showSeat = n;
  field("show-text").value = (state.showCards.get(n) || []).join("");
  render();
}
