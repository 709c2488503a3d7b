// The dealer tablet: one table, live over /ws/tables/<id>/dealer/.
//
// Every mutating message carries a fresh client_id and the last seq seen as
// expected_seq. One message is in flight at a time; it is re-sent with the
// same client_id after a reconnect (the server applies it once). An update
// with a seq gap, a reconnect or a `stale` error leads to a snapshot request.

import { LiveSocket, SeqTracker, I18n, newClientId, chips, cardEl, h } from "./socket.js";
import { readSnapshot, seatName, streetKey, potLabel, describeEvent, cardList, potOnTwoBoards, formatLabel } from "./hand.js";

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
const awardPick2 = new Map(); // pot index -> Set(seat): the winners of board 2 (double board, run twice)

// Special formats (issue 4): the next hand's format, chosen before "Start hand"
// (000 Allgemein 14, Aktionen 1), and the run-it-twice agreement (000 Aktionen 8).
const FORMATS_ON = root.dataset.formats !== "off"; // tournament tables deal standard hands only
let nextFormat = freshFormat();
let straddleKey = null; // what the straddle controls were last built for
let ritPick = null; // {pots: Set(index), agreed: Set(seat), floor: bool} while the sheet is open

// Floor procedures (issue 3): see the "procedures" section below.
const LANG = (document.documentElement.lang || "en").slice(0, 2);
const requests = new Map(); // client_id -> {type, onReply(msg), onError(msg) -> bool handled}
const floorCalls = new Map(); // floor call id -> call dict (open or answered)
let ruling = null; // {ruling, handId}
const instructions = new Map(); // instruction id -> message
let chipCounts = new Map(); // denomination -> count
let chipsRead = null; // {seq, result, observed}
let ootSeat = null;
let floorDetails = null; // details sent with the next floor call
let procData = null; // {profile, procedures} from /tables/<id>/procedures/
let procWalk = null; // {proc, nodes: [node...], answers: [key...]}
let clockTimer = null;
let expirySent = null; // index of the clock event whose expiry was reported

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
  if (handleProcedureMessage(msg)) return;
  switch (msg.type) {
    case "snapshot":
      tracker.reset(KEY, msg.seq);
      apply(msg.snapshot);
      if (pending) transmit(pending.message); // retry after a reconnect: applied once by client_id
      if (absent !== null) loadAbsent();
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
        if (pending.message.type === "start_hand") resetFormat();
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
  const boardKey = (m) => (m && m.hand ? `${m.hand.id}:${m.phase}:${m.board.length}:${m.board2 ? m.board2.length : "-"}` : null);
  const previousHand = boardKey(model);
  model = readSnapshot(snapshot);
  afterSnapshot();
  if (ritPick && !model.runTwicePossible) closeSheets();
  const currentHand = boardKey(model);
  if (previousHand !== currentHand) {
    boardCards = [];
    field("board-text").value = "";
  }
  if (!model.live || model.phase !== "showdown") {
    showSeat = null;
    showCards.clear();
    awardPick.clear();
    awardPick2.clear();
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
  const two = Boolean(model.hand && model.board2);
  field("board").parentElement.classList.toggle("two-boards", two);
  renderBoardCards(field("board"), model.board, 1, two);
  const board2 = field("board2");
  board2.hidden = !two;
  if (two) renderBoardCards(board2, model.board2, 2, two);
  else board2.replaceChildren();
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
  const label = model.hand ? formatLabel(i18n, model.format, model.runTwicePots) : "";
  field("format").textContent = label;
  field("format").hidden = !label;
}

function renderBoardCards(el, cards, number, two) {
  const slots = cards.map(cardEl);
  const due = currentView() === "board" && (model.nextBoard ?? 1) === number;
  if (due) {
    // the cards being picked, shown faded where they will lie
    for (const c of boardCards) {
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

function onSeatTap(n) {
  if (model && currentView() === "betting") {
    openOutOfTurn(n);
    return;
  }
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
    const byBoard = model.boardResults.flatMap((r) => r.boards.map((b) => h("li", { dataset: { pot: r.pot, board: b.board } },
      t("wins_board", {
        b: b.board,
        who: b.winners.map((s) => `${seatName(model, s) || ""} (${s})`).join(", "),
        amount: model.pots.length > 1 ? `${chips(b.chips)} (${potLabel(i18n, r.pot)})` : chips(b.chips),
      }) + (b.hand ? ` · ${b.hand}` : ""))));
    result.replaceChildren(
      h("h2", { text: `${t("hand_n", { n: model.hand.number })} · ${t("street_complete")}` }),
      h("ul", { class: "winners" }, lines),
      byBoard.length ? h("ul", { class: "board-winners" }, byBoard) : null,
    );
  } else {
    result.replaceChildren();
  }
  renderFormats();
  const next = model ? model.next_button_seat : null;
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
// undefined: not asked yet; null: no tournament table; else {seats: Set, labels, rule}
let absent = root.dataset.formats === "off" ? undefined : null; // formats are off exactly at tournament tables

async function loadAbsent(change = null) {
  if (absent === null && !change) return; // a cash table: the floor marks absent players on the room page
  const csrf = document.querySelector("input[name=csrfmiddlewaretoken]");
  const init = change ? { method: "POST", body: JSON.stringify(change),
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf ? csrf.value : "" } } : {};
  let body;
  try {
    const response = await fetch(ABSENT_URL, init);
    if (!change && (response.status === 404 || response.status === 403)) absent = null;
    body = await response.json();
  } catch (e) {
    return; // offline: the socket shows it
  }
  if (body.ok) absent = { seats: new Set(body.seats), labels: body.labels, rule: body.rule };
  else if (change) showAlert(body.message || body.code, "");
  render();
}

function renderAbsent() {
  const view = $('[data-view="idle"]');
  let box = view.querySelector(".absent-box");
  if (!absent) {
    if (box) box.remove();
    return;
  }
  if (!box) view.append((box = h("div", { class: "absent-box" })));
  const L = absent.labels;
  const seated = model.seats.filter((s) => s.player);
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
  renderBettingProcedures();
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
  const used = new Set(model ? [...model.board, ...(model.board2 || [])] : []);
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
  field("deal-title").textContent = model.board2 ? t("deal_on_board", { street: t(key), n: model.nextBoard }) : t(key);
  $('[data-action="rit-open"]').hidden = !model.runTwicePossible;
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
              disabled: typed.length !== model.holeCount, onclick: () => act({ type: "show", seat: p.seat, cards: typed.join("") }) }, t("show")),
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
      const pick2 = awardPick2.get(i) || new Set();
      const seats = two
        ? h("div", { class: "award-seats" },
          h("div", { class: "award-board", dataset: { board: 1 } }, h("span", { class: "label", text: t("board_n", { n: 1 }) }), toggles(awardPick, "winner")),
          h("div", { class: "award-board", dataset: { board: 2 } }, h("span", { class: "label", text: t("board_n", { n: 2 }) }), toggles(awardPick2, "winner2")))
        : h("div", { class: "award-seats" }, toggles(awardPick, "winner"));
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

// ---------------------------------------------------------------- floor procedures
//
// Floor calls, rulings, tournament instructions, the chips reader, actions
// out of turn, "time" and the guided procedures (issue 3; docs/protocol.md).
// Broadcasts `floor_call`, `ruling` and `instruction` carry no seq: they are
// not fed to the SeqTracker. `floor_call`, `interpret` and `time_expired`
// are side requests (not retried: they change no hand state, or the server
// checks them itself); `out_of_turn` and `call_time` go through send().

/** Text of a bilingual object in the page language: loc(o, "text") reads o.text_de / o.text_en. */
function loc(obj, base) {
  if (!obj) return "";
  const de = obj[`${base}_de`];
  const en = obj[`${base}_en`] ?? obj[base];
  return LANG === "de" && de ? de : en || de || "";
}

/** Citations [{label, url}] as links (a span when the rule has no page). */
function citeLinks(citations) {
  return h("span", { class: "cites" }, (citations || []).map((c) =>
    c.url ? h("a", { class: "cite", href: c.url, target: "_blank", rel: "noopener", text: c.label })
      : h("span", { class: "cite", text: c.label })));
}

function rawState() {
  return (model && model.hand && model.hand.state) || {};
}

/** A side request with its own client_id; the reply goes to onReply. */
function request(type, extra, onReply, onError) {
  if (!socket.isOpen) {
    showAlert(t("err_offline"), "");
    return null;
  }
  const client_id = newClientId();
  requests.set(client_id, { type, onReply, onError });
  socket.send({ type, client_id, ...extra });
  return client_id;
}

function errorText(msg) {
  const key = `err_${msg.code}`;
  return i18n.has(key) ? t(key) : t("err_generic");
}

/** Messages of the procedures; true when handled here. */
function handleProcedureMessage(msg) {
  const req = msg.client_id ? requests.get(msg.client_id) : null;
  if (req && (msg.type === "ack" || msg.type === "interpretation" || msg.type === "error")) {
    requests.delete(msg.client_id);
    if (msg.type === "error") {
      if (!(req.onError && req.onError(msg))) showAlert(errorText(msg), msg.message || msg.code);
    } else if (req.onReply) {
      req.onReply(msg);
    }
    render();
    return true;
  }
  if (msg.type === "floor_call" && msg.call) {
    const call = msg.call;
    if (call.status === "open" || call.status === "answered") floorCalls.set(call.id, call);
    else floorCalls.delete(call.id);
    render();
    return true;
  }
  if (msg.type === "ruling" && msg.ruling) {
    ruling = { ruling: msg.ruling, handId: model && model.hand ? model.hand.id : null };
    render();
    return true;
  }
  if (msg.type === "absent" && absent) {
    absent.seats = new Set(msg.seats);
    render();
    return true;
  }
  if (msg.type === "instruction") {
    if (msg.cancelled || msg.status === "cancelled") instructions.delete(msg.id);
    else instructions.set(msg.id, msg);
    render();
    return true;
  }
  return msg.type === "interpretation"; // a late reply to a request already given up
}

/** After every snapshot: forget readings of an older state, the ruling of
 * an older hand; run the clock. */
function afterSnapshot() {
  if (chipsRead && chipsRead.seq !== model.seq) chipsRead = null;
  if (ruling && model.hand && ruling.handId !== model.hand.id) ruling = null;
  if (ootSeat !== null && (currentView() !== "betting" || ootSeat === model.toAct)) closeSheets();
  const clock = currentClock();
  if (clock && !clockTimer) clockTimer = setInterval(renderClock, 200);
  if (!clock && clockTimer) {
    clearInterval(clockTimer);
    clockTimer = null;
  }
}

function actionWord(action) {
  const key = { fold: "fold", check: "check", call: "word_call", bet: "bet", raise: "raise", all_in: "all_in_tag" }[action.type];
  const word = key ? t(key) : action.type;
  return action.to ? `${word} ${chips(action.to)}` : word;
}

/** Seat tags: a held out-of-turn action ("OOT: call"), a restriction. */
function procedureTags(n) {
  const st = rawState();
  const out = [];
  for (const held of st.held || []) {
    if (held.seat === n) {
      const el = tag(t("oot_tag", { action: actionWord(held.action) }), "tag-oot");
      el.dataset.oot = held.action.type;
      out.push(el);
    }
  }
  if (st.restricted && st.restricted[String(n)]) out.push(tag(t("no_raise_tag"), "tag-restricted"));
  return out;
}

// -- sheets (dialogs)

function openSheet() {
  return root.querySelector(".sheet:not([hidden])");
}

function showSheet(id) {
  closeSheets(id);
  const el = $(`#${id}`);
  el.hidden = false;
  const first = el.querySelector("select, input, button");
  if (first) first.focus();
}

function closeSheets(except = null) {
  for (const el of root.querySelectorAll(".sheet")) if (el.id !== except) el.hidden = true;
  if (except !== "sheet-oot") ootSeat = null;
  if (except !== "sheet-rit") ritPick = null;
}

// -- floor call

function openFloor({ reason = "other", seat = null, details = null, note = "" } = {}) {
  const sheet = $("#sheet-floor");
  const seats = sheet.querySelector('select[name="seat"]');
  const opts = [h("option", { value: "" }, "–")];
  for (let n = 1; n <= MAX_SEATS; n += 1) {
    const who = model ? seatName(model, n) || (model.seats.find((s) => s.number === n) || {}).player : null;
    opts.push(h("option", { value: n }, who ? `${n} · ${who}` : String(n)));
  }
  seats.replaceChildren(...opts);
  seats.value = seat ? String(seat) : "";
  sheet.querySelector('select[name="reason"]').value = reason;
  sheet.querySelector('input[name="note"]').value = note;
  floorDetails = details;
  field("floor-details").textContent = details ? t("floor_details_attached") : "";
  showSheet("sheet-floor");
}

function sendFloor() {
  const sheet = $("#sheet-floor");
  const seat = sheet.querySelector('select[name="seat"]').value;
  const message = {
    reason: sheet.querySelector('select[name="reason"]').value,
    seat: seat ? Number(seat) : null,
    note: sheet.querySelector('input[name="note"]').value.trim(),
    details: floorDetails || {},
  };
  const sent = request("floor_call", message, (ack) => {
    if (typeof ack.floor_call === "number" && !floorCalls.has(ack.floor_call)) {
      floorCalls.set(ack.floor_call, { id: ack.floor_call, status: "open" });
    }
  });
  if (sent) {
    floorDetails = null;
    closeSheets();
  }
}

// -- chips

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
  for (const [d, n] of chipCounts) total += d * n;
  return total;
}

function openChips() {
  chipCounts = new Map();
  chipsRead = null;
  const sheet = $("#sheet-chips");
  sheet.querySelector('select[name="declared"]').value = "";
  sheet.querySelector('input[name="declared_amount"]').value = "";
  setToggle(sheet.querySelector('[data-action="chips-before"]'), true);
  setToggle(sheet.querySelector('[data-action="chips-motions"]'), false);
  showSheet("sheet-chips");
  render();
}

function setToggle(b, on) {
  b.classList.toggle("on", on);
  b.setAttribute("aria-pressed", on ? "true" : "false");
}

function observed() {
  const sheet = $("#sheet-chips");
  const chipsOut = {};
  for (const [d, n] of chipCounts) if (n) chipsOut[String(d)] = n;
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
  const seq = model.seq;
  field("chips-result").replaceChildren(h("p", { class: "hint", text: t("chips_reading") }));
  request("interpret", { observed: obs }, (msg) => {
    chipsRead = { seq, result: msg.result, observed: obs };
    if (model.seq !== seq) chipsRead = null;
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

function renderChips() {
  const sheet = $("#sheet-chips");
  if (sheet.hidden || !model) return;
  const p = model.bySeat.get(model.toAct);
  field("chips-who").textContent = p ? `${p.name} · ${t("seat_n", { n: p.seat })}` : "";
  field("chips-total").textContent = chips(chipsTotal());
  for (const b of field("denoms").querySelectorAll(".denom")) {
    const count = chipCounts.get(Number(b.dataset.denom)) || 0;
    b.querySelector(".denom-count").textContent = count ? `×${count}` : "";
    b.classList.toggle("on", count > 0);
  }
  const confirm = $('[data-action="chips-confirm"]');
  const toFloor = $('[data-action="chips-floor"]');
  const box = field("chips-result");
  if (!chipsRead) {
    if (!box.querySelector(".hint, .chips-error")) box.replaceChildren();
    confirm.hidden = true;
    toFloor.hidden = true;
    return;
  }
  const r = chipsRead.result;
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
  if (!chipsRead || !chipsRead.result.engine_action) return;
  const r = chipsRead.result;
  const action = { ...r.engine_action, interpretation: { citations: (r.citations || []).map((c) => c.label) } };
  closeSheets();
  chipsRead = null;
  act(action);
}

// -- out of turn

function openOutOfTurn(n) {
  const p = model.bySeat.get(n);
  if (!p || p.folded || p.allIn || n === model.toAct) return;
  ootSeat = n;
  field("oot-who").textContent = `${p.name} · ${t("seat_n", { n })}`;
  $('#sheet-oot input[name="oot_to"]').value = "";
  showSheet("sheet-oot");
  $("#sheet-oot").dataset.seat = n;
}

function sendOutOfTurn(kind) {
  if (ootSeat === null) return;
  const action = { type: kind, seat: ootSeat };
  if (kind === "raise") {
    const to = $('#sheet-oot input[name="oot_to"]').value;
    if (!/^\d+$/.test(to) || Number(to) <= 0) {
      showAlert(t("err_amount"), "");
      return;
    }
    action.type = highestBet() === 0 ? "bet" : "raise";
    action.to = Number(to);
  }
  closeSheets();
  send("out_of_turn", { action });
}

// -- time

function currentClock() {
  const clock = model && model.live ? rawState().clock : null;
  return clock && clock.deadline ? clock : null;
}

function renderClock() {
  const el = field("clock");
  const clock = currentClock();
  if (!clock) {
    el.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil((Date.parse(clock.deadline) - Date.now()) / 1000));
  el.hidden = false;
  const who = seatName(model, clock.seat) || "";
  field("clock-label").textContent = t("time_on", { who, seat: clock.seat });
  field("clock-secs").textContent = String(left);
  el.classList.toggle("final", Boolean(clock.countdown) && left <= clock.countdown);
  el.classList.toggle("over", left === 0);
  el.dataset.seconds = left;
  if (left === 0 && expirySent !== clock.index) {
    expirySent = clock.index;
    request("time_expired", {}, null, (err) => {
      if (err.code === "clock_running") setTimeout(() => { if (expirySent === clock.index) expirySent = null; }, 1000);
      else if (err.code === "floor_decides") showAlert(t("time_floor_decides"), err.message || "");
      return true; // no_clock: another device reported it first
    });
  }
}

// -- betting view: indicator, time, the last procedure event

function renderBettingProcedures() {
  const st = rawState();
  const ind = field("substantial");
  if (st.misdeal_possible) {
    ind.textContent = t("misdeal_possible");
    ind.dataset.state = "misdeal_possible";
  } else if (st.substantial_action) {
    ind.textContent = t("substantial_action");
    ind.dataset.state = "substantial";
  } else {
    ind.textContent = "";
    delete ind.dataset.state;
  }
  $('[data-action="time"]').hidden = Boolean(currentClock());
  const box = field("proc-event");
  const ev = model.hand && model.hand.last_event;
  const pl = (ev && ev.payload) || {};
  let title = null;
  if (ev && ev.kind === "out_of_turn" && pl.action) {
    title = t("oot_held", { who: seatName(model, pl.action.seat) || pl.action.seat, action: actionWord(pl.action) });
  } else if (ev && ev.kind === "note" && pl.type === "out_of_turn_released") {
    title = t("oot_released", { who: seatName(model, pl.seat) || pl.seat });
  } else if (ev && ev.kind === "action" && pl.out_of_turn !== undefined) {
    title = t("oot_binding", { who: seatName(model, pl.seat) || pl.seat, action: actionWord(pl) });
  } else if (ev && ev.kind === "action" && pl.cause === "time") {
    title = t("time_action", { who: seatName(model, pl.seat) || pl.seat, action: actionWord(pl) });
  } else if (ev && ev.kind === "start" && pl.format && (pl.format.dropped || []).length) {
    title = pl.format.dropped.map((d) => t("straddle_dropped", { seat: d.seat, kind: t(`straddle_${d.kind}`) })).join(" ");
  }
  box.hidden = !title;
  if (title) {
    box.dataset.kind = ev.kind;
    box.replaceChildren(h("strong", { text: title }), " ", h("span", { text: loc(pl, "explanation") }), " ",
      citeLinks(pl.citations || (pl.format && pl.format.citations)));
  }
}

// -- guided procedures

function openProcedures() {
  procWalk = null;
  showSheet("sheet-proc");
  if (procData) {
    render();
    return;
  }
  field("proc-body").replaceChildren(h("p", { class: "hint", text: t("proc_loading") }));
  fetch(root.dataset.proceduresUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
    .then((data) => {
      procData = data;
      render();
    })
    .catch((err) => field("proc-body").replaceChildren(h("p", { class: "chips-error", text: `${t("err_generic")} (${err.message})` })));
}

function renderProcBody() {
  const body = field("proc-body");
  if (!procData || $("#sheet-proc").hidden) return;
  if (!procWalk) {
    field("proc-title").textContent = "";
    body.replaceChildren(h("div", { class: "proc-list" }, procData.procedures.length
      ? procData.procedures.map((p) => h("button", { type: "button", class: "btn btn-wide", dataset: { procedure: p.key },
        onclick: () => {
          procWalk = { proc: p, nodes: [p.steps[p.first]], answers: [] };
          render();
        } }, loc(p, "title")))
      : h("p", { class: "hint", text: t("proc_none") })));
    return;
  }
  const node = procWalk.nodes[procWalk.nodes.length - 1];
  field("proc-title").textContent = `· ${loc(procWalk.proc, "title")}`;
  if (node.kind === "step") {
    body.replaceChildren(
      h("p", { class: "proc-question", text: loc(node, "question") }),
      h("div", { class: "proc-options" }, node.options.map((o) => h("button", { type: "button", class: "btn btn-small btn-wide",
        dataset: { option: o.key }, onclick: () => {
          const next = o.next.step ? procWalk.proc.steps[o.next.step] : o.next;
          procWalk.nodes.push(next);
          procWalk.answers.push(o.key);
          render();
        } }, loc(o, "label")))),
    );
    return;
  }
  body.replaceChildren(
    h("div", { class: "proc-outcome", dataset: { outcome: procWalk.proc.key } },
      h("p", { class: "proc-summary", text: loc(node, "summary") }),
      loc(node, "instructions") ? h("p", { text: loc(node, "instructions") }) : null,
      citeLinks(node.citations),
      h("p", { class: "hint", text: t("proc_floor_corrects") }),
      h("button", { type: "button", class: "btn btn-floor btn-wide", dataset: { action: "proc-floor" } }, t("proc_floor"))),
  );
}

function procedureToFloor() {
  if (!procWalk) return;
  const node = procWalk.nodes[procWalk.nodes.length - 1];
  openFloor({
    reason: procWalk.proc.key,
    details: {
      procedure: procWalk.proc.key,
      answers: [...procWalk.answers],
      outcome: { summary_en: node.summary_en, summary_de: node.summary_de, corrections: node.corrections,
        citations: node.citations },
    },
    note: loc(node, "summary"),
  });
}

// -- notices: floor call, ruling, instructions

function renderNotices() {
  const status = field("floor-status");
  const calls = [...floorCalls.values()];
  const call = calls[calls.length - 1];
  status.hidden = !call;
  if (call) {
    status.dataset.status = call.status;
    status.textContent = call.status === "answered"
      ? (call.answered_by ? t("floor_on_way", { name: call.answered_by }) : t("floor_on_way_anon"))
      : t("floor_called");
  }
  const rb = field("ruling");
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
  const list = [...instructions.values()];
  ib.hidden = !list.length;
  ib.replaceChildren(...list.map((m) => h("div", { class: "instruction", dataset: { id: m.id } },
    h("div", { class: "notice-body" }, h("strong", { text: t("instruction_title") }), " ",
      h("span", { text: LANG === "de" && m.text_de ? m.text_de : m.text_en || m.text_de })),
    h("button", { type: "button", class: "alert-close", dataset: { action: "dismiss-instruction", id: m.id },
      "aria-label": t("dismiss") }, "✕"))));
}

function renderProcedures() {
  renderRunTwice();
  renderNotices();
  renderClock();
  renderChips();
  renderProcBody();
}

/** Clicks of the procedures; true when handled here. */
function onProcedureClick(b) {
  const busy = Boolean(pending) || !socket.isOpen;
  switch (b.dataset.action) {
    case "floor": openFloor(); return true;
    case "floor-send": sendFloor(); return true;
    case "sheet-close": closeSheets(); return true;
    case "dismiss-ruling": ruling = null; render(); return true;
    case "dismiss-instruction": instructions.delete(Number(b.dataset.id)); render(); return true;
    case "procedures": openProcedures(); return true;
    case "proc-back":
      if (procWalk && procWalk.nodes.length > 1) {
        procWalk.nodes.pop();
        procWalk.answers.pop();
      } else procWalk = null;
      render();
      return true;
    case "proc-floor": procedureToFloor(); return true;
    case "chips": if (!busy) openChips(); return true;
    case "chips-clear": chipCounts = new Map(); chipsRead = null; field("chips-result").replaceChildren(); render(); return true;
    case "chips-before":
    case "chips-motions":
      setToggle(b, !b.classList.contains("on"));
      chipsRead = null;
      render();
      return true;
    case "chips-read": readChips(); return true;
    case "chips-confirm": confirmChips(); return true;
    case "chips-floor":
      closeSheets();
      openFloor({ reason: "chip_action", seat: model ? model.toAct : null,
        details: { observed: chipsRead ? chipsRead.observed : observed() } });
      return true;
    case "oot": sendOutOfTurn(b.dataset.oot); return true;
    case "time":
      if (!busy && model && model.toAct) send("call_time", { seat: model.toAct });
      return true;
    default:
      if (b.dataset.denom) {
        const d = Number(b.dataset.denom);
        chipCounts.set(d, (chipCounts.get(d) || 0) + 1);
        chipsRead = null;
        field("chips-result").replaceChildren();
        render();
        return true;
      }
      return false;
  }
}

function bindProcedures() {
  field("denoms").replaceChildren(...denominations().map((d) =>
    h("button", { type: "button", class: `btn denom denom-${d}`, dataset: { denom: d } },
      h("span", { class: "denom-value", text: chips(d) }), h("span", { class: "denom-count" }))));
  const sheet = $("#sheet-chips");
  for (const el of sheet.querySelectorAll("select, input")) {
    el.addEventListener("input", () => {
      chipsRead = null;
      render();
    });
  }
  // a tap on the dimmed backdrop closes the sheet
  for (const el of root.querySelectorAll(".sheet")) {
    el.addEventListener("click", (e) => { if (e.target === el) closeSheets(); });
  }
}

// ---------------------------------------------------------------- special formats
//
// Before "Start hand": bomb pot, flip (the chips every player posts), double
// board (000 Allgemein 14) and the straddles agreed at the table's opening
// (000 Aktionen 1), sent as `format` with `start_hand` and reset once the
// hand started. During a hand: "Run it twice" when the snapshot says it is
// possible, with the players' and the floor's agreement (000 Aktionen 8).

function freshFormat() {
  // live: the last position of the live straddles (0 none, 2 under the gun, 3 and the next player, ...)
  return { kind: "standard", amount: "", double: false, live: 0, button: false, mississippi: null };
}

function resetFormat() {
  nextFormat = freshFormat();
  const input = $('input[name="format_amount"]');
  if (input) input.value = "";
}

/** The seats of the next hand in position order (small blind first, button
 * last), as the server deals them (HandSpec.standard). */
function nextHandOrder() {
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
  const f = nextFormat;
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

function startHand() {
  const format = formatMessage();
  if (format === false) return;
  send("start_hand", format ? { format } : {});
}

function renderFormats() {
  const box = field("formats");
  box.hidden = !FORMATS_ON || !model;
  if (box.hidden) return;
  const f = nextFormat;
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
  if (key !== straddleKey) {
    straddleKey = key;
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
function onFormatClick(b) {
  if (b.dataset.formatKind) {
    nextFormat.kind = b.dataset.formatKind;
    render();
    return true;
  }
  switch (b.dataset.action) {
    case "format-double": nextFormat.double = !nextFormat.double; render(); return true;
    case "format-button-straddle": nextFormat.button = !nextFormat.button; render(); return true;
    case "rit-open": if (model && model.runTwicePossible) openRunTwice(); return true;
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

function onFormatInput(e) {
  const el = e.target;
  if (el.name === "format_amount") nextFormat.amount = el.value.trim();
  else if (el.name === "straddle_live") nextFormat.live = Number(el.value) || 0;
  else if (el.name === "straddle_mississippi") nextFormat.mississippi = el.value ? Number(el.value) : null;
  else return;
  render();
}

function openRunTwice() {
  ritPick = { pots: new Set(model.pots.map((_, i) => i)), agreed: new Set(), floor: false };
  showSheet("sheet-rit");
  render();
}

/** The seats that must agree: every player in the chosen pots (000 Aktionen 8 b). */
function ritPlayers() {
  const seats = new Set();
  model.pots.forEach((pot, i) => {
    if (ritPick.pots.has(i)) for (const s of pot.eligible) seats.add(s);
  });
  return [...seats].sort((a, b) => a - b);
}

function renderRunTwice() {
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
    !ritPick.pots.size || !players.length || !allAgreed || (needFloor && !ritPick.floor) || Boolean(pending);
}

function sendRunTwice() {
  if (!ritPick || !model) return;
  const players = ritPlayers();
  const message = {
    agreed: players.filter((s) => ritPick.agreed.has(s)),
    pots: [...ritPick.pots].sort((a, b) => a - b),
    floor: ritPick.floor,
  };
  closeSheets();
  send("run_it_twice", message);
}

// ---------------------------------------------------------------- wiring

function render() {
  if (!model) return;
  renderFelt();
  renderPanel();
  renderProcedures();
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
    if (onProcedureClick(b)) return;
    if (b.getAttribute("aria-disabled") === "true" && b.closest("#panel")) {
      event.stopImmediatePropagation();
      return;
    }
    const seat = model ? model.toAct : null;
    switch (b.dataset.action) {
      case "start":
        startHand();
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
        act({ type: "board", cards: boardCards.join(""), ...(model.board2 ? { board: model.nextBoard } : {}) });
        break;
      case "board-skip":
        act({ type: "board", cards: "", ...(model.board2 ? { board: model.nextBoard } : {}) });
        break;
      default:
        if (onFormatClick(b)) break;
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
    else if (cards.length < model.holeCount) cards = [...cards, code];
    showCards.set(showSeat, cards);
    field("show-text").value = cards.join("");
    render();
  });
  field("formats").addEventListener("input", onFormatInput);
  field("formats").addEventListener("change", onFormatInput);
  field("board-text").addEventListener("input", (e) => {
    boardCards = normalise(e.target.value).slice(0, boardNeeded());
    render();
  });
  field("show-text").addEventListener("input", (e) => {
    if (showSeat === null) return;
    showCards.set(showSeat, normalise(e.target.value).slice(0, model.holeCount));
    render();
  });
  // Keyboard entry for the amount (a tablet with a keyboard, or tests).
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") closeSheets();
    if (openSheet()) return;
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

bindProcedures();
bind();
socket.connect();
// For tests and debugging: the state of the page's protocol handling.
window.pokerfloorDealer = { tracker, socket, get model() { return model; }, get pending() { return pending; } };
