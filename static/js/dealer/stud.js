// Seven Card Stud on the dealer tablet (the engine's StudState, poker/hand/stud.py).
//
// A stud hand has no blinds and no board: the dealer deals street by street
// (third street two down cards and the door card per seat, fourth to sixth one
// up card, seventh one down card, or one community card when the stub is
// short), names who brings in or acts first when an up card was not entered
// ("??"), and plays fixed-limit betting rounds: the bring-in or the completion
// on third street, the small or the big bet on fourth street with an open
// pair (000 Aktionen 3).  This module draws its own panel in place of the
// hold'em views while a stud hand is live (renderStud) and feeds the felt
// the up cards (each seat) and the community card (the board).

import { cardEl, chips } from "../cards.js";
import { h } from "../dom.js";
import { seatName } from "../hand.js";
import { act, busy, settling } from "./connection.js";
import { buildPicker, markPicker } from "./cards.js";
import { $, root, state, rawState, render } from "./state.js";
import { gettext, interpolate } from "../i18n.js";
import { STUD_TEXTS } from "../stud_texts.js";

const TEXTS = {
  ...STUD_TEXTS,
  deal_hint: gettext("Tap a seat's row, then its cards: two down cards and the door card. A card not entered stays unknown."),
  deal_hint_up: gettext("Tap a seat's row, then its card. A card not entered stays unknown."),
  community_hint: gettext("The stub cannot give every player a card: one card face up in the middle for everyone."),
  unknown_card: gettext("Unknown card"),
  clear_cards: gettext("Clear"),
  deal: gettext("Deal"),
  opener_bring_in: gettext("An up card is unknown: who brings in?"),
  opener_first: gettext("An up card is unknown: who acts first?"),
  to_act: gettext("To act"),
  pot: gettext("Pot"),
  bring_in_n: gettext("Bring-in %(n)s"),
  complete_to_n: gettext("Complete to %(n)s"),
  bet_n: gettext("Bet %(n)s"),
  raise_to_n: gettext("Raise to %(n)s"),
  small_bet_n: gettext("Small bet %(n)s"),
  big_bet_n: gettext("Big bet %(n)s"),
  open_pair: gettext("Open pair: the small or the big bet (000 Aktionen 3)."),
  fold: gettext("Fold"),
  check: gettext("Check"),
  call_n: gettext("Call %(n)s"),
  showdown: gettext("Showdown: who wins the pot?"),
  pot_n: gettext("Pot %(n)s"),
  seat_n: gettext("Seat %(n)s"),
  start_hint: gettext("The button moves and the antes post themselves; third street names who brings in."),
};

function t(key, params) {
  const text = TEXTS[key] ?? key;
  return params ? interpolate(text, params) : text;
}

// The cards being entered for the next deal: seat -> ["As", "??", ...]; the row the picker fills.
const entry = { key: null, cards: new Map(), active: null, opener: null, community: [] };

/** What "Start hand" does at a stud table (the idle panel's hint; no blinds in stud). */
export function studStartHint() {
  return t("start_hint");
}

/** True when the table's hand is a stud hand. */
export function isStud() {
  return rawState().game === "stud";
}

/** After each snapshot: a stud hand's seats show their up cards, the board its community card, no blinds. */
export function fixStudModel() {
  const model = state.model;
  const st = rawState();
  if (!model || st.game !== "stud") return;
  const raw = new Map((st.players || []).map((p) => [p.seat, p]));
  for (const p of model.players) {
    const r = raw.get(p.seat) || {};
    p.blind = null;
    p.cards = [...(r.up_cards || [])];
    p.downCards = [...(r.down_cards || [])];
  }
  model.board = [...(st.community || [])];
  model.stud = st;
}

function cardsPerSeat(st) {
  return st.next_street === "third" ? 3 : 1;
}

function resetEntry(st, key) {
  entry.key = key;
  entry.cards = new Map();
  entry.opener = null;
  entry.community = [];
  const live = (st.players || []).filter((p) => !p.folded);
  entry.active = live.length ? live[0].seat : null;
}

/** The seats whose up cards include an unknown card once these cards are dealt. */
function openerNeeded(st) {
  if (st.community_due) return (st.players || []).some((p) => !p.folded && p.up_cards.includes("??"));
  const n = cardsPerSeat(st);
  return (st.players || []).some((p) => {
    if (p.folded) return false;
    const given = entry.cards.get(p.seat) || [];
    const full = [...given, ...Array(n - given.length).fill("??")];
    if (st.next_street === "seventh") return p.up_cards.includes("??");
    const up = st.next_street === "third" ? [full[2]] : [...p.up_cards, full[0]];
    return up.includes("??");
  });
}

