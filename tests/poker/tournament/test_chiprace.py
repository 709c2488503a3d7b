"""Chip race and color-up: 001 Chiprace vs 004 #24."""

import random

import pytest

from poker.rulebooks import cite
from poker.tournament.chiprace import Card, ChipRaceEntry, chip_race, exchange_found_chips, parse_card
from poker.tournament.rules import MUNOT, WYNENTAL, UnsupportedByRulebook


def test_parse_card():
    assert parse_card("As") == Card(14, "s") and parse_card("10h") == Card(10, "h") and str(Card(10, "d")) == "Td"
    with pytest.raises(ValueError):
        parse_card("1x")


def test_wynental_chiprace_one_unit_missing_is_rounded_up():
    """001 Chip Race: "Fehlt eine Einheit für die nächsthöhere Einheit wird aufgerundet"."""
    entries = [ChipRaceEntry("a", 1, 1075, 3), ChipRaceEntry("b", 2, 2000, 0)]
    res = chip_race(entries, 25, 100, WYNENTAL)  # no racer: no cards needed
    a = res.line("a")
    assert a.rounded_up and a.cards == () and a.new_stack == 1100 and res.rule == cite("001 Chip Race")
    assert res.line("b").new_stack == 2000 and res.chip_value_change == 25


def test_wynental_chiprace_one_card_each_highest_wins_all_clubs_high():
    """001 Chip Race: one card per player with odd chips, from seat 1; the
    highest card wins all the chips, rounded up; suits Kreuz, Pik, Herz, Karo."""
    entries = [
        ChipRaceEntry("s3", 3, 1050, 2),  # 50 odd
        ChipRaceEntry("s1", 1, 525, 1),  # 25 odd
        ChipRaceEntry("s5", 5, 1150, 6),  # 150 -> one 100 exchanged, 50 odd
        ChipRaceEntry("s6", 6, 1075, 3),  # 75 -> rounded up, no card
    ]
    res = chip_race(entries, 25, 100, WYNENTAL, cards={"s1": ["Ks"], "s3": ["Kc"], "s5": ["Qc"]})
    assert [ln.seat for ln in res.lines] == [1, 3, 5, 6]
    assert res.total_odd_value == 125 and res.chips_awarded == 2  # 125 rounded up to 200
    assert res.line("s3").chips_won == 2 and res.line("s3").new_stack == 1000 + 200  # club king beats spade king
    assert res.line("s1").chips_won == 0 and res.line("s1").new_stack == 500
    assert res.line("s5").exchanged == 100 and res.line("s5").new_stack == 1100
    assert res.line("s6").rounded_up and res.line("s6").cards == ()


def test_wynental_chiprace_can_eliminate_a_player():
    """001 has no protection: a stack of odd chips only can be raced off."""
    entries = [ChipRaceEntry("short", 1, 25, 1), ChipRaceEntry("big", 2, 5050, 2)]
    res = chip_race(entries, 25, 100, WYNENTAL, cards={"short": ["2d"], "big": ["3d"]})
    assert res.line("short").eliminated and res.line("short").new_stack == 0
    assert res.line("big").new_stack == 5100


def test_munot_24_at_most_one_chip_each_and_nobody_busts():
    """004 #24: from seat 1; "maximal ein Chip"; nobody busts by the race --
    he gets the smallest chip still in play."""
    entries = [
        ChipRaceEntry("s1", 1, 1025, 1),  # 25 odd: 1 card
        ChipRaceEntry("s2", 2, 1075, 3),  # 75 odd: 3 cards
        ChipRaceEntry("s3", 3, 1050, 2),  # 50 odd: 2 cards
        ChipRaceEntry("s4", 4, 25, 1),  # his last chip: 1 card
        ChipRaceEntry("s6", 6, 3000, 0),
    ]
    cards = {"s1": ["Ad"], "s2": ["As", "2c", "3c"], "s3": ["Ah", "4c"], "s4": ["5c"]}
    res = chip_race(entries, 25, 100, MUNOT, cards=cards)
    # 175 odd = one chip + 75, and 75 >= half a chip: two chips.
    assert res.rule == cite("004 #24") and res.total_odd_value == 175 and res.chips_awarded == 2
    assert res.line("s2").chips_won == 1 and res.line("s3").chips_won == 1  # spades > hearts > diamonds
    assert res.line("s1").chips_won == 0 and res.line("s1").new_stack == 1000
    assert res.line("s2").new_stack == 1100 and res.line("s3").new_stack == 1100
    s4 = res.line("s4")
    assert s4.protected and s4.new_stack == 100 and not s4.eliminated
    assert all(ln.chips_won <= 1 for ln in res.lines)
    with pytest.raises(ValueError):
        chip_race(entries, 25, 100, MUNOT, cards={**cards, "s2": ["As"]})  # one card per odd chip


def test_munot_24_found_chips_are_exchanged_not_rounded_up():
    """004 #24: "3x 25er Chip ergibt nicht 1x 100" -- removed without replacement."""
    assert exchange_found_chips(75, 100, MUNOT).exchanged == 0
    found = exchange_found_chips(250, 100, MUNOT)
    assert (found.exchanged, found.removed, found.rule) == (200, 50, cite("004 #24"))
    with pytest.raises(UnsupportedByRulebook):
        exchange_found_chips(75, 100, WYNENTAL)


@pytest.mark.parametrize("rules", [WYNENTAL, MUNOT], ids=["wynental", "munot"])
def test_property_drawn_cards_are_reproducible_and_chips_accounted(rules):
    for seed in range(100):
        rng = random.Random(seed)
        entries = []
        for seat in range(1, rng.randint(2, 10) + 1):
            removed = rng.randint(0, 7)
            entries.append(
                ChipRaceEntry(f"p{seat}", seat, removed * 25 + rng.randint(0 if removed else 1, 5) * 1000, removed)
            )
        res = chip_race(entries, 25, 100, rules, rng=random.Random(seed))
        assert res == chip_race(entries, 25, 100, rules, rng=random.Random(seed))
        dealt = [c for ln in res.lines for c in ln.cards]
        assert len(dealt) == len(set(dealt))
        for ln in res.lines:
            assert ln.new_stack % 100 == 0
            if rules.chip_race_nobody_busts:
                assert not ln.eliminated and ln.chips_won <= 1
        assert sum(ln.new_stack for ln in res.lines) - sum(e.stack for e in entries) == res.chip_value_change
    with pytest.raises(ValueError):
        chip_race([ChipRaceEntry("x", 1, 25, 1), ChipRaceEntry("y", 2, 50, 2)], 25, 100, rules)  # no cards, no rng
    with pytest.raises(ValueError):
        chip_race([ChipRaceEntry("x", 1, 25, 2)], 25, 100, rules, rng=random.Random(1))
    with pytest.raises(ValueError):
        chip_race([], 25, 60, rules)
