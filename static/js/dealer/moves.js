// Tournament tables: players changing tables. A balancing, breaking or hand
// move stays open until both tablets (or the director) confirm it: the
// source table that the player has left, the destination table that he has
// arrived. Meanwhile he is dealt in at neither table (004 #33).
// State and words come from /tournaments/tables/<id>/moves/ (404 at other
// tables: no control); a pushed `instruction` of kind "move" reloads them.
// Registers itself on import (main.js: one import line).

import { h } from "../dom.js";
import { root, $, render, onRender, showAlert } from "./state.js";
import { on } from "./connection.js";

const MOVES_URL = `/tournaments/tables/${root.dataset.tableId}/moves/`;
let moves = undefined; // undefined: not asked yet; null: not a tournament table
let asked = 0; // looks and confirmations sent: only the answer to the last one is drawn

/** Fetch this table's moves, or confirm one (`instruction` id) and take the answer.  An answer that
 * comes back after a later look was asked for is not drawn (it would bring back the moves as they were:
 * a confirmed move's button again); a refused confirmation is still said. */
async function loadMoves(confirm = null) {
  if (moves === null && !confirm) return;
  const csrf = document.querySelector("input[name=csrfmiddlewaretoken]");
  const init = confirm ? { method: "POST", body: JSON.stringify({ instruction: confirm }),
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf ? csrf.value : "" } } : {};
  const mine = ++asked;
  let body;
  try {
    const response = await fetch(MOVES_URL, init);
    if (!confirm && (response.status === 404 || response.status === 403)) { moves = null; return; }
    body = await response.json();
  } catch (e) {
    return; // offline: the socket shows it
  }
  if (!body.ok && confirm) showAlert(body.message || body.code, "");
  if (mine !== asked) return; // a later look is on its way or back already
  if (body.ok) moves = body;
  render();
}

function renderMoves() {
  const notices = $(".notices");
  let box = $(".notice-moves");
  if (!moves || !moves.moves.length) {
    if (box) box.hidden = true;
    return;
  }
  if (!box) notices.append((box = h("div", { class: "notice notice-instruction notice-moves", "data-field": "moves" })));
  box.hidden = false;
  const L = moves.labels;
  box.replaceChildren(
    h("div", { class: "notice-body" }, h("strong", { text: L.title }), " ", L.hint.replace("{rule}", moves.rule)),
    ...moves.moves.map((m) => {
      const mine = m.side === "from" ? "from" : "to";
      const done = m.confirmed.includes(mine) || m.confirmed.includes("director");
      const where = mine === "from" ? `→ T${m.to.table} S${m.to.seat}` : `T${m.from.table} S${m.from.seat} → S${m.to.seat}`;
      return h("div", { class: "instruction", dataset: { move: m.id, side: mine } },
        h("div", { class: "notice-body" },
          h("strong", { text: mine === "from" ? L.leaving : L.arriving }), ` ${m.player} (${where})`),
        done ? h("span", { class: "hint", text: L.waiting })
          : h("button", { type: "button", class: "btn btn-small", dataset: { confirmMove: m.id },
            onclick: () => loadMoves(m.id) }, mine === "from" ? L.confirm_left : L.confirm_arrived));
    }));
}

on("message", (msg) => {
  if (msg.type === "instruction" && msg.kind === "move") loadMoves();
  return false; // ./floorcall.js shows the instruction too
});
on("snapshot", () => loadMoves());
onRender(renderMoves);
