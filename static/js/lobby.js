// The lobby screen (TV, 1920x1080): a read-only view of one room.
//
// Protocol (room/consumers.py): on connect a {"type": "snapshot", seq, snapshot};
// then {"type": "update", seq, snapshot} with the whole public room each time.
// An update older than what is shown is ignored; every update carries the full
// state, so a lost one is repaired by the next. The countdown runs on the
// server's clock: remaining = deadline - (now + offset), offset measured from
// the snapshot's server_time. The screen never sends anything.

import { LiveSocket, Texts, gettext, h, chips } from "./socket.js";

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
    h("li", { class: tb.status === "open" ? "" : "closed" },
      h("span", {}, tb.name, tb.kind === "must_move" ? h("small", {}, ` (${t("must_move_table")})`) : null),
      h("span", { class: "seats-free" },
        tb.status === "open" ? t("seats_free", { open: tb.open_seats, max: tb.max_seats }) : t("closed")),
      showStacks ? h("span", { class: "stacks" },
        tb.seats.filter((s) => s.player).map((s) => `${s.player} ${chips(s.stack)}`).join(" · ")) : null));
  return h("section", { class: "lobby-game" },
    h("header", {},
      h("h2", {}, g.name),
      h("p", { class: "lobby-stakes" }, `${g.variant_label} · ${stakesText(g)}`),
      h("p", { class: "lobby-stakes" }, t("buy_in", { min: chips(g.min_buy_in), max: chips(g.max_buy_in) })),
      h("p", { class: `lobby-open${g.open_seats ? " has-open" : ""}`, dataset: { f: "open" } }, openSeats(g.open_seats))),
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
  games.style.setProperty("--cols", String(Math.min(4, snapshot.games.length)));
  games.replaceChildren(...snapshot.games.map((g) => renderGame(g, snapshot.room.stacks)));
}

function receive(msg) {
  if ((msg.type !== "snapshot" && msg.type !== "update") || !msg.snapshot) return;
  if (msg.type === "update" && msg.seq <= seq) return; // already shown
  seq = msg.seq;
  offset = Date.parse(msg.snapshot.server_time) - Date.now();
  render(msg.snapshot);
}

function tick() {
  for (const el of document.querySelectorAll(".lobby-call")) {
    el.querySelector('[data-f="countdown"]').textContent = mmss(remaining(el.dataset.deadline));
  }
  const clock = root.querySelector('[data-field="clock"]');
  clock.textContent = new Date(Date.now() + offset).toLocaleTimeString(document.documentElement.lang || undefined,
    { hour: "2-digit", minute: "2-digit" });
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
