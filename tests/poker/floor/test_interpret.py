"""The chip-action interpreter on every worked example of the rulebooks (and a few more).

Each test names the rulebook section whose example or wording it checks.
"""

import pytest

from poker.floor.interpret import InterpretError, interpret_json


def ruling(profile, observed, **situation):
    situation.setdefault("stack", 100_000)
    return interpret_json(profile, {"situation": situation, "observed": observed})


def labels(r):
    return [c["label"] for c in r["citations"]]


# --------------------------------------------------------------------------- 000 casino cash
PRE_20_40_A_120 = dict(street="preflop", small_blind=20, big_blind=40, to_call=120, last_raise=80, pot=180)


def test_000_aktionen_4_two_100_chips_facing_120_are_a_call():
    r = ruling("casino-cash", {"chips": {"100": 2}}, **PRE_20_40_A_120)
    assert (r["action"], r["amount"], r["change"]) == ("call", 120, 80)
    assert "000 Aktionen 4" in labels(r)
    assert "Call" in r["explanation"]["de"] and "call" in r["explanation"]["en"]


def test_000_aktionen_4_four_50_chips_facing_120_are_a_raise_to_200():
    r = ruling("casino-cash", {"chips": {"50": 4}}, **PRE_20_40_A_120)
    assert (r["action"], r["amount"], r["change"], r["complete_to"]) == ("raise", 200, 0, None)
    assert r["full_raise"] is True


def test_000_aktionen_4_four_100s_after_80_160_240_320_are_a_call_of_320():
    r = ruling(
        "casino-cash",
        {"chips": {"100": 4}},
        street="preflop",
        small_blind=40,
        big_blind=80,
        to_call=320,
        last_raise=80,
        pot=920,
    )
    assert (r["action"], r["amount"], r["change"]) == ("call", 320, 80)


def test_000_aktionen_4_two_50s_at_30_60_after_an_opening_are_only_a_call():
    r = ruling(
        "casino-cash",
        {"chips": {"50": 2}},
        street="preflop",
        small_blind=30,
        big_blind=60,
        to_call=60,
        last_raise=60,
        pot=90,
    )
    assert (r["action"], r["amount"], r["change"]) == ("call", 60, 40)


def test_000_aktionen_4_oversized_chip_facing_only_blinds_is_a_call():
    r = ruling(
        "casino-cash",
        {"chips": {"500": 1}},
        street="preflop",
        small_blind=20,
        big_blind=40,
        to_call=40,
        last_raise=40,
        pot=60,
        only_blinds=True,
    )
    assert (r["action"], r["amount"], r["change"]) == ("call", 40, 460)
    assert "000 Aktionen 4" in labels(r)


def test_000_aktionen_4_raise_declared_before_the_oversized_chip_is_a_raise_to_its_value():
    r = ruling(
        "casino-cash", {"chips": {"500": 1}, "declared": "raise", "declared_before_chips": True}, **PRE_20_40_A_120
    )
    assert (r["action"], r["amount"], r["change"]) == ("raise", 500, 0)


def test_000_aktionen_4_raise_said_after_the_chip_touched_the_table_is_a_call():
    r = ruling(
        "casino-cash", {"chips": {"500": 1}, "declared": "raise", "declared_before_chips": False}, **PRE_20_40_A_120
    )
    assert (r["action"], r["amount"], r["change"]) == ("call", 120, 380)


def test_000_aktionen_4_pot_limit_raise_with_oversized_chip_is_the_maximum_up_to_the_chip():
    r = ruling(
        "casino-cash",
        {"chips": {"500": 1}, "declared": "raise"},
        street="preflop",
        small_blind=20,
        big_blind=40,
        to_call=40,
        last_raise=40,
        pot=60,
        limit="pot_limit",
        only_blinds=True,
    )
    assert (r["action"], r["amount"], r["change"]) == ("raise", 140, 360)  # 40 call + pot of 100


