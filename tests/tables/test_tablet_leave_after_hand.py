"""A player who leaves mid-hand is marked to leave after the hand (issue 24, finding 9): the floor's
"Leaves" asked about the cash-out and then refused with "players leave only between hands".  Now the
seat shows the mark, and when the hand ends the player leaves with the stake he then has (000
Einsätze 1: the departure and its cash-out recorded), and the seat is offered to the next in line."""

from __future__ import annotations

import pytest

from room import services as r
from room.models import Departure, GameTable, RoomLog
from tables import services
from tables.models import Hand, Seat

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(floorman):
    """Room "casino", NLHE 1/2: Main 1 with Anna 1, Ben 2, Clara 3 (100 each)."""
    room = r.create_room("casino", "Casino", call_seconds=300)
    game = r.create_game(room.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200, actor=floorman)
    r.open_table(game.id, "Main 1", max_seats=6, actor=floorman)
    table = GameTable.objects.get(game=game, kind="main").table
    for seat, name in ((1, "Anna"), (2, "Ben"), (3, "Clara")):
        services.seat_player(table.id, seat, name, 0)
        r.buy_in(table.id, seat, 100)
    return table


def room_seat(table, number):
    room = GameTable.objects.select_related("game__room").get(table=table).game.room
    snapshot = r.room_snapshot(room, lobby=False)
    for game in snapshot["games"]:
        for t in game["tables"]:
            if t["id"] == table.id:
                return next(s for s in t["seats"] if s["number"] == number)
    raise AssertionError("table not in the room snapshot")


def finish_hand(table):
    """Everyone folds to the last player."""
    while True:
        hand = Hand.objects.filter(table=table).order_by("-number").first()
        state = hand.snapshot
        if state["phase"] == "complete":
            return hand
        services.apply_action(table.id, {"type": "fold", "seat": state["to_act_seat"]})


def test_leaving_mid_hand_marks_the_seat_and_the_player_leaves_when_the_hand_ends(table, floorman):
    services.start_hand(table.id)
    r.leave_seat(table.id, 2, actor=floorman)  # no refusal
    seat = Seat.objects.select_related("player").get(table=table, number=2)
    assert seat.player.name == "Ben"  # still in his seat while the hand runs
    assert room_seat(table, 2)["leaving"] is True
    assert room_seat(table, 1)["leaving"] is False
    assert not Departure.objects.filter(player__name="Ben").exists()

    hand = finish_hand(table)
    ben_final = next(p["stack"] for p in hand.snapshot["players"] if p["seat"] == 2)
    seat.refresh_from_db()
    assert seat.player_id is None
    departure = Departure.objects.get(player__name="Ben")
    assert departure.stack == ben_final
    assert list(RoomLog.objects.filter(player__name="Ben").values_list("kind", flat=True).order_by("id"))[-2:] == [
        "leave_after_hand",
        "leave",
    ]
    assert room_seat(table, 2)["player"] is None


def test_between_hands_leaving_is_at_once(table, floorman):
    r.leave_seat(table.id, 2, actor=floorman)
    assert Seat.objects.get(table=table, number=2).player_id is None
