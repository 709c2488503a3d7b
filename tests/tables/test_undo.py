"""The dealer takes back a wrong tap on the tablet (tables.services.hands.undo_action; poker.hand.undo:
000 Aktionen 2, 002 #5/#10, 004 #49/#52), and a stale double tap changes nothing."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from pokerfloor.routing import websocket_urlpatterns
from tables import services
from tables.models import Hand, HandEvent, Seat
from tables.services.hands import undo_action, undo_options


def started(table):
    """Hand 1 at ``table`` (seats 1, 3, 5, 7; button 1, blinds 3 and 5): seat 7 is to act."""
    services.start_hand(table.id)
    table.refresh_from_db()
    return table


def state(table):
    table.refresh_from_db()
    return table.current_hand.snapshot


@pytest.mark.django_db
def test_a_mistaken_fold_is_taken_back_and_flagged(table, dealer):
    table = started(table)
    services.apply_action(table.id, {"type": "fold", "seat": 7})
    assert state(table)["to_act_seat"] == 1
    before = HandEvent.objects.count()

    table.refresh_from_db()
    undo_action(table.id, actor=dealer, expected_seq=table.seq)
    view = state(table)
    assert view["to_act_seat"] == 7 and not next(p for p in view["players"] if p["seat"] == 7)["folded"]
    assert view["undone"] == [1] and view["corrected"]
    event = HandEvent.objects.order_by("-index").first()
    assert HandEvent.objects.count() == before + 1  # nothing recorded is rewritten
    assert event.kind == "correction" and event.payload["type"] == "undo" and event.payload["seat"] == 7
    assert [c["label"] for c in event.payload["citations"]] == ["TDA 2024 Rule 49", "TDA 2024 Rule 52"]
    assert HandEvent.objects.get(index=1).payload == {"type": "fold", "seat": 7}

    # the right action now, and the replay from scratch agrees
    services.apply_action(table.id, {"type": "call", "seat": 7})
    services.state_cache.clear()
    hand = Hand.objects.get(pk=table.current_hand_id)
    replayed, _, info = services.hand_replay(hand)
    assert replayed.to_act_seat == 1 and info["undone"] == [1]


@pytest.mark.django_db
def test_refused_once_the_next_player_acted_and_nothing_changes(table):
    table = started(table)
    services.apply_action(table.id, {"type": "fold", "seat": 7})
    services.apply_action(table.id, {"type": "call", "seat": 1})
    table.refresh_from_db()
    seq = table.seq
    with pytest.raises(services.ServiceError) as err:
        undo_action(table.id, 1)
    assert err.value.code == "next_player_acted" and err.value.extra["reason_de"]
    table.refresh_from_db()
    assert table.seq == seq and not HandEvent.objects.filter(kind="correction").exists()
    options = undo_options(table.id)
    assert [(a["index"], a["allowed"], a["street"]) for a in options["actions"]] == [
        (2, True, "preflop"),
        (1, False, "preflop"),
    ]


@pytest.mark.django_db
def test_a_fold_that_ended_the_hand_reopens_it_with_the_stacks_as_dealt(table):
    table = started(table)
    for seat in (7, 1, 3):
        services.apply_action(table.id, {"type": "fold", "seat": seat})
    table.refresh_from_db()
    assert table.current_hand.status == Hand.Status.COMPLETE
    assert Seat.objects.get(table=table, number=5).stack == 151
    undo_action(table.id)
    table.refresh_from_db()
    assert table.current_hand.status == Hand.Status.LIVE and state(table)["to_act_seat"] == 3
    assert Seat.objects.get(table=table, number=5).stack == 150
    assert Seat.objects.get(table=table, number=3).stack == 300


@pytest.mark.django_db
def test_a_stale_undo_is_refused(table):
    table = started(table)
    services.apply_action(table.id, {"type": "fold", "seat": 7})
    with pytest.raises(services.ServiceError) as err:
        undo_action(table.id, expected_seq=table.seq)  # the dealer saw the hand before the fold
    assert err.value.code == "stale"


app = URLRouter(websocket_urlpatterns)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_double_tap_records_one_action_and_the_floor_sees_the_undo(table, dealer, floorman):
    tablet = WebsocketCommunicator(app, f"/ws/tables/{table.id}/dealer/")
    tablet.scope["user"] = dealer
    assert (await tablet.connect())[0]
    seq = (await tablet.receive_json_from())["seq"]
    floor = WebsocketCommunicator(app, "/ws/floor/")
    floor.scope["user"] = floorman
    assert (await floor.connect())[0]
    await floor.receive_json_from()
    await floor.receive_json_from()

    async def reply(client_id):
        while True:
            msg = await tablet.receive_json_from()
            if msg.get("client_id") == client_id:
                return msg

    await tablet.send_json_to({"type": "start_hand", "client_id": "s", "expected_seq": seq})
    assert (await reply("s"))["seq"] == seq + 1
    # two taps on "Fold" with the seq the dealer saw: the second one is stale and changes nothing
    for cid in ("t1", "t2"):
        await tablet.send_json_to(
            {"type": "action", "client_id": cid, "expected_seq": seq + 1, "action": {"type": "fold", "seat": 7}}
        )
    first, second = await reply("t1"), await reply("t2")
    assert first["type"] == "ack" and second["type"] == "error" and second["code"] == "stale"
    assert await database_sync_to_async(HandEvent.objects.filter(kind="action").count)() == 1

    await tablet.send_json_to({"type": "undo_options", "client_id": "o"})
    options = await reply("o")
    assert options["type"] == "undo_options" and options["actions"][0]["allowed"]
    await tablet.send_json_to({"type": "undo", "client_id": "u", "expected_seq": seq + 2})
    assert (await reply("u"))["type"] == "ack"
    update = None
    while update is None:  # the floor's updates of one tick come as a batch (static/js/socket.js unpacks it)
        message = await floor.receive_json_from()
        for item in message["messages"] if message["type"] == "batch" else [message]:
            if item["type"] == "update" and item["seq"] == seq + 3:
                update = item
    assert update["snapshot"]["hand"]["state"]["undone"] == [1]
    assert update["snapshot"]["hand"]["last_event"]["payload"]["type"] == "undo"
    await tablet.disconnect()
    await floor.disconnect()
