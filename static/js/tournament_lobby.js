// The tournament TV (1920×1080, no login, read from 5 m), live over
// /ws/tournaments/lobby/<token>/. Read-only: the public snapshot on connect, then
// a small delta per change (no stacks, no away flags; the chip leaders only
// while the director shows them).
// Two layouts: the main screen (clock, figures, payouts / chip leaders, the seat
// draw paged) and ?view=draw (the seat draw alone, in pages of 40);
// ?page_seconds=N turns the pages every N seconds (default 10).

import { chips, h } from "./socket.js";
import { clockNow, followTournament, mmss, t } from "./tournament_clock.js";

const root = document.getElementById("tlobby");
const L = root.dataset;
const f = (name) => root.querySelector(`[data-f="${name}"]`);
const set = (name, text) => { const el = f(name); if (el) el.textContent = text; };
/** ``text`` with its {name} placeholders filled from ``values``. */
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => String(values[k] ?? m));
const PAGE_SECONDS = Number(new URLSearchParams(location.search).get("page_seconds")) || 10;
let snap = null;
let receivedAt = 0;
let tick = 0;

// a snapshot on connect, then a small delta per change (applied in place; a gap asks for a snapshot)
followTournament(root, {
  onSnapshot(current, at) { snap = current; receivedAt = at; render(); },
  onStatus(status) { set("conn", status === "open" ? "●" : "○"); root.dataset.conn = status; },
  onTick() { renderClock(); },
});
setInterval(() => { tick += 1; if (snap) renderPages(); }, PAGE_SECONDS * 1000);

function anteText(p) {
  if (!p || p.kind === "break" || !p.ante) return "";
  return `${p.ante_kind === "big_blind_ante" ? L.lBbAnte : L.lAnte} ${chips(p.ante)}`;
}

function blinds(p) { return p && p.kind !== "break" ? `${chips(p.small_blind)} / ${chips(p.big_blind)}` : ""; }

/** A finished event: its winner and his prize instead of a frozen clock, no next level, no "Break in". */
function renderFinished() {
  const winner = (snap.podium || [])[0];
  set("level", L.lFinished);
  f("time").hidden = true;
  const w = f("winner"); // the main screen only (not ?view=draw)
  if (w) {
    w.hidden = !winner;
    w.replaceChildren(...(winner ? [h("small", {}, L.lWinner), h("span", { class: "name" }, winner.player)] : []));
  }
  set("blinds", winner && winner.prize ? chips(winner.prize) : "");
  for (const name of ["ante", "next", "break_in"]) set(name, "");
  set("average_bb", "–");
  root.dataset.state = "finished";
}

