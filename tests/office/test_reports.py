"""The reports match figures computed independently from the recorded events of a scripted night (issue
28): the report reads the hands' rows, the dealers' downs and the room's log through ``office.reports``;
this test counts the same night again from the hand events (their times), the dealer changes and the log
rows with its own arithmetic, and both must agree."""

from __future__ import annotations

import statistics
from collections import defaultdict
from datetime import timedelta

import pytest
from django.contrib.auth.models import User

from office.reports import report
from room import services as r
from room.models import Call, RoomLog
from tables import dealers
from tables.models import DealerChange, DealerShift, HandEvent, Player
from tests.office.night import EVENING, play_hands_at, room_with_two_tables
from tournaments.services import registration

pytestmark = pytest.mark.django_db

STRUCTURE = {"periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 30}] * 3}
MIN = timedelta(minutes=1)
NOW = EVENING + 60 * MIN  # the report is read at 21:00


@pytest.fixture
def night(floorman, roles):
    """20:00-21:00: Main 1 (Anna, Ben, Clara) and Main 2 (Dora, Emil); dealers d1 at Main 1 and d2 at Main 2
    from 20:00, pushed at 20:30 (d3 comes in at Main 1, d1 goes to Main 2, d2 to the break; taken over at
    20:31); 15 hands at Main 1, 10 at Main 2; Felix and Hugo join the list and are seated, Gina is called and
    does not come; a tournament with three registrations."""
    room, game, t1, t2 = room_with_two_tables(floorman)
    crew = {}
    for name in ("d1", "d2", "d3"):
        user = User.objects.create_user(name, password="x")
        user.groups.add(roles["dealer"])
        DealerShift.objects.create(dealer=user, starts_at=EVENING - 60 * MIN, ends_at=EVENING + 7 * 60 * MIN)
        crew[name] = user
    dealers.start_down(t1.id, crew["d1"], now=EVENING)
    dealers.start_down(t2.id, crew["d2"], now=EVENING)
    play_hands_at(t1, EVENING, 10, 3 * MIN, 2 * MIN)  # 20:00 .. 20:29
    play_hands_at(t2, EVENING + 2 * MIN, 6, 5 * MIN, 4 * MIN)  # 20:02 .. 20:31
    dealers.push(actor=floorman, now=EVENING + 30 * MIN)
    dealers.take_over(t1.id, crew["d3"], "swapped", now=EVENING + 31 * MIN)
    dealers.take_over(t2.id, crew["d1"], "recounted", now=EVENING + 31 * MIN)
    play_hands_at(t1, EVENING + 32 * MIN, 5, 3 * MIN, 2 * MIN)  # 20:32 .. 20:46
    play_hands_at(t2, EVENING + 33 * MIN, 4, 5 * MIN, 4 * MIN)  # 20:33 .. 20:52
    # The waitlist (open seats: each joiner is called at once).
    felix = r.add_to_waitlist(game.id, "Felix", actor=floorman)
    r.accept_call(Call.objects.get(entry=felix, status="open").id, actor=floorman)
    gina = r.add_to_waitlist(game.id, "Gina", actor=floorman)
    r.expire_calls(room.id, now=Call.objects.get(entry=gina, status="open").deadline + timedelta(seconds=1))
    hugo = r.add_to_waitlist(game.id, "Hugo", actor=floorman)
    r.accept_call(Call.objects.get(entry=hugo, status="open").id, actor=floorman)
    times = {
        ("Felix", "waitlist_add"): 10,
        ("Felix", "call"): 20,
        ("Felix", "seat"): 25,
        ("Gina", "waitlist_add"): 15,
        ("Gina", "call"): 21,
        ("Gina", "no_show"): 26,
        ("Hugo", "waitlist_add"): 40,
        ("Hugo", "call"): 50,
        ("Hugo", "seat"): 58,
    }
    for row in RoomLog.objects.select_related("player"):
        minute = times.get((row.player.name if row.player else "", row.kind), 5)
        RoomLog.objects.filter(pk=row.pk).update(at=EVENING + minute * MIN)
    t = registration.create_tournament("Friday Deepstack", "munotpoker", STRUCTURE, starting_stack=10_000, buy_in=50)
    t.fee = 5
    t.save(update_fields=["fee"])
    for name in ("Ivan", "Jana", "Kurt"):
        registration.register(t.id, name)
    type(t).objects.filter(pk=t.pk).update(created_at=EVENING + 5 * MIN)
    return {"t1": t1, "t2": t2, "crew": crew}


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
