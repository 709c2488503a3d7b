"""Lobby display links: only managers make and revoke them; a revoked link's open screens close at
once and its page answers 404; the manager's room page lists the links (label, when, URL, Revoke)."""

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client

from pokerfloor.routing import websocket_urlpatterns
from room import services as r
from room.models import LobbyDisplay, RoomLog

pytestmark = [pytest.mark.django_db(transaction=True)]

app = URLRouter(websocket_urlpatterns)


@pytest.fixture
def manager(roles):
    user = User.objects.create_user(username="manager", password="pw-manager")
    user.groups.add(roles["manager"])
    return user


@pytest.fixture
def room(roles):
    room = r.create_room("casino", "Casino")
    game = r.create_game(room.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200)
    r.open_table(game.id, "Main 1", max_seats=6)
    return room


def client_of(user):
    client = Client()
    client.force_login(user)
    return client


def act(client, data):
    response = client.post("/room/casino/act/", json.dumps(data), content_type="application/json")
    return response.status_code, response.json()


def test_a_floor_user_cannot_make_or_revoke_a_display_link(room, floorman, manager):
    floor = client_of(floorman)
    status, reply = act(floor, {"op": "display", "label": "TV"})
    assert status == 400 and reply["code"] == "forbidden"
    assert not LobbyDisplay.objects.exists()
    display = r.create_display(room.id, actor=manager, label="TV")
    status, reply = act(floor, {"op": "display_revoke", "display_id": display.id})
    assert status == 400 and reply["code"] == "forbidden"
    display.refresh_from_db()
    assert not display.revoked
    assert floor.get(f"/lobby/{display.token}/").status_code == 200
    page = floor.get("/room/casino/").content.decode()  # the list is the managers'
    assert display.token not in page and 'data-op="display_revoke"' not in page


def test_a_manager_makes_a_link_and_sees_it_listed_with_a_revoke_button(room, manager):
    client = client_of(manager)
    status, reply = act(client, {"op": "display", "label": "Bar TV"})
    assert status == 200 and reply["ok"] and reply["url"] == f"/lobby/{reply['token']}/"
    assert reply["label"] == "Bar TV" and reply["display_id"] and reply["created_at"]
    page = client.get("/room/casino/").content.decode()
    assert "Bar TV" in page and f"http://testserver/lobby/{reply['token']}/" in page
    assert f'data-op="display_revoke" data-display="{reply["display_id"]}"' in page and "Revoke" in page


def test_the_room_page_lists_the_links_in_german(room, manager):
    r.create_display(room.id, actor=manager, label="Bar TV")
    client = client_of(manager)
    page = client.get("/room/casino/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Bar TV" in page and "Widerrufen" in page


def test_revoking_a_link_of_another_room_or_an_unknown_one_is_refused(room, manager):
    other = r.create_room("annex", "Annex")
    display = r.create_display(other.id, actor=manager, label="Annex TV")
    client = client_of(manager)
    for display_id in (display.id, 999999):
        status, reply = act(client, {"op": "display_revoke", "display_id": display_id})
        assert status == 400 and reply["code"] == "not_found"
    display.refresh_from_db()
    assert not display.revoked
    status, reply = act(client, {"op": "display_revoke", "display_id": "1"})
    assert status == 400 and reply["code"] == "invalid" and reply["field"] == "display_id"


@pytest.mark.asyncio
async def test_revoking_closes_the_open_lobby_screen_and_the_page_404s(room, manager):
    keep = await database_sync_to_async(r.create_display)(room.id, actor=manager, label="Door")
    gone = await database_sync_to_async(r.create_display)(room.id, actor=manager, label="Bar TV")
    screens = {}
    for display in (keep, gone):
        ws = WebsocketCommunicator(app, f"/ws/lobby/{display.token}/")
        ws.scope["user"] = AnonymousUser()
        connected, _ = await ws.connect()
        assert connected
        assert (await ws.receive_json_from())["type"] == "snapshot"
        screens[display.token] = ws

    client = await database_sync_to_async(client_of)(manager)
    status, reply = await database_sync_to_async(act)(client, {"op": "display_revoke", "display_id": gone.id})
    assert status == 200 and reply["ok"]

    closed = screens[gone.token]
    while True:
        output = await closed.receive_output(timeout=1)
        if output["type"] == "websocket.close":
            break
    assert output["code"] in (4403, 4404)
    update = await screens[keep.token].receive_json_from(timeout=1)  # the other screen stays on
    assert update["type"] == "update"
    await screens[keep.token].disconnect()

    anonymous = Client()
    assert (await database_sync_to_async(anonymous.get)(f"/lobby/{gone.token}/")).status_code == 404
    assert (await database_sync_to_async(anonymous.get)(f"/lobby/{keep.token}/")).status_code == 200
    again = WebsocketCommunicator(app, f"/ws/lobby/{gone.token}/")
    again.scope["user"] = AnonymousUser()
    connected, code = await again.connect()
    assert not connected and code == 4404
    assert await database_sync_to_async(RoomLog.objects.filter(kind="display_revoke", actor=manager).exists)()
    page = (await database_sync_to_async(client.get)("/room/casino/")).content.decode()
    assert gone.token not in page and keep.token in page
