// The lobby screen (TV, 1920x1080): a read-only view of one room.
//
// Protocol (room/consumers.py): on connect a {"type": "snapshot", seq, snapshot};
// then {"type": "update", seq, snapshot} with the whole public room each time.
// An update older than what is shown is ignored; every update carries the full
// state, so a lost one is repaired by the next. The countdown runs on the
// server's clock: remaining = deadline - (now + offset), offset measured from
// the snapshot's server_time. The screen never sends anything.

import { LiveSocket } from "./socket.js";
import { Texts, gettext } from "./i18n.js";
import { chips } from "./cards.js";
import { h, setText } from "./dom.js";

const root = document.getElementById("lobby");
const games = document.getElementById("games");
// The screen's texts, translated by Django's JavaScriptCatalog (/jsi18n/).
const i18n = new Texts({
  blinds: gettext("Blinds %(sb)s/%(bb)s"),
  // Seven Card Stud (room.services.stakes.stud_spec): small blind field = bring-in, big blind = small bet
  stud_stakes: gettext("Bring-in %(bring_in)s · Small bet %(small)s · Big bet %(big)s"),
  buy_in: gettext("Buy-in %(min)s–%(max)s"),
  open_seats_0: gettext("Full"),
  open_seats_1: gettext("1 open seat"),
  open_seats_n: gettext("%(n)s open seats"),
  waitlist: gettext("Waitlist"),
  must_move: gettext("Must-move order"),
  now_calling: gettext("Now calling"),
  to_seat: gettext("%(table)s · seat %(seat)s"),
  forced: gettext("must move"),
  empty_list: gettext("No one waiting"),
  no_games: gettext("No games running"),
  seats_free: gettext("%(open)s/%(max)s open"),
  closed: gettext("closed"),
  must_move_table: gettext("must-move"),
  // a game none of whose tables is open: no seat to offer, the list still takes names
  no_table_open: gettext("No table open · waiting list only"),
  // a game whose tables are open but not dealt (no dealer, too few players): not shown as a game to sit in
  not_running: gettext("Not running yet · waiting list only"),
  table_not_running: gettext("not running"),
  more: gettext("+%(n)s more"),
});
const t = (k, p) => i18n.t(k, p);

let seq = -1;
let offset = 0; // server time - local time, in ms
let current = null;

function remaining(deadline) {
  const ms = Date.parse(deadline) - (Date.now() + offset);
  return Math.max(0, ms);
}

