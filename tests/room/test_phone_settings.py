"""The manager sets the phone lists on the room dashboard (issue 29: "as the room sets"): the players seated
for a game to count as running, the remote cap, the arrival window, "Need more time", what a remote no-show
does.  Sent as the dashboard's settings form sends them (``POST /room/<slug>/act/``); a bad value is refused
and changes nothing; the public page follows at once."""

import json

import pytest
from django.urls import reverse

from room import services as r
from room.models import Room
from room.services import remote
from tables import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager(roles):
    from django.contrib.auth.models import User

    user = User.objects.create_user(username="manager", password="pw-manager")
    user.groups.add(roles["manager"])
    return user


@pytest.fixture
def room(dealer):
    room = r.create_room("casino", "Casino")
    game = r.create_game(room.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200)
    table = r.open_table(game.id, "Main 1", max_seats=6)
    for seat, name in [(1, "Anna Berger"), (2, "Ben Carlsen")]:
        services.seat_player(table.id, seat, name, 0)
        r.buy_in(table.id, seat, 100)
    r.assign_dealer(table.id, dealer)
    return Room.objects.get(pk=room.pk)


def _settings(client, room, **fields):
    body = {"op": "settings", "call_seconds": 300, "lobby_names": "full", "lobby_stacks": False, **fields}
    response = client.post(reverse("room_act", args=[room.slug]), json.dumps(body), content_type="application/json")
    return response.status_code, response.json()


def test_the_manager_sets_the_phone_lists_and_the_public_page_follows(client, manager, room):
    client.force_login(manager)
    assert [g["name"] for g in remote.public_room(room)["games"]] == ["NLHE 1/2"]  # 2 seated, a dealer: running

    status, reply = _settings(
        client,
        room,
        running_min_players=3,
        remote_cap=5,
        arrival_seconds=600,
        more_time_seconds=120,
        remote_no_show="off",
        no_show_places=2,
    )
    assert status == 200 and reply["ok"], reply
    room.refresh_from_db()
    assert (room.running_min_players, room.remote_cap, room.arrival_seconds) == (3, 5, 600)
    assert (room.more_time_seconds, room.remote_no_show, room.no_show_places) == (120, "off", 2)
    assert remote.public_room(room)["games"] == []  # two players are no longer a running game
    assert room.log.filter(kind="settings").last().payload["running_min_players"] == 3


def test_a_bad_setting_is_refused_and_changes_nothing(client, manager, floorman, room):
    client.force_login(manager)
    before = Room.objects.filter(pk=room.pk).values().get()
    for bad in (
        {"running_min_players": 1},
        {"remote_cap": -1},
        {"arrival_seconds": "600"},
        {"remote_no_show": "away"},
        {"no_show_places": 0},
    ):
        status, reply = _settings(client, room, **bad)
        assert status == 400 and reply["code"] == "invalid", (bad, reply)
    assert Room.objects.filter(pk=room.pk).values().get() == before

    client.force_login(floorman)  # the floor runs the lists; the manager sets the room
    status, reply = _settings(client, room, running_min_players=4)
    assert reply["ok"] is False and reply["code"] == "forbidden"
    assert Room.objects.get(pk=room.pk).running_min_players == 2
