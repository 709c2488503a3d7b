// The socket of the tablet: /ws/tables/<id>/dealer/ (docs/protocol.md).
//
// Every mutating message carries a fresh client_id and the last seq seen as
// expected_seq. One message is in flight at a time; it is re-sent with the
// same client_id after a reconnect (the server applies it once). An update
// with a seq gap, a reconnect or a `stale` error leads to a snapshot request.
// Side requests (floor call, chips reading, time expired) carry their own
// client_id and are not retried.

import { LiveSocket, SeqTracker, newClientId } from "../socket.js";
import { readSnapshot } from "../hand.js";
import { t, has } from "./strings.js";
import { root, field, state, KEY, RESEND_AFTER_MS, actorLockMs, UPDATE_WAIT_MS, render, showAlert, hideAlert, closeSheets } from "./state.js";

export const tracker = new SeqTracker();

/** What the other parts of the tablet do on socket events; main.js registers them, so this module
 * imports none of those parts. message: (msg) => true when handled; snapshot: after a full snapshot;
 * handStarted: after start_hand is acknowledged; applied: after any snapshot or update is taken. */
const listeners = { message: [], snapshot: [], handStarted: [], applied: [] };

export function on(event, fn) {
  listeners[event].push(fn);
}

function emit(event) {
  for (const fn of listeners[event]) fn();
}

export const socket = new LiveSocket(root.dataset.wsPath, {
  onMessage: handleMessage,
  onStatus: (status) => {
    const el = field("conn");
    el.dataset.state = status;
    el.textContent = t(`conn_${status}`);
    root.dataset.conn = status;
    render();
  },
});

/** True while no mutating message can be sent: one in flight, its update not yet shown (the ack came
 * first), or offline. */
export function busy() {
  return Boolean(state.pending) || awaitingUpdate() || !socket.isOpen;
}

/** The server acknowledged a message whose update has not arrived yet: the screen still shows the
 * table before it, so a tap now would be meant for a state that is gone. */
function awaitingUpdate() {
  return state.awaitSeq !== null && (tracker.get(KEY) ?? -1) < state.awaitSeq;
}

/** True for a short while after the player to act changed: a second tap of a double tap is dropped
 * (it was meant for the player before), and the action pad shows it (class `settling`). */
export function settling() {
  return Date.now() < state.lockUntil;
}

function lockPad() {
  const lockMs = actorLockMs();
  state.lockUntil = Date.now() + lockMs;
  root.classList.add("settling");
  clearTimeout(state.lockTimer);
  state.lockTimer = setTimeout(() => {
    root.classList.remove("settling");
    render();
  }, lockMs);
}

function requestSnapshot() {
  socket.send({ type: "snapshot" });
}

function handleMessage(msg) {
  if (handleReply(msg) || listeners.message.some((fn) => fn(msg))) return;
  const pending = state.pending;
  switch (msg.type) {
    case "snapshot":
      tracker.reset(KEY, msg.seq);
      apply(msg.snapshot);
      if (state.pending) transmit(state.pending.message); // retry after a reconnect: applied once by client_id
      emit("snapshot");
      break;
    case "update": {
      const verdict = tracker.observe(KEY, msg.seq);
      if (verdict === "old") return;
      apply(msg.snapshot); // an update carries the whole snapshot, so show it at once…
      if (verdict === "gap") requestSnapshot(); // …and, as the protocol asks, resync after a gap
      break;
    }
    case "ack":
      if (pending && pending.message.client_id === msg.client_id) {
        if (pending.message.type === "start_hand") emit("handStarted");
        if (typeof msg.seq === "number" && (tracker.get(KEY) ?? -1) < msg.seq) {
          state.awaitSeq = msg.seq; // the pad stays locked until the update shows the new state
          clearTimeout(state.awaitTimer); // the update is on its way; a snapshot only when it is late
          state.awaitTimer = setTimeout(() => awaitingUpdate() && requestSnapshot(), UPDATE_WAIT_MS);
        }
        settle();
        hideAlert();
      }
      break;
    case "error":
      if (msg.code === "busy" && pending && pending.message.client_id === msg.client_id && resendBusy(pending, msg)) break;
      if (pending && (msg.client_id === null || pending.message.client_id === msg.client_id)) settle();
      if (msg.code === "stale") {
        requestSnapshot();
        showAlert(t("err_stale"), "");
      } else {
        showAlert(errorText(msg), msg.message || msg.code);
      }
      break;
    default:
      break;
  }
}

