// Floor procedures on the tablet (docs/protocol.md): actions out of turn,
// "time" and the clock, the betting view's indicator and last procedure
// event, held actions and restrictions on the seats, and the guided
// procedures of the table's house rules. `out_of_turn` and `call_time` go
// through send(); `time_expired` is a side request (the server checks it).

import { chips } from "../cards.js";
import { h } from "../dom.js";
import { seatName } from "../hand.js";
import { t, loc, citeLinks } from "./strings.js";
import { root, $, field, state, currentView, highestBet, rawState, render, showAlert, showSheet, closeSheets, tag } from "./state.js";
import { send, busy, request } from "./connection.js";
import { openFloor } from "./floorcall.js";

/** After every snapshot: forget readings of an older state, the ruling of
 * an older hand; run the clock. */
export function afterSnapshot() {
  const model = state.model;
  if (state.chipsRead && state.chipsRead.seq !== model.seq) state.chipsRead = null;
  if (state.ruling && model.hand && state.ruling.handId !== model.hand.id) state.ruling = null;
  if (state.ootSeat !== null && (currentView() !== "betting" || state.ootSeat === model.toAct)) closeSheets();
  const clock = currentClock();
  if (clock && !state.clockTimer) state.clockTimer = setInterval(renderClock, 200);
  if (!clock && state.clockTimer) {
    clearInterval(state.clockTimer);
    state.clockTimer = null;
  }
}

/** "call", "raise 40": an action of the engine in words. */
function actionWord(action) {
  const key = { fold: "fold", check: "check", call: "word_call", bet: "bet", raise: "raise", all_in: "all_in_tag" }[action.type];
  const word = key ? t(key) : action.type;
  return action.to ? `${word} ${chips(action.to)}` : word;
}

/** Seat tags: a held out-of-turn action ("OOT: call"), a restriction. */
export function procedureTags(n) {
  const st = rawState();
  const out = [];
  for (const held of st.held || []) {
    if (held.seat === n) {
      const el = tag(t("oot_tag", { action: actionWord(held.action) }), "tag-oot");
      el.dataset.oot = held.action.type;
      out.push(el);
    }
  }
  if (st.restricted && st.restricted[String(n)]) out.push(tag(t("no_raise_tag"), "tag-restricted"));
  return out;
}

// ---------------------------------------------------------------- out of turn

/** A tap on a seat during the betting round: that player acted out of turn. */
export function openOutOfTurn(n) {
  const model = state.model;
  const p = model.bySeat.get(n);
  if (!p || p.folded || p.allIn || n === model.toAct) return;
  state.ootSeat = n;
  field("oot-who").textContent = `${p.name} · ${t("seat_n", { n })}`;
  $('#sheet-oot input[name="oot_to"]').value = "";
  showSheet("sheet-oot");
  $("#sheet-oot").dataset.seat = n;
}

function sendOutOfTurn(kind) {
  if (state.ootSeat === null) return;
  const action = { type: kind, seat: state.ootSeat };
  if (kind === "raise") {
    const to = $('#sheet-oot input[name="oot_to"]').value;
    if (!/^\d+$/.test(to) || Number(to) <= 0) {
      showAlert(t("err_amount"), "");
      return;
    }
    action.type = highestBet() === 0 ? "bet" : "raise";
    action.to = Number(to);
  }
  closeSheets();
  send("out_of_turn", { action });
}

// ---------------------------------------------------------------- time

function currentClock() {
  const model = state.model;
  const clock = model && model.live ? rawState().clock : null;
  return clock && clock.deadline ? clock : null;
}

