"""The tournament waitlist works itself off (004 #73 "Reservationen &
Warteliste"): when a place opens -- a bust, a surrender, reservations that
lapse at the start -- the first player waiting is seated at once, on a seat
drawn at random (004 #8 with #7), with the instruction on the tablet of his
table.  A re-entry made at once after the bust comes first (004 #72); the
director's button stays as a manual fallback."""

import pytest

from tables import services as table_services
from tests.tournaments.play import bust_hand
from tests.tournaments.test_services import LEVELS, occupied, tables_of
from tournaments import services
from tournaments.models import Entry, Instruction, Tournament

pytestmark = pytest.mark.django_db


def full_field(re_entries=0, late_until=1, capacity=4):
    """Four players seated (the capacity), W waiting since before the start."""
    t = services.create_tournament(
        "Wait",
        "munotpoker",
        {"periods": LEVELS, "late_registration_until": late_until},
        starting_stack=10_000,
        buy_in=100,
        seed=3,
        capacity=capacity,
        re_entries_allowed=re_entries,
    )
    for i in range(capacity):
        services.register(t.id, f"P{i}")
    assert services.register(t.id, "W").status == "waitlisted"
    services.start(t.id)
    return Tournament.objects.get(pk=t.pk)


def status(t, name):
    return Entry.objects.filter(tournament=t, player__name=name).order_by("-number").first().status


def test_004_73_a_bust_seats_the_first_player_waiting_with_an_instruction(django_capture_on_commit_callbacks):
    t = full_field()
    assert status(t, "W") == "waitlisted"
    tt = tables_of(t)[0]
    with django_capture_on_commit_callbacks(execute=True):
        bust_hand(tt.table_id)
    assert status(t, "W") == "seated"
    assert "W" in occupied(tt).values()
    w = Entry.objects.get(tournament=t, player__name="W")
    i = Instruction.objects.get(tournament=t, entry=w)
    assert i.to_table == tt.number and occupied(tt)[i.to_seat] == "W" and i.stack == 10_000  # 004 #8: full stack
    assert "from the waitlist" in i.text_en and i.rule == "004 #73, 004 #8"
    assert Entry.objects.filter(tournament=t, status="seated").count() == 4  # capacity kept


def test_004_72_a_re_entry_made_at_once_comes_before_the_waitlist(django_capture_on_commit_callbacks):
    t = full_field(re_entries=1)
    tt = tables_of(t)[0]
    with django_capture_on_commit_callbacks(execute=True):
        bust_hand(tt.table_id)
    busted = Entry.objects.get(tournament=t, status="busted")
    assert status(t, "W") == "waitlisted"  # the place is kept for the busted player's re-entry
    with django_capture_on_commit_callbacks(execute=True):
        again = services.re_enter(busted.id)
    again.refresh_from_db()
    assert again.priority and again.status == "seated"
    assert status(t, "W") == "waitlisted"
    i = Instruction.objects.get(tournament=t, entry=again)
    assert "re-entry" in i.text_en and i.rule == "004 #8"


def test_004_72_once_the_next_hand_is_dealt_the_kept_place_goes_to_the_waitlist(django_capture_on_commit_callbacks):
    t = full_field(re_entries=1)
    tt = tables_of(t)[0]
    with django_capture_on_commit_callbacks(execute=True):
        bust_hand(tt.table_id)
    busted = Entry.objects.get(tournament=t, status="busted")
    with django_capture_on_commit_callbacks(execute=True):
        table_services.start_hand(tt.table_id)  # not "unmittelbar" any more
    assert status(t, "W") == "seated"
    late = services.re_enter(busted.id)  # too late for priority, and no place is free
    late.refresh_from_db()
    assert not late.priority and late.status == "waitlisted"


def test_004_73_the_waitlist_takes_the_place_of_a_surrender():
    t = full_field(re_entries=1)
    seated = Entry.objects.filter(tournament=t, status="seated").first()
    new = services.surrender(seated.id)
    new.refresh_from_db()
    assert status(t, "W") == "seated"  # W waited first (004 #74: no priority for a surrender)
    assert new.status == "waitlisted" and not new.priority


def test_004_73_reservations_lapse_at_the_start_and_their_places_go_to_the_waitlist():
    t = services.create_tournament(
        "Res",
        "munotpoker",
        {"periods": LEVELS, "late_registration_until": 1},
        starting_stack=10_000,
        buy_in=100,
        seed=3,
        capacity=3,
    )
    services.register(t.id, "A")
    services.register(t.id, "B")
    services.register(t.id, "R", reserve=True)  # never checks in
    assert services.register(t.id, "W").status == "waitlisted"
    services.start(t.id)
    assert status(t, "R") == "expired" and status(t, "W") == "seated"
    assert sorted(services.snapshot(Tournament.objects.get(pk=t.pk))["seat_draw"][i]["player"] for i in range(3)) == [
        "A",
        "B",
        "W",
    ]


def test_004_73_who_waits_when_late_registration_closes_keeps_his_chance(django_capture_on_commit_callbacks):
    t = full_field()
    services.clock_action(t.id, "jump", level=3)  # late registration is over
    with django_capture_on_commit_callbacks(execute=True):
        bust_hand(tables_of(t)[0].table_id)
    assert status(t, "W") == "seated"


def test_the_directors_button_still_seats_the_waitlist_and_gives_away_a_kept_place():
    t = full_field(re_entries=1)
    bust_hand(tables_of(t)[0].table_id)  # (no commit callbacks: nothing seated by itself)
    assert status(t, "W") == "waitlisted"
    w = Entry.objects.get(tournament=t, player__name="W")
    assert services.seat_waitlist(t.id) == [w.id]
    assert status(t, "W") == "seated"
    assert services.seat_waitlist(t.id) == []
