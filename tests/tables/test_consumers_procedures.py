"""The dealer socket's floor-procedure messages:
out_of_turn, call_time, time_expired, floor_call and interpret, each
answered on the tablet's socket, and the broadcasts the tablet then hears."""

import uuid

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from pokerfloor.routing import websocket_urlpatterns
from tables import services
from tables.models import HandEvent

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

app = URLRouter(websocket_urlpatterns)


async def tablet_for(table, user):
    ws = WebsocketCommunicator(app, f"/ws/tables/{table.id}/dealer/")
    ws.scope["user"] = user
    connected, _ = await ws.connect()
    assert connected
    snapshot = await ws.receive_json_from()
    assert snapshot["type"] == "snapshot"
    return ws, snapshot["seq"]


async def until(ws, *types, client_id=None):
    """Messages up to and including the first of ``types`` (for ``client_id`` if given)."""
    seen = []
    while True:
        try:
            message = await ws.receive_json_from(timeout=3)
        except TimeoutError:
            raise AssertionError(f"no {types} after {seen}") from None
        seen.append(message)
        if message["type"] in types and (client_id is None or message.get("client_id") == client_id):
            return message, seen


async def started(ws, seq):
    """Start a hand (button seat 1, blinds 3 and 5, seat 7 to act); the new seq."""
    client_id = f"start-{uuid.uuid4()}"  # client ids are unique across tables
    await ws.send_json_to({"type": "start_hand", "client_id": client_id, "expected_seq": seq})
    ack, _ = await until(ws, "ack", client_id=client_id)
    assert ack["seq"] == seq + 1
    update, _ = await until(ws, "update")
    assert update["snapshot"]["hand"]["state"]["to_act_seat"] == 7
    return ack["seq"]


async def test_an_out_of_turn_action_is_held_and_shown_on_the_snapshot(table, dealer):
    ws, seq = await tablet_for(table, dealer)
    seq = await started(ws, seq)

    # seat 7 is to act: "out of turn" is refused for him, nothing is recorded
    await ws.send_json_to(
        {"type": "out_of_turn", "client_id": "o0", "expected_seq": seq, "action": {"type": "call", "seat": 7}}
    )
    error, _ = await until(ws, "error")
    assert error["code"] == "in_turn" and error["client_id"] == "o0"

    await ws.send_json_to(
        {"type": "out_of_turn", "client_id": "o1", "expected_seq": seq, "action": {"type": "check", "seat": 5}}
    )
    ack, seen = await until(ws, "ack", client_id="o1")
    assert ack["seq"] == seq + 1
    update = next((m for m in seen if m["type"] == "update"), None) or (await until(ws, "update"))[0]
    state = update["snapshot"]["hand"]["state"]
    assert state["held"] == [{"index": state["held"][0]["index"], "seat": 5, "action": {"type": "check", "seat": 5}}]
    assert state["to_act_seat"] == 7  # held, not applied
    assert update["snapshot"]["hand"]["last_event"]["kind"] == "out_of_turn"
    await ws.disconnect()


async def test_time_is_called_on_the_player_to_act_and_cannot_expire_early(table, dealer):
    ws, seq = await tablet_for(table, dealer)
    seq = await started(ws, seq)

    await ws.send_json_to({"type": "call_time", "client_id": "t0", "expected_seq": seq, "seat": 1})
    error, _ = await until(ws, "error")
    assert error["code"] == "not_your_turn"

    await ws.send_json_to({"type": "call_time", "client_id": "t1", "expected_seq": seq, "seat": 7})
    ack, seen = await until(ws, "ack", client_id="t1")
    update = next((m for m in seen if m["type"] == "update"), None) or (await until(ws, "update"))[0]
    clock = update["snapshot"]["hand"]["state"]["clock"]
    assert clock["seat"] == 7 and clock["seconds"] > 0 and clock["deadline"]

    # the tablet's countdown reports 0 too early: refused, the player still acts
    await ws.send_json_to({"type": "time_expired", "client_id": "x1"})
    error, _ = await until(ws, "error", client_id="x1")
    assert error["code"] == "clock_running"
    assert await database_sync_to_async(HandEvent.objects.filter(kind="action").count)() == 0
    await ws.disconnect()


async def test_a_floor_call_is_acked_with_its_id_and_heard_back(table, dealer):
    ws, seq = await tablet_for(table, dealer)
    await ws.send_json_to(
        {
            "type": "floor_call",
            "client_id": "f1",
            "reason": "chip_action",
            "seat": 3,
            "note": "one big chip",
            "details": {"observed": {"chips": {"5": 1}}},
        }
    )
    ack, seen = await until(ws, "ack", client_id="f1")
    broadcast = next((m for m in seen if m["type"] == "floor_call"), None) or (await until(ws, "floor_call"))[0]
    assert broadcast["call"]["id"] == ack["floor_call"]
    assert broadcast["call"]["status"] == "open" and broadcast["call"]["seat"] == 3
    assert "seq" not in broadcast  # not part of the table's seq stream

    await ws.send_json_to({"type": "floor_call", "client_id": "f2", "reason": "tantrum"})
    error, _ = await until(ws, "error", client_id="f2")
    assert error["code"] == "invalid"
    await ws.disconnect()


async def test_interpret_reads_chips_by_the_tables_house_rules_and_changes_nothing(table, dealer, roles):
    # TDA (the fixture's table): one oversized chip facing the blinds is a call
    ws, seq = await tablet_for(table, dealer)
    seq = await started(ws, seq)
    observed = {
        "chips": {"25": 1},
        "declared": None,
        "declared_before_chips": True,
        "declared_amount": None,
        "motions": 1,
    }
    await ws.send_json_to({"type": "interpret", "client_id": "i1", "observed": observed})
    reply, _ = await until(ws, "interpretation", client_id="i1")
    assert reply["result"]["action"] == "call"
    assert reply["result"]["engine_action"] == {"type": "call", "seat": 7}
    assert await database_sync_to_async(HandEvent.objects.filter(kind="action").count)() == 0
    await ws.disconnect()

    # MunotPoker (004 #44): the same chip facing only the blinds is a raise to its value
    munot = await database_sync_to_async(services.create_table)(
        "Munot", small_blind=1, big_blind=2, rules_profile="munotpoker", dealer=dealer
    )
    for seat, name in [(1, "Eva"), (3, "Fritz"), (5, "Gabi"), (7, "Hans")]:
        await database_sync_to_async(services.seat_player)(munot.id, seat, name, 200)
    ws, seq = await tablet_for(munot, dealer)
    await started(ws, seq)
    await ws.send_json_to({"type": "interpret", "client_id": "i2", "observed": observed})
    reply, _ = await until(ws, "interpretation", client_id="i2")
    result = reply["result"]
    assert result["engine_action"] == {"type": "raise", "seat": 7, "to": 25}
    assert "004 #44" in [c["label"] for c in result["citations"]]
    await ws.disconnect()


async def test_interpret_refuses_impossible_chips_with_a_clear_error(table, dealer):
    ws, seq = await tablet_for(table, dealer)
    await started(ws, seq)
    await ws.send_json_to({"type": "interpret", "client_id": "i3", "observed": {"chips": {"25": 99}}})
    error, _ = await until(ws, "error", client_id="i3")
    assert error["code"] == "invalid"
    await ws.disconnect()