/** The reply to a side request (see request()); true when handled here. */
function handleReply(msg) {
  const req = msg.client_id ? state.requests.get(msg.client_id) : null;
  if (req && ["ack", "interpretation", "undo_options", "error"].includes(msg.type)) {
    state.requests.delete(msg.client_id);
    if (msg.type === "error") {
      if (!(req.onError && req.onError(msg))) showAlert(errorText(msg), msg.message || msg.code);
    } else if (req.onReply) {
      req.onReply(msg);
    }
    render();
    return true;
  }
  return msg.type === "interpretation"; // a late reply to a request already given up
}

/** The translated text of an error message's code. */
export function errorText(msg) {
  const key = `err_${msg.code}`;
  return has(key) ? t(key) : t("err_generic");
}

/** How often a message answered `busy` is sent again (with its client_id: applied once) before the tablet
 * gives up and says so. */
const BUSY_RESENDS = 4;

/** Another step holds the table (docs/protocol.md `busy`): send the pending message again after the
 * server's `retry_after_ms`, and say so; false once it was sent again BUSY_RESENDS times. */
function resendBusy(pending, msg) {
  const tries = (pending.busyTries || 0) + 1;
  if (tries > BUSY_RESENDS) return false;
  clearTimeout(pending.timer);
  pending.busyTries = tries;
  showAlert(t("busy_resent"), "");
  const delay = Math.max(100, Math.min(5000, Number(msg.retry_after_ms) || 500)) * tries;
  pending.timer = setTimeout(() => {
    if (state.pending === pending) transmit(pending.message, tries);
  }, delay);
  return true;
}

function settle() {
  if (state.pending) clearTimeout(state.pending.timer);
  state.pending = null;
  root.classList.remove("busy");
  render();
}

function transmit(message, busyTries = 0) {
  if (state.pending) clearTimeout(state.pending.timer);
  state.pending = {
    message,
    busyTries,
    timer: setTimeout(() => state.pending && transmit(state.pending.message, state.pending.busyTries), RESEND_AFTER_MS),
  };
  root.classList.add("busy");
  socket.send(message);
}

/** Send one mutating message (`start_hand`, `action`, `out_of_turn`, `call_time`, `run_it_twice`). */
export function send(type, extra = {}) {
  if (state.pending) return;
  if (!socket.isOpen) {
    showAlert(t("err_offline"), "");
    return;
  }
  transmit({ type, client_id: newClientId(), expected_seq: tracker.get(KEY), ...extra });
  render();
}

/** Send one hand action ({type, seat, ...}). */
export function act(action) {
  send("action", { action });
}

/** A side request with its own client_id; the reply goes to onReply. Returns the client_id, null when offline. */
export function request(type, extra, onReply, onError) {
  if (!socket.isOpen) {
    showAlert(t("err_offline"), "");
    return null;
  }
  const client_id = newClientId();
  state.requests.set(client_id, { type, onReply, onError });
  socket.send({ type, client_id, ...extra });
  return client_id;
}

/** Take a snapshot: the view model, and what of the local input no longer applies. */
function apply(snapshot) {
  const boardKey = (m) => (m && m.hand ? `${m.hand.id}:${m.phase}:${m.board.length}:${m.board2 ? m.board2.length : "-"}` : null);
  const previousHand = boardKey(state.model);
  state.model = readSnapshot(snapshot);
  const model = state.model;
  emit("applied");
  if (state.ritPick && !model.runTwicePossible) closeSheets();
  const currentHand = boardKey(model);
  if (previousHand !== currentHand) {
    state.boardCards = [];
    field("board-text").value = "";
  }
  if (!model.live || model.phase !== "showdown") {
    state.showSeat = null;
    state.showCards.clear();
    state.awardPick.clear();
    state.awardPick2.clear();
  }
  if (state.awaitSeq !== null && (model.seq ?? -1) >= state.awaitSeq) state.awaitSeq = null;
  const actorKey = model.live ? `${model.hand.id}:${model.street}:${model.toAct}` : null;
  if (actorKey !== state.lastActor) {
    if (state.lastActor !== null && model.toAct !== null) lockPad();
    state.lastActor = actorKey;
    // the keypad shows the minimum as a suggestion: the first digit typed replaces it
    state.amount = model.legal && model.legal.can_bet_or_raise ? String(model.legal.min_raise_to ?? "") : "";
    state.amountFresh = true;
  }
  render();
}
