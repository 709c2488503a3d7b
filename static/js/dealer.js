// The dealer tablet: one table, live over /ws/tables/<id>/dealer/.
//
// Every mutating message carries a fresh client_id and the last seq seen as
// expected_seq. One message is in flight at a time; it is re-sent with the
// same client_id after a reconnect (the server applies it once). An update
// with a seq gap, a reconnect or a `stale` error leads to a snapshot request.

import { LiveSocket, SeqTracker, I18n, newClientId, chips, cardEl, h } from "./socket.js";
import { readSnapshot, seatName, streetKey, potLabel, describeEvent, cardList } from "./hand.js";

const root = document.getElementById("dealer");
const i18n = new I18n();
const t = (k, p) => i18n.t(k, p);
const $ = (sel, el = root) => el.querySelector(sel);
const field = (name) => $(`[data-field="${name}"]`);

const KEY = "table";
const RESEND_AFTER_MS = 6000;
const MAX_SEATS = Number(root.dataset.maxSeats) || 9;
const RANKS = "AKQJT98765432";
const SUITS = ["s", "h", "d", "c"];

const tracker = new SeqTracker();
let model = null;
let pending = null; // {message, timer}
let lastActor = null; // to prefill the keypad once per player to act
let amount = "";
let boardCards = [];
let showSeat = null;
const showCards = new Map(); // seat -> [cards] typed or picked for `show`
const awardPick = new Map(); // pot index -> Set(seat)

// ---------------------------------------------------------------- socket

const socket = new LiveSocket(root.dataset.wsPath, {
  onMessage: handleMessage,
  onStatus: (status) => {
    const el = field("conn");
    el.dataset.state = status;
    el.textContent = t(`conn_${status}`);
    root.dataset.conn = status;
    render();
  },
});

function requestSnapshot() {
  socket.send({ type: "snapshot" });
}

function handleMessage(msg) {
  switch (msg.type) {
    case "snapshot":
      tracker.reset(KEY, msg.seq);
      apply(msg.snapshot);
      if (pending) transmit(pending.message); // retry after a reconnect: applied once by client_id
      break;
    case "update": {
      const verdict = tracker.observe(KEY, msg.seq);
      if (verdict === "old") return;
      apply(msg.snapshot); // an update carries the whole snapshot, so show it at once…
      if (verdict === "gap") requestSnapshot(); // …and, as the protocol asks, resync after a gap
      break;
    }
    case "ack":
      if (pending && pending.message.client_id === msg.client_id) {
        settle();
        hideAlert();
        if (typeof msg.seq === "number" && (tracker.get(KEY) ?? -1) < msg.seq) requestSnapshot();
      }
      break;
    case "error":
      if (pending && (msg.client_id === null || pending.message.client_id === msg.client_id)) settle();
      if (msg.code === "stale") {
        requestSnapshot();
        showAlert(t("err_stale"), "");
      } else {
        const key = `err_${msg.code}`;
        showAlert(i18n.has(key) ? t(key) : t("err_generic"), msg.message || msg.code);
      }
      break;
    default:
      break;
  }
}

function settle() {
  if (pending) clearTimeout(pending.timer);
  pending = null;
  root.classList.remove("busy");
  render();
}

function transmit(message) {
  if (pending) clearTimeout(pending.timer);
  pending = { message, timer: setTimeout(() => pending && transmit(pending.message), RESEND_AFTER_MS) };
  root.classList.add("busy");
  socket.send(message);
}

/** Send one mutating message (`start_hand` or `action`). */
function send(type, extra = {}) {
  if (pending) return;
  if (!socket.isOpen) {
    showAlert(t("err_offline"), "");
    return;
  }
  transmit({ type, client_id: newClientId(), expected_seq: tracker.get(KEY), ...extra });
  render();
}

function act(action) {
  send("action", { action });
}

// ---------------------------------------------------------------- alert

function showAlert(title, detail) {
  const box = $("#alert");
  field("alert-title").textContent = title;
  field("alert-detail").textContent = detail || "";
  box.hidden = false;
}

function hideAlert() {
  $("#alert").hidden = true;
}

// ---------------------------------------------------------------- state

