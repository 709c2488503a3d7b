"""A scripted night for the office tests (issue 28): a room with one game on two tables, players seated and
bought in, hands played out, with the times of a real evening written onto the recorded rows."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from room import services as r
from room.models import Call, GameTable, RoomLog
from tables import dealers, services
from tables.models import DealerShift, Hand, HandEvent
from tournaments.services import registration

EVENING = timezone.make_aware(datetime(2026, 11, 20, 20, 0))


def room_with_two_tables(floorman, names1=("Anna", "Ben", "Clara"), names2=("Dora", "Emil")):
    """Room "casino", game "NLHE 1/2" with tables "Main 1" and "Main 2"; players seated with 100 each."""
    room = r.create_room("casino", "Casino", call_seconds=300)
    game = r.create_game(room.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200, actor=floorman)
    t1 = r.open_table(game.id, "Main 1", max_seats=6, actor=floorman)
    t2 = r.open_table(game.id, "Main 2", max_seats=6, kind=GameTable.Kind.MAIN, actor=floorman)
    for table, names in ((t1, names1), (t2, names2)):
        for seat, name in enumerate(names, start=1):
            services.seat_player(table.id, seat, name, 0)
            r.buy_in(table.id, seat, 100)
    return room, game, t1, t2


def play_hand(table) -> Hand:
    """Deal a hand and fold it to the last player; returns the completed hand."""
    services.start_hand(table.id)
    while True:
        hand = Hand.objects.filter(table=table).order_by("-number").first()
        if hand.snapshot["phase"] == "complete":
            return hand
        services.apply_action(table.id, {"type": "fold", "seat": hand.snapshot["to_act_seat"]})


def play_hands_at(table, start: datetime, count: int, every: timedelta, length: timedelta) -> list[Hand]:
    """Play ``count`` hands at ``table`` and write their times: the n-th starts at ``start + n * every`` and
    lasts ``length`` (the hand's row and its events: the first event at the start, the others at the end)."""
    hands = []
    for n in range(count):
        hand = play_hand(table)
        began = start + n * every
        Hand.objects.filter(pk=hand.pk).update(started_at=began, ended_at=began + length)
        HandEvent.objects.filter(hand=hand, index=0).update(at=began)
        HandEvent.objects.filter(hand=hand, index__gt=0).update(at=began + length)
        hand.refresh_from_db()
        hands.append(hand)
    return hands


STRUCTURE = {"periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 30}] * 3}
MIN = timedelta(minutes=1)


def scripted_night(floorman, roles):
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
