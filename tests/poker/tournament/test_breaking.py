"""Breaking: 001 Balancing/Tischauflösung (stop at five free seats, final
table of ten, entry from UTG to the button) and 004 #10/#78."""

import random

import pytest

from poker.rulebooks import cite
from poker.tournament.balancing import plan_balancing
from poker.tournament.breaking import apply_break_plan, entry_seats, plan_breaks, tables_needed
from poker.tournament.buttons import first_hand_positions
from poker.tournament.model import apply_moves, validate_tables
from poker.tournament.rules import MUNOT, WYNENTAL

from .helpers import all_players, spread, table


def ten(number, occupied, **kw):
    return table(number, occupied, max_seats=10, **kw)


def test_wynental_balancing_table_with_five_free_seats_is_broken():
    """001 Balancing: "An Tischen, an denen 5 Plätze frei sind, wird das Spiel
    gestoppt. Der Tisch wird aufgelöst ..." -- 6, 6, 5 on tables of ten."""
    floor = [ten(1, range(1, 7)), ten(2, range(1, 7)), ten(3, range(1, 6))]
    plan = plan_breaks(floor, WYNENTAL, random.Random(1))
    assert plan.broken_tables == (3,) and plan.rules[0] == cite("001 Balancing")
    assert len(plan.moves) == 5 and all(m.from_table == 3 for m in plan.moves)
    after = apply_break_plan(floor, plan)
    assert sorted(len(t.seats) for t in after) == [8, 9] and plan.stopped_tables == ()


def test_wynental_balancing_stopped_table_is_filled_by_one_player():
    """001 Balancing: "... oder durch einen Spieler aufgefüllt" -- 7, 7, 5:
    keeping three tables leaves none at five free seats once one player moves."""
    floor = [ten(1, range(1, 8)), ten(2, range(1, 8)), ten(3, range(1, 6))]
    plan = plan_breaks(floor, WYNENTAL, random.Random(1))
    assert plan.broken_tables == () and plan.stopped_tables == (3,)
    bal = plan_balancing(floor, WYNENTAL, random.Random(1))
    assert len(bal.moves) == 1 and bal.moves[0].to_table == 3
    assert plan_breaks(apply_moves(floor, bal.moves), WYNENTAL).stopped_tables == ()


def test_wynental_balancing_final_table_formed_from_last_ten():
    """001 Balancing: "Sind nur noch 10 Spieler übrig, wird aus ihnen der
    Finaltisch gebildet" -- all ten draw new seats at one table of ten,
    even on a floor of nine-seat tables."""
    rules = WYNENTAL.with_(max_seats=9)
    floor = [table(1, range(1, 6)), table(2, range(2, 7))]
    plan = plan_breaks(floor, rules, random.Random(4))
    assert plan.final_table == 1 and plan.final_table_seats == 10 and plan.broken_tables == (2,)
    assert len(plan.moves) == 10 and plan.rules[0] == cite("001 Balancing")
    assert plan.final_table_button in {m.to_seat for m in plan.moves}
    (final,) = apply_break_plan(floor, plan)
    assert final.max_seats == 10 and len(final.seats) == 10 and final.positions is None


def test_wynental_tischaufloesung_enter_from_utg_to_button_else_wait_for_button():
    """001 Tischauflösung: direct entry only from UTG up to the button;
    landing on the blinds, the player skips them until the button ("maximal
    2 ausgesetzten Runden")."""
    # Table 2 (last hand button 1, SB 2, BB 3) has free seats 4, 8, 9, 10.
    # Seat 4 becomes the big blind next hand: wait two hands for the button.
    found_wait = found_direct = False
    for seed in range(40):
        floor = [ten(1, range(1, 10)), ten(2, [1, 2, 3, 5, 6, 7], button=1, sb=2, bb=3), ten(3, [1, 2])]
        plan = plan_breaks(floor, WYNENTAL, random.Random(seed))
        assert plan.broken_tables == (3,) and cite("001 Tischauflösung") in plan.rules
        for m in plan.moves:
            assert m.to_table == 2
            if m.to_seat == 4:
                assert m.waits_for_button and m.hands_to_wait == 2
                found_wait = True
            else:
                assert not m.waits_for_button and m.hands_to_wait == 0
                found_direct = True
    assert found_wait and found_direct


def test_wynental_tischaufloesung_seat_constraints_per_free_seat():
    """001 Tischauflösung as seat constraints: SB 2 and BB 5 last hand; the
    next hand has BB 6, so seat 9/10 are UTG..button (direct), the empty
    seats 3 and 4 between the next button and small blind wait an orbit."""
    t = ten(2, [1, 2, 5, 6, 7, 8], button=1, sb=2, bb=5)
    seats = {e.seat: (e.direct, e.hands_to_wait) for e in entry_seats(t, WYNENTAL)}
    assert seats[9] == (True, 0) and seats[10] == (True, 0)
    assert not seats[3][0] and seats[3][1] > 2 and not seats[4][0]
    assert all(e.rule == cite("001 Tischauflösung") for e in entry_seats(t, WYNENTAL))
    assert all(e.direct for e in entry_seats(table(1, [1, 2, 3], button=1, sb=2, bb=3), MUNOT))


