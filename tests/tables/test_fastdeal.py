"""The next deal in one statement on the event loop (tables.services.fastdeal): after a hand whose end
the fast path wrote, the dealer's "start" is answered without a service thread, and it records what
the locked step records; wherever memory might not be the database's truth (a seat changed behind its
back), an app's deal hook has work, or the deal needs more than one event (an absent player's dead
hand), the locked step deals instead, as it always did."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from pokerfloor.routing import websocket_urlpatterns
from tables import hooks, probes, services
from tables.models import Hand, HandEvent, Seat, Table
from tests.tables.tablet import reply_to

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

app = URLRouter(websocket_urlpatterns)


async def tablet(table, dealer):
    """A dealer's tablet connected to ``table``, and its opening snapshot."""
    ws = WebsocketCommunicator(app, f"/ws/tables/{table.id}/dealer/")
    ws.scope["user"] = dealer
    assert (await ws.connect())[0]
    return ws, (await ws.receive_json_from())["snapshot"]


async def fold_to_the_end(ws, snapshot, prefix: str, timeout: float = 10) -> dict:
    """Fold until the hand is over (through the fast path: its end keeps the seats for the next deal)."""
    n = 0
    while snapshot["hand"]["status"] == "live":
        seat = snapshot["hand"]["state"]["to_act_seat"]
        message = {"type": "action", "client_id": f"{prefix}{n}", "action": {"type": "fold", "seat": seat}}
        ack, before = await reply_to(ws, message, timeout)
        assert ack["type"] == "ack", ack
        snapshot, n = before[-1]["snapshot"], n + 1
    return snapshot


def _hand_record(table_id: int) -> dict:
    hand = Hand.objects.filter(table_id=table_id).order_by("-number").first()
    start = HandEvent.objects.get(hand=hand, index=0)
    table = Table.objects.get(pk=table_id)
    return {
        "number": hand.number,
        "status": hand.status,
        "spec": hand.spec,
        "players": {
            seat: Seat.objects.get(table_id=table_id, number=seat, player_id=player_id).player.name
            for seat, player_id in hand.metadata["player_ids"].items()
        },
        "snapshot": hand.snapshot,
        "start": [start.kind, start.payload, start.seq == table.seq == hand.snapshot_seq],
        "button": table.button_seat,
        "current": table.current_hand_id == hand.id,
    }


async def test_the_next_deal_is_answered_on_the_loop_and_records_what_the_locked_step_records(
    table, dealer, busy_threads
):
    twin = await database_sync_to_async(services.create_table)("Twin", small_blind=1, big_blind=2, dealer=dealer)
    for seat, name, stack in [(1, "Anna", 200), (3, "Ben", 300), (5, "Clara", 150), (7, "David", 400)]:
        await database_sync_to_async(services.seat_player)(twin.id, seat, f"{name} 2", stack)
    await database_sync_to_async(services.start_hand)(table.id)
    ws, snapshot = await tablet(table, dealer)
    over = await fold_to_the_end(ws, snapshot, "f", timeout=3)  # every service thread is busy
    seq = over["seq"]

    ack, before = await reply_to(ws, {"type": "start_hand", "client_id": "deal-2"}, 3)

    assert ack["type"] == "ack" and ack["seq"] == seq + 1, ack
    dealt = before[-1]["snapshot"]
    assert (dealt["seq"], dealt["hand"]["number"], dealt["hand"]["status"]) == (seq + 1, 2, "live")
    assert dealt["table"]["button_seat"] == over["next_button_seat"]
    assert dealt["hand"]["last_event"]["payload"] == {"type": "start", "button": over["next_button_seat"]}
    left = {s["number"]: s["stack"] for s in over["seats"]}
    assert {p["seat"]: p["starting_stack"] for p in dealt["hand"]["state"]["players"]} == {
        n: left[n] for n in (1, 3, 5, 7)
    }
    mine = await database_sync_to_async(_hand_record)(table.id)
    # the hand plays on from there through the fast path
    ack, before = await reply_to(
        ws,
        {
            "type": "action",
            "client_id": "c1",
            "action": {"type": "call", "seat": dealt["hand"]["state"]["to_act_seat"]},
        },
        3,
    )
    assert ack["type"] == "ack" and ack["seq"] == seq + 2, ack
    await ws.disconnect()

    def deal_the_twin_as_the_step_does():
        services.start_hand(twin.id)
        for _ in range(3):
            to_act = Hand.objects.get(table_id=twin.id).snapshot["to_act_seat"]
            services.apply_action(twin.id, {"type": "fold", "seat": to_act}, fast=False)
        services.start_hand(twin.id)

    await database_sync_to_async(deal_the_twin_as_the_step_does)()
    theirs = await database_sync_to_async(_hand_record)(twin.id)
    # the twin's players are "Anna 2", ...: the same hand but for their names
    assert json.loads(json.dumps(theirs).replace(' 2"', '"')) == mine


