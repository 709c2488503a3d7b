// The betting round: who acts, the facts (to call, minimum raise, pot), the
// action buttons and the keypad for the amount of a bet or raise.

import { chips } from "../cards.js";
import { t } from "./strings.js";
import { $, field, state, highestBet, render, showAlert } from "./state.js";
import { act } from "./connection.js";
import { renderBettingProcedures } from "./procedures.js";

export function renderBetting() {
  const model = state.model;
  const legal = model.legal || {};
  const p = model.bySeat.get(model.toAct);
  field("actor").textContent = p ? `${p.name} · ${t("seat_n", { n: p.seat })}` : "";
  field("actor-stack").textContent = p ? chips(p.stack) : "";
  const toCall = legal.call_amount || 0;
  field("to-call").textContent = chips(toCall);
  const canRaise = Boolean(legal.can_bet_or_raise);
  field("min-raise").textContent = canRaise ? chips(legal.min_raise_to) : "–";
  field("pot-total").textContent = chips(model.potTotal);

  const fold = $('[data-action="fold"]');
  fold.hidden = legal.can_fold === false;
  const check = $('[data-action="check"]');
  check.hidden = !legal.can_check;
  const call = $('[data-action="call"]');
  const allIn = $('[data-action="all_in"]');
  const allInTo = p ? p.stack + (p.bet || 0) : 0;
  // One number per action: a call that takes the whole stack is the all-in, shown once (the call
  // button); a call shows the chips added, the number beside "To call".
  const callIsAllIn = Boolean(p) && toCall > 0 && toCall >= p.stack;
  call.hidden = Boolean(legal.can_check) || !toCall;
  call.textContent = t(callIsAllIn ? "call_all_in_n" : "call_n", { n: chips(toCall) });
  // The engine's legal actions only: an all-in beyond a call is a raise, offered only when a raise
  // to the whole stack is legal (not when every opponent is all-in, nor above a pot-limit maximum).
  allIn.hidden = !p || p.stack <= 0 || callIsAllIn || !canRaise || legal.max_raise_to !== allInTo;
  allIn.textContent = t("all_in_n", { n: chips(allInTo) });

  const isBet = highestBet() === 0;
  const keypad = field("keypad");
  keypad.classList.toggle("off", !canRaise);
  const amount = state.amount;
  const value = Number(amount || 0);
  const problem = canRaise ? amountProblem(value, legal) : null;
  const amountEl = field("amount");
  amountEl.textContent = amount ? chips(value) : "0";
  amountEl.classList.toggle("bad", Boolean(problem));
  amountEl.classList.toggle("fresh", state.amountFresh && Boolean(amount));
  const hint = field("amount-hint");
  hint.textContent = problem ? t(problem, { min: chips(legal.min_raise_to), max: chips(legal.max_raise_to) })
    : canRaise ? `${chips(legal.min_raise_to)} – ${chips(legal.max_raise_to)}` : "";
  hint.classList.toggle("bad", Boolean(problem));
  const confirm = $('[data-action="raise"]');
  const allInAmount = canRaise && value === legal.max_raise_to;
  confirm.textContent = !amount ? t(isBet ? "bet" : "raise")
    : allInAmount ? t("all_in_n", { n: chips(value) })
    : t(isBet ? "bet_n" : "raise_to_n", { n: chips(value) });
  confirm.disabled = !canRaise || !amount || Boolean(problem);
  for (const b of keypad.querySelectorAll("button.key")) b.disabled = !canRaise;
  renderBettingProcedures();
}

/** Why the keypad's amount cannot be sent (a strings.js key), or null: below the minimum raise
 * unless it is the whole stack (all-in), above the stack. */
export function amountProblem(value, legal) {
  if (!value) return null;
  if (legal.max_raise_to && value > legal.max_raise_to) return "amount_above_stack";
  if (legal.min_raise_to && value < legal.min_raise_to && value !== legal.max_raise_to) return "amount_below_min";
  return null;
}

/** A key of the keypad: a digit, "00" or "back". The prefilled minimum is a suggestion: the first
 * digit typed replaces it (min 4 shown, 6 typed: "Raise to 6"). */
export function onKey(key) {
  const fresh = state.amountFresh;
  state.amountFresh = false;
  if (key === "back") state.amount = fresh ? "" : state.amount.slice(0, -1);
  else if (fresh) state.amount = key.replace(/^0+/, "");
  else if (state.amount.length < 9) state.amount = (state.amount + key).replace(/^0+/, "");
  render();
}

/** A shortcut of the keypad: "min", "pot", "max" or "clear". */
export function onShortcut(kind) {
  const model = state.model;
  const legal = (model && model.legal) || {};
  state.amountFresh = true; // a shortcut's amount is replaced by the next digit, like the prefill
  if (kind === "clear") state.amount = "";
  if (kind === "min") state.amount = String(legal.min_raise_to ?? "");
  if (kind === "max") state.amount = String(legal.max_raise_to ?? "");
  if (kind === "pot") {
    const call = legal.call_amount || 0;
    const potRaise = highestBet() + model.potTotal + call;
    const clamped = Math.max(legal.min_raise_to || 0, Math.min(potRaise, legal.max_raise_to || potRaise));
    state.amount = String(clamped);
  }
  render();
}

/** The bet / raise button (or Enter): the keypad's amount; the whole stack is sent as all-in. */
export function onRaise() {
  const model = state.model;
  const legal = model.legal || {};
  if (!state.amount) {
    showAlert(t("err_amount"), "");
    return;
  }
  const to = Number(state.amount);
  const seat = model.toAct;
  const problem = amountProblem(to, legal);
  if (problem) {
    showAlert(t(problem, { min: legal.min_raise_to, max: legal.max_raise_to }), "");
    return;
  }
  if (legal.max_raise_to && to === legal.max_raise_to) {
    act({ type: "all_in", seat });
  } else {
    act({ type: highestBet() === 0 ? "bet" : "raise", seat, to });
  }
}
