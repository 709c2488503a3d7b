// The tablet's texts, translated by Django's JavaScriptCatalog (/jsi18n/,
// loaded by a classic <script> before the modules): gettext() marks each
// string for `makemessages -d djangojs`, interpolate() fills %(name)s.
//
// The keys are the ones the shared helpers of ../hand.js ask for
// (i18n.t("pot_main")): `i18n` here is a ../i18n.js Texts.

import { h } from "../dom.js";
import { LANG, Texts, gettext, pgettext } from "../i18n.js";
import { HAND_TEXTS } from "../hand.js";

/** The page's language ("de", "en"): picks the side of the server's bilingual texts. */
export { LANG };

const STRINGS = {
  ...HAND_TEXTS, // the hand's words (streets, pots, events) as the floor tiles say them
  conn_connecting: gettext("Connecting…"),
  conn_open: gettext("Live"),
  conn_closed: gettext("Reconnecting…"),
  conn_forbidden: gettext("No access"),
  conn_not_found: gettext("No such table"),
  empty_seat: gettext("empty"),
  sitting_out: gettext("sitting out"),
  folded: gettext("folded"),
  all_in_tag: gettext("all-in"),
  to_act: gettext("to act"),
  hand_n: gettext("Hand #%(n)s"),
  no_hand: gettext("No hand in progress"),
  pot_total: gettext("Pot"),
  eligible: gettext("Seats %(seats)s"),
  act_other: "%(kind)s", // the event kind as it is
  wins: gettext("%(who)s wins %(amount)s"),
  wins_pot: gettext("%(who)s wins %(amount)s (%(pot)s)"),
  err_generic: gettext("Refused"),
  busy_resent: gettext("The table is busy with another step: sent again…"),
  err_busy: gettext("The table stayed busy with another step: nothing was recorded. Enter the action again."),
  err_stale: gettext("The table changed on another device. The screen is up to date again: check and enter the action once more."),
  err_not_your_turn: gettext("Not this player's turn"),
  err_below_minimum_raise: gettext("Below the minimum raise"),
  err_below_minimum_bet: gettext("Below the minimum bet"),
  err_above_stack: gettext("More than the player's stack"),
  err_cannot_check: gettext("Cannot check: there is a bet to call"),
  err_nothing_to_call: gettext("Nothing to call"),
  err_bad_cards: gettext("Cards not recognised (use e.g. Jc3d5c)"),
  err_duplicate_card: gettext("That card is already in play"),
  err_wrong_phase: gettext("Not possible at this point of the hand"),
  err_betting_closed: gettext("Betting on this street is closed"),
  err_not_betting_round: gettext("Not a betting round"),
  err_hand_over: gettext("The hand is over"),
  err_bad_award: gettext("That player cannot win this pot"),
  err_no_hand: gettext("No hand in progress"),
  err_hand_in_progress: gettext("Finish the current hand first"),
  err_not_enough_players: gettext("At least two players with chips are needed"),
  err_table_closed: gettext("The table is closed"),
  err_conflict: gettext("Another device wrote at the same moment: try again"),
  err_invalid: gettext("The app sent a malformed message"),
  err_offline: gettext("Not connected: the action was not sent"),
  err_amount: gettext("Enter an amount first"),
  fold: gettext("Fold"),
  check: gettext("Check"),
  call_n: gettext("Call %(n)s"),
  call_all_in_n: gettext("Call: all-in %(n)s"),
  bet: gettext("Bet"),
  raise: gettext("Raise"),
  bet_n: gettext("Bet %(n)s"),
  raise_to_n: gettext("Raise to %(n)s"),
  all_in_n: gettext("All-in %(n)s"),
  deal_flop: gettext("Deal the flop"),
  deal_turn: gettext("Deal the turn"),
  deal_river: gettext("Deal the river"),
  deal_next: gettext("Deal the next street"),
  next_button: gettext("Button: seat %(seat)s (%(who)s)"),
  next_button_none: gettext("Not enough players for a hand"),
  award_pot: gettext("Award %(pot)s"),
  split_between: gettext("Split %(pot)s"),
  shows_first: gettext("shows first"),
  show: gettext("Show"),
  muck: gettext("Muck"),
  stack: gettext("Stack"),
  // floor procedures on the tablet: floor call, ruling, out of turn, time, chips reader, guided procedures
  word_call: pgettext("poker action", "Call"),
  confirm: gettext("Confirm"),
  dismiss: gettext("Dismiss"),
  floor_called: gettext("Floor called"),
  floor_on_way: gettext("Floor on the way: %(name)s"),
  floor_on_way_anon: gettext("Floor on the way"),
  floor_details_attached: gettext("What you entered is sent with the call."),
  ruling_title: gettext("Ruling:"),
  instruction_title: gettext("Tournament director:"),
  substantial_action: gettext("Substantial action"),
  misdeal_possible: gettext("Misdeal still possible"),
  oot_tag: gettext("OOT: %(action)s"),
  no_raise_tag: gettext("no raise"),
  oot_held: gettext("%(who)s acted out of turn (%(action)s): held until it is their turn."),
  oot_released: gettext("%(who)s: the out-of-turn action does not bind."),
  oot_binding: gettext("%(who)s: the out-of-turn action stands (%(action)s)."),
  time_on: gettext("Time on %(who)s (seat %(seat)s)"),
  time_action: gettext("%(who)s: time ran out (%(action)s)."),
  time_floor_decides: gettext("Time is up: the floor decides"),
  chips_nothing: gettext("Tap the chips put out, or choose the word said, first"),
  chips_reading: gettext("Reading…"),
  res_raise: gettext("Raise to %(n)s"),
  res_bet: gettext("Bet %(n)s"),
  res_call: pgettext("poker action", "Call"),
  res_check: gettext("Check"),
  res_fold: gettext("Fold"),
  res_all_in: gettext("All-in %(n)s"),
  res_none: gettext("Nothing stands"),
  chips_to_add: gettext("Complete to %(to)s: the player adds %(n)s"),
  chips_change: gettext("Give back %(n)s in change"),
  chips_options: gettext("The player may choose: %(options)s"),
  chips_floor: gettext("The rule leaves this to the floor."),
  chips_nothing_stands: gettext("Nothing stands: the chips go back. Call the floor if in doubt."),
  proc_loading: gettext("Loading…"),
  proc_none: gettext("No procedures for this table."),
  proc_floor: gettext("Call the floor"),
  proc_floor_corrects: gettext("Only the floor corrects the hand: call the floor with this outcome."),
  proc_dealer_finishes: gettext("The house rules let the dealer finish this at the table: no floor person needed."),
  proc_finish: gettext("Done at the table"),
  tda_rule: gettext("TDA 2024 Rule %(n)s"),
  proc_done: gettext("Dealer, by the house rules: %(summary)s"),
  err_in_turn: gettext("It is this player's turn: enter the action normally"),
  err_already_held: gettext("This player already has an out-of-turn action held"),
  err_clock_running: gettext("Time is already running"),
  err_no_clock: gettext("No clock is running"),
  err_restricted: gettext("This player may only check, call or fold on this street"),
  err_floor_decides: gettext("Time is up: the floor decides"),
  err_not_found: gettext("Not found"),
  // special formats (000 Allgemein 14, Aktionen 1 and 8)
  straddle_live: gettext("Live straddle"),
  straddle_button: gettext("Button straddle"),
  straddle_mississippi: gettext("Mississippi straddle"),
  straddle_none: gettext("none"),
  straddle_option: gettext("Seat %(seat)s (%(n)s)"),
  straddle_dropped: gettext("Seat %(seat)s: %(kind)s set aside, the live straddle takes precedence."),
  format_bomb_pot_hint: gettext("Every player posts the amount; the flop comes without a betting round (000 Allgemein 14)."),
  format_flip_hint: gettext("Every player posts the amount; the whole board comes without betting, then the showdown (000 Allgemein 14)."),
  format_double_hint: gettext("Two boards; every pot is split equally between them (000 Allgemein 14)."),
  format_straddle_hint: gettext("Straddles agreed at this table: %(kinds)s (000 Aktionen 1)."),
  board_n: gettext("Board %(n)s"),
  deal_on_board: gettext("%(street)s · board %(n)s"),
  wins_board: gettext("Board %(b)s: %(who)s wins %(amount)s"),
  rit_floor_needed: gettext("More than two players: the floor must be present."),
  rit_all_must_agree: gettext("Every player in the chosen pots must agree."),
  err_format_amount: gettext("Enter the chips each player posts"),
  err_bad_format: gettext("This format is not possible"),
  err_bad_straddle: gettext("This straddle is not possible"),
  err_straddle_not_agreed: gettext("This straddle was not agreed at the table's opening"),
  err_format_not_allowed: gettext("No special formats at this table"),
  err_redeal: gettext("The misdealt hand is dealt again as it was"),
  err_run_twice_not_offered: gettext("Run it twice is not offered at this table"),
  err_run_twice_action_possible: gettext("Run it twice only when no more action is possible"),
  err_run_twice_not_agreed: gettext("Every player in the pot must agree"),
  err_run_twice_pot_too_small: gettext("Not enough in the pot to run it twice"),
  err_run_twice_floor_absent: gettext("More than two players: the floor must be present"),
  // the pots while a betting round runs; a misdealt hand
  pot_in: gettext("In the pot"),
  pot_bets: gettext("Bets in front"),
  misdeal: gettext("Misdeal"),
  misdeal_redeal: gettext("Every chip went back; the hand is dealt again."),
  start_hint: gettext("The button moves and the blinds post themselves."),
  redeal_hint: gettext("Dealt again with the same button and blinds (001 6.25, 003 Miss-Deal, 004 #35)."),
  // the keypad's amount
  amount_below_min: gettext("Below the minimum raise to %(min)s (less only all-in)"),
  amount_above_stack: gettext("More than the stack: all-in is %(max)s"),
  // taking back a wrong entry
  undo_nothing: gettext("No action of this hand to take back."),
  undo_this: gettext("Undo"),
  undo_cites: gettext("Recorded as a correction, flagged to the floor:"),
  err_nothing_to_undo: gettext("No action of this hand can be taken back"),
  err_not_undoable: gettext("Only a betting action you entered can be taken back: call the floor"),
  err_next_player_acted: gettext("The next player has acted: the action stands, call the floor"),
  err_card_dealt: gettext("A card was dealt after it: the action stands, call the floor"),
  err_undo_not_allowed: gettext("Under this table's house rules only the floor corrects an action"),
  err_correction_conflict: gettext("A later action would no longer be legal: call the floor"),
};

