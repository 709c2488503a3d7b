// The floor dashboard's table details: what a row and a tile both say (facts), and the parts of a
// tile drawn from the table's newest whole snapshot: hand, street, pot, board(s), whom the table
// waits for, the last action, the players, and a stud hand's up cards.

import { chips, cardEl } from "../cards.js";
import { h, setText } from "../dom.js";
import { seatName, streetKey, describeEvent } from "../hand.js";
import { STUD_TEXTS, studDealText } from "../stud_texts.js";
import { i18n, t } from "./texts.js";


function showStud(snapshot, entry, f) {
  const st = snapshot.hand && snapshot.hand.state;
  if (!st || st.game !== "stud") return;
  const { el } = entry;
  const model = entry.full;
  const label = STUD_TEXTS[`street_${st.street}`];
  if (label) {
    f("street").textContent = label;
    f("street").hidden = false;
  }
  if (model.live && st.phase === "deal") {
    f("to-act").textContent = studDealText(st);
  }
  const groups = (st.players || []).filter((p) => !p.folded && p.up_cards.length).map((p) =>
    h("span", { class: "stud-up", dataset: { seat: p.seat }, style: "display:inline-flex;align-items:center;gap:2px;margin-right:10px" },
      h("span", { class: "t-seat", text: `${seatName(model, p.seat) || ""} (${p.seat})` }), ...p.up_cards.map(cardEl)));
  if ((st.community || []).length) groups.push(h("span", { class: "stud-community" }, ...st.community.map(cardEl)));
  const board = el.querySelector('[data-f="board"]');
  board.replaceChildren(...groups);
  board.hidden = !groups.length;
  board.style.flexWrap = "wrap";
}


/** What a row and a tile both say: the stakes, the street, whom the table waits for. */
export function facts(model) {
  const table = model.table;
  let stakes = `${chips(table.small_blind)}/${chips(table.big_blind)}`;
  if (table.ante) stakes += ` · ${chips(table.ante)}`;
  if (table.big_blind_ante) stakes += ` · ${t("bb_ante", { n: chips(table.big_blind_ante) })}`; // 004 #81
  if (table.straddle) stakes += ` · ${chips(table.straddle)}`;
  const sk = streetKey(model);
  // Whose move it is: a player, or the dealer (board cards, showdown).
  const actor = model.live && model.toAct !== null ? model.toAct : null;
  let waitingFor = t("nobody");
  if (actor !== null) waitingFor = `${seatName(model, actor) || ""} (${actor})`;
  else if (model.live && model.phase === "board") waitingFor = t(model.nextStreet ? `deal_${model.nextStreet}` : "deal_next");
  else if (model.live && model.phase === "showdown") waitingFor = t("street_showdown");
  const st = model.hand && model.hand.state;
  let street = sk ? t(sk) : t("nobody");
  if (st && st.game === "stud") {
    // Seven Card Stud (poker/hand/stud.py): the street instead of a board street
    if (STUD_TEXTS[`street_${st.street}`]) street = STUD_TEXTS[`street_${st.street}`];
    if (model.live && st.phase === "deal") waitingFor = studDealText(st);
  }
  return { stakes, sk, street, actor, waitingFor };
}


/** The parts of `entry`'s tile drawn from its whole snapshot (`entry.full`, `entry.raw`); `f(name)` finds
 * a `[data-f]` element of the tile; `actor`, `waitingFor`, `sk`: its facts(). */
export function drawDetails(entry, f, actor, waitingFor, sk) {
  const el = entry.el;
  const model = entry.full;
  const snapshot = entry.raw;
  f("hand").textContent = model.hand ? t("hand_n", { n: model.hand.number }) : t("no_hand");
  f("street").textContent = sk ? t(sk) : "";
  f("street").hidden = !sk;
  f("pot").textContent = model.hand && model.live ? chips(model.potTotal) : "–";
  const board = model.live || (model.hand && model.board.length) ? model.board.map(cardEl) : [];
  f("board").replaceChildren(...board);
  f("board").hidden = !board.length;
  // A double board or a hand run twice (000 Allgemein 14, Aktionen 8): the second board below the first.
  const board2 = model.board2 && (model.live || model.hand) ? model.board2.map(cardEl) : [];
  f("board2").replaceChildren(...board2);
  f("board2").hidden = !board2.length;
  f("to-act").textContent = waitingFor;
  el.classList.toggle("waiting", actor !== null);
  f("last").textContent = model.hand ? describeEvent(i18n, model, model.hand.last_event) : "";
  // The dealer took back an action at the table (poker/hand/undo.py): flagged on the tile and the map.
  const undone = Boolean(model.hand && snapshot.hand.state && (snapshot.hand.state.undone || []).length);
  el.classList.toggle("undone", undone);
  if (undone) f("last").append(" ", h("span", { class: "tag tag-undone", text: t("undone_flag") }));
  f("players").replaceChildren(...playerRows(model));
  showStud(snapshot, entry, f);
}

function playerRows(model) {
  const rows = [];
  const button = model.hand ? model.buttonSeat : model.next_button_seat;
  for (const seat of model.seats) {
    if (!seat.player) continue;
    const p = model.live ? model.bySeat.get(seat.number) : null;
    const classes = [];
    if (model.live && model.toAct === seat.number) classes.push("acting");
    if (p && p.folded) classes.push("folded");
    if (p && p.allIn) classes.push("all-in");
    if (model.live && !p) classes.push("out");
    if (seat.sitting_out) classes.push("out");
    const stack = p ? p.stack : seat.stack;
    const bet = p && p.bet ? chips(p.bet) : "";
    rows.push(
      h("tr", { class: classes.join(" "), dataset: { seat: seat.number } },
        h("td", { class: "t-seat" }, seat.number),
        h("td", {}, seat.player,
          seat.number === button ? h("span", { class: "tag tag-button", text: "D" }) : null,
          p && p.allIn ? h("span", { class: "tag tag-allin", text: t("all_in_tag") }) : null),
        h("td", { class: "num" }, chips(stack)),
        h("td", { class: "num t-bet" }, bet),
      ),
    );
  }
  return rows;
}

/** The "time" countdown on a detailed tile (the server's deadline, 004 #29 / 001 6.13): seconds left, red
 * in the last `countdown` seconds; hidden without a clock. */
export function tickClock(entry) {
  if (!entry.detailed) return;
  const el = entry.el.querySelector('[data-f="clock"]');
  if (!entry.clock) {
    el.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil((entry.clock.deadline - Date.now()) / 1000));
  el.hidden = false;
  setText(el, t("tile_time", { seat: entry.clock.seat, s: left }));
  el.classList.toggle("final", left <= entry.clock.countdown);
}
