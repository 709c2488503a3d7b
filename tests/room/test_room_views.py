"""The room dashboard's pages and its action endpoint: roles both ways,
refusals change nothing, the lobby page needs no login but a valid token."""

import json

import pytest
from django.contrib.auth.models import User

from room import services as r
from room.models import QueueEntry, Room, RoomLog
from tables import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(roles):
    room = r.create_room("casino", "Casino")
    game = r.create_game(room.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200)
    r.open_table(game.id, "Main 1", max_seats=6)
    return room


def act(client, data):
    return client.post("/room/casino/act/", json.dumps(data), content_type="application/json")


def test_it_lets_the_floor_add_a_walk_in_from_the_dashboard(client, room, floorman):
    client.force_login(floorman)
    assert client.get("/room/casino/").status_code == 200
    game = room.games.get()
    response = act(client, {"op": "waitlist_add", "game_id": game.id, "name": "Zoe", "source": "phone_in"})
    assert response.status_code == 200 and response.json()["ok"]
    entry = QueueEntry.objects.get(player__name="Zoe")
    assert entry.source == "phone_in"
    assert RoomLog.objects.filter(kind="waitlist_add", actor=floorman).exists()


def test_it_keeps_dealers_and_outsiders_out(client, room, dealer, outsider):
    game = room.games.get()
    for user in (dealer, outsider):
        client.force_login(user)
        assert client.get("/room/casino/").status_code == 403
        assert act(client, {"op": "waitlist_add", "game_id": game.id, "name": "Zoe"}).status_code == 403
    assert not QueueEntry.objects.exists()


def test_a_refused_action_answers_its_code_and_changes_nothing(client, room, floorman):
    client.force_login(floorman)
    table = room.games.get().game_tables.get().table
    room.refresh_from_db()
    seq = room.seq
    response = act(client, {"op": "buy_in", "table_id": table.id, "seat": 1, "amount": 100})
    assert response.status_code == 400 and response.json()["code"] == "empty_seat"
    assert act(client, {"op": "no_such_op"}).json()["code"] == "invalid"
    room.refresh_from_db()
    assert room.seq == seq


def test_only_a_manager_makes_a_display_link_and_the_lobby_opens_without_login(client, room, floorman, roles):
    client.force_login(floorman)
    assert act(client, {"op": "display"}).json()["code"] == "forbidden"
    manager = User.objects.create_user("manager", password="pw")
    manager.groups.add(roles["manager"])
    client.force_login(manager)
    url = act(client, {"op": "display", "label": "TV"}).json()["url"]
    client.logout()
    page = client.get(url)
    assert page.status_code == 200 and b"Casino" in page.content and b"/ws/lobby/" in page.content
    assert client.get("/lobby/guessed-token/").status_code == 404


def test_a_refusal_reads_in_the_floormans_language_and_cites_the_rule(client, room, floorman):
    """The dashboard shows the server's message as it is: German for a German
    browser, English otherwise, the rule cited either way (000 Einsätze 3)."""
    from tables import services

    client.force_login(floorman)
    table = room.games.get().game_tables.get().table
    services.seat_player(table.id, 1, "Anna", 0)
    body = {"op": "buy_in", "table_id": table.id, "seat": 1, "amount": 20}
    german = client.post(
        "/room/casino/act/", json.dumps(body), content_type="application/json", headers={"accept-language": "de"}
    ).json()
    assert german["code"] == "below_minimum"
    assert german["message"] == "das Buy-in beträgt mindestens 40 (000 Einsätze 3)"
    english = client.post(
        "/room/casino/act/", json.dumps(body), content_type="application/json", headers={"accept-language": "en"}
    ).json()
    assert english["message"] == "the buy-in is at least 40 (000 Einsätze 3)"
    assert table.seats.get(number=1).stack == 0


def test_ids_of_another_room_are_refused_and_change_nothing(client, room, floorman):
    """The dashboard of one room cannot touch another room's games, tables,
    list entries, calls or table changes (nor rows that do not exist)."""
    other = r.create_room("annex", "Annex")
    game = r.create_game(other.id, "NLHE 2/5", small_blind=2, big_blind=5, min_buy_in=100, max_buy_in=500)
    table = r.open_table(game.id, "Annex 1", max_seats=2)
    second = r.open_table(game.id, "Annex 2", max_seats=2)
    services.seat_player(table.id, 1, "Nora", 0)
    r.buy_in(table.id, 1, 200)
    entry = r.add_to_waitlist(game.id, "Olaf")  # called at once: Annex 1 seat 2 is open
    call = entry.calls.get()
    change = r.request_table_change(table.id, 1, second.id)
    client.force_login(floorman)
    room.refresh_from_db()
    seq, annex_seq = room.seq, Room.objects.get(pk=other.id).seq
    for data in (
        {"op": "waitlist_add", "game_id": game.id, "name": "Zoe"},
        {"op": "waitlist_remove", "entry_id": entry.id},
        {"op": "accept", "call_id": call.id},
        {"op": "leave", "table_id": table.id, "seat": 1},
        {"op": "change_refuse", "change_id": change.id},
        {"op": "waitlist_remove", "entry_id": 10**9},
    ):
        response = act(client, data)
        assert response.status_code == 400 and response.json()["code"] == "not_found", data
    room.refresh_from_db()
    assert room.seq == seq and Room.objects.get(pk=other.id).seq == annex_seq
    assert not QueueEntry.objects.filter(player__name="Zoe").exists()