def test_000_aktionen_4_after_the_flop_an_undeclared_oversized_chip_is_a_bet_of_its_value():
    r = ruling("casino-cash", {"chips": {"500": 1}}, street="flop", small_blind=20, big_blind=40, pot=300)
    assert (r["action"], r["amount"], r["change"]) == ("bet", 500, 0)


def test_000_aktionen_5_silent_50_percent_of_the_raise_must_be_completed():
    r = ruling("casino-cash", {"chips": {"100": 1, "50": 1, "10": 1}}, **PRE_20_40_A_120)
    assert (r["action"], r["amount"], r["complete_to"], r["to_add"]) == ("raise", 200, 200, 40)
    assert "000 Aktionen 5" in labels(r)


def test_000_aktionen_5_silent_under_50_percent_is_a_call():
    r = ruling("casino-cash", {"chips": {"100": 1, "25": 2}}, **PRE_20_40_A_120)
    assert (r["action"], r["amount"], r["change"]) == ("call", 120, 30)


def test_000_aktionen_5_short_all_in_does_not_reopen_the_betting():
    r = ruling(
        "casino-cash",
        {"declared": "all-in"},
        street="turn",
        small_blind=20,
        big_blind=40,
        to_call=120,
        last_raise=120,
        pot=500,
        stack=150,
    )
    assert r["action"] == "all-in" and r["all_in_as"] == "incomplete_raise"
    assert r["amount"] == 150 and r["reopens_betting"] is False
    assert "000 Aktionen 5" in labels(r)


def test_000_aktionen_2_a_short_call_must_be_completed_or_forfeited():
    r = ruling("casino-cash", {"chips": {"50": 2}}, **PRE_20_40_A_120)
    assert (r["action"], r["complete_to"], r["to_add"]) == ("call", 120, 20)
    assert r["options"] == ["fold"] and "no_raise" in r["restrictions"]


def test_000_aktionen_2_out_of_turn_stays_binding_after_a_check_or_call():
    r = ruling(
        "casino-cash",
        {"chips": {"100": 2}},
        street="flop",
        small_blind=20,
        big_blind=40,
        to_call=200,
        last_raise=200,
        pot=600,
        in_turn=False,
        intervening_actions=["check", "call"],
    )
    assert r["binding"] is True and r["action"] == "call"


def test_000_aktionen_2_out_of_turn_is_not_binding_after_a_raise():
    r = ruling(
        "casino-cash",
        {"chips": {"100": 2}},
        street="flop",
        small_blind=20,
        big_blind=40,
        to_call=200,
        last_raise=200,
        pot=600,
        in_turn=False,
        intervening_actions=["raise"],
    )
    assert (r["action"], r["binding"], r["change"]) == ("none", False, 200)


def test_000_aktionen_3_split_limit_cap_of_three_raises():
    sit = dict(
        street="flop", small_blind=5, big_blind=10, to_call=40, last_raise=10, pot=200, limit="split_limit", raises=3
    )
    capped = ruling("casino-cash", {"chips": {"10": 5}}, **sit)
    assert (capped["action"], capped["amount"], capped["change"]) == ("call", 40, 10)
    heads_up = ruling("casino-cash", {"chips": {"10": 5}}, heads_up=True, **sit)
    assert (heads_up["action"], heads_up["amount"]) == ("raise", 50)


def test_000_allgemein_8_bets_divisible_by_the_big_blind_at_2_5():
    r = ruling("casino-cash", {"chips": {"5": 2, "1": 2}}, street="flop", small_blind=2, big_blind=5, pot=60)
    assert (r["action"], r["amount"], r["change"]) == ("bet", 10, 2)
    assert "000 Allgemein 8" in labels(r)


def test_000_allgemein_8_bets_divisible_by_the_small_blind():
    r = ruling("casino-cash", {"chips": {"25": 1, "1": 2}}, street="flop", small_blind=5, big_blind=10, pot=60)
    assert (r["action"], r["amount"], r["change"]) == ("bet", 25, 2)
    assert (
        ruling("tda-2024", {"chips": {"25": 1, "1": 2}}, street="flop", small_blind=5, big_blind=10, pot=60)["amount"]
        == 27
    )


