"""Balancing before a table's first hand (004 #11 with 004 #75).

Before any hand is dealt the positions of the first hand are already
known: the button is on seat 1 (004 #75).  The player "der als nächstes im
Bigblind sitzen würde" is the first hand's big blind, not the player on the
first button; and the "schlechteste" position at the short table is the
seat that posts the big blind soonest in its first hand, never the button
nor the small blind (004 #11)."""

from poker.tournament.balancing import plan_balancing
from poker.tournament.buttons import first_hand_positions
from poker.tournament.model import TableState, apply_moves
from poker.tournament.rules import MUNOT


def _table(number, occupied, first_button=1):
    return TableState(number, {s: f"T{number}s{s}" for s in occupied}, 9, None, first_button)


def test_munot_11_before_the_first_hand_moves_the_first_big_blind_not_the_first_button():
    """Demo Deepstack: 6 + 7 players, two bust at the 6-player table before
    any hand.  The mover is the player due for the big blind of table 2's
    first hand (button seat 1, 004 #75), and he does not land on table 1's
    first button (seat 1, free after the bust)."""
    short = _table(1, [3, 4, 5, 7])  # seats 1 and 2 busted before any hand
    long = _table(2, [1, 2, 3, 4, 5, 6, 7])
    (move,) = plan_balancing([short, long], MUNOT).moves
    assert (move.from_table, move.from_seat) == (2, 3)  # first hand at table 2: button 1, SB 2, BB 3
    assert move.to_table == 1
    after = {t.number: t for t in apply_moves([short, long], [move])}
    first = first_hand_positions(3 if 1 not in after[1].seats else 1, after[1].seats, MUNOT)
    assert move.to_seat not in (first.button, first.small_blind)
    assert move.to_seat == 6  # posts the big blind in the second hand: the soonest a free seat can
    assert not move.waits_for_button


def test_munot_11_before_the_first_hand_the_mover_takes_the_big_blind_when_a_seat_allows():
    """Short table 1, 1 2 _ _ 5 6 (first button seat 1): seat 3 or 4 would be
    the first small blind or big blind; the mover takes the first big blind."""
    short = _table(1, [1, 2, 5, 6])
    long = _table(2, [1, 2, 3, 4, 5, 6])
    (move,) = plan_balancing([short, long], MUNOT).moves
    assert (move.from_table, move.from_seat) == (2, 3)
    after = {t.number: t for t in apply_moves([short, long], [move])}
    first = first_hand_positions(1, after[1].seats, MUNOT)
    assert move.to_seat == first.big_blind and move.to_seat != first.small_blind
