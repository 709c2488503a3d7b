"""A dealer's action never waits without limit behind another step holding the table's row (issue 24,
finding 12): the write path sets a lock timeout (``SET LOCAL lock_timeout``, as pretix's ``lock_objects``)
and answers ``busy`` with ``retry_after_ms``; the same message sent again once the row is free is applied
once."""

import asyncio
import time

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from pokerfloor.routing import websocket_urlpatterns
from tables import services
from tables.models import HandEvent, Table
from tables.writepath import ServiceError
from tests.tables.holders import RowHolder

pytestmark = pytest.mark.django_db(transaction=True)

app = URLRouter(websocket_urlpatterns)


@pytest.fixture
def short_timeout(settings):
    settings.WRITE_LOCK_TIMEOUT_MS = 400
    return 400


def to_act(table_id):
    return Table.objects.get(pk=table_id).current_hand.snapshot["to_act_seat"]


@pytest.mark.parametrize("fast", [True, False])
def test_a_service_behind_a_held_row_answers_busy_then_applies(table, short_timeout, fast):
    services.start_hand(table.id)
    seat = to_act(table.id)
    events = HandEvent.objects.count()
    holder = RowHolder(table.id)
    try:
        started = time.monotonic()
        with pytest.raises(ServiceError) as refused:
            services.apply_action(table.id, {"type": "call", "seat": seat}, client_id="tap-1", fast=fast)
        waited = time.monotonic() - started
    finally:
        holder.release()
    assert refused.value.code == "busy"
    assert refused.value.extra["retry_after_ms"] > 0
    assert waited < 3, waited
    assert HandEvent.objects.count() == events
    outcome = services.apply_action(table.id, {"type": "call", "seat": seat}, client_id="tap-1", fast=fast)
    assert not outcome.duplicate
    assert HandEvent.objects.count() == events + 1


async def test_the_tablet_hears_busy_and_its_resend_is_applied_once(table, dealer, short_timeout):
    await database_sync_to_async(services.start_hand)(table.id)
    ws = WebsocketCommunicator(app, f"/ws/tables/{table.id}/dealer/")
    ws.scope["user"] = dealer
    connected, _ = await ws.connect()
    assert connected
    snapshot = await ws.receive_json_from()
    seat = snapshot["snapshot"]["hand"]["state"]["to_act_seat"]
    events = await database_sync_to_async(HandEvent.objects.count)()
    holder = await database_sync_to_async(RowHolder)(table.id)
    message = {
        "type": "action",
        "client_id": "tap-busy",
        "expected_seq": snapshot["seq"],
        "action": {"type": "call", "seat": seat},
    }
    try:
        await ws.send_json_to(message)
        answer = await ws.receive_json_from(timeout=5)
    finally:
        await database_sync_to_async(holder.release)()
    assert answer["type"] == "error" and answer["code"] == "busy", answer
    assert answer["client_id"] == "tap-busy" and answer["retry_after_ms"] > 0
    await asyncio.sleep(answer["retry_after_ms"] / 1000)
    await ws.send_json_to(message)
    while (reply := await ws.receive_json_from(timeout=5))["type"] not in ("ack", "error"):
        pass
    assert reply["type"] == "ack" and not reply["duplicate"], reply
    await ws.send_json_to(message)  # sent a third time: applied once all the same
    while (reply := await ws.receive_json_from(timeout=5))["type"] not in ("ack", "error"):
        pass
    assert reply["type"] == "ack" and reply["duplicate"], reply
    assert await database_sync_to_async(HandEvent.objects.count)() == events + 1
    await ws.disconnect()
