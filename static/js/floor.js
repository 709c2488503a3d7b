// The floor dashboard: every table of the room, live, over /ws/floor/.
//
// At room scale (issue 26: 1,000 tables) the socket sends a *summary* per
// table (tables/floor_summary.py: what a row of the room map shows) and
// whole snapshots only of the tables this page draws in detail: the tiles in
// view and the tile opened from the map, which it names in a `watch`
// message. The page draws only what is in (or near) the viewport (rows:
// floor/row_window.js; tiles: an IntersectionObserver while the tiles are
// shown): an update marks its table dirty, and one animation
// frame draws the dirty rows and tiles in view; the others are drawn when
// they scroll into view. The map is grouped by the tables' sections.
//
// Seqs are tracked per table (summaries and snapshots carry the table's
// seq): a gap (a lost message) leads to a snapshot request for that table;
// a reconnect brings a fresh floor_snapshot from the server.

import { LiveSocket, SeqTracker } from "./socket.js";
import { chips } from "./cards.js";
import { h } from "./dom.js";
import { readSnapshot } from "./hand.js";
import { FloorAlarm } from "./floor/alarm.js";
import { MovesPanel } from "./floor/moves.js";
import { ringRow } from "./floor/ring.js";
import { RowWindow } from "./floor/row_window.js";
import { RULEBOOK_TITLES, citeLabel, t } from "./floor/texts.js";
import { drawDetails, facts, tickClock } from "./floor/tile.js";

const root = document.getElementById("floor");
const tilesEl = document.getElementById("tiles");
const template = document.getElementById("tile-template");
const mapEl = document.getElementById("map-rows");
const rowTemplate = document.getElementById("map-row-template");

const tracker = new SeqTracker();
// table id -> {id, row, el (its tile: a light placeholder until first drawn in detail), model (the newest
// summary or snapshot, read by hand.js readSnapshot), full (the newest whole snapshot's model, or null),
// raw (that snapshot), section, rowDirty, tileDirty, rowFlash, tileFlash, clock, undone, called}
const tiles = new Map();

// ---------------------------------------------------------------- room map or tiles
// The room map shows every table as one compact row (60 tables on one
// 1920×1080 screen), grouped by section; a tap on a row opens that table's
// detailed tile above the map. The choice between map and tiles is kept in
// localStorage.
const VIEW_KEY = "pokerfloor.floor.view";

// Without a stored choice: the map for a big room (more than MAP_FROM tables), tiles for a small one.
const MAP_FROM = 12;

function storedView() {
  let stored = null;
  try {
    stored = localStorage.getItem(VIEW_KEY);
  } catch {
    // private mode: no stored choice
  }
  if (stored === "tiles" || stored === "map") return stored;
  return mapEl.querySelectorAll(".map-row").length > MAP_FROM ? "map" : "tiles";
}

function setView(view, remember) {
  const was = root.dataset.view;
  root.dataset.view = view;
  // the tiles are observed only while they are shown (a thousand targets less for the map's frames)
  if (was !== view) {
    for (const entry of tiles.values()) {
      if (view === "tiles") tileObserver.observe(entry.el);
      else tileObserver.unobserve(entry.el);
    }
    if (view !== "tiles") {
      tilesInView.clear();
      rowWindow.invalidate();
    }
  }
  for (const button of root.querySelectorAll(".view-toggle [data-view]")) {
    button.setAttribute("aria-pressed", String(button.dataset.view === view));
  }
  closeTile();
  if (remember) {
    try {
      localStorage.setItem(VIEW_KEY, view);
    } catch {
      // private mode: the choice lasts for this page only
    }
  }
}

let openedId = null;

function openTile(id) {
  closeTile();
  const entry = tiles.get(id);
  if (!entry) return;
  detailTile(entry);
  entry.el.classList.add("opened");
  tilesEl.classList.add("has-open");
  openedId = id;
  entry.tileDirty = true;
  scheduleDraw();
  scheduleWatch();
}

