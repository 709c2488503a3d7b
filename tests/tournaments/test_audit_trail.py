"""Every bust, seating, move, deal and chip change is in the audit trail with
when and who: a person, or the system and the event that caused it (issue
23, finding 14)."""

import pytest
from django.contrib.auth import get_user_model

from tests.tournaments.play import bust_hand
from tests.tournaments.test_services import LEVELS, tables_of
from tests.tournaments.test_waitlist import full_field
from tournaments import services
from tournaments.models import Entry, Tournament, TournamentEvent
from tournaments.services import desk
from tournaments.services import payouts as pay

pytestmark = pytest.mark.django_db


def events(t, kind=None):
    qs = TournamentEvent.objects.filter(tournament=t).order_by("seq")
    return list(qs.filter(kind=kind) if kind else qs)


def test_the_tablet_hand_that_ends_the_tournament_is_in_the_trail_with_its_bust(django_capture_on_commit_callbacks):
    t = services.create_tournament(
        "Heads-up", "munotpoker", {"periods": LEVELS, "late_registration_until": None}, starting_stack=10_000, seed=2
    )
    for name in ("Ann", "Bob"):
        services.register(t.id, name)
    services.start(t.id)
    tt = tables_of(t)[0]
    for _ in range(20):
        if Tournament.objects.get(pk=t.pk).status == "finished":
            break
        with django_capture_on_commit_callbacks(execute=True):
            bust_hand(tt.table_id)
    t = Tournament.objects.get(pk=t.pk)
    assert t.status == "finished"
    loser = Entry.objects.get(tournament=t, status="busted").player.name
    last = events(t, "hand_completed")[-1]
    assert [b["player"] for b in last.payload["busts"]] == [loser]
    finished = events(t, "finished")[-1]
    assert finished.seq == last.seq + 1
    assert finished.payload["cause"] == {"seq": last.seq, "kind": "hand_completed"}
    assert finished.payload["by"] == "system" and finished.payload["winner"] != loser


def test_the_waitlist_seating_after_a_bust_names_the_system_and_the_bust(django_capture_on_commit_callbacks):
    t = full_field()
    tt = tables_of(t)[0]
    dealer = get_user_model().objects.create_user("dealer-places")
    with django_capture_on_commit_callbacks(execute=True):
        bust_hand(tt.table_id, actor=dealer)
    bust = next(e for e in events(t, "hand_completed") if e.payload["busts"])
    assert bust.actor == dealer  # who entered the hand
    seated = events(t, "waitlist_seated")[-1]
    assert seated.actor is None and seated.payload["by"] == "system"
    assert seated.payload["cause"] == {"seq": bust.seq, "kind": "hand_completed"}


def test_desk_busts_seatings_moves_deals_and_chip_changes_carry_the_director(django_capture_on_commit_callbacks):
    director = get_user_model().objects.create_user("td-places")
    t = full_field(capacity=6)
    players = list(Entry.objects.filter(tournament=t, status="seated").order_by("id"))
    desk.desk_chips(t.id, players[0].id, -500, "penalty", note="late", actor=director)
    with django_capture_on_commit_callbacks(execute=True):
        desk.desk_bust(t.id, [(players[1].id, None)], won_by=players[0].id, actor=director)
    pay.set_payouts(t.id, [], actor=director)
    for kind in ("desk_chips", "desk_bust", "payouts"):
        ev = events(t, kind)[-1]
        assert ev.actor == director and ev.at is not None and "by" not in ev.payload, kind
    seated = events(t, "waitlist_seated")[-1]
    assert seated.payload["by"] == "system"
    assert seated.payload["cause"] == {"seq": events(t, "desk_bust")[-1].seq, "kind": "desk_bust"}
