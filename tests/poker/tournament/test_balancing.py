"""Balancing: 001 Balancing (within one player) and 004 #11 (from a
difference of two, big blind player to the worst position, never the SB)."""

import random

import pytest

from poker.rulebooks import cite
from poker.tournament.balancing import plan_balancing
from poker.tournament.buttons import first_hand_positions, next_positions
from poker.tournament.model import apply_moves, validate_tables
from poker.tournament.rules import MUNOT, WYNENTAL

from .helpers import all_players, spread, table


def test_munot_11_balancing_moves_big_blind_player_never_into_small_blind():
    """004 #11: the player due for the big blind moves to the "schlechteste"
    position of the short table; "Der Smallblind kann niemals besetzt werden"."""
    # Long table: last hand button 1, SB 2, BB 3 -> seat 4 is due for the BB.
    long = table(1, range(1, 9), button=1, sb=2, bb=3)
    # Short table: last hand button 1, SB 2, BB 4 (seat 3 empty).  Seat 3
    # would be the small blind next hand; seat 8 posts the big blind soonest.
    short = table(2, [1, 2, 4, 5, 6, 7], button=1, sb=2, bb=4)
    plan = plan_balancing([long, short], MUNOT)
    assert plan.rule == cite("004 #11") and plan.spread_before == 2 and plan.spread_after == 0
    (move,) = plan.moves
    assert (move.player, move.from_table, move.from_seat) == ("T1s4", 1, 4)
    assert (move.to_table, move.to_seat) == (2, 8) and move.rule == cite("004 #11")
    assert not move.waits_for_button


def test_munot_11_moved_player_takes_the_big_blind_when_possible():
    long = table(1, range(1, 9), button=1, sb=2, bb=3)
    short = table(2, [1, 2, 3, 4, 6, 7], button=2, sb=3, bb=4)
    (move,) = plan_balancing([long, short], MUNOT).moves
    assert move.to_seat == 5
    after = apply_moves([long, short], [move])
    nxt = next_positions(after[1].positions, after[1].seats, MUNOT)
    assert nxt.big_blind == 5  # he posts the big blind in his first hand


def test_munot_11_no_balancing_below_a_difference_of_two():
    plan = plan_balancing([table(1, range(1, 8)), table(2, range(1, 7))], MUNOT)
    assert plan.moves == () and plan.spread_before == 1


def test_wynental_balancing_tables_within_one_player_random_free_seat():
    """001 Balancing: "Abweichungen von maximal einer Person"; free seats
    "gleichmässig und fair aufgefüllt" (seat drawn at random)."""
    floor = [
        table(1, range(1, 11), max_seats=10, button=1, sb=2, bb=3),
        table(2, range(1, 10), max_seats=10, button=1, sb=2, bb=3),
        table(3, [1, 2, 3, 4, 5, 6], max_seats=10, button=1, sb=2, bb=3),
    ]
    plan = plan_balancing(floor, WYNENTAL, random.Random(5))
    assert plan.rule == cite("001 Balancing") and plan.spread_after <= 1
    # 10, 9, 6 -> 8, 9, 8: the fullest table (ties: lowest number) gives.
    assert [(m.from_table, m.to_table) for m in plan.moves] == [(1, 3), (1, 3)]
    assert [m.from_seat for m in plan.moves] == [4, 5]  # due for the big blind next, in turn
    assert {m.to_seat for m in plan.moves} <= {7, 8, 9, 10}
    assert sorted(len(t.seats) for t in apply_moves(floor, plan.moves)) == [8, 8, 9]
    drawn = {plan_balancing(floor, WYNENTAL, random.Random(i)).moves[0].to_seat for i in range(30)}
    assert drawn == {7, 8, 9, 10}


@pytest.mark.parametrize("rules", [WYNENTAL, MUNOT], ids=["wynental", "munot"])
def test_property_plans_leave_tables_within_one_player(rules):
    rng = random.Random(99)
    for _ in range(120):
        max_seats = rng.randint(6, 10)
        floor = []
        for number in range(1, rng.randint(2, 12)):
            occupied = sorted(rng.sample(range(1, max_seats + 1), rng.randint(2, max_seats)))
            t = table(number, occupied, max_seats=max_seats)
            if rng.random() < 0.8:
                pos = first_hand_positions(rng.choice(occupied), occupied, rules)
                t = table(number, occupied, max_seats, pos.button, pos.small_blind, pos.big_blind)
            floor.append(t)
        before = sorted(all_players(floor))
        plan = plan_balancing(floor, rules, rng)
        after = apply_moves(floor, plan.moves)
        validate_tables(after)
        assert sorted(all_players(after)) == before
        if spread(floor) >= rules.balance_at_difference:
            assert spread(after) <= 1 and plan.spread_after == spread(after)
        else:
            assert plan.moves == ()
        if rules is MUNOT:
            for m in plan.moves:
                dst = next(t for t in floor if t.number == m.to_table)
                if dst.positions and not m.waits_for_button:
                    occ = [s for s in dst.seats] + [
                        x.to_seat for x in plan.moves if x.to_table == m.to_table and not x.waits_for_button
                    ]
                    # never the small blind of the next hand at the new table
                    assert next_positions(dst.positions, occ, rules).small_blind != m.to_seat or len(occ) == 2
