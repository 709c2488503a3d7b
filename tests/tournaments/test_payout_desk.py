"""The director's payout desk on the real database: the prize pool counted
from the records (entries, re-entries 004 #72, rebuys and add-ons 004 #27)
with the fee kept apart, the house payout curve by field size (no rulebook
gives one), edits checked, a deal at the final table (chip chop / ICM; 004
#79 names the players' "Bubble-Deal" only) and the result sheet as CSV."""

import csv
import io

import pytest
from django.urls import reverse

from tables.models import Seat
from tables.services import ServiceError
from tests.tournaments.play import bust_hand
from tests.tournaments.test_services import LEVELS, tables_of
from tournaments import services
from tournaments.models import Entry, Finish, Tournament, TournamentEvent
from tournaments.services import payouts as desk

pytestmark = pytest.mark.django_db


def tournament(players, *, start=True, **kw):
    t = services.create_tournament(
        "Desk",
        "munotpoker",
        {"periods": LEVELS, "late_registration_until": 1},
        starting_stack=10_000,
        buy_in=100,
        seed=3,
        **kw,
    )
    for i in range(players):
        services.register(t.id, f"P{i:02d}")
    if start:
        services.start(t.id)
    return Tournament.objects.get(pk=t.pk)


def events(t, kind):
    return list(TournamentEvent.objects.filter(tournament=t, kind=kind).order_by("seq"))


def test_pool_counts_entries_re_entries_rebuys_and_add_ons_and_keeps_the_fee_apart():
    t = tournament(9, re_entries_allowed=1, rebuys_allowed=1, add_ons_allowed=1)
    bust_hand(tables_of(t)[0].table_id)
    busted = Entry.objects.get(tournament=t, status=Entry.Status.BUSTED)
    services.re_enter(busted.id)
    seated = list(Entry.objects.filter(tournament=t, status=Entry.Status.SEATED, rebuy_pending=False).order_by("id"))
    services.rebuy(seated[0].id)
    services.rebuy(seated[1].id, add_on=True)
    desk.compute_payouts(t.id, unit=10, fee=20)
    pool = desk.pool_of(Tournament.objects.get(pk=t.pk))
    assert (pool.entries, pool.re_entries, pool.rebuys, pool.add_ons) == (9, 1, 1, 1)
    assert pool.pool == 12 * 100 and pool.fees == 12 * 20  # the fee is not in the pool
    t.refresh_from_db()
    assert sum(t.payouts) == 1200 and len(t.payouts) == 2 and all(a % 10 == 0 for a in t.payouts)
    assert services.snapshot(t)["prize_pool"] == 1200 and services.snapshot(t)["payouts"] == t.payouts
    assert events(t, "payouts")[-1].payload.items() >= {"unit": 10, "fee": 20, "pool": 1200, "fees": 240}.items()


def test_places_paid_follow_the_field_size():
    small = tournament(12, start=False)
    desk.compute_payouts(small.id, unit=1)
    small.refresh_from_db()
    assert small.payouts == [600, 360, 240]  # 50/30/20 of 1200
    big = tournament(40, start=False)
    desk.compute_payouts(big.id, unit=25)
    big.refresh_from_db()
    assert len(big.payouts) == 6 and sum(big.payouts) == 4000  # 15 % of 40
    assert big.payouts == sorted(big.payouts, reverse=True) and all(a % 25 == 0 for a in big.payouts)


def test_edit_validation_errors_change_nothing():
    t = tournament(20, start=False)
    desk.compute_payouts(t.id, unit=10)
    t.refresh_from_db()
    before, seq = list(t.payouts), t.seq
    for amounts, message in (
        ([1000, 600, 300], "add up to 1900"),
        ([600, 1000, 400], "Place 2 would get more than place 1"),
        ([1000, 605, 395], "multiple of the payout unit"),
        ([1000, -1, 1001], "whole amount"),
    ):
        with pytest.raises(ServiceError, match=message) as exc:
            desk.set_payouts(t.id, amounts)
        assert exc.value.code == "invalid"
        t.refresh_from_db()
        assert t.payouts == before and t.seq == seq
    desk.set_payouts(t.id, [1100, 550, 350])
    t.refresh_from_db()
    assert t.payouts == [1100, 550, 350] and events(t, "payouts")[-1].payload["source"] == "edited"


