"""The tournament's tables on the floor (issue 23 #4 and #7).

#4: 27 players on 3 full tables of 9 (004), a late player waits.  "Seat the
waitlist" opens a table for him and the floor is balanced as 004 #11 says
(tables within one player afterwards); the director adds a table with its
number and seats, and a waiting player is seated there by hand (004 #8).
#7: a dealer login is assigned to a tournament table as to a cash table and
deals there with his own login (the tablet and its tournament endpoints),
and nowhere else."""

import json

import pytest

from tests.tournaments.test_services import LEVELS, occupied, tables_of
from tournaments import services
from tournaments.models import Entry, Instruction, Tournament, TournamentEvent

pytestmark = pytest.mark.django_db


def _full_floor(players=27, **kw):
    t = services.create_tournament(
        "Late Night",
        "munotpoker",
        {"periods": LEVELS, "late_registration_until": 1},
        starting_stack=10_000,
        buy_in=100,
        seed=11,
        **kw,
    )
    for i in range(players):
        services.register(t.id, f"P{i:02d}")
    return services.start(t.id)


def _post(client, t, body):
    return client.post(f"/tournaments/{t.id}/action/", data=json.dumps(body), content_type="application/json")


def test_seat_the_waitlist_opens_a_table_for_a_late_entry_and_balances_it_004_8_11(client, floorman):
    t = _full_floor()
    assert sorted(len(occupied(tt)) for tt in tables_of(t)) == [9, 9, 9]
    late = services.register(t.id, "Late Larry")
    assert late.status == Entry.Status.WAITLISTED  # every seat is taken
    client.force_login(floorman)
    assert _post(client, t, {"op": "seat_waitlist"}).json() == {"ok": True}
    late.refresh_from_db()
    assert late.status == Entry.Status.SEATED
    tts = tables_of(t)
    assert [tt.number for tt in tts] == [1, 2, 3, 4]
    assert "Late Larry" in occupied(tts[3]).values()
    counts = sorted(len(occupied(tt)) for tt in tts)
    assert counts == [7, 7, 7, 7]  # 28 players, balanced within one (004 #11)
    # before the new table's first hand nobody sits out for the button: all are dealt in (004 #8)
    assert not Instruction.objects.filter(tournament=t, kind="move", stack__gt=0).exclude(from_table=0).exists()
    assert TournamentEvent.objects.filter(tournament=t, kind="table_added").exists()


def test_the_director_adds_a_table_with_its_number_and_seats_and_seats_a_player_there_by_hand(client, floorman):
    t = _full_floor()
    late = services.register(t.id, "Late Lucy")
    client.force_login(floorman)
    out = _post(client, t, {"op": "desk_move", "entry": late.id, "table": 4, "seat": 2})
    assert out.status_code == 400 and "no table 4" in out.json()["message"]
    out = _post(client, t, {"op": "add_table", "number": 4, "seats": 9})
    assert out.json() == {"ok": True}
    late.refresh_from_db()
    assert late.status == Entry.Status.SEATED  # the waiting player took the new table at once (004 #73)
    assert sorted(len(occupied(tt)) for tt in tables_of(t)) == [7, 7, 7, 7]  # balanced at once (004 #11)
    tt4 = tables_of(t)[3]
    assert tt4.number == 4 and tt4.table.max_seats == 9 and tt4.first_button == 1  # 004 #75
    assert tt4.table.big_blind == 200  # the level in play (issue 23 #8)
    again = _post(client, t, {"op": "add_table", "number": 4, "seats": 9}).json()
    assert again["ok"] is False and "Table 4 exists already" in again["message"]
    bad = _post(client, t, {"op": "add_table", "number": 5, "seats": 12}).json()
    assert bad["ok"] is False and bad["message"] == "Seats: a table of this tournament seats 2 to 9 players."
    assert len(tables_of(t)) == 4  # nothing changed


def test_a_table_added_at_the_desk_seats_the_next_late_entry_at_once_004_8(client, floorman):
    t = _full_floor()
    Tournament.objects.filter(pk=t.pk).update(capacity=28)
    client.force_login(floorman)
    assert _post(client, t, {"op": "add_table", "number": 7, "seats": 6}).json() == {"ok": True}
    tt7 = next(tt for tt in tables_of(t) if tt.number == 7)
    assert tt7.table.max_seats == 6
    late = services.register(t.id, "Late Lou")
    late.refresh_from_db()
    assert late.status == Entry.Status.SEATED  # a seat was free: seated at once (004 #8)


def test_a_dealer_deals_at_the_tournament_table_assigned_with_his_own_login(client, floorman, dealer, other_dealer):
    t = _full_floor(players=12)
    tt1, tt2 = tables_of(t)[:2]
    client.force_login(dealer)
    assert client.get(f"/tables/{tt1.table_id}/dealer/").status_code == 403
    client.force_login(floorman)
    assert _post(client, t, {"op": "dealer", "table": tt1.number, "username": "dealer"}).json() == {"ok": True}
    bad = _post(client, t, {"op": "dealer", "table": tt1.number, "username": "floor"}).json()
    assert bad["ok"] is False and bad["message"] == "floor is not a dealer."
    client.force_login(dealer)
    assert client.get(f"/tables/{tt1.table_id}/dealer/").status_code == 200
    assert client.get(f"/tournaments/tables/{tt1.table_id}/moves/").status_code == 200
    assert client.get(f"/tables/{tt2.table_id}/dealer/").status_code == 403
    client.force_login(other_dealer)
    assert client.get(f"/tables/{tt1.table_id}/dealer/").status_code == 403
    tt1.table.refresh_from_db()
    assert tt1.table.dealer.username == "dealer"  # the floor tile reads "Dealer: dealer"
