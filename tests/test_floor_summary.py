"""The floor socket at room scale (issue 26): on connect a summary per table (what a row of the room map
shows), grouped by section; updates summarised unless the dashboard watches the table, whose snapshot and
updates then come whole."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from pokerfloor.routing import websocket_urlpatterns
from tables import services
from tables.floor_summary import summary_text, tile_summary
from tables.models import Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

app = URLRouter(websocket_urlpatterns)


def _room(dealer):
    """Three open tables: "Table 1" (section B, a live hand), "Table 2" (section A), "Table 3" (section B)."""
    ids = []
    for n, section in ((1, "B"), (2, "A"), (3, "B")):
        table = services.create_table(f"Table {n}", small_blind=1, big_blind=2, dealer=dealer)
        Table.objects.filter(pk=table.id).update(section=section)
        for seat, name, stack in [(1, f"Anna{n}", 200), (3, f"Ben{n}", 300), (5, f"Clara{n}", 150)]:
            services.seat_player(table.id, seat, name, stack)
        ids.append(table.id)
    services.start_hand(ids[0])
    return ids


async def _floor(user):
    ws = WebsocketCommunicator(app, "/ws/floor/")
    ws.scope["user"] = user
    connected, _ = await ws.connect()
    assert connected
    return ws


async def _next_update(ws, table_id):
    """The next ``update`` of ``table_id`` (unpacking ``batch`` frames)."""
    while True:
        message = await ws.receive_json_from(timeout=5)
        for item in message["messages"] if message["type"] == "batch" else [message]:
            if item["type"] == "update" and item["snapshot"]["table"]["id"] == table_id:
                return item


async def test_the_floor_connects_with_a_summary_per_table_by_section_and_a_fraction_of_the_bytes(dealer, floorman):
    ids = await database_sync_to_async(_room)(dealer)
    full = await database_sync_to_async(lambda: services.table_snapshot(Table.objects.get(pk=ids[0])))()
    ws = await _floor(floorman)
    first = await ws.receive_json_from(timeout=5)
    assert first["type"] == "floor_snapshot"
    tables = first["tables"]
    # by section, then name: A (Table 2) before B (Tables 1 and 3)
    assert [(t["table"]["section"], t["table"]["name"]) for t in tables] == [
        ("A", "Table 2"),
        ("B", "Table 1"),
        ("B", "Table 3"),
    ]
    live = tables[1]
    assert live["summary"] is True and live["seq"] == full["seq"]
    # what a row shows: stakes, the seated players, the hand's number, who is to act, the pot
    assert (live["table"]["small_blind"], live["table"]["big_blind"], live["table"]["dealer"]) == (1, 2, "dealer")
    assert [s["player"] for s in live["seats"]] == ["Anna1", "Ben1", "Clara1"]
    state = live["hand"]["state"]
    assert live["hand"]["number"] == 1
    assert state["to_act_seat"] == full["hand"]["state"]["to_act_seat"]
    assert state["total_pot"] == 3
    # not what only a detailed tile shows: stacks, the players' hand state, the legal actions
    assert "players" not in state and "legal" not in state and "stack" not in live["seats"][0]
    assert len(json.dumps(live)) * 2 < len(json.dumps(full))
    assert (await ws.receive_json_from(timeout=5))["type"] == "floor_calls"
    await ws.disconnect()


async def test_updates_come_summarised_until_the_dashboard_watches_the_table(dealer, floorman):
    ids = await database_sync_to_async(_room)(dealer)
    live = ids[0]
    ws = await _floor(floorman)
    await ws.receive_json_from(timeout=5)
    await ws.receive_json_from(timeout=5)
    table = await database_sync_to_async(Table.objects.get)(pk=live)
    seat = (await database_sync_to_async(services.table_snapshot)(table))["hand"]["state"]["to_act_seat"]

    await database_sync_to_async(services.apply_action)(live, {"type": "call", "seat": seat})
    update = await _next_update(ws, live)
    assert update["snapshot"]["summary"] is True
    assert update["snapshot"]["hand"]["state"]["total_pot"] == 5  # three-handed: 1 + 2 + a call of 2
    assert update["snapshot"]["hand"]["last_event"]["payload"]["type"] == "call"
    assert "players" not in update["snapshot"]["hand"]["state"]

    # watched: the full snapshot at once, then whole updates
    await ws.send_json_to({"type": "watch", "table_ids": [live]})
    snapshot = await ws.receive_json_from(timeout=5)
    assert snapshot["type"] == "snapshot" and snapshot["snapshot"]["table"]["id"] == live
    assert "summary" not in snapshot["snapshot"] and snapshot["snapshot"]["hand"]["state"]["players"]
    seat = snapshot["snapshot"]["hand"]["state"]["to_act_seat"]
    await database_sync_to_async(services.apply_action)(live, {"type": "fold", "seat": seat})
    update = await _next_update(ws, live)
    assert "summary" not in update["snapshot"] and update["snapshot"]["hand"]["state"]["players"]

    # unwatched again: summaries
    await ws.send_json_to({"type": "watch", "table_ids": []})
    # the socket takes its messages in order: its pong says the watch list is read (the update below
    # comes another way, through the floor's group, and could otherwise overtake it)
    await ws.send_to(text_data='{"type":"ping"}')
    while (await ws.receive_json_from(timeout=5))["type"] != "pong":
        pass
    seat = update["snapshot"]["hand"]["state"]["to_act_seat"]
    await database_sync_to_async(services.apply_action)(live, {"type": "check", "seat": seat})  # the big blind's option
    update = await _next_update(ws, live)
    assert update["snapshot"]["summary"] is True
    await ws.disconnect()


async def test_a_watch_list_longer_than_a_hundred_tables_is_refused(dealer, floorman):
    await database_sync_to_async(_room)(dealer)
    ws = await _floor(floorman)
    await ws.receive_json_from(timeout=5)
    await ws.receive_json_from(timeout=5)
    await ws.send_json_to({"type": "watch", "table_ids": list(range(1, 102))})
    reply = await ws.receive_json_from(timeout=5)
    assert reply["type"] == "error" and reply["code"] == "invalid" and reply["field"] == "table_ids"
    await ws.disconnect()


async def test_a_message_that_is_no_update_passes_unchanged():
    assert summary_text('{"type":"floor_call","call":{"id":1}}') is None
    text = summary_text(
        json.dumps(
            {
                "type": "update",
                "seq": 7,
                "snapshot": {
                    "seq": 7,
                    "table": {"id": 3, "name": "T", "straddle_kinds": ["utg"]},
                    "seats": [{"number": 1, "player": None, "stack": 0}],
                    "hand": None,
                },
            },
            separators=(",", ":"),
        )
    )
    assert json.loads(text) == {
        "type": "update",
        "seq": 7,
        "snapshot": {"seq": 7, "summary": True, "table": {"id": 3, "name": "T"}, "seats": [], "hand": None},
    }
    assert tile_summary({"summary": True, "seq": 1}) == {"summary": True, "seq": 1}


async def test_the_room_comes_in_parts_of_at_most_snapshot_page_tables(dealer, floorman, monkeypatch):
    """A big room's floor_snapshot comes in frames (daphne refuses a frame over 1 MiB: the full snapshots of
    1,000 tables were 2.9 MB and never reached the page): here two tables a frame."""
    from tables.consumers import FloorConsumer

    monkeypatch.setattr(FloorConsumer, "SNAPSHOT_PAGE", 2)
    await database_sync_to_async(_room)(dealer)
    ws = await _floor(floorman)
    first, second = await ws.receive_json_from(timeout=5), await ws.receive_json_from(timeout=5)
    assert (first["type"], first["part"], first["parts"], len(first["tables"])) == ("floor_snapshot", 1, 2, 2)
    assert (second["type"], second["part"], second["parts"], len(second["tables"])) == ("floor_snapshot", 2, 2, 1)
    names = [t["table"]["name"] for t in first["tables"] + second["tables"]]
    assert names == ["Table 2", "Table 1", "Table 3"]
    assert (await ws.receive_json_from(timeout=5))["type"] == "floor_calls"
    await ws.send_json_to({"type": "snapshot"})
    again = [await ws.receive_json_from(timeout=5) for _ in range(2)]
    assert [m["part"] for m in again] == [1, 2]
    await ws.disconnect()
