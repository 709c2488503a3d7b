"""Group commit of the dealers' betting actions (``tables.services.eventbatch``).

A busy night: every connection of the event loop is writing, and the dealers of six tables tap a call
in the same moment.  Their actions wait for the next free connection and go out together, in ONE
statement and ONE transaction, instead of each taking the long way through a service thread.  Each
dealer still gets the new state first and then the ack, the floor sees every table move, and what is
recorded is exactly what six separate writes would record.  A batch never writes what a single write
would refuse (a moved table, a dealer without the right), never waits for a table another step holds,
and when it fails as a whole (a repeated message) each action is answered by the normal path.
"""

from __future__ import annotations

import asyncio
import time

import psycopg
import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from pokerfloor.routing import websocket_urlpatterns
from pokerfloor.runtime import loopdb
from tables import jsontext, services, sql
from tables.models import Hand, HandEvent, Table
from tables.services import eventbatch
from tests.tables.holders import RowHolder

pytestmark = [pytest.mark.django_db(transaction=True)]

app = URLRouter(websocket_urlpatterns)

PLAYERS = [(1, "Anna", 200), (3, "Ben", 300), (5, "Clara", 150), (7, "David", 400)]


def dealt_tables(count: int, dealer=None) -> list[Table]:
    """``count`` tables at 1/2 with four players each and a hand dealt."""
    made = []
    for n in range(count):
        table = services.create_table(f"Burst {n + 1}", small_blind=1, big_blind=2, dealer=dealer)
        for seat, name, stack in PLAYERS:
            services.seat_player(table.id, seat, f"{name} {n + 1}", stack)
        services.start_hand(table.id)
        made.append(Table.objects.select_related("current_hand").get(pk=table.id))
    return made


async def open_tablet(table_id: int, user) -> tuple[WebsocketCommunicator, dict]:
    """A dealer tablet of ``table_id`` and the snapshot it opened with."""
    ws = WebsocketCommunicator(app, f"/ws/tables/{table_id}/dealer/")
    ws.scope["user"] = user
    assert (await ws.connect(timeout=10))[0]
    opening = await ws.receive_json_from(timeout=10)
    assert opening["type"] == "snapshot"
    return ws, opening


async def answer(ws) -> tuple[dict, list[dict]]:
    """The next ack or error of ``ws`` and the messages before it."""
    before = []
    while True:
        reply = await ws.receive_json_from(timeout=10)
        if reply["type"] in ("ack", "error"):
            return reply, before
        before.append(reply)


async def every_connection_held() -> tuple[loopdb.LoopConnections, list[loopdb.Held]]:
    """Every connection of this event loop taken, as by statements in flight."""
    connections = loopdb.for_running_loop()
    return connections, [await connections.acquire() for _ in range(connections.size)]


def floor_updates(messages: list[dict]) -> dict[int, int]:
    """``{table id: last seq}`` of the floor's ``update`` messages (batches opened)."""
    seen: dict[int, int] = {}
    for message in messages:
        for one in message["messages"] if message["type"] == "batch" else [message]:
            if one["type"] == "update":
                seen[one["snapshot"]["table"]["id"]] = one["seq"]
    return seen


@pytest.mark.asyncio
async def test_a_burst_of_six_calls_is_written_in_one_transaction(floorman):
    tables = await database_sync_to_async(dealt_tables)(6)
    floor = WebsocketCommunicator(app, "/ws/floor/")
    floor.scope["user"] = floorman
    assert (await floor.connect(timeout=10))[0]
    tablets = [await open_tablet(t.id, floorman) for t in tables]
    while not await floor.receive_nothing(timeout=0.3):  # its snapshot and calls
        await floor.receive_json_from()

    connections, held = await every_connection_held()
    batcher = eventbatch.for_running_loop()
    before_batches = list(batcher.batches)
    sent = []
    for n, (ws, opening) in enumerate(tablets):
        seat = opening["snapshot"]["hand"]["state"]["to_act_seat"]
        sent.append((opening["seq"], seat))
        await ws.send_json_to({"type": "action", "client_id": f"burst-{n}", "action": {"type": "call", "seat": seat}})
    while len(batcher.pending) < len(tablets):  # all six decided and waiting for a connection
        await asyncio.sleep(0.01)
    for one in held:
        connections.release(one)

    for (ws, _opening), (seq, seat) in zip(tablets, sent, strict=True):
        ack, before = await answer(ws)
        assert ack["type"] == "ack" and ack["seq"] == seq + 1, ack
        # the new state first, whole, then the ack: the tablet needs no snapshot
        assert [(m["type"], m["seq"]) for m in before] == [("update", seq + 1)]
        assert before[0]["snapshot"]["hand"]["last_event"]["payload"] == {"type": "call", "seat": seat}
        await ws.disconnect()
    assert batcher.batches == [before_batches[0] + 1, before_batches[1] + 6]

    events = await database_sync_to_async(
        lambda: list(HandEvent.objects.filter(client_id__startswith="burst-").order_by("client_id"))
    )()
    assert [(e.table_id, e.seq, e.kind, e.actor_id) for e in events] == [
        (t.id, seq + 1, "action", floorman.id) for t, (seq, _seat) in zip(tables, sent, strict=True)
    ]
    assert len({e.at for e in events}) == 1  # one transaction: one commit for the six
    hands = await database_sync_to_async(lambda: list(Hand.objects.filter(table__in=tables).order_by("table_id")))()
    assert [(h.snapshot_seq, h.snapshot["to_act_seat"] != seat) for h, (_s, seat) in zip(hands, sent)] == [
        (seq + 1, True) for seq, _seat in sent
    ]

    received = []
    while not await floor.receive_nothing(timeout=0.3):
        received.append(await floor.receive_json_from())
    assert floor_updates(received) == {t.id: seq + 1 for t, (seq, _seat) in zip(tables, sent, strict=True)}
    await floor.disconnect()


