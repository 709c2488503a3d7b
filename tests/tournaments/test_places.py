"""Finishing places follow the paid entries and the bust order (issue 23, finding 1).

A place counts down from the entries (re-entries are entries, 004 #72),
in the order the players went out, whoever sits down from the waitlist
meanwhile (004 #73).  Players out together are placed by each event's
rulebook: 001 Ende des Turniers and 003 Ausscheiden mehrerer Spieler (the
bigger stack at the start of the hand finishes better), 004 #79 (after
hand-for-hand is announced they share the places and the prizes)."""

import pytest

from tests.tournaments.test_services import LEVELS, tables_of
from tournaments import services
from tournaments.models import Entry, Finish, Tournament
from tournaments.services import desk, payouts

pytestmark = pytest.mark.django_db


def full_house(late=4, *, re_entries=1, buy_in=100):
    """27 players on 3 full tables of 9 (the capacity), late registration
    open; ``late`` players register late and wait."""
    t = services.create_tournament(
        "Night",
        "munotpoker",
        {"periods": LEVELS, "late_registration_until": 1},
        starting_stack=10_000,
        buy_in=buy_in,
        seed=11,
        max_seats=9,
        capacity=27,
        re_entries_allowed=re_entries,
    )
    for i in range(27):
        services.register(t.id, f"P{i:02d}")
    services.start(t.id)
    for i in range(late):
        assert services.register(t.id, f"L{i}").status == "waitlisted"
    return Tournament.objects.get(pk=t.pk)


def seated(t):
    return list(Entry.objects.filter(tournament=t, status="seated").order_by("id"))


def bust(t, *entries, note=""):
    """Bust ``entries`` together at the desk (seats they hold), the waitlist seated after the commit."""
    return desk.desk_bust(t.id, [(e.id, None) for e in entries], note=note)


def places(t):
    return sorted(
        (f.place, f.place_worst, f.entry.player.name)
        for f in Finish.objects.filter(tournament=t).select_related("entry__player")
    )


def test_five_busts_on_a_full_field_with_late_players_waiting_get_five_places(django_capture_on_commit_callbacks):
    t = full_house(late=4)
    assert [tt.table.max_seats for tt in tables_of(t)] == [9, 9, 9]
    for _ in range(5):
        with django_capture_on_commit_callbacks(execute=True):
            bust(t, seated(t)[0])
    got = [p for p, _w, _n in places(t)]
    assert len(set(got)) == 5, places(t)
    # the four late players sat down: 31 entries, the first out is 31st
    assert Entry.objects.filter(tournament=t, status="seated").count() == 26
    assert got == [27, 28, 29, 30, 31]


def test_a_place_given_during_late_registration_moves_down_with_each_new_entry(django_capture_on_commit_callbacks):
    t = full_house(late=0)
    first = seated(t)[0]
    with django_capture_on_commit_callbacks(execute=True):
        bust(t, first)
    assert Finish.objects.get(entry=first).place == 27
    with django_capture_on_commit_callbacks(execute=True):
        services.register(t.id, "Late")  # a free seat: seated at once, a 28th entry
    assert Finish.objects.get(entry=first).place == 28


def test_a_whole_33_entry_night_gives_places_1_to_33_once_each(django_capture_on_commit_callbacks):
    t = full_house(late=4)
    for _ in range(4):
        with django_capture_on_commit_callbacks(execute=True):
            bust(t, seated(t)[0])
    out = Finish.objects.filter(tournament=t).order_by("id").first().entry
    with django_capture_on_commit_callbacks(execute=True):
        services.re_enter(out.id)  # 004 #72: a re-entry is an entry
    with django_capture_on_commit_callbacks(execute=True):
        services.surrender(seated(t)[3].id)  # 004 #74: a new stack is a new entry, the old one is out
    with django_capture_on_commit_callbacks(execute=True):
        bust(t, seated(t)[0])
    assert Entry.objects.filter(tournament=t).exclude(status__in=("waitlisted", "reserved", "expired")).count() == 33
    # two players out in one hand (the bigger stack finishes better, 003), then one by one to the end
    a, b = seated(t)[:2]
    with django_capture_on_commit_callbacks(execute=True):
        desk.desk_bust(t.id, [(a.id, 5_000), (b.id, 9_000)])
    while Tournament.objects.get(pk=t.pk).status == "running":
        with django_capture_on_commit_callbacks(execute=True):
            bust(t, seated(t)[0])
    got = places(t)
    assert sorted(p for p, _w, _n in got) == list(range(1, 34)), "; ".join(map(str, got))
    assert all(p == w for p, w, _n in got)


def test_001_and_003_two_out_in_one_hand_the_bigger_stack_finishes_better(django_capture_on_commit_callbacks):
    t = full_house(late=0)
    small, big = seated(t)[:2]
    with django_capture_on_commit_callbacks(execute=True):
        desk.desk_bust(t.id, [(small.id, 3_000), (big.id, 9_000)])
    assert Finish.objects.get(entry=big).place == 26
    assert Finish.objects.get(entry=small).place == 27
    assert Finish.objects.get(entry=big).rule == "003 Ausscheiden mehrerer Spieler"


def test_a_single_bust_cites_no_rule_on_several_players_out(django_capture_on_commit_callbacks):
    t = full_house(late=0)
    with django_capture_on_commit_callbacks(execute=True):
        payload = bust(t, seated(t)[0])
    assert Finish.objects.get(tournament=t).rule == ""
    assert "003" not in payload["text_en"]


def test_004_79_after_hand_for_hand_two_out_in_one_hand_share_places_and_prizes(django_capture_on_commit_callbacks):
    t = full_house(late=0)
    payouts.compute_payouts(t.id, unit=10)
    services.clock_action(t.id, "hand_for_hand")
    a, b = seated(t)[:2]
    with django_capture_on_commit_callbacks(execute=True):
        desk.desk_bust(t.id, [(a.id, 3_000), (b.id, 9_000)])
    for tt in tables_of(t):
        if tt.h4h_hands == 0:
            desk.desk_hand_played(t.id, tt.number)
    fa, fb = Finish.objects.get(entry=a), Finish.objects.get(entry=b)
    assert (fa.place, fa.place_worst) == (fb.place, fb.place_worst) == (26, 27)
    assert fa.rule == "004 #79"


def test_busts_from_tablet_hands_with_the_waitlist_refilling_seats_get_distinct_places(
    django_capture_on_commit_callbacks,
):
    from tests.tournaments.play import bust_hand

    t = full_house(late=4)
    tables = tables_of(t)
    for n in range(5):
        with django_capture_on_commit_callbacks(execute=True):
            bust_hand(tables[n % 3].table_id)
    got = places(t)
    assert len(got) >= 5
    assert len({p for p, _w, _n in got}) == len(got), got  # one player out per hand: no place twice
    paid = Entry.objects.filter(tournament=t).exclude(status__in=("waitlisted", "reserved", "expired")).count()
    assert max(w for _p, w, _n in got) == paid  # counted down from the entries, the late ones included
