"""Balancing before a table's first hand, on a real floor (004 #11, 004 #75).

Demo Deepstack (004): 13 players on two tables (6 + 7).  Two players bust at
the 6-player table before any hand is dealt.  The player moved is the one
due for the big blind of the long table's first hand (the button is on seat
1 there, 004 #75), not the player holding that first button; and he does not
take the short table's first button or small blind (004 #11)."""

import pytest

from poker import tournament as eng
from tests.tournaments.test_services import LEVELS, occupied, tables_of
from tournaments import services
from tournaments.models import Entry, Instruction, Tournament
from tournaments.services import desk

pytestmark = pytest.mark.django_db


def _demo():
    t = services.create_tournament(
        "Demo Deepstack", "munotpoker", {"periods": LEVELS}, starting_stack=20_000, buy_in=100, seed=3
    )
    for i in range(13):
        services.register(t.id, f"Guest {i + 1:02d}")
    return services.start(t.id)


def test_a_bust_before_the_first_hand_moves_the_first_big_blind_to_a_seat_that_is_not_the_first_button():
    t = _demo()
    short, long = sorted(tables_of(t), key=lambda tt: len(occupied(tt)))
    assert (len(occupied(short)), len(occupied(long))) == (6, 7)
    by_name = {e.player.name: e for e in Entry.objects.filter(tournament=t).select_related("player")}
    seats = occupied(short)
    long_seats = occupied(long)
    out = [by_name[seats[1]].id, by_name[seats[max(seats)]].id]  # seat 1 (the first button) among them
    desk.desk_bust(t.id, [(e, None) for e in out])
    (move,) = Instruction.objects.filter(tournament=t, kind="move", status__in=("pending", "moving"))
    long_first = eng.first_hand_positions(1, long_seats, eng.rules_for("munotpoker"))
    assert move.from_table == long.number
    assert move.from_seat == long_first.big_blind  # "der als nächstes im Bigblind sitzen würde" (004 #11)
    assert move.from_seat != 1  # not the player on the first button (004 #75)
    assert move.to_table == short.number
    arrived = sorted({*(n for n in seats if n not in (1, max(seats))), move.to_seat})
    button = 1 if 1 in arrived else arrived[0]  # 004 #75, no dead button (004 #32)
    first = eng.first_hand_positions(button, arrived, eng.rules_for("munotpoker"))
    assert move.to_seat not in (first.button, first.small_blind)
    assert "004 #11" in move.text_en
    assert Tournament.objects.get(pk=t.id).status == Tournament.Status.RUNNING
