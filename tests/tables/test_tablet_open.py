"""A dealer tablet's connect in one statement (``tables.tablet_open``, issue 26): the tablet's own stack
(``pokerfloor.asgi``: its session cookie only) reads the session, the user, the right and the table's
snapshot together; the socket behaves as before (snapshot then open floor calls, 4403 without the
right, 4404 for an unknown table, revocations reach it)."""

from __future__ import annotations

import json
import threading

import psycopg
import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.sessions import CookieMiddleware
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from pokerfloor.routing import websocket_urlpatterns
from tables import services, tablet_open
from tables.models import Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

#: The dealer tablet's stack of pokerfloor.asgi: its session cookie only.
tablet_app = CookieMiddleware(URLRouter(websocket_urlpatterns))


@database_sync_to_async
def login(user) -> str:
    client = Client()
    client.force_login(user)
    return client.session.session_key


async def open_with_cookie(table_id: int, session_key: str | None):
    headers = [(b"cookie", f"sessionid={session_key}".encode())] if session_key else []
    ws = WebsocketCommunicator(tablet_app, f"/ws/tables/{table_id}/dealer/", headers=headers)
    connected, code = await ws.connect(timeout=5)
    return ws, connected, code


class Statements:
    """Every statement any thread or the event loop sends to PostgreSQL while counting (psycopg's
    ``Cursor.execute``, which Django's cursors and its connection health checks call, and
    ``AsyncCursor.execute``, which the loop's connections call: ``pokerfloor.runtime.loopdb``)."""

    def __init__(self, monkeypatch) -> None:
        self.count, self.lock = 0, threading.Lock()
        real, real_async = psycopg.Cursor.execute, psycopg.AsyncCursor.execute

        def execute(cursor, *args, **kwargs):
            with self.lock:
                self.count += 1
            return real(cursor, *args, **kwargs)

        async def execute_async(cursor, *args, **kwargs):
            with self.lock:
                self.count += 1
            return await real_async(cursor, *args, **kwargs)

        monkeypatch.setattr(psycopg.Cursor, "execute", execute)
        monkeypatch.setattr(psycopg.AsyncCursor, "execute", execute_async)


@database_sync_to_async
def fresh_snapshot(table_id: int) -> dict:
    return services.table_snapshot(Table.objects.select_related("dealer", "current_hand").get(pk=table_id))


async def test_a_dealers_tablet_connects_with_one_statement_and_gets_the_snapshot_then_its_calls(
    table, dealer, roles, monkeypatch
):
    """Before: nine statements in two trips to the read threads (session, user, expiry; a health check,
    the table, the roles, the last event, the floor calls, a health check)."""
    await database_sync_to_async(services.start_hand)(table.id)
    other = await database_sync_to_async(services.create_table)("Table 2", small_blind=1, big_blind=2, dealer=dealer)
    key = await login(dealer)
    warm, connected, _ = await open_with_cookie(other.id, key)  # the read thread's connection opened
    assert connected
    await warm.disconnect()

    statements = Statements(monkeypatch)
    ws, connected, code = await open_with_cookie(table.id, key)
    assert connected, code
    message = await ws.receive_json_from(timeout=5)
    assert statements.count == 1
    assert message["type"] == "snapshot" and message["seq"] == message["snapshot"]["seq"]
    assert message["snapshot"] == await fresh_snapshot(table.id)
    assert await ws.receive_nothing(timeout=0.2)  # no floor call open here
    await ws.disconnect()

    from rules.services import raise_floor_call

    call = await database_sync_to_async(raise_floor_call)(table.id, "dispute", note="seat 3")
    ws, connected, _ = await open_with_cookie(table.id, key)
    assert connected
    assert (await ws.receive_json_from(timeout=5))["type"] == "snapshot"
    calls = await ws.receive_json_from(timeout=5)
    assert calls["type"] == "floor_call" and calls["call"]["id"] == call.id
    await ws.disconnect()