# --------------------------------------------------------------------------- 001 Wynental
def test_001_6_20_oversized_chip_without_raise_declared_is_a_call():
    r = ruling(
        "wynental",
        {"chips": {"1000": 1}},
        street="preflop",
        small_blind=100,
        big_blind=200,
        to_call=200,
        last_raise=200,
        pot=300,
        only_blinds=True,
    )
    assert (r["action"], r["amount"], r["change"]) == ("call", 200, 800)
    assert labels(r) == ["001 6.20"]


def test_001_6_20_raise_declared_with_oversized_chip_is_the_most_up_to_the_chip():
    r = ruling(
        "wynental",
        {"chips": {"1000": 1}, "declared": "raise"},
        street="preflop",
        small_blind=100,
        big_blind=200,
        to_call=200,
        last_raise=200,
        pot=300,
        only_blinds=True,
    )
    assert (r["action"], r["amount"]) == ("raise", 1000)


def test_001_6_20_oversized_chip_opening_after_the_flop_counts_at_its_value():
    r = ruling("wynental", {"chips": {"1000": 1}}, street="turn", small_blind=100, big_blind=200, pot=1500)
    assert (r["action"], r["amount"]) == ("bet", 1000)


def test_001_6_18_a_raise_not_declared_before_the_chips_is_a_call():
    r = ruling(
        "wynental",
        {"chips": {"500": 2}},
        street="flop",
        small_blind=100,
        big_blind=200,
        to_call=400,
        last_raise=400,
        pot=1200,
    )
    assert (r["action"], r["amount"], r["change"]) == ("call", 400, 600)
    assert "001 6.18" in labels(r)
    assert (
        ruling(
            "tda-2024",
            {"chips": {"500": 2}},
            street="flop",
            small_blind=100,
            big_blind=200,
            to_call=400,
            last_raise=400,
            pot=1200,
        )["action"]
        == "raise"
    )


def test_001_6_28_string_raise_is_a_call():
    r = ruling(
        "wynental",
        {"chips": {"500": 2}, "declared": "raise", "declared_before_chips": False, "motions": 2},
        street="flop",
        small_blind=100,
        big_blind=200,
        to_call=400,
        last_raise=400,
        pot=1200,
    )
    assert r["action"] == "call"


# --------------------------------------------------------------------------- 002 betting rules
BB100_TO_200 = dict(street="preflop", small_blind=50, big_blind=100, to_call=200, last_raise=100, pot=450)


def test_002_4_after_a_raise_to_200_the_next_raise_is_to_at_least_400():
    r = ruling("betting-rules", {"declared": "raise", "chips": {"100": 3}}, **BB100_TO_200)
    assert r["min_raise_to"] == 400
    assert (r["action"], r["amount"], r["complete_to"]) == ("raise", 400, 400)
    assert "002 #4" in labels(r) and "002 #6" in labels(r)
    assert ruling("tda-2024", {"declared": "raise", "chips": {"100": 3}}, **BB100_TO_200)["amount"] == 300


def test_002_6_raise_under_half_the_minimum_may_be_withdrawn():
    r = ruling("betting-rules", {"declared": "raise", "chips": {"100": 2, "50": 1}}, **BB100_TO_200)
    assert (r["action"], r["amount"], r["change"]) == ("call", 200, 50)
    assert r["options"] == ["raise"]


def test_002_6_raise_of_half_the_minimum_is_completed_even_all_in():
    r = ruling("betting-rules", {"declared": "raise", "chips": {"100": 3}}, stack=350, **BB100_TO_200)
    assert (r["action"], r["amount"], r["all_in"]) == ("all-in", 350, True)


def test_002_11_single_larger_chip_is_a_call():
    r = ruling("betting-rules", {"chips": {"1000": 1}}, **BB100_TO_200)
    assert (r["action"], r["amount"], r["change"]) == ("call", 200, 800)
    assert labels(r) == ["002 #11"]


