"""A player moved into a seat ahead of the button sits out until the button passes him (001
Tischauflösung, 004 #8): every hand completed at his table counts his wait down, and the director's
table row shows him waiting until it is over.  Hands at other tables do not count."""

import pytest

from tables.models import Seat
from tests.tournaments.play import bust_hand
from tests.tournaments.test_services import LEVELS
from tournaments import services
from tournaments.models import Entry, Tournament, TournamentTable

pytestmark = pytest.mark.django_db


def _seat_row(t: Tournament, entry: Entry) -> dict:
    snap = services.snapshot(Tournament.objects.get(pk=t.pk))
    return next(s for tb in snap["tables"] for s in tb["seats"] if s["entry"] == entry.id)


def test_each_hand_at_his_table_counts_his_wait_down_and_the_director_sees_it_end():
    t = services.create_tournament(
        "Button wait",
        "munotpoker",
        {"periods": LEVELS, "late_registration_until": None},
        starting_stack=10_000,
        buy_in=100,
        seed=3,
        max_seats=9,
    )
    for i in range(18):
        services.register(t.id, f"W{i:02d}")
    services.start(t.id)
    here, there = (tt.table_id for tt in TournamentTable.objects.filter(tournament=t).order_by("number"))
    waiting = Entry.objects.get(tournament=t, player=Seat.objects.filter(table_id=here).exclude(player=None)[0].player)
    elsewhere = Entry.objects.get(
        tournament=t, player=Seat.objects.filter(table_id=there).exclude(player=None)[0].player
    )
    Entry.objects.filter(pk__in=[waiting.pk, elsewhere.pk]).update(wait_hands=2)
    assert _seat_row(t, waiting)["waits"]

    bust_hand(here, folds_only=True)
    waiting.refresh_from_db()
    elsewhere.refresh_from_db()
    assert (waiting.wait_hands, elsewhere.wait_hands) == (1, 2)
    assert _seat_row(t, waiting)["waits"]

    bust_hand(here, folds_only=True)
    waiting.refresh_from_db()
    assert waiting.wait_hands == 0
    assert not _seat_row(t, waiting)["waits"]  # dealt in from the next hand
    assert _seat_row(t, elsewhere)["waits"]