function apply(snapshot) {
  const previousHand = model && model.hand ? `${model.hand.id}:${model.phase}:${model.board.length}` : null;
  model = readSnapshot(snapshot);
  const currentHand = model.hand ? `${model.hand.id}:${model.phase}:${model.board.length}` : null;
  if (previousHand !== currentHand) {
    boardCards = [];
    field("board-text").value = "";
  }
  if (!model.live || model.phase !== "showdown") {
    showSeat = null;
    showCards.clear();
    awardPick.clear();
  }
  if (model.toAct !== lastActor || !model.live) {
    lastActor = model.toAct;
    amount = model.legal && model.legal.can_bet_or_raise ? String(model.legal.min_raise_to ?? "") : "";
  }
  render();
}

// ---------------------------------------------------------------- felt

const felt = $("#felt");
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

function buildFelt() {
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
    const [bx, by] = ellipse(n - 1, MAX_SEATS, 33, 28);
    const bet = h("span", { class: "bet", dataset: { betSeat: n }, style: `left:${bx}%;top:${by}%`, hidden: true });
    felt.append(bet);
    betEls.set(n, bet);
  }
}

function tag(text, cls) {
  return h("span", { class: `tag ${cls}`, text });
}

function renderFelt() {
  const byNumber = new Map(model.seats.map((s) => [s.number, s]));
  for (const [n, el] of seatEls) {
    const seat = byNumber.get(n);
    const p = model.bySeat.get(n);
    const name = p ? p.name : seat && seat.player;
    const stack = p ? p.stack : seat && seat.stack;
    const empty = !name;
    el.classList.toggle("empty", empty);
    el.classList.toggle("in-hand", Boolean(p));
    el.classList.toggle("folded", Boolean(p && p.folded));
    el.classList.toggle("to-act", Boolean(model.live && p && model.toAct === n));
    el.classList.toggle("selected", showSeat === n);
    el.classList.toggle("winner", model.awards.some((a) => a.seat === n));
    el.querySelector(".seat-name").textContent = empty ? t("empty_seat") : name;
    el.querySelector(".seat-stack").textContent = empty ? "" : chips(stack);
    const tags = [];
    const buttonSeat = model.hand ? model.buttonSeat : model.next_button_seat;
    if (n === buttonSeat && !empty) tags.push(tag("D", "tag-button"));
    if (p && model.live && p.blind) tags.push(tag(p.blind, "tag-blind"));
    if (p && p.folded && model.live) tags.push(tag(t("folded"), "tag-folded"));
    if (p && p.allIn && !p.folded && model.live) tags.push(tag(t("all_in_tag"), "tag-allin"));
    if (model.live && p && model.toAct === n) tags.push(tag(t("to_act"), "tag-act"));
    if (seat && seat.sitting_out && !p) tags.push(tag(t("sitting_out"), "tag-out"));
    el.querySelector(".seat-tags").replaceChildren(...tags);
    const cards = p && !p.folded ? p.cards.filter((c) => c !== "??") : [];
    el.querySelector(".seat-cards").replaceChildren(...cards.map(cardEl));
    const bet = betEls.get(n);
    const amountIn = p && model.live ? p.bet : 0;
    bet.hidden = !amountIn;
    bet.textContent = amountIn ? chips(amountIn) : "";
  }
  // Board with empty slots, so the street is obvious at a glance.
  const board = field("board");
  const slots = model.board.map(cardEl);
  if (currentView() === "board") {
    // the cards being picked, shown faded where they will lie
    for (const c of boardCards) {
      const el = cardEl(c);
      el.classList.add("preview");
      slots.push(el);
    }
  }
  while (model.hand && slots.length < 5) slots.push(h("span", { class: "card slot" }));
  board.replaceChildren(...slots);
  // Pots: main first, then side pots with their eligible seats.
  const pots = field("pots");
  // While a betting round runs without an all-in the engine's pots split the
  // bets not yet matched into levels; the dealer wants one number then.
  const split = model.pots.length > 1 && (model.phase !== "betting" || model.players.some((p) => p.allIn));
  if (!model.hand || !model.pots.length) {
    pots.replaceChildren();
  } else if (!split) {
    pots.replaceChildren(
      h("div", { class: "pot", dataset: { pot: "total" } },
        h("span", { class: "pot-label", text: t("pot_total") }),
        h("b", { class: "pot-amount", text: chips(model.potTotal) })),
    );
  } else {
    pots.replaceChildren(
      ...model.pots.map((pot, i) =>
        h(
          "div",
          { class: `pot${i ? " side" : ""}`, dataset: { pot: i } },
          h("span", { class: "pot-label", text: potLabel(i18n, i) }),
          h("b", { class: "pot-amount", text: chips(pot.amount) }),
          model.pots.length > 1
            ? h("span", { class: "pot-elig", text: t("eligible", { seats: pot.eligible.join(", ") }) })
            : null,
        ),
      ),
    );
  }
  field("hand-no").textContent = model.hand ? t("hand_n", { n: model.hand.number }) : t("no_hand");
  const sk = streetKey(model);
  field("street").textContent = sk ? t(sk) : "";
  field("street").hidden = !sk;
}