function panel() {
  let el = root.querySelector('[data-view="stud"]');
  if (!el) {
    el = h("div", { class: "view stud", dataset: { view: "stud" }, hidden: true });
    $("#panel").append(el);
  }
  return el;
}

function pick(code) {
  const st = rawState();
  if (st.community_due) {
    entry.community = entry.community.includes(code) ? [] : [code];
  } else if (entry.active !== null) {
    const n = cardsPerSeat(st);
    const cards = entry.cards.get(entry.active) || [];
    if (cards.includes(code)) entry.cards.set(entry.active, cards.filter((c) => c !== code));
    else if (cards.length < n) {
      entry.cards.set(entry.active, [...cards, code]);
      // a seat's cards complete: on to the next seat
      if (cards.length + 1 === n) nextSeat(st);
    }
  }
  render();
}

function nextSeat(st) {
  const live = (st.players || []).filter((p) => !p.folded).map((p) => p.seat);
  const i = live.indexOf(entry.active);
  entry.active = i >= 0 && i + 1 < live.length ? live[i + 1] : entry.active;
}

let picker = null;

function seatLabel(model, seat) {
  const name = seatName(model, seat);
  return name ? `${name} (${seat})` : t("seat_n", { n: seat });
}

function renderDeal(el, model, st) {
  const key = `${model.hand.id}:${st.next_street}`;
  if (entry.key !== key) resetEntry(st, key);
  const community = st.community_due;
  const n = cardsPerSeat(st);
  const title = community ? t("deal_community") : t(`deal_${st.next_street}`);
  const parts = [h("h2", { text: title })];
  parts.push(h("p", { class: "hint", text: community ? t("community_hint") : n === 3 ? t("deal_hint") : t("deal_hint_up") }));
  if (community) {
    const slot = entry.community[0];
    parts.push(h("div", { class: "stud-row active" }, h("span", { class: "stud-slots" }, slot ? cardEl(slot) : h("span", { class: "card slot" }))));
  } else {
    const rows = (st.players || []).filter((p) => !p.folded).map((p) => {
      const cards = entry.cards.get(p.seat) || [];
      const slots = [];
      for (let i = 0; i < n; i += 1) slots.push(cards[i] ? cardEl(cards[i]) : h("span", { class: "card slot" }));
      return h(
        "button",
        { type: "button", class: `stud-row${entry.active === p.seat ? " active" : ""}`, dataset: { studSeat: p.seat } },
        h("span", { class: "stud-who", text: seatLabel(model, p.seat) }),
        h("span", { class: "stud-up" }, p.up_cards.map(cardEl)),
        h("span", { class: "stud-slots" }, slots),
      );
    });
    parts.push(h("div", { class: "stud-rows" }, rows));
    parts.push(h("div", { class: "stud-tools" },
      h("button", { type: "button", class: "btn btn-small", dataset: { stud: "unknown" }, text: t("unknown_card") }),
      h("button", { type: "button", class: "btn btn-small", dataset: { stud: "clear" }, text: t("clear_cards") })));
  }
  if (!picker) {
    picker = h("div", { class: "picker", dataset: { picker: "stud" } });
    buildPicker(picker, pick);
  }
  const chosen = community ? entry.community : [...entry.cards.values()].flat();
  const needOpener = openerNeeded(st);
  if (needOpener) {
    const live = (st.players || []).filter((p) => !p.folded);
    parts.push(h("p", { class: "stud-opener-q", text: st.next_street === "third" ? t("opener_bring_in") : t("opener_first") }));
    parts.push(h("div", { class: "stud-opener", role: "group" }, live.map((p) => h("button", {
      type: "button",
      class: `btn btn-small toggle${entry.opener === p.seat ? " on" : ""}`,
      "aria-pressed": entry.opener === p.seat ? "true" : "false",
      dataset: { stud: "opener", seat: p.seat },
      text: seatLabel(model, p.seat),
    }))));
  }
  const ready = !needOpener || entry.opener !== null;
  const deal = h("button", { type: "button", class: "btn btn-go btn-wide", dataset: { stud: "deal" }, text: t("deal") });
  if (!ready) deal.disabled = true;
  parts.push(deal);
  parts.push(picker); // last: the rows, the opener and the Deal button stay in view above it
  el.replaceChildren(...parts);
  markPicker(picker, chosen);
  // cards already dealt in this hand (down and up) cannot be picked again
  const used = new Set((st.players || []).flatMap((p) => [...p.up_cards, ...p.down_cards]).concat(st.community || []));
  for (const b of picker.querySelectorAll(".pick")) if (used.has(b.dataset.card) && !chosen.includes(b.dataset.card)) b.disabled = true;
}

