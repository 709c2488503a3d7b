"""Final-table deals (chip chop, ICM after Malmuth-Harville) and the house
payout curve.  Neither rulebook regulates a deal; 004 #79 names the players'
"Bubble-Deal" only.  No rulebook gives a payout structure (house default)."""

from decimal import Decimal
from fractions import Fraction
from itertools import permutations

import pytest

from poker.tournament.icm import MAX_ICM_PLAYERS, chip_chop, deal, icm_equities, round_shares
from poker.tournament.payouts import check_amounts, payout_table, percentage_table, places_paid_by_default


def test_icm_gives_the_textbook_equities_for_5000_3000_2000_and_50_30_20():
    equities = icm_equities([5000, 3000, 2000], [50, 30, 20])
    # P(1st) = stack share; 2nd given the winner: 5000 after 3000 wins: 5/7 ...
    assert equities == [Fraction(1075, 28), Fraction(131, 4), Fraction(202, 7)]
    assert [round(float(e), 2) for e in equities] == [38.39, 32.75, 28.86]
    assert sum(equities) == 100


def test_icm_equal_stacks_share_equally_and_winner_takes_all_is_chip_chop():
    assert icm_equities([1000] * 4, [40, 30, 20, 10]) == [Fraction(25)] * 4
    assert icm_equities([6000, 3000, 1000], [90]) == chip_chop([6000, 3000, 1000], 90)


def test_icm_agrees_with_summing_over_every_finishing_order():
    stacks, prizes = [4000, 2500, 2500, 700, 300], [500, 250, 150, 100]
    expected = [Fraction(0)] * len(stacks)
    for order in permutations(range(len(stacks))):
        p, left = Fraction(1), sum(stacks)
        for i in order:
            p *= Fraction(stacks[i], left)
            left -= stacks[i]
        for place, i in enumerate(order):
            expected[i] += p * (prizes[place] if place < len(prizes) else 0)
    assert icm_equities(stacks, prizes) == expected


def test_icm_for_ten_players_is_exact_and_more_are_refused():
    stacks = [1000 * (i + 1) for i in range(MAX_ICM_PLAYERS)]
    prizes = [400, 250, 150, 80, 50, 30, 20, 10, 10]
    equities = icm_equities(stacks, prizes)
    assert sum(equities) == sum(prizes)
    assert equities == sorted(equities)  # a bigger stack is worth more
    assert all(e < s * sum(prizes) / sum(stacks) for e, s in zip(equities[-1:], stacks[-1:]))  # the leader < chip share
    with pytest.raises(ValueError):
        icm_equities(stacks + [500], prizes)
    for bad in ([1000], [1000, 0], [1000, -5]):
        with pytest.raises(ValueError):
            icm_equities(bad, [10])
    with pytest.raises(ValueError):
        icm_equities([1000, 2000], [30, 20, 10])


def test_chip_chop_is_proportional_to_the_stacks():
    assert chip_chop([6000, 3000, 1000], 1000) == [600, 300, 100]
    assert chip_chop([2, 1], 100) == [Fraction(200, 3), Fraction(100, 3)]


def test_rounding_keeps_the_sum_and_stays_within_one_unit():
    d = deal("chip_chop", [5000, 3000, 2001], [500, 300, 200], unit=5)
    assert d.amounts == (500, 300, 200) and d.pool == 1000
    d = deal("icm", [5000, 3000, 2000], [50, 30, 20])
    assert d.amounts == (38, 33, 29) and sum(d.amounts) == 100
    # thirds of 100 in units of 10: 30/30/30, the 10 left to the largest rest (tie: larger stack)
    assert round_shares([Fraction(100, 3)] * 3, [10, 30, 20], unit=10) == [30, 40, 30]
    # a pool that is no multiple of the unit: the rest below one unit goes to the chip leader
    assert round_shares([Fraction(51), Fraction(51)], [1, 2], unit=5) == [50, 52]
    for stacks in ([7, 5, 3, 1], [123, 456, 789], [1, 1, 1, 1, 1, 1, 1]):
        for unit in (1, 5, 25):
            for method in ("icm", "chip_chop"):
                prizes = [977, 501, 250][: len(stacks)]
                d = deal(method, stacks, prizes, unit)
                assert sum(d.amounts) == sum(prizes)
                assert all(abs(a - s) < 2 * unit for a, s in zip(d.amounts, d.shares))
    with pytest.raises(ValueError):
        deal("coin_flip", [1, 2], [10])


def test_percentage_tables_pay_about_ten_to_fifteen_percent_and_sum_to_100():
    assert percentage_table(12) == [50, 30, 20]
    for entrants in (45, 100, 360, 1000):
        table = percentage_table(entrants)
        assert sum(table) == 100 and all(p == round(p, 2) for p in table)
        assert table == sorted(table, reverse=True)
        assert 0.10 <= len(table) / entrants <= 0.16 and len(table) == places_paid_by_default(entrants)
    assert percentage_table(100)[0] == Decimal("24.70")
    t = payout_table(10_050, 100, percentages=percentage_table(100), unit=50)
    assert sum(t.amounts) == 10_050 and all(a % 50 == 0 for a in t.amounts[1:]) and t.amounts[0] % 50 == 0


def test_edited_amounts_are_checked():
    check_amounts([600, 400], 1000, 10)
    for amounts, message in (
        ([600, 300], "add up to 900"),
        ([400, 600], "place 2 would get more than place 1"),
        ([500, 500.0], "whole amount"),
        ([500, -1, 501], "whole amount"),
        ([], "no place"),
        ([100] * 11, "11 places paid"),
    ):
        with pytest.raises(ValueError, match=message):
            check_amounts(amounts, 1000, 10)
