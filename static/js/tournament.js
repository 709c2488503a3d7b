// The tournament director's page, live over /ws/tournaments/<id>/.
// Actions are POSTed as JSON to the page's action URL; the result comes back
// as a `delta` on the socket (every screen sees the same), applied in place:
// only the tables, registrations, instructions and finishes it names are
// drawn again.  With 2,000 entrants the first tables are drawn at once and
// the rest in the next frames; the registrations are paged (50 a page, with
// a search); the player lists of the desk forms are filled when idle.

import { Texts, gettext } from "./i18n.js";
import { chips } from "./cards.js";
import { h } from "./dom.js";
import { attachPlayerPicker } from "./player_picker.js";
import { followTournament, i18n, renderClock, t } from "./tournament_clock.js";

// The desk's texts (manual entries, moves to confirm, away toggles).
const deskTexts = new Texts({
  moving: gettext("awaiting confirmation"),
  overlay: gettext("(guarantee %(guarantee)s: overlay %(n)s)"),
  double_rebuy: gettext("Double rebuy"),
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
  won_by_none: gettext("Chips won by: nobody named (recount the table)"),
  won_by: gettext("Chips won by %(name)s"),
  remove_row: gettext("Remove"),
  by: gettext("%(who)s, %(when)s"),
  undone: gettext("undone"),
  undo_confirm: gettext("Undo this desk entry?\n%(text)s"),
  break_confirm: gettext("Break table %(n)s now? Its players draw seats at the other tables."),
  dq_confirm: gettext("Disqualify %(name)s? All chips leave play and the player is out."),
  waiting_seat: gettext("%(name)s · waiting for a seat"),
  entries_page: gettext("%(from)s–%(to)s of %(n)s"),
  no_match: gettext("No registration matches."),
  rename: gettext("Rename"),
  cancel_entry: gettext("Cancel (refund)"),
  rename_prompt: gettext("The right name for %(name)s:"),
  cancel_confirm: gettext("Cancel the registration of %(name)s and refund the buy-in? The entry leaves the prize pool and takes no place; a seated player's chips leave play."),
  seated_at: gettext("table %(table)s, seat %(seat)s"),
  quick_bust: gettext("Out"),
  quick_move: gettext("Move"),
  quick_chips: gettext("Chips"),
  quick_bust_label: gettext("%(name)s is out: who won the chips?"),
  quick_move_label: gettext("Move %(name)s"),
  quick_chips_label: gettext("Add or remove chips of %(name)s"),
});
const dt = (k, p) => deskTexts.t(k, p);
const german = () => document.documentElement.lang.startsWith("de");
let desk = { seq: -1, log: [], moves: [] };

const root = document.getElementById("tournament");
const f = (name) => root.querySelector(`[data-f="${name}"]`);
let snap = null;
let receivedAt = 0;

followTournament(root, {
  onSnapshot(snapshot, at, changed, msg) {
    snap = snapshot;
    receivedAt = at;
    render(changed);
    // the desk's log and moves change with desk entries and instructions only
    if (!changed || changed.instructions || (msg.kind || "").startsWith("desk") || (msg.kind || "").startsWith("move")) loadDesk();
  },
  onStatus(status) {
    f("conn").textContent = i18n.has(`conn_${status}`) ? t(`conn_${status}`) : status;
    f("conn").dataset.state = status;
    root.dataset.conn = status;
  },
});

/**
 * How many times a person has edited ``form`` so far (its input and change events; the live updates that
 * refill its lists fire none): a form is cleared after an accepted submission only if this has not moved
 * since, so a late answer never wipes the next entry the director already started.
 */
