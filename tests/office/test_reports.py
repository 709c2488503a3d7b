"""The reports match figures computed independently from the recorded events of a scripted night (issue
28): the report reads the hands' rows, the dealers' downs and the room's log through ``office.reports``;
this test counts the same night again from the hand events (their times), the dealer changes and the log
rows with its own arithmetic, and both must agree."""

from __future__ import annotations

import statistics
from collections import defaultdict
from datetime import timedelta

import pytest

from office.reports import report
from room.models import RoomLog
from tables.models import DealerChange, HandEvent, Player
from tests.office.night import EVENING, scripted_night

pytestmark = pytest.mark.django_db

MIN = timedelta(minutes=1)
NOW = EVENING + 60 * MIN  # the report is read at 21:00


@pytest.fixture
def night(floorman, roles):
    """The scripted night of :func:`tests.office.night.scripted_night`."""
    return scripted_night(floorman, roles)


def independent_figures(table_ids, now):
    """The night counted again from the recorded events: a hand runs from its first event to its last."""
    spans = defaultdict(list)  # table -> [(start, end, players)]
    by_hand = defaultdict(list)
    for ev in HandEvent.objects.filter(table_id__in=table_ids).order_by("hand_id", "index"):
        by_hand[ev.hand_id].append(ev)
    for events in by_hand.values():
        hand = events[0].hand
        spans[hand.table.name].append((events[0].at, events[-1].at, len(hand.spec["seats"])))
    tables = {}
    for name, rows in spans.items():
        rows.sort()
        seconds, first, last = 0, rows[0][0], rows[0][1]
        for start, end, _players in rows[1:]:
            if start - last > timedelta(minutes=30):
                seconds += (last - first).total_seconds()
                first = start
            last = max(last, end)
        seconds += (last - first).total_seconds()
        tables[name] = (round(seconds / 3600, 2), len(rows), sum(p for _s, _e, p in rows))
    # Dealers: each taken-over change ends the outgoing dealer's down and starts the incoming one's.
    downs = defaultdict(list)  # dealer -> [(table, start, end)]
    starts = {tid: (EVENING, who) for tid, who in zip(table_ids, ("d1", "d2"))}
    for change in DealerChange.objects.exclude(taken_at=None).order_by("taken_at").select_related("incoming"):
        began, who = starts[change.table_id]
        downs[who].append((change.table_id, began, change.taken_at))
        starts[change.table_id] = (change.taken_at, change.incoming.username)
    for tid, (began, who) in starts.items():
        downs[who].append((tid, began, now))
    hand_starts = defaultdict(list)
    for ev in HandEvent.objects.filter(table_id__in=table_ids, index=0):
        hand_starts[ev.table_id].append(ev.at)
    dealer_figures = {}
    for who, rows in downs.items():
        secs = sum((end - start).total_seconds() for _t, start, end in rows)
        hands = sum(1 for tid, start, end in rows for at in hand_starts[tid] if start <= at < end)
        dealer_figures[who] = (len(rows), round(secs / 3600, 2), hands)
    # Waitlists from the log, kind by kind.
    log = list(RoomLog.objects.select_related("player").order_by("at"))
    joined = {row.player.name: row.at for row in log if row.kind == "waitlist_add"}
    waits = [
        (row.at - joined[row.player.name]).total_seconds()
        for row in log
        if row.kind == "seat" and row.player.name in joined
    ]
    waitlist = (
        sum(1 for row in log if row.kind == "waitlist_add"),
        sum(1 for row in log if row.kind == "call"),
        sum(1 for row in log if row.kind == "no_show"),
        round(statistics.median(waits) / 60, 1),
    )
    return tables, dealer_figures, waitlist


def test_the_reports_match_the_night_counted_from_its_events(night):
    t1, t2 = night["t1"], night["t2"]
    data = report(EVENING - 60 * MIN, EVENING + 4 * 60 * MIN, now=NOW)
    tables, dealer_figures, waitlist = independent_figures([t1.id, t2.id], NOW)

    assert {row.table: (row.hours, row.hands, row.players) for row in data.tables} == tables
    assert tables["Main 1"][1] == 15 and tables["Main 2"][1] == 10  # the script's hands, all counted
    assert {d.dealer: (d.downs, d.hours, d.hands) for d in data.dealers} == dealer_figures
    assert dealer_figures["d3"][2] == 5 and dealer_figures["d1"][2] == 10 + 4
    (game,) = data.waitlists
    assert (game.joins, game.calls, game.no_shows, game.median_wait_minutes) == waitlist
    assert waitlist == (3, 3, 1, 16.5)  # Felix waited 15 minutes, Hugo 18
    # Players' hours: Anna played Main 1 from 20:00 to 20:46.
    anna = next(p for p in data.players if p.name == "Anna")
    assert (anna.hands, anna.hours) == (15, round(46 * 60 / 3600, 2))
    (money,) = data.tournaments
    entries = Player.objects.filter(entries__tournament__name="Friday Deepstack").count()
    assert (money.entries, money.fees, money.pool) == (entries, entries * 5, entries * 50)


def test_a_down_still_open_counts_to_the_end_of_the_period_read_later(night):
    """The night read a week later: d3's down at Main 1, open since 20:31, counts to the period's end (24:00),
    not to the day the report is read (it showed 158 hours)."""
    end = EVENING + 4 * 60 * MIN
    data = report(EVENING - 60 * MIN, end, now=EVENING + timedelta(days=7))
    d3 = next(d for d in data.dealers if d.dealer == "d3")
    assert d3.hours == round((end - (EVENING + 31 * MIN)).total_seconds() / 3600, 2) == 3.48