@database_sync_to_async
def _snapshots_alike(table_id: int, session_key: str | None, user_id: int | None) -> None:
    with CaptureQueriesContext(connection) as queries:
        opening = tablet_open.open_tablet(table_id, session_key, user_id)
    assert opening.status == "ok", opening.status
    assert len(queries.captured_queries) == 1
    sent = json.loads(opening.text)
    assert sent["type"] == "snapshot"
    assert sent["snapshot"] == services.table_snapshot(Table.objects.get(pk=table_id))


async def test_the_one_statements_snapshot_is_the_snapshot_in_every_state_of_a_table(table, dealer, floorman, roles):
    key = await login(dealer)
    await _snapshots_alike(table.id, key, None)  # no hand yet
    await database_sync_to_async(services.start_hand)(table.id)
    await _snapshots_alike(table.id, key, None)  # a live hand, its deal the last event
    snapshot = await fresh_snapshot(table.id)
    seat = snapshot["hand"]["state"]["to_act_seat"]
    await database_sync_to_async(services.apply_action)(
        table.id, {"type": "call", "seat": seat}, actor=dealer, expected_seq=snapshot["seq"]
    )
    await _snapshots_alike(table.id, key, None)  # an action by the dealer
    await _snapshots_alike(table.id, None, floorman.pk)  # a floorman's, with no session to check
    empty = await database_sync_to_async(services.create_table)("Empty", small_blind=5, big_blind=10)
    await _snapshots_alike(empty.id, None, floorman.pk)  # no dealer, no seat


async def test_who_may_not_deal_there_is_refused_and_an_unknown_table_is_not_found(
    table, dealer, other_dealer, floorman, outsider
):
    for user, expected in ((other_dealer, 4403), (outsider, 4403)):
        ws, connected, code = await open_with_cookie(table.id, await login(user))
        assert not connected and code == expected
    ws, connected, code = await open_with_cookie(table.id, None)
    assert not connected and code == 4403
    ws, connected, code = await open_with_cookie(table.id, "no-such-session-key")
    assert not connected and code == 4403
    ws, connected, code = await open_with_cookie(999_999, await login(dealer))
    assert not connected and code == 4404
    ws, connected, code = await open_with_cookie(999_999, None)
    assert not connected and code == 4403  # who is not logged in learns nothing about the table
    ws, connected, _ = await open_with_cookie(table.id, await login(floorman))  # not its dealer: floor staff
    assert connected
    assert (await ws.receive_json_from(timeout=5))["snapshot"]["table"]["id"] == table.id
    await ws.disconnect()


async def test_an_expired_session_or_one_of_a_changed_password_is_refused(table, dealer):
    key = await login(dealer)
    await database_sync_to_async(Session.objects.filter(session_key=key).update)(
        expire_date=timezone.now() - timezone.timedelta(seconds=1)
    )
    ws, connected, code = await open_with_cookie(table.id, key)
    assert not connected and code == 4403

    key = await login(dealer)

    @database_sync_to_async
    def change_password():
        dealer.set_password("something else")
        dealer.save()

    await change_password()
    ws, connected, code = await open_with_cookie(table.id, key)
    assert not connected and code == 4403
    # Channels' get_user ends a session whose auth hash no longer matches, as before
    assert not await database_sync_to_async(Session.objects.filter(session_key=key).exists)()


async def closed_with(ws, timeout=1.0):
    while True:
        output = await ws.receive_output(timeout=timeout)
        if output["type"] == "websocket.close":
            return output.get("code")


async def test_a_revocation_of_the_dealer_reaches_the_tablet_through_the_tables_group(table, dealer, floorman, roles):
    """The tablet reads its dealer's right before it joins the dealer's group; a revocation sent in
    between reaches it through the table's group, which it joined before the read."""
    mine = await open_with_cookie(table.id, await login(dealer))
    theirs = await open_with_cookie(table.id, await login(floorman))
    for ws, connected, _ in (mine, theirs):
        assert connected
        await ws.receive_json_from(timeout=5)
    get_channel_layer().groups.pop(f"user.{dealer.pk}", None)  # as if the revocation came before the join
    await database_sync_to_async(dealer.groups.remove)(roles["dealer"])
    assert await closed_with(mine[0]) == 4403
    assert await theirs[0].receive_nothing(timeout=0.5)  # the floorman's tablet at that table stays
    await theirs[0].disconnect()