def _final_table(stacks):
    t = tournament(len(stacks))
    seats = Seat.objects.filter(table_id=tables_of(t)[0].table_id, player__isnull=False).order_by("number")
    for seat, stack in zip(seats, stacks):
        Seat.objects.filter(pk=seat.pk).update(stack=stack)
    return t


def test_icm_deal_is_previewed_then_recorded_with_an_event():
    t = _final_table([5000, 3000, 2000])
    desk.set_payouts(t.id, [150, 90, 60])
    before = t.seq
    preview = desk.deal_preview(t.id, "icm")
    assert Tournament.objects.get(pk=t.pk).seq == before + 1  # the preview wrote nothing
    assert [p["stack"] for p in preview["players"]] == [5000, 3000, 2000]
    assert [p["share"] for p in preview["players"]] == ["115.18", "98.25", "86.57"]
    assert [p["amount"] for p in preview["players"]] == [115, 98, 87] and preview["pool"] == 300
    with pytest.raises(ServiceError) as stale:
        desk.record_deal(t.id, "icm", [116, 98, 86])
    assert stale.value.code == "stale" and not Tournament.objects.get(pk=t.pk).deal
    desk.record_deal(t.id, "icm", [115, 98, 87])
    t.refresh_from_db()
    assert t.deal["method"] == "icm" and t.deal["rule"] == "004 #79"
    assert events(t, "deal")[-1].payload["players"][0]["amount"] == 115
    with pytest.raises(ServiceError) as again:
        desk.record_deal(t.id, "chip_chop", [150, 90, 60])
    assert again.value.code == "duplicate"
    with pytest.raises(ServiceError, match="deal is recorded"):
        desk.set_payouts(t.id, [200, 60, 40])
    rows = desk.result_rows(t)
    assert [(r["place"], r["prize"]) for r in rows] == [(1, 115), (2, 98), (3, 87)]


def test_chip_chop_and_the_csv_result_sheet():
    t = _final_table([6000, 3000, 1000])
    desk.set_payouts(t.id, [150, 90, 60])
    preview = desk.deal_preview(t.id, "chip_chop")
    assert [p["amount"] for p in preview["players"]] == [180, 90, 30]
    desk.record_deal(t.id, "chip_chop", [180, 90, 30])
    t.refresh_from_db()
    names = [p["name"] for p in t.deal["players"]]
    text = desk.result_csv(t)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows == [["Place", "Name", "Prize"], ["1", names[0], "180"], ["2", names[1], "90"], ["3", names[2], "30"]]


def test_the_csv_lists_busts_with_their_prizes_and_the_page_is_for_the_floor_only(client, floorman, outsider):
    t = tournament(4)
    desk.set_payouts(t.id, [300, 100])
    for _ in range(30):
        if Finish.objects.filter(tournament=t, place__isnull=False).count():
            break
        bust_hand(tables_of(t)[0].table_id)
    f = Finish.objects.filter(tournament=t, place__isnull=False).select_related("entry__player").first()
    rows = list(csv.reader(io.StringIO(desk.result_csv(t))))
    assert [str(f.place), f.entry.player.name, str(f.prize)] in rows
    client.force_login(outsider)
    assert client.get(reverse("tournaments:payouts_csv", args=[t.id])).status_code == 403
    client.force_login(floorman)
    response = client.get(reverse("tournaments:payouts_csv", args=[t.id]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert f.entry.player.name in response.content.decode()
    bad = client.post(reverse("tournaments:payouts", args=[t.id]), {"op": "edit", "amount": ["100", "300"]})
    assert bad.status_code == 400 and "Place 2 would get more than place 1" in bad.content.decode()
    assert Tournament.objects.get(pk=t.pk).payouts == [300, 100]
