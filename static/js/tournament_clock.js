// Tournament clock, counted down locally from the server's timestamps.
//
// A snapshot carries `server_now` and the clock's `elapsed` at that instant
// plus `running` and the periods (with their start second). The client
// notes when it received the snapshot and adds the seconds passed since
// then while the clock runs: no ticks from the server, no drift.

import { LiveSocket, Texts, chips, gettext } from "./socket.js";

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
  const now = clockNow(snap, receivedAt);
  let label = now.onBreak ? t("break") : t("level", { n: now.levelNumber });
  if (!c.started) label += ` · ${t("not_started")}`;
  else if (c.hand_for_hand) label += ` · ${t("hand_for_hand")}`;
  else if (!c.running) label += ` · ${t("paused")}`;
  f("level").textContent = label;
  f("time").textContent = mmss(now.left);
  f("time").dataset.running = c.running ? "yes" : "no";
  f("blinds").textContent = now.onBreak ? blindsText(now.next) : blindsText(now.period);
  f("next").textContent = now.next ? `${t("level", { n: now.nextNumber })}: ${blindsText(now.next)}` : "";
  const b = f("break_in");
  if (b) b.textContent = now.breakIn !== null ? `${t("break")}: ${mmss(now.breakIn)}` : "";
}

/**
 * Follow a tournament's socket (root.dataset.wsPath: the director's page or
 * the lobby screen).  Every snapshot or update carries the whole public
 * snapshot: an older seq is ignored, a gap asks for a fresh snapshot, and
 * onSnapshot(snapshot, receivedAt) gets each newer one; the clock in root is
 * redrawn every 250 ms.  onStatus(status) as for LiveSocket.
 */
export function followTournament(root, { onSnapshot, onStatus }) {
  let snap = null;
  let receivedAt = 0;
  const socket = new LiveSocket(root.dataset.wsPath, {
    onMessage(msg) {
      if (msg.type !== "snapshot" && msg.type !== "update") return;
      if (snap && msg.seq <= snap.seq) return;
      if (snap && msg.type === "update" && msg.seq !== snap.seq + 1) socket.send({ type: "snapshot" });
      snap = msg.snapshot;
      receivedAt = performance.now();
      onSnapshot(snap, receivedAt);
    },
    onStatus,
  });
  socket.connect();
  setInterval(() => { if (snap) renderClock(root, snap, receivedAt); }, 250);
  return socket;
}
