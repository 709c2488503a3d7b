// Seven Card Stud's street names and dealing prompts (poker/hand/variants.py: the stud streets), shared by
// the dealer tablet (./dealer/stud.js) and the floor's tiles and map rows (./floor/tile.js).
// Keys: `street_<street>` (ante, third ... seventh) and `deal_<street>` (third ... seventh, community).

import { gettext } from "./i18n.js";

export const STUD_TEXTS = {
  street_ante: gettext("Ante"),
  street_third: gettext("Third street"),
  street_fourth: gettext("Fourth street"),
  street_fifth: gettext("Fifth street"),
  street_sixth: gettext("Sixth street"),
  street_seventh: gettext("Seventh street"),
  deal_third: gettext("Deal third street"),
  deal_fourth: gettext("Deal fourth street"),
  deal_fifth: gettext("Deal fifth street"),
  deal_sixth: gettext("Deal sixth street"),
  deal_seventh: gettext("Deal seventh street"),
  deal_community: gettext("Deal the community card"),
};

/** The prompt for the next deal of stud hand state `st` (the snapshot's `hand.state`): the community card
 * when the stub is short, else the next street. */
export function studDealText(st) {
  return STUD_TEXTS[st.community_due ? "deal_community" : `deal_${st.next_street}`] || "";
}
