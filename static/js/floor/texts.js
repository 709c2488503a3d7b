// The floor dashboard's texts (static/js/floor.js and its parts), translated by Django's
// JavaScriptCatalog (/jsi18n/).

import { Texts, gettext } from "../i18n.js";
import { HAND_TEXTS } from "../hand.js";

export const i18n = new Texts({
  ...HAND_TEXTS,
  conn_connecting: gettext("Connecting…"),
  conn_open: gettext("Live"),
  conn_closed: gettext("Reconnecting…"),
  conn_forbidden: gettext("No access"),
  conn_not_found: gettext("No such table"),
  hand_n: gettext("Hand #%(n)s"),
  no_hand: gettext("No hand in progress"),
  bb_ante: gettext("BB ante %(n)s"),
  all_in_tag: gettext("all-in"),
  deal_flop: gettext("Deal the flop"),
  deal_turn: gettext("Deal the turn"),
  deal_river: gettext("Deal the river"),
  deal_next: gettext("Deal the next street"),
  dealer_is: gettext("Dealer: %(name)s"),
  no_dealer: gettext("No dealer assigned"),
  rules_is: gettext("Rules: %(name)s"),
  tda_rule: gettext("TDA 2024 Rule %(n)s"),
  status_open: gettext("open"),
  status_closed: gettext("closed"),
  live_count: gettext("Live hands: %(n)s"),
  nobody: "–",
  no_calls: gettext("No open floor calls."),
  tile_time: gettext("Time on seat %(seat)s: %(s)s s"),
  call_title: gettext("FLOOR: %(table)s"),
  call_seat: gettext("seat %(n)s"),
  call_open: gettext("waiting"),
  call_answered: gettext("%(name)s is on the way"),
  call_open_link: gettext("Open"),
  ruling_made: gettext("Ruling at %(table)s: %(decision)s"),
  alarm_on: gettext("Alarm sound: on"),
  alarm_off: gettext("Alarm sound: off"),
  seats_of: gettext("%(n)s/%(max)s"),
  alert_floor: gettext("Floor call"),
  alert_time: gettext("Time %(s)s s"),
  undone_flag: gettext("Corrected at the table"),
  move_pending: gettext("not made yet: table %(n)s finishes its hand first"),
  move_moving: gettext("seated at table %(n)s, waiting for the confirmation"),
  move_confirmed: gettext("confirmed by %(sides)s"),
  side_from: gettext("table %(n)s (leaving)"),
  side_to: gettext("table %(n)s (arriving)"),
  side_director: gettext("the floor"),
  confirm_arrival: gettext("Confirm arrival"),
});
/** The text of key `k` in the page's language, with `p`'s values put in. */
export const t = (k, p) => i18n.t(k, p);

/** The rulebooks' titles by profile slug (the page's json_script): the tile names the rulebook. */
export const RULEBOOK_TITLES = JSON.parse(document.getElementById("rulebook-titles")?.textContent || "{}");

/** A citation's label in the page's language: the TDA's worded sections ("TDA 2024 Regel 49" in
 * German); the stored label stays as it is. */
export function citeLabel(c) {
  const m = /^TDA 2024 Rule (\S+)$/.exec(c.label || "");
  return m ? t("tda_rule", { n: m[1] }) : c.label;
}