@pytest.mark.asyncio
async def test_a_burst_with_a_repeated_message_is_answered_by_the_normal_path(floorman):
    tables = await database_sync_to_async(dealt_tables)(3)
    tablets = [await open_tablet(t.id, floorman) for t in tables]
    first_ws, first = tablets[0]
    seat = first["snapshot"]["hand"]["state"]["to_act_seat"]
    await first_ws.send_json_to({"type": "action", "client_id": "once", "action": {"type": "call", "seat": seat}})
    ack, before = await answer(first_ws)
    assert ack["seq"] == first["seq"] + 1 and not ack["duplicate"]
    next_seat = before[-1]["snapshot"]["hand"]["state"]["to_act_seat"]

    connections, held = await every_connection_held()
    batcher = eventbatch.for_running_loop()
    # the first tablet sends a new, legal action under the id of the one it sent before
    await first_ws.send_json_to({"type": "action", "client_id": "once", "action": {"type": "fold", "seat": next_seat}})
    for n, (ws, opening) in enumerate(tablets[1:]):
        to_act = opening["snapshot"]["hand"]["state"]["to_act_seat"]
        await ws.send_json_to({"type": "action", "client_id": f"next-{n}", "action": {"type": "call", "seat": to_act}})
    while len(batcher.pending) < len(tablets):
        await asyncio.sleep(0.01)
    for one in held:
        connections.release(one)

    ack, _before = await answer(first_ws)
    assert (ack["type"], ack["seq"], ack["duplicate"]) == ("ack", first["seq"] + 1, True)
    for ws, opening in tablets[1:]:
        ack, _before = await answer(ws)
        assert (ack["type"], ack["seq"], ack["duplicate"]) == ("ack", opening["seq"] + 1, False)
    for ws, _opening in tablets:
        await ws.disconnect()
    recorded = await database_sync_to_async(
        lambda: {
            t.id: list(HandEvent.objects.filter(table=t, kind="action").values_list("client_id", flat=True))
            for t in tables
        }
    )()
    assert recorded == {tables[0].id: ["once"], tables[1].id: ["next-0"], tables[2].id: ["next-1"]}


def row_for(table: Table, user, **changes) -> sql.EventRow:
    """A batch row that calls for the player to act at ``table`` as ``user``."""
    hand = table.current_hand
    values = dict(
        table_id=table.id,
        seq=table.seq + 1,
        old_seq=table.seq,
        hand_id=hand.id,
        index=hand.last_index + 1,
        payload_json='{"type": "call"}',
        actor_id=user.id,
        client_id=f"row-{table.id}",
        snapshot_json='{"written": true}',
        user_id=user.id,
        session_key=None,
    )
    values.update(changes)
    return sql.EventRow(**values)


def run_batch(rows: list[sql.EventRow]) -> dict[int, object]:
    """Run the batch statement on a connection of its own: ``{table id: at}`` of what it wrote."""
    statement = sql.event_batch_statement(rows, "2000ms", eventbatch._batch_right())
    with psycopg.connect(**loopdb.connection_params(), autocommit=True) as conn:
        return {table_id: sql.event_at((at,)) for table_id, at in conn.execute(*statement).fetchall()}