function editCounter(form) {
  let edits = 0;
  form.addEventListener("input", () => { edits += 1; });
  form.addEventListener("change", () => { edits += 1; });
  return () => edits;
}

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
    // each clock button sends only what it uses: an empty Level box never stops Pause or Resume
    const data = { op: "clock", clock: d.clock };
    if (d.clock === "adjust") data.seconds = Number(d.seconds || 0);
    if (d.clock === "jump") {
      const level = document.getElementById("jump-level").value.trim();
      data.level = /^[0-9]+$/.test(level) ? Number(level) : null;
    }
    post(data);
  } else if (d.op === "start_tournament") post({ op: "start" });
  else if (d.op) post({ op: d.op });
  else if (d.undo) post({ op: "undo_move", instruction: Number(d.undo) });
  else if (d.confirmMove) post({ op: "confirm_move", instruction: Number(d.confirmMove) });
  else if (d.deskUndo) {
    if (!window.confirm(dt("undo_confirm", { text: d.text || "" }))) return;
    post({ op: "desk_undo", event: Number(d.deskUndo) });
  } else if (d.absentSeat) {
    post({ op: "absent", table: Number(d.absentTable), seat: Number(d.absentSeat), absent: d.absentTo === "1" });
  } else if (d.seatTool) seatTool(d.seatTool, Number(d.entry), Number(d.table));
  else if (d.deskAddRow !== undefined) addBustRow();
  else if (d.deskRemoveRow !== undefined) { button.closest(".desk-bust-row").remove(); }
  else if (d.entryOp === "rename") {
    const entry = snap && snap.registrations.find((e) => e.id === Number(d.entry));
    const name = window.prompt(dt("rename_prompt", { name: entry ? entry.player : "" }), entry ? entry.player : "");
    if (name && name.trim()) post({ op: "rename", entry: Number(d.entry), player: name });
  } else if (d.entryOp === "cancel") {
    const entry = snap && snap.registrations.find((e) => e.id === Number(d.entry));
    if (window.confirm(dt("cancel_confirm", { name: entry ? entry.player : "?" }))) post({ op: "cancel", entry: Number(d.entry) });
  } else if (d.entryOp) {
    // Surrender takes a whole stack out of play at once (004 #74): never at one tap.
    if (d.entryOp === "surrender" && !window.confirm(surrenderQuestion(Number(d.entry)))) return;
    post({ op: d.entryOp, entry: Number(d.entry), add_on: d.addOn === "1", ...(d.double === "1" ? { double: true } : {}) });
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

// Registration: typing a name offers the known players (name, country, player ID "#123"; GET the
// form's data-players URL), so a returning player is picked, not typed again: the entry is then
// his (player_id).  Typing on after a pick registers the name as typed.
const regForm = document.getElementById("reg-form");
const regPicker = attachPlayerPicker({
  input: regForm.player,
  list: document.getElementById("reg-suggest"),
  picked: regForm.querySelector('[data-f="reg_picked"]'),
  idField: regForm.player_id,
  url: regForm.dataset.players,
  status: statusText,
});

const regEdits = editCounter(regForm);
regForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  regPicker.settle(); // a search still waiting for its keystroke pause is moot: the name is sent
  const id = Number(regForm.player_id.value);
  const data = id ? { op: "register", player_id: id } : { op: "register", player: regForm.player.value };
  const sent = regEdits();
  const body = await post({ ...data, reserve: regForm.reserve.checked });
  // cleared for the next player, unless the director is already typing the next name
  if (body.ok && regEdits() === sent) { regForm.reset(); regPicker.pick(null); }
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
  // who won the busted players' chips: credited to him, or the table is marked for a recount (issue 23 #12)
  for (const select of document.querySelectorAll("#td-desk select[data-winners]")) {
    fill(select, [h("option", { value: "" }, dt("won_by_none")), ...playerOptions().slice(1).map((o) =>
      h("option", { value: o.value }, dt("won_by", { name: o.textContent })))]);
  }
  // a player waiting for a seat (waitlist, late entry) is seated by hand with the same form (004 #8)
  fill(document.querySelector("#desk-move select[name=entry]"), [...playerOptions(), ...snap.registrations
    .filter((e) => e.status === "waitlisted").map((e) => h("option", { value: e.id }, dt("waiting_seat", { name: e.player })))]);
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

/**
 * Submit a desk form as one action; the form is cleared when it was accepted, unless the director already
 * started the next entry in it while the answer was on its way (`editCounter`).
 */
function deskForm(id, build) {
  const form = document.getElementById(id);
  const edits = editCounter(form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = build(form);
    if (!data) return;
    const sent = edits();
    const body = await post(data);
    if (body.ok && edits() === sent) {
      form.reset();
      if (id === "desk-bust") { form.querySelector(".desk-bust-rows").replaceChildren(); addBustRow(); }
    }
  });
}

