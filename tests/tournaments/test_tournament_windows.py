"""The structure's windows for new chips, enforced by the registration services.

Rulebooks (shared/seeds): 004 #72 (re-entry "während der Re-Entry und
Late-Registration Phase"), 004 #74 (surrender only in re-entry tournaments),
004 #27 (rebuy at once after the bust, in a rebuy tournament), 001
Re-buy/Add-on ("Wenn nicht ausdrücklich im Turnierreglement vorgesehen sind
keine Re-buy und Add-on erlaubt": the structure is that Turnierreglement).

A structure names the last period of each window (``re_entry_until``,
``rebuy_until``, ``add_on_until``); ``null`` closes it; a window not named
follows late registration."""

import time

import pytest

from tables.models import Seat
from tables.services import ServiceError
from tests.tournaments.play import bust_hand
from tests.tournaments.test_services import LEVELS, tables_of
from tournaments import services
from tournaments.models import Entry, Tournament
from tournaments.services.windows import window_open

pytestmark = pytest.mark.django_db

# periods: 0 = level 1, 1 = level 2, 2 = break, 3 = level 3


def running(rulebook="munotpoker", players=6, **windows_and_counts):
    windows = {k: v for k, v in windows_and_counts.items() if k.endswith("_until")}
    counts = {k: v for k, v in windows_and_counts.items() if not k.endswith("_until")}
    t = services.create_tournament(
        "Windows",
        rulebook,
        {"periods": LEVELS, "late_registration_until": 0, **windows},
        starting_stack=10_000,
        buy_in=100,
        seed=7,
        **counts,
    )
    for i in range(players):
        services.register(t.id, f"W{i:02d}")
    return services.start(t.id)


def refused(call, code, text):
    with pytest.raises(ServiceError) as info:
        call()
    assert info.value.code == code, info.value.message
    assert text in info.value.message, info.value.message


def seated(t):
    return Entry.objects.filter(tournament=t, status="seated").select_related("player").order_by("id").first()


def test_re_entry_closes_with_its_own_window_while_late_registration_is_still_open_004_72():
    t = running(re_entries_allowed=2, late_registration_until=1, re_entry_until=0)
    bust_hand(tables_of(t)[0].table_id)
    busted = Entry.objects.get(tournament=t, status="busted")
    services.clock_action(t.id, "jump", level=2)  # period 1: late registration open, re-entry over
    refused(
        lambda: services.re_enter(busted.id),
        "closed",
        "The re-entry period ended with period 1 of the structure (004 #72)",
    )
    assert Entry.objects.filter(tournament=t).count() == 6  # nothing changed
    late = services.register(t.id, "Newcomer")  # a first entry is still welcome (004 #8)
    late.refresh_from_db()
    assert late.status == "seated"
    # surrender gives a new stack like a re-entry: the same window (004 #74)
    refused(lambda: services.surrender(seated(t).id), "closed", "(004 #74)")


def test_re_entry_inside_its_window_004_72():
    t = running(re_entries_allowed=1, late_registration_until=1, re_entry_until=1)
    bust_hand(tables_of(t)[0].table_id)
    busted = Entry.objects.get(tournament=t, status="busted")
    services.clock_action(t.id, "jump", level=2)
    again = services.re_enter(busted.id)
    again.refresh_from_db()
    assert again.status == "seated" and again.number == 2


def test_rebuys_run_to_the_end_of_their_window_after_late_registration_closed_004_27():
    t = running(rebuys_allowed=2, rebuy_until=1)
    services.clock_action(t.id, "jump", level=2)  # late registration (period 0) is over; rebuys are not
    e = seated(t)
    services.rebuy(e.id)
    assert Seat.objects.get(player=e.player).stack == 20_000
    services.clock_action(t.id, "jump", level=3)  # period 3: past the rebuy window
    refused(lambda: services.rebuy(e.id), "closed", "The rebuy period ended with period 2 of the structure (004 #27)")
    assert Seat.objects.get(player=e.player).stack == 20_000
    e.refresh_from_db()
    assert e.rebuys == 1


def test_a_bust_offers_the_rebuy_only_inside_the_rebuy_window_004_27():
    t = running(rebuys_allowed=1, rebuy_until=0)
    services.clock_action(t.id, "jump", level=2)  # the rebuy window (period 0) is over
    bust_hand(tables_of(t)[0].table_id)
    out = Entry.objects.get(tournament=t, status="busted")  # busted at once: no rebuy offered
    assert not out.rebuy_pending


def test_a_bust_inside_the_rebuy_window_keeps_the_seat_for_the_rebuy_004_27():
    t = running(rebuys_allowed=1, rebuy_until=1)
    services.clock_action(t.id, "jump", level=2)  # late registration over, rebuys open
    bust_hand(tables_of(t)[0].table_id)
    assert Entry.objects.filter(tournament=t, rebuy_pending=True).count() == 1
    assert not Entry.objects.filter(tournament=t, status="busted").exists()


@pytest.mark.parametrize("rulebook, rule", [("wynental", "001 Re-buy/Add-on"), ("munotpoker", "004 #27")])
def test_an_add_on_needs_a_window_in_the_structure(rulebook, rule):
    t = running(rulebook, add_ons_allowed=1, add_on_until=None)
    e = seated(t)
    refused(
        lambda: services.rebuy(e.id, add_on=True), "closed", f"The add-on period is closed in this structure ({rule})"
    )
    assert Seat.objects.get(player=e.player).stack == 10_000


def test_the_add_on_at_the_break_of_its_window():
    t = running(add_ons_allowed=1, add_on_until=2)
    start = Tournament.objects.get(pk=t.id).clock_started_at
    # periods of 20, 20 and 10 minutes: open inside the break, closed a second after it
    assert window_open(t, "add_on", start + 45 * 60)
    assert not window_open(t, "add_on", start + 50 * 60 + 1)
    services.clock_action(t.id, "jump", level=3)  # period 3: the break (period 2) is over
    refused(lambda: services.rebuy(seated(t).id, add_on=True), "closed", "ended with period 3")


def test_a_window_not_named_follows_late_registration():
    t = running(rebuys_allowed=1)  # no rebuy_until: late registration (period 0) is the rebuy period
    e = seated(t)
    assert window_open(t, "rebuy", time.time())
    services.clock_action(t.id, "jump", level=2)
    refused(lambda: services.rebuy(e.id), "closed", "late registration has closed")


def test_the_directors_buttons_follow_each_window_004_27_004_72():
    from tournaments.services.snapshot import snapshot

    t = running(rebuys_allowed=2, rebuy_until=1, re_entries_allowed=1, re_entry_until=0)
    e = seated(t)

    def can(op):
        t.refresh_from_db()
        return next(r for r in snapshot(t)["registrations"] if r["id"] == e.id)["can"][op]

    services.clock_action(t.id, "jump", level=2)  # late registration and re-entry over, rebuys still open
    assert can("rebuy") is True
    assert can("surrender") is False  # surrender follows the re-entry window (004 #74)
    services.clock_action(t.id, "jump", level=3)  # past the rebuy window
    assert can("rebuy") is False
