"""The director's snapshot costs the same number of SQL queries whatever
the number of tables (it is sent after every change of the tournament)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables import services as table_services
from tournaments import services
from tournaments.models import Tournament, TournamentTable

pytestmark = pytest.mark.django_db

STRUCTURE = {
    "periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 30}],
    "late_registration_until": None,
}


def dealing(players):
    """A started MunotPoker tournament with a hand live at every table."""
    t = services.create_tournament(f"Q{players}", "munotpoker", STRUCTURE, starting_stack=10_000, buy_in=10, seed=1)
    for i in range(players):
        services.register(t.id, f"Q{players}-{i}")
    services.start(t.id)
    for table_id in TournamentTable.objects.filter(tournament=t).values_list("table_id", flat=True):
        table_services.start_hand(table_id)
    return Tournament.objects.get(pk=t.pk)


def queries_of_snapshot(t):
    with CaptureQueriesContext(connection) as ctx:
        snap = services.snapshot(t)
    return len(ctx), snap


def test_the_snapshot_query_count_does_not_grow_with_the_tables():
    small, big = dealing(27), dealing(108)
    n_small, snap_small = queries_of_snapshot(small)
    n_big, snap_big = queries_of_snapshot(big)
    assert len(snap_small["tables"]) == 3 and len(snap_big["tables"]) == 12
    assert all(tb["live"] for tb in snap_big["tables"])  # the live flag is still right
    assert n_big == n_small <= 6
