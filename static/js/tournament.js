// The tournament director's page, live over /ws/tournaments/<id>/.
// Actions are POSTed as JSON to the page's action URL; the result comes back
// as an `update` on the socket (every screen sees the same).

import { Texts, chips, gettext, h } from "./socket.js";
import { followTournament, i18n, renderClock, t } from "./tournament_clock.js";

// The desk's texts (manual entries, moves to confirm, away toggles).
const deskTexts = new Texts({
  moving: gettext("awaiting confirmation"),
  mark_away: gettext("Mark away"),
  mark_present: gettext("Mark present"),
  confirm_arrival: gettext("Confirm arrival"),
  confirmed_by: gettext("confirmed: %(sides)s"),
  side_from: gettext("table %(n)s (left)"),
  side_to: gettext("table %(n)s (arrived)"),
  side_director: gettext("director"),
  not_made: gettext("still at table %(n)s"),
  seated_new: gettext("seated at table %(n)s"),
  no_moves: gettext("No moves waiting."),
  no_entries: gettext("Nothing entered at the desk yet."),
  choose_player: gettext("Player…"),
  stack_at_start: gettext("Stack at the start of the hand"),
  remove_row: gettext("Remove"),
  by: gettext("%(who)s, %(when)s"),
  undone: gettext("undone"),
  undo_confirm: gettext("Undo this desk entry?\n%(text)s"),
  break_confirm: gettext("Break table %(n)s now? Its players draw seats at the other tables."),
  dq_confirm: gettext("Disqualify %(name)s? All chips leave play and the player is out."),
});
const dt = (k, p) => deskTexts.t(k, p);
const german = () => document.documentElement.lang.startsWith("de");
let desk = { seq: -1, log: [], moves: [] };

const root = document.getElementById("tournament");
const f = (name) => root.querySelector(`[data-f="${name}"]`);
let snap = null;
let receivedAt = 0;

followTournament(root, {
  onSnapshot(snapshot, at) { snap = snapshot; receivedAt = at; render(); loadDesk(); },
  onStatus(status) {
    f("conn").textContent = i18n.has(`conn_${status}`) ? t(`conn_${status}`) : status;
    f("conn").dataset.state = status;
    root.dataset.conn = status;
  },
});

async function post(data) {
  const err = document.getElementById("td-error");
  const response = await fetch(root.dataset.action, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": root.dataset.csrf },
    body: JSON.stringify(data),
  });
  const body = await response.json();
  err.hidden = body.ok;
  err.textContent = body.ok ? "" : body.message;
  return body;
}

root.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  if (!button || (button.type === "submit" && button.form)) return;
  const d = button.dataset;
  if (d.clock) {
    post({ op: "clock", clock: d.clock, seconds: Number(d.seconds || 0),
           level: Number(document.getElementById("jump-level").value) });
  } else if (d.op === "start_tournament") post({ op: "start" });
  else if (d.op) post({ op: d.op });
  else if (d.undo) post({ op: "undo_move", instruction: Number(d.undo) });
  else if (d.confirmMove) post({ op: "confirm_move", instruction: Number(d.confirmMove) });
  else if (d.deskUndo) {
    if (!window.confirm(dt("undo_confirm", { text: d.text || "" }))) return;
    post({ op: "desk_undo", event: Number(d.deskUndo) });
  } else if (d.absentSeat) {
    post({ op: "absent", table: Number(d.absentTable), seat: Number(d.absentSeat), absent: d.absentTo === "1" });
  } else if (d.deskAddRow !== undefined) addBustRow();
  else if (d.deskRemoveRow !== undefined) { button.closest(".desk-bust-row").remove(); }
  else if (d.entryOp) {
    // Surrender takes a whole stack out of play at once (004 #74): never at one tap.
    if (d.entryOp === "surrender" && !window.confirm(surrenderQuestion(Number(d.entry)))) return;
    post({ op: d.entryOp, entry: Number(d.entry), add_on: d.addOn === "1" });
  }
});

/** The confirm text for a surrender: the player's name and the stack they give up. */
function surrenderQuestion(entryId) {
  const entry = snap && snap.registrations.find((e) => e.id === entryId);
  const name = entry ? entry.player : "?";
  for (const table of (snap && snap.tables) || []) {
    const seat = table.seats.find((s) => s.player === name);
    if (seat) return t("surrender_confirm", { name, stack: chips(seat.stack) });
  }
  return t("surrender_confirm_nostack", { name });
}

/** A status word in the page's language (tournaments/models.py: Tournament.Status, Entry.Status). */
const statusText = (status) => (i18n.has(`status_${status}`) ? t(`status_${status}`) : status);

document.getElementById("reg-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  const body = await post({ op: "register", player: form.player.value, reserve: form.reserve.checked });
  if (body.ok) form.reset();
});

// ------------------------------------------------------------------ the desk

