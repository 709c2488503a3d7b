"""moves_due: the test of the breaking and balancing plans on the player counts alone.

A bust that leaves nothing to do skips reading the floor's seats (tournaments.services.moves.plan_moves);
that is right only if, whenever moves_due says no, plan_breaks breaks nothing and plan_balancing moves
nobody, on any floor with those counts.  Random floors of both rulebooks (001 Balancing / 004 #10, #11,
final table 001 / 004 #78), registration open and closed.
"""

from __future__ import annotations

import random

import pytest

from poker.tournament import moves_due, plan_balancing, plan_breaks, rules_for
from tests.poker.tournament.helpers import table


def random_floor(rng: random.Random, max_seats: int):
    tables = []
    for number in range(1, rng.randint(1, 14) + 1):
        count = rng.choice([rng.randint(0, max_seats), max_seats, max_seats - 1, rng.randint(max_seats - 3, max_seats)])
        count = max(0, min(max_seats, count))
        occupied = sorted(rng.sample(range(1, max_seats + 1), count))
        button = occupied[0] if len(occupied) >= 2 else None
        tables.append(table(number, occupied, max_seats, button, *((occupied[1], occupied[-1]) if button else ())))
    return tables


@pytest.mark.parametrize("rulebook", ["wynental", "munotpoker"])
@pytest.mark.parametrize("registration_open", [False, True])
def test_no_plan_moves_anyone_where_moves_due_says_no(rulebook, registration_open):
    rules = rules_for(rulebook)
    rng = random.Random(f"{rulebook}-{registration_open}")
    skipped = planned = 0
    for _ in range(3000):
        floor = random_floor(rng, rules.max_seats)
        counts = [len(t.seats) for t in floor]
        if moves_due(counts, rules, registration_open):
            planned += 1
            continue
        skipped += 1
        breaks = plan_breaks(floor, rules, random.Random(1), registration_open=registration_open)
        assert breaks.broken_tables == () and breaks.moves == () and breaks.final_table is None, counts
        assert plan_balancing(floor, rules, random.Random(1)).moves == (), counts
    # both answers were tried often: the test is not empty either way
    assert skipped > 300 and planned > 300, (skipped, planned)


@pytest.mark.parametrize("rulebook", ["wynental", "munotpoker"])
def test_an_unbalanced_floor_and_a_floor_to_break_are_due(rulebook):
    rules = rules_for(rulebook)
    assert moves_due([9, 9, 7], rules)  # two apart: balance (001 Balancing / 004 #11)
    assert not moves_due([9, 8, 8], rules)
    assert moves_due([5, 5, 5], rules)  # 15 players fit on two tables of nine: break one
    assert not moves_due([9], rules)  # one table: nothing to move
