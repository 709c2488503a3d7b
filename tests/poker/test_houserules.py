"""House-rule profiles: each parameter's value as read from the rulebook, and its citation.

Every case below is one parameter of one profile; its test id names the
rulebook section it was read from (e.g. ``004 #44 oversized_chip_facing_blinds``).
"""

import json
from pathlib import Path

import pytest

from poker.houserules import (
    PARAMETERS,
    PROFILES,
    Citation,
    cite,
    get_profile,
    is_substantial_action,
    misdeal_still_possible,
)

DATA = Path(__file__).resolve().parents[2] / "rules" / "rulebooks"

# (profile, parameter, value, section cited)
CASES = [
    # 000 casino cash
    ("casino-cash", "min_raise", "last_full_raise", "000 Aktionen 3"),
    ("casino-cash", "split_limit_raise_cap", 3, "000 Aktionen 3"),
    ("casino-cash", "split_limit_cap_lifted_heads_up", True, "000 Aktionen 3"),
    ("casino-cash", "short_all_in_reopens", "cumulative", "000 Aktionen 5"),
    ("casino-cash", "oversized_chip_facing_blinds", "call", "000 Aktionen 4"),
    ("casino-cash", "oversized_chip_facing_bet", "call", "000 Aktionen 4"),
    ("casino-cash", "oversized_chip_opening_bet", "bet_chip_value", "000 Aktionen 4"),
    ("casino-cash", "oversized_chip_raise_no_amount", "chip_value", "000 Aktionen 4"),
    ("casino-cash", "multiple_chips", "call_unless_one_chip_removable", "000 Aktionen 4"),
    ("casino-cash", "short_raise_silent", "fifty_percent", "000 Aktionen 5"),
    ("casino-cash", "silent_raise_allowed", True, "000 Aktionen 3"),
    ("casino-cash", "string_raise_counts_as", "call", "000 Aktionen 3"),
    ("casino-cash", "string_bet_counts_as", "first_motion", "000 Aktionen 2"),
    ("casino-cash", "verbal_binding", True, "000 Allgemein 4"),
    ("casino-cash", "out_of_turn_changed_by", ("bet", "raise"), "000 Aktionen 2"),
    ("casino-cash", "undercall", "complete_or_fold", "000 Aktionen 2"),
    ("casino-cash", "odd_chip", "left_of_button", "000 Allgemein 8"),
    ("casino-cash", "odd_chip_unit", "small_blind", "000 Allgemein 8"),
    ("casino-cash", "bet_unit", "small_blind", "000 Allgemein 8"),
    ("casino-cash", "bet_unit_big_blind_stakes", ((2, 5),), "000 Allgemein 8"),
    ("casino-cash", "substantial_action", "two_actions", "000 Allgemein 9"),
    ("casino-cash", "misdeal_after_flop", False, "000 Allgemein 9"),
    # 001 Wynental
    ("wynental", "min_raise", "last_full_raise", "001 6.17"),
    ("wynental", "short_all_in_reopens", "cumulative", "001 6.17"),
    ("wynental", "split_limit_raise_cap", None, "001 6.16"),
    ("wynental", "oversized_chip_facing_blinds", "call", "001 6.20"),
    ("wynental", "oversized_chip_facing_bet", "call", "001 6.20"),
    ("wynental", "oversized_chip_opening_bet", "bet_chip_value", "001 6.20"),
    ("wynental", "oversized_chip_raise_no_amount", "chip_value", "001 6.20"),
    ("wynental", "silent_raise_allowed", False, "001 6.18"),
    ("wynental", "string_raise_counts_as", "call", "001 6.28"),
    ("wynental", "verbal_binding", True, "001 6.19"),
    ("wynental", "out_of_turn_changed_by", ("bet", "raise"), "001 6.19"),
    ("wynental", "odd_chip", "left_of_button", "001 Odd Chips"),
    ("wynental", "ante_format", "every_player", "001 Ante"),
    ("wynental", "button_rule", "button_stays_no_small_blind", "001 6.10"),
    ("wynental", "heads_up_button", "small_blind_on_button", "001 Heads up"),
    ("wynental", "clock_seconds", 30, "001 6.13"),
    ("wynental", "clock_expiry", "dead", "001 6.13"),
    ("wynental", "showdown_no_bet", "left_of_button", "001 6.21"),
    # 002 betting rules
    ("betting-rules", "min_raise", "double_previous", "002 #4"),
    ("betting-rules", "min_bet", "big_blind", "002 #3"),
    ("betting-rules", "split_limit_raise_cap", None, "002 #2"),
    ("betting-rules", "verbal_binding", True, "002 #5"),
    ("betting-rules", "short_raise_declared", "fifty_percent_or_withdraw", "002 #6"),
    ("betting-rules", "out_of_turn_changed_by", ("bet", "call", "raise"), "002 #8"),
    ("betting-rules", "out_of_turn_check_restricts", True, "002 #8"),
    ("betting-rules", "undercall", "complete", "002 #10"),
    ("betting-rules", "oversized_chip_facing_bet", "call", "002 #11"),
    ("betting-rules", "oversized_chip_facing_blinds", "call", "002 #11"),
    ("betting-rules", "multiple_chips", "call_unless_one_chip_removable", "002 #12"),
    ("betting-rules", "short_raise_silent", "bet_plus_half", "002 #13"),
    ("betting-rules", "string_raise_counts_as", "call", "002 #13"),
    ("betting-rules", "short_bet", "complete_to_minimum", "002 #14"),
    # 003 NLHE
    ("nlhe", "min_raise", "last_full_raise", "003 Einsätze und Annoncen"),
    ("nlhe", "min_bet", "big_blind", "003 Flop"),
    ("nlhe", "short_all_in_reopens", "cumulative", "003 All-In"),
    ("nlhe", "short_all_in_caller_may_reraise", False, "003 All-In"),
    ("nlhe", "oversized_chip_facing_bet", "call", "003 Einsätze und Annoncen"),
    ("nlhe", "string_bet_counts_as", "minimum_bet", "003 Einsätze und Annoncen"),
    ("nlhe", "string_raise_counts_as", "call", "003 Einsätze und Annoncen"),
    ("nlhe", "verbal_allows_several_motions", True, "003 Einsätze und Annoncen"),
    ("nlhe", "undercall", "complete_or_fold", "003 Einsätze und Annoncen"),
    ("nlhe", "verbal_binding", True, "003 Ausserordentliche und ordentliche Handlungen der Spieler"),
    (
        "nlhe",
        "out_of_turn_changed_by",
        ("bet", "raise"),
        "003 Ausserordentliche und ordentliche Handlungen der Spieler",
    ),
    ("nlhe", "odd_chip", "left_of_button", "003 Pot Teilung / Odd-Chips"),
    ("nlhe", "heads_up_button", "small_blind_on_button", "003 Heads-Up"),
    ("nlhe", "showdown_no_bet", "left_of_button", "003 Showdown Reihenfolge"),
    # 004 MunotPoker
    ("munotpoker", "odd_chip", "left_of_button", "004 #20"),
    ("munotpoker", "clock_seconds", 30, "004 #29"),
    ("munotpoker", "clock_countdown_seconds", 5, "004 #29"),
    ("munotpoker", "clock_expiry", "dead_if_facing_bet_else_check", "004 #29"),
    ("munotpoker", "button_rule", "no_dead_button", "004 #32"),
    ("munotpoker", "heads_up_button", "small_blind_on_button", "004 #34"),
    ("munotpoker", "heads_up_no_double_big_blind", True, "004 #34"),
    ("munotpoker", "misdeal_until", "substantial_action", "004 #35"),
    ("munotpoker", "substantial_action", "two_actions_one_with_chips_or_three", "004 #36"),
    ("munotpoker", "showdown_no_bet", "left_of_button", "004 #17"),
    ("munotpoker", "verbal_vs_chips", "first_binds", "004 #40"),
    ("munotpoker", "silent_raise_allowed", True, "004 #42"),
    ("munotpoker", "min_raise", "last_full_raise", "004 #43"),
    ("munotpoker", "short_raise_silent", "fifty_percent", "004 #43"),
    ("munotpoker", "short_raise_declared", "minimum_raise", "004 #43"),
    ("munotpoker", "declared_raise_amount", "total", "004 #43"),
    ("munotpoker", "oversized_chip_facing_blinds", "raise_to_chip_value", "004 #44"),
    ("munotpoker", "oversized_chip_facing_bet", "call", "004 #44"),
    ("munotpoker", "oversized_chip_raise_no_amount", "chip_value", "004 #44"),
    ("munotpoker", "multiple_chips", "call_unless_one_chip_removable", "004 #45"),
    ("munotpoker", "short_all_in_reopens", "cumulative", "004 #47"),
    ("munotpoker", "split_limit_raise_cap", None, "004 #48"),
    ("munotpoker", "verbal_binding", True, "004 #51"),
    ("munotpoker", "undercall", "call_if_heads_up_or_opening_bet", "004 #51"),
    ("munotpoker", "short_bet", "complete_to_minimum", "004 #52"),
    ("munotpoker", "out_of_turn_changed_by", ("bet", "raise"), "004 #53"),
    ("munotpoker", "pot_declared_in_no_limit", "minimum", "004 #54"),
    ("munotpoker", "call_without_bet_is", "check", "004 #55"),
    ("munotpoker", "raise_without_bet_is", "bet", "004 #55"),
    ("munotpoker", "check_facing_bet_allows", "call_or_fold", "004 #55"),
    ("munotpoker", "string_raise_counts_as", "call", "004 #56"),
    ("munotpoker", "unclear_amount", "highest_reasonable_up_to_pot", "004 #57"),
    ("munotpoker", "ante_format", "big_blind_ante", "004 #81"),
    # TDA 2024
    ("tda-2024", "showdown_no_bet", "left_of_button", "TDA 2024 Rule 15"),
    ("tda-2024", "odd_chip", "left_of_button", "TDA 2024 Rule 20"),
    ("tda-2024", "clock_seconds", 30, "TDA 2024 Rule 29"),
    ("tda-2024", "clock_expiry", "dead", "TDA 2024 Rule 29"),
    ("tda-2024", "heads_up_button", "small_blind_on_button", "TDA 2024 Rule 34"),
    ("tda-2024", "substantial_action", "two_actions_one_with_chips_or_three", "TDA 2024 Rule 36"),
    ("tda-2024", "min_raise", "last_full_raise", "TDA 2024 Rule 43"),
    ("tda-2024", "short_raise_silent", "fifty_percent", "TDA 2024 Rule 43"),
    ("tda-2024", "oversized_chip_facing_blinds", "call", "TDA 2024 Rule 44"),
    ("tda-2024", "oversized_chip_opening_bet", "bet_chip_value", "TDA 2024 Rule 44"),
    ("tda-2024", "multiple_chips", "call_unless_one_chip_removable", "TDA 2024 Rule 45"),
    ("tda-2024", "short_all_in_reopens", "cumulative", "TDA 2024 Rule 47"),
    ("tda-2024", "short_all_in_caller_may_reraise", True, "TDA 2024 Rule 47"),
    ("tda-2024", "undercall", "call_if_heads_up_or_opening_bet", "TDA 2024 Rule 51"),
    ("tda-2024", "out_of_turn_changed_by", ("bet", "raise"), "TDA 2024 Rule 53"),
    ("tda-2024", "string_raise_counts_as", "call", "TDA 2024 Rule 56"),
    ("tda-2024", "unclear_amount", "highest_reasonable_up_to_pot", "TDA 2024 Rule 57"),
    # floor procedures (poker/floor/procedures.py)
    ("casino-cash", "exposed_card_on_deal", "misdeal", "000 Allgemein 9"),
    ("casino-cash", "penalty_kinds", ("warning", "sit_out_hands", "disqualification"), "000 Strafen 4"),
    ("casino-cash", "penalty_sit_out", "dealt_in_hand_killed", "000 Allgemein 6"),
    ("wynental", "exposed_card_on_deal", "replace", "001 6.25"),
    ("wynental", "premature_board_card", "becomes_burn_card", "001 6.25"),
    ("wynental", "penalty_kinds", ("sit_out_orbits", "disqualification"), "001 6.37"),
    ("wynental", "penalty_sit_out", "dealt_in_hand_killed", "001 6.37"),
    ("betting-rules", "skipped_player_late", "must_object_immediately", "002 #9"),
    ("nlhe", "exposed_card_on_deal", "replace_one_misdeal_two", "003 Miss-Deal"),
    ("nlhe", "premature_board_card", "reshuffle", "003 Miss-Deal"),
    ("nlhe", "four_card_flop", "redress", "003 Burn Cards"),
    (
        "nlhe",
        "skipped_player_late",
        "must_object_immediately",
        "003 Ausserordentliche und ordentliche Handlungen der Spieler",
    ),
    ("munotpoker", "exposed_card_on_deal", "replace_one_misdeal_two", "004 #35"),
    ("munotpoker", "premature_board_card", "reshuffle", "004 #39"),
    ("munotpoker", "four_card_flop", "random_burn", "004 #39"),
    ("munotpoker", "skipped_player_late", "floor_dead_or_passive", "004 #53"),
    ("munotpoker", "penalty_kinds", ("warning", "sit_out_hands", "sit_out_orbits", "disqualification"), "004 #71"),
    ("munotpoker", "penalty_sit_out", "dealt_in_hand_killed", "004 #71"),
    ("tda-2024", "exposed_card_on_deal", "replace_one_misdeal_two", "TDA 2024 Rule 35"),
    ("tda-2024", "four_card_flop", "random_burn", "TDA 2024 Rule 39"),
    ("tda-2024", "skipped_player_late", "oot_binding_floor_decides", "TDA 2024 Rule 53"),
    (
        "tda-2024",
        "penalty_kinds",
        ("warning", "sit_out_hands", "sit_out_orbits", "disqualification"),
        "TDA 2024 Rule 71",
    ),
]


