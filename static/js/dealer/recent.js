// The hand's last actions on the felt ("Ben (2) raises to 340"), newest first, so that a mis-tap is
// seen at once (and taken back with Undo). Each snapshot's last event is added once (by its seq); a
// new hand starts the list afresh. After a reconnect the list starts again from the last event.

import { h } from "../dom.js";
import { describeEvent } from "../hand.js";
import { i18n } from "./strings.js";
import { field, state } from "./state.js";

/** How many of the hand's last events the felt shows. */
const SHOWN = 3;
/** The events shown: actions and the corrections of the table (an undo, a held action). */
const KINDS = new Set(["action", "out_of_turn", "correction", "clock"]);

const recent = { handId: null, seqs: new Set(), lines: [] };

/** After each snapshot: remember the hand's last event in words (called on "applied"). */
export function noteLastEvent() {
  const model = state.model;
  const hand = model && model.hand;
  if (!hand) return;
  if (recent.handId !== hand.id) {
    recent.handId = hand.id;
    recent.seqs = new Set();
    recent.lines = [];
  }
  const ev = hand.last_event;
  if (!ev || !KINDS.has(ev.kind) || recent.seqs.has(ev.seq)) return;
  recent.seqs.add(ev.seq);
  recent.lines.unshift({ seq: ev.seq, text: describeEvent(i18n, model, ev) });
  recent.lines.length = Math.min(recent.lines.length, SHOWN);
}

/** The list on the felt: the newest line first and strongest; nothing between hands. */
export function renderRecent() {
  const model = state.model;
  const el = field("recent");
  const live = Boolean(model && model.live && model.hand && model.hand.id === recent.handId);
  el.hidden = !live || !recent.lines.length;
  el.replaceChildren(...(live ? recent.lines : []).map((line, i) =>
    h("li", { class: i ? "" : "newest", dataset: { seq: line.seq }, text: line.text })));
}
