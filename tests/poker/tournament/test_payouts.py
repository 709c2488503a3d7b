"""Payout tables and simultaneous eliminations: 001 (by stack), 003
"Ausscheiden mehrerer Spieler", 004 #79 (equal shares after hand-for-hand)."""

from decimal import Decimal

import pytest

from poker.rulebooks import cite
from poker.tournament.payouts import Bust, payout_table, place_busts, places_paid_by_default, winner_finish
from poker.tournament.rules import MUNOT, WYNENTAL


def test_default_structure_sums_to_the_pool_in_ints():
    for entrants in (2, 6, 11, 21, 100, 1000, 10_000):
        pool = entrants * 1000 + 7
        table = payout_table(pool, entrants)
        assert sum(table.amounts) == pool and all(isinstance(a, int) for a in table.amounts)
        assert list(table.amounts) == sorted(table.amounts, reverse=True)
        assert table.places_paid == places_paid_by_default(entrants)
    big = payout_table(10_000 * 10_000, 10_000, unit=100)
    assert big.places_paid == 1500 and big.bubble == 1501
    assert big.amounts[-1] >= 10_000 and all(a % 100 == 0 for a in big.amounts[1:])  # min cash above the buy-in


def test_payout_table_from_percentages_or_amounts():
    t = payout_table(1001, 30, percentages=["50", 30, Decimal("20")])
    assert t.amounts == (501, 300, 200) and t.prize(4) == 0 and t.bubble == 4  # the rest goes to first
    assert payout_table(1000, 30, percentages=[50.5, 49.5]).amounts == (505, 495)
    assert payout_table(900, 3, amounts=[500, 400]).amounts == (500, 400)
    with pytest.raises(ValueError):
        payout_table(1000, 30, percentages=[50, 30])
    with pytest.raises(ValueError):
        payout_table(1000, 30, amounts=[500, 400])
    with pytest.raises(ValueError):
        payout_table(1000, 30, percentages=[20, 80])  # increasing prizes
    with pytest.raises(ValueError):
        payout_table(1000, 2, percentages=[50, 30, 20])


def test_wynental_players_busting_together_placed_by_stack():
    """001 "Scheiden gleichzeitig zwei Spieler aus, ist derjenige besser
    klassiert, welcher vor dem Ausscheiden den höheren Chipstack hatte"."""
    table = payout_table(10_000, 40, percentages=[40, 25, 15, 10, 6, 4])
    res = place_busts([Bust("a", 500), Bust("b", 1200), Bust("c", 800)], 7, WYNENTAL, table)
    assert res.rule == cite("001 Ende des Turniers") and res.players_left == 4
    assert [(f.player, f.place, f.prize) for f in res.finishes] == [("b", 5, 600), ("c", 6, 400), ("a", 7, 0)]
    # Equal stacks: no rule decides -- they tie and share.
    res = place_busts([Bust("a", 800), Bust("b", 800)], 6, WYNENTAL, table)
    assert {f.places for f in res.finishes} == {(5, 6)} and [f.prize for f in res.finishes] == [500, 500]


def test_munot_before_hand_for_hand_placed_by_stack_per_003():
    """Before hand-for-hand 004 has no rule; 003 "Ausscheiden mehrerer
    Spieler": the bigger stack at the start of the hand places better."""
    res = place_busts([Bust("a", 100), Bust("b", 300)], 50, MUNOT)
    assert res.rule == cite("003 Ausscheiden mehrerer Spieler")
    assert [(f.player, f.place) for f in res.finishes] == [("b", 49), ("a", 50)]


def test_munot_79_hand_for_hand_busts_share_prizes_equally_with_explicit_remainder():
    """004 #79: after hand-for-hand is announced, players out in one hand
    share the prize sum, bubble deal included, in equal parts."""
    table = payout_table(
        100_000, 100, amounts=[30_000, 20_000, 14_000, 10_000, 8_000, 6_000, 5_000, 3_500, 2_500, 1_000]
    )
    busts = [Bust("a", 5_000), Bust("b", 9_000), Bust("c", 5_000)]
    res = place_busts(busts, 12, MUNOT, table, hand_for_hand=True, bubble_deal=1_000)
    assert res.rule == cite("004 #79")
    # places 10, 11, 12: 1,000 + bubble deal 1,000 + 0 = 2,000 -> 666 each + 2 units
    assert [f.prize for f in res.finishes] == [667, 667, 666]
    assert [f.player for f in res.finishes] == ["b", "a", "c"]  # rest by stack at the start, then order given
    assert [f.extra for f in res.finishes] == [1, 1, 0] and sum(f.prize for f in res.finishes) == 2_000
    assert all(f.places == (10, 12) and len(f.shared_with) == 2 for f in res.finishes)
    # unit: shares rounded to whole 100s, the rest served 100 at a time
    t100 = payout_table(100_000, 100, amounts=table.amounts, unit=100)
    res = place_busts(busts, 11, MUNOT, t100, hand_for_hand=True)  # places 9-11: 2,500 + 1,000 + 0
    assert [f.prize for f in res.finishes] == [1_200, 1_200, 1_100]


def test_bust_errors_and_winner():
    with pytest.raises(ValueError):
        place_busts([], 5, MUNOT)
    with pytest.raises(ValueError):
        place_busts([Bust("a", 1), Bust("b", 1)], 2, MUNOT)
    with pytest.raises(ValueError):
        place_busts([Bust("a", 1), Bust("a", 2)], 9, MUNOT)
    table = payout_table(1000, 10, percentages=[70, 30])
    assert winner_finish("w", table, WYNENTAL).prize == 700
