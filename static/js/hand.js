// Reading a table snapshot (docs/protocol.md) into one flat view model that
// the dealer tablet and the floor tiles both render. All knowledge of the
// engine's HandState.to_dict() shape lives here.
//
// The functions that write text take an `i18n` ({t, has}: ./i18n.js Texts)
// and ask it for the keys of HAND_TEXTS below.

import { gettext, interpolate } from "./i18n.js";

/** The texts the functions below ask for (streetKey's street names, describeEvent, potLabel, formatLabel),
 * translated by Django's JavaScriptCatalog; a page spreads them into its own Texts. */
export const HAND_TEXTS = {
  seat_n: gettext("Seat %(n)s"),
  street_preflop: gettext("Preflop"),
  street_flop: gettext("Flop"),
  street_turn: gettext("Turn"),
  street_river: gettext("River"),
  street_showdown: gettext("Showdown"),
  street_complete: gettext("Hand over"),
  pot_main: gettext("Main pot"),
  pot_side: gettext("Side pot %(n)s"),
  act_start: gettext("Hand #%(n)s started, button seat %(seat)s"),
  act_start_format: gettext("Hand #%(n)s started (%(format)s), button seat %(seat)s"),
  act_fold: gettext("%(who)s folds"),
  act_check: gettext("%(who)s checks"),
  act_call: gettext("%(who)s calls"),
  act_bet: gettext("%(who)s bets %(to)s"),
  act_raise: gettext("%(who)s raises to %(to)s"),
  act_all_in: gettext("%(who)s is all-in"),
  act_hole: gettext("%(who)s: hole cards entered"),
  act_board: gettext("Board: %(cards)s"),
  act_board_n: gettext("Board %(b)s: %(cards)s"),
  act_board_blank: gettext("Next street dealt"),
  act_run_twice: gettext("Run it twice, agreed by seats %(seats)s"),
  act_show: gettext("%(who)s shows %(cards)s"),
  act_muck: gettext("%(who)s mucks"),
  act_award: gettext("%(pot)s to %(winners)s"),
  act_other: "%(kind)s", // the event kind as it is (kept for pages that spread these texts)
  act_unknown: gettext("Entry recorded"),
  act_bring_in: gettext("%(who)s brings in"),
  act_complete: gettext("%(who)s completes to %(to)s"),
  act_deal: gettext("Next street dealt"),
  act_kill: gettext("%(who)s: hand dead"),
  act_time_out: gettext("%(action)s: time ran out"),
  act_time_called: gettext("Time called on %(who)s"),
  act_out_of_turn: gettext("Out of turn: %(action)s (held)"),
  act_oot_released: gettext("%(who)s: the out-of-turn action does not bind."),
  act_undo: gettext("Taken back by the dealer: %(action)s"),
  act_fix_void: gettext("Floor: an action is voided"),
  act_fix_replace: gettext("Floor: corrected to %(action)s"),
  act_fix_adjust: gettext("Floor: amount corrected to %(to)s"),
  act_fix_return: gettext("Floor: the action goes back to the skipped player"),
  act_fix_kill: gettext("Floor: %(who)s's hand is dead"),
  act_fix_award: gettext("Floor: the pot goes to %(winners)s"),
  act_fix_misdeal: gettext("Floor: misdeal, the hand is dealt again"),
  act_fix_penalty: gettext("Floor: penalty for %(who)s"),
  fmt_bomb_pot: gettext("Bomb pot %(n)s"),
  fmt_flip: gettext("Flip %(n)s"),
  fmt_double: gettext("Double board"),
  fmt_live: gettext("Live straddle seat %(seat)s"),
  fmt_button: gettext("Button straddle seat %(seat)s"),
  fmt_mississippi: gettext("Mississippi straddle seat %(seat)s"),
  fmt_run_twice: gettext("Run twice"),
};

/** Hole cards per player by game (poker/hand/spec.py HOLE_CARDS). */
export const HOLE_CARDS = { nlhe: 2, limit_holdem: 2, plo: 4 };

/** Card codes from a string ("AsKs"), a list (["As","Ks"]) or null. */
export function cardList(value) {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((v) => cardList(v));
  const s = String(value).replace(/[\s,]/g, "");
  const out = [];
  for (let i = 0; i + 1 < s.length; i += 2) out.push(s.slice(i, i + 2));
  return out;
}