function renderBetting(el, model, st) {
  const legal = st.legal || {};
  const seat = st.to_act_seat;
  const p = (st.players || []).find((x) => x.seat === seat) || {};
  const top = Math.max(0, ...(st.players || []).map((x) => x.bet || 0));
  const parts = [
    h("h2", { text: t(`street_${st.street}`) }),
    h("div", { class: "to-act" },
      h("span", { class: "label", text: t("to_act") }),
      h("span", { class: "who", dataset: { field: "stud-actor" }, text: seatLabel(model, seat) }),
      h("span", { class: "actor-stack" }, chips(p.stack))),
    h("p", { class: "stud-pot" }, `${t("pot")}: `, h("b", { text: chips(st.total_pot) })),
  ];
  const buttons = [];
  if (legal.bring_in !== null && legal.bring_in !== undefined) {
    buttons.push(h("button", { type: "button", class: "btn btn-call", dataset: { stud: "bring_in" }, text: t("bring_in_n", { n: chips(legal.bring_in) }) }));
    if (legal.can_bet_or_raise) {
      buttons.push(h("button", { type: "button", class: "btn btn-raise", dataset: { stud: "complete", to: legal.min_raise_to }, text: t("complete_to_n", { n: chips(legal.min_raise_to) }) }));
    }
  } else {
    if (legal.can_fold) buttons.push(h("button", { type: "button", class: "btn btn-fold", dataset: { stud: "fold" }, text: t("fold") }));
    if (legal.can_check) buttons.push(h("button", { type: "button", class: "btn btn-check", dataset: { stud: "check" }, text: t("check") }));
    else buttons.push(h("button", { type: "button", class: "btn btn-call", dataset: { stud: "call" }, text: t("call_n", { n: chips(legal.call_amount) }) }));
    if (legal.can_bet_or_raise) {
      // the completion of a bring-in on third street, else a bet or a raise
      // (the table's big blind is the stud small bet, room.services.stakes.stud_spec)
      const completing = st.street === "third" && top > 0 && top < (model.table.big_blind || Infinity);
      const kind = completing ? "complete" : top === 0 ? "bet" : "raise";
      const word = kind === "complete" ? "complete_to_n" : kind === "bet" ? "bet_n" : "raise_to_n";
      if (legal.min_raise_to !== legal.max_raise_to) {
        buttons.push(h("button", { type: "button", class: "btn btn-raise", dataset: { stud: kind, to: legal.min_raise_to }, text: t("small_bet_n", { n: chips(legal.min_raise_to) }) }));
        buttons.push(h("button", { type: "button", class: "btn btn-raise", dataset: { stud: kind, to: legal.max_raise_to }, text: t("big_bet_n", { n: chips(legal.max_raise_to) }) }));
      } else {
        buttons.push(h("button", { type: "button", class: "btn btn-raise", dataset: { stud: kind, to: legal.min_raise_to }, text: t(word, { n: chips(legal.min_raise_to) }) }));
      }
    }
  }
  parts.push(h("div", { class: "actions stud-actions" }, buttons));
  if (legal.min_raise_to !== legal.max_raise_to && legal.can_bet_or_raise) parts.push(h("p", { class: "hint", text: t("open_pair") }));
  el.replaceChildren(...parts);
}

function renderShowdown(el, model, st) {
  const awarded = new Set((st.awards || []).map((a) => a.pot));
  const parts = [h("h2", { text: t("showdown") })];
  (st.pots || []).forEach((pot, i) => {
    if (awarded.has(i)) return;
    parts.push(h("p", { class: "stud-pot" }, `${t("pot_n", { n: i + 1 })}: `, h("b", { text: chips(pot.amount) })));
    parts.push(h("div", { class: "stud-opener", role: "group" }, pot.eligible_seats.map((s) => h("button", {
      type: "button", class: "btn btn-small", dataset: { stud: "award", pot: i, seat: s }, text: seatLabel(model, s),
    }))));
  });
  el.replaceChildren(...parts);
}

