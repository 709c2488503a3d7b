// Taking back a wrong entry: the "Undo" button opens a sheet with the hand's
// last actions (undo_options, newest first); the one the house rules still
// let the dealer take back has an "Undo" button, the others say why not
// (poker/hand/undo.py: until the next player acts or a card is dealt;
// 000 Aktionen 2, 002 #5/#10, 004 #49/#52). The undo is recorded as a
// correction event and flagged on the floor dashboard.

import { h } from "../dom.js";
import { describeEvent } from "../hand.js";
import { t, i18n, loc, citeLinks } from "./strings.js";
import { field, state, render, showSheet, closeSheets } from "./state.js";
import { send, request, busy } from "./connection.js";

/** Open the sheet and ask the server for the hand's actions. */
export function openUndo() {
  state.undo = { loading: true, actions: [] };
  showSheet("sheet-undo");
  const id = request("undo_options", {}, (msg) => {
    if (state.undo) state.undo = { loading: false, actions: msg.actions || [] };
  }, () => {
    state.undo = null;
    closeSheets();
    return false;
  });
  if (id === null) {
    state.undo = null;
    closeSheets();
  }
  render();
}

/** Taps inside the sheet and on the header's Undo button; true when handled here. */
export function onUndoClick(b) {
  if (b.dataset.action === "undo-open") {
    if (!busy()) openUndo();
    return true;
  }
  if (b.dataset.action === "undo-send") {
    if (b.disabled || busy()) return true;
    send("undo", { index: Number(b.dataset.index) });
    state.undo = null;
    closeSheets();
    return true;
  }
  return false;
}

/** The sheet's list and the header button. */
export function renderUndo() {
  const model = state.model;
  const open = field("undo-open");
  const hand = model && model.hand;
  open.hidden = !hand || !["live", "complete"].includes(hand.status);
  const list = field("undo-list");
  if (!state.undo) {
    list.replaceChildren();
    return;
  }
  if (state.undo.loading) {
    list.replaceChildren(h("li", { class: "hint", text: t("proc_loading") }));
    return;
  }
  if (!state.undo.actions.length) {
    list.replaceChildren(h("li", { class: "hint", text: t("undo_nothing") }));
    return;
  }
  list.replaceChildren(
    ...state.undo.actions.map((a) => {
      const text = describeEvent(i18n, model, { kind: "action", payload: a.action || {} });
      const street = a.street ? t(`street_${a.street}`) : "";
      return h(
        "li",
        { class: `undo-row${a.allowed ? " ok" : ""}`, dataset: { index: a.index } },
        h("div", { class: "undo-what" }, h("span", { class: "muted", text: street }), " ", h("b", { text })),
        a.allowed
          ? h("button", { type: "button", class: "btn btn-undo", dataset: { action: "undo-send", index: a.index },
            text: t("undo_this") })
          : h("p", { class: "undo-why" }, loc(a, "reason"), " ", citeLinks(a.citations)),
        a.allowed ? h("p", { class: "undo-why" }, t("undo_cites"), " ", citeLinks(a.citations)) : null,
      );
    }),
  );
}
