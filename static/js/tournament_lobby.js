// The tournament lobby screen (1920×1080, no login), live over
// /ws/tournaments/lobby/<token>/. Read-only: public snapshot only.

import { chips, h } from "./socket.js";
import { followTournament, renderClock, t } from "./tournament_clock.js";

const root = document.getElementById("tlobby");
const f = (name) => root.querySelector(`[data-f="${name}"]`);
let snap = null;
let receivedAt = 0;

followTournament(root, {
  onSnapshot(snapshot, at) { snap = snapshot; receivedAt = at; render(); },
  onStatus(status) { f("conn").textContent = status === "open" ? "●" : "○"; root.dataset.conn = status; },
});

const search = document.getElementById("seat-search");
search.addEventListener("input", lookup);

function lookup() {
  const out = document.getElementById("seat-result");
  const q = search.value.trim().toLowerCase();
  if (!snap || !q) { out.textContent = ""; return; }
  const found = snap.seat_draw.filter((d) => d.player.toLowerCase().startsWith(q));
  out.textContent = found.length
    ? found.slice(0, 3).map((d) => `${d.player}: ${t("table_n", { n: d.table })}, ${t("seat_n", { n: d.seat })}`).join(" · ")
    : t("not_found");
}

function render() {
  renderClock(root, snap, receivedAt);
  f("players_left").textContent = snap.players_left;
  f("entries").textContent = snap.entries;
  f("average").textContent = chips(snap.average_stack);
  f("pool").textContent = chips(snap.prize_pool);
  f("paid").textContent = snap.places_paid;
  f("bubble_place").textContent = snap.bubble ?? "–";
  document.getElementById("tl-payouts").replaceChildren(...snap.payouts.map((amount, i) => h("li",
    { class: snap.players_left <= i + 1 ? "decided" : "" }, `${i + 1}. ${chips(amount)}`)));
  document.getElementById("tl-draw").replaceChildren(...snap.seat_draw.map((d) => h("li", {},
    h("span", { class: "name" }, d.player), h("span", { class: "where" }, `${d.table} / ${d.seat}`))));
  lookup();
}
