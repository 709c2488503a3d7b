"""The dealer push with fair breaks and a player's hours from the hands (poker.staff, issue 28)."""

from collections import Counter
from datetime import datetime, timedelta

from poker.staff.hours import HandRecord, hours, seconds_by_day, sessions
from poker.staff.rotation import Move, after_push, plan_push

T0 = datetime(2026, 11, 27, 20, 0)


def test_a_push_moves_every_dealer_one_table_on_and_the_longest_rest_comes_in():
    moves = plan_push(
        ["T1", "T2", "T3"],
        {"T1": "ana", "T2": "ben", "T3": "cem"},
        {"dan": T0, "eva": T0 + timedelta(minutes=5)},
    )
    assert moves == [
        Move("dan", None, "T1"),
        Move("ana", "T1", "T2"),
        Move("ben", "T2", "T3"),
        Move("cem", "T3", None),
    ]
    assert after_push({"T1": "ana", "T2": "ben", "T3": "cem"}, moves) == {"T1": "dan", "T2": "ana", "T3": "ben"}


def test_empty_tables_are_filled_from_the_break_first():
    moves = plan_push(["T1", "T2"], {"T1": "ana", "T2": None}, {"ben": T0 + timedelta(minutes=9), "cem": T0})
    assert moves == [Move("cem", None, "T2")]


def test_nobody_resting_means_no_push():
    assert plan_push(["T1"], {"T1": "ana"}, {}) == []


def test_breaks_are_fair_over_a_night():
    """Five dealers on three tables for 30 pushes: each deals 18 downs and rests 12 (equal shares)."""
    tables = ["T1", "T2", "T3"]
    at = {"T1": "a", "T2": "b", "T3": "c"}
    rest_since = {"d": T0, "e": T0}
    downs: Counter = Counter()
    for push in range(1, 31):
        now = T0 + timedelta(minutes=20 * push)
        moves = plan_push(tables, at, rest_since)
        for move in moves:
            if move.source is None:
                rest_since.pop(move.dealer)
            if move.target is None:
                rest_since[move.dealer] = now
        at = after_push(at, moves)
        downs.update(at.values())
    assert set(downs.values()) == {18}, downs


def test_hours_come_from_the_hands_with_a_gap_splitting_sessions():
    hands = [
        HandRecord("T1", T0, T0 + timedelta(minutes=3)),
        HandRecord("T1", T0 + timedelta(minutes=5), T0 + timedelta(minutes=8)),
        HandRecord("T2", T0 + timedelta(minutes=30), T0 + timedelta(minutes=32)),
        HandRecord("T2", T0 + timedelta(minutes=50), T0 + timedelta(minutes=54)),
        HandRecord("T1", T0 + timedelta(hours=2), T0 + timedelta(hours=2, minutes=2)),
    ]
    found = sessions(hands)
    assert [(s.table, s.seconds, s.hands) for s in found] == [
        ("T1", 8 * 60, 2),
        ("T2", 24 * 60, 2),
        ("T1", 2 * 60, 1),
    ]
    assert seconds_by_day(found) == {T0.date(): 34 * 60}
    assert hours(34 * 60) == 0.57
