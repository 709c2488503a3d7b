"""The place of a bust in a big field costs the same as in a small one (issue 23, Done when: per bust p99
under 100 ms at 2,000 entrants, bench/tournament.py --floor 2000).

A field of 27 seated players behind 400 entries already out (their places 428..28 given): the next bust
at the desk takes place 27, and placing it derives and writes that one finish only -- no read of every
finish, one UPDATE -- in a bounded number of statements whatever the size of the field."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables.models import Player
from tests.tournaments.test_places import full_house, seated
from tournaments.models import Entry, Finish, Tournament
from tournaments.services import desk, places

pytestmark = pytest.mark.django_db

GONE = 400


def big_field():
    """``full_house`` without late players, with ``GONE`` earlier entries already out, placed."""
    t = full_house(late=0)
    players = Player.objects.bulk_create([Player(name=f"Gone {i:04d}") for i in range(GONE)])
    entries = Entry.objects.bulk_create(
        [Entry(tournament=t, player=p, number=1, status=Entry.Status.BUSTED) for p in players]
    )
    Finish.objects.bulk_create(
        [Finish(tournament=t, entry=e, stack_at_start=10_000, bust_order=n) for n, e in enumerate(entries, 1)]
    )
    places.refresh_places(t)
    return Tournament.objects.get(pk=t.pk)


def test_a_bust_behind_400_finishes_derives_and_writes_only_its_own_place(
    monkeypatch, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    t = big_field()
    assert Finish.objects.filter(tournament=t, place=GONE + 27).count() == 1  # the first out is last
    derived: list[int] = []
    compute = places.compute_places

    def counting(t, rows, *args, **kw):
        derived.append(len(rows))
        return compute(t, rows, *args, **kw)

    monkeypatch.setattr(places, "compute_places", counting)
    victim = seated(t)[0]
    with CaptureQueriesContext(connection) as queries, django_assert_max_num_queries(120):
        with django_capture_on_commit_callbacks(execute=True):
            desk.desk_bust(t.id, [(victim.id, None)])
    finish = Finish.objects.get(entry=victim)
    assert (finish.place, finish.place_worst) == (27, 27)
    assert sorted(Finish.objects.filter(tournament=t).values_list("place", flat=True)) == list(range(27, GONE + 28))
    assert derived and max(derived) == 1, derived  # only the new bust was derived, not the 400 before it
    updates = [q["sql"] for q in queries.captured_queries if q["sql"].startswith(f'UPDATE "{Finish._meta.db_table}"')]
    assert len(updates) == 1, updates  # the place written in one statement