function closeTile() {
  for (const el of tilesEl.querySelectorAll(".tile.opened")) el.classList.remove("opened");
  tilesEl.classList.remove("has-open");
  if (openedId !== null) {
    openedId = null;
    scheduleWatch();
  }
}

root.querySelector(".view-toggle").addEventListener("click", (event) => {
  const button = event.target.closest("[data-view]");
  if (button) setView(button.dataset.view, true);
});
mapEl.addEventListener("click", (event) => {
  const row = event.target.closest(".map-row");
  if (row) openTile(Number(row.dataset.tableId));
});
tilesEl.addEventListener("click", (event) => {
  if (event.target.closest('[data-action="close-tile"]') || event.target === tilesEl) closeTile();
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") closeTile();
});

// ---------------------------------------------------------------- windowing
// Only what is in or near the viewport is drawn. The rows in view come from the map's geometry: each
// row's top is measured once after the map changes (a table added or dropped, the map arranged, its width
// changed), and a scroll looks them up by binary search. An IntersectionObserver over the room's 1,000
// rows cost ~2 ms twice a frame while updates flashed rows (Chromium's computeIntersections, issue 26's
// frame budget); the few tiles in view keep theirs (only while the tiles are shown). The tiles in view
// (and the opened one) are the tables this page watches (their updates come whole).
const NEAR = "600px 0px";
const NEAR_PX = 600;
const tilesInView = new Set();

const rowWindow = new RowWindow(mapEl, {
  near: NEAR_PX,
  shown: () => root.dataset.view !== "tiles",
  onAdded: () => scheduleDraw(),
});
const rowsInView = rowWindow.inView;

const tileObserver = new IntersectionObserver((changes) => {
  for (const change of changes) {
    const id = Number(change.target.dataset.tableId);
    if (change.isIntersecting) tilesInView.add(id);
    else tilesInView.delete(id);
  }
  scheduleDraw();
  scheduleWatch();
}, { rootMargin: NEAR });

// The tables drawn in detail, sent as `watch` (at most 100: the server's bound) when the set changes.
const WATCH_MAX = 100;
let watchSent = "";
let watchTimer = null;

function scheduleWatch() {
  if (watchTimer === null) watchTimer = setTimeout(sendWatch, 120);
}

function sendWatch() {
  watchTimer = null;
  const ids = [...tilesInView].filter((id) => tiles.has(id) && root.dataset.view === "tiles");
  if (openedId !== null && !ids.includes(openedId)) ids.unshift(openedId);
  const list = ids.slice(0, WATCH_MAX).sort((a, b) => a - b);
  const key = list.join(",");
  if (key === watchSent || root.dataset.conn !== "open") return;
  watchSent = key;
  socket.send({ type: "watch", table_ids: list });
}

function watched(id) {
  return id === openedId || (root.dataset.view === "tiles" && tilesInView.has(id));
}

let drawPending = false;

function scheduleDraw() {
  if (drawPending) return;
  drawPending = true;
  // an animation frame, or a timer when the page is hidden (a background tab gets no frames)
  const timer = setTimeout(draw, 100);
  requestAnimationFrame(() => {
    clearTimeout(timer);
    draw();
  });
}

function draw() {
  if (!drawPending) return;
  drawPending = false;
  for (const el of flashAgain) el.classList.add("flash");
  flashAgain.clear();
  const mapShown = root.dataset.view !== "tiles";
  for (const id of rowsInView) {
    const entry = tiles.get(id);
    if (entry && entry.rowDirty && entry.model && mapShown) renderRow(entry);
  }
  for (const id of openedId === null ? tilesInView : new Set([...tilesInView, openedId])) {
    const entry = tiles.get(id);
    if (entry && entry.tileDirty && entry.model && (id === openedId || !mapShown)) renderTile(entry);
  }
  summarise();
}

setView(storedView(), false);