// The deal rows: the seat being entered stands out.
const STYLE = `
.dealer .stud-rows { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 6px; margin: 8px 0; }
.dealer .stud-row .card { width: 30px; height: 42px; font-size: .8rem; }
.dealer .stud-who { flex: 1; text-align: left; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.dealer .stud-row { display: inline-flex; align-items: center; gap: 4px; padding: 4px 8px; border-radius: 8px;
  border: 2px solid transparent; background: rgba(255, 255, 255, .08); color: inherit; font: inherit; cursor: pointer; }
.dealer .stud-row.active { border-color: #f5c542; background: rgba(245, 197, 66, .15); }
.dealer .stud-up .card { opacity: .7; }
.dealer .stud-tools, .dealer .stud-opener { display: flex; flex-wrap: wrap; gap: 6px; margin: 8px 0; }
.dealer .stud-opener-q { margin: 8px 0 0; font-weight: 600; }
`;
if (!document.getElementById("stud-style")) document.head.append(h("style", { id: "stud-style" }, STYLE));

/** Draw the stud panel in place of the hold'em views; false when the hand is not a live stud hand. */
export function renderStud() {
  const model = state.model;
  const el = panel();
  const board = $('[data-field="board"]');
  const stud = Boolean(model && model.hand && isStud());
  // no board in stud: only a community card (seventh street, a short stub) lies in the middle
  if (board) board.style.visibility = stud && !model.board.length ? "hidden" : "";
  if (stud && model.live) {
    const pill = $('[data-field="street"]');
    const st = rawState();
    if (pill && TEXTS[`street_${st.street}`]) pill.textContent = t(`street_${st.street}`);
  }
  if (!model || !model.live || !isStud()) {
    el.hidden = true;
    return false;
  }
  const st = rawState();
  for (const v of root.querySelectorAll("#panel [data-view]")) v.hidden = v !== el;
  root.dataset.current = "stud";
  el.hidden = false;
  if (st.phase === "deal") renderDeal(el, model, st);
  else if (st.phase === "betting") renderBetting(el, model, st);
  else renderShowdown(el, model, st);
  const disabled = busy();
  for (const b of el.querySelectorAll("button")) {
    if (disabled) b.setAttribute("aria-disabled", "true");
    else b.removeAttribute("aria-disabled");
  }
  return true;
}

/** A tap on the stud panel; true when handled. */
export function onStudClick(b) {
  if (!b.closest('[data-view="stud"]')) return false;
  if (b.dataset.card) return true; // the picker's own listener
  const st = rawState();
  if (b.dataset.studSeat) {
    entry.active = Number(b.dataset.studSeat);
    render();
    return true;
  }
  const seat = st.to_act_seat;
  // The player to act just changed: a betting tap was meant for the one before (a double tap).
  const betting = ["bring_in", "fold", "check", "call", "complete", "bet", "raise"].includes(b.dataset.stud);
  if (betting && settling()) return true;
  switch (b.dataset.stud) {
    case "unknown":
      if (entry.active !== null) {
        const cards = entry.cards.get(entry.active) || [];
        if (cards.length < cardsPerSeat(st)) entry.cards.set(entry.active, [...cards, "??"]);
        if (cards.length + 1 === cardsPerSeat(st)) nextSeat(st);
        render();
      }
      return true;
    case "clear":
      if (entry.active !== null) entry.cards.delete(entry.active);
      render();
      return true;
    case "opener":
      entry.opener = Number(b.dataset.seat);
      render();
      return true;
    case "deal": {
      const action = { type: "deal" };
      if (st.community_due) action.community = entry.community.join("");
      else {
        // a seat's cards not entered are unknown ("??")
        const n = cardsPerSeat(st);
        const given = [...entry.cards].filter(([, c]) => c.length);
        action.cards = Object.fromEntries(given.map(([s, c]) => [String(s), [...c, ...Array(n - c.length).fill("??")].join("")]));
      }
      if (openerNeeded(st) && entry.opener !== null) action.opener = entry.opener;
      act(action);
      return true;
    }
    case "bring_in":
    case "fold":
    case "check":
    case "call":
      act({ type: b.dataset.stud, seat });
      return true;
    case "complete":
    case "bet":
    case "raise":
      act({ type: b.dataset.stud, seat, to: Number(b.dataset.to) });
      return true;
    case "award":
      act({ type: "award", pot: Number(b.dataset.pot), winners: [Number(b.dataset.seat)] });
      return true;
    default:
      return false;
  }
}
