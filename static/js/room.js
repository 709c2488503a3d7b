// The floor's room dashboard: tables with seats, waitlists, calls, must-move.
//
// Live over /ws/room/<slug>/ (room/consumers.py RoomFloorConsumer): a snapshot
// on connect, then updates that each carry the whole room and its seq; an
// older update is ignored. Every change is one POST to the room's act URL
// ({"op": ...}, room/views.py), answered {"ok": true, "seq"} or
// {"ok": false, "code", "message"}; the screen then follows the broadcast.
// One or two taps each: seat from a list (Seat, then the open seat), move
// (Move, then the open seat), accept/decline a call, open/close a table.

import { LiveSocket } from "./socket.js";
import { chips } from "./cards.js";
import { h, setText } from "./dom.js";
import { texts } from "./room_texts.js";
import { attachPlayerPicker } from "./player_picker.js";

const root = document.getElementById("room");
const gamesEl = document.getElementById("games");
const t = (k, p) => texts.t(k, p);

let seq = -1;
let offset = 0;
let snap = null;
let mode = null; // {kind: "seat"|"move"|"change"|"approve", ...}
const swept = new Set();
const picks = new Map(); // game id -> the player record picked in its waitlist form (issue 28)

function remaining(deadline) {
  return Math.max(0, Date.parse(deadline) - (Date.now() + offset));
}

function mmss(ms) {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function showError(message) {
  const el = root.querySelector('[data-field="error"]');
  el.textContent = message || "";
  el.hidden = !message;
}

async function act(op, data = {}) {
  showError("");
  let reply;
  try {
    const response = await fetch(root.dataset.actUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": root.dataset.csrf },
      body: JSON.stringify({ op, ...data }),
      credentials: "same-origin",
    });
    reply = await response.json();
  } catch (err) {
    showError(String(err));
    return null;
  }
  if (!reply.ok) showError(reply.message || reply.code);
  return reply;
}

function setMode(next) {
  mode = next;
  const pill = root.querySelector('[data-field="mode"]');
  const cancel = root.querySelector('[data-op="cancel-mode"]');
  pill.hidden = cancel.hidden = !mode;
  if (mode) pill.textContent = t(`mode_${mode.kind}`, { name: mode.name, table: mode.table || "" });
  if (snap) render(snap);
}

function amountInput(key) {
  return h("input", { type: "number", min: "1", class: "amount", placeholder: t("amount"), dataset: { key },
    "aria-label": t("amount") });
}

function seatRow(game, table, seat, callBySeat) {
  const label = t("seat_n", { n: seat.number });
  if (!seat.player) {
    const call = callBySeat.get(`${table.id}:${seat.number}`);
    let action = null;
    if (mode && mode.gameId === game.id && table.status === "open") {
      if (mode.kind === "seat") action = h("button", { class: "btn go", dataset: { op: "seat-here", table: table.id, seat: seat.number } }, t("seat_here"));
      if (mode.kind === "move") action = h("button", { class: "btn go", dataset: { op: "move-here", table: table.id, seat: seat.number } }, t("move_here"));
      if (mode.kind === "approve" && mode.toTableId === table.id) action = h("button", { class: "btn go", dataset: { op: "approve-here", seat: seat.number } }, t("seat_here"));
    }
    return h("li", { class: "rseat open", dataset: { seat: seat.number } },
      h("span", { class: "rseat-no" }, label),
      h("span", { class: "seat-who muted" }, call ? `${t("calls")}: ${call.name}` : t("open")),
      action);
  }
  const key = `${table.id}:${seat.number}`;
  const due = seat.stack === 0;
  return h("li", { class: `rseat taken${seat.absent ? " absent" : ""}`, dataset: { seat: seat.number } },
    h("span", { class: "rseat-no" }, label),
    h("span", { class: "seat-who" }, seat.player, seat.absent ? h("span", { class: "tag" }, t("absent")) : null,
      seat.leaving ? h("span", { class: "tag tag-leaving", dataset: { f: "leaving" } }, t("leaving")) : null),
    h("span", { class: "seat-stack num", dataset: { f: "stack" } }, due ? t("needs_buy_in") : chips(seat.stack)),
    h("span", { class: "seat-acts" },
      amountInput(key),
      h("button", { class: "btn small", dataset: { op: due ? "buy_in" : "add_on", table: table.id, seat: seat.number, key } },
        due ? t("buy_in") : t("add_on")),
      h("button", { class: "btn small", dataset: { op: "absent", table: table.id, seat: seat.number, absent: seat.absent ? "" : "1" } },
        seat.absent ? t("set_back") : t("set_absent")),
      h("button", { class: "btn small", dataset: { op: "move", table: table.id, seat: seat.number, name: seat.player, game: game.id } }, t("move")),
      h("button", { class: "btn small", dataset: { op: "change", table: table.id, seat: seat.number, name: seat.player, game: game.id } }, t("change")),
      // Mid-hand the player is marked to leave after the hand (000 Einsätze 1); marked, there is nothing more to do
      // until the hand ends (after a misdeal, which ends none, the floor lets him leave between hands).
      seat.leaving && table.live_hand ? null : h("button", { class: "btn small danger", dataset: { op: "leave", table: table.id, seat: seat.number } },
        table.live_hand ? t("leave_after") : t("leave"))));
}

