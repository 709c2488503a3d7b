"""The tournament clock is pushed to the director and the lobby over websockets."""

import asyncio
import threading

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from pokerfloor.routing import websocket_urlpatterns
from tournaments import services

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

app = URLRouter(websocket_urlpatterns)
LEVELS = {
    "periods": [
        {"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20},
        {"kind": "level", "small_blind": 200, "big_blind": 400, "minutes": 20},
    ]
}


async def connect(path, user):
    ws = WebsocketCommunicator(app, path)
    ws.scope["user"] = user
    connected, code = await ws.connect()
    return ws, connected, code


@database_sync_to_async
def make():
    t = services.create_tournament("Clock", "munotpoker", LEVELS, starting_stack=1000)
    for name in ("A", "B", "C"):
        services.register(t.id, name)
    services.start(t.id, start_clock=False)
    t.refresh_from_db()
    return t


async def test_the_clock_is_pushed_to_the_director_and_the_lobby(floorman):
    t = await make()
    director, ok, _ = await connect(f"/ws/tournaments/{t.id}/", floorman)
    assert ok
    lobby, ok, _ = await connect(f"/ws/tournaments/lobby/{t.public_token}/", AnonymousUser())
    assert ok
    first = await director.receive_json_from()
    assert first["type"] == "snapshot" and first["seq"] == t.seq and not first["snapshot"]["clock"]["started"]
    public = await lobby.receive_json_from()
    assert "registrations" not in public["snapshot"] and public["snapshot"]["seat_draw"]

    await database_sync_to_async(services.clock_action)(t.id, "start")
    update = await director.receive_json_from()
    assert update["type"] == "update" and update["seq"] == t.seq + 1
    assert update["snapshot"]["clock"]["running"] and update["snapshot"]["clock"]["seconds_left"] > 1190
    lobby_update = await lobby.receive_json_from()
    assert lobby_update["seq"] == t.seq + 1 and lobby_update["snapshot"]["clock"]["level"]["big_blind"] == 200

    await database_sync_to_async(services.clock_action)(t.id, "jump", level=2)
    jumped = await lobby.receive_json_from()
    assert jumped["snapshot"]["clock"]["level_number"] == 2
    await director.disconnect()
    await lobby.disconnect()


async def test_outsiders_are_kept_off_the_director_socket_and_bad_tokens_off_the_lobby(outsider):
    t = await make()
    for path, user in (
        (f"/ws/tournaments/{t.id}/", outsider),
        (f"/ws/tournaments/{t.id}/", AnonymousUser()),
        ("/ws/tournaments/lobby/not-the-token/", AnonymousUser()),
    ):
        ws, connected, code = await connect(path, user)
        assert not connected and code in (4403, 4404)


async def test_the_sockets_answer_a_snapshot_request_and_refuse_anything_else(floorman):
    t = await make()
    for path, user in (
        (f"/ws/tournaments/{t.id}/", floorman),
        (f"/ws/tournaments/lobby/{t.public_token}/", AnonymousUser()),
    ):
        ws, ok, _ = await connect(path, user)
        assert ok
        first = await ws.receive_json_from()
        await ws.send_json_to({"type": "snapshot"})
        again = await ws.receive_json_from()
        assert again == {
            **first,
            "snapshot": {
                **first["snapshot"],
                "server_now": again["snapshot"]["server_now"],
                "clock": again["snapshot"]["clock"],
            },
        }
        for bad in ("not json", "[1]", '{"type": "start"}', '"snapshot"'):
            await ws.send_to(text_data=bad)
            error = await ws.receive_json_from()
            assert error["type"] == "error" and error["code"] == "invalid"
        await ws.send_to(bytes_data=b'{"type": "snapshot"}')
        assert (await ws.receive_json_from())["code"] == "invalid"
        await ws.disconnect()


class HeldSnapshot:
    """``tournaments.services.snapshot`` whose first call (the director's connect read) waits, once it has
    read the tournament, until the test releases it."""

    def __init__(self, real):
        self.real = real
        self.entered, self.release = threading.Event(), threading.Event()

    def __call__(self, *args, **kwargs):
        snapshot = self.real(*args, **kwargs)
        if not self.entered.is_set():
            self.entered.set()
            assert self.release.wait(10), "never released"
        return snapshot


async def test_a_change_made_while_the_directors_page_connects_reaches_it_after_its_snapshot(floorman, monkeypatch):
    """The director clicks the moment the page opens: the change committed while the socket read its
    snapshot was broadcast before the socket joined the tournament's group, and never reached the page."""
    t = await make()
    held = HeldSnapshot(services.snapshot)
    monkeypatch.setattr(services, "snapshot", held)
    director = WebsocketCommunicator(app, f"/ws/tournaments/{t.id}/")
    director.scope["user"] = floorman
    connecting = asyncio.ensure_future(director.connect(timeout=10))
    while not held.entered.is_set():
        await asyncio.sleep(0.01)

    await database_sync_to_async(services.clock_action)(t.id, "start")  # committed and broadcast now
    held.release.set()
    assert (await connecting)[0]
    first = await director.receive_json_from(timeout=5)
    assert first["type"] == "snapshot" and not first["snapshot"]["clock"]["running"]
    update = await director.receive_json_from(timeout=5)
    assert update["type"] in ("update", "delta") and update["seq"] == first["seq"] + 1
    await director.disconnect()