PRE_200_400_A_1200 = dict(street="preflop", small_blind=200, big_blind=400, to_call=1200, last_raise=800, pot=1800)


def test_002_12_two_1000_chips_facing_1200_are_a_call():
    r = ruling("betting-rules", {"chips": {"1000": 2}}, **PRE_200_400_A_1200)
    assert (r["action"], r["amount"], r["change"]) == ("call", 1200, 800)
    assert labels(r) == ["002 #12"]


def test_002_12_four_500_chips_facing_1200_are_a_raise():
    """The example calls it a raise to 2,000; under 002 #4 that raise must reach 2,400."""
    r = ruling("betting-rules", {"chips": {"500": 4}}, **PRE_200_400_A_1200)
    assert r["action"] == "raise"
    assert (r["complete_to"], r["to_add"]) == (2400, 400)
    assert "002 #13" in labels(r)


def test_002_13_the_bet_plus_half_announces_a_raise():
    r = ruling(
        "betting-rules",
        {"chips": {"100": 1, "50": 1}},
        street="flop",
        small_blind=50,
        big_blind=100,
        to_call=100,
        last_raise=100,
        pot=400,
    )
    assert (r["action"], r["complete_to"]) == ("raise", 200)


def test_002_13_less_than_the_bet_plus_half_is_a_call():
    r = ruling(
        "betting-rules",
        {"chips": {"100": 1, "25": 1, "10": 1}},
        street="flop",
        small_blind=50,
        big_blind=100,
        to_call=100,
        last_raise=100,
        pot=400,
    )
    assert (r["action"], r["change"]) == ("call", 35)


def test_002_13_string_raise_is_a_call():
    r = ruling(
        "betting-rules",
        {"chips": {"100": 3}, "motions": 3},
        street="flop",
        small_blind=50,
        big_blind=100,
        to_call=100,
        last_raise=100,
        pot=400,
    )
    assert (r["action"], r["change"]) == ("call", 200)
    assert labels(r) == ["002 #13"]


def test_002_8_out_of_turn_freed_by_an_intervening_call():
    r = ruling(
        "betting-rules",
        {"chips": {"100": 1}},
        street="flop",
        small_blind=50,
        big_blind=100,
        to_call=100,
        last_raise=100,
        pot=400,
        in_turn=False,
        intervening_actions=["call"],
    )
    assert (r["action"], r["binding"]) == ("none", False)
    tda = ruling(
        "tda-2024",
        {"chips": {"100": 1}},
        street="flop",
        small_blind=50,
        big_blind=100,
        to_call=100,
        last_raise=100,
        pot=400,
        in_turn=False,
        intervening_actions=["call"],
    )
    assert (tda["action"], tda["binding"]) == ("call", True)


def test_002_8_out_of_turn_check_forbids_a_later_bet():
    r = ruling(
        "betting-rules", {"declared": "check"}, street="flop", small_blind=50, big_blind=100, pot=400, in_turn=False
    )
    assert r["action"] == "check" and "no_bet_or_raise" in r["restrictions"]


def test_002_10_a_player_who_missed_the_raise_may_withdraw_under_50_percent():
    r = ruling(
        "betting-rules",
        {"chips": {"100": 1}},
        street="flop",
        small_blind=50,
        big_blind=100,
        to_call=300,
        last_raise=200,
        pot=900,
        unaware_of_raise=True,
    )
    assert r["binding"] is False and "fold" in r["options"]
    strict = ruling(
        "betting-rules",
        {"chips": {"100": 1}},
        street="flop",
        small_blind=50,
        big_blind=100,
        to_call=300,
        last_raise=200,
        pot=900,
    )
    assert (strict["action"], strict["complete_to"], strict["binding"]) == ("call", 300, True)


def test_002_14_a_bet_below_the_minimum_is_completed():
    r = ruling("betting-rules", {"chips": {"25": 2}}, street="flop", small_blind=50, big_blind=100, pot=400)
    assert (r["action"], r["complete_to"], r["to_add"]) == ("bet", 100, 50)