function tableCard(game, table, callBySeat) {
  const changeHere = mode && mode.kind === "change" && mode.gameId === game.id && mode.tableId !== table.id;
  return h("article", { class: `room-table${table.status === "open" ? "" : " closed"}`, dataset: { tableId: table.id } },
    h("header", {},
      h("h3", {}, table.name),
      h("span", { class: "tag" }, t(table.kind === "main" ? "main" : "must_move")),
      table.status === "open" ? null : h("span", { class: "tag" }, t("closed")),
      h("button", { class: "btn small", dataset: { op: "table_open", table: table.id, open: table.status === "open" ? "" : "1" } },
        table.status === "open" ? t("close_table") : t("open_table")),
      h("label", { class: "rt-dealer" }, `${t("dealer")} `,
        h("input", { list: "dealers", value: table.dealer || "", size: "8", dataset: { op: "dealer", table: table.id, key: `dealer:${table.id}` } })),
      changeHere ? h("button", { class: "btn go", dataset: { op: "change-here", table: table.id } }, t("change_to")) : null),
    h("ul", { class: "rseats plain" }, table.seats.map((s) => seatRow(game, table, s, callBySeat))));
}

function gameSection(game) {
  const callBySeat = new Map(game.calls.map((c) => [`${c.table_id}:${c.seat}`, c]));
  const calls = game.calls.map((c) =>
    h("li", { class: `call${c.forced ? " forced" : ""}`, dataset: { callId: c.id, deadline: c.deadline } },
      h("span", {}, t("call_to", { name: c.name, table: c.table, seat: c.seat }), c.forced ? h("b", {}, ` (${t("forced")})`) : null),
      h("span", { class: "countdown num", dataset: { f: "countdown" } }, mmss(remaining(c.deadline))),
      h("button", { class: "btn go", dataset: { op: "accept", call: c.id } }, t("accept")),
      c.forced ? null : h("button", { class: "btn", dataset: { op: "decline", call: c.id } }, t("decline"))));
  const waitlist = game.waitlist.map((e, i) =>
    h("li", { dataset: { entryId: e.id } },
      h("span", {}, `${i + 1}. ${e.name} `, h("small", { class: "muted" }, t(e.source))),
      e.called ? null : h("button", { class: "btn small", dataset: { op: "seat", entry: e.id, name: e.name, game: game.id } }, t("seat")),
      h("button", { class: "btn small", dataset: { op: "waitlist_remove", entry: e.id } }, t("remove"))));
  const mustMove = game.must_move.map((e, i) => h("li", { dataset: { entryId: e.id } },
    `${i + 1}. ${e.name}`,
    e.called ? null : h("button", { class: "btn small", dataset: { op: "seat", entry: e.id, name: e.name, game: game.id } }, t("seat"))));
  return h("section", { class: "room-game", dataset: { gameId: game.id } },
    h("header", { class: "room-game-head" },
      h("h2", {}, game.name),
      h("span", { class: "muted" }, `${game.variant_label} · `,
        t("blinds", { sb: game.small_blind, bb: game.big_blind, min: game.min_buy_in, max: game.max_buy_in, unit: game.unit })),
      h("a", { class: "cite", href: `${root.dataset.rulesUrl}einsatze-1/` }, t("cite_stakes")),
      h("span", { class: "pill", dataset: { f: "open-seats" } }, t("open_seats", { n: game.open_seats })),
      h("button", { class: "btn small", dataset: { op: "call", game: game.id } }, t("call_next"))),
    h("div", { class: "room-game-body" },
      h("div", { class: "room-tables" }, game.tables.map((tb) => tableCard(game, tb, callBySeat))),
      h("div", { class: "room-lists" },
        h("h3", {}, t("calls")),
        h("ul", { class: "plain calls", dataset: { f: "calls" } }, calls),
        h("h3", {}, t("waitlist")),
        h("form", { class: "add-form", dataset: { form: "waitlist", game: game.id } },
          // a returning player is picked from the player records (name, nickname, card number, #ID); the form
          // then sends the record's id; a name typed on is taken as typed (a new player)
          h("span", { class: "reg-find" },
            h("input", { name: "name", required: true, placeholder: t("name_or_card"), "aria-label": t("name_or_card"),
              autocomplete: "off", role: "combobox", "aria-autocomplete": "list", "aria-expanded": "false",
              "aria-controls": `suggest-${game.id}`, dataset: { key: `add:${game.id}` } }),
            h("input", { type: "hidden", name: "player_id" }),
            h("b", { class: "reg-picked", dataset: { f: "picked" }, hidden: true }),
            h("ul", { id: `suggest-${game.id}`, class: "reg-suggest", role: "listbox", "aria-label": t("known_players"), hidden: true })),
          h("select", { name: "source", "aria-label": t("walk_in") },
            h("option", { value: "walk_in" }, t("walk_in")), h("option", { value: "phone_in" }, t("phone_in"))),
          h("button", { class: "btn", type: "submit" }, t("add"))),
        h("ol", { class: "plain waitlist", dataset: { f: "waitlist" } }, waitlist),
        h("h3", {}, t("must_move_order"), " ", h("span", { class: "cite" }, t("cite_must_move"))),
        h("ol", { class: "plain must-move", dataset: { f: "must-move" } }, mustMove.length ? mustMove : h("li", { class: "muted" }, t("empty"))))));
}