/** The desk's log and the moves waiting for a confirmation (GET data-desk), fetched once per new seq. */
async function loadDesk() {
  if (!snap || desk.seq === snap.seq) return;
  const seq = snap.seq;
  try {
    const response = await fetch(root.dataset.desk);
    const body = await response.json();
    if (body.ok && body.seq >= desk.seq) { desk = body; renderDesk(); }
  } catch (e) {
    desk.seq = -1; // offline: the socket shows it; the next update fetches again
    return;
  }
  if (snap.seq !== seq) loadDesk();
}

/** The seated players as options ("T1 S3 · Name (stack)"), value = entry id. */
function playerOptions() {
  const out = [h("option", { value: "" }, dt("choose_player"))];
  for (const tb of snap.tables) {
    for (const s of tb.seats) {
      if (s.entry) out.push(h("option", { value: s.entry }, `${t("table_n", { n: tb.number })} · ${s.seat} · ${s.player} (${chips(s.stack)})`));
    }
  }
  return out;
}

/** Refill a select, keeping its choice while it is still there. */
function fill(select, options) {
  const value = select.value;
  select.replaceChildren(...options);
  if ([...select.options].some((o) => o.value === value)) select.value = value;
}

function addBustRow() {
  const rows = document.querySelector("#desk-bust .desk-bust-rows");
  const row = h("div", { class: "desk-bust-row" },
    h("select", { name: "entry", "data-players": "", required: true, "aria-label": dt("choose_player") }, ...playerOptions()),
    h("input", { name: "stack", type: "number", min: "0", step: "1", placeholder: dt("stack_at_start"), "aria-label": dt("stack_at_start") }),
    rows.children.length ? h("button", { type: "button", "data-desk-remove-row": "" }, dt("remove_row")) : "");
  rows.append(row);
}

function renderDeskForms() {
  if (!document.querySelector("#desk-bust .desk-bust-row")) addBustRow();
  for (const select of document.querySelectorAll("#td-desk select[data-players]")) fill(select, playerOptions());
  for (const select of document.querySelectorAll("#td-desk select[data-tables]")) {
    fill(select, snap.tables.filter((tb) => !tb.broken).map((tb) => h("option", { value: tb.number }, t("table_n", { n: tb.number }))));
  }
}

function sidesText(m) {
  return m.confirmed.map((side) => side === "director" ? dt("side_director")
    : dt(`side_${side}`, { n: side === "from" ? m.from.table : m.to.table })).join(", ");
}

function renderDesk() {
  const moves = document.getElementById("td-pending-moves");
  moves.replaceChildren(...(desk.moves.length ? desk.moves.map((m) => h("li", { "data-move": m.id, "data-status": m.status },
    h("span", {}, german() ? m.text_de : m.text_en), " ",
    h("span", { class: "move-state" }, m.status === "moving" ? dt("seated_new", { n: m.to.table }) : dt("not_made", { n: m.from.table }),
      m.confirmed.length ? ` · ${dt("confirmed_by", { sides: sidesText(m) })}` : ""),
    h("button", { type: "button", "data-confirm-move": m.id }, dt("confirm_arrival"))))
    : [h("li", { class: "empty" }, dt("no_moves"))]));
  const log = document.getElementById("td-desk-log");
  log.replaceChildren(...(desk.log.length ? desk.log.map((e) => {
    const text = german() ? e.text_de : e.text_en;
    const when = new Date(e.at).toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" });
    return h("li", { class: e.undone ? "undone" : "", "data-seq": e.seq, "data-kind": e.kind },
      h("span", { class: "desk-text" }, text),
      e.note ? h("span", { class: "desk-note" }, `“${e.note}”`) : "",
      h("span", { class: "desk-who" }, dt("by", { who: e.actor || "—", when }), e.undone ? ` · ${dt("undone")}` : ""),
      e.can_undo ? h("button", { type: "button", "data-desk-undo": e.seq, "data-text": text }, t("undo")) : "");
  }) : [h("li", { class: "empty" }, dt("no_entries"))]));
}

/** Submit a desk form as one action; the form is cleared when it was accepted. */
function deskForm(id, build) {
  document.getElementById(id).addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = build(event.target);
    if (!data) return;
    const body = await post(data);
    if (body.ok) {
      event.target.reset();
      if (id === "desk-bust") { event.target.querySelector(".desk-bust-rows").replaceChildren(); addBustRow(); }
    }
  });
}

deskForm("desk-bust", (form) => ({
  op: "desk_bust",
  note: form.note.value,
  busts: [...form.querySelectorAll(".desk-bust-row")].filter((row) => row.querySelector("select").value).map((row) => {
    const stack = row.querySelector("input").value;
    return { entry: Number(row.querySelector("select").value), ...(stack !== "" ? { stack_at_start: Number(stack) } : {}) };
  }),
}));
deskForm("desk-chips", (form) => {
  if (form.reason.value === "dq" && !window.confirm(dt("dq_confirm", { name: form.entry.selectedOptions[0].textContent }))) return null;
  return { op: "desk_chips", entry: Number(form.entry.value), amount: Number(form.amount.value || 0), reason: form.reason.value, note: form.note.value };
});
deskForm("desk-move", (form) => ({
  op: "desk_move", entry: Number(form.entry.value), table: Number(form.table.value), seat: Number(form.seat.value), note: form.note.value,
}));
deskForm("desk-break", (form) => {
  if (!window.confirm(dt("break_confirm", { n: form.table.value }))) return null;
  return { op: "desk_break", table: Number(form.table.value), note: form.note.value };
});

