"""Websockets: roles both ways, snapshot on connect, seq on every broadcast,
idempotent client_id, stale and invalid messages."""

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from pokerfloor.routing import websocket_urlpatterns
from tables.models import HandEvent

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

app = URLRouter(websocket_urlpatterns)


async def connect(path, user):
    communicator = WebsocketCommunicator(app, path)
    communicator.scope["user"] = user
    connected, code = await communicator.connect()
    return communicator, connected, code


async def test_it_lets_the_assigned_dealer_in_with_a_snapshot(table, dealer):
    ws, connected, _ = await connect(f"/ws/tables/{table.id}/dealer/", dealer)
    assert connected
    message = await ws.receive_json_from()
    assert message["type"] == "snapshot"
    assert message["seq"] == table.seq
    assert [s["player"] for s in message["snapshot"]["seats"] if s["player"]] == ["Anna", "Ben", "Clara", "David"]
    await ws.disconnect()


async def test_it_shuts_out_another_dealer(table, other_dealer):
    ws, connected, code = await connect(f"/ws/tables/{table.id}/dealer/", other_dealer)
    assert not connected and code == 4403


async def test_it_shuts_out_anonymous_users_everywhere(table):
    for path in (f"/ws/tables/{table.id}/dealer/", "/ws/floor/"):
        ws, connected, code = await connect(path, AnonymousUser())
        assert not connected and code == 4403


async def test_the_floor_may_use_any_tablet(table, floorman):
    ws, connected, _ = await connect(f"/ws/tables/{table.id}/dealer/", floorman)
    assert connected
    await ws.disconnect()


async def test_it_keeps_dealers_and_outsiders_off_the_floor_socket(table, dealer, outsider):
    for user in (dealer, outsider):
        ws, connected, code = await connect("/ws/floor/", user)
        assert not connected and code == 4403


async def test_unknown_table_is_refused(table, floorman):
    ws, connected, code = await connect("/ws/tables/999999/dealer/", floorman)
    assert not connected and code == 4404


async def test_actions_are_acked_and_broadcast_to_the_floor_with_seq(table, dealer, floorman):
    tablet, _, _ = await connect(f"/ws/tables/{table.id}/dealer/", dealer)
    floor, _, _ = await connect("/ws/floor/", floorman)
    snapshot = await tablet.receive_json_from()
    floor_snapshot = await floor.receive_json_from()
    assert floor_snapshot["type"] == "floor_snapshot"
    assert floor_snapshot["tables"][0]["seq"] == snapshot["seq"]
    assert await floor.receive_json_from() == {"type": "floor_calls", "calls": []}

    seq = snapshot["seq"]
    await tablet.send_json_to({"type": "start_hand", "client_id": "s1", "expected_seq": seq})
    ack = await tablet.receive_json_from()
    update = await tablet.receive_json_from()
    if ack["type"] == "update":
        ack, update = update, ack
    assert ack == {"type": "ack", "client_id": "s1", "seq": seq + 1, "duplicate": False}
    assert update["seq"] == seq + 1
    floor_update = await floor.receive_json_from()
    assert floor_update["type"] == "update" and floor_update["seq"] == seq + 1
    to_act = floor_update["snapshot"]["hand"]["state"]["to_act_seat"]
    assert to_act == 7

    await tablet.send_json_to(
        {"type": "action", "client_id": "a1", "expected_seq": seq + 1, "action": {"type": "call", "seat": 7}}
    )
    messages = [await tablet.receive_json_from(), await tablet.receive_json_from()]
    assert {"type": "ack", "client_id": "a1", "seq": seq + 2, "duplicate": False} in messages
    floor_update = await floor.receive_json_from()
    assert floor_update["seq"] == seq + 2
    assert floor_update["snapshot"]["hand"]["last_event"]["payload"] == {"type": "call", "seat": 7}

    # the same client_id again: acknowledged as a duplicate, not applied twice
    await tablet.send_json_to(
        {"type": "action", "client_id": "a1", "expected_seq": seq + 1, "action": {"type": "call", "seat": 7}}
    )
    again = await tablet.receive_json_from()
    assert again == {"type": "ack", "client_id": "a1", "seq": seq + 2, "duplicate": True}
    assert await database_sync_to_async(HandEvent.objects.filter(kind="action").count)() == 1
    assert await floor.receive_nothing(timeout=0.2)
    await tablet.disconnect()
    await floor.disconnect()


async def test_stale_and_invalid_messages_change_nothing(table, dealer):
    tablet, _, _ = await connect(f"/ws/tables/{table.id}/dealer/", dealer)
    seq = (await tablet.receive_json_from())["seq"]
    await tablet.send_json_to({"type": "start_hand", "client_id": "s1", "expected_seq": seq + 5})
    error = await tablet.receive_json_from()
    assert error["type"] == "error" and error["code"] == "stale" and error["seq"] == seq

    for raw in [
        "not json",
        "[1, 2]",
        '{"no": "type"}',
        '{"type": "explode"}',
        '{"type": "action", "client_id": 5, "action": {"type": "fold", "seat": 1}}',
        '{"type": "action", "client_id": "x", "expected_seq": "7", "action": {}}',
    ]:
        await tablet.send_to(text_data=raw)
        error = await tablet.receive_json_from()
        assert error["type"] == "error" and error["code"] == "invalid", raw

    await tablet.send_json_to(
        {"type": "action", "client_id": "x1", "expected_seq": seq, "action": {"type": "fold", "seat": 1}}
    )
    error = await tablet.receive_json_from()
    assert error["code"] == "no_hand"
    assert await database_sync_to_async(HandEvent.objects.count)() == 0
    await tablet.send_json_to({"type": "snapshot"})
    snapshot = await tablet.receive_json_from()
    assert snapshot["type"] == "snapshot" and snapshot["seq"] == seq
    await tablet.disconnect()