function render(snapshot) {
  snap = snapshot;
  root.dataset.seq = String(snapshot.seq);
  // keep what the floor is typing across re-renders
  const kept = new Map();
  let focused = null;
  for (const el of gamesEl.querySelectorAll("input[data-key]")) {
    kept.set(el.dataset.key, el.value);
    if (el === document.activeElement) focused = el.dataset.key;
  }
  gamesEl.replaceChildren(...snapshot.games.map(gameSection));
  for (const el of gamesEl.querySelectorAll("input[data-key]")) {
    if (kept.has(el.dataset.key) && !el.dataset.key.startsWith("dealer:")) el.value = kept.get(el.dataset.key);
    if (el.dataset.key === focused) el.focus();
  }
  for (const form of gamesEl.querySelectorAll('form[data-form="waitlist"]')) attachPicker(form);
  const changes = document.getElementById("changes");
  changes.replaceChildren(...(snapshot.changes || []).map((c) => h("li", {},
    t("change_row", { name: c.player, from: c.from_table, to: c.to_table }), " ",
    h("button", { class: "btn small go", dataset: { op: "approve", change: c.id, toTable: c.to_table_id, table: c.to_table, name: c.player } }, t("approve")),
    h("button", { class: "btn small", dataset: { op: "change_refuse", change: c.id } }, t("refuse")))));
  const log = document.getElementById("log");
  log.replaceChildren(...(snapshot.log || []).map((e) => h("li", { dataset: { kind: e.kind } },
    h("time", { class: "muted" }, new Date(e.at).toLocaleTimeString()), " ", logText(e),
    e.actor ? h("small", { class: "muted" }, ` · ${e.actor}`) : null)));
}

/** The player record autocomplete on a game's waitlist form (static/js/player_picker.js over the office's
 * search.json); a pick survives the redraw of the room (it is kept per game while the name is unchanged). */
function attachPicker(form) {
  const game = form.dataset.game;
  const picker = attachPlayerPicker({
    input: form.elements.name,
    list: form.querySelector(".reg-suggest"),
    picked: form.querySelector('[data-f="picked"]'),
    idField: form.elements.player_id,
    url: root.dataset.playersUrl,
    status: (s) => (texts.has(`standing_${s}`) ? t(`standing_${s}`) : s),
    onPick: (player) => (player ? picks.set(game, player) : picks.delete(game)),
  });
  const kept = picks.get(game);
  if (kept && form.elements.name.value === kept.name) picker.pick(kept);
  else picks.delete(game);
  form.picker = picker;
}

function findTable(id) {
  for (const game of (snap && snap.games) || []) {
    const table = game.tables.find((tb) => tb.id === id);
    if (table) return table;
  }
  return null;
}