/**
 * The view model of a table snapshot.
 *
 * Returns {
 *   seq, table, seats (table seats), next_button_seat,
 *   hand: null | {id, number, status, last_event},
 *   live: bool (a hand is being played),
 *   phase, street, toAct (seat|null), legal (object|null),
 *   pots: [{amount, eligible: [seat...]}], potTotal,
 *   board: [cards], showdownOrder: [seat...], awards: [{pot, seat, amount}],
 *   board2: null | [cards] (double board, or once run twice), nextBoard: 1|2|null,
 *   runTwicePots: null | [pot index...], runTwicePossible: bool,
 *   format: {kind: "standard"|"bomb_pot"|"flip", amount, double_board, straddles: [{kind, seat, amount}]},
 *   boardResults: [{pot, amount, boards: [{board, winners: [seat...], chips, hand}]}],
 *   players: [{seat, name, stack, bet, folded, allIn, cards, shown, mucked, button, blind}],
 *   holeCount: hole cards per player (2, Omaha 4: a show takes that many),
 *   bySeat: Map seat -> player
 * }
 */
export function readSnapshot(snapshot) {
  const table = snapshot.table || {};
  const hand = snapshot.hand || null;
  const st = (hand && hand.state) || null;
  const model = {
    seq: snapshot.seq,
    table,
    seats: snapshot.seats || [],
    next_button_seat: snapshot.next_button_seat ?? null,
    hand,
    live: Boolean(hand && hand.status === "live"),
    phase: null,
    street: null,
    toAct: null,
    legal: null,
    pots: [],
    potTotal: 0,
    board: [],
    board2: null,
    nextBoard: null,
    runTwicePots: null,
    runTwicePossible: false,
    format: null,
    boardResults: [],
    showdownOrder: [],
    awards: [],
    players: [],
    holeCount: 2,
    bySeat: new Map(),
    buttonSeat: table.button_seat ?? null,
  };
  if (!st) return model;

  // HandState.to_dict(): "players" has one dict per position (0 = small
  // blind … last = button; heads-up 0 = big blind, 1 = button).
  const complete = st.phase === "complete";
  model.phase = st.phase ?? null;
  model.street = st.street ?? null;
  model.nextStreet = st.next_street ?? null;
  model.toAct = st.to_act_seat ?? null;
  model.legal = st.legal ?? null;
  model.board = cardList(st.board);
  model.holeCount = HOLE_CARDS[st.game] || 2; // a show takes this many cards (Omaha four)
  // Special formats (000 Allgemein 14, Aktionen 1 and 8): format_view in tables/services.
  model.board2 = st.board2 === null || st.board2 === undefined ? null : cardList(st.board2);
  model.nextBoard = st.next_board ?? null;
  model.runTwicePots = st.run_twice_pots ?? null;
  model.runTwicePossible = Boolean(st.run_twice_possible);
  model.format = st.format || null;
  model.boardResults = st.board_results || [];
  model.buttonSeat = st.button_seat ?? model.buttonSeat;
  model.pots = (st.pots || []).map((p) => ({ amount: p.amount ?? 0, eligible: [...(p.eligible_seats || [])].sort((a, b) => a - b) }));
  model.potTotal = st.total_pot ?? model.pots.reduce((sum, p) => sum + (p.amount || 0), 0);
  model.showdownOrder = st.showdown_order_seats || [];
  model.awards = (st.awards || []).map((a) => ({ pot: a.pot ?? 0, seat: a.seat, amount: a.amount ?? 0 }));

  const list = st.players || [];
  const n = list.length;
  // A bomb pot or a flip has no blinds; straddlers are tagged (000 Allgemein 14, Aktionen 1).
  const noBlinds = Boolean(model.format && model.format.kind !== "standard");
  const straddlers = new Set(((model.format && model.format.straddles) || []).map((s) => s.seat));
  list.forEach((raw, pos) => {
    const player = {
      pos,
      seat: raw.seat,
      name: raw.player ?? "",
      startingStack: raw.starting_stack ?? null,
      stack: raw.stack ?? 0,
      bet: complete ? 0 : raw.bet ?? 0,
      folded: Boolean(raw.folded),
      allIn: Boolean(raw.all_in),
      cards: cardList(raw.hole_cards),
      shown: Boolean(raw.shown),
      mucked: Boolean(raw.mucked),
      button: raw.seat === model.buttonSeat,
      blind: noBlinds ? null : straddlers.has(raw.seat) ? "STR"
        : n === 2 ? (pos === 1 ? "SB" : "BB") : pos === 0 ? "SB" : pos === 1 ? "BB" : null,
    };
    model.players.push(player);
    model.bySeat.set(player.seat, player);
  });
  return model;
}

/** Display name for a seat: "Anna (3)" from the hand, else the table seats. */
export function seatName(model, seat) {
  const p = model.bySeat.get(seat);
  if (p && p.name) return p.name;
  const s = model.seats.find((x) => x.number === seat);
  return s && s.player ? s.player : null;
}

/** The translation key of a street/phase. */
export function streetKey(model) {
  if (!model.hand) return null;
  if (model.phase === "complete" || model.hand.status === "complete") return "street_complete";
  if (model.phase === "showdown") return "street_showdown";
  const s = model.phase === "board" && model.nextStreet ? model.nextStreet : model.street;
  const names = ["preflop", "flop", "turn", "river"];
  if (typeof s === "number") return `street_${names[s] || "river"}`;
  if (typeof s === "string") return `street_${s.toLowerCase()}`;
  return null;
}

