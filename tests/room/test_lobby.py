"""The lobby screen's websocket (read-only, no login, display token) and the
floor's room socket: snapshot on connect with seq, updates after a waitlist
change, every message from a screen refused."""

import asyncio
import threading

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from pokerfloor.routing import websocket_urlpatterns
from room import services as r

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

app = URLRouter(websocket_urlpatterns)


@pytest.fixture
def manager(roles):
    from django.contrib.auth.models import User

    user = User.objects.create_user(username="manager", password="pw-manager")
    user.groups.add(roles["manager"])
    return user


@pytest.fixture
def lobby(manager):
    """A room with NLHE 1/2, a full main table of two seats, and a display link."""
    from tables import services

    room = r.create_room("casino", "Casino", lobby_names="initials")
    game = r.create_game(room.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200)
    table = r.open_table(game.id, "Main 1", max_seats=2)
    for seat, name in [(1, "Anna Berger"), (2, "Ben Carlsen")]:
        services.seat_player(table.id, seat, name, 0)
        r.buy_in(table.id, seat, 100)
    display = r.create_display(room.id, actor=manager, label="TV 1")
    return {"room": room, "game": game, "table": table, "token": display.token}


async def connect(path, user=None):
    ws = WebsocketCommunicator(app, path)
    ws.scope["user"] = user or AnonymousUser()
    connected, code = await ws.connect()
    return ws, connected, code


async def test_it_sends_the_lobby_snapshot_with_seq_and_then_a_waitlist_change(lobby, floorman):
    ws, connected, _ = await connect(f"/ws/lobby/{lobby['token']}/")
    assert connected
    snapshot = await ws.receive_json_from()
    assert snapshot["type"] == "snapshot"
    seq = snapshot["seq"]
    game = snapshot["snapshot"]["games"][0]
    assert game["name"] == "NLHE 1/2" and game["open_seats"] == 0 and game["waitlist"] == []
    assert [s["player"] for s in game["tables"][0]["seats"]] == ["A.B.", "B.C."]
    assert all("stack" not in s for s in game["tables"][0]["seats"])
    assert "id" not in game and all("id" not in t for t in game["tables"])  # the public screen names, never ids

    await database_sync_to_async(r.add_to_waitlist)(lobby["game"].id, "Zoe Quinn", actor=floorman)
    update = await ws.receive_json_from(timeout=3)
    assert update["type"] == "update" and update["seq"] == seq + 1
    assert update["snapshot"]["games"][0]["waitlist"] == [{"name": "Z.Q.", "called": False}]
    await ws.disconnect()


async def test_it_refuses_every_message_from_the_screen(lobby):
    ws, connected, _ = await connect(f"/ws/lobby/{lobby['token']}/")
    await ws.receive_json_from()
    for message in ({"type": "snapshot"}, {"type": "waitlist_add", "name": "Mallory"}, "not json"):
        if isinstance(message, dict):
            await ws.send_json_to(message)
        else:
            await ws.send_to(text_data=message)
        reply = await ws.receive_json_from()
        assert reply["type"] == "error" and reply["code"] == "read_only"
    from room.models import QueueEntry

    assert not await database_sync_to_async(QueueEntry.objects.exists)()
    await ws.disconnect()


async def test_an_unknown_or_revoked_token_is_refused(lobby):
    from room.models import LobbyDisplay

    ws, connected, code = await connect("/ws/lobby/not-a-token/")
    assert not connected and code == 4404
    await database_sync_to_async(LobbyDisplay.objects.update)(revoked=True)
    ws, connected, code = await connect(f"/ws/lobby/{lobby['token']}/")
    assert not connected and code == 4404


async def test_the_room_socket_is_for_the_floor_only_and_has_ids_and_stacks(lobby, floorman, dealer):
    for user in (None, dealer):
        ws, connected, code = await connect("/ws/room/casino/", user)
        assert not connected and code == 4403
    ws, connected, _ = await connect("/ws/room/casino/", floorman)
    assert connected
    snapshot = (await ws.receive_json_from())["snapshot"]
    seat = snapshot["games"][0]["tables"][0]["seats"][0]
    assert seat["player"] == "Anna Berger" and seat["stack"] == 100 and seat["player_id"]
    await ws.disconnect()


async def _stacks_after(ws, before: list[int], *, seconds: float = 5.0) -> list[int]:
    """The seat stacks of the first update on ``ws`` whose stacks differ from ``before`` (within ``seconds``)."""
    import asyncio

    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while (left := deadline - loop.time()) > 0:
        try:
            message = await ws.receive_json_from(timeout=left)
        except TimeoutError:
            break
        stacks = [s.get("stack") for s in message["snapshot"]["games"][0]["tables"][0]["seats"]]
        if stacks != before:
            return stacks
    return before


async def test_a_hand_that_ends_updates_the_stacks_on_the_lobby_and_the_room_page(lobby, floorman):
    """The lobby TV (a room that shows stacks) and the floor's room page show the stacks a hand leaves,
    not the buy-ins, as soon as the hand ends."""
    from tables import services

    await database_sync_to_async(r.update_room)(lobby["room"].id, lobby_stacks=True)
    tv, connected, _ = await connect(f"/ws/lobby/{lobby['token']}/")
    assert connected
    room, connected, _ = await connect("/ws/room/casino/", floorman)
    assert connected
    for ws in (tv, room):
        first = (await ws.receive_json_from())["snapshot"]
        assert [s["stack"] for s in first["games"][0]["tables"][0]["seats"]] == [100, 100]

    def play() -> None:
        table_id = lobby["table"].id
        services.start_hand(table_id)
        from tables.models import Table

        state = services.table_snapshot(Table.objects.get(pk=table_id))["hand"]["state"]
        services.apply_action(table_id, {"type": "fold", "seat": state["to_act_seat"]})

    await database_sync_to_async(play)()
    for ws in (tv, room):
        stacks = await _stacks_after(ws, [100, 100])
        assert sorted(stacks) == [99, 101], stacks  # the small blind folded to the big blind
        await ws.disconnect()


async def test_a_change_made_while_the_floors_room_page_connects_reaches_it_after_its_snapshot(
    lobby, floorman, monkeypatch
):
    """A player put on the list while the room page's socket read its snapshot: the change was broadcast
    before the socket joined the room's group, and the page never showed it."""
    real, entered, release = r.room_snapshot, threading.Event(), threading.Event()

    def held(room, *args, **kwargs):
        snapshot = real(room, *args, **kwargs)
        if not kwargs.get("lobby", True) and not entered.is_set():  # the room page's connect read
            entered.set()
            assert release.wait(10), "never released"
        return snapshot

    monkeypatch.setattr(r, "room_snapshot", held)
    page = WebsocketCommunicator(app, "/ws/room/casino/")
    page.scope["user"] = floorman
    connecting = asyncio.ensure_future(page.connect(timeout=10))
    while not entered.is_set():
        await asyncio.sleep(0.01)

    await database_sync_to_async(r.add_to_waitlist)(lobby["game"].id, "Zoe Quinn", actor=floorman)
    release.set()
    assert (await connecting)[0]
    first = await page.receive_json_from(timeout=5)
    assert first["type"] == "snapshot" and first["snapshot"]["games"][0]["waitlist"] == []
    update = await page.receive_json_from(timeout=5)
    assert update["type"] == "update" and update["seq"] > first["seq"]
    assert [w["name"] for w in update["snapshot"]["games"][0]["waitlist"]] == ["Zoe Quinn"]
    await page.disconnect()
