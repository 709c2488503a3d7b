"""Sockets' reads run in parallel (``pokerfloor.runtime.threads.socket_read``): a tablet whose
connect is slow holds up no other tablet, and an update made while a tablet
or a floor dashboard connects reaches it after its snapshot."""

import asyncio
import threading

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from pokerfloor.routing import websocket_urlpatterns
from tables import hooks, services

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

app = URLRouter(websocket_urlpatterns)


def _tablet(table_id, user):
    communicator = WebsocketCommunicator(app, f"/ws/tables/{table_id}/dealer/")
    communicator.scope["user"] = user
    return communicator


class _HeldOpenCalls:
    """``hooks.open_calls`` that holds the read of one connect (a tablet's table, or the floor's: None) until released."""

    def __init__(self, table_id, real):
        self.table_id, self.real = table_id, real
        self.entered, self.release = threading.Event(), threading.Event()

    def __call__(self, table_id=None):
        if table_id == self.table_id and not self.release.is_set():
            self.entered.set()
            assert self.release.wait(10), "never released"
        return self.real(table_id)

    async def wait_entered(self):
        for _ in range(500):
            if self.entered.is_set():
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the held connect never read its floor calls")


async def test_a_slow_connect_holds_up_no_other_tablet(table, floorman, monkeypatch):
    other = await database_sync_to_async(services.create_table)("Table 2", small_blind=1, big_blind=2)
    held = _HeldOpenCalls(table.id, hooks.open_calls)
    monkeypatch.setattr(hooks, "open_calls", held)
    slow = _tablet(table.id, floorman)
    slow_connect = asyncio.ensure_future(slow.connect(timeout=10))
    await held.wait_entered()

    quick = _tablet(other.id, floorman)
    connected, _ = await quick.connect(timeout=5)  # on one shared database thread it would wait for the slow one
    assert connected
    snapshot = await quick.receive_json_from(timeout=5)
    assert snapshot["snapshot"]["table"]["id"] == other.id
    assert not slow_connect.done()

    held.release.set()
    assert (await slow_connect)[0]
    assert (await slow.receive_json_from(timeout=5))["snapshot"]["table"]["id"] == table.id
    await quick.disconnect()
    await slow.disconnect()


async def test_an_update_made_while_a_tablet_connects_reaches_it_after_its_snapshot(table, floorman, monkeypatch):
    held = _HeldOpenCalls(table.id, hooks.open_calls)
    monkeypatch.setattr(hooks, "open_calls", held)
    tablet = _tablet(table.id, floorman)
    connecting = asyncio.ensure_future(tablet.connect(timeout=10))
    await held.wait_entered()  # the snapshot is read; the socket is not yet accepted

    await database_sync_to_async(services.seat_player)(table.id, 9, "Ida", 500)
    held.release.set()
    assert (await connecting)[0]
    snapshot = await tablet.receive_json_from(timeout=5)
    assert snapshot["type"] == "snapshot"
    assert "Ida" not in [s["player"] for s in snapshot["snapshot"]["seats"]]
    update = await tablet.receive_json_from(timeout=5)
    assert update["type"] == "update"
    assert update["seq"] == snapshot["seq"] + 1
    assert "Ida" in [s["player"] for s in update["snapshot"]["seats"]]
    await tablet.disconnect()


async def test_a_floor_dashboard_gets_what_changed_while_it_connected_after_its_snapshot(table, floorman, monkeypatch):
    held = _HeldOpenCalls(None, hooks.open_calls)
    monkeypatch.setattr(hooks, "open_calls", held)
    first = WebsocketCommunicator(app, "/ws/floor/")
    first.scope["user"] = floorman
    assert (await first.connect(timeout=5))[0]
    held.release.set()  # the first dashboard connects at once
    assert (await first.receive_json_from(timeout=5))["type"] == "floor_snapshot"
    assert (await first.receive_json_from(timeout=5))["type"] == "floor_calls"
    held.release.clear()
    held.entered.clear()

    second = WebsocketCommunicator(app, "/ws/floor/")
    second.scope["user"] = floorman
    connecting = asyncio.ensure_future(second.connect(timeout=10))
    await held.wait_entered()  # the second one's snapshot is read, its floor calls not yet
    await database_sync_to_async(services.seat_player)(table.id, 9, "Ida", 500)

    # the dashboard already open hears it at once, through the same subscription of this process
    update = await first.receive_json_from(timeout=5)
    assert update["type"] == "update" and "Ida" in [s["player"] for s in update["snapshot"]["seats"]]

    held.release.set()
    assert (await connecting)[0]
    snapshot = await second.receive_json_from(timeout=5)
    assert snapshot["type"] == "floor_snapshot"
    (seen,) = [t for t in snapshot["tables"] if t["table"]["id"] == table.id]
    assert "Ida" not in [s["player"] for s in seen["seats"]]
    assert (await second.receive_json_from(timeout=5))["type"] == "floor_calls"
    late = await second.receive_json_from(timeout=5)
    assert late["type"] == "update" and late["seq"] == seen["seq"] + 1
    assert "Ida" in [s["player"] for s in late["snapshot"]["seats"]]
    await first.disconnect()
    await second.disconnect()