function renderClock() {
  if (snap.status === "finished") { renderFinished(); return; }
  const c = snap.clock;
  const now = clockNow(snap, receivedAt);
  root.dataset.state = now.onBreak ? "break" : "level";
  f("time").hidden = false;
  if (f("winner")) f("winner").hidden = true;
  let label = now.onBreak ? t("break") : t("level", { n: now.levelNumber });
  if (!c.started) label += ` · ${t("not_started")}`;
  else if (c.hand_for_hand) label += ` · ${t("hand_for_hand")}`;
  else if (!c.running) label += ` · ${t("paused")}`;
  set("level", label);
  set("time", mmss(now.left));
  f("time").classList.toggle("long", mmss(now.left).length > 5);
  f("time").dataset.running = c.running ? "yes" : "no";
  const playing = now.onBreak ? now.next : now.period;
  // at a break the coming level's blinds, under a small "After the break" (one line each, inside the panel)
  f("blinds").replaceChildren(...(playing
    ? [...(now.onBreak ? [h("small", {}, L.lAfterBreak)] : []), h("span", {}, blinds(playing))] : []));
  set("ante", anteText(playing));
  set("next", now.next && !now.onBreak
    ? `${L.lNext}: ${blinds(now.next)}${now.next.ante ? ` · ${anteText(now.next)}` : ""}` : "");
  if (now.onBreak && c.color_up && c.color_up.length) {
    set("break_in", fill(L.lColorUp, { chips: c.color_up.map(chips).join(", ") }));
  } else {
    set("break_in", now.breakIn !== null ? `${L.lBreakIn} ${mmss(now.breakIn)}` : "");
  }
  const bb = playing ? playing.big_blind : 0;
  // big blinds with one decimal as the screen's language writes them (40.7 / 40,7), like the chips
  const inBb = (snap.average_stack / bb).toLocaleString(document.documentElement.lang || undefined,
    { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  set("average_bb", bb && snap.average_stack ? `${inBb} ${L.lBb}` : "–");
}

/** Page `index` of `items` in pages of `size`: [slice, page number, pages]. */
function page(items, size, index) {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const n = index % pages;
  return [items.slice(n * size, (n + 1) * size), n + 1, pages];
}

function renderPages() {
  const draw = document.getElementById("tl-draw");
  const [rows, n, pages] = page(snap.seat_draw, Number(draw.dataset.perPage), tick);
  draw.replaceChildren(...(rows.length ? rows.map((d) => h("li", {},
    h("span", { class: "name" }, d.player),
    h("span", { class: "where", title: `${t("table_n", { n: d.table })}, ${t("seat_n", { n: d.seat })}` },
      `${d.table} / ${d.seat}`)))
    : [h("li", { class: "empty" }, L.lNoDraw)]));
  set("draw_page", pages > 1 ? fill(L.lPage, { n, of: pages }) : "");
  const side = document.getElementById("tl-side");
  if (!side) return;
  // the side panel: payouts in pages of 16, then the chip leaders when the director shows them
  const panels = [];
  // after a deal its players are paid the deal's amounts, whatever their place: they replace the places it covers
  const deal = (snap.deal || []).map((d) => ({ place: d.place, amount: d.amount, player: d.player, deal: true }));
  const paid = [...deal, ...snap.payouts.map((amount, i) => ({ place: i + 1, amount })).slice(deal.length)];
  for (let i = 0; i < Math.max(1, Math.ceil(paid.length / 16)); i++) panels.push(["payouts", paid.slice(i * 16, (i + 1) * 16)]);
  if (snap.chip_leaders && snap.chip_leaders.length) panels.push(["leaders", snap.chip_leaders]);
  // once the event is over: its final table by place, with the prizes paid (the deal's amounts included)
  if (snap.status === "finished" && snap.podium && snap.podium.length) panels.splice(0, panels.length, ["final", snap.podium]);
  const [[kind, items]] = page(panels, 1, tick)[0];
  set("side_title", kind === "leaders" ? L.lLeaders : kind === "final" ? L.lFinalTable : L.lPayouts);
  side.className = kind;
  side.replaceChildren(...items.map((it, i) => (kind === "leaders"
    ? h("li", {}, h("span", { class: "rank" }, `${i + 1}.`), h("span", { class: "name" }, it.player),
      h("b", {}, chips(it.stack)))
    : kind === "final"
      ? h("li", {}, h("span", { class: "rank" }, `${it.place}.`), h("span", { class: "name" }, it.player),
        h("b", {}, it.prize ? chips(it.prize) : ""))
    : it.deal
      ? h("li", { class: it.place ? "deal decided" : "deal" },
        h("span", { class: "rank" }, it.place ? `${it.place}.` : L.lDeal), h("span", { class: "name" }, it.player),
        h("b", {}, chips(it.amount)))
      : h("li", { class: snap.players_left <= it.place ? "decided" : "" },
        h("span", { class: "rank" }, `${it.place}.`), h("b", {}, chips(it.amount))))));
  set("side_page", panels.length > 1 ? fill(L.lPage, { n: (tick % panels.length) + 1, of: panels.length }) : "");
}

function render() {
  renderClock();
  set("players_left", chips(snap.players_left));
  set("entries", chips(snap.entries));
  set("average", chips(snap.average_stack));
  set("pool", chips(snap.prize_pool));
  set("paid", snap.places_paid);
  set("bubble_place", snap.bubble ?? "–");
  renderPages();
}