const texts = new Texts(STRINGS);

/** The translated text of `key` with %(name)s filled from `params`; unknown keys come back as they are. */
export function t(key, params = {}) {
  return texts.t(key, params);
}

/** Whether `key` has a text (an error code the tablet knows). */
export function has(key) {
  return texts.has(key);
}

/** The object ../hand.js takes: {t, has}. */
export const i18n = texts;

/** Text of a bilingual object of the server in the page language: loc(o, "text") reads o.text_de / o.text_en. */
export function loc(obj, base) {
  if (!obj) return "";
  const de = obj[`${base}_de`];
  const en = obj[`${base}_en`] ?? obj[base];
  return LANG === "de" && de ? de : en || de || "";
}

/** Citations [{label, url}] as links (a span when the rule has no page). */
/** A citation's label in the page's language: the TDA's worded sections ("TDA 2024 Regel 49" in
 * German); the stored label stays as it is. */
export function citeLabel(c) {
  const m = /^TDA 2024 Rule (\S+)$/.exec(c.label || "");
  return m ? t("tda_rule", { n: m[1] }) : c.label;
}

export function citeLinks(citations) {
  return h("span", { class: "cites" }, (citations || []).map((c) =>
    c.url ? h("a", { class: "cite", href: c.url, target: "_blank", rel: "noopener", text: citeLabel(c) })
      : h("span", { class: "cite", text: citeLabel(c) })));
}