def test_wynental_tischaufloesung_avoids_seats_inside_the_blinds():
    # Last hand SB 2, BB 5: seats 3 and 4 sit between the next button and
    # small blind, a full orbit from the button -- not drawn while others are free.
    for seed in range(30):
        floor = [ten(1, range(1, 10)), ten(2, [1, 2, 5, 6, 7, 8], button=1, sb=2, bb=5), ten(3, [1, 2])]
        plan = plan_breaks(floor, WYNENTAL, random.Random(seed))
        assert {m.to_seat for m in plan.moves}.isdisjoint({3, 4})
        assert all(m.hands_to_wait <= 2 for m in plan.moves)


def test_munot_10a_breaks_when_players_fit_on_one_table_fewer():
    """004 #10 a): registration closed and the players fit on one table fewer."""
    floor = [table(1, range(1, 7)), table(2, range(1, 7)), table(3, range(1, 7))]
    plan = plan_breaks(floor, MUNOT, random.Random(2))
    assert plan.broken_tables == (3,) and plan.rules == (cite("004 #10"),)
    after = apply_break_plan(floor, plan)
    assert [len(t.seats) for t in after] == [9, 9]
    assert all(not m.waits_for_button for m in plan.moves)  # "Auf Positionsnachteile ... keine Rücksicht"
    floor = [table(1, range(1, 8)), table(2, range(1, 7)), table(3, range(1, 7))]
    assert plan_breaks(floor, MUNOT).broken_tables == ()  # 19 players need three tables


def test_munot_10b_during_registration_only_when_two_tables_are_in_excess():
    """004 #10 b) and its example: 3 tables and the field drops to 10 during
    registration -- only one table is in excess (a final table seats 9), so
    none breaks; with 4 tables two are in excess and one breaks."""
    three = [table(1, range(1, 5)), table(2, range(1, 4)), table(3, range(1, 4))]
    assert plan_breaks(three, MUNOT, registration_open=True).broken_tables == ()
    four = three + [table(4, [1])]
    plan = plan_breaks(four, MUNOT, random.Random(1), registration_open=True)
    assert plan.broken_tables == (4,)  # keep one spare table for entrants
    assert len(plan_breaks(four, MUNOT, random.Random(1)).broken_tables) == 2
    need = tables_needed(10, 4, MUNOT, registration_open=True)
    assert need.tables == 3 and need.rule == cite("004 #10")


def test_munot_78_final_table_with_nine():
    """004 #78: the final table always plays with nine."""
    floor = [table(1, range(1, 6)), table(2, range(1, 6))]
    assert plan_breaks(floor, MUNOT).broken_tables == ()  # ten players: two tables
    floor = [table(1, range(1, 6)), table(2, [1, 2, 3, 4])]
    plan = plan_breaks(floor, MUNOT, random.Random(3))
    assert plan.final_table == 1 and plan.broken_tables == (2,) and plan.rules == (cite("004 #78"),)
    (final,) = apply_break_plan(floor, plan)
    assert len(final.seats) == 9


def test_break_order_can_be_given():
    floor = [table(1, range(1, 7)), table(2, range(1, 7)), table(3, range(1, 7))]
    assert plan_breaks(floor, MUNOT, break_order=[1]).broken_tables == (1,)
    with pytest.raises(ValueError):
        plan_breaks(floor, MUNOT, break_order=[7])


@pytest.mark.parametrize("rules", [WYNENTAL.with_(max_seats=9), MUNOT], ids=["wynental", "munot"])
def test_property_break_then_balance_keeps_everyone_seated_once(rules):
    """Random floors down to the final table: nobody lost or seated twice,
    tables within one player after each break + balance."""
    rng = random.Random(5)
    for _ in range(25):
        n_tables = rng.randint(2, 14)
        floor = []
        for number in range(1, n_tables + 1):
            occupied = sorted(rng.sample(range(1, 10), rng.randint(5, 9)))
            pos = first_hand_positions(rng.choice(occupied), occupied, rules)
            floor.append(table(number, occupied, 9, pos.button, pos.small_blind, pos.big_blind))
        alive = all_players(floor)
        while len(floor) > 1:
            out = set(rng.sample(alive, rng.randint(1, 4)))
            alive = [p for p in alive if p not in out]
            floor = [table_without(t, out) for t in floor]
            plan = plan_breaks(floor, rules, rng)
            floor = apply_break_plan(floor, plan)
            bal = plan_balancing(floor, rules, rng)
            floor = apply_moves(floor, bal.moves)
            validate_tables(floor)
            assert sorted(all_players(floor)) == sorted(alive)
            assert spread(floor) <= 1
            if len(alive) <= rules.final_table_size:
                assert len(floor) == 1 and len(floor[0].seats) == len(alive)
            else:
                assert len(floor) >= 2


def table_without(t, out):
    from dataclasses import replace

    return replace(t, seats={s: p for s, p in t.seats.items() if p not in out})