document.getElementById("payout-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = document.getElementById("payout-input").value.trim();
  const amounts = text ? text.split(/[\s,;]+/).map((x) => Number(x)) : [];
  post({ op: "payouts", amounts });
});

/** The buttons of one registration: only what the services would accept
 * now (`e.can`, from the snapshot: 004 #72-#74, 001 Re-buy/Add-on, 004 #27). */
function entryButtons(e) {
  const button = (op, label, extra = {}) => h("button", { type: "button", "data-entry-op": op, "data-entry": e.id, ...extra }, label);
  const out = [];
  if (e.status === "reserved") out.push(button("check_in", t("checkin")));
  if (e.can.re_enter) out.push(button("re_enter", t("reenter")));
  if (e.can.surrender) out.push(button("surrender", t("surrender"), { class: "danger" }));
  if (e.can.rebuy) out.push(button("rebuy", t("rebuy")));
  if (e.rebuy_pending) out.push(button("no_rebuy", t("no_rebuy")));
  if (e.can.add_on) out.push(button("rebuy", t("add_on"), { "data-add-on": "1" }));
  return out;
}

function render() {
  renderClock(root, snap, receivedAt);
  f("status").textContent = statusText(snap.status);
  f("players_left").textContent = snap.players_left;
  f("entries").textContent = snap.entries;
  f("average").textContent = chips(snap.average_stack);
  f("pool").textContent = chips(snap.prize_pool);
  f("bubble").textContent = snap.bubble ? t("bubble", { n: snap.bubble }) : "";
  const payoutInput = document.getElementById("payout-input");
  if (document.activeElement !== payoutInput) payoutInput.value = snap.payouts.join(", ");

  const moving = new Set(snap.instructions.filter((i) => i.kind === "move" && (i.status === "pending" || i.status === "moving"))
    .map((i) => i.player));
  const tables = document.getElementById("td-tables");
  tables.replaceChildren(...snap.tables.filter((tb) => !tb.broken || tb.seats.length).map((tb) => h("div",
    { class: "td-table", "data-table": tb.number },
    h("h3", {}, `${t("table_n", { n: tb.number })} · ${tb.players}`, tb.live ? " ●" : ""),
    h("ol", { class: "seats" }, ...tb.seats.map((s) => h("li", { "data-seat": s.seat },
      h("span", { class: "seat-no" }, String(s.seat)), " ", s.player, " ",
      h("span", { class: "td-stack" }, chips(s.stack)), s.waits ? h("em", {}, ` (${t("waits")})`) : "",
      s.absent ? h("em", { class: "absent" }, ` (${t("absent")})`) : "",
      moving.has(s.player) ? h("em", { class: "moving" }, ` (${dt("moving")})`) : "",
      s.rebuy_pending ? h("em", { class: "rebuy-pending" }, ` (${t("rebuy_pending")})`) : "",
      tb.broken ? "" : h("button", { type: "button", class: "away-toggle", "data-absent-table": tb.number,
        "data-absent-seat": s.seat, "data-absent-to": s.absent ? "0" : "1", "aria-pressed": s.absent ? "true" : "false" },
      s.absent ? dt("mark_present") : dt("mark_away"))))))));

  const list = document.getElementById("td-instructions");
  list.replaceChildren(...snap.instructions.map((i) => h("li",
    { class: `instr ${i.status}`, "data-kind": i.kind, "data-status": i.status },
    h("span", { class: "instr-text" }, document.documentElement.lang.startsWith("de") ? i.text_de : i.text_en),
    " ", h("span", { class: "pill" }, i.status === "moving" ? dt("moving") : t(i.status)),
    i.kind === "move" && i.from && i.from.table && i.status !== "cancelled"
      ? h("button", { type: "button", "data-undo": i.id }, t("undo")) : "")));

  const entries = document.getElementById("td-entries");
  entries.replaceChildren(...snap.registrations.map((e) => h("tr", { "data-status": e.status },
    h("td", {}, e.player, e.number > 1 ? ` #${e.number}` : ""), h("td", {}, statusText(e.status), e.priority ? " ★" : "",
      e.rebuy_pending ? h("em", { class: "rebuy-pending" }, ` (${t("rebuy_pending")})`) : ""),
    h("td", {}, ...entryButtons(e)))));

  renderDeskForms();

  const finishes = document.getElementById("td-finishes");
  finishes.replaceChildren(...snap.finishes.filter((x) => x.place).map((x) => h("li", { value: x.place },
    `${x.place}${x.place_worst !== x.place ? "–" + x.place_worst : ""}. ${x.player}`,
    x.prize ? ` · ${chips(x.prize)}` : "", x.rule ? h("small", {}, ` (${x.rule})`) : "")));
}
