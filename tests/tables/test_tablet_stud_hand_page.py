"""A Seven Card Stud hand's page shows stud's stakes and its dealer position (issue 24, finding 8): it
left the button and the blinds blank ("seat –", "/")."""

import re

import pytest
from django.urls import reverse

from room import services as floor_room
from tables import services
from tables.models import Hand, Table

pytestmark = pytest.mark.django_db


def test_a_stud_hand_page_shows_ante_bring_in_and_bets(client, dealer, floorman):
    room = floor_room.create_room("stud-room", "Stud room")
    game = floor_room.create_game(
        room.id, "Stud 4/8", variant="stud", small_blind=1, big_blind=4, min_buy_in=40, max_buy_in=200
    )
    table = floor_room.open_table(game.id, "Stud 1", max_seats=8, dealer=dealer)
    Table.objects.filter(pk=table.id).update(ante=1)
    for seat, name in ((1, "Anna"), (2, "Ben"), (3, "Clara")):
        services.seat_player(table.id, seat, name, 0)
        floor_room.buy_in(table.id, seat, 100)
    services.start_hand(table.id)
    hand = Hand.objects.get(table_id=table.id)
    client.force_login(floorman)
    body = client.get(reverse("hand_detail", args=[hand.id])).content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))
    assert "Ante 1 · Bring-in 1 · Small bet 4 · Big bet 8" in text
    assert f"Dealer seat {hand.spec['dealer_seat']}" in text
    assert "seat –" not in text