const socket = new LiveSocket(root.dataset.wsPath, {
  onMessage: handleMessage,
  onStatus: (status) => {
    const el = root.querySelector('[data-field="conn"]');
    el.dataset.state = status;
    el.textContent = t(`conn_${status}`);
    root.dataset.conn = status;
    if (status === "open") scheduleWatch();
    else watchSent = ""; // a new connection watches nothing until told
  },
});
root.querySelector(".view-toggle").addEventListener("click", () => scheduleWatch());

let roomParts = []; // the summaries of the floor_snapshot parts so far

function handleMessage(msg) {
  if (msg.type === "update" || msg.type === "floor_snapshot") moves.refresh(); // a hand ended: moves may have been made
  switch (msg.type) {
    case "floor_snapshot": {
      // the room in frames of up to 250 tables (`part` of `parts`): rows appear as they come; the
      // tables no longer open are dropped and the map ordered once the last part is in
      if (!msg.part || msg.part === 1) roomParts = [];
      roomParts.push(...(msg.tables || []));
      for (const snapshot of msg.tables || []) {
        tracker.reset(snapshot.table.id, snapshot.seq);
        take(snapshot, false);
      }
      if (msg.part && msg.part < msg.parts) break;
      dropMissing(new Set(roomParts.map((s) => s.table.id)));
      arrange(roomParts);
      roomParts = [];
      watchSent = "";
      scheduleWatch();
      break;
    }
    case "snapshot":
      tracker.reset(msg.snapshot.table.id, msg.seq);
      take(msg.snapshot, false);
      break;
    case "update": {
      const id = msg.snapshot.table.id;
      const verdict = tracker.observe(id, msg.seq);
      if (verdict === "old") return;
      take(msg.snapshot, true); // the update is a whole snapshot or a summary: show it now…
      if (verdict === "gap") socket.send({ type: "snapshot", table_id: id }); // …and resync as the protocol asks
      break;
    }
    case "floor_calls":
      calls.clear();
      for (const call of msg.calls || []) calls.set(call.id, call);
      renderCalls(false);
      break;
    case "floor_call":
      onFloorCall(msg.call);
      break;
    case "ruling":
      onRuling(msg.ruling);
      break;
    default:
      break;
  }
  scheduleDraw();
}

// ---------------------------------------------------------------- "time" countdowns
// "Time" called on a player (the server's deadline, 004 #29 / 001 6.13) counts
// down on the tile as on the tablet; at zero the server's worker applies the
// house rule (pokerfloor/worker.py): a dashboard never expires a clock.

setInterval(() => {
  for (const entry of tiles.values()) {
    if (entry.clock) {
      if (watched(entry.id)) tickClock(entry);
      if (rowsInView.has(entry.id)) renderAlert(entry);
    }
  }
}, 250);

// ---------------------------------------------------------------- floor calls
// A dealer's "Floor" reaches every dashboard at once: the call list, a
// highlighted tile, the page title and (after one tap to allow audio, as
// browsers require) a tone that repeats while a call is still open.

const callsEl = document.getElementById("floor-calls");
const calls = new Map(); // call id -> call
const alarm = new FloorAlarm(callsEl);

function onFloorCall(call) {
  const isNew = !calls.has(call.id);
  if (call.status === "open" || call.status === "answered") calls.set(call.id, call);
  else calls.delete(call.id);
  renderCalls(isNew && call.status === "open");
}