@pytest.mark.parametrize("slug,parameter,value,label", CASES, ids=[f"{c[3]} {c[1]}" for c in CASES])
def test_parameter_is_read_from_the_cited_rule(slug, parameter, value, label):
    profile = get_profile(slug)
    assert getattr(profile, parameter) == value
    assert Citation.parse(label) in cite(profile, parameter)
    assert parameter not in profile.inherited


def _shipped_rules():
    out = set()
    for path in DATA.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        out |= {(data["slug"], r["number"]) for r in data["rules"]}
    return out


def test_every_citation_of_every_profile_resolves_to_a_shipped_rule():
    shipped = _shipped_rules()
    for profile in PROFILES.values():
        for parameter in PARAMETERS:
            for c in cite(profile, parameter):
                if c.rulebook == "tda-2024":
                    assert c.section.startswith("TDA 2024 Rule "), c
                    assert 1 <= int(c.section.rsplit(" ", 1)[1]) <= 71, c
                else:
                    assert (c.rulebook, c.section) in shipped, (profile.slug, parameter, c)


def test_every_house_value_cites_its_own_rulebook_or_is_marked_inherited():
    for profile in PROFILES.values():
        if profile.rulebook is None:
            continue
        for parameter in PARAMETERS:
            cites = cite(profile, parameter)
            if parameter in profile.inherited:
                assert all(c.rulebook == "tda-2024" for c in cites), (profile.slug, parameter)
            elif getattr(profile, parameter) not in (None, ()):
                assert cites and all(c.rulebook == profile.rulebook for c in cites), (profile.slug, parameter)


