"""Chip counts entered at the desk: the seats take the counts, average and median in big blinds,
and the chips in play checked against entries x starting stack + rebuys + add-ons."""

import json

import pytest

from tables.models import Seat
from tables.services import ServiceError
from tournaments import services
from tournaments.models import ChipCount, TournamentTable
from tournaments.services import chipcounts

pytestmark = pytest.mark.django_db

LEVELS = {"periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20}]}


@pytest.fixture
def running():
    t = services.create_tournament("Count", "munotpoker", LEVELS, starting_stack=10_000, buy_in=100, seed=3)
    for i in range(4):
        services.register(t.id, f"P{i}")
    return services.start(t.id)


def seats_of(t):
    tt = TournamentTable.objects.get(tournament=t)
    return tt, dict(Seat.objects.filter(table_id=tt.table_id, player__isnull=False).values_list("number", "stack"))


def test_counts_that_add_up_give_average_and_median_in_big_blinds(running):
    tt, seats = seats_of(running)
    numbers = sorted(seats)
    counts = dict(zip(numbers, [4_000, 6_000, 12_000, 18_000], strict=True))
    chipcounts.record_chip_counts(running.id, tt.number, counts, moment="break")
    stats = chipcounts.chip_stats(running)
    assert stats["in_play"] == stats["expected"] == 40_000 and not stats["mismatch"]
    assert stats["average"] == 10_000 and stats["average_bb"] == 50.0
    assert stats["median"] == 9_000 and stats["median_bb"] == 45.0
    assert [r["stack"] for r in stats["leaders"]] == [18_000, 12_000, 6_000, 4_000]
    assert stats["leaders"][0]["bb"] == 90.0
    assert stats["tables"][0]["counted"]["moment"] == "break"


def test_a_count_that_does_not_add_up_is_flagged_with_the_difference(running):
    tt, seats = seats_of(running)
    counts = {n: 10_000 for n in seats}
    counts[min(seats)] = 9_500
    chipcounts.record_chip_counts(running.id, tt.number, counts)
    stats = chipcounts.chip_stats(running)
    assert stats["mismatch"] and stats["difference"] == -500


def test_rebuys_and_add_ons_count_as_chips_bought(running):
    running.rebuys_allowed = 0
    running.save()
    entry = running.entries.first()
    entry.rebuys, entry.add_ons = 1, 1
    entry.save()
    assert chipcounts.expected_chips(running) == 60_000
    assert chipcounts.chip_stats(running)["difference"] == -20_000


def test_a_count_must_name_every_occupied_seat_and_changes_nothing_otherwise(running):
    tt, seats = seats_of(running)
    partial = {min(seats): 1}
    with pytest.raises(ServiceError) as err:
        chipcounts.record_chip_counts(running.id, tt.number, partial)
    assert err.value.code == "invalid"
    with pytest.raises(ServiceError):
        chipcounts.record_chip_counts(running.id, tt.number, {n: -1 for n in seats})
    with pytest.raises(ServiceError):
        chipcounts.record_chip_counts(running.id, tt.number, {n: 1 for n in seats}, moment="lunch")
    assert seats_of(running)[1] == seats and not ChipCount.objects.exists()


def test_the_desk_endpoint_records_a_count_and_shows_the_leaders_on_the_tv(client, floorman, running):
    tt, seats = seats_of(running)
    client.force_login(floorman)
    assert client.get(f"/tournaments/{running.id}/chips/").status_code == 200
    url = f"/tournaments/{running.id}/chips/api/"
    body = {"op": "count", "table": tt.number, "moment": "level_end", "counts": {str(n): 10_000 for n in seats}}
    answer = client.post(url, json.dumps(body), "application/json").json()
    assert answer["ok"] and answer["in_play"] == 40_000 and answer["mismatch"] is False
    assert services.public_snapshot(services.snapshot(running))["chip_leaders"] == []
    client.post(url, json.dumps({"op": "leaders", "show": True}), "application/json")
    running.refresh_from_db()
    assert len(services.public_snapshot(services.snapshot(running))["chip_leaders"]) == 4