def test_a_batch_writes_only_what_a_single_write_would(dealer, other_dealer):
    mine, moved, not_mine, held = dealt_tables(4, dealer=dealer)
    Table.objects.filter(pk=not_mine.pk).update(dealer=other_dealer)
    holder = RowHolder(held.pk)
    try:
        started = time.monotonic()
        written = run_batch(
            [
                row_for(mine, dealer),
                row_for(moved, dealer, old_seq=moved.seq - 1),
                row_for(not_mine, dealer),
                row_for(held, dealer),
            ]
        )
        took = time.monotonic() - started
    finally:
        holder.release()

    assert list(written) == [mine.id]
    assert took < 1.0  # the held row was skipped, not waited for (the lock timeout is 2 s)
    after = {
        t.id: t
        for t in Table.objects.select_related("current_hand").filter(
            pk__in=[t.id for t in (mine, moved, not_mine, held)]
        )
    }
    assert after[mine.id].seq == mine.seq + 1
    assert after[mine.id].current_hand.snapshot == {"written": True}
    assert after[mine.id].current_hand.last_index == mine.current_hand.last_index + 1
    event = HandEvent.objects.get(client_id=f"row-{mine.id}")
    assert (event.seq, event.index, event.payload, event.at) == (
        mine.seq + 1,
        mine.current_hand.last_index + 1,
        {"type": "call"},
        written[mine.id],
    )
    for other in (moved, not_mine, held):
        assert after[other.id].seq == other.seq
        assert after[other.id].current_hand.snapshot == other.current_hand.snapshot
        assert not HandEvent.objects.filter(client_id=f"row-{other.id}").exists()


def test_a_batch_records_every_text_exactly(dealer):
    """The batch's columns go to PostgreSQL as binary arrays (no quoting of the texts): a player's name
    with quotes, a backslash, braces, commas and umlauts, a tablet's id with the same, and no actor or
    client id at all are recorded exactly as a single write records them."""
    first, second = dealt_tables(2, dealer=dealer)
    name = 'Jürgen "der Bär" {\\,} Öztürk ♠'
    snapshot = {"players": [{"player": name, "stack": 150}], "note": 'a "quoted", {braced} \\ text\nnext line'}
    written = run_batch(
        [
            row_for(
                first,
                dealer,
                payload_json=jsontext.dumps({"type": "call", "note": name}),
                client_id='tab "1", {a\\b}',
                snapshot_json=jsontext.dumps(snapshot),
            ),
            row_for(second, dealer, actor_id=None, client_id=None),
        ]
    )
    assert set(written) == {first.id, second.id}
    event = HandEvent.objects.get(table=first, seq=first.seq + 1)
    assert (event.payload, event.client_id) == ({"type": "call", "note": name}, 'tab "1", {a\\b}')
    assert Hand.objects.get(pk=first.current_hand_id).snapshot == snapshot
    bare = HandEvent.objects.get(table=second, seq=second.seq + 1)
    assert (bare.actor_id, bare.client_id, bare.payload) == (None, None, {"type": "call"})


def test_a_batch_that_fails_writes_nothing(dealer):
    first, second = dealt_tables(2, dealer=dealer)
    HandEvent.objects.filter(table=first, index=0).update(client_id="taken")
    with pytest.raises(psycopg.errors.UniqueViolation):
        run_batch([row_for(second, dealer), row_for(first, dealer, client_id="taken")])
    for table in (first, second):
        assert Table.objects.get(pk=table.pk).seq == table.seq
        assert Hand.objects.get(pk=table.current_hand_id).last_index == table.current_hand.last_index


@pytest.mark.asyncio
async def test_a_table_held_by_another_step_holds_up_no_other_table(floorman, settings):
    """The loop's one connection is not lent to a statement waiting for a row: the call at the held table
    goes to the normal path (which waits for the row on a thread), and the other table's call is answered
    at once."""
    settings.LOOP_CONNECTIONS = 1
    held_table, free_table = await database_sync_to_async(dealt_tables)(2)
    (held_ws, held_open), (free_ws, free_open) = [await open_tablet(t.id, floorman) for t in (held_table, free_table)]
    holder = await asyncio.to_thread(RowHolder, held_table.pk)
    try:
        seat = held_open["snapshot"]["hand"]["state"]["to_act_seat"]
        await held_ws.send_json_to({"type": "action", "client_id": "held", "action": {"type": "call", "seat": seat}})
        await asyncio.sleep(0.3)  # the held table's statement has met the row
        started = time.monotonic()
        seat = free_open["snapshot"]["hand"]["state"]["to_act_seat"]
        await free_ws.send_json_to({"type": "action", "client_id": "free", "action": {"type": "call", "seat": seat}})
        ack, _before = await answer(free_ws)
        took = time.monotonic() - started
        assert (ack["type"], ack["seq"]) == ("ack", free_open["seq"] + 1)
        assert took < 0.5, took
    finally:
        await asyncio.to_thread(holder.release)
    ack, _before = await answer(held_ws)  # written once the row was free
    assert (ack["type"], ack["seq"], ack["duplicate"]) == ("ack", held_open["seq"] + 1, False)
    for ws in (held_ws, free_ws):
        await ws.disconnect()