function mmss(ms) {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function openSeats(n) {
  if (n === 0) return t("open_seats_0");
  if (n === 1) return t("open_seats_1");
  return t("open_seats_n", { n });
}

function list(items, cls) {
  if (!items.length) return h("p", { class: "lobby-empty" }, t("empty_list"));
  return h("ol", { class: `lobby-list ${cls}` },
    items.map((e) => h("li", { class: e.called ? "called" : "" }, e.name)));
}

/** A game's stakes: the blinds, or a stud game's bring-in and bets (the big bet twice the small, 000 Einsätze 2). */
function stakesText(g) {
  if (g.variant === "stud") return t("stud_stakes", { bring_in: g.small_blind, small: g.big_blind, big: 2 * g.big_blind });
  return t("blinds", { sb: g.small_blind, bb: g.big_blind });
}

function renderGame(g, showStacks) {
  const calls = g.calls.map((c) =>
    h("div", { class: `lobby-call${c.forced ? " forced" : ""}`, dataset: { deadline: c.deadline } },
      h("span", { class: "call-name" }, c.name),
      h("span", { class: "call-where" }, t("to_seat", { table: c.table, seat: c.seat }),
        c.forced ? h("b", {}, ` · ${t("forced")}`) : null),
      h("span", { class: "call-count", dataset: { f: "countdown" } }, mmss(remaining(c.deadline)))));
  const tables = g.tables.map((tb) =>
    h("li", { class: tb.running ? "" : "closed" },
      h("span", {}, tb.name, tb.kind === "must_move" ? h("small", {}, ` (${t("must_move_table")})`) : null),
      h("span", { class: "seats-free" },
        tb.status !== "open" ? t("closed")
          : tb.running ? t("seats_free", { open: tb.open_seats, max: tb.max_seats }) : t("table_not_running")),
      showStacks ? h("span", { class: "stacks" },
        tb.seats.filter((s) => s.player).map((s) => `${s.player} ${chips(s.stack)}`).join(" · ")) : null));
  return h("section", { class: "lobby-game" },
    h("header", {},
      h("h2", {}, g.name),
      h("p", { class: "lobby-stakes" }, `${g.variant_label} · ${stakesText(g)}`),
      h("p", { class: "lobby-stakes" }, t("buy_in", { min: chips(g.min_buy_in), max: chips(g.max_buy_in) })),
      h("p", { class: `lobby-open${g.open_seats ? " has-open" : ""}`, dataset: { f: "open" } },
        g.running ? openSeats(g.open_seats)
          : t(g.tables.some((tb) => tb.status === "open") ? "not_running" : "no_table_open"))),
    calls.length ? h("div", { class: "lobby-calls" }, h("h3", {}, t("now_calling")), calls) : null,
    h("div", { class: "lobby-block", dataset: { f: "waitlist" } }, h("h3", {}, t("waitlist")), list(g.waitlist, "waitlist")),
    g.must_move.length || g.tables.some((tb) => tb.kind === "must_move")
      ? h("div", { class: "lobby-block", dataset: { f: "must-move" } }, h("h3", {}, t("must_move")), list(g.must_move, "must-move"))
      : null,
    h("ul", { class: "lobby-tables" }, tables));
}

function render(snapshot) {
  current = snapshot;
  root.dataset.seq = String(snapshot.seq);
  if (!snapshot.games.length) {
    games.replaceChildren(h("p", { class: "lobby-wait" }, t("no_games")));
    return;
  }
  fitAll();
}

// ---------------------------------------------------------------- fitting a card
// A card's type scales with --s (lobby.css) from 1 down to MIN_SCALE (its smallest text, the stacks at 24 px,
// stays at 14 px or more); what still does not fit is shortened: first the tables' stacks go, then the
// longest list loses its last names for a "+N more" line. Nothing is ever cut off by the card's edge.
const MIN_SCALE = 0.6;

function overflows(el) {
  return el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
}

/** The largest type scale in [MIN_SCALE, 1] at which the card's content fits, set on the card; with
 * `stacks` false the tables' stacks are left out. Returns the scale, or 0 when even MIN_SCALE is too big. */
function scaleToFit(card, stacks) {
  card.classList.toggle("no-stacks", !stacks);
  card.style.setProperty("--s", "1");
  if (!overflows(card)) return 1;
  card.style.setProperty("--s", String(MIN_SCALE));
  if (overflows(card)) return 0;
  let lo = MIN_SCALE;
  let hi = 1;
  for (let i = 0; i < 6; i += 1) {
    const mid = (lo + hi) / 2;
    card.style.setProperty("--s", mid.toFixed(3));
    if (overflows(card)) hi = mid;
    else lo = mid;
  }
  card.style.setProperty("--s", lo.toFixed(3));
  return lo;
}

/** Fit one card: the largest type with the stacks, else without them, else the smallest type with its
 * longest lists shortened. Returns a score: the scale with stacks (0.6–1), without (-0.4–0), or -1. */
function fitCard(card, trial = false) {
  const withStacks = card.querySelector(".stacks") ? scaleToFit(card, true) : 0;
  if (withStacks) return withStacks;
  const without = scaleToFit(card, false);
  if (without) return without - 1;
  card.style.setProperty("--s", String(MIN_SCALE));
  if (!trial) shorten(card);
  return -1;
}

/** Columns to try for n cards: one per count of rows (5 games: 5 in a row, or rows of 3). */
function layouts(n) {
  const out = [];
  for (let rows = 1; rows <= n; rows += 1) {
    const cols = Math.ceil(n / rows);
    if (cols <= 6 && !out.includes(cols)) out.push(cols);
  }
  return out.length ? out : [6];
}

/** Take names off the longest list (waiting list, must-move order, tables) until the card fits. */
function shorten(card) {
  const lists = [...card.querySelectorAll(".lobby-list, .lobby-tables")];
  for (let guard = 0; guard < 200 && overflows(card); guard += 1) {
    const longest = lists
      .map((list) => ({ list, items: [...list.children].filter((li) => !li.classList.contains("more")) }))
      .filter((x) => x.items.length > 1)
      .sort((a, b) => b.items.length - a.items.length)[0];
    if (!longest) break;
    longest.items[longest.items.length - 1].remove();
    let more = longest.list.querySelector(":scope > li.more");
    if (!more) {
      more = h("li", { class: "more", dataset: { hidden: "0" } });
      longest.list.append(more);
    }
    more.dataset.hidden = String(Number(more.dataset.hidden) + 1);
    more.textContent = t("more", { n: more.dataset.hidden });
  }
}

/** Build the cards of the room shown and lay them out in the number of columns whose worst card fits with
 * the largest type; then fit every card (shortening lists only where even that layout leaves no room). */
function fitAll() {
  if (!current || !current.games.length) return;
  games.replaceChildren(...current.games.map((g) => renderGame(g, current.room.stacks)));
  const cards = [...games.querySelectorAll(".lobby-game")];
  let best = null;
  for (const cols of layouts(cards.length)) {
    games.style.setProperty("--cols", String(cols));
    const score = Math.min(...cards.map((card) => fitCard(card, true)));
    if (!best || score > best.score) best = { cols, score };
    if (score >= 1) break;
  }
  games.style.setProperty("--cols", String(best.cols));
  for (const card of cards) fitCard(card);
}

addEventListener("resize", () => fitAll());

function receive(msg) {
  if ((msg.type !== "snapshot" && msg.type !== "update") || !msg.snapshot) return;
  if (msg.type === "update" && msg.seq <= seq) return; // already shown
  seq = msg.seq;
  offset = Date.parse(msg.snapshot.server_time) - Date.now();
  render(msg.snapshot);
}

function tick() {
  for (const el of document.querySelectorAll(".lobby-call")) {
    setText(el.querySelector('[data-f="countdown"]'), mmss(remaining(el.dataset.deadline)));
  }
  const clock = root.querySelector('[data-field="clock"]');
  setText(clock, new Date(Date.now() + offset).toLocaleTimeString(document.documentElement.lang || undefined,
    { hour: "2-digit", minute: "2-digit" }));
}

const conn = root.querySelector('[data-field="conn"]');
const socket = new LiveSocket(root.dataset.wsPath, {
  onMessage: receive,
  onStatus: (status) => { conn.dataset.state = status; },
});
socket.connect();
setInterval(tick, 250);
tick();
window.lobbyState = () => current;
