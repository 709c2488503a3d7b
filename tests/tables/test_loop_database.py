"""The event loop's own database connections (``pokerfloor.runtime.loopdb``).

A dealer's betting action is written from the event loop, not queued behind the service threads: with
every service thread busy (a bust's moves at other tables, a long correction), the dealers of the other
tables still get their calls and folds answered, and what they record is what the locked write path would
record.  A tablet's connect is read there too: one waiting on the database holds up no other, and an
update made meanwhile reaches the tablet after its snapshot."""

from __future__ import annotations

import asyncio
import time

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from pokerfloor.routing import websocket_urlpatterns
from tables import services, tablet_open
from tables.models import HandEvent, Table
from tests.tables.tablet import reply_to

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

app = URLRouter(websocket_urlpatterns)


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


async def test_the_fold_that_ends_the_hand_is_answered_while_every_service_thread_is_busy(table, dealer, busy_threads):
    """A hand's end where no app's hook has work is written on the loop as well, in its own statement
    (never in a batch): the tablet sees the hand over and the stacks it left, with its ack."""
    await database_sync_to_async(services.start_hand)(table.id)
    ws = WebsocketCommunicator(app, f"/ws/tables/{table.id}/dealer/")
    ws.scope["user"] = dealer
    assert (await ws.connect())[0]
    snapshot = (await ws.receive_json_from())["snapshot"]
    for n in range(3):  # four players: the third fold ends the hand
        seat = snapshot["hand"]["state"]["to_act_seat"]
        message = {"type": "action", "client_id": f"f{n}", "action": {"type": "fold", "seat": seat}}
        ack, before = await reply_to(ws, message, 3)
        assert ack["type"] == "ack", ack
        snapshot = before[-1]["snapshot"]
    hand = snapshot["hand"]
    assert hand["status"] == "complete" and hand["state"]["phase"] == "complete"
    final = dict(zip([p["seat"] for p in hand["state"]["players"]], hand["state"]["final_stacks"], strict=True))
    assert {s["number"]: s["stack"] for s in snapshot["seats"] if s["number"] in final} == final
    stacks = await database_sync_to_async(
        lambda: dict(table.seats.filter(number__in=final).values_list("number", "stack"))
    )()
    assert stacks == final and sum(final.values()) == 200 + 300 + 150 + 400
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


class SlowOpening:
    """``tables.tablet_open.open_statement`` whose statement for one table takes ``seconds`` longer in
    PostgreSQL (a cross join with ``pg_sleep``): a slow database, not a slow Python."""

    def __init__(self, table_id: int, seconds: float, real) -> None:
        self.table_id, self.seconds, self.real, self.sent = table_id, seconds, real, 0

    def __call__(self, table_id, *args):
        sql, params = self.real(table_id, *args)
        if table_id != self.table_id:
            return sql, params
        self.sent += 1
        return f"SELECT q.* FROM ({sql}) q, pg_sleep({self.seconds:f})", params


async def connect_slowly(table_id: int, user, seconds: float, monkeypatch):
    """A tablet of ``table_id`` connecting while its connect's statement takes ``seconds`` longer
    (:class:`SlowOpening`): ``(communicator, its connect as a future)`` once the statement is sent."""
    slow_read = SlowOpening(table_id, seconds, tablet_open.open_statement)
    monkeypatch.setattr(tablet_open, "open_statement", slow_read)
    tablet = WebsocketCommunicator(app, f"/ws/tables/{table_id}/dealer/")
    tablet.scope["user"] = user
    connecting = asyncio.ensure_future(tablet.connect(timeout=10))
    while not slow_read.sent:
        await asyncio.sleep(0.01)
    return tablet, connecting


async def test_a_connect_waiting_on_the_database_holds_up_no_other_tablet(table, floorman, monkeypatch):
    other = await database_sync_to_async(services.create_table)("Table 2", small_blind=1, big_blind=2)
    slow, slow_connect = await connect_slowly(table.id, floorman, 2.0, monkeypatch)

    quick = WebsocketCommunicator(app, f"/ws/tables/{other.id}/dealer/")
    quick.scope["user"] = floorman
    started = time.monotonic()
    assert (await quick.connect(timeout=5))[0]
    assert (await quick.receive_json_from(timeout=5))["snapshot"]["table"]["id"] == other.id
    assert time.monotonic() - started < 1.5 and not slow_connect.done()

    assert (await slow_connect)[0]
    assert (await slow.receive_json_from(timeout=5))["snapshot"]["table"]["id"] == table.id
    await quick.disconnect()
    await slow.disconnect()


async def test_an_update_made_while_the_loop_reads_a_connect_reaches_it_after_its_snapshot(
    table, floorman, monkeypatch
):
    tablet, connecting = await connect_slowly(table.id, floorman, 1.0, monkeypatch)
    await asyncio.sleep(0.2)  # the statement runs (its picture of the database is taken)

    await database_sync_to_async(services.seat_player)(table.id, 9, "Ida", 500)
    assert (await connecting)[0]
    snapshot = await tablet.receive_json_from(timeout=5)
    assert snapshot["type"] == "snapshot"
    assert "Ida" not in [s["player"] for s in snapshot["snapshot"]["seats"]]
    update = await tablet.receive_json_from(timeout=5)
    assert (update["type"], update["seq"]) == ("update", snapshot["seq"] + 1)
    assert "Ida" in [s["player"] for s in update["snapshot"]["seats"]]
    await tablet.disconnect()