# --------------------------------------------------------------------------- 003 NLHE
def test_003_einsaetze_string_bet_counts_only_as_the_big_blind():
    r = ruling("nlhe", {"chips": {"100": 5}, "motions": 2}, street="flop", small_blind=50, big_blind=100, pot=300)
    assert (r["action"], r["amount"], r["change"]) == ("bet", 100, 400)
    assert labels(r) == ["003 Einsätze und Annoncen"]


def test_003_einsaetze_with_a_declaration_several_motions_are_allowed():
    r = ruling(
        "nlhe",
        {"chips": {"100": 5}, "motions": 2, "declared": "bet"},
        street="flop",
        small_blind=50,
        big_blind=100,
        pot=300,
    )
    assert (r["action"], r["amount"]) == ("bet", 500)


def test_003_einsaetze_a_too_small_call_must_be_completed_to_stay_in():
    r = ruling(
        "nlhe",
        {"chips": {"100": 2}},
        street="turn",
        small_blind=50,
        big_blind=100,
        to_call=300,
        last_raise=300,
        pot=900,
    )
    assert (r["action"], r["complete_to"], r["options"]) == ("call", 300, ["fold"])


def test_003_all_in_caller_of_a_short_all_in_may_not_reraise_later():
    r = ruling(
        "nlhe",
        {"declared": "all-in"},
        street="flop",
        small_blind=50,
        big_blind=100,
        to_call=400,
        last_raise=400,
        pot=1200,
        stack=500,
    )
    assert r["all_in_as"] == "incomplete_raise"
    assert "003 All-In" in labels(r)
    assert "only call or fold" in r["explanation"]["en"]


# --------------------------------------------------------------------------- 004 MunotPoker
BLIND_1000 = dict(
    street="preflop", small_blind=500, big_blind=1000, to_call=1000, last_raise=1000, pot=1500, only_blinds=True
)


def test_004_43_raise_to_1500_at_blind_1000_is_completed_to_2000():
    r = ruling("munotpoker", {"chips": {"1000": 1, "500": 1}}, **BLIND_1000)
    assert (r["action"], r["amount"], r["complete_to"], r["to_add"]) == ("raise", 2000, 2000, 500)
    assert "004 #43" in labels(r)


def test_004_43_raise_to_1400_silently_is_a_call():
    r = ruling("munotpoker", {"chips": {"1000": 1, "100": 4}}, **BLIND_1000)
    assert (r["action"], r["amount"], r["change"]) == ("call", 1000, 400)


def test_004_43_raise_to_1400_with_the_word_raise_is_a_minimum_raise():
    r = ruling("munotpoker", {"chips": {"1000": 1, "100": 4}, "declared": "raise"}, **BLIND_1000)
    assert (r["action"], r["amount"], r["complete_to"]) == ("raise", 2000, 2000)


def test_004_43_an_all_in_short_raise_stands():
    r = ruling("munotpoker", {"chips": {"1000": 1, "100": 4}}, stack=1400, **BLIND_1000)
    assert (r["action"], r["amount"], r["all_in_as"], r["reopens_betting"]) == (
        "all-in",
        1400,
        "incomplete_raise",
        False,
    )


def test_004_43_raise_5000_is_a_raise_to_5000_in_total():
    r = ruling("munotpoker", {"declared": "raise", "declared_amount": 5000}, **BLIND_1000)
    assert (r["action"], r["amount"]) == ("raise", 5000)


def test_004_44_oversized_chip_after_a_bet_silently_is_a_call():
    r = ruling(
        "munotpoker",
        {"chips": {"5000": 1}},
        street="flop",
        small_blind=500,
        big_blind=1000,
        to_call=2000,
        last_raise=2000,
        pot=5000,
    )
    assert (r["action"], r["amount"], r["change"]) == ("call", 2000, 3000)