async def test_a_seat_changed_behind_the_memorys_back_is_dealt_as_the_database_says(table, dealer):
    await database_sync_to_async(services.start_hand)(table.id)
    ws, snapshot = await tablet(table, dealer)
    over = await fold_to_the_end(ws, snapshot, "f")
    # another process, another app: the stack of seat 7 changes without the table's seq
    await database_sync_to_async(Seat.objects.filter(table_id=table.id, number=7).update)(stack=999)

    ack, before = await reply_to(ws, {"type": "start_hand", "client_id": "deal-2"})

    assert ack["type"] == "ack" and ack["seq"] == over["seq"] + 1, ack
    spec = await database_sync_to_async(lambda: Hand.objects.get(table_id=table.id, number=2).spec)()
    assert {s["seat"]: s["stack"] for s in spec["seats"]}[7] == 999
    update = before[-1] if before else await ws.receive_json_from()  # the step's update follows its ack
    assert update["seq"] == ack["seq"]
    assert {s["number"]: s["stack"] for s in update["snapshot"]["seats"]}[7] == 999
    await ws.disconnect()


async def test_stakes_changed_behind_the_memorys_back_are_dealt_as_the_database_says(table, dealer):
    """The blinds raised to 2/4 without the table's seq (the Django admin, another process): the next
    hand posts 2/4, not the 1/2 the memory had."""
    await database_sync_to_async(services.start_hand)(table.id)
    ws, snapshot = await tablet(table, dealer)
    await fold_to_the_end(ws, snapshot, "f")
    await database_sync_to_async(Table.objects.filter(pk=table.id).update)(small_blind=2, big_blind=4)

    ack, _before = await reply_to(ws, {"type": "start_hand", "client_id": "deal-2"})

    assert ack["type"] == "ack", ack
    spec = await database_sync_to_async(lambda: Hand.objects.get(table_id=table.id, number=2).spec)()
    assert sorted(spec["blinds_or_straddles"])[-2:] == [2, 4]
    await ws.disconnect()


async def test_a_deal_hook_with_work_at_the_table_runs_in_the_locked_step(table, dealer):
    seen = []

    def before_deal(t):
        seen.append(t.id)

    probes.register(before_deal, f"t.id = {int(table.id)}")
    try:
        with hooks.replaced("before_deal", before_deal):
            await database_sync_to_async(services.start_hand)(table.id)
            ws, snapshot = await tablet(table, dealer)
            await fold_to_the_end(ws, snapshot, "f")
            ack, _before = await reply_to(ws, {"type": "start_hand", "client_id": "deal-2"})
    finally:
        probes.unregister(before_deal)
    assert ack["type"] == "ack", ack
    assert seen == [table.id, table.id]  # the first deal and the second
    await ws.disconnect()


async def test_an_absent_players_dead_hand_is_dealt_by_the_locked_step_with_its_kill(table, dealer):
    """Ben (seat 3) is away from the table at both deals: his hand is dead from the start (000
    Allgemein 6), an event more than the one statement writes, so the locked step deals."""
    await database_sync_to_async(Seat.objects.filter(table_id=table.id, number=3).update)(absent=True)
    await database_sync_to_async(services.start_hand)(table.id)
    ws, snapshot = await tablet(table, dealer)
    await fold_to_the_end(ws, snapshot, "f")

    ack, _before = await reply_to(ws, {"type": "start_hand", "client_id": "deal-2"})

    assert ack["type"] == "ack", ack

    def events():
        hand = Hand.objects.get(table_id=table.id, number=2)
        return [(e.kind, e.payload.get("seat"), e.payload.get("reason")) for e in hand.events.order_by("index")]

    kinds = await database_sync_to_async(events)()
    assert kinds[0][0] == "start" and ("action", 3, "absent") in kinds
    await ws.disconnect()


async def test_a_deal_sent_again_is_acknowledged_with_its_first_seq_and_dealt_once(table, dealer):
    """The tablet lost the ack of its "start" and sends it again with the same client_id: the same seq,
    one hand."""
    await database_sync_to_async(services.start_hand)(table.id)
    ws, snapshot = await tablet(table, dealer)
    over = await fold_to_the_end(ws, snapshot, "f")
    first, _before = await reply_to(ws, {"type": "start_hand", "client_id": "deal-2"})
    again, _before = await reply_to(ws, {"type": "start_hand", "client_id": "deal-2"})
    assert (first["type"], first["seq"], first["duplicate"]) == ("ack", over["seq"] + 1, False), first
    assert (again["type"], again["seq"], again["duplicate"]) == ("ack", first["seq"], True), again
    assert await database_sync_to_async(Hand.objects.filter(table_id=table.id).count)() == 2
    await ws.disconnect()
