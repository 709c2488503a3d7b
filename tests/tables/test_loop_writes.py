"""A dealer's betting action is written from the event loop (``pokerfloor.runtime.loopdb``), not queued
behind the service threads: with every service thread busy (a bust's moves at other tables, a long
correction), the dealers of the other tables still get their calls and folds answered, and what they
record is what the locked write path would record."""

from __future__ import annotations

import threading

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings

from pokerfloor.routing import websocket_urlpatterns
from pokerfloor.runtime import threads
from tables import services
from tables.models import HandEvent, Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

app = URLRouter(websocket_urlpatterns)


async def reply_to(ws, message: dict, timeout: float = 10) -> tuple[dict, list[dict]]:
    """Send ``message``; ``(its ack or error, the updates that came before it)``."""
    await ws.send_json_to(message)
    before = []
    while True:
        reply = await ws.receive_json_from(timeout=timeout)
        if reply["type"] in ("ack", "error"):
            return reply, before
        before.append(reply)


@pytest.fixture
def busy_threads():
    """Every service thread held until the test lets them go."""
    release = threading.Event()
    held = [threads.SERVICE_THREADS.submit(release.wait, 30) for _ in range(settings.SERVICE_THREADS)]
    yield
    release.set()
    for future in held:
        future.result(timeout=30)


async def test_a_call_is_answered_while_every_service_thread_is_busy(table, dealer, busy_threads):
    await database_sync_to_async(services.start_hand)(table.id)
    ws = WebsocketCommunicator(app, f"/ws/tables/{table.id}/dealer/")
    ws.scope["user"] = dealer
    assert (await ws.connect())[0]
    opening = await ws.receive_json_from()
    seat, seq = opening["snapshot"]["hand"]["state"]["to_act_seat"], opening["seq"]

    ack, before = await reply_to(ws, {"type": "action", "client_id": "c1", "action": {"type": "call", "seat": seat}}, 3)

    assert ack["type"] == "ack" and ack["seq"] == seq + 1, ack
    # the new state came first, whole: the tablet needs no snapshot
    assert [(m["type"], m["seq"]) for m in before] == [("update", seq + 1)]
    assert before[0]["snapshot"]["hand"]["last_event"]["payload"] == {"type": "call", "seat": seat}
    assert before[0]["snapshot"]["hand"]["state"]["to_act_seat"] != seat
    event = await database_sync_to_async(HandEvent.objects.get)(client_id="c1")
    assert (event.seq, event.kind, event.actor_id) == (seq + 1, "action", dealer.id)
    # and the table group's copy of that update is not sent to this tablet a second time
    assert await ws.receive_nothing(timeout=0.5)
    await ws.disconnect()


async def test_the_loop_records_the_same_hand_as_the_locked_path(table, dealer, settings):
    """The same actions through the socket (the loop's statement) and through the locked write path give
    the same events and the same state."""
    twin = await database_sync_to_async(services.create_table)("Twin", small_blind=1, big_blind=2, dealer=dealer)
    seated = await database_sync_to_async(
        lambda: [(s.number, s.player.name, s.stack) for s in table.seats.exclude(player=None).select_related("player")]
    )()
    for number, name, stack in seated:
        await database_sync_to_async(services.seat_player)(twin.id, number, name, stack)
    for t in (table, twin):
        await database_sync_to_async(services.start_hand)(t.id)
    ws = WebsocketCommunicator(app, f"/ws/tables/{table.id}/dealer/")
    ws.scope["user"] = dealer
    assert (await ws.connect())[0]
    state = (await ws.receive_json_from())["snapshot"]["hand"]["state"]
    for n, kind in enumerate(["call", "raise", "call", "fold", "call"]):
        action = {"type": kind, "seat": state["to_act_seat"]}
        if kind == "raise":
            action["to"] = 10
        ack, before = await reply_to(ws, {"type": "action", "client_id": f"a{n}", "action": action})
        assert ack["type"] == "ack", ack
        state = before[-1]["snapshot"]["hand"]["state"]
        await database_sync_to_async(services.apply_action)(twin.id, action, fast=False)
    await ws.disconnect()

    def hands():
        return [Table.objects.select_related("current_hand").get(pk=t.id).current_hand for t in (table, twin)]

    mine, theirs = await database_sync_to_async(hands)()
    assert mine.snapshot == theirs.snapshot
    payloads = await database_sync_to_async(
        lambda: [list(h.events.order_by("index").values_list("kind", "payload")) for h in (mine, theirs)]
    )()
    assert payloads[0] == payloads[1]