function onSeatTap(n) {
  if (!model || model.phase !== "showdown") return;
  const p = model.bySeat.get(n);
  if (!p || p.folded) return;
  showSeat = n;
  field("show-text").value = (showCards.get(n) || []).join("");
  render();
}

// ---------------------------------------------------------------- panel

function currentView() {
  if (!model || !model.live) return "idle";
  if (model.phase === "board") return "board";
  if (model.phase === "showdown") return "showdown";
  if (model.phase === "betting") return "betting";
  return "idle";
}

function renderPanel() {
  const view = currentView();
  for (const el of root.querySelectorAll("[data-view]")) el.hidden = el.dataset.view !== view;
  root.dataset.current = view;
  if (view === "idle") renderIdle();
  if (view === "betting") renderBetting();
  if (view === "board") renderBoard();
  if (view === "showdown") renderShowdown();
  const disabled = Boolean(pending) || !socket.isOpen;
  for (const b of root.querySelectorAll("#panel button")) {
    if (disabled) b.setAttribute("aria-disabled", "true");
    else b.removeAttribute("aria-disabled");
  }
}

function renderIdle() {
  const result = field("result");
  if (model && model.hand && model.hand.status === "complete") {
    const lines = model.awards.map((a) => {
      const who = `${seatName(model, a.seat) || ""} (${a.seat})`;
      return h(
        "li",
        {},
        model.pots.length > 1
          ? t("wins_pot", { who, amount: chips(a.amount), pot: potLabel(i18n, a.pot) })
          : t("wins", { who, amount: chips(a.amount) }),
      );
    });
    result.replaceChildren(
      h("h2", { text: `${t("hand_n", { n: model.hand.number })} · ${t("street_complete")}` }),
      h("ul", { class: "winners" }, lines),
    );
  } else {
    result.replaceChildren();
  }
  const next = model ? model.next_button_seat : null;
  field("next-button").textContent =
    next === null || next === undefined
      ? t("next_button_none")
      : t("next_button", { seat: next, who: seatName(model, next) || "" });
  $('[data-action="start"]').disabled = next === null || next === undefined;
}

function highestBet() {
  return model.players.reduce((m, p) => Math.max(m, p.bet || 0), 0);
}

function renderBetting() {
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
  call.hidden = Boolean(legal.can_check) || !toCall;
  call.textContent = t("call_n", { n: chips(toCall) });
  const allIn = $('[data-action="all_in"]');
  const allInTo = p ? p.stack + (p.bet || 0) : 0;
  allIn.hidden = !p || p.stack <= 0;
  allIn.textContent = t("all_in_n", { n: chips(allInTo) });

  const isBet = highestBet() === 0;
  const keypad = field("keypad");
  keypad.classList.toggle("off", !canRaise);
  const value = Number(amount || 0);
  field("amount").textContent = amount ? chips(value) : "0";
  field("amount-hint").textContent = canRaise
    ? `${chips(legal.min_raise_to)} – ${chips(legal.max_raise_to)}`
    : "";
  const confirm = $('[data-action="raise"]');
  confirm.textContent = amount
    ? t(isBet ? "bet_n" : "raise_to_n", { n: chips(value) })
    : t(isBet ? "bet" : "raise");
  confirm.disabled = !canRaise;
  for (const b of keypad.querySelectorAll("button.key")) b.disabled = !canRaise;
}