function renderCalls(fresh) {
  const list = callsEl.querySelector('[data-field="calls"]');
  const items = [...calls.values()].sort((a, b) => a.id - b.id).map((call) => {
    const li = h("li", { class: `call call-${call.status}`, "data-call-id": call.id });
    li.append(h("strong", {}, t("call_title", { table: call.table || "?" })), " ");
    li.append(h("span", { class: "pill reason" }, call.reason_label));
    if (call.seat) li.append(" ", h("span", { class: "pill" }, t("call_seat", { n: call.seat })));
    if (call.note) li.append(" ", h("q", {}, call.note));
    li.append(" ", h("span", { class: "muted" },
      call.status === "answered" ? t("call_answered", { name: call.answered_by || "?" }) : t("call_open")));
    li.append(" ", h("a", { class: "btn-open", href: call.url }, t("call_open_link")));
    return li;
  });
  if (!items.length) items.push(h("li", { class: "muted", "data-field": "no-calls" }, t("no_calls")));
  list.replaceChildren(...items);
  const open = [...calls.values()].filter((c) => c.status === "open").length;
  callsEl.dataset.count = String(calls.size);
  callsEl.classList.toggle("alarm", open > 0);
  document.title = open ? `(${open}) ${document.title.replace(/^\(\d+\) /, "")}` : document.title.replace(/^\(\d+\) /, "");
  for (const [id, entry] of tiles) {
    const called = [...calls.values()].some((c) => c.table_id === id && c.status === "open");
    entry.called = called;
    entry.el.classList.toggle("floor-called", called);
    entry.row.classList.toggle("floor-called", called);
    if (rowsInView.has(id)) renderAlert(entry);
    else entry.rowDirty = true;
  }
  alarm.calls(open, fresh);
}


function onRuling(ruling) {
  const el = callsEl.querySelector('[data-field="ruling"]');
  const german = document.documentElement.lang.startsWith("de");
  const table = tiles.get(ruling.table_id)?.model?.table?.name || "";
  el.replaceChildren(
    h("a", { href: ruling.url }, t("ruling_made", { table, decision: german && ruling.decision_de ? ruling.decision_de : ruling.decision })),
    " ", ...ruling.citations.flatMap((c) => [h("a", { class: "cite", href: c.url || "#" }, citeLabel(c)), " "]),
  );
  el.hidden = false;
}

// ---------------------------------------------------------------- rows and tiles
// A table's row is made at once (its name filled in); its other cells are
// drawn while it is in view. Its tile starts as a light placeholder (the
// name) and gets the whole tile's markup the first time it is drawn in detail.

function tileFor(id) {
  let entry = tiles.get(id);
  if (entry) return entry;
  let row = mapEl.querySelector(`.map-row[data-table-id="${id}"]`);
  if (!row || !row.querySelector('[data-f="name"]')) {
    const made = rowTemplate.content.firstElementChild.cloneNode(true);
    made.dataset.tableId = id;
    if (row) row.replaceWith(made);
    else mapEl.append(made);
    row = made;
  }
  let el = tilesEl.querySelector(`.tile[data-table-id="${id}"]`);
  if (!el) {
    el = h("article", { class: "tile placeholder", dataset: { tableId: id } }, h("header", { class: "tile-head" }, h("h2", { "data-f": "name" })));
    tilesEl.append(el);
  }
  const empty = root.querySelector('[data-field="no-tables"]');
  if (empty) empty.remove();
  entry = { id, el, row, model: null, full: null, raw: null, section: "", detailed: false, rowDirty: true, tileDirty: true, rowFlash: false, tileFlash: false, called: false };
  tiles.set(id, entry);
  rowWindow.invalidate();
  if (root.dataset.view === "tiles") tileObserver.observe(el);
  return entry;
}

/** The tile's whole markup (from the template), made the first time the tile is drawn in detail. */
function detailTile(entry) {
  if (entry.detailed) return;
  const el = template.content.firstElementChild.cloneNode(true);
  el.dataset.tableId = entry.id;
  for (const name of ["opened", "floor-called"]) el.classList.toggle(name, entry.el.classList.contains(name));
  tileObserver.unobserve(entry.el);
  entry.el.replaceWith(el);
  entry.el = el;
  entry.detailed = true;
  entry.tileDirty = true;
  if (root.dataset.view === "tiles") tileObserver.observe(el);
}

// The map's rows go into blocks of BLOCK rows, each a grid of its own: a change that lays out the map
// again (a row's text, a heading, the live count above it) then lays out one block's rows, not one grid
// of the room's 1,000 (Chromium re-laid the whole grid, 25-34 ms a frame at 200 updates/s, issue 26).
// 60 rows fill whole lines of 1, 2, 3 or 4 columns, so a section's blocks look like one grid.
const BLOCK = 60;