/** The countdown on the felt; at zero the tablet reports `time_expired` once. */
export function renderClock() {
  const el = field("clock");
  const clock = currentClock();
  if (!clock) {
    el.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil((Date.parse(clock.deadline) - Date.now()) / 1000));
  el.hidden = false;
  const who = seatName(state.model, clock.seat) || "";
  field("clock-label").textContent = t("time_on", { who, seat: clock.seat });
  field("clock-secs").textContent = String(left);
  el.classList.toggle("final", Boolean(clock.countdown) && left <= clock.countdown);
  el.classList.toggle("over", left === 0);
  el.dataset.seconds = left;
  if (left === 0 && state.expirySent !== clock.index) {
    state.expirySent = clock.index;
    request("time_expired", {}, null, (err) => {
      if (err.code === "clock_running") setTimeout(() => { if (state.expirySent === clock.index) state.expirySent = null; }, 1000);
      else if (err.code === "floor_decides") showAlert(t("time_floor_decides"), err.message || "");
      return true; // no_clock: another device reported it first
    });
  }
}

// ---------------------------------------------------------------- betting view: indicator, time, the last procedure event

export function renderBettingProcedures() {
  const model = state.model;
  const st = rawState();
  const ind = field("substantial");
  if (st.misdeal_possible) {
    ind.textContent = t("misdeal_possible");
    ind.dataset.state = "misdeal_possible";
  } else if (st.substantial_action) {
    ind.textContent = t("substantial_action");
    ind.dataset.state = "substantial";
  } else {
    ind.textContent = "";
    delete ind.dataset.state;
  }
  $('[data-action="time"]').hidden = Boolean(currentClock());
  const box = field("proc-event");
  const ev = model.hand && model.hand.last_event;
  const pl = (ev && ev.payload) || {};
  let title = null;
  if (ev && ev.kind === "out_of_turn" && pl.action) {
    title = t("oot_held", { who: seatName(model, pl.action.seat) || pl.action.seat, action: actionWord(pl.action) });
  } else if (ev && ev.kind === "note" && pl.type === "out_of_turn_released") {
    title = t("oot_released", { who: seatName(model, pl.seat) || pl.seat });
  } else if (ev && ev.kind === "action" && pl.out_of_turn !== undefined) {
    title = t("oot_binding", { who: seatName(model, pl.seat) || pl.seat, action: actionWord(pl) });
  } else if (ev && ev.kind === "action" && pl.cause === "time") {
    title = t("time_action", { who: seatName(model, pl.seat) || pl.seat, action: actionWord(pl) });
  } else if (ev && ev.kind === "note" && pl.type === "procedure") {
    title = t("proc_done", { summary: loc(pl, "summary") });
  } else if (ev && ev.kind === "start" && pl.format && (pl.format.dropped || []).length) {
    title = pl.format.dropped.map((d) => t("straddle_dropped", { seat: d.seat, kind: t(`straddle_${d.kind}`) })).join(" ");
  }
  box.hidden = !title;
  if (title) {
    box.dataset.kind = ev.kind;
    box.replaceChildren(h("strong", { text: title }), " ", h("span", { text: loc(pl, "explanation") || loc(pl, "instructions") }), " ",
      citeLinks(pl.citations || (pl.format && pl.format.citations)));
  }
}

// ---------------------------------------------------------------- guided procedures

/** Open the procedures sheet; with `start` (a procedure key) straight at that procedure's first
 * question once the list is in. */