def test_the_profiles_disagree_where_the_rulebooks_do():
    assert get_profile("betting-rules").min_raise == "double_previous"
    assert {p.min_raise for s, p in PROFILES.items() if s != "betting-rules"} == {"last_full_raise"}
    assert get_profile("munotpoker").oversized_chip_facing_blinds == "raise_to_chip_value"
    assert get_profile("casino-cash").oversized_chip_facing_blinds == "call"
    assert get_profile("wynental").clock_expiry != get_profile("munotpoker").clock_expiry
    assert get_profile("wynental").button_rule == "button_stays_no_small_blind"
    assert get_profile("munotpoker").button_rule == "no_dead_button"


def test_engine_fields_use_the_engine_vocabulary():
    for profile in PROFILES.values():
        assert profile.min_raise in ("last_full_raise", "double_previous")
        assert profile.short_all_in_reopens in ("cumulative", "pokerkit")
        assert profile.odd_chip == "left_of_button"
        assert profile.showdown_no_bet == "left_of_button"


def test_get_profile_accepts_seed_numbers_and_file_names():
    assert get_profile("004") is get_profile("munotpoker")
    assert get_profile("002_4395399a61500fa3.txt").slug == "betting-rules"
    assert get_profile("TDA").slug == "tda-2024"
    with pytest.raises(KeyError):
        get_profile("wsop")