/** A room log entry in words (room/services: the `kind` and its payload). */
function logText(e) {
  const p = e.payload || {};
  const tableId = p.table ?? p.to_table;
  const table = tableId ? findTable(tableId) : null;
  const params = {
    player: e.player || "?",
    seat: p.seat ?? p.to_seat ?? "",
    table: table ? table.name : p.name || "",
    amount: chips(p.cash_out ?? p.amount ?? p.stack),
    stack: chips(p.stack),
    dealer: p.dealer || t("empty"),
    label: p.label || "",
  };
  const key = `log_${e.kind}`;
  return texts.has(key) ? t(key, params) : `${e.kind.replaceAll("_", " ")} ${e.player || ""}`.trim();
}

function receive(msg) {
  if ((msg.type !== "snapshot" && msg.type !== "update") || !msg.snapshot) return;
  if (msg.type === "update" && msg.seq <= seq) return;
  seq = msg.seq;
  offset = Date.parse(msg.snapshot.server_time) - Date.now();
  render(msg.snapshot);
}

function tick() {
  for (const el of gamesEl.querySelectorAll("li.call")) {
    const ms = remaining(el.dataset.deadline);
    setText(el.querySelector('[data-f="countdown"]'), mmss(ms));
    if (ms === 0 && !el.classList.contains("forced") && !swept.has(el.dataset.callId)) {
      swept.add(el.dataset.callId);
      act("sweep"); // the server records the no-show and calls the next player
    }
  }
}

// A new display link joins the manager's list: label, when it was made, its URL, Revoke.
function displayRow(link) {
  const list = document.getElementById("displays");
  const none = list.querySelector('[data-field="no_displays"]');
  if (none) none.remove();
  const created = new Date(link.created_at).toLocaleString(document.documentElement.lang || undefined,
    { dateStyle: "short", timeStyle: "short" });
  list.prepend(h("li", { dataset: { display: link.display_id } },
    h("strong", { dataset: { field: "label" } }, link.label || t("display_label")),
    " · ", h("span", { dataset: { field: "created" } }, t("display_created", { created })), h("br"),
    h("a", { href: link.url, target: "_blank", rel: "noopener", dataset: { field: "url" } }, location.origin + link.url),
    " ", h("button", { type: "button", class: "btn small danger", dataset: { op: "display_revoke", display: link.display_id } },
      t("display_revoke"))));
}