def test_004_44_even_the_last_chip_is_only_a_call():
    r = ruling(
        "munotpoker",
        {"chips": {"5000": 1}},
        street="flop",
        small_blind=500,
        big_blind=1000,
        to_call=2000,
        last_raise=2000,
        pot=5000,
        stack=5000,
    )
    assert (r["action"], r["all_in"], r["change"]) == ("call", False, 3000)


def test_004_44_raise_with_amount_declared_before_the_chip_is_a_raise_to_that_amount():
    r = ruling("munotpoker", {"chips": {"5000": 1}, "declared": "raise", "declared_amount": 3000}, **BLIND_1000)
    assert (r["action"], r["amount"], r["change"]) == ("raise", 3000, 2000)


def test_004_44_raise_without_amount_is_the_chips_full_value():
    r = ruling("munotpoker", {"chips": {"5000": 1}, "declared": "raise"}, **BLIND_1000)
    assert (r["action"], r["amount"]) == ("raise", 5000)


def test_004_44_only_blinds_and_no_declaration_is_a_raise_to_the_chips_value():
    r = ruling("munotpoker", {"chips": {"5000": 1}}, **BLIND_1000)
    assert (r["action"], r["amount"], r["change"]) == ("raise", 5000, 0)
    assert "004 #44" in labels(r)
    other = ruling("tda-2024", {"chips": {"5000": 1}}, **BLIND_1000)
    assert (other["action"], other["amount"]) == ("call", 1000)


def test_004_45_example_1_silent_1500_facing_a_3bet_to_1100_is_a_call():
    r = ruling(
        "munotpoker",
        {"chips": {"1000": 1, "500": 1}},
        street="preflop",
        small_blind=100,
        big_blind=200,
        to_call=1100,
        last_raise=700,
        pot=1800,
    )
    assert (r["action"], r["amount"], r["change"]) == ("call", 1100, 400)
    assert "004 #45" in labels(r)


def test_004_45_example_2_two_1000_chips_facing_1050_are_a_call():
    r = ruling(
        "munotpoker",
        {"chips": {"1000": 2}},
        street="preflop",
        small_blind=100,
        big_blind=200,
        to_call=1050,
        last_raise=850,
        pot=1350,
    )
    assert (r["action"], r["amount"], r["change"]) == ("call", 1050, 950)


def test_004_45_and_61_a_chip_not_needed_for_the_call_brings_in_the_50_percent_rule():
    """004 #61: 100/100, raise to 325, next player puts out 525 for change: obliged to raise."""
    r = ruling(
        "munotpoker",
        {"chips": {"500": 1, "25": 1}},
        street="preflop",
        small_blind=100,
        big_blind=100,
        to_call=325,
        last_raise=225,
        pot=525,
    )
    assert (r["action"], r["complete_to"]) == ("raise", 550)


def test_004_51_undercall_heads_up_must_be_a_full_call():
    r = ruling(
        "munotpoker",
        {"chips": {"1000": 1}},
        street="river",
        small_blind=500,
        big_blind=1000,
        to_call=3000,
        last_raise=3000,
        pot=9000,
        heads_up=True,
    )
    assert (r["action"], r["complete_to"], r["to_add"], r["floor"]) == ("call", 3000, 2000, False)


def test_004_51_undercall_of_the_big_blind_as_opening_bet_must_be_a_full_call():
    r = ruling("munotpoker", {"chips": {"500": 1}}, **BLIND_1000)
    assert (r["action"], r["complete_to"], r["floor"]) == ("call", 1000, False)


def test_004_51_other_undercalls_go_to_the_floor():
    r = ruling(
        "munotpoker",
        {"chips": {"1000": 1}},
        street="preflop",
        small_blind=500,
        big_blind=1000,
        to_call=6000,
        last_raise=3000,
        pot=10000,
        raises=2,
    )
    assert (r["action"], r["floor"], r["options"]) == ("call", True, ["fold"])


