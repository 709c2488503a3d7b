// The tournament TV (1920×1080, no login, read from 5 m), live over
// /ws/tournaments/lobby/<token>/. Read-only: the public snapshot on connect, then
// a small delta per change (no stacks, no away flags; the chip leaders only
// while the director shows them).
// Two layouts: the main screen (clock, figures, payouts / chip leaders, the seat
// draw paged) and ?view=draw (the seat draw alone, in pages of 40);
// ?page_seconds=N turns the pages every N seconds (default 10).

import { chips } from "./cards.js";
import { h, redraw, setText } from "./dom.js";
import { clockNow, followTournament, mmss, t } from "./tournament_clock.js";

const root = document.getElementById("tlobby");
const L = root.dataset;
const f = (name) => root.querySelector(`[data-f="${name}"]`);
const set = (name, text) => setText(f(name), text);
/** ``text`` with its {name} placeholders filled from ``values``. */
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => String(values[k] ?? m));
const PAGE_SECONDS = Number(new URLSearchParams(location.search).get("page_seconds")) || 10;
let snap = null;
let receivedAt = 0;
let tick = 0;
let lastPeriod = null; // the period index last shown: a change is announced (and sounded)

// The level-change sound: a tone made with the Web Audio API. Browsers start audio only after a tap,
// so the header shows "Tap to allow sound" until the screen has been tapped once; then the button
// turns the sound on and off (remembered on this screen).
const SOUND_KEY = "pokerfloor.tvSound";
let audio = null;
const soundWanted = () => localStorage.getItem(SOUND_KEY) !== "off";
const soundState = () => (!soundWanted() ? "off" : audio && audio.state === "running" ? "on" : "allow");
function renderSound() {
  const b = f("sound");
  if (!b) return;
  const state = soundState();
  b.dataset.sound = state;
  b.setAttribute("aria-pressed", state === "on" ? "true" : "false");
  b.textContent = state === "on" ? L.lSoundOn : state === "off" ? L.lSoundOff : L.lSoundAllow;
}
/** Two short tones (880 Hz, then 660 Hz) when the sound is on and allowed. */
function playTone() {
  if (soundState() !== "on") return;
  const now = audio.currentTime;
  [[880, 0], [660, 0.35]].forEach(([hz, at]) => {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = hz;
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(0.5, now + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.3);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + at);
    osc.stop(now + at + 0.32);
  });
  root.dataset.tones = String(Number(root.dataset.tones || 0) + 1);
}
f("sound")?.addEventListener("click", async () => {
  if (soundState() === "on") {
    localStorage.setItem(SOUND_KEY, "off");
  } else {
    localStorage.setItem(SOUND_KEY, "on");
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) audio = new Context();
    if (audio && audio.state !== "running") { try { await audio.resume(); } catch { /* stays "allow" */ } }
  }
  renderSound();
});
renderSound();

/** Announce a new level or break for 15 s (and sound it), not on the first screen. */
let announceTimer = 0;
function announce(now) {
  const box = f("announce");
  if (!box) return;
  const p = now.period;
  const text = now.onBreak ? `${t("break")} · ${mmss(now.left)}`
    : `${t("level", { n: now.levelNumber })} · ${L.lBlinds} ${blinds(p)}${p.ante ? ` · ${anteText(p)}` : ""}`;
  box.textContent = text;
  box.hidden = false;
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => { box.hidden = true; }, 15000);
  playTone();
}

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

/** While late registration is open: the time until it closes (the structure's late registration period ends). */
function renderLateReg(now) {
  const c = snap.clock;
  const elapsed = now.period.start + now.period.seconds - now.left;
  const left = c.late_registration_ends_at == null ? 0 : c.late_registration_ends_at - elapsed;
  const open = snap.status !== "finished" && c.started && left > 0;
  f("late_reg").hidden = !open;
  set("late_reg_left", open ? mmss(left) : "");
}

function renderClock() {
  if (snap.status === "finished") { f("late_reg").hidden = true; renderFinished(); return; }
  const c = snap.clock;
  const now = clockNow(snap, receivedAt);
  renderLateReg(now);
  if (c.started && lastPeriod !== null && now.index !== lastPeriod) announce(now);
  lastPeriod = c.started ? now.index : null;
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
  redraw(f("blinds"), playing ? `${now.onBreak}|${blinds(playing)}` : "", () => (playing
    ? [...(now.onBreak ? [h("small", {}, L.lAfterBreak)] : []), h("span", {}, blinds(playing))] : []));
  set("ante", anteText(playing));
  // the next level: its blinds, then its ante on a line of its own (never cut)
  const next = now.next && !now.onBreak ? now.next : null;
  redraw(f("next"), next ? `${blinds(next)}|${anteText(next)}` : "", () => (next
    ? [h("span", {}, `${L.lNext}: ${blinds(next)}`), ...(next.ante ? [h("span", { class: "next-ante" }, anteText(next))] : [])]
    : []));
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
  // once the players left are all paid there is no bubble: "In the money"
  const inTheMoney = snap.places_paid > 0 && snap.players_left <= snap.places_paid;
  set("bubble_place", inTheMoney ? L.lItm : (snap.bubble ?? "–"));
  // rebuys and add-ons bought so far, in an event that allows them (or had some)
  f("rebuy_count").hidden = !(snap.rebuys_allowed || snap.rebuys);
  set("rebuys", chips(snap.rebuys || 0));
  f("add_on_count").hidden = !(snap.add_ons_allowed || snap.add_ons);
  set("add_ons", chips(snap.add_ons || 0));
  renderPages();
}