root.addEventListener("click", async (event) => {
  const b = event.target.closest("button[data-op]");
  if (!b) return;
  const d = b.dataset;
  const n = (v) => Number(v);
  switch (d.op) {
    case "cancel-mode": setMode(null); return;
    case "seat": setMode({ kind: "seat", entryId: n(d.entry), name: d.name, gameId: n(d.game) }); return;
    case "move": setMode({ kind: "move", tableId: n(d.table), seat: n(d.seat), name: d.name, gameId: n(d.game) }); return;
    case "change": setMode({ kind: "change", tableId: n(d.table), seat: n(d.seat), name: d.name, gameId: n(d.game) }); return;
    case "approve": {
      const game = snap.games.find((g) => g.tables.some((tb) => tb.id === n(d.toTable)));
      setMode({ kind: "approve", changeId: n(d.change), toTableId: n(d.toTable), table: d.table, name: d.name, gameId: game ? game.id : null });
      return;
    }
    case "seat-here": { const m = mode; setMode(null); await act("seat", { entry_id: m.entryId, table_id: n(d.table), seat: n(d.seat) }); return; }
    case "move-here": { const m = mode; setMode(null); await act("move", { from_table_id: m.tableId, from_seat: m.seat, to_table_id: n(d.table), to_seat: n(d.seat) }); return; }
    case "change-here": { const m = mode; setMode(null); await act("change_request", { table_id: m.tableId, seat: m.seat, to_table_id: n(d.table) }); return; }
    case "approve-here": { const m = mode; setMode(null); await act("change_approve", { change_id: m.changeId, seat: n(d.seat) }); return; }
    case "buy_in":
    case "add_on": {
      const input = gamesEl.querySelector(`input[data-key="${d.key}"]`);
      const amount = Number(input && input.value);
      if (!Number.isInteger(amount) || amount <= 0) { showError(t("amount")); return; }
      const reply = await act(d.op, { table_id: n(d.table), seat: n(d.seat), amount });
      if (reply && reply.ok) {
        const now = gamesEl.querySelector(`input[data-key="${d.key}"]`); // the screen may have been redrawn
        if (now) now.value = "";
      }
      return;
    }
    case "absent": await act("absent", { table_id: n(d.table), seat: n(d.seat), absent: d.absent === "1" }); return;
    case "leave": {
      // The player takes the whole stake (000 Einsätze 1): the floor confirms the cash-out, the log records it.
      const found = findTable(n(d.table));
      const seat = found && found.seats.find((s) => s.number === n(d.seat));
      // A hand is running: the player is marked and leaves with the stake he has when it ends.
      const question = t(found && found.live_hand ? "leave_after_confirm" : "leave_confirm", {
        name: seat ? seat.player : "?", seat: d.seat, table: found ? found.name : "", amount: chips(seat ? seat.stack : 0),
      });
      if (!window.confirm(question)) return;
      await act("leave", { table_id: n(d.table), seat: n(d.seat) });
      return;
    }
    case "table_open": {
      const found = findTable(n(d.table));
      if (d.open !== "1" && !window.confirm(t("close_confirm", { table: found ? found.name : "" }))) return;
      await act("table_open", { table_id: n(d.table), open: d.open === "1" });
      return;
    }
    case "accept": await act("accept", { call_id: n(d.call) }); return;
    case "decline": await act("decline", { call_id: n(d.call) }); return;
    case "waitlist_remove": await act("waitlist_remove", { entry_id: n(d.entry) }); return;
    case "call": await act("call", { game_id: n(d.game) }); return;
    case "change_refuse": await act("change_refuse", { change_id: n(d.change) }); return;
    case "display": {
      const labelInput = root.querySelector('[data-field="display_label"]');
      const reply = await act("display", { label: labelInput ? labelInput.value.trim() : "" });
      if (reply && reply.ok) {
        if (labelInput) labelInput.value = "";
        displayRow(reply);
      }
      return;
    }
    case "display_revoke": {
      const row = b.closest("li[data-display]");
      const label = row ? row.querySelector('[data-field="label"]').textContent : "";
      if (!window.confirm(t("display_revoke_confirm", { label }))) return;
      const reply = await act("display_revoke", { display_id: n(d.display) });
      if (reply && reply.ok && row) row.remove();
      return;
    }
    default:
  }
});

root.addEventListener("change", (event) => {
  const el = event.target;
  if (el.matches('input[data-op="dealer"]')) act("dealer", { table_id: Number(el.dataset.table), username: el.value.trim() || null });
});

root.addEventListener("submit", async (event) => {
  const form = event.target;
  event.preventDefault();
  if (form.dataset.form === "waitlist") {
    const name = form.elements.name.value.trim();
    if (!name) return;
    if (form.picker) form.picker.settle(); // a search still waiting for its keystroke pause is moot now
    const id = Number(form.elements.player_id.value);
    const who = id ? { player_id: id } : { name };
    const reply = await act("waitlist_add", { game_id: Number(form.dataset.game), ...who, source: form.elements.source.value });
    const again = gamesEl.querySelector(`form[data-form="waitlist"][data-game="${form.dataset.game}"]`) || form;
    // cleared for the next name, unless the floorman is already typing it (a late answer wipes nothing)
    if (reply && reply.ok && again.elements.name.value.trim() === name) {
      picks.delete(form.dataset.game);
      again.elements.name.value = "";
      if (again.picker) again.picker.pick(null);
      again.elements.name.value = "";
    }
  } else if (form.dataset.form === "settings") {
    await act("settings", {
      call_seconds: Number(form.elements.call_seconds.value),
      lobby_names: form.elements.lobby_names.value,
      lobby_stacks: form.elements.lobby_stacks.checked,
      // the lists on the players' phones (issue 29)
      running_min_players: Number(form.elements.running_min_players.value),
      remote_cap: Number(form.elements.remote_cap.value),
      arrival_seconds: Number(form.elements.arrival_minutes.value) * 60,
      more_time_seconds: Number(form.elements.more_time_minutes.value) * 60,
      remote_no_show: form.elements.remote_no_show.value,
      no_show_places: Number(form.elements.no_show_places.value),
    });
  }
});

const conn = root.querySelector('[data-field="conn"]');
const socket = new LiveSocket(root.dataset.wsPath, {
  onMessage: receive,
  onStatus: (status) => {
    conn.dataset.state = status;
    conn.textContent = t(`conn_${status}`);
  },
});
socket.connect();
setInterval(tick, 500);
