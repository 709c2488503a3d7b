"""Sockets' reads run in parallel (``pokerfloor.runtime.threads.socket_read``): a tablet whose
connect is slow holds up no other tablet, and an update made while a tablet
or a floor dashboard connects reaches it after its snapshot."""

import asyncio
import threading

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings

from pokerfloor.routing import websocket_urlpatterns
from tables import hooks, services, tablet_open

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


class _HeldSnapshot(_HeldOpenCalls):
    """``tables.tablet_open.snapshot_text`` holding one tablet's connect (its table's) after its statement read
    the table, until released."""

    def __call__(self, table, *args):
        if table.id == self.table_id and not self.release.is_set():
            self.entered.set()
            assert self.release.wait(10), "never released"
        return self.real(table, *args)


async def test_a_slow_connect_holds_up_no_other_tablet(table, floorman, monkeypatch):
    monkeypatch.setattr(settings, "LOOP_DATABASE", False)  # the read threads' path (held in Python)
    other = await database_sync_to_async(services.create_table)("Table 2", small_blind=1, big_blind=2)
    held = _HeldSnapshot(table.id, tablet_open.snapshot_text)
    monkeypatch.setattr(tablet_open, "snapshot_text", held)
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
    monkeypatch.setattr(settings, "LOOP_DATABASE", False)  # the read threads' path (held in Python)
    held = _HeldSnapshot(table.id, tablet_open.snapshot_text)
    monkeypatch.setattr(tablet_open, "snapshot_text", held)
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


class _CountedSummaries:
    """``tables.consumers.floor_summaries`` counted, its first read held (after reading) until released."""

    def __init__(self, real):
        self.real, self.reads = real, 0
        self.entered, self.release = threading.Event(), threading.Event()

    def __call__(self):
        self.reads += 1
        summaries = self.real()
        if self.reads == 1:
            self.entered.set()
            assert self.release.wait(10), "never released"
        return summaries


async def _dashboard(user):
    ws = WebsocketCommunicator(app, "/ws/floor/")
    ws.scope["user"] = user
    return ws


async def _floor_picture(ws) -> tuple[dict, list[dict]]:
    """The dashboard's snapshot (its one part here) and what follows it within a second."""
    snapshot = await ws.receive_json_from(timeout=10)
    assert snapshot["type"] == "floor_snapshot"
    after = []
    while not await ws.receive_nothing(timeout=1):
        after.append(await ws.receive_json_from(timeout=5))
    return snapshot, after


async def test_dashboards_connecting_at_once_share_one_read_of_the_floor(table, floorman, monkeypatch):
    """After a restart every dashboard connects at once: ten read the floor twice, not ten times (at
    1,000 tables a read is a second of the server's time), and each gets every table."""
    from tables import consumers

    counted = _CountedSummaries(consumers.floor_summaries)
    monkeypatch.setattr(consumers, "floor_summaries", counted)
    first = await _dashboard(floorman)
    opening = [asyncio.ensure_future(first.connect(timeout=20))]
    for _ in range(500):
        if counted.entered.is_set():
            break
        await asyncio.sleep(0.01)
    others = [await _dashboard(floorman) for _ in range(9)]
    opening += [asyncio.ensure_future(ws.connect(timeout=20)) for ws in others]
    await asyncio.sleep(0.3)  # the nine wait for the first read to end
    counted.release.set()
    assert all(connected for connected, _ in await asyncio.gather(*opening))
    dashboards = [first, *others]
    # each picture waits a quiet second for what follows its snapshot: the ten wait together
    for ws, (snapshot, _after) in zip(dashboards, await asyncio.gather(*map(_floor_picture, dashboards))):
        assert [t["table"]["id"] for t in snapshot["tables"]] == [table.id]
        await ws.disconnect()
    assert counted.reads == 2


async def test_a_dashboard_never_shares_a_read_that_began_before_it_subscribed(table, floorman, monkeypatch):
    """Dashboard A's read has read the floor when B subscribes and a player sits down: B must not get
    A's older picture without the update (it would never hear of Ida); it gets a read of its own."""
    from tables import consumers

    counted = _CountedSummaries(consumers.floor_summaries)
    monkeypatch.setattr(consumers, "floor_summaries", counted)
    a, b = await _dashboard(floorman), await _dashboard(floorman)
    a_connecting = asyncio.ensure_future(a.connect(timeout=20))
    for _ in range(500):
        if counted.entered.is_set():
            break
        await asyncio.sleep(0.01)
    b_connecting = asyncio.ensure_future(b.connect(timeout=20))
    await asyncio.sleep(0.2)  # B has subscribed and waits
    await database_sync_to_async(services.seat_player)(table.id, 9, "Ida", 500)
    counted.release.set()
    assert (await a_connecting)[0] and (await b_connecting)[0]
    for ws, (snapshot, after) in zip((a, b), await asyncio.gather(_floor_picture(a), _floor_picture(b))):
        (seen,) = [t for t in snapshot["tables"] if t["table"]["id"] == table.id]
        updates = [m for m in after if m.get("type") == "update"]
        in_snapshot = "Ida" in [s["player"] for s in seen["seats"]]
        in_update = any("Ida" in [s["player"] for s in u["snapshot"]["seats"]] for u in updates)
        assert in_snapshot or in_update, (ws is a, seen, after)
        await ws.disconnect()
    assert counted.reads == 2
