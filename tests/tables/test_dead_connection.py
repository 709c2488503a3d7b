"""PostgreSQL ended the service threads' idle connections (a restart, ``idle_session_timeout``, a
failover): the next dealer action must not meet the dead connection as an error answer (issue 24,
finding 11).  A service whose first statement meets a dead connection runs once more on a fresh one."""

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connection

from pokerfloor.routing import websocket_urlpatterns
from tables import services
from tables.models import HandEvent

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

app = URLRouter(websocket_urlpatterns)


def terminate_other_backends() -> int:
    """End every other connection to the test database, as a PostgreSQL restart does; returns how many."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


@pytest.fixture
def reconnect_after(table):
    """The test's own connection is ended too (by the database thread's statement): closed after the test,
    so that the database's flush opens a fresh one."""
    yield
    connection.close()


async def answer(ws, message: dict) -> dict:
    """Send ``message``; the ack or error answering it (updates on the way are skipped)."""
    await ws.send_json_to(message)
    while True:
        reply = await ws.receive_json_from(timeout=10)
        if reply["type"] in ("ack", "error", "undo_options"):
            return reply


async def test_a_dealer_action_after_the_database_ended_the_connections_is_applied(table, dealer, reconnect_after):
    await database_sync_to_async(services.start_hand)(table.id)
    ws = WebsocketCommunicator(app, f"/ws/tables/{table.id}/dealer/")
    ws.scope["user"] = dealer
    connected, _ = await ws.connect()
    assert connected
    snapshot = await ws.receive_json_from()
    seat = snapshot["snapshot"]["hand"]["state"]["to_act_seat"]
    first = await answer(ws, {"type": "action", "client_id": "a1", "action": {"type": "call", "seat": seat}})
    assert first["type"] == "ack", first
    events = await database_sync_to_async(HandEvent.objects.count)()

    for n, kind in enumerate(["call", "call", "undo_options", "fold"]):
        assert await database_sync_to_async(terminate_other_backends)() >= 1
        state = await database_sync_to_async(lambda: table.__class__.objects.get(pk=table.id).current_hand.snapshot)()
        if kind == "undo_options":
            reply = await answer(ws, {"type": "undo_options", "client_id": f"u{n}"})
            assert reply["type"] == "undo_options", reply
            continue
        message = {"type": "action", "client_id": f"b{n}", "action": {"type": kind, "seat": state["to_act_seat"]}}
        reply = await answer(ws, message)
        assert reply["type"] == "ack" and not reply["duplicate"], reply
        events += 1
    assert await database_sync_to_async(HandEvent.objects.count)() == events
    await ws.disconnect()