def test_citation_labels_name_the_file_and_section():
    assert str(cite(get_profile("munotpoker"), "oversized_chip_facing_blinds")[0]) == "004 #44"
    assert str(cite(get_profile("tda-2024"), "multiple_chips")[0]) == "TDA 2024 Rule 45"
    with pytest.raises(KeyError):
        cite(get_profile("nlhe"), "no_such_parameter")


def test_substantial_action_per_004_36():
    """004 #36: two actions with chips, or any three; two folds or two checks are not."""
    p = get_profile("munotpoker")
    assert not is_substantial_action(p, ["fold", "fold"])
    assert not is_substantial_action(p, ["check", "check"])
    assert is_substantial_action(p, ["fold", "call"])
    assert is_substantial_action(p, ["fold", "fold", "fold"])
    assert misdeal_still_possible(p, ["fold", "fold"])
    assert not misdeal_still_possible(p, ["call", "fold"])


def test_misdeal_deadline_per_000_allgemein_9():
    """000 Allgemein 9: two active actions of any kind, and never after the flop."""
    p = get_profile("casino-cash")
    assert not misdeal_still_possible(p, ["fold", "fold"])
    assert misdeal_still_possible(p, ["fold"])
    assert not misdeal_still_possible(p, [], street="flop")


def test_profile_json_shape_lists_every_parameter():
    data = get_profile("nlhe").to_dict()
    assert set(data["parameters"]) == set(PARAMETERS)
    odd = data["parameters"]["odd_chip"]
    assert odd["value"] == "left_of_button" and odd["citations"][0]["label"] == "003 Pot Teilung / Odd-Chips"
    assert data["parameters"]["clock_seconds"]["inherited"] is True


