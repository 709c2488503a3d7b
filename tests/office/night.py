"""A scripted night for the office tests (issue 28): a room with one game on two tables, players seated and
bought in, hands played out, with the times of a real evening written onto the recorded rows."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from room import services as r
from room.models import GameTable
from tables import services
from tables.models import Hand, HandEvent

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