deskForm("desk-bust", (form) => ({
  op: "desk_bust",
  note: form.note.value,
  ...(form.won_by.value ? { won_by: Number(form.won_by.value) } : {}),
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
// hand-for-hand at a table without tablet: its hand of the round was played (004 #77)
if (document.getElementById("desk-h4h")) deskForm("desk-h4h", (form) => ({ op: "desk_hand_played", table: Number(form.table.value) }));
// the director opens a table for late entries (004 #8, #11) and assigns a table's dealer login
deskForm("desk-add-table", (form) => ({
  op: "add_table",
  ...(form.number.value ? { number: Number(form.number.value) } : {}),
  ...(form.seats.value ? { seats: Number(form.seats.value) } : {}),
}));
deskForm("desk-dealer", (form) => ({ op: "dealer", table: Number(form.table.value), username: form.username.value.trim() }));
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
  if (e.can.double_rebuy) out.push(button("rebuy", dt("double_rebuy"), { "data-double": "1" }));
  if (e.rebuy_pending) out.push(button("no_rebuy", t("no_rebuy")));
  if (e.can.add_on) out.push(button("rebuy", t("add_on"), { "data-add-on": "1" }));
  // a mistake at registration is put right: the name, or the whole registration taken back with a refund
  if (["reserved", "registered", "waitlisted", "seated"].includes(e.status)) {
    out.push(button("rename", dt("rename")));
    out.push(button("cancel", dt("cancel_entry"), { class: "danger" }));
  }
  return out;
}

// ------------------------------------------------------------------ drawing

const CHUNK = 24; // tables drawn per frame after the first ones
const PAGE = 50; // registrations per page
const tableEls = new Map(); // table number -> its card
const finishEls = new Map(); // finish id -> its <li>
let moving = new Set(); // players whose move waits for a confirmation
let drawing = 0; // the chunked drawing of all tables under way (its generation)
let entryPage = 0;
let entryFilter = "";

function movingPlayers() {
  return new Set(snap.instructions.filter((i) => i.kind === "move" && (i.status === "pending" || i.status === "moving"))
    .map((i) => i.player));
}

function tableCard(tb) {
  return h("div", { class: "td-table", "data-table": tb.number },
    h("h3", {}, `${t("table_n", { n: tb.number })} · ${tb.players}`, tb.live ? " ●" : ""),
    h("ol", { class: "seats" }, ...tb.seats.map((s) => h("li", { "data-seat": s.seat },
      h("span", { class: "seat-no" }, String(s.seat)), " ", s.player, " ",
      h("span", { class: "td-stack" }, chips(s.stack)), s.waits ? h("em", {}, ` (${t("waits")})`) : "",
      s.absent ? h("em", { class: "absent" }, ` (${t("absent")})`) : "",
      moving.has(s.player) ? h("em", { class: "moving" }, ` (${dt("moving")})`) : "",
      s.rebuy_pending ? h("em", { class: "rebuy-pending" }, ` (${t("rebuy_pending")})`) : "",
      tb.broken ? "" : h("button", { type: "button", class: "away-toggle", "data-absent-table": tb.number,
        "data-absent-seat": s.seat, "data-absent-to": s.absent ? "0" : "1", "aria-pressed": s.absent ? "true" : "false" },
      s.absent ? dt("mark_present") : dt("mark_away")),
      tb.broken || !s.entry ? "" : seatTools(tb, s)))));
}

/** The quick buttons of a seat: out (asks who won the chips), move, chips -- each opens its desk
 * form with the player chosen, instead of a long list of every player. */
function seatTools(tb, s) {
  const tool = (kind, label) => h("button", { type: "button", class: `seat-tool seat-${kind}`, "data-seat-tool": kind,
    "data-entry": s.entry, "data-table": tb.number, "aria-label": dt(`quick_${kind}_label`, { name: s.player }) }, label);
  return h("span", { class: "seat-tools" }, tool("bust", dt("quick_bust")), tool("move", dt("quick_move")),
    tool("chips", dt("quick_chips")));
}

/** Open the desk form of a seat's quick button with the player chosen (see seatTools). */
function seatTool(kind, entry, table) {
  renderDeskForms(); // the forms' lists may not be filled yet (they are filled when idle)
  const choose = (select) => { select.value = String(entry); };
  let form;
  let focus;
  if (kind === "bust") {
    form = document.getElementById("desk-bust");
    form.querySelector(".desk-bust-rows").replaceChildren();
    addBustRow();
    choose(form.querySelector(".desk-bust-row select"));
    // who busted him: only the players of his table can have won his chips (issue 23 #12)
    const tb = snap.tables.find((x) => x.number === table);
    const winners = form.querySelector("select[data-winners]");
    if (winners && tb) {
      winners.replaceChildren(h("option", { value: "" }, dt("won_by_none")), ...tb.seats
        .filter((x) => x.entry && x.entry !== entry)
        .map((x) => h("option", { value: x.entry }, dt("won_by", { name: `${x.seat} · ${x.player} (${chips(x.stack)})` }))));
      focus = winners;
    }
  } else if (kind === "move") {
    form = document.getElementById("desk-move");
    choose(form.querySelector("select[name=entry]"));
    focus = form.querySelector("input[name=table]");
  } else {
    form = document.getElementById("desk-chips");
    choose(form.querySelector("select[name=entry]"));
    focus = form.querySelector("input[name=amount]");
  }
  form.scrollIntoView({ block: "center" });
  form.classList.add("quick-picked");
  setTimeout(() => form.classList.remove("quick-picked"), 1500);
  (focus || form.querySelector("select")).focus({ preventScroll: true });
}

const shownTables = () => snap.tables.filter((tb) => !tb.broken || tb.seats.length);

/** Every table, the first CHUNK at once and the rest CHUNK a frame (the page paints before them). */
function drawAllTables() {
  const box = document.getElementById("td-tables");
  const generation = ++drawing;
  tableEls.clear();
  const tables = shownTables();
  const put = (from, to) => {
    const cards = tables.slice(from, to).map((tb) => {
      const current = snap.tables.find((x) => x.number === tb.number) || tb; // a delta may have come meanwhile
      const card = tableCard(current);
      tableEls.set(tb.number, card);
      return card;
    });
    box.append(...cards);
  };
  box.replaceChildren();
  put(0, CHUNK);
  let next = CHUNK;
  const step = () => {
    if (generation !== drawing || next >= tables.length) { if (generation === drawing) drawing = 0; return; }
    put(next, next + CHUNK);
    next += CHUNK;
    requestAnimationFrame(step);
  };
  if (next < tables.length) requestAnimationFrame(step); else drawing = 0;
}

/** Draw again the tables of `numbers` (a delta), in place; a new one goes where its number says. */
function drawTables(numbers) {
  const box = document.getElementById("td-tables");
  const shown = new Map(shownTables().map((tb) => [tb.number, tb]));
  for (const n of [...numbers].sort((a, b) => a - b)) {
    const old = tableEls.get(n);
    const tb = shown.get(n);
    if (!tb) { if (old) { old.remove(); tableEls.delete(n); } continue; }
    if (!old && drawing) continue; // not drawn yet: the chunked drawing will
    const card = tableCard(tb);
    tableEls.set(n, card);
    if (old) { old.replaceWith(card); continue; }
    const after = [...tableEls.keys()].filter((k) => k > n && k !== n).sort((a, b) => a - b)[0];
    box.insertBefore(card, after !== undefined ? tableEls.get(after) : null);
  }
}

function renderInstructions() {
  const list = document.getElementById("td-instructions");
  list.replaceChildren(...snap.instructions.map((i) => h("li",
    { class: `instr ${i.status}`, "data-kind": i.kind, "data-status": i.status },
    h("span", { class: "instr-text" }, german() ? i.text_de : i.text_en),
    " ", h("span", { class: "pill" }, i.status === "moving" ? dt("moving") : t(i.status)),
    i.kind === "move" && i.from && i.from.table && i.status !== "cancelled"
      ? h("button", { type: "button", "data-undo": i.id }, t("undo")) : "")));
}

/** The registrations matching the search, then the page of them shown. */
function renderEntries() {
  const needle = entryFilter.trim().toLowerCase();
  const all = needle ? snap.registrations.filter((e) => e.player.toLowerCase().includes(needle)) : snap.registrations;
  const pages = Math.max(1, Math.ceil(all.length / PAGE));
  entryPage = Math.min(entryPage, pages - 1);
  const rows = all.slice(entryPage * PAGE, (entryPage + 1) * PAGE);
  const seats = seatsByEntry();
  document.getElementById("td-entries").replaceChildren(...(rows.length ? rows.map((e) => h("tr", { "data-status": e.status, "data-entry-row": e.id },
    h("td", {}, e.player, e.number > 1 ? ` #${e.number}` : ""), h("td", {}, statusText(e.status), e.priority ? " ★" : "",
      e.status === "seated" && seats.has(e.id) ? h("span", { class: "entry-seat" }, ` · ${dt("seated_at", seats.get(e.id))}`) : "",
      e.rebuy_pending ? h("em", { class: "rebuy-pending" }, ` (${t("rebuy_pending")})`) : ""),
    h("td", { class: "entry-ops-cell" }, h("div", { class: "entry-ops" }, ...entryButtons(e))))) : [h("tr", { class: "empty" }, h("td", { colspan: "3" }, dt("no_match")))]));
  const pager = document.getElementById("td-entries-pager");
  pager.hidden = all.length <= PAGE;
  pager.querySelector("[data-f=entries_page]").textContent = dt("entries_page",
    { from: all.length ? entryPage * PAGE + 1 : 0, to: Math.min(all.length, (entryPage + 1) * PAGE), n: all.length });
  pager.querySelector("[data-page=prev]").disabled = entryPage === 0;
  pager.querySelector("[data-page=next]").disabled = entryPage >= pages - 1;
  entryIds = new Set(rows.map((e) => e.id));
  entryCount = snap.registrations.length;
}
let entryIds = new Set();
let entryCount = 0;

/** Where each seated entry sits: entry id -> {table, seat} (from the tables of the snapshot). */
function seatsByEntry() {
  const out = new Map();
  for (const tb of snap.tables) {
    if (tb.broken) continue;
    for (const s of tb.seats) if (s.entry) out.set(s.entry, { table: tb.number, seat: s.seat });
  }
  return out;
}

document.getElementById("td-entries-search").addEventListener("input", (event) => {
  entryFilter = event.target.value;
  entryPage = 0;
  if (snap) renderEntries();
});
document.getElementById("td-entries-pager").addEventListener("click", (event) => {
  const button = event.target.closest("[data-page]");
  if (!button || !snap) return;
  entryPage += button.dataset.page === "next" ? 1 : -1;
  entryPage = Math.max(0, entryPage);
  renderEntries();
});

function finishItem(x) {
  return h("li", { value: x.place, "data-finish": x.id },
    `${x.place}${x.place_worst !== x.place ? "–" + x.place_worst : ""}. ${x.player}`,
    x.prize ? ` · ${chips(x.prize)}` : "", x.rule ? h("small", {}, ` (${x.rule})`) : "");
}

/** The placed finishes, best first: all of them, or only those of `ids` (a delta) put in place. */
function renderFinishes(ids) {
  const list = document.getElementById("td-finishes");
  const shown = snap.finishes.filter((x) => x.place);
  if (!ids) {
    finishEls.clear();
    list.replaceChildren(...shown.map((x) => { const li = finishItem(x); finishEls.set(x.id, li); return li; }));
    return;
  }
  for (const id of ids) { const li = finishEls.get(id); if (li) { li.remove(); finishEls.delete(id); } }
  let next = null;
  for (let i = shown.length - 1; i >= 0; i--) {
    const x = shown[i];
    if (ids.has(x.id)) {
      const li = finishItem(x);
      list.insertBefore(li, next);
      finishEls.set(x.id, li);
    }
    next = finishEls.get(x.id) || next;
  }
}

let formsPending = false;
/** The desk forms' player and table lists, filled when the page is idle (2,000 options are slow to build). */
function scheduleDeskForms() {
  if (formsPending) return;
  formsPending = true;
  const run = () => { formsPending = false; renderDeskForms(); };
  if (window.requestIdleCallback) requestIdleCallback(run, { timeout: 1000 }); else setTimeout(run, 50);
}

function renderHeader() {
  renderClock(root, snap, receivedAt);
  f("status").textContent = statusText(snap.status);
  f("players_left").textContent = snap.players_left;
  f("entries").textContent = snap.entries;
  f("average").textContent = chips(snap.average_stack);
  f("pool").textContent = chips(snap.prize_pool)
    + (snap.overlay ? ` ${dt("overlay", { guarantee: chips(snap.guarantee), n: chips(snap.overlay) })}` : "");
  f("bubble").textContent = snap.bubble ? t("bubble", { n: snap.bubble }) : "";
  const payoutInput = document.getElementById("payout-input");
  const payouts = snap.payouts.join(", ");
  if (document.activeElement !== payoutInput && payoutInput.value !== payouts) payoutInput.value = payouts;
}

/** Draw the page: all of it for a whole snapshot (`changed` null), else what the delta changed. */
function render(changed) {
  renderHeader();
  if (!changed) {
    moving = movingPlayers();
    drawAllTables();
    renderInstructions();
    renderEntries();
    renderFinishes(null);
    if (!document.querySelector("#desk-bust .desk-bust-row")) addBustRow();
    scheduleDeskForms();
    return;
  }
  const tables = new Set(changed.tables);
  if (changed.instructions) {
    renderInstructions();
    const now = movingPlayers();
    const toggled = [...now].filter((p) => !moving.has(p)).concat([...moving].filter((p) => !now.has(p)));
    moving = now;
    if (toggled.length) {
      const names = new Set(toggled);
      for (const row of snap.seat_draw) if (names.has(row.player)) tables.add(row.table);
    }
  }
  if (tables.size) { drawTables(tables); scheduleDeskForms(); }
  if (tables.size && !changed.registrations.size) renderEntries(); // a move changes the table and seat shown
  if (changed.registrations.size) {
    scheduleDeskForms(); // the waitlisted are seated with the move form
    const onPage = [...changed.registrations].some((id) => entryIds.has(id));
    if (onPage || snap.registrations.length !== entryCount || entryFilter) renderEntries();
  }
  if (changed.finishes.size) renderFinishes(changed.finishes);
}