/** The pot indexes played on two boards: all with a double board, the agreed ones when run twice. */
export function potOnTwoBoards(model, index) {
  if (!model.board2) return false;
  return model.runTwicePots === null || model.runTwicePots.includes(index);
}

/** A short label of a hand's format ("Bomb pot 20 · Double board"), "" for a standard hand. */
export function formatLabel(i18n, format, runTwicePots = null) {
  const parts = [];
  if (format) {
    if (format.kind === "bomb_pot") parts.push(text(i18n, "fmt_bomb_pot", { n: format.amount }));
    if (format.kind === "flip") parts.push(text(i18n, "fmt_flip", { n: format.amount }));
    if (format.double_board) parts.push(text(i18n, "fmt_double"));
    for (const s of format.straddles || []) parts.push(text(i18n, `fmt_${s.kind}`, { seat: s.seat, n: s.amount }));
  }
  if (runTwicePots) parts.push(text(i18n, "fmt_run_twice"));
  return parts.join(" · ");
}

/** `i18n`'s text of `key`, or HAND_TEXTS' own when the page's texts lack it. */
function text(i18n, key, params = {}) {
  if (i18n.has && !i18n.has(key) && key in HAND_TEXTS) return interpolate(HAND_TEXTS[key], params);
  return i18n.t(key, params);
}

/** Pot label: "Main pot" or "Side pot n". */
export function potLabel(i18n, index) {
  return index === 0 ? text(i18n, "pot_main") : text(i18n, "pot_side", { n: index });
}

/** One line describing a hand event (the floor's "last action", the tablet's history): every kind the
 * services append in words (tables/handwords.py says the same on the pages), never its raw name. A page
 * whose `i18n` lacks a key of HAND_TEXTS gets HAND_TEXTS' own translation. */
export function describeEvent(i18n, model, event) {
  if (!event) return "";
  const p = event.payload || {};
  const t = (key, params = {}) => text(i18n, key, params);
  const who = (seat) => {
    const name = seatName(model, seat);
    return name ? `${name} (${seat})` : t("seat_n", { n: seat });
  };
  const action = (a) => describeEvent(i18n, model, { kind: "action", payload: a || {} });
  if (event.kind === "start") {
    const n = model.hand ? model.hand.number : "";
    if (p.format) return t("act_start_format", { n, seat: p.button ?? "", format: formatLabel(i18n, p.format) });
    return t("act_start", { n, seat: p.button ?? "" });
  }
  if (event.kind === "clock") return t("act_time_called", { who: who(p.seat) });
  if (event.kind === "out_of_turn") return t("act_out_of_turn", { action: action(p.action) });
  if (event.kind === "note") {
    return p.type === "out_of_turn_released" ? t("act_oot_released", { who: who(p.seat) }) : t("act_unknown");
  }
  if (event.kind === "correction") {
    switch (p.type) {
      case "undo": return t("act_undo", { action: action(p.action) });
      case "void": return t("act_fix_void");
      case "replace": return t("act_fix_replace", { action: action(p.action) });
      case "adjust": return t("act_fix_adjust", { to: p.to });
      case "return_action": return t("act_fix_return");
      case "kill": return t("act_fix_kill", { who: who(p.seat) });
      case "award": return t("act_fix_award", { winners: (p.seats || []).map(who).join(", ") });
      case "misdeal": return t("act_fix_misdeal");
      case "penalty": return t("act_fix_penalty", { who: who(p.seat) });
      default: return t("act_unknown");
    }
  }
  if (p.cause === "time") return t("act_time_out", { action: action({ ...p, cause: undefined }) });
  switch (p.type) {
    case "fold":
    case "check":
    case "call":
    case "all_in":
    case "muck":
    case "hole":
    case "bring_in":
    case "kill":
      return t(`act_${p.type}`, { who: who(p.seat) });
    case "bet":
    case "raise":
    case "complete":
      return t(`act_${p.type}`, { who: who(p.seat), to: p.to });
    case "deal":
      return t("act_deal");
    case "board":
      if (p.board && p.cards) return t("act_board_n", { b: p.board, cards: cardList(p.cards).join(" ") });
      return p.cards ? t("act_board", { cards: cardList(p.cards).join(" ") }) : t("act_board_blank");
    case "run_it_twice":
      return t("act_run_twice", { seats: (p.agreed || []).join(", ") });
    case "show":
      return t("act_show", { who: who(p.seat), cards: cardList(p.cards).join(" ") });
    case "award":
      return t("act_award", {
        pot: potLabel(i18n, p.pot || 0),
        winners: (p.winners || []).map(who).join(", "),
      });
    default:
      return t("act_unknown");
  }
}
