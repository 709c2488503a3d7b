"""The director's "Add table" (issue 23 #4) makes its balancing moves at once, as the server runs it.

27 players on three full tables, a late entry waiting; the desk adds table 4: the late entry takes a
seat there and the moves that balance the floor (004 #11) are made at once (between hands: no table
deals), not left "pending".  Run on committed transactions, as daphne serves the desk (the browser test
tests/browser/test_tournament_tv_desk_tables.py saw them stay pending)."""

import json

import pytest

from tests.tournaments.test_services import occupied, tables_of
from tournaments import services
from tournaments.models import Entry, Instruction

pytestmark = pytest.mark.django_db(transaction=True)

STRUCTURE = {
    "periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 30}] * 3,
    "late_registration_until": 2,
}


@pytest.mark.parametrize("seed", [5, 11])
def test_add_table_at_the_desk_makes_the_balancing_moves_at_once_004_11(client, floorman, seed):
    t = services.create_tournament("Late Night", "munotpoker", STRUCTURE, starting_stack=10_000, seed=seed)
    for i in range(27):
        services.register(t.id, f"Night {i + 1:02d}")
    services.start(t.id)
    late = services.register(t.id, "Late Larry")
    assert late.status == Entry.Status.WAITLISTED
    client.force_login(floorman)
    out = client.post(
        f"/tournaments/{t.id}/action/",
        data=json.dumps({"op": "add_table", "number": 4, "seats": 9}),
        content_type="application/json",
    )
    assert out.json() == {"ok": True}
    late.refresh_from_db()
    assert late.status == Entry.Status.SEATED
    pending = list(
        Instruction.objects.filter(tournament=t, kind="move", status="pending")
        .exclude(from_table=0)
        .values_list("from_table", "to_table")
    )
    assert pending == []
    assert sorted(len(occupied(tt)) for tt in tables_of(t)) == [7, 7, 7, 7]