function onKey(key) {
  if (key === "back") amount = amount.slice(0, -1);
  else if (amount.length < 9) amount = (amount + key).replace(/^0+/, "");
  render();
}

function onShortcut(kind) {
  const legal = (model && model.legal) || {};
  if (kind === "clear") amount = "";
  if (kind === "min") amount = String(legal.min_raise_to ?? "");
  if (kind === "max") amount = String(legal.max_raise_to ?? "");
  if (kind === "pot") {
    const call = legal.call_amount || 0;
    const potRaise = highestBet() + model.potTotal + call;
    const clamped = Math.max(legal.min_raise_to || 0, Math.min(potRaise, legal.max_raise_to || potRaise));
    amount = String(clamped);
  }
  render();
}

function onRaise() {
  const legal = model.legal || {};
  if (!amount) {
    showAlert(t("err_amount"), "");
    return;
  }
  const to = Number(amount);
  const seat = model.toAct;
  if (legal.max_raise_to && to === legal.max_raise_to) {
    act({ type: "all_in", seat });
  } else {
    act({ type: highestBet() === 0 ? "bet" : "raise", seat, to });
  }
}

// ---------------------------------------------------------------- cards

function cardsInUse() {
  const used = new Set(model ? model.board : []);
  if (model) for (const p of model.players) for (const c of p.cards) if (c !== "??") used.add(c);
  return used;
}

