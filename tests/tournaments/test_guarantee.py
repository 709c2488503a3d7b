"""A guaranteed prize pool (issue 23, what a director also expects): the pool paid is the larger of
the buy-ins collected and the guarantee; the house's overlay shows on the desk and the payout page."""

import pytest

from tournaments import services
from tournaments.models import Tournament
from tournaments.services import payouts
from tournaments.services.reading import pool_amounts

pytestmark = pytest.mark.django_db

LEVELS = {"periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20}]}


def _field(n: int, guarantee: int) -> Tournament:
    t = services.create_tournament(
        "Guaranteed", "munotpoker", LEVELS, starting_stack=10_000, buy_in=100, fee=10, guarantee=guarantee
    )
    for i in range(n):
        services.register(t.id, f"P{i}")
    return Tournament.objects.get(pk=t.pk)


def test_pool_amounts_is_the_larger_of_the_buy_ins_and_the_guarantee():
    t = Tournament(buy_in=100, guarantee=2_000, starting_stack=1)
    assert pool_amounts(t, 12, 0, 0) == (2_000, 1_200, 800)
    assert pool_amounts(t, 25, 0, 0) == (2_500, 2_500, 0)
    t.guarantee = 0
    assert pool_amounts(t, 12, 2, 1) == (1_500, 1_500, 0)


def test_an_overlay_fills_the_pool_up_to_the_guarantee_everywhere():
    t = _field(12, 2_000)
    pool = payouts.pool_of(t)
    assert (pool.collected, pool.pool, pool.overlay, pool.fees) == (1_200, 2_000, 800, 120)
    snap = services.snapshot(t)
    assert snap["prize_pool"] == 2_000 and sum(snap["payouts"]) == 2_000
    assert (snap["guarantee"], snap["overlay"]) == (2_000, 800)
    assert services.payout_table_of(t).prize_pool == 2_000


def test_buy_ins_above_the_guarantee_leave_no_overlay():
    t = _field(25, 2_000)
    snap = services.snapshot(t)
    assert snap["prize_pool"] == 2_500 and snap["overlay"] == 0


def test_the_payout_page_shows_the_guarantee_and_the_overlay(client, floorman):
    t = _field(12, 2_000)
    client.force_login(floorman)
    page = client.get(f"/tournaments/{t.id}/payouts/").content.decode()
    assert 'id="pd-guarantee">2000<' in page and 'id="pd-overlay">800<' in page and 'id="pd-pool">2000<' in page
    # the house curve for the guaranteed pool adds up to it
    payouts.compute_payouts(t.id, unit=10)
    t.refresh_from_db()
    assert sum(t.payouts) == 2_000


def test_the_create_form_takes_a_guarantee(client, floorman):
    client.force_login(floorman)
    client.post("/tournaments/", {"name": "G", "rulebook": "munotpoker", "guarantee": "5000"})
    assert Tournament.objects.get(name="G").guarantee == 5_000
