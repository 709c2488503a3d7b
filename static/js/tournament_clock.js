// Tournament clock, counted down locally from the server's timestamps.
//
// A snapshot carries `server_now` and the clock's `elapsed` at that instant
// plus `running` and the periods (with their start second). The client
// notes when it received the snapshot and adds the seconds passed since
// then while the clock runs: no ticks from the server, no drift.

import { LiveSocket } from "./socket.js";
import { Texts, gettext } from "./i18n.js";
import { chips } from "./cards.js";
import { setText } from "./dom.js";

// The texts of the director's page and the lobby screen, translated by Django's JavaScriptCatalog (/jsi18n/).
export const i18n = new Texts({
  level: gettext("Level %(n)s"),
  break: gettext("Break"),
  blinds: gettext("Blinds"),
  ante: gettext("Ante"),
  bb_ante: gettext("Big blind ante"),
  paused: gettext("Paused"),
  not_started: gettext("Not started"),
  hand_for_hand: gettext("Hand for hand"),
  over: gettext("Tournament over"),
  winner: gettext("Winner: %(name)s"),
  table_n: gettext("Table %(n)s"),
  seat_n: gettext("Seat %(n)s"),
  undo: gettext("Undo"),
  pending: gettext("pending"),
  done: gettext("done"),
  cancelled: gettext("cancelled"),
  reenter: gettext("Re-enter"),
  checkin: gettext("Check in"),
  surrender: gettext("Surrender"),
  rebuy: gettext("Rebuy"),
  no_rebuy: gettext("No rebuy"),
  rebuy_pending: gettext("may rebuy now (004 #27)"),
  add_on: gettext("Add-on"),
  absent: gettext("absent"),
  waits: gettext("waits for the button"),
  bubble: gettext("Bubble: place %(n)s"),
  not_found: gettext("No seat found for this name."),
  // the connection (LiveSocket statuses)
  conn_connecting: gettext("Connecting…"),
  conn_open: gettext("Live"),
  conn_closed: gettext("Reconnecting…"),
  conn_forbidden: gettext("No access"),
  conn_not_found: gettext("No such tournament"),
  // tournament and entry statuses (tournaments/models.py)
  status_registration: gettext("registration"),
  status_running: gettext("running"),
  status_finished: gettext("finished"),
  status_reserved: gettext("reserved"),
  status_waitlisted: gettext("waitlisted"),
  status_registered: gettext("registered"),
  status_seated: gettext("seated"),
  status_busted: gettext("busted"),
  status_surrendered: gettext("surrendered"),
  status_expired: gettext("expired"),
  surrender_confirm: gettext("Surrender: %(name)s gives up the stack of %(stack)s for a new entry on the waitlist (004 #74). This cannot be undone. Go ahead?"),
  surrender_confirm_nostack: gettext("Surrender: %(name)s gives up the current entry for a new entry on the waitlist (004 #74). This cannot be undone. Go ahead?"),
});
export const t = (k, p) => i18n.t(k, p);

export function clockNow(snap, receivedAt, now = performance.now()) {
  const c = snap.clock;
  const total = c.periods.reduce((s, p) => Math.max(s, p.start + p.seconds), 0);
  let elapsed = c.elapsed + (c.running ? (now - receivedAt) / 1000 : 0);
  elapsed = Math.min(Math.max(elapsed, 0), total);
  let index = 0;
  for (let i = 0; i < c.periods.length; i++) if (c.periods[i].start <= elapsed) index = i;
  const period = c.periods[index];
  const left = elapsed >= total ? 0 : period.start + period.seconds - elapsed;
  const levelNumber = c.periods.slice(0, index + 1).filter((p) => p.kind === "level").length;
  let next = null;
  let nextNumber = levelNumber;
  for (let i = index + 1; i < c.periods.length; i++) {
    if (c.periods[i].kind === "level") { next = c.periods[i]; nextNumber += 1; break; }
  }
  let breakIn = null;
  for (let i = index + 1; i < c.periods.length; i++) {
    if (c.periods[i].kind === "break") { breakIn = c.periods[i].start - elapsed; break; }
  }
  return { index, period, left, levelNumber, next, nextNumber, breakIn, onBreak: period.kind === "break" };
}