/** Rows and tiles in the order of a floor_snapshot (by section, then name), the map with one heading per
 * section when the room has more than one. */
function arrange(snapshots) {
  const ids = snapshots.map((s) => s.table.id).filter((id) => tiles.has(id));
  const sections = new Map();
  for (const id of ids) {
    const section = tiles.get(id).section || "";
    if (!sections.has(section)) sections.set(section, []);
    sections.get(section).push(id);
  }
  const rows = [];
  for (const [section, members] of sections) {
    if (sections.size > 1) {
      const title = section || root.dataset.noSection || "–";
      rows.push(h("li", { class: "map-section", dataset: { section } },
        h("h2", {}, title, " ", h("span", { class: "muted" }, `(${members.length})`))));
    }
    for (let i = 0; i < members.length; i += BLOCK) {
      const block = members.slice(i, i + BLOCK).map((id) => tiles.get(id).row);
      rows.push(h("li", { class: "map-block" }, h("ol", { class: "map-block-rows" }, ...block)));
    }
  }
  mapEl.replaceChildren(...rows);
  rowWindow.invalidate();
  root.dataset.sections = String(sections.size);
  const close = tilesEl.querySelector('[data-action="close-tile"]');
  tilesEl.replaceChildren(...(close ? [close] : []), ...ids.map((id) => tiles.get(id).el));
}

function dropTile(id) {
  const entry = tiles.get(id);
  if (entry) {
    rowWindow.invalidate();
    tileObserver.unobserve(entry.el);
    entry.el.remove();
    entry.row.remove();
    tiles.delete(id);
    rowsInView.delete(id);
    tilesInView.delete(id);
    if (openedId === id) openedId = null;
  }
  if (!tilesEl.querySelector(".tile.opened")) tilesEl.classList.remove("has-open");
}

function dropMissing(ids) {
  for (const id of [...tiles.keys()]) {
    if (!ids.has(id)) dropTile(id);
  }
  for (const el of root.querySelectorAll(".tile, .map-row")) {
    if (!tiles.has(Number(el.dataset.tableId))) el.remove();
  }
}