function buildPicker(el, onPick) {
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

function markPicker(el, chosen) {
  const used = cardsInUse();
  for (const b of el.querySelectorAll(".pick")) {
    const c = b.dataset.card;
    b.classList.toggle("chosen", chosen.includes(c));
    b.disabled = used.has(c) && !chosen.includes(c);
  }
}

function boardNeeded() {
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

function renderBoard() {
  const need = boardNeeded();
  const key = model.nextStreet ? `deal_${model.nextStreet}` : "deal_next";
  field("deal-title").textContent = t(key);
  renderSlots(field("board-slots"), boardCards, need, (c) => {
    boardCards = boardCards.filter((x) => x !== c);
    field("board-text").value = boardCards.join("");
    render();
  });
  markPicker($('[data-picker="board"]'), boardCards);
  $('[data-action="board"]').disabled = boardCards.length !== need;
}

function renderShowdown() {
  const list = field("showdown");
  const contenders = model.players.filter((p) => !p.folded);
  const order = model.showdownOrder.length
    ? model.showdownOrder.map((s) => model.bySeat.get(s)).filter(Boolean)
    : contenders;
  const current = order.find((p) => p.seat === showSeat);
  if (!current || current.shown || current.mucked) {
    const first = order.find((p) => !p.shown && !p.mucked);
    showSeat = first ? first.seat : null;
  }
  list.replaceChildren(
    ...order.map((p, i) => {
      const typed = showCards.get(p.seat) || [];
      const known = p.cards.filter((c) => c !== "??");
      const row = h(
        "li",
        { class: `sd-row${p.seat === showSeat ? " selected" : ""}${p.mucked ? " mucked" : ""}`, dataset: { seat: p.seat } },
        h("button", { type: "button", class: "sd-who", onclick: () => onSeatTap(p.seat) },
          h("b", { text: p.name }), " ", h("span", { class: "muted", text: t("seat_n", { n: p.seat }) }),
          i === 0 ? h("span", { class: "tag tag-act", text: t("shows_first") }) : null),
        h("span", { class: "sd-cards" }, (known.length ? known : typed).map(cardEl)),
      );
      if (!p.shown && !p.mucked) {
        row.append(
          h("span", { class: "sd-actions" },
            h("button", { type: "button", class: "btn btn-small btn-go", dataset: { action: "show", seat: p.seat },
              disabled: typed.length !== 2, onclick: () => act({ type: "show", seat: p.seat, cards: typed.join("") }) }, t("show")),
            h("button", { type: "button", class: "btn btn-small btn-ghost", dataset: { action: "muck", seat: p.seat },
              onclick: () => act({ type: "muck", seat: p.seat }) }, t("muck")),
          ),
        );
      }
      return row;
    }),
  );
  markPicker($('[data-picker="show"]'), showCards.get(showSeat) || []);

  // Pots to award by hand (cards unknown): eligible seats as toggles.
  const awarded = new Set(model.awards.map((a) => a.pot));
  const awards = field("awards");
  awards.replaceChildren(
    ...model.pots.map((pot, i) => {
      const pick = awardPick.get(i) || new Set();
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
      const seats = h("div", { class: "award-seats" },
        pot.eligible.map((s) =>
          h("button", { type: "button", class: `btn btn-small toggle${pick.has(s) ? " on" : ""}`,
            dataset: { winner: s }, "aria-pressed": pick.has(s) ? "true" : "false",
            onclick: () => {
              const set = awardPick.get(i) || new Set();
              if (set.has(s)) set.delete(s);
              else set.add(s);
              awardPick.set(i, set);
              render();
            } }, `${seatName(model, s) || ""} (${s})`),
        ),
      );
      const go = h("button", { type: "button", class: "btn btn-go", dataset: { action: "award", pot: i },
        disabled: pick.size === 0,
        onclick: () => act({ type: "award", pot: i, winners: [...pick].sort((a, b) => a - b) }) },
        t(pick.size > 1 ? "split_between" : "award_pot", { pot: potLabel(i18n, i) }));
      box.append(seats, go);
      return box;
    }),
  );
}

// ---------------------------------------------------------------- wiring

function render() {
  if (!model) return;
  renderFelt();
  renderPanel();
}

function bind() {
  buildFelt();
  root.addEventListener("click", (event) => {
    const b = event.target.closest("button");
    if (!b || !root.contains(b)) return;
    if (b.dataset.action === "dismiss") {
      hideAlert();
      return;
    }
    if (b.getAttribute("aria-disabled") === "true" && b.closest("#panel")) {
      event.stopImmediatePropagation();
      return;
    }
    const seat = model ? model.toAct : null;
    switch (b.dataset.action) {
      case "start":
        send("start_hand");
        break;
      case "fold":
      case "check":
      case "call":
      case "all_in":
        act({ type: b.dataset.action, seat });
        break;
      case "raise":
        onRaise();
        break;
      case "board":
        act({ type: "board", cards: boardCards.join("") });
        break;
      case "board-skip":
        act({ type: "board", cards: "" });
        break;
      default:
        if (b.dataset.key) onKey(b.dataset.key);
        if (b.dataset.short) onShortcut(b.dataset.short);
    }
  }, true);

  buildPicker($('[data-picker="board"]'), (code) => {
    if (boardCards.includes(code)) boardCards = boardCards.filter((c) => c !== code);
    else if (boardCards.length < boardNeeded()) boardCards = [...boardCards, code];
    field("board-text").value = boardCards.join("");
    render();
  });
  buildPicker($('[data-picker="show"]'), (code) => {
    if (showSeat === null) return;
    let cards = showCards.get(showSeat) || [];
    if (cards.includes(code)) cards = cards.filter((c) => c !== code);
    else if (cards.length < 2) cards = [...cards, code];
    showCards.set(showSeat, cards);
    field("show-text").value = cards.join("");
    render();
  });
  field("board-text").addEventListener("input", (e) => {
    boardCards = normalise(e.target.value).slice(0, boardNeeded());
    render();
  });
  field("show-text").addEventListener("input", (e) => {
    if (showSeat === null) return;
    showCards.set(showSeat, normalise(e.target.value).slice(0, 2));
    render();
  });
  // Keyboard entry for the amount (a tablet with a keyboard, or tests).
  document.addEventListener("keydown", (e) => {
    if (currentView() !== "betting" || e.target.matches("input, select, textarea")) return;
    if (/^[0-9]$/.test(e.key)) onKey(e.key);
    else if (e.key === "Backspace") onKey("back");
    else if (e.key === "Enter") onRaise();
  });
}

/** "jc 3D,5c" -> ["Jc", "3d", "5c"]: only well-formed cards are kept. */
function normalise(text) {
  return cardList(text)
    .map((c) => c[0].toUpperCase() + c[1].toLowerCase())
    .filter((c) => RANKS.includes(c[0]) && SUITS.includes(c[1]));
}

bind();
socket.connect();
// For tests and debugging: the state of the page's protocol handling.
window.pokerfloorDealer = { tracker, socket, get model() { return model; }, get pending() { return pending; } };
