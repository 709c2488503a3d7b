"""Rebuy and add-on cost and chips apart from the buy-in and the starting stack, and double rebuys
(issue 23, what a director also expects: "rebuy/add-on settings (cost, chips, double rebuys)"; 004 #27,
001 Re-buy/Add-on: as the Turnierreglement provides)."""

import json

import pytest

from tables.models import Seat
from tables.services import ServiceError
from tests.tournaments.test_rebuy import lose_all, running
from tournaments import services
from tournaments.models import Entry, Tournament, TournamentEvent
from tournaments.services import chipcounts, payouts

pytestmark = pytest.mark.django_db


def _seat_of(t, entry):
    return Seat.objects.get(table__tournament_table__tournament=t, player_id=entry.player_id)


def test_a_rebuy_gives_its_own_chips_and_puts_its_own_cost_into_the_pool():
    t = running(
        rebuys_allowed=2, add_ons_allowed=1, rebuy_cost=50, rebuy_chips=5_000, add_on_cost=80, add_on_chips=8_000
    )
    entry, _seat, _table = lose_all(t)
    services.rebuy(entry.id)
    assert _seat_of(t, entry).stack == 5_000  # not the starting stack of 10,000
    services.rebuy(entry.id, add_on=True)
    assert _seat_of(t, entry).stack == 13_000
    t = Tournament.objects.get(pk=t.pk)
    pool = payouts.pool_of(t)
    assert (pool.collected, pool.pool) == (4 * 100 + 50 + 80, 530)
    snap = services.snapshot(t)
    assert snap["prize_pool"] == 530 and sum(snap["payouts"]) == 530
    # the chips-in-play check counts the rebuy and add-on at their chips
    assert chipcounts.expected_chips(t) == 4 * 10_000 + 5_000 + 8_000
    event = TournamentEvent.objects.filter(tournament=t, kind="rebuy").get()
    assert event.payload["chips"] == 5_000 and event.payload["count"] == 1


def test_without_cost_and_chips_a_rebuy_is_a_starting_stack_for_a_buy_in_as_before():
    t = running(rebuys_allowed=1)
    entry, _seat, _table = lose_all(t)
    services.rebuy(entry.id)
    assert _seat_of(t, entry).stack == 10_000
    assert payouts.pool_of(Tournament.objects.get(pk=t.pk)).pool == 5 * 100


def test_a_double_rebuy_counts_two_and_gives_twice_the_chips_where_allowed():
    t = running(rebuys_allowed=2, double_rebuy=True, rebuy_chips=6_000, rebuy_cost=60)
    entry, _seat, _table = lose_all(t)
    services.rebuy(entry.id, double=True)
    entry.refresh_from_db()
    assert entry.rebuys == 2 and _seat_of(t, entry).stack == 12_000
    assert payouts.pool_of(Tournament.objects.get(pk=t.pk)).pool == 4 * 100 + 2 * 60
    with pytest.raises(ServiceError) as refused:  # no rebuy left
        services.rebuy(entry.id)
    assert refused.value.code == "not_allowed"


def test_a_double_rebuy_is_refused_where_the_event_has_none_or_one_rebuy_is_left():
    t = running(rebuys_allowed=2)
    entry, _seat, _table = lose_all(t)
    with pytest.raises(ServiceError) as refused:
        services.rebuy(entry.id, double=True)
    assert refused.value.code == "not_allowed" and "double rebuy" in refused.value.message
    assert Entry.objects.get(pk=entry.pk).rebuys == 0 and _seat_of(t, entry).stack == 0
    t2 = running(rebuys_allowed=1, double_rebuy=True)
    entry2, _seat, _table = lose_all(t2)
    with pytest.raises(ServiceError) as refused:
        services.rebuy(entry2.id, double=True)
    assert "two rebuys left" in refused.value.message


def test_the_desk_sends_a_double_rebuy(client, floorman):
    t = running(rebuys_allowed=2, double_rebuy=True)
    entry, _seat, _table = lose_all(t)
    client.force_login(floorman)
    answer = client.post(
        f"/tournaments/{t.id}/action/",
        json.dumps({"op": "rebuy", "entry": entry.id, "double": True}),
        content_type="application/json",
    )
    assert answer.json() == {"ok": True}
    assert Entry.objects.get(pk=entry.pk).rebuys == 2


def test_the_desk_offers_a_double_rebuy_only_where_the_event_allows_it():
    from tests.tournaments.test_rebuy import registration

    t = running(rebuys_allowed=2, double_rebuy=True)
    entry, _seat, _table = lose_all(t)
    assert registration(t, entry)["can"]["double_rebuy"] is True
    services.rebuy(entry.id)
    assert registration(t, entry)["can"]["double_rebuy"] is False  # one rebuy left
    plain = running(rebuys_allowed=2)
    entry2, _seat, _table = lose_all(plain)
    assert "double_rebuy" not in registration(plain, entry2)["can"]