def test_profiles_and_interpreter_import_without_django():
    import subprocess
    import sys

    code = (
        "import sys, poker.houserules, poker.floor.interpret; "
        "sys.exit(1 if any(m == 'django' or m.startswith('django.') for m in sys.modules) else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=str(DATA.parents[1])).returncode == 0


def test_every_parameter_is_read_outside_the_profiles():
    """Each profile parameter is read by code outside poker/houserules/ (``.name`` or
    ``"name"``), so no profile value is data nobody applies."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    sources = [
        p.read_text(encoding="utf-8")
        for folder in ("poker", "tables", "rules", "room", "tournaments")
        for p in (root / folder).rglob("*.py")
        if "houserules" not in p.parts and "migrations" not in p.parts
    ]
    text = "\n".join(sources)
    unread = [name for name in PARAMETERS if not re.search(rf"\.{name}\b|[\"']{name}[\"']", text)]
    assert unread == []


def test_one_profile_carries_cash_and_tournament_rules():
    from poker.tournament import MUNOT, WYNENTAL, rules_for
    from poker.tournament.rules import for_profile

    assert for_profile(get_profile("wynental")) is WYNENTAL and for_profile(get_profile("004")) is MUNOT
    assert for_profile(get_profile("casino-cash")) is None
    assert rules_for("munot").house is get_profile("munotpoker")
    # 004 #32: no dead button; 001 6.10: the button stays and the small blind is dead.
    assert MUNOT.button_mode == "moving_button" and WYNENTAL.button_mode == "dead_button"