function link(pattern, id) {
  return pattern.replace(/\/0\//, `/${id}/`);
}

/** Take a table's summary or whole snapshot: its model is kept and the row (and, for a whole snapshot,
 * the tile) marked for drawing in the next frame, if in view. */
function take(snapshot, flash) {
  if (snapshot.table && snapshot.table.imported) {
    // a replay of imported hands (manage.py replay_phh) is never on the live floor
    dropTile(snapshot.table.id);
    return;
  }
  const model = readSnapshot(snapshot);
  const id = model.table.id;
  const entry = tileFor(id);
  if (snapshot.table.section !== undefined) entry.section = snapshot.table.section || "";
  entry.model = model;
  const st = snapshot.hand && snapshot.hand.state;
  entry.undone = Boolean(model.hand && st && (st.undone || []).length);
  const clock = model.live && st ? st.clock : null;
  entry.clock = clock ? { seat: clock.seat, deadline: Date.parse(clock.deadline), countdown: clock.countdown || 0 } : null;
  if (entry.name !== model.table.name) {
    entry.name = model.table.name;
    entry.row.querySelector('[data-f="name"]').textContent = model.table.name;
    if (!entry.detailed) entry.el.querySelector('[data-f="name"]').textContent = model.table.name;
  }
  if (!snapshot.summary) {
    entry.full = model;
    entry.raw = snapshot;
    entry.tileDirty = true;
  }
  entry.rowDirty = true;
  if (flash) {
    entry.rowFlash = true;
    if (!snapshot.summary) entry.tileFlash = true;
  }
}

// A flash restarts its animation by taking the class off and putting it back a frame later: reading
// offsetWidth in between (the usual trick) forces a layout of the whole page per flash, which at 200
// updates a second was most of the frame time.
const flashAgain = new Set();

function flashIt(target) {
  if (!target.classList.contains("flash")) {
    target.classList.add("flash");
    return;
  }
  target.classList.remove("flash");
  flashAgain.add(target);
  scheduleDraw();
}

/** The table's detailed tile, from its newest whole snapshot (until that arrives: name and stakes). */
function renderTile(entry) {
  detailTile(entry);
  entry.tileDirty = false;
  const el = entry.el;
  const f = (name) => el.querySelector(`[data-f="${name}"]`);
  const model = entry.full || entry.model;
  const snapshot = entry.raw;
  const table = model.table;
  const id = table.id;
  const { stakes, sk, actor, waitingFor } = facts(model);
  el.dataset.seq = model.seq;
  el.classList.toggle("live", model.live);
  el.classList.toggle("closed", table.status === "closed");
  f("name").textContent = table.name;
  f("stakes").textContent = stakes;
  f("status").textContent = table.status === "open" ? "" : t(`status_${table.status}`);
  f("status").hidden = table.status === "open";
  f("dealer").textContent = table.dealer ? t("dealer_is", { name: table.dealer }) : t("no_dealer");
  f("rules").textContent = table.rules_profile ? t("rules_is", { name: RULEBOOK_TITLES[table.rules_profile] || table.rules_profile }) : "";
  f("history-link").href = link(root.dataset.historyUrl, id);
  f("dealer-link").href = link(root.dataset.dealerUrl, id);
  if (!entry.full) return;

  drawDetails(entry, f, actor, waitingFor, sk);
  tickClock(entry);
  if (entry.tileFlash) {
    entry.tileFlash = false;
    flashIt(el);
  }
}

/** The table's line on the room map: table, game and stakes, players/seats,
 * street, pot, who is to act, alerts (a floor call, "time" running). */
function renderRow(entry) {
  entry.rowDirty = false;
  const { row, model } = entry;
  const f = (name) => row.querySelector(`[data-f="${name}"]`);
  const table = model.table;
  const { stakes, street, actor, waitingFor } = facts(model);
  const players = model.seats.filter((s) => s.player).length;
  // only what changed is written: a text written again is a new text node, laid out again
  const put = (name, text) => {
    const el = f(name);
    if (el.textContent !== text) el.textContent = text;
  };
  put("name", table.name);
  put("game", table.game_label ? `${table.game_label} ${stakes}` : stakes);
  put("seats", t("seats_of", { n: players, max: table.max_seats || model.seats.length }));
  put("street", street);
  put("pot", model.hand && model.live ? chips(model.potTotal) : "–");
  put("to-act", waitingFor);
  row.classList.toggle("live", model.live);
  row.classList.toggle("waiting", actor !== null);
  row.classList.toggle("closed", table.status === "closed");
  renderAlert(entry);
  if (entry.rowFlash) {
    entry.rowFlash = false;
    ringRow(row);
  }
}

function renderAlert(entry) {
  if (!entry.row || !entry.model) return;
  const parts = [];
  if (entry.called) parts.push(t("alert_floor"));
  if (entry.undone) parts.push(t("undone_flag"));
  if (entry.clock) {
    parts.push(t("alert_time", { s: Math.max(0, Math.ceil((entry.clock.deadline - Date.now()) / 1000)) }));
  }
  const el = entry.row.querySelector('[data-f="alert"]');
  const text = parts.join(" · ");
  if (el.textContent !== text) el.textContent = text;
}

let liveShown = -1;

function summarise() {
  let live = 0;
  for (const entry of tiles.values()) if (entry.model && entry.model.live) live += 1;
  if (live === liveShown) return;
  liveShown = live;
  root.querySelector('[data-field="live-count"]').textContent = t("live_count", { n: live });
}

// ---------------------------------------------------------------- players changing tables
const moves = new MovesPanel(document.getElementById("floor-moves"));

moves.load();
socket.connect();
// For tests and debugging.
window.pokerfloorFloor = { tracker, socket, tiles, rowsInView, tilesInView, watching: () => watchSent };

