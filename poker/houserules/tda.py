"""The TDA 2024 profile: the base every shipped house-rule profile builds on, each parameter
with the TDA rule it was read from (see :mod:`poker.houserules.profiles` for the rulebooks' own)."""

from __future__ import annotations

from poker.houserules.model import build_profile, param
from poker.rulebooks import TDA, Citation

__all__ = ["TDA_2024"]

_r = Citation.parse
"""``_r("TDA 2024 Rule 43")``: the citation written as its label (see :func:`poker.rulebooks.cite`)."""


# --------------------------------------------------------------------------- TDA 2024
TDA_2024 = build_profile(
    TDA,
    "TDA 2024 standard",
    None,
    None,
    min_raise=param(
        "last_full_raise",
        _r("TDA 2024 Rule 43"),
        note="A raise must be at least the largest previous bet or raise of the round.",
    ),
    min_bet=param("big_blind", _r("TDA 2024 Rule 43"), note="The minimum opening bet is the big blind."),
    split_limit_raise_cap=param(None, _r("TDA 2024 Rule 48"), note="No cap on raises in no-limit and pot-limit."),
    split_limit_cap_lifted_heads_up=param(None, _r("TDA 2024 Rule 48")),
    short_all_in_reopens=param(
        "cumulative",
        _r("TDA 2024 Rule 47"),
        note="A short all-in does not reopen the betting for players who already acted; several short all-ins reopen once they add up to a full raise.",
    ),
    short_all_in_caller_may_reraise=param(
        True, _r("TDA 2024 Rule 47"), note="A player facing at least a full raise since his last action may re-raise."
    ),
    pot_limit_preflop_all_in=param(
        "actual",
        note="Not read from the TDA text: pokerkit's reading (the chips really in the pot), the value of every "
        "rulebook that does not regulate a short all-in in pot limit.",
    ),
    oversized_chip_facing_blinds=param("call", _r("TDA 2024 Rule 44")),
    oversized_chip_facing_bet=param("call", _r("TDA 2024 Rule 44")),
    oversized_chip_opening_bet=param("bet_chip_value", _r("TDA 2024 Rule 44")),
    oversized_chip_raise_no_amount=param("chip_value", _r("TDA 2024 Rule 44")),
    multiple_chips=param("call_unless_one_chip_removable", _r("TDA 2024 Rule 45")),
    silent_raise_allowed=param(
        True, _r("TDA 2024 Rule 42"), note="A raise is made by a verbal amount, or all chips in one motion."
    ),
    short_raise_silent=param("fifty_percent", _r("TDA 2024 Rule 43")),
    short_raise_declared=param(
        "minimum_raise", _r("TDA 2024 Rule 43"), note="'Raise' declared with less than the minimum: a minimum raise."
    ),
    string_raise_counts_as=param("call", _r("TDA 2024 Rule 56")),
    string_bet_counts_as=param(
        "first_motion",
        _r("TDA 2024 Rule 56"),
        note="String bets are not allowed; only the first continuous motion counts.",
    ),
    verbal_allows_several_motions=param(True, _r("TDA 2024 Rule 40"), _r("TDA 2024 Rule 42")),
    call_without_bet_is=param("check", _r("TDA 2024 Rule 55")),
    raise_without_bet_is=param("bet", _r("TDA 2024 Rule 55")),
    check_facing_bet_allows=param("call_or_fold", _r("TDA 2024 Rule 55")),
    pot_declared_in_no_limit=param("minimum", _r("TDA 2024 Rule 54")),
    unclear_amount=param("highest_reasonable_up_to_pot", _r("TDA 2024 Rule 57")),
    declared_raise_amount=param("total", _r("TDA 2024 Rule 40"), _r("TDA 2024 Rule 43")),
    short_bet=param("complete_to_minimum", _r("TDA 2024 Rule 52")),
    verbal_binding=param(True, _r("TDA 2024 Rule 51")),
    verbal_vs_chips=param(
        "first_binds", _r("TDA 2024 Rule 40"), note="Whichever comes first, words or chips, defines the action."
    ),
    out_of_turn_changed_by=param(
        ("bet", "raise"), _r("TDA 2024 Rule 53"), note="Check, call and fold do not change the action."
    ),
    out_of_turn_check_restricts=param(False, _r("TDA 2024 Rule 53")),
    undercall=param(
        "call_if_heads_up_or_opening_bet",
        _r("TDA 2024 Rule 51"),
        note="Mandatory full call heads-up or facing the opening bet; otherwise the floor decides.",
    ),
    odd_chip=param("left_of_button", _r("TDA 2024 Rule 20")),
    odd_chip_unit=param("smallest_chip", _r("TDA 2024 Rule 20")),
    bet_unit=param(None, note="No divisibility rule."),
    bet_unit_big_blind_stakes=param((), note="No divisibility rule."),
    ante_format=param(None, note="Not regulated by a numbered TDA rule (big blind ante is a recommended procedure)."),
    button_rule=param("dead_button", _r("TDA 2024 Rule 32")),
    heads_up_button=param("small_blind_on_button", _r("TDA 2024 Rule 34")),
    heads_up_no_double_big_blind=param(True, _r("TDA 2024 Rule 34")),
    clock_seconds=param(30, _r("TDA 2024 Rule 29"), note="25 seconds plus a 5-second countdown."),
    clock_countdown_seconds=param(5, _r("TDA 2024 Rule 29")),
    clock_expiry=param("dead", _r("TDA 2024 Rule 29")),
    showdown_no_bet=param(
        "left_of_button",
        _r("TDA 2024 Rule 15"),
        note="No bet on the last round: the first player left of the button shows first.",
    ),
    substantial_action=param("two_actions_one_with_chips_or_three", _r("TDA 2024 Rule 36")),
    misdeal_until=param("substantial_action", _r("TDA 2024 Rule 35"), _r("TDA 2024 Rule 36")),
    misdeal_after_flop=param(
        False, _r("TDA 2024 Rule 35"), note="A misdeal concerns the initial deal; board errors are handled separately."
    ),
    misdeal_too_late=param(
        "play_on", _r("TDA 2024 Rule 35"), note="Once substantial action occurred the hand must proceed."
    ),
    absent_player=param(
        "hand_dead",
        _r("TDA 2024 Rule 30"),
        note="A player must be at his seat when the last card of the initial deal is dealt, or his hand is dead; "
        "his blinds and antes are posted.",
    ),
    hidden_chips_at_all_in=param(None, note="No hidden-chips rule read from the TDA text: the floor decides."),
    exposed_card_on_deal=param(
        "replace_one_misdeal_two",
        _r("TDA 2024 Rule 35"),
        note="Two or more exposed cards on the initial deal are a misdeal; one is replaced.",
    ),
    premature_board_card=param("reshuffle", _r("TDA 2024 Rule 39")),
    four_card_flop=param(
        "random_burn",
        _r("TDA 2024 Rule 39"),
        note="The four cards are scrambled face down; the floor picks one at random as the next burn card.",
    ),
    skipped_player_late=param(
        "oot_binding_floor_decides",
        _r("TDA 2024 Rule 53"),
        note="Substantial action to the skipped player's left: the out-of-turn action is binding; the floor decides on the skipped hand.",
    ),
    penalty_kinds=param(("warning", "sit_out_hands", "sit_out_orbits", "disqualification"), _r("TDA 2024 Rule 71")),
    penalty_sit_out=param(
        "dealt_in_hand_killed",
        _r("TDA 2024 Rule 71"),
        note="A player sitting out a penalty is dealt in, posts blinds and antes, and his hand is killed.",
    ),
    dealer_undo=param(
        "until_next_action",
        _r("TDA 2024 Rule 49"),
        _r("TDA 2024 Rule 52"),
        note="An entry is corrected within the betting round; once a later player acted on it, it stands.",
    ),
)
