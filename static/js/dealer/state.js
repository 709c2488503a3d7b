// The tablet's state: the page's elements, its constants and one `state`
// object that every part of the screen reads and writes. Nothing here
// imports another part of the tablet, so every module may import it.

import { h } from "../dom.js";

export const root = document.getElementById("dealer");
export const $ = (sel, el = root) => el.querySelector(sel);
export const field = (name) => $(`[data-field="${name}"]`);

export const KEY = "table"; // the SeqTracker key of the one table
export const RESEND_AFTER_MS = 6000;
/** After the player to act changes, taps on the action pad are ignored this long (a double tap): the
 * server's TABLET_DOUBLE_TAP_MS (pokerfloor/settings.py), 400 ms unless the room sets another. */
export function actorLockMs() {
  const ms = Number(root.dataset.doubleTapMs);
  return Number.isFinite(ms) && ms >= 0 ? ms : 400;
}
/** An ack may come just before its update (the update travels through the table's group): the tablet
 * waits this long for it before it asks for a snapshot. */
export const UPDATE_WAIT_MS = 800;
export const MAX_SEATS = Number(root.dataset.maxSeats) || 9;
export const RANKS = "AKQJT98765432";
export const SUITS = ["s", "h", "d", "c"];
/** Tournament tables deal standard hands only; a Seven Card Stud table has no bomb pot, flip, double board
 * or straddle (room.services.stakes.stud_spec). */
export const FORMATS_ON = root.dataset.formats !== "off" && root.dataset.game !== "stud";
export const IS_STUD_TABLE = root.dataset.game === "stud";

/** The next hand's format before "Start hand" (000 Allgemein 14, Aktionen 1).
 * live: the last position of the live straddles (0 none, 2 under the gun, 3 and the next player, ...). */
export function freshFormat() {
  return { kind: "standard", amount: "", double: false, live: 0, button: false, mississippi: null };
}

export const state = {
  // the table, the hand and the message in flight
  model: null, // hand.js readSnapshot()
  pending: null, // {message, timer}: the one mutating message in flight
  requests: new Map(), // client_id -> {type, onReply(msg), onError(msg) -> bool handled}: side requests

  // action pad and keypad
  lastActor: null, // "hand:street:seat" of the player to act: the keypad is prefilled once per player
  amount: "", // the keypad's digits
  amountFresh: true, // the amount is the prefilled minimum: the first digit typed replaces it
  lockUntil: 0, // Date.now() until which the action pad ignores taps (the player to act just changed)
  lockTimer: null,
  awaitSeq: null, // the seq of an acknowledged message whose update has not arrived yet
  awaitTimer: null, // asks for a snapshot when that update is UPDATE_WAIT_MS late

  // taking back a wrong entry
  undo: null, // {loading, actions: [...]} while the undo sheet is open

  // dealing the board and the showdown
  boardCards: [],
  showSeat: null,
  showCards: new Map(), // seat -> [cards] typed or picked for `show`
  awardPick: new Map(), // pot index -> Set(seat)
  awardPick2: new Map(), // pot index -> Set(seat): the winners of board 2 (double board, run twice)

  // special formats (000 Allgemein 14, Aktionen 1 and 8)
  nextFormat: freshFormat(),
  straddleKey: null, // what the straddle controls were last built for
  ritPick: null, // {pots: Set(index), agreed: Set(seat), floor: bool} while the run-it-twice sheet is open

  // floor call, ruling, instructions
  floorCalls: new Map(), // floor call id -> call dict (open or answered)
  floorDetails: null, // details sent with the next floor call
  ruling: null, // {ruling, handId}
  instructions: new Map(), // instruction id -> message

  // chips reader
  chipCounts: new Map(), // denomination -> count
  chipsRead: null, // {seq, result, observed}

  // out of turn, clock, guided procedures
  ootSeat: null,
  clockTimer: null,
  expirySent: null, // index of the clock event whose expiry was reported
  procData: null, // {profile, procedures} from /tables/<id>/procedures/
  procWalk: null, // {proc, nodes: [node...], answers: [key...]}
  procStart: null, // a procedure to open at once (from the floor sheet), until the list is in

  // absent players at tournament tables: undefined not asked yet; null no tournament table;
  // else {seats: Set, labels, rule}. Formats are off exactly at tournament tables.
  absent: root.dataset.formats === "off" ? undefined : null,
};

// ---------------------------------------------------------------- render

const renderers = [];

/** Add a part of the screen to render(), in the order given. */
export function onRender(fn) {
  renderers.push(fn);
}

/** Draw the whole screen from `state` (nothing before the first snapshot). */
export function render() {
  if (!state.model) return;
  for (const fn of renderers) fn();
}

// ---------------------------------------------------------------- small shared reads

/** The panel shown: "idle" | "betting" | "board" | "showdown". */
export function currentView() {
  const model = state.model;
  if (!model || !model.live) return "idle";
  if (model.phase === "board") return "board";
  if (model.phase === "showdown") return "showdown";
  if (model.phase === "betting") return "betting";
  return "idle";
}

/** The highest bet on this street (0: the next chips are a bet, not a raise). */
export function highestBet() {
  return state.model.players.reduce((m, p) => Math.max(m, p.bet || 0), 0);
}

/** The engine's HandState.to_dict() of the hand, {} between hands. */
export function rawState() {
  const model = state.model;
  return (model && model.hand && model.hand.state) || {};
}

export function setToggle(b, on) {
  b.classList.toggle("on", on);
  b.setAttribute("aria-pressed", on ? "true" : "false");
}

// ---------------------------------------------------------------- alert

export function showAlert(title, detail) {
  const box = $("#alert");
  field("alert-title").textContent = title;
  field("alert-detail").textContent = detail || "";
  box.hidden = false;
}

export function hideAlert() {
  $("#alert").hidden = true;
}

// ---------------------------------------------------------------- sheets (dialogs)

export function openSheet() {
  return root.querySelector(".sheet:not([hidden])");
}

export function showSheet(id) {
  closeSheets(id);
  const el = $(`#${id}`);
  el.hidden = false;
  const first = el.querySelector("select, input, button");
  if (first) first.focus();
}

export function closeSheets(except = null) {
  for (const el of root.querySelectorAll(".sheet")) if (el.id !== except) el.hidden = true;
  if (except !== "sheet-oot") state.ootSeat = null;
  if (except !== "sheet-rit") state.ritPick = null;
}

/** A small label on a seat ("D", "to act", "all in"...): ``tag ${cls}`` classes. */
export function tag(text, cls) {
  return h("span", { class: `tag ${cls}`, text });
}