export function mmss(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${r}` : `${m}:${r}`;
}

export function blindsText(p) {
  if (!p || p.kind === "break") return "";
  let text = `${t("blinds")} ${chips(p.small_blind)} / ${chips(p.big_blind)}`;
  if (p.ante) text += ` · ${p.ante_kind === "big_blind_ante" ? t("bb_ante") : t("ante")} ${chips(p.ante)}`;
  return text;
}

/** Fill the clock fields under `root` ([data-f=level|time|blinds|next|break_in]). */
export function renderClock(root, snap, receivedAt) {
  const f = (name) => root.querySelector(`[data-f="${name}"]`);
  const c = snap.clock;
  root.dataset.status = snap.status;
  if (snap.status === "finished") {
    // no clock runs any more: the winner instead of a frozen level, time and next level (issue 23 #9)
    const first = (snap.finishes || []).find((x) => x.place === 1);
    setText(f("level"), t("over"));
    setText(f("time"), "");
    setText(f("blinds"), first ? t("winner", { name: first.player }) : "");
    setText(f("next"), "");
    setText(f("break_in"), "");
    return;
  }
  const now = clockNow(snap, receivedAt);
  let label = now.onBreak ? t("break") : t("level", { n: now.levelNumber });
  if (!c.started) label += ` · ${t("not_started")}`;
  else if (c.hand_for_hand) label += ` · ${t("hand_for_hand")}`;
  else if (!c.running) label += ` · ${t("paused")}`;
  setText(f("level"), label);
  setText(f("time"), mmss(now.left));
  f("time").dataset.running = c.running ? "yes" : "no";
  setText(f("blinds"), now.onBreak ? blindsText(now.next) : blindsText(now.period));
  setText(f("next"), now.next ? `${t("level", { n: now.nextNumber })}: ${blindsText(now.next)}` : "");
  setText(f("break_in"), now.breakIn !== null ? `${t("break")}: ${mmss(now.breakIn)}` : "");
}

const byName = (a, b) => {
  const x = a.player.toLowerCase();
  const y = b.player.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
};
const byFinish = (a, b) => (a.place === null) - (b.place === null) || (a.place || 0) - (b.place || 0) || a.id - b.id;

/**
 * Apply a `delta` (docs/protocol.md) to the snapshot `snap` held at
 * `delta.seq - 1`, in place -- the director's (with registrations) or the
 * TV's: the header replaces its keys; a changed table replaces the one of
 * its number (on the TV a broken one leaves, its seat draw rows are
 * replaced); registrations, instructions (the newest 40) and finishes are
 * replaced by id.  Mirrors tournaments.services.snapshot.apply_delta.
 * Returns what changed: {tables: Set of numbers, registrations: Set of ids,
 * instructions: bool, finishes: Set of ids (changed or removed), draw: bool}.
 */
export function applyDelta(snap, delta) {
  Object.assign(snap, delta.header);
  snap.seq = delta.seq;
  const changed = { tables: new Set(), registrations: new Set(), instructions: false, finishes: new Set(), draw: false };
  const tables = delta.tables || [];
  if (tables.length) {
    const director = "registrations" in snap;
    const index = new Map(snap.tables.map((tb, i) => [tb.number, i]));
    let added = false;
    for (const tb of tables) {
      changed.tables.add(tb.number);
      const row = director ? tb : { number: tb.number, players: tb.players };
      if (!director && tb.broken) {
        if (index.has(tb.number)) snap.tables[index.get(tb.number)] = null;
      } else if (index.has(tb.number)) snap.tables[index.get(tb.number)] = row;
      else { snap.tables.push(row); added = true; }
    }
    snap.tables = snap.tables.filter((tb) => tb !== null);
    if (added) snap.tables.sort((a, b) => a.number - b.number);
    const draw = snap.seat_draw.filter((row) => !changed.tables.has(row.table));
    for (const tb of tables) {
      for (const s of director ? tb.seats : tb.draw) draw.push({ player: s.player, table: tb.number, seat: s.seat });
    }
    snap.seat_draw = draw.sort(byName);
    changed.draw = true;
  }
  if (delta.registrations && delta.registrations.length) {
    const index = new Map(snap.registrations.map((e, i) => [e.id, i]));
    let added = false;
    for (const e of delta.registrations) {
      changed.registrations.add(e.id);
      if (index.has(e.id)) snap.registrations[index.get(e.id)] = e;
      else { snap.registrations.push(e); added = true; }
    }
    if (added) snap.registrations.sort((a, b) => a.id - b.id);
  }
  if (delta.instructions && delta.instructions.length) {
    const byId = new Map(snap.instructions.map((i) => [i.id, i]));
    for (const i of delta.instructions) byId.set(i.id, i);
    snap.instructions = [...byId.values()].sort((a, b) => b.id - a.id).slice(0, 40);
    changed.instructions = true;
  }
  if ((delta.finishes && delta.finishes.length) || (delta.finishes_removed && delta.finishes_removed.length)) {
    const removed = new Set(delta.finishes_removed || []);
    const byId = new Map(snap.finishes.filter((x) => !removed.has(x.id)).map((x) => [x.id, x]));
    for (const x of delta.finishes || []) byId.set(x.id, x);
    snap.finishes = [...byId.values()].sort(byFinish);
    for (const x of delta.finishes || []) changed.finishes.add(x.id);
    for (const id of removed) changed.finishes.add(id);
  }
  return changed;
}

/**
 * Follow a tournament's socket (root.dataset.wsPath: the director's page or
 * the lobby screen).  A `snapshot` (on connect, on request) or an `update`
 * (the whole snapshot) replaces what is held; a `delta` is applied to it
 * (applyDelta) when its seq is the next one.  A gap (a seq missed: delivery
 * is at-most-once) asks for a fresh snapshot, and the deltas until it
 * arrives are dropped; an older seq is ignored.  onSnapshot(snapshot,
 * receivedAt, changed) gets each newer state (`changed` from applyDelta for
 * a delta, null for a whole snapshot); the clock in root is redrawn every
 * 250 ms (onTick(snapshot, receivedAt), by default renderClock).  onStatus(status) as for LiveSocket.
 */
export function followTournament(root, { onSnapshot, onStatus, onTick }) {
  let snap = null;
  let receivedAt = 0;
  let resyncing = false;
  const socket = new LiveSocket(root.dataset.wsPath, {
    onMessage(msg) {
      if (msg.type === "snapshot" || msg.type === "update") {
        if (snap && msg.seq < snap.seq) return;
        resyncing = false;
        snap = msg.snapshot;
      } else if (msg.type === "delta") {
        if (!snap || resyncing || msg.seq <= snap.seq) return;
        if (msg.seq !== snap.seq + 1) {
          resyncing = true;
          root.dataset.resyncs = String(Number(root.dataset.resyncs || 0) + 1);
          socket.send({ type: "snapshot" });
          return;
        }
        receivedAt = performance.now();
        root.dataset.seq = String(msg.seq);
        onSnapshot(snap, receivedAt, applyDelta(snap, msg), msg);
        return;
      } else return;
      receivedAt = performance.now();
      root.dataset.seq = String(snap.seq);
      onSnapshot(snap, receivedAt, null, msg);
    },
    onOpen() { resyncing = false; },
    onStatus,
  });
  socket.connect();
  const tick = onTick || ((current, at) => renderClock(root, current, at));
  setInterval(() => { if (snap) tick(snap, receivedAt); }, 250);
  return socket;
}
