// The dealer tablet: one table, live over /ws/tables/<id>/dealer/.
//
// This module wires the parts of the screen together: the order they are
// drawn in, the one click handler of the page, the keyboard, and the start.
//   state.js       the page's elements, constants and the one `state` object
//   strings.js     the translated texts (Django's JavaScriptCatalog)
//   connection.js  the socket: snapshots, the message in flight, side requests
//   seats.js       the felt: seat ring, board(s), pots, header pills
//   actionpad.js   the betting round: action buttons and keypad
//   cards.js       card picker and dealing the board
//   showdown.js    shows, mucks and awarding the pots
//   idle.js        between hands: result, next button, absent players
//   formats.js     bomb pot, flip, double board, straddles, run it twice
//   floorcall.js   calling the floor; ruling and instructions
//   chips.js       the chips reader
//   procedures.js  out of turn, time and the clock, guided procedures
//   undo.js        taking back a wrong entry (the hand's last actions to pick from)
//   recent.js      the hand's last actions on the felt (a mis-tap is seen at once)
//   moves.js       tournament moves: confirm a player left / arrived (004 #33)

import { root, state, currentView, onRender, openSheet, closeSheets, hideAlert } from "./state.js";
import { socket, tracker, busy, settling, act, on } from "./connection.js";
import { buildFelt, renderFelt } from "./seats.js";
import { renderBetting, onKey, onShortcut, onRaise } from "./actionpad.js";
import { bindBoard, renderBoard } from "./cards.js";
import { bindShowdown, renderShowdown } from "./showdown.js";
import { renderIdle, loadAbsent, handleAbsentMessage } from "./idle.js";
import { startHand, onFormatClick, onFormatInput, renderRunTwice, resetFormat } from "./formats.js";
import { onFloorClick, renderNotices, handleFloorMessage } from "./floorcall.js";
import { bindChips, onChipsClick, renderChips } from "./chips.js";
import { onProcedureClick, renderClock, renderProcBody, afterSnapshot } from "./procedures.js";
import { onUndoClick, renderUndo } from "./undo.js";
import { fixStudModel, renderStud, onStudClick } from "./stud.js"; // Seven Card Stud: its own panel
import { noteLastEvent, renderRecent } from "./recent.js";
import "./moves.js"; // tournament tables: players changing tables, confirmed here (registers itself)

on("message", handleFloorMessage);
on("message", handleAbsentMessage);
on("snapshot", () => {
  if (state.absent !== null) loadAbsent();
});
on("handStarted", resetFormat);
on("applied", afterSnapshot);
on("applied", fixStudModel);
on("applied", noteLastEvent);

function renderPanel() {
  if (renderStud()) return;
  const view = currentView();
  for (const el of root.querySelectorAll("[data-view]")) el.hidden = el.dataset.view !== view;
  root.dataset.current = view;
  if (view === "idle") renderIdle();
  if (view === "betting") renderBetting();
  if (view === "board") renderBoard();
  if (view === "showdown") renderShowdown();
  const disabled = busy();
  for (const b of root.querySelectorAll("#panel button")) {
    if (disabled) b.setAttribute("aria-disabled", "true");
    else b.removeAttribute("aria-disabled");
  }
}

function onClick(event) {
  const b = event.target.closest("button");
  if (!b || !root.contains(b)) return;
  if (b.dataset.action === "dismiss") {
    hideAlert();
    return;
  }
  if (onFloorClick(b) || onChipsClick(b) || onProcedureClick(b) || onUndoClick(b)) return;
  if (b.getAttribute("aria-disabled") === "true" && b.closest("#panel")) {
    event.stopImmediatePropagation();
    return;
  }
  // The player to act just changed: the tap was meant for the one before (a double tap).
  if (settling() && b.closest('[data-view="betting"]')) {
    event.stopImmediatePropagation();
    return;
  }
  const model = state.model;
  const seat = model ? model.toAct : null;
  switch (b.dataset.action) {
    case "start":
      startHand();
      break;
    case "fold":
    case "check":
    case "call":
    case "all_in":
      act({ type: b.dataset.action, seat });
      break;
    case "raise":
      onRaise();
      break;
    case "board":
      act({ type: "board", cards: state.boardCards.join(""), ...(model.board2 ? { board: model.nextBoard } : {}) });
      break;
    case "board-skip":
      act({ type: "board", cards: "", ...(model.board2 ? { board: model.nextBoard } : {}) });
      break;
    default:
      if (onStudClick(b) || onFormatClick(b)) break;
      if (b.dataset.key) onKey(b.dataset.key);
      if (b.dataset.short) onShortcut(b.dataset.short);
  }
}

/** Keyboard entry for the amount (a tablet with a keyboard, or tests); Escape closes a sheet. */
function onKeydown(e) {
  if (e.key === "Escape") closeSheets();
  if (openSheet()) return;
  if (currentView() !== "betting" || e.target.matches("input, select, textarea")) return;
  if (settling()) return;
  if (/^[0-9]$/.test(e.key)) onKey(e.key);
  else if (e.key === "Backspace") onKey("back");
  else if (e.key === "Enter") onRaise();
}

function bind() {
  bindChips();
  // a tap on the dimmed backdrop closes the sheet
  for (const el of root.querySelectorAll(".sheet")) {
    el.addEventListener("click", (e) => { if (e.target === el) closeSheets(); });
  }
  buildFelt();
  root.addEventListener("click", onClick, true);
  bindBoard();
  bindShowdown();
  const formats = root.querySelector('[data-field="formats"]');
  formats.addEventListener("input", onFormatInput);
  formats.addEventListener("change", onFormatInput);
  document.addEventListener("keydown", onKeydown);
}

// The parts of the screen, drawn in this order on every change.
onRender(renderFelt);
onRender(renderRecent);
onRender(renderPanel);
onRender(renderRunTwice);
onRender(renderNotices);
onRender(renderClock);
onRender(renderChips);
onRender(renderProcBody);
onRender(renderUndo);

bind();
socket.connect();
// For tests and debugging: the state of the page's protocol handling.
window.pokerfloorDealer = { tracker, socket, get model() { return state.model; }, get pending() { return state.pending; } };
