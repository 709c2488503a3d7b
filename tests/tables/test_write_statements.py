"""A deal and a hand's end each record everything of theirs in ONE statement (tables.sql): the
hand, its start event, its snapshot and the table's button and seq at the deal; the last event, the
hand's end and the final stacks on the seats at the hand's end.  Fewer round trips on the service
thread: the GIL changes hands less often while the event loop serves the other tablets."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables import services
from tables.models import Hand, HandEvent, Seat, Table

pytestmark = pytest.mark.django_db(transaction=True)


def writes(queries, table_name):
    """The captured statements that write ``table_name`` (an INSERT or UPDATE of it)."""
    return [
        q["sql"]
        for q in queries.captured_queries
        if f"INSERT INTO {table_name} " in q["sql"] or f"UPDATE {table_name} " in q["sql"]
    ]


def test_the_deal_records_the_hand_its_start_and_the_tables_seq_in_one_statement(table):
    with CaptureQueriesContext(connection) as queries:
        outcome = services.start_hand(table.id)
    hands = writes(queries, Hand._meta.db_table)
    assert len(hands) == 1
    assert f"INSERT INTO {HandEvent._meta.db_table} " in hands[0]
    assert f"UPDATE {Table._meta.db_table} " in hands[0]
    hand = Hand.objects.get(table_id=table.id)
    start = HandEvent.objects.get(hand=hand)
    assert (start.index, start.kind, start.seq) == (0, "start", outcome.seq)
    assert (hand.snapshot_seq, hand.last_index) == (outcome.seq, 0)
    assert hand.snapshot["to_act_seat"] is not None and hand.snapshot["actions"] == 0
    row = Table.objects.get(pk=table.id)
    assert (row.seq, row.current_hand_id, row.button_seat) == (outcome.seq, hand.id, start.payload["button"])


def test_the_hands_end_records_the_event_the_end_and_the_stacks_in_one_statement(table):
    services.start_hand(table.id)
    while True:
        snapshot = Hand.objects.get(table_id=table.id).snapshot
        if sum(1 for p in snapshot["players"] if not p["folded"]) == 2:
            break
        services.apply_action(table.id, {"type": "fold", "seat": snapshot["to_act_seat"]})
    with CaptureQueriesContext(connection) as queries:
        outcome = services.apply_action(table.id, {"type": "fold", "seat": snapshot["to_act_seat"]}, fast=False)
    hands = writes(queries, Hand._meta.db_table)
    assert len(hands) == 1
    assert f"INSERT INTO {HandEvent._meta.db_table} " in hands[0]
    assert f"UPDATE {Seat._meta.db_table} " in hands[0]
    assert writes(queries, Seat._meta.db_table) == hands  # the stacks: no statement of their own
    hand = Hand.objects.get(table_id=table.id)
    assert hand.status == Hand.Status.COMPLETE and hand.ended_at is not None
    assert (hand.snapshot_seq, hand.snapshot["phase"]) == (outcome.seq, "complete")
    final = dict(zip([p["seat"] for p in hand.snapshot["players"]], hand.snapshot["final_stacks"], strict=True))
    assert {s.number: s.stack for s in Seat.objects.filter(table_id=table.id, number__in=final)} == final
    assert sum(final.values()) == 200 + 300 + 150 + 400