function openProcedures(start = null) {
  state.procWalk = null;
  state.procStart = start;
  // fetched at every opening: the questions the hand answers (is the flop out, the actions
  // taken) are left out by the server for the hand as it stands now
  state.procData = null;
  showSheet("sheet-proc");
  field("proc-body").replaceChildren(h("p", { class: "hint", text: t("proc_loading") }));
  fetch(root.dataset.proceduresUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
    .then((data) => {
      state.procData = data;
      const p = state.procStart && data.procedures.find((x) => x.key === state.procStart);
      state.procStart = null;
      if (p) state.procWalk = { proc: p, nodes: [p.steps[p.first]], answers: [] };
      render();
    })
    .catch((err) => field("proc-body").replaceChildren(h("p", { class: "chips-error", text: `${t("err_generic")} (${err.message})` })));
}

/** The procedures sheet: the list, a question with its options, or the outcome. */
export function renderProcBody() {
  const body = field("proc-body");
  const procData = state.procData;
  if (!procData || $("#sheet-proc").hidden) return;
  const walk = state.procWalk;
  if (!walk) {
    field("proc-title").textContent = "";
    body.replaceChildren(h("div", { class: "proc-list" }, procData.procedures.length
      ? procData.procedures.map((p) => h("button", { type: "button", class: "btn btn-wide", dataset: { procedure: p.key },
        onclick: () => {
          state.procWalk = { proc: p, nodes: [p.steps[p.first]], answers: [] };
          render();
        } }, loc(p, "title")))
      : h("p", { class: "hint", text: t("proc_none") })));
    return;
  }
  const node = walk.nodes[walk.nodes.length - 1];
  field("proc-title").textContent = `· ${loc(walk.proc, "title")}`;
  if (node.kind === "step") {
    body.replaceChildren(
      h("p", { class: "proc-question", text: loc(node, "question") }),
      h("div", { class: "proc-options" }, node.options.map((o) => h("button", { type: "button", class: "btn btn-small btn-wide",
        dataset: { option: o.key }, onclick: () => {
          const current = state.procWalk;
          const next = o.next.step ? current.proc.steps[o.next.step] : o.next;
          current.nodes.push(next);
          current.answers.push(o.key);
          render();
        } }, loc(o, "label")))),
    );
    return;
  }
  const atTable = Boolean(node.dealer_finishes);
  body.replaceChildren(
    h("div", { class: "proc-outcome", dataset: { outcome: walk.proc.key, finish: atTable ? "dealer" : "floor" } },
      h("p", { class: "proc-summary", text: loc(node, "summary") }),
      loc(node, "instructions") ? h("p", { text: loc(node, "instructions") }) : null,
      citeLinks(node.citations),
      h("p", { class: "hint", text: atTable ? t("proc_dealer_finishes") : t("proc_floor_corrects") }),
      atTable
        ? h("button", { type: "button", class: "btn btn-go btn-wide", dataset: { action: "proc-finish" } }, t("proc_finish"))
        : null,
      h("button", { type: "button", class: atTable ? "btn btn-ghost btn-wide" : "btn btn-floor btn-wide",
        dataset: { action: "proc-floor" } }, t("proc_floor"))),
  );
}

/** The dealer finishes the outcome at the table (the house rules let him): the server records it
 * with the rule cited; one it leaves to the floor (floor_decides) opens the floor call instead. */
function procedureFinish() {
  const walk = state.procWalk;
  if (!walk) return;
  request("procedure", { procedure: walk.proc.key, answers: [...walk.answers] }, () => {
    state.procWalk = null;
    closeSheets();
  }, (err) => {
    if (err.code !== "floor_decides") return false;
    procedureToFloor();
    return true;
  });
}

/** The outcome of a guided procedure goes to the floor: only the floor corrects the hand. */
function procedureToFloor() {
  const walk = state.procWalk;
  if (!walk) return;
  const node = walk.nodes[walk.nodes.length - 1];
  openFloor({
    reason: walk.proc.key,
    details: {
      procedure: walk.proc.key,
      answers: [...walk.answers],
      outcome: { summary_en: node.summary_en, summary_de: node.summary_de, corrections: node.corrections,
        citations: node.citations },
    },
    note: loc(node, "summary"),
  });
}

/** Clicks of the sheets, out of turn, "time" and the guided procedures; true when handled here. */
export function onProcedureClick(b) {
  const walk = state.procWalk;
  switch (b.dataset.action) {
    case "sheet-close": closeSheets(); return true;
    case "procedures": openProcedures(); return true;
    case "floor-to-procedure": // from the floor sheet: an exposed card or a misdeal, finished at the table
      closeSheets();
      openProcedures(b.dataset.procedure || null);
      return true;
    case "proc-back":
      if (walk && walk.nodes.length > 1) {
        walk.nodes.pop();
        walk.answers.pop();
      } else state.procWalk = null;
      render();
      return true;
    case "proc-floor": procedureToFloor(); return true;
    case "proc-finish": procedureFinish(); return true;
    case "oot": sendOutOfTurn(b.dataset.oot); return true;
    case "time":
      if (!busy() && state.model && state.model.toAct) send("call_time", { seat: state.model.toAct });
      return true;
    default:
      return false;
  }
}
