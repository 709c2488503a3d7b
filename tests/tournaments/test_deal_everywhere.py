"""A deal's prizes are the same wherever they are shown (issue 23, finding 2).

After an ICM deal at three left the players are paid the deal's amounts,
whoever finishes where: the director's finishes, the TV's payout panel, the
results page, the CSV, the ranking export and the payout slips all read one
source (``tournaments.services.places``)."""

import csv
import io

import pytest
from django.urls import reverse

from tables.models import Seat
from tests.tournaments.test_services import LEVELS
from tournaments import services
from tournaments.models import Entry, Finish, Tournament
from tournaments.services import desk
from tournaments.services import payouts as pay
from tournaments.services.snapshot import public_snapshot

pytestmark = pytest.mark.django_db


def dealt_final(django_capture_on_commit_callbacks):
    """Six players, 600 in the pool paid 300/180/120; three bust; ICM deal at
    three left (stacks 30,000 / 20,000 / 10,000); then two more bust."""
    t = services.create_tournament(
        "Deal night",
        "munotpoker",
        {"periods": LEVELS, "late_registration_until": None},
        starting_stack=10_000,
        buy_in=100,
        seed=5,
    )
    for i in range(6):
        services.register(t.id, f"Player {i}")
    services.start(t.id)
    pay.set_payouts(t.id, [300, 180, 120])
    order = list(Entry.objects.filter(tournament=t).order_by("id"))
    for e in order[:3]:
        with django_capture_on_commit_callbacks(execute=True):
            desk.desk_bust(t.id, [(e.id, None)])
    left = list(Entry.objects.filter(tournament=t, status="seated").order_by("id"))
    for e, stack in zip(left, (30_000, 20_000, 10_000)):
        Seat.objects.filter(player_id=e.player_id, table__tournament_table__tournament=t).update(stack=stack)
    preview = pay.deal_preview(t.id, "icm")
    amounts = {p["name"]: p["amount"] for p in preview["players"]}
    assert sorted(amounts.values(), reverse=True) != [300, 180, 120]  # the deal differs from the ladder
    pay.record_deal(t.id, "icm", [p["amount"] for p in preview["players"]])
    # the short stack busts first, then the middle one: the big stack wins
    for e in (left[2], left[1]):
        with django_capture_on_commit_callbacks(execute=True):
            desk.desk_bust(t.id, [(e.id, None)])
    t = Tournament.objects.get(pk=t.pk)
    assert t.status == "finished"
    return t, amounts


def test_the_deal_is_paid_on_the_desk_the_tv_the_csv_and_the_slips(
    client, floorman, django_capture_on_commit_callbacks
):
    t, amounts = dealt_final(django_capture_on_commit_callbacks)
    # the director's finishes
    snap = services.snapshot(t)
    desk_prizes = {f["player"]: f["prize"] for f in snap["finishes"] if f["player"] in amounts}
    assert desk_prizes == amounts
    assert {
        f.entry.player.name: f.prize for f in Finish.objects.filter(tournament=t).select_related("entry__player")
    } == {
        **{f"Player {i}": 0 for i in range(3)},
        **amounts,
    }
    # the TV: the deal's players with their amounts, no ladder amount for the places the deal covers
    tv = public_snapshot(snap)
    assert {d["player"]: d["amount"] for d in tv["deal"]} == amounts
    assert sorted(d["amount"] for d in tv["deal"]) == sorted(amounts.values())
    # the CSV
    rows = list(csv.reader(io.StringIO(pay.result_csv(t))))
    assert {r[1]: int(r[2]) for r in rows[1:] if r[1] in amounts} == amounts
    assert sorted(int(r[0]) for r in rows[1:]) == [1, 2, 3, 4, 5, 6]
    # the export for player-ranking sites: Place,Name,Country,Prize
    Entry.objects.get(tournament=t, player__name="Player 3").player.__class__.objects.filter(name="Player 3").update(
        country="CH"
    )
    ranking = list(csv.reader(io.StringIO(pay.ranking_csv(t))))
    assert ranking[0] == ["Place", "Name", "Country", "Prize"]
    assert {r[1]: (r[2], int(r[3])) for r in ranking[1:] if r[1] in amounts}["Player 3"] == ("CH", amounts["Player 3"])
    assert sorted(int(r[0]) for r in ranking[1:]) == [1, 2, 3, 4, 5, 6]
    assert client.get(reverse("tournaments:ranking_csv", args=[t.id])).status_code == 302  # floor staff only
    # the results page and the payout slips
    client.force_login(floorman)
    page = client.get(reverse("tournaments:payouts", args=[t.id])).content.decode()
    slips = client.get(reverse("tournaments:payout_slips", args=[t.id]))
    assert slips.status_code == 200
    text = slips.content.decode()
    for name, amount in amounts.items():
        assert name in text and f">{amount}<" in text
        assert f">{amount}<" in page
    for ladder in (300, 180, 120):
        if ladder not in amounts.values():
            assert f">{ladder}<" not in text
