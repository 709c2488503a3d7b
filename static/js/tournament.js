// The tournament director's page, live over /ws/tournaments/<id>/.
// Actions are POSTed as JSON to the page's action URL; the result comes back
// as an `update` on the socket (every screen sees the same).

import { chips, h } from "./socket.js";
import { followTournament, i18n, renderClock, t } from "./tournament_clock.js";

const root = document.getElementById("tournament");
const f = (name) => root.querySelector(`[data-f="${name}"]`);
let snap = null;
let receivedAt = 0;

followTournament(root, {
  onSnapshot(snapshot, at) { snap = snapshot; receivedAt = at; render(); },
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

  const tables = document.getElementById("td-tables");
  tables.replaceChildren(...snap.tables.filter((tb) => !tb.broken || tb.seats.length).map((tb) => h("div",
    { class: "td-table", "data-table": tb.number },
    h("h3", {}, `${t("table_n", { n: tb.number })} · ${tb.players}`, tb.live ? " ●" : ""),
    h("ol", { class: "seats" }, ...tb.seats.map((s) => h("li", { "data-seat": s.seat },
      h("span", { class: "seat-no" }, String(s.seat)), " ", s.player, " ",
      h("span", { class: "td-stack" }, chips(s.stack)), s.waits ? h("em", {}, ` (${t("waits")})`) : "",
      s.absent ? h("em", { class: "absent" }, ` (${t("absent")})`) : "",
      s.rebuy_pending ? h("em", { class: "rebuy-pending" }, ` (${t("rebuy_pending")})`) : ""))))));

  const list = document.getElementById("td-instructions");
  list.replaceChildren(...snap.instructions.map((i) => h("li",
    { class: `instr ${i.status}`, "data-kind": i.kind, "data-status": i.status },
    h("span", { class: "instr-text" }, document.documentElement.lang.startsWith("de") ? i.text_de : i.text_en),
    " ", h("span", { class: "pill" }, t(i.status)),
    i.kind === "move" && i.from && i.from.table && i.status !== "cancelled"
      ? h("button", { type: "button", "data-undo": i.id }, t("undo")) : "")));

  const entries = document.getElementById("td-entries");
  entries.replaceChildren(...snap.registrations.map((e) => h("tr", { "data-status": e.status },
    h("td", {}, e.player, e.number > 1 ? ` #${e.number}` : ""), h("td", {}, statusText(e.status), e.priority ? " ★" : "",
      e.rebuy_pending ? h("em", { class: "rebuy-pending" }, ` (${t("rebuy_pending")})`) : ""),
    h("td", {}, ...entryButtons(e)))));

  const finishes = document.getElementById("td-finishes");
  finishes.replaceChildren(...snap.finishes.filter((x) => x.place).map((x) => h("li", { value: x.place },
    `${x.place}${x.place_worst !== x.place ? "–" + x.place_worst : ""}. ${x.player}`,
    x.prize ? ` · ${chips(x.prize)}` : "", x.rule ? h("small", {}, ` (${x.rule})`) : "")));
}