def test_004_53_out_of_turn_action_returns_after_a_raise():
    r = ruling(
        "munotpoker",
        {"declared": "call"},
        street="flop",
        small_blind=500,
        big_blind=1000,
        to_call=2000,
        last_raise=2000,
        pot=6000,
        in_turn=False,
        intervening_actions=["raise"],
    )
    assert (r["action"], r["binding"]) == ("none", False)


def test_004_54_pot_in_no_limit_is_only_a_minimum_bet():
    r = ruling("munotpoker", {"declared": "pot"}, street="flop", small_blind=500, big_blind=1000, pot=6000)
    assert (r["action"], r["amount"]) == ("bet", 1000)
    assert "004 #54" in labels(r)


def test_004_55_call_with_no_bet_is_a_check_and_raise_is_a_bet():
    assert (
        ruling("munotpoker", {"declared": "call"}, street="flop", small_blind=500, big_blind=1000, pot=6000)["action"]
        == "check"
    )
    r = ruling("munotpoker", {"declared": "raise"}, street="flop", small_blind=500, big_blind=1000, pot=6000)
    assert (r["action"], r["amount"]) == ("bet", 1000)
    assert "004 #55" in labels(r)


def test_004_55_check_facing_a_bet_leaves_call_or_fold():
    r = ruling(
        "munotpoker",
        {"declared": "check"},
        street="flop",
        small_blind=500,
        big_blind=1000,
        to_call=2000,
        last_raise=2000,
        pot=6000,
    )
    assert r["action"] == "none" and r["options"] == ["call", "fold"] and "no_raise" in r["restrictions"]


def test_004_57_i_bet_5_with_a_small_pot_is_500():
    r = ruling(
        "munotpoker", {"declared": "bet", "declared_amount": 5}, street="flop", small_blind=200, big_blind=400, pot=4000
    )
    assert (r["action"], r["amount"]) == ("bet", 500)
    assert "004 #57" in labels(r)


def test_004_57_i_bet_5_with_a_pot_over_5000_is_5000():
    r = ruling(
        "munotpoker", {"declared": "bet", "declared_amount": 5}, street="flop", small_blind=200, big_blind=400, pot=6000
    )
    assert (r["action"], r["amount"]) == ("bet", 5000)


# --------------------------------------------------------------------------- TDA 2024
def test_tda_45_example_200_400_two_1000s_facing_1200_are_a_call():
    r = ruling("tda-2024", {"chips": {"1000": 2}}, **PRE_200_400_A_1200)
    assert (r["action"], r["change"]) == ("call", 800)
    assert labels(r) == ["TDA 2024 Rule 45"]


# --------------------------------------------------------------------------- errors
@pytest.mark.parametrize(
    "data,code",
    [
        (
            {"situation": {"street": "flop", "big_blind": 100, "stack": 50}, "observed": {"chips": {"100": 1}}},
            "bad_observation",
        ),
        (
            {"situation": {"street": "flop", "big_blind": 100, "stack": 500}, "observed": {"declared": "shove it"}},
            "bad_observation",
        ),
        (
            {"situation": {"street": "fifth", "big_blind": 100, "stack": 500}, "observed": {"declared": "check"}},
            "bad_situation",
        ),
        ({"situation": {"street": "flop", "big_blind": 100, "stack": 500}, "observed": {}}, "nothing_observed"),
        (
            {"situation": {"street": "flop", "big_blind": 100.5, "stack": 500}, "observed": {"declared": "check"}},
            "bad_field",
        ),
        ({"situation": {"street": "flop", "stack": 500}, "observed": {"declared": "check"}}, "missing_field"),
        ({"observed": {}}, "bad_input"),
    ],
)
def test_malformed_input_raises_with_a_code(data, code):
    with pytest.raises(InterpretError) as info:
        interpret_json("tda-2024", data)
    assert info.value.code == code


def test_unknown_profile_raises_key_error():
    with pytest.raises(KeyError):
        interpret_json("wsop", {"situation": {"big_blind": 100, "stack": 5}, "observed": {"declared": "fold"}})
